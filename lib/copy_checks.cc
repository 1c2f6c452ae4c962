#include "copy_checks.h"

#include <algorithm>

#include "strided_layout.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

void CheckElemSize(size_t elem_size, const char* op) {
  if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8 &&
      elem_size != 16) {
    Fail(ErrorKind::kUnsupported, op, ": element size ", elem_size,
         " is not 1, 2, 4, 8 or 16 bytes");
  }
}

}  // namespace

namespace {

// True when CheckStridedLayout and CheckByteOffsets pass for v, found in
// one pass (the common case of every call): a rank in range, has_mask 0 or
// 1, no negative dimension, an element count (of the non-zero dimensions)
// that fits, masks within their axes and, for a non-empty view, element
// and byte offsets that fit in int64.
bool LayoutFits(const sk_view& v, int64_t elem_size) {
  if (uint32_t(v.ndim) > uint32_t(SK_MAX_NDIM) || uint32_t(v.has_mask) > 1u) {
    return false;
  }
  int64_t numel = 1;
  bool empty = false;
  // The lowest offset only falls and the highest only rises: with no
  // overflow on the way, the extremes are exact.
  int64_t lo = v.offset, hi = v.offset;
  for (int d = 0; d < v.ndim; ++d) {
    const int64_t n = v.shape[d];
    if (n < 0) return false;
    if (v.has_mask && (v.mask_begin[d] < 0 || v.mask_begin[d] > v.mask_end[d] ||
                       v.mask_end[d] > n)) {
      return false;
    }
    if (n == 0) {
      empty = true;
      continue;
    }
    int64_t extent;
    if (__builtin_mul_overflow(numel, n, &numel) ||
        __builtin_mul_overflow(n - 1, v.strides[d], &extent) ||
        __builtin_add_overflow(extent < 0 ? lo : hi, extent,
                               extent < 0 ? &lo : &hi)) {
      return false;
    }
  }
  int64_t bytes;
  return empty ||
         (hi != INT64_MAX && !__builtin_mul_overflow(lo, elem_size, &bytes) &&
          !__builtin_mul_overflow(hi + 1, elem_size, &bytes));
}

}  // namespace

void CheckLayout(const sk_view& v, size_t elem_size, const char* op) {
  if (LayoutFits(v, int64_t(elem_size))) return;
  // The checks in their order, for their messages.
  CheckStridedLayout(v, op);
  CheckByteOffsets(v, int64_t(elem_size), op);
}

void CheckData(const sk_view& v, const void* data, const char* op,
               const char* what) {
  if (data == nullptr && !ValidSpan(v).empty()) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", what,
         " data is NULL for a non-empty view");
  }
}

// A destination must not write one memory location twice. A broadcast
// axis (stride 0, longer than 1) is the common case, which NumPy marks
// read-only. Beyond that the check is the cheap sufficient one: over the
// valid box, sorted by |stride|, each axis must step past everything the
// smaller axes reach. It rejects every self-overlapping layout and accepts
// all ordinary ones (permuted, sliced, reversed, padded); exotic
// non-overlapping interleavings such as strides [4,6] over [3,2] are
// rejected too. A view with no valid element writes nothing and passes.
void CheckDistinctPositions(const sk_view& dst, const char* op) {
  if (ValidSpan(dst).empty()) return;
  struct Axis {
    uint64_t extent, stride;  // Unsigned: |INT64_MIN| is a valid stride.
  } axes[SK_MAX_NDIM];
  int n = 0;
  for (int d = 0; d < dst.ndim; ++d) {
    const int64_t extent =
        dst.has_mask ? dst.mask_end[d] - dst.mask_begin[d] : dst.shape[d];
    if (extent <= 1) continue;
    if (dst.strides[d] == 0) {
      Fail(ErrorKind::kInvalidArgument, op,
           ": destination is a broadcast view (stride 0 on axis ", d,
           " of size ", dst.shape[d], ") and is not writeable");
    }
    const uint64_t stride = static_cast<uint64_t>(dst.strides[d]);
    axes[n++] = {static_cast<uint64_t>(extent),
                 dst.strides[d] < 0 ? uint64_t{0} - stride : stride};
  }
  // Insertion sort: few axes, often in order already.
  for (int i = 1; i < n; ++i) {
    const Axis axis = axes[i];
    int j = i;
    for (; j > 0 && axes[j - 1].stride > axis.stride; --j)
      axes[j] = axes[j - 1];
    axes[j] = axis;
  }
  // Largest offset the smaller axes reach: at most the view's span, which
  // CheckView bounded, so it fits.
  uint64_t reach = 0;
  for (int i = 0; i < n; ++i) {
    if (axes[i].stride <= reach) {
      Fail(ErrorKind::kInvalidArgument, op,
           ": destination positions may share memory (strides ",
           ToString(DimsView(dst.strides, size_t(dst.ndim))), " over shape ",
           ToString(DimsView(dst.shape, size_t(dst.ndim))),
           "); a destination must write each location once");
    }
    reach += (axes[i].extent - 1) * axes[i].stride;
  }
}

