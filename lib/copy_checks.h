// Argument checks shared by the reference and the dispatched copy family, so
// both reject exactly the same inputs with the same messages.
#ifndef STRIDEKIT_LIB_COPY_CHECKS_H_
#define STRIDEKIT_LIB_COPY_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "stridekit/c_types.h"

namespace stridekit {

// Element size in {1, 2, 4, 8, 16}, both views checked (CheckLayout), data
// pointers non-null unless the view is empty, and src broadcastable to dst
// (src rank <= dst rank, each src dim equal to dst's or 1), and no two valid
// dst positions sharing memory (see CheckDistinctPositions in the .cc).
void CheckCopyArguments(size_t elem_size, const sk_view& src,
                        const void* src_data, const sk_view& dst,
                        const void* dst_data, const char* op);
// The part of CheckCopyArguments after the layouts (checked by the caller,
// for any element sizes): src broadcastable to dst, distinct dst positions,
// non-null data pointers where elements are read or written.
void CheckSourceAndDestination(const sk_view& src, const void* src_data,
                               const sk_view& dst, const void* dst_data,
                               const char* op);
// The source part of CheckSourceAndDestination, for a further source of
// the same destination: src broadcastable to dst, non-null src data where
// dst has elements.
void CheckSource(const sk_view& src, const void* src_data, const sk_view& dst,
                 const char* op);
// Throws unless `data` is non-null or v has no valid element; `what` names
// the operand ("source", "destination").
void CheckData(const sk_view& v, const void* data, const char* op,
               const char* what);
// CheckStridedLayout, then CheckByteOffsets for elements of elem_size bytes.
void CheckLayout(const sk_view& v, size_t elem_size, const char* op);
// Throws unless no two valid positions of dst share memory (a broadcast
// axis, stride 0 on an axis longer than 1, is the common offender; NumPy
// marks such views read-only). Views with no valid element pass.
void CheckDistinctPositions(const sk_view& dst, const char* op);
// The common layout of a call, accepted at once: the views (the first is
// the destination) all unmasked, of the first's rank and shape, C-contiguous
// and non-empty, with byte offsets that fit for elements of their
// elem_sizes (one per view), and each data pointer non-null. Then every
// layout, broadcasting, distinct-position and data check of the copy,
// cast, elementwise and comparison families passes for them, and the
// element count is returned; else 0, and the full checks decide.
int64_t DenseLayoutCount(std::span<const sk_view* const> views,
                         std::span<const void* const> datas,
                         std::span<const size_t> elem_sizes);
// The same for fill; `value` must be non-null.
void CheckFillArguments(size_t elem_size, const sk_view& dst,
                        const void* dst_data, const void* value);

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_COPY_CHECKS_H_
