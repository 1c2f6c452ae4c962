// The multiply-add rule (simd/common/multiply_add-inl.h) as a kernel of its
// own: what tests/multiply_add_test.cc holds against std::fma on every target.
#ifndef STRIDEKIT_SIMD_CONTRACTION_MULTIPLY_ADD_TASK_H_
#define STRIDEKIT_SIMD_CONTRACTION_MULTIPLY_ADD_TASK_H_

#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/dtype.h"

namespace stridekit::simd {

// out[i] = a[i] * b[i] + c[i] rounded once (the rule) for i < n, on
// Float32 or Float64 arrays (other dtypes: nothing is written). Returns the
// HWY_TARGET it ran.
using MultiplyAddKernel = int64_t (*)(DType t, const void* a, const void* b,
                                      const void* c, void* out, int64_t n);
KernelTable<MultiplyAddKernel> MultiplyAddKernels();

}  // namespace stridekit::simd

#endif  // STRIDEKIT_SIMD_CONTRACTION_MULTIPLY_ADD_TASK_H_
