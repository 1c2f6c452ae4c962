// View::Reshape (NumPy's no-copy reshape, extended to masks) and Compose
// (one view applied on top of another).
#include <algorithm>

#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"
#include "stridekit/view.h"

namespace stridekit {

namespace {

// One axis of a layout: size, stride and valid range.
struct Axis {
  int64_t size;
  int64_t stride;
  int64_t begin;
  int64_t end;
};

using Axes = InlineVector<Axis, kMaxRank>;

// The valid region of a group of axes (C order within the group) as one
// interval [first, last] of the group's flat index, if it is one: the axes
// after some axis j are fully valid and those before it hold one index.
bool GroupInterval(std::span<const Axis> group, int64_t& first, int64_t& last) {
  int j = 0;
  for (int k = int(group.size()) - 1; k >= 0; --k) {
    if (group[k].begin != 0 || group[k].end != group[k].size) {
      j = k;
      break;
    }
  }
  for (int k = 0; k < j; ++k) {
    if (group[k].end - group[k].begin != 1) return false;
  }
  first = 0;
  int64_t weight = 1;
  int64_t weight_j = 1;
  for (int k = int(group.size()) - 1; k >= 0; --k) {
    first += group[k].begin * weight;
    if (k == j) weight_j = weight;
    weight *= group[k].size;  // At most the group's element count.
  }
  last = first + (group[j].end - group[j].begin) * weight_j - 1;
  return true;
}

// Splits the interval [first, last] of a flat index into ranges per axis of
// `sizes` (C order); false unless the interval is such a box.
bool IntervalToBox(int64_t first, int64_t last, std::span<const int64_t> sizes,
                   int64_t* begin, int64_t* end) {
  const int n = int(sizes.size());
  int64_t lo[kMaxRank];
  int64_t hi[kMaxRank];
  for (int k = n - 1; k >= 0; --k) {
    lo[k] = first % sizes[k];
    hi[k] = last % sizes[k];
    first /= sizes[k];
    last /= sizes[k];
  }
  int split = 0;  // The first axis whose digits differ.
  while (split < n && lo[split] == hi[split]) ++split;
  for (int k = 0; k < n; ++k) {
    if (k > split && (lo[k] != 0 || hi[k] != sizes[k] - 1)) return false;
    begin[k] = lo[k];
    end[k] = hi[k] + 1;
  }
  return true;
}

// NumPy's _attempt_nocopy_reshape in elements (C order), carrying validity
// ranges: old axes longer than 1 and the new axes are matched in groups of
// equal element count; a group's old axes must be mergeable, its new axes
// get C strides from the group's innermost old stride, and its valid region
// must stay a box (begin/end are written only when `masked`). `old_axes`
// excludes size-1 axes; the view has elements.
//
// With a mask, an old axis whose valid range holds one index (tinygrad's
// rule) never blocks a merge: only the axes along which valid elements vary
// (a suffix of the group, since its valid region is an interval) must merge;
// the caller then places the offset so that the first valid element keeps
// its offset.
// Returns an empty string on success, else why it needs a copy.
const char* NoCopyReshape(std::span<const Axis> old_axes,
                          std::span<const int64_t> new_shape, bool masked,
                          int64_t* strides, int64_t* begin, int64_t* end) {
  const int old_n = int(old_axes.size());
  const int new_n = int(new_shape.size());
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < new_n && oi < old_n) {
    int64_t np = new_shape[ni];
    int64_t op = old_axes[oi].size;
    while (np != op) {  // Both stay below the element count.
      if (np < op) {
        np *= new_shape[nj++];
      } else {
        op *= old_axes[oj++].size;
      }
    }
    const std::span<const Axis> group = old_axes.subspan(oi, oj - oi);
    // The first of the trailing axes along which valid elements vary (all
    // axes when unmasked); the others hold one valid index, so their strides
    // never matter.
    int varying = 0;
    if (masked) {
      varying = int(group.size());
      while (varying > 0 &&
             group[varying - 1].end - group[varying - 1].begin > 1) {
        --varying;
      }
    }
    for (int k = varying; k + 1 < int(group.size()); ++k) {
      int64_t merged;
      if (__builtin_mul_overflow(group[k + 1].size, group[k + 1].stride,
                                 &merged) ||
          group[k].stride != merged) {
        return "its strides do not merge";
      }
    }
    if (masked) {
      int64_t first, last;
      if (!GroupInterval(group, first, last) ||
          !IntervalToBox(first, last, new_shape.subspan(ni, nj - ni),
                         begin + ni, end + ni)) {
        return "its mask would not stay a box";
      }
    }
    strides[nj - 1] = group.back().stride;
    for (int nk = nj - 1; nk > ni; --nk) {
      if (__builtin_mul_overflow(strides[nk], new_shape[nk],
                                 &strides[nk - 1])) {
        return "a stride overflows int64";
      }
    }
    ni = nj++;
    oi = oj++;
  }
  const int64_t last_stride = ni >= 1 ? strides[ni - 1] : 1;
  for (int nk = ni; nk < new_n; ++nk) {
    strides[nk] = last_stride;
    if (masked) {
      begin[nk] = 0;
      end[nk] = 1;
    }
  }
  return "";
}

}  // namespace

