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

View Compose(const View& base, const View& over) {
  const char* op = "compose";
  if (base.has_mask_) {
    Fail(ErrorKind::kNeedsCopy, op, ": the base ", base.ToString(),
         " is masked");
  }
  View out = over;
  const View::Span span = over.ValidSpan();
  if (span.lo == span.hi) {  // No valid element: any layout will do.
    out.strides_.assign(over.ndim(), 0);
    out.offset_ = base.offset_;
    out.Seal(op);
    return out;
  }
  if (span.lo < 0 || span.hi > base.numel_) {
    Fail(ErrorKind::kOutOfRange, op, ": ", over.ToString(),
         " reads positions [", span.lo, ", ", span.hi, ") outside the ",
         base.numel_, " elements of ", base.ToString());
  }
  // Base's axes, size-1 ones dropped and mergeable neighbours merged, with
  // their C-order weights in base's flat index.
  int64_t sizes[kMaxRank], strides[kMaxRank], weights[kMaxRank];
  int n = 0;
  for (int d = 0; d < base.ndim(); ++d) {
    const int64_t size = base.shape_[d], stride = base.strides_[d];
    if (size == 1) continue;
    int64_t merged;
    if (n > 0 && !__builtin_mul_overflow(size, stride, &merged) &&
        strides[n - 1] == merged) {
      sizes[n - 1] *= size;
      strides[n - 1] = stride;
      continue;
    }
    sizes[n] = size;
    strides[n] = stride;
    ++n;
  }
  int64_t w = 1;
  for (int k = n - 1; k >= 0; --k) {
    weights[k] = w;
    w *= sizes[k];  // At most base's element count.
  }
  // Start at the first valid position (mask corner); each of over's axes
  // moves one base digit by a multiple of its weight, and no digit may carry.
  int64_t corner = over.offset_;
  for (int d = 0; d < over.ndim(); ++d) {
    corner += over.mask(d).begin * over.strides_[d];  // Inside the span.
  }
  int64_t lo[kMaxRank], hi[kMaxRank];
  int64_t result_offset = base.offset_;
  for (int k = 0; k < n; ++k) {
    lo[k] = hi[k] = (corner / weights[k]) % sizes[k];
    result_offset += lo[k] * strides[k];  // A base element's offset.
  }
  for (int d = 0; d < over.ndim(); ++d) {
    const int64_t a = over.strides_[d];
    const AxisRange valid = over.mask(d);
    int64_t stride = 0;
    if (a != 0 && n > 0) {
      int k = 0;
      while (a % weights[k] != 0) ++k;  // weights[n - 1] == 1 divides.
      const int64_t steps = a / weights[k];
      int64_t extent;
      if (__builtin_mul_overflow(steps, valid.end - valid.begin - 1, &extent)) {
        Fail(ErrorKind::kNeedsCopy, op, ": ", over.ToString(),
             " cannot be expressed on ", base.ToString());
      }
      (extent < 0 ? lo[k] : hi[k]) += extent;
      stride = CheckedMul(steps, strides[k], op);
    }
    out.strides_[d] = stride;
    result_offset =
        CheckedSub(result_offset, CheckedMul(valid.begin, stride, op), op);
  }
  for (int k = 0; k < n; ++k) {
    if (lo[k] < 0 || hi[k] >= sizes[k]) {
      Fail(ErrorKind::kNeedsCopy, op, ": ", over.ToString(),
           " cannot be expressed as one view on ", base.ToString());
    }
  }
  out.offset_ = result_offset;
  out.Seal(op);
  return out;
}

}  // namespace stridekit
