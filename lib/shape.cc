#include "stridekit/shape.h"

#include <cctype>
#include <charconv>

#include "stridekit/checked.h"

namespace stridekit {

void CheckShape(DimsView shape, const char* op) {
  if (shape.size() > size_t(kMaxRank)) {
    Fail(ErrorKind::kInvalidArgument, op, ": rank ", shape.size(),
         " exceeds the maximum rank ", kMaxRank);
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      Fail(ErrorKind::kInvalidArgument, op, ": negative dimension ", shape[i],
           " at axis ", i, " of ", ToString(shape));
    }
  }
}

int64_t CheckedNumel(DimsView shape, const char* op, const char* what) {
  int64_t n = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d == 0) {
      empty = true;
    } else if (__builtin_mul_overflow(n, d, &n)) {
      Fail(ErrorKind::kOverflow, op, ": the element count of ", what, " ",
           ToString(shape), " overflows int64");
    }
  }
  return empty ? 0 : n;
}

int64_t Numel(DimsView shape) {
  CheckShape(shape, "numel");
  return CheckedNumel(shape, "numel", "shape");
}

namespace {

// Canonical contiguous strides with the innermost axis first in `order`
// (C: right to left, F: left to right); `op` names the caller in errors.
Dims CanonicalStrides(DimsView shape, bool c_order, const char* op) {
  CheckShape(shape, op);
  const int n = static_cast<int>(shape.size());
  Dims strides(n);
  int64_t next = 1;  // Stride of the next axis outwards.
  for (int j = 0; j < n; ++j) {
    const int i = c_order ? n - 1 - j : j;
    strides[i] = shape[i] == 0 ? 0 : next;
    if (__builtin_mul_overflow(strides[i], std::max<int64_t>(1, shape[i]),
                               &next)) {
      Fail(ErrorKind::kOverflow, op, ": the strides of ", ToString(shape),
           " overflow int64");
    }
  }
  return strides;
}

}  // namespace

Dims CContiguousStrides(DimsView shape) {
  return CanonicalStrides(shape, true, "c_contiguous_strides");
}

Dims FContiguousStrides(DimsView shape) {
  return CanonicalStrides(shape, false, "f_contiguous_strides");
}

int64_t RavelIndex(DimsView index, DimsView strides) {
  if (index.size() != strides.size()) {
    Fail(ErrorKind::kInvalidArgument, "ravel_index: indices[", index.size(),
         "] vs strides[", strides.size(), "], dimensions must match");
  }
  int64_t offset = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    offset = CheckedAdd(offset, CheckedMul(index[i], strides[i], "ravel_index"),
                        "ravel_index");
  }
  return offset;
}

namespace {

// Shared by UnravelIndex and UnravelIndexInto; `op` prefixes the messages.
void Unravel(int64_t k, DimsView shape, std::span<int64_t> dst,
             bool accept_zero_size_k0, const char* op) {
  CheckShape(shape, op);
  if (dst.size() != shape.size()) {
    Fail(ErrorKind::kInvalidArgument, op, ": destination has length ",
         dst.size(), " but the shape ", ToString(shape), " has rank ",
         shape.size());
  }
  if (shape.empty()) {
    if (k != 0) {
      Fail(ErrorKind::kOutOfRange, op, ": k=", k, " out of bounds for scalar");
    }
    return;
  }
  const int64_t size = Numel(shape);
  if (size == 0) {
    if (k != 0 || !accept_zero_size_k0) {
      Fail(ErrorKind::kOutOfRange, op, ": k=", k,
           " out of bounds for zero-size shape ", ToString(shape));
    }
    std::fill(dst.begin(), dst.end(), 0);
    return;
  }
  if (k < 0 || k >= size) {
    Fail(ErrorKind::kOutOfRange, op, ": k=", k, " out of bounds for shape ",
         ToString(shape), " (size ", size, ")");
  }
  for (size_t i = shape.size() - 1; i > 0; --i) {
    dst[i] = k % shape[i];
    k /= shape[i];
  }
  dst[0] = k;
}

}  // namespace

Dims UnravelIndex(int64_t k, DimsView shape) {
  CheckShape(shape, "unravel_index");
  Dims index(static_cast<int>(shape.size()));
  Unravel(k, shape, index.span(), true, "unravel_index");
  return index;
}

void UnravelIndexInto(int64_t k, DimsView shape, std::span<int64_t> dst) {
  Unravel(k, shape, dst, true, "unravel_index_into");
}

