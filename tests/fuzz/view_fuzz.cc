// Fuzzes the view algebra: the input picks a base layout (hostile dims,
// strides and offsets included) and a chain of operations, slice texts taken
// from the input. Every operation either throws stridekit::Error or returns a
// view that round-trips through the C struct, whose valid elements lie in its
// ValidSpan, and whose canonical slice text parses back to the same items.
// ASan/UBSan flag any overflow or out-of-bounds access on the way.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "stridekit/view.h"

namespace {

using stridekit::Dims;
using stridekit::View;

// Reads fixed-size values from the input, zeros once it runs out.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  int64_t Int64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | Byte();
    return int64_t(v);
  }
  // Mostly small values, sometimes anything.
  int64_t Value(int64_t small) {
    const uint8_t kind = Byte();
    if (kind < 200) return int64_t(kind % (2 * small + 1)) - small;
    return Int64();
  }
  std::string_view Text() {
    const size_t n = Byte() % 24;
    const size_t take = n < size_ - pos_ ? n : size_ - pos_;
    const std::string_view s(reinterpret_cast<const char*>(data_ + pos_), take);
    pos_ += take;
    return s;
  }
  bool done() const { return pos_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

Dims Values(Input& in, int n, int64_t small) {
  Dims out;
  for (int i = 0; i < n; ++i) out.push_back(in.Value(small));
  return out;
}

void CheckInvariants(const View& v) {
  sk_view c;
  v.ToC(&c);
  if (!(View::FromC(c, "fuzz") == v)) abort();
  if (v.numel() > 4096) return;
  const View::Span span = v.ValidSpan();
  bool any = false;
  for (int64_t k = 0; k < v.numel(); ++k) {
    const Dims index = v.CoordinatesOf(k);
    if (v.OffsetOf(k) != v.LinearIndex(index)) abort();
    if (!v.IsValid(index)) continue;
    any = true;
    const int64_t at = v.LinearIndex(index);
    if (at < span.lo || at >= span.hi) abort();
  }
  if (!any && span.lo != span.hi) abort();
}

void CheckSliceText(std::string_view text) {
  stridekit::SliceItems items;
  try {
    items = stridekit::ParseSlices(text);
  } catch (const stridekit::Error&) {
    return;
  }
  std::string canonical;
  for (const stridekit::SliceItem& item : items) {
    if (!canonical.empty()) canonical += ',';
    canonical += stridekit::ToString(item);
  }
  const stridekit::SliceItems again = stridekit::ParseSlices(canonical);
  if (again.size() != items.size()) abort();
  for (int i = 0; i < items.size(); ++i) {
    if (!(again[i] == items[i])) abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  const int rank = in.Byte() % 5;
  View v;
  try {
    // Reads in the order written (argument evaluation order is unspecified).
    Dims shape = Values(in, rank, 4);
    for (auto& d : shape) d = d == INT64_MIN ? 0 : (d < 0 ? -d : d);
    const Dims strides = Values(in, rank, 6);
    v = View::Make(shape, strides, in.Value(40));
  } catch (const stridekit::Error&) {
    return 0;
  }
  CheckInvariants(v);
  for (int step = 0; step < 8 && !in.done(); ++step) {
    const int n = v.ndim();
    try {
      switch (in.Byte() % 12) {
        case 0:
          v = v.Reshape(Values(in, in.Byte() % 5, 6));
          break;
        case 1:
          v = v.Expand(Values(in, n + in.Byte() % 2, 4));
          break;
        case 2:
          v = v.Permute(Values(in, n, 4));
          break;
        case 3: {
          const Dims begin = Values(in, n, 4);
          v = v.Shrink(begin, Values(in, n, 4));
          break;
        }
        case 4: {
          const Dims before = Values(in, n, 3);
          v = v.Pad(before, Values(in, n, 3));
          break;
        }
        case 5:
          v = v.Flip(in.Value(4));
          break;
        case 6:
          v = in.Byte() % 2 ? v.Squeeze() : v.Squeeze(Values(in, 1, 4));
          break;
        case 7:
          v = v.Unsqueeze(Values(in, 1 + in.Byte() % 2, 4));
          break;
        case 8: {
          const Dims source = Values(in, 1, 4);
          v = v.MoveAxis(source, Values(in, 1, 4));
          break;
        }
        case 9:
        case 10: {
          const std::string_view text = in.Text();
          CheckSliceText(text);
          v = v.Slice(text);
          break;
        }
        default: {
          const Dims shape = Values(in, 1, 8);
          const Dims strides = Values(in, 1, 4);
          v = stridekit::Compose(v, View::Make(shape, strides, in.Value(8)));
          break;
        }
      }
    } catch (const stridekit::Error&) {
      continue;
    }
    CheckInvariants(v);
  }
  return 0;
}
