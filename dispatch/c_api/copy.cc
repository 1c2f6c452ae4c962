// C ABI: sk_copy and sk_fill (docs/c_abi.md "Data kernels"), on
// sk_get_threads() threads.
#include "stridekit/copy.h"

#include <algorithm>

#include "c_api_internal.h"
#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/parallel.h"

namespace {

// The copy's threads: sk_get_threads(), but as the numeric kernels do
// (NumericOptions) at least kMinElementsPerThread elements of dst per
// thread. dst is not validated yet: a malformed shape counts as empty.
stridekit::CopyOptions ThreadOptions(const sk_view& dst) {
  int64_t numel = 1;
  if (dst.ndim < 0 || dst.ndim > SK_MAX_NDIM) numel = 0;
  for (int d = 0; numel > 0 && d < dst.ndim; ++d) {
    if (dst.shape[d] < 0 ||
        __builtin_mul_overflow(numel, dst.shape[d], &numel)) {
      numel = 0;
    }
  }
  const int64_t most = std::max<int64_t>(
      1, numel / stridekit::NumericOptions::kMinElementsPerThread);
  stridekit::CopyOptions options;
  options.threads = int(std::min<int64_t>(stridekit::GetThreads(), most));
  return options;
}

}  // namespace

extern "C" {

sk_status sk_copy(sk_dtype t, const sk_view* src, const void* src_data,
                  const sk_view* dst, void* dst_data, const void* fill) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(src, "sk_copy", "src");
    stridekit::capi::RequireNonNull(dst, "sk_copy", "dst");
    stridekit::Copy(stridekit::capi::ElemSize(t, "sk_copy"), *src, src_data,
                    *dst, dst_data, fill, ThreadOptions(*dst));
  });
}

sk_status sk_fill(sk_dtype t, const sk_view* dst, void* dst_data,
                  const void* value) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(dst, "sk_fill", "dst");
    stridekit::Fill(stridekit::capi::ElemSize(t, "sk_fill"), *dst, dst_data,
                    value, ThreadOptions(*dst));
  });
}

}  // extern "C"
