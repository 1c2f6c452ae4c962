// Per-target elementwise executors for complex64 and complex128
// (simd/elementwise/elementwise-inl.h).
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise/elementwise_complex.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/elementwise/elementwise-inl.h"

STRIDEKIT_ELEMENTWISE_EXECUTOR(RunElementwiseComplexKernel, ComplexFamily,
                               kOthers)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseComplexKernel,
                              ElementwiseComplexKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseComplexKernelRow,
                              ElementwiseRowComplexKernels)
#endif  // HWY_ONCE
