// C ABI: the "Einsum" section of C_API.md (shapes only; sk_einsum executes).
#include <string_view>
#include <vector>

#include "c_api_internal.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/shape_inference.h"

using stridekit::capi::ArrayArg;
using stridekit::capi::CopyOut;
using stridekit::capi::Guard;
using stridekit::capi::RequireNonNull;

extern "C" {

sk_status sk_einsum_shape(const char* spec, int32_t n, const int32_t* ndims,
                          const int64_t* const* shapes, int32_t* out_ndim,
                          int64_t* out_shape) {
  return Guard([&] {
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
    const stridekit::Dims out = text.find("=>") != std::string_view::npos
                                    ? stridekit::LabelsEinsumShape(text, views)
                                    : stridekit::EinsumShape(text, views);
    if (out.size() > 0) RequireNonNull(out_shape, op, "out_shape");
    *out_ndim = out.size();
    CopyOut(out, out_shape);
  });
}

}  // extern "C"
