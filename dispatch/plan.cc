// Plans: a kernel call checked and resolved once (PlanState), run on data
// many times (ExecutePlan). The one-shot entry points (one_shot.cc) and the
// Plan values of stridekit/plan.h both run through here.
#include "stridekit/plan.h"

#include <cstring>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cast_reference.h"
#include "copy_checks.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "numeric_checks.h"
#include "strided_layout.h"
#include "stridekit/dtype.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace dispatch {

const char* PlanKindName(PlanKind kind) {
  static constexpr const char* kNames[] = {
      "copy",    "fill",  "cast",   "binary",     "unary", "predicate",
      "compare", "where", "reduce", "arg_reduce", "scan",  "einsum"};
  return kNames[int(kind)];
}

namespace {

// What the checks of a plan made without pointers see: non-null stand-ins.
constexpr unsigned char kPlanningByte = 0;
constexpr const void* kPlanningData[3] = {&kPlanningByte, &kPlanningByte,
                                          &kPlanningByte};

// The input pointers the checks see: the call's, or the stand-ins (at most
// three inputs; einsum has its own).
const void* const* DatasFor(const void* const* datas) {
  return datas != nullptr ? datas : kPlanningData;
}
const void* OutFor(const void* const* datas, const void* out_data) {
  return datas != nullptr ? out_data : &kPlanningByte;
}

bool HasElements(const sk_view& v) { return !ValidSpan(v).empty(); }

// Records what every kernel but einsum requires: out's data when out has a
// valid element, an input's when out has any position and the input has a
// valid element.
void NoteDataNeeds(PlanState& s, const void* const* datas) {
  s.data_checked = datas != nullptr;
  if (s.data_checked) return;
  s.out_needs_data = HasElements(*s.out);
  const bool reads = Numel(DimsView(s.out->shape, size_t(s.out->ndim))) > 0;
  for (int i = 0; i < s.num_inputs; ++i) {
    s.input_needs_data[i] = reads && HasElements(*s.inputs[i]);
  }
}

// Binds a checked call (every kernel but einsum): its kind, op name and
// value, dtype, input views and out, the data pointers it will need, and
// the selected executor, kept by the plan.
void Bind(PlanState& s, PlanKind kind, const char* name, int32_t op, DType t,
          std::initializer_list<const sk_view*> inputs, const sk_view& out,
          const void* const* datas) {
  s.kind = kind;
  s.name = name;
  s.op = op;
  s.dtype = t;
  s.num_inputs = int(inputs.size());
  int i = 0;
  for (const sk_view* v : inputs) s.inputs[i++] = v;
  s.out = &out;
  NoteDataNeeds(s, datas);
  s.ex = &SelectedExecutor(name);
}

}  // namespace

void PlanCopy(PlanState& s, size_t elem_size, const sk_view& src,
              const sk_view& dst, const void* fill, const void* const* datas,
              const void* out_data) {
  CheckCopyArguments(elem_size, src, DatasFor(datas)[0], dst,
                     OutFor(datas, out_data), "copy");
  s.elem_size = elem_size;
  s.fill = fill;
  Bind(s, PlanKind::kCopy, "copy", 0, DType::kUint8, {&src}, dst, datas);
}

void PlanFill(PlanState& s, size_t elem_size, const sk_view& dst,
              const void* const* datas, const void* out_data) {
  CheckFillArguments(elem_size, dst, OutFor(datas, out_data),
                     DatasFor(datas)[0]);
  s.elem_size = elem_size;
  static const sk_view kScalar{};
  Bind(s, PlanKind::kFill, "fill", 0, DType::kUint8, {&kScalar}, dst, datas);
}

void PlanCast(PlanState& s, DType src_t, const sk_view& src, DType dst_t,
              const sk_view& dst, const void* const* datas,
              const void* out_data) {
  CheckCastArguments(src_t, src, DatasFor(datas)[0], dst_t, dst,
                     OutFor(datas, out_data));
  s.dst_dtype = dst_t;
  Bind(s, PlanKind::kCast, "cast", 0, src_t, {&src}, dst, datas);
  ResolveDirectCast(s);
}

