// Converting between dtypes over views (C_API.md sk_cast): element i of view
// v lives at data + (v.offset + sum_d i_d * v.strides[d]) * DTypeSize(type).
//
// Cast writes src converted to dst_t into dst. As with Copy (copy.h): src
// broadcasts to dst's shape (NumPy rules), masked-out src positions read
// zero, masked-out dst positions are not written, and an src overlapping dst
// in memory behaves as if src were first copied to a temporary.
//
// The conversion of one element is NumPy's astype(casting='unsafe') where
// NumPy defines it, and the same bits on every target:
//   - integer -> integer wraps (two's complement);
//   - float -> integer truncates toward zero and saturates at the target's
//     limits; NaN -> 0;
//   - to float16/bfloat16/float32/float64 the exact source value is rounded
//     once to nearest even (int64 -> float16 or float64 -> bfloat16 never
//     round twice through float32); bfloat16 from float32 is ml_dtypes'
//     round-to-nearest-even of the float32 bits; float16/bfloat16 -> wider
//     floats is exact;
//   - a NaN converted to another float type becomes that type's canonical
//     quiet NaN with the same sign (payloads are not kept);
//   - any -> bool is != 0 (NaN -> true; complex: either part != 0); bool ->
//     numbers is 0/1 (any non-zero bool byte reads as true);
//   - complex -> real takes the real part; real -> complex has a +0
//     imaginary part; complex64 <-> complex128 converts each part.
// Equal dtypes, and integers of equal size, copy the bits.
//
// Failure guarantee: every check runs, and an overlapping source's temporary
// is allocated, before the first write, so a thrown error (including
// kNoMemory) leaves dst untouched.
#ifndef STRIDEKIT_CAST_H_
#define STRIDEKIT_CAST_H_

#include "stridekit/copy.h"
#include "stridekit/dtype.h"
#include "stridekit/stridekit.h"

namespace stridekit {

void Cast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
          const sk_view& dst, void* dst_data, const CopyOptions& options = {});

}  // namespace stridekit

#endif  // STRIDEKIT_CAST_H_
