// Per-target elementwise executors for int8, int16, int32 and int64
// (simd/elementwise/elementwise-inl.h).
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise/elementwise_signed.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/elementwise/elementwise-inl.h"

STRIDEKIT_ELEMENTWISE_EXECUTOR(RunElementwiseSignedKernel, SignedFamily,
                               kOthers)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseSignedKernel,
                              ElementwiseSignedKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseSignedKernelRow,
                              ElementwiseRowSignedKernels)
#endif  // HWY_ONCE
