// The kernel function einsum (stridekit/einsum.h): its plan, one-shot calls
// and Plan value, and its engine. Each operand becomes a term:
// its element offsets along the product-space loops it uses (diagonals sum
// strides, fixed indices become offsets). Loops used by one term only and
// absent from the result are summed away first (a product with ones).
// Three or more terms are contracted pairwise in opt_einsum's greedy order
// (smallest intermediate first) unless one loop nest over the whole
// product space costs less. A pair is a batch of matrix products
// (simd/contraction/contraction_task.h: packed, cache-blocked, Highway) into a
// contiguous intermediate; tiny products per batch position run a loop
// nest instead. Sums of more than kSumBlock products always run on the
// target (pairwise over blocks, simd/contraction/contraction_task.h); loop
// nests sum at most one block in order. The last term is copied into out
// through its strides. Products run on the call's threads
// (dispatch/gemm_parts.h, split over batch, m or n); loop nests split over the
// outermost loop of their result, so no sum is ever split.
#include "stridekit/einsum.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

#include "allocation.h"
#include "dispatch/einsum_direct.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/gemm_parts.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "numeric_checks.h"
#include "reference_kernels.h"
#include "scalar_ops.h"
#include "simd/contraction/contraction_task.h"
#include "strided_layout.h"
#include "stridekit/checked.h"
#include "stridekit/copy.h"
#include "stridekit/error.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

constexpr const char* kOp = "einsum";

// Matrix products smaller than this many multiply-adds per batch position
// run in the loop nest (packing would cost more than it saves).
constexpr int64_t kMinGemmWork = 4096;
// A single dot product at least this long runs on the target.
constexpr int64_t kMinDotLength = 64;
// Loop nests below this many term reads per part run on fewer parts.
constexpr int64_t kMinLoopNestWorkPerPart = int64_t{1} << 15;

// A list of loop numbers (distinct, or two such lists joined: at most
// 2 kMaxRank), kept on the stack: one contraction builds dozens of them.
class Loops {
 public:
  Loops() = default;
  size_t size() const { return size_t(size_); }
  bool empty() const { return size_ == 0; }
  int* begin() { return loops_; }
  int* end() { return loops_ + size_; }
  const int* begin() const { return loops_; }
  const int* end() const { return loops_ + size_; }
  int& operator[](size_t i) { return loops_[i]; }
  int operator[](size_t i) const { return loops_[i]; }
  void push_back(int loop) {
    if (size_ == kCapacity) {
      Fail(ErrorKind::kInvalidArgument, kOp, ": more than ", kCapacity,
           " loops");
    }
    loops_[size_++] = loop;
  }
  void append(const Loops& more) {
    for (int loop : more) push_back(loop);
  }

 private:
  static constexpr int kCapacity = 2 * kMaxRank;
  int loops_[kCapacity];
  int size_ = 0;
};

// Sorts `loops` stably by `before` (an insertion sort: the lists are short,
// and std::stable_sort takes a heap buffer).
template <class Before>
void StableSort(Loops& loops, const Before& before) {
  for (size_t i = 1; i < loops.size(); ++i) {
    const int loop = loops[i];
    size_t j = i;
    for (; j > 0 && before(loop, loops[j - 1]); --j) loops[j] = loops[j - 1];
    loops[j] = loop;
  }
}

// An operand over the product space: element (at the loops' indices) is
// base[offset + sum strides[i] * index[loops[i]]].
struct Term {
  const unsigned char* base;
  int64_t offset;
  Loops loops;  // distinct loop numbers
  Dims strides;
  Buffer owned;                       // set for intermediates
  unsigned char* writable = nullptr;  // base, for intermediates and out
  bool in_out = false;                // the result, already in out

  bool Has(int loop) const {
    return std::find(loops.begin(), loops.end(), loop) != loops.end();
  }
  int64_t StrideOf(int loop) const {
    for (size_t i = 0; i < loops.size(); ++i) {
      if (loops[i] == loop) return strides[i];
    }
    return 0;
  }
};

// A contraction planned without data (PrepareEinsumProduct): the engine's
// decisions are taken on terms whose bases are the tags below, and the one
// matrix product into out is recorded instead of run; any other step that
// would touch data (a temporary, a loop nest, a copy) marks it failed.
struct ProductRecording {
  const unsigned char* tags;  // Bases: operand 0, operand 1, out.
  dispatch::PreparedProduct* product;
  bool recorded = false;
  bool failed = false;
};

struct Contraction {
  DType dtype;
  size_t elem_size;
  Dims sizes;                    // product-space loop extents
  Loops result;                  // distinct result loops of extent other than 1
  const dispatch::Executor* ex;  // the call's executor
  const unsigned char* one;      // the dtype's 1
  int threads;                   // at least 1
  ProductRecording* recording = nullptr;  // Planning without data.

  // True (and the recording failed) when planning without data.
  bool Unrecordable() const {
    if (recording != nullptr) recording->failed = true;
    return recording != nullptr;
  }
};

