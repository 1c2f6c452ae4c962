#include "simd/index_kernels.h"

#include <iterator>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/index_kernels.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "simd/index_kernels-inl.h"

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

// The entry of `table` for `slot`; a build with a single target has a
// one-entry table.
template <class Table>
auto Entry(const Table& table, size_t slot) {
  return std::size(table) == 1 ? table[0] : table[slot];
}

}  // namespace

namespace simd {

int64_t CompiledTargets() { return HWY_TARGETS; }

size_t TableSlot(int64_t target) {
  // Slot 0 is Highway's initialising trampoline; dynamic targets follow in
  // ChosenTarget bit order and the fallback (SCALAR/EMU128) comes last.
  const int64_t chosen_bit = HWY_CHOSEN_TARGET_SHIFT(target);
  return chosen_bit == 0 ? HWY_MAX_DYNAMIC_TARGETS + 1
                         : hwy::Num0BitsBelowLS1Bit_Nonzero64(
                               static_cast<uint64_t>(chosen_bit));
}

int64_t RavelBatch(size_t slot, int64_t n, const int64_t* indices,
                   DimsView strides, int64_t offset, int64_t* out) {
  return Entry(HWY_DISPATCH_TABLE(RavelBatchKernel), slot)(n, indices, strides,
                                                           offset, out);
}

int64_t UnravelBatch(size_t slot, int64_t n, const int64_t* flat,
                     DimsView shape, int64_t numel, int64_t* out) {
  return Entry(HWY_DISPATCH_TABLE(UnravelBatchKernel), slot)(n, flat, shape,
                                                             numel, out);
}

int64_t ViewOffsets(size_t slot, const sk_view& plan, int64_t begin,
                    int64_t count, int64_t* out) {
  return Entry(HWY_DISPATCH_TABLE(ViewOffsetsKernel), slot)(plan, begin, count,
                                                            out);
}

}  // namespace simd
}  // namespace stridekit
#endif  // HWY_ONCE