void PlanBinary(PlanState& s, BinaryOp op, DType t, const sk_view& a,
                const sk_view& b, const sk_view& out, const void* const* datas,
                const void* out_data) {
  const void* const* in = DatasFor(datas);
  const OpInfo<BinaryOp>& row = CheckBinaryArguments(
      op, t, a, in[0], b, in[1], out, OutFor(datas, out_data), &s.dense);
  s.prechecked = row.prechecked;
  Bind(s, PlanKind::kBinary, row.name, int32_t(op), t, {&a, &b}, out, datas);
  ResolveDirectElementwise(s);
  if (s.direct) s.run_first = RunDirectElementwise;
}

void PlanUnary(PlanState& s, UnaryOp op, DType t, const sk_view& a,
               const sk_view& out, const void* const* datas,
               const void* out_data) {
  const OpInfo<UnaryOp>& row = CheckUnaryArguments(
      op, t, a, DatasFor(datas)[0], out, OutFor(datas, out_data), &s.dense);
  s.prechecked = row.prechecked;
  Bind(s, PlanKind::kUnary, row.name, int32_t(op), t, {&a}, out, datas);
  ResolveDirectElementwise(s);
  if (s.direct) s.run_first = RunDirectElementwise;
}

void PlanPredicate(PlanState& s, PredicateOp op, DType t, const sk_view& a,
                   const sk_view& out, const void* const* datas,
                   const void* out_data) {
  CheckPredicateArguments(op, t, a, DatasFor(datas)[0], out,
                          OutFor(datas, out_data));
  Bind(s, PlanKind::kPredicate, OpName(op), int32_t(op), t, {&a}, out, datas);
  ResolveDirectSelect(s);
}

void PlanCompare(PlanState& s, CompareOp op, DType t, const sk_view& a,
                 const sk_view& b, const sk_view& out, const void* const* datas,
                 const void* out_data) {
  const void* const* in = DatasFor(datas);
  CheckCompareArguments(op, t, a, in[0], b, in[1], out,
                        OutFor(datas, out_data));
  Bind(s, PlanKind::kCompare, OpName(op), int32_t(op), t, {&a, &b}, out, datas);
  ResolveDirectSelect(s);
}

void PlanWhere(PlanState& s, DType t, const sk_view& cond, const sk_view& a,
               const sk_view& b, const sk_view& out, const void* const* datas,
               const void* out_data) {
  const void* const* in = DatasFor(datas);
  CheckWhereArguments(t, cond, in[0], a, in[1], b, in[2], out,
                      OutFor(datas, out_data));
  Bind(s, PlanKind::kWhere, "where", 0, t, {&cond, &a, &b}, out, datas);
  ResolveDirectSelect(s);
}

void PlanReduce(PlanState& s, ReduceOp op, DType t, const sk_view& in,
                std::span<const int32_t> axes, const sk_view& out,
                const void* const* datas, const void* out_data) {
  s.reduced = CheckReduceArguments(op, t, in, DatasFor(datas)[0], axes, out,
                                   OutFor(datas, out_data));
  Bind(s, PlanKind::kReduce, OpName(op), int32_t(op), t, {&in}, out, datas);
  ResolveDirectReduce(s);
}

void PlanArgReduce(PlanState& s, ArgOp op, DType t, const sk_view& in,
                   int32_t axis, const sk_view& out, const void* const* datas,
                   const void* out_data) {
  s.axis = CheckArgReduceArguments(op, t, in, DatasFor(datas)[0], axis, out,
                                   OutFor(datas, out_data));
  Bind(s, PlanKind::kArgReduce, OpName(op), int32_t(op), t, {&in}, out, datas);
  ResolveDirectAxis(s);
}

void PlanScan(PlanState& s, ScanOp op, DType t, const sk_view& in, int32_t axis,
              const sk_view& out, const void* const* datas,
              const void* out_data) {
  s.axis = CheckScanArguments(op, t, in, DatasFor(datas)[0], axis, out,
                              OutFor(datas, out_data));
  Bind(s, PlanKind::kScan, OpName(op), int32_t(op), t, {&in}, out, datas);
  ResolveDirectAxis(s);
}