View View::Reshape(DimsView spec) const {
  const char* op = "reshape";
  // NumPy returns the view itself only for the literal same shape (a -1 in
  // the request takes the general path even when it resolves to it).
  if (std::equal(spec.begin(), spec.end(), shape_.begin(), shape_.end())) {
    return *this;
  }
  const Dims new_shape = ResolveNegOne(shape_, spec);
  View out;
  out.shape_ = new_shape;
  out.offset_ = offset_;
  // ResolveNegOne matched the counts; a zero-size shape's other dims must
  // still multiply within int64.
  out.numel_ = numel_ > 0 ? numel_ : CheckedNumel(new_shape, op, "shape");
  if (IsCContiguous()) {  // Includes every view without elements.
    out.strides_ = CContiguousStrides(new_shape);
    return out;
  }
  const bool none_valid = NoneValid();
  const bool masked = has_mask_ && !none_valid;
  Axes old_axes;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) continue;
    old_axes.push_back({shape_[d], strides_[d], masked ? mask_begin_[d] : 0,
                        masked ? mask_end_[d] : shape_[d]});
  }
  out.strides_.resize(new_shape.size());
  if (masked) {
    out.mask_begin_.resize(new_shape.size());
    out.mask_end_.resize(new_shape.size());
  }
  const char* why =
      NoCopyReshape(old_axes, new_shape, masked, out.strides_.data(),
                    out.mask_begin_.data(), out.mask_end_.data());
  if (*why != '\0') {
    if (none_valid) {
      // No element is ever read: any strides will do (tinygrad's rule).
      out.strides_.assign(new_shape.size(), 0);
    } else {
      Fail(ErrorKind::kNeedsCopy, op, ": cannot reshape ", ToString(), " to ",
           stridekit::ToString(new_shape), " without a copy: ", why);
    }
  }
  out.has_mask_ = masked;
  CarryNoneValid(out, op);
  if (masked) {
    // Axes holding one valid index kept no stride of their own: place the
    // offset so that the first valid element keeps its offset (exact in 128
    // bits; the result must fit). Masked positions may then sit at offsets
    // no position had before, so every offset is checked again.
    __int128 first = offset_;
    for (int d = 0; d < ndim(); ++d) {
      first += static_cast<__int128>(mask_begin_[d]) * strides_[d];
    }
    __int128 moved = 0;
    for (int d = 0; d < out.ndim(); ++d) {
      moved += static_cast<__int128>(out.mask_begin_[d]) * out.strides_[d];
    }
    const __int128 offset = first - moved;
    if (offset < INT64_MIN || offset > INT64_MAX) {
      Fail(ErrorKind::kOverflow, op, ": reshaping ", ToString(), " to ",
           stridekit::ToString(new_shape), " gives strides ",
           stridekit::ToString(out.strides_), " whose offset overflows int64");
    }
    out.offset_ = int64_t(offset);
    out.Seal(op);
  }
  return out;
}

