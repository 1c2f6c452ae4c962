// The reference kernels: the plainest correct loops, one element at a time
// through each view's index mapping. They are what the "reference" target
// runs and the oracle of the equivalence tests; each checks its arguments as
// the dispatched entry point of the same name does (stridekit/copy.h,
// elementwise.h, reduce.h, einsum.h), with the same messages.
#ifndef STRIDEKIT_LIB_REFERENCE_KERNELS_H_
#define STRIDEKIT_LIB_REFERENCE_KERNELS_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "stridekit/c_types.h"
#include "stridekit/dtype.h"
#include "stridekit/ops.h"

namespace stridekit::reference {

void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill);
void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value);
void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data);
void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data);
void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data);
void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data);

}  // namespace stridekit::reference

#endif  // STRIDEKIT_LIB_REFERENCE_KERNELS_H_
