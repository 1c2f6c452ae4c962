// Per-target batch index kernels, compiled once per Highway target through
// simd/index/index_kernels.cc. Rows they do not vectorise go through the exact
// per-row helpers of lib/index_reference.h, so every target accepts, rejects
// and words errors exactly like the reference.

// clang-format off
#if defined(STRIDEKIT_SIMD_INDEX_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)  // NOLINT
// clang-format on
#ifdef STRIDEKIT_SIMD_INDEX_KERNELS_INL_H_
#undef STRIDEKIT_SIMD_INDEX_KERNELS_INL_H_
#else
#define STRIDEKIT_SIMD_INDEX_KERNELS_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include <algorithm>

#include "hwy/highway.h"
#include "index_reference.h"
#include "stridekit/c_types.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Upper bound of Lanes(d) for int64 on every target.
inline constexpr size_t kMaxInt64Lanes = HWY_MAX_BYTES / sizeof(int64_t);

// ---------------------------------------------------------------- RavelBatch

// The vector ravel needs 64-bit lane adds and a signed 32 x 32 -> 64-bit
// multiply (MulEven). SSSE3 has neither a signed widening multiply (Highway
// spills it to scalar code) nor 64-bit compares, and SCALAR and EMU128 have
// one lane or emulate every lane: on them the vector loop cannot beat the
// reference's imul and jo, so they run it.
#if HWY_TARGET == HWY_SSSE3 || HWY_TARGET == HWY_SCALAR || \
    HWY_TARGET == HWY_EMU128
inline constexpr bool kVectorRavel = false;
#else
inline constexpr bool kVectorRavel = true;
#endif

// Whether int64 Mul is one instruction. Elsewhere (AVX2, SSE4, NEON) Highway
// builds it from three 32-bit products and shifts, slower than scalar imul,
// so rows with a stride outside int32 run the reference there.
#if (HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3) || HWY_HAVE_SCALABLE
inline constexpr bool kNativeMul64 = true;
#else
inline constexpr bool kNativeMul64 = false;
#endif

// Calls fn(axis, column) for the `ndim` columns of the N rows at `rows`
// (row-major, ndim indices each): de-interleaving loads for kRank 1 to 4,
// for any rank (kRank 0) columns assembled by scalar loads in L1, which beat
// 64-bit GatherIndex (rank 6 on Zen 5: 3.6x the reference on AVX2 against
// 0.5x with vpgatherqq).
template <int kRank, class D, class Fn>
HWY_INLINE void ForEachColumn(D d, const int64_t* HWY_RESTRICT rows,
                              int64_t ndim, Fn&& fn) {
  hn::Vec<D> c0, c1, c2, c3;
  if constexpr (kRank == 1) {
    fn(0, hn::LoadU(d, rows));
  } else if constexpr (kRank == 2) {
    hn::LoadInterleaved2(d, rows, c0, c1);
    fn(0, c0), fn(1, c1);
  } else if constexpr (kRank == 3) {
    hn::LoadInterleaved3(d, rows, c0, c1, c2);
    fn(0, c0), fn(1, c1), fn(2, c2);
  } else if constexpr (kRank == 4) {
    hn::LoadInterleaved4(d, rows, c0, c1, c2, c3);
    fn(0, c0), fn(1, c1), fn(2, c2), fn(3, c3);
  } else {
    const int64_t N = static_cast<int64_t>(hn::Lanes(d));
    HWY_ALIGN int64_t column[kMaxInt64Lanes];
    for (int64_t axis = 0; axis < ndim; ++axis) {
      for (int64_t lane = 0; lane < N; ++lane) {
        column[lane] = rows[lane * ndim + axis];
      }
      fn(axis, hn::Load(d, column));
    }
  }
}

// index * stride. kNarrow: both within int32, one signed 32 x 32 -> 64-bit
// multiply of the low halves; else Highway's int64 Mul.
template <bool kNarrow, class D, class V = hn::Vec<D>>
HWY_INLINE V MulIndex(D d, V index, V stride) {
  if constexpr (kNarrow) {
    const hn::Repartition<int32_t, D> d32;
    return hn::MulEven(hn::BitCast(d32, index), hn::BitCast(d32, stride));
  } else {
    (void)d;
    return hn::Mul(index, stride);
  }
}

