// The strided iteration engine's plan: how to walk N operands over a common
// shape with the fewest, longest and most cache-friendly inner loops.
//
// Operand 0 is the output; inputs are already broadcast to the common shape
// (stride 0 on broadcast axes). Building a plan (NumPy nditer-like):
//   1. drops size-1 axes (an empty shape gives an empty plan);
//   2. flips axes on which every non-zero stride is negative;
//   3. orders axes by the output's |stride|, outermost first, ties kept in C
//      order;
//   4. coalesces neighbouring axes that are contiguous in every operand;
//   5. classifies each operand's inner stride, and when an input is strided
//      on the inner axis but has stride 1 on another axis, moves that axis
//      next to the inner one so executors can run a tiled 2-D transpose.
// Everything is metadata: no allocation, no data access.
#ifndef STRIDEKIT_ITERATION_PLAN_H_
#define STRIDEKIT_ITERATION_PLAN_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <span>
#include <string>

#include "stridekit/dims.h"

namespace stridekit {

inline constexpr int kMaxOperands = 8;

// One strided operand over a common shape: element strides (0 on broadcast
// axes), the offset of its first element, and the buffer they index
// (element 0; plans read only strides and offset). The one operand type of
// the engine.
struct Operand {
  Dims strides;
  int64_t offset = 0;
  const unsigned char* data = nullptr;
};

// How an operand moves along the plan's inner axis.
enum class InnerKind : uint8_t {
  kContiguous,  // stride 1
  kReversed,    // stride -1
  kBroadcast,   // stride 0
  kStrided,     // any other stride
  kTransposed,  // strided inner axis, stride 1 on the tile axis (2-D path)
};
const char* InnerKindName(InnerKind kind);

class IterationPlan {
 public:
  // Throws kInvalidArgument for a rank or operand-count mismatch and
  // kOverflow when an operand's offsets do not fit in int64. Without
  // `allow_tiles` step 5 only classifies (no input becomes kTransposed).
  static IterationPlan Make(DimsView shape, std::span<const Operand> operands,
                            bool allow_tiles = true);
  // Make without its checks, for operands known to be valid: 1 to
  // kMaxOperands of them, each with a stride per axis of `shape` (whose
  // dims are non-negative and whose element count is `numel`), and
  // offsets that fit in int64 over the shape (operands of views that
  // passed the kernels' layout checks, broadcast to the output).
  static IterationPlan MakeValidated(DimsView shape, int64_t numel,
                                     std::span<const Operand> operands,
                                     bool allow_tiles = true);

  int num_operands() const { return num_operands_; }
  int ndim() const { return shape_.size(); }
  const Dims& shape() const { return shape_; }
  const Dims& strides(int op) const { return strides_[op]; }
  int64_t offset(int op) const { return offsets_[op]; }
  int64_t numel() const { return numel_; }
  bool empty() const { return numel_ == 0; }

  // Length of the inner axis (1 for a rank-0 plan, 0 when empty).
  int64_t inner_size() const;
  int64_t inner_stride(int op) const;
  InnerKind inner_kind(int op) const { return kinds_[op]; }

  // With a transposed input the axis before the inner one is the tile axis
  // and the executor walks 2-D tiles; otherwise rows of the inner axis.
  bool tiled() const { return tiled_; }
  // The tile's axes, the last tile_row_axes() + tile_col_axes() of the plan:
  // its rows (fused in C order) then its columns. 1 and 1 on a tiled plan
  // unless FuseTiles grew them; 0 and 1 on an untiled one.
  int tile_row_axes() const { return tile_row_axes_; }
  int tile_col_axes() const { return tile_col_axes_; }
  // Axes walked by the outer odometer: those before the tile's (ndim-2 on a
  // plain tiled plan), else ndim-1.
  int outer_ndim() const {
    const int n = ndim() - tile_row_axes_ - tile_col_axes_;
    return n > 0 ? n : 0;
  }
  // Number of outer positions (rows or tiles) the odometer visits.
  int64_t outer_size() const {
    if (empty()) return 0;
    int64_t n = 1;
    for (int d = 0; d < outer_ndim(); ++d) n *= shape_[d];  // Fits: numel.
    return n;
  }

