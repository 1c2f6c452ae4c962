// Per-target math ops: the transcendentals of lib/math_kernels.h on
// Highway vectors (HwyMath, the vector policy: Add/Sub/Mul/Div and the
// multiply-add rule of multiply_add-inl.h, std::fma's bits on every target,
// so every target gives the scalar reference's bits), the rounding
// ops and sign. Functors as numeric-inl.h's (Vec and Scalar).

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_MATH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_MATH_INL_H_
#undef STRIDEKIT_SIMD_MATH_INL_H_
#else
#define STRIDEKIT_SIMD_MATH_INL_H_
#endif

#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "math_kernels.h"
#include "scalar_ops.h"
#include "simd/common/multiply_add-inl.h"
#include "simd/common/numeric-inl.h"

// Inlines every call in the function's body (GCC and clang).
#ifndef STRIDEKIT_FLATTEN
#define STRIDEKIT_FLATTEN __attribute__((flatten))
#endif

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// This target's copy of the algorithms (lib/math_kernels-inl.h): their
// vector instantiations must carry the target's attributes.
namespace math {
#include "math_kernels-inl.h"  // NOLINT(build/include)
}  // namespace math

// The vector policy of math_kernels.h (float or double lanes).
template <class D>
struct HwyMath {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  using DI = hn::RebindToSigned<D>;
  using TI = hn::TFromD<DI>;
  using I = hn::Vec<DI>;
  using K = hn::Mask<D>;
  D d;
  DI di;

  V Set(double c) const { return hn::Set(d, T(c)); }
  V Add(V a, V b) const { return hn::Add(a, b); }
  V Sub(V a, V b) const { return hn::Sub(a, b); }
  V Mul(V a, V b) const { return hn::Mul(a, b); }
  V MulAdd(V a, V b, V c) const { return HWY_NAMESPACE::MulAdd(d, a, b, c); }
  V Div(V a, V b) const { return hn::Div(a, b); }
  V Sqrt(V a) const { return hn::Sqrt(a); }
  V Neg(V a) const { return hn::Neg(a); }
  V Abs(V a) const { return hn::Abs(a); }
  V CopySign(V mag, V sign) const { return hn::CopySign(mag, sign); }
  V Round(V a) const { return hn::Round(a); }
  V Floor(V a) const { return hn::Floor(a); }
  V Trunc(V a) const { return hn::Trunc(a); }
  K Lt(V a, V b) const { return hn::Lt(a, b); }
  K Le(V a, V b) const { return hn::Le(a, b); }
  K Eq(V a, V b) const { return hn::Eq(a, b); }
  K IsNaN(V a) const { return hn::IsNaN(a); }
  K IsFinite(V a) const { return hn::IsFinite(a); }
  K And(K a, K b) const { return hn::And(a, b); }
  K Or(K a, K b) const { return hn::Or(a, b); }
  K Not(K a) const { return hn::Not(a); }
  V Select(K k, V yes, V no) const { return hn::IfThenElse(k, yes, no); }
  I BitsOf(V a) const { return hn::BitCast(di, a); }
  V FromBits(I bits) const { return hn::BitCast(d, bits); }
  I SetI(int64_t v) const { return hn::Set(di, static_cast<TI>(v)); }
  K LtI(I a, I b) const { return hn::RebindMask(d, hn::Lt(a, b)); }
  // table[index & 15]: on AVX3's 8 doubles one two-table permute (the
  // index's low 4 bits), elsewhere a gather.
  V Table16(const T* table, I index) const {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if constexpr (sizeof(T) == 8 && hn::MaxLanes(D()) == 8) {
      return V{_mm512_permutex2var_pd(hn::LoadU(d, table).raw, index.raw,
                                      hn::LoadU(d, table + 8).raw)};
    }
#endif
    return hn::GatherIndex(d, table, hn::And(index, hn::Set(di, 15)));
  }
  I AddI(I a, I b) const { return hn::Add(a, b); }
  I AndI(I a, I b) const { return hn::And(a, b); }
  I OrI(I a, I b) const { return hn::Or(a, b); }
  template <int kBits>
  I ShlI(I a) const {
    return hn::ShiftLeft<kBits>(a);
  }
  template <int kBits>
  I ShrI(I a) const {
    return hn::ShiftRight<kBits>(a);
  }
  I ToInt(V a) const { return hn::ConvertTo(di, a); }
  V ToFloat(I a) const { return hn::ConvertTo(d, a); }
  // fn(x) in the lanes of k (rare: huge sin/cos arguments), lane by lane.
  template <class Fn>
  V Fallback(K k, V x, V result, Fn fn) const {
    if (HWY_LIKELY(hn::AllFalse(d, k))) return result;
    HWY_ALIGN T xs[kLaneRoom<D>];
    HWY_ALIGN T rs[kLaneRoom<D>];
    HWY_ALIGN T ks[kLaneRoom<D>];
    hn::Store(x, d, xs);
    hn::Store(result, d, rs);
    hn::Store(hn::VecFromMask(d, k), d, ks);
    for (size_t i = 0; i < hn::Lanes(d); ++i) {
      TI bits;
      std::memcpy(&bits, &ks[i], sizeof(bits));
      if (bits != 0) rs[i] = fn(xs[i]);
    }
    return hn::Load(d, rs);
  }
  bool AnyLane(K k) const { return !hn::AllFalse(d, k); }
  I XorI(I a, I b) const { return hn::Xor(a, b); }
  V SelectIfNegativeI(I k, V yes, V no) const {
    return hn::BitCast(d, hn::IfNegativeThenElse(k, hn::BitCast(di, yes),
                                                 hn::BitCast(di, no)));
  }
};

