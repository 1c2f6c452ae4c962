// Per-target inner kernels of the copy family: one row of `count` elements
// from a strided source to a strided destination, and one band of 2-D tiles
// of a transposed source. Element types are the unsigned integers of the
// element size (data movement is bit-exact, so the value type does not
// matter). `from` and `to` must not overlap (callers copy through a
// temporary). With kStream, vector stores are non-temporal: `to` must then be
// aligned to the vector size at every vector store, which the callers
// arrange by peeling a scalar head.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_COPY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_COPY_INL_H_
#undef STRIDEKIT_SIMD_COPY_INL_H_
#else
#define STRIDEKIT_SIMD_COPY_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "simd/common/alignment.h"
#include "simd/common/transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <bool kStream, class D, class V, typename T = hn::TFromD<D>>
HWY_INLINE void StoreVec(V v, D d, T* HWY_RESTRICT to) {
  if constexpr (kStream) {
    hn::Stream(v, d, to);
  } else {
    hn::StoreU(v, d, to);
  }
}

using simd::ElementsToAlignment;

// to[i] = from[i] for i < count. Cached copies of 128 bytes up to
// kAlignedRowMinBytes go to the C library's memcpy, which is tuned per CPU
// (and is what NumPy uses for them): on rows of a few hundred bytes (a
// padded 181^2 float32 array) it beat this loop, which serves short rows
// without a call. Longer cached rows align their stores first: on 4 KiB
// rows (a broadcast row at L2) a minimal aligned loop ran at 0.86-0.91 of
// memset's speed where memcpy per row ran at 0.65-0.73 (bench/copy_floor),
// and copy_bench's broadcast row ran 1.12-1.32x faster than with memcpy
// (A/B; compare.py's table did not show the gain).
inline constexpr size_t kAlignedRowMinBytes = 2048;
template <bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyContiguous(D d, const T* HWY_RESTRICT from, size_t count,
                               T* HWY_RESTRICT to) {
  const size_t bytes = count * sizeof(T);
  if (!kStream && bytes >= 128 && bytes < kAlignedRowMinBytes) {
    std::memcpy(to, from, bytes);
    return;
  }
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (!kStream && bytes >= kAlignedRowMinBytes) {
    for (const size_t head = ElementsToAlignment(to, N * sizeof(T), count);
         i < head; ++i) {
      to[i] = from[i];
    }
  }
  for (; i + 4 * N <= count; i += 4 * N) {
    const auto v0 = hn::LoadU(d, from + i);
    const auto v1 = hn::LoadU(d, from + i + N);
    const auto v2 = hn::LoadU(d, from + i + 2 * N);
    const auto v3 = hn::LoadU(d, from + i + 3 * N);
    StoreVec<kStream>(v0, d, to + i);
    StoreVec<kStream>(v1, d, to + i + N);
    StoreVec<kStream>(v2, d, to + i + 2 * N);
    StoreVec<kStream>(v3, d, to + i + 3 * N);
  }
  for (; i + N <= count; i += N) {
    StoreVec<kStream>(hn::LoadU(d, from + i), d, to + i);
  }
  for (; i < count; ++i) to[i] = from[i];
}

// to[i] = from[-i] for i < count. Highway 1.0.3 has no 8-bit Reverse on
// x86, so single bytes move one at a time.
template <bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyReversed(D d, const T* HWY_RESTRICT from, size_t count,
                             T* HWY_RESTRICT to) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if constexpr (sizeof(T) > 1) {
    // Stores aligned to whole vectors (a streamed row arrives aligned), four
    // vectors a step: at L2, stores straddling cache lines cost 0.72 of a
    // memcpy's speed where aligned ones reach it (bench/copy_floor).
    if constexpr (!kStream) {
      if (count >= 4 * N) {
        for (const size_t head = ElementsToAlignment(to, N * sizeof(T), count);
             i < head; ++i) {
          to[i] = *(from - static_cast<ptrdiff_t>(i));
        }
      }
    }
    for (; i + 4 * N <= count; i += 4 * N) {
      const T* block = from - static_cast<ptrdiff_t>(i + N - 1);
      const ptrdiff_t step = static_cast<ptrdiff_t>(N);
      const auto v0 = hn::LoadU(d, block);
      const auto v1 = hn::LoadU(d, block - step);
      const auto v2 = hn::LoadU(d, block - 2 * step);
      const auto v3 = hn::LoadU(d, block - 3 * step);
      StoreVec<kStream>(hn::Reverse(d, v0), d, to + i);
      StoreVec<kStream>(hn::Reverse(d, v1), d, to + i + N);
      StoreVec<kStream>(hn::Reverse(d, v2), d, to + i + 2 * N);
      StoreVec<kStream>(hn::Reverse(d, v3), d, to + i + 3 * N);
    }
    for (; i + N <= count; i += N) {
      const T* block = from - static_cast<ptrdiff_t>(i + N - 1);
      StoreVec<kStream>(hn::Reverse(d, hn::LoadU(d, block)), d, to + i);
    }
  }
  for (; i < count; ++i) to[i] = *(from - static_cast<ptrdiff_t>(i));
}

