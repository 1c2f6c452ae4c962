// The numeric dtypes: one type list, from which the checks, the reference
// loops, the SIMD switch and the tests derive (with the op table of
// stridekit/ops.h). Adding a numeric dtype is one entry in NumericTypes plus
// its DTypeOf specialisation. No Highway here.
#ifndef STRIDEKIT_LIB_NUMERIC_TYPES_H_
#define STRIDEKIT_LIB_NUMERIC_TYPES_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "stridekit/dtype.h"
#include "stridekit/ops.h"

namespace stridekit {

template <typename... T>
struct TypeList {};

// The C++ types of the dtypes the numeric kernels accept.
using NumericTypes = TypeList<float, double, int32_t, int64_t>;

// The DType of a C++ element type.
template <typename T>
inline constexpr DType kDTypeOf = DType::kBool;
template <>
inline constexpr DType kDTypeOf<float> = DType::kFloat32;
template <>
inline constexpr DType kDTypeOf<double> = DType::kFloat64;
template <>
inline constexpr DType kDTypeOf<int32_t> = DType::kInt32;
template <>
inline constexpr DType kDTypeOf<int64_t> = DType::kInt64;

// The op-table kind of T (kIntegerKinds or kFloatKinds).
template <typename T>
inline constexpr uint32_t kKindOf =
    std::is_integral_v<T> ? kIntegerKinds : kFloatKinds;

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

// Calls fn(T{}) with the type T of List whose dtype is t and returns true;
// false (fn not called) when no type of List has dtype t.
template <typename... T, typename Fn>
bool VisitType(TypeList<T...>, DType t, Fn&& fn) {
  return ((kDTypeOf<T> == t ? (fn(T{}), true) : false) || ...);
}

// True when t is one of NumericTypes.
inline bool IsNumericDType(DType t) {
  return VisitType(NumericTypes{}, t, [](auto) {});
}

// The op-table kind of a numeric dtype t.
inline uint32_t KindOf(DType t) {
  uint32_t kind = 0;
  VisitType(NumericTypes{}, t,
            [&](auto zero) { kind = kKindOf<decltype(zero)>; });
  return kind;
}

// "Float32, Float64, Int32, Int64": the names of NumericTypes, for messages.
inline std::string NumericDTypeNames() {
  std::string names;
  [&]<typename... T>(TypeList<T...>) {
    ((names += (names.empty() ? "" : ", "), names += DTypeName(kDTypeOf<T>)),
     ...);
  }(NumericTypes{});
  return names;
}

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_NUMERIC_TYPES_H_