void PlanEinsum(PlanState& s, std::string_view spec,
                std::optional<std::span<const RowLengths>> rows, DType t,
                std::span<const sk_view> operands, const sk_view& out,
                const void* const* datas, const void* out_data) {
  std::vector<const void*> planning;
  if (datas == nullptr) planning.assign(operands.size(), &kPlanningByte);
  const std::span<const void* const> in(
      datas != nullptr ? datas : planning.data(), operands.size());
  s.projections = CheckEinsumArguments(spec, t, operands, in, out,
                                       OutFor(datas, out_data), rows);
  s.kind = PlanKind::kEinsum;
  s.name = "einsum";
  s.num_inputs = int(operands.size());
  s.out = &out;
  s.dtype = t;
  s.operands = operands;
  s.data_checked = datas != nullptr;
  if (!s.data_checked) {
    s.out_needs_data = HasElements(out);
    for (size_t i = 0; i < operands.size() && i < size_t(kMaxOperands); ++i) {
      s.input_needs_data[i] = HasElements(operands[i]);
    }
  }
  s.ex = &SelectedExecutor(s.name);
  ResolveDirectEinsum(s);
  if (!s.direct_einsum) PrepareEinsumProduct(s);
}

void DirectLayouts(const sk_view& out, std::span<const sk_view* const> inputs,
                   Operand* layouts) {
  const int n = out.ndim;
  layouts[0].strides.assign(DimsView(out.strides, size_t(n)));
  layouts[0].offset = out.offset;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const sk_view& in = *inputs[i];
    Operand& layout = layouts[i + 1];
    layout.strides.assign(n, 0);
    layout.offset = in.offset;
    for (int j = 0, a = n - in.ndim; j < in.ndim; ++j, ++a) {
      if (in.shape[j] != 1 || out.shape[a] == 1) {
        layout.strides[a] = in.strides[j];
      }
    }
  }
}

bool ByteExtents(const sk_view& out, const Operand* layouts, int count,
                 const size_t* sizes, int64_t* lo, int64_t* hi) {
  // Without elements the strides were never checked against the extent
  // (their products may overflow): no direct path (the engine does
  // nothing).
  for (int a = 0; a < out.ndim; ++a) {
    if (out.shape[a] == 0) return false;
  }
  for (int i = 0; i < count; ++i) {
    int64_t first = layouts[i].offset, last = first;
    for (int a = 0; a < out.ndim; ++a) {
      // offset-checked: CheckLayout validated every view's extent
      const int64_t extent = (out.shape[a] - 1) * layouts[i].strides[a];
      (extent < 0 ? first : last) += extent;
    }
    // In bytes: a view's element offsets may fit where its byte offsets do
    // not (the kernel then addresses no such bytes: the engine decides).
    const int64_t es = int64_t(sizes[i]);
    if (__builtin_mul_overflow(first, es, &lo[i]) ||
        __builtin_add_overflow(last, 1, &last) ||
        __builtin_mul_overflow(last, es, &hi[i])) {
      return false;
    }
  }
  return true;
}

namespace {

// The one-shot calls' data checks, for a plan made without pointers, in
// their order: einsum checks its operands and then out, fill its value and
// then out, every other kernel out and then its inputs.
void CheckPlanData(const PlanState& s, const void* const* inputs,
                   const void* out) {
  if (s.data_checked) return;
  // Only a null pointer fails: with none, there is nothing to name.
  bool any_null = out == nullptr;
  for (int i = 0; i < s.num_inputs; ++i) any_null |= inputs[i] == nullptr;
  if (!any_null) return;
  const bool einsum = s.kind == PlanKind::kEinsum;
  const char* source = einsum ? "operand" : "source";
  auto check_inputs = [&] {
    for (int i = 0; i < s.num_inputs; ++i) {
      const bool needs = einsum && i >= kMaxOperands
                             ? HasElements(s.operands[size_t(i)])
                             : s.input_needs_data[i];
      if (needs && inputs[i] == nullptr) {
        Fail(ErrorKind::kInvalidArgument, s.name, ": ", source,
             " data is NULL for a non-empty view");
      }
    }
  };
  auto check_out = [&] {
    if (s.out_needs_data && out == nullptr) {
      Fail(ErrorKind::kInvalidArgument, s.name, ": ",
           einsum ? "out" : "destination",
           " data is NULL for a non-empty view");
    }
  };
  if (s.kind == PlanKind::kFill) {
    if (inputs[0] == nullptr) {
      Fail(ErrorKind::kInvalidArgument, "fill: value is NULL");
    }
    return check_out();
  }
  if (einsum) {
    check_inputs();
    return check_out();
  }
  check_out();
  check_inputs();
}

// A copy's options on the threads the numeric kernels would use for its
// dst (ThreadParts: at least kMinElementsPerThread positions each).
CopyOptions CopyThreads(const sk_view& dst, CopyOptions options) {
  int64_t numel = 1;
  for (int d = 0; d < dst.ndim; ++d) numel *= dst.shape[d];  // Checked view.
  options.threads = ThreadParts(options.threads, numel);
  return options;
}

}  // namespace

