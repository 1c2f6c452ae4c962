// Plans (docs/c_abi.md "Plans"): one kernel call's operation, dtypes and
// views checked and resolved once, then executed on new data many times,
// as FFTW's plans with new-array execute and XNNPACK's operators.
//
// Plan::Copy, Plan::Binary, ... take exactly the arguments of the one-shot
// call of the same name (copy.h, cast.h, elementwise.h, compare.h, where.h,
// reduce.h, arg_reduce.h, scan.h, einsum.h) without its data pointers, and
// throw what that call throws for them (same kind, same message). A plan
// selects the active target and keeps it (forcing another target later does
// not change the plan), resolves the kernel and, where the call allows, the
// iteration plan. Execute runs it on `inputs` (one pointer per input operand,
// in the order of the one-shot call's arguments; fill's is the value) and
// `out`: it re-checks no layout, and decides only what depends on the pointers
// (NULL data for a non-empty view, an input overlapping out other than
// exactly: as if through a temporary) and on the data (an integer zero
// divisor: the one-shot call's error, out untouched). A Plan is an
// immutable value (copies share it): any number of threads may execute
// one plan at once, each on its own out. Executing allocates nothing unless
// the kernel needs a temporary (overlap, masked inputs, einsum's packing).
// The one-shot calls are a plan made on the stack and executed at once.
#ifndef STRIDEKIT_PLAN_H_
#define STRIDEKIT_PLAN_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "stridekit/dtype.h"
#include "stridekit/ops.h"
#include "stridekit/stridekit.h"

namespace stridekit {

class Plan {
 public:
  // `fill` (NULL: zero) is copied into the plan.
  static Plan Copy(size_t elem_size, const sk_view& src, const sk_view& dst,
                   const void* fill = nullptr);
  // Input 0 is the value.
  static Plan Fill(size_t elem_size, const sk_view& dst);
  static Plan Cast(DType src_t, const sk_view& src, DType dst_t,
                   const sk_view& dst);
  static Plan Binary(BinaryOp op, DType t, const sk_view& a, const sk_view& b,
                     const sk_view& out);
  static Plan Unary(UnaryOp op, DType t, const sk_view& a, const sk_view& out);
  static Plan Predicate(PredicateOp op, DType t, const sk_view& a,
                        const sk_view& out);
  static Plan Compare(CompareOp op, DType t, const sk_view& a, const sk_view& b,
                      const sk_view& out);
  static Plan Where(DType t, const sk_view& cond, const sk_view& a,
                    const sk_view& b, const sk_view& out);
  static Plan Reduce(ReduceOp op, DType t, const sk_view& in,
                     std::span<const int32_t> axes, const sk_view& out);
  static Plan ArgReduce(ArgOp op, DType t, const sk_view& in, int32_t axis,
                        const sk_view& out);
  static Plan Scan(ScanOp op, DType t, const sk_view& in, int32_t axis,
                   const sk_view& out);
  static Plan Einsum(std::string_view spec, DType t,
                     std::span<const sk_view> operands, const sk_view& out);

  // The input pointers Execute takes.
  int num_inputs() const;
  // Runs the plan with `threads` threads (as NumericOptions::threads).
  // Throws kInvalidArgument when inputs.size() != num_inputs().
  void Execute(std::span<const void* const> inputs, void* out,
               int threads = 1) const;
  // "binary add | dtype float32 | target AVX2 | views ... | direct kernel,
  // plan ...": the kernel, dtypes, target, views and how it runs.
  const std::string& Describe() const;

  struct State;

 private:
  explicit Plan(std::shared_ptr<const State> state);
  std::shared_ptr<const State> state_;
};

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_PLAN_H_
