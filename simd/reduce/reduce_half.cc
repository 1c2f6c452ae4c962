// Per-target reduction executors for float16 and bfloat16 (float32
// accumulators) (simd/reduce/reduce-inl.h).
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/reduce/reduce_half.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/reduce/reduce-inl.h"

STRIDEKIT_REDUCE_EXECUTOR(RunReduceHalfKernel, HalfFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduceHalfKernel, ReduceHalfKernels)
#endif  // HWY_ONCE