void ExecutePlan(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& copy_options) {
  if (s.run_first != nullptr &&
      s.run_first(s, inputs, out, copy_options.threads)) {
    return;
  }
  CheckPlanData(s, inputs, out);
  const Executor& ex = *s.ex;
  const int threads = copy_options.threads;
  NumericOptions options;
  options.threads = threads;
  switch (s.kind) {
    case PlanKind::kCopy:
      return ex.run.copy(ex, s.elem_size, *s.inputs[0], inputs[0], *s.out, out,
                         s.fill, CopyThreads(*s.out, copy_options));
    case PlanKind::kFill:
      return ex.run.copy(ex, s.elem_size, *s.inputs[0], inputs[0], *s.out, out,
                         nullptr, CopyThreads(*s.out, copy_options));
    case PlanKind::kCast: {
      const CopyOptions cast_options = CopyThreads(*s.out, copy_options);
      if (RunDirectCast(s, inputs, out, cast_options.threads)) return;
      return ex.run.cast(ex, s.dtype, *s.inputs[0], inputs[0], s.dst_dtype,
                         *s.out, out, cast_options);
    }
    case PlanKind::kBinary:  // Its direct path is run_first.
      return ex.run.binary(ex, BinaryOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                           *s.inputs[1], inputs[1], *s.out, out, options);
    case PlanKind::kUnary:  // Its direct path is run_first.
      return ex.run.unary(ex, UnaryOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                          *s.out, out, options);
    case PlanKind::kPredicate:
      if (RunDirectSelect(s, inputs, out, threads)) return;
      return ex.run.predicate(ex, PredicateOp(s.op), s.dtype, *s.inputs[0],
                              inputs[0], *s.out, out, options);
    case PlanKind::kCompare:
      if (RunDirectSelect(s, inputs, out, threads)) return;
      return ex.run.compare(ex, CompareOp(s.op), s.dtype, *s.inputs[0],
                            inputs[0], *s.inputs[1], inputs[1], *s.out, out,
                            options);
    case PlanKind::kWhere:
      if (RunDirectSelect(s, inputs, out, threads)) return;
      return ex.run.where(ex, s.dtype, *s.inputs[0], inputs[0], *s.inputs[1],
                          inputs[1], *s.inputs[2], inputs[2], *s.out, out,
                          options);
    case PlanKind::kReduce:
      if (RunDirectReduce(s, inputs, out, threads)) return;
      return ex.run.reduce(ex, ReduceOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                           s.reduced, *s.out, out, options);
    case PlanKind::kArgReduce:
      if (RunDirectAxis(s, inputs, out, threads)) return;
      return ex.run.arg_reduce(ex, ArgOp(s.op), s.dtype, *s.inputs[0],
                               inputs[0], s.axis, *s.out, out, options);
    case PlanKind::kScan:
      if (RunDirectAxis(s, inputs, out, threads)) return;
      return ex.run.scan(ex, ScanOp(s.op), s.dtype, *s.inputs[0], inputs[0],
                         s.axis, *s.out, out, options);
    case PlanKind::kEinsum:
      if (RunDirectEinsum(s, inputs, out) ||
          RunPreparedProduct(s, inputs, out, threads)) {
        return;
      }
      return ex.run.einsum(
          ex, *s.projections, s.dtype, s.operands,
          std::span<const void* const>(inputs, s.operands.size()), *s.out, out,
          options);
  }
}

}  // namespace dispatch

