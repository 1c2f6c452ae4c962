// NumPy basic indexing on views: the text notation and View::Slice.
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"
#include "stridekit/view.h"

namespace stridekit {

namespace {

// C-locale whitespace, without the locale lookup of std::isspace.
bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

[[noreturn]] void Malformed(std::string_view text, size_t pos,
                            std::string_view item, const char* why) {
  Fail(ErrorKind::kInvalidArgument, "slice: ", why, " '", item,
       "' at position ", pos, " of \"", text, "\"");
}

// An optional integer: [+-] ws* digits (already trimmed); empty -> nullopt.
std::optional<int64_t> ParseInt(std::string_view token, std::string_view text,
                                size_t pos) {
  if (token.empty()) return std::nullopt;
  std::string_view digits = token;
  bool negative = false;
  if (digits.front() == '+' || digits.front() == '-') {
    negative = digits.front() == '-';
    digits = Trim(digits.substr(1));
  }
  if (digits.empty()) Malformed(text, pos, token, "malformed integer");
  // Accumulate negatively so that INT64_MIN parses.
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') Malformed(text, pos, token, "malformed integer");
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_sub_overflow(value, c - '0', &value)) {
      Malformed(text, pos, token, "integer out of int64 range");
    }
  }
  if (!negative) {
    if (value == INT64_MIN) {
      Malformed(text, pos, token, "integer out of int64 range");
    }
    value = -value;
  }
  return value;
}

SliceItem ParseItem(std::string_view item, std::string_view text, size_t pos) {
  if (item == "...") return SliceItem::Ellipsis();
  if (item == "None" || item == "newaxis" || item == "np.newaxis") {
    return SliceItem::NewAxis();
  }
  const size_t colon = item.find(':');
  if (colon == std::string_view::npos) {
    if (item.empty()) Malformed(text, pos, item, "empty item");
    return SliceItem::Index(*ParseInt(item, text, pos));
  }
  const std::string_view rest = item.substr(colon + 1);
  const size_t colon2 = rest.find(':');
  if (colon2 != std::string_view::npos &&
      rest.find(':', colon2 + 1) != std::string_view::npos) {
    Malformed(text, pos, item, "too many ':' in");
  }
  SliceItem out =
      SliceItem::Range(ParseInt(Trim(item.substr(0, colon)), text, pos),
                       ParseInt(Trim(rest.substr(0, colon2)), text, pos));
  if (colon2 != std::string_view::npos) {
    out.step = ParseInt(Trim(rest.substr(colon2 + 1)), text, pos).value_or(1);
  }
  return out;
}

// Python's slice.indices for a non-zero step: the first index and the count.
void ResolveRange(const SliceItem& item, int64_t dim, int64_t& start,
                  int64_t& count) {
  const int64_t step = item.step;
  auto clamp = [&](int64_t v) {
    if (v < 0) {
      v += dim;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= dim) {
      v = step < 0 ? dim - 1 : dim;
    }
    return v;
  };
  start = item.start ? clamp(*item.start) : (step < 0 ? dim - 1 : 0);
  const int64_t stop = item.stop ? clamp(*item.stop) : (step < 0 ? -1 : dim);
  // |step| as unsigned: step may be INT64_MIN.
  const uint64_t magnitude =
      step < 0 ? uint64_t(-(step + 1)) + 1 : uint64_t(step);
  const int64_t distance = step < 0 ? start - stop : stop - start;
  count = distance > 0 ? int64_t((uint64_t(distance) - 1) / magnitude + 1) : 0;
}

