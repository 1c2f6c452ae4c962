// Decodes fuzzer bytes into values: a cursor that yields integers (biased
// towards interesting ones: 0, 1, -1, extremes, small), and sk_view structs
// with arbitrary, including hostile, fields.
#ifndef STRIDEKIT_TESTS_FUZZ_FUZZ_INPUT_H_
#define STRIDEKIT_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "stridekit/stridekit.h"

namespace stridekit::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }

  // Fills `n` bytes at `out`: the input's bytes while they last, then a
  // pseudo-random stream seeded by them (large buffers from short inputs).
  void Fill(void* out, size_t n) {
    auto* p = static_cast<unsigned char*>(out);
    size_t i = 0;
    for (; i < n && !empty(); ++i) p[i] = Byte();
    uint64_t state = seed_ ^ size_;
    for (; i < n; ++i) {
      state = state * 6364136223846793005u + 1442695040888963407u;
      p[i] = static_cast<unsigned char>(state >> 56);
    }
  }

  uint8_t Byte() {
    if (pos_ >= size_) return 0;
    seed_ = seed_ * 31 + data_[pos_];
    return data_[pos_++];
  }

  // A small integer in [lo, hi].
  int64_t Range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    uint64_t v = 0;
    for (int i = 0; i < 8 && span > (uint64_t{1} << (8 * i)); ++i) {
      v = (v << 8) | Byte();
    }
    return lo + static_cast<int64_t>(span == 0 ? v : v % span);
  }

  // Any int64, most often a small or boundary value.
  int64_t Int() {
    switch (Byte() % 8) {
      case 0:
        return Range(-4, 4);
      case 1:
        return Range(0, 64);
      case 2: {
        const int64_t kEdges[] = {std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max(),
                                  int64_t{1} << 31,
                                  int64_t{1} << 32,
                                  int64_t{1} << 62,
                                  -(int64_t{1} << 62),
                                  std::numeric_limits<int64_t>::max() / 2};
        return kEdges[Byte() % 7];
      }
      case 3: {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v = (v << 8) | Byte();
        int64_t r;
        std::memcpy(&r, &v, sizeof(r));
        return r;
      }
      default:
        return Range(-16, 16);
    }
  }

  // An sk_view whose fields are arbitrary: ndim may exceed SK_MAX_NDIM or
  // be negative, dims and strides may be hostile, the mask may be anything.
  // With `tame`, values stay small so that most views are valid.
  sk_view View(bool tame) {
    sk_view v{};
    v.ndim = tame ? int32_t(Range(0, 5)) : int32_t(Int());
    v.has_mask = Byte() % 4 == 0 ? int32_t(tame ? 1 : Int()) : 0;
    v.offset = tame ? Range(-8, 64) : Int();
    const int n = v.ndim < 0 ? 0 : v.ndim > SK_MAX_NDIM ? SK_MAX_NDIM : v.ndim;
    for (int d = 0; d < n; ++d) {
      v.shape[d] = tame ? Range(0, 6) : Int();
      v.strides[d] = tame ? Range(-12, 12) : Int();
      v.mask_begin[d] = tame ? Range(-1, 6) : Int();
      v.mask_end[d] = tame ? Range(-1, 7) : Int();
    }
    return v;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  uint64_t seed_ = 0;
};

// The dtype values sk_dtype_size knows (0 .. count - 1), read from the
// library so that new dtypes join the fuzzers without an edit here.
inline int32_t DTypeCount() {
  int32_t n = 0;
  while (sk_dtype_size(sk_dtype(n)) != 0) ++n;
  return n;
}

// [lo, hi] element offsets of the valid positions, or false if none or if
// the view is not one this harness builds a buffer for (too many elements
// to copy quickly).
inline bool ValidRange(const sk_view& v, __int128& lo, __int128& hi) {
  if (v.ndim < 0 || v.ndim > SK_MAX_NDIM) return false;
  lo = hi = v.offset;
  __int128 count = 1;
  for (int d = 0; d < v.ndim; ++d) {
    __int128 first = 0, last = __int128(v.shape[d]) - 1;
    if (v.has_mask) {
      first = v.mask_begin[d] > 0 ? v.mask_begin[d] : 0;
      last =
          __int128(v.mask_end[d] < v.shape[d] ? v.mask_end[d] : v.shape[d]) - 1;
    }
    count *= v.shape[d] > 0 ? v.shape[d] : 0;
    if (v.shape[d] < 0 || last < first || count > (1 << 16)) return false;
    const __int128 a = first * v.strides[d], b = last * v.strides[d];
    lo += a < b ? a : b;
    hi += a < b ? b : a;
  }
  return true;
}

// Sizes the buffer backing view `v` (element size `es`) and fills it from
// the input; false when the harness cannot back it (no valid element, a
// negative offset, or more than kMaxBackedBytes): the call may then only
// fail or touch nothing.
inline constexpr __int128 kMaxBackedBytes = 1 << 14;
inline bool BackView(FuzzInput& in, const sk_view& v, size_t es,
                     std::vector<unsigned char>& buffer) {
  __int128 lo, hi;
  if (!ValidRange(v, lo, hi) || lo < 0 || (hi + 1) * es > kMaxBackedBytes) {
    return false;
  }
  buffer.resize(size_t(hi + 1) * es);
  for (auto& b : buffer) b = in.Byte();
  return true;
}

inline void Print(const char* name, const sk_view& v) {
  std::fprintf(stderr, "%s: ndim %d offset %lld mask %d\n", name, v.ndim,
               static_cast<long long>(v.offset), v.has_mask);
  for (int d = 0; d < v.ndim && d < SK_MAX_NDIM; ++d) {
    std::fprintf(stderr,
                 "  axis %d: shape %lld stride %lld mask [%lld, %lld)\n", d,
                 static_cast<long long>(v.shape[d]),
                 static_cast<long long>(v.strides[d]),
                 static_cast<long long>(v.mask_begin[d]),
                 static_cast<long long>(v.mask_end[d]));
  }
}

}  // namespace stridekit::fuzz

#endif  // STRIDEKIT_TESTS_FUZZ_FUZZ_INPUT_H_
