// Per-target reduction executors for float32 and float64
// (simd/reduce-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "reduce_float.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "reduce-inl.h"

STRIDEKIT_REDUCE_EXECUTOR(RunReduceFloatKernel, FloatFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduceFloatKernel, ReduceFloatKernels)
#endif  // HWY_ONCE
