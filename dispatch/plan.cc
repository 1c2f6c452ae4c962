// Plans: a kernel call checked and resolved once (PlanState), run on data
// many times (ExecutePlan). Each kernel function's file plans its calls
// through Bind and makes its Plan values through MakePlan; the one-shot
// entry points and the Plan values of stridekit/plan.h both execute here.
#include "stridekit/plan.h"

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "strided_layout.h"
#include "stridekit/dtype.h"
#include "stridekit/error.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace dispatch {

namespace {

bool HasElements(const sk_view& v) { return !ValidSpan(v).empty(); }

}  // namespace

void NoteDataNeeds(PlanState& s) {
  s.out_needs_data = HasElements(*s.out);
  const bool reads = Numel(DimsView(s.out->shape, size_t(s.out->ndim))) > 0;
  for (int i = 0; i < s.num_inputs; ++i) {
    s.input_needs_data[i] = reads && HasElements(*s.inputs[i]);
  }
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
// their order (KernelFunction::data_order).
void CheckPlanData(const PlanState& s, const void* const* inputs,
                   const void* out) {
  if (s.data_checked) return;
  // Only a null pointer fails: with none, there is nothing to name.
  bool any_null = out == nullptr;
  for (int i = 0; i < s.num_inputs; ++i) any_null |= inputs[i] == nullptr;
  if (!any_null) return;
  const KernelFunction& fn = *s.fn;
  auto check_inputs = [&] {
    for (int i = 0; i < s.num_inputs; ++i) {
      // Only einsum has more inputs than input_needs_data holds.
      const bool needs = i >= kMaxOperands ? HasElements(s.operands[size_t(i)])
                                           : s.input_needs_data[i];
      if (needs && inputs[i] == nullptr) {
        Fail(ErrorKind::kInvalidArgument, s.name, ": ", fn.input_noun,
             " data is NULL for a non-empty view");
      }
    }
  };
  auto check_out = [&] {
    if (s.out_needs_data && out == nullptr) {
      Fail(ErrorKind::kInvalidArgument, s.name, ": ", fn.out_noun,
           " data is NULL for a non-empty view");
    }
  };
  switch (fn.data_order) {
    case DataCheckOrder::kValueThenOut:
      if (inputs[0] == nullptr) {
        Fail(ErrorKind::kInvalidArgument, s.name, ": value is NULL");
      }
      return check_out();
    case DataCheckOrder::kInputsThenOut:
      check_inputs();
      return check_out();
    case DataCheckOrder::kOutThenInputs:
      check_out();
      return check_inputs();
  }
}

}  // namespace

void ExecutePlan(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options) {
  if (s.run_first != nullptr && s.run_first(s, inputs, out, options.threads)) {
    return;
  }
  CheckPlanData(s, inputs, out);
  s.run(s, inputs, out, options);
}

}  // namespace dispatch

// A Plan's own copies of its views, its padding value and the decisions
// over them.
struct Plan::State {
  std::vector<sk_view> views;  // Inputs, then out.
  dispatch::PlanState s;
  alignas(16) unsigned char fill_bytes[16] = {};  // Copy's padding value.
  std::string description;
  static Plan Wrap(std::shared_ptr<const State> state) {
    return Plan(std::move(state));
  }
};

namespace {

using dispatch::PlanState;

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
  text << s.fn->name << " " << s.name << " | dtype ";
  switch (s.fn->dtypes) {
    case dispatch::DescribedDTypes::kElementSize:
      text << s.elem_size << "-byte elements";
      break;
    case dispatch::DescribedDTypes::kSourceToDestination:
      text << DTypeName(s.dtype) << " -> " << DTypeName(s.dst_dtype);
      break;
    case dispatch::DescribedDTypes::kOne:
      text << DTypeName(s.dtype);
      break;
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

}  // namespace

namespace dispatch {

Plan MakePlan(
    std::vector<sk_view> views,
    const std::function<void(PlanState&, std::span<const sk_view>)>& resolve) {
  auto state = std::make_shared<Plan::State>();
  state->views = std::move(views);
  resolve(state->s, state->views);
  PlanState& s = state->s;
  if (s.fill != nullptr) {  // The caller's: the plan keeps a copy.
    std::memcpy(state->fill_bytes, s.fill, s.elem_size);
    s.fill = state->fill_bytes;
  }
  state->description = Describe(s, state->views);
  return Plan::State::Wrap(std::move(state));
}

}  // namespace dispatch

Plan::Plan(std::shared_ptr<const State> state) : state_(std::move(state)) {}

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
