// Batch index kernels, dispatched to the active target (stridekit/targets.h).
// Every target gives bit-identical results and identical errors. On error
// the contents of `out` are unspecified.
#ifndef STRIDEKIT_INDEX_KERNELS_H_
#define STRIDEKIT_INDEX_KERNELS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>

#include "stridekit/dims.h"
#include "stridekit/stridekit.h"

namespace stridekit {

// out[i] = offset + sum_d indices[i * ndim + d] * strides[d] for i in [0, n),
// where ndim = strides.size(), evaluated left to right. Throws kOverflow
// naming the first row where a product or partial sum overflows int64.
// `out` (n entries) must not overlap `indices` (n * ndim entries).
void RavelBatch(int64_t n, const int64_t* indices, DimsView strides,
                int64_t offset, int64_t* out);

// out[i * ndim + d] = the C-order multi-index of flat[i] in `shape`
// (np.unravel_index). Throws kOutOfRange naming the first flat[i] outside
// [0, numel); a zero-size shape accepts none, a scalar shape only 0.
// `out` (n * ndim entries) must not overlap `flat` (n entries).
void UnravelBatch(int64_t n, const int64_t* flat, DimsView shape, int64_t* out);

// out[p] = the element offset of the view's position begin + p in C order of
// its shape, for p in [0, count), or INT64_MIN where the position is masked
// out. The view is validated first (CheckStridedLayout in
// lib/strided_layout.h: shape, mask, and that all of its offsets fit in
// int64); [begin, begin + count) must lie within [0, numel).
void ViewOffsets(const sk_view& view, int64_t begin, int64_t count,
                 int64_t* out);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_INDEX_KERNELS_H_