int64_t FloorDiv(int64_t a, int64_t b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace

SliceItems ParseSlices(std::string_view text) {
  SliceItems items;
  if (Trim(text).empty()) return items;
  size_t pos = 0;
  while (true) {
    const size_t comma = text.find(',', pos);
    const std::string_view raw = text.substr(
        pos, comma == std::string_view::npos ? text.size() - pos : comma - pos);
    const std::string_view item = Trim(raw);
    const bool last = comma == std::string_view::npos;
    // Python allows one trailing comma: "1," is the tuple (1,).
    if (!(last && item.empty() && !items.empty())) {
      if (items.size() == kMaxSliceItems) {
        Fail(ErrorKind::kInvalidArgument, "slice: more than ", kMaxSliceItems,
             " items in \"", text, "\"");
      }
      items.push_back(ParseItem(item, text, pos));
    }
    if (last) break;
    pos = comma + 1;
  }
  return items;
}

std::string ToString(const SliceItem& item) {
  switch (item.kind) {
    case SliceItem::Kind::kIndex:
      return StrCat(item.index);
    case SliceItem::Kind::kNewAxis:
      return "None";
    case SliceItem::Kind::kEllipsis:
      return "...";
    case SliceItem::Kind::kRange:
      break;
  }
  std::string text;
  if (item.start) text += StrCat(*item.start);
  text += ":";
  if (item.stop) text += StrCat(*item.stop);
  if (item.step != 1) text += StrCat(":", item.step);
  return text;
}

View View::Slice(std::string_view text) const {
  return Slice(ParseSlices(text));
}

View View::Slice(std::span<const SliceItem> items) const {
  const char* op = "slice";
  int consuming = 0, ellipses = 0, dropped = 0, inserted = 0;
  for (const SliceItem& item : items) {
    switch (item.kind) {
      case SliceItem::Kind::kIndex:
        ++dropped;
        ++consuming;
        break;
      case SliceItem::Kind::kRange:
        if (item.step == 0) {
          Fail(ErrorKind::kInvalidArgument, op, ": slice step cannot be zero");
        }
        ++consuming;
        break;
      case SliceItem::Kind::kNewAxis:
        ++inserted;
        break;
      case SliceItem::Kind::kEllipsis:
        ++ellipses;
        break;
    }
  }
  if (ellipses > 1) {
    Fail(ErrorKind::kInvalidArgument, op,
         ": an index can only have a single ellipsis ('...')");
  }
  if (consuming > ndim()) {
    Fail(ErrorKind::kOutOfRange, op, ": too many indices for array: array is ",
         ndim(), "-dimensional, but ", consuming, " were indexed");
  }
  if (ndim() - dropped + inserted > kMaxRank) {
    Fail(ErrorKind::kInvalidArgument, op, ": the result would have ",
         ndim() - dropped + inserted, " dimensions, more than ", kMaxRank);
  }
  View out;
  out.offset_ = offset_;
  out.has_mask_ = has_mask_;
  bool none_valid = NoneValid();
  int d = 0;  // The next axis of this view.
  auto keep_axis = [&] {
    out.shape_.push_back(shape_[d]);
    out.strides_.push_back(strides_[d]);
    if (has_mask_) {
      out.mask_begin_.push_back(mask_begin_[d]);
      out.mask_end_.push_back(mask_end_[d]);
    }
    ++d;
  };
  for (const SliceItem& item : items) {
    switch (item.kind) {
      case SliceItem::Kind::kEllipsis:
        for (int n = ndim() - consuming; n > 0; --n) keep_axis();
        break;
      case SliceItem::Kind::kNewAxis:
        out.shape_.push_back(1);
        out.strides_.push_back(0);
        if (has_mask_) {
          out.mask_begin_.push_back(0);
          out.mask_end_.push_back(1);
        }
        break;
      case SliceItem::Kind::kIndex: {
        const int64_t i = item.index < 0 ? item.index + shape_[d] : item.index;
        if (i < 0 || i >= shape_[d]) {
          Fail(ErrorKind::kOutOfRange, op, ": index ", item.index,
               " is out of bounds for axis ", d, " with size ", shape_[d]);
        }
        out.offset_ =
            CheckedAdd(out.offset_, CheckedMul(i, strides_[d], op), op);
        if (has_mask_ && (i < mask_begin_[d] || i >= mask_end_[d])) {
          none_valid = true;
        }
        ++d;
        break;
      }
      case SliceItem::Kind::kRange: {
        int64_t start, count;
        ResolveRange(item, shape_[d], start, count);
        int64_t step = item.step;
        if (count == 0) {  // NumPy points an empty slice at its start, step 1.
          start = 0;
          step = 1;
        }
        out.offset_ =
            CheckedAdd(out.offset_, CheckedMul(start, strides_[d], op), op);
        out.shape_.push_back(count);
        // stride * step fits when count > 1 (|step| < dim, and the view's
        // offsets fit); otherwise the axis is never moved along.
        int64_t stride;
        if (__builtin_mul_overflow(strides_[d], step, &stride)) {
          stride = strides_[d];
        }
        out.strides_.push_back(stride);
        if (has_mask_ && count <= 1) {
          const bool valid = mask_begin_[d] <= start && start < mask_end_[d];
          out.mask_begin_.push_back(0);
          out.mask_end_.push_back(valid ? count : 0);
        } else if (has_mask_) {
          // Position j reads index start + j * step; keep those in the mask.
          const int64_t b = mask_begin_[d], e = mask_end_[d];
          int64_t jb, je;
          if (step > 0) {
            jb = -FloorDiv(start - b, step);  // ceil((b - start) / step)
            je = -FloorDiv(start - e, step);
          } else {
            const int64_t s = -step;  // count > 1, so |step| < dim.
            jb = FloorDiv(start - e, s) + 1;
            je = FloorDiv(start - b, s) + 1;
          }
          out.mask_begin_.push_back(jb);
          out.mask_end_.push_back(je);  // Seal clips to [0, count].
        }
        ++d;
        break;
      }
    }
  }
  while (d < ndim()) keep_axis();
  if (none_valid) {
    if (out.ndim() == 0) {
      Fail(ErrorKind::kNeedsCopy, op, ": the selected element of ", ToString(),
           " is masked, which a view without axes cannot express");
    }
    out.has_mask_ = true;
    out.mask_begin_.assign(out.ndim(), 0);
    out.mask_end_.assign(out.ndim(), 0);
  }
  out.Seal(op, /*offsets_fit=*/true);  // Positions are a subset of ours.
  return out;
}

}  // namespace stridekit
