// The kernel function cast (cast.h): its plan (checked once, executor
// selected once), one-shot call and Plan value, and its engine, which
// resolves masks, broadcasting and overlap on metadata as for Copy
// (dispatch/copy.cc), stages a source read across the destination's rows
// chunk by chunk (copy_internal.h), then plans each box and converts its
// rows with the executor's cast kernel (simd/cast/cast.cc). Equal dtypes and
// same-size integers are copies.
#include "stridekit/cast.h"

#include <new>

#include "allocation.h"
#include "cast_reference.h"
#include "dispatch/copy_internal.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "simd/cast/cast_task.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// dst[box] = src[box] converted, both fully valid there.
void CastBox(const dispatch::Executor& ex, DType src_t, const Operand& src,
             DType dst_t, const Operand& dst, const Box& box,
             const CopyOptions& options) {
  const Dims shape = box.Shape();
  const int parts = ThreadParts(options.threads, Numel(shape));
  if (parts > 1) {  // One plan per part (ThreadBoxes), each on one thread.
    const std::vector<Box> boxes =
        ThreadBoxes(box, dst.strides, src.strides, parts);
    CopyOptions part_options = options;
    part_options.threads = 1;
    RunParallel(int(boxes.size()), [&](int i) {
      CastBox(ex, src_t, src, dst_t, dst, boxes[size_t(i)], part_options);
    });
    return;
  }
  Operand layouts[2];
  const Operand* ops[2] = {&dst, &src};
  for (int i = 0; i < 2; ++i) {
    layouts[i].offset = BoxOffset(*ops[i], box);
    for (int d = 0; d < box.begin.size(); ++d) {
      const bool moves = box.end[d] - box.begin[d] > 1;
      layouts[i].strides.push_back(moves ? ops[i]->strides[d] : 0);
    }
  }
  const IterationPlan plan = IterationPlan::Make(shape, layouts);
  if (plan.empty()) return;
  const CastTask task{&plan,
                      src.data,
                      const_cast<unsigned char*>(dst.data),
                      src_t,
                      dst_t,
                      0,
                      plan.outer_size()};
  dispatch::NoteKernelRan(ex.kernels.cast(task));
}

// CastBox with src read across dst's rows: each part (a thread's) by
// chunks, each first transposed into the part's scratch (copy_internal.h).
void CastStaged(const dispatch::Executor& ex, DType src_t, const Operand& src,
                DType dst_t, const Operand& dst, const Box& box,
                const CopyOptions& options) {
  const int parts = ThreadParts(options.threads, Numel(box.Shape()));
  const std::vector<Box> boxes =
      parts > 1 ? ThreadBoxes(box, dst.strides, src.strides, parts)
                : std::vector<Box>{box};
  const size_t src_size = DTypeSize(src_t);
  const Staging staging = PlanStaging(boxes, src_size, "cast");
  RunParallel(int(boxes.size()), [&](int i) {
    for (const Box& chunk : staging.chunks[size_t(i)]) {
      const Operand staged = StageChunk(ex, src_size, src, chunk,
                                        staging.scratch[size_t(i)].get());
      CastBox(ex, src_t, staged, dst_t, dst, chunk, CopyOptions{});
    }
  });
}

// True when converting src into dst over `box` element by element could
// read a byte after it was written: they share a byte other than by the
// same mapping of equal-size elements.
bool NeedsTemporary(const Operand& src, size_t src_size, const Operand& dst,
                    size_t dst_size, const Box& box) {
  const auto [src_lo, src_hi] = ByteRange(src, box, src_size);
  const auto [dst_lo, dst_hi] = ByteRange(dst, box, dst_size);
  if (src_hi <= dst_lo || dst_hi <= src_lo) return false;
  return !(src_size == dst_size && SameMapping(src, dst, box, src_size));
}

}  // namespace

