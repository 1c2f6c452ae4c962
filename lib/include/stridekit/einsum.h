// Einsum execution: out = einsum(spec, operands...) over any views, for
// float32, float64, int32 and int64. `spec` is NumPy subscripts ("ij,jk->ik",
// implicit output, "...", repeated labels for diagonals, any number of
// operands) or OCANNL labels ("ij;jk=>ik", operands' axes in memory order
// batch, output, input), told apart by "=>".
//
// Semantics: each operand is read through its view over the product space
// of the projections (stride 0 for absent labels, summed strides for
// diagonals, fixed indices as offsets); masked-out input positions read 0;
// out's masked-out positions are not written; inputs overlapping out behave
// as if copied first. Products and sums are in the dtype (integers wrap,
// like NumPy's same-dtype einsum). out's shape must be the inferred one.
//
// Execution (this version): the product space is walked by a loop nest
// ordered like the iteration planner (largest strides outermost) into a
// C-contiguous accumulator, which is then copied into out. Two-operand inner
// loops with unit strides run as compiler-vectorised row updates (matrix
// products) or dot products in eight partial sums; others element by
// element. Float sums add in that order; the error is within
// (R + 2) u sum |products| for R reduced positions per output element.
// No Highway kernels, cache blocking or pairwise contraction order yet.
#ifndef STRIDEKIT_EINSUM_H_
#define STRIDEKIT_EINSUM_H_

#include <span>
#include <string_view>

#include "stridekit/dtype.h"
#include "stridekit/stridekit.h"

namespace stridekit {

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data);

}  // namespace stridekit

#endif  // STRIDEKIT_EINSUM_H_
