// The kernel functions scan and arg_reduce (scan.h, arg_reduce.h): their
// plans, direct path (ResolveDirectAxis), one-shot calls and Plan values,
// and their engine, which reads the simd/scan tables itself (FamilyKernel). In
// the engine, a masked input, or one that overlaps the output other than
// exactly, is first materialised; a masked output (or, for arg reductions, one
// that shares memory with the input) is computed into a C-contiguous temporary
// and copied out; an input read across out's rows is first transposed into out
// (ScanThroughOutput). The active target's axis kernel (simd/scan/scan-inl.h)
// then runs on a plan over the other axes, split over options.threads along
// its longest axis: each output element is computed within one part, by the
// same sequential walk, so the bits do not depend on the thread count.
#include <atomic>
#include <limits>
#include <new>
#include <vector>

#include "allocation.h"
#include "dispatch/copy_internal.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "numeric_checks.h"
#include "reference_kernels.h"
#include "simd/common/numeric_task.h"
#include "simd/kernel_dtype.h"
#include "simd/scan/scan_task.h"
#include "stridekit/arg_reduce.h"
#include "stridekit/checked.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
#include "stridekit/scan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace dispatch {
namespace {

// The axis kernels of `kernel_t`'s family on `ex` (a Highway target).
simd::AxisKernelFn ScanKernel(const Executor& ex, DType kernel_t) {
  return FamilyKernel<simd::ScanFloatKernels, simd::ScanHalfKernels,
                      simd::ScanSignedKernels, simd::ScanUnsignedKernels,
                      simd::ScanComplexKernels>(ex, FamilyOf(kernel_t));
}
simd::AxisKernelFn ArgReduceKernel(const Executor& ex, DType t) {
  return FamilyKernel<simd::ArgReduceFloatKernels, simd::ArgReduceHalfKernels,
                      simd::ArgReduceSignedKernels,
                      simd::ArgReduceUnsignedKernels,
                      simd::ArgReduceComplexKernels>(ex, FamilyOf(t));
}

// `strides` without entry `axis`; a lone axis leaves [0] (one position).
Dims WithoutAxis(DimsView strides, int axis) {
  Dims rest;
  for (int d = 0; d < int(strides.size()); ++d) {
    if (d != axis) rest.push_back(strides[d]);
  }
  if (rest.empty()) rest.push_back(0);
  return rest;
}

// Runs `kernel` on plans over in's axes other than `axis` (operand 0: the
// output, `out_strides`/`out_offset` in elements from `out_data`; operand 1
// the fully valid input `from`), split over threads.
void RunAxisKernel(simd::AxisKernelFn kernel, int32_t op, DType t,
                   const Operand& from, const sk_view& in, int axis,
                   DimsView out_strides, int64_t out_offset, void* out_data,
                   int64_t out_step, int threads) {
  const DimsView shape(in.shape, size_t(in.ndim));
  const int64_t length = in.shape[axis];
  Dims rest_shape = WithoutAxis(shape, axis);
  if (in.ndim == 1) rest_shape[0] = 1;
  const Box all{Dims(rest_shape.size(), 0), rest_shape};
  if (all.empty()) return;
  const Operand to{WithoutAxis(out_strides, axis), out_offset};
  const Operand source{WithoutAxis(from.strides, axis), from.offset};
  const std::vector<Box> parts =
      SplitBox(all, ThreadParts(threads, Numel(shape)), -1, 16);
  std::atomic<int64_t> ran{0};
  RunParallel(int(parts.size()), [&](int part) {
    const Box& box = parts[size_t(part)];
    const Operand layouts[2] = {{to.strides, BoxOffset(to, box)},
                                {source.strides, BoxOffset(source, box)}};
    const IterationPlan plan = IterationPlan::Make(box.Shape(), layouts, false);
    ran = kernel({&plan, op, t, out_data, from.data, length,
                  from.strides[size_t(axis)], out_step, 0, plan.outer_size()});
  });
  NoteKernelRan(ran);
}

// The fully valid input: `in` itself, or a C-contiguous temporary of its
// valid elements (masked positions zero) when it is masked or `overlaps`.
Operand ValidInput(const Executor& ex, size_t elem_size, const sk_view& in,
                   const void* in_data, bool overlaps, Temporary& temporary) {
  Operand from = OperandOf(in, in_data);
  const Box all{Dims(in.ndim, 0), Dims(DimsView(in.shape, size_t(in.ndim)))};
  const Box valid = ValidBox(in);
  if (!(Intersect(all, valid) == all) || overlaps) {
    temporary = MaterializeBox(ex, elem_size, from, valid, all);
    from = temporary.op;
  }
  return from;
}

// out's shape as a C-contiguous view (the temporary's).
sk_view ContiguousLike(const sk_view& out) {
  sk_view v{};
  v.ndim = out.ndim;
  const Dims strides =
      CContiguousStrides(DimsView(out.shape, size_t(out.ndim)));
  for (int d = 0; d < out.ndim; ++d) {
    v.shape[d] = out.shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

// Bytes of an output from which an input read across its rows goes through
// the output (ScanThroughOutput): about where the copy engine's tiled
// transpose beats the kernel's strided walk.
constexpr int64_t kScanThroughOutputMinBytes = int64_t{16} << 10;

// True when the scan should go through the output: `from` is the caller's
// input itself (not a temporary), read with a stride along `axis` and with
// unit stride along another axis (transposed against out), out steps by
// one element along `axis`, and out holds at least
// kScanThroughOutputMinBytes. The copy engine's tiled transpose then writes
// the input into out and the kernel scans out in place along its rows: every
// stream sequential, each element the same sequential walk (the same bits).
bool ScanThroughOutput(const sk_view& in, const Operand& from,
                       const void* in_data, const sk_view& out, int axis,
                       size_t elem_size) {
  if (from.data != in_data || in.ndim < 2 || in.shape[axis] < 2 ||
      out.strides[axis] != 1 || from.strides[size_t(axis)] == 1) {
    return false;
  }
  bool transposed = false;
  for (int d = 0; d < in.ndim; ++d) {
    if (d != axis && in.shape[d] > 1 && from.strides[size_t(d)] == 1) {
      transposed = true;
    }
  }
  return transposed &&
         Numel(DimsView(out.shape, size_t(out.ndim))) * int64_t(elem_size) >=
             kScanThroughOutputMinBytes;
}

void EngineScan(const Executor& ex, ScanOp op, DType t, const sk_view& in,
                const void* in_data, int axis, const sk_view& out,
                void* out_data, int threads) {
  const Box target = ValidBox(out);
  if (target.empty()) return;
  const size_t elem_size = DTypeSize(t);
  const Box all{Dims(in.ndim, 0), Dims(DimsView(in.shape, size_t(in.ndim)))};
  const Operand to = OperandOf(out, out_data);
  Temporary temporary;
  const Operand from = ValidInput(
      ex, elem_size, in, in_data,
      OverlapsOtherwise(OperandOf(in, in_data), to, all, elem_size), temporary);
  // Signed integers may run on the unsigned kernel of their width.
  const DType kernel_t = KernelDType(op, t);
  const simd::AxisKernelFn kernel = ScanKernel(ex, kernel_t);
  if (target == all) {
    if (ScanThroughOutput(in, from, in_data, out, axis, elem_size)) {
      EngineCopy(ex, elem_size, in, in_data, out, out_data, nullptr,
                 CopyOptions{threads});
      RunAxisKernel(kernel, int32_t(op), kernel_t, to, out, axis, to.strides,
                    to.offset, out_data, 1, threads);
      return;
    }
    RunAxisKernel(kernel, int32_t(op), kernel_t, from, in, axis, to.strides,
                  to.offset, out_data, to.strides[size_t(axis)], threads);
    return;
  }
  // A masked output: every position computed into a temporary first.
  const sk_view staged = ContiguousLike(out);
  const Buffer buffer =
      AllocateBuffer(CheckedMul(Numel(DimsView(out.shape, size_t(out.ndim))),
                                int64_t(elem_size), OpName(op)),
                     OpName(op));
  const Dims strides(DimsView(staged.strides, size_t(staged.ndim)));
  RunAxisKernel(kernel, int32_t(op), kernel_t, from, in, axis, strides, 0,
                buffer.get(), strides[size_t(axis)], threads);
  EngineCopy(ex, elem_size, staged, buffer.get(), out, out_data, nullptr, {});
}

// `scan`: a scan's plan, else an arg reduction's.
void ResolveDirectAxis(PlanState& s, bool scan) {
  s.direct_axis.reset();
  const sk_view& in = *s.inputs[0];
  const sk_view& out = *s.out;
  if (s.ex->IsReference() || in.has_mask || out.has_mask || in.ndim == 0) {
    return;
  }
  const int axis = s.axis;
  const DimsView shape(in.shape, size_t(in.ndim));
  const int64_t numel = Numel(shape);
  const size_t elem_size = DTypeSize(s.dtype);
  if (numel == 0 ||
      (scan && ScanThroughOutput(in, OperandOf(in, nullptr), nullptr, out, axis,
                                 elem_size))) {
    return;
  }
  // out's strides over in's axes, as the engine's (0 along an arg
  // reduction's axis).
  Dims out_strides;
  const bool keepdims = out.ndim == in.ndim;
  for (int d = 0, j = 0; d < in.ndim; ++d) {
    out_strides.push_back(!scan && d == axis ? 0 : out.strides[j]);
    if (scan || keepdims || d != axis) ++j;
  }
  DirectAxis& d = s.direct_axis.emplace();
  d.kernel_dtype = scan ? KernelDType(ScanOp(s.op), s.dtype) : s.dtype;
  d.run = scan ? ScanKernel(*s.ex, d.kernel_dtype)
               : ArgReduceKernel(*s.ex, d.kernel_dtype);
  d.length = in.shape[axis];
  d.in_step = in.strides[axis];
  d.out_step = scan ? out.strides[axis] : 0;
  d.max_direct_threads =
      ThreadParts(2, numel) == 1 ? std::numeric_limits<int>::max() : 1;
  // The engine's one-part plan (RunAxisKernel), made in place, unchecked
  // (the views passed the layout checks).
  Dims rest_shape = WithoutAxis(shape, axis);
  if (in.ndim == 1) rest_shape[0] = 1;
  const Operand layouts[2] = {
      {WithoutAxis(out_strides, axis), out.offset},
      {WithoutAxis(DimsView(in.strides, size_t(in.ndim)), axis), in.offset}};
  ::new (static_cast<void*>(&d.plan))
      IterationPlan(IterationPlan::MakeValidated(rest_shape, Numel(rest_shape),
                                                 std::span(layouts, 2), false));
  // Extents over in's shape: out (its own element size), then in.
  const Operand out_then_in[2] = {
      {out_strides, out.offset},
      {Dims(DimsView(in.strides, size_t(in.ndim))), in.offset}};
  const size_t sizes[2] = {scan ? elem_size : sizeof(int64_t), elem_size};
  if (!ByteExtents(in, out_then_in, 2, sizes, d.lo, d.hi)) {
    s.direct_axis.reset();
  }
}

bool RunDirectAxis(const PlanState& s, const void* const* inputs, void* out,
                   int threads) {
  if (!s.direct_axis) return false;
  const DirectAxis& d = *s.direct_axis;
  if (threads > d.max_direct_threads ||
      SharesBytes(inputs[0], out, d.lo, d.hi, 1)) {
    return false;
  }
  NoteKernelRan(d.run({&d.plan, s.op, d.kernel_dtype, out, inputs[0], d.length,
                       d.in_step, d.out_step, 0, d.plan.outer_size()}));
  return true;
}

void EngineArgReduce(const Executor& ex, ArgOp op, DType t, const sk_view& in,
                     const void* in_data, int axis, const sk_view& out,
                     void* out_data, int threads) {
  const Box target = ValidBox(out);
  if (target.empty()) return;
  const size_t elem_size = DTypeSize(t);
  const Box all{Dims(in.ndim, 0), Dims(DimsView(in.shape, size_t(in.ndim)))};
  Temporary temporary;
  const Operand from = ValidInput(ex, elem_size, in, in_data, false, temporary);
  // out's strides over in's axes (0 along the reduced axis).
  const bool keepdims = out.ndim == in.ndim;
  Dims out_strides;
  for (int d = 0, j = 0; d < in.ndim; ++d) {
    out_strides.push_back(d == axis ? 0 : out.strides[j]);
    if (keepdims || d != axis) ++j;
  }
  const Operand to{out_strides, out.offset,
                   static_cast<const unsigned char*>(out_data)};
  const auto [in_lo, in_hi] = ByteRange(from, all, elem_size);
  const auto [out_lo, out_hi] = ByteRange(to, all, sizeof(int64_t));
  const bool shares = in_lo < out_hi && out_lo < in_hi;
  const simd::AxisKernelFn kernel = ArgReduceKernel(ex, t);
  if (target ==
          Box{Dims(out.ndim, 0), Dims(DimsView(out.shape, size_t(out.ndim)))} &&
      !shares) {
    RunAxisKernel(kernel, int32_t(op), t, from, in, axis, out_strides,
                  out.offset, out_data, 0, threads);
    return;
  }
  const sk_view staged = ContiguousLike(out);
  const Buffer buffer =
      AllocateBuffer(CheckedMul(Numel(DimsView(out.shape, size_t(out.ndim))),
                                int64_t(sizeof(int64_t)), OpName(op)),
                     OpName(op));
  Dims staged_strides;
  for (int d = 0, j = 0; d < in.ndim; ++d) {
    staged_strides.push_back(d == axis ? 0 : staged.strides[j]);
    if (keepdims || d != axis) ++j;
  }
  RunAxisKernel(kernel, int32_t(op), t, from, in, axis, staged_strides, 0,
                buffer.get(), 0, threads);
  EngineCopy(ex, sizeof(int64_t), staged, buffer.get(), out, out_data, nullptr,
             {});
}

void RunScanPlan(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options) {
  if (RunDirectAxis(s, inputs, out, options.threads)) return;
  EngineScan(*s.ex, ScanOp(s.op), s.dtype, *s.inputs[0], inputs[0], s.axis,
             *s.out, out, options.threads);
}

void RunArgReducePlan(const PlanState& s, const void* const* inputs, void* out,
                      const CopyOptions& options) {
  if (RunDirectAxis(s, inputs, out, options.threads)) return;
  EngineArgReduce(*s.ex, ArgOp(s.op), s.dtype, *s.inputs[0], inputs[0], s.axis,
                  *s.out, out, options.threads);
}

void RunScanReference(const PlanState& s, const void* const* inputs, void* out,
                      const CopyOptions&) {
  reference::RunScan(ScanOp(s.op), s.dtype, *s.inputs[0], inputs[0], s.axis,
                     *s.out, out);
  NoteKernelRan(0);
}

void RunArgReduceReference(const PlanState& s, const void* const* inputs,
                           void* out, const CopyOptions&) {
  reference::RunArgReduce(ArgOp(s.op), s.dtype, *s.inputs[0], inputs[0], s.axis,
                          *s.out, out);
  NoteKernelRan(0);
}

const KernelFunction kScanFunction{"scan", RunScanPlan, RunScanReference};
const KernelFunction kArgReduceFunction{"arg_reduce", RunArgReducePlan,
                                        RunArgReduceReference};

void PlanScan(PlanState& s, ScanOp op, DType t, const sk_view& in, int32_t axis,
              const sk_view& out, const void* const* datas,
              const void* out_data) {
  s.axis = CheckScanArguments(op, t, in, DatasFor(datas)[0], axis, out,
                              OutFor(datas, out_data));
  Bind(s, kScanFunction, OpName(op), int32_t(op), t, {&in}, out, datas);
  ResolveDirectAxis(s, true);
}

void PlanArgReduce(PlanState& s, ArgOp op, DType t, const sk_view& in,
                   int32_t axis, const sk_view& out, const void* const* datas,
                   const void* out_data) {
  s.axis = CheckArgReduceArguments(op, t, in, DatasFor(datas)[0], axis, out,
                                   OutFor(datas, out_data));
  Bind(s, kArgReduceFunction, OpName(op), int32_t(op), t, {&in}, out, datas);
  ResolveDirectAxis(s, false);
}

}  // namespace

}  // namespace dispatch

void Scan(ScanOp op, DType t, const sk_view& in, const void* in_data,
          int32_t axis, const sk_view& out, void* out_data,
          const NumericOptions& options) {
  dispatch::PlanState s;
  const void* inputs[1] = {in_data};
  dispatch::PlanScan(s, op, t, in, axis, out, inputs, out_data);
  dispatch::ExecutePlan(s, inputs, out_data, options.threads);
}

void ArgReduce(ArgOp op, DType t, const sk_view& in, const void* in_data,
               int32_t axis, const sk_view& out, void* out_data,
               const NumericOptions& options) {
  dispatch::PlanState s;
  const void* inputs[1] = {in_data};
  dispatch::PlanArgReduce(s, op, t, in, axis, out, inputs, out_data);
  dispatch::ExecutePlan(s, inputs, out_data, options.threads);
}

Plan Plan::Scan(ScanOp op, DType t, const sk_view& in, int32_t axis,
                const sk_view& out) {
  return dispatch::MakePlan({in, out}, [&](auto& s, auto v) {
    dispatch::PlanScan(s, op, t, v[0], axis, v[1], nullptr, nullptr);
  });
}

Plan Plan::ArgReduce(ArgOp op, DType t, const sk_view& in, int32_t axis,
                     const sk_view& out) {
  return dispatch::MakePlan({in, out}, [&](auto& s, auto v) {
    dispatch::PlanArgReduce(s, op, t, v[0], axis, v[1], nullptr, nullptr);
  });
}

}  // namespace stridekit