// The term of a view under `map`; loops of extent 1 are dropped.
Term TermOf(const Contraction& c, const sk_view& v, const void* data,
            const AxisMap& map) {
  Term t{static_cast<const unsigned char*>(data), v.offset, {}, {}, nullptr};
  for (int a = 0; a < map.size(); ++a) {
    const int64_t stride = v.strides[a];
    if (map[a].kind == AxisIndex::Kind::kFixed) {
      t.offset =
          CheckedAdd(t.offset, CheckedMul(map[a].value, stride, kOp), kOp);
      continue;
    }
    const int loop = int(map[a].value);
    if (c.sizes[size_t(loop)] == 1) continue;
    auto at = std::find(t.loops.begin(), t.loops.end(), loop);
    if (at == t.loops.end()) {
      t.loops.push_back(loop);
      t.strides.push_back(stride);
    } else {
      int64_t& s = t.strides[size_t(at - t.loops.begin())];
      s = CheckedAdd(s, stride, kOp);
    }
  }
  return t;
}

// A view of `t` over `loops` (t's stride, or 0 where t lacks a loop).
sk_view ViewOf(const Contraction& c, const Term& t, const Loops& loops) {
  sk_view v{};
  v.ndim = int32_t(loops.size());
  v.offset = t.offset;
  for (size_t i = 0; i < loops.size(); ++i) {
    v.shape[i] = c.sizes[size_t(loops[i])];
    v.strides[i] = t.StrideOf(loops[i]);
  }
  return v;
}

int64_t SizeOf(const Contraction& c, const Loops& loops) {
  int64_t n = 1;
  for (int l : loops) n = CheckedMul(n, c.sizes[size_t(l)], kOp);
  return n;
}

// A new C-contiguous term over `loops`, zero-filled when `zeroed`.
Term NewTerm(const Contraction& c, const Loops& loops, bool zeroed) {
  Term t{nullptr, 0, loops, Dims(loops.size(), 0), nullptr};
  int64_t stride = 1;
  for (size_t i = loops.size(); i-- > 0;) {
    t.strides[i] = stride;
    stride = CheckedMul(stride, c.sizes[size_t(loops[i])], kOp);
  }
  const int64_t bytes = CheckedMul(stride, int64_t(c.elem_size), kOp);
  if (c.Unrecordable()) return t;
  t.owned = AllocateBuffer(bytes, kOp);
  if (zeroed) std::fill_n(t.owned.get(), size_t(bytes), 0);
  t.base = t.writable = t.owned.get();
  return t;
}

// Loops of terms[self] that another term or the result also uses (the
// loops it keeps; the others are summed away first).
Loops SharedLoops(const Contraction& c, const std::vector<Term>& terms,
                  size_t self) {
  Loops shared;
  for (int l : terms[self].loops) {
    bool used =
        std::find(c.result.begin(), c.result.end(), l) != c.result.end();
    for (size_t j = 0; j < terms.size() && !used; ++j) {
      used = j != self && terms[j].Has(l);
    }
    if (used) shared.push_back(l);
  }
  return shared;
}

// A loop nest over the product space: out[z loops] += prod of the terms.
// Loops are ordered outermost first (the innermost has the smallest total
// |stride|); strides[t][i] is term t's stride along loop i (term 0 is z).
struct LoopNest {
  std::vector<const Term*> all;  // z, then the terms
  Dims sizes;
  std::vector<Dims> strides;
  int split = -1;  // the outermost loop of z longer than 1, if any
};