// A Plan's own copies of its views and spec, and the decisions over them.
struct Plan::State {
  std::vector<sk_view> views;  // Inputs, then out.
  dispatch::PlanState s;
  alignas(16) unsigned char fill_bytes[16] = {};  // Copy's padding value.
  std::string description;
};

namespace {

using dispatch::PlanState;

// A Plan over copies of `views` (inputs, then out), resolved by `plan`
// (called with the copies) and described.
template <typename Resolve>
std::shared_ptr<const Plan::State> MakeState(
    std::initializer_list<const sk_view*> views, Resolve&& resolve) {
  auto state = std::make_shared<Plan::State>();
  for (const sk_view* v : views) state->views.push_back(*v);
  resolve(state->s, state->views);
  return state;
}

std::string ViewText(const sk_view& v) {
  std::ostringstream text;
  text << ToString(DimsView(v.shape, size_t(v.ndim))) << ":"
       << ToString(DimsView(v.strides, size_t(v.ndim)));
  if (v.offset != 0) text << "+" << v.offset;
  if (v.has_mask) text << " masked";
  return text.str();
}

std::string Describe(const PlanState& s, std::span<const sk_view> views) {
  std::ostringstream text;
  text << dispatch::PlanKindName(s.kind) << " " << s.name << " | dtype ";
  if (s.kind == dispatch::PlanKind::kCopy ||
      s.kind == dispatch::PlanKind::kFill) {
    text << s.elem_size << "-byte elements";
  } else {
    text << DTypeName(s.dtype);
    if (s.kind == dispatch::PlanKind::kCast) {
      text << " -> " << DTypeName(s.dst_dtype);
    }
  }
  text << " | target " << s.ex->name << " | views";
  for (size_t i = 0; i < views.size(); ++i) {
    text << (i + 1 == views.size() ? " -> " : " ") << ViewText(views[i]);
  }
  if (s.direct && s.dense > 0 && s.direct->plan.empty()) {
    text << " | direct kernel, one dense row of " << s.direct->numel;
  } else if (s.direct) {
    text << " | direct kernel, plan " << s.direct->plan.Describe();
  } else if (s.direct_reduce) {
    text << " | direct kernel, plan " << s.direct_reduce->plan.Describe();
  } else if (s.direct_axis) {
    text << " | direct kernel, plan " << s.direct_axis->plan.Describe();
  } else if (s.direct_cast) {
    text << " | direct kernel, plan " << s.direct_cast->plan.Describe();
  } else if (s.direct_select) {
    text << " | direct kernel, plan " << s.direct_select->plan.Describe();
  } else if (s.direct_einsum) {
    text << " | direct loop nest of " << s.direct_einsum->loops << " loops";
  } else if (s.prepared_product) {
    const GemmTask& task = s.prepared_product->task;
    text << " | prepared matrix product, batch " << task.batch << " of "
         << task.m_size << " x " << task.k_size << " by " << task.k_size
         << " x " << task.n_size;
  } else {
    text << " | engine";
  }
  return text.str();
}

std::shared_ptr<const Plan::State> Described(
    std::shared_ptr<const Plan::State> state) {
  auto& mutable_state = const_cast<Plan::State&>(*state);
  mutable_state.description = Describe(state->s, state->views);
  return state;
}

}  // namespace

Plan::Plan(std::shared_ptr<const State> state) : state_(std::move(state)) {}

Plan Plan::Copy(size_t elem_size, const sk_view& src, const sk_view& dst,
                const void* fill) {
  auto state = MakeState({&src, &dst}, [&](PlanState& s, auto& v) {
    dispatch::PlanCopy(s, elem_size, v[0], v[1], nullptr, nullptr, nullptr);
  });
  if (fill != nullptr) {
    auto& s = const_cast<State&>(*state);
    std::memcpy(s.fill_bytes, fill, elem_size);
    s.s.fill = s.fill_bytes;
  }
  return Plan(Described(state));
}

