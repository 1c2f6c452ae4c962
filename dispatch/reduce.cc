// The dispatched reductions: a masked input is first materialised; the
// input is planned in its own memory order beside a C-contiguous
// accumulator of out's shape (stride 0 on the reduced axes) holding the
// op's identity (+-inf, or the integer limits, for min and max); the active
// target combines every input element into it (with options.threads, each
// part of the input into its own accumulator, then combined in part
// order); then the accumulator is copied
// into out (which handles out's strides, mask and any overlap with the input,
// already fully read).
#include "stridekit/reduce.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "dispatch/copy_internal.h"
#include "dispatch/operand_box.h"
#include "dispatch/target_registry.h"
#include "numeric_checks.h"
#include "scalar_ops.h"
#include "simd/numeric_task.h"
#include "stridekit/allocation.h"
#include "stridekit/checked.h"
#include "stridekit/copy.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/shape.h"

namespace stridekit {

void Reduce(ReduceOp op, DType t, const sk_view& in, const void* in_data,
            std::span<const int32_t> axes, const sk_view& out, void* out_data,
            const NumericOptions& options) {
  const Dims reduced =
      CheckReduceArguments(op, t, in, in_data, axes, out, out_data);
  const dispatch::Target& target = dispatch::SelectedTarget(OpName(op));
  if (target.IsReference()) {
    reference::Reduce(op, t, in, in_data, axes, out, out_data);
    dispatch::NoteKernelRan(0);
    return;
  }
  if (ValidBox(out).empty()) return;
  const size_t elem_size = DTypeSize(t);
  const Dims out_shape(DimsView(out.shape, size_t(out.ndim)));
  const int64_t count = Numel(out_shape);
  const DimsView in_shape(in.shape, size_t(in.ndim));
  const Box all{Dims(in.ndim, 0), Dims(in_shape)};
  const std::vector<Box> parts =
      Numel(in_shape) > 0
          ? SplitBox(all, ThreadParts(options.threads, Numel(in_shape)))
          : std::vector<Box>{};
  // One accumulator per part (the first is the result), allocated and set to
  // the op's identity before anything is written. Accumulators are kGap
  // bytes apart (parts run on different cores and must not share a cache
  // line, whatever the buffer's alignment).
  constexpr int64_t kGap = 128;
  const int64_t acc_bytes =
      CheckedAdd(CheckedMul(count, int64_t(elem_size), OpName(op)),
                 2 * kGap - 1, OpName(op)) /
      kGap * kGap;
  const Buffer acc =
      AllocateBuffer(CheckedMul(std::max<int64_t>(1, int64_t(parts.size())),
                                acc_bytes, OpName(op)),
                     OpName(op));
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    for (size_t part = 0; part < std::max<size_t>(1, parts.size()); ++part) {
      T* values = reinterpret_cast<T*>(acc.get() + part * acc_bytes);
      std::fill(values, values + count, scalar_ops::ReduceIdentity<T>(op));
    }
  });

  if (!parts.empty()) {
    Operand from = OperandOf(in, in_data);
    const Box valid = ValidBox(in);
    Temporary temporary;
    if (!(Intersect(all, valid) == all)) {
      temporary =
          MaterializeBox(target.table_slot, elem_size, from, valid, all);
      from = temporary.op;
    }
    // The accumulator over in's index space: out's C strides on kept axes.
    const Dims out_strides = CContiguousStrides(out_shape);
    const bool keepdims = out.ndim == in.ndim;
    Dims acc_strides;
    for (int d = 0, j = 0; d < in.ndim; ++d) {
      acc_strides.push_back(reduced[d] ? 0 : out_strides[j]);
      if (keepdims || !reduced[d]) ++j;
    }
    std::atomic<int64_t> ran{0};
    RunParallel(int(parts.size()), [&](int part) {
      const Box& box = parts[size_t(part)];
      const Operand part_acc{nullptr, 0, acc_strides};
      OperandLayout layouts[2] = {{from.strides, BoxOffset(from, box)},
                                  {acc_strides, BoxOffset(part_acc, box)}};
      const IterationPlan plan =
          IterationPlan::Make(box.Shape(), layouts, false);
      ran =
          simd::RunReduceTask(target.table_slot, {&plan, op, t, from.data,
                                                  acc.get() + part * acc_bytes,
                                                  0, plan.outer_size()});
    });
    dispatch::NoteKernelRan(ran);
    // The parts' accumulators combine into the first, in part order.
    scalar_ops::VisitNumericType(t, [&](auto zero) {
      using T = decltype(zero);
      T* first = reinterpret_cast<T*>(acc.get());
      for (size_t part = 1; part < parts.size(); ++part) {
        const T* other =
            reinterpret_cast<const T*>(acc.get() + part * acc_bytes);
        for (int64_t i = 0; i < count; ++i) {
          first[i] = scalar_ops::Reduce(op, first[i], other[i]);
        }
      }
    });
  }
  sk_view acc_view{};
  acc_view.ndim = out.ndim;
  const Dims acc_strides = CContiguousStrides(out_shape);
  for (int d = 0; d < out.ndim; ++d) {
    acc_view.shape[d] = out.shape[d];
    acc_view.strides[d] = acc_strides[d];
  }
  Copy(elem_size, acc_view, acc.get(), out, out_data);
}

}  // namespace stridekit
