// Per-target elementwise executors for the transcendentals of float32,
// float64, float16 and bfloat16 (the last two through float32 rows;
// simd/elementwise/elementwise-inl.h), which elementwise_float.cc hands them
// to: the larger part of the float family, in a translation unit of its own so
// that the two compile in parallel.
#include "simd/common/numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/elementwise/elementwise_float_math.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/elementwise/elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

int64_t RunElementwiseFloatMath(const ElementwiseTask& task) {
  return RunElementwiseOf<FloatElementwiseTypes, FloatRows::kTranscendentals>(
      task);
}

simd::ElementwiseRowFn ElementwiseFloatMathRow(const ElementwiseKernel& kernel,
                                               DType t) {
  return ElementwiseRowOf<FloatElementwiseTypes, FloatRows::kTranscendentals>(
      kernel, t);
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();
