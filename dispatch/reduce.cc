// The kernel function reduce (reduce.h): its plan, one-shot call and Plan
// value, and its engine. Any and all reduce the input's truth values,
// cast to bool, by maximum and minimum; mean is the sum divided by the
// count in the accumulator's type): a masked input is first materialised;
// the input is planned in its own memory order beside a C-contiguous
// accumulator of out's shape (stride 0 on the reduced axes; float32 for
// float16 and bfloat16, else of the input's type) holding the op's identity
// (+-inf, or the integer limits, for min and max); the active
// target combines every input element into it (with options.threads, each
// part of the input into its own accumulator, then combined in part
// order); then the accumulator is copied
// (or cast, rounding once, from float32) into out (which handles out's
// strides, mask and any overlap with the input, already fully read).
#include "stridekit/reduce.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

#include "allocation.h"
#include "dispatch/copy_internal.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "numeric_checks.h"
#include "reference_kernels.h"
#include "scalar_ops.h"
#include "simd/common/numeric_task.h"
#include "simd/kernel_dtype.h"
#include "stridekit/checked.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace dispatch {
namespace {

void EngineReduce(const Executor& ex, ReduceOp op, DType t, const sk_view& in,
                  const void* in_data, DimsView reduced, const sk_view& out,
                  void* out_data, const NumericOptions& options) {
  if (ValidBox(out).empty()) return;
  if (op == ReduceOp::kAny || op == ReduceOp::kAll) {
    // The maximum (any) or minimum (all) of the truth values: bool input
    // as it is, other dtypes cast to bool first (NumPy's astype(bool)).
    if (t == DType::kBool) {
      return EngineReduce(ex, KernelReduceOp(op), t, in, in_data, reduced, out,
                          out_data, options);
    }
    sk_view truth{};
    truth.ndim = in.ndim;
    const Dims truth_strides =
        CContiguousStrides(DimsView(in.shape, size_t(in.ndim)));
    for (int d = 0; d < in.ndim; ++d) {
      truth.shape[d] = in.shape[d];
      truth.strides[d] = truth_strides[d];
    }
    const Buffer values = AllocateBuffer(
        std::max<int64_t>(1, Numel(DimsView(in.shape, size_t(in.ndim)))),
        OpName(op));
    EngineCast(ex, t, in, in_data, DType::kBool, truth, values.get(), {});
    return EngineReduce(ex, KernelReduceOp(op), DType::kBool, truth,
                        values.get(), reduced, out, out_data, options);
  }
  // Mean: the sum, divided by the count before the result is written.
  const bool mean = op == ReduceOp::kMean;
  op = KernelReduceOp(op);
  const size_t elem_size = DTypeSize(t);
  // The accumulator's dtype and element size.
  DType acc_t = t;
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    acc_t = kDTypeOf<scalar_ops::Accumulator<decltype(zero)>>;
  });
  const size_t acc_size = DTypeSize(acc_t);
  const Dims out_shape(DimsView(out.shape, size_t(out.ndim)));
  const int64_t count = Numel(out_shape);
  const DimsView in_shape(in.shape, size_t(in.ndim));
  const Box all{Dims(in.ndim, 0), Dims(in_shape)};
  // The accumulator over in's index space: out's C strides on kept axes.
  const Dims out_strides = CContiguousStrides(out_shape);
  const bool keepdims = out.ndim == in.ndim;
  Dims acc_strides;
  for (int d = 0, j = 0; d < in.ndim; ++d) {
    acc_strides.push_back(reduced[d] ? 0 : out_strides[j]);
    if (keepdims || !reduced[d]) ++j;
  }
  // With several parts, a kept axis of at least kMinRowsPerPart positions
  // per part is split: each part then owns its outputs, and all share one
  // accumulator. Otherwise the longest axis is split and each part has its
  // own accumulator (the first is the result), combined in part order.
  constexpr int64_t kMinRowsPerPart = 8;
  const int wanted =
      Numel(in_shape) > 0 ? ThreadParts(options.threads, Numel(in_shape)) : 0;
  int kept_axis = -1;
  for (int d = 0; d < in.ndim; ++d) {
    if (!reduced[d] && in.shape[d] >= kMinRowsPerPart * wanted &&
        (kept_axis < 0 || in.shape[d] > in.shape[kept_axis])) {
      kept_axis = d;
    }
  }
  // Parts of a shared accumulator start kGap bytes apart in it, so that
  // no cache line of it is written by two cores.
  constexpr int64_t kGap = 128;
  int64_t align = 1;
  if (kept_axis >= 0) {
    const int64_t step_bytes =
        std::max<int64_t>(1, acc_strides[kept_axis]) * int64_t(acc_size);
    align = (kGap + step_bytes - 1) / step_bytes;
  }
  const std::vector<Box> parts =
      wanted > 0 ? SplitBox(all, wanted, kept_axis, align) : std::vector<Box>{};
  const int64_t accumulators =
      kept_axis >= 0 ? 1 : std::max<int64_t>(1, int64_t(parts.size()));
  // The accumulators are allocated and set to the op's identity before
  // anything is written. Each starts on a kGap-aligned address, kGap bytes
  // or more after the previous one ends (parts run on different cores).
  const int64_t acc_bytes =
      CheckedAdd(CheckedMul(count, int64_t(acc_size), OpName(op)), 2 * kGap - 1,
                 OpName(op)) /
      kGap * kGap;
  const Buffer buffer =
      AllocateBuffer(CheckedAdd(CheckedMul(accumulators, acc_bytes, OpName(op)),
                                kGap, OpName(op)),
                     OpName(op));
  unsigned char* const acc =
      buffer.get() + (kGap - reinterpret_cast<uintptr_t>(buffer.get()) % kGap);
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using Acc = scalar_ops::Accumulator<decltype(zero)>;
    for (int64_t i = 0; i < accumulators; ++i) {
      Acc* values = reinterpret_cast<Acc*>(acc + i * acc_bytes);
      std::fill(values, values + count, scalar_ops::ReduceIdentity<Acc>(op));
    }
  });

  if (!parts.empty()) {
    Operand from = OperandOf(in, in_data);
    const Box valid = ValidBox(in);
    Temporary temporary;
    if (!(Intersect(all, valid) == all)) {
      temporary = MaterializeBox(ex, elem_size, from, valid, all);
      from = temporary.op;
    }
    // Signed integers may run on the unsigned kernel of their width.
    const DType kernel_t = KernelDType(op, t);
    std::atomic<int64_t> ran{0};
    RunParallel(int(parts.size()), [&](int part) {
      const Box& box = parts[size_t(part)];
      const Operand part_acc{acc_strides};
      Operand layouts[2] = {{from.strides, BoxOffset(from, box)},
                            {acc_strides, BoxOffset(part_acc, box)}};
      const IterationPlan plan =
          IterationPlan::Make(box.Shape(), layouts, false);
      unsigned char* part_acc_data =
          acc + (accumulators > 1 ? part * acc_bytes : 0);
      ran = ex.kernels.reduce[int(FamilyOf(kernel_t))](
          {&plan, op, kernel_t, from.data, part_acc_data, 0,
           plan.outer_size()});
    });
    NoteKernelRan(ran);
    // The parts' accumulators combine into the first, in part order.
    scalar_ops::VisitNumericType(t, [&](auto zero) {
      using T = scalar_ops::Accumulator<decltype(zero)>;
      T* first = reinterpret_cast<T*>(acc);
      for (int64_t i = 1; i < accumulators; ++i) {
        const T* other = reinterpret_cast<const T*>(acc + i * acc_bytes);
        for (int64_t i = 0; i < count; ++i) {
          first[i] = scalar_ops::Reduce(op, first[i], other[i]);
        }
      }
    });
  }
  if (mean) {
    int64_t reduced_count = 1;
    for (int d = 0; d < in.ndim; ++d) {
      if (reduced[d]) reduced_count *= in.shape[d];  // <= Numel(in).
    }
    scalar_ops::VisitNumericType(t, [&](auto zero) {
      using Acc = scalar_ops::Accumulator<decltype(zero)>;
      if constexpr (std::is_floating_point_v<Acc>) {
        Acc* values = reinterpret_cast<Acc*>(acc);
        // 0 / 0 is NaN (NumPy's mean of an empty slice).
        for (int64_t i = 0; i < count; ++i) values[i] /= Acc(reduced_count);
      }
    });
  }
  sk_view acc_view{};
  acc_view.ndim = out.ndim;
  for (int d = 0; d < out.ndim; ++d) {
    acc_view.shape[d] = out.shape[d];
    acc_view.strides[d] = out_strides[d];
  }
  if (acc_t == t) {
    EngineCopy(ex, elem_size, acc_view, acc, out, out_data, nullptr, {});
  } else {
    EngineCast(ex, acc_t, acc_view, acc, t, out, out_data, {});
  }
}

