// Checks and measures an sk_view that arrives from a caller: everything a
// kernel needs to trust before it computes a single address.
#ifndef STRIDEKIT_LIB_VIEW_CHECK_H_
#define STRIDEKIT_LIB_VIEW_CHECK_H_

#include <cstdint>

#include "stridekit/dims.h"
#include "stridekit/stridekit.h"

namespace stridekit {

// [lo, hi): the smallest and one past the largest element offset that a
// valid element of a view touches; lo = hi = 0 when no element is valid.
struct OffsetSpan {
  int64_t lo = 0;
  int64_t hi = 0;
  bool empty() const { return lo == hi; }
};

// Throws kInvalidArgument unless 0 <= ndim <= SK_MAX_NDIM, every dim >= 0,
// the element count fits, and (with a mask) 0 <= begin <= end <= dim; throws
// kOverflow unless every valid element's offset times elem_size fits in
// int64 (elem_size 1 checks element offsets only). `op` prefixes messages.
void CheckView(const sk_view& v, const char* op, int64_t elem_size = 1);

// The span of the valid elements of a checked view.
OffsetSpan ValidSpan(const sk_view& v);

// True when index i on axis d is valid (mask or no mask).
inline bool AxisValid(const sk_view& v, int d, int64_t i) {
  return !v.has_mask || (v.mask_begin[d] <= i && i < v.mask_end[d]);
}

// Advances a C-order counter over v's shape; false after the last index.
inline bool NextIndex(const sk_view& v, Dims& index) {
  for (int d = v.ndim - 1; d >= 0; --d) {
    if (++index[d] < v.shape[d]) return true;
    index[d] = 0;
  }
  return false;
}

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_VIEW_CHECK_H_
