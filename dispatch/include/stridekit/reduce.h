// Reductions over any set of axes of a view (docs/c_abi.md "Data kernels"):
// out = sum / prod / min / max of `in` over `axes`, same dtype in and out
// (NumPy's reduce with dtype= and out= of that dtype): every dtype for sum
// and prod, all but complex for min and max. Bool sums are logical or,
// products and min logical and, max logical or (results 0 or 1). Float16
// and bfloat16 accumulate in float32 (pairwise as below, over blocks of 512
// elements) and round once at the end.
// kAny and kAll take every dtype and write bool (out is DType::kBool): an
// element is true when != 0 (a NaN is true; complex: either part); no
// elements give false (any) and true (all). kMean (float dtypes) is the sum
// below divided by the count in the accumulator's type (float32 for
// float16 and bfloat16, rounded once), NaN for no elements; NumPy's mean of
// integers, bool and complex has another dtype: kUnsupported.
//
// out's shape is in's shape with the reduced axes removed, or kept as 1
// (keepdims), told apart by out's rank. Axes may be negative; a repeated or
// out-of-range axis throws kInvalidArgument; no axes copies the input.
// Masked-out input positions read zero; masked-out out positions are not
// written; out may overlap in. The accumulator and any materialised input
// are allocated before out is written, so kNoMemory leaves out untouched.
//
// Semantics:
// - An empty reduction gives 0 (sum) and 1 (prod); kMin / kMax over an
//   empty axis throw kInvalidArgument like NumPy ("zero-size array to
//   reduction operation minimum which has no identity").
// - Integers are exact with wrap-around (two's complement, like NumPy's
//   same-dtype reductions).
// - Float kMin / kMax propagate NaN like np.min / np.max; the sign of a zero
//   result of min/max over both -0.0 and +0.0 is unspecified.
// - Order of float sums and products (dispatched kernels): the input is
//   walked in its own memory order (axes by decreasing |stride|, coalesced).
//   When the innermost axis is reduced, each row along it is reduced
//   pairwise: leaves of at most kPairwiseBlock vectors in eight vector
//   accumulators, halves combined recursively, the lanes folded as a
//   balanced tree; the row results are then added to the output element in
//   order. When the innermost axis is kept, input rows are added
//   elementwise into the output's row (vector accumulators) in order, four
//   consecutive rows at a time as out + ((r0 + r1) + (r2 + r3)) when both
//   rows are contiguous.
//   Bound, with u the unit roundoff, R the number of reduced elements per
//   output element and L the length of the pairwise rows (1 when the
//   innermost axis is kept):
//     |sum - exact| <= (R / L + ceil(log2 L) + kPairwiseBlock / 8 + 4) * u *
//                      sum |x|      (to first order; <= (R + 2) u sum |x|),
//   never worse than NumPy's (pairwise along the inner axis, sequential
//   across the others); products likewise relative to |exact|. With P > 1
//   threads (NumericOptions) the input splits into P parts. When a kept
//   axis has at least 8 P positions, the longest such axis is split: every
//   output element is reduced within one part as above, and the results are
//   those of one thread. Otherwise (few outputs) the longest axis is split,
//   each part is reduced into its own accumulator, and the P results
//   combine in part order: the bound grows by P u sum |x|, and float
//   results depend on P (integers and min/max do not). The
//   reference accumulates in long double and rounds once.
#ifndef STRIDEKIT_REDUCE_H_
#define STRIDEKIT_REDUCE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <span>

#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

namespace stridekit {

void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data,
            const NumericOptions& options = {});

// The same on stridekit::View (view.h), the validated C++ view.
inline void Reduce(ReduceOp op, DType t, const View& in, const void* in_data,
                   std::span<const int32_t> axes, const View& out,
                   void* out_data, const NumericOptions& options = {}) {
  Reduce(op, t, in.ToC(), in_data, axes, out.ToC(), out_data, options);
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_REDUCE_H_
