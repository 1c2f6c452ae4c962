// View: construction, queries, and the axis-wise transformations. Reshape,
// composition and slicing live in view_reshape.cc and slice.cc.
#include "stridekit/view.h"

#include "strided_layout.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {

namespace {

// Throws unless `values` has one entry per axis.
void CheckRank(size_t values, int ndim, const char* op, const char* what) {
  if (values != size_t(ndim)) {
    Fail(ErrorKind::kInvalidArgument, op, ": ", what, " has ", values,
         " entries for a view of ", ndim, " dimensions");
  }
}

}  // namespace

void View::Seal(const char* op, bool offsets_fit) {
  if (!offsets_fit) CheckShape(shape_, op);
  numel_ = CheckedNumel(shape_, op, "view shape");
  if (!offsets_fit) CheckOffsetsFit(shape_, strides_, offset_, op);
  if (!has_mask_) return;
  if (numel_ == 0) {
    has_mask_ = false;
    return;
  }
  bool full = true;
  bool none_valid = false;
  for (int d = 0; d < ndim(); ++d) {
    int64_t& b = mask_begin_[d];
    int64_t& e = mask_end_[d];
    b = b < 0 ? 0 : (b > shape_[d] ? shape_[d] : b);
    e = e < b ? b : (e > shape_[d] ? shape_[d] : e);
    full = full && b == 0 && e == shape_[d];
    none_valid = none_valid || b == e;
  }
  if (full) {
    has_mask_ = false;
  } else if (none_valid) {
    for (int d = 0; d < ndim(); ++d) mask_begin_[d] = mask_end_[d] = 0;
  }
}

bool View::NoneValid() const {
  return has_mask_ && numel_ > 0 && mask_begin_[0] == mask_end_[0];
}

void View::CarryNoneValid(View& out, const char* op) const {
  if (!NoneValid()) return;
  if (out.ndim() == 0) {
    Fail(ErrorKind::kNeedsCopy, op, ": ", ToString(),
         " has no valid element, which a view without axes cannot express");
  }
  out.has_mask_ = true;
  out.mask_begin_.assign(out.ndim(), 0);
  out.mask_end_.assign(out.ndim(), 0);
}

View View::Make(DimsView shape, int64_t offset) {
  CheckShape(shape, "view");
  return Make(shape, CContiguousStrides(shape), offset);
}

View View::Make(DimsView shape, DimsView strides, int64_t offset,
                std::span<const AxisRange> mask) {
  const char* op = "view";
  View v;
  v.shape_ = shape;
  CheckRank(strides.size(), v.ndim(), op, "strides");
  v.strides_ = strides;
  v.offset_ = offset;
  if (!mask.empty()) {
    CheckRank(mask.size(), v.ndim(), op, "mask");
    v.has_mask_ = true;
    v.mask_begin_.resize(v.ndim());
    v.mask_end_.resize(v.ndim());
    for (int d = 0; d < v.ndim(); ++d) {
      if (mask[d].begin < 0 || mask[d].begin > mask[d].end ||
          mask[d].end > shape[d]) {
        Fail(ErrorKind::kInvalidArgument, op, ": mask [", mask[d].begin, ", ",
             mask[d].end, ") of axis ", d, " is not a range within [0, ",
             shape[d], "]");
      }
      v.mask_begin_[d] = mask[d].begin;
      v.mask_end_[d] = mask[d].end;
    }
  }
  v.Seal(op);
  return v;
}

View View::FromC(const sk_view& view, const char* op) {
  CheckStridedLayout(view, op);
  const size_t n = size_t(view.ndim);
  View v;
  v.shape_ = DimsView(view.shape, n);
  v.strides_ = DimsView(view.strides, n);
  v.offset_ = view.offset;
  v.has_mask_ = view.has_mask != 0;
  if (v.has_mask_) {
    v.mask_begin_ = DimsView(view.mask_begin, n);
    v.mask_end_ = DimsView(view.mask_end, n);
  }
  v.Seal(op);
  return v;
}

