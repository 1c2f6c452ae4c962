// Per-target vector rows of the cast family: `count` contiguous elements of
// From converted to contiguous To, for the pairs worth a vector path. Each
// gives the bits of cast_scalar.h's Cast (the tails call it): NaNs are made
// the canonical quiet NaN with their sign before (narrowing) or after
// (widening) the hardware conversion, float -> int32 saturates explicitly.
// Element pointers must be aligned to their element size.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_CAST_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_CAST_INL_H_
#undef STRIDEKIT_SIMD_CAST_INL_H_
#else
#define STRIDEKIT_SIMD_CAST_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "cast_scalar.h"
#include "hwy/highway.h"
#include "simd/cast/cast_task.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vector paths exist on multi-lane targets. Highway 1.0.3's SCALAR DemoteTo
// saturates float64 -> float32 overflow (instead of inf), so that target
// runs the scalar rows only.
#undef STRIDEKIT_CAST_VECTORS
#define STRIDEKIT_CAST_VECTORS (HWY_TARGET != HWY_SCALAR)
// Highway's float16 conversions round correctly (F16C) only on AVX2/AVX3;
// its emulation truncates, so other targets keep the scalar rows for them.
#undef STRIDEKIT_CAST_F16
#if HWY_ARCH_X86 && HWY_TARGET < HWY_SSE4 && !defined(HWY_DISABLE_F16C)
#define STRIDEKIT_CAST_F16 1
#else
#define STRIDEKIT_CAST_F16 0
#endif

#if STRIDEKIT_CAST_VECTORS

// NaN lanes of v become the canonical quiet NaN with their sign.
template <class D, class V>
HWY_INLINE V CanonicalNaN(D d, V v) {
  using T = hn::TFromD<D>;
  const hn::RebindToUnsigned<D> du;
  using TU = hn::TFromD<decltype(du)>;
  const TU quiet = sizeof(T) == 4 ? TU(0x7fc00000u) : TU(0x7ff8000000000000ull);
  const V canonical =
      hn::Or(hn::And(v, hn::SignBit(d)), hn::BitCast(d, hn::Set(du, quiet)));
  return hn::IfThenElse(hn::IsNaN(v), canonical, v);
}

// Narrowing pairs load at most 256 bits at a time: with 512-bit loads and
// 256-bit stores this CPU's (AMD EPYC, AVX3) float64 -> float32 ran at half
// NumPy's speed beyond L2 (25 vs 54 GB/s at 8 MiB); 256-bit matches it.
template <typename T>
using NarrowingTag = hn::CappedTag<T, 32 / sizeof(T)>;

// One vector step of a pair: Step(from, to) converts Lanes(d) elements,
// where d is the tag of the step's From lanes; Scalar tails do the rest.
template <typename To, typename From>
struct VectorPair {
  static constexpr bool kExists = false;
};

#if STRIDEKIT_CAST_F16
template <>
struct VectorPair<Float16, float> {
  static constexpr bool kExists = true;
  using D = NarrowingTag<float>;
  static HWY_INLINE void Step(D d, const float* from, Float16* to) {
    const hn::Rebind<hwy::float16_t, D> d16;
    const auto v = CanonicalNaN(d, hn::LoadU(d, from));
    hn::StoreU(hn::DemoteTo(d16, v), d16,
               reinterpret_cast<hwy::float16_t*>(to));
  }
};

template <>
struct VectorPair<float, Float16> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<float>;
  static HWY_INLINE void Step(D d, const Float16* from, float* to) {
    const hn::Rebind<hwy::float16_t, D> d16;
    const auto h =
        hn::LoadU(d16, reinterpret_cast<const hwy::float16_t*>(from));
    hn::StoreU(CanonicalNaN(d, hn::PromoteTo(d, h)), d, to);
  }
};
#endif  // STRIDEKIT_CAST_F16

// Round to nearest even on the float32 bits (ml_dtypes).
template <>
struct VectorPair<BFloat16, float> {
  static constexpr bool kExists = true;
  using D = NarrowingTag<float>;
  static HWY_INLINE void Step(D d, const float* from, BFloat16* to) {
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;
    const hn::Rebind<uint16_t, D> du16;
    const auto bits = hn::BitCast(du, CanonicalNaN(d, hn::LoadU(d, from)));
    const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
    const auto rounded = hn::Add(bits, hn::Add(hn::Set(du, 0x7fffu), odd));
    const auto high = hn::BitCast(di, hn::ShiftRight<16>(rounded));
    hn::StoreU(hn::DemoteTo(du16, high), du16, reinterpret_cast<uint16_t*>(to));
  }
};

