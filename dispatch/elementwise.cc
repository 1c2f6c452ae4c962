// The dispatched elementwise kernels: checks, broadcasting, masks and
// overlap are resolved on metadata (an input masked inside out's valid box,
// or overlapping out other than exactly, is first materialised over that
// box), then one plan over out's valid box runs on the active target (or
// one per part of that box, on options.threads threads).
#include "stridekit/elementwise.h"

#include <atomic>
#include <vector>

#include "dispatch/copy_internal.h"
#include "dispatch/operand_box.h"
#include "dispatch/target_registry.h"
#include "numeric_checks.h"
#include "simd/numeric_task.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// Smaller outputs read a transposed input fast enough from the caches.
constexpr int64_t kTransposeThroughOutputMinElements = int64_t{1} << 16;

// An input read across its rows (transposed against the output) misses the
// caches on every element. When the output is contiguous along the inner
// axis and shares no memory with the inputs, the copy engine's tiled
// transpose first writes that input into the output and the operation then
// runs in place (ops[i] becomes the output): 5 streams instead of 3, all
// sequential. Not for integer division, which must check every position
// before writing anything. Returns whether it did.
bool TransposeThroughOutput(size_t slot, ElementwiseKernel kernel, DType t,
                            int num_inputs, Operand* ops, const Operand& to,
                            const Box& target, DimsView shape,
                            const OperandLayout* layouts, int threads) {
  if ((!kernel.unary && kernel.binary == BinaryOp::kDiv && IsInteger(t)) ||
      Numel(shape) < kTransposeThroughOutputMinElements) {
    return false;
  }
  const size_t elem_size = DTypeSize(t);
  const IterationPlan tiled = IterationPlan::Make(
      shape, std::span(layouts, size_t(num_inputs + 1)), true);
  if (tiled.inner_kind(0) != InnerKind::kContiguous) return false;
  const auto [out_lo, out_hi] = ByteRange(to, target, elem_size);
  int transposed = -1;
  for (int i = 0; i < num_inputs; ++i) {
    const auto [lo, hi] = ByteRange(ops[i], target, elem_size);
    if (lo < out_hi && out_lo < hi) return false;
    if (transposed < 0 && tiled.inner_kind(i + 1) == InnerKind::kTransposed) {
      transposed = i;
    }
  }
  if (transposed < 0) return false;
  CopyOptions options;
  options.threads = threads;
  CopyBox(slot, elem_size, ops[transposed], to, target, options);
  ops[transposed] = to;
  return true;
}

void RunElementwise(size_t slot, ElementwiseKernel kernel, DType t,
                    int num_inputs, const sk_view* const* inputs,
                    const void* const* datas, const sk_view& out,
                    void* out_data, int threads) {
  const size_t elem_size = DTypeSize(t);
  const Box target = ValidBox(out);
  if (target.empty()) return;
  const Operand to = OperandOf(out, out_data);
  Operand ops[2];
  Temporary temporaries[2];
  for (int i = 0; i < num_inputs; ++i) {
    Box valid;
    ops[i] = AlignSource(*inputs[i], datas[i], out, valid);
    if (!(Intersect(target, valid) == target) ||
        OverlapsOtherwise(ops[i], to, target, elem_size)) {
      temporaries[i] = MaterializeBox(slot, elem_size, ops[i], valid, target);
      ops[i] = temporaries[i].op;
    }
  }
  Dims shape;
  for (int d = 0; d < out.ndim; ++d) {
    shape.push_back(target.end[d] - target.begin[d]);
  }
  OperandLayout layouts[3];
  layouts[0] = {to.strides, BoxOffset(to, target)};
  for (int i = 0; i < num_inputs; ++i) {
    layouts[i + 1] = {ops[i].strides, BoxOffset(ops[i], target)};
  }
  TransposeThroughOutput(slot, kernel, t, num_inputs, ops, to, target, shape,
                         layouts, threads);
  // As Copy: non-temporal stores for outputs far beyond the caches.
  const bool stream =
      Numel(shape) >= CopyOptions{}.stream_min_bytes / int64_t(elem_size);
  // Integer division checks every position before writing anything, so it
  // runs as one part.
  const bool checked_division =
      !kernel.unary && kernel.binary == BinaryOp::kDiv && IsInteger(t);
  const std::vector<Box> parts = SplitBox(
      target, checked_division ? 1 : ThreadParts(threads, Numel(shape)));
  std::atomic<int64_t> ran{0};
  RunParallel(int(parts.size()), [&](int part) {
    const Box& box = parts[size_t(part)];
    Dims part_shape;
    for (int d = 0; d < out.ndim; ++d) {
      part_shape.push_back(box.end[d] - box.begin[d]);
    }
    OperandLayout part_layouts[3];
    part_layouts[0] = {to.strides, BoxOffset(to, box)};
    for (int i = 0; i < num_inputs; ++i) {
      part_layouts[i + 1] = {ops[i].strides, BoxOffset(ops[i], box)};
    }
    // Rows, not tiles: every input is read by the row kernels' loaders.
    const IterationPlan plan = IterationPlan::Make(
        part_shape, std::span(part_layouts, size_t(num_inputs + 1)), false);
    const ElementwiseTask task{
        &plan,
        kernel,
        t,
        out_data,
        {ops[0].data, num_inputs > 1 ? ops[1].data : nullptr},
        0,
        plan.outer_size(),
        stream && plan.inner_stride(0) == 1};
    ran = simd::RunElementwiseTask(slot, task);
  });
  dispatch::NoteKernelRan(ran);
}

}  // namespace

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data, const NumericOptions& options) {
  CheckBinaryArguments(op, t, a, a_data, b, b_data, out, out_data);
  const dispatch::Target& target = dispatch::SelectedTarget(OpName(op));
  if (target.IsReference()) {
    reference::Binary(op, t, a, a_data, b, b_data, out, out_data);
    dispatch::NoteKernelRan(0);
    return;
  }
  const sk_view* inputs[2] = {&a, &b};
  const void* datas[2] = {a_data, b_data};
  RunElementwise(target.table_slot, {false, op, UnaryOp::kNeg}, t, 2, inputs,
                 datas, out, out_data, options.threads);
}

void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data, const NumericOptions& options) {
  CheckUnaryArguments(op, t, a, a_data, out, out_data);
  const dispatch::Target& target = dispatch::SelectedTarget(OpName(op));
  if (target.IsReference()) {
    reference::Unary(op, t, a, a_data, out, out_data);
    dispatch::NoteKernelRan(0);
    return;
  }
  const sk_view* inputs[1] = {&a};
  const void* datas[1] = {a_data};
  RunElementwise(target.table_slot, {true, BinaryOp::kAdd, op}, t, 1, inputs,
                 datas, out, out_data, options.threads);
}

}  // namespace stridekit
