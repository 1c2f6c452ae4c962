// C ABI: the "Einsum" section of docs/c_abi.md.
#include "stridekit/einsum.h"

#include <string_view>
#include <vector>

#include "c_api_internal.h"
#include "stridekit/dtype.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/projections.h"
#include "stridekit/shape_inference.h"

using stridekit::capi::ArrayArg;
using stridekit::capi::CopyOut;
using stridekit::capi::Guard;
using stridekit::capi::RequireNonNull;

extern "C" {

sk_status sk_einsum_shape(const char* spec, int32_t n, const int32_t* ndims,
                          const int64_t* const* shapes, int32_t* out_ndim,
                          int64_t* out_shape) {
  return Guard(__func__, [&] {
    const char* op = "sk_einsum_shape";
    RequireNonNull(spec, op, "spec");
    if (n < 0) {
      stridekit::Fail(stridekit::ErrorKind::kInvalidArgument, op, ": n=", n,
                      " is negative");
    }
    if (n > 0) {
      RequireNonNull(ndims, op, "ndims");
      RequireNonNull(shapes, op, "shapes");
    }
    RequireNonNull(out_ndim, op, "out_ndim");
    std::vector<stridekit::DimsView> views;
    for (int32_t i = 0; i < n; ++i) {
      views.push_back(ArrayArg(ndims[i], shapes[i], op, "shapes[i]"));
    }
    const std::string_view text(spec);
    // The projections sk_einsum derives, so that both accept the same specs
    // and shapes (a product space of more than 32 loops included).
    const stridekit::Projections p =
        text.find("=>") != std::string_view::npos
            ? stridekit::LabelsEinsumProjections(text, views)
            : stridekit::EinsumProjections(
                  stridekit::ParseEinsumSubscripts(text), views);
    const stridekit::Dims& out = p.result_shape;
    if (out.size() > 0) RequireNonNull(out_shape, op, "out_shape");
    *out_ndim = out.size();
    CopyOut(out, out_shape);
  });
}

sk_status sk_einsum(const char* spec, sk_dtype t, int32_t n,
                    const sk_view* const* views, const void* const* datas,
                    const sk_view* out, void* out_data) {
  return Guard(__func__, [&] {
    const char* op = "sk_einsum";
    RequireNonNull(spec, op, "spec");
    if (n < 0 || n > SK_MAX_NDIM) {
      stridekit::Fail(stridekit::ErrorKind::kInvalidArgument, op, ": n=", n,
                      " is outside [0, ", SK_MAX_NDIM, "]");
    }
    if (n > 0) {
      RequireNonNull(views, op, "views");
      RequireNonNull(datas, op, "datas");
    }
    RequireNonNull(out, op, "out");
    std::vector<sk_view> operands;
    for (int32_t i = 0; i < n; ++i) {
      RequireNonNull(views[i], op, "views[i]");
      operands.push_back(*views[i]);
    }
    stridekit::Einsum(
        spec, static_cast<stridekit::DType>(stridekit::capi::RawEnumValue(t)),
        operands, std::span<const void* const>(datas, size_t(n)), *out,
        out_data);
  });
}

}  // extern "C"
