// Per-target reduction executors for int8, int16, int32 and int64
// (simd/reduce-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "reduce_signed.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "reduce-inl.h"

STRIDEKIT_REDUCE_EXECUTOR(RunReduceSignedKernel, SignedFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduceSignedKernel, ReduceSignedKernels)
#endif  // HWY_ONCE
