// Per-target kernel of simd/contraction/einsum_nest_task.h: the direct nest of
// a small einsum, each product joining its sum by this target's multiply-add
// rule (one-lane vectors: the rule's bits, at the hardware's fused multiply-add
// where the target has one).
#include <cstring>
#include <type_traits>

#include "numeric_types.h"
#include "scalar_ops.h"
#include "simd/contraction/einsum_nest_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/contraction/einsum_nest.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/common/multiply_add-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

// a * b + c by the multiply-add rule (integers wrap).
template <typename T>
HWY_INLINE T MulAddOne(T a, T b, T c) {
  if constexpr (std::is_integral_v<T>) {
    return scalar_ops::MulAdd(a, b, c);
  } else {
    const hn::CappedTag<T, 1> d1;
    return hn::GetLane(
        MulAdd(d1, hn::Set(d1, a), hn::Set(d1, b), hn::Set(d1, c)));
  }
}

// One run of a nest's innermost loop over K terms of storage type T:
// factor t of product j is row[t][j * step[t + 1]].
template <typename T, int K>
struct Run {
  const T* row[K];
  int64_t step[K + 1];
  // The product of the first K - 1 factors (rounded multiplications, left
  // to right), which joins the sum with the last one by the rule.
  T Product(int64_t j) const {
    if constexpr (K == 1) {
      return T(1);
    } else {
      T product = row[0][j * step[1]];
      for (int t = 1; t + 1 < K; ++t) {
        product = scalar_ops::Mul(product, row[t][j * step[t + 1]]);
      }
      return product;
    }
  }
  T Last(int64_t j) const { return row[K - 1][j * step[K]]; }
};

// Factor t of the run's products [j, j + Lanes(d)) on a vector run (every
// step 0 or 1).
template <class D, typename T, int K>
HWY_INLINE hn::Vec<D> FactorVec(D d, const Run<T, K>& r, int t, int64_t j) {
  return r.step[t + 1] == 0 ? hn::Set(d, r.row[t][0])
                            : hn::LoadU(d, r.row[t] + j);
}

// cell[j] += product j for j in [j0, inner) in vectors of d, while whole.
template <class D, typename T, int K>
HWY_INLINE int64_t VectorRun(D d, T* cell, const Run<T, K>& r, int64_t j,
                             int64_t inner) {
  const int64_t lanes = int64_t(hn::Lanes(d));
  for (; j + lanes <= inner; j += lanes) {
    auto product = hn::Set(d, T(1));  // As Run::Product.
    if constexpr (K > 1) {
      product = FactorVec(d, r, 0, j);
      for (int t = 1; t + 1 < K; ++t) {
        product = hn::Mul(product, FactorVec(d, r, t, j));
      }
    }
    hn::StoreU(
        MulAdd(d, product, FactorVec(d, r, K - 1, j), hn::LoadU(d, cell + j)),
        d, cell + j);
  }
  return j;
}

// How a nest's innermost loop runs (the same for every run of the nest).
enum class Inner { kVector, kSum, kStrided };

// kVector where out steps by 1 and every factor by 0 or 1, kSum where out
// stays (a sum: its element kept in a register), else kStrided.
template <typename T, int K>
Inner InnerOf(const Run<T, K>& r) {
  bool unit = r.step[0] == 1;
  for (int t = 1; t <= K; ++t) {
    unit = unit && (r.step[t] == 0 || r.step[t] == 1);
  }
  return unit ? Inner::kVector : r.step[0] == 0 ? Inner::kSum : Inner::kStrided;
}

// The run of the innermost loop into cell. Each out element takes its
// products in j order, so every form gives the bits of the plain one.
template <typename T, int K>
HWY_INLINE void RunInner(Inner kind, T* cell, const Run<T, K>& r,
                         int64_t inner) {
  if (kind == Inner::kVector) {
    int64_t j = VectorRun(hn::ScalableTag<T>(), cell, r, 0, inner);
    j = VectorRun(hn::CappedTag<T, 16 / sizeof(T)>(), cell, r, j, inner);
    for (; j < inner; ++j) {
      cell[j] = MulAddOne(r.Product(j), r.Last(j), cell[j]);
    }
  } else if (kind == Inner::kSum) {
    T sum = *cell;
    for (int64_t j = 0; j < inner; ++j) {
      sum = MulAddOne(r.Product(j), r.Last(j), sum);
    }
    *cell = sum;
  } else {
    for (int64_t j = 0; j < inner; ++j) {
      T& c = cell[j * r.step[0]];
      c = MulAddOne(r.Product(j), r.Last(j), c);
    }
  }
}

// Zeroes every out position (the result loops; the others stride 0 in z).
template <typename T>
void ZeroOut(const DirectEinsum& d, T* z) {
  if (d.out_dense) {
    // offset-checked: [lo, hi) are out's checked byte bounds
    std::memset(reinterpret_cast<char*>(z) + d.lo[0], 0,
                size_t(d.hi[0] - d.lo[0]));
    return;
  }
  const int n = d.loops;
  int64_t at = d.offsets[0];
  int64_t counter[kMaxRank] = {};
  for (;;) {
    z[at] = T(0);
    int l = n - 1;
    for (; l >= 0; --l) {
      if (d.strides[0][l] == 0) continue;
      at += d.strides[0][l];
      if (++counter[l] < d.sizes[l]) break;
      at -= counter[l] * d.strides[0][l];
      counter[l] = 0;
    }
    if (l < 0) break;
  }
}

// The nest over K terms of storage type T.
template <typename T, int K>
void RunNest(const DirectEinsum& d, const void* const* inputs, void* out) {
  T* z = static_cast<T*>(out);
  ZeroOut(d, z);
  const int n = d.loops;
  const T* in[K];
  for (int t = 0; t < K; ++t) in[t] = static_cast<const T*>(inputs[t]);
  int64_t at[K + 1];
  Run<T, K> r;
  for (int t = 0; t <= K; ++t) {
    at[t] = d.offsets[t];
    r.step[t] = n > 0 ? d.strides[t][n - 1] : 0;
  }
  const int64_t inner = n > 0 ? d.sizes[n - 1] : 1;
  const Inner kind = InnerOf(r);
  int64_t counter[kMaxRank] = {};
  for (;;) {
    for (int t = 0; t < K; ++t) r.row[t] = in[t] + at[t + 1];
    RunInner(kind, z + at[0], r, inner);
    int l = n - 2;
    for (; l >= 0; --l) {
      for (int t = 0; t <= K; ++t) at[t] += d.strides[t][l];
      if (++counter[l] < d.sizes[l]) break;
      for (int t = 0; t <= K; ++t) at[t] -= counter[l] * d.strides[t][l];
      counter[l] = 0;
    }
    if (l < 0) return;
  }
}

template <typename T>
void RunNestOf(const DirectEinsum& d, const void* const* inputs, void* out) {
  static_assert(kMaxDirectTerms == 4);
  switch (d.terms) {
    case 1:
      return RunNest<T, 1>(d, inputs, out);
    case 2:
      return RunNest<T, 2>(d, inputs, out);
    case 3:
      return RunNest<T, 3>(d, inputs, out);
    default:
      return RunNest<T, 4>(d, inputs, out);
  }
}

int64_t EinsumNestKernel(const DirectEinsum& d, DType dtype,
                         const void* const* inputs, void* out) {
  VisitType(EinsumTypes{}, dtype,
            [&](auto zero) { RunNestOf<decltype(zero)>(d, inputs, out); });
  return HWY_TARGET;
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(EinsumNestKernel, EinsumNestKernels)
#endif  // HWY_ONCE
