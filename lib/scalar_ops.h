// The per-element semantics of the numeric kernels (elementwise.h,
// reduce.h), shared by the reference loops and the vector kernels' scalar
// tails so that both compute exactly the same values. T is a storage type of
// NumericTypes (numeric_types.h), or an accumulator type (Accumulator<T>,
// long double, Complex<long double>). Every op row of stridekit/ops.h has
// its function here under the row's name (Add, Mod, Sum, ...), defined for
// the kinds the row accepts, and a prechecked row also CheckName. No
// Highway here.
//
// Per kind: integers wrap (two's complement); bool follows NumPy (add and
// maximum are or, multiply and minimum are and, absolute is != 0; results
// are 0 or 1, any non-zero byte reads as true); float16 and bfloat16 compute
// in float32 and round once per result to nearest even (NumPy's float16
// rule; cast_scalar.h's rounding, so a NaN result is the canonical quiet
// NaN); complex numbers follow NumPy's formulas (no fused multiply-add).
#ifndef STRIDEKIT_LIB_SCALAR_OPS_H_
#define STRIDEKIT_LIB_SCALAR_OPS_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cast_scalar.h"
#include "math_kernels.h"
#include "numeric_types.h"
#include "stridekit/dtype.h"
#include "stridekit/error.h"
#include "stridekit/ops.h"

namespace stridekit::scalar_ops {

template <typename T>
inline constexpr bool kIsInt = std::is_integral_v<T>;
template <typename T>
inline constexpr bool kIsBool = std::is_same_v<T, Bool>;

// ---- float16 and bfloat16: float32 arithmetic, rounded once.

template <typename H>
float Widen(H x) {
  return float(cast::RealValue(x));  // Exact.
}
template <typename H>
H Narrow(float x) {
  return cast::RealFromDouble<H>(double(x));
}

// The type reductions accumulate T in: float32 for float16 and bfloat16,
// T itself otherwise.
template <typename T>
using Accumulator = std::conditional_t<kIsHalf<T>, float, T>;

// ---- Integers: arithmetic on the unsigned type of T's width (at least
// unsigned int, so that narrow types do not promote to signed int).
template <typename T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                std::make_unsigned_t<T>>;

// x, as a value the compiler must have rounded: GCC 12 fuses products
// into a following add/sub pair (x86 fmaddsub) despite -ffp-contract=off,
// so complex products pass through here before they are summed.
template <typename P>
inline P Rounded(P x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  if constexpr (!std::is_same_v<P, long double>) asm("" : "+x"(x));
#endif
  return x;
}

inline Bool MakeBool(bool value) { return Bool{uint8_t(value)}; }
inline bool Truth(Bool x) { return x.byte != 0; }

template <typename T>
T Add(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) || Truth(b));
  } else if constexpr (kIsHalf<T>) {
    return Narrow<T>(Widen(a) + Widen(b));
  } else if constexpr (kIsComplex<T>) {
    return T{a.re + b.re, a.im + b.im};
  } else if constexpr (kIsInt<T>) {
    return static_cast<T>(Wide<T>(a) + Wide<T>(b));
  } else {
    return a + b;
  }
}

template <typename T>
T Sub(T a, T b) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(Widen(a) - Widen(b));
  } else if constexpr (kIsComplex<T>) {
    return T{a.re - b.re, a.im - b.im};
  } else if constexpr (kIsInt<T>) {
    return static_cast<T>(Wide<T>(a) - Wide<T>(b));
  } else {
    return a - b;
  }
}

// The multiply-add rule of every compute kernel
// (simd/common/multiply_add-inl.h): float and double a * b + c rounded once, as
// std::fma, on every target; integers wrap. Only kernels that state it use it
// (elementwise ops round their products and sums separately, as NumPy).
template <typename T>
T MulAdd(T a, T b, T c) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return std::fma(a, b, c);
  } else {
    static_assert(kIsInt<T>, "MulAdd takes float, double or integers");
    return static_cast<T>(Wide<T>(a) * Wide<T>(b) + Wide<T>(c));
  }
}

