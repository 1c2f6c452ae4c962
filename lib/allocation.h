// The one allocation point of stridekit's kernels: every temporary buffer
// (overlap copies, materialised arrays, reduction scratch, einsum
// intermediates) comes from AllocateBuffer, so a failure surfaces as
// ErrorKind::kNoMemory (SK_ERR_NOMEM) and tests can inject one.
#ifndef STRIDEKIT_LIB_ALLOCATION_H_
#define STRIDEKIT_LIB_ALLOCATION_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "stridekit/buffer.h"

namespace stridekit {

// `bytes` uninitialised bytes (aligned for any element type). Throws
// kNoMemory naming `op` when the allocation fails, or is made to fail.
Buffer AllocateBuffer(int64_t bytes, const char* op);

// Test hook: the allocation after `successes` more successful ones fails
// (on any thread), once; a negative value disables injection (the
// default).
void FailAllocationAfterForTest(int64_t successes);

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_ALLOCATION_H_