void View::ToC(sk_view* out) const {
  *out = sk_view{};
  out->ndim = ndim();
  out->has_mask = has_mask_ ? 1 : 0;
  out->offset = offset_;
  for (int d = 0; d < ndim(); ++d) {
    out->shape[d] = shape_[d];
    out->strides[d] = strides_[d];
    out->mask_begin[d] = has_mask_ ? mask_begin_[d] : 0;
    out->mask_end[d] = has_mask_ ? mask_end_[d] : shape_[d];
  }
}

int64_t View::dim(int64_t axis) const {
  if (axis < 0 || axis >= ndim()) {
    Fail(ErrorKind::kOutOfRange, "dim: axis ", axis, " out of bounds for ",
         ndim(), "D view");
  }
  return shape_[int(axis)];
}

int64_t View::stride(int64_t axis) const {
  if (axis < 0 || axis >= ndim()) {
    Fail(ErrorKind::kOutOfRange, "stride: axis ", axis, " out of bounds for ",
         ndim(), "D view");
  }
  return strides_[int(axis)];
}

AxisRange View::mask(int64_t axis) const {
  if (axis < 0 || axis >= ndim()) {
    Fail(ErrorKind::kOutOfRange, "mask: axis ", axis, " out of bounds for ",
         ndim(), "D view");
  }
  const int d = int(axis);
  return has_mask_ ? AxisRange{mask_begin_[d], mask_end_[d]}
                   : AxisRange{0, shape_[d]};
}

std::optional<DimsView> View::strides_opt() const {
  if (has_mask_) return std::nullopt;
  return DimsView(strides_);
}

int64_t View::LinearIndex(DimsView index) const {
  CheckRank(index.size(), ndim(), "linear_index", "index");
  // Any index may be asked for; only the final value must fit.
  __int128 offset = offset_;
  bool overflow = false;
  for (int d = 0; d < ndim(); ++d) {
    overflow |= __builtin_add_overflow(
        offset, static_cast<__int128>(index[d]) * strides_[d], &offset);
  }
  if (overflow || offset < INT64_MIN || offset > INT64_MAX) {
    Fail(ErrorKind::kOverflow, "linear_index: the offset of index ",
         stridekit::ToString(index), " in ", ToString(), " overflows int64");
  }
  return int64_t(offset);
}

bool View::IsValid(DimsView index) const {
  if (index.size() != size_t(ndim())) return false;
  for (int d = 0; d < ndim(); ++d) {
    const AxisRange r = has_mask_ ? AxisRange{mask_begin_[d], mask_end_[d]}
                                  : AxisRange{0, shape_[d]};
    if (index[d] < r.begin || index[d] >= r.end) return false;
  }
  return true;
}

Dims View::CoordinatesOf(int64_t k) const {
  return stridekit::CoordinatesOf(k, shape_);
}

int64_t View::OffsetOf(int64_t k) const {
  if (k < 0 || k >= numel_) {
    Fail(ErrorKind::kOutOfRange, "offset_of: element ", k,
         " is out of range for a view of ", numel_, " elements");
  }
  // Every element offset fits in int64 (Seal) but partial sums need not:
  // sum modulo 2^64, exact for the final value.
  uint64_t offset = uint64_t(offset_);
  for (int d = ndim() - 1; d >= 0; --d) {
    offset += uint64_t(k % shape_[d]) * uint64_t(strides_[d]);
    k /= shape_[d];
  }
  return int64_t(offset);
}

bool View::IsCContiguous() const {
  if (has_mask_) return false;
  if (numel_ == 0) return true;
  int64_t expected = 1;
  for (int d = ndim() - 1; d >= 0; --d) {
    if (shape_[d] == 1) continue;
    if (strides_[d] != expected) return false;
    expected *= shape_[d];
  }
  return true;
}

bool View::IsFContiguous() const {
  if (has_mask_) return false;
  if (numel_ == 0) return true;
  int64_t expected = 1;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) continue;
    if (strides_[d] != expected) return false;
    expected *= shape_[d];
  }
  return true;
}