// Complex: (ar*br - ai*bi, ar*bi + ai*br), as NumPy.
template <typename T>
T Mul(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) && Truth(b));
  } else if constexpr (kIsHalf<T>) {
    return Narrow<T>(Widen(a) * Widen(b));
  } else if constexpr (kIsComplex<T>) {
    return T{Rounded(a.re * b.re) - Rounded(a.im * b.im),
             Rounded(a.re * b.im) + Rounded(a.im * b.re)};
  } else if constexpr (kIsInt<T>) {
    return static_cast<T>(Wide<T>(a) * Wide<T>(b));
  } else {
    return a * b;
  }
}

// True when integer FloorDiv(a, b) is defined: b != 0 and not MIN / -1.
template <typename T>
bool DivisionDefined(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    return b != 0 && !(b == -1 && a == std::numeric_limits<T>::min());
  } else {
    return b != 0;
  }
}

// Throws unless DivisionDefined(a, b), naming the op (`name`: divide or
// floor_divide, both NumPy's // on integers) and the values.
template <typename T>
void CheckFloorDivision(const char* name, T a, T b) {
  if (b == 0) {
    Fail(ErrorKind::kInvalidArgument, name, ": integer division by zero (", +a,
         " // 0)");
  }
  if (!DivisionDefined(a, b)) {
    Fail(ErrorKind::kOutOfRange, name, ": integer overflow in ", +a, " // -1");
  }
}
template <typename T>
void CheckDiv(T a, T b) {
  CheckFloorDivision("divide", a, b);
}
template <typename T>
void CheckFloorDivide(T a, T b) {
  CheckFloorDivision("floor_divide", a, b);
}

// Throws for a zero divisor, naming the values (MIN % -1 is 0, defined).
template <typename T>
void CheckMod(T a, T b) {
  if (b == 0) {
    Fail(ErrorKind::kInvalidArgument, "remainder: integer modulo by zero (", +a,
         " % 0)");
  }
}
template <typename T>
void CheckFmod(T a, T b) {
  if (b == 0) {
    Fail(ErrorKind::kInvalidArgument, "fmod: integer modulo by zero (fmod(", +a,
         ", 0))");
  }
}

// Throws for an integer zero (NumPy's 1 / 0 has no integer value).
template <typename T>
void CheckReciprocal(T a) {
  if (a == 0) {
    Fail(ErrorKind::kInvalidArgument,
         "reciprocal: integer division by zero (1 / 0)");
  }
}

// Throws for a negative signed exponent (NumPy's ValueError).
template <typename T>
void CheckPow(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      Fail(ErrorKind::kInvalidArgument,
           "power: integers to negative integer powers are not allowed (", +a,
           " ** ", +b, ")");
    }
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
template <>
struct OperandCheck<BinaryOp::kPow> {
  template <typename T>
  static void Run(T a, T b) {
    CheckPow(a, b);
  }
};
template <>
struct OperandCheck<BinaryOp::kFmod> {
  template <typename T>
  static void Run(T a, T b) {
    CheckFmod(a, b);
  }
};
template <>
struct OperandCheck<BinaryOp::kFloorDivide> {
  template <typename T>
  static void Run(T a, T b) {
    CheckFloorDivide(a, b);
  }
};
// The check of a unary row (reciprocal's, the one prechecked unary row).
template <UnaryOp op>
struct UnaryOperandCheck {
  template <typename T>
  static void Run(T) {}
};
template <>
struct UnaryOperandCheck<UnaryOp::kReciprocal> {
  template <typename T>
  static void Run(T a) {
    CheckReciprocal(a);
  }
};

