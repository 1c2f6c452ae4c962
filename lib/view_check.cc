#include "view_check.h"

#include "stridekit/dims.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

void CheckView(const sk_view& v, const char* op, int64_t elem_size) {
  if (v.ndim < 0 || v.ndim > SK_MAX_NDIM) {
    Fail(ErrorKind::kInvalidArgument, op, ": view ndim ", v.ndim,
         " is outside [0, ", SK_MAX_NDIM, "]");
  }
  const DimsView shape(v.shape, size_t(v.ndim));
  CheckShape(shape, op);
  int64_t count = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(count, d, &count)) {
      Fail(ErrorKind::kOverflow, op, ": the element count of view shape ",
           ToString(shape), " overflows int64");
    }
  }
  if (v.has_mask) {
    for (int d = 0; d < v.ndim; ++d) {
      if (v.mask_begin[d] < 0 || v.mask_begin[d] > v.mask_end[d] ||
          v.mask_end[d] > v.shape[d]) {
        Fail(ErrorKind::kInvalidArgument, op, ": mask [", v.mask_begin[d], ", ",
             v.mask_end[d], ") on axis ", d, " is not within [0, ", v.shape[d],
             "]");
      }
    }
  }
  // The extreme offsets of the valid box, then the same in bytes.
  int64_t lo = v.offset, hi = v.offset;
  bool empty = count == 0;
  for (int d = 0; d < v.ndim && !empty; ++d) {
    const int64_t first = v.has_mask ? v.mask_begin[d] : 0;
    const int64_t last = (v.has_mask ? v.mask_end[d] : v.shape[d]) - 1;
    if (last < first) {
      empty = true;
      break;
    }
    int64_t a, b;
    if (__builtin_mul_overflow(first, v.strides[d], &a) ||
        __builtin_mul_overflow(last, v.strides[d], &b) ||
        __builtin_add_overflow(lo, a < b ? a : b, &lo) ||
        __builtin_add_overflow(hi, a < b ? b : a, &hi)) {
      Fail(ErrorKind::kOverflow, op, ": element offsets of view shape ",
           ToString(shape), " strides ",
           ToString(DimsView(v.strides, size_t(v.ndim))), " offset ", v.offset,
           " overflow int64");
    }
  }
  int64_t unused;
  if (!empty && (__builtin_mul_overflow(lo, elem_size, &unused) ||
                 __builtin_mul_overflow(hi, elem_size, &unused) ||
                 __builtin_add_overflow(hi * elem_size, elem_size, &unused))) {
    Fail(ErrorKind::kOverflow, op, ": byte offsets of view offset ", v.offset,
         " span [", lo, ", ", hi, "] with element size ", elem_size,
         " overflow int64");
  }
}

OffsetSpan ValidSpan(const sk_view& v) {
  // Emptiness first: CheckView bounds offsets only for non-empty views.
  for (int d = 0; d < v.ndim; ++d) {
    const int64_t first = v.has_mask ? v.mask_begin[d] : 0;
    const int64_t end = v.has_mask ? v.mask_end[d] : v.shape[d];
    if (end <= first) return {};
  }
  OffsetSpan span{v.offset, v.offset + 1};
  for (int d = 0; d < v.ndim; ++d) {
    const int64_t first = v.has_mask ? v.mask_begin[d] : 0;
    const int64_t end = v.has_mask ? v.mask_end[d] : v.shape[d];
    const int64_t a = first * v.strides[d], b = (end - 1) * v.strides[d];
    span.lo += a < b ? a : b;
    span.hi += a < b ? b : a;
  }
  return span;
}

}  // namespace stridekit
