// Per-target scan and arg-reduction kernels of the signed family
// (simd/scan-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"
#include "scan_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "scan_signed.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "scan-inl.h"

STRIDEKIT_AXIS_EXECUTORS(RunScanSignedKernel, RunArgReduceSignedKernel,
                         SignedFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunScanSignedKernel, ScanSignedKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunArgReduceSignedKernel, ArgReduceSignedKernels)
#endif  // HWY_ONCE