// RavelBatch with vectors of N rows whose indices all lie within
// [-bound, bound], where bound <= 2^62 - 1 and is at most
// RavelUncheckedIndexBound (INT32_MAX with kNarrow), so no sum can overflow:
// index + bound and bound - index are then both non-negative, and a sign bit
// in their Or flags a row for RavelRow. So are the tail rows.
template <int kRank, bool kNarrow, class D>
void RavelLoop(D d, int64_t n, const int64_t* HWY_RESTRICT indices,
               DimsView strides, int64_t offset, int64_t bound,
               int64_t* HWY_RESTRICT out) {
  using V = hn::Vec<D>;
  const int64_t ndim = static_cast<int64_t>(strides.size());
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const V bound_v = hn::Set(d, bound);
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    V sum = hn::Set(d, offset);
    V flags = hn::Zero(d);
    ForEachColumn<kRank>(
        d, indices + i * ndim, ndim, [&](int64_t axis, V index) {
          flags = hn::Or(
              flags, hn::Or(hn::Add(index, bound_v), hn::Sub(bound_v, index)));
          sum = hn::Add(sum,
                        MulIndex<kNarrow>(d, index, hn::Set(d, strides[axis])));
        });
    if (HWY_LIKELY(hn::AllFalse(d, hn::Lt(flags, hn::Zero(d))))) {
      hn::StoreU(sum, d, out + i);
    } else {
      for (int64_t row = i; row < i + N; ++row) {
        out[row] =
            reference::RavelRow(row, indices + row * ndim, strides, offset);
      }
    }
  }
  for (; i < n; ++i) {
    out[i] = reference::RavelRow(i, indices + i * ndim, strides, offset);
  }
}

template <bool kNarrow, class D>
void RavelByRank(D d, int64_t n, const int64_t* HWY_RESTRICT indices,
                 DimsView strides, int64_t offset, int64_t bound,
                 int64_t* HWY_RESTRICT out) {
  switch (strides.size()) {
    case 1:
      return RavelLoop<1, kNarrow>(d, n, indices, strides, offset, bound, out);
    case 2:
      return RavelLoop<2, kNarrow>(d, n, indices, strides, offset, bound, out);
    case 3:
      return RavelLoop<3, kNarrow>(d, n, indices, strides, offset, bound, out);
    case 4:
      return RavelLoop<4, kNarrow>(d, n, indices, strides, offset, bound, out);
    default:
      return RavelLoop<0, kNarrow>(d, n, indices, strides, offset, bound, out);
  }
}

// See stridekit::RavelBatch. Vectors whose indices all lie within
// reference::RavelUncheckedIndexBound cannot overflow and are computed with
// wrapping vector arithmetic (32-bit products when every stride fits int32);
// other rows and the tail go through RavelRow. Rank 0, and targets or
// strides without a fast multiply (see kVectorRavel, kNativeMul64), run the
// reference.
template <class D>
void RavelBatch(D d, int64_t n, const int64_t* HWY_RESTRICT indices,
                DimsView strides, int64_t offset, int64_t* HWY_RESTRICT out) {
  const bool narrow =
      std::all_of(strides.begin(), strides.end(),
                  [](int64_t s) { return s >= INT32_MIN && s <= INT32_MAX; });
  if constexpr (kVectorRavel) {
    if (!strides.empty() && (narrow || kNativeMul64)) {
      const uint64_t bound = std::min<uint64_t>(
          reference::RavelUncheckedIndexBound(strides, offset),
          narrow ? INT32_MAX : (uint64_t{1} << 62) - 1);
      if (narrow) {
        RavelByRank<true>(d, n, indices, strides, offset,
                          static_cast<int64_t>(bound), out);
      } else {
        RavelByRank<false>(d, n, indices, strides, offset,
                           static_cast<int64_t>(bound), out);
      }
      return;
    }
  }
  (void)d;
  reference::RavelBatch(n, indices, strides, offset, out);
}

// -------------------------------------------------------------- UnravelBatch

// Integer-valued doubles in [0, 2^52) and int64 in [0, 2^52) convert through
// the bits of 2^52, avoiding the emulated int64 <-> double conversions of
// targets before AVX-512.
inline constexpr int64_t kTwoPow52Bits = 0x4330000000000000;
inline constexpr double kTwoPow52 = 4503599627370496.0;

