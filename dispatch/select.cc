// The kernel functions compare, predicate and where (compare.h, where.h):
// their plans, one-shot calls and Plan values, and their engine
// (dispatch/engine.h), which resolves broadcasting, masks and overlap on
// metadata as the elementwise engine does (operand boxes, temporaries over
// out's valid box, parts on options.threads threads), with an element size per
// operand (out is bytes for comparisons and predicates, cond bytes for where).
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
#include "reference_kernels.h"
#include "simd/kernel_dtype.h"
#include "simd/select/select_task.h"
#include "stridekit/compare.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
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
namespace {

void EngineCompare(const PlanState& s, const void* const* inputs, void* out,
                   const CopyOptions& options) {
  const CompareOp op = CompareOp(s.op);
  const size_t sizes[2] = {DTypeSize(s.dtype), DTypeSize(s.dtype)};
  SelectTask task{};
  task.kind = SelectKind::kCompare;
  task.compare = op;
  // Signed integers may run on the unsigned kernel of their width.
  task.dtype = KernelDType(op, s.dtype);
  RunSelect(*s.ex, CompareKernel(*s.ex, s.dtype), task, 2, s.inputs, inputs,
            sizes, *s.out, out, 1, options.threads, OpName(op));
}

void EnginePredicate(const PlanState& s, const void* const* inputs, void* out,
                     const CopyOptions& options) {
  const PredicateOp op = PredicateOp(s.op);
  const size_t sizes[1] = {DTypeSize(s.dtype)};
  SelectTask task{};
  task.kind = SelectKind::kPredicate;
  task.predicate = op;
  task.dtype = s.dtype;
  RunSelect(*s.ex, CompareKernel(*s.ex, s.dtype), task, 1, s.inputs, inputs,
            sizes, *s.out, out, 1, options.threads, OpName(op));
}

void EngineWhere(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options) {
  const size_t size = DTypeSize(s.dtype);
  const size_t sizes[3] = {1, size, size};
  SelectTask task{};
  task.kind = SelectKind::kWhere;
  task.dtype = s.dtype;
  RunSelect(*s.ex, s.ex->kernels.where, task, 3, s.inputs, inputs, sizes,
            *s.out, out, size, options.threads, "where");
}

// `kind`: the call's (compare, predicate or where).
void ResolveDirectSelect(PlanState& s, SelectKind kind) {
  s.direct_select.reset();
  if (s.ex->IsReference() || s.out->has_mask) return;
  for (int i = 0; i < s.num_inputs; ++i) {
    if (s.inputs[i]->has_mask) return;
  }
  const sk_view& out = *s.out;
  const DType t = s.dtype;
  const size_t size = DTypeSize(t);
  // Element sizes: out, then the inputs (bools are bytes).
  const bool where = kind == SelectKind::kWhere;
  const size_t sizes[4] = {where ? size : 1, where ? 1 : size, size, size};
  const int n = out.ndim;
  int64_t numel = 1;
  for (int a = 0; a < n; ++a) numel *= out.shape[a];  // Fits: checked view.
  // The layouts RunSelect plans over out's whole box.
  Operand layouts[4];
  DirectLayouts(out, std::span(s.inputs, size_t(s.num_inputs)), layouts);
  const DimsView shape(out.shape, size_t(n));
  // From kStageMinBytes on, the engine stages an input read across out's
  // rows (RunSelect): such a call runs there.
  if (numel * int64_t(size) >= kStageMinBytes) {
    const Box all{Dims(n, 0), Dims(shape)};
    for (int i = 1; i <= s.num_inputs; ++i) {
      if (ReadAcrossRows(layouts[i], layouts[0], all)) return;
    }
  }
  DirectSelect& d = s.direct_select.emplace();
  d.task.kind = kind;
  switch (kind) {
    case SelectKind::kCompare:
      d.task.compare = CompareOp(s.op);
      d.task.dtype = KernelDType(CompareOp(s.op), t);
      d.run = CompareKernel(*s.ex, t);
      break;
    case SelectKind::kPredicate:
      d.task.predicate = PredicateOp(s.op);
      d.task.dtype = t;
      d.run = CompareKernel(*s.ex, t);
      break;
    case SelectKind::kWhere:
      d.task.dtype = t;
      d.run = s.ex->kernels.where;
      break;
  }
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

// Each runs its direct path first.
void RunComparePlan(const PlanState& s, const void* const* inputs, void* out,
                    const CopyOptions& options) {
  if (!RunDirectSelect(s, inputs, out, options.threads)) {
    EngineCompare(s, inputs, out, options);
  }
}

void RunPredicatePlan(const PlanState& s, const void* const* inputs, void* out,
                      const CopyOptions& options) {
  if (!RunDirectSelect(s, inputs, out, options.threads)) {
    EnginePredicate(s, inputs, out, options);
  }
}

void RunWherePlan(const PlanState& s, const void* const* inputs, void* out,
                  const CopyOptions& options) {
  if (!RunDirectSelect(s, inputs, out, options.threads)) {
    EngineWhere(s, inputs, out, options);
  }
}

void RunCompareReference(const PlanState& s, const void* const* inputs,
                         void* out, const CopyOptions&) {
  reference::RunCompare(CompareOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                        *s.inputs[1], inputs[1], *s.out, out);
  NoteKernelRan(0);
}

void RunPredicateReference(const PlanState& s, const void* const* inputs,
                           void* out, const CopyOptions&) {
  reference::RunPredicate(PredicateOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                          *s.out, out);
  NoteKernelRan(0);
}

void RunWhereReference(const PlanState& s, const void* const* inputs, void* out,
                       const CopyOptions&) {
  reference::RunWhere(s.dtype, *s.inputs[0], inputs[0], *s.inputs[1], inputs[1],
                      *s.inputs[2], inputs[2], *s.out, out);
  NoteKernelRan(0);
}

const KernelFunction kCompareFunction{"compare", RunComparePlan,
                                      RunCompareReference};
const KernelFunction kPredicateFunction{"predicate", RunPredicatePlan,
                                        RunPredicateReference};
const KernelFunction kWhereFunction{"where", RunWherePlan, RunWhereReference};

void PlanPredicate(PlanState& s, PredicateOp op, DType t, const sk_view& a,
                   const sk_view& out, const void* const* datas,
                   const void* out_data) {
  CheckPredicateArguments(op, t, a, DatasFor(datas)[0], out,
                          OutFor(datas, out_data));
  Bind(s, kPredicateFunction, OpName(op), int32_t(op), t, {&a}, out, datas);
  ResolveDirectSelect(s, SelectKind::kPredicate);
}

void PlanCompare(PlanState& s, CompareOp op, DType t, const sk_view& a,
                 const sk_view& b, const sk_view& out, const void* const* datas,
                 const void* out_data) {
  const void* const* in = DatasFor(datas);
  CheckCompareArguments(op, t, a, in[0], b, in[1], out,
                        OutFor(datas, out_data));
  Bind(s, kCompareFunction, OpName(op), int32_t(op), t, {&a, &b}, out, datas);
  ResolveDirectSelect(s, SelectKind::kCompare);
}

void PlanWhere(PlanState& s, DType t, const sk_view& cond, const sk_view& a,
               const sk_view& b, const sk_view& out, const void* const* datas,
               const void* out_data) {
  const void* const* in = DatasFor(datas);
  CheckWhereArguments(t, cond, in[0], a, in[1], b, in[2], out,
                      OutFor(datas, out_data));
  Bind(s, kWhereFunction, "where", 0, t, {&cond, &a, &b}, out, datas);
  ResolveDirectSelect(s, SelectKind::kWhere);
}

}  // namespace

}  // namespace dispatch

