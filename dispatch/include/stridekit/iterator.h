// The strided iterator: a caller's own inner loop over N operands, one chunk
// (a pointer, a count and a byte stride per operand) at a time, on one
// thread (Next) or split over threads (Run). The C ABI's sk_iter_* are thin
// wrappers of this class.
//
// Operand 0 is the output; inputs broadcast to its shape (NumPy rules: an
// input has at most the output's rank, each of its dims equal to the
// output's or 1). Every operand has its own element size (any size from 1
// byte up). The walk follows stridekit's IterationPlan: size-1 axes
// dropped, axes ordered by the output's strides and coalesced where every
// operand is contiguous, axes on which every stride is negative flipped; a
// chunk runs the plan's whole inner axis. An output mask restricts the
// iteration to its valid box; masked inputs are not supported (materialise
// them first with Copy). Without reduce_ok the output must write each
// location once; with it the output may have stride-0 axes (a reduction:
// the loop accumulates into the output). The iterator never touches data
// and does not copy overlapping operands: an input that overlaps the output
// other than exactly (in place) sees the loop's earlier writes.
#ifndef STRIDEKIT_ITERATOR_H_
#define STRIDEKIT_ITERATOR_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include "stridekit/c_types.h"
#include "stridekit/iteration_plan.h"

namespace stridekit {

struct IterOperand {
  const sk_view* view;
  size_t elem_size;  // Bytes per element, at least 1.
  void* data;        // Element i is at data + (offset + sum i_d*strides[d]) *
                     // elem_size.
};

struct IteratorOptions {
  // The output may have stride-0 axes (SK_ITER_REDUCE_OK).
  bool reduce_ok = false;
  // Run walks a transposed input in cache-sized 2-D tiles (short chunks, one
  // per row of a tile) rather than whole rows.
  bool tiles = true;
  // `op` names the operation in error messages.
  const char* op = "iterator";
};

// The loop a chunk is handed to: ptrs[k] is operand k's first element,
// byte_strides[k] its step, count the number of elements.
using ChunkLoopFn = void (*)(char* const* ptrs, int64_t count,
                             const int64_t* byte_strides, void* ctx);

class StridedIterator {
 public:
  // Validates every operand (layout, byte offsets, broadcasting, the
  // output's distinct positions, data pointers) and plans the walk; throws
  // Error naming options.op and the operand. Allocates only here.
  StridedIterator(std::span<const IterOperand> operands,
                  const IteratorOptions& options = {});
  StridedIterator(const StridedIterator&) = delete;
  StridedIterator& operator=(const StridedIterator&) = delete;

  int num_operands() const { return plan_.num_operands(); }
  // The plan Next walks (rows, no tiles).
  const IterationPlan& plan() const { return plan_; }
  // Elements per chunk of Next (0 when there is nothing to visit).
  int64_t chunk_size() const { return plan_.inner_size(); }
  // Elements Run and Next visit: the output's valid box.
  int64_t numel() const { return plan_.numel(); }

  // Writes the next chunk (num_operands() pointers and byte strides) and
  // returns true; false after the last. Never allocates.
  bool Next(char** ptrs, int64_t* count, int64_t* byte_strides);
  // Starts the walk of Next over.
  void Reset();

  // Runs loop over every chunk exactly once, split into at most `parts`
  // parts run by RunParallel: boxes of the iteration cut as the engine cuts
  // its calls (ThreadBoxes; never along the output's stride-0 axes, whose
  // positions accumulate into one output element of a reduction), each
  // walked by its own plan. Each output element is
  // computed by one part, in the order of a serial run, so the results do
  // not depend on `parts`. Independent of Next's position; safe to call
  // from several threads at once. An exception from loop is rethrown after
  // every part has finished.
  void Run(int parts, ChunkLoopFn loop, void* ctx) const;
  template <typename Loop>
  void Run(int parts, Loop&& loop) const {
    using L = std::remove_reference_t<Loop>;
    Run(
        parts,
        [](char* const* p, int64_t n, const int64_t* s, void* ctx) {
          (*static_cast<L*>(ctx))(p, n, s);
        },
        const_cast<void*>(static_cast<const void*>(&loop)));
  }

  // The plan as text ("shape [...] numel N | op0 strides ... | elem sizes
  // [...]"), plus Run's tiled plan when it differs.
  std::string Describe() const;

 private:
  // Walks every chunk of `plan` (a plan of these operands over the box or a
  // part of it), row by row or, tiled, in tile_rows_ x tile_cols_ tiles.
  void Walk(const IterationPlan& plan, ChunkLoopFn loop, void* ctx) const;

  IterationPlan plan_;
  IterationPlan run_plan_;
  bool tiles_ = true;
  // Each operand over the box (its origin at the box's first position),
  // which Run splits into parts as the engine does (ThreadBoxes).
  Dims box_;
  Operand layouts_[kMaxOperands];
  char* bases_[kMaxOperands] = {};
  int64_t elem_sizes_[kMaxOperands] = {};
  int64_t byte_strides_[kMaxOperands] = {};
  int64_t tile_rows_ = 0;  // Run's tiles: positions of the tile axis
  int64_t tile_cols_ = 0;  // by positions of the inner axis.
  std::optional<ChunkIterator> chunks_;
};

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_ITERATOR_H_
