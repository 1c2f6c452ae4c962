// Comparisons and predicates over views (docs/c_abi.md "Data kernels"):
// out (SK_BOOL, bytes 0 or 1) = a op b, or op(a) for the predicates isnan,
// isinf, isfinite (sk_unary values 17..19), for every dtype (the rows of
// STRIDEKIT_COMPARE_OPS and STRIDEKIT_PREDICATE_OPS in stridekit/ops.h).
//
// Inputs (dtype t) broadcast to out's shape (NumPy rules); masked-out input
// positions read zero; masked-out out positions are not written. Any
// overlap of an input with out behaves as if the input were first copied
// to a temporary.
//
// Semantics (NumPy 1.24's ufuncs):
// - Floats are IEEE: a NaN compares false except in kNe (true); -0.0 ==
//   +0.0. Float16 and bfloat16 compare their exact float32 values.
// - Bool compares as 0/1 (any non-zero byte is true).
// - Complex: kEq when both parts are equal, kNe otherwise; kLt, kLe, kGt,
//   kGe throw kUnsupported (NumPy 1.24 orders complex lexicographically;
//   stridekit refuses).
// - Predicates: integers and bool are never NaN nor infinite and always
//   finite; complex is NaN (infinite) when either part is, finite when both
//   parts are.
// Threads (NumericOptions) split out's valid box into parts; results are
// the same for every thread count and target. The reference versions are
// reference::Compare and reference::Predicate (lib/reference_kernels.h).
#ifndef STRIDEKIT_COMPARE_H_
#define STRIDEKIT_COMPARE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

namespace stridekit {

void Compare(CompareOp op, DType t, const sk_view& a, const void* a_data,
             const sk_view& b, const void* b_data, const sk_view& out,
             void* out_data, const NumericOptions& options = {});
void Predicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& out, void* out_data,
               const NumericOptions& options = {});

// The same on stridekit::View (view.h).
inline void Compare(CompareOp op, DType t, const View& a, const void* a_data,
                    const View& b, const void* b_data, const View& out,
                    void* out_data, const NumericOptions& options = {}) {
  Compare(op, t, a.ToC(), a_data, b.ToC(), b_data, out.ToC(), out_data,
          options);
}
inline void Predicate(PredicateOp op, DType t, const View& a,
                      const void* a_data, const View& out, void* out_data,
                      const NumericOptions& options = {}) {
  Predicate(op, t, a.ToC(), a_data, out.ToC(), out_data, options);
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_COMPARE_H_
