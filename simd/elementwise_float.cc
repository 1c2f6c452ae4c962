// Per-target elementwise executors for float32 and float64
// (simd/elementwise-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"
#include "scalar_ops.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "elementwise_float.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

int64_t RunElementwiseFloatKernel(const ElementwiseTask& task) {
  return RunElementwiseOf<FloatTypes>(task);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseFloatKernel,
                              ElementwiseFloatKernels)
#endif  // HWY_ONCE