LoopNest PlanLoopNest(const Contraction& c,
                      const std::vector<const Term*>& terms, const Term& z,
                      Loops loops) {
  LoopNest nest;
  nest.all = {&z};
  nest.all.insert(nest.all.end(), terms.begin(), terms.end());
  auto weight = [&](int l) {
    __int128 w = 0;
    for (const Term* t : nest.all) {
      const int64_t s = t->StrideOf(l);
      w += s < 0 ? -__int128(s) : s;
    }
    return w;
  };
  StableSort(loops, [&](int a, int b) { return weight(a) > weight(b); });
  const size_t n = loops.size();
  nest.strides.assign(nest.all.size(), Dims(n, 0));
  for (size_t t = 0; t < nest.all.size(); ++t) {
    for (size_t i = 0; i < n; ++i) {
      nest.strides[t][i] = nest.all[t]->StrideOf(loops[i]);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    nest.sizes.push_back(c.sizes[size_t(loops[i])]);
    if (nest.split < 0 && z.Has(loops[i]) && nest.sizes[i] > 1) {
      nest.split = int(i);
    }
  }
  return nest;
}

// The nest with its split loop restricted to [begin, end) (the whole nest
// when it has no split loop). Distinct split indices write distinct
// elements of z (a new C-contiguous term), so ranges may run concurrently.
template <typename T>
void RunLoopNestRange(const LoopNest& nest, int64_t begin, int64_t end) {
  const std::vector<const Term*>& all = nest.all;
  const size_t n = nest.sizes.size();
  Dims sizes = nest.sizes;
  std::vector<int64_t> at(all.size());
  for (size_t t = 0; t < all.size(); ++t) at[t] = all[t]->offset;
  if (nest.split >= 0) {
    const size_t s = size_t(nest.split);
    sizes[s] = end - begin;
    for (size_t t = 0; t < all.size(); ++t) {
      at[t] += begin * nest.strides[t][s];
    }
  }
  const std::vector<Dims>& strides = nest.strides;
  T* out = reinterpret_cast<T*>(all[0]->writable);
  const int64_t inner = n > 0 ? sizes[n - 1] : 1;
  Dims counter(n, 0);
  for (;;) {
    for (int64_t j = 0; j < inner; ++j) {
      // The factors but the last multiplied, then the last joins the sum
      // by the multiply-add rule (as the matrix products' tiles).
      const auto factor = [&](size_t t) {
        const int64_t s = n > 0 ? strides[t][n - 1] : 0;
        return reinterpret_cast<const T*>(all[t]->base)[at[t] + j * s];
      };
      T product = T(1);
      for (size_t t = 1; t + 1 < all.size(); ++t) {
        product = scalar_ops::Mul(product, factor(t));
      }
      T& cell = out[at[0] + j * (n > 0 ? strides[0][n - 1] : 0)];
      cell = scalar_ops::MulAdd(product, factor(all.size() - 1), cell);
    }
    size_t l = n > 0 ? n - 1 : 0;
    for (; l > 0; --l) {
      const size_t i = l - 1;
      for (size_t t = 0; t < all.size(); ++t) at[t] += strides[t][i];
      if (++counter[i] < sizes[i]) break;
      for (size_t t = 0; t < all.size(); ++t) {
        at[t] -= counter[i] * strides[t][i];
      }
      counter[i] = 0;
    }
    if (l == 0) return;
  }
}

// z[z loops] += prod of the terms over `loops` (z's loops included), split
// over z's outermost loop on the call's threads: each element of z sums
// its products in the same order for any thread count.
void RunLoopNest(const Contraction& c, const std::vector<const Term*>& terms,
                 Term& z, const Loops& loops) {
  if (c.Unrecordable()) return;
  const LoopNest nest = PlanLoopNest(c, terms, z, loops);
  double work = double(nest.all.size());
  for (int64_t size : nest.sizes) work *= double(size);
  const int64_t split_size =
      nest.split >= 0 ? nest.sizes[size_t(nest.split)] : 1;
  const int64_t parts = std::min<int64_t>(
      c.threads,
      int64_t(std::min(work / double(kMinLoopNestWorkPerPart), 1e9)));
  const std::vector<int64_t> bounds =
      dispatch::SplitRange(split_size, std::max<int64_t>(parts, 1), 1, 1);
  VisitType(EinsumTypes{}, c.dtype, [&](auto zero) {
    RunParallel(int(bounds.size() - 1), [&](int i) {
      RunLoopNestRange<decltype(zero)>(nest, bounds[size_t(i)],
                                       bounds[size_t(i) + 1]);
    });
  });
}

// Element offsets of `t` at every index of `loops` (C order).
std::vector<int64_t> OffsetTable(const Contraction& c, const Term& t,
                                 const Loops& loops) {
  std::vector<int64_t> table(size_t(SizeOf(c, loops)));
  if (table.empty()) return table;
  int64_t* to = table.data();
  const size_t n = loops.size();
  Dims sizes(n), strides(n), index(n, 0);
  for (size_t i = 0; i < n; ++i) {
    sizes[i] = c.sizes[size_t(loops[i])];
    strides[i] = t.StrideOf(loops[i]);
  }
  // The innermost loop as a run, the outer ones as an odometer.
  const int64_t run = n > 0 ? sizes[n - 1] : 1;
  const int64_t step = n > 0 ? strides[n - 1] : 0;
  int64_t offset = 0;
  for (;;) {
    for (int64_t k = 0; k < run; ++k) to[k] = offset + k * step;
    to += run;
    size_t d = n > 0 ? n - 1 : 0;
    for (; d > 0; --d) {
      offset += strides[d - 1];
      if (++index[d - 1] < sizes[d - 1]) break;
      offset -= index[d - 1] * strides[d - 1];
      index[d - 1] = 0;
    }
    if (d == 0) return table;
  }
}

// The step s when OffsetTable(c, t, loops)[k] == k * s for every k (the
// loops' strides nest as one axis's), else nullopt.
std::optional<int64_t> AffineStep(const Contraction& c, const Term& t,
                                  const Loops& loops) {
  std::optional<int64_t> step;
  int64_t inner = 1;  // positions per step of the current loop
  for (size_t i = loops.size(); i-- > 0;) {
    const int64_t size = c.sizes[size_t(loops[i])];
    if (size == 1) continue;
    const int64_t stride = t.StrideOf(loops[i]);
    if (!step) step = stride;
    int64_t expected;
    if (__builtin_mul_overflow(*step, inner, &expected) || expected != stride ||
        __builtin_mul_overflow(inner, size, &inner)) {
      return std::nullopt;
    }
  }
  return step.value_or(0);
}

// True when offsets[i] == offsets[0] + i for every i.
bool IsUnit(const std::vector<int64_t>& offsets) {
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] != offsets[0] + int64_t(i)) return false;
  }
  return true;
}

