// Per-target where (out = cond ? a : b) by element size
// (simd/select/select-inl.h).
#include "simd/dispatch_table.h"
#include "simd/select/select_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/select/where.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/select/select-inl.h"

STRIDEKIT_SELECT_EXECUTOR(RunWhereKernel, RunWhereOf)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunWhereKernel, WhereKernels)
#endif  // HWY_ONCE