// The transcendental ops. Fn names one algorithm: Fn::Vector(m, x, y) is
// math::Name on this target's vectors (a unary algorithm, Fn::kUnary,
// ignores y) and Fn::Scalar(a, b) the scalar reference's scalar_ops::Name,
// which gives the same bits (tests/math_test.cc, MathTargets.BitExact) and
// serves the tails. All three entries are out of line, so that the row
// layouts call them rather than hold copies: MathBlock (numeric-inl.h's
// BlockOp) runs the algorithm over whole vectors, flattened into its loop so
// that its constants are set once a block rather than once a vector;
// MathVector serves single vectors (a tiled transpose's rows).
template <class Fn, class D>
HWY_NOINLINE hn::Vec<D> MathVector(D d, hn::Vec<D> x, hn::Vec<D> y) {
  return Fn::Vector(HwyMath<D>{d, hn::RebindToSigned<D>()}, x, y);
}

template <class Fn, class D, typename T = hn::TFromD<D>>
HWY_NOINLINE STRIDEKIT_FLATTEN void MathBlock(D d, const T* a, const T* b,
                                              T* out, size_t vectors) {
  const HwyMath<D> m{d, hn::RebindToSigned<D>()};
  const size_t N = hn::Lanes(d);
  for (size_t i = 0; i < vectors * N; i += N) {
    const auto x = hn::LoadU(d, a + i);
    if constexpr (Fn::kUnary) {
      hn::StoreU(Fn::Vector(m, x, x), d, out + i);
    } else {
      hn::StoreU(Fn::Vector(m, x, hn::LoadU(d, b + i)), d, out + i);
    }
  }
}

template <class Fn, typename T>
HWY_NOINLINE T MathScalar(T a, T b) {
  return Fn::Scalar(a, b);
}

template <class Fn>
struct MathOp {
  template <typename T>
  static constexpr bool kVector = true;
  static constexpr bool kBlock = true;
  template <class D, class V>
  static V Vec(D d, V a, V b) {
    return MathVector<Fn>(d, a, b);
  }
  template <class D, typename T>
  static void Block(D d, const T* a, const T* b, T* out, size_t vectors) {
    MathBlock<Fn>(d, a, b, out, vectors);
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return MathScalar<Fn>(a, b);
  }
};

// Name##Op: the unary algorithm math::Name.
#define STRIDEKIT_MATH_OP(Name)           \
  struct Name##Fn {                       \
    static constexpr bool kUnary = true;  \
    template <class M, class V>           \
    static V Vector(const M& m, V x, V) { \
      return math::Name(m, x);            \
    }                                     \
    template <typename T>                 \
    static T Scalar(T a, T) {             \
      return scalar_ops::Name(a);         \
    }                                     \
  };                                      \
  using Name##Op = MathOp<Name##Fn>;
