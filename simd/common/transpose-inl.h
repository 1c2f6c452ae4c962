// In-register transposes of square lane matrices, 128-bit block by block,
// for targets whose vectors can live in arrays (STRIDEKIT_REGISTER_TRANSPOSE).
// Pure data movement: the same bits on every target.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_TRANSPOSE_INL_H_
#undef STRIDEKIT_SIMD_TRANSPOSE_INL_H_
#else
#define STRIDEKIT_SIMD_TRANSPOSE_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Targets whose vectors can live in arrays and hold whole 128-bit blocks
// get the in-register transposes; scalable vectors (SVE, RVV) are
// sizeless and vectors narrower than a block (SCALAR) have no blocks, so
// callers take another path there.
#undef STRIDEKIT_REGISTER_TRANSPOSE
#if HWY_HAVE_SCALABLE || HWY_MAX_BYTES < 16
#define STRIDEKIT_REGISTER_TRANSPOSE 0
#else
#define STRIDEKIT_REGISTER_TRANSPOSE 1
#endif

#if STRIDEKIT_REGISTER_TRANSPOSE

// Lanes of T per 128-bit block.
template <typename T>
inline constexpr size_t kBlockLanes = 16 / sizeof(T);

// True when TransposeSquare handles d: 32- or 64-bit lanes, whole blocks,
// and 1, 2 or 4 blocks per vector.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE bool CanTransposeInRegisters(D d) {
  if constexpr (sizeof(T) < 4) {
    return false;
  } else {
    const size_t blocks = hn::Lanes(d) / kBlockLanes<T>;
    return hn::Lanes(d) % kBlockLanes<T> == 0 &&
           (blocks == 1 || blocks == 2 || blocks == 4);
  }
}

// Transposes the N x N lane matrix v[0..N) in place (N = Lanes(d)):
// afterwards v[j][k] holds what v[k][j] held. Requires
// CanTransposeInRegisters(d).
template <class D, class V, typename T = hn::TFromD<D>>
HWY_INLINE void TransposeSquare(D d, V* v) {
  if constexpr (sizeof(T) >= 4) {
    constexpr size_t B = kBlockLanes<T>;
    const size_t N = hn::Lanes(d);
    // Within each 128-bit block position: B x B transposes per row group.
    for (size_t g = 0; g < N; g += B) {
      if constexpr (sizeof(T) == 4) {
        const hn::Repartition<uint64_t, D> d64;
        const auto t0 =
            hn::BitCast(d64, hn::InterleaveLower(d, v[g], v[g + 1]));
        const auto t1 =
            hn::BitCast(d64, hn::InterleaveUpper(d, v[g], v[g + 1]));
        const auto t2 =
            hn::BitCast(d64, hn::InterleaveLower(d, v[g + 2], v[g + 3]));
        const auto t3 =
            hn::BitCast(d64, hn::InterleaveUpper(d, v[g + 2], v[g + 3]));
        v[g] = hn::BitCast(d, hn::InterleaveLower(d64, t0, t2));
        v[g + 1] = hn::BitCast(d, hn::InterleaveUpper(d64, t0, t2));
        v[g + 2] = hn::BitCast(d, hn::InterleaveLower(d64, t1, t3));
        v[g + 3] = hn::BitCast(d, hn::InterleaveUpper(d64, t1, t3));
      } else {
        const V lo = hn::InterleaveLower(d, v[g], v[g + 1]);
        v[g + 1] = hn::InterleaveUpper(d, v[g], v[g + 1]);
        v[g] = lo;
      }
    }
    const size_t blocks = N / B;
    if (blocks == 4) {
      // Swap the off-diagonal blocks of each 2 x 2 group of adjacent blocks.
      for (size_t i = 0; i < N; ++i) {
        if ((i / B) % 2 != 0) continue;
        const V a = v[i], b = v[i + B];
        v[i] = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a);
        v[i + B] = hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a));
      }
    }
    if (blocks >= 2) {
      // Swap the off-diagonal halves.
      const size_t half = N / 2;
      for (size_t i = 0; i < half; ++i) {
        const V a = v[i], b = v[i + half];
        v[i] = hn::ConcatLowerLower(d, b, a);
        v[i + half] = hn::ConcatUpperUpper(d, b, a);
      }
    }
  }
}

#endif  // STRIDEKIT_REGISTER_TRANSPOSE

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_TRANSPOSE_INL_H_
