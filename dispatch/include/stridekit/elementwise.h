// Broadcasting elementwise kernels over views (docs/c_abi.md "Data kernels"):
// out = op(a, b) or out = op(a), same dtype in and out, for every dtype
// where NumPy has the same-dtype loop (the op table, stridekit/ops.h).
//
// Inputs broadcast to out's shape (NumPy rules). Masked-out input positions
// read zero; masked-out out positions are not written. An input may be the
// output itself (same element at every position: in-place `a += b`); any
// other overlap behaves as if every input were first copied to a temporary.
//
// Semantics (NumPy's ufuncs unless stated):
// - Floats are IEEE: kDiv is np.divide, kSqrt of a negative is NaN.
// - kMin / kMax are np.minimum / np.maximum: a NaN operand propagates (a's
//   when both are NaN), and between equal values (-0.0 and +0.0) b wins.
// - Integers wrap around on overflow (two's complement, like NumPy): kAdd,
//   kSub, kMul, kNeg, kSquare, and kAbs of the minimum value returns it.
// - Integer kDiv is np.floor_divide (the quotient rounded towards negative
//   infinity). A zero divisor throws kInvalidArgument and the minimum value
//   divided by -1 throws kOutOfRange, in both cases before any output is
//   written (NumPy warns and writes 0 / the minimum instead).
// - Integer kSqrt throws kUnsupported (NumPy returns floats; stridekit keeps
//   the dtype). Unsigned kNeg wraps; unsigned kAbs is the identity.
// - Bool: kAdd and kMax are logical or, kMul and kMin logical and, kAbs is
//   != 0; results are 0 or 1 and any non-zero byte reads as true. kSub,
//   kNeg, kDiv, kMod, kSqrt, kSquare throw kUnsupported (NumPy: TypeError
//   or another dtype).
// - Float16 and bfloat16 compute in float32 and round once per result to
//   nearest even (NumPy's float16 loops; bfloat16 as ml_dtypes); a NaN
//   result is the canonical quiet NaN with its sign. Float16 kMin / kMax
//   return a between equal values, as NumPy's float16 loop.
// - Complex64 / complex128: kAdd, kSub, kMul ((ar*br - ai*bi, ar*bi +
//   ai*br), never fused), kDiv (NumPy's scaled division), kNeg, kSquare;
//   kMin, kMax, kMod, kAbs, kSqrt throw kUnsupported.
// Any other (op, dtype) throws kUnsupported.
// Temporaries (a masked input materialised over out's valid box, an input
// that overlaps out otherwise than exactly) are allocated before anything is
// written: kNoMemory leaves out untouched (tests/allocation_failure_test.cc).
//
// Threads (NumericOptions) split out's valid box into parts; results are
// the same bits for every thread count.
//
// Binary and Unary run on the active target; the reference versions are the
// per-element loops the equivalence tests compare against. Both give
// bit-identical results (NaN payloads aside, which follow the hardware).
#ifndef STRIDEKIT_ELEMENTWISE_H_
#define STRIDEKIT_ELEMENTWISE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>

#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

namespace stridekit {

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data, const NumericOptions& options = {});
void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data,
           const NumericOptions& options = {});

// The same on stridekit::View (view.h), the validated C++ view.
inline void Binary(BinaryOp op, DType t, const View& a, const void* a_data,
                   const View& b, const void* b_data, const View& out,
                   void* out_data, const NumericOptions& options = {}) {
  Binary(op, t, a.ToC(), a_data, b.ToC(), b_data, out.ToC(), out_data, options);
}
inline void Unary(UnaryOp op, DType t, const View& a, const void* a_data,
                  const View& out, void* out_data,
                  const NumericOptions& options = {}) {
  Unary(op, t, a.ToC(), a_data, out.ToC(), out_data, options);
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_ELEMENTWISE_H_
