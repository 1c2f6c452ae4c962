// Per-target kernel of simd/contraction/multiply_add_task.h: the rule on whole
// vectors, one-lane vectors for the tail (the same rule, so the same bits).
#include "simd/contraction/multiply_add_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/contraction/multiply_add.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/common/multiply_add-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

template <typename T>
void Rows(const T* a, const T* b, const T* c, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = int64_t(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    hn::StoreU(MulAdd(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i),
                      hn::LoadU(d, c + i)),
               d, out + i);
  }
  const hn::CappedTag<T, 1> d1;
  for (; i < n; ++i) {
    hn::StoreU(MulAdd(d1, hn::LoadU(d1, a + i), hn::LoadU(d1, b + i),
                      hn::LoadU(d1, c + i)),
               d1, out + i);
  }
}

int64_t MultiplyAddKernel(DType t, const void* a, const void* b, const void* c,
                          void* out, int64_t n) {
  if (t == DType::kFloat32) {
    Rows(static_cast<const float*>(a), static_cast<const float*>(b),
         static_cast<const float*>(c), static_cast<float*>(out), n);
  } else if (t == DType::kFloat64) {
    Rows(static_cast<const double*>(a), static_cast<const double*>(b),
         static_cast<const double*>(c), static_cast<double*>(out), n);
  }
  return HWY_TARGET;
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(MultiplyAddKernel, MultiplyAddKernels)
#endif  // HWY_ONCE
