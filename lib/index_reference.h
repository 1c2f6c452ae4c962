// Scalar reference implementations of the batch index kernels, and the
// per-row exact helpers that the vector targets share with them so that every
// target accepts, rejects and words errors identically. The public,
// dispatched entry points are in stridekit/index_kernels.h; arguments here
// are already validated by them.
#ifndef STRIDEKIT_LIB_INDEX_REFERENCE_H_
#define STRIDEKIT_LIB_INDEX_REFERENCE_H_

#include <cstdint>

#include "stridekit/c_types.h"
#include "stridekit/dims.h"

namespace stridekit::reference {

// ---- RavelBatch: out[i] = offset + sum_d indices[i * ndim + d] * strides[d],
// evaluated left to right; an error if any product or partial sum overflows.

// Returns the largest M such that no product or partial sum of a row can
// overflow when every |index| <= M. Vector targets run rows within this bound
// without checks and every other row through RavelRow.
uint64_t RavelUncheckedIndexBound(DimsView strides, int64_t offset);

// The offset of row `row` (strides.size() indices), overflow checked; the
// error names the row number `i`.
int64_t RavelRow(int64_t i, const int64_t* row, DimsView strides,
                 int64_t offset);

// `out` (n entries) must not overlap `indices` (n * strides.size()).
void RavelBatch(int64_t n, const int64_t* indices, DimsView strides,
                int64_t offset, int64_t* out);

// ---- UnravelBatch: C-order multi-indices of flat indices in [0, numel).

// Vector targets divide with a double-precision reciprocal, exact while the
// dividend is below 2^51 (DivideSmall in simd/index/index_kernels-inl.h). For
// shapes with more elements they run UnravelRow (hardware division) for
// every row.
inline constexpr int64_t kMaxReciprocalNumel = int64_t{1} << 51;

// Writes the multi-index of flat[i] = `flat` to `out_row` (shape.size()
// entries); throws kOutOfRange naming `i` unless 0 <= flat < numel, where
// `numel` is the element count of `shape`.
void UnravelRow(int64_t i, int64_t flat, DimsView shape, int64_t numel,
                int64_t* out_row);

// `out` (n * shape.size() entries) must not overlap `flat` (n entries).
void UnravelBatch(int64_t n, const int64_t* flat, DimsView shape, int64_t numel,
                  int64_t* out);

// ---- ViewOffsets: element offsets of positions [begin, begin + count) in C
// order of the view's shape, INT64_MIN where masked out. `view` passed
// CheckStridedLayout and the range CheckPositionRange.
inline constexpr int64_t kMaskedOffset = INT64_MIN;

void ViewOffsets(const sk_view& view, int64_t begin, int64_t count,
                 int64_t* out);

}  // namespace stridekit::reference

#endif  // STRIDEKIT_LIB_INDEX_REFERENCE_H_
