// C ABI: status, version, dtype sizes and the "Shapes" section of
// docs/c_abi.md.
#include "stridekit/shape.h"

#include <string>
#include <vector>

#include "c_api_internal.h"
#include "stridekit/dtype.h"
#include "stridekit/version.h"

namespace stridekit::capi {
namespace {
thread_local std::string last_error;
}  // namespace

sk_status SetError(sk_status status, const char* message) {
  try {
    last_error = message;
  } catch (...) {
    last_error.clear();
  }
  return status;
}

}  // namespace stridekit::capi

using stridekit::Dims;
using stridekit::DimsView;
using stridekit::capi::ArrayArg;
using stridekit::capi::CopyOut;
using stridekit::capi::Guard;
using stridekit::capi::RequireNonNull;

extern "C" {

const char* sk_last_error(void) { return stridekit::capi::last_error.c_str(); }

const char* sk_version(void) { return STRIDEKIT_VERSION_STRING; }

size_t sk_dtype_size(sk_dtype t) {
  const int32_t raw = stridekit::capi::RawEnumValue(t);
  if (!stridekit::IsValidDType(raw)) return 0;
  return stridekit::DTypeSize(static_cast<stridekit::DType>(raw));
}

sk_status sk_numel(int32_t ndim, const int64_t* shape, int64_t* out) {
  return Guard(__func__, [&] {
    DimsView s = ArrayArg(ndim, shape, "sk_numel", "shape");
    RequireNonNull(out, "sk_numel", "out");
    *out = stridekit::Numel(s);
  });
}

sk_status sk_c_strides(int32_t ndim, const int64_t* shape,
                       int64_t* out_strides) {
  return Guard(__func__, [&] {
    DimsView s = ArrayArg(ndim, shape, "sk_c_strides", "shape");
    if (ndim > 0) RequireNonNull(out_strides, "sk_c_strides", "out_strides");
    CopyOut(stridekit::CContiguousStrides(s), out_strides);
  });
}

sk_status sk_ravel_index(int32_t ndim, const int64_t* index,
                         const int64_t* strides, int64_t* out) {
  return Guard(__func__, [&] {
    DimsView i = ArrayArg(ndim, index, "sk_ravel_index", "index");
    DimsView s = ArrayArg(ndim, strides, "sk_ravel_index", "strides");
    RequireNonNull(out, "sk_ravel_index", "out");
    *out = stridekit::RavelIndex(i, s);
  });
}

sk_status sk_unravel_index(int64_t k, int32_t ndim, const int64_t* shape,
                           int64_t* out_index) {
  return Guard(__func__, [&] {
    DimsView s = ArrayArg(ndim, shape, "sk_unravel_index", "shape");
    if (ndim > 0) RequireNonNull(out_index, "sk_unravel_index", "out_index");
    CopyOut(stridekit::UnravelIndex(k, s), out_index);
  });
}

sk_status sk_resolve_reshape(int32_t ndim, const int64_t* shape,
                             int32_t spec_ndim, const int64_t* spec,
                             int64_t* out_shape) {
  return Guard(__func__, [&] {
    DimsView s = ArrayArg(ndim, shape, "sk_resolve_reshape", "shape");
    DimsView p = ArrayArg(spec_ndim, spec, "sk_resolve_reshape", "spec");
    if (spec_ndim > 0)
      RequireNonNull(out_shape, "sk_resolve_reshape", "out_shape");
    CopyOut(stridekit::ResolveNegOne(s, p), out_shape);
  });
}

sk_status sk_broadcast_shapes(int32_t n, const int32_t* ndims,
                              const int64_t* const* shapes, int32_t* out_ndim,
                              int64_t* out_shape) {
  return Guard(__func__, [&] {
    const char* op = "sk_broadcast_shapes";
    if (n < 0)
      stridekit::Fail(stridekit::ErrorKind::kInvalidArgument, op, ": n=", n,
                      " is negative");
    if (n > 0) {
      RequireNonNull(ndims, op, "ndims");
      RequireNonNull(shapes, op, "shapes");
    }
    RequireNonNull(out_ndim, op, "out_ndim");
    std::vector<DimsView> views;
    views.reserve(size_t(n));
    for (int32_t i = 0; i < n; ++i) {
      views.push_back(ArrayArg(ndims[i], shapes[i], op, "shapes[i]"));
    }
    const Dims out = stridekit::BroadcastShapes(views);
    if (out.size() > 0) RequireNonNull(out_shape, op, "out_shape");
    *out_ndim = out.size();
    CopyOut(out, out_shape);
  });
}

}  // extern "C"