namespace {

// Compose decides by enumeration when the digit test fails and `over` has at
// most this many valid elements.
constexpr int64_t kComposeSearchLimit = int64_t{1} << 16;

// One axis of the base, size-1 axes dropped and mergeable neighbours merged:
// size, stride, valid range and C-order weight in the base's flat index.
struct BaseAxis {
  int64_t size;
  int64_t stride;
  int64_t begin;
  int64_t end;
  int64_t weight;
};

struct BaseAxes {
  BaseAxis axis[kMaxRank];
  int n = 0;
  int64_t offset = 0;

  explicit BaseAxes(const View& base) : offset(base.offset()) {
    for (int d = 0; d < base.ndim(); ++d) {
      const int64_t size = base.dim(d), stride = base.stride(d);
      if (size == 1) continue;  // Fully valid: base has a valid element.
      const AxisRange valid = base.mask(d);
      int64_t merged;
      // Merge into the previous axis when strides chain and this axis is
      // fully valid (the merged range is then begin * size, end * size).
      if (n > 0 && valid.begin == 0 && valid.end == size &&
          !__builtin_mul_overflow(size, stride, &merged) &&
          axis[n - 1].stride == merged) {
        BaseAxis& last = axis[n - 1];
        last.size *= size;  // Within base's element count, as are the ends.
        last.stride = stride;
        last.begin *= size;
        last.end *= size;
        continue;
      }
      axis[n++] = {size, stride, valid.begin, valid.end, 1};
    }
    int64_t w = 1;
    for (int k = n - 1; k >= 0; --k) {
      axis[k].weight = w;
      w *= axis[k].size;  // At most base's element count.
    }
  }

