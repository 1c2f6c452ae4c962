// Per-target elementwise executors for float32 and float64, and the
// transcendentals of float16 and bfloat16 (on float32 rows)
// (simd/elementwise-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "elementwise_float.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "elementwise-inl.h"

STRIDEKIT_ELEMENTWISE_EXECUTOR(RunElementwiseFloatKernel, FloatElementwiseTypes,
                               kTranscendentals)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseFloatKernel,
                              ElementwiseFloatKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseFloatKernelRow,
                              ElementwiseRowFloatKernels)
#endif  // HWY_ONCE
