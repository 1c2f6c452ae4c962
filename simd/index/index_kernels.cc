#include "simd/index/index_kernels.h"

#include <iterator>

#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/index/index_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/index/index_kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

int64_t RavelBatchKernel(int64_t n, const int64_t* indices, DimsView strides,
                         int64_t offset, int64_t* out) {
  RavelBatch(hn::ScalableTag<int64_t>(), n, indices, strides, offset, out);
  return HWY_TARGET;
}

int64_t UnravelBatchKernel(int64_t n, const int64_t* flat, DimsView shape,
                           int64_t numel, int64_t* out) {
  UnravelBatch(hn::ScalableTag<int64_t>(), n, flat, shape, numel, out);
  return HWY_TARGET;
}

int64_t ViewOffsetsKernel(const sk_view& plan, int64_t begin, int64_t count,
                          int64_t* out) {
  ViewOffsets(hn::ScalableTag<int64_t>(), plan, begin, count, out);
  return HWY_TARGET;
}

}  // namespace
// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RavelBatchKernel, RavelBatchKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(UnravelBatchKernel, UnravelBatchKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(ViewOffsetsKernel, ViewOffsetsKernels)
#endif  // HWY_ONCE