template <class DF, class VI>
HWY_INLINE hn::Vec<DF> SmallIntToDouble(DF df, VI v) {
  const hn::RebindToSigned<DF> di;
  return hn::Sub(hn::BitCast(df, hn::Or(v, hn::Set(di, kTwoPow52Bits))),
                 hn::Set(df, kTwoPow52));
}

template <class DF, class VF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> SmallDoubleToInt(DF df, VF v) {
  const hn::RebindToSigned<DF> di;
  return hn::Xor(hn::BitCast(di, hn::Add(v, hn::Set(df, kTwoPow52))),
                 hn::Set(di, kTwoPow52Bits));
}

// Sets `quotient` = floor(dividend / divisor) and `remainder` = dividend -
// quotient * divisor, for integer-valued 0 <= dividend < 2^51, integer
// divisor >= 1 and `reciprocal` = fl(1 / divisor). With dividend = q * divisor
// + r, x = (dividend + 0.5) / divisor lies at least 0.5 / divisor inside
// (q, q + 1). The rounded product (dividend + 0.5) * reciprocal has a relative
// error of at most 2^-52 + 2^-106, an absolute error below 0.5 / divisor while
// dividend + 0.5 < 2^51 * (1 - 2^-54), so it truncates to q exactly. The
// remainder is exact with or without FMA: q * divisor <= dividend < 2^51.
template <class DF, class VF>
HWY_INLINE void DivideSmall(DF df, VF dividend, VF divisor, VF reciprocal,
                            VF& quotient, VF& remainder) {
  quotient =
      hn::Trunc(hn::Mul(hn::Add(dividend, hn::Set(df, 0.5)), reciprocal));
  remainder = hn::NegMulAdd(quotient, divisor, dividend);
}

// Divides `rest` by shape axis `axis` in place and sets `remainder`.
template <class DF, class VF>
HWY_INLINE void DivideByAxis(DF df, const double* HWY_RESTRICT divisors,
                             const double* HWY_RESTRICT reciprocals,
                             int64_t axis, VF& rest, VF& remainder) {
  DivideSmall(df, rest, hn::Set(df, divisors[axis]),
              hn::Set(df, reciprocals[axis]), rest, remainder);
}

// Writes the multi-indices of the N flat indices `flat` (each in
// [0, numel), numel <= 2^51) to out[0, N * ndim). kRank is the rank for
// ranks 1 to 4 (interleaved stores), 0 for any rank (scatter).
template <int kRank, class D>
HWY_INLINE void UnravelVector(D d, hn::Vec<D> flat, int64_t ndim,
                              const double* HWY_RESTRICT divisors,
                              const double* HWY_RESTRICT reciprocals,
                              int64_t* HWY_RESTRICT out) {
  const hn::Rebind<double, D> df;
  using VF = hn::Vec<decltype(df)>;
  VF rest = SmallIntToDouble(df, flat);
  VF r1, r2, r3;
  if constexpr (kRank == 1) {
    hn::StoreU(flat, d, out);
  } else if constexpr (kRank == 2) {
    DivideByAxis(df, divisors, reciprocals, 1, rest, r1);
    hn::StoreInterleaved2(SmallDoubleToInt(df, rest), SmallDoubleToInt(df, r1),
                          d, out);
  } else if constexpr (kRank == 3) {
    DivideByAxis(df, divisors, reciprocals, 2, rest, r2);
    DivideByAxis(df, divisors, reciprocals, 1, rest, r1);
    hn::StoreInterleaved3(SmallDoubleToInt(df, rest), SmallDoubleToInt(df, r1),
                          SmallDoubleToInt(df, r2), d, out);
  } else if constexpr (kRank == 4) {
    DivideByAxis(df, divisors, reciprocals, 3, rest, r3);
    DivideByAxis(df, divisors, reciprocals, 2, rest, r2);
    DivideByAxis(df, divisors, reciprocals, 1, rest, r1);
    hn::StoreInterleaved4(SmallDoubleToInt(df, rest), SmallDoubleToInt(df, r1),
                          SmallDoubleToInt(df, r2), SmallDoubleToInt(df, r3), d,
                          out);
  } else {
    const auto row_starts = hn::Mul(hn::Iota(d, 0), hn::Set(d, ndim));
    for (int64_t axis = ndim - 1; axis > 0; --axis) {
      DivideByAxis(df, divisors, reciprocals, axis, rest, r1);
      hn::ScatterIndex(SmallDoubleToInt(df, r1), d, out + axis, row_starts);
    }
    hn::ScatterIndex(SmallDoubleToInt(df, rest), d, out, row_starts);
  }
}