// to[i] = value for i < count.
template <bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void FillContiguous(D d, T value, size_t count, T* HWY_RESTRICT to) {
  const size_t N = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + N <= count; i += N) StoreVec<kStream>(v, d, to + i);
  for (; i < count; ++i) to[i] = value;
}

// to[i] = from[i % period] for i < count with non-temporal stores: a row
// broadcast into a destination whose rows follow each other, written as one
// aligned run. (Streaming it row by row would give each row a cached head
// and tail, mixing cached and non-temporal stores in every row's boundary
// lines.)
// A source row at the destination's offset modulo 4 KiB (as large
// allocations from malloc or NumPy are) makes loads falsely wait on the
// stores of the row before (4K aliasing): measured at 0.4x the speed of a
// shifted row. Rows up to kStagedBytes are read from a copy on the stack
// half a page away from the destination's offset.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void StreamPeriodic(D d, const T* HWY_RESTRICT from, size_t period,
                               size_t count, T* HWY_RESTRICT to) {
  constexpr size_t kStagedBytes = 8192, kPage = 4096;
  alignas(64) unsigned char staging[kStagedBytes + kPage];
  if (period * sizeof(T) <= kStagedBytes) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(staging);
    const uintptr_t want = reinterpret_cast<uintptr_t>(to) + kPage / 2;
    T* staged = reinterpret_cast<T*>(staging + (want - at) % kPage);
    std::memcpy(staged, from, period * sizeof(T));
    from = staged;
  }
  const size_t N = hn::Lanes(d);
  const size_t head = ElementsToAlignment(to, N * sizeof(T), count);
  size_t i = 0, phase = 0;
  auto next = [&] {
    const T value = from[phase];
    if (++phase == period) phase = 0;
    return value;
  };
  for (; i < head; ++i) to[i] = next();
  HWY_ALIGN T wrapped[hn::MaxLanes(d)];
  for (; i + N <= count; i += N) {
    if (phase + N > period) {  // The vector wraps past the row's end.
      for (size_t k = 0; k < N; ++k) wrapped[k] = next();
      hn::Stream(hn::Load(d, wrapped), d, to + i);
      continue;
    }
    hn::Stream(hn::LoadU(d, from + phase), d, to + i);
    phase += N;
    if (phase == period) phase = 0;
  }
  for (; i < count; ++i) to[i] = next();
}

// to[i] = from[i * kStride] for kStride in {2, 3, 4}: contiguous loads and
// de-interleaving shuffles instead of gathers.
template <int kStride, bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyInterleaved(D d, const T* HWY_RESTRICT from, size_t count,
                                T* HWY_RESTRICT to) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  // A vector step reads kStride * N elements; stop while it stays in range.
  for (; i + N < count; i += N) {
    hn::Vec<D> v0, v1, v2, v3;
    const T* p = from + i * kStride;
    if constexpr (kStride == 2) {
      hn::LoadInterleaved2(d, p, v0, v1);
    } else if constexpr (kStride == 3) {
      hn::LoadInterleaved3(d, p, v0, v1, v2);
    } else {
      hn::LoadInterleaved4(d, p, v0, v1, v2, v3);
    }
    StoreVec<kStream>(v0, d, to + i);
  }
  for (; i < count; ++i) to[i] = from[i * kStride];
}

// True when Iota * stride fits the signed lane type of T (gathers exist for
// 32- and 64-bit lanes only).
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE bool CanGather(D d, int64_t stride) {
  if constexpr (sizeof(T) < 4) {
    return false;
  } else if constexpr (sizeof(T) == 8) {
    return true;
  } else {
    const int64_t reach = stride * static_cast<int64_t>(hn::Lanes(d));
    return reach < INT32_MAX && reach > -INT32_MAX;
  }
}

// to[i] = from[i * stride] through gathers; requires CanGather(d, stride).
template <bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyGathered(D d, const T* HWY_RESTRICT from, int64_t stride,
                             size_t count, T* HWY_RESTRICT to) {
  if constexpr (sizeof(T) >= 4) {
    using TI = hwy::MakeSigned<T>;
    const hn::RebindToSigned<D> di;
    const size_t N = hn::Lanes(d);
    const auto index =
        hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<TI>(stride)));
    size_t i = 0;
    for (; i + N <= count; i += N) {
      const T* base = from + static_cast<int64_t>(i) * stride;
      StoreVec<kStream>(hn::GatherIndex(d, base, index), d, to + i);
    }
    for (; i < count; ++i) to[i] = from[static_cast<int64_t>(i) * stride];
  }
}

