// Per-target elementwise executors for int32 and int64
// (simd/elementwise-inl.h).
#include "scalar_ops.h"
#include "simd/dispatch_table.h"
#include "simd/numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise_int.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "simd/elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

int64_t RunElementwiseIntegerKernel(const ElementwiseTask& task) {
  return RunElementwiseOf<int32_t, int64_t>(task);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_TASK_KERNEL(RunElementwiseIntegerKernel,
                             RunElementwiseIntegerTask, ElementwiseTask)
#endif  // HWY_ONCE
