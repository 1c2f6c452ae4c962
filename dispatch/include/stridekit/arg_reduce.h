// Arg reductions along one axis (docs/c_abi.md "Data kernels", sk_arg_reduce):
// out (int64) = the index along `axis` of the first minimum (ArgOp::kArgMin)
// or maximum (kArgMax) of `in`, as np.argmin / np.argmax with axis=:
// - axis may be negative (counted from the end); out's shape is in's
//   without that axis, or with 1 there (keepdims), told apart by out's rank;
// - the first occurrence wins among equal values (-0.0 equals +0.0); a NaN
//   wins over every number (the first NaN); bool compares false < true;
// - every dtype but complex (NumPy orders complex lexicographically: not
//   offered, kUnsupported); an empty axis throws kInvalidArgument as NumPy
//   ("attempt to get argmax of an empty sequence"), also when out is empty;
// - masked-out input positions read zero; masked-out out positions are not
//   written; out may share memory with in (computed into a temporary).
// The result is exact and the same on every target and thread count.
#ifndef STRIDEKIT_ARG_REDUCE_H_
#define STRIDEKIT_ARG_REDUCE_H_

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

void ArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
               int32_t axis, const sk_view& out, void* out_data,
               const NumericOptions& options = {});

// The same on stridekit::View (view.h), the validated C++ view.
inline void ArgReduce(ArgOp op, DType t, const View& in, const void* in_data,
                      int32_t axis, const View& out, void* out_data,
                      const NumericOptions& options = {}) {
  ArgReduce(op, t, in.ToC(), in_data, axis, out.ToC(), out_data, options);
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_ARG_REDUCE_H_
