// Per-target kernels along one axis (simd/scan/scan_task.h): scans and arg
// reductions. Each plan position is a lane; the axis is walked in order, so
// every lane's result is computed exactly as the sequential definition
// (NumPy's order) on any target and with any thread count.
// - Across: when the lanes are nearer in memory than the axis steps (the
//   axis is an outer one), blocks of kAxisBlock lanes advance one axis step
//   at a time: a scan step is an elementwise row (numeric-inl.h's row
//   kernels: out_k = op(out_{k-1}, in_k)), an arg step compares a row with
//   the running best values and indices (vectors across the lanes).
// - Along: otherwise each lane's row along the axis is walked by itself:
//   scans as scalar recurrences, four lanes interleaved; arg reductions
//   by vectors of running best values and indices within the row, then the
//   lanes folded (the first of equal values; a NaN wins).
// Shared by the family translation units (scan_<family>.cc).

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_SCAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_SCAN_INL_H_
#undef STRIDEKIT_SIMD_SCAN_INL_H_
#else
#define STRIDEKIT_SIMD_SCAN_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/common/complex_rows-inl.h"
#include "simd/common/half_rows-inl.h"
#include "simd/common/numeric-inl.h"
#include "simd/kernel_dtype.h"
#include "simd/scan/scan_task.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// Lanes per block of the across walks (rows of a block stay in L1).
inline constexpr size_t kAxisBlock = 1024;

// True when the walk goes across the lanes: more than one lane, nearer in
// memory than the axis steps.
inline bool WalkAcross(size_t count, int64_t lane_stride, int64_t step) {
  const auto abs = [](int64_t x) { return x < 0 ? -x : x; };
  return count > 1 && abs(lane_stride) < abs(step);
}

// ---- Scans.

// The functors of the scan rows (ScanOp): the binary rows' ops.
using CumsumOp = AddOp;
using CumprodOp = MulOp;
using CumminOp = MinOp;
using CummaxOp = MaxOp;

// out[i] = Op(a[i], b[i]) over a row of T (strides in elements).
template <typename T, class Op>
void ScanRow(T* out, int64_t out_stride, const T* a, int64_t a_stride,
             const T* b, int64_t b_stride, size_t count) {
  if constexpr (std::is_same_v<T, Bool>) {
    const hn::ScalableTag<uint8_t> d;
    RunRow<BoolRowOp<Op>, kAccumulatorLayouts>(
        d, reinterpret_cast<uint8_t*>(out), out_stride,
        reinterpret_cast<const uint8_t*>(a), a_stride,
        reinterpret_cast<const uint8_t*>(b), b_stride, count);
  } else if constexpr (kIsHalf<T>) {
    HalfRow<Op>(out, out_stride, a, a_stride, b, b_stride, count);
  } else if constexpr (kIsComplex<T>) {
    ComplexRow<Op>(out, out_stride, a, a_stride, b, b_stride, count);
  } else {
    const hn::ScalableTag<T> d;
    RunRow<Op, kAccumulatorLayouts>(d, out, out_stride, a, a_stride, b,
                                    b_stride, count);
  }
}

template <typename T, class Op>
void RunScanFor(const AxisTask& task) {
  const IterationPlan& plan = *task.plan;
  T* const out = static_cast<T*>(task.out);
  const T* const in = static_cast<const T*>(task.in);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t os = plan.inner_stride(0), is = plan.inner_stride(1);
  const int64_t n = task.length, so = task.out_step, si = task.in_step;
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    T* o = out + chunk.offsets[0];
    const T* x = in + chunk.offsets[1];
    if (WalkAcross(count, is, si)) {
      for (size_t j0 = 0; j0 < count; j0 += kAxisBlock) {
        const size_t c = std::min(kAxisBlock, count - j0);
        T* ob = o + int64_t(j0) * os;
        const T* xb = x + int64_t(j0) * is;
        for (size_t j = 0; j < c; ++j) {
          ob[int64_t(j) * os] = scalar_ops::ScanFirst(xb[int64_t(j) * is]);
        }
        for (int64_t k = 1; k < n; ++k) {
          ScanRow<T, Op>(ob + k * so, os, ob + (k - 1) * so, os, xb + k * si,
                         is, c);
        }
      }
      continue;
    }
    // Along: four lanes' recurrences interleaved (independent chains).
    size_t j = 0;
    for (; j + 4 <= count; j += 4) {
      T* o0 = o + int64_t(j) * os;
      const T* x0 = x + int64_t(j) * is;
      T acc[4];
      for (int l = 0; l < 4; ++l) {
        acc[l] = scalar_ops::ScanFirst(x0[l * is]);
        o0[l * os] = acc[l];
      }
      for (int64_t k = 1; k < n; ++k) {
        for (int l = 0; l < 4; ++l) {
          acc[l] = Op::Scalar(acc[l], x0[l * is + k * si]);
          o0[l * os + k * so] = acc[l];
        }
      }
    }
    for (; j < count; ++j) {
      T* o0 = o + int64_t(j) * os;
      const T* x0 = x + int64_t(j) * is;
      T acc = scalar_ops::ScanFirst(x0[0]);
      o0[0] = acc;
      for (int64_t k = 1; k < n; ++k) {
        acc = Op::Scalar(acc, x0[k * si]);
        o0[k * so] = acc;
      }
    }
  }
}

