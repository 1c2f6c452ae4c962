// The one-shot kernel entry points (copy.h, cast.h, elementwise.h,
// compare.h, where.h, reduce.h, arg_reduce.h, scan.h, einsum.h): each makes
// a plan on the stack over the caller's views, with the caller's pointers
// checked at once, and executes it. One path for plans and calls.
#include "dispatch/plan_state.h"
#include "stridekit/arg_reduce.h"
#include "stridekit/cast.h"
#include "stridekit/compare.h"
#include "stridekit/copy.h"
#include "stridekit/einsum.h"
#include "stridekit/elementwise.h"
#include "stridekit/error.h"
#include "stridekit/reduce.h"
#include "stridekit/scan.h"
#include "stridekit/where.h"

namespace stridekit {

using dispatch::ExecutePlan;
using dispatch::PlanState;

void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill,
          const CopyOptions& options) {
  PlanState s;
  const void* in[1] = {src_data};
  dispatch::PlanCopy(s, elem_size, src, dst, fill, in, dst_data);
  ExecutePlan(s, in, dst_data, options);
}

void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value, const CopyOptions& options) {
  PlanState s;
  const void* in[1] = {value};
  dispatch::PlanFill(s, elem_size, dst, in, dst_data);
  ExecutePlan(s, in, dst_data, options);
}

void Cast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
          const sk_view& dst, void* dst_data, const CopyOptions& options) {
  PlanState s;
  const void* in[1] = {src_data};
  dispatch::PlanCast(s, src_t, src, dst_t, dst, in, dst_data);
  ExecutePlan(s, in, dst_data, options);
}

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data, const NumericOptions& options) {
  PlanState s;
  const void* in[2] = {a_data, b_data};
  dispatch::PlanBinary(s, op, t, a, b, out, in, out_data);
  ExecutePlan(s, in, out_data, options.threads);
}

void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data, const NumericOptions& options) {
  PlanState s;
  const void* in[1] = {a_data};
  dispatch::PlanUnary(s, op, t, a, out, in, out_data);
  ExecutePlan(s, in, out_data, options.threads);
}

void Predicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& out, void* out_data,
               const NumericOptions& options) {
  PlanState s;
  const void* in[1] = {a_data};
  dispatch::PlanPredicate(s, op, t, a, out, in, out_data);
  ExecutePlan(s, in, out_data, options.threads);
}

void Compare(CompareOp op, DType t, const sk_view& a, const void* a_data,
             const sk_view& b, const void* b_data, const sk_view& out,
             void* out_data, const NumericOptions& options) {
  PlanState s;
  const void* in[2] = {a_data, b_data};
  dispatch::PlanCompare(s, op, t, a, b, out, in, out_data);
  ExecutePlan(s, in, out_data, options.threads);
}

void Where(DType t, const sk_view& cond, const void* cond_data,
           const sk_view& a, const void* a_data, const sk_view& b,
           const void* b_data, const sk_view& out, void* out_data,
           const NumericOptions& options) {
  PlanState s;
  const void* in[3] = {cond_data, a_data, b_data};
  dispatch::PlanWhere(s, t, cond, a, b, out, in, out_data);
  ExecutePlan(s, in, out_data, options.threads);
}

void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data,
            const NumericOptions& options) {
  PlanState s;
  const void* inputs[1] = {in_data};
  dispatch::PlanReduce(s, op, t, in, axes, out, inputs, out_data);
  ExecutePlan(s, inputs, out_data, options.threads);
}

void ArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
               int32_t axis, const sk_view& out, void* out_data,
               const NumericOptions& options) {
  PlanState s;
  const void* inputs[1] = {in_data};
  dispatch::PlanArgReduce(s, op, t, in, axis, out, inputs, out_data);
  ExecutePlan(s, inputs, out_data, options.threads);
}

void Scan(ScanOp op, DType t, const sk_view& in, const void* in_data,
          int32_t axis, const sk_view& out, void* out_data,
          const NumericOptions& options) {
  PlanState s;
  const void* inputs[1] = {in_data};
  dispatch::PlanScan(s, op, t, in, axis, out, inputs, out_data);
  ExecutePlan(s, inputs, out_data, options.threads);
}

namespace {

void RunEinsum(std::string_view spec,
               std::optional<std::span<const RowLengths>> rows, DType t,
               std::span<const sk_view> operands,
               std::span<const void* const> datas, const sk_view& out,
               void* out_data, const NumericOptions& options) {
  if (operands.size() != datas.size()) {
    Fail(ErrorKind::kInvalidArgument, "einsum: ", operands.size(),
         " operand views but ", datas.size(), " data pointers");
  }
  PlanState s;
  dispatch::PlanEinsum(s, spec, rows, t, operands, out, datas.data(), out_data);
  ExecutePlan(s, datas.data(), out_data, options.threads);
}

}  // namespace

void Einsum(std::string_view spec, DType t, std::span<const sk_view> operands,
            std::span<const void* const> datas, const sk_view& out,
            void* out_data, const NumericOptions& options) {
  RunEinsum(spec, std::nullopt, t, operands, datas, out, out_data, options);
}

void EinsumRows(std::string_view spec, std::span<const RowLengths> rows,
                DType t, std::span<const sk_view> operands,
                std::span<const void* const> datas, const sk_view& out,
                void* out_data, const NumericOptions& options) {
  RunEinsum(spec, rows, t, operands, datas, out, out_data, options);
}

}  // namespace stridekit