// Orders `loops` by decreasing |stride| in `t` (the most contiguous last).
void SortByStride(Loops& loops, const Term& t) {
  StableSort(loops, [&](int a, int b) {
    const int64_t sa = t.StrideOf(a), sb = t.StrideOf(b);
    return (sa < 0 ? -sa : sa) > (sb < 0 ? -sb : sb);
  });
}

// The smallest |stride| of `t` along `loops` (INT64_MAX when none).
int64_t SmallestStride(const Term& t, const Loops& loops) {
  int64_t smallest = INT64_MAX;
  for (int l : loops) {
    const int64_t s = t.StrideOf(l);
    smallest = std::min(smallest, s < 0 ? -s : s);
  }
  return smallest;
}

// Records the product (A = x, B = y, C = z) in c.recording when it writes
// out directly from the two operands and is the first step that runs.
void Record(const Contraction& c, const GemmTask& task, const Term& x,
            const Term& y, const Term& z,
            std::array<std::vector<int64_t>, 8> tables) {
  ProductRecording& r = *c.recording;
  const unsigned char* tags = r.tags;
  if (r.recorded || r.failed || !z.in_out || x.base == y.base ||
      (x.base != tags && x.base != tags + 1) ||
      (y.base != tags && y.base != tags + 1)) {
    r.failed = true;
    return;
  }
  const int64_t es = int64_t(c.elem_size);
  dispatch::PreparedProduct& p = *r.product;
  p.task = task;
  p.a_operand = int(x.base - tags);
  p.b_operand = int(y.base - tags);
  // offset-checked: element offsets of checked views (the engine forms
  // the same byte offsets)
  p.a_byte = x.offset * es;
  p.b_byte = y.offset * es;
  p.c_byte = z.offset * es;
  p.tables = std::move(tables);
  r.recorded = true;
}

// z[batch, m, n] = sum over k of x[batch, m, k] * y[batch, k, n]: a batch
// of matrix products on the target, or a loop nest when each product is
// tiny. x lacks the n loops, y the m loops. The result goes into `into` (out
// as a term over the result loops) when given and its n loops (or, swapping
// the operands, its m loops) are contiguous; else into a new C-contiguous
// term over batch + m + n, which is returned.
Term Product(const Contraction& c, const Term& x, const Term& y, Loops batch,
             Loops m, Loops n, Loops k, const Term* into,
             bool may_swap = true) {
  // Inner loops of each group are the most contiguous (ones have no loops).
  const Term& shared = x.loops.empty() ? y : x;
  SortByStride(m, into ? *into : x);
  SortByStride(n, into ? *into : y);
  SortByStride(k, shared);
  SortByStride(batch, into ? *into : shared);
  const int64_t m_size = SizeOf(c, m), n_size = SizeOf(c, n),
                k_size = SizeOf(c, k);
  // Sums longer than one block run on the target (pairwise over blocks).
  const bool gemm =
      double(m_size) * double(n_size) * double(k_size) >= kMinGemmWork ||
      (n_size == 1 && m_size == 1 && k_size >= kMinDotLength) ||
      k_size > kSumBlock;
  if (into && gemm && !IsUnit(OffsetTable(c, *into, n))) {
    if (may_swap && IsUnit(OffsetTable(c, *into, m))) {
      return Product(c, y, x, batch, n, m, k, into, false);
    }
    into = nullptr;
  }
  Loops z_loops = batch;
  z_loops.append(m);
  z_loops.append(n);
  if (!gemm) {
    Term z = NewTerm(c, z_loops, true);
    Loops loops = z_loops;
    loops.append(k);
    RunLoopNest(c, {&x, &y}, z, loops);
    return z;
  }
  Term z = into ? Term{into->base,    into->offset, into->loops,
                       into->strides, nullptr,      into->writable}
                : NewTerm(c, z_loops, false);
  // A dot product with a y constant along k (ones, for sums) leaves b_k
  // null: the kernel then reads B once instead of through a table.
  const bool b_constant =
      n_size == 1 &&
      std::none_of(k.begin(), k.end(), [&](int l) { return y.Has(l); });
  // k offsets that are a progression (every axis of a contiguous
  // operand, any single axis) pass as a step, not a table.
  const std::optional<int64_t> a_k_step = AffineStep(c, x, k);
  const std::optional<int64_t> b_k_step =
      b_constant ? std::optional<int64_t>(0) : AffineStep(c, y, k);
  std::vector<int64_t> a_m = OffsetTable(c, x, m),
                       a_k = a_k_step ? std::vector<int64_t>()
                                      : OffsetTable(c, x, k),
                       b_k = b_k_step ? std::vector<int64_t>()
                                      : OffsetTable(c, y, k),
                       b_n = OffsetTable(c, y, n), c_m = OffsetTable(c, z, m);
  std::vector<int64_t> x_batch = OffsetTable(c, x, batch),
                       y_batch = OffsetTable(c, y, batch),
                       z_batch = OffsetTable(c, z, batch);
  const int64_t es = int64_t(c.elem_size);
  GemmTask task{c.dtype,
                int64_t(x_batch.size()),
                x_batch.data(),
                y_batch.data(),
                z_batch.data(),
                m_size,
                n_size,
                k_size,
                nullptr,
                a_m.data(),
                a_k_step ? nullptr : a_k.data(),
                nullptr,
                b_k_step ? nullptr : b_k.data(),
                b_n.data(),
                nullptr,
                c_m.data()};
  task.a_k_step = a_k_step.value_or(0);
  task.b_k_step = b_k_step.value_or(0);
  z.in_out = into != nullptr;
  if (c.recording != nullptr) {
    Record(c, task, x, y, z,
           {std::move(x_batch), std::move(y_batch), std::move(z_batch),
            std::move(a_m), std::move(a_k), std::move(b_k), std::move(b_n),
            std::move(c_m)});
    return z;
  }
  task.a = x.base + x.offset * es;
  task.b = y.base + y.offset * es;
  task.c = z.writable + z.offset * es;
  dispatch::RunGemm(*c.ex, task, c.threads, kOp);
  return z;
}

