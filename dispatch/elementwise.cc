// The kernel functions binary and unary (elementwise.h): their plans,
// one-shot calls and Plan values, and their engine. The engine resolves
// broadcasting, masks and overlap on metadata (an input masked inside out's
// valid box, or overlapping out other than exactly, is first materialised
// over that box), then one plan over out's valid box runs on the executor's
// target (or one per part of that box, on options.threads threads). A plan
// of an unmasked call runs its one part directly (RunDirectElementwise) on
// the iteration plan it made once.
#include "stridekit/elementwise.h"

#include <atomic>
#include <limits>
#include <new>
#include <vector>

#include "dispatch/copy_internal.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "numeric_checks.h"
#include "numeric_types.h"
#include "reference_kernels.h"
#include "scalar_ops.h"
#include "simd/common/numeric_task.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// An input read across its rows (transposed against the output) is read
// by tiles: the plan is tiled and the executors transpose N x N tiles in
// registers. Parts of at least TransposeThroughOutputMinBytes (engine.h)
// go through the output instead.

// The input that goes through the output (see above), or -1: only when the
// output is contiguous along the inner axis, shares no memory with the
// inputs, and is that large; never for checked integer ops (division), which
// must check every position before writing anything.
int TransposedThroughOutput(ElementwiseKernel kernel, DType t, int num_inputs,
                            const Operand* ops, const Operand& to,
                            const Box& target, DimsView shape,
                            const Operand* layouts) {
  const size_t elem_size = DTypeSize(t);
  if (kernel.ChecksOperands(t) ||
      Numel(shape) * int64_t(elem_size) <
          dispatch::TransposeThroughOutputMinBytes(kernel.transcendental())) {
    return -1;
  }
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

// Throws at the first position of `plan` (rows, not tiled) whose integer
// operands the prechecked op rejects (scalar_ops::OperandCheck and
// UnaryOperandCheck: a division by zero, MIN // -1), before any kernel
// writes.
void CheckOperands(ElementwiseKernel kernel, DType t, const IterationPlan& plan,
                   const void* a_data, const void* b_data) {
  VisitType(IntegerTypes{}, t, [&](auto zero) {
    using T = decltype(zero);
    void (*check)(T, T) = nullptr;
    void (*check_unary)(T) = nullptr;
    if (kernel.unary) {
      switch (kernel.unary_op) {
#define STRIDEKIT_CHECK_CASE(Name, ...)                                    \
  case UnaryOp::k##Name:                                                   \
    check_unary =                                                          \
        &scalar_ops::UnaryOperandCheck<UnaryOp::k##Name>::template Run<T>; \
    break;
        STRIDEKIT_UNARY_OPS(STRIDEKIT_CHECK_CASE)
#undef STRIDEKIT_CHECK_CASE
      }
    } else {
      switch (kernel.binary) {
#define STRIDEKIT_CHECK_CASE(Name, ...)                                    \
  case BinaryOp::k##Name:                                                  \
    check = &scalar_ops::OperandCheck<BinaryOp::k##Name>::template Run<T>; \
    break;
        STRIDEKIT_BINARY_OPS(STRIDEKIT_CHECK_CASE)
#undef STRIDEKIT_CHECK_CASE
      }
    }
    const T* a = static_cast<const T*>(a_data);
    const T* b = static_cast<const T*>(b_data);
    const int64_t count = plan.inner_size();
    ChunkIterator chunks(plan, 0, plan.outer_size());
    Chunk chunk;
    while (chunks.Next(chunk)) {
      for (int64_t i = 0; i < count; ++i) {
        const T x = a[chunk.offsets[1] + i * plan.inner_stride(1)];
        if (check_unary != nullptr) {
          check_unary(x);
        } else {
          check(x, b[chunk.offsets[2] + i * plan.inner_stride(2)]);
        }
      }
    }
  });
}

void RunElementwise(const dispatch::Executor& ex, ElementwiseKernel kernel,
                    DType t, int num_inputs, const sk_view* const* inputs,
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
      temporaries[i] = MaterializeBox(ex, elem_size, ops[i], valid, target);
      ops[i] = temporaries[i].op;
    }
  }
  const Dims shape = target.Shape();
  Operand layouts[3];
  layouts[0] = {to.strides, BoxOffset(to, target)};
  for (int i = 0; i < num_inputs; ++i) {
    layouts[i + 1] = {ops[i].strides, BoxOffset(ops[i], target)};
  }
  const int transposed = TransposedThroughOutput(kernel, t, num_inputs, ops, to,
                                                 target, shape, layouts);
  // As Copy: non-temporal stores for outputs far beyond the caches.
  const bool stream =
      Numel(shape) >= CopyOptions{}.stream_min_bytes / int64_t(elem_size);
  // Checked integer ops (division) check every position before writing
  // anything, so they run as one part.
  const bool checked_division = kernel.ChecksOperands(t);
  // Signed integers may run on the unsigned kernel of their width.
  const DType kernel_t = kernel.KernelDTypeFor(t);
  // Part boundaries at multiples of 16 positions: whole vectors and cache
  // lines of contiguous rows, and whole register tiles of transposed inputs.
  const int part_count =
      checked_division ? 1 : ThreadParts(threads, Numel(shape));
  std::atomic<int64_t> ran{0};
  // Runs the kernel on `box`, reading input `through` (or none: -1) from
  // the output, where it was just written.
  auto run_box = [&](const Box& box, int through) {
    Operand box_layouts[3];
    box_layouts[0] = {to.strides, BoxOffset(to, box)};
    const void* in[2] = {};
    for (int i = 0; i < num_inputs; ++i) {
      const Operand& op = i == through ? to : ops[i];
      box_layouts[i + 1] = {op.strides, BoxOffset(op, box)};
      in[i] = op.data;
    }
    // Tiles for a transposed input where the kernel tiles (not for integer
    // division, checked by rows, nor the families that run by rows).
    const IterationPlan plan = IterationPlan::Make(
        box.Shape(), std::span(box_layouts, size_t(num_inputs + 1)),
        kernel.MayTile(t));
    if (checked_division) {
      CheckOperands(kernel, t, plan, in[0], in[1]);
    }
    const ElementwiseTask task{&plan,
                               kernel,
                               kernel_t,
                               out_data,
                               {in[0], in[1]},
                               0,
                               plan.outer_size(),
                               stream && plan.inner_stride(0) == 1};
    ran = ex.kernels.elementwise[int(kernel.FamilyFor(t))](task);
  };
  auto run_part = [&](const Box& box) {
    if (transposed >= 0 &&
        Numel(box.Shape()) * int64_t(elem_size) >=
            dispatch::TransposeThroughOutputMinBytes(kernel.transcendental())) {
      CopyBox(ex, elem_size, ops[transposed], to, box, CopyOptions{});
      return run_box(box, transposed);
    }
    run_box(box, -1);
  };
  if (part_count == 1) {
    run_part(target);  // Small calls: no split, no pool.
  } else {
    const std::vector<Box> parts = SplitBox(target, part_count, -1, 16);
    RunParallel(int(parts.size()),
                [&](int part) { run_part(parts[size_t(part)]); });
  }
  dispatch::NoteKernelRan(ran);
}

}  // namespace

