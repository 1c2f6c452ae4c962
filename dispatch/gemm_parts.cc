#include "dispatch/gemm_parts.h"

#include <algorithm>
#include <atomic>

#include "allocation.h"
#include "numeric_types.h"
#include "scalar_ops.h"
#include "stridekit/checked.h"
#include "stridekit/dtype.h"
#include "stridekit/parallel.h"

namespace stridekit::dispatch {
namespace {

// Cut grains: the register tiles' rows (6 on every target) and a multiple
// of their columns (two vectors, at most 64 lanes here), so that only the
// last part of a product has edge tiles.
constexpr int64_t kRowGrain = 6;
constexpr int64_t kColumnGrain = 64;

// Multiply-adds of the whole task, saturating at INT64_MAX.
int64_t Work(const GemmTask& t) {
  int64_t w = 1;
  for (int64_t f : {t.batch, t.m_size, t.n_size, t.k_size}) {
    if (f == 0) return 0;
    if (__builtin_mul_overflow(w, f, &w)) return INT64_MAX;
  }
  return w;
}

// The nodes of PairwiseTree(begin, count, 1, ...) at `depth` below the
// root (a node of one block stops early), in order, as [begin, count).
void Subtrees(int64_t begin, int64_t count, int depth,
              std::vector<std::pair<int64_t, int64_t>>& out) {
  if (depth == 0 || count <= 1) {
    out.push_back({begin, count});
    return;
  }
  const int64_t half = count / 2;
  Subtrees(begin, half, depth - 1, out);
  Subtrees(begin + half, count - half, depth - 1, out);
}

// Combines the partials of Subtrees(begin, count, depth) (rows of `rows`
// from *next on) in the tree's shape, lane by lane, into the first row.
template <typename T>
T* CombineSubtrees(int64_t count, int depth, T* rows, int64_t& next) {
  if (depth == 0 || count <= 1) return rows + kDotPartials<T> * next++;
  const int64_t half = count / 2;
  T* lo = CombineSubtrees(half, depth - 1, rows, next);
  const T* hi = CombineSubtrees(count - half, depth - 1, rows, next);
  for (int64_t l = 0; l < kDotPartials<T>; ++l) {
    lo[l] = scalar_ops::Add(lo[l], hi[l]);
  }
  return lo;
}

// One long dot product (batch, m and n of 1) on up to `threads` threads:
// whole subtrees of its k-block tree per part, their partials combined as
// the tree does (contraction_task.h), so the bits do not depend on the
// thread count. False when it is too short to split.
bool RunSplitDot(const Executor& ex, const GemmTask& task, int threads,
                 const char* op) {
  const int64_t blocks = (task.k_size + kSumBlock - 1) / kSumBlock;
  if (threads < 2 || task.batch != 1 || task.m_size != 1 || task.n_size != 1 ||
      blocks < 2 || task.k_size < 2 * kMinGemmWorkPerPart) {
    return false;
  }
  int depth = 0;
  while ((int64_t{1} << depth) < threads && (int64_t{2} << depth) <= blocks) {
    ++depth;
  }
  std::vector<std::pair<int64_t, int64_t>> nodes;
  Subtrees(0, blocks, depth, nodes);
  const int parts = int(nodes.size());
  const int64_t scratch_bytes = CheckedMul(
      CheckedAdd(ex.kernels.gemm_scratch_bytes(task), 63, op) / 64, 64, op);
  const int64_t partial_bytes = 64 * int64_t(parts);
  const Buffer scratch = AllocateBuffer(
      CheckedAdd(CheckedMul(scratch_bytes, parts, op), partial_bytes, op), op);
  unsigned char* partials = scratch.get() + scratch_bytes * parts;
  std::atomic<int64_t> target{0};
  RunParallel(parts, [&](int p) {
    GemmTask t = task;
    t.scratch = scratch.get() + scratch_bytes * p;
    t.dot_partials = partials + 64 * p;
    t.dot_block_begin = nodes[size_t(p)].first;
    t.dot_block_count = nodes[size_t(p)].second;
    target.store(ex.kernels.gemm(t), std::memory_order_relaxed);
  });
  VisitType(EinsumTypes{}, task.dtype, [&](auto zero) {
    using T = decltype(zero);
    int64_t next = 0;
    T* root =
        CombineSubtrees(blocks, depth, reinterpret_cast<T*>(partials), next);
    static_cast<T*>(task.c)[task.c_batch[0] + task.c_m[0]] = FoldDotPartials<T>(
        root, [](T x, T y) { return scalar_ops::Add(x, y); });
  });
  NoteKernelRan(target.load(std::memory_order_relaxed));
  return true;
}

}  // namespace

std::vector<int64_t> SplitRange(int64_t size, int64_t parts, int64_t grain,
                                int64_t least) {
  std::vector<int64_t> bounds = {0};
  if (size <= 0 || parts <= 1) {
    bounds.push_back(std::max<int64_t>(size, 0));
    return bounds;
  }
  // Cut i at i * size / parts, moved to the nearest multiple of grain when
  // the ranges are at least that long; cuts leaving a range shorter than
  // `least` are dropped.
  const bool aligned = size / parts >= grain;
  for (int64_t i = 1; i < parts; ++i) {
    int64_t cut = int64_t(__int128(size) * i / parts);
    if (aligned) cut = (cut + grain / 2) / grain * grain;
    if (cut - bounds.back() >= least && size - cut >= least) {
      bounds.push_back(cut);
    }
  }
  bounds.push_back(size);
  return bounds;
}

std::vector<GemmTask> SplitGemm(const GemmTask& task, int threads) {
  const int64_t parts = std::min<int64_t>(
      threads, std::max<int64_t>(1, Work(task) / kMinGemmWorkPerPart));
  if (parts <= 1) return {task};
  std::vector<GemmTask> tasks;
  if (task.batch >= parts) {
    const std::vector<int64_t> bounds = SplitRange(task.batch, parts, 1, 1);
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      GemmTask t = task;
      t.batch = bounds[i + 1] - bounds[i];
      t.a_batch += bounds[i];
      t.b_batch += bounds[i];
      t.c_batch += bounds[i];
      tasks.push_back(t);
    }
    return tasks;
  }
  // Per batch position, parts / batch ranges (rounded up) of m or n.
  const int64_t per_position = (parts + task.batch - 1) / task.batch;
  // Each part packs all of B for a range of rows, all of A for a range of
  // columns. Columns unless A is much taller than B is wide (or the columns
  // are too few for whole micro-panels): each part then packs, and streams
  // from L3 once per m block, only its share of B, at the price of packing
  // all of A (measured on 2 threads, Zen 3: float32 1024^2 122.8 against
  // 109.4 GFLOPS, best of 6 alternations).
  const bool by_rows = task.n_size == 1 || task.m_size >= 4 * task.n_size ||
                       task.n_size < per_position * kColumnGrain;
  const std::vector<int64_t> bounds =
      by_rows ? SplitRange(task.m_size, per_position, kRowGrain, 1)
              : SplitRange(task.n_size, per_position, kColumnGrain, 2);
  const int64_t elem_size = int64_t(DTypeSize(task.dtype));
  for (int64_t b = 0; b < task.batch; ++b) {
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      GemmTask t = task;
      t.batch = 1;
      t.a_batch += b;
      t.b_batch += b;
      t.c_batch += b;
      const int64_t lo = bounds[i], size = bounds[i + 1] - bounds[i];
      if (by_rows) {
        t.m_size = size;
        t.a_m += lo;
        t.c_m += lo;
      } else {
        t.n_size = size;
        t.b_n += lo;
        t.c = static_cast<unsigned char*>(task.c) + lo * elem_size;
      }
      tasks.push_back(t);
    }
  }
  return tasks;
}

