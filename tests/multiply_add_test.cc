// The multiply-add rule (simd/common/multiply_add-inl.h) gives std::fma's bits
// on every target: hardware FMA where the target has it, the exact emulation
// where not (SSE4, EMU128/SCALAR), on random operands and on the cases a
// naive emulation gets wrong (double rounding, cancellation, subnormal
// results, overflow, infinities, NaN, signed zeros).
#include "dispatch/multiply_add.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "equivalence.h"
#include "stridekit/error.h"

namespace stridekit {
namespace {

template <typename T>
DType DTypeOf() {
  return sizeof(T) == 4 ? DType::kFloat32 : DType::kFloat64;
}

template <typename T>
struct Operands {
  std::vector<T> a, b, c;
  void Add(T x, T y, T z) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
};

// A value of `bits` significant bits with a binary exponent in [lo, hi].
template <typename T>
T Random(std::mt19937_64& rng, int bits, int lo, int hi) {
  const int64_t m = int64_t(rng() >> (64 - bits)) | (int64_t{1} << (bits - 1));
  const int e = lo + int(rng() % uint64_t(hi - lo + 1));
  const T v = std::ldexp(T(m), e - bits + 1);
  return rng() & 1 ? -v : v;
}

template <typename T>
Operands<T> Cases(size_t count) {
  using L = std::numeric_limits<T>;
  constexpr int kDigits = L::digits;
  std::mt19937_64 rng(20261128);
  Operands<T> ops;
  const T specials[] = {T(0),
                        -T(0),
                        T(1),
                        -T(1),
                        L::infinity(),
                        -L::infinity(),
                        L::quiet_NaN(),
                        L::max(),
                        L::min(),
                        L::denorm_min(),
                        -L::denorm_min(),
                        L::epsilon()};
  for (T x : specials) {
    for (T y : specials) {
      for (T z : specials) ops.Add(x, y, z);
    }
  }
  while (ops.a.size() < count) {
    switch (rng() % 6) {
      case 0: {  // ordinary operands
        ops.Add(Random<T>(rng, kDigits, -20, 20),
                Random<T>(rng, kDigits, -20, 20),
                Random<T>(rng, kDigits, -40, 40));
        break;
      }
      case 1: {  // the product just beside a tie, a tiny c decides
        const int half = kDigits / 2 + 1;
        ops.Add(Random<T>(rng, half, 0, 0), Random<T>(rng, half, 0, 0),
                Random<T>(rng, kDigits, -3 * kDigits, -kDigits - 2));
        break;
      }
      case 2: {  // cancellation: c close to -a * b
        const T x = Random<T>(rng, kDigits, -10, 10);
        const T y = Random<T>(rng, kDigits, -10, 10);
        T z = -(x * y);
        if (rng() & 1) z = std::nextafter(z, T(rng() & 2 ? 1 : -1) * L::max());
        ops.Add(x, y, z);
        break;
      }
      case 3: {  // results near and below the smallest normal
        const int lo = L::min_exponent;
        ops.Add(Random<T>(rng, kDigits, lo / 2 - kDigits, lo / 2),
                Random<T>(rng, kDigits, lo / 2 - kDigits, lo / 2),
                Random<T>(rng, kDigits, lo - kDigits, lo + 2));
        break;
      }
      case 4: {  // products near overflow
        const int hi = L::max_exponent;
        ops.Add(Random<T>(rng, kDigits, hi / 2 - 2, hi / 2 + 1),
                Random<T>(rng, kDigits, hi / 2 - 2, hi / 2 + 1),
                Random<T>(rng, kDigits, hi - 3, hi - 1));
        break;
      }
      default: {  // small integers: exact results, signed zeros
        const auto small = [&] { return T(int(rng() % 7) - 3); };
        ops.Add(small(), small(), rng() & 1 ? small() : -T(0));
        break;
      }
    }
  }
  return ops;
}

template <typename T>
void CheckEveryTarget(size_t count) {
  const Operands<T> ops = Cases<T>(count);
  const size_t n = ops.a.size();
  std::vector<T> want(n);
  for (size_t i = 0; i < n; ++i)
    want[i] = std::fma(ops.a[i], ops.b[i], ops.c[i]);
  size_t checked_targets = 0;
  for (const std::string& target : testing::TestedTargets()) {
    ForceTarget(target);
    ClearLastKernelTarget();
    // Each length exercises the vector body and the tail.
    for (size_t len : {n, n - 1, size_t{3}}) {
      std::vector<T> got(len, T(7));
      dispatch::MultiplyAdd(DTypeOf<T>(), ops.a.data(), ops.b.data(),
                            ops.c.data(), got.data(), int64_t(len));
      size_t wrong = 0;
      for (size_t i = 0; i < len; ++i) {
        const bool same = std::isnan(want[i])
                              ? std::isnan(got[i])
                              : std::memcmp(&got[i], &want[i], sizeof(T)) == 0;
        if (!same && wrong++ < 5) {
          ADD_FAILURE() << target << ": fma(" << ops.a[i] << ", " << ops.b[i]
                        << ", " << ops.c[i] << ") = " << want[i] << ", got "
                        << got[i];
        }
      }
      EXPECT_EQ(wrong, 0u) << target << " length " << len;
    }
    EXPECT_EQ(LastKernelTarget(), target);
    ++checked_targets;
  }
  ResetTarget();
  EXPECT_GT(checked_targets, 0u);
}

TEST(MultiplyAdd, Float32IsStdFmaOnEveryTarget) {
  CheckEveryTarget<float>(400000);
}

TEST(MultiplyAdd, Float64IsStdFmaOnEveryTarget) {
  CheckEveryTarget<double>(400000);
}

TEST(MultiplyAdd, RefusesOtherDTypes) {
  int32_t x = 1;
  try {
    dispatch::MultiplyAdd(DType::kInt32, &x, &x, &x, &x, 1);
    ADD_FAILURE() << "int32 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnsupported);
    EXPECT_STREQ(e.what(),
                 "multiply_add: dtype Int32 is not Float32 or Float64");
  }
}

}  // namespace
}  // namespace stridekit