bool View::IsBroadcast() const {
  if (numel_ == 0) return false;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] > 1 && strides_[d] == 0) return true;
  }
  return false;
}

bool View::IsSimpleSlice() const {
  return !has_mask_ && !IsBroadcast() && !(IsCContiguous() && offset_ == 0);
}

uint32_t View::Flags() const {
  return (IsCContiguous() ? kCContiguous : 0) |
         (IsFContiguous() ? kFContiguous : 0) |
         (IsBroadcast() ? kBroadcast : 0) | (has_mask_ ? kMasked : 0);
}

View::Span View::ValidSpan() const {
  const OffsetSpan span = ValidSpanOf(shape_, strides_, offset_,
                                      has_mask_ ? mask_begin_.data() : nullptr,
                                      has_mask_ ? mask_end_.data() : nullptr);
  return {span.lo, span.hi};
}

int64_t View::RequiredBufferSize() const {
  const Span span = ValidSpan();
  if (span.lo < 0) {
    Fail(ErrorKind::kOutOfRange, "required_buffer_size: ", ToString(),
         " reads element offset ", span.lo, ", before the buffer start");
  }
  return span.hi;
}

View View::Expand(DimsView new_shape) const {
  const char* op = "expand";
  CheckShape(new_shape, op);
  const int new_ndim = int(new_shape.size());
  if (new_ndim < ndim()) {
    Fail(ErrorKind::kInvalidArgument, op, ": cannot broadcast ",
         stridekit::ToString(shape_), " to ", stridekit::ToString(new_shape),
         ": the target has fewer dimensions");
  }
  const int lead = new_ndim - ndim();
  View out;
  out.shape_ = new_shape;
  out.strides_.assign(new_ndim, 0);
  out.offset_ = offset_;
  out.has_mask_ = has_mask_;
  if (has_mask_) {
    out.mask_begin_.assign(new_ndim, 0);
    out.mask_end_ = new_shape;
  }
  for (int d = 0; d < ndim(); ++d) {
    const int t = lead + d;
    if (shape_[d] == new_shape[t] && shape_[d] != 1) {
      out.strides_[t] = strides_[d];
      if (has_mask_) {
        out.mask_begin_[t] = mask_begin_[d];
        out.mask_end_[t] = mask_end_[d];
      }
    } else if (shape_[d] == 1) {
      // Stride 0 even when the axis stays 1, as NumPy's broadcast_to. A
      // size-1 axis is either fully valid or (no valid element) empty.
      if (has_mask_ && mask_begin_[d] == mask_end_[d]) out.mask_end_[t] = 0;
    } else {
      Fail(ErrorKind::kInvalidArgument, op, ": cannot broadcast ",
           stridekit::ToString(shape_), " to ", stridekit::ToString(new_shape),
           ": axis ", d, " of size ", shape_[d], " is not 1 and differs from ",
           new_shape[t]);
    }
  }
  out.Seal(op);
  return out;
}

View View::Permute(DimsView axes) const {
  const char* op = "permute";
  if (axes.size() != size_t(ndim())) {
    Fail(ErrorKind::kInvalidArgument, op, ": axes ", stridekit::ToString(axes),
         " have ", axes.size(), " entries for a view of ", ndim(),
         " dimensions");
  }
  bool seen[kMaxRank] = {};
  View out;
  out.shape_.resize(ndim());
  out.strides_.resize(ndim());
  out.offset_ = offset_;
  out.numel_ = numel_;
  out.has_mask_ = has_mask_;
  if (has_mask_) {
    out.mask_begin_.resize(ndim());
    out.mask_end_.resize(ndim());
  }
  for (int i = 0; i < ndim(); ++i) {
    const int a = NormalizeAxis(axes[i], ndim(), op);
    if (seen[a]) {
      Fail(ErrorKind::kInvalidArgument, op, ": axes ",
           stridekit::ToString(axes), " are not a permutation (axis ", a,
           " repeats)");
    }
    seen[a] = true;
    out.shape_[i] = shape_[a];
    out.strides_[i] = strides_[a];
    if (has_mask_) {
      out.mask_begin_[i] = mask_begin_[a];
      out.mask_end_[i] = mask_end_[a];
    }
  }
  return out;  // The same elements and offsets: nothing to re-check.
}