  // On a tiled plan of an output and one transposed input, moves outer
  // axes into the tile, for executors that address the tile's rows and
  // columns through offset tables: while the rows number fewer than
  // `min_rows`, an outer axis on which the input's stride equals their count
  // joins them as their outermost axis (the input stays contiguous along the
  // fused rows); likewise the columns, with the output's stride. Short
  // extents of permutations of rank >= 3 (9^5 reversed) thus form long
  // tiles. An axis joins only while rows and columns each stay at most
  // kMaxFusedTileExtent. Any other plan stays unchanged.
  static constexpr int64_t kMaxFusedTileExtent = int64_t{1} << 16;
  void FuseTiles(int64_t min_rows, int64_t min_cols);

  // "shape [64,32] | op0 strides [32,1] off 0 contiguous | op1 ..."
  std::string Describe() const;

 private:
  int num_operands_ = 0;
  Dims shape_;
  Dims strides_[kMaxOperands];
  int64_t offsets_[kMaxOperands] = {};
  InnerKind kinds_[kMaxOperands] = {};
  int64_t numel_ = 0;
  bool tiled_ = false;
  int tile_row_axes_ = 0;
  int tile_col_axes_ = 1;
};

// One step of the outer odometer: per-operand element offsets of the first
// element of a row (or tile).
struct Chunk {
  int64_t offsets[kMaxOperands];
};

// Walks outer positions [begin, end) of a plan (external-loop style). One
// division at construction; each step is a counter with carry.
class ChunkIterator {
 public:
  ChunkIterator(const IterationPlan& plan, int64_t begin, int64_t end);
  explicit ChunkIterator(const IterationPlan& plan)
      : ChunkIterator(plan, 0, plan.outer_size()) {}

  // Fills `chunk` with the next position; false when the range is done.
  bool Next(Chunk& chunk);

 private:
  const IterationPlan& plan_;
  int64_t remaining_;
  int outer_ndim_;
  Dims counter_;
  int64_t offsets_[kMaxOperands];
};

// Calls f(offsets) for each outer position in [begin, end) of a plan, in
// order, where offsets[op] is operand op's element offset of the position
// (a Chunk's offsets): a single call for a plan of one row, a plain loop
// when one axis is outer (no odometer call per row), else a ChunkIterator.
// Throws as ChunkIterator does.
template <class F>
void ForEachChunk(const IterationPlan& plan, int64_t begin, int64_t end,
                  F&& f) {
  const int outer_ndim = plan.outer_ndim();
  if (outer_ndim == 0 && begin == 0 && end == plan.outer_size() && end == 1) {
    // One row (or tile): its offsets are the plan's.
    int64_t offsets[kMaxOperands] = {};
    for (int op = 0; op < plan.num_operands(); ++op) {
      offsets[op] = plan.offset(op);
    }
    f(static_cast<const int64_t*>(offsets));
    return;
  }
  if (outer_ndim != 1) {
    ChunkIterator chunks(plan, begin, end);
    Chunk chunk;
    while (chunks.Next(chunk)) f(static_cast<const int64_t*>(chunk.offsets));
    return;
  }
  if (begin < 0 || end > plan.outer_size() || begin > end) {
    ChunkIterator(plan, begin, end);  // Throws the range error.
  }
  // Operands past num_operands() step by 0: the per-row update is a fixed,
  // branch-free kMaxOperands additions.
  const int nops = plan.num_operands();
  int64_t offsets[kMaxOperands] = {};
  int64_t steps[kMaxOperands] = {};
  for (int op = 0; op < nops; ++op) {
    steps[op] = plan.strides(op)[0];
    // offset-checked: the plan validated every partial sum
    offsets[op] = plan.offset(op) + begin * steps[op];
  }
  for (int64_t i = begin; i < end; ++i) {
    f(static_cast<const int64_t*>(offsets));
    if (i + 1 == end) break;
    for (int op = 0; op < kMaxOperands; ++op) {
      // offset-checked: position i + 1 < end, which the plan validated
      offsets[op] += steps[op];
    }
  }
}

// Splits [0, plan.outer_size()) into `parts` disjoint, nearly equal ranges
// (fewer when there are fewer positions; at most kMaxRank - 1); range i is
// [bounds[i], bounds[i+1]).
Dims PartitionOuter(const IterationPlan& plan, int parts);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_ITERATION_PLAN_H_