// A term that is 1 everywhere (stride 0 on every loop).
Term Ones(const Contraction& c) { return {c.one, 0, {}, {}, nullptr}; }

// Sums `t` over its loops outside `keep` into a new term; `t` itself when
// nothing is summed. A product with ones: rows of t as dot products when
// the summed loops are the more contiguous, else ones times t (vectorised
// along the kept loops).
Term SumOver(const Contraction& c, Term t, const Loops& keep,
             const Term* into = nullptr) {
  Loops kept, summed;
  for (int l : t.loops) {
    (std::find(keep.begin(), keep.end(), l) != keep.end() ? kept : summed)
        .push_back(l);
  }
  if (summed.empty()) return t;
  if (SmallestStride(t, summed) <= SmallestStride(t, kept)) {
    return Product(c, t, Ones(c), {}, kept, {}, summed, into);
  }
  return Product(c, Ones(c), t, {}, {}, kept, summed, into);
}

// The contraction of x and y over their loops outside `keep`, as a new
// contiguous term over the kept loops. Loops only one side uses and that
// are not kept are summed first.
Term ContractPair(const Contraction& c, Term x, Term y, const Loops& keep,
                  const Term* into = nullptr) {
  Loops x_keep = keep, y_keep = keep;
  x_keep.append(y.loops);
  y_keep.append(x.loops);
  x = SumOver(c, std::move(x), x_keep);
  y = SumOver(c, std::move(y), y_keep);
  Loops batch, m, n, k;
  for (int l : x.loops) {
    if (!y.Has(l)) {
      m.push_back(l);
    } else if (std::find(keep.begin(), keep.end(), l) != keep.end()) {
      batch.push_back(l);
    } else {
      k.push_back(l);
    }
  }
  for (int l : y.loops) {
    if (!x.Has(l)) n.push_back(l);
  }
  // The n side is vectorised; with nothing there, x's m loops take its
  // place when they are more contiguous than its k loops.
  if (SizeOf(c, n) == 1 && SmallestStride(x, m) < SmallestStride(x, k)) {
    return Product(c, y, x, batch, n, m, k, into);
  }
  return Product(c, x, y, batch, m, n, k, into);
}

double Elements(const Contraction& c, const Loops& loops) {
  double n = 1;
  for (int l : loops) n *= double(c.sizes[size_t(l)]);
  return n;
}

Loops Union(const Loops& a, const Loops& b) {
  Loops u = a;
  for (int l : b) {
    if (std::find(u.begin(), u.end(), l) == u.end()) u.push_back(l);
  }
  return u;
}

// The loops of x ∪ y that the result or a term other than i and j uses.
Loops PairKeep(const Contraction& c, const std::vector<Term>& terms, size_t i,
               size_t j) {
  Loops keep;
  for (int l : Union(terms[i].loops, terms[j].loops)) {
    bool used =
        std::find(c.result.begin(), c.result.end(), l) != c.result.end();
    for (size_t t = 0; t < terms.size() && !used; ++t) {
      used = t != i && t != j && terms[t].Has(l);
    }
    if (used) keep.push_back(l);
  }
  return keep;
}

