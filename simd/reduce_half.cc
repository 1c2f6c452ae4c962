// Per-target reduction executors for float16 and bfloat16 (float32
// accumulators) (simd/reduce-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "reduce_half.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "reduce-inl.h"

STRIDEKIT_REDUCE_EXECUTOR(RunReduceHalfKernel, HalfFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduceHalfKernel, ReduceHalfKernels)
#endif  // HWY_ONCE