Plan Plan::Fill(size_t elem_size, const sk_view& dst) {
  return Plan(Described(MakeState({&dst}, [&](PlanState& s, auto& v) {
    dispatch::PlanFill(s, elem_size, v[0], nullptr, nullptr);
  })));
}

Plan Plan::Cast(DType src_t, const sk_view& src, DType dst_t,
                const sk_view& dst) {
  return Plan(Described(MakeState({&src, &dst}, [&](PlanState& s, auto& v) {
    dispatch::PlanCast(s, src_t, v[0], dst_t, v[1], nullptr, nullptr);
  })));
}

Plan Plan::Binary(BinaryOp op, DType t, const sk_view& a, const sk_view& b,
                  const sk_view& out) {
  return Plan(Described(MakeState({&a, &b, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanBinary(s, op, t, v[0], v[1], v[2], nullptr, nullptr);
  })));
}

Plan Plan::Unary(UnaryOp op, DType t, const sk_view& a, const sk_view& out) {
  return Plan(Described(MakeState({&a, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanUnary(s, op, t, v[0], v[1], nullptr, nullptr);
  })));
}

Plan Plan::Predicate(PredicateOp op, DType t, const sk_view& a,
                     const sk_view& out) {
  return Plan(Described(MakeState({&a, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanPredicate(s, op, t, v[0], v[1], nullptr, nullptr);
  })));
}

Plan Plan::Compare(CompareOp op, DType t, const sk_view& a, const sk_view& b,
                   const sk_view& out) {
  return Plan(Described(MakeState({&a, &b, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanCompare(s, op, t, v[0], v[1], v[2], nullptr, nullptr);
  })));
}

Plan Plan::Where(DType t, const sk_view& cond, const sk_view& a,
                 const sk_view& b, const sk_view& out) {
  return Plan(
      Described(MakeState({&cond, &a, &b, &out}, [&](PlanState& s, auto& v) {
        dispatch::PlanWhere(s, t, v[0], v[1], v[2], v[3], nullptr, nullptr);
      })));
}

Plan Plan::Reduce(ReduceOp op, DType t, const sk_view& in,
                  std::span<const int32_t> axes, const sk_view& out) {
  return Plan(Described(MakeState({&in, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanReduce(s, op, t, v[0], axes, v[1], nullptr, nullptr);
  })));
}

Plan Plan::ArgReduce(ArgOp op, DType t, const sk_view& in, int32_t axis,
                     const sk_view& out) {
  return Plan(Described(MakeState({&in, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanArgReduce(s, op, t, v[0], axis, v[1], nullptr, nullptr);
  })));
}

Plan Plan::Scan(ScanOp op, DType t, const sk_view& in, int32_t axis,
                const sk_view& out) {
  return Plan(Described(MakeState({&in, &out}, [&](PlanState& s, auto& v) {
    dispatch::PlanScan(s, op, t, v[0], axis, v[1], nullptr, nullptr);
  })));
}

Plan Plan::Einsum(std::string_view spec, DType t,
                  std::span<const sk_view> operands, const sk_view& out) {
  auto state = std::make_shared<State>();
  state->views.assign(operands.begin(), operands.end());
  state->views.push_back(out);
  const std::span<const sk_view> views = state->views;
  dispatch::PlanEinsum(state->s, spec, std::nullopt, t,
                       views.first(operands.size()), views.back(), nullptr,
                       nullptr);
  return Plan(Described(state));
}

int Plan::num_inputs() const { return state_->s.num_inputs; }

void Plan::Execute(std::span<const void* const> inputs, void* out,
                   int threads) const {
  if (inputs.size() != size_t(state_->s.num_inputs)) {
    Fail(ErrorKind::kInvalidArgument, "plan ", state_->s.name, ": ",
         inputs.size(), " input pointers for a plan of ", state_->s.num_inputs,
         " inputs");
  }
  dispatch::ExecutePlan(state_->s, inputs.data(), out, threads);
}

const std::string& Plan::Describe() const { return state_->description; }

}  // namespace stridekit
