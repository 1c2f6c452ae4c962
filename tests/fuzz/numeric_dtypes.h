// The numeric dtypes (lib/numeric_types.h NumericTypes) as sk_dtype values,
// so that the numeric fuzzers follow the library's type list, and the
// comparison of their results up to NaN payloads.
#ifndef STRIDEKIT_TESTS_FUZZ_NUMERIC_DTYPES_H_
#define STRIDEKIT_TESTS_FUZZ_NUMERIC_DTYPES_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.h"
#include "numeric_types.h"

namespace stridekit::fuzz {

inline const std::vector<sk_dtype>& NumericDTypes() {
  static const std::vector<sk_dtype> types = [] {
    std::vector<sk_dtype> out;
    for (int32_t t = 0; t < DTypeCount(); ++t) {
      if (IsNumericDType(DType(t))) out.push_back(sk_dtype(t));
    }
    return out;
  }();
  return types;
}

// True for a numeric dtype of the op table's float kind.
inline bool IsFloatDType(sk_dtype t) { return KindOf(DType(t)) == kFloatKinds; }

// Element-wise equality of two buffers of T, any NaN matching any NaN and,
// with any_zero_sign, +0 matching -0.
template <typename T>
bool SameUpToNaN(const std::vector<unsigned char>& a,
                 const std::vector<unsigned char>& b, bool any_zero_sign) {
  for (size_t i = 0; i + sizeof(T) <= a.size(); i += sizeof(T)) {
    T x, y;
    std::memcpy(&x, a.data() + i, sizeof(T));
    std::memcpy(&y, b.data() + i, sizeof(T));
    const bool same = std::memcmp(&x, &y, sizeof(T)) == 0 ||
                      (x != x && y != y) || (any_zero_sign && x == 0 && y == 0);
    if (!same) return false;
  }
  return true;
}

// SameUpToNaN for 16-bit floats (float16 or bfloat16 bits; `exponent`:
// the exponent field's mask).
inline bool SameHalvesUpToNaN(const std::vector<unsigned char>& a,
                              const std::vector<unsigned char>& b,
                              uint16_t exponent, bool any_zero_sign) {
  for (size_t i = 0; i + 2 <= a.size(); i += 2) {
    uint16_t x, y;
    std::memcpy(&x, a.data() + i, 2);
    std::memcpy(&y, b.data() + i, 2);
    const auto is_nan = [&](uint16_t h) {
      return (h & exponent) == exponent && (h & 0x7fff) != exponent;
    };
    const bool same = x == y || (is_nan(x) && is_nan(y)) ||
                      (any_zero_sign && (x & 0x7fff) == 0 && (y & 0x7fff) == 0);
    if (!same) return false;
  }
  return true;
}

// Equality of two buffers of dtype t up to NaN payloads (floats, complex
// parts) and, with any_zero_sign, the sign of zeros.
inline bool SameUpToNaNOf(sk_dtype t, const std::vector<unsigned char>& a,
                          const std::vector<unsigned char>& b,
                          bool any_zero_sign) {
  switch (t) {
    case SK_FLOAT32:
    case SK_COMPLEX64:
      return SameUpToNaN<float>(a, b, any_zero_sign);
    case SK_FLOAT64:
    case SK_COMPLEX128:
      return SameUpToNaN<double>(a, b, any_zero_sign);
    case SK_FLOAT16:
      return SameHalvesUpToNaN(a, b, 0x7c00, any_zero_sign);
    case SK_BFLOAT16:
      return SameHalvesUpToNaN(a, b, 0x7f80, any_zero_sign);
    default:
      return a == b;
  }
}

}  // namespace stridekit::fuzz

#endif  // STRIDEKIT_TESTS_FUZZ_NUMERIC_DTYPES_H_