void RunGemm(const Executor& ex, const GemmTask& task, int threads,
             const char* op) {
  if (RunSplitDot(ex, task, threads, op)) return;
  std::vector<GemmTask> tasks = SplitGemm(task, threads);
  // More sub-tasks than threads (batch positions times ranges): part p
  // runs sub-tasks [p * n / parts, (p + 1) * n / parts) with the scratch of
  // its largest one, at offset[p] of one buffer for all parts (one
  // allocation, which malloc keeps for the next call rather than returning
  // several to the system and faulting them in again).
  const int64_t n = int64_t(tasks.size());
  const int parts = int(std::min<int64_t>(n, std::max(threads, 1)));
  std::vector<int64_t> offset(static_cast<size_t>(parts) + 1, 0);
  for (int p = 0; p < parts; ++p) {
    int64_t bytes = 0;
    for (int64_t i = p * n / parts; i < (p + 1) * n / parts; ++i) {
      bytes = std::max(bytes, ex.kernels.gemm_scratch_bytes(tasks[size_t(i)]));
    }
    bytes = CheckedMul(CheckedAdd(bytes, 63, op) / 64, 64, op);
    offset[size_t(p) + 1] = CheckedAdd(offset[size_t(p)], bytes, op);
  }
  const Buffer scratch = AllocateBuffer(offset[size_t(parts)], op);
  std::atomic<int64_t> target{0};
  RunParallel(parts, [&](int p) {
    for (int64_t i = p * n / parts; i < (p + 1) * n / parts; ++i) {
      GemmTask t = tasks[size_t(i)];
      t.scratch = scratch.get() + offset[size_t(p)];
      target.store(ex.kernels.gemm(t), std::memory_order_relaxed);
    }
  });
  NoteKernelRan(target.load(std::memory_order_relaxed));
}

}  // namespace stridekit::dispatch