// The contiguous-destination row kernels, chosen by the source stride.
template <bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyToContiguous(D d, const T* HWY_RESTRICT from,
                                 int64_t from_stride, size_t count,
                                 T* HWY_RESTRICT to) {
  switch (from_stride) {
    case 1:
      return CopyContiguous<kStream>(d, from, count, to);
    case -1:
      return CopyReversed<kStream>(d, from, count, to);
    case 0:
      return FillContiguous<kStream>(d, *from, count, to);
    case 2:
      return CopyInterleaved<2, kStream>(d, from, count, to);
    case 3:
      return CopyInterleaved<3, kStream>(d, from, count, to);
    case 4:
      return CopyInterleaved<4, kStream>(d, from, count, to);
    default:
      break;
  }
  if (CanGather(d, from_stride)) {
    return CopyGathered<kStream>(d, from, from_stride, count, to);
  }
  for (size_t i = 0; i < count; ++i) {
    to[i] = from[static_cast<int64_t>(i) * from_stride];
  }
}

// to[i * to_stride] = from[i * from_stride] for i < count: the row kernel.
// With `stream`, a contiguous destination is written with non-temporal
// stores after a scalar head that aligns it.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyRow(D d, const T* HWY_RESTRICT from, int64_t from_stride,
                        T* HWY_RESTRICT to, int64_t to_stride, size_t count,
                        bool stream) {
  if (to_stride != 1) {
    for (size_t i = 0; i < count; ++i) {
      to[static_cast<int64_t>(i) * to_stride] =
          from[static_cast<int64_t>(i) * from_stride];
    }
    return;
  }
  if (!stream) return CopyToContiguous<false>(d, from, from_stride, count, to);
  const size_t head = ElementsToAlignment(to, hn::Lanes(d) * sizeof(T), count);
  for (size_t i = 0; i < head; ++i) {
    to[i] = from[static_cast<int64_t>(i) * from_stride];
  }
  CopyToContiguous<true>(d, from + static_cast<int64_t>(head) * from_stride,
                         from_stride, count - head, to + head);
}

// Where a transposed block's columns start in the source and its rows in the
// destination, relative to the block's origin: at multiples of a pitch (a
// 2-D block) or from tables (a block whose rows and columns each fuse
// several axes, IterationPlan::FuseTiles). Either way the source is
// contiguous along a column and the destination along a row.
struct PitchAddressing {
  int64_t col_pitch;  // Source elements between columns.
  int64_t row_pitch;  // Destination elements between rows.
  int64_t Col(size_t c) const { return static_cast<int64_t>(c) * col_pitch; }
  int64_t Row(size_t r) const { return static_cast<int64_t>(r) * row_pitch; }
};

struct TableAddressing {
  const int64_t* cols;  // Source offset of each column.
  const int64_t* rows;  // Destination offset of each row.
  int64_t Col(size_t c) const { return cols[c]; }
  int64_t Row(size_t r) const { return rows[r]; }
  // The block that starts at row r, column c of this one.
  TableAddressing From(size_t r, size_t c) const {
    return {cols + c, rows + r};
  }
};

// Elements per tile edge: at least one cache line of the destination and a
// whole number of vectors.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE size_t TileEdge(D d) {
  const size_t N = hn::Lanes(d);
  const size_t line = 64 / sizeof(T);
  return line > N ? line : N;
}

// 2-D transpose: to[r * to_row + c] = from[r + c * from_col] for r < rows,
// c < cols (the source is contiguous along r, the destination along c).
// Each destination row is cut into TileEdge segments aligned in memory; the
// outer loop walks segment columns and the inner loop all rows, so the
// source is read as TileEdge sequential streams (prefetchable) while each
// destination segment is one or two whole cache lines (with kStream written
// by aligned non-temporal stores, which need no read for ownership).
template <bool kStream, class D, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeSegments(D d, const T* HWY_RESTRICT from,
                                  int64_t from_col, size_t rows, size_t cols,
                                  T* HWY_RESTRICT to, int64_t to_row) {
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const int64_t edge = static_cast<int64_t>(TileEdge(d));
  const int64_t icols = static_cast<int64_t>(cols);
  const bool gather = CanGather(d, from_col);
  const int64_t segments = (icols + 2 * edge - 1) / edge;
  constexpr int64_t kPrefetchRows = 64;
  for (int64_t s = 0; s < segments; ++s) {
    for (size_t r = 0; r < rows; ++r) {
      const T* src = from + static_cast<int64_t>(r);
      T* dst = to + static_cast<int64_t>(r) * to_row;
      // Segment s of this row starts where the row's aligned grid puts it.
      const int64_t head = kStream
                               ? static_cast<int64_t>(ElementsToAlignment(
                                     dst, static_cast<size_t>(edge) * sizeof(T),
                                     static_cast<size_t>(edge)))
                               : 0;
      const int64_t c_lo = s * edge - (head == 0 ? 0 : edge - head);
      const int64_t c_hi = c_lo + edge;
      if (r % static_cast<size_t>(edge) == 0 && r + kPrefetchRows < rows) {
        for (int64_t c = c_lo < 0 ? 0 : c_lo; c < c_hi && c < icols; ++c) {
          hwy::Prefetch(src + kPrefetchRows + c * from_col);
        }
      }
      if (c_lo >= 0 && c_hi <= icols && gather) {
        if constexpr (sizeof(T) >= 4) {
          using TI = hwy::MakeSigned<T>;
          const hn::RebindToSigned<D> di;
          const auto index =
              hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<TI>(from_col)));
          for (int64_t c = c_lo; c < c_hi; c += N) {
            StoreVec<kStream>(hn::GatherIndex(d, src + c * from_col, index), d,
                              dst + c);
          }
        }
      } else {
        for (int64_t c = c_lo < 0 ? 0 : c_lo; c < c_hi && c < icols; ++c) {
          dst[c] = src[c * from_col];
        }
      }
    }
  }
}

