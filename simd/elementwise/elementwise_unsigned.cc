// Per-target elementwise executors for bool, uint8, uint16, uint32 and uint64
// (simd/elementwise/elementwise-inl.h).
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise/elementwise_unsigned.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/elementwise/elementwise-inl.h"

STRIDEKIT_ELEMENTWISE_EXECUTOR(RunElementwiseUnsignedKernel, UnsignedFamily,
                               kOthers)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseUnsignedKernel,
                              ElementwiseUnsignedKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseUnsignedKernelRow,
                              ElementwiseRowUnsignedKernels)
#endif  // HWY_ONCE
