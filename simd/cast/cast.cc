// Per-target cast executors: walk a plan's rows and run the vector row of
// cast-inl.h where the pair has one and both rows are contiguous and
// element-aligned, the scalar row of cast_scalar.h otherwise. A transposed
// source (a tiled plan) is converted by contiguous runs into a scratch tile
// that the copy engine's register transpose writes into the destination.
#include <algorithm>

#include "simd/cast/cast_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/cast/cast.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
// clang-format off
#include "simd/cast/cast-inl.h"
#include "simd/copy/copy-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

// Tiles of a transposed source: kTileRows x kTileCols positions. Widening
// pairs convert the source's contiguous runs along the tile axis into a
// column-major scratch tile that the copy engine's register transpose then
// writes into the destination rows; narrowing pairs transpose the source
// into a row-major scratch tile first (the wider lanes transpose in
// registers) and convert its rows into the destination.
constexpr int64_t kTileRows = 64;
constexpr int64_t kTileCols = 64;

// to[r * to_row + c] = from[r + c * from_col] (element strides) for r < rows,
// c < cols, on the unsigned lanes of elem_size (<= 8) bytes.
void TransposeLanes(size_t elem_size, const unsigned char* from,
                    int64_t from_col, int64_t rows, int64_t cols,
                    unsigned char* to, int64_t to_row) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    const hn::ScalableTag<T> d;
    TransposeBlock(d, reinterpret_cast<const T*>(from), from_col, size_t(rows),
                   size_t(cols), reinterpret_cast<T*>(to), to_row, false);
  };
  switch (elem_size) {
    case 1:
      run(uint8_t{});
      break;
    case 2:
      run(uint16_t{});
      break;
    case 4:
      run(uint32_t{});
      break;
    default:
      run(uint64_t{});
      break;
  }
}

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
  const VectorRowFn vector_row = VectorRowFunction(task.src_t, task.dst_t);
  // Unaligned buffers stay unaligned at every element (offsets are whole
  // elements), so one check covers every row.
  const bool aligned =
      reinterpret_cast<uintptr_t>(src) % uintptr_t(src_size) == 0 &&
      reinterpret_cast<uintptr_t>(dst) % uintptr_t(dst_size) == 0;
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  if (plan.tiled()) {
    // The tile axis: the destination's rows, contiguous in the source.
    const int tile_axis = plan.ndim() - 2;
    const int64_t rows = plan.shape()[tile_axis];
    const int64_t to_row = plan.strides(0)[tile_axis] * dst_size;
    const int64_t from_row = plan.strides(1)[tile_axis] * src_size;
    // Transposes run on lanes of at most 8 bytes.
    const bool transpose_first = src_size > dst_size;
    const bool tiles = aligned && (transpose_first ? src_size : dst_size) <= 8;
    // Converts n contiguous elements (to contiguous elements).
    auto convert = [&](const unsigned char* in, unsigned char* out, int64_t n) {
      if (vector_row != nullptr) {
        vector_row(in, out, size_t(n));
      } else {
        scalar_row(in, src_size, out, dst_size, n);
      }
    };
    alignas(64) unsigned char scratch[kTileRows * kTileCols * 8];
    while (chunks.Next(chunk)) {
      const unsigned char* from = src + chunk.offsets[1] * src_size;
      unsigned char* to = dst + chunk.offsets[0] * dst_size;
      if (!tiles) {
        for (int64_t r = 0; r < rows; ++r) {
          scalar_row(from + r * from_row, from_step, to + r * to_row, to_step,
                     count);
        }
        continue;
      }
      for (int64_t r0 = 0; r0 < rows; r0 += kTileRows) {
        const int64_t band = std::min(kTileRows, rows - r0);
        for (int64_t c0 = 0; c0 < count; c0 += kTileCols) {
          const int64_t cols = std::min(kTileCols, count - c0);
          const unsigned char* tile_from =
              from + r0 * from_row + c0 * from_step;
          unsigned char* tile_to = to + r0 * to_row + c0 * dst_size;
          if (transpose_first) {
            TransposeLanes(size_t(src_size), tile_from, from_step / src_size,
                           band, cols, scratch, cols);
            for (int64_t r = 0; r < band; ++r) {
              convert(scratch + r * cols * src_size, tile_to + r * to_row,
                      cols);
            }
          } else {
            for (int64_t c = 0; c < cols; ++c) {
              convert(tile_from + c * from_step, scratch + c * band * dst_size,
                      band);
            }
            TransposeLanes(size_t(dst_size), scratch, band, band, cols, tile_to,
                           to_row / dst_size);
          }
        }
      }
    }
    return HWY_TARGET;
  }
  const bool rows_contiguous = plan.inner_kind(0) == InnerKind::kContiguous &&
                               plan.inner_kind(1) == InnerKind::kContiguous;
  const VectorRowFn row_vector =
      rows_contiguous && aligned && count > 1 ? vector_row : nullptr;
  while (chunks.Next(chunk)) {
    const unsigned char* from = src + chunk.offsets[1] * src_size;
    unsigned char* to = dst + chunk.offsets[0] * dst_size;
    if (row_vector != nullptr) {
      row_vector(from, to, size_t(count));
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
STRIDEKIT_EXPORT_KERNEL_TABLE(RunCastTaskKernel, CastKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(VectorRowFunction, CastRowKernels)
#endif  // HWY_ONCE
