// The kernel functions copy and fill (copy.h): their plans (checked once,
// executor selected once), one-shot calls and Plan values, and the copy
// engine, which resolves masks, broadcasting and overlap on metadata, then
// plans each resulting box and runs it on the executor's copy kernel
// (simd/copy/copy-inl.h).
#include "stridekit/copy.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "allocation.h"
#include "copy_checks.h"
#include "dispatch/copy_internal.h"
#include "dispatch/engine.h"
#include "dispatch/executor.h"
#include "dispatch/operand_box.h"
#include "dispatch/plan_state.h"
#include "reference_kernels.h"
#include "simd/copy/copy_task.h"
#include "strided_layout.h"
#include "stridekit/checked.h"
#include "stridekit/error.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/parallel.h"
#include "stridekit/plan.h"
#include "stridekit/shape.h"

namespace stridekit {

namespace {

// Tiles shorter than this on either side (permutations of rank >= 3 with
// short extents) take outer axes into their rows and columns.
constexpr int64_t kFusedTileMinExtent = 256;

// The offset tables of a plan's fused tile: CopyTask::row_offsets and
// col_offsets, each group's axes in C order.
struct FusedTileOffsets {
  std::vector<int64_t> rows, cols;
};

FusedTileOffsets MakeFusedTileOffsets(const IterationPlan& plan) {
  FusedTileOffsets tables;
  const int bounds[3] = {plan.outer_ndim(), plan.ndim() - plan.tile_col_axes(),
                         plan.ndim()};
  for (int g = 0; g < 2; ++g) {
    // Rows are placed in the destination, columns in the source.
    const Dims& strides = plan.strides(g == 0 ? 0 : 1);
    std::vector<int64_t> level = {0};
    for (int a = bounds[g]; a < bounds[g + 1]; ++a) {
      std::vector<int64_t> next;
      next.reserve(level.size() * size_t(plan.shape()[a]));
      for (const int64_t base : level) {
        for (int64_t k = 0; k < plan.shape()[a]; ++k) {
          // offset-checked: partial sums of the plan's checked offsets
          next.push_back(base + k * strides[a]);
        }
      }
      level = std::move(next);
    }
    (g == 0 ? tables.rows : tables.cols) = std::move(level);
  }
  return tables;
}

// The bytes of a copy between one dense C-order layout in both views (the
// same shape, no mask, no broadcasting) that runs on one thread without
// streaming, else 0. Such a copy is one memmove, right also when the buffers
// overlap; for it the engine's boxes and plan cost more than the copy up to
// some kilobytes.
int64_t DenseCopyBytes(size_t elem_size, const sk_view& src, const sk_view& dst,
                       const CopyOptions& options) {
  if (src.ndim != dst.ndim || src.has_mask || dst.has_mask) return 0;
  int64_t numel = 1;
  for (int d = src.ndim - 1; d >= 0; --d) {
    if (src.shape[d] != dst.shape[d]) return 0;
    if (src.shape[d] == 1) continue;
    if (src.strides[d] != numel || dst.strides[d] != numel) return 0;
    numel *= src.shape[d];  // Fits: the checked layout's numel fits.
  }
  const int64_t bytes = numel * int64_t(elem_size);  // Fits: checked layout.
  const bool one_part = ThreadParts(options.threads, numel) == 1;
  return one_part && bytes < options.stream_min_bytes ? bytes : 0;
}

}  // namespace

bool CopyBox(const dispatch::Executor& ex, size_t elem_size, const Operand& src,
             const Operand& dst, const Box& box, const CopyOptions& options,
             const RowPads* pads) {
  Dims shape = box.Shape();
  const int parts = ThreadParts(options.threads, Numel(shape));
  if (parts > 1) {
    // One plan per part (ThreadBoxes), each on one thread; a part streams
    // where the whole copy would. The pads are left to FillOutside.
    const std::vector<Box> boxes =
        ThreadBoxes(box, dst.strides, src.strides, parts);
    CopyOptions part_options = options;
    part_options.threads = 1;
    part_options.stream_min_bytes =
        options.stream_min_bytes / int64_t(boxes.size());
    RunParallel(int(boxes.size()), [&](int i) {
      CopyBox(ex, elem_size, src, dst, boxes[size_t(i)], part_options);
    });
    return false;
  }
  Operand layouts[2];
  const Operand* ops[2] = {&dst, &src};
  // Kernels move lanes of at most 8 bytes, aligned in both buffers (an
  // unaligned element moves bytewise): an element is `scale` lanes.
  const uintptr_t addresses = reinterpret_cast<uintptr_t>(src.data) |
                              reinterpret_cast<uintptr_t>(dst.data);
  size_t lane_size = elem_size < 8 ? elem_size : 8;
  while (addresses % lane_size != 0) lane_size /= 2;
  const int64_t scale = int64_t(elem_size / lane_size);
  for (int i = 0; i < 2; ++i) {
    layouts[i].offset = BoxOffset(*ops[i], box) * scale;
    for (int d = 0; d < box.begin.size(); ++d) {
      // A single-position axis's stride is arbitrary and may not scale.
      const bool moves = box.end[d] - box.begin[d] > 1;
      layouts[i].strides.push_back(moves ? ops[i]->strides[d] * scale : 0);
    }
    if (scale > 1) layouts[i].strides.push_back(1);
  }
  if (scale > 1) shape.push_back(scale);
  IterationPlan plan = IterationPlan::Make(shape, layouts);
  plan.FuseTiles(kFusedTileMinExtent, kFusedTileMinExtent);
  if (plan.empty()) return false;
  const FusedTileOffsets tables =
      plan.tile_row_axes() + plan.tile_col_axes() > 2
          ? MakeFusedTileOffsets(plan)
          : FusedTileOffsets{};
  const bool stream =
      plan.inner_kind(0) == InnerKind::kContiguous &&
      plan.numel() >= options.stream_min_bytes / int64_t(lane_size);
  CopyTask task{&plan,
                src.data,
                const_cast<unsigned char*>(dst.data),
                lane_size,
                0,
                plan.outer_size(),
                stream,
                nullptr,
                tables.rows.data(),
                tables.cols.data()};
  // The pads go with rows of whole elements along the box's last axis,
  // ascending and contiguous in both buffers (the plan's rows are then that
  // axis, not flipped).
  const int last = box.begin.size() - 1;
  const bool padded =
      pads != nullptr && scale == 1 && !stream && !plan.tiled() && last >= 0 &&
      layouts[0].strides[last] == 1 && layouts[1].strides[last] == 1 &&
      plan.inner_stride(0) == 1 && plan.inner_stride(1) == 1 &&
      plan.inner_size() == box.end[last] - box.begin[last];
  if (padded) {
    task.row_fill = pads->fill;
    task.pad_before = pads->before;
    task.pad_after = pads->after;
  }
  // The transpose's macro-tile buffer for streamed copies and for cached
  // ones large enough to amortise it (the kernel uses it there when rows
  // alias in the caches); without memory the kernel takes its unbuffered
  // path.
  std::unique_ptr<unsigned char[]> scratch;
  constexpr int64_t kBufferedMinBytes = int64_t{4} << 20;
  if (plan.tiled() &&
      (stream || plan.numel() * int64_t(lane_size) >= kBufferedMinBytes)) {
    scratch.reset(new (std::nothrow) unsigned char[kCopyScratchBytes + 64]);
    const uintptr_t at = reinterpret_cast<uintptr_t>(scratch.get());
    if (scratch) task.scratch = scratch.get() + (64 - at % 64) % 64;
  }
  dispatch::NoteKernelRan(ex.kernels.copy(task));
  return padded;
}

// The complement of a box in a box is at most two slabs per axis.
void FillOutside(const dispatch::Executor& ex, size_t elem_size,
                 const Operand& fill, const Operand& dst, const Box& outer,
                 const Box& inner, const CopyOptions& options,
                 bool rows_padded) {
  Box slab = outer;
  const int axes = outer.begin.size() - (rows_padded ? 1 : 0);
  for (int d = 0; d < axes; ++d) {
    slab.end[d] = inner.begin[d];
    if (!slab.empty()) CopyBox(ex, elem_size, fill, dst, slab, options);
    slab.begin[d] = inner.end[d];
    slab.end[d] = outer.end[d];
    if (!slab.empty()) CopyBox(ex, elem_size, fill, dst, slab, options);
    slab.begin[d] = inner.begin[d];
    slab.end[d] = inner.end[d];
  }
}

bool ReadAcrossRows(const Operand& in, const Operand& out, const Box& box) {
  const Operand layouts[2] = {{out.strides, BoxOffset(out, box)},
                              {in.strides, BoxOffset(in, box)}};
  const IterationPlan whole = IterationPlan::Make(box.Shape(), layouts, true);
  return whole.inner_kind(1) == InnerKind::kTransposed;
}

Staging PlanStaging(std::span<const Box> parts, size_t elem_size,
                    const char* op) {
  Staging s;
  for (const Box& part : parts) {
    const int64_t bytes = Numel(part.Shape()) * int64_t(elem_size);
    s.chunks.push_back(SplitBox(
        part, int((bytes + kStageChunkBytes - 1) / kStageChunkBytes), -1, 16));
    int64_t most = 0;
    for (const Box& chunk : s.chunks.back()) {
      most = std::max(most, Numel(chunk.Shape()));
    }
    s.scratch.push_back(AllocateBuffer(most * int64_t(elem_size), op));
  }
  return s;
}

Operand StageChunk(const dispatch::Executor& ex, size_t elem_size,
                   const Operand& src, const Box& chunk,
                   unsigned char* scratch) {
  const Dims shape = chunk.Shape();
  Dims strides = CContiguousStrides(shape);
  for (int d = 0; d < strides.size(); ++d) {
    if (shape[d] == 1) strides[d] = 0;
  }
  Operand staged{strides, 0, scratch};
  staged.offset = -BoxOffset(Operand{strides}, chunk);
  CopyBox(ex, elem_size, src, staged, chunk, CopyOptions{});
  return staged;
}

Temporary MaterializeBox(const dispatch::Executor& ex, size_t elem_size,
                         const Operand& src, const Box& src_valid,
                         const Box& box, const CopyOptions& options,
                         const char* op) {
  const int n = box.begin.size();
  // The region written: the box, narrowed to its first index on the axes
  // that stay broadcast.
  Box region = box;
  Dims shape;
  for (int d = 0; d < n; ++d) {
    const bool broadcast = src.strides[d] == 0 &&
                           src_valid.begin[d] <= box.begin[d] &&
                           box.end[d] <= src_valid.end[d];
    if (broadcast) region.end[d] = box.begin[d] + 1;
    shape.push_back(region.end[d] - region.begin[d]);
  }
  Temporary t;
  t.bytes =
      AllocateBuffer(CheckedMul(Numel(shape), int64_t(elem_size), op), op);
  // Strides over the full destination index space, so box offsets apply.
  Dims strides = CContiguousStrides(shape);
  for (int d = 0; d < n; ++d) {
    if (shape[d] == 1) strides[d] = 0;
  }
  t.op = Operand{strides, 0, t.bytes.get()};
  t.op.offset = -BoxOffset(Operand{strides}, box);
  const Box inner = Intersect(region, src_valid);
  if (!inner.empty()) CopyBox(ex, elem_size, src, t.op, inner, options);
  static const unsigned char kZeros[16] = {};
  const Operand zero{Dims(n, 0), 0, kZeros};
  FillOutside(ex, elem_size, zero, t.op, region, inner, options);
  return t;
}

namespace dispatch {

void EngineCopy(const Executor& ex, size_t elem_size, const sk_view& src,
                const void* src_data, const sk_view& dst, void* dst_data,
                const void* fill, const CopyOptions& options) {
  if (const int64_t bytes = DenseCopyBytes(elem_size, src, dst, options)) {
    const int64_t es = int64_t(elem_size);
    // offset-checked: CheckLayout validated both views' byte offsets
    std::memmove(static_cast<unsigned char*>(dst_data) + dst.offset * es,
                 static_cast<const unsigned char*>(src_data) + src.offset * es,
                 size_t(bytes));
    NoteKernelRan(ex.hwy_target);
    return;
  }
  const Box target = ValidBox(dst);
  if (target.empty()) return;
  Box src_valid;
  Operand from = AlignSource(src, src_data, dst, src_valid);
  const Operand to = OperandOf(dst, dst_data);
  const Box body = Intersect(target, src_valid);

  static const unsigned char kZeros[16] = {};
  const unsigned char* fill_bytes =
      static_cast<const unsigned char*>(fill ? fill : kZeros);
  Temporary temporary;
  bool rows_padded = false;
  if (!body.empty()) {
    if (OverlapsOtherwise(from, to, body, elem_size)) {
      temporary = MaterializeBox(ex, elem_size, from, src_valid, body, options);
      from = temporary.op;
    }
    const int last = dst.ndim - 1;
    const RowPads pads{fill_bytes,
                       last >= 0 ? body.begin[last] - target.begin[last] : 0,
                       last >= 0 ? target.end[last] - body.end[last] : 0};
    rows_padded = CopyBox(ex, elem_size, from, to, body, options,
                          pads.before + pads.after > 0 ? &pads : nullptr);
  }
  if (!(body == target)) {
    const Operand fill_op{Dims(dst.ndim, 0), 0, fill_bytes};
    FillOutside(ex, elem_size, fill_op, to, target, body, options, rows_padded);
  }
}

namespace {

// The C-contiguous view of src's shape (offset 0, no mask).
sk_view CContiguousView(const sk_view& src) {
  const DimsView shape(src.shape, size_t(src.ndim));
  const Dims strides = CContiguousStrides(shape);
  sk_view view{};
  view.ndim = src.ndim;
  for (int d = 0; d < src.ndim; ++d) {
    view.shape[d] = shape[d];
    view.strides[d] = strides[d];
  }
  return view;
}

}  // namespace

Materialized MaterializeWith(const Executor& ex, size_t elem_size,
                             const sk_view& src, const void* src_data,
                             const void* fill, const CopyOptions& options) {
  Materialized out{nullptr, CContiguousView(src)};
  const int64_t bytes = CheckedMul(Numel(DimsView(src.shape, size_t(src.ndim))),
                                   int64_t(elem_size), "materialize");
  out.data = AllocateBuffer(bytes, "materialize");
  CopyOn(ex, elem_size, src, src_data, out.view, out.data.get(), fill, options);
  return out;
}

void CopyOn(const Executor& ex, size_t elem_size, const sk_view& src,
            const void* src_data, const sk_view& dst, void* dst_data,
            const void* fill, const CopyOptions& options) {
  if (!ex.IsReference()) {
    return EngineCopy(ex, elem_size, src, src_data, dst, dst_data, fill,
                      options);
  }
  reference::RunCopy(elem_size, src, src_data, dst, dst_data, fill);
  NoteKernelRan(0);
}

CopyOptions CopyThreads(const sk_view& dst, CopyOptions options) {
  int64_t numel = 1;
  for (int d = 0; d < dst.ndim; ++d) numel *= dst.shape[d];  // Checked view.
  options.threads = ThreadParts(options.threads, numel);
  return options;
}

namespace {

// Copy and fill run the same engine: fill's input 0 is its value, read
// through a zero-strided source view.
void RunCopyPlan(const PlanState& s, const void* const* inputs, void* out,
                 const CopyOptions& options) {
  CopyOn(*s.ex, s.elem_size, *s.inputs[0], inputs[0], *s.out, out, s.fill,
         CopyThreads(*s.out, options));
}

const KernelFunction kCopyFunction{"copy",
                                   RunCopyPlan,
                                   RunCopyPlan,
                                   DataCheckOrder::kOutThenInputs,
                                   "source",
                                   "destination",
                                   DescribedDTypes::kElementSize};
const KernelFunction kFillFunction{"fill",
                                   RunCopyPlan,
                                   RunCopyPlan,
                                   DataCheckOrder::kValueThenOut,
                                   "source",
                                   "destination",
                                   DescribedDTypes::kElementSize};

void PlanCopy(PlanState& s, size_t elem_size, const sk_view& src,
              const sk_view& dst, const void* fill, const void* const* datas,
              const void* out_data) {
  CheckCopyArguments(elem_size, src, DatasFor(datas)[0], dst,
                     OutFor(datas, out_data), "copy");
  s.elem_size = elem_size;
  s.fill = fill;
  Bind(s, kCopyFunction, "copy", 0, DType::kUint8, {&src}, dst, datas);
}

void PlanFill(PlanState& s, size_t elem_size, const sk_view& dst,
              const void* const* datas, const void* out_data) {
  CheckFillArguments(elem_size, dst, OutFor(datas, out_data),
                     DatasFor(datas)[0]);
  s.elem_size = elem_size;
  static const sk_view kScalar{};
  Bind(s, kFillFunction, "fill", 0, DType::kUint8, {&kScalar}, dst, datas);
}

}  // namespace

}  // namespace dispatch

void Copy(size_t elem_size, const sk_view& src, const void* src_data,
          const sk_view& dst, void* dst_data, const void* fill,
          const CopyOptions& options) {
  dispatch::PlanState s;
  const void* in[1] = {src_data};
  dispatch::PlanCopy(s, elem_size, src, dst, fill, in, dst_data);
  dispatch::ExecutePlan(s, in, dst_data, options);
}

void Fill(size_t elem_size, const sk_view& dst, void* dst_data,
          const void* value, const CopyOptions& options) {
  dispatch::PlanState s;
  const void* in[1] = {value};
  dispatch::PlanFill(s, elem_size, dst, in, dst_data);
  dispatch::ExecutePlan(s, in, dst_data, options);
}

Plan Plan::Copy(size_t elem_size, const sk_view& src, const sk_view& dst,
                const void* fill) {
  return dispatch::MakePlan({src, dst}, [&](auto& s, auto v) {
    dispatch::PlanCopy(s, elem_size, v[0], v[1], fill, nullptr, nullptr);
  });
}

Plan Plan::Fill(size_t elem_size, const sk_view& dst) {
  return dispatch::MakePlan({dst}, [&](auto& s, auto v) {
    dispatch::PlanFill(s, elem_size, v[0], nullptr, nullptr);
  });
}

Materialized Materialize(size_t elem_size, const sk_view& src,
                         const void* src_data, const void* fill,
                         const CopyOptions& options) {
  CheckStridedLayout(src, "materialize");
  CheckedMul(Numel(DimsView(src.shape, size_t(src.ndim))), int64_t(elem_size),
             "materialize");
  // The checks of the copy into the new buffer (non-null once allocated).
  const unsigned char placeholder = 0;
  CheckCopyArguments(elem_size, src, src_data, dispatch::CContiguousView(src),
                     &placeholder, "copy");
  const dispatch::Executor& ex = dispatch::SelectedExecutor("materialize");
  return dispatch::MaterializeWith(ex, elem_size, src, src_data, fill, options);
}

}  // namespace stridekit
