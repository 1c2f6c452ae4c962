// The scalar shape core: pure functions over dimension lists (Nx Shape,
// NumPy broadcasting and index conversion, NumSharp coordinate helpers).
// Dimensions, strides and offsets are int64 element counts. Inputs are spans
// (any contiguous int64 range); results are Dims and never allocate.
#ifndef STRIDEKIT_SHAPE_H_
#define STRIDEKIT_SHAPE_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "stridekit/dims.h"

namespace stridekit {

// Throws kInvalidArgument naming `op` if any dim is negative or the rank
// exceeds kMaxRank.
void CheckShape(DimsView shape, const char* op);

// Product of the dims; 1 for a scalar, 0 with any zero dim. Overflow checked
// as CheckedNumel: the product of the non-zero dims must fit in int64.
// The element count of a shape whose dims are >= 0. Throws kOverflow, naming
// `op` and `what` ("shape", "view shape"), when the product of the non-zero
// dims does not fit in int64 (NumPy's rule, so also when a dim is 0).
int64_t CheckedNumel(DimsView shape, const char* op, const char* what);
int64_t Numel(DimsView shape);

// Row-major strides in elements with the Nx canonical rule: a zero-size dim
// gets stride 0 and so does every dim to its left. [2,0,3] -> [0,0,1].
Dims CContiguousStrides(DimsView shape);
// Column-major strides, the mirror rule: a zero-size dim and every dim to its
// right get stride 0. [2,3,4] -> [1,2,6].
Dims FContiguousStrides(DimsView shape);

// sum_i index[i] * strides[i], overflow checked, no bounds checks.
int64_t RavelIndex(DimsView index, DimsView strides);

// The C-order multi-index of flat index k in `shape`. A scalar accepts only
// k = 0; a zero-size shape accepts only k = 0 and gives zeros (the Nx seed).
Dims UnravelIndex(int64_t k, DimsView shape);
// As UnravelIndex, writing into dst, which must have length shape.size().
void UnravelIndexInto(int64_t k, DimsView shape, std::span<int64_t> dst);
// NumPy np.unravel_index semantics: every k outside [0, numel) is an error,
// so a zero-size shape accepts none. NumSharp GetCoordinates by dims.
Dims CoordinatesOf(int64_t k, DimsView shape);

// Resolves one -1 in a reshape spec against `shape`'s element count, NumPy
// style: at most one -1, no other negative dims, and the product must match.
Dims ResolveNegOne(DimsView shape, DimsView spec);

// NumPy broadcasting (right alignment, equal or 1). Errors name both shapes.
Dims Broadcast(DimsView a, DimsView b);
Dims BroadcastShapes(std::span<const DimsView> shapes);
bool AreBroadcastable(std::span<const DimsView> shapes);

// Maps an index of the broadcast target to the index in source_shape: size-1
// source dims map to 0, leading target dims are dropped.
Dims BroadcastIndex(DimsView target_index, DimsView source_shape);
// As BroadcastIndex into dst (length source_shape.size()); positions with no
// matching target dim are left untouched, as in Nx.
void BroadcastIndexInto(DimsView target_index, DimsView source_shape,
                        std::span<int64_t> dst);

// The shape after reducing `axes` (negative allowed, NumPy AxisError for out
// of range, error for duplicates): removed, or kept as 1 with keepdims.
Dims ReduceOutputShape(DimsView shape, DimsView axes, bool keepdims);

// Normalises axis into [0, ndim), NumPy wording on failure:
// "op: axis 3 is out of bounds for array of dimension 2".
int NormalizeAxis(int64_t axis, int64_t ndim, const char* op);

// NumSharp InferNegativeCoordinates with NumPy IndexError wording: wraps
// negative coordinates in place; rejects too many indices or out-of-bounds.
void NormalizeIndex(DimsView shape, std::span<int64_t> coords);

// "[2,3,4]", "[]" for a scalar.
std::string ToString(DimsView shape);
// Parses ToString's format back (spaces allowed after '[' and around
// commas). Rejects negative dims, overflow and malformed text.
Dims ParseShape(std::string_view text);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_SHAPE_H_