// Floats: IEEE a / b. Integers: np.floor_divide; requires
// DivisionDefined(a, b). Complex: NumPy's scaled division (Smith's
// algorithm; a zero divisor gives inf or NaN parts).
template <typename T>
T Div(T a, T b) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(Widen(a) / Widen(b));
  } else if constexpr (kIsComplex<T>) {
    using P = decltype(a.re);
    const P abs_re = std::fabs(b.re), abs_im = std::fabs(b.im);
    if (abs_re >= abs_im) {
      if (abs_re == 0 && abs_im == 0) return T{a.re / abs_re, a.im / abs_re};
      const P ratio = b.im / b.re;
      const P scale = P(1) / (b.re + Rounded(b.im * ratio));
      return T{(a.re + Rounded(a.im * ratio)) * scale,
               (a.im - Rounded(a.re * ratio)) * scale};
    }
    const P ratio = b.re / b.im;
    const P scale = P(1) / (b.im + Rounded(b.re * ratio));
    return T{(Rounded(a.re * ratio) + a.im) * scale,
             (Rounded(a.im * ratio) - a.re) * scale};
  } else if constexpr (kIsInt<T>) {
    const T q = static_cast<T>(a / b);
    if constexpr (std::is_signed_v<T>) {
      return (a % b != 0 && ((a < 0) != (b < 0))) ? T(q - 1) : q;
    } else {
      return q;
    }
  } else {
    return a / b;
  }
}

// np.remainder (floor modulo; the result has b's sign). Integers require
// b != 0. Floats follow NumPy's npy_remainder: fmod, moved into b's sign by
// adding b, a zero result gets b's sign, b == 0 gives NaN.
template <typename T>
T Mod(T a, T b) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(Mod(Widen(a), Widen(b)));
  } else if constexpr (kIsInt<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return T(0);  // Also MIN % -1, which C leaves undefined.
      const T r = static_cast<T>(a % b);
      return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
    } else {
      return static_cast<T>(a % b);
    }
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

// np.power. Floats: the C library's pow (float16/bfloat16 in float32).
// Integers: exact repeated squaring, wrapping; requires b >= 0 (CheckPow).
template <typename T>
T Pow(T a, T b) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(std::pow(Widen(a), Widen(b)));
  } else if constexpr (kIsInt<T>) {
    Wide<T> result = 1, base = Wide<T>(a);
    for (auto e = std::make_unsigned_t<T>(b); e != 0; e >>= 1) {
      if (e & 1) result *= base;
      base *= base;
    }
    return static_cast<T>(result);
  } else {
    return std::pow(a, b);
  }
}

// Bitwise on integers, logical on bool.
template <typename T>
T And(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) && Truth(b));
  } else {
    return static_cast<T>(a & b);
  }
}
template <typename T>
T Or(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) || Truth(b));
  } else {
    return static_cast<T>(a | b);
  }
}
template <typename T>
T Xor(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) != Truth(b));
  } else {
    return static_cast<T>(a ^ b);
  }
}
template <typename T>
T Not(T a) {
  if constexpr (kIsBool<T>) {
    return MakeBool(!Truth(a));
  } else {
    return static_cast<T>(~a);
  }
}

// np.left_shift / np.right_shift: a shift by at least the bit width (or a
// negative one) gives 0, or -1 for a negative a shifted right; a negative
// a shifted left wraps.
template <typename T>
T Shl(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (U(b) >= sizeof(T) * 8) return T(0);
  return static_cast<T>(Wide<T>(a) << U(b));
}
template <typename T>
T Shr(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (U(b) >= sizeof(T) * 8) {
    if constexpr (std::is_signed_v<T>) {
      if (a < 0) return T(-1);
    }
    return T(0);
  }
  return static_cast<T>(a >> U(b));  // Arithmetic for signed (C++20).
}

// np.minimum: a NaN a, else a NaN b, else the smaller, b when equal
// (float16: a when equal, as NumPy's float16 loop).
template <typename T>
T Min(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) && Truth(b));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return Narrow<T>(Min(Widen(a), Widen(b)));  // ml_dtypes: float32's rule.
  } else if constexpr (std::is_same_v<T, Float16>) {
    // NumPy's float16 rule: a when equal (so min(+0, -0) is +0).
    const float x = Widen(a), y = Widen(b);
    return Narrow<T>((x != x || x <= y) ? x : y);
  } else if constexpr (kIsInt<T>) {
    return a < b ? a : b;
  } else {
    return (a != a || a < b) ? a : b;
  }
}

