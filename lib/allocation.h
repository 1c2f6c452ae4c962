// The allocation point of stridekit's kernel temporaries: every data buffer
// (overlap copies, materialised arrays, reduction accumulators, einsum
// intermediates) comes from AllocateBuffer, so a failure surfaces as
// ErrorKind::kNoMemory (SK_ERR_NOMEM) and tests can inject one. Small
// metadata containers (std::vector of plans, terms, tables) still allocate
// through operator new; their std::bad_alloc becomes SK_ERR_NOMEM at the C
// ABI boundary (dispatch/c_api/c_api_internal.h).
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
