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
#include "simd/contraction/contraction_task.h"
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
  for (int a = 0; a < map.size(); ++a) {
    if (map[a].kind != AxisIndex::Kind::kIterator) {
      if (map[a].kind != AxisIndex::Kind::kFixed || p.result_shape[a] != 1) {
        return false;
      }
      continue;
    }
    for (int b = 0; b < a; ++b) {
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
  for (int a = 0; a < map.size(); ++a) {
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
  // Built in place; reset again where the nest does not apply.
  DirectEinsum& d = s.direct_einsum.emplace();
  d.terms = terms;
  // Strides per product-space loop: out's (0 on summed loops), the terms'.
  int64_t strides[kMaxDirectTerms + 1][kMaxRank];
  for (int t = 0; t <= terms; ++t) {
    for (int l = 0; l < loops; ++l) strides[t][l] = 0;
  }
  for (int a = 0; a < p.result_map.size(); ++a) {
    if (p.result_map[a].kind == AxisIndex::Kind::kIterator) {
      strides[0][p.result_map[a].value] = s.out->strides[a];
    }
  }
  d.offsets[0] = s.out->offset;
  for (int t = 0; t < terms; ++t) {
    if (!AddTerm(s.operands[size_t(t)], p.operand_maps[size_t(t)],
                 strides[t + 1], d.offsets[t + 1])) {
      s.direct_einsum.reset();
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
  __int128 weight[kMaxRank];
  for (int l = 0; l < loops; ++l) weight[l] = 0;
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
  EinsumByteExtents(s, d.lo, d.hi);
  int64_t out_count = 1;  // Below kMaxDirectWork: no overflow.
  for (int i = 0; i < n; ++i)
    out_count *= d.strides[0][i] != 0 ? d.sizes[i] : 1;
  d.out_dense = d.hi[0] - d.lo[0] == out_count * int64_t(DTypeSize(s.dtype));
}

void EinsumByteExtents(const PlanState& s, int64_t* lo, int64_t* hi) {
  const int64_t es = int64_t(DTypeSize(s.dtype));
  for (size_t t = 0; t <= s.operands.size(); ++t) {
    const OffsetSpan span = ValidSpan(t == 0 ? *s.out : s.operands[t - 1]);
    // offset-checked: the views' byte offsets were checked
    lo[t] = span.lo * es;
    hi[t] = span.hi * es;
  }
}

bool RunDirectEinsum(const PlanState& s, const void* const* inputs, void* out) {
  if (!s.direct_einsum) return false;
  const DirectEinsum& d = *s.direct_einsum;
  for (int t = 0; t < d.terms; ++t) {
    // Shares memory with out: the engine copies it first.
    if (SharesBytes(inputs[t], out, d.lo, d.hi, t + 1)) return false;
  }
  NoteKernelRan(s.ex->kernels.einsum_nest(d, s.dtype, inputs, out));
  return true;
}

}  // namespace stridekit::dispatch
