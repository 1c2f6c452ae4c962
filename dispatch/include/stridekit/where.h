// Select over views (docs/c_abi.md "Data kernels"): out = cond ? a : b,
// NumPy's np.where(cond, a, b) with a, b and out of dtype t and cond
// SK_BOOL (any non-zero byte is true). cond, a and b broadcast to out's
// shape; masked-out input positions read zero (a masked-out cond selects
// b); masked-out out positions are not written. a or b may be out itself
// (same element at every position); any other overlap behaves as if every
// input were first copied to a temporary. Elements are moved as bytes (a
// NaN's payload is kept). Threads as elementwise.h. The reference version
// is reference::Where (lib/reference_kernels.h).
#ifndef STRIDEKIT_WHERE_H_
#define STRIDEKIT_WHERE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

namespace stridekit {

void Where(DType t, const sk_view& cond, const void* cond_data,
           const sk_view& a, const void* a_data, const sk_view& b,
           const void* b_data, const sk_view& out, void* out_data,
           const NumericOptions& options = {});

// The same on stridekit::View (view.h).
inline void Where(DType t, const View& cond, const void* cond_data,
                  const View& a, const void* a_data, const View& b,
                  const void* b_data, const View& out, void* out_data,
                  const NumericOptions& options = {}) {
  Where(t, cond.ToC(), cond_data, a.ToC(), a_data, b.ToC(), b_data, out.ToC(),
        out_data, options);
}

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_WHERE_H_