  // The digits of flat position p, 0 <= p < numel.
  void Digits(int64_t p, int64_t* digits) const {
    for (int k = 0; k < n; ++k) {
      digits[k] = p / axis[k].weight % axis[k].size;
    }
  }
  // The element offset of the position with these digits (exact).
  __int128 Offset(const int64_t* digits) const {
    __int128 at = offset;
    for (int k = 0; k < n; ++k) {
      at += static_cast<__int128>(digits[k]) * axis[k].stride;
    }
    return at;
  }
  bool Valid(const int64_t* digits) const {
    for (int k = 0; k < n; ++k) {
      if (digits[k] < axis[k].begin || digits[k] >= axis[k].end) return false;
    }
    return true;
  }
};

// A composition: result strides, the box of valid indices and the element
// offset at its first corner.
struct Composed {
  __int128 strides[kMaxRank];
  int64_t begin[kMaxRank];
  int64_t end[kMaxRank];
  __int128 corner = 0;
  bool none_valid = false;
};

// Position of `over` at index i (exact; `over`'s valid ones lie in base).
__int128 PositionAt(const View& over, const int64_t* index) {
  __int128 p = over.offset();
  for (int d = 0; d < over.ndim(); ++d) {
    p += static_cast<__int128>(index[d]) * over.stride(d);
  }
  return p;
}

// The digit test (tinygrad's view merge): from the first valid index of
// `over`, a step along axis d moves base's digits by fixed amounts (measured
// at that index); when no digit then leaves its axis anywhere in over's
// box, those are the true digits and the result is one view. A base mask
// restricts an axis of `over` when a single axis moves its digit. False
// when the test does not decide.
bool DigitCompose(const BaseAxes& base, const View& over, Composed& r) {
  const int m = over.ndim(), n = base.n;
  int64_t corner[kMaxRank], origin[kMaxRank], step[kMaxRank][kMaxRank];
  int64_t len[kMaxRank];
  for (int d = 0; d < m; ++d) {
    const AxisRange valid = over.mask(d);
    r.begin[d] = corner[d] = valid.begin;
    r.end[d] = valid.end;
    len[d] = valid.end - valid.begin;
  }
  const int64_t p0 = int64_t(PositionAt(over, corner));  // In base.
  base.Digits(p0, origin);
  for (int d = 0; d < m; ++d) {
    for (int k = 0; k < n; ++k) step[d][k] = 0;
    if (len[d] < 2) continue;
    // The next valid position along d, also in base.
    int64_t next[kMaxRank];
    base.Digits(int64_t(p0 + static_cast<__int128>(over.stride(d))), next);
    for (int k = 0; k < n; ++k) step[d][k] = next[k] - origin[k];
  }
  // Every digit must stay within its axis before any mask is applied.
  __int128 lo[kMaxRank], hi[kMaxRank];
  int movers[kMaxRank], mover[kMaxRank];
  for (int k = 0; k < n; ++k) {
    lo[k] = hi[k] = origin[k];
    movers[k] = mover[k] = 0;
    for (int d = 0; d < m; ++d) {
      if (step[d][k] == 0) continue;
      const __int128 extent = static_cast<__int128>(step[d][k]) * (len[d] - 1);
      (extent < 0 ? lo[k] : hi[k]) += extent;
      ++movers[k];
      mover[k] = d;
    }
    if (lo[k] < 0 || hi[k] >= base.axis[k].size) return false;  // A carry.
  }
  for (int k = 0; k < n; ++k) {
    const BaseAxis& axis = base.axis[k];
    if (lo[k] >= axis.begin && hi[k] < axis.end) continue;
    if (movers[k] == 0) {
      r.none_valid = true;
      return true;
    }
    if (movers[k] > 1) return false;
    // begin <= origin + t * s < end for t in [0, len): clip that axis.
    const int d = mover[k];
    const int64_t s = step[d][k];
    const int64_t a = axis.begin - origin[k], b = axis.end - 1 - origin[k];
    auto floor_div = [](int64_t x, int64_t y) {
      return x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
    };
    const int64_t t_lo = s > 0 ? -floor_div(-a, s) : -floor_div(-b, s);
    const int64_t t_hi = s > 0 ? floor_div(b, s) : floor_div(a, s);
    r.begin[d] = std::max(r.begin[d], corner[d] + t_lo);
    r.end[d] = std::min(r.end[d], corner[d] + t_hi + 1);
    if (r.begin[d] >= r.end[d]) {
      r.none_valid = true;
      return true;
    }
  }
  int64_t digits[kMaxRank];
  for (int k = 0; k < n; ++k) {
    digits[k] = origin[k];
    for (int d = 0; d < m; ++d) {
      digits[k] += step[d][k] * (r.begin[d] - corner[d]);  // In the axis.
    }
  }
  r.corner = base.Offset(digits);
  for (int d = 0; d < m; ++d) {
    r.strides[d] = 0;
    if (r.end[d] - r.begin[d] < 2) continue;
    for (int k = 0; k < n; ++k) {
      r.strides[d] += static_cast<__int128>(step[d][k]) * base.axis[k].stride;
    }
  }
  return true;
}

// Advances `index` through the box [begin, end) in C order.
bool NextInBox(int m, const int64_t* begin, const int64_t* end,
               int64_t* index) {
  for (int d = m - 1; d >= 0; --d) {
    if (++index[d] < end[d]) return true;
    index[d] = begin[d];
  }
  return false;
}

// The exact answer by enumeration of over's valid indices (the definition):
// the indices whose base element is valid must form a box, and the offsets
// there must be affine, with strides read off the box's first corner. False
// when no view expresses it; `searched` false when `over` is too large.
bool SearchCompose(const BaseAxes& base, const View& over, Composed& r,
                   bool& searched) {
  const int m = over.ndim();
  int64_t begin[kMaxRank], end[kMaxRank], index[kMaxRank];
  int64_t digits[kMaxRank];
  __int128 count = 1;
  for (int d = 0; d < m; ++d) {
    const AxisRange valid = over.mask(d);
    begin[d] = index[d] = valid.begin;
    end[d] = valid.end;
    count *= end[d] - begin[d];
    if (count > kComposeSearchLimit) {
      searched = false;
      return false;
    }
  }
  searched = true;
  // The box around the indices whose base element is valid.
  int64_t found = 0;
  for (int d = 0; d < m; ++d) {
    r.begin[d] = end[d];
    r.end[d] = begin[d];
  }
  do {
    base.Digits(int64_t(PositionAt(over, index)), digits);
    if (!base.Valid(digits)) continue;
    ++found;
    for (int d = 0; d < m; ++d) {
      r.begin[d] = std::min(r.begin[d], index[d]);
      r.end[d] = std::max(r.end[d], index[d] + 1);
    }
  } while (NextInBox(m, begin, end, index));
  if (found == 0) {
    r.none_valid = true;
    return true;
  }
  int64_t volume = 1;
  for (int d = 0; d < m; ++d) volume *= r.end[d] - r.begin[d];
  if (volume != found) return false;  // Not a box.
  for (int d = 0; d < m; ++d) index[d] = r.begin[d];
  base.Digits(int64_t(PositionAt(over, index)), digits);
  r.corner = base.Offset(digits);
  for (int d = 0; d < m; ++d) {
    r.strides[d] = 0;
    if (r.end[d] - r.begin[d] < 2) continue;
    ++index[d];
    base.Digits(int64_t(PositionAt(over, index)), digits);
    r.strides[d] = base.Offset(digits) - r.corner;
    --index[d];
  }
  do {
    __int128 want = r.corner;
    // offset-checked: __int128 (r.strides)
    for (int d = 0; d < m; ++d) want += (index[d] - r.begin[d]) * r.strides[d];
    base.Digits(int64_t(PositionAt(over, index)), digits);
    if (base.Offset(digits) != want) return false;
  } while (NextInBox(m, r.begin, r.end, index));
  return true;
}

}  // namespace

