// The per-target batch index kernels of simd/index/index_kernels.cc, exported
// as kernel tables (dispatch_table.h). Arguments are validated by
// dispatch/index_kernels.cc.
#ifndef STRIDEKIT_SIMD_INDEX_INDEX_KERNELS_H_
#define STRIDEKIT_SIMD_INDEX_INDEX_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "simd/dispatch_table.h"
#include "stridekit/c_types.h"
#include "stridekit/dims.h"

namespace stridekit::simd {

// The per-target index kernels (the reference functions of
// index_reference.h, vectorised); each returns HWY_TARGET.
using RavelBatchFn = int64_t (*)(int64_t n, const int64_t* indices,
                                 DimsView strides, int64_t offset,
                                 int64_t* out);
using UnravelBatchFn = int64_t (*)(int64_t n, const int64_t* flat,
                                   DimsView shape, int64_t numel, int64_t* out);
using ViewOffsetsFn = int64_t (*)(const sk_view& plan, int64_t begin,
                                  int64_t count, int64_t* out);
KernelTable<RavelBatchFn> RavelBatchKernels();
KernelTable<UnravelBatchFn> UnravelBatchKernels();
KernelTable<ViewOffsetsFn> ViewOffsetsKernels();

}  // namespace stridekit::simd

#endif  // STRIDEKIT_SIMD_INDEX_INDEX_KERNELS_H_
