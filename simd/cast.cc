// Per-target cast executors: walk a plan's rows and run the vector row of
// cast-inl.h where the pair has one and both rows are contiguous and
// element-aligned, the scalar row of cast_scalar.h otherwise.
#include "cast_task.h"
#include "dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cast.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// clang-format off
#include "cast-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

int64_t RunCastTaskKernel(const CastTask& task) {
  const IterationPlan& plan = *task.plan;
  const int64_t src_size = int64_t(DTypeSize(task.src_t));
  const int64_t dst_size = int64_t(DTypeSize(task.dst_t));
  const auto* src = static_cast<const unsigned char*>(task.src);
  auto* dst = static_cast<unsigned char*>(task.dst);
  const int64_t count = plan.inner_size();
  const int64_t to_step = plan.inner_stride(0) * dst_size;
  const int64_t from_step = plan.inner_stride(1) * src_size;
  const cast::CastRowFn scalar_row = cast::RowFunction(task.src_t, task.dst_t);
  VectorRowFn vector_row = VectorRowFunction(task.src_t, task.dst_t);
  const bool rows_contiguous = plan.inner_kind(0) == InnerKind::kContiguous &&
                               plan.inner_kind(1) == InnerKind::kContiguous;
  // Unaligned buffers stay unaligned at every element (offsets are whole
  // elements), so one check covers every row.
  const bool aligned =
      reinterpret_cast<uintptr_t>(src) % uintptr_t(src_size) == 0 &&
      reinterpret_cast<uintptr_t>(dst) % uintptr_t(dst_size) == 0;
  if (!rows_contiguous || !aligned || count == 1) vector_row = nullptr;
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    const unsigned char* from = src + chunk.offsets[1] * src_size;
    unsigned char* to = dst + chunk.offsets[0] * dst_size;
    if (vector_row != nullptr) {
      vector_row(from, to, size_t(count));
    } else {
      scalar_row(from, from_step, to, to_step, count);
    }
  }
  return HWY_TARGET;
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_TASK_KERNEL(RunCastTaskKernel, RunCastTask, CastTask)
#endif  // HWY_ONCE
