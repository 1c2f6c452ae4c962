// Per-target scan and arg-reduction kernels of the complex family
// (simd/scan/scan-inl.h).
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"
#include "simd/scan/scan_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/scan/scan_complex.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/scan/scan-inl.h"

STRIDEKIT_AXIS_EXECUTORS(RunScanComplexKernel, RunArgReduceComplexKernel,
                         ComplexFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunScanComplexKernel, ScanComplexKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunArgReduceComplexKernel,
                              ArgReduceComplexKernels)
#endif  // HWY_ONCE
