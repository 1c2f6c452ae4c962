// What a per-target copy executor runs: a planned copy over outer positions
// [begin, end) of `plan`, operand 0 the destination and operand 1 the source.
#ifndef STRIDEKIT_SIMD_COPY_TASK_H_
#define STRIDEKIT_SIMD_COPY_TASK_H_

#include <cstddef>
#include <cstdint>

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
};

namespace simd {

// Runs `task` with the copy kernels of the target in HWY_EXPORT table slot
// `slot` (simd/dispatch_table.h); returns that target's HWY_TARGET.
int64_t RunCopyTask(size_t slot, const CopyTask& task);

}  // namespace simd
}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_COPY_TASK_H_
