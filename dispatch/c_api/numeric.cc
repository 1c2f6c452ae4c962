// C ABI: sk_binary, sk_unary (with the predicates of compare.h), sk_reduce,
// sk_arg_reduce and sk_scan (docs/c_abi.md "Data kernels"), on
// sk_get_threads() threads.
#include "c_api_internal.h"
#include "stridekit/arg_reduce.h"
#include "stridekit/compare.h"
#include "stridekit/elementwise.h"
#include "stridekit/parallel.h"
#include "stridekit/reduce.h"
#include "stridekit/scan.h"

extern "C" {

sk_status sk_binary(sk_binary_op op, sk_dtype t, const sk_view* a,
                    const void* a_data, const sk_view* b, const void* b_data,
                    const sk_view* out, void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(a, "sk_binary", "a");
    stridekit::capi::RequireNonNull(b, "sk_binary", "b");
    stridekit::capi::RequireNonNull(out, "sk_binary", "out");
    stridekit::Binary(stridekit::capi::EnumArg<stridekit::BinaryOp>(op),
                      stridekit::capi::EnumArg<stridekit::DType>(t), *a, a_data,
                      *b, b_data, *out, out_data,
                      stridekit::capi::ThreadOptions());
  });
}

sk_status sk_unary(sk_unary_op op, sk_dtype t, const sk_view* a,
                   const void* a_data, const sk_view* out, void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(a, "sk_unary", "a");
    stridekit::capi::RequireNonNull(out, "sk_unary", "out");
    // The predicates (out SK_BOOL) have their own table (stridekit/compare.h).
    if (stridekit::FindOp(
            stridekit::capi::EnumArg<stridekit::PredicateOp>(op)) != nullptr) {
      return stridekit::Predicate(
          stridekit::capi::EnumArg<stridekit::PredicateOp>(op),
          stridekit::capi::EnumArg<stridekit::DType>(t), *a, a_data, *out,
          out_data, stridekit::capi::ThreadOptions());
    }
    stridekit::Unary(stridekit::capi::EnumArg<stridekit::UnaryOp>(op),
                     stridekit::capi::EnumArg<stridekit::DType>(t), *a, a_data,
                     *out, out_data, stridekit::capi::ThreadOptions());
  });
}

sk_status sk_reduce(sk_reduce_op op, sk_dtype t, const sk_view* in,
                    const void* in_data, int32_t naxes, const int32_t* axes,
                    const sk_view* out, void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(in, "sk_reduce", "in");
    stridekit::capi::RequireNonNull(out, "sk_reduce", "out");
    if (naxes < 0 || naxes > SK_MAX_NDIM) {
      stridekit::Fail(stridekit::ErrorKind::kInvalidArgument,
                      "sk_reduce: naxes ", naxes, " is outside [0, ",
                      SK_MAX_NDIM, "]");
    }
    if (naxes > 0) stridekit::capi::RequireNonNull(axes, "sk_reduce", "axes");
    stridekit::Reduce(stridekit::capi::EnumArg<stridekit::ReduceOp>(op),
                      stridekit::capi::EnumArg<stridekit::DType>(t), *in,
                      in_data, std::span<const int32_t>(axes, size_t(naxes)),
                      *out, out_data, stridekit::capi::ThreadOptions());
  });
}

sk_status sk_arg_reduce(sk_arg_op op, sk_dtype t, const sk_view* in,
                        const void* in_data, int32_t axis, const sk_view* out,
                        void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(in, "sk_arg_reduce", "in");
    stridekit::capi::RequireNonNull(out, "sk_arg_reduce", "out");
    stridekit::ArgReduce(stridekit::capi::EnumArg<stridekit::ArgOp>(op),
                         stridekit::capi::EnumArg<stridekit::DType>(t), *in,
                         in_data, axis, *out, out_data,
                         stridekit::capi::ThreadOptions());
  });
}

sk_status sk_scan(sk_scan_op op, sk_dtype t, const sk_view* in,
                  const void* in_data, int32_t axis, const sk_view* out,
                  void* out_data) {
  return stridekit::capi::Guard(__func__, [&] {
    stridekit::capi::RequireNonNull(in, "sk_scan", "in");
    stridekit::capi::RequireNonNull(out, "sk_scan", "out");
    stridekit::Scan(stridekit::capi::EnumArg<stridekit::ScanOp>(op),
                    stridekit::capi::EnumArg<stridekit::DType>(t), *in, in_data,
                    axis, *out, out_data, stridekit::capi::ThreadOptions());
  });
}

}  // extern "C"
