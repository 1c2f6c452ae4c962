// Per-target inner kernels of the copy family: one row of `count` elements
// from a strided source to a strided destination, and one 2-D tile of a
// transposed source. Element types are the unsigned integers of the element
// size (data movement is bit-exact, so the value type does not matter).
// `from` and `to` must not overlap (the caller copies through a temporary).

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_COPY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_COPY_INL_H_
#undef STRIDEKIT_SIMD_COPY_INL_H_
#else
#define STRIDEKIT_SIMD_COPY_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/cache_control.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Rows at least this many bytes long are written with non-temporal stores:
// such a destination will not be re-read from cache soon.
inline constexpr size_t kStreamBytes = size_t{1} << 20;

// to[i] = from[i] for i < count.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyContiguous(D d, const T* HWY_RESTRICT from, size_t count,
                               T* HWY_RESTRICT to, bool stream) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (stream && count >= 4 * N) {
    // Scalar head until `to` is vector-aligned, then aligned streams.
    const size_t misalign = (reinterpret_cast<uintptr_t>(to) / sizeof(T)) % N;
    for (; misalign && i < N - misalign; ++i) to[i] = from[i];
    for (; i + N <= count; i += N)
      hn::Stream(hn::LoadU(d, from + i), d, to + i);
  } else {
    for (; i + 4 * N <= count; i += 4 * N) {
      const auto v0 = hn::LoadU(d, from + i);
      const auto v1 = hn::LoadU(d, from + i + N);
      const auto v2 = hn::LoadU(d, from + i + 2 * N);
      const auto v3 = hn::LoadU(d, from + i + 3 * N);
      hn::StoreU(v0, d, to + i);
      hn::StoreU(v1, d, to + i + N);
      hn::StoreU(v2, d, to + i + 2 * N);
      hn::StoreU(v3, d, to + i + 3 * N);
    }
    for (; i + N <= count; i += N)
      hn::StoreU(hn::LoadU(d, from + i), d, to + i);
  }
  for (; i < count; ++i) to[i] = from[i];
}

// to[i] = from[-i] for i < count. Highway 1.0.3 has no 8-bit Reverse on
// x86, so single bytes move one at a time.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyReversed(D d, const T* HWY_RESTRICT from, size_t count,
                             T* HWY_RESTRICT to) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if constexpr (sizeof(T) > 1) {
    for (; i + N <= count; i += N) {
      const T* block = from - static_cast<ptrdiff_t>(i + N - 1);
      hn::StoreU(hn::Reverse(d, hn::LoadU(d, block)), d, to + i);
    }
  }
  for (; i < count; ++i) to[i] = *(from - static_cast<ptrdiff_t>(i));
}

// to[i] = value for i < count.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void FillContiguous(D d, T value, size_t count, T* HWY_RESTRICT to,
                               bool stream) {
  const size_t N = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  if (stream && count >= 4 * N) {
    const size_t misalign = (reinterpret_cast<uintptr_t>(to) / sizeof(T)) % N;
    for (; misalign && i < N - misalign; ++i) to[i] = value;
    for (; i + N <= count; i += N) hn::Stream(v, d, to + i);
  } else {
    for (; i + N <= count; i += N) hn::StoreU(v, d, to + i);
  }
  for (; i < count; ++i) to[i] = value;
}

// to[i] = from[i * stride] for a small positive stride in {2, 3, 4}:
// contiguous loads and de-interleaving shuffles instead of gathers.
template <int kStride, class D, typename T = hn::TFromD<D>>
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
    hn::StoreU(v0, d, to + i);
  }
  for (; i < count; ++i) to[i] = from[i * kStride];
}

// to[i] = from[i * stride] through gathers (32- and 64-bit lanes).
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void CopyGathered(D d, const T* HWY_RESTRICT from, int64_t stride,
                             size_t count, T* HWY_RESTRICT to) {
  using TI = hwy::MakeSigned<T>;
  const hn::RebindToSigned<D> di;
  const size_t N = hn::Lanes(d);
  const auto index =
      hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<TI>(stride)));
  size_t i = 0;
  for (; i + N <= count; i += N) {
    const T* base = from + static_cast<int64_t>(i) * stride;
    hn::StoreU(hn::GatherIndex(d, base, index), d, to + i);
  }
  for (; i < count; ++i) to[i] = from[static_cast<int64_t>(i) * stride];
}

// to[i * to_stride] = from[i * from_stride] for i < count: the row kernel,
// choosing the inner loop from the two strides.
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
  switch (from_stride) {
    case 1:
      return CopyContiguous(d, from, count, to, stream);
    case -1:
      return CopyReversed(d, from, count, to);
    case 0:
      return FillContiguous(d, *from, count, to, stream);
    case 2:
      return CopyInterleaved<2>(d, from, count, to);
    case 3:
      return CopyInterleaved<3>(d, from, count, to);
    case 4:
      return CopyInterleaved<4>(d, from, count, to);
    default:
      break;
  }
  constexpr bool kHasGather = sizeof(T) >= 4;
  const int64_t max_index = from_stride * static_cast<int64_t>(hn::Lanes(d));
  if constexpr (kHasGather) {
    if (sizeof(T) == 8 || (max_index < INT32_MAX && max_index > -INT32_MAX)) {
      return CopyGathered(d, from, from_stride, count, to);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    to[i] = from[static_cast<int64_t>(i) * from_stride];
  }
}

// The tile edge of the blocked transpose, in elements: a tile of
// kTile x kTile stays in L1 for every element size.
template <typename T>
inline constexpr size_t kTileEdge = sizeof(T) >= 4 ? 16 : 32;

// 2-D transpose of a tile grid: to[r * to_row + c] = from[r + c * from_col]
// for r < rows, c < cols (the source is contiguous along r, the destination
// along c). Walks kTileEdge squares so both sides touch whole cache lines.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeBlock(D d, const T* HWY_RESTRICT from,
                               int64_t from_col, size_t rows, size_t cols,
                               T* HWY_RESTRICT to, int64_t to_row) {
  constexpr size_t kEdge = kTileEdge<T>;
  for (size_t r0 = 0; r0 < rows; r0 += kEdge) {
    const size_t r_end = r0 + kEdge < rows ? r0 + kEdge : rows;
    for (size_t c0 = 0; c0 < cols; c0 += kEdge) {
      const size_t c_end = c0 + kEdge < cols ? c0 + kEdge : cols;
      if (c0 + 2 * kEdge <= cols) {
        // Pull the next tile's source lines towards L1.
        for (size_t c = c0 + kEdge; c < c0 + 2 * kEdge; ++c) {
          hwy::Prefetch(from + r0 + static_cast<int64_t>(c) * from_col);
        }
      }
      for (size_t r = r0; r < r_end; ++r) {
        CopyRow(d, from + r + static_cast<int64_t>(c0) * from_col, from_col,
                to + static_cast<int64_t>(r) * to_row + c0, 1, c_end - c0,
                false);
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_COPY_INL_H_
