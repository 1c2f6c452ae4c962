// The reference kernels: the plainest correct loops, one element at a time
// through each view's index mapping. They are what the "reference" target
// runs and the oracle of the equivalence tests. Each X checks its arguments
// as the dispatched entry point of the same name does (stridekit/copy.h,
// elementwise.h, reduce.h, arg_reduce.h, scan.h, einsum.h; same checks, same
// messages) and then runs RunX, which requires arguments those checks accept.
#ifndef STRIDEKIT_LIB_REFERENCE_KERNELS_H_
#define STRIDEKIT_LIB_REFERENCE_KERNELS_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "stridekit/c_types.h"
#include "stridekit/dims.h"
#include "stridekit/dtype.h"
#include "stridekit/ops.h"
#include "stridekit/projections.h"

namespace stridekit::reference {

void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill);
void RunCopy(size_t elem_size, const sk_view& src, const void* src_data,
             const sk_view& dst, void* dst_data, const void* fill);
void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value);

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data);
void RunBinary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& b, const void* b_data, const sk_view& out,
               void* out_data);
void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data);
void RunUnary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
              const sk_view& out, void* out_data);

void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data);
// `reduced`: per axis of `in`, 1 when reduced (CheckReduceArguments).
void RunReduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
               DimsView reduced, const sk_view& out, void* out_data);

// `axis`: 0 .. in.ndim - 1 (CheckArgReduceArguments, CheckScanArguments).
void ArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
               int32_t axis, const sk_view& out, void* out_data);
void RunArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
                  int axis, const sk_view& out, void* out_data);
void Scan(ScanOp op, DType t, const sk_view& in, const void* in_data,
          int32_t axis, const sk_view& out, void* out_data);
void RunScan(ScanOp op, DType t, const sk_view& in, const void* in_data,
             int axis, const sk_view& out, void* out_data);

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data);
// `p`: the projections CheckEinsumArguments returned.
void RunEinsum(const Projections& p, DType t, std::span<const sk_view> operands,
               std::span<const void* const> datas, const sk_view& out,
               void* out_data);

// The bool-output families (stridekit/compare.h, where.h).
void Compare(CompareOp op, DType t, const sk_view& a, const void* a_data,
             const sk_view& b, const void* b_data, const sk_view& out,
             void* out_data);
void RunCompare(CompareOp op, DType t, const sk_view& a, const void* a_data,
                const sk_view& b, const void* b_data, const sk_view& out,
                void* out_data);
void Predicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& out, void* out_data);
void RunPredicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
                  const sk_view& out, void* out_data);
void Where(DType t, const sk_view& cond, const void* cond_data,
           const sk_view& a, const void* a_data, const sk_view& b,
           const void* b_data, const sk_view& out, void* out_data);
void RunWhere(DType t, const sk_view& cond, const void* cond_data,
              const sk_view& a, const void* a_data, const sk_view& b,
              const void* b_data, const sk_view& out, void* out_data);

}  // namespace stridekit::reference

#endif  // STRIDEKIT_LIB_REFERENCE_KERNELS_H_
