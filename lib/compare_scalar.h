// The per-element semantics of the bool-output families (stridekit/ops.h
// STRIDEKIT_COMPARE_OPS and STRIDEKIT_PREDICATE_OPS): one function per row
// under the row's name, shared by the reference loops and the vector
// kernels' scalar paths. T is a storage type of NumericTypes. No Highway.
#ifndef STRIDEKIT_LIB_COMPARE_SCALAR_H_
#define STRIDEKIT_LIB_COMPARE_SCALAR_H_

#include <cmath>

#include "numeric_types.h"
#include "scalar_ops.h"

namespace stridekit::compare_ops {

// The value T compares as: bool as 0/1 (any non-zero byte true), float16
// and bfloat16 as their exact float32 value, the rest as themselves.
template <typename T>
auto Key(T x) {
  if constexpr (std::is_same_v<T, Bool>) {
    return int(x.byte != 0);
  } else if constexpr (kIsHalf<T>) {
    return scalar_ops::Widen(x);
  } else {
    return x;
  }
}

// Complex: both parts equal (NaN parts compare false, as IEEE).
template <typename T>
bool Eq(T a, T b) {
  if constexpr (kIsComplex<T>) {
    return a.re == b.re && a.im == b.im;
  } else {
    return Key(a) == Key(b);
  }
}
template <typename T>
bool Ne(T a, T b) {
  return !Eq(a, b);
}
// Ordered comparisons; complex (which the op table refuses) gives false.
template <typename T, typename Cmp>
bool Ordered(T a, T b, Cmp cmp) {
  if constexpr (kIsComplex<T>) {
    return false;
  } else {
    return cmp(Key(a), Key(b));
  }
}
template <typename T>
bool Lt(T a, T b) {
  return Ordered(a, b, [](auto x, auto y) { return x < y; });
}
template <typename T>
bool Le(T a, T b) {
  return Ordered(a, b, [](auto x, auto y) { return x <= y; });
}
template <typename T>
bool Gt(T a, T b) {
  return Ordered(a, b, [](auto x, auto y) { return x > y; });
}
template <typename T>
bool Ge(T a, T b) {
  return Ordered(a, b, [](auto x, auto y) { return x >= y; });
}

// Predicates: integers and bool are finite numbers; complex is NaN
// (infinite) when either part is, finite when both parts are.
template <typename T>
bool IsNan(T x) {
  if constexpr (kIsComplex<T>) {
    return std::isnan(x.re) || std::isnan(x.im);
  } else if constexpr (kKindOf<T> == kFloatKinds) {
    return std::isnan(Key(x));
  } else {
    return false;
  }
}
template <typename T>
bool IsInf(T x) {
  if constexpr (kIsComplex<T>) {
    return std::isinf(x.re) || std::isinf(x.im);
  } else if constexpr (kKindOf<T> == kFloatKinds) {
    return std::isinf(Key(x));
  } else {
    return false;
  }
}
template <typename T>
bool IsFinite(T x) {
  if constexpr (kIsComplex<T>) {
    return std::isfinite(x.re) && std::isfinite(x.im);
  } else if constexpr (kKindOf<T> == kFloatKinds) {
    return std::isfinite(Key(x));
  } else {
    return true;
  }
}

// np.signbit: the sign bit of a float (also of zeros and NaNs); the other
// kinds (refused by the op table) false.
template <typename T>
bool Signbit(T x) {
  if constexpr (kIsHalf<T>) {
    return (x.bits & 0x8000u) != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::signbit(x);
  } else {
    return false;
  }
}

// The row's function by its enum value (Compare(op, a, b)).
template <typename T>
bool Compare(CompareOp op, T a, T b) {
  switch (op) {
#define STRIDEKIT_COMPARE_CASE(Name, ...) \
  case CompareOp::k##Name:                \
    return Name(a, b);
    STRIDEKIT_COMPARE_OPS(STRIDEKIT_COMPARE_CASE)
#undef STRIDEKIT_COMPARE_CASE
  }
  return false;
}
template <typename T>
bool Predicate(PredicateOp op, T x) {
  switch (op) {
#define STRIDEKIT_PREDICATE_CASE(Name, ...) \
  case PredicateOp::k##Name:                \
    return Name(x);
    STRIDEKIT_PREDICATE_OPS(STRIDEKIT_PREDICATE_CASE)
#undef STRIDEKIT_PREDICATE_CASE
  }
  return false;
}

}  // namespace stridekit::compare_ops

#endif  // STRIDEKIT_LIB_COMPARE_SCALAR_H_