void Predicate(PredicateOp op, DType t, const sk_view& a, const void* a_data,
               const sk_view& out, void* out_data,
               const NumericOptions& options) {
  dispatch::PlanState s;
  const void* in[1] = {a_data};
  dispatch::PlanPredicate(s, op, t, a, out, in, out_data);
  dispatch::ExecutePlan(s, in, out_data, options.threads);
}

void Compare(CompareOp op, DType t, const sk_view& a, const void* a_data,
             const sk_view& b, const void* b_data, const sk_view& out,
             void* out_data, const NumericOptions& options) {
  dispatch::PlanState s;
  const void* in[2] = {a_data, b_data};
  dispatch::PlanCompare(s, op, t, a, b, out, in, out_data);
  dispatch::ExecutePlan(s, in, out_data, options.threads);
}

void Where(DType t, const sk_view& cond, const void* cond_data,
           const sk_view& a, const void* a_data, const sk_view& b,
           const void* b_data, const sk_view& out, void* out_data,
           const NumericOptions& options) {
  dispatch::PlanState s;
  const void* in[3] = {cond_data, a_data, b_data};
  dispatch::PlanWhere(s, t, cond, a, b, out, in, out_data);
  dispatch::ExecutePlan(s, in, out_data, options.threads);
}

Plan Plan::Predicate(PredicateOp op, DType t, const sk_view& a,
                     const sk_view& out) {
  return dispatch::MakePlan({a, out}, [&](auto& s, auto v) {
    dispatch::PlanPredicate(s, op, t, v[0], v[1], nullptr, nullptr);
  });
}

Plan Plan::Compare(CompareOp op, DType t, const sk_view& a, const sk_view& b,
                   const sk_view& out) {
  return dispatch::MakePlan({a, b, out}, [&](auto& s, auto v) {
    dispatch::PlanCompare(s, op, t, v[0], v[1], v[2], nullptr, nullptr);
  });
}

Plan Plan::Where(DType t, const sk_view& cond, const sk_view& a,
                 const sk_view& b, const sk_view& out) {
  return dispatch::MakePlan({cond, a, b, out}, [&](auto& s, auto v) {
    dispatch::PlanWhere(s, t, v[0], v[1], v[2], v[3], nullptr, nullptr);
  });
}

}  // namespace stridekit
