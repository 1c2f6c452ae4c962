#include "strided_layout.h"

#include <span>

#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

namespace {

DimsView ShapeOf(const sk_view& view) {
  return {view.shape, static_cast<size_t>(view.ndim)};
}

// Whether axis d's mask excludes some index of the axis.
bool IsMaskedAxis(const sk_view& view, int d) {
  return view.has_mask &&
         (view.mask_begin[d] != 0 || view.mask_end[d] != view.shape[d]);
}

}  // namespace

void CheckOffsetsFit(DimsView shape, DimsView strides, int64_t offset,
                     const char* op) {
  for (int64_t d : shape) {
    if (d == 0) return;
  }
  // The extreme offsets: each axis contributes (shape - 1) * stride to the
  // highest offset when the stride is positive, to the lowest otherwise.
  __int128 lo = offset;
  __int128 hi = offset;
  for (size_t d = 0; d < shape.size(); ++d) {
    const __int128 extent =
        static_cast<__int128>(shape[d] - 1) * static_cast<__int128>(strides[d]);
    (extent < 0 ? lo : hi) += extent;
  }
  if (lo < INT64_MIN || hi >= INT64_MAX) {  // hi + 1 must fit too.
    Fail(ErrorKind::kOverflow, op, ": element offsets of view shape ",
         ToString(shape), " strides ", ToString(strides), " offset ", offset,
         " overflow int64");
  }
}

int64_t CheckStridedLayout(const sk_view& view, const char* op) {
  if (view.ndim < 0 || view.ndim > SK_MAX_NDIM) {
    Fail(ErrorKind::kInvalidArgument, op, ": view ndim ", view.ndim,
         " is outside [0, ", SK_MAX_NDIM, "]");
  }
  if (view.has_mask != 0 && view.has_mask != 1) {
    Fail(ErrorKind::kInvalidArgument, op, ": view has_mask ", view.has_mask,
         " is not 0 or 1");
  }
  CheckShape(ShapeOf(view), op);
  const int64_t numel = CheckedNumel(ShapeOf(view), op, "view shape");
  if (view.has_mask) {
    for (int d = 0; d < view.ndim; ++d) {
      if (view.mask_begin[d] < 0 || view.mask_begin[d] > view.mask_end[d] ||
          view.mask_end[d] > view.shape[d]) {
        Fail(ErrorKind::kInvalidArgument, op, ": mask [", view.mask_begin[d],
             ", ", view.mask_end[d], ") of axis ", d,
             " is not a range within [0, ", view.shape[d], "]");
      }
    }
  }
  if (numel == 0) return 0;
  CheckOffsetsFit(ShapeOf(view), {view.strides, size_t(view.ndim)}, view.offset,
                  op);
  return numel;
}

void CheckByteOffsets(const sk_view& view, int64_t elem_size, const char* op) {
  __int128 lo = view.offset, hi = view.offset;
  for (int d = 0; d < view.ndim; ++d) {
    if (view.shape[d] == 0) return;
    const __int128 extent = static_cast<__int128>(view.shape[d] - 1) *
                            static_cast<__int128>(view.strides[d]);
    (extent < 0 ? lo : hi) += extent;
  }
  if (lo * elem_size < INT64_MIN || (hi + 1) * elem_size > INT64_MAX) {
    Fail(ErrorKind::kOverflow, op, ": byte offsets of view offset ",
         view.offset, " span [", static_cast<int64_t>(lo), ", ",
         static_cast<int64_t>(hi), "] with element size ", elem_size,
         " overflow int64");
  }
}

OffsetSpan ValidSpan(const sk_view& view) {
  const size_t n = size_t(view.ndim);
  return ValidSpanOf({view.shape, n}, {view.strides, n}, view.offset,
                     view.has_mask ? view.mask_begin : nullptr,
                     view.has_mask ? view.mask_end : nullptr);
}

OffsetSpan ValidSpanOf(DimsView shape, DimsView strides, int64_t offset,
                       const int64_t* mask_begin, const int64_t* mask_end) {
  const bool masked = mask_begin != nullptr;
  // Emptiness first, so that no product is formed for an empty view.
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t first = masked ? mask_begin[d] : 0;
    const int64_t end = masked ? mask_end[d] : shape[d];
    if (end <= first) return {};
  }
  // The extremes fit in int64 (and hi, one past the largest, too: see
  // CheckOffsetsFit) but partial sums need not: sum modulo 2^64.
  uint64_t lo = uint64_t(offset), hi = uint64_t(offset) + 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t first = masked ? mask_begin[d] : 0;
    const int64_t last = (masked ? mask_end[d] : shape[d]) - 1;
    const uint64_t stride = uint64_t(strides[d]);
    lo += uint64_t(strides[d] < 0 ? last : first) * stride;
    hi += uint64_t(strides[d] < 0 ? first : last) * stride;
  }
  return {int64_t(lo), int64_t(hi)};
}

void CheckPositionRange(int64_t begin, int64_t count, int64_t numel,
                        const char* op) {
  if (begin < 0 || count < 0 || begin > numel || count > numel - begin) {
    Fail(ErrorKind::kOutOfRange, op, ": positions [", begin, ", ", begin, " + ",
         count, ") are outside the view's [0, ", numel, ")");
  }
}

sk_view CoalesceAxes(const sk_view& view) {
  sk_view out = view;
  out.ndim = 0;
  out.has_mask = 0;
  bool previous_masked = true;  // Nothing to merge into before the first axis.
  for (int d = 0; d < view.ndim; ++d) {
    const bool masked = IsMaskedAxis(view, d);
    if (view.shape[d] == 1 && !masked) continue;
    const int last = out.ndim - 1;
    int64_t merged_stride;
    if (!masked && !previous_masked &&
        !__builtin_mul_overflow(view.shape[d], view.strides[d],
                                &merged_stride) &&
        out.strides[last] == merged_stride) {
      out.shape[last] *= view.shape[d];
      out.strides[last] = view.strides[d];
      out.mask_end[last] = out.shape[last];
      continue;
    }
    out.shape[out.ndim] = view.shape[d];
    out.strides[out.ndim] = view.strides[d];
    out.mask_begin[out.ndim] = masked ? view.mask_begin[d] : 0;
    out.mask_end[out.ndim] = masked ? view.mask_end[d] : view.shape[d];
    ++out.ndim;
    out.has_mask |= masked ? 1 : 0;
    previous_masked = masked;
  }
  return out;
}

}  // namespace stridekit