// np.maximum: a NaN a, else a NaN b, else the larger, b when equal
// (float16: a when equal).
template <typename T>
T Max(T a, T b) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a) || Truth(b));
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return Narrow<T>(Max(Widen(a), Widen(b)));  // ml_dtypes: float32's rule.
  } else if constexpr (std::is_same_v<T, Float16>) {
    // NumPy's float16 rule: a when equal.
    const float x = Widen(a), y = Widen(b);
    return Narrow<T>((x != x || x >= y) ? x : y);
  } else if constexpr (kIsInt<T>) {
    return a > b ? a : b;
  } else {
    return (a != a || a > b) ? a : b;
  }
}

// Floats flip the sign bit, also of zeros and NaNs; unsigned integers wrap.
template <typename T>
T Neg(T a) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(-Widen(a));
  } else if constexpr (kIsComplex<T>) {
    return T{-a.re, -a.im};
  } else if constexpr (kIsInt<T>) {
    return Sub(T(0), a);
  } else {
    return -a;
  }
}

// Signed integers: Abs(MIN) == MIN (wraps); unsigned: the identity; floats
// clear the sign bit; bool: != 0.
template <typename T>
T Abs(T a) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(a));
  } else if constexpr (kIsHalf<T>) {
    return Narrow<T>(std::fabs(Widen(a)));
  } else if constexpr (kIsInt<T>) {
    if constexpr (std::is_signed_v<T>) {
      return a < 0 ? Neg(a) : a;
    } else {
      return a;
    }
  } else {
    return std::fabs(a);
  }
}

// Floats only (other dtypes are rejected before any kernel runs).
template <typename T>
T Sqrt(T a) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(std::sqrt(Widen(a)));
  } else {
    return std::sqrt(a);
  }
}

template <typename T>
T Square(T a) {
  return Mul(a, a);
}

// ---- Math ops (floats; the rounding ops and sign also integers).

// Fn(float or double): float16 and bfloat16 through float32, rounded once.
template <typename T, class Fn>
T ViaFloat(T a, Fn fn) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(fn(Widen(a)));
  } else {
    return fn(a);
  }
}

// The transcendentals of lib/math_kernels.h on one element.
#define STRIDEKIT_MATH_SCALAR(Name)                          \
  template <typename T>                                      \
  T Name(T a) {                                              \
    return ViaFloat(a, [](auto x) {                          \
      return math::Name(math::ScalarMath<decltype(x)>{}, x); \
    });                                                      \
  }
STRIDEKIT_MATH_SCALAR(Exp)
STRIDEKIT_MATH_SCALAR(Log)
STRIDEKIT_MATH_SCALAR(Expm1)
STRIDEKIT_MATH_SCALAR(Log1p)
STRIDEKIT_MATH_SCALAR(Sin)
STRIDEKIT_MATH_SCALAR(Cos)
STRIDEKIT_MATH_SCALAR(Tanh)
STRIDEKIT_MATH_SCALAR(Tan)
STRIDEKIT_MATH_SCALAR(Arcsin)
STRIDEKIT_MATH_SCALAR(Arccos)
STRIDEKIT_MATH_SCALAR(Arctan)
STRIDEKIT_MATH_SCALAR(Sinh)
STRIDEKIT_MATH_SCALAR(Cosh)
STRIDEKIT_MATH_SCALAR(Arcsinh)
STRIDEKIT_MATH_SCALAR(Arccosh)
STRIDEKIT_MATH_SCALAR(Arctanh)
STRIDEKIT_MATH_SCALAR(Exp2)
STRIDEKIT_MATH_SCALAR(Log2)
STRIDEKIT_MATH_SCALAR(Log10)
STRIDEKIT_MATH_SCALAR(Cbrt)
#undef STRIDEKIT_MATH_SCALAR

// Fn(a, b) on float or double: float16 and bfloat16 through float32,
// rounded once.
template <typename T, class Fn>
T ViaFloat(T a, T b, Fn fn) {
  if constexpr (kIsHalf<T>) {
    return Narrow<T>(fn(Widen(a), Widen(b)));
  } else {
    return fn(a, b);
  }
}

// The binary transcendentals of lib/math_kernels.h on one pair.
#define STRIDEKIT_MATH_SCALAR2(Name)                            \
  template <typename T>                                         \
  T Name(T a, T b) {                                            \
    return ViaFloat(a, b, [](auto x, auto y) {                  \
      return math::Name(math::ScalarMath<decltype(x)>{}, x, y); \
    });                                                         \
  }
