// The per-element semantics of Cast (stridekit/cast.h, sk_cast), shared by
// the reference loop, the scalar row loops and the vector kernels' tails so
// that every target gives the same bits. No Highway here.
//
// The rules (NumPy astype(casting='unsafe') where NumPy defines the result):
//   - integer -> integer wraps (two's complement, C++20 conversions);
//   - float -> integer truncates toward zero and saturates at the target's
//     limits; NaN -> 0 (NumPy leaves out-of-range values undefined);
//   - every conversion to a float type rounds the exact source value once to
//     nearest even (also int64/uint64 -> float32/float16/bfloat16 and
//     float64 -> float16/bfloat16: no double rounding through float32);
//     bfloat16 from float32 is therefore ml_dtypes' round-to-nearest-even of
//     the float32 bits; values beyond the largest finite value round to inf
//     by the IEEE rule (float16: |x| >= 65520 -> inf);
//   - float16/bfloat16 -> wider floats is exact;
//   - a NaN converted to another float type becomes the canonical quiet NaN
//     of the target with the source's sign (payloads are not kept, so every
//     target agrees: float16 0x7e00, bfloat16 0x7fc0, float32 0x7fc00000,
//     float64 0x7ff8000000000000, sign bit or'ed in);
//   - anything -> bool is != 0 (NaN -> true; complex: either part != 0); a
//     bool byte other than 0 reads as true; bool -> numbers is 0/1;
//   - complex -> real takes the real part; real -> complex has a +0
//     imaginary part; complex64 <-> complex128 converts each part.
// A cast between equal dtypes copies the bits (also NaN payloads and bool
// bytes other than 0/1), as do casts between integers of the same size.
#ifndef STRIDEKIT_LIB_CAST_SCALAR_H_
#define STRIDEKIT_LIB_CAST_SCALAR_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "numeric_types.h"
#include "stridekit/dtype.h"

namespace stridekit::cast {

// The 15 dtypes' storage types (numeric_types.h), in sk_dtype order.
using CastTypes = NumericTypes;

// Calls fn(T{}) with T the storage type of t and returns true; false (fn
// not called) for an invalid t.
template <typename Fn>
bool VisitCastType(DType t, Fn&& fn) {
  return [&]<typename... T>(TypeList<T...>) {
    int i = 0;
    return ((int(t) == i++ ? (fn(T{}), true) : false) || ...);
  }(CastTypes{});
}

template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T>;
// Real floating types (float16, bfloat16, float32, float64).
template <typename T>
inline constexpr bool kIsReal =
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> ||
    std::is_floating_point_v<T>;

// Significand bits (with the implicit one) of a real floating type.
template <typename T>
inline constexpr int kSignificandBits = std::is_same_v<T, Float16>    ? 11
                                        : std::is_same_v<T, BFloat16> ? 8
                                        : std::is_same_v<T, float>    ? 24
                                                                      : 53;

// ---- Exact conversions to double.

inline double HalfToDouble(uint16_t h) {
  const bool negative = h >> 15;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0) {  // Subnormal: exact in double.
    const double value = double(mantissa) * 0x1p-24;
    return negative ? -value : value;
  }
  if (exponent == 31) {
    const double value = mantissa == 0
                             ? std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::quiet_NaN();
    return negative ? -value : value;
  }
  const uint32_t bits = (uint32_t(negative) << 31) |
                        (uint32_t(exponent - 15 + 127) << 23) |
                        (uint32_t(mantissa) << 13);
  return double(std::bit_cast<float>(bits));
}

inline double BFloat16ToDouble(uint16_t b) {
  return double(std::bit_cast<float>(uint32_t{b} << 16));
}

// ---- Rounding to nearest even, once.

// u rounded to `bits` significant bits (nearest, ties to even), exactly
// as a double (bits <= 53).
inline double RoundToSignificant(uint64_t u, int bits) {
  const int width = std::bit_width(u);
  if (width <= bits) return double(u);
  const int shift = width - bits;
  uint64_t keep = u >> shift;
  const uint64_t rest = u & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (keep & 1))) ++keep;
  return std::ldexp(double(keep), shift);
}

// The bits of x rounded once (nearest, ties to even) to the binary format
// with kExpBits exponent and kMantBits stored mantissa bits (IEEE layout:
// subnormals, inf beyond the largest finite value; NaN -> the canonical
// quiet NaN with x's sign), computed on the bits of the double.
template <int kExpBits, int kMantBits>
uint32_t RoundDoubleBits(double x) {
  constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  constexpr int kMinExp = 1 - kBias;
  constexpr uint32_t kInf = ((uint32_t{1} << kExpBits) - 1) << kMantBits;
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const uint32_t sign = uint32_t(bits >> 63) << (kExpBits + kMantBits);
  const int biased = int((bits >> 52) & 0x7ff);
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) {
    return sign | kInf | (mantissa != 0 ? uint32_t{1} << (kMantBits - 1) : 0);
  }
  if (biased == 0) return sign;  // Zero or far below the smallest value.
  const int e = biased - 1023;   // x = sig * 2^(e - 52).
  if (e > kBias) return sign | kInf;
  const uint64_t sig = mantissa | (uint64_t{1} << 52);
  // Units of the result's spacing at x: 2^(e - kMantBits), or the
  // subnormal spacing below the smallest normal.
  const int shift = 52 - kMantBits + (e < kMinExp ? kMinExp - e : 0);
  if (shift >= 64) return sign;  // Below half the smallest subnormal.
  uint64_t n = sig >> shift;
  const uint64_t rest = sig & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (n & 1))) ++n;
  // A carry out of the significand moves to the next binade (or to inf).
  const uint64_t exponent =
      e >= kMinExp ? uint64_t(e - kMinExp) << kMantBits : 0;
  return sign | uint32_t(exponent + n);
}