// Rows per band of the tiled transpose: the band's destination rows stay
// TLB-resident (and its source lines cached) while its segments are swept.
template <typename T>
inline constexpr size_t kTransposeBandRows = 2048 / sizeof(T);

#if STRIDEKIT_REGISTER_TRANSPOSE

// Register-tiled transpose of the N x N tile at row r0, column c0 of a
// block (N = Lanes(d)): to[a.Row(r) + c] = from[r + a.Col(c)]. With kStream,
// every destination row start must be vector-aligned.
template <bool kStream, class D, class A, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeTile(D d, const T* HWY_RESTRICT from, const A& a,
                              size_t r0, size_t c0, T* HWY_RESTRICT to) {
  if constexpr (sizeof(T) >= 4) {
    const size_t N = hn::Lanes(d);
    hn::Vec<D> v[64 / sizeof(T)];
    for (size_t k = 0; k < N; ++k) {
      v[k] = hn::LoadU(d, from + static_cast<int64_t>(r0) + a.Col(c0 + k));
    }
    TransposeSquare(d, v);
    for (size_t j = 0; j < N; ++j) {
      StoreVec<kStream>(v[j], d, to + a.Row(r0 + j) + static_cast<int64_t>(c0));
    }
  }
}

// Register tiles over the whole N x N tiles of a band (columns outer, rows
// inner, like TransposeSegments), then the ragged right and bottom edges.
// Without kStream, an edge of at least N / 2 on an axis at least N long is
// one more row or column of tiles moved back to end at the edge (it rewrites
// some elements with the same values): on Zen 5 the per-row gathers of the
// edges cost more than the tiles (a 107 x 107 block has 19 % of its elements
// in edges of 11 at 16 lanes), while narrower edges are cheaper by rows
// (18^5 lost a third with tiles). Other edges go by rows.
template <bool kStream, class D, class A, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeRegisterTiles(D d, const T* HWY_RESTRICT from,
                                       const A& a, size_t rows, size_t cols,
                                       T* HWY_RESTRICT to) {
  const size_t N = hn::Lanes(d);
  const auto covered = [&](size_t extent) {
    const bool overlap = !kStream && extent >= N && extent % N >= N / 2;
    return overlap ? extent : extent - extent % N;
  };
  // Without kStream, when every destination row starts at the same offset
  // within a vector (a pitch of whole vectors), the column tiles start at
  // the first column whose stores are vector-aligned, so that no store
  // straddles a cache line; the columns before it are one more tile at
  // column 0, overlapping the next (with the same values): at least four
  // tile columns, so that the extra one costs at most a fifth.
  size_t first = 0;
  if constexpr (!kStream && std::is_same_v<A, PitchAddressing>) {
    const size_t bytes = N * sizeof(T);
    if (cols >= 4 * N &&
        (static_cast<uint64_t>(a.row_pitch) * sizeof(T)) % bytes == 0) {
      // N (no boundary: `to` not element-aligned) means no shift.
      first = simd::ElementsToAlignment(to, bytes, N) % N;
    }
  }
  // Tile origins end at full_rows - N and full_cols - N.
  const size_t full_rows = covered(rows);
  const size_t full_cols = first + covered(cols - first);
  const auto tile_column = [&](size_t c0) {
    for (size_t r = 0; r < full_rows; r += N) {
      const size_t r0 = r + N > full_rows ? full_rows - N : r;
      TransposeTile<kStream>(d, from, a, r0, c0, to);
    }
  };
  if (first > 0) tile_column(0);
  for (size_t c = first; c < full_cols; c += N) {
    tile_column(c + N > full_cols ? full_cols - N : c);
  }
  if (full_rows == rows && full_cols == cols) return;
  for (size_t r = 0; r < rows; ++r) {
    const size_t c_begin = r < full_rows ? full_cols : 0;
    T* row = to + a.Row(r);
    if constexpr (std::is_same_v<A, PitchAddressing>) {
      CopyRow(d, from + r + a.Col(c_begin), a.col_pitch, row + c_begin, 1,
              cols - c_begin, false);
    } else {
      const T* column_start = from + static_cast<int64_t>(r);
      for (size_t c = c_begin; c < cols; ++c) row[c] = column_start[a.Col(c)];
    }
  }
}

