#include "dispatch/operand_box.h"

#include <algorithm>

#include "strided_layout.h"
#include "stridekit/numeric_options.h"

namespace stridekit {

bool Box::empty() const {
  for (int d = 0; d < begin.size(); ++d) {
    if (begin[d] >= end[d]) return true;
  }
  return false;
}

Dims Box::Shape() const {
  Dims shape;
  for (int d = 0; d < begin.size(); ++d) shape.push_back(end[d] - begin[d]);
  return shape;
}

Box ValidBox(const sk_view& v) {
  Box box{Dims(v.ndim, 0), Dims(DimsView(v.shape, size_t(v.ndim)))};
  if (v.has_mask) {
    box.begin.assign(DimsView(v.mask_begin, size_t(v.ndim)));
    box.end.assign(DimsView(v.mask_end, size_t(v.ndim)));
  }
  return box;
}

Operand OperandOf(const sk_view& v, const void* data) {
  return Operand{Dims(DimsView(v.strides, size_t(v.ndim))), v.offset,
                 static_cast<const unsigned char*>(data)};
}

Operand AlignSource(const sk_view& src, const void* data, const sk_view& dst,
                    Box& valid) {
  Operand op{Dims(dst.ndim, 0), src.offset,
             static_cast<const unsigned char*>(data)};
  valid = Box{Dims(dst.ndim, 0), Dims(DimsView(dst.shape, size_t(dst.ndim)))};
  const int lead = dst.ndim - src.ndim;
  for (int j = 0; j < src.ndim; ++j) {
    const int d = j + lead;
    if (src.shape[j] == 1 && dst.shape[d] != 1) {
      if (!AxisValid(src, j, 0)) valid.end[d] = 0;  // Nothing valid.
      continue;
    }
    op.strides[d] = src.strides[j];
    if (src.has_mask) {
      valid.begin[d] = src.mask_begin[j];
      valid.end[d] = src.mask_end[j];
    }
  }
  return op;
}

Box Intersect(const Box& a, const Box& b) {
  Box r = a;
  for (int d = 0; d < a.begin.size(); ++d) {
    r.begin[d] = std::min(std::max(a.begin[d], b.begin[d]), a.end[d]);
    r.end[d] = std::max(r.begin[d], std::min(a.end[d], b.end[d]));
  }
  return r;
}

std::vector<Box> SplitBox(const Box& box, int parts, int axis, int64_t align) {
  if (box.begin.empty()) return {box};
  if (axis < 0) {
    axis = 0;
    for (int d = 1; d < box.begin.size(); ++d) {
      if (box.end[d] - box.begin[d] > box.end[axis] - box.begin[axis]) {
        axis = d;
      }
    }
  }
  const int64_t extent = box.end[axis] - box.begin[axis];
  // Boundaries fall on multiples of `align` positions: units of that many.
  const int64_t units = extent / align + (extent % align != 0);
  const int64_t n = std::clamp<int64_t>(parts, 1, std::max<int64_t>(units, 1));
  auto boundary = [&](int64_t i) {
    // units * i / n * align without overflow, at most extent.
    return box.begin[axis] +
           std::min(extent, int64_t(__int128(units) * i / n) * align);
  };
  std::vector<Box> boxes(size_t(n), box);
  for (int64_t i = 0; i < n; ++i) {
    boxes[size_t(i)].begin[axis] = boundary(i);
    boxes[size_t(i)].end[axis] = boundary(i + 1);
  }
  return boxes;
}

std::vector<Box> ThreadBoxes(const Box& box, const Dims& dst_strides,
                             const Dims& src_strides, int parts) {
  if (parts <= 1 || box.begin.empty()) return {box};
  // Unsigned: |INT64_MIN| is a valid stride.
  const auto magnitude = [](int64_t s) {
    return s < 0 ? uint64_t{0} - uint64_t(s) : uint64_t(s);
  };
  // An axis outer on both sides, long enough for a position per part.
  int outer = -1;
  uint64_t outer_score = 1;
  for (int d = 0; d < box.begin.size(); ++d) {
    const uint64_t dst = magnitude(dst_strides[d]);
    const uint64_t src = magnitude(src_strides[d]);
    const uint64_t score = src == 0 ? dst : std::min(dst, src);
    if (box.end[d] - box.begin[d] >= parts && score > outer_score) {
      outer = d;
      outer_score = score;
    }
  }
  int axis = -1;
  uint64_t slowest = 0;
  for (int d = 0; d < box.begin.size(); ++d) {
    const uint64_t stride = magnitude(dst_strides[d]);
    if (stride != 0 && box.end[d] - box.begin[d] >= parts * kThreadBlock &&
        (axis < 0 || stride > slowest)) {
      axis = d;
      slowest = stride;
    }
  }
  // The axis outer on both when it differs from the destination's slowest
  // and either that one is too short for whole blocks (a permutation of
  // short axes, whose tiles the copy engine fuses across them) or the outer
  // axis is long enough for parts within an eighth of each other.
  if (outer >= 0 && outer != axis &&
      (axis < 0 || box.end[outer] - box.begin[outer] >= 8 * int64_t(parts))) {
    const int64_t extent = box.end[outer] - box.begin[outer];
    return SplitBox(box, parts, outer,
                    extent >= parts * kThreadBlock ? kThreadBlock : 1);
  }
  if (axis >= 0) return SplitBox(box, parts, axis, kThreadBlock);
  // The longest axis the destination moves along.
  for (int d = 0; d < box.begin.size(); ++d) {
    if (dst_strides[d] != 0 &&
        (axis < 0 ||
         box.end[d] - box.begin[d] > box.end[axis] - box.begin[axis])) {
      axis = d;
    }
  }
  return axis >= 0 ? SplitBox(box, parts, axis) : std::vector<Box>{box};
}

int ThreadParts(int threads, int64_t elements) {
  const int64_t most = elements / NumericOptions::kMinElementsPerThread;
  return int(std::clamp<int64_t>(std::min<int64_t>(threads, most), 1,
                                 std::max(threads, 1)));
}

int64_t BoxOffset(const Operand& op, const Box& box) {
  int64_t offset = op.offset;
  for (int d = 0; d < box.begin.size(); ++d) {
    offset += box.begin[d] * op.strides[d];
  }
  return offset;
}

std::pair<const unsigned char*, const unsigned char*> ByteRange(
    const Operand& op, const Box& box, size_t elem_size) {
  int64_t lo = BoxOffset(op, box), hi = lo;
  for (int d = 0; d < box.begin.size(); ++d) {
    const int64_t extent = (box.end[d] - box.begin[d] - 1) * op.strides[d];
    (extent < 0 ? lo : hi) += extent;
  }
  return {op.data + lo * int64_t(elem_size),
          op.data + (hi + 1) * int64_t(elem_size)};
}

bool SameMapping(const Operand& a, const Operand& b, const Box& box,
                 size_t elem_size) {
  if (a.data + BoxOffset(a, box) * int64_t(elem_size) !=
      b.data + BoxOffset(b, box) * int64_t(elem_size)) {
    return false;
  }
  for (int d = 0; d < box.begin.size(); ++d) {
    if (box.end[d] - box.begin[d] > 1 && a.strides[d] != b.strides[d]) {
      return false;
    }
  }
  return true;
}

bool OverlapsOtherwise(const Operand& a, const Operand& b, const Box& box,
                       size_t elem_size) {
  const auto [a_lo, a_hi] = ByteRange(a, box, elem_size);
  const auto [b_lo, b_hi] = ByteRange(b, box, elem_size);
  return a_lo < b_hi && b_lo < a_hi && !SameMapping(a, b, box, elem_size);
}

}  // namespace stridekit
