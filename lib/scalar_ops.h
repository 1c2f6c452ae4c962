// The per-element semantics of the numeric kernels (elementwise.h,
// reduce.h), shared by the reference loops and the vector kernels' scalar
// tails so that both compute exactly the same values. T is float, double,
// int32_t or int64_t. No Highway here.
#ifndef STRIDEKIT_LIB_SCALAR_OPS_H_
#define STRIDEKIT_LIB_SCALAR_OPS_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "stridekit/dtype.h"
#include "stridekit/error.h"
#include "stridekit/reduce.h"

namespace stridekit::scalar_ops {

template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T>;

// Two's-complement wrap-around for integers, IEEE for floats.
template <typename T>
T Add(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
T Sub(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}

template <typename T>
T Mul(T a, T b) {
  if constexpr (kIsInt<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// True when integer FloorDiv(a, b) is defined: b != 0 and not MIN / -1.
template <typename T>
bool DivisionDefined(T a, T b) {
  return b != 0 && !(b == -1 && a == std::numeric_limits<T>::min());
}

// Throws unless DivisionDefined(a, b), naming the values.
template <typename T>
void CheckDivision(T a, T b) {
  if (b == 0) {
    Fail(ErrorKind::kInvalidArgument, "divide: integer division by zero (",
         int64_t{a}, " // 0)");
  }
  if (!DivisionDefined(a, b)) {
    Fail(ErrorKind::kOutOfRange, "divide: integer overflow in ", int64_t{a},
         " // -1");
  }
}

// Floats: IEEE a / b. Integers: np.floor_divide; requires
// DivisionDefined(a, b).
template <typename T>
T Div(T a, T b) {
  if constexpr (kIsInt<T>) {
    const T q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  } else {
    return a / b;
  }
}

// np.minimum: a NaN a, else a NaN b, else the smaller, b when equal.
template <typename T>
T Min(T a, T b) {
  if constexpr (kIsInt<T>) {
    return a < b ? a : b;
  } else {
    return (a != a || a < b) ? a : b;
  }
}

// np.maximum: a NaN a, else a NaN b, else the larger, b when equal.
template <typename T>
T Max(T a, T b) {
  if constexpr (kIsInt<T>) {
    return a > b ? a : b;
  } else {
    return (a != a || a > b) ? a : b;
  }
}

// Floats flip the sign bit, also of zeros and NaNs.
template <typename T>
T Neg(T a) {
  if constexpr (kIsInt<T>) {
    return Sub(T(0), a);
  } else {
    return -a;
  }
}

// Integers: Abs(MIN) == MIN (wraps); floats clear the sign bit.
template <typename T>
T Abs(T a) {
  if constexpr (kIsInt<T>) {
    return a < 0 ? Neg(a) : a;
  } else {
    return std::fabs(a);
  }
}

// Floats only (integer sqrt is rejected before any kernel runs).
template <typename T>
T Sqrt(T a) {
  return std::sqrt(a);
}

template <typename T>
T Square(T a) {
  return Mul(a, a);
}

// The value x such that op(x, y) == y for every y (min and max: +-inf, or
// the integer limits).
template <typename T>
T ReduceIdentity(ReduceOp op) {
  using Limits = std::numeric_limits<T>;
  switch (op) {
    case ReduceOp::kProd:
      return T(1);
    case ReduceOp::kMin:
      return Limits::has_infinity ? Limits::infinity() : Limits::max();
    case ReduceOp::kMax:
      return Limits::has_infinity ? -Limits::infinity() : Limits::lowest();
    default:
      return T(0);
  }
}

// op(a, b) as the reductions combine partial results.
template <typename T>
T Reduce(ReduceOp op, T a, T b) {
  switch (op) {
    case ReduceOp::kSum:
      return Add(a, b);
    case ReduceOp::kProd:
      return Mul(a, b);
    case ReduceOp::kMin:
      return Min(a, b);
    case ReduceOp::kMax:
      return Max(a, b);
  }
  return a;
}

// Calls fn(T{}) with T the C++ type of t (float32, float64, int32, int64;
// the checks reject other dtypes before this runs).
template <typename Fn>
decltype(auto) VisitNumericType(DType t, Fn&& fn) {
  switch (t) {
    case DType::kFloat32:
      return fn(float{});
    case DType::kFloat64:
      return fn(double{});
    case DType::kInt32:
      return fn(int32_t{});
    default:
      return fn(int64_t{});
  }
}

}  // namespace stridekit::scalar_ops

#endif  // STRIDEKIT_LIB_SCALAR_OPS_H_
