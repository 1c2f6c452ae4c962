// C ABI: sk_copy and sk_fill (docs/c_abi.md "Data kernels").
#include "c_api_internal.h"
#include "stridekit/copy.h"
#include "stridekit/dtype.h"

namespace {

// The element size of a C dtype; kUnsupported for an unknown value.
size_t ElemSize(const sk_dtype& t, const char* op) {
  const int32_t raw = stridekit::capi::RawEnumValue(t);
  if (!stridekit::IsValidDType(raw)) {
    stridekit::Fail(stridekit::ErrorKind::kUnsupported, op, ": unknown dtype ",
                    raw);
  }
  return stridekit::DTypeSize(static_cast<stridekit::DType>(raw));
}

}  // namespace

extern "C" {

sk_status sk_copy(sk_dtype t, const sk_view* src, const void* src_data,
                  const sk_view* dst, void* dst_data, const void* fill) {
  return stridekit::capi::Guard([&] {
    stridekit::capi::RequireNonNull(src, "sk_copy", "src");
    stridekit::capi::RequireNonNull(dst, "sk_copy", "dst");
    stridekit::Copy(ElemSize(t, "sk_copy"), *src, src_data, *dst, dst_data,
                    fill);
  });
}

sk_status sk_fill(sk_dtype t, const sk_view* dst, void* dst_data,
                  const void* value) {
  return stridekit::capi::Guard([&] {
    stridekit::capi::RequireNonNull(dst, "sk_fill", "dst");
    stridekit::Fill(ElemSize(t, "sk_fill"), *dst, dst_data, value);
  });
}

}  // extern "C"
