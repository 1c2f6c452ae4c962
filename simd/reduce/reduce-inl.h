// Per-target reduction executors: walk a plan's outer positions and run
// the row kernels of numeric-inl.h (half_rows-inl.h, complex_rows-inl.h) on
// each row. Shared by the family translation units (reduce_<family>.cc,
// numeric_task.h), which compile in parallel.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_REDUCE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_REDUCE_INL_H_
#undef STRIDEKIT_SIMD_REDUCE_INL_H_
#else
#define STRIDEKIT_SIMD_REDUCE_INL_H_
#endif

#include <type_traits>

#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/common/complex_rows-inl.h"
#include "simd/common/half_rows-inl.h"
#include "simd/common/numeric-inl.h"
#include "simd/common/numeric_task.h"
#include "simd/kernel_dtype.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// Rows along a reduced inner axis reduce to one value combined into the
// accumulator; rows along a kept inner axis combine elementwise into the
// accumulator's row (vector accumulators for reductions over outer axes).
template <typename T, class Op>
void RunReduceFor(const ReduceTask& task, T identity) {
  const hn::ScalableTag<T> d;
  const IterationPlan& plan = *task.plan;
  const T* in = static_cast<const T*>(task.in);
  T* acc = static_cast<T*>(task.acc);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t in_stride = plan.inner_stride(0);
  const int64_t acc_stride = plan.inner_stride(1);
  if (acc_stride == 1 && in_stride == 1) {
    // Consecutive rows into the same accumulator row go four at a time.
    const T* rows[4];
    int pending = 0;
    T* pending_acc = nullptr;
    const auto flush = [&] {
      for (int r = 0; r < pending; ++r) {
        RunRow<Op, kAccumulatorLayouts>(d, pending_acc, 1, pending_acc, 1,
                                        rows[r], 1, count);
      }
      pending = 0;
    };
    ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
      T* to = acc + offsets[1];
      if (pending > 0 && to != pending_acc) flush();
      pending_acc = to;
      rows[pending++] = in + offsets[0];
      if (pending == 4) {
        AccumulateFourRows<Op>(d, to, rows[0], rows[1], rows[2], rows[3],
                               count);
        pending = 0;
      }
    });
    flush();
    return;
  }
  ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
    const T* row = in + offsets[0];
    T* to = acc + offsets[1];
    if (acc_stride != 0) {
      RunRow<Op, kAccumulatorLayouts>(d, to, acc_stride, to, acc_stride, row,
                                      in_stride, count);
    } else if (in_stride == 1) {
      *to = Op::Scalar(
          *to, ReduceRow<Op>(d, ContiguousLoader<T>{row}, identity, count));
    } else {
      *to = Op::Scalar(*to, ReduceRow<Op>(d, StridedLoader(d, row, in_stride),
                                          identity, count));
    }
  });
}

// Rows of storage type T through their own row kernels into an
// accumulator of type Acc: Row(acc, acc_stride, in, in_stride, count) for
// kept inner axes, Fold(in, in_stride, identity, count) for reduced ones.
template <typename T, typename Acc, class Row, class Fold, class Combine>
void RunRowReduceFor(const ReduceTask& task, Acc identity, Row row, Fold fold,
                     Combine combine) {
  const IterationPlan& plan = *task.plan;
  const T* in = static_cast<const T*>(task.in);
  Acc* acc = static_cast<Acc*>(task.acc);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t in_stride = plan.inner_stride(0);
  const int64_t acc_stride = plan.inner_stride(1);
  ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
    const T* from = in + offsets[0];
    Acc* to = acc + offsets[1];
    if (acc_stride != 0) {
      row(to, acc_stride, from, in_stride, count);
    } else {
      *to = combine(*to, fold(from, in_stride, identity, count));
    }
  });
}

// Op on storage type T: bool as bytes, float16/bfloat16 into float32
// accumulators, complex on interleaved lanes, the rest on lanes of T.
template <typename T, class Op>
void RunReduceOpFor(const ReduceTask& task) {
  using Acc = scalar_ops::Accumulator<T>;
  const Acc identity = scalar_ops::ReduceIdentity<Acc>(task.op);
  if constexpr (std::is_same_v<T, Bool>) {
    RunReduceFor<uint8_t, BoolRowOp<Op>>(task, identity.byte);
  } else if constexpr (kIsHalf<T>) {
    RunRowReduceFor<T>(
        task, identity, [](auto... row) { HalfAccumulateRow<Op>(row...); },
        [](auto... row) { return HalfReduceRow<Op>(row...); },
        [](float a, float b) {
          return HalfFloatOp<Op, T>::type::Scalar(a, b);
        });
  } else if constexpr (kIsComplex<T>) {
    RunRowReduceFor<T>(
        task, identity,
        [](T* acc, int64_t acc_stride, const T* in, int64_t in_stride,
           size_t count) {
          ComplexRow<Op>(acc, acc_stride, acc, acc_stride, in, in_stride,
                         count);
        },
        [](auto... row) { return ComplexReduceRow<Op>(row...); },
        [](T a, T b) { return Op::Scalar(a, b); });
  } else {
    RunReduceFor<T, Op>(task, identity);
  }
}

// The rows the engine runs as others (KernelReduceOp: any, all and mean as
// maximum, minimum and sum) have no functor: declared, never defined.
struct AnyOp;
struct AllOp;
struct MeanOp;

template <typename T>
void RunReduceForType(const ReduceTask& task) {
  switch (task.op) {
#define STRIDEKIT_REDUCE_CASE(Name, value, name, kinds, prechecked)         \
  case ReduceOp::k##Name:                                                   \
    if constexpr (((kinds)&kKindOf<T>) != 0 &&                              \
                  KernelReduceOp(ReduceOp::k##Name) == ReduceOp::k##Name && \
                  RunsOwnKernel<T>(ReduceOp::k##Name)) {                    \
      RunReduceOpFor<T, Name##Op>(task);                                    \
    }                                                                       \
    return;
    STRIDEKIT_REDUCE_OPS(STRIDEKIT_REDUCE_CASE)
#undef STRIDEKIT_REDUCE_CASE
  }
}

// Runs `task` if its dtype is one of List on this target; returns
// HWY_TARGET.
template <typename List>
int64_t RunReduceOf(const ReduceTask& task) {
  VisitType(List{}, task.dtype,
            [&](auto zero) { RunReduceForType<decltype(zero)>(task); });
  return HWY_TARGET;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_REDUCE_INL_H_

// The reduction kernels of dtype family F (F##Family of numeric_task.h),
// for the family's generated translation unit (simd/family_unit.cc.in):
// per target, the executor; then, in its HWY_ONCE part, its table
// Reduce##F##Kernels.
#ifndef STRIDEKIT_FAMILY_EXECUTORS
#define STRIDEKIT_FAMILY_EXECUTORS(F)            \
  int64_t RunReduce##F(const ReduceTask& task) { \
    return RunReduceOf<F##Family>(task);         \
  }
#define STRIDEKIT_FAMILY_TABLES(F) \
  STRIDEKIT_EXPORT_KERNEL_TABLE(RunReduce##F, Reduce##F##Kernels)
#endif
