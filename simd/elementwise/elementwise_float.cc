// Per-target elementwise executors for float32 and float64
// (simd/elementwise/elementwise-inl.h): the ops other than the transcendentals
// here, the transcendentals (and those of float16 and bfloat16) handed to
// elementwise_float_math.cc, which compiles beside this unit.
#include "simd/common/numeric_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise/elementwise_float.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/elementwise/elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

int64_t RunElementwiseFloatKernel(const ElementwiseTask& task) {
  if (task.kernel.transcendental()) return RunElementwiseFloatMath(task);
  return RunElementwiseOf<FloatFamily, FloatRows::kOthers>(task);
}

simd::ElementwiseRowFn RunElementwiseFloatKernelRow(
    const ElementwiseKernel& kernel, DType t) {
  if (kernel.transcendental()) return ElementwiseFloatMathRow(kernel, t);
  return ElementwiseRowOf<FloatFamily, FloatRows::kOthers>(kernel, t);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseFloatKernel,
                              ElementwiseFloatKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwiseFloatKernelRow,
                              ElementwiseRowFloatKernels)
#endif  // HWY_ONCE
