// View: how an array runtime sees a buffer. Shape, element strides, an element
// offset and an optional per-axis validity mask; element i of a view lives at
// offset + sum_d i[d] * strides[d], and index i is valid iff
// mask[d].begin <= i[d] < mask[d].end on every axis. Every operation is
// metadata only (it never touches data), returns a new View, never allocates,
// and throws stridekit::Error naming the operation and the values.
//
// Semantics follow NumPy (strides and offsets after reshape, transpose,
// broadcast_to, flip and basic indexing equal NumPy's, in elements), with the
// masked-view extensions of Nx/tinygrad (pad, masks carried through shrink,
// flip, permute, expand, reshape and slicing). Departures from the Nx seed
// are listed in README "Semantics".
#ifndef STRIDEKIT_VIEW_H_
#define STRIDEKIT_VIEW_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "stridekit/c_types.h"
#include "stridekit/dims.h"

namespace stridekit {

// Valid indices [begin, end) of one axis.
struct AxisRange {
  int64_t begin = 0;
  int64_t end = 0;
  friend bool operator==(const AxisRange&, const AxisRange&) = default;
};

// One item of NumPy basic indexing: start:stop:step, an integer index (drops
// the axis), None/newaxis (inserts a size-1 axis) or one ellipsis.
struct SliceItem {
  enum class Kind { kRange, kIndex, kNewAxis, kEllipsis };
  Kind kind = Kind::kRange;
  std::optional<int64_t> start;  // kRange: Python's optional start
  std::optional<int64_t> stop;   // kRange: optional stop
  int64_t step = 1;              // kRange: non-zero
  int64_t index = 0;             // kIndex: negative counts from the end

  static SliceItem Range(std::optional<int64_t> start = std::nullopt,
                         std::optional<int64_t> stop = std::nullopt,
                         int64_t step = 1) {
    return {Kind::kRange, start, stop, step, 0};
  }
  static SliceItem All() { return Range(); }
  static SliceItem Index(int64_t i) {
    return {Kind::kIndex, std::nullopt, std::nullopt, 1, i};
  }
  static SliceItem NewAxis() { return {Kind::kNewAxis, {}, {}, 1, 0}; }
  static SliceItem Ellipsis() { return {Kind::kEllipsis, {}, {}, 1, 0}; }
  friend bool operator==(const SliceItem&, const SliceItem&) = default;
};

// At most this many items in one indexing expression.
inline constexpr int kMaxSliceItems = 2 * kMaxRank;
using SliceItems = InlineVector<SliceItem, kMaxSliceItems>;

// Parses the text notation of the C ABI, comma-separated items:
// "[start]:[stop][:[step]]", an integer, "None", "newaxis", "np.newaxis" or
// "..."; whitespace is allowed around items and numbers (NumSharp's grammar,
// plus None). "" is an empty index (the whole view). Throws kInvalidArgument
// with the position of a malformed item.
SliceItems ParseSlices(std::string_view text);
// The canonical text of one item ("1:3", "::-1", "0", "None", "...").
std::string ToString(const SliceItem& item);

// Flag bits of Flags(); values match the C ABI.
inline constexpr uint32_t kCContiguous = SK_C_CONTIGUOUS;
inline constexpr uint32_t kFContiguous = SK_F_CONTIGUOUS;
inline constexpr uint32_t kBroadcast = SK_BROADCAST;
inline constexpr uint32_t kMasked = SK_MASKED;

class View {
 public:
  // A scalar view at offset 0.
  View() = default;

  // A view with canonical C strides (the Nx rule, see CContiguousStrides).
  static View Make(DimsView shape, int64_t offset = 0);
  // Strides kept as given. The mask (one range per axis, within [0, dim]) is
  // optional; a mask that covers every axis fully is dropped. Throws on a
  // negative dim, a length mismatch, a bad range, or element offsets (of any
  // index, masked or not) that do not fit in int64.
  static View Make(DimsView shape, DimsView strides, int64_t offset = 0,
                   std::span<const AxisRange> mask = {});
  // From the C ABI struct, with the same checks; `op` names the caller.
  static View FromC(const sk_view& view, const char* op);
  // Writes every field of `out` (entries past ndim are zeroed).
  void ToC(sk_view* out) const;
  // The C ABI struct of this view.
  sk_view ToC() const {
    sk_view out;
    ToC(&out);
    return out;
  }

  int ndim() const { return shape_.size(); }
  DimsView shape() const { return shape_; }
  DimsView strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t numel() const { return numel_; }
  // Axis size / stride; axis in [0, ndim) (Nx: no negative axes here).
  int64_t dim(int64_t axis) const;
  int64_t stride(int64_t axis) const;
  bool has_mask() const { return has_mask_; }
  // The valid range of an axis ([0, dim) when unmasked).
  AxisRange mask(int64_t axis) const;
  // The strides, or nullopt when a mask hides part of the view (Nx
  // strides_opt): only then is every element addressable through strides.
  std::optional<DimsView> strides_opt() const;

