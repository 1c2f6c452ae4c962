// What a plan decides once: the kernel function it binds (its
// KernelFunction, dispatch/kernel_function.h), the executor it keeps and
// that executor's runner, which data pointers it needs, and where the call
// allows it the direct path (the resolved kernel and its iteration plan).
// Each kernel function's file plans it (checks, then Bind) and gives its
// one-shot entry point, which builds a plan on the stack over the caller's
// views and executes it at once, and its Plan value (MakePlan): one path
// for both. dispatch/plan.cc binds and executes.
#ifndef STRIDEKIT_DISPATCH_PLAN_STATE_H_
#define STRIDEKIT_DISPATCH_PLAN_STATE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dispatch/einsum_direct.h"
#include "dispatch/executor.h"
#include "dispatch/kernel_function.h"
#include "simd/cast/cast_task.h"
#include "simd/common/numeric_task.h"
#include "simd/scan/scan_task.h"
#include "simd/select/select_task.h"
#include "stridekit/dims.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/ocannl_labels.h"
#include "stridekit/ops.h"
#include "stridekit/plan.h"
#include "stridekit/projections.h"
#include "stridekit/stridekit.h"

namespace stridekit::dispatch {

// An elementwise call resolved once: with no mask on any operand, on a
// Highway target, `run` is `kernel` of the executor's family table over
// `plan` (out's whole shape; the one part of a call on one thread). What
// the pointers decide at execution (overlap) uses the byte extents.
struct DirectElementwise {
  // User-provided: optional::emplace() then initialises the members below
  // only, without zeroing the kilobytes of `plan` first.
  DirectElementwise() {}
  simd::ElementwiseKernelFn run = nullptr;
  // The op's row on its dtype for an untiled plan where it has one: then
  // the plan's rows are run here, without a task.
  simd::ElementwiseRowFn row = nullptr;
  int64_t elem_size = 0;
  // The rows' length and per-operand element strides (out, a, b; b's 0 for
  // a unary op), and on a plan of one row (one_row) each operand's byte
  // offset of its first element. `plan` is made unless one_row and the
  // views are one dense row (DenseLayoutCount) with no operand checks.
  int64_t numel = 0;
  size_t row_count = 0;
  int64_t row_strides[3] = {}, row_first[3] = {};
  bool one_row = false;
  ElementwiseKernel kernel{};
  DType kernel_dtype = DType::kFloat32;
  bool checked_division = false;  // Integer operands checked first.
  bool stream = false;            // Non-temporal stores (as the engine).
  // The most threads that still run the call as one part (more split it:
  // the engine's path); -1 when it always runs on the engine (a tiled plan
  // of at least TransposeThroughOutputMinBytes).
  int max_direct_threads = 0;
  IterationPlan plan;
  // Per operand (out, then the inputs): the byte offsets of its lowest
  // element, one past its highest and of its first one, from its data
  // pointer.
  int64_t lo[3] = {}, hi[3] = {}, first[3] = {};
  // Per input: the same strides as out on every axis longer than 1 (with
  // the same first element, out is then exactly that input).
  bool same_strides[2] = {};
};

// A cast resolved once, as DirectElementwise: with no mask, on a Highway
// target, between dtypes that are not a bit copy, on one part, `run` over
// `plan` (dst, then src); a src sharing memory with dst runs the engine.
struct DirectCast {
  DirectCast() {}  // As DirectElementwise: `plan` is not zeroed first.
  simd::CastKernel run = nullptr;
  // Both views one contiguous run (unit strides or one element, one outer
  // position) of `plan.inner_size()` elements with a vector row for the
  // pair: run it directly on pointers aligned to their element sizes.
  simd::CastRowFn row = nullptr;
  // As DirectElementwise::max_direct_threads.
  int max_direct_threads = 0;
  IterationPlan plan;
  int64_t lo[2] = {}, hi[2] = {};  // As DirectSelect's.
};

// A reduction resolved once, as DirectElementwise: sum, prod, min or max
// of a dtype that is its own accumulator, unmasked, on a Highway target, on
// one part, into an out whose elements are one C-ordered block (the
// engine's accumulator layout): `run` combines the input into out itself,
// set to the op's identity first, over `plan` (the engine's one-part plan,
// so the same order and bits); an input sharing memory with out runs the
// engine.
struct DirectReduce {
  DirectReduce() {}  // As DirectElementwise: `plan` is not zeroed first.
  simd::ReduceKernelFn run = nullptr;
  DType kernel_dtype = DType::kFloat32;
  int64_t count = 0;  // Out's elements.
  int max_direct_threads = 0;
  IterationPlan plan;
  int64_t lo[2] = {}, hi[2] = {};  // As DirectSelect's (out, then in).
};

// A scan or arg reduction resolved once, as DirectReduce: unmasked, on a
// Highway target, on one part, and for a scan not through the output
// (ScanThroughOutput): `run` is the family's axis kernel over `plan` (the
// engine's one-part plan over the other axes: the same walk and bits); an
// input sharing memory with out runs the engine.
struct DirectAxis {
  DirectAxis() {}  // As DirectElementwise: `plan` is not zeroed first.
  simd::AxisKernelFn run = nullptr;
  DType kernel_dtype = DType::kFloat32;
  int64_t length = 0, in_step = 0, out_step = 0;  // As AxisTask's.
  int max_direct_threads = 0;
  IterationPlan plan;
  int64_t lo[2] = {}, hi[2] = {};  // As DirectSelect's (out, then in).
};

// A comparison, predicate or where call resolved once, as DirectElementwise:
// with no mask, on a Highway target, below the engine's staging size and
// on one part, `run` is the family's kernel over `plan` with `task`'s kind,
// op and kernel dtype; a call whose operands share memory with out runs the
// engine instead.
struct DirectSelect {
  DirectSelect() {}  // As DirectElementwise: `plan` is not zeroed first.
  simd::SelectKernelFn run = nullptr;
  SelectTask task{};
  // As DirectElementwise::max_direct_threads.
  int max_direct_threads = 0;
  IterationPlan plan;
  // Per operand (out, then the inputs): the byte offsets of its lowest
  // element and one past its highest, from its data pointer.
  int64_t lo[4] = {}, hi[4] = {};
};

// A plan's decisions. Views are borrowed: the caller's for a one-shot call,
// the plan's own copies for a Plan.
struct PlanState {
  const KernelFunction* fn = nullptr;
  const Executor* ex = nullptr;
  PlanRunner run = nullptr;  // fn's runner for ex (Bind).
  const char* name = "";     // The op's name, as its errors say it.
  int32_t op = 0;            // The op's value in its enum.
  // The direct path tried before anything else on execution (the data
  // checks included: it declines null pointers), or null.
  bool (*run_first)(const PlanState& s, const void* const* inputs, void* out,
                    int threads) = nullptr;
  bool prechecked = false;  // Its op-table row's flag (elementwise ops).
  // Elementwise ops: the views' DenseLayoutCount (0: not one dense layout).
  int64_t dense = 0;
  DType dtype = DType::kFloat32;
  DType dst_dtype = DType::kFloat32;  // Cast only.
  size_t elem_size = 0;               // Copy and fill.
  int num_inputs = 0;
  // Input views in the order of the kernel's arguments (einsum: `operands`).
  const sk_view* inputs[3] = {};
  std::span<const sk_view> operands;
  const sk_view* out = nullptr;
  const void* fill = nullptr;  // Copy: the padding value (NULL: zero).
  Dims reduced;                // Reduce: 1 per reduced axis of the input.
  int axis = 0;                // Arg reduce and scan.
  std::optional<Projections> projections;  // Einsum.
  // The data pointers each operand must have (false: may be NULL, the
  // view has no element that is read or written). Checked on execution
  // unless the one-shot call's checks saw the pointers.
  bool data_checked = false;
  bool input_needs_data[kMaxOperands] = {};
  bool out_needs_data = false;
  // Elementwise calls that allow it (ResolveDirectElementwise).
  std::optional<DirectElementwise> direct;
  // Comparisons, predicates and where that allow it (ResolveDirectSelect).
  std::optional<DirectSelect> direct_select;
  // Casts that allow it (ResolveDirectCast).
  std::optional<DirectCast> direct_cast;
  // Reductions that allow it (ResolveDirectReduce).
  std::optional<DirectReduce> direct_reduce;
  // Scans and arg reductions that allow it (ResolveDirectAxis).
  std::optional<DirectAxis> direct_axis;
  // Small einsums (ResolveDirectEinsum).
  std::optional<DirectEinsum> direct_einsum;
  // Einsums that are one matrix product into out (PrepareEinsumProduct).
  std::optional<PreparedProduct> prepared_product;
};

// What the checks of a plan made without pointers see: non-null stand-ins.
inline constexpr unsigned char kPlanningByte = 0;
inline constexpr const void* kPlanningData[3] = {&kPlanningByte, &kPlanningByte,
                                                 &kPlanningByte};

// The pointers a plan's checks see (DatasFor: at most three inputs; einsum
// has its own): the one-shot call's, or for a plan (datas NULL) the
// stand-ins, and its pointers are checked when it runs (CheckPlanData).
inline const void* const* DatasFor(const void* const* datas) {
  return datas != nullptr ? datas : kPlanningData;
}
inline const void* OutFor(const void* const* datas, const void* out_data) {
  return datas != nullptr ? out_data : &kPlanningByte;
}

// For a plan made without pointers (s.data_checked false), records which
// data pointers its execution needs (every kernel but einsum): out's when
// out has a valid element, an input's when out has any position and the
// input has a valid element.
void NoteDataNeeds(PlanState& s);

// As Bind for a kernel whose checks already set s's views (einsum): the
// function, the selected executor and its runner.
inline void BindExecutor(PlanState& s, const KernelFunction& fn) {
  s.fn = &fn;
  s.ex = &SelectedExecutor(s.name);
  s.run = s.ex->IsReference() ? fn.reference : fn.engine;
}

// Binds a checked call (every kernel but einsum) into `s`: its function,
// op name and value, dtype, input views and out (borrowed: they must
// outlive `s`), the data pointers it will need (`datas` as DatasFor's), and
// the selected executor with its runner, kept by the plan.
inline void Bind(PlanState& s, const KernelFunction& fn, const char* name,
                 int32_t op, DType t,
                 std::initializer_list<const sk_view*> inputs,
                 const sk_view& out, const void* const* datas) {
  s.name = name;
  s.op = op;
  s.dtype = t;
  s.num_inputs = int(inputs.size());
  int i = 0;
  for (const sk_view* v : inputs) s.inputs[i++] = v;
  s.out = &out;
  s.data_checked = datas != nullptr;
  if (!s.data_checked) NoteDataNeeds(s);
  BindExecutor(s, fn);
}

// A Plan over copies of `views` (inputs, then out), resolved by
// `resolve(state, copies)` and described.
Plan MakePlan(
    std::vector<sk_view> views,
    const std::function<void(PlanState&, std::span<const sk_view>)>& resolve);

// Runs a resolved call on `inputs` (s.num_inputs pointers) and `out` with
// options.threads threads: its direct path (run_first) when it takes the
// call, else the data checks and then s.run.
void ExecutePlan(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options);
inline void ExecutePlan(const PlanState& s, const void* const* inputs,
                        void* out, int threads) {
  CopyOptions options;
  options.threads = threads;
  ExecutePlan(s, inputs, out, options);
}

// The layouts a direct path iterates over out's whole shape: layouts[0] is
// out's, layouts[i + 1] input i's aligned to out (stride 0 along the axes
// it broadcasts, AlignSource's strides); and per layout over the shape of
// `out` (ByteExtents' first argument; a reduction passes its input), for
// elements of sizes[i] bytes, the byte offsets of its lowest element (lo)
// and one past its highest (hi) from its data pointer (false when they
// overflow int64 or `out` has no element: no direct path). Checked,
// unmasked views.
void DirectLayouts(const sk_view& out, std::span<const sk_view* const> inputs,
                   Operand* layouts);
[[nodiscard]] bool ByteExtents(const sk_view& out, const Operand* layouts,
                               int count, const size_t* sizes, int64_t* lo,
                               int64_t* hi);
// True when operand i's bytes [from + lo[i], from + hi[i]) meet out's.
inline bool SharesBytes(const void* from, const void* out, const int64_t* lo,
                        const int64_t* hi, int i) {
  const auto* in = static_cast<const unsigned char*>(from);
  const auto* to = static_cast<const unsigned char*>(out);
  return in + lo[i] < to + hi[0] && to + lo[0] < in + hi[i];
}

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_PLAN_STATE_H_