// Contracts the terms down to one over the result loops, written into
// `into` (out as a term) where the last product can.
Term ContractAll(const Contraction& c, std::vector<Term> terms,
                 const Term* into) {
  for (size_t i = 0; i < terms.size(); ++i) {
    // (Computed before terms[i] is moved from.)
    const Loops shared = SharedLoops(c, terms, i);
    terms[i] = SumOver(c, std::move(terms[i]), shared,
                       terms.size() == 1 ? into : nullptr);
  }
  if (terms.size() >= 3) {
    // opt_einsum's greedy order, and its cost beside one loop nest's.
    std::vector<Loops> loop_sets;
    for (const Term& t : terms) loop_sets.push_back(t.loops);
    double pairwise = 0;
    Loops all_loops;
    for (const Term& t : terms) all_loops = Union(all_loops, t.loops);
    const double nest = Elements(c, all_loops) * double(terms.size() - 1);
    std::vector<std::pair<size_t, size_t>> order;
    {
      std::vector<Term> sim;  // loop sets only
      for (const Term& t : terms) sim.push_back({nullptr, 0, t.loops, {}, {}});
      while (sim.size() > 1) {
        size_t bi = 0, bj = 1;
        double best = 0;
        bool first = true;
        for (size_t i = 0; i < sim.size(); ++i) {
          for (size_t j = i + 1; j < sim.size(); ++j) {
            const double cost = Elements(c, PairKeep(c, sim, i, j)) -
                                Elements(c, sim[i].loops) -
                                Elements(c, sim[j].loops);
            if (first || cost < best) {
              best = cost, bi = i, bj = j, first = false;
            }
          }
        }
        pairwise += Elements(c, Union(sim[bi].loops, sim[bj].loops));
        Term merged{nullptr, 0, PairKeep(c, sim, bi, bj), {}, {}};
        sim.erase(sim.begin() + std::ptrdiff_t(bj));
        sim.erase(sim.begin() + std::ptrdiff_t(bi));
        sim.push_back(std::move(merged));
        order.emplace_back(bi, bj);
      }
    }
    // The nest sums in order, so only sums of at most one block take it.
    if (nest <= pairwise &&
        Elements(c, all_loops) <= Elements(c, c.result) * double(kSumBlock)) {
      Term z = NewTerm(c, c.result, true);
      std::vector<const Term*> pointers;
      for (const Term& t : terms) pointers.push_back(&t);
      RunLoopNest(c, pointers, z, Union(c.result, all_loops));
      return z;
    }
    for (size_t step = 0; step < order.size(); ++step) {
      const auto [i, j] = order[step];
      const Loops keep = PairKeep(c, terms, i, j);
      Term z = ContractPair(c, std::move(terms[i]), std::move(terms[j]), keep,
                            step + 1 == order.size() ? into : nullptr);
      terms.erase(terms.begin() + std::ptrdiff_t(j));
      terms.erase(terms.begin() + std::ptrdiff_t(i));
      terms.push_back(std::move(z));
    }
    return std::move(terms[0]);
  }
  if (terms.size() == 2) {
    return ContractPair(c, std::move(terms[0]), std::move(terms[1]), c.result,
                        into);
  }
  return std::move(terms[0]);
}

// True when the result map is a permutation of distinct loops (or index 0
// of a length-1 axis).
bool IsPermutation(const Projections& p) {
  const AxisMap& map = p.result_map;
  for (int a = 0; a < map.size(); ++a) {
    if (map[a].kind != AxisIndex::Kind::kIterator) {
      if (p.result_shape[a] != 1) return false;
      continue;
    }
    for (int b = 0; b < a; ++b) {
      if (map[b] == map[a]) return false;
    }
  }
  return true;
}

// dst = src with the call's executor (the views are built here, valid by
// construction: no second check, no second target selection).
void CopyWith(const Contraction& c, const sk_view& src, const void* src_data,
              const sk_view& dst, void* dst_data) {
  if (c.Unrecordable()) return;
  CopyOptions options;
  options.threads = c.threads;
  dispatch::EngineCopy(*c.ex, c.elem_size, src, src_data, dst, dst_data,
                       nullptr, options);
}

// Copies the result term into out (through a zeroed temporary of out's
// shape when the result map has fixed indices or diagonals).
void WriteResult(const Contraction& c, const Projections& p, const Term& z,
                 const sk_view& out, void* out_data) {
  if (z.in_out || c.Unrecordable()) return;
  sk_view from{};
  from.ndim = out.ndim;
  from.offset = z.offset;
  for (int d = 0; d < out.ndim; ++d) from.shape[d] = out.shape[d];
  if (IsPermutation(p)) {
    for (int d = 0; d < out.ndim; ++d) {
      const AxisIndex& index = p.result_map[size_t(d)];
      from.strides[d] = index.kind == AxisIndex::Kind::kIterator
                            ? z.StrideOf(int(index.value))
                            : 0;
    }
    CopyWith(c, from, z.base, out, out_data);
    return;
  }
  // The temporary's element at the loops' indices, as a view over z's loops.
  const Dims strides = CContiguousStrides(p.result_shape);
  const int64_t count = CheckedNumel(p.result_shape, kOp, "result");
  const int64_t bytes = CheckedMul(count, int64_t(c.elem_size), kOp);
  const Buffer full = AllocateBuffer(bytes, kOp);
  std::fill_n(full.get(), size_t(bytes), 0);
  Term placed{full.get(), 0, z.loops, Dims(z.loops.size(), 0), nullptr};
  for (int a = 0; a < p.result_map.size(); ++a) {
    const AxisIndex& index = p.result_map[a];
    if (index.kind == AxisIndex::Kind::kFixed) {
      placed.offset += index.value * strides[a];
    } else if (c.sizes[size_t(index.value)] != 1) {
      auto at = std::find(z.loops.begin(), z.loops.end(), int(index.value));
      placed.strides[size_t(at - z.loops.begin())] += strides[a];
    }
  }
  CopyWith(c, ViewOf(c, z, z.loops), z.base, ViewOf(c, placed, z.loops),
           full.get());
  for (int d = 0; d < out.ndim; ++d) from.strides[d] = strides[d];
  from.offset = 0;
  CopyWith(c, from, full.get(), out, out_data);
}

// The dtype's 1, for products with ones.
struct One {
  explicit One(DType t) {
    VisitType(EinsumTypes{}, t, [&](auto zero) {
      const decltype(zero) value = 1;
      std::memcpy(bytes, &value, sizeof(value));
    });
  }
  alignas(8) unsigned char bytes[8];
};

