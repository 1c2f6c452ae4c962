// Per-target reduction executors for complex64 and complex128
// (simd/reduce-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "reduce_complex.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "reduce-inl.h"

STRIDEKIT_REDUCE_EXECUTOR(RunReduceComplexKernel, ComplexFamily)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduceComplexKernel, ReduceComplexKernels)
#endif  // HWY_ONCE