void ResolveDirectReduce(PlanState& s) {
  s.direct_reduce.reset();
  const sk_view& in = *s.inputs[0];
  const sk_view& out = *s.out;
  const ReduceOp op = ReduceOp(s.op);
  const DType t = s.dtype;
  if (s.ex->IsReference() || in.has_mask || out.has_mask ||
      KernelReduceOp(op) != op || op == ReduceOp::kMean ||
      t == DType::kFloat16 || t == DType::kBFloat16) {
    return;
  }
  const DimsView in_shape(in.shape, size_t(in.ndim));
  const Dims out_shape(DimsView(out.shape, size_t(out.ndim)));
  int64_t numel = 1;
  for (int64_t d : in_shape) numel *= d;  // Fits: checked view.
  int64_t count = 1;
  for (int64_t d : out_shape) count *= d;
  if (numel == 0 || count == 0) return;
  // The engine's accumulator strides (C order over out's shape) must be
  // out's own on every axis that moves.
  const Dims c_strides = CContiguousStrides(out_shape);
  for (int d = 0; d < out.ndim; ++d) {
    if (out.shape[d] > 1 && out.strides[d] != c_strides[d]) return;
  }
  const bool keepdims = out.ndim == in.ndim;
  Operand layouts[2];
  layouts[0].strides.assign(DimsView(in.strides, size_t(in.ndim)));
  layouts[0].offset = in.offset;
  layouts[1].offset = out.offset;
  for (int d = 0, j = 0; d < in.ndim; ++d) {
    layouts[1].strides.push_back(s.reduced[d] ? 0 : c_strides[j]);
    if (keepdims || !s.reduced[d]) ++j;
  }
  DirectReduce& r = s.direct_reduce.emplace();
  r.kernel_dtype = KernelDType(op, t);
  r.run = s.ex->kernels.reduce[int(FamilyOf(r.kernel_dtype))];
  r.count = count;
  r.max_direct_threads =
      ThreadParts(2, numel) == 1 ? std::numeric_limits<int>::max() : 1;
  // Made in place, unchecked (the views passed the layout checks), untiled
  // as the engine's parts.
  ::new (static_cast<void*>(&r.plan))
      IterationPlan(IterationPlan::MakeValidated(in_shape, numel,
                                                 std::span(layouts, 2), false));
  // Extents over in's shape: the accumulator's layout spans out's block.
  const Operand out_then_in[2] = {layouts[1], layouts[0]};
  const size_t sizes[2] = {DTypeSize(t), DTypeSize(t)};
  if (!ByteExtents(in, out_then_in, 2, sizes, r.lo, r.hi)) {
    s.direct_reduce.reset();
  }
}

