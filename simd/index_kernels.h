// The per-target batch index kernels of simd/index_kernels.cc, called through
// their HWY_EXPORT tables by an explicit table slot, so that the dispatch layer
// (dispatch/targets.cc) decides which target runs without touching Highway's
// global target choice. Each returns the HWY_TARGET whose code ran.
// Arguments are validated by dispatch/index_kernels.cc.
#ifndef STRIDEKIT_SIMD_INDEX_KERNELS_H_
#define STRIDEKIT_SIMD_INDEX_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "stridekit/dims.h"
#include "stridekit/c_types.h"

namespace stridekit::simd {

int64_t RavelBatch(size_t slot, int64_t n, const int64_t* indices,
                   DimsView strides, int64_t offset, int64_t* out);
int64_t UnravelBatch(size_t slot, int64_t n, const int64_t* flat,
                     DimsView shape, int64_t numel, int64_t* out);
// `plan` is CoalesceAxes of a validated view (lib/strided_layout.h).
int64_t ViewOffsets(size_t slot, const sk_view& plan, int64_t begin,
                    int64_t count, int64_t* out);

}  // namespace stridekit::simd

#endif  // STRIDEKIT_SIMD_INDEX_KERNELS_H_
