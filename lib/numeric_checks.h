// Argument checks shared by the reference and the dispatched numeric
// kernels (elementwise.h, reduce.h), so both reject exactly the same inputs
// with the same messages.
#ifndef STRIDEKIT_LIB_NUMERIC_CHECKS_H_
#define STRIDEKIT_LIB_NUMERIC_CHECKS_H_

#include <optional>
#include <span>
#include <string_view>

#include "stridekit/c_types.h"
#include "stridekit/dims.h"
#include "stridekit/ocannl_labels.h"
#include "stridekit/ops.h"
#include "stridekit/projections.h"

namespace stridekit {

// NumPy's names from the op table (stridekit/ops.h): "add", "negative",
// "sum", ...; kInvalidArgument for a value no row has.
const char* OpName(BinaryOp op);
const char* OpName(UnaryOp op);
const char* OpName(ReduceOp op);
const char* OpName(ArgOp op);
const char* OpName(ScanOp op);

// Throws kUnsupported unless t is one of NumericTypes (numeric_types.h).
void CheckNumericDType(DType t, const char* op);

// A valid op and a dtype its op-table row accepts, every input broadcastable to
// out and out writeable (the copy rules of copy_checks.h). Returns the op's
// row, and in `dense` (when given) the views' DenseLayoutCount.
const OpInfo<BinaryOp>& CheckBinaryArguments(
    BinaryOp op, DType t, const sk_view& a, const void* a_data,
    const sk_view& b, const void* b_data, const sk_view& out,
    const void* out_data, int64_t* dense = nullptr);
const OpInfo<UnaryOp>& CheckUnaryArguments(UnaryOp op, DType t,
                                           const sk_view& a, const void* a_data,
                                           const sk_view& out,
                                           const void* out_data,
                                           int64_t* dense = nullptr);

// Checks a reduction and returns, per axis of `in`, 1 when it is reduced and
// 0 when kept. Axes may be negative; repeated or out-of-range axes, an out
// whose shape is neither in's with the axes removed nor kept as 1, and min
// or max over an empty axis throw.
Dims CheckReduceArguments(ReduceOp op, DType t, const sk_view& in,
                          const void* in_data, std::span<const int32_t> axes,
                          const sk_view& out, const void* out_data);

// Checks an arg reduction (arg_reduce.h) and returns its axis as
// 0 .. ndim - 1: a valid op and dtype, axis in [-ndim, ndim), out (int64)
// of in's shape without the axis or with 1 there, a non-empty axis (NumPy:
// "attempt to get argmax of an empty sequence").
int CheckArgReduceArguments(ArgOp op, DType t, const sk_view& in,
                            const void* in_data, int32_t axis,
                            const sk_view& out, const void* out_data);

// Checks a scan (scan.h) and returns its axis as 0 .. ndim - 1: a valid op
// and dtype, axis in [-ndim, ndim), out of in's shape with distinct
// positions.
int CheckScanArguments(ScanOp op, DType t, const sk_view& in,
                       const void* in_data, int32_t axis, const sk_view& out,
                       const void* out_data);

// Checks an einsum (stridekit/einsum.h) and returns its projections
// (EinsumSpecProjections, with the operands' rows when given): a supported
// dtype, as many data pointers as views, valid layouts, out writeable with
// distinct positions and of the inferred shape.
Projections CheckEinsumArguments(
    std::string_view spec, DType t, std::span<const sk_view> operands,
    std::span<const void* const> datas, const sk_view& out,
    const void* out_data,
    std::optional<std::span<const RowLengths>> rows = std::nullopt);

// The bool-output families (stridekit/compare.h, where.h): inputs of dtype
// t (where's cond SK_BOOL) broadcastable to out; out is SK_BOOL for
// comparisons and predicates, t for where. Complex ordered comparisons
// throw kUnsupported.
const char* OpName(CompareOp op);
const char* OpName(PredicateOp op);
void CheckCompareArguments(CompareOp op, DType t, const sk_view& a,
                           const void* a_data, const sk_view& b,
                           const void* b_data, const sk_view& out,
                           const void* out_data);
void CheckPredicateArguments(PredicateOp op, DType t, const sk_view& a,
                             const void* a_data, const sk_view& out,
                             const void* out_data);
void CheckWhereArguments(DType t, const sk_view& cond, const void* cond_data,
                         const sk_view& a, const void* a_data, const sk_view& b,
                         const void* b_data, const sk_view& out,
                         const void* out_data);

}  // namespace stridekit

#endif  // STRIDEKIT_LIB_NUMERIC_CHECKS_H_
