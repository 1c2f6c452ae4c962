// Per-target elementwise executors for float16 and bfloat16 (computed in
// float32) (simd/elementwise/elementwise-inl.h).
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise/elementwise_half.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/elementwise/elementwise-inl.h"

STRIDEKIT_ELEMENTWISE_EXECUTOR(RunElementwiseHalfKernel, HalfFamily, kOthers)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseHalfKernel, ElementwiseHalfKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseHalfKernelRow,
                              ElementwiseRowHalfKernels)
#endif  // HWY_ONCE