int64_t DenseLayoutCount(std::span<const sk_view* const> views,
                         std::span<const void* const> datas,
                         std::span<const size_t> elem_sizes) {
  const sk_view& first = *views[0];
  if (uint32_t(first.ndim) > uint32_t(SK_MAX_NDIM)) return 0;
  int64_t numel = 1;
  for (int d = first.ndim - 1; d >= 0; --d) {
    const int64_t n = first.shape[d];
    if (n <= 0) return 0;
    for (const sk_view* v : views) {
      if (v->shape[d] != n || (n > 1 && v->strides[d] != numel)) return 0;
    }
    if (__builtin_mul_overflow(numel, n, &numel)) return 0;
  }
  for (size_t i = 0; i < views.size(); ++i) {
    const sk_view& v = *views[i];
    const int64_t es = int64_t(elem_sizes[i]);
    int64_t end, bytes;
    if (v.has_mask != 0 || v.ndim != first.ndim || datas[i] == nullptr ||
        __builtin_add_overflow(v.offset, numel, &end) ||
        __builtin_mul_overflow(v.offset, es, &bytes) ||
        __builtin_mul_overflow(end, es, &bytes)) {
      return 0;
    }
  }
  return numel;
}

void CheckCopyArguments(size_t elem_size, const sk_view& src,
                        const void* src_data, const sk_view& dst,
                        const void* dst_data, const char* op) {
  CheckElemSize(elem_size, op);
  const sk_view* views[2] = {&dst, &src};
  const void* datas[2] = {dst_data, src_data};
  const size_t sizes[2] = {elem_size, elem_size};
  if (DenseLayoutCount(views, datas, sizes) > 0) return;
  CheckLayout(src, elem_size, op);
  CheckLayout(dst, elem_size, op);
  CheckSourceAndDestination(src, src_data, dst, dst_data, op);
}

namespace {

void CheckBroadcastable(const sk_view& src, const sk_view& dst,
                        const char* op) {
  bool ok = src.ndim <= dst.ndim;
  for (int j = 0; ok && j < src.ndim; ++j) {
    const int64_t s = src.shape[j], t = dst.shape[j + dst.ndim - src.ndim];
    ok = s == t || s == 1;
  }
  if (!ok) {
    Fail(ErrorKind::kInvalidArgument, op, ": cannot broadcast source shape ",
         ToString(DimsView(src.shape, size_t(src.ndim))),
         " to destination shape ",
         ToString(DimsView(dst.shape, size_t(dst.ndim))));
  }
}

void CheckSourceData(const sk_view& src, const void* src_data,
                     const sk_view& dst, const char* op) {
  // dst has a position (no zero dim; its layout was checked).
  for (int d = 0; d < dst.ndim; ++d) {
    if (dst.shape[d] == 0) return;
  }
  CheckData(src, src_data, op, "source");
}

}  // namespace

void CheckSourceAndDestination(const sk_view& src, const void* src_data,
                               const sk_view& dst, const void* dst_data,
                               const char* op) {
  CheckBroadcastable(src, dst, op);
  CheckDistinctPositions(dst, op);
  CheckData(dst, dst_data, op, "destination");
  CheckSourceData(src, src_data, dst, op);
}

void CheckSource(const sk_view& src, const void* src_data, const sk_view& dst,
                 const char* op) {
  CheckBroadcastable(src, dst, op);
  CheckSourceData(src, src_data, dst, op);
}

void CheckFillArguments(size_t elem_size, const sk_view& dst,
                        const void* dst_data, const void* value) {
  CheckElemSize(elem_size, "fill");
  CheckLayout(dst, elem_size, "fill");
  if (value == nullptr) {
    Fail(ErrorKind::kInvalidArgument, "fill: value is NULL");
  }
  CheckDistinctPositions(dst, "fill");
  CheckData(dst, dst_data, "fill", "destination");
}

}  // namespace stridekit
