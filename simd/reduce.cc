// Per-target reduction executors: walk a plan's outer positions and run
// the row kernels of numeric-inl.h on each row (a separate translation unit
// from elementwise.cc so that the two compile in parallel).
#include "dispatch_table.h"
#include "numeric_task.h"
#include "scalar_ops.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "reduce.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "numeric-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

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
#define STRIDEKIT_REDUCE_CASE(Name, ...) \
  case ReduceOp::k##Name:                \
    return RunReduceFor<T, Name##Op>(task);
    STRIDEKIT_REDUCE_OPS(STRIDEKIT_REDUCE_CASE)
#undef STRIDEKIT_REDUCE_CASE
  }
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
STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduceKernel, ReduceKernels)
#endif  // HWY_ONCE