STRIDEKIT_MATH_SCALAR2(Arctan2)
STRIDEKIT_MATH_SCALAR2(Hypot)
STRIDEKIT_MATH_SCALAR2(Logaddexp)
STRIDEKIT_MATH_SCALAR2(Logaddexp2)
#undef STRIDEKIT_MATH_SCALAR2

// np.reciprocal: floats 1 / a; integers 1 / a truncated toward zero
// (requires a != 0: CheckReciprocal); complex by NumPy's formula (Smith's
// scaling, which differs from Div(1, a) in rounding).
template <typename T>
T Reciprocal(T a) {
  if constexpr (kIsInt<T>) {
    if constexpr (std::is_signed_v<T>) {
      return a == 1 || a == -1 ? a : T(0);
    } else {
      return a == 1 ? T(1) : T(0);
    }
  } else if constexpr (kIsComplex<T>) {
    using P = decltype(a.re);
    if (std::fabs(a.im) <= std::fabs(a.re)) {
      const P r = a.im / a.re;
      const P d = a.re + Rounded(a.im * r);
      return T{P(1) / d, -r / d};
    }
    const P r = a.re / a.im;
    const P d = Rounded(a.re * r) + a.im;
    return T{r / d, P(-1) / d};
  } else {
    return ViaFloat(a, [](auto x) { return decltype(x)(1) / x; });
  }
}

// np.copysign: |a| with b's sign bit.
template <typename T>
T Copysign(T a, T b) {
  return ViaFloat(a, b, [](auto x, auto y) { return std::copysign(x, y); });
}

// np.fmod: floats C's fmod (exact, sign of a); integers C's remainder
// (requires b != 0: CheckFmod; MIN fmod -1 is 0).
template <typename T>
T Fmod(T a, T b) {
  if constexpr (kIsInt<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return T(0);
    }
    return static_cast<T>(a % b);
  } else {
    return ViaFloat(a, b, [](auto x, auto y) { return std::fmod(x, y); });
  }
}

// np.floor_divide: integers as Div (requires DivisionDefined:
// CheckFloorDivide); floats NumPy 1.24's npy_floor_divide: a / b for a zero b,
// else the quotient of divmod, (a - fmod(a, b)) / b adjusted down when the
// remainder's sign differs from b's and snapped to the nearest integral value.
template <typename T>
T FloorDivide(T a, T b) {
  if constexpr (kIsInt<T>) {
    return Div(a, b);
  } else {
    return ViaFloat(a, b, [](auto x, auto y) {
      using P = decltype(x);
      if (y == 0) return x / y;
      const P mod = std::fmod(x, y);
      P div = (x - mod) / y;
      if (mod != 0 && std::isless(y, P(0)) != std::isless(mod, P(0))) {
        div -= P(1);
      }
      if (div == 0) return std::copysign(P(0), x / y);
      P floordiv = std::floor(div);
      if (std::isgreater(div - floordiv, P(0.5))) floordiv += P(1);
      return floordiv;
    });
  }
}

// np.fmax / np.fmin: a NaN operand is ignored (both NaN: NaN); integers
// and bool as maximum and minimum. Equal floats give b (C's fmax on x86,
// NumPy's vector loops), float16 a (NumPy's float16 loop).
template <typename T>
T Fmax(T a, T b) {
  if constexpr (kIsInt<T> || kIsBool<T>) {
    return Max(a, b);
  } else if constexpr (std::is_same_v<T, Float16>) {
    const float x = Widen(a), y = Widen(b);
    return Narrow<T>((x >= y || y != y) ? x : y);
  } else {
    return ViaFloat(a, b,
                    [](auto x, auto y) { return (y != y || x > y) ? x : y; });
  }
}
template <typename T>
T Fmin(T a, T b) {
  if constexpr (kIsInt<T> || kIsBool<T>) {
    return Min(a, b);
  } else if constexpr (std::is_same_v<T, Float16>) {
    const float x = Widen(a), y = Widen(b);
    return Narrow<T>((x <= y || y != y) ? x : y);
  } else {
    return ViaFloat(a, b,
                    [](auto x, auto y) { return (y != y || x < y) ? x : y; });
  }
}