template <typename T>
void RunScanForType(const AxisTask& task) {
  switch (ScanOp(task.op)) {
#define STRIDEKIT_SCAN_CASE(Name, value, name, kinds, prechecked) \
  case ScanOp::k##Name:                                           \
    if constexpr (((kinds)&kKindOf<T>) != 0 &&                    \
                  RunsOwnKernel<T>(ScanOp::k##Name)) {            \
      RunScanFor<T, Name##Op>(task);                              \
    }                                                             \
    return;
    STRIDEKIT_SCAN_OPS(STRIDEKIT_SCAN_CASE)
#undef STRIDEKIT_SCAN_CASE
  }
}

// ---- Arg reductions.

// The lane type arg reductions compare T in: float32 for float16 and
// bfloat16, bytes for bool (read as 0 or 1), T otherwise.
template <typename T>
using ArgValue =
    std::conditional_t<kIsHalf<T>, float,
                       std::conditional_t<std::is_same_v<T, Bool>, uint8_t, T>>;

// The arg rows on comparable values V (scalar_ops::ArgMin / ArgMax).
template <bool kIsMax>
struct ArgCompare {
  static constexpr bool kMax = kIsMax;
  template <typename V>
  static bool Better(V x, V best) {
    return kIsMax ? scalar_ops::ArgMax(x, best) : scalar_ops::ArgMin(x, best);
  }
  // x > best (kMax) or x < best lane by lane, NaN lanes false.
  template <class V>
  static auto Strict(V x, V best) {
    return kIsMax ? hn::Gt(x, best) : hn::Lt(x, best);
  }
  template <class D, class V>
  static auto Better(D, V x, V best) {
    const auto strict = kIsMax ? hn::Gt(x, best) : hn::Lt(x, best);
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::Or(strict, hn::AndNot(hn::IsNaN(best), hn::IsNaN(x)));
    } else {
      return strict;
    }
  }
};

// Lanes where a or b is a NaN (none for integer lanes).
template <class D, class V>
HWY_INLINE auto NaNLanes(D d, V a, V b) {
  if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
    return hn::Or(hn::IsNaN(a), hn::IsNaN(b));
  } else {
    return hn::FirstN(d, 0);
  }
}

// Stages `count` elements of a row of T (stride in elements) as values
// (bool as 0 or 1).
template <typename T>
void StageArgValues(const T* row, int64_t stride, ArgValue<T>* to,
                    size_t count) {
  if constexpr (kIsHalf<T>) {
    WidenRow(row, stride, to, count);
  } else if constexpr (std::is_same_v<T, Bool>) {
    for (size_t i = 0; i < count; ++i) {
      to[i] = uint8_t(row[int64_t(i) * stride].byte != 0);
    }
  } else {
    for (size_t i = 0; i < count; ++i) to[i] = row[int64_t(i) * stride];
  }
}