// The contraction of a call over `p` (its result loops resolved).
Contraction ContractionOf(const dispatch::Executor& ex, const Projections& p,
                          DType t, const One& one, int threads) {
  Contraction c{t,   DTypeSize(t), p.product_space,     {},
                &ex, one.bytes,    std::max(threads, 1)};
  for (const AxisIndex& index : p.result_map) {
    const int loop = int(index.value);
    if (index.kind == AxisIndex::Kind::kIterator &&
        c.sizes[size_t(loop)] != 1 &&
        std::find(c.result.begin(), c.result.end(), loop) == c.result.end()) {
      c.result.push_back(loop);
    }
  }
  return c;
}

// Out as a term over the result loops (for an unmasked out whose axes are
// the result loops: IsPermutation).
Term OutTerm(const Contraction& c, const Projections& p, const sk_view& out,
             unsigned char* out_data) {
  Term t{out_data, out.offset, {}, {}, nullptr};
  t.writable = out_data;
  for (int a = 0; a < p.result_map.size(); ++a) {
    const AxisIndex& index = p.result_map[a];
    if (index.kind == AxisIndex::Kind::kIterator &&
        c.sizes[size_t(index.value)] != 1) {
      t.loops.push_back(int(index.value));
      t.strides.push_back(out.strides[a]);
    }
  }
  return t;
}

}  // namespace