bool RunDirectReduce(const PlanState& s, const void* const* inputs, void* out,
                     int threads) {
  if (!s.direct_reduce) return false;
  const DirectReduce& r = *s.direct_reduce;
  if (threads > r.max_direct_threads) return false;
  if (SharesBytes(inputs[0], out, r.lo, r.hi, 1)) return false;
  const ReduceOp op = ReduceOp(s.op);
  scalar_ops::VisitNumericType(s.dtype, [&](auto zero) {
    using Acc = scalar_ops::Accumulator<decltype(zero)>;
    Acc* values = static_cast<Acc*>(out) + s.out->offset;
    std::fill(values, values + r.count, scalar_ops::ReduceIdentity<Acc>(op));
  });
  NoteKernelRan(r.run(
      {&r.plan, op, r.kernel_dtype, inputs[0], out, 0, r.plan.outer_size()}));
  return true;
}

void RunReducePlan(const PlanState& s, const void* const* inputs, void* out,
                   const CopyOptions& options) {
  if (RunDirectReduce(s, inputs, out, options.threads)) return;
  NumericOptions numeric;
  numeric.threads = options.threads;
  EngineReduce(*s.ex, ReduceOp(s.op), s.dtype, *s.inputs[0], inputs[0],
               s.reduced, *s.out, out, numeric);
}

void RunReduceReference(const PlanState& s, const void* const* inputs,
                        void* out, const CopyOptions&) {
  reference::RunReduce(ReduceOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                       s.reduced, *s.out, out);
  NoteKernelRan(0);
}

const KernelFunction kReduceFunction{"reduce", RunReducePlan,
                                     RunReduceReference};

void PlanReduce(PlanState& s, ReduceOp op, DType t, const sk_view& in,
                std::span<const int32_t> axes, const sk_view& out,
                const void* const* datas, const void* out_data) {
  s.reduced = CheckReduceArguments(op, t, in, DatasFor(datas)[0], axes, out,
                                   OutFor(datas, out_data));
  Bind(s, kReduceFunction, OpName(op), int32_t(op), t, {&in}, out, datas);
  ResolveDirectReduce(s);
}

}  // namespace

}  // namespace dispatch

void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data,
            const NumericOptions& options) {
  dispatch::PlanState s;
  const void* inputs[1] = {in_data};
  dispatch::PlanReduce(s, op, t, in, axes, out, inputs, out_data);
  dispatch::ExecutePlan(s, inputs, out_data, options.threads);
}

Plan Plan::Reduce(ReduceOp op, DType t, const sk_view& in,
                  std::span<const int32_t> axes, const sk_view& out) {
  return dispatch::MakePlan({in, out}, [&](auto& s, auto v) {
    dispatch::PlanReduce(s, op, t, v[0], axes, v[1], nullptr, nullptr);
  });
}

}  // namespace stridekit