Dims CoordinatesOf(int64_t k, DimsView shape) {
  CheckShape(shape, "coordinates");
  Dims index(static_cast<int>(shape.size()));
  Unravel(k, shape, index.span(), false, "coordinates");
  return index;
}

Dims ResolveNegOne(DimsView shape, DimsView spec) {
  CheckShape(shape, "reshape");
  const int64_t size = Numel(shape);
  int unknown = -1;
  int64_t known = 1;
  bool known_overflows = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == -1) {
      if (unknown >= 0) {
        Fail(ErrorKind::kInvalidArgument, "reshape: multiple -1 dimensions in ",
             ToString(spec), ", can only infer one");
      }
      unknown = static_cast<int>(i);
    } else if (spec[i] < 0) {
      Fail(ErrorKind::kInvalidArgument, "reshape: negative dimension ", spec[i],
           " at axis ", i, " of ", ToString(spec),
           " (only -1 may be inferred)");
    } else if (__builtin_mul_overflow(known, spec[i], &known)) {
      known_overflows = true;
    }
  }
  Dims out(spec);
  if (known_overflows) {
    // A product beyond int64 can never equal an element count, unless a 0 in
    // the spec makes the true product 0.
    bool has_zero = false;
    for (int64_t d : spec) has_zero = has_zero || d == 0;
    if (!has_zero) {
      Fail(ErrorKind::kOverflow, "reshape: the element count of ",
           ToString(spec), " overflows int64");
    }
    known = 0;
  }
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) {
      Fail(ErrorKind::kInvalidArgument, "reshape: cannot reshape ",
           ToString(shape), " (", size, " elements) into ", ToString(spec),
           ": -1 cannot be inferred");
    }
    out[unknown] = size / known;
  } else if (known != size) {
    Fail(ErrorKind::kInvalidArgument, "reshape: cannot reshape ",
         ToString(shape), " to ", ToString(spec), " (", size, " vs ", known,
         " elements)");
  }
  return out;
}

namespace {

// Broadcasts `next` into `acc` in place; `arg` is next's position for the
// message. acc is right-aligned against next.
void BroadcastInto(Dims& acc, DimsView next, size_t arg) {
  CheckShape(next, "broadcast");
  if (next.size() > size_t(acc.size())) {
    const int pad = static_cast<int>(next.size()) - acc.size();
    for (int i = 0; i < pad; ++i) acc.insert(0, 1);
  }
  const int offset = acc.size() - static_cast<int>(next.size());
  for (size_t i = 0; i < next.size(); ++i) {
    // offset-checked: an axis number, not an element offset
    int64_t& a = acc[offset + static_cast<int>(i)];
    const int64_t b = next[i];
    if (a == b || b == 1) continue;
    if (a == 1) {
      a = b;
      continue;
    }
    Dims so_far = acc;
    Fail(ErrorKind::kInvalidArgument, "broadcast: cannot broadcast ",
         ToString(so_far), " with ", ToString(next), " (argument ", arg,
         // offset-checked: an axis number
         ", dim ", offset + static_cast<int>(i), ": ", a, " vs ", b, ")");
  }
}

// Rejects a broadcast result whose element count does not fit in int64, as
// NumPy does: no array of that shape can exist.
void CheckBroadcastSize(const Dims& out) {
  int64_t n = 1;
  for (int64_t d : out) {
    if (__builtin_mul_overflow(n, d, &n)) {
      Fail(ErrorKind::kOverflow, "broadcast: the element count of the result ",
           ToString(out), " overflows int64");
    }
  }
}

}  // namespace

Dims Broadcast(DimsView a, DimsView b) {
  CheckShape(a, "broadcast");
  Dims out(a);
  BroadcastInto(out, b, 1);
  CheckBroadcastSize(out);
  return out;
}

Dims BroadcastShapes(std::span<const DimsView> shapes) {
  Dims out;
  for (size_t i = 0; i < shapes.size(); ++i) BroadcastInto(out, shapes[i], i);
  CheckBroadcastSize(out);
  return out;
}

bool AreBroadcastable(std::span<const DimsView> shapes) {
  try {
    BroadcastShapes(shapes);
    return true;
  } catch (const Error&) {
    return false;
  }
}

