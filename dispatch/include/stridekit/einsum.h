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
// Every temporary is allocated before out is first written, so kNoMemory
// leaves out untouched.
//
// Execution: terms used by one operand only are summed first; three or
// more operands are contracted pairwise in opt_einsum's greedy order
// (smallest intermediate first) unless one loop nest over the product space
// is cheaper and sums at most 128 products per output element; each pair
// (and each single-operand sum, a product with ones) runs as a batch of
// packed, cache-blocked matrix products on the active target, or as a loop
// nest when a product is tiny and sums at most 128 terms.
// Summation (simd/contraction/contraction_task.h, the same bits on every
// target): a product of N factors multiplies the first N - 1 and joins its sum
// with the last by one fused multiply-add (rounded once, std::fma's bits: the
// hardware instruction where the target has one, an exact emulation where
// not, see simd/common/multiply_add-inl.h); each sum of K products
// is formed in blocks of at most 128 consecutive products, and the block
// sums are combined pairwise (a binary tree over blocks, the engine of
// sk_reduce's pairwise rows), like NumPy's pairwise summation.
// Float error bound, to first order in u (the unit roundoff): a contraction
// summing R_s products per element in stage s (stages: the single-operand
// sums, then one per pairwise product; one stage for a sum, a dot or a
// matrix product) of N operands is within
//   (sum_s b(R_s) + N + 2) u sum |products|,
//   b(R) = min(R, 128) + ceil(log2(ceil(R / 128))),
// so O(log R) growth (b(2^20) = 141), and never above the sequential
// (R + N + 2 + stages) u sum |products|.
// Threads (options.threads; sk_set_threads through the C ABI): each matrix
// product is split over its batch positions, or over its rows or columns
// (never over k), each part with packing scratch of its own; loop nests
// over the output's outermost loop. Every element is summed by one thread
// in the order above, so results are the same bits for any thread count.
// Products of fewer than about 2^18 multiply-adds per thread, and loop
// nests of fewer than 2^15 operand reads per thread, use fewer threads.
// The "reference" target runs the plain loop over the product space, in long
// double for floats, on one thread: an independent oracle held to the bound
// above, not to the other targets' bits.
#ifndef STRIDEKIT_EINSUM_H_
#define STRIDEKIT_EINSUM_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <span>
#include <string_view>

#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/ocannl_labels.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

namespace stridekit {

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data, const NumericOptions& options = {});

// The same on stridekit::View (view.h), the validated C++ view.
void Einsum(std::string_view spec, DType t, std::span<const View> operands,
            std::span<const void* const> datas, const View& out, void* out_data,
            const NumericOptions& options = {});

// OCANNL labels with each operand's row lengths given (rows[i] for
// operands[i]; LabelsEinsumProjections of shape_inference.h), for specs
// whose slots have row variables in two or more rows, which cannot be split
// from the operands' flat shapes. NumPy subscripts take no rows.
void EinsumRows(std::string_view spec, std::span<const RowLengths> rows,
                DType t, std::span<const sk_view> operands,
                std::span<const void* const> datas, const sk_view& out,
                void* out_data, const NumericOptions& options = {});

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_EINSUM_H_
