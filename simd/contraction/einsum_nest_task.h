// What the per-target einsum nest kernel runs: a small contraction as one
// loop nest resolved when its plan is made (dispatch/einsum_direct.cc).
#ifndef STRIDEKIT_SIMD_CONTRACTION_EINSUM_NEST_TASK_H_
#define STRIDEKIT_SIMD_CONTRACTION_EINSUM_NEST_TASK_H_

#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/dims.h"
#include "stridekit/dtype.h"

namespace stridekit {

// Operands a nest takes.
inline constexpr int kMaxDirectTerms = 4;

// The nest: `loops` loops of `sizes` (outermost first); row 0 of `strides`
// and `offsets` is out's (0 along summed loops), row t + 1 operand t's, in
// elements; lo and hi bound each one's bytes from its data pointer.
// out_dense: out's positions fill [lo[0], hi[0]) (zeroed as one block).
// The arrays are left uninitialised on construction (the constructor is
// user-provided, so not even value-initialisation zeroes them): only the
// first `loops` and `terms` + 1 entries are set and read.
struct DirectEinsum {
  DirectEinsum() {}  // NOLINT(modernize-use-equals-default): see above.
  int terms = 0;
  int loops = 0;
  bool out_dense = false;
  int64_t sizes[kMaxRank];
  int64_t strides[kMaxDirectTerms + 1][kMaxRank];
  int64_t offsets[kMaxDirectTerms + 1];
  int64_t lo[kMaxDirectTerms + 1], hi[kMaxDirectTerms + 1];
};

namespace simd {

// Zeroes out's positions, then adds every product of the nest to its out
// element in loop order: the product of the first terms - 1 factors
// (rounded multiplications, left to right) joins the sum with the last
// factor by the multiply-add rule (simd/common/multiply_add-inl.h), so every
// target gives the same bits. dtype is Float32, Float64, Int32 or Int64
// (integers wrap); out overlaps no input. Returns the HWY_TARGET it ran.
using EinsumNestKernel = int64_t (*)(const DirectEinsum& nest, DType dtype,
                                     const void* const* inputs, void* out);
KernelTable<EinsumNestKernel> EinsumNestKernels();

}  // namespace simd
}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_CONTRACTION_EINSUM_NEST_TASK_H_
