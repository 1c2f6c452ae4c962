// Per-target copy executors: walk a plan's outer positions and run the row or
// tile kernels of copy-inl.h on each.
#include <algorithm>
#include <cstring>

#include "simd/copy/copy_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/copy/copy.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/copy/copy-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

#if STRIDEKIT_REGISTER_TRANSPOSE
static_assert(kTransposeScratchBytes == kCopyScratchBytes);
#endif

// A row repeated into consecutive contiguous rows (a broadcast source row):
// the destination is one run, the source one row read again and again.
bool IsStreamedRowBroadcast(const IterationPlan& plan) {
  return plan.outer_ndim() == 1 && plan.inner_stride(0) == 1 &&
         plan.inner_stride(1) == 1 && plan.strides(1)[0] == 0 &&
         plan.strides(0)[0] == plan.inner_size();
}

template <typename T>
void RunCopyTaskFor(const CopyTask& task) {
  const hn::ScalableTag<T> d;
  const IterationPlan& plan = *task.plan;
  const T* src = static_cast<const T*>(task.src);
  T* dst = static_cast<T*>(task.dst);
  // Non-temporal stores need element-aligned destinations.
  const bool stream =
      task.stream && reinterpret_cast<uintptr_t>(dst) % sizeof(T) == 0;
  const int64_t count = plan.inner_size();
  const int64_t to_stride = plan.inner_stride(0);
  const int64_t from_stride = plan.inner_stride(1);
  if (plan.tiled() && plan.tile_row_axes() + plan.tile_col_axes() > 2) {
    // Tile rows fuse the axes from outer_ndim() to tile_axis, columns the
    // rest; their innermost axes give the runs.
    const int tile_axis = plan.ndim() - 1 - plan.tile_col_axes();
    size_t rows = 1, cols = 1;
    for (int a = plan.outer_ndim(); a < plan.ndim(); ++a) {
      (a <= tile_axis ? rows : cols) *= static_cast<size_t>(plan.shape()[a]);
    }
    const TableAddressing tables{task.col_offsets, task.row_offsets};
    ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
      TransposeFusedBlock(d, src + offsets[1], rows, cols, dst + offsets[0],
                          tables, static_cast<size_t>(plan.shape()[tile_axis]),
                          plan.strides(0)[tile_axis],
                          static_cast<size_t>(count), from_stride, stream,
                          task.scratch);
    });
  } else if (plan.tiled()) {
    const int tile_axis = plan.ndim() - 2;
    const size_t rows = static_cast<size_t>(plan.shape()[tile_axis]);
    const int64_t to_row = plan.strides(0)[tile_axis];
    ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
      TransposeBlockOutOfLine(d, src + offsets[1], from_stride, rows,
                              static_cast<size_t>(count), dst + offsets[0],
                              to_row, stream, task.scratch);
    });
  } else if (stream && IsStreamedRowBroadcast(plan)) {
    // offset-checked: rows [begin, end) of the plan's checked destination
    T* to = dst + plan.offset(0) + task.begin * count;
    StreamPeriodic(d, src + plan.offset(1), static_cast<size_t>(count),
                   static_cast<size_t>((task.end - task.begin) * count), to);
  } else if (!stream && to_stride == 1 && from_stride == 1) {
    // Contiguous rows (a slice, a pad's interior): no choice of row kernel
    // per row; a pad's border (CopyTask::row_fill) beside each row.
    T value{};
    if (task.row_fill != nullptr) std::memcpy(&value, task.row_fill, sizeof(T));
    const size_t before = static_cast<size_t>(task.pad_before);
    const size_t after = static_cast<size_t>(task.pad_after);
    ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
      T* row = dst + offsets[0];
      std::fill_n(row - before, before, value);
      CopyContiguous<false>(d, src + offsets[1], static_cast<size_t>(count),
                            row);
      std::fill_n(row + count, after, value);
    });
  } else {
    ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
      CopyRow(d, src + offsets[1], from_stride, dst + offsets[0], to_stride,
              static_cast<size_t>(count), stream);
    });
  }
  if (stream) hwy::FlushStream();
}

int64_t RunCopyTaskKernel(const CopyTask& task) {
  switch (task.elem_size) {
    case 1:
      RunCopyTaskFor<uint8_t>(task);
      break;
    case 2:
      RunCopyTaskFor<uint16_t>(task);
      break;
    case 4:
      RunCopyTaskFor<uint32_t>(task);
      break;
    default:
      RunCopyTaskFor<uint64_t>(task);
      break;
  }
  return HWY_TARGET;
}

}  // namespace

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunCopyTaskKernel, CopyKernels)
#endif  // HWY_ONCE
