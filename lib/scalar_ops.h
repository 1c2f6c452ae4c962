// The per-element semantics of the numeric kernels (elementwise.h,
// reduce.h), shared by the reference loops and the vector kernels' scalar
// tails so that both compute exactly the same values. T is a type of
// NumericTypes (numeric_types.h). Every op row of stridekit/ops.h has its
// function here under the row's name (Add, Mod, Sum, ...), and a prechecked
// row also CheckName. No Highway here.
#ifndef STRIDEKIT_LIB_SCALAR_OPS_H_
#define STRIDEKIT_LIB_SCALAR_OPS_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "numeric_types.h"
#include "stridekit/dtype.h"
#include "stridekit/error.h"
#include "stridekit/ops.h"

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
void CheckDiv(T a, T b) {
  if (b == 0) {
    Fail(ErrorKind::kInvalidArgument, "divide: integer division by zero (",
         int64_t{a}, " // 0)");
  }
  if (!DivisionDefined(a, b)) {
    Fail(ErrorKind::kOutOfRange, "divide: integer overflow in ", int64_t{a},
         " // -1");
  }
}

// Throws for a zero divisor, naming the values (MIN % -1 is 0, defined).
template <typename T>
void CheckMod(T a, T b) {
  if (b == 0) {
    Fail(ErrorKind::kInvalidArgument, "remainder: integer modulo by zero (",
         int64_t{a}, " % 0)");
  }
}

// The operand check of a binary op-table row: none, except for the rows
// marked prechecked, which specialise it with their CheckName.
template <BinaryOp op>
struct OperandCheck {
  template <typename T>
  static void Run(T, T) {}
};
template <>
struct OperandCheck<BinaryOp::kDiv> {
  template <typename T>
  static void Run(T a, T b) {
    CheckDiv(a, b);
  }
};
template <>
struct OperandCheck<BinaryOp::kMod> {
  template <typename T>
  static void Run(T a, T b) {
    CheckMod(a, b);
  }
};

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

// np.remainder (floor modulo; the result has b's sign). Integers require
// b != 0. Floats follow NumPy's npy_remainder: fmod, moved into b's sign by
// adding b, a zero result gets b's sign, b == 0 gives NaN.
template <typename T>
T Mod(T a, T b) {
  if constexpr (kIsInt<T>) {
    if (b == -1) return T(0);  // Also MIN % -1, which C leaves undefined.
    const T r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
  } else {
    T mod = std::fmod(a, b);
    if (b == 0) return mod;
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) mod += b;
    } else {
      mod = std::copysign(T(0), b);
    }
    return mod;
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

// The reductions' combining functions, named as their ReduceOp rows.
template <typename T>
T Sum(T a, T b) {
  return Add(a, b);
}
template <typename T>
T Prod(T a, T b) {
  return Mul(a, b);
}

// op(a, b) as the reductions combine partial results.
template <typename T>
T Reduce(ReduceOp op, T a, T b) {
  switch (op) {
#define STRIDEKIT_REDUCE_CASE(Name, ...) \
  case ReduceOp::k##Name:                \
    return Name(a, b);
    STRIDEKIT_REDUCE_OPS(STRIDEKIT_REDUCE_CASE)
#undef STRIDEKIT_REDUCE_CASE
  }
  return a;
}

// Calls fn(T{}) with T the C++ type of t, one of NumericTypes (the checks
// reject other dtypes before this runs).
template <typename Fn>
void VisitNumericType(DType t, Fn&& fn) {
  VisitType(NumericTypes{}, t, fn);
}

}  // namespace stridekit::scalar_ops

#endif  // STRIDEKIT_LIB_SCALAR_OPS_H_