// Transpose through a buffered macro tile: `tile_rows` destination rows x
// `tile_cols` columns (at most kMacroRows x kMacroCols, kStreamMacroRows x
// kStreamMacroCols when streamed; rows at least the lanes, columns a
// multiple of a cache line) are transposed by register tiles into `scratch`
// (L2-resident), then each destination row's segment leaves as whole aligned
// lines (with kStream, of non-temporal stores). Both sides move in long runs
// (the source tile_rows elements per column, the destination tile_cols per
// row); streaming one line into each of hundreds of rows, the register-tile
// order, is what bounds the unbuffered path. Rows that do not start on a
// line boundary stay line-aligned through a carry: the last line's worth of
// each buffered row is kept (after the buffer, kTransposeScratchBytes) for
// the row's next macro tile, whose lines start before it. Only the first and
// last partial line of a row are plain stores. Handles [0, rows) x [0, cols)
// minus the right and bottom strips narrower than a macro tile, which the
// caller finishes.
inline constexpr size_t kMacroRows = 256;
inline constexpr size_t kMacroCols = 128;
// Streamed (DRAM-sized) copies of 8-byte elements read 4 KiB of each source
// row per macro tile, 512 x 32: float64 DRAM transposes ran 1.1-1.4x faster
// than with 256 x 128 on Zen 3 (bench/compare_builds.py, copy_bench DRAM
// group). float32 at 1024 x 32 gained nothing (0.94-1.18x): it keeps
// 256 x 128.
template <typename T>
inline constexpr size_t kStreamMacroRows = sizeof(T) >= 8 ? 512 : kMacroRows;
template <typename T>
inline constexpr size_t kStreamMacroCols = sizeof(T) >= 8 ? 32 : kMacroCols;

// True when the N rows of a register tile on either side span less than
// 1 KiB modulo 4 KiB, so that they share a few cache sets (pitches near a
// multiple of 4 KiB: 1024 or 1023 floats). Register tiles then ran at a
// quarter of their speed on Zen 5 (1024^2 f32: 10 GB/s, 28 through the
// buffer) while the buffer costs a quarter elsewhere (1448^2: 41 -> 31).
template <typename T, class D>
HWY_INLINE bool RowsAlias(D d, int64_t from_col, int64_t to_row) {
  const auto near = [&](int64_t pitch) {
    const uint64_t r = static_cast<uint64_t>(pitch) * sizeof(T) % 4096;
    return HWY_MIN(r, 4096 - r) * hn::Lanes(d) < 1024;
  };
  return near(from_col) || near(to_row);
}

// A macro tile's rows (any count from the lanes up: FillMacroTile moves
// each tile's last register row back to end at its edge) and columns (whole
// lines), chosen so that the strips TransposeBuffered leaves to register
// tiles stay narrow: those cost several times the buffer per element, as
// cached stores that straddle lines. 42^5 reversed (1764 x 1764 blocks)
// left 13 % of its rows to them with 256-row tiles and spent 44 % of the
// kernel's samples there (perf, AVX3); 107^4 {1,3,0,2} (107 x 11449
// blocks) left 10 % with 96-row ones.
// Every row of a block up to `most`, else the count in [most / 2, most]
// that leaves the fewest rows (the widest of those): the widest tile of
// each number k of whole tiles, rows / k, leaves the fewest for that k.
inline size_t MacroRows(size_t rows, size_t most) {
  if (rows <= most) return rows;
  size_t best = most;
  for (size_t k = (rows + most - 1) / most; k <= rows / (most / 2); ++k) {
    if (rows % (rows / k) < rows % best) best = rows / k;
  }
  return best;
}

// The multiple of `unit` up to `most` (down to most / 2) that leaves the
// fewest of `cols` columns, the widest of those; 0 when cols < unit.
inline size_t MacroCols(size_t cols, size_t most, size_t unit) {
  const size_t widest = HWY_MIN(cols, most) / unit * unit;
  size_t best = widest;
  for (size_t t = widest; t >= unit && t >= most / 2; t -= unit) {
    if (cols % t < cols % best) best = t;
  }
  return best;
}

// Scratch bytes TransposeBuffered takes (64-byte aligned): its macro-tile
// buffer, then the carry lines of as many bands of destination rows as fit
// (at least one). Macro tiles sweep such a group of bands along the source
// rows before moving to the next source rows: runs of several KiB of each
// source row instead of one tile's 1 KiB (bench/transpose_floor: the same
// traffic ran at 0.48-0.52 of a copy in that order, 0.35-0.38 band by band).
inline constexpr size_t kTransposeScratchBytes = size_t{288} << 10;

// The buffer and one band's carries for the largest macro tiles of T.
template <typename T>
inline constexpr size_t kMacroScratchBytes =
    HWY_MAX(kMacroRows*(kMacroCols + 2 * 64 / sizeof(T)),
            kStreamMacroRows<T>*(kStreamMacroCols<T> + 2 * 64 / sizeof(T))) *
    sizeof(T);
static_assert(kMacroScratchBytes<uint32_t> <= kTransposeScratchBytes &&
              kMacroScratchBytes<uint64_t> <= kTransposeScratchBytes);