Dims BroadcastIndex(DimsView target_index, DimsView source_shape) {
  Dims out(static_cast<int>(source_shape.size()), 0);
  BroadcastIndexInto(target_index, source_shape, out.span());
  return out;
}

void BroadcastIndexInto(DimsView target_index, DimsView source_shape,
                        std::span<int64_t> dst) {
  CheckShape(source_shape, "broadcast_index");
  if (dst.size() != source_shape.size()) {
    Fail(ErrorKind::kInvalidArgument,
         "broadcast_index: destination has length ", dst.size(),
         " but the source shape ", ToString(source_shape), " has rank ",
         source_shape.size());
  }
  const int64_t lead =
      int64_t(target_index.size()) - int64_t(source_shape.size());
  for (size_t i = 0; i < source_shape.size(); ++i) {
    const int64_t tp = lead + int64_t(i);
    if (tp < 0) continue;
    const int64_t t = target_index[tp];
    if (source_shape[i] == 1) {
      dst[i] = 0;
    } else if (t < 0 || t >= source_shape[i]) {
      Fail(ErrorKind::kOutOfRange, "broadcast_index: target index ", t,
           " at axis ", tp, " is out of bounds for source dim ", i, " of size ",
           source_shape[i]);
    } else {
      dst[i] = t;
    }
  }
}

int NormalizeAxis(int64_t axis, int64_t ndim, const char* op) {
  if (axis < -ndim || axis >= ndim) {
    Fail(ErrorKind::kOutOfRange, op, ": axis ", axis,
         " is out of bounds for array of dimension ", ndim);
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

Dims ReduceOutputShape(DimsView shape, DimsView axes, bool keepdims) {
  CheckShape(shape, "reduce");
  const int64_t ndim = int64_t(shape.size());
  bool reduced[kMaxRank] = {};
  for (int64_t axis : axes) {
    const int a = NormalizeAxis(axis, ndim, "reduce");
    if (reduced[a]) {
      Fail(ErrorKind::kInvalidArgument,
           "reduce: duplicate value in 'axis': ", ToString(axes));
    }
    reduced[a] = true;
  }
  Dims out;
  for (int i = 0; i < ndim; ++i) {
    if (!reduced[i]) {
      out.push_back(shape[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return out;
}

void NormalizeIndex(DimsView shape, std::span<int64_t> coords) {
  if (coords.size() > shape.size()) {
    Fail(ErrorKind::kOutOfRange, "index: too many indices for array: array is ",
         shape.size(), "-dimensional, but ", coords.size(), " were indexed");
  }
  for (size_t i = 0; i < coords.size(); ++i) {
    const int64_t c = coords[i], dim = shape[i];
    if (c < -dim || c >= dim) {
      Fail(ErrorKind::kOutOfRange, "index: index ", c,
           " is out of bounds for axis ", i, " with size ", dim);
    }
    if (c < 0) coords[i] = c + dim;
  }
}

std::string ToString(DimsView shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

Dims ParseShape(std::string_view text) {
  auto fail = [&](const char* what, size_t pos) -> void {
    Fail(ErrorKind::kInvalidArgument, "parse_shape: ", what, " at position ",
         pos, " in \"", text, "\"");
  };
  size_t pos = 0;
  auto skip_spaces = [&] {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  };
  skip_spaces();
  if (pos >= text.size() || text[pos] != '[') fail("expected '['", pos);
  ++pos;
  Dims dims;
  skip_spaces();
  if (pos < text.size() && text[pos] == ']') {
    ++pos;
  } else {
    while (true) {
      skip_spaces();
      int64_t value = 0;
      const char* first = text.data() + pos;
      const char* last = text.data() + text.size();
      if (first == last || !std::isdigit(static_cast<unsigned char>(*first))) {
        fail("expected a non-negative dimension", pos);
      }
      auto [ptr, ec] = std::from_chars(first, last, value);
      if (ec == std::errc::result_out_of_range) {
        Fail(ErrorKind::kOverflow, "parse_shape: dimension at position ", pos,
             " in \"", text, "\" overflows int64");
      }
      if (dims.size() == kMaxRank) fail("too many dimensions", pos);
      dims.push_back(value);
      pos = static_cast<size_t>(ptr - text.data());
      skip_spaces();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        break;
      }
      fail("expected ',' or ']'", pos);
    }
  }
  skip_spaces();
  if (pos != text.size()) fail("unexpected trailing text", pos);
  return dims;
}

}  // namespace stridekit
