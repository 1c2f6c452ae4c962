// The engine of the bool-output families (comparisons, predicates) and
// where (dispatch/engine.h): it resolves
// broadcasting, masks and overlap on metadata as the elementwise engine
// does (operand boxes, temporaries over out's valid box, parts on
// options.threads threads), with an element size per operand (out is
// bytes for comparisons and predicates, cond bytes for where).
#include <algorithm>
#include <atomic>
#include <limits>
#include <new>
#include <vector>

#include "allocation.h"
#include "compare_scalar.h"
#include "dispatch/copy_internal.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "numeric_checks.h"
#include "numeric_types.h"
#include "simd/kernel_dtype.h"
#include "simd/select/select_task.h"
#include "stridekit/compare.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/shape.h"
#include "stridekit/where.h"

namespace stridekit {
namespace {

// True when input `in` (elements of in_size bytes) must go through a
// temporary: it shares a byte with out over `box` other than by the same
// mapping of same-size elements.
bool MustCopy(const Operand& in, size_t in_size, const Operand& to,
              size_t out_size, const Box& box) {
  if (in_size == out_size) return OverlapsOtherwise(in, to, box, out_size);
  const auto [in_lo, in_hi] = ByteRange(in, box, in_size);
  const auto [out_lo, out_hi] = ByteRange(to, box, out_size);
  return in_lo < out_hi && out_lo < in_hi;
}

// Runs `task` (kind, op, dtype set) with `kernel` over out's valid box:
// inputs masked inside it or overlapping out are first materialised, then
// one plan per part of the box runs on a thread.
void RunSelect(const dispatch::Executor& ex, simd::SelectKernelFn kernel,
               SelectTask task, int num_inputs, const sk_view* const* inputs,
               const void* const* datas, const size_t* sizes,
               const sk_view& out, void* out_data, size_t out_size, int threads,
               const char* name) {
  const Box target = ValidBox(out);
  if (target.empty()) return;
  const Operand to = OperandOf(out, out_data);
  Operand ops[3];
  Temporary temporaries[3];
  for (int i = 0; i < num_inputs; ++i) {
    Box valid;
    ops[i] = AlignSource(*inputs[i], datas[i], out, valid);
    if (!(Intersect(target, valid) == target) ||
        MustCopy(ops[i], sizes[i], to, out_size, target)) {
      temporaries[i] = MaterializeBox(ex, sizes[i], ops[i], valid, target,
                                      CopyOptions{}, name);
      ops[i] = temporaries[i].op;
    }
  }
  // An input read across its rows (transposed against out) is staged chunk
  // by chunk (copy_internal.h, kStageMinBytes).
  const Dims shape = target.Shape();
  int transposed = -1;
  for (int i = 0; i < num_inputs && transposed < 0; ++i) {
    if (temporaries[i].bytes == nullptr &&
        Numel(shape) * int64_t(sizes[i]) >= kStageMinBytes &&
        ReadAcrossRows(ops[i], to, target)) {
      transposed = i;
    }
  }
  const std::vector<Box> parts =
      SplitBox(target, ThreadParts(threads, Numel(shape)), -1, 16);
  Staging staging;
  if (transposed >= 0) {
    staging = PlanStaging(parts, sizes[transposed], name);
  } else {
    for (const Box& part : parts) staging.chunks.push_back({part});
  }
  std::atomic<int64_t> ran{0};
  RunParallel(int(parts.size()), [&](int part) {
    for (const Box& box : staging.chunks[size_t(part)]) {
      Operand in[3] = {ops[0], ops[1], ops[2]};
      if (transposed >= 0) {
        in[transposed] = StageChunk(ex, sizes[transposed], ops[transposed], box,
                                    staging.scratch[size_t(part)].get());
      }
      Operand box_layouts[4];
      box_layouts[0] = {to.strides, BoxOffset(to, box)};
      SelectTask t = task;
      for (int i = 0; i < num_inputs; ++i) {
        box_layouts[i + 1] = {in[i].strides, BoxOffset(in[i], box)};
        t.in[i] = in[i].data;
      }
      const IterationPlan plan = IterationPlan::Make(
          box.Shape(), std::span(box_layouts, size_t(num_inputs + 1)), false);
      t.plan = &plan;
      t.out = out_data;
      t.begin = 0;
      t.end = plan.outer_size();
      ran = kernel(t);
    }
  });
  dispatch::NoteKernelRan(ran);
}

// The comparison kernel of dtype t's family.
simd::SelectKernelFn CompareKernel(const dispatch::Executor& ex, DType t) {
  return KindOf(t) == kIntegerKinds || KindOf(t) == kBoolKinds
             ? ex.kernels.compare_integer
             : ex.kernels.compare_float;
}

}  // namespace

namespace dispatch {

void EngineCompare(const Executor& ex, CompareOp op, DType t, const sk_view& a,
                   const void* a_data, const sk_view& b, const void* b_data,
                   const sk_view& out, void* out_data,
                   const NumericOptions& options) {
  const sk_view* inputs[2] = {&a, &b};
  const void* datas[2] = {a_data, b_data};
  const size_t sizes[2] = {DTypeSize(t), DTypeSize(t)};
  SelectTask task{};
  task.kind = SelectKind::kCompare;
  task.compare = op;
  // Signed integers may run on the unsigned kernel of their width.
  task.dtype = KernelDType(op, t);
  RunSelect(ex, CompareKernel(ex, t), task, 2, inputs, datas, sizes, out,
            out_data, 1, options.threads, OpName(op));
}

void EnginePredicate(const Executor& ex, PredicateOp op, DType t,
                     const sk_view& a, const void* a_data, const sk_view& out,
                     void* out_data, const NumericOptions& options) {
  const sk_view* inputs[1] = {&a};
  const void* datas[1] = {a_data};
  const size_t sizes[1] = {DTypeSize(t)};
  SelectTask task{};
  task.kind = SelectKind::kPredicate;
  task.predicate = op;
  task.dtype = t;
  RunSelect(ex, CompareKernel(ex, t), task, 1, inputs, datas, sizes, out,
            out_data, 1, options.threads, OpName(op));
}

void ResolveDirectSelect(PlanState& s) {
  s.direct_select.reset();
  if (s.ex->IsReference() || s.out->has_mask) return;
  for (int i = 0; i < s.num_inputs; ++i) {
    if (s.inputs[i]->has_mask) return;
  }
  const sk_view& out = *s.out;
  const DType t = s.dtype;
  const size_t size = DTypeSize(t);
  // Element sizes: out, then the inputs (bools are bytes).
  const bool where = s.kind == PlanKind::kWhere;
  const size_t sizes[4] = {where ? size : 1, where ? 1 : size, size, size};
  const int n = out.ndim;
  int64_t numel = 1;
  for (int a = 0; a < n; ++a) numel *= out.shape[a];  // Fits: checked view.
  // From kStageMinBytes on, the engine may stage a transposed input.
  if (numel * int64_t(size) >= kStageMinBytes) return;
  DirectSelect& d = s.direct_select.emplace();
  switch (s.kind) {
    case PlanKind::kCompare:
      d.task.kind = SelectKind::kCompare;
      d.task.compare = CompareOp(s.op);
      d.task.dtype = KernelDType(CompareOp(s.op), t);
      d.run = CompareKernel(*s.ex, t);
      break;
    case PlanKind::kPredicate:
      d.task.kind = SelectKind::kPredicate;
      d.task.predicate = PredicateOp(s.op);
      d.task.dtype = t;
      d.run = CompareKernel(*s.ex, t);
      break;
    default:
      d.task.kind = SelectKind::kWhere;
      d.task.dtype = t;
      d.run = s.ex->kernels.where;
      break;
  }
  // The layouts RunSelect plans over out's whole box.
  Operand layouts[4];
  DirectLayouts(out, std::span(s.inputs, size_t(s.num_inputs)), layouts);
  const DimsView shape(out.shape, size_t(n));
  // Made in place, unchecked: the views passed the layout checks.
  ::new (static_cast<void*>(&d.plan))
      IterationPlan(IterationPlan::MakeValidated(
          shape, numel, std::span(layouts, size_t(s.num_inputs + 1)), false));
  d.max_direct_threads =
      ThreadParts(2, numel) == 1 ? std::numeric_limits<int>::max() : 1;
  if (!ByteExtents(out, layouts, s.num_inputs + 1, sizes, d.lo, d.hi)) {
    s.direct_select.reset();
  }
}

bool RunDirectSelect(const PlanState& s, const void* const* inputs, void* out,
                     int threads) {
  if (!s.direct_select) return false;
  const DirectSelect& d = *s.direct_select;
  if (d.plan.empty()) return true;
  if (threads > d.max_direct_threads) return false;
  // Any input sharing a byte with out: the engine (it copies what it must).
  for (int i = 0; i < s.num_inputs; ++i) {
    if (SharesBytes(inputs[i], out, d.lo, d.hi, i + 1)) return false;
  }
  SelectTask task = d.task;
  task.plan = &d.plan;
  task.out = out;
  for (int i = 0; i < s.num_inputs; ++i) task.in[i] = inputs[i];
  task.begin = 0;
  task.end = d.plan.outer_size();
  NoteKernelRan(d.run(task));
  return true;
}

void EngineWhere(const Executor& ex, DType t, const sk_view& cond,
                 const void* cond_data, const sk_view& a, const void* a_data,
                 const sk_view& b, const void* b_data, const sk_view& out,
                 void* out_data, const NumericOptions& options) {
  const sk_view* inputs[3] = {&cond, &a, &b};
  const void* datas[3] = {cond_data, a_data, b_data};
  const size_t size = DTypeSize(t);
  const size_t sizes[3] = {1, size, size};
  SelectTask task{};
  task.kind = SelectKind::kWhere;
  task.dtype = t;
  RunSelect(ex, ex.kernels.where, task, 3, inputs, datas, sizes, out, out_data,
            size, options.threads, "where");
}

}  // namespace dispatch

}  // namespace stridekit