// Register tiles of the macro tile whose source columns (destination rows)
// start at `band` and whose destination columns are [c0, c0 + tile_cols)
// into buffer rows of pitch P, destination column c0 + x at column L + x;
// tile_rows >= Lanes(d), tile_cols a multiple of it.
template <class D, class A, typename T = hn::TFromD<D>>
HWY_INLINE void FillMacroTile(D d, const T* HWY_RESTRICT band, const A& a,
                              size_t c0, size_t cols, size_t tile_rows,
                              size_t tile_cols, size_t P,
                              T* HWY_RESTRICT scratch) {
  const size_t N = hn::Lanes(d);
  constexpr size_t L = 64 / sizeof(T);
  for (size_t cc = 0; cc < tile_cols; cc += N) {
    const size_t c = c0 + cc;
    // The next register column's source lines (HPTT's prefetch), for
    // elements under 8 bytes. On Zen 3 (copy_bench), float64 transposes
    // at L3/DRAM ran 1.00-1.28x faster without it (mean 1.15 over two
    // A/Bs; the unchanged float32 cases beside them: 1.03), while
    // float32 permute4d (fused tiles) ran 1.17-1.19x slower.
    if constexpr (sizeof(T) < 8) {
      for (size_t k = N; k < 2 * N && c + k < cols; ++k) {
        const T* next = band + a.Col(c + k);
        for (size_t q = 0; q < tile_rows; q += L) hwy::Prefetch(next + q);
      }
    }
    for (size_t r = 0; r < tile_rows; r += N) {
      // The last register row ends at the tile's edge (tile_rows >= N).
      const size_t rr = HWY_MIN(r, tile_rows - N);
      hn::Vec<D> v[64 / sizeof(T)];
      for (size_t k = 0; k < N; ++k) {
        v[k] = hn::LoadU(d, band + a.Col(c + k) + static_cast<int64_t>(rr));
      }
      TransposeSquare(d, v);
      for (size_t j = 0; j < N; ++j) {
        hn::Store(v[j], d, scratch + (rr + j) * P + L + cc);
      }
    }
  }
}

// Writes the buffered macro tile's rows (destination rows r0 .. r0 +
// tile_rows, columns [c0, c0 + tile_cols)) as whole aligned lines, each
// row's first line completed from its carry line in `carries` (kept from
// the row's previous macro tile) and its last partial line kept there for
// the next; after the last macro tile (full_cols), the rest from the carry.
template <bool kStream, class D, class A, typename T = hn::TFromD<D>>
HWY_INLINE void DrainMacroTile(D d, const A& a, size_t r0, size_t c0,
                               size_t tile_rows, size_t tile_cols,
                               size_t full_cols, size_t P,
                               T* HWY_RESTRICT scratch, T* HWY_RESTRICT carries,
                               T* HWY_RESTRICT to) {
  const size_t N = hn::Lanes(d);
  constexpr size_t L = 64 / sizeof(T);
  for (size_t j = 0; j < tile_rows; ++j) {
    T* row = to + a.Row(r0 + j);
    T* buf = scratch + j * P;
    T* carry = carries + j * L;
    if (c0 != 0) {
      for (size_t q = 0; q < L; q += N) {
        hn::Store(hn::Load(d, carry + q), d, buf + q);
      }
    }
    // Buffer column L + x holds destination column c0 + x.
    const size_t h = ElementsToAlignment(row, 64, L);
    size_t c = c0 + h - (h == 0 ? 0 : L);  // The first line's start.
    if (c0 == 0 && h != 0) {
      for (size_t x = 0; x < h; ++x) row[x] = buf[L + x];
      c = h;
    }
    for (; c + L <= c0 + tile_cols; c += L) {
      for (size_t q = 0; q < L; q += N) {
        StoreVec<kStream>(hn::LoadU(d, buf + L + c + q - c0), d, row + c + q);
      }
    }
    for (size_t q = 0; q < L; q += N) {
      hn::Store(hn::Load(d, buf + tile_cols + q), d, carry + q);
    }
    if (c0 + tile_cols == full_cols) {
      // Columns after the last whole line: from the carry.
      for (; c < full_cols; ++c) row[c] = carry[c + L - full_cols];
    }
  }
}

template <bool kStream, class D, class A, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeBuffered(D d, const T* HWY_RESTRICT from, const A& a,
                                  size_t rows, size_t cols, T* HWY_RESTRICT to,
                                  size_t tile_rows, size_t tile_cols,
                                  T* HWY_RESTRICT scratch) {
  constexpr size_t L = 64 / sizeof(T);  // Elements per cache line.
  const size_t P = L + tile_cols;       // Buffer pitch: carry + new columns.
  const size_t full_cols = cols - cols % tile_cols;
  const size_t done_rows = rows - rows % tile_rows;
  // After the buffer, one carry line per destination row of a group of
  // bands: as many bands as fit (at least one, kMacroScratchBytes).
  T* const carries = scratch + tile_rows * P;
  const size_t carry_rows =
      kTransposeScratchBytes / sizeof(T) / L - tile_rows * P / L;
  const size_t group_rows = carry_rows / tile_rows * tile_rows;
  for (size_t g0 = 0; g0 < done_rows; g0 += group_rows) {
    const size_t g1 = HWY_MIN(done_rows, g0 + group_rows);
    for (size_t c0 = 0; c0 < full_cols; c0 += tile_cols) {
      for (size_t r0 = g0; r0 < g1; r0 += tile_rows) {
        FillMacroTile(d, from + static_cast<int64_t>(r0), a, c0, cols,
                      tile_rows, tile_cols, P, scratch);
        DrainMacroTile<kStream>(d, a, r0, c0, tile_rows, tile_cols, full_cols,
                                P, scratch, carries + (r0 - g0) * L, to);
      }
    }
  }
}