STRIDEKIT_MATH_OP(Exp)
STRIDEKIT_MATH_OP(Log)
STRIDEKIT_MATH_OP(Expm1)
STRIDEKIT_MATH_OP(Log1p)
STRIDEKIT_MATH_OP(Sin)
STRIDEKIT_MATH_OP(Cos)
STRIDEKIT_MATH_OP(Tanh)
STRIDEKIT_MATH_OP(Tan)
STRIDEKIT_MATH_OP(Arcsin)
STRIDEKIT_MATH_OP(Arccos)
STRIDEKIT_MATH_OP(Arctan)
STRIDEKIT_MATH_OP(Sinh)
STRIDEKIT_MATH_OP(Cosh)
STRIDEKIT_MATH_OP(Arcsinh)
STRIDEKIT_MATH_OP(Arccosh)
STRIDEKIT_MATH_OP(Arctanh)
STRIDEKIT_MATH_OP(Exp2)
STRIDEKIT_MATH_OP(Log2)
STRIDEKIT_MATH_OP(Log10)
STRIDEKIT_MATH_OP(Cbrt)
#undef STRIDEKIT_MATH_OP

// Name##Op: the binary algorithm math::Name.
#define STRIDEKIT_MATH_BINARY_OP(Name)      \
  struct Name##Fn {                         \
    static constexpr bool kUnary = false;   \
    template <class M, class V>             \
    static V Vector(const M& m, V x, V y) { \
      return math::Name(m, x, y);           \
    }                                       \
    template <typename T>                   \
    static T Scalar(T a, T b) {             \
      return scalar_ops::Name(a, b);        \
    }                                       \
  };                                        \
  using Name##Op = MathOp<Name##Fn>;
STRIDEKIT_MATH_BINARY_OP(Arctan2)
STRIDEKIT_MATH_BINARY_OP(Hypot)
STRIDEKIT_MATH_BINARY_OP(Logaddexp)
STRIDEKIT_MATH_BINARY_OP(Logaddexp2)
#undef STRIDEKIT_MATH_BINARY_OP

// Rounding to integral values: Highway's exact Floor/Ceil/Round/Trunc on
// float lanes, the identity on integer lanes. The result takes the input's
// sign (as C's rounding functions: ceil(-0.5) is -0), which Highway 1.0.3's
// emulation on targets without a rounding instruction (SSSE3) loses.
#define STRIDEKIT_ROUNDING_OP(Name, HWY_OP)          \
  struct Name##Op {                                  \
    template <typename T>                            \
    static constexpr bool kVector = true;            \
    template <class D, class V>                      \
    static V Vec(D, V a, V) {                        \
      if constexpr (hwy::IsFloat<hn::TFromD<D>>()) { \
        return hn::CopySign(HWY_OP(a), a);           \
      } else {                                       \
        return a;                                    \
      }                                              \
    }                                                \
    template <typename T>                            \
    static T Scalar(T a, T) {                        \
      return scalar_ops::Name(a);                    \
    }                                                \
  };
STRIDEKIT_ROUNDING_OP(Floor, hn::Floor)
STRIDEKIT_ROUNDING_OP(Ceil, hn::Ceil)
STRIDEKIT_ROUNDING_OP(Rint, hn::Round)
STRIDEKIT_ROUNDING_OP(Trunc, hn::Trunc)
#undef STRIDEKIT_ROUNDING_OP

// np.sign: floats select (a NaN stays), integers from comparison masks
// (all ones is -1).
struct SignOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D d, V a, V) {
    using T = hn::TFromD<D>;
    const auto zero = hn::Zero(d);
    const auto one = hn::Set(d, T(1));
    if constexpr (hwy::IsFloat<T>()) {
      return hn::IfThenElse(
          hn::Lt(zero, a), one,
          hn::IfThenElse(hn::Lt(a, zero), hn::Neg(one),
                         hn::IfThenElse(hn::Eq(a, zero), zero, a)));
    } else if constexpr (hwy::IsSigned<T>()) {
      return hn::Or(hn::And(hn::VecFromMask(d, hn::Lt(zero, a)), one),
                    hn::VecFromMask(d, hn::Lt(a, zero)));
    } else {
      return hn::And(hn::Not(hn::VecFromMask(d, hn::Eq(a, zero))), one);
    }
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Sign(a);
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_MATH_INL_H_
