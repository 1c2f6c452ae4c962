// Per-target elementwise executors for int32 and int64
// (simd/elementwise-inl.h).
#include "dispatch_table.h"
#include "numeric_task.h"
#include "scalar_ops.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "elementwise_int.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

int64_t RunElementwiseIntegerKernel(const ElementwiseTask& task) {
  return RunElementwiseOf<IntegerTypes>(task);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseIntegerKernel,
                              ElementwiseIntegerKernels)
#endif  // HWY_ONCE
