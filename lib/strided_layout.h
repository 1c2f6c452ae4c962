// Validation and simplification of the C ABI's strided layout `sk_view`
// (shape, strides, offset, optional per-axis validity mask), shared by the
// kernels that map view positions to element offsets.
#ifndef STRIDEKIT_LIB_STRIDED_LAYOUT_H_
#define STRIDEKIT_LIB_STRIDED_LAYOUT_H_

#include <cstdint>

#include "stridekit/c_types.h"
#include "stridekit/dims.h"

namespace stridekit {

// Throws kOverflow unless every element offset offset + sum_d i_d *
// strides[d] (0 <= i_d < shape[d]), and one past the largest, fits in int64;
// nothing to check when the shape has no element. shape and strides have
// equal lengths.
void CheckOffsetsFit(DimsView shape, DimsView strides, int64_t offset,
                     const char* op);

// Checks that `view` is a well-formed layout and returns its element count:
// ndim in [0, SK_MAX_NDIM], has_mask 0 or 1, dims >= 0, the element count fits
// in int64, every element offset offset + sum_d i_d * strides[d] (masked-out
// ones included) fits in int64, and with has_mask every
// 0 <= mask_begin[d] <= mask_end[d] <= shape[d]. Throws Error naming `op`.
int64_t CheckStridedLayout(const sk_view& view, const char* op);

// Throws kOverflow unless the byte offsets of `view`'s elements and one past
// the last (element offsets times elem_size) fit in int64. `view` must pass
// CheckStridedLayout.
void CheckByteOffsets(const sk_view& view, int64_t elem_size, const char* op);

// [lo, hi): the smallest and one past the largest element offset that a
// valid element of a view touches; lo = hi = 0 when no element is valid.
struct OffsetSpan {
  int64_t lo = 0;
  int64_t hi = 0;
  bool empty() const { return lo == hi; }
};

// The span of the valid elements of a view that passed CheckStridedLayout.
OffsetSpan ValidSpan(const sk_view& view);
// The same for a layout given by parts; mask_begin/mask_end are NULL when
// every index is valid.
OffsetSpan ValidSpanOf(DimsView shape, DimsView strides, int64_t offset,
                       const int64_t* mask_begin, const int64_t* mask_end);

// True when index i on axis d is valid (mask or no mask).
inline bool AxisValid(const sk_view& view, int d, int64_t i) {
  return !view.has_mask || (view.mask_begin[d] <= i && i < view.mask_end[d]);
}

// Advances a C-order counter over view's shape; false after the last index.
inline bool NextIndex(const sk_view& view, Dims& index) {
  for (int d = view.ndim - 1; d >= 0; --d) {
    if (++index[d] < view.shape[d]) return true;
    index[d] = 0;
  }
  return false;
}

// Checks 0 <= begin, 0 <= count and begin + count <= numel for a request of
// positions [begin, begin + count) of a view with `numel` elements.
void CheckPositionRange(int64_t begin, int64_t count, int64_t numel,
                        const char* op);

// Returns a layout with the same offsets at the same C-order positions:
// size-1 axes dropped and each axis merged into its outer neighbour when
// stride[outer] == shape[inner] * stride[inner] and neither axis is masked
// (a mask covering the whole axis counts as unmasked). `view` must pass
// CheckStridedLayout.
sk_view CoalesceAxes(const sk_view& view);

// Offset of the element at `index` (view.ndim entries, each in range),
// computed modulo 2^64: exact for a view that passed CheckStridedLayout.
inline int64_t ElementOffset(const sk_view& view, const int64_t* index) {
  uint64_t offset = static_cast<uint64_t>(view.offset);
  for (int d = 0; d < view.ndim; ++d) {
    offset += static_cast<uint64_t>(index[d]) *
              static_cast<uint64_t>(view.strides[d]);
  }
  return static_cast<int64_t>(offset);
}

// Whether `index` (view.ndim entries) lies inside the view's validity mask.
inline bool IsUnmasked(const sk_view& view, const int64_t* index) {
  if (!view.has_mask) return true;
  for (int d = 0; d < view.ndim; ++d) {
    if (index[d] < view.mask_begin[d] || index[d] >= view.mask_end[d]) {
      return false;
    }
  }
  return true;
}

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_STRIDED_LAYOUT_H_