// Unravels the N flat indices at `flat`, of which the first `rows` are rows
// first_row, ... of the batch and the others valid padding. When some index
// is out of range, UnravelRow reports the first one.
template <int kRank, class D>
HWY_INLINE void UnravelBlock(D d, const int64_t* HWY_RESTRICT flat,
                             int64_t first_row, int64_t rows, DimsView shape,
                             int64_t numel, const double* HWY_RESTRICT divisors,
                             const double* HWY_RESTRICT reciprocals,
                             int64_t* HWY_RESTRICT out) {
  const auto k = hn::LoadU(d, flat);
  const auto out_of_range =
      hn::Or(hn::Lt(k, hn::Zero(d)), hn::Gt(k, hn::Set(d, numel - 1)));
  if (HWY_UNLIKELY(!hn::AllFalse(d, out_of_range))) {
    const int64_t ndim = static_cast<int64_t>(shape.size());
    for (int64_t row = 0; row < rows; ++row) {
      reference::UnravelRow(first_row + row, flat[row], shape, numel,
                            out + row * ndim);
    }
    return;
  }
  UnravelVector<kRank>(d, k, static_cast<int64_t>(shape.size()), divisors,
                       reciprocals, out);
}

// Plain stores, also at DRAM sizes: rank 4 over 1e7 indices (320 MB out) ran
// at 1.5-1.7 ns per index, 0.82-0.86x of a same-run memcpy of the same bytes
// (CPU time, Zen 5), and 2.35 ns with non-temporal stores of whole lines
// through an L1 buffer; a plain fill was as fast as a streamed one there.
template <int kRank, class D>
void UnravelLoop(D d, int64_t n, const int64_t* HWY_RESTRICT flat,
                 DimsView shape, int64_t numel, int64_t* HWY_RESTRICT out) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  double divisors[SK_MAX_NDIM];
  double reciprocals[SK_MAX_NDIM];
  for (int64_t axis = 0; axis < ndim; ++axis) {
    divisors[axis] = static_cast<double>(shape[axis]);
    reciprocals[axis] = 1.0 / divisors[axis];
  }
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    UnravelBlock<kRank>(d, flat + i, i, N, shape, numel, divisors, reciprocals,
                        out + i * ndim);
  }
  if (i == n) return;
  // The tail runs as one padded vector: flat index 0 is always valid here.
  HWY_ALIGN int64_t tail_flat[kMaxInt64Lanes] = {};
  HWY_ALIGN int64_t tail_out[kMaxInt64Lanes * SK_MAX_NDIM];
  std::copy(flat + i, flat + n, tail_flat);
  UnravelBlock<kRank>(d, tail_flat, i, n - i, shape, numel, divisors,
                      reciprocals, tail_out);
  std::copy(tail_out, tail_out + (n - i) * ndim, out + i * ndim);
}

// See stridekit::UnravelBatch; `numel` is the element count of `shape`.
// Shapes of rank 0 or with more than reference::kMaxReciprocalNumel elements
// run the exact scalar rows.
template <class D>
void UnravelBatch(D d, int64_t n, const int64_t* HWY_RESTRICT flat,
                  DimsView shape, int64_t numel, int64_t* HWY_RESTRICT out) {
  if (shape.empty() || numel > reference::kMaxReciprocalNumel) {
    reference::UnravelBatch(n, flat, shape, numel, out);
    return;
  }
  switch (shape.size()) {
    case 1:
      return UnravelLoop<1>(d, n, flat, shape, numel, out);
    case 2:
      return UnravelLoop<2>(d, n, flat, shape, numel, out);
    case 3:
      return UnravelLoop<3>(d, n, flat, shape, numel, out);
    case 4:
      return UnravelLoop<4>(d, n, flat, shape, numel, out);
    default:
      return UnravelLoop<0>(d, n, flat, shape, numel, out);
  }
}