namespace dispatch {

void PrepareEinsumProduct(PlanState& s) {
  s.prepared_product.reset();
  const Projections& p = *s.projections;
  if (s.ex->IsReference() || s.operands.size() != 2 || s.out->has_mask ||
      s.operands[0].has_mask || s.operands[1].has_mask || !IsPermutation(p) ||
      CheckedNumel(p.product_space, kOp, "product space") == 0) {
    return;
  }
  // Distinct bases to tell the terms apart; never read or written.
  static unsigned char tags[3];
  const One one(s.dtype);
  // Threads split the task on execution, not here.
  Contraction c = ContractionOf(*s.ex, p, s.dtype, one, 1);
  PreparedProduct prepared;
  ProductRecording recording{tags, &prepared};
  c.recording = &recording;
  std::vector<Term> terms;
  for (size_t i = 0; i < 2; ++i) {
    terms.push_back(TermOf(c, s.operands[i], &tags[i], p.operand_maps[i]));
  }
  Term out_term = OutTerm(c, p, *s.out, &tags[2]);
  const Term z = ContractAll(c, std::move(terms), &out_term);
  if (recording.failed || !recording.recorded || !z.in_out) return;
  EinsumByteExtents(s, prepared.lo, prepared.hi);
  s.prepared_product = std::move(prepared);
}

bool RunPreparedProduct(const PlanState& s, const void* const* inputs,
                        void* out, int threads) {
  if (!s.prepared_product) return false;
  const PreparedProduct& p = *s.prepared_product;
  for (int t = 0; t < 2; ++t) {
    // Shares memory with out: the engine copies it first.
    if (SharesBytes(inputs[t], out, p.lo, p.hi, t + 1)) return false;
  }
  GemmTask task = p.task;
  const auto table = [&](int i) {
    return p.tables[size_t(i)].empty() ? nullptr : p.tables[size_t(i)].data();
  };
  task.a_batch = table(0);
  task.b_batch = table(1);
  task.c_batch = table(2);
  task.a_m = table(3);
  task.a_k = table(4);
  task.b_k = table(5);
  task.b_n = table(6);
  task.c_m = table(7);
  // offset-checked: the byte offsets the engine would form
  task.a = static_cast<const unsigned char*>(inputs[p.a_operand]) + p.a_byte;
  task.b = static_cast<const unsigned char*>(inputs[p.b_operand]) + p.b_byte;
  task.c = static_cast<unsigned char*>(out) + p.c_byte;
  NoteKernelRan(s.ex->hwy_target);
  RunGemm(*s.ex, task, std::max(threads, 1), kOp);
  return true;
}

namespace {

void EngineEinsum(const Executor& ex, const Projections& p, DType t,
                  std::span<const sk_view> operands,
                  std::span<const void* const> datas, const sk_view& out,
                  void* out_data, int threads) {
  const One one(t);
  Contraction c = ContractionOf(ex, p, t, one, threads);
  // Masked operands, and operands sharing memory with out, are copied first
  // (masked-out positions read 0).
  const Box out_box = ValidBox(out);
  std::vector<Materialized> copies;
  std::vector<Term> terms;
  for (size_t i = 0; i < operands.size(); ++i) {
    const sk_view* view = &operands[i];
    const void* data = datas[i];
    const Box box = ValidBox(*view);
    bool overlaps = false;
    if (!box.empty() && !out_box.empty()) {
      const auto [lo, hi] = ByteRange(OperandOf(*view, data), box, c.elem_size);
      const auto [out_lo, out_hi] =
          ByteRange(OperandOf(out, out_data), out_box, c.elem_size);
      overlaps = lo < out_hi && out_lo < hi;
    }
    if (view->has_mask || overlaps) {
      copies.push_back(MaterializeWith(ex, c.elem_size, *view, data));
      view = &copies.back().view;
      data = copies.back().data.get();
    }
    terms.push_back(TermOf(c, *view, data, p.operand_maps[i]));
  }
  if (CheckedNumel(p.product_space, kOp, "product space") == 0) {
    WriteResult(c, p, NewTerm(c, c.result, true), out, out_data);
    return;
  }
  NoteKernelRan(ex.hwy_target);
  // An unmasked out whose axes are the result loops takes the last product
  // directly.
  const bool direct = !out.has_mask && IsPermutation(p);
  Term out_term =
      direct ? OutTerm(c, p, out, static_cast<unsigned char*>(out_data))
             : Term{nullptr, 0, {}, {}, nullptr};
  WriteResult(c, p,
              ContractAll(c, std::move(terms), direct ? &out_term : nullptr),
              out, out_data);
}

// Its direct nest or prepared product first.
void RunEinsumPlan(const PlanState& s, const void* const* inputs, void* out,
                   const CopyOptions& options) {
  if (RunDirectEinsum(s, inputs, out) ||
      RunPreparedProduct(s, inputs, out, options.threads)) {
    return;
  }
  EngineEinsum(*s.ex, *s.projections, s.dtype, s.operands,
               std::span<const void* const>(inputs, s.operands.size()), *s.out,
               out, options.threads);
}

void RunEinsumReference(const PlanState& s, const void* const* inputs,
                        void* out, const CopyOptions&) {
  reference::RunEinsum(*s.projections, s.dtype, s.operands,
                       std::span<const void* const>(inputs, s.operands.size()),
                       *s.out, out);
  NoteKernelRan(0);
}

const KernelFunction kEinsumFunction{
    "einsum",           RunEinsumPlan,
    RunEinsumReference, DataCheckOrder::kInputsThenOut,
    "operand",          "out"};

// `datas`: as many as operands, or NULL for a plan.
void PlanEinsum(PlanState& s, std::string_view spec,
                std::optional<std::span<const RowLengths>> rows, DType t,
                std::span<const sk_view> operands, const sk_view& out,
                const void* const* datas, const void* out_data) {
  std::vector<const void*> planning;
  if (datas == nullptr) planning.assign(operands.size(), &kPlanningByte);
  const std::span<const void* const> in(
      datas != nullptr ? datas : planning.data(), operands.size());
  s.projections = CheckEinsumArguments(spec, t, operands, in, out,
                                       OutFor(datas, out_data), rows);
  s.name = "einsum";
  s.num_inputs = int(operands.size());
  s.out = &out;
  s.dtype = t;
  s.operands = operands;
  s.data_checked = datas != nullptr;
  if (!s.data_checked) {
    s.out_needs_data = !ValidSpan(out).empty();
    for (size_t i = 0; i < operands.size() && i < size_t(kMaxOperands); ++i) {
      s.input_needs_data[i] = !ValidSpan(operands[i]).empty();
    }
  }
  BindExecutor(s, kEinsumFunction);
  ResolveDirectEinsum(s);
  if (!s.direct_einsum) PrepareEinsumProduct(s);
}

void RunEinsum(std::string_view spec,
               std::optional<std::span<const RowLengths>> rows, DType t,
               std::span<const sk_view> operands,
               std::span<const void* const> datas, const sk_view& out,
               void* out_data, const NumericOptions& options) {
  if (operands.size() != datas.size()) {
    Fail(ErrorKind::kInvalidArgument, "einsum: ", operands.size(),
         " operand views but ", datas.size(), " data pointers");
  }
  PlanState s;
  PlanEinsum(s, spec, rows, t, operands, out, datas.data(), out_data);
  ExecutePlan(s, datas.data(), out_data, options.threads);
}

}  // namespace

}  // namespace dispatch

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data, const NumericOptions& options) {
  dispatch::RunEinsum(spec, std::nullopt, t, operands, datas, out, out_data,
                      options);
}

void EinsumRows(std::string_view spec, std::span<const RowLengths> rows,
                DType t, std::span<const sk_view> operands,
                std::span<const void* const> datas, const sk_view& out,
                void* out_data, const NumericOptions& options) {
  dispatch::RunEinsum(spec, rows, t, operands, datas, out, out_data, options);
}

Plan Plan::Einsum(std::string_view spec, DType t,
                  std::span<const sk_view> operands, const sk_view& out) {
  std::vector<sk_view> views(operands.begin(), operands.end());
  views.push_back(out);
  return dispatch::MakePlan(std::move(views), [&](auto& s, auto v) {
    dispatch::PlanEinsum(s, spec, std::nullopt, t, v.first(operands.size()),
                         v.back(), nullptr, nullptr);
  });
}

void Einsum(std::string_view spec, DType t, std::span<const View> operands,
            std::span<const void* const> datas, const View& out, void* out_data,
            const NumericOptions& options) {
  std::vector<sk_view> views;
  views.reserve(operands.size());
  for (const View& v : operands) views.push_back(v.ToC());
  Einsum(spec, t, views, datas, out.ToC(), out_data, options);
}

}  // namespace stridekit
