// The multiply-add rule of every compute kernel
// (simd/common/multiply_add-inl.h) on the selected target, on its own: the hook
// that tests hold against std::fma on every target.
#ifndef STRIDEKIT_DISPATCH_MULTIPLY_ADD_H_
#define STRIDEKIT_DISPATCH_MULTIPLY_ADD_H_

#include <cstdint>

#include "stridekit/dtype.h"

namespace stridekit::dispatch {

// out[i] = a[i] * b[i] + c[i] rounded once for i < n (n >= 0), float32 or
// float64 arrays (t), on the selected executor (the reference: std::fma).
// Throws kUnsupported for other dtypes.
void MultiplyAdd(DType t, const void* a, const void* b, const void* c,
                 void* out, int64_t n);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_MULTIPLY_ADD_H_