// The running best (value, index) of a row, merged with `n` contiguous
// values p[0 .. n) at indices base + i (all after those seen so far).
template <class Cmp, typename V>
void ArgRowValues(const V* p, size_t n, int64_t base, V& best,
                  int64_t& best_index, bool& have) {
  const hn::ScalableTag<V> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  using U = hn::TFromD<decltype(du)>;
  const size_t N = hn::Lanes(d);
  // Vector numbers within a block fit U.
  const size_t max_vectors = size_t(
      std::min<uint64_t>(std::numeric_limits<U>::max(), uint64_t{1} << 30));
  size_t i = 0;
  while (n - i >= 2 * N) {
    const size_t block = i;
    const size_t vectors = std::min((n - i) / N, max_vectors);
    // The hot loop compares strictly; a NaN (floats) anywhere in the block
    // sends the block to the scalar walk below instead.
    auto b0 = hn::LoadU(d, p + i);
    auto b1 = hn::LoadU(d, p + i + N);
    auto nan = NaNLanes(d, b0, b1);
    auto i0 = hn::Zero(du);
    auto i1 = hn::Set(du, U(1));
    size_t v = 2;
    for (; v + 2 <= vectors; v += 2) {
      const auto x0 = hn::LoadU(d, p + block + v * N);
      const auto x1 = hn::LoadU(d, p + block + (v + 1) * N);
      const auto m0 = Cmp::Strict(x0, b0);
      const auto m1 = Cmp::Strict(x1, b1);
      nan = hn::Or(nan, NaNLanes(d, x0, x1));
      b0 = hn::IfThenElse(m0, x0, b0);
      b1 = hn::IfThenElse(m1, x1, b1);
      i0 = hn::IfThenElse(hn::RebindMask(du, m0), hn::Set(du, U(v)), i0);
      i1 = hn::IfThenElse(hn::RebindMask(du, m1), hn::Set(du, U(v + 1)), i1);
    }
    if (v < vectors) {
      const auto x0 = hn::LoadU(d, p + block + v * N);
      const auto m0 = Cmp::Strict(x0, b0);
      nan = hn::Or(nan, NaNLanes(d, x0, x0));
      b0 = hn::IfThenElse(m0, x0, b0);
      i0 = hn::IfThenElse(hn::RebindMask(du, m0), hn::Set(du, U(v)), i0);
      ++v;
    }
    if (!hn::AllFalse(d, nan)) {
      for (i = block; i < block + v * N; ++i) {
        if (!have || Cmp::Better(p[i], best)) {
          best = p[i];
          best_index = base + int64_t(i);
          have = true;
        }
      }
      continue;
    }
    // (No NaN here.) b1's lanes into b0's (the earlier element of a lane
    // among equals), then the block's extreme value at the smallest element
    // index.
    const auto take = hn::Or(
        Cmp::Better(d, b1, b0),
        hn::AndNot(Cmp::Better(d, b0, b1), hn::RebindMask(d, hn::Lt(i1, i0))));
    b0 = hn::IfThenElse(take, b1, b0);
    i0 = hn::IfThenElse(hn::RebindMask(du, take), i1, i0);
    HWY_ALIGN V values[kLaneRoom<decltype(d)>];
    HWY_ALIGN U indices[kLaneRoom<decltype(du)>];
    hn::Store(b0, d, values);
    hn::Store(i0, du, indices);
    V extreme = values[0];
    if constexpr (sizeof(V) >= 2) {
      extreme = hn::GetLane(Cmp::kMax ? hn::MaxOfLanes(d, b0)
                                      : hn::MinOfLanes(d, b0));
    } else {
      for (size_t l = 1; l < N; ++l) {
        if (Cmp::Better(values[l], extreme)) extreme = values[l];
      }
    }
    V block_best = extreme;
    int64_t block_index = -1;
    for (size_t l = 0; l < N; ++l) {
      const bool candidate = values[l] == extreme;
      const int64_t at =
          int64_t(block) + int64_t(indices[l]) * int64_t(N) + int64_t(l);
      if (candidate && (block_index < 0 || at < block_index)) {
        block_best = values[l];
        block_index = at;
      }
    }
    if (!have || Cmp::Better(block_best, best)) {
      best = block_best;
      best_index = base + block_index;
      have = true;
    }
    i = block + v * N;
  }
  for (; i < n; ++i) {
    const V x = p[i];
    if (!have || Cmp::Better(x, best)) {
      best = x;
      best_index = base + int64_t(i);
      have = true;
    }
  }
}

