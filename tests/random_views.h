// Seeded random views over guarded buffers, for the equivalence tests of the
// data kernels: permuted, flipped, strided, offset, broadcast and masked
// layouts of ranks 0..8 with sizes around vector widths.
#ifndef STRIDEKIT_TESTS_RANDOM_VIEWS_H_
#define STRIDEKIT_TESTS_RANDOM_VIEWS_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "stridekit/shape.h"
#include "stridekit/stridekit.h"

namespace stridekit::testing {

// An unmasked view with the given shape, element strides and offset.
inline sk_view MakeView(const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& strides, int64_t offset) {
  sk_view v{};
  v.ndim = int32_t(shape.size());
  v.offset = offset;
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

// "shape [2,3] strides [3,1] offset 0 mask [0,2)x[1,3)" for failure messages.
inline std::string Describe(const sk_view& v) {
  const DimsView shape(v.shape, size_t(v.ndim));
  const DimsView strides(v.strides, size_t(v.ndim));
  std::ostringstream out;
  out << "shape " << ToString(shape) << " strides " << ToString(strides)
      << " offset " << v.offset;
  if (v.has_mask) {
    out << " mask ";
    for (int d = 0; d < v.ndim; ++d) {
      out << (d ? "x[" : "[") << v.mask_begin[d] << "," << v.mask_end[d] << ")";
    }
  }
  return out.str();
}

class ViewGenerator {
 public:
  explicit ViewGenerator(uint64_t seed) : rng_(seed) {}

  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool Chance(int percent) { return Uniform(0, 99) < percent; }

  // A shape of the given rank: mostly small dims, sometimes a vector-width
  // neighbour (15, 16, 17, 31, 33, 63, 65) or 0.
  std::vector<int64_t> Shape(int rank, int64_t max_elements = 4096) {
    std::vector<int64_t> shape(rank);
    for (;;) {
      for (auto& d : shape) {
        const int kind = int(Uniform(0, 9));
        d = kind < 6   ? Uniform(1, 5)
            : kind < 9 ? std::vector<int64_t>{7,  8,  9,  15, 16,
                                              17, 31, 33, 63, 65}[Uniform(0, 9)]
                       : Uniform(0, 1);
      }
      // Zero dims count as 1: layouts still span the other dims.
      int64_t extent = 1;
      for (int64_t d : shape) extent *= std::max<int64_t>(1, d);
      if (extent <= max_elements) return shape;
    }
  }

  // A view of `shape` whose distinct indices map to distinct offsets: a
  // permuted C layout with per-axis steps and random flips, plus an offset
  // putting the lowest offset at `base`. Returns one past the highest.
  int64_t Layout(const std::vector<int64_t>& shape, int64_t base, sk_view& v) {
    v = sk_view{};
    v.ndim = int32_t(shape.size());
    std::vector<int> order(shape.size());
    std::iota(order.begin(), order.end(), 0);
    if (Chance(60)) std::shuffle(order.begin(), order.end(), rng_);
    int64_t stride = Chance(20) ? Uniform(2, 3) : 1;
    int gaps = 2;  // At most two gaps between rows keep buffers small.
    for (int i = int(order.size()) - 1; i >= 0; --i) {
      const int d = order[i];
      v.shape[d] = shape[d];
      v.strides[d] = stride;
      const bool gap = gaps > 0 && Chance(15);
      gaps -= gap;
      stride *= std::max<int64_t>(1, shape[d]) * (gap ? 2 : 1);
    }
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < v.ndim; ++d) {
      if (Chance(25)) v.strides[d] = -v.strides[d];
      const int64_t extent =
          (std::max<int64_t>(1, shape[d]) - 1) * v.strides[d];
      (extent < 0 ? lo : hi) += extent;
    }
    v.offset = base - lo;
    return base + (hi - lo) + 1;
  }

  // Adds a random mask to v (sometimes empty on an axis).
  void Mask(sk_view& v) {
    v.has_mask = 1;
    for (int d = 0; d < v.ndim; ++d) {
      const int64_t n = v.shape[d];
      int64_t b = Chance(50) ? 0 : Uniform(0, n);
      int64_t e = Chance(50) ? n : Uniform(0, n);
      if (b > e) std::swap(b, e);
      v.mask_begin[d] = b;
      v.mask_end[d] = e;
    }
  }

  // A source shape that broadcasts to `shape`: some leading axes dropped,
  // some axes set to 1.
  std::vector<int64_t> BroadcastSource(const std::vector<int64_t>& shape) {
    const int drop = Chance(30) ? int(Uniform(0, int64_t(shape.size()))) : 0;
    std::vector<int64_t> s(shape.begin() + drop, shape.end());
    for (auto& d : s) {
      if (Chance(25)) d = 1;
    }
    return s;
  }

  // Random bytes, quickly (whole buffers are refilled per case).
  void Randomize(std::vector<unsigned char>& bytes) {
    uint64_t x = rng_() | 1;
    for (auto& b : bytes) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b = static_cast<unsigned char>(x);
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

}  // namespace stridekit::testing

#endif  // STRIDEKIT_TESTS_RANDOM_VIEWS_H_