View View::Shrink(DimsView begin, DimsView end) const {
  const char* op = "shrink";
  CheckRank(begin.size(), ndim(), op, "begin");
  CheckRank(end.size(), ndim(), op, "end");
  View out = *this;
  for (int d = 0; d < ndim(); ++d) {
    if (begin[d] < 0 || begin[d] > end[d] || end[d] > shape_[d]) {
      Fail(ErrorKind::kOutOfRange, op, ": bounds [", begin[d], ", ", end[d],
           ") of axis ", d, " are not within [0, ", shape_[d], "]");
    }
    out.shape_[d] = end[d] - begin[d];
    out.offset_ =
        CheckedAdd(out.offset_, CheckedMul(begin[d], strides_[d], op), op);
    if (has_mask_) {
      out.mask_begin_[d] -= begin[d];
      out.mask_end_[d] -= begin[d];
    }
  }
  out.Seal(op);
  return out;
}

View View::Pad(DimsView before, DimsView after) const {
  const char* op = "pad";
  CheckRank(before.size(), ndim(), op, "before");
  CheckRank(after.size(), ndim(), op, "after");
  View out = *this;
  if (!has_mask_) {
    out.has_mask_ = true;
    out.mask_begin_.assign(ndim(), 0);
    out.mask_end_ = shape_;
  }
  for (int d = 0; d < ndim(); ++d) {
    if (before[d] < 0 || after[d] < 0) {
      Fail(ErrorKind::kInvalidArgument, op, ": negative padding (", before[d],
           ", ", after[d], ") on axis ", d, "; use shrink or slice instead");
    }
    out.shape_[d] =
        CheckedAdd(CheckedAdd(shape_[d], before[d], op), after[d], op);
    out.offset_ =
        CheckedSub(out.offset_, CheckedMul(before[d], strides_[d], op), op);
    out.mask_begin_[d] += before[d];
    out.mask_end_[d] += before[d];
  }
  // An empty axis's range stays empty, so a view without valid elements
  // keeps none (Seal marks every axis).
  out.Seal(op);
  return out;
}

View View::Flip(int64_t axis) const {
  const char* op = "flip";
  const int a = NormalizeAxis(axis, ndim(), op);
  View out = *this;
  const int64_t n = shape_[a];
  if (n == 0) return out;  // NumPy: an empty slice keeps the stride.
  out.offset_ = CheckedAdd(offset_, CheckedMul(n - 1, strides_[a], op), op);
  out.strides_[a] = CheckedSub(0, strides_[a], op);
  if (has_mask_ && !NoneValid()) {
    out.mask_begin_[a] = n - mask_end_[a];
    out.mask_end_[a] = n - mask_begin_[a];
  }
  return out;  // Same element set, so offsets still fit.
}

View View::Squeeze() const {
  Dims axes;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) axes.push_back(d);
  }
  return Squeeze(axes);
}

View View::Squeeze(DimsView axes) const {
  const char* op = "squeeze";
  bool drop[kMaxRank] = {};
  for (int64_t axis : axes) {
    const int a = NormalizeAxis(axis, ndim(), op);
    if (drop[a]) {
      Fail(ErrorKind::kInvalidArgument, op, ": repeated axis ", a, " in ",
           stridekit::ToString(axes));
    }
    if (shape_[a] != 1) {
      Fail(ErrorKind::kInvalidArgument, op,
           ": cannot select an axis to squeeze out which has size not equal "
           "to one (axis ",
           a, " of ", stridekit::ToString(shape_), ")");
    }
    drop[a] = true;
  }
  View out;
  out.offset_ = offset_;
  out.numel_ = numel_;
  out.has_mask_ = has_mask_;
  for (int d = 0; d < ndim(); ++d) {
    if (drop[d]) continue;
    out.shape_.push_back(shape_[d]);
    out.strides_.push_back(strides_[d]);
    if (has_mask_) {
      out.mask_begin_.push_back(mask_begin_[d]);
      out.mask_end_.push_back(mask_end_[d]);
    }
  }
  CarryNoneValid(out, op);
  return out;
}