namespace dispatch {

void EngineCast(const Executor& ex, DType src_t, const sk_view& src,
                const void* src_data, DType dst_t, const sk_view& dst,
                void* dst_data, const CopyOptions& options) {
  const size_t src_size = DTypeSize(src_t);
  const size_t dst_size = DTypeSize(dst_t);
  if (IsBitCopyCast(src_t, dst_t)) {
    return EngineCopy(ex, dst_size, src, src_data, dst, dst_data, nullptr,
                      options);
  }
  const Box target = ValidBox(dst);
  if (target.empty()) return;
  Box src_valid;
  Operand from = AlignSource(src, src_data, dst, src_valid);
  const Operand to = OperandOf(dst, dst_data);
  const Box body = Intersect(target, src_valid);

  Temporary temporary;
  if (!body.empty()) {
    if (NeedsTemporary(from, src_size, to, dst_size, body)) {
      temporary =
          MaterializeBox(ex, src_size, from, body, body, options, "cast");
      from = temporary.op;
    }
    if (temporary.bytes == nullptr &&
        Numel(body.Shape()) * int64_t(src_size) >= kStageMinBytes &&
        ReadAcrossRows(from, to, body)) {
      CastStaged(ex, src_t, from, dst_t, to, body, options);
    } else {
      CastBox(ex, src_t, from, dst_t, to, body, options);
    }
  }
  // A masked-out source position casts its zero: zero bits in every dtype.
  if (!(body == target)) {
    static const unsigned char kZeros[16] = {};
    const Operand zero{Dims(dst.ndim, 0), 0, kZeros};
    FillOutside(ex, dst_size, zero, to, target, body, options);
  }
}

namespace {

void ResolveDirectCast(PlanState& s) {
  s.direct_cast.reset();
  const sk_view& src = *s.inputs[0];
  const sk_view& dst = *s.out;
  if (s.ex->IsReference() || src.has_mask || dst.has_mask ||
      IsBitCopyCast(s.dtype, s.dst_dtype)) {
    return;
  }
  DirectCast& d = s.direct_cast.emplace();
  d.run = s.ex->kernels.cast;
  Operand layouts[2];
  DirectLayouts(dst, std::span(s.inputs, 1), layouts);
  const int n = dst.ndim;
  int64_t numel = 1;
  for (int a = 0; a < n; ++a) numel *= dst.shape[a];  // Fits: checked view.
  // Made in place, unchecked (the views passed the layout checks), tiled
  // as CastBox's.
  ::new (static_cast<void*>(&d.plan))
      IterationPlan(IterationPlan::MakeValidated(
          DimsView(dst.shape, size_t(n)), numel, std::span(layouts, 2), true));
  // More threads take the engine's parts (CastBox, ThreadBoxes); so does a
  // source read across dst's rows from kStageMinBytes on (staged).
  d.max_direct_threads =
      d.plan.tiled() && numel * int64_t(DTypeSize(s.dtype)) >= kStageMinBytes
          ? -1
          : 1;
  // One element (a 0-d plan, whose inner kinds read as broadcast) is a run
  // too.
  if (!d.plan.tiled() && d.plan.outer_size() == 1 &&
      (d.plan.inner_size() == 1 ||
       (d.plan.inner_kind(0) == InnerKind::kContiguous &&
        d.plan.inner_kind(1) == InnerKind::kContiguous))) {
    d.row = s.ex->kernels.cast_row(s.dtype, s.dst_dtype);
  }
  const size_t sizes[2] = {DTypeSize(s.dst_dtype), DTypeSize(s.dtype)};
  if (!ByteExtents(dst, layouts, 2, sizes, d.lo, d.hi)) s.direct_cast.reset();
}

bool RunDirectCast(const PlanState& s, const void* const* inputs, void* out,
                   int threads) {
  if (!s.direct_cast) return false;
  const DirectCast& d = *s.direct_cast;
  if (d.plan.empty()) return true;
  if (threads > d.max_direct_threads) return false;
  // A source sharing a byte with dst: the engine (NeedsTemporary).
  if (SharesBytes(inputs[0], out, d.lo, d.hi, 1)) return false;
  if (d.row != nullptr) {
    // offset-checked: the plan's offsets of checked views
    const auto* from = static_cast<const unsigned char*>(inputs[0]) +
                       d.plan.offset(1) * int64_t(DTypeSize(s.dtype));
    auto* to = static_cast<unsigned char*>(out) +
               d.plan.offset(0) * int64_t(DTypeSize(s.dst_dtype));
    // The task's rows take the vector form only on aligned elements.
    if (reinterpret_cast<uintptr_t>(from) % DTypeSize(s.dtype) == 0 &&
        reinterpret_cast<uintptr_t>(to) % DTypeSize(s.dst_dtype) == 0) {
      NoteKernelRan(d.row(from, to, size_t(d.plan.inner_size())));
      return true;
    }
  }
  const CastTask task{&d.plan, inputs[0],          out, s.dtype, s.dst_dtype,
                      0,       d.plan.outer_size()};
  NoteKernelRan(d.run(task));
  return true;
}

void RunCastPlan(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options) {
  const CopyOptions cast_options = CopyThreads(*s.out, options);
  if (RunDirectCast(s, inputs, out, cast_options.threads)) return;
  EngineCast(*s.ex, s.dtype, *s.inputs[0], inputs[0], s.dst_dtype, *s.out, out,
             cast_options);
}

void RunCastReference(const PlanState& s, const void* const* inputs, void* out,
                      const CopyOptions&) {
  reference::RunCast(s.dtype, *s.inputs[0], inputs[0], s.dst_dtype, *s.out,
                     out);
  NoteKernelRan(0);
}

const KernelFunction kCastFunction{"cast",
                                   RunCastPlan,
                                   RunCastReference,
                                   DataCheckOrder::kOutThenInputs,
                                   "source",
                                   "destination",
                                   DescribedDTypes::kSourceToDestination};

void PlanCast(PlanState& s, DType src_t, const sk_view& src, DType dst_t,
              const sk_view& dst, const void* const* datas,
              const void* out_data) {
  CheckCastArguments(src_t, src, DatasFor(datas)[0], dst_t, dst,
                     OutFor(datas, out_data));
  s.dst_dtype = dst_t;
  Bind(s, kCastFunction, "cast", 0, src_t, {&src}, dst, datas);
  ResolveDirectCast(s);
}

}  // namespace

}  // namespace dispatch

void Cast(DType src_t, const sk_view& src, const void* src_data, DType dst_t,
          const sk_view& dst, void* dst_data, const CopyOptions& options) {
  dispatch::PlanState s;
  const void* in[1] = {src_data};
  dispatch::PlanCast(s, src_t, src, dst_t, dst, in, dst_data);
  dispatch::ExecutePlan(s, in, dst_data, options);
}

Plan Plan::Cast(DType src_t, const sk_view& src, DType dst_t,
                const sk_view& dst) {
  return dispatch::MakePlan({src, dst}, [&](auto& s, auto v) {
    dispatch::PlanCast(s, src_t, v[0], dst_t, v[1], nullptr, nullptr);
  });
}

}  // namespace stridekit
