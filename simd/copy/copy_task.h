// What a per-target copy executor runs: a planned copy over outer positions
// [begin, end) of `plan`, operand 0 the destination and operand 1 the source.
#ifndef STRIDEKIT_SIMD_COPY_COPY_TASK_H_
#define STRIDEKIT_SIMD_COPY_COPY_TASK_H_

#include <cstddef>
#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/iteration_plan.h"

namespace stridekit {

struct CopyTask {
  const IterationPlan* plan;
  const void* src;   // Element 0 of the source buffer.
  void* dst;         // Element 0 of the destination buffer.
  size_t elem_size;  // 1, 2, 4 or 8.
  int64_t begin;
  int64_t end;
  bool stream;  // Non-temporal stores for contiguous destination rows.
  // Null, or kCopyScratchBytes aligned to 64 for the streamed transpose's
  // buffer (tiled plans).
  void* scratch = nullptr;
  // For a plan with fused tile axes (IterationPlan::FuseTiles): the
  // destination offset of each of the tile's rows and the source offset of
  // each of its columns, relative to the tile's origin.
  const int64_t* row_offsets = nullptr;
  const int64_t* col_offsets = nullptr;
  // Null, or one element that fills `pad_before` elements before each
  // destination row and `pad_after` after it: a pad's border along the
  // last axis. Set (with the counts) only for unstreamed plans whose rows
  // are contiguous in both buffers (dispatch's CopyBox checks); other
  // branches of the executor ignore it.
  const void* row_fill = nullptr;
  int64_t pad_before = 0, pad_after = 0;
};

inline constexpr size_t kCopyScratchBytes = size_t{288} << 10;

namespace simd {

// The per-target copy kernels: run `task`, return HWY_TARGET.
using CopyKernel = int64_t (*)(const CopyTask&);
KernelTable<CopyKernel> CopyKernels();

}  // namespace simd
}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_COPY_COPY_TASK_H_
