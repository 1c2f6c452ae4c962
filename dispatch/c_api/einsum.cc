// C ABI: the "Einsum" section of docs/c_abi.md.
#include "stridekit/einsum.h"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "c_api_internal.h"
#include "stridekit/dtype.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/ocannl_labels.h"
#include "stridekit/shape_inference.h"

using stridekit::capi::ArrayArg;
using stridekit::capi::CopyOut;
using stridekit::capi::Guard;
using stridekit::capi::RequireNonNull;

namespace {

// Throws unless 0 <= n <= SK_MAX_NDIM (the operand count of sk_einsum).
void OperandCountArg(int32_t n, const char* op) {
  if (n < 0 || n > SK_MAX_NDIM) {
    stridekit::Fail(stridekit::ErrorKind::kInvalidArgument, op, ": n=", n,
                    " is outside [0, ", SK_MAX_NDIM, "]");
  }
}

// The operands' shapes of sk_einsum_shape's arguments (n >= 0).
std::vector<stridekit::DimsView> ShapesArg(int32_t n, const int32_t* ndims,
                                           const int64_t* const* shapes,
                                           const char* op) {
  if (n > 0) {
    RequireNonNull(ndims, op, "ndims");
    RequireNonNull(shapes, op, "shapes");
  }
  std::vector<stridekit::DimsView> views;
  for (int32_t i = 0; i < n; ++i) {
    views.push_back(ArrayArg(ndims[i], shapes[i], op, "shapes[i]"));
  }
  return views;
}

// The operands' views (checked non-null with `op` in the messages), copied
// into one array: on the stack for up to four operands.
class ViewsArg {
 public:
  // Copies what a view's contract makes meaningful (entries below ndim, the
  // mask's only with has_mask), not all of its SK_MAX_NDIM entries: an
  // invalid ndim is copied as it is, for the checks to report.
  static void CopyUsedEntries(const sk_view& from, sk_view& to) {
    to.ndim = from.ndim;
    to.has_mask = from.has_mask;
    to.offset = from.offset;
    const size_t n = size_t(std::clamp(from.ndim, 0, int32_t{SK_MAX_NDIM}));
    std::copy_n(from.shape, n, to.shape);
    std::copy_n(from.strides, n, to.strides);
    if (from.has_mask != 0) {
      std::copy_n(from.mask_begin, n, to.mask_begin);
      std::copy_n(from.mask_end, n, to.mask_end);
    }
  }

  ViewsArg(int32_t n, const sk_view* const* views, const void* const* datas,
           const char* op) {
    OperandCountArg(n, op);
    if (n > 0) {
      RequireNonNull(views, op, "views");
      RequireNonNull(datas, op, "datas");
    }
    if (n > int32_t(small_.size())) large_.resize(size_t(n));
    sk_view* to = n > int32_t(small_.size()) ? large_.data() : small_.data();
    for (int32_t i = 0; i < n; ++i) {
      RequireNonNull(views[i], op, "views[i]");
      CopyUsedEntries(*views[i], to[i]);
    }
    views_ = std::span<const sk_view>(to, size_t(n));
  }
  ViewsArg(const ViewsArg&) = delete;
  ViewsArg& operator=(const ViewsArg&) = delete;
  std::span<const sk_view> views() const { return views_; }

 private:
  std::array<sk_view, 4> small_;
  std::vector<sk_view> large_;
  std::span<const sk_view> views_;
};

// rows[3 i .. 3 i + 2] as operand i's RowLengths, checked against the
// operands' ranks (CheckRowLengths) with `op` in the messages.
std::vector<stridekit::RowLengths> RowsArg(
    const int32_t* rows, std::span<const stridekit::DimsView> shapes,
    const char* op) {
  if (!shapes.empty()) RequireNonNull(rows, op, "rows");
  std::vector<stridekit::RowLengths> lengths;
  for (size_t i = 0; i < shapes.size(); ++i) {
    lengths.push_back({rows[3 * i], rows[3 * i + 1], rows[3 * i + 2]});
  }
  stridekit::CheckRowLengths(lengths, shapes, op);
  return lengths;
}

// The result shape of the spec (rows when given) into the out arguments.
void EinsumShapeOut(const char* spec,
                    std::span<const stridekit::DimsView> shapes,
                    std::optional<std::span<const stridekit::RowLengths>> rows,
                    int32_t* out_ndim, int64_t* out_shape, const char* op) {
  // The projections sk_einsum derives, so that both accept the same specs
  // and shapes (a product space of more than 32 loops included).
  const stridekit::Dims out =
      stridekit::EinsumSpecProjections(spec, shapes, rows).result_shape;
  if (out.size() > 0) RequireNonNull(out_shape, op, "out_shape");
  *out_ndim = out.size();
  CopyOut(out, out_shape);
}

stridekit::DType DTypeArg(sk_dtype t) {
  return static_cast<stridekit::DType>(stridekit::capi::RawEnumValue(t));
}

}  // namespace

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
    const std::vector<stridekit::DimsView> views =
        ShapesArg(n, ndims, shapes, op);
    RequireNonNull(out_ndim, op, "out_ndim");
    EinsumShapeOut(spec, views, std::nullopt, out_ndim, out_shape, op);
  });
}

sk_status sk_einsum(const char* spec, sk_dtype t, int32_t n,
                    const sk_view* const* views, const void* const* datas,
                    const sk_view* out, void* out_data) {
  return Guard(__func__, [&] {
    const char* op = "sk_einsum";
    RequireNonNull(spec, op, "spec");
    const ViewsArg operands(n, views, datas, op);
    RequireNonNull(out, op, "out");
    stridekit::Einsum(spec, DTypeArg(t), operands.views(),
                      std::span<const void* const>(datas, size_t(n)), *out,
                      out_data, stridekit::capi::ThreadOptions());
  });
}

sk_status sk_einsum_rows_shape(const char* spec, int32_t n, const int32_t* rows,
                               const int32_t* ndims,
                               const int64_t* const* shapes, int32_t* out_ndim,
                               int64_t* out_shape) {
  return Guard(__func__, [&] {
    const char* op = "sk_einsum_rows_shape";
    RequireNonNull(spec, op, "spec");
    OperandCountArg(n, op);
    const std::vector<stridekit::DimsView> views =
        ShapesArg(n, ndims, shapes, op);
    const std::vector<stridekit::RowLengths> lengths = RowsArg(rows, views, op);
    RequireNonNull(out_ndim, op, "out_ndim");
    EinsumShapeOut(spec, views, lengths, out_ndim, out_shape, op);
  });
}

sk_status sk_einsum_rows(const char* spec, sk_dtype t, int32_t n,
                         const int32_t* rows, const sk_view* const* views,
                         const void* const* datas, const sk_view* out,
                         void* out_data) {
  return Guard(__func__, [&] {
    const char* op = "sk_einsum_rows";
    RequireNonNull(spec, op, "spec");
    const ViewsArg operands(n, views, datas, op);
    std::vector<stridekit::DimsView> shapes;
    for (const sk_view& v : operands.views()) {
      shapes.push_back(ArrayArg(v.ndim, v.shape, op, "views[i]->shape"));
    }
    const std::vector<stridekit::RowLengths> lengths =
        RowsArg(rows, shapes, op);
    RequireNonNull(out, op, "out");
    stridekit::EinsumRows(spec, lengths, DTypeArg(t), operands.views(),
                          std::span<const void* const>(datas, size_t(n)), *out,
                          out_data, stridekit::capi::ThreadOptions());
  });
}

}  // extern "C"
