// Per-target comparisons and predicates of bool and the integers
// (simd/select/select-inl.h).
#include "simd/dispatch_table.h"
#include "simd/select/select_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/select/compare_integer.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/select/select-inl.h"

#define STRIDEKIT_COMPARE_INTEGER_BODY                                   \
  RunSelectOf<TypeList<Bool, int8_t, int16_t, int32_t, int64_t, uint8_t, \
                       uint16_t, uint32_t, uint64_t>>
STRIDEKIT_SELECT_EXECUTOR(RunCompareIntegerKernel,
                          STRIDEKIT_COMPARE_INTEGER_BODY)

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunCompareIntegerKernel, CompareIntegerKernels)
#endif  // HWY_ONCE