// TransposeBuffered with or without non-temporal stores.
template <class D, class A, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeBufferedWith(bool stream, D d,
                                      const T* HWY_RESTRICT from, const A& a,
                                      size_t rows, size_t cols,
                                      T* HWY_RESTRICT to, size_t tile_rows,
                                      size_t tile_cols, void* scratch) {
  if (stream) {
    TransposeBuffered<true>(d, from, a, rows, cols, to, tile_rows, tile_cols,
                            static_cast<T*>(scratch));
  } else {
    TransposeBuffered<false>(d, from, a, rows, cols, to, tile_rows, tile_cols,
                             static_cast<T*>(scratch));
  }
}

// The strips TransposeBuffered leaves of a rows x cols block: the right one
// (columns [right, cols) of the first done_rows rows), then the bottom one
// (rows [bottom, rows), every column), each widened back over done elements
// to at least n so that it takes register tiles (TransposeRegisterTiles).
struct BufferStrips {
  size_t done_rows, right, bottom;
};

inline BufferStrips StripsAfterBuffer(size_t rows, size_t cols,
                                      size_t tile_rows, size_t tile_cols,
                                      size_t n) {
  const size_t done_rows = rows - rows % tile_rows;
  const size_t done_cols = cols - cols % tile_cols;
  return {done_rows, done_cols == cols ? cols : HWY_MIN(done_cols, cols - n),
          done_rows == rows ? rows : HWY_MIN(done_rows, rows - n)};
}

#endif  // STRIDEKIT_REGISTER_TRANSPOSE

// The tiled path of a transposed copy: bands of kTransposeBandRows rows, by
// register tiles where the target has them (streaming only when every
// destination row starts vector-aligned), else by aligned row segments.
// With `scratch` of kTransposeScratchBytes (64-byte aligned), a streamed copy
// on a register target goes through TransposeBuffered whatever the rows'
// alignment, and so does a cached one whose rows alias in the caches; only
// the strips it leaves take the paths above.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeBlock(D d, const T* HWY_RESTRICT from,
                               int64_t from_col, size_t rows, size_t cols,
                               T* HWY_RESTRICT to, int64_t to_row, bool stream,
                               void* scratch) {
#if STRIDEKIT_REGISTER_TRANSPOSE
  // Macro tiles as tall and wide as the block allows (short extents of
  // permutations of rank >= 3 give small blocks; MacroRows, MacroCols), at
  // least 2 x 2 lines.
  constexpr size_t L = 64 / sizeof(T);
  const size_t N = hn::Lanes(d);
  const size_t max_rows = stream ? kStreamMacroRows<T> : kMacroRows;
  const size_t max_cols = stream ? kStreamMacroCols<T> : kMacroCols;
  const size_t tile_rows = MacroRows(rows, max_rows);
  const size_t tile_cols = MacroCols(cols, max_cols, L);
  if (sizeof(T) >= 4 && (stream || RowsAlias<T>(d, from_col, to_row)) &&
      scratch != nullptr && CanTransposeInRegisters(d) && tile_rows >= 2 * L &&
      tile_cols >= 2 * L && reinterpret_cast<uintptr_t>(to) % sizeof(T) == 0) {
    if constexpr (sizeof(T) >= 4) {
      TransposeBufferedWith(stream, d, from, PitchAddressing{from_col, to_row},
                            rows, cols, to, tile_rows, tile_cols, scratch);
    }
    const auto [done_rows, right, bottom] =
        StripsAfterBuffer(rows, cols, tile_rows, tile_cols, N);
    TransposeBlock(d, from + static_cast<int64_t>(right) * from_col, from_col,
                   done_rows, cols - right, to + right, to_row, false, nullptr);
    TransposeBlock(d, from + bottom, from_col, rows - bottom, cols,
                   to + static_cast<int64_t>(bottom) * to_row, to_row, false,
                   nullptr);
    return;
  }
#else
  (void)scratch;
#endif
  const size_t vector_bytes = hn::Lanes(d) * sizeof(T);
  const bool rows_aligned =
      reinterpret_cast<uintptr_t>(to) % vector_bytes == 0 &&
      (static_cast<uint64_t>(to_row) * sizeof(T)) % vector_bytes == 0;
#if STRIDEKIT_REGISTER_TRANSPOSE
  const bool registers =
      CanTransposeInRegisters(d) && (!stream || rows_aligned);
#else
  const bool registers = false;
  (void)rows_aligned;
#endif
  for (size_t r0 = 0; r0 < rows; r0 += kTransposeBandRows<T>) {
    const size_t band =
        rows - r0 < kTransposeBandRows<T> ? rows - r0 : kTransposeBandRows<T>;
    const T* band_from = from + r0;
    T* band_to = to + static_cast<int64_t>(r0) * to_row;
    if (registers) {
#if STRIDEKIT_REGISTER_TRANSPOSE
      const PitchAddressing a{from_col, to_row};
      if (stream) {
        TransposeRegisterTiles<true>(d, band_from, a, band, cols, band_to);
      } else {
        TransposeRegisterTiles<false>(d, band_from, a, band, cols, band_to);
      }
#endif
    } else if (stream) {
      TransposeSegments<true>(d, band_from, from_col, band, cols, band_to,
                              to_row);
    } else {
      TransposeSegments<false>(d, band_from, from_col, band, cols, band_to,
                               to_row);
    }
  }
}

