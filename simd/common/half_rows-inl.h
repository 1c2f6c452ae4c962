// Per-target rows of float16 and bfloat16 (NumPy's float16 rule: compute in
// float32, round once per result): blocks of a row are widened into float32
// buffers on the stack (vector conversions where the target converts
// exactly, cast-inl.h), the float32 row kernels of numeric-inl.h run on
// them, and results are rounded to nearest even on the way out. Reductions
// accumulate in float32.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_HALF_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_HALF_ROWS_INL_H_
#undef STRIDEKIT_SIMD_HALF_ROWS_INL_H_
#else
#define STRIDEKIT_SIMD_HALF_ROWS_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/cast/cast-inl.h"
#include "simd/common/numeric-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// Elements per staged block: three float32 buffers stay well inside L1.
inline constexpr size_t kHalfBlock = 512;

// np.minimum / np.maximum (kIgnoreNaN false: a NaN a wins) and np.fmin /
// np.fmax (true: a NaN b loses) of float16 take a when equal (scalar_ops).
template <bool kMax, bool kIgnoreNaN>
struct HalfMinMaxOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V b) {
    const auto first = kMax ? hn::Lt(b, a) : hn::Lt(a, b);
    const auto nan = kIgnoreNaN ? hn::IsNaN(b) : hn::IsNaN(a);
    return hn::IfThenElse(hn::Or(nan, hn::Or(first, hn::Eq(a, b))), a, b);
  }
  static float Scalar(float a, float b) {
    const bool nan = kIgnoreNaN ? b != b : a != a;
    return (nan || (kMax ? a >= b : a <= b)) ? a : b;
  }
};

// The float32 functor that computes Op for H (float16 or bfloat16, whose
// minimum and maximum follow float32's rule, as ml_dtypes).
template <class Op, typename H>
struct HalfFloatOp {
  using type = Op;
};
template <>
struct HalfFloatOp<MinOp, Float16> {
  using type = HalfMinMaxOp<false, false>;
};
template <>
struct HalfFloatOp<MaxOp, Float16> {
  using type = HalfMinMaxOp<true, false>;
};
template <>
struct HalfFloatOp<FminOp, Float16> {
  using type = HalfMinMaxOp<false, true>;
};
template <>
struct HalfFloatOp<FmaxOp, Float16> {
  using type = HalfMinMaxOp<true, true>;
};

// to[i] = float32 value of from[i * stride] for i < count.
template <typename H>
HWY_INLINE void WidenRow(const H* from, int64_t stride, float* to,
                         size_t count) {
#if STRIDEKIT_CAST_VECTORS
  if constexpr (VectorPair<float, H>::kExists) {
    if (stride == 1) {
      VectorRow<float, H>(from, to, count);
      return;
    }
  }
#endif
  for (size_t i = 0; i < count; ++i) {
    to[i] = scalar_ops::Widen(from[int64_t(i) * stride]);
  }
}

// to[i * stride] = from[i] rounded once, for i < count.
template <typename H>
HWY_INLINE void NarrowRow(const float* from, H* to, int64_t stride,
                          size_t count) {
#if STRIDEKIT_CAST_VECTORS
  if constexpr (VectorPair<H, float>::kExists) {
    if (stride == 1) {
      VectorRow<H, float>(from, to, count);
      return;
    }
  }
#endif
  for (size_t i = 0; i < count; ++i) {
    to[int64_t(i) * stride] = scalar_ops::Narrow<H>(from[i]);
  }
}

// Widens `count` elements of a row into `buffer` and returns the float32
// row and its stride: a broadcast row (stride 0) is widened once.
template <typename H>
HWY_INLINE const float* StageRow(const H* row, int64_t stride, float* buffer,
                                 size_t count, int64_t& staged_stride) {
  staged_stride = stride == 0 ? 0 : 1;
  WidenRow(row, stride, buffer, stride == 0 ? 1 : count);
  return buffer;
}

// out[i] = Op(a[i], b[i]) over a row of `count` elements of H (strides in
// elements), through float32 blocks.
template <class HalfOp, typename H>
void HalfRow(H* out, int64_t out_stride, const H* a, int64_t a_stride,
             const H* b, int64_t b_stride, size_t count) {
  const hn::ScalableTag<float> d;
  HWY_ALIGN float xa[kHalfBlock], xb[kHalfBlock], xo[kHalfBlock];
  for (size_t i0 = 0; i0 < count; i0 += kHalfBlock) {
    const size_t n = std::min(kHalfBlock, count - i0);
    const int64_t at = int64_t(i0);
    int64_t sa, sb;
    const float* fa = StageRow(a + at * a_stride, a_stride, xa, n, sa);
    const float* fb = StageRow(b + at * b_stride, b_stride, xb, n, sb);
    RunRow<typename HalfFloatOp<HalfOp, H>::type, kStagedLayouts>(
        d, xo, 1, fa, sa, fb, sb, n);
    NarrowRow(xo, out + at * out_stride, out_stride, n);
  }
}

// Op over `count` elements of a row of H, in float32: pairwise over blocks
// (halves split at block boundaries), each block by ReduceRow.
template <class HalfOp, typename H>
float HalfReduceRow(const H* row, int64_t stride, float identity,
                    size_t count) {
  using Op = typename HalfFloatOp<HalfOp, H>::type;
  if (count > kHalfBlock) {
    const size_t half = (count / 2 + kHalfBlock - 1) / kHalfBlock * kHalfBlock;
    const float lo = HalfReduceRow<HalfOp>(row, stride, identity, half);
    const float hi = HalfReduceRow<HalfOp>(row + int64_t(half) * stride, stride,
                                           identity, count - half);
    return Op::Scalar(lo, hi);
  }
  const hn::ScalableTag<float> d;
  HWY_ALIGN float x[kHalfBlock];
  WidenRow(row, stride, x, count);
  return ReduceRow<Op>(d, ContiguousLoader<float>{x}, identity, count);
}

// acc[i * acc_stride] = Op(acc[...], in[i * in_stride]) for i < count: a
// float32 accumulator row combined with a row of H.
template <class HalfOp, typename H>
void HalfAccumulateRow(float* acc, int64_t acc_stride, const H* in,
                       int64_t in_stride, size_t count) {
  const hn::ScalableTag<float> d;
  HWY_ALIGN float x[kHalfBlock];
  for (size_t i0 = 0; i0 < count; i0 += kHalfBlock) {
    const size_t n = std::min(kHalfBlock, count - i0);
    const int64_t at = int64_t(i0);
    int64_t sx;
    const float* fx = StageRow(in + at * in_stride, in_stride, x, n, sx);
    float* to = acc + at * acc_stride;
    RunRow<typename HalfFloatOp<HalfOp, H>::type, kAccumulatorLayouts>(
        d, to, acc_stride, to, acc_stride, fx, sx, n);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_HALF_ROWS_INL_H_
