// The multiply-add rule, the same bits on every target: MulAdd(d, a, b, c)
// is a * b + c rounded once per lane (std::fma's bits) for float and double
// lanes, and a * b + c wrapping for integer lanes.
// - Targets with a fused multiply-add instruction (HWY_NATIVE_FMA: x86 AVX2
//   and AVX3, aarch64 NEON, SVE, SVE2) use it.
// - Targets without (SSE4, SSSE3, EMU128, SCALAR) emulate it exactly:
//   float lanes through double (the product is exact, the sum rounded to
//   odd, then rounded to float: Boldo and Melquiond's double rounding that
//   is correct because 53 >= 24 + 2), double lanes lane by lane with
//   std::fma (the C library's correctly rounded one). Such targets are
//   slower, never different.
// Every polynomial, dot product and matrix-product tile uses this rule and
// nothing else fuses (the build passes -ffp-contract=off).

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_MULTIPLY_ADD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_MULTIPLY_ADD_INL_H_
#undef STRIDEKIT_SIMD_MULTIPLY_ADD_INL_H_
#else
#define STRIDEKIT_SIMD_MULTIPLY_ADD_INL_H_
#endif

#include <cmath>
#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

#if !HWY_NATIVE_FMA
namespace multiply_add_detail {

// a * b + c for double lanes holding float values: exact product, the sum
// rounded to odd (TwoSum's error decides the last bit), so that the caller's
// demotion to float rounds once.
template <class DD>
HWY_INLINE hn::Vec<DD> FloatFmaInDouble(DD dd, hn::Vec<DD> a, hn::Vec<DD> b,
                                        hn::Vec<DD> c) {
  const hn::RebindToUnsigned<DD> du;
  const auto p = hn::Mul(a, b);  // exact: 24 + 24 bits
  const auto s = hn::Add(p, c);
  const auto pb = hn::Sub(s, c);
  const auto err =
      hn::Add(hn::Sub(p, pb), hn::Sub(c, hn::Sub(s, pb)));  // s + err == p + c
  const auto s_bits = hn::BitCast(du, s);
  const auto one = hn::Set(du, 1);
  // Inexact, even and finite: step one ulp towards the exact sum.
  const auto inexact = hn::Not(hn::Eq(err, hn::Zero(dd)));
  const auto even =
      hn::RebindMask(dd, hn::Eq(hn::And(s_bits, one), hn::Zero(du)));
  const auto adjust = hn::And(hn::And(inexact, even), hn::IsFinite(s));
  // +1 (away from zero) when err has s's sign, else -1 (as the bit pattern
  // of |s| counts ulps).
  const auto opposite =
      hn::ShiftRight<63>(hn::Xor(s_bits, hn::BitCast(du, err)));
  const auto step = hn::Sub(one, hn::Add(opposite, opposite));
  const auto odd = hn::BitCast(dd, hn::Add(s_bits, step));
  return hn::IfThenElse(adjust, odd, s);
}

}  // namespace multiply_add_detail
#endif  // !HWY_NATIVE_FMA

template <class D, class V = hn::Vec<D>>
HWY_INLINE V MulAdd(D d, V a, V b, V c) {
  using T = hn::TFromD<D>;
  if constexpr (!hwy::IsFloat<T>()) {
    (void)d;
    return hn::Add(hn::Mul(a, b), c);
  } else {
#if HWY_NATIVE_FMA
    (void)d;
    return hn::MulAdd(a, b, c);
#else
#if HWY_TARGET != HWY_SCALAR
    if constexpr (sizeof(T) == 4 && hn::MaxLanes(d) >= 2) {
      const hn::Half<D> dh;
      const hn::Rebind<double, decltype(dh)> dd;
      auto half = [&](auto x, auto y, auto z) {
        return hn::DemoteTo(
            dh, multiply_add_detail::FloatFmaInDouble(dd, hn::PromoteTo(dd, x),
                                                      hn::PromoteTo(dd, y),
                                                      hn::PromoteTo(dd, z)));
      };
      const auto lo = half(hn::LowerHalf(dh, a), hn::LowerHalf(dh, b),
                           hn::LowerHalf(dh, c));
      const auto hi = half(hn::UpperHalf(dh, a), hn::UpperHalf(dh, b),
                           hn::UpperHalf(dh, c));
      return hn::Combine(d, hi, lo);
    }
#endif
    constexpr size_t kRoom = hn::MaxLanes(d);
    HWY_ALIGN T xs[kRoom], ys[kRoom], zs[kRoom];
    hn::Store(a, d, xs);
    hn::Store(b, d, ys);
    hn::Store(c, d, zs);
    for (size_t i = 0; i < hn::Lanes(d); ++i)
      xs[i] = std::fma(xs[i], ys[i], zs[i]);
    return hn::Load(d, xs);
#endif  // HWY_NATIVE_FMA
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_MULTIPLY_ADD_INL_H_