View View::Unsqueeze(DimsView axes) const {
  const char* op = "unsqueeze";
  const int64_t out_ndim = int64_t(ndim()) + int64_t(axes.size());
  if (out_ndim > kMaxRank) {
    Fail(ErrorKind::kInvalidArgument, op, ": rank ", out_ndim,
         " exceeds the maximum rank ", kMaxRank);
  }
  bool inserted[kMaxRank] = {};
  for (int64_t axis : axes) {
    const int a = NormalizeAxis(axis, out_ndim, op);
    if (inserted[a]) {
      Fail(ErrorKind::kInvalidArgument, op, ": repeated axis ", a, " in ",
           stridekit::ToString(axes));
    }
    inserted[a] = true;
  }
  Dims new_shape;
  for (int d = 0, src = 0; d < out_ndim; ++d) {
    new_shape.push_back(inserted[d] ? 1 : shape_[src++]);
  }
  return Reshape(new_shape);
}

View View::SwapAxes(int64_t axis1, int64_t axis2) const {
  const int a = NormalizeAxis(axis1, ndim(), "swapaxes");
  const int b = NormalizeAxis(axis2, ndim(), "swapaxes");
  Dims axes;
  for (int d = 0; d < ndim(); ++d) axes.push_back(d);
  std::swap(axes[a], axes[b]);
  return Permute(axes);
}

View View::MoveAxis(DimsView source, DimsView destination) const {
  const char* op = "moveaxis";
  if (source.size() != destination.size()) {
    Fail(ErrorKind::kInvalidArgument, op, ": source ",
         stridekit::ToString(source), " and destination ",
         stridekit::ToString(destination),
         " must have the same number of elements");
  }
  int order[kMaxRank];
  bool taken_src[kMaxRank] = {};
  bool taken_dst[kMaxRank] = {};
  for (int d = 0; d < ndim(); ++d) order[d] = -1;
  for (size_t i = 0; i < source.size(); ++i) {
    const int s = NormalizeAxis(source[i], ndim(), op);
    const int t = NormalizeAxis(destination[i], ndim(), op);
    if (taken_src[s] || taken_dst[t]) {
      Fail(ErrorKind::kInvalidArgument, op, ": repeated axis in ",
           taken_src[s] ? "source " : "destination ",
           stridekit::ToString(taken_src[s] ? source : destination));
    }
    taken_src[s] = taken_dst[t] = true;
    order[t] = s;
  }
  for (int d = 0, next = 0; d < ndim(); ++d) {
    if (order[d] >= 0) continue;
    while (taken_src[next]) ++next;
    order[d] = next++;
  }
  Dims axes;
  for (int d = 0; d < ndim(); ++d) axes.push_back(order[d]);
  return Permute(axes);
}

bool operator==(const View& a, const View& b) {
  if (a.shape_ != b.shape_ || a.strides_ != b.strides_ ||
      a.offset_ != b.offset_ || a.has_mask_ != b.has_mask_) {
    return false;
  }
  return !a.has_mask_ ||
         (a.mask_begin_ == b.mask_begin_ && a.mask_end_ == b.mask_end_);
}

std::string View::ToString() const {
  std::string text =
      StrCat("View(shape=", stridekit::ToString(shape_),
             ", strides=", stridekit::ToString(strides_), ", offset=", offset_);
  if (has_mask_) {
    text += ", mask=[";
    for (int d = 0; d < ndim(); ++d) {
      text += StrCat(d ? "," : "", "(", mask_begin_[d], ",", mask_end_[d], ")");
    }
    text += "]";
  }
  return text + ")";
}

}  // namespace stridekit
