// Per-target comparisons and predicates of float16, bfloat16, float32, float64
// and complex (simd/select/select-inl.h).
#include "simd/dispatch_table.h"
#include "simd/select/select_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/select/compare_float.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/select/select-inl.h"

#define STRIDEKIT_COMPARE_FLOAT_BODY \
  RunSelectOf<TypeList<Float16, BFloat16, float, double, Complex64, Complex128>>
STRIDEKIT_SELECT_EXECUTOR(RunCompareFloatKernel, STRIDEKIT_COMPARE_FLOAT_BODY)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunCompareFloatKernel, CompareFloatKernels)
#endif  // HWY_ONCE