// --------------------------------------------------------------- ViewOffsets

// out[0, count) = value.
template <class D>
HWY_INLINE void FillRun(D d, int64_t value, int64_t count,
                        int64_t* HWY_RESTRICT out) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto v = hn::Set(d, value);
  int64_t j = 0;
  for (; j + N <= count; j += N) hn::StoreU(v, d, out + j);
  for (; j < count; ++j) out[j] = value;
}

// out[j] = first + j * stride modulo 2^64 for j in [0, count): exact when
// every such offset fits in int64. One code path serves contiguous (1),
// broadcast (0), reversed and general strides.
template <class D>
HWY_INLINE void OffsetRun(D d, uint64_t first, int64_t stride, int64_t count,
                          int64_t* HWY_RESTRICT out) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto stride_v = hn::Set(d, stride);
  const auto step = hn::Mul(stride_v, hn::Set(d, N));
  auto offsets = hn::Add(hn::Set(d, static_cast<int64_t>(first)),
                         hn::Mul(hn::Iota(d, 0), stride_v));
  int64_t j = 0;
  for (; j + N <= count; j += N) {
    hn::StoreU(offsets, d, out + j);
    offsets = hn::Add(offsets, step);
  }
  for (; j < count; ++j) {
    out[j] = static_cast<int64_t>(first + static_cast<uint64_t>(j) *
                                              static_cast<uint64_t>(stride));
  }
}

// See stridekit::ViewOffsets; `plan` is CoalesceAxes of a view that passed
// CheckStridedLayout and [begin, begin + count) lies within it. Divides once
// to find the start, then walks the outer axes with a counter and carry and
// writes each inner-axis run with vectors.
template <class D>
void ViewOffsets(D d, const sk_view& plan, int64_t begin, int64_t count,
                 int64_t* HWY_RESTRICT out) {
  if (count == 0) return;
  if (plan.ndim == 0) {
    out[0] = plan.offset;
    return;
  }
  const int inner = plan.ndim - 1;
  const int64_t inner_size = plan.shape[inner];
  const int64_t inner_stride = plan.strides[inner];
  int64_t index[SK_MAX_NDIM];
  int64_t rest = begin;
  for (int axis = inner; axis >= 0; --axis) {
    index[axis] = rest % plan.shape[axis];
    rest /= plan.shape[axis];
  }
  // Offset of the current run's first element with its inner index at 0.
  uint64_t base = static_cast<uint64_t>(plan.offset);
  for (int axis = 0; axis < inner; ++axis) {
    base += static_cast<uint64_t>(index[axis]) *
            static_cast<uint64_t>(plan.strides[axis]);
  }
  int64_t j = index[inner];
  for (;;) {
    const int64_t run_end = std::min(inner_size, j + count);
    bool outer_valid = true;
    for (int axis = 0; axis < inner && plan.has_mask; ++axis) {
      outer_valid &= index[axis] >= plan.mask_begin[axis] &&
                     index[axis] < plan.mask_end[axis];
    }
    // Valid inner positions of the run: [valid_begin, valid_end).
    const int64_t valid_begin =
        outer_valid ? std::clamp(plan.mask_begin[inner], j, run_end) : run_end;
    const int64_t valid_end =
        outer_valid ? std::clamp(plan.mask_end[inner], valid_begin, run_end)
                    : run_end;
    FillRun(d, reference::kMaskedOffset, valid_begin - j, out);
    OffsetRun(d,
              base + static_cast<uint64_t>(valid_begin) *
                         static_cast<uint64_t>(inner_stride),
              inner_stride, valid_end - valid_begin, out + (valid_begin - j));
    FillRun(d, reference::kMaskedOffset, run_end - valid_end,
            out + (valid_end - j));
    out += run_end - j;
    count -= run_end - j;
    if (count == 0) return;
    j = 0;
    for (int axis = inner - 1; axis >= 0; --axis) {
      const uint64_t stride = static_cast<uint64_t>(plan.strides[axis]);
      if (++index[axis] < plan.shape[axis]) {
        base += stride;
        break;
      }
      index[axis] = 0;
      base -= static_cast<uint64_t>(plan.shape[axis] - 1) * stride;
    }
  }
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_INDEX_KERNELS_INL_H_
