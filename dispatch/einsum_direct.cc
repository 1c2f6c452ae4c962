// Einsum's direct plan: a small contraction (fewer product-space positions
// and shorter sums than the engine's products take) with no masks
// and out a permutation of its loops is resolved once into one loop nest
// over the product space, the engine's loop-nest order (loops by
// decreasing total |stride|, sums in order from zero), which executing
// runs straight into out: no terms, no temporaries, no copy. An operand
// sharing memory with out takes the engine's path (einsum.cc).
#include "dispatch/einsum_direct.h"

#include <cstring>

#include "dispatch/plan_state.h"
#include "numeric_types.h"
#include "scalar_ops.h"
#include "simd/contraction_task.h"
#include "strided_layout.h"

namespace stridekit::dispatch {
namespace {

// The engine's bounds for its loop nests (einsum.cc kMinGemmWork,
// kMinDotLength): products of fewer positions, sums shorter than this.
constexpr int64_t kMaxDirectWork = 4096;
constexpr int64_t kMaxDirectSum = 63;

// True when the result map is a permutation of distinct loops (or index 0
// of a length-1 axis): out is then written once per result position.
bool ResultIsPermutation(const Projections& p) {
  const AxisMap& map = p.result_map;
  for (size_t a = 0; a < map.size(); ++a) {
    if (map[a].kind != AxisIndex::Kind::kIterator) {
      if (map[a].kind != AxisIndex::Kind::kFixed || p.result_shape[a] != 1) {
        return false;
      }
      continue;
    }
    for (size_t b = 0; b < a; ++b) {
      if (map[b] == map[a]) return false;
    }
  }
  return true;
}

// Adds view v's strides under `map` to row `strides` (a repeated loop, a
// diagonal, sums its strides) and its fixed indices to `offset`; false for
// an index kind the nest does not take.
bool AddTerm(const sk_view& v, const AxisMap& map, int64_t* strides,
             int64_t& offset) {
  offset = v.offset;
  for (size_t a = 0; a < map.size(); ++a) {
    if (map[a].kind == AxisIndex::Kind::kFixed) {
      // offset-checked: a fixed index is within its axis (checked view)
      offset += map[a].value * v.strides[a];
    } else if (map[a].kind == AxisIndex::Kind::kIterator) {
      // offset-checked: the sum is an offset the view reaches
      strides[map[a].value] += v.strides[a];
    } else {
      return false;
    }
  }
  return true;
}

// The nest over K terms of storage type T.
template <typename T, int K>
void RunNest(const DirectEinsum& d, const void* const* inputs, void* out) {
  T* z = static_cast<T*>(out);
  const int n = d.loops;
  // Zero every out position (the result loops; the others stride 0 in z).
  {
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
  const T* in[K];
  for (int t = 0; t < K; ++t) in[t] = static_cast<const T*>(inputs[t]);
  int64_t at[K + 1];
  int64_t step[K + 1];
  for (int t = 0; t <= K; ++t) {
    at[t] = d.offsets[t];
    step[t] = n > 0 ? d.strides[t][n - 1] : 0;
  }
  const int64_t inner = n > 0 ? d.sizes[n - 1] : 1;
  int64_t counter[kMaxRank] = {};
  for (;;) {
    T* cell = z + at[0];
    const T* row[K];
    for (int t = 0; t < K; ++t) row[t] = in[t] + at[t + 1];
    for (int64_t j = 0; j < inner; ++j) {
      // The first K - 1 factors' product joins the sum with the last
      // factor by the multiply-add rule (contraction_task.h).
      T product = T(1);
      for (int t = 0; t + 1 < K; ++t) {
        product = scalar_ops::Mul(product, row[t][j * step[t + 1]]);
      }
      T& c = cell[j * step[0]];
      c = scalar_ops::MulAdd(product, row[K - 1][j * step[K]], c);
    }
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

}  // namespace

void ResolveDirectEinsum(PlanState& s) {
  s.direct_einsum.reset();
  const Projections& p = *s.projections;
  const int terms = int(s.operands.size());
  const int loops = int(p.product_space.size());
  if (s.ex->IsReference() || s.out->has_mask || terms < 1 ||
      terms > kMaxDirectTerms || loops > kMaxRank || !ResultIsPermutation(p)) {
    return;
  }
  // The work bound also keeps every sum within one block.
  int64_t work = 1;
  for (int64_t size : p.product_space) {
    if (size >= kMaxDirectWork || (work *= size) >= kMaxDirectWork) return;
  }
  if (work == 0) return;  // The engine zero-fills out.
  int64_t sum = 1;
  bool in_result[kMaxRank] = {};
  for (const AxisIndex& index : p.result_map) {
    if (index.kind == AxisIndex::Kind::kIterator) {
      in_result[index.value] = true;
    }
  }
  for (int l = 0; l < loops; ++l) {
    if (!in_result[l]) sum *= p.product_space[size_t(l)];
  }
  if (sum > kMaxDirectSum) return;
  for (const sk_view& v : s.operands) {
    if (v.has_mask) return;
  }
  DirectEinsum d{};
  d.terms = terms;
  // Strides per product-space loop: out's (0 on summed loops), the terms'.
  int64_t strides[kMaxDirectTerms + 1][kMaxRank] = {};
  for (size_t a = 0; a < p.result_map.size(); ++a) {
    if (p.result_map[a].kind == AxisIndex::Kind::kIterator) {
      strides[0][p.result_map[a].value] = s.out->strides[a];
    }
  }
  d.offsets[0] = s.out->offset;
  for (int t = 0; t < terms; ++t) {
    if (!AddTerm(s.operands[size_t(t)], p.operand_maps[size_t(t)],
                 strides[t + 1], d.offsets[t + 1])) {
      return;
    }
  }
  // The engine's nest order: loops longer than 1 by decreasing total
  // |stride|, ties in loop order.
  int order[kMaxRank];
  int n = 0;
  for (int l = 0; l < loops; ++l) {
    if (p.product_space[size_t(l)] > 1) order[n++] = l;
  }
  __int128 weight[kMaxRank] = {};
  for (int i = 0; i < n; ++i) {
    for (int t = 0; t <= terms; ++t) {
      const int64_t stride = strides[t][order[i]];
      weight[order[i]] += stride < 0 ? -__int128(stride) : stride;
    }
  }
  // Stable insertion sort (std::stable_sort may allocate).
  for (int i = 1; i < n; ++i) {
    const int loop = order[i];
    int j = i;
    for (; j > 0 && weight[order[j - 1]] < weight[loop]; --j) {
      order[j] = order[j - 1];
    }
    order[j] = loop;
  }
  d.loops = n;
  for (int i = 0; i < n; ++i) {
    d.sizes[i] = p.product_space[size_t(order[i])];
    for (int t = 0; t <= terms; ++t) d.strides[t][i] = strides[t][order[i]];
  }
  // Byte extents, for the overlap test of execution.
  const int64_t es = int64_t(DTypeSize(s.dtype));
  for (int t = 0; t <= terms; ++t) {
    const OffsetSpan span =
        ValidSpan(t == 0 ? *s.out : s.operands[size_t(t - 1)]);
    // offset-checked: the views' byte offsets were checked
    d.lo[t] = span.lo * es;
    d.hi[t] = span.hi * es;
  }
  s.direct_einsum = d;
}

bool RunDirectEinsum(const PlanState& s, const void* const* inputs, void* out) {
  if (!s.direct_einsum) return false;
  const DirectEinsum& d = *s.direct_einsum;
  const auto* to = static_cast<const unsigned char*>(out);
  for (int t = 0; t < d.terms; ++t) {
    const auto* from = static_cast<const unsigned char*>(inputs[t]);
    if (from + d.lo[t + 1] < to + d.hi[0] &&
        to + d.lo[0] < from + d.hi[t + 1]) {
      return false;  // Shares memory with out: the engine copies it first.
    }
  }
  VisitType(EinsumTypes{}, s.dtype,
            [&](auto zero) { RunNestOf<decltype(zero)>(d, inputs, out); });
  NoteKernelRan(s.ex->hwy_target);
  return true;
}

}  // namespace stridekit::dispatch
