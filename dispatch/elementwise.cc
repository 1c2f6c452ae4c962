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
// Output bytes per block of the transpose through the output: the block is
// written by the transpose and then updated in place while in the L2 cache.
// Parts of at least kTransposeWholeMinBytes go through whole.
constexpr int64_t kTransposeBlockBytes = int64_t{256} << 10;
constexpr int64_t kTransposeWholeMinBytes = int64_t{64} << 20;

// An input read across its rows (transposed against the output) misses the
// caches on every element. When the output is contiguous along the inner
// axis and shares no memory with the inputs, such an input goes through the
// output block by block: the copy engine's tiled transpose writes a block
// into the output, then the operation runs in place on it (the input
// becomes the output) while it is still in the cache, so every stream is
// sequential. Not for integer division, which must check every position
// before writing anything. Returns the index of that input, or -1.
int TransposedThroughOutput(ElementwiseKernel kernel, DType t, int num_inputs,
                            const Operand* ops, const Operand& to,
                            const Box& target, DimsView shape,
                            const OperandLayout* layouts) {
  if ((!kernel.unary && kernel.binary == BinaryOp::kDiv && IsInteger(t)) ||
      Numel(shape) < kTransposeThroughOutputMinElements) {
    return -1;
  }
  const size_t elem_size = DTypeSize(t);
  const IterationPlan tiled = IterationPlan::Make(
      shape, std::span(layouts, size_t(num_inputs + 1)), true);
  if (tiled.inner_kind(0) != InnerKind::kContiguous) return -1;
  const auto [out_lo, out_hi] = ByteRange(to, target, elem_size);
  int transposed = -1;
  for (int i = 0; i < num_inputs; ++i) {
    const auto [lo, hi] = ByteRange(ops[i], target, elem_size);
    if (lo < out_hi && out_lo < hi) return -1;
    if (transposed < 0 && tiled.inner_kind(i + 1) == InnerKind::kTransposed) {
      transposed = i;
    }
  }
  return transposed;
}

// The blocks of `box` that go through the output one at a time: bands of
// about kTransposeBlockBytes of output along the axis on which `src` is
// contiguous (so a band reads runs of src; extents are multiples of 16
// elements), or the whole box when it is beyond the caches (DRAM wants
// long runs of src, which bands of L2 size cannot give), or when src has
// no such axis.
std::vector<Box> TransposeBlocks(const Box& box, const Operand& src,
                                 size_t elem_size) {
  int axis = -1;
  for (int d = 0; d < box.begin.size(); ++d) {
    const int64_t extent = box.end[d] - box.begin[d];
    if (extent > 1 && (src.strides[d] == 1 || src.strides[d] == -1)) axis = d;
  }
  const int64_t bytes = Numel(box.Shape()) * int64_t(elem_size);
  if (axis < 0 || bytes >= kTransposeWholeMinBytes) return {box};
  const int64_t extent = box.end[axis] - box.begin[axis];
  const int64_t step =
      std::max<int64_t>(16, kTransposeBlockBytes * extent / bytes / 16 * 16);
  std::vector<Box> blocks;
  for (int64_t begin = box.begin[axis]; begin < box.end[axis]; begin += step) {
    Box band = box;
    band.begin[axis] = begin;
    band.end[axis] = std::min(box.end[axis], begin + step);
    blocks.push_back(std::move(band));
  }
  return blocks;
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
  const Dims shape = target.Shape();
  OperandLayout layouts[3];
  layouts[0] = {to.strides, BoxOffset(to, target)};
  for (int i = 0; i < num_inputs; ++i) {
    layouts[i + 1] = {ops[i].strides, BoxOffset(ops[i], target)};
  }
  const int transposed = TransposedThroughOutput(kernel, t, num_inputs, ops, to,
                                                 target, shape, layouts);
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
  // Runs the kernel on `box` (a part, or a block of one).
  auto run_box = [&](const Box& box, bool stream_box) {
    const Dims box_shape = box.Shape();
    OperandLayout box_layouts[3];
    box_layouts[0] = {to.strides, BoxOffset(to, box)};
    for (int i = 0; i < num_inputs; ++i) {
      const Operand& op = i == transposed ? to : ops[i];
      box_layouts[i + 1] = {op.strides, BoxOffset(op, box)};
    }
    // Rows, not tiles: every input is read by the row kernels' loaders.
    const IterationPlan plan = IterationPlan::Make(
        box_shape, std::span(box_layouts, size_t(num_inputs + 1)), false);
    const ElementwiseTask task{&plan,
                               kernel,
                               t,
                               out_data,
                               {transposed == 0 ? to.data : ops[0].data,
                                num_inputs < 2    ? nullptr
                                : transposed == 1 ? to.data
                                                  : ops[1].data},
                               0,
                               plan.outer_size(),
                               stream_box && plan.inner_stride(0) == 1};
    ran = simd::RunElementwiseTask(slot, task);
  };
  RunParallel(int(parts.size()), [&](int part) {
    const Box& box = parts[size_t(part)];
    if (transposed < 0) return run_box(box, stream);
    for (const Box& block : TransposeBlocks(box, ops[transposed], elem_size)) {
      CopyBox(slot, elem_size, ops[transposed], to, block, CopyOptions{});
      // Streaming only where the block is not read back from the cache.
      run_box(block, stream && block == box);
    }
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