inline uint16_t DoubleToHalfBits(double x) {
  return uint16_t(RoundDoubleBits<5, 10>(x));
}

inline uint16_t DoubleToBFloat16Bits(double x) {
  return uint16_t(RoundDoubleBits<8, 7>(x));
}

inline float CanonicalNaN(float x) {
  return std::bit_cast<float>((std::bit_cast<uint32_t>(x) & 0x80000000u) |
                              0x7fc00000u);
}
inline double CanonicalNaN(double x) {
  return std::bit_cast<double>(
      (std::bit_cast<uint64_t>(x) & 0x8000000000000000ull) |
      0x7ff8000000000000ull);
}

// A double (holding the exact source value) to the real type To, rounding
// once.
template <typename To>
To RealFromDouble(double x) {
  if constexpr (std::is_same_v<To, Float16>) {
    return To{DoubleToHalfBits(x)};
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return To{DoubleToBFloat16Bits(x)};
  } else if constexpr (std::is_same_v<To, float>) {
    if (std::isnan(x)) return CanonicalNaN(float(x));
    return static_cast<float>(x);  // IEEE: rounds to nearest even.
  } else {
    return std::isnan(x) ? CanonicalNaN(x) : x;
  }
}

// An integer (as its sign and magnitude) to the real type To, rounding once.
template <typename To>
To RealFromInteger(bool negative, uint64_t magnitude) {
  const double rounded = RoundToSignificant(magnitude, kSignificandBits<To>);
  return RealFromDouble<To>(negative ? -rounded : rounded);
}

// A real value to the integer type To: truncation toward zero, saturation
// at To's limits, NaN -> 0.
template <typename To>
To IntegerFromDouble(double x) {
  using L = std::numeric_limits<To>;
  if (std::isnan(x)) return To(0);
  // 2^digits is To's max + 1, exactly a double.
  constexpr double limit = double(uint64_t{1} << (L::digits - 1)) * 2.0;
  if (x >= limit) return L::max();
  if constexpr (L::is_signed) {
    if (x <= -limit) return L::min();
  } else {
    if (x <= -1) return To(0);
  }
  return static_cast<To>(std::trunc(x));
}

// ---- Reading a source element.

// The exact value of a real source as a double.
template <typename From>
double RealValue(From x) {
  if constexpr (std::is_same_v<From, Float16>) {
    return HalfToDouble(x.bits);
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return BFloat16ToDouble(x.bits);
  } else {
    return double(x);
  }
}

// ---- The conversion of one element.

template <typename To, typename From>
To Cast(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<From, Bool>) {
    return Cast<To>(uint8_t(x.byte != 0));
  } else if constexpr (kIsComplex<From>) {
    if constexpr (std::is_same_v<To, Bool>) {
      return To{uint8_t(x.re != 0 || x.im != 0)};
    } else if constexpr (kIsComplex<To>) {
      using Part = decltype(To{}.re);
      return To{RealFromDouble<Part>(x.re), RealFromDouble<Part>(x.im)};
    } else {
      return Cast<To>(x.re);
    }
  } else if constexpr (kIsComplex<To>) {
    using Part = decltype(To{}.re);
    return To{Cast<Part>(x), Part(0)};
  } else if constexpr (std::is_same_v<To, Bool>) {
    if constexpr (kIsInt<From>) {
      return To{uint8_t(x != 0)};
    } else {
      return To{uint8_t(RealValue(x) != 0)};  // NaN != 0.
    }
  } else if constexpr (kIsInt<From>) {
    if constexpr (kIsInt<To>) {
      return static_cast<To>(x);  // Modular (C++20).
    } else {
      const bool negative = x < 0;
      const uint64_t magnitude = negative
                                     ? uint64_t{0} - static_cast<uint64_t>(x)
                                     : static_cast<uint64_t>(x);
      return RealFromInteger<To>(negative, magnitude);
    }
  } else {  // From is real.
    if constexpr (kIsInt<To>) {
      return IntegerFromDouble<To>(RealValue(x));
    } else {
      return RealFromDouble<To>(RealValue(x));
    }
  }
}

// Reads a From at p (any alignment), converts and writes a To at q.
template <typename To, typename From>
inline void CastAt(const void* p, void* q) {
  From x;
  std::memcpy(&x, p, sizeof(From));
  const To y = Cast<To>(x);
  std::memcpy(q, &y, sizeof(To));
}

// Converts `count` elements from `from` (byte step `from_step`) to `to`
// (byte step `to_step`), any alignment; from and to must not overlap
// unless they are the same elements with equal sizes.
using CastRowFn = void (*)(const unsigned char* from, int64_t from_step,
                           unsigned char* to, int64_t to_step, int64_t count);

template <typename To, typename From>
void CastRow(const unsigned char* from, int64_t from_step, unsigned char* to,
             int64_t to_step, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    CastAt<To, From>(from, to);
    from += from_step;
    to += to_step;
  }
}

// The row loop of a (src, dst) dtype pair; both valid dtypes.
CastRowFn RowFunction(DType from, DType to);

// Throws unless `raw` is one of the 15 dtypes; `what` names the argument.
void CheckCastDType(int32_t raw, const char* op, const char* what);

}  // namespace stridekit::cast

#endif  // STRIDEKIT_LIB_CAST_SCALAR_H_
