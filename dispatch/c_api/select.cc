// C ABI: sk_compare and sk_where (docs/c_abi.md "Data kernels"), on
// sk_get_threads() threads.
#include "c_api_internal.h"
#include "stridekit/compare.h"
#include "stridekit/parallel.h"
#include "stridekit/where.h"

extern "C" {

sk_status sk_compare(sk_compare_op op, sk_dtype t, const sk_view* a,
                     const void* a_data, const sk_view* b, const void* b_data,
                     const sk_view* out, void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(a, "sk_compare", "a");
    stridekit::capi::RequireNonNull(b, "sk_compare", "b");
    stridekit::capi::RequireNonNull(out, "sk_compare", "out");
    stridekit::Compare(stridekit::capi::EnumArg<stridekit::CompareOp>(op),
                       stridekit::capi::EnumArg<stridekit::DType>(t), *a,
                       a_data, *b, b_data, *out, out_data,
                       stridekit::capi::ThreadOptions());
  });
}

sk_status sk_where(sk_dtype t, const sk_view* cond, const void* cond_data,
                   const sk_view* a, const void* a_data, const sk_view* b,
                   const void* b_data, const sk_view* out, void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(cond, "sk_where", "cond");
    stridekit::capi::RequireNonNull(a, "sk_where", "a");
    stridekit::capi::RequireNonNull(b, "sk_where", "b");
    stridekit::capi::RequireNonNull(out, "sk_where", "out");
    stridekit::Where(stridekit::capi::EnumArg<stridekit::DType>(t), *cond,
                     cond_data, *a, a_data, *b, b_data, *out, out_data,
                     stridekit::capi::ThreadOptions());
  });
}

}  // extern "C"
