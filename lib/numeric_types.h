// The dtypes' storage types and the type lists from which the checks, the
// reference loops, the SIMD switch and the tests derive (with the op table of
// stridekit/ops.h). Adding a numeric dtype is one entry in NumericTypes plus
// its kDTypeOf and kKindOf specialisations. No Highway here.
#ifndef STRIDEKIT_LIB_NUMERIC_TYPES_H_
#define STRIDEKIT_LIB_NUMERIC_TYPES_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "stridekit/dtype.h"
#include "stridekit/ops.h"

namespace stridekit {

// Storage types of the dtypes without a C++ arithmetic type. A Bool byte
// other than 0 reads as true; float16 and bfloat16 are IEEE-style bits;
// complex numbers are (re, im) pairs.
struct Bool {
  uint8_t byte;
};
struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
template <typename Part>
struct Complex {
  Part re, im;
};
using Complex64 = Complex<float>;
using Complex128 = Complex<double>;

template <typename... T>
struct TypeList {};

// The storage types of the 15 dtypes, in sk_dtype order: the types of the
// elementwise kernels and reductions.
using NumericTypes = TypeList<Bool, int8_t, int16_t, int32_t, int64_t, uint8_t,
                              uint16_t, uint32_t, uint64_t, Float16, BFloat16,
                              float, double, Complex64, Complex128>;

// The types einsum contracts.
using EinsumTypes = TypeList<float, double, int32_t, int64_t>;

// The DType of a storage type.
template <typename T>
inline constexpr DType kDTypeOf = DType::kBool;
#define STRIDEKIT_DTYPE_OF(Type, Name) \
  template <>                          \
  inline constexpr DType kDTypeOf<Type> = DType::k##Name;
STRIDEKIT_DTYPE_OF(int8_t, Int8)
STRIDEKIT_DTYPE_OF(int16_t, Int16)
STRIDEKIT_DTYPE_OF(int32_t, Int32)
STRIDEKIT_DTYPE_OF(int64_t, Int64)
STRIDEKIT_DTYPE_OF(uint8_t, Uint8)
STRIDEKIT_DTYPE_OF(uint16_t, Uint16)
STRIDEKIT_DTYPE_OF(uint32_t, Uint32)
STRIDEKIT_DTYPE_OF(uint64_t, Uint64)
STRIDEKIT_DTYPE_OF(Float16, Float16)
STRIDEKIT_DTYPE_OF(BFloat16, BFloat16)
STRIDEKIT_DTYPE_OF(float, Float32)
STRIDEKIT_DTYPE_OF(double, Float64)
STRIDEKIT_DTYPE_OF(Complex64, Complex64)
STRIDEKIT_DTYPE_OF(Complex128, Complex128)
#undef STRIDEKIT_DTYPE_OF

template <typename T>
struct IsComplexType : std::false_type {};
template <typename Part>
struct IsComplexType<Complex<Part>> : std::true_type {};
// Complex64, Complex128 (and the reference's Complex<long double>).
template <typename T>
inline constexpr bool kIsComplex = IsComplexType<T>::value;
// float16 and bfloat16: stored in 16 bits, computed in float32.
template <typename T>
inline constexpr bool kIsHalf =
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

// The op-table kind of T (kIntegerKinds, kFloatKinds, kBoolKinds or
// kComplexKinds).
template <typename T>
inline constexpr uint32_t kKindOf = std::is_same_v<T, Bool> ? kBoolKinds
                                    : kIsComplex<T>         ? kComplexKinds
                                    : std::is_integral_v<T> ? kIntegerKinds
                                                            : kFloatKinds;

template <typename... A, typename... B>
constexpr TypeList<A..., B...> operator+(TypeList<A...>, TypeList<B...>) {
  return {};
}

// The types of List whose op-table kind is kKind.
template <uint32_t kKind, typename... T>
constexpr auto TypesOfKind(TypeList<T...>) {
  return (TypeList<>{} + ... +
          std::conditional_t<kKindOf<T> == kKind, TypeList<T>, TypeList<>>{});
}
using FloatTypes = decltype(TypesOfKind<kFloatKinds>(NumericTypes{}));
using IntegerTypes = decltype(TypesOfKind<kIntegerKinds>(NumericTypes{}));
using ComplexTypes = decltype(TypesOfKind<kComplexKinds>(NumericTypes{}));

// Calls fn(T{}) with the type T of List whose dtype is t and returns true;
// false (fn not called) when no type of List has dtype t.
template <typename... T, typename Fn>
bool VisitType(TypeList<T...>, DType t, Fn&& fn) {
  return ((kDTypeOf<T> == t ? (fn(T{}), true) : false) || ...);
}

// True when t is one of List.
template <typename List>
bool InTypes(DType t) {
  return VisitType(List{}, t, [](auto) {});
}

// True when t is one of NumericTypes (every valid dtype).
inline bool IsNumericDType(DType t) { return InTypes<NumericTypes>(t); }

// The op-table kind of a valid dtype t.
inline uint32_t KindOf(DType t) {
  uint32_t kind = 0;
  VisitType(NumericTypes{}, t,
            [&](auto zero) { kind = kKindOf<decltype(zero)>; });
  return kind;
}

// "Float32, Float64, Int32, Int64": the names of List's dtypes, for
// messages.
template <typename List>
std::string DTypeNames() {
  std::string names;
  [&]<typename... T>(TypeList<T...>) {
    ((names += (names.empty() ? "" : ", "), names += DTypeName(kDTypeOf<T>)),
     ...);
  }(List{});
  return names;
}

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_NUMERIC_TYPES_H_