template <typename T, class Cmp>
void RunArgReduceFor(const AxisTask& task) {
  using V = ArgValue<T>;
  const hn::ScalableTag<V> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  using U = hn::TFromD<decltype(du)>;
  const size_t N = hn::Lanes(d);
  const IterationPlan& plan = *task.plan;
  int64_t* const out = static_cast<int64_t*>(task.out);
  const T* const in = static_cast<const T*>(task.in);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t os = plan.inner_stride(0), is = plan.inner_stride(1);
  const int64_t n = task.length, si = task.in_step;
  HWY_ALIGN V row[kAxisBlock];
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    int64_t* o = out + chunk.offsets[0];
    const T* x = in + chunk.offsets[1];
    if (!WalkAcross(count, is, si)) {
      for (size_t j = 0; j < count; ++j) {
        const T* r = x + int64_t(j) * is;
        V best{};
        int64_t best_index = 0;
        bool have = false;
        if constexpr (std::is_same_v<V, T>) {
          if (si == 1) {
            ArgRowValues<Cmp>(r, size_t(n), 0, best, best_index, have);
            o[int64_t(j) * os] = best_index;
            continue;
          }
        }
        for (int64_t k0 = 0; k0 < n; k0 += int64_t(kAxisBlock)) {
          const size_t c = size_t(std::min(int64_t(kAxisBlock), n - k0));
          StageArgValues(r + k0 * si, si, row, c);
          ArgRowValues<Cmp>(row, c, k0, best, best_index, have);
        }
        o[int64_t(j) * os] = best_index;
      }
      continue;
    }
    // Across: per block of lanes, running best values and indices (within
    // blocks of axis steps that fit U), merged into the block's results.
    HWY_ALIGN V best[kAxisBlock], block_best[kAxisBlock];
    HWY_ALIGN U block_index[kAxisBlock];
    int64_t best_index[kAxisBlock];
    const int64_t max_steps =
        int64_t(std::min<uint64_t>(std::numeric_limits<U>::max(), 1u << 30));
    for (size_t j0 = 0; j0 < count; j0 += kAxisBlock) {
      const size_t c = std::min(kAxisBlock, count - j0);
      const T* xb = x + int64_t(j0) * is;
      for (int64_t k0 = 0; k0 < n; k0 += max_steps) {
        const int64_t k1 = std::min(n, k0 + max_steps);
        StageArgValues(xb + k0 * si, is, block_best, c);
        std::fill(block_index, block_index + c, U(0));
        for (int64_t k = k0 + 1; k < k1; ++k) {
          const V* values = row;
          if constexpr (std::is_same_v<V, T>) {
            if (is == 1) values = xb + k * si;
          }
          if (values == row) StageArgValues(xb + k * si, is, row, c);
          const auto step = hn::Set(du, U(k - k0));
          size_t j = 0;
          for (; j + N <= c; j += N) {
            const auto xv = hn::LoadU(d, values + j);
            const auto bv = hn::Load(d, block_best + j);
            const auto m = Cmp::Better(d, xv, bv);
            hn::Store(hn::IfThenElse(m, xv, bv), d, block_best + j);
            hn::Store(hn::IfThenElse(hn::RebindMask(du, m), step,
                                     hn::Load(du, block_index + j)),
                      du, block_index + j);
          }
          for (; j < c; ++j) {
            const V xv = values[j];
            if (Cmp::Better(xv, block_best[j])) {
              block_best[j] = xv;
              block_index[j] = U(k - k0);
            }
          }
        }
        for (size_t j = 0; j < c; ++j) {
          if (k0 == 0 || Cmp::Better(block_best[j], best[j])) {
            best[j] = block_best[j];
            best_index[j] = k0 + int64_t(block_index[j]);
          }
        }
      }
      int64_t* ob = o + int64_t(j0) * os;
      for (size_t j = 0; j < c; ++j) ob[int64_t(j) * os] = best_index[j];
    }
  }
}

template <typename T>
void RunArgReduceForType(const AxisTask& task) {
  if constexpr ((kKindOf<T> & kOrderedKinds) != 0) {
    if (ArgOp(task.op) == ArgOp::kArgMax) {
      RunArgReduceFor<T, ArgCompare<true>>(task);
    } else {
      RunArgReduceFor<T, ArgCompare<false>>(task);
    }
  }
}

// Runs `task` if its dtype is one of List on this target; returns
// HWY_TARGET.
template <typename List>
int64_t RunScanOf(const AxisTask& task) {
  VisitType(List{}, task.dtype,
            [&](auto zero) { RunScanForType<decltype(zero)>(task); });
  return HWY_TARGET;
}
template <typename List>
int64_t RunArgReduceOf(const AxisTask& task) {
  VisitType(List{}, task.dtype,
            [&](auto zero) { RunArgReduceForType<decltype(zero)>(task); });
  return HWY_TARGET;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_SCAN_INL_H_

// The axis kernels of dtype family F (F##Family of numeric_task.h), for
// the family's generated translation unit (simd/family_unit.cc.in): per
// target, the scan and arg-reduction executors; then, in its HWY_ONCE part,
// their tables Scan##F##Kernels and ArgReduce##F##Kernels.
#ifndef STRIDEKIT_FAMILY_EXECUTORS
#define STRIDEKIT_FAMILY_EXECUTORS(F)             \
  int64_t RunScan##F(const AxisTask& task) {      \
    return RunScanOf<F##Family>(task);            \
  }                                               \
  int64_t RunArgReduce##F(const AxisTask& task) { \
    return RunArgReduceOf<F##Family>(task);       \
  }
#define STRIDEKIT_FAMILY_TABLES(F)                            \
  STRIDEKIT_EXPORT_KERNEL_TABLE(RunScan##F, Scan##F##Kernels) \
  STRIDEKIT_EXPORT_KERNEL_TABLE(RunArgReduce##F, ArgReduce##F##Kernels)
#endif
