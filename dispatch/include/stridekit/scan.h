// Scans along one axis (docs/c_abi.md "Data kernels", sk_scan): out has
// in's shape and dtype, out[..., 0, ...] = in[..., 0, ...] and
// out[..., k, ...] = op(out[..., k-1, ...], in[..., k, ...]) along `axis`
// (negative counts from the end): ScanOp::kCumsum (np.cumsum), kCumprod
// (np.cumprod), kCummin (np.minimum.accumulate), kCummax
// (np.maximum.accumulate), with the elementwise ops' semantics
// (elementwise.h):
// - sequential along the axis in NumPy's order: integers exact, floats the
//   bits of NumPy's contiguous loops; float16/bfloat16 round at every step
//   (NumPy's float16 cumsum); NaN propagates through cummin/cummax;
// - the dtype is kept: integer sums and products wrap (NumPy's cumsum and
//   cumprod of small integers and bool promote to int64/uint64 instead);
//   bool cumsum is a running logical or, cumprod a running and;
// - complex: cumsum and cumprod only (kUnsupported for cummin/cummax);
// - any views: broadcast, negative strides, masks (masked-out input
//   positions read zero, masked-out out positions are not written); out
//   may be in exactly (in place) or overlap it otherwise (as if in were
//   copied first).
// The bits are the same on every target and thread count.
#ifndef STRIDEKIT_SCAN_H_
#define STRIDEKIT_SCAN_H_

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

void Scan(ScanOp op, DType t, const sk_view& in, const void* in_data,
          int32_t axis, const sk_view& out, void* out_data,
          const NumericOptions& options = {});

// The same on stridekit::View (view.h), the validated C++ view.
inline void Scan(ScanOp op, DType t, const View& in, const void* in_data,
                 int32_t axis, const View& out, void* out_data,
                 const NumericOptions& options = {}) {
  Scan(op, t, in.ToC(), in_data, axis, out.ToC(), out_data, options);
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_SCAN_H_
