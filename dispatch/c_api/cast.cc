// C ABI: sk_cast (C_API.md "Data kernels"), on sk_get_threads() threads.
#include "stridekit/cast.h"

#include "c_api_internal.h"
#include "cast_scalar.h"
#include "stridekit/parallel.h"

extern "C" {

sk_status sk_cast(sk_dtype src_t, const sk_view* src, const void* src_data,
                  sk_dtype dst_t, const sk_view* dst, void* dst_data) {
  return stridekit::capi::Guard(__func__, [&] {
    const int32_t from = stridekit::capi::RawEnumValue(src_t);
    const int32_t to = stridekit::capi::RawEnumValue(dst_t);
    stridekit::capi::RequireNonNull(src, "sk_cast", "src");
    stridekit::capi::RequireNonNull(dst, "sk_cast", "dst");
    stridekit::cast::CheckCastDType(from, "sk_cast", "source");
    stridekit::cast::CheckCastDType(to, "sk_cast", "destination");
    stridekit::CopyOptions options;  // As sk_copy: sk_get_threads().
    options.threads = stridekit::GetThreads();
    stridekit::Cast(static_cast<stridekit::DType>(from), *src, src_data,
                    static_cast<stridekit::DType>(to), *dst, dst_data, options);
  });
}

}  // extern "C"