template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeBlock(D d, const T* HWY_RESTRICT from,
                               int64_t from_col, size_t rows, size_t cols,
                               T* HWY_RESTRICT to, int64_t to_row,
                               bool stream) {
  TransposeBlock(d, from, from_col, rows, cols, to, to_row, stream, nullptr);
}

// TransposeBlock compiled once per target and type for callers that reach
// it from several places (every such inlined copy costs compile time).
template <class D, typename T = hn::TFromD<D>>
HWY_NOINLINE void TransposeBlockOutOfLine(D d, const T* HWY_RESTRICT from,
                                          int64_t from_col, size_t rows,
                                          size_t cols, T* HWY_RESTRICT to,
                                          int64_t to_row, bool stream,
                                          void* scratch) {
  TransposeBlock(d, from, from_col, rows, cols, to, to_row, stream, scratch);
}

// A block whose rows and columns each fuse several axes
// (IterationPlan::FuseTiles): to[a.Row(r) + c] = from[r + a.Col(c)] for
// r < rows, c < cols. The tables are linear within runs of `run_rows` rows
// (destination pitch to_row) and `run_cols` columns (source pitch from_col),
// the extents of the plan's tile and inner axes, which divide rows and cols.
// Register targets tile the whole block, through the macro-tile buffer
// (`scratch` as in TransposeBlock) when streamed or when rows alias; other
// targets and element sizes run TransposeBlock on each run x run block.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeFusedBlock(D d, const T* HWY_RESTRICT from,
                                    size_t rows, size_t cols,
                                    T* HWY_RESTRICT to,
                                    const TableAddressing& a, size_t run_rows,
                                    int64_t to_row, size_t run_cols,
                                    int64_t from_col, bool stream,
                                    void* scratch) {
#if STRIDEKIT_REGISTER_TRANSPOSE
  if constexpr (sizeof(T) >= 4) {
    if (CanTransposeInRegisters(d)) {
      constexpr size_t L = 64 / sizeof(T);
      const size_t N = hn::Lanes(d);
      const size_t max_rows = stream ? kStreamMacroRows<T> : kMacroRows;
      const size_t max_cols = stream ? kStreamMacroCols<T> : kMacroCols;
      const size_t tile_rows = MacroRows(rows, max_rows);
      const size_t tile_cols = MacroCols(cols, max_cols, L);
      // What register tiles do: the whole block, or the strips the buffer
      // leaves (as in TransposeBlock: the right one beside the buffered
      // rows, then the bottom one, each widened back over done elements to
      // at least N).
      struct Region {
        size_t row, col, rows, cols;
      } regions[2] = {{0, 0, rows, cols}, {}};
      size_t num_regions = 1;
      if ((stream || RowsAlias<T>(d, from_col, to_row)) && scratch != nullptr &&
          tile_rows >= 2 * L && tile_cols >= 2 * L &&
          reinterpret_cast<uintptr_t>(to) % sizeof(T) == 0) {
        TransposeBufferedWith(stream, d, from, a, rows, cols, to, tile_rows,
                              tile_cols, scratch);
        const auto [done_rows, right, bottom] =
            StripsAfterBuffer(rows, cols, tile_rows, tile_cols, N);
        regions[0] = {0, right, done_rows, cols - right};
        regions[1] = {bottom, 0, rows - bottom, cols};
        num_regions = 2;
      }
      for (size_t i = 0; i < num_regions; ++i) {
        const Region& g = regions[i];
        TransposeRegisterTiles<false>(d, from + static_cast<int64_t>(g.row),
                                      a.From(g.row, g.col), g.rows, g.cols,
                                      to + static_cast<int64_t>(g.col));
      }
      return;
    }
  }
#endif
  for (size_t r = 0; r < rows; r += run_rows) {
    for (size_t c = 0; c < cols; c += run_cols) {
      TransposeBlockOutOfLine(d, from + static_cast<int64_t>(r) + a.Col(c),
                              from_col, run_rows, run_cols,
                              to + a.Row(r) + static_cast<int64_t>(c), to_row,
                              stream, scratch);
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_COPY_INL_H_