  // offset + sum index[d] * strides[d]; index must have ndim entries (no
  // bounds or mask checks, like Nx linear_index).
  int64_t LinearIndex(DimsView index) const;
  // True iff index has ndim entries, each within the axis and its mask.
  bool IsValid(DimsView index) const;
  // The C-order coordinates of the k-th element, 0 <= k < numel.
  Dims CoordinatesOf(int64_t k) const;
  // The element offset of the k-th element in C order (NumSharp
  // TransformOffset), whether or not it is masked.
  int64_t OffsetOf(int64_t k) const;

  // NumPy's contiguity (size-1 axes ignored, empty views contiguous); a
  // masked view is neither.
  bool IsCContiguous() const;
  bool IsFContiguous() const;
  // A zero stride on an axis longer than 1 of a non-empty view.
  bool IsBroadcast() const;
  // False for broadcast views (several positions share one element).
  bool IsWriteable() const { return !IsBroadcast(); }
  // A strided selection of a buffer: unmasked, not broadcast, and not the
  // C-contiguous layout starting at offset 0 (NumSharp IsSimpleSlice).
  bool IsSimpleSlice() const;
  uint32_t Flags() const;

  // [lo, hi): smallest and one past the largest offset of a valid element;
  // {0, 0} when no element is valid.
  struct Span {
    int64_t lo = 0;
    int64_t hi = 0;
    friend bool operator==(const Span&, const Span&) = default;
  };
  Span ValidSpan() const;
  // Elements a buffer starting at offset 0 must hold: hi of ValidSpan (0 when
  // empty). Throws kOutOfRange when a valid element lies before offset 0.
  int64_t RequiredBufferSize() const;

  // Transformations. All keep the buffer; see each for NumPy's rule.
  //
  // NumPy reshape without copying: one -1 is inferred; the same shape returns
  // the view; a C-contiguous view gets canonical strides; otherwise NumPy's
  // _attempt_nocopy_reshape (merges and splits of strided axes, zero strides,
  // size-1 axes). A masked view reshapes when each group of merged/split axes
  // keeps its valid region a box; axes whose mask keeps one index need not
  // merge (tinygrad), and a view with no valid element takes any shape with
  // an axis. Otherwise kNeedsCopy.
  View Reshape(DimsView new_shape) const;
  // NumPy broadcast_to: may prepend axes; only size-1 axes grow; every
  // source size-1 axis and every new axis gets stride 0.
  View Expand(DimsView new_shape) const;
  // axes: a permutation of [0, ndim); negative axes count from the end.
  View Permute(DimsView axes) const;
  // Half-open bounds per axis, 0 <= begin <= end <= dim (empty allowed).
  View Shrink(DimsView begin, DimsView end) const;
  // Virtual padding through the mask; before/after >= 0; the offset may go
  // negative (padded positions are never read).
  View Pad(DimsView before, DimsView after) const;
  // Reverses one axis (NumPy a[..., ::-1, ...]).
  View Flip(int64_t axis) const;
  // Removes all size-1 axes, or the given ones (each must have size 1).
  View Squeeze() const;
  View Squeeze(DimsView axes) const;
  // NumPy expand_dims: axes index the result, negative allowed, no repeats.
  View Unsqueeze(DimsView axes) const;
  View SwapAxes(int64_t axis1, int64_t axis2) const;
  // NumPy moveaxis with equal-length source/destination lists.
  View MoveAxis(DimsView source, DimsView destination) const;
  // NumPy basic indexing.
  View Slice(std::span<const SliceItem> items) const;
  View Slice(std::string_view text) const;

  friend bool operator==(const View& a, const View& b);

  // "View(shape=[2,3], strides=[3,1], offset=0)" plus ", mask=[(0,2),(1,3)]".
  std::string ToString() const;

 private:
  friend View Compose(const View& base, const View& over);

  // Completes a view whose fields an operation has set: checks dims and
  // offsets, computes numel, clips the mask, drops a full mask and marks every
  // axis empty when one is (a view with no valid element). Operations whose
  // positions are a subset of their input's (reshape, slicing) pass
  // offsets_fit to skip the offset check.
  void Seal(const char* op, bool offsets_fit = false);
  // True when the mask leaves no valid element.
  bool NoneValid() const;
  // Gives `out` (built from this view with axes dropped) no valid element
  // when this view has none; throws kNeedsCopy when `out` has no axis left.
  void CarryNoneValid(View& out, const char* op) const;

  Dims shape_;
  Dims strides_;
  Dims mask_begin_;  // ndim entries when has_mask_
  Dims mask_end_;
  int64_t offset_ = 0;
  int64_t numel_ = 1;
  bool has_mask_ = false;
};

// The view that reads `over` when `over`'s offsets index the C-order elements
// of `base` (tinygrad's view merge): element i of the result is element
// over.LinearIndex(i) (in C order) of base, valid when valid in both.
// `over`'s valid elements must lie within [0, base.numel()) (kOutOfRange).
// kNeedsCopy when no single view expresses it: the indices valid in both
// must form a box with affine offsets (exact up to 65536 valid elements of
// `over`; beyond, only tinygrad's digit test decides). Axes with one valid
// index get stride 0; kOverflow when the result does not fit in int64.
View Compose(const View& base, const View& over);

// The friend operator== of View, declared at namespace scope so that the
// shared library exports it.
bool operator==(const View& a, const View& b);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_VIEW_H_