// np.heaviside(a, b): NaN for a NaN a, b where a == 0, 0 below, 1 above.
template <typename T>
T Heaviside(T a, T b) {
  return ViaFloat(a, b, [](auto x, auto y) {
    using P = decltype(x);
    if (x != x) return std::numeric_limits<P>::quiet_NaN();
    if (x == 0) return y;
    return x < 0 ? P(0) : P(1);
  });
}

// np.nextafter: the next value of T after a toward b. Float and double as
// C (b when equal); float16 and bfloat16 step their own bits (NumPy's
// npy_half_nextafter: a when equal, NaN for a NaN operand).
template <typename T>
T Nextafter(T a, T b) {
  if constexpr (kIsHalf<T>) {
    const float x = Widen(a), y = Widen(b);
    if (x != x || y != y)
      return Narrow<T>(std::numeric_limits<float>::quiet_NaN());
    if (x == y) return a;
    const uint16_t ax = a.bits, by = b.bits;
    uint16_t bits;
    if (x == 0) {
      bits = uint16_t((by & 0x8000u) + 1);  // The smallest subnormal.
    } else if ((x < y) == !(ax & 0x8000u)) {
      bits = uint16_t(ax + 1);  // Away from zero.
    } else {
      bits = uint16_t(ax - 1);
    }
    return T{bits};
  } else {
    return std::nextafter(a, b);
  }
}

// np.gcd / np.lcm on magnitudes in T's unsigned type (|MIN| is 2^(n-1)),
// the result converted back as NumPy: gcd by Euclid, lcm = |a| / gcd * |b|
// wrapping (0 when either is 0).
template <typename T>
std::make_unsigned_t<T> Magnitude(T a) {
  using U = std::make_unsigned_t<T>;
  return a < T(0) ? U(U(0) - U(a)) : U(a);
}
template <typename T>
std::make_unsigned_t<T> MagnitudeGcd(T a, T b) {
  auto x = Magnitude(a), y = Magnitude(b);
  while (y != 0) {
    const auto r = static_cast<decltype(x)>(x % y);
    x = y;
    y = r;
  }
  return x;
}
template <typename T>
T Gcd(T a, T b) {
  return static_cast<T>(MagnitudeGcd(a, b));
}
template <typename T>
T Lcm(T a, T b) {
  const auto g = MagnitudeGcd(a, b);
  if (g == 0) return T(0);
  using W = Wide<T>;
  return static_cast<T>(W(Magnitude(a) / g) * W(Magnitude(b)));
}

// Rounding to integral values: integers unchanged.
#define STRIDEKIT_ROUNDING_SCALAR(Name, fn)                  \
  template <typename T>                                      \
  T Name(T a) {                                              \
    if constexpr (kIsInt<T>) {                               \
      return a;                                              \
    } else {                                                 \
      return ViaFloat(a, [](auto x) { return std::fn(x); }); \
    }                                                        \
  }
STRIDEKIT_ROUNDING_SCALAR(Floor, floor)
STRIDEKIT_ROUNDING_SCALAR(Ceil, ceil)
STRIDEKIT_ROUNDING_SCALAR(Rint, nearbyint)  // To nearest even.
STRIDEKIT_ROUNDING_SCALAR(Trunc, trunc)
#undef STRIDEKIT_ROUNDING_SCALAR

// np.sign (NumPy 1.24): -1, +1, or 0 (also for -0); a NaN is returned as
// is; unsigned integers 0 or 1.
template <typename T>
T Sign(T a) {
  if constexpr (kIsInt<T>) {
    return static_cast<T>(a > 0 ? 1 : (a < T(0) ? -1 : 0));
  } else if constexpr (kIsHalf<T>) {
    return ViaFloat(a, [](float x) { return Sign(x); });
  } else {
    return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a));
  }
}

