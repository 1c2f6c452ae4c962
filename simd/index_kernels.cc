#include "index_kernels.h"

#include <iterator>

#include "dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "index_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "index_kernels-inl.h"

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
namespace stridekit {
namespace {

HWY_EXPORT(RavelBatchKernel);
HWY_EXPORT(UnravelBatchKernel);
HWY_EXPORT(ViewOffsetsKernel);

}  // namespace

namespace simd {

int64_t RavelBatch(size_t slot, int64_t n, const int64_t* indices,
                   DimsView strides, int64_t offset, int64_t* out) {
  return TableEntry(HWY_DISPATCH_TABLE(RavelBatchKernel), slot)(
      n, indices, strides, offset, out);
}

int64_t UnravelBatch(size_t slot, int64_t n, const int64_t* flat,
                     DimsView shape, int64_t numel, int64_t* out) {
  return TableEntry(HWY_DISPATCH_TABLE(UnravelBatchKernel), slot)(
      n, flat, shape, numel, out);
}

int64_t ViewOffsets(size_t slot, const sk_view& plan, int64_t begin,
                    int64_t count, int64_t* out) {
  return TableEntry(HWY_DISPATCH_TABLE(ViewOffsetsKernel), slot)(plan, begin,
                                                                 count, out);
}

}  // namespace simd
}  // namespace stridekit
#endif  // HWY_ONCE
