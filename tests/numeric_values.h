// Random element values for the numeric kernels' tests, rich in the cases
// that break kernels (NaN, +-0, +-inf, subnormals, integer extremes), and
// element comparison that is bit-exact except between NaNs.
#ifndef STRIDEKIT_TESTS_NUMERIC_VALUES_H_
#define STRIDEKIT_TESTS_NUMERIC_VALUES_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

#include "numeric_types.h"
#include "scalar_ops.h"
#include "stridekit/dtype.h"

namespace stridekit {

// Printing the storage types in test messages.
inline std::ostream& operator<<(std::ostream& os, Bool x) {
  return os << "bool(" << int(x.byte) << ")";
}
template <typename H>
requires kIsHalf<H> std::ostream& operator<<(std::ostream& os, H x) {
  return os << scalar_ops::Widen(x) << " (0x" << std::hex << x.bits << std::dec
            << ")";
}
template <typename P>
std::ostream& operator<<(std::ostream& os, Complex<P> x) {
  return os << "(" << x.re << ", " << x.im << ")";
}

namespace testing {

// The DType of a type of NumericTypes (numeric_types.h).
template <typename T>
DType DTypeOf() {
  return kDTypeOf<T>;
}

template <typename T>
T SpecialNumber(std::mt19937_64& rng);

// One value: mostly ordinary (small integers or random magnitudes), often a
// special value.
template <typename T>
T SpecialValue(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, Bool>) {
    const uint8_t bytes[] = {0, 1, 1, 0, 2, 255};  // Any non-zero is true.
    return Bool{bytes[rng() % 6]};
  } else if constexpr (kIsHalf<T>) {
    if (rng() % 8 == 0) return T{uint16_t(rng())};  // Any bits.
    return scalar_ops::Narrow<T>(SpecialValue<float>(rng));
  } else if constexpr (kIsComplex<T>) {
    using P = decltype(T{}.re);
    const P re = SpecialValue<P>(rng);
    return T{re, SpecialValue<P>(rng)};
  } else {
    return SpecialNumber<T>(rng);
  }
}

template <typename T>
T SpecialNumber(std::mt19937_64& rng) {
  using L = std::numeric_limits<T>;
  const uint64_t r = rng();
  const int kind = int(r % 16);
  if constexpr (std::is_integral_v<T>) {
    const T extremes[] = {L::min(), L::max(),        T(-1),          T(0),
                          T(1),     T(L::min() + 1), T(L::max() - 1)};
    if (kind < 3) return extremes[(r >> 8) % 7];
    if (kind < 10) return T(int64_t((r >> 8) % 201) - 100);
    return static_cast<T>(rng());
  } else {
    const T specials[] = {L::quiet_NaN(),  -L::quiet_NaN(),  T(0.0),
                          T(-0.0),         L::infinity(),    -L::infinity(),
                          L::denorm_min(), -L::denorm_min(), L::min() / 4,
                          L::max(),        L::lowest()};
    if (kind < 3) return specials[(r >> 8) % 11];
    if (kind < 8) return T(int64_t((r >> 8) % 21) - 10);
    const double mantissa = double((r >> 11) % 2000001) / 1e6 - 1.0;
    return T(std::ldexp(mantissa, int((r >> 40) % 40) - 20));
  }
}

template <typename T>
T OrdinaryNumber(std::mt19937_64& rng, double lo, double hi, bool positive);

// Ordinary values only: finite magnitudes in [lo, hi] (each part of a
// complex number), random sign unless `positive`.
template <typename T>
T OrdinaryValue(std::mt19937_64& rng, double lo, double hi, bool positive) {
  if constexpr (std::is_same_v<T, Bool>) {
    return Bool{uint8_t(rng() % 2)};
  } else if constexpr (kIsHalf<T>) {
    return scalar_ops::Narrow<T>(OrdinaryValue<float>(rng, lo, hi, positive));
  } else if constexpr (kIsComplex<T>) {
    using P = decltype(T{}.re);
    const P re = OrdinaryValue<P>(rng, lo, hi, positive);
    return T{re, OrdinaryValue<P>(rng, lo, hi, positive)};
  } else {
    return OrdinaryNumber<T>(rng, lo, hi, positive);
  }
}

template <typename T>
T OrdinaryNumber(std::mt19937_64& rng, double lo, double hi, bool positive) {
  const double x = std::uniform_real_distribution<double>(lo, hi)(rng);
  const bool negative = !positive && (rng() & 1);
  if constexpr (std::is_integral_v<T>) {
    return T(negative ? -int64_t(x) : int64_t(x));
  } else {
    return T(negative ? -x : x);
  }
}

// x for a test message: arithmetic types as numbers (int8 is not a char).
template <typename T>
auto Printable(T x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return +x;
  } else {
    return x;
  }
}

// True when x is a NaN (complex: either part).
template <typename T>
bool IsNaN(T x) {
  if constexpr (kIsHalf<T>) {
    return std::isnan(scalar_ops::Widen(x));
  } else if constexpr (kIsComplex<T>) {
    return std::isnan(x.re) || std::isnan(x.im);
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

// True when a and b have the same bits, or are both NaN (complex: part by
// part).
template <typename T>
bool SameValue(T a, T b) {
  if constexpr (kIsComplex<T>) {
    return SameValue(a.re, b.re) && SameValue(a.im, b.im);
  } else {
    if (IsNaN(a) && IsNaN(b)) return true;
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

// Index of the first element of two equally long buffers of T that differs
// (SameValue), or -1.
template <typename T>
int64_t FirstDifference(const std::vector<T>& a, const std::vector<T>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameValue(a[i], b[i])) return int64_t(i);
  }
  return -1;
}

}  // namespace testing
}  // namespace stridekit

#endif  // STRIDEKIT_TESTS_NUMERIC_VALUES_H_
