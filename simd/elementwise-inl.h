// Per-target elementwise executors over a plan's outer positions [begin,
// end): the row kernels of numeric-inl.h on each row. Shared by the float
// and integer translation units (elementwise_float.cc, elementwise_int.cc),
// which compile in parallel.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_ELEMENTWISE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
#undef STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
#else
#define STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
#endif

#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/numeric-inl.h"
#include "simd/numeric_task.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

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

// Runs `task` (of dtype T1 or T2, told apart by size) on this target;
// returns HWY_TARGET.
template <typename T1, typename T2>
int64_t RunElementwiseOf(const ElementwiseTask& task) {
  static_assert(sizeof(T1) != sizeof(T2));
  if (DTypeSize(task.dtype) == sizeof(T1)) {
    RunElementwiseForType<T1>(task);
  } else {
    RunElementwiseForType<T2>(task);
  }
  return HWY_TARGET;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
