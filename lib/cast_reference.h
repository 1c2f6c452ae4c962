// The cast family's argument checks and its reference kernel (the oracle of
// the equivalence tests and what the "reference" target runs).
#ifndef STRIDEKIT_LIB_CAST_REFERENCE_H_
#define STRIDEKIT_LIB_CAST_REFERENCE_H_

#include "stridekit/c_types.h"
#include "stridekit/dtype.h"

namespace stridekit {

// Both dtypes valid, both views checked for their element sizes, data
// pointers non-null unless the view is empty, src broadcastable to dst and
// no two valid dst positions sharing memory (copy_checks.h).
void CheckCastArguments(DType src_t, const sk_view& src, const void* src_data,
                        DType dst_t, const sk_view& dst, const void* dst_data);

// True when the cast is a copy of the bits: equal dtypes, or integers of
// the same size (wrap-around).
inline bool IsBitCopyCast(DType src_t, DType dst_t) {
  return src_t == dst_t || (IsInteger(src_t) && IsInteger(dst_t) &&
                            DTypeSize(src_t) == DTypeSize(dst_t));
}

namespace reference {

// dst = src converted to dst_t (cast_scalar.h), one element at a time.
void Cast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
          const sk_view& dst, void* dst_data);
// Cast without the checks (requires arguments CheckCastArguments accepts).
void RunCast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
             const sk_view& dst, void* dst_data);

}  // namespace reference
}  // namespace stridekit

#endif  // STRIDEKIT_LIB_CAST_REFERENCE_H_