namespace dispatch {
namespace {

void EngineBinary(const PlanState& s, const void* const* inputs, void* out,
                  const CopyOptions& options) {
  RunElementwise(*s.ex, {false, BinaryOp(s.op), UnaryOp::kNeg}, s.dtype, 2,
                 s.inputs, inputs, *s.out, out, options.threads);
}

void EngineUnary(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options) {
  RunElementwise(*s.ex, {true, BinaryOp::kAdd, UnaryOp(s.op)}, s.dtype, 1,
                 s.inputs, inputs, *s.out, out, options.threads);
}

void ResolveDirectElementwise(PlanState& s) {
  s.direct.reset();
  if (s.ex->IsReference() || s.out->has_mask) return;
  for (int i = 0; i < s.num_inputs; ++i) {
    if (s.inputs[i]->has_mask) return;
  }
  DirectElementwise& d = s.direct.emplace();
  const sk_view& out = *s.out;
  const DType t = s.dtype;
  const size_t elem_size = DTypeSize(t);
  const int64_t es = int64_t(elem_size);
  const bool unary = s.num_inputs == 1;
  // The resolution: the op's row (s.prechecked) and the dtype's kernel
  // family, looked up once (ElementwiseKernel's helpers would look again).
  d.kernel = unary ? ElementwiseKernel{true, BinaryOp::kAdd, UnaryOp(s.op)}
                   : ElementwiseKernel{false, BinaryOp(s.op), UnaryOp::kNeg};
  d.kernel_dtype =
      unary ? KernelDType(UnaryOp(s.op), t) : KernelDType(BinaryOp(s.op), t);
  const KernelFamily family = d.kernel.FamilyFor(t);
  d.run = s.ex->kernels.elementwise[int(family)];
  d.checked_division = IsInteger(t) && s.prechecked;
  d.elem_size = es;
  const sk_view* views[3] = {&out, s.inputs[0],
                             s.num_inputs > 1 ? s.inputs[1] : nullptr};
  // For views of one dense layout (s.dense, found by the checks), one row
  // of their elements.
  const int64_t dense = s.dense;
  const int n = dense > 0 ? 1 : out.ndim;
  const DimsView shape =
      dense > 0 ? DimsView(&dense, 1) : DimsView(out.shape, size_t(n));
  d.numel = 1;
  for (int a = 0; a < n; ++a) d.numel *= shape[a];  // Fits: checked view.
  d.max_direct_threads = d.checked_division || ThreadParts(2, d.numel) == 1
                             ? std::numeric_limits<int>::max()
                             : 1;
  d.stream = d.numel >= CopyOptions{}.stream_min_bytes / es;
  if (dense > 0) {
    for (int i = 0; i <= s.num_inputs; ++i) {
      // offset-checked: DenseLayoutCount checked these byte offsets
      d.lo[i] = d.first[i] = views[i]->offset * es;
      d.hi[i] = (views[i]->offset + dense) * es;
      if (i > 0) d.same_strides[i - 1] = true;
    }
    d.row =
        s.ex->kernels.elementwise_row[int(family)](d.kernel, d.kernel_dtype);
    if (d.row != nullptr && !d.checked_division) {
      // One row, run without an iteration plan (d.plan stays unmade).
      d.one_row = true;
      d.row_count = size_t(dense);
      for (int i = 0; i <= s.num_inputs; ++i) {
        d.row_strides[i] = 1;  // b's stays 0 for a unary op.
        d.row_first[i] = d.first[i];
      }
      return;
    }
  }
  const bool may_tile = !d.checked_division && elem_size >= 4 &&
                        family != KernelFamily::kHalf &&
                        family != KernelFamily::kComplex;
  // The layouts RunElementwise plans over out's whole box.
  Operand layouts[3];
  if (dense > 0) {
    for (int i = 0; i <= s.num_inputs; ++i) {
      layouts[i] = Operand{Dims(1, 1), views[i]->offset};
    }
  } else {
    DirectLayouts(out, std::span(s.inputs, size_t(s.num_inputs)), layouts);
    const size_t sizes[3] = {elem_size, elem_size, elem_size};
    if (!ByteExtents(out, layouts, s.num_inputs + 1, sizes, d.lo, d.hi)) {
      s.direct.reset();
      return;
    }
    for (int i = 0; i <= s.num_inputs; ++i) {
      // offset-checked: between lo and hi, which ByteExtents computed
      d.first[i] = layouts[i].offset * es;
      if (i == 0) continue;
      d.same_strides[i - 1] = true;
      for (int a = 0; a < n; ++a) {
        if (shape[a] > 1 && layouts[i].strides[a] != layouts[0].strides[a]) {
          d.same_strides[i - 1] = false;
        }
      }
    }
  }
  // Made in place (IterationPlan is kilobytes): the views passed the
  // layout checks, so Make's own checks are skipped.
  ::new (static_cast<void*>(&d.plan))
      IterationPlan(IterationPlan::MakeValidated(
          shape, d.numel, std::span(layouts, size_t(s.num_inputs + 1)),
          may_tile));
  const IterationPlan& plan = d.plan;
  d.stream = d.stream && plan.inner_stride(0) == 1;
  if (plan.tiled()) {
    // Large enough to go through the output: the engine's path.
    if (d.numel * es >=
        TransposeThroughOutputMinBytes(d.kernel.transcendental())) {
      d.max_direct_threads = -1;
    }
    return;
  }
  if (d.row == nullptr) {
    d.row =
        s.ex->kernels.elementwise_row[int(family)](d.kernel, d.kernel_dtype);
  }
  // An untiled plan's rows run along its last axis (rank 0: one element).
  const int inner = plan.ndim() - 1;
  d.row_count = inner >= 0 ? size_t(plan.shape()[inner]) : 1;
  for (int i = 0; i <= s.num_inputs; ++i) {
    d.row_strides[i] = inner >= 0 ? plan.strides(i)[inner] : 0;
    // offset-checked: the plan's first element, within ByteExtents'
    d.row_first[i] = plan.offset(i) * es;
  }
  d.one_row = plan.outer_ndim() == 0;
}

// The rows of a plan of several, with d.row.
[[gnu::noinline]] void RunManyRows(const DirectElementwise& d, unsigned char* o,
                                   const unsigned char* a,
                                   const unsigned char* b, bool unary) {
  const int64_t* st = d.row_strides;
  const int64_t es = d.elem_size;
  ForEachChunk(d.plan, 0, d.plan.outer_size(), [&](const int64_t* offsets) {
    // offset-checked: within the operands' byte extents (ByteExtents)
    d.row(o + offsets[0] * es, st[0], a + offsets[1] * es, st[1],
          unary ? b : b + offsets[2] * es, st[2], d.row_count, d.stream);
  });
}

// The plan's rows with d.row (as the executor would run them); a plan of
// one row as one call, inline in the callers.
[[gnu::always_inline]] inline void RunRows(const DirectElementwise& d,
                                           const void* const* inputs, void* out,
                                           bool unary) {
  // A unary op's ignored second operand: a broadcast zero of any dtype.
  static const unsigned char kZero[16] = {};
  auto* o = static_cast<unsigned char*>(out);
  const auto* a = static_cast<const unsigned char*>(inputs[0]);
  const auto* b = unary ? kZero : static_cast<const unsigned char*>(inputs[1]);
  const int64_t* st = d.row_strides;
  if (d.one_row) {
    // offset-checked: within the operands' byte extents (ByteExtents)
    return d.row(o + d.row_first[0], st[0], a + d.row_first[1], st[1],
                 b + d.row_first[2], st[2], d.row_count, d.stream);
  }
  RunManyRows(d, o, a, b, unary);
}

// RunDirectElementwise's other cases: operands checked first, or a plan
// its kernel runs as a task (no row: tiles, float16/bfloat16, complex).
[[gnu::noinline]] void RunCheckedOrTask(const PlanState& s,
                                        const void* const* inputs, void* out) {
  const DirectElementwise& d = *s.direct;
  if (d.checked_division) {
    CheckOperands(d.kernel, s.dtype, d.plan, inputs[0],
                  s.num_inputs > 1 ? inputs[1] : nullptr);
  }
  if (d.row != nullptr) {
    RunRows(d, inputs, out, s.num_inputs == 1);
    return NoteKernelRan(s.ex->hwy_target);
  }
  const ElementwiseTask task{
      &d.plan,
      d.kernel,
      d.kernel_dtype,
      out,
      {inputs[0], s.num_inputs > 1 ? inputs[1] : nullptr},
      0,
      d.plan.outer_size(),
      d.stream};
  NoteKernelRan(d.run(task));
}

bool RunDirectElementwise(const PlanState& s, const void* const* inputs,
                          void* out, int threads) {
  if (!s.direct) return false;
  const DirectElementwise& d = *s.direct;
  // A null pointer: the data checks name it (ExecutePlan's run_first).
  if (out == nullptr || inputs[0] == nullptr ||
      (s.num_inputs > 1 && inputs[1] == nullptr)) {
    return false;
  }
  if (d.numel == 0) return true;
  if (threads > d.max_direct_threads) return false;
  const auto* to = static_cast<const unsigned char*>(out);
  // An input sharing a byte with out other than as out itself goes through
  // a temporary: the engine's path.
  for (int i = 0; i < s.num_inputs; ++i) {
    const auto* from = static_cast<const unsigned char*>(inputs[i]);
    if (SharesBytes(from, out, d.lo, d.hi, i + 1) &&
        !(d.same_strides[i] && from + d.first[i + 1] == to + d.first[0])) {
      return false;
    }
  }
  if (d.row != nullptr && !d.checked_division) {
    RunRows(d, inputs, out, s.num_inputs == 1);
    NoteKernelRan(s.ex->hwy_target);
    return true;
  }
  RunCheckedOrTask(s, inputs, out);
  return true;
}

void RunBinaryReference(const PlanState& s, const void* const* inputs,
                        void* out, const CopyOptions&) {
  reference::RunBinary(BinaryOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                       *s.inputs[1], inputs[1], *s.out, out);
  NoteKernelRan(0);
}

void RunUnaryReference(const PlanState& s, const void* const* inputs, void* out,
                       const CopyOptions&) {
  reference::RunUnary(UnaryOp(s.op), s.dtype, *s.inputs[0], inputs[0], *s.out,
                      out);
  NoteKernelRan(0);
}

// Their direct path runs first (PlanState::run_first).
const KernelFunction kBinaryFunction{"binary", EngineBinary,
                                     RunBinaryReference};
const KernelFunction kUnaryFunction{"unary", EngineUnary, RunUnaryReference};

void PlanBinary(PlanState& s, BinaryOp op, DType t, const sk_view& a,
                const sk_view& b, const sk_view& out, const void* const* datas,
                const void* out_data) {
  const void* const* in = DatasFor(datas);
  const OpInfo<BinaryOp>& row = CheckBinaryArguments(
      op, t, a, in[0], b, in[1], out, OutFor(datas, out_data), &s.dense);
  s.prechecked = row.prechecked;
  Bind(s, kBinaryFunction, row.name, int32_t(op), t, {&a, &b}, out, datas);
  ResolveDirectElementwise(s);
  if (s.direct) s.run_first = RunDirectElementwise;
}

void PlanUnary(PlanState& s, UnaryOp op, DType t, const sk_view& a,
               const sk_view& out, const void* const* datas,
               const void* out_data) {
  const OpInfo<UnaryOp>& row = CheckUnaryArguments(
      op, t, a, DatasFor(datas)[0], out, OutFor(datas, out_data), &s.dense);
  s.prechecked = row.prechecked;
  Bind(s, kUnaryFunction, row.name, int32_t(op), t, {&a}, out, datas);
  ResolveDirectElementwise(s);
  if (s.direct) s.run_first = RunDirectElementwise;
}

}  // namespace

}  // namespace dispatch

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data, const NumericOptions& options) {
  dispatch::PlanState s;
  const void* in[2] = {a_data, b_data};
  dispatch::PlanBinary(s, op, t, a, b, out, in, out_data);
  dispatch::ExecutePlan(s, in, out_data, options.threads);
}

void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data, const NumericOptions& options) {
  dispatch::PlanState s;
  const void* in[1] = {a_data};
  dispatch::PlanUnary(s, op, t, a, out, in, out_data);
  dispatch::ExecutePlan(s, in, out_data, options.threads);
}

Plan Plan::Binary(BinaryOp op, DType t, const sk_view& a, const sk_view& b,
                  const sk_view& out) {
  return dispatch::MakePlan({a, b, out}, [&](auto& s, auto v) {
    dispatch::PlanBinary(s, op, t, v[0], v[1], v[2], nullptr, nullptr);
  });
}

Plan Plan::Unary(UnaryOp op, DType t, const sk_view& a, const sk_view& out) {
  return dispatch::MakePlan({a, out}, [&](auto& s, auto v) {
    dispatch::PlanUnary(s, op, t, v[0], v[1], nullptr, nullptr);
  });
}

}  // namespace stridekit