// The value x such that op(x, y) == y for every y of accumulator type T
// (min and max: +-inf, or the integer limits).
template <typename T>
T ReduceIdentity(ReduceOp op) {
  if constexpr (kIsBool<T>) {
    return MakeBool(op == ReduceOp::kProd || op == ReduceOp::kMin);
  } else if constexpr (kIsComplex<T>) {
    using P = decltype(T{}.re);
    return T{P(op == ReduceOp::kProd ? 1 : 0), P(0)};
  } else {
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

// op(a, b) as the reductions combine partial results, for the ops that
// accept T's kind and run themselves (KernelReduceOp: any, all and mean
// combine as maximum, minimum and sum).
template <typename T>
T Reduce(ReduceOp op, T a, T b) {
  switch (op) {
#define STRIDEKIT_REDUCE_CASE(Name, value, name, kinds, prechecked)       \
  case ReduceOp::k##Name:                                                 \
    if constexpr (((kinds)&kKindOf<T>) != 0 &&                            \
                  KernelReduceOp(ReduceOp::k##Name) == ReduceOp::k##Name) \
      return Name(a, b);                                                  \
    break;
    STRIDEKIT_REDUCE_OPS(STRIDEKIT_REDUCE_CASE)
#undef STRIDEKIT_REDUCE_CASE
  }
  return a;
}

// NumPy's truth value (np.any, np.all, astype(bool)): != 0, a NaN is true,
// a complex number is true when either part is.
template <typename T>
bool IsTrue(T x) {
  if constexpr (kIsBool<T>) {
    return Truth(x);
  } else if constexpr (kIsHalf<T>) {
    return Widen(x) != 0;
  } else if constexpr (kIsComplex<T>) {
    return x.re != 0 || x.im != 0;
  } else {
    return x != 0;
  }
}

// The arg-reduction rows (ArgOp): true when x, met after `best` along the
// axis, replaces it: a NaN replaces a number (the first NaN wins, as
// NumPy), else only a strictly smaller (ArgMin) or larger (ArgMax) value
// (the first occurrence wins). Bool compares truth values.
template <typename T>
bool IsNaNValue(T x) {
  if constexpr (kIsHalf<T>) {
    return std::isnan(Widen(x));
  } else if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else {
    return false;
  }
}
template <typename T>
auto OrderedValue(T x) {
  if constexpr (kIsHalf<T>) {
    return Widen(x);
  } else if constexpr (kIsBool<T>) {
    return int(Truth(x));
  } else {
    return x;
  }
}
template <typename T>
bool ArgMin(T x, T best) {
  return IsNaNValue(x) ? !IsNaNValue(best)
                       : OrderedValue(x) < OrderedValue(best);
}
template <typename T>
bool ArgMax(T x, T best) {
  return IsNaNValue(x) ? !IsNaNValue(best)
                       : OrderedValue(x) > OrderedValue(best);
}

// The scan rows (ScanOp): the running value's step, and ScanFirst, the
// running value at position 0 (the element itself; bool as 0 or 1).
template <typename T>
T Cumsum(T acc, T x) {
  return Add(acc, x);
}
template <typename T>
T Cumprod(T acc, T x) {
  return Mul(acc, x);
}
template <typename T>
T Cummin(T acc, T x) {
  return Min(acc, x);
}
template <typename T>
T Cummax(T acc, T x) {
  return Max(acc, x);
}
template <typename T>
T ScanFirst(T x) {
  if constexpr (kIsBool<T>) {
    return MakeBool(Truth(x));
  } else {
    return x;
  }
}
template <typename T>
T Scan(ScanOp op, T acc, T x) {
  switch (op) {
#define STRIDEKIT_SCAN_CASE(Name, value, name, kinds, prechecked) \
  case ScanOp::k##Name:                                           \
    if constexpr (((kinds)&kKindOf<T>) != 0) return Name(acc, x); \
    break;
    STRIDEKIT_SCAN_OPS(STRIDEKIT_SCAN_CASE)
#undef STRIDEKIT_SCAN_CASE
  }
  return acc;
}

// Calls fn(T{}) with T the storage type of t, one of NumericTypes (the
// checks reject other dtypes before this runs).
template <typename Fn>
void VisitNumericType(DType t, Fn&& fn) {
  VisitType(NumericTypes{}, t, fn);
}

}  // namespace stridekit::scalar_ops

#endif  // STRIDEKIT_LIB_SCALAR_OPS_H_
