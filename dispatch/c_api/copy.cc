// C ABI: sk_copy and sk_fill (docs/c_abi.md "Data kernels"), on
// sk_get_threads() threads.
#include "stridekit/copy.h"

#include "c_api_internal.h"
#include "stridekit/dtype.h"
#include "stridekit/numeric_options.h"
#include "stridekit/parallel.h"

namespace {

// sk_get_threads() threads (the plan uses at most one per
// NumericOptions::kMinElementsPerThread elements of dst).
stridekit::CopyOptions ThreadOptions() {
  stridekit::CopyOptions options;
  options.threads = stridekit::GetThreads();
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
                    *dst, dst_data, fill, ThreadOptions());
  });
}

sk_status sk_fill(sk_dtype t, const sk_view* dst, void* dst_data,
                  const void* value) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(dst, "sk_fill", "dst");
    stridekit::Fill(stridekit::capi::ElemSize(t, "sk_fill"), *dst, dst_data,
                    value, ThreadOptions());
  });
}

}  // extern "C"
