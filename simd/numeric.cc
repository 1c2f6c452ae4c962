// Per-target numeric executors: walk a plan's outer positions and run the
// row kernels of numeric-inl.h on each row.
#include "scalar_ops.h"
#include "simd/dispatch_table.h"
#include "simd/numeric_task.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/numeric.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "simd/numeric-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

// Throws at the first undefined integer division of the task's rows.
template <typename T>
void CheckDivisions(const ElementwiseTask& task) {
  const IterationPlan& plan = *task.plan;
  const T* a = static_cast<const T*>(task.in[0]);
  const T* b = static_cast<const T*>(task.in[1]);
  const int64_t count = plan.inner_size();
  const int64_t a_stride = plan.inner_stride(1);
  const int64_t b_stride = plan.inner_stride(2);
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    for (int64_t i = 0; i < count; ++i) {
      scalar_ops::CheckDivision(a[chunk.offsets[1] + i * a_stride],
                                b[chunk.offsets[2] + i * b_stride]);
    }
  }
}

template <typename T, class Op>
void RunElementwiseFor(const ElementwiseTask& task) {
  const hn::ScalableTag<T> d;
  const IterationPlan& plan = *task.plan;
  if constexpr (!Op::template kVector<T>) CheckDivisions<T>(task);
  T* out = static_cast<T*>(task.out);
  const T* a = static_cast<const T*>(task.in[0]);
  // Unary ops read a zero broadcast as their ignored second operand.
  const T zero = T(0);
  const bool unary = task.kernel.unary;
  const T* b = unary ? &zero : static_cast<const T*>(task.in[1]);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t out_stride = plan.inner_stride(0);
  const int64_t a_stride = plan.inner_stride(1);
  const int64_t b_stride = unary ? 0 : plan.inner_stride(2);
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    RunRow<Op>(d, out + chunk.offsets[0], out_stride, a + chunk.offsets[1],
               a_stride, unary ? b : b + chunk.offsets[2], b_stride, count,
               task.stream);
  }
  if (task.stream) hwy::FlushStream();
}

template <typename T>
void RunElementwiseForType(const ElementwiseTask& task) {
  if (task.kernel.unary) {
    switch (task.kernel.unary_op) {
      case UnaryOp::kNeg:
        return RunElementwiseFor<T, NegOp>(task);
      case UnaryOp::kAbs:
        return RunElementwiseFor<T, AbsOp>(task);
      case UnaryOp::kSqrt:
        if constexpr (!scalar_ops::kIsInt<T>) {
          return RunElementwiseFor<T, SqrtOp>(task);
        }
        return;
      case UnaryOp::kSquare:
        return RunElementwiseFor<T, SquareOp>(task);
    }
    return;
  }
  switch (task.kernel.binary) {
    case BinaryOp::kAdd:
      return RunElementwiseFor<T, AddOp>(task);
    case BinaryOp::kSub:
      return RunElementwiseFor<T, SubOp>(task);
    case BinaryOp::kMul:
      return RunElementwiseFor<T, MulOp>(task);
    case BinaryOp::kDiv:
      return RunElementwiseFor<T, DivOp>(task);
    case BinaryOp::kMin:
      return RunElementwiseFor<T, MinOp>(task);
    case BinaryOp::kMax:
      return RunElementwiseFor<T, MaxOp>(task);
  }
}

// Rows along a reduced inner axis reduce to one value combined into the
// accumulator; rows along a kept inner axis combine elementwise into the
// accumulator's row (vector accumulators for reductions over outer axes).
template <typename T, class Op>
void RunReduceFor(const ReduceTask& task) {
  const hn::ScalableTag<T> d;
  const IterationPlan& plan = *task.plan;
  const T* in = static_cast<const T*>(task.in);
  T* acc = static_cast<T*>(task.acc);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t in_stride = plan.inner_stride(0);
  const int64_t acc_stride = plan.inner_stride(1);
  const T identity = scalar_ops::ReduceIdentity<T>(task.op);
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  if (acc_stride == 1 && in_stride == 1) {
    // Consecutive rows into the same accumulator row go four at a time.
    const T* rows[4];
    int pending = 0;
    T* pending_acc = nullptr;
    const auto flush = [&] {
      for (int r = 0; r < pending; ++r) {
        RunRow<Op>(d, pending_acc, 1, pending_acc, 1, rows[r], 1, count);
      }
      pending = 0;
    };
    while (chunks.Next(chunk)) {
      T* to = acc + chunk.offsets[1];
      if (pending > 0 && to != pending_acc) flush();
      pending_acc = to;
      rows[pending++] = in + chunk.offsets[0];
      if (pending == 4) {
        AccumulateFourRows<Op>(d, to, rows[0], rows[1], rows[2], rows[3],
                               count);
        pending = 0;
      }
    }
    flush();
    return;
  }
  while (chunks.Next(chunk)) {
    const T* row = in + chunk.offsets[0];
    T* to = acc + chunk.offsets[1];
    if (acc_stride != 0) {
      RunRow<Op>(d, to, acc_stride, to, acc_stride, row, in_stride, count);
    } else if (in_stride == 1) {
      *to = Op::Scalar(
          *to, ReduceRow<Op>(d, ContiguousLoader<T>{row}, identity, count));
    } else {
      *to = Op::Scalar(*to, ReduceRow<Op>(d, StridedLoader(d, row, in_stride),
                                          identity, count));
    }
  }
}

template <typename T>
void RunReduceForType(const ReduceTask& task) {
  switch (task.op) {
    case ReduceOp::kSum:
      return RunReduceFor<T, AddOp>(task);
    case ReduceOp::kProd:
      return RunReduceFor<T, MulOp>(task);
    case ReduceOp::kMin:
      return RunReduceFor<T, MinOp>(task);
    case ReduceOp::kMax:
      return RunReduceFor<T, MaxOp>(task);
  }
}

int64_t RunElementwiseKernel(const ElementwiseTask& task) {
  scalar_ops::VisitNumericType(task.dtype, [&](auto zero) {
    RunElementwiseForType<decltype(zero)>(task);
  });
  return HWY_TARGET;
}

int64_t RunReduceKernel(const ReduceTask& task) {
  scalar_ops::VisitNumericType(
      task.dtype, [&](auto zero) { RunReduceForType<decltype(zero)>(task); });
  return HWY_TARGET;
}

}  // namespace

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace stridekit {

namespace {
HWY_EXPORT(RunElementwiseKernel);
HWY_EXPORT(RunReduceKernel);
}  // namespace

namespace simd {

int64_t RunElementwiseTask(size_t slot, const ElementwiseTask& task) {
  return TableEntry(HWY_DISPATCH_TABLE(RunElementwiseKernel), slot)(task);
}

int64_t RunReduceTask(size_t slot, const ReduceTask& task) {
  return TableEntry(HWY_DISPATCH_TABLE(RunReduceKernel), slot)(task);
}

}  // namespace simd

}  // namespace stridekit
#endif  // HWY_ONCE