View Compose(const View& base, const View& over) {
  const char* op = "compose";
  View out = over;
  const View::Span span = over.ValidSpan();
  if (span.lo == span.hi || base.NoneValid()) {
    // No valid element: any layout will do.
    if (over.ndim() == 0) {
      Fail(ErrorKind::kNeedsCopy, op, ": the element of ", over.ToString(),
           " is masked in ", base.ToString(),
           ", which a view without axes cannot express");
    }
    out.strides_.assign(over.ndim(), 0);
    out.offset_ = base.offset_;
    out.has_mask_ = true;
    out.mask_begin_.assign(over.ndim(), 0);
    out.mask_end_.assign(over.ndim(), 0);
    out.Seal(op);
    return out;
  }
  if (span.lo < 0 || span.hi > base.numel_) {
    Fail(ErrorKind::kOutOfRange, op, ": ", over.ToString(),
         " reads positions [", span.lo, ", ", span.hi, ") outside the ",
         base.numel_, " elements of ", base.ToString());
  }
  const BaseAxes axes(base);
  Composed r;
  bool found = DigitCompose(axes, over, r);
  bool searched = true;
  if (!found) {
    r = Composed{};
    found = SearchCompose(axes, over, r, searched);
  }
  if (!found) {
    Fail(ErrorKind::kNeedsCopy, op, ": ", over.ToString(),
         searched ? " cannot be expressed as one view on "
                  : " has too many elements to decide whether one view "
                    "expresses it on ",
         base.ToString());
  }
  const int m = over.ndim();
  if (r.none_valid) {
    if (m == 0) {
      Fail(ErrorKind::kNeedsCopy, op, ": the element of ", over.ToString(),
           " is masked in ", base.ToString(),
           ", which a view without axes cannot express");
    }
    out.strides_.assign(m, 0);
    out.offset_ = base.offset_;
    out.has_mask_ = true;
    out.mask_begin_.assign(m, 0);
    out.mask_end_.assign(m, 0);
    out.Seal(op);
    return out;
  }
  // Exact values; the result's must fit in int64.
  __int128 offset = r.corner;
  for (int d = 0; d < m; ++d) {
    if (r.strides[d] < INT64_MIN || r.strides[d] > INT64_MAX) {
      Fail(ErrorKind::kOverflow, op, ": the stride of axis ", d, " of ",
           over.ToString(), " on ", base.ToString(), " overflows int64");
    }
    out.strides_[d] = int64_t(r.strides[d]);
    offset -= r.begin[d] * r.strides[d];  // offset-checked: __int128
  }
  if (offset < INT64_MIN || offset > INT64_MAX) {
    Fail(ErrorKind::kOverflow, op, ": the offset of ", over.ToString(), " on ",
         base.ToString(), " overflows int64");
  }
  out.offset_ = int64_t(offset);
  bool masked = false;
  for (int d = 0; d < m; ++d) {
    masked = masked || r.begin[d] != 0 || r.end[d] != over.shape_[d];
  }
  out.has_mask_ = masked;
  if (masked) {
    out.mask_begin_.assign(std::span<const int64_t>(r.begin, m));
    out.mask_end_.assign(std::span<const int64_t>(r.end, m));
  }
  out.Seal(op);
  return out;
}

}  // namespace stridekit