template <>
struct VectorPair<float, BFloat16> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<float>;
  static HWY_INLINE void Step(D d, const BFloat16* from, float* to) {
    const hn::RebindToUnsigned<D> du;
    const hn::Rebind<uint16_t, D> du16;
    const auto h = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(from));
    const auto v = hn::BitCast(d, hn::ShiftLeft<16>(hn::PromoteTo(du, h)));
    hn::StoreU(CanonicalNaN(d, v), d, to);
  }
};

template <>
struct VectorPair<float, double> {
  static constexpr bool kExists = true;
  using D = NarrowingTag<double>;
  static HWY_INLINE void Step(D d, const double* from, float* to) {
    const hn::Rebind<float, D> df;
    const auto v = CanonicalNaN(d, hn::LoadU(d, from));
    hn::StoreU(hn::DemoteTo(df, v), df, to);
  }
};

template <>
struct VectorPair<double, float> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<double>;
  static HWY_INLINE void Step(D d, const float* from, double* to) {
    const hn::Rebind<float, D> df;
    const auto v = CanonicalNaN(df, hn::LoadU(df, from));
    hn::StoreU(hn::PromoteTo(d, v), d, to);
  }
};

template <>
struct VectorPair<float, int32_t> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<int32_t>;
  static HWY_INLINE void Step(D d, const int32_t* from, float* to) {
    const hn::Rebind<float, D> df;
    hn::StoreU(hn::ConvertTo(df, hn::LoadU(d, from)), df, to);
  }
};

template <>
struct VectorPair<float, uint8_t> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<int32_t>;
  static HWY_INLINE void Step(D d, const uint8_t* from, float* to) {
    const hn::Rebind<float, D> df;
    const hn::Rebind<uint8_t, D> d8;
    const auto v = hn::PromoteTo(d, hn::LoadU(d8, from));
    hn::StoreU(hn::ConvertTo(df, v), df, to);
  }
};

// Truncation; >= 2^31 -> INT32_MAX, < -2^31 -> INT32_MIN, NaN -> 0.
template <>
struct VectorPair<int32_t, float> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<float>;
  static HWY_INLINE void Step(D d, const float* from, int32_t* to) {
    const hn::RebindToSigned<D> di;
    const auto v = hn::LoadU(d, from);
    const auto limit = hn::Set(d, 2147483648.0f);
    auto r = hn::ConvertTo(di, v);
    r = hn::IfThenElse(hn::RebindMask(di, hn::Ge(v, limit)),
                       hn::Set(di, INT32_MAX), r);
    r = hn::IfThenElse(hn::RebindMask(di, hn::Lt(v, hn::Neg(limit))),
                       hn::Set(di, INT32_MIN), r);
    r = hn::IfThenZeroElse(hn::RebindMask(di, hn::IsNaN(v)), r);
    hn::StoreU(r, di, to);
  }
};

template <>
struct VectorPair<double, int64_t> {
  static constexpr bool kExists = true;
  using D = hn::ScalableTag<int64_t>;
  static HWY_INLINE void Step(D d, const int64_t* from, double* to) {
    const hn::Rebind<double, D> df;
    hn::StoreU(hn::ConvertTo(df, hn::LoadU(d, from)), df, to);
  }
};

// to[i] = Cast(from[i]) for i < count, vectors then a scalar tail; returns
// HWY_TARGET (simd::CastRowFn).
template <typename To, typename From>
int64_t VectorRow(const void* from_bytes, void* to_bytes, size_t count) {
  using Pair = VectorPair<To, From>;
  const typename Pair::D d;
  const From* from = static_cast<const From*>(from_bytes);
  To* to = static_cast<To*>(to_bytes);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 4 * N <= count; i += 4 * N) {
    Pair::Step(d, from + i, to + i);
    Pair::Step(d, from + i + N, to + i + N);
    Pair::Step(d, from + i + 2 * N, to + i + 2 * N);
    Pair::Step(d, from + i + 3 * N, to + i + 3 * N);
  }
  for (; i + N <= count; i += N) Pair::Step(d, from + i, to + i);
  for (; i < count; ++i) to[i] = cast::Cast<To>(from[i]);
  return HWY_TARGET;
}

#endif  // STRIDEKIT_CAST_VECTORS

using VectorRowFn = simd::CastRowFn;

// This target's vector row of the pair, or nullptr.
inline VectorRowFn VectorRowFunction(DType from_t, DType to_t) {
  VectorRowFn fn = nullptr;
#if STRIDEKIT_CAST_VECTORS
  cast::VisitCastType(from_t, [&](auto from_zero) {
    using From = decltype(from_zero);
    cast::VisitCastType(to_t, [&](auto to_zero) {
      using To = decltype(to_zero);
      if constexpr (VectorPair<To, From>::kExists) fn = &VectorRow<To, From>;
    });
  });
#else
  (void)from_t;
  (void)to_t;
#endif
  return fn;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_CAST_INL_H_
