// Per-target contraction kernel (simd/contraction/contraction_task.h): a
// packed, cache-blocked matrix product vectorised along n, and interleaved dot
// products when n is 1. Each product joins its sum by the multiply-add rule
// (simd/common/multiply_add-inl.h: rounded once, std::fma's bits on every
// target), in the fixed order of contraction_task.h, so every target gives the
// same bits.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "scalar_ops.h"
#include "simd/contraction/contraction_task.h"
#include "simd/dispatch_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/contraction/contraction.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/common/multiply_add-inl.h"
#include "simd/common/numeric-inl.h"
#include "simd/common/transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

// Rows of the register tile; its columns are two vectors. With 32 vector
// registers (AVX-512), twelve rows (24 accumulators) halve the loads of the
// packed B panel per multiply-add; elsewhere six (12 of 16 registers). The
// tile's shape changes no bits: every element still sums its k in order.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
constexpr int64_t kMr = 12;
#define STRIDEKIT_TILE_ROWS(M) \
  M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
#else
constexpr int64_t kMr = 6;
#define STRIDEKIT_TILE_ROWS(M) M(0) M(1) M(2) M(3) M(4) M(5)
#endif

// True when offsets[i] == offsets[0] + i for every i < count.
bool IsUnit(const int64_t* offsets, int64_t count) {
  for (int64_t i = 1; i < count; ++i) {
    if (offsets[i] != offsets[0] + i) return false;
  }
  return true;
}

// Carves the caller's scratch (GemmTask::scratch) into cache-line aligned
// arrays; with a null base it only counts the bytes (GemmScratchBytes).
class ScratchCarver {
 public:
  explicit ScratchCarver(void* base) : base_(static_cast<char*>(base)) {}
  template <typename T>
  T* Take(int64_t count) {
    T* p = base_ ? reinterpret_cast<T*>(base_ + used_) : nullptr;
    used_ += (count * int64_t(sizeof(T)) + 63) / 64 * 64;
    return p;
  }
  int64_t used() const { return used_; }

 private:
  char* base_;
  int64_t used_ = 0;
};

// Cache blocking: a packed B micro-panel (kc x nr) of at most 16 KiB stays
// in L1, a packed A block of at most mc x kc (about 128 KiB) in L2, B
// packed for the whole of k per n panel in about 4 MiB (kPackedBBytes) of
// L3. kc divides kSumBlock (both powers of two), so
// packed chunks never straddle summation blocks.
struct Blocking {
  int64_t nr, kc, mc;
};

template <typename T>
Blocking BlockingFor(int64_t lanes) {
  static_assert((kSumBlock & (kSumBlock - 1)) == 0 && kSumBlock >= 16);
  Blocking b;
  b.nr = 2 * lanes;
  b.kc = kSumBlock;
  while (b.kc > 16 && b.kc * b.nr * int64_t(sizeof(T)) > (16 << 10)) {
    b.kc /= 2;
  }
  b.mc = std::max<int64_t>(
      kMr, (128 << 10) / (b.kc * int64_t(sizeof(T))) / kMr * kMr);
  return b;
}

// to[k * width + r] = rows[r][k] for r < width, k < kc: rows contiguous
// along k, transposed in 128-bit blocks (TransposeSquare), a last pair of
// rows (width % 4 == 2, 32-bit lanes) interleaved; the k tail one by one.
// width is kMr (A's micro-panels) or nr (B's, when B is contiguous along k).
template <typename T>
void PackTransposed(const T* const* rows, int64_t width, int64_t kc,
                    T* HWY_RESTRICT to) {
  int64_t k = 0;
#if STRIDEKIT_REGISTER_TRANSPOSE
  const hn::Full128<T> d;
  constexpr int64_t B = kBlockLanes<T>;
  if (width % B == 0 || (B == 4 && width % B == 2)) {
    for (; k + B <= kc; k += B) {
      int64_t r = 0;
      for (; r + B <= width; r += B) {
        hn::Vec<decltype(d)> v[B];
        for (int64_t i = 0; i < B; ++i) v[i] = hn::LoadU(d, rows[r + i] + k);
        TransposeSquare(d, v);
        for (int64_t i = 0; i < B; ++i) {
          hn::StoreU(v[i], d, to + (k + i) * width + r);
        }
      }
      if (r < width) {
        const hn::Half<decltype(d)> dh;
        const auto x = hn::LoadU(d, rows[r] + k);
        const auto y = hn::LoadU(d, rows[r + 1] + k);
        const auto lo = hn::InterleaveLower(d, x, y);
        const auto hi = hn::InterleaveUpper(d, x, y);
        hn::StoreU(hn::LowerHalf(dh, lo), dh, to + k * width + r);
        hn::StoreU(hn::UpperHalf(dh, lo), dh, to + (k + 1) * width + r);
        hn::StoreU(hn::LowerHalf(dh, hi), dh, to + (k + 2) * width + r);
        hn::StoreU(hn::UpperHalf(dh, hi), dh, to + (k + 3) * width + r);
      }
    }
  }
#endif
  for (; k < kc; ++k) {
    for (int64_t r = 0; r < width; ++r) to[k * width + r] = rows[r][k];
  }
}

// Packs B[k0 + k, j0 + j] (k < kc, j < nc) as micro-panels of nr columns
// (two vectors), each k-major; columns past n_size are zero.
template <class D, typename T = hn::TFromD<D>>
void PackB(D d, const GemmTask& t, bool b_n_unit, int64_t k0, int64_t kc,
           int64_t j0, int64_t nc, int64_t nr, T* to) {
  const T* b = static_cast<const T*>(t.b);
  const size_t nl = hn::Lanes(d);
  int64_t p = 0;
  if (b_n_unit) {
    // The whole micro-panels, B's rows read in order (two vectors each).
    const int64_t whole = nc / nr * nr;
    for (int64_t k = 0; k < kc; ++k) {
      const T* row = b + t.BK(k0 + k) + t.b_n[j0];
      T* out = to + k * nr;
      for (int64_t q = 0; q < whole; q += nr, out += kc * nr) {
        hn::StoreU(hn::LoadU(d, row + q), d, out);
        hn::StoreU(hn::LoadU(d, row + q + nl), d, out + nl);
      }
    }
    p = whole;
    to += whole * kc;
  }
  // B contiguous along k (a transposed operand): whole micro-panels are
  // transposes of nr rows.
  const bool b_k_unit = t.b_k == nullptr && t.b_k_step == 1;
  for (; b_k_unit && !b_n_unit && p + nr <= nc; p += nr, to += kc * nr) {
    const T* rows[2 * HWY_MAX_BYTES / sizeof(T)];
    for (int64_t j = 0; j < nr; ++j) rows[j] = b + t.b_n[j0 + p + j] + k0;
    PackTransposed(rows, nr, kc, to);
  }
  for (; p < nc; p += nr) {
    const int64_t width = std::min(nr, nc - p);
    for (int64_t k = 0; k < kc; ++k, to += nr) {
      const T* row = b + t.BK(k0 + k);
      if (b_n_unit) {
        std::memcpy(to, row + t.b_n[j0 + p], size_t(width) * sizeof(T));
      } else {
        for (int64_t j = 0; j < width; ++j) to[j] = row[t.b_n[j0 + p + j]];
      }
      std::fill(to + width, to + nr, T(0));
    }
  }
}

// Packs A[i0 + i, k0 + k] (i < mc, k < kc) as micro-panels of kMr rows,
// each k-major; rows past m_size are zero.
template <typename T>
void PackA(const GemmTask& t, int64_t i0, int64_t mc, int64_t k0, int64_t kc,
           T* to) {
  const T* a = static_cast<const T*>(t.a);
  for (int64_t q = 0; q < mc; q += kMr, to += kc * kMr) {
    if (t.a_k == nullptr && t.a_k_step == 1 && mc - q >= kMr) {
      const T* rows[kMr];
      for (int64_t r = 0; r < kMr; ++r) rows[r] = a + t.a_m[i0 + q + r] + k0;
      PackTransposed(rows, kMr, kc, to);
      continue;
    }
    if (mc - q >= kMr && IsUnit(t.a_m + i0 + q, kMr)) {
      // A contiguous along m (a transposed operand): kMr elements per k.
      const T* column = a + t.a_m[i0 + q];
      for (int64_t k = 0; k < kc; ++k) {
        std::memcpy(to + k * kMr, column + t.AK(k0 + k), kMr * sizeof(T));
      }
      continue;
    }
    for (int64_t r = 0; r < kMr; ++r) {
      if (q + r >= mc) {
        for (int64_t k = 0; k < kc; ++k) to[k * kMr + r] = T(0);
        continue;
      }
      const T* row = a + t.a_m[i0 + q + r];
      if (t.a_k == nullptr) {
        const T* from = row + k0 * t.a_k_step;
        for (int64_t k = 0; k < kc; ++k) to[k * kMr + r] = from[k * t.a_k_step];
      } else {
        for (int64_t k = 0; k < kc; ++k) to[k * kMr + r] = row[t.a_k[k0 + k]];
      }
    }
  }
}

// How a tile starts: from C's values, from zero, or from zero with C's
// values added once at the end (C + the tile's sum, one rounding).
enum class Start { kLoad, kZero, kAddAtEnd };

#define STRIDEKIT_TILE_ROW(r)            \
  {                                      \
    const auto x = hn::Set(d, ap[r]);    \
    c##r##0 = MulAdd(d, x, b0, c##r##0); \
    c##r##1 = MulAdd(d, x, b1, c##r##1); \
  }
// A step of the k loop: B's two vectors, then every row.
#define STRIDEKIT_TILE_STEP                 \
  {                                         \
    const auto b0 = hn::LoadU(d, bp);       \
    const auto b1 = hn::LoadU(d, bp + nl);  \
    STRIDEKIT_TILE_ROWS(STRIDEKIT_TILE_ROW) \
  }
#define STRIDEKIT_TILE_LOAD(r)            \
  auto c##r##0 = hn::Zero(d);             \
  auto c##r##1 = hn::Zero(d);             \
  if (start == Start::kLoad) {            \
    c##r##0 = hn::LoadU(d, rows[r]);      \
    c##r##1 = hn::LoadU(d, rows[r] + nl); \
  }
#define STRIDEKIT_TILE_STORE(r)                             \
  if (start == Start::kAddAtEnd) {                          \
    c##r##0 = hn::Add(hn::LoadU(d, rows[r]), c##r##0);      \
    c##r##1 = hn::Add(hn::LoadU(d, rows[r] + nl), c##r##1); \
  }                                                         \
  hn::StoreU(c##r##0, d, rows[r]);                          \
  hn::StoreU(c##r##1, d, rows[r] + nl);

// rows[r][j] += ap[k * kMr + r] * bp[k * 2 nl + j] for k < kc in order
// (one multiply-add each),
// for the whole kMr x 2 nl tile, starting as `start` says.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void Tile(D d, int64_t kc, const T* HWY_RESTRICT ap,
                     const T* HWY_RESTRICT bp, T* const* rows, Start start) {
  const size_t nl = hn::Lanes(d);
  STRIDEKIT_TILE_ROWS(STRIDEKIT_TILE_LOAD)
  // Unrolled by four (fewer pointer steps and branches per multiply-add);
  // each sum still takes k in order.
  HWY_UNROLL(4)
  for (int64_t k = 0; k < kc; ++k, ap += kMr, bp += 2 * nl) {
    STRIDEKIT_TILE_STEP
  }
  STRIDEKIT_TILE_ROWS(STRIDEKIT_TILE_STORE)
}

#undef STRIDEKIT_TILE_ROWS
#undef STRIDEKIT_TILE_ROW
#undef STRIDEKIT_TILE_STEP
#undef STRIDEKIT_TILE_LOAD
#undef STRIDEKIT_TILE_STORE

// k blocks shorter than this run their tiles row by row (see GemmOne).
constexpr int64_t kShortK = 32;

// The tile of height x width (at most kMr x nr) whose row r starts at
// c + c_m[r]; partial tiles go through `scratch`.
template <class D, typename T = hn::TFromD<D>>
HWY_INLINE void RunTile(D d, const Blocking& blk, int64_t kc, const T* ap,
                        const T* bp, int64_t height, int64_t width, T* c,
                        const int64_t* c_m, Start start, T* scratch) {
  T* rows[kMr];
  for (int64_t r = 0; r < kMr; ++r) {
    rows[r] = c + c_m[std::min(r, height - 1)];
  }
  if (height == kMr && width == blk.nr) {
    Tile(d, kc, ap, bp, rows, start);
    return;
  }
  T* scratch_rows[kMr];
  for (int64_t r = 0; r < kMr; ++r) {
    scratch_rows[r] = scratch + r * blk.nr;
    std::fill_n(scratch_rows[r], blk.nr, T(0));
    if (r < height && start == Start::kLoad) {
      std::copy_n(rows[r], width, scratch_rows[r]);
    }
  }
  Tile(d, kc, ap, bp, scratch_rows, Start::kLoad);
  for (int64_t r = 0; r < height; ++r) {
    for (int64_t j = 0; j < width; ++j) {
      rows[r][j] = start == Start::kAddAtEnd
                       ? scalar_ops::Add(rows[r][j], scratch_rows[r][j])
                       : scratch_rows[r][j];
    }
  }
}

// k blocks per leaf of Gemm's PairwiseTree (see GemmOne).
size_t LeafBlocks(const Blocking& blk) { return blk.kc == kSumBlock ? 2 : 1; }

// Where Gemm keeps the pending sums of k blocks (PairwiseTree slots 1 ..
// levels; slot 0 is C): per column group, panels of mc x nr, row i at
// rows[i] = i * nr (small enough to stay in L1 beside the tile).
template <typename T>
struct PendingSums {
  T* base;
  int64_t panel;  // elements per slot
  const int64_t* rows;
};

// lo[i][j] += hi[i][j] for i < m, j < n (rows at lo + lo_m[i], hi + hi_m[i]).
template <class D, typename T = hn::TFromD<D>>
void AddPanel(D d, int64_t m, int64_t n, T* lo, const int64_t* lo_m,
              const T* hi, const int64_t* hi_m) {
  const int64_t nl = int64_t(hn::Lanes(d));
  for (int64_t i = 0; i < m; ++i) {
    T* to = lo + lo_m[i];
    const T* from = hi + hi_m[i];
    int64_t j = 0;
    for (; j + nl <= n; j += nl) {
      hn::StoreU(hn::Add(hn::LoadU(d, to + j), hn::LoadU(d, from + j)), d,
                 to + j);
    }
    for (; j < n; ++j) to[j] = scalar_ops::Add(to[j], from[j]);
  }
}

// One product of the batch (t's pointers at its position) with the packing
// buffers of Gemm(), in n panels of `panel_nc` columns and m blocks of
// `block_mc` rows: per panel, B is packed for the whole of k once; per m
// block, A too. Each k block (kSumBlock) is summed into C or a pending slot,
// blocks combined pairwise. When one tree leaf takes every block, the whole
// panel's tiles run k chunk by k chunk; otherwise one column micro-panel at
// a time runs every k block, so that its pending sums stay in L1 rather
// than panels of C's size streaming through L3 (the order of the sums, and
// so the bits, are the same). When a block is one packed k chunk (blk.kc
// == kSumBlock), the tree's leaves take two blocks, the second's tiles
// adding the first's sum at their end (the same tree and bits, half the
// pending traffic).
template <class D, typename T = hn::TFromD<D>>
void GemmOne(D d, const Blocking& blk, int64_t block_mc, int64_t panel_nc,
             const GemmTask& t, bool b_n_unit, T* a_pack, T* b_pack, T* scratch,
             const PendingSums<T>& pending) {
  T* c = static_cast<T*>(t.c);
  const size_t blocks = size_t((t.k_size + kSumBlock - 1) / kSumBlock);
  const bool one_leaf = blocks <= LeafBlocks(blk);
  for (int64_t j0 = 0; j0 < t.n_size; j0 += panel_nc) {
    const int64_t nc = std::min(panel_nc, t.n_size - j0);
    const int64_t nc_packed = (nc + blk.nr - 1) / blk.nr * blk.nr;
    // B[k0 .. k0 + kc) of the panel at b_pack + k0 * nc_packed.
    for (int64_t k0 = 0; k0 < t.k_size; k0 += blk.kc) {
      PackB(d, t, b_n_unit, k0, std::min(blk.kc, t.k_size - k0), j0, nc, blk.nr,
            b_pack + k0 * nc_packed);
    }
    for (int64_t i0 = 0; i0 < t.m_size; i0 += block_mc) {
      const int64_t mc = std::min(block_mc, t.m_size - i0);
      const int64_t mc_packed = (mc + kMr - 1) / kMr * kMr;
      // A[i0 .. i0 + mc, k0 .. k0 + kc) at a_pack + k0 * mc_packed, its
      // micro-panel of rows q .. q + kMr at q * kc further. Packed panel by
      // panel along all of k: A's rows are read as kMr sequential streams.
      for (int64_t q = 0; q < mc; q += kMr) {
        for (int64_t k0 = 0; k0 < t.k_size; k0 += blk.kc) {
          const int64_t kc = std::min(blk.kc, t.k_size - k0);
          PackA(t, i0 + q, std::min(kMr, mc - q), k0, kc,
                a_pack + k0 * mc_packed + q * kc);
        }
      }
      const int64_t group = one_leaf ? nc : blk.nr;
      for (int64_t jb = 0; jb < nc; jb += group) {
        const int64_t width = std::min(group, nc - jb);
        // Slot `slot`'s panel of this column group (row i at to + to_m[i]).
        auto slot_at = [&](size_t slot, T*& to, const int64_t*& to_m) {
          to = slot == 0 ? c + j0 + jb
                         : pending.base + int64_t(slot - 1) * pending.panel;
          to_m = slot == 0 ? t.c_m + i0 : pending.rows;
        };
        // k blocks [first, first + count) summed into slot `slot`: the
        // first from zero (k in order), a second one (fused leaves) added at
        // its end.
        auto fold = [&](size_t first, size_t count, size_t slot) {
          T* to;
          const int64_t* to_m;
          slot_at(slot, to, to_m);
          const int64_t k_first = int64_t(first) * kSumBlock;
          const int64_t k_end =
              std::min(t.k_size, int64_t(first + count) * kSumBlock);
          for (int64_t k0 = k_first; k0 < k_end; k0 += blk.kc) {
            const int64_t kc = std::min(blk.kc, k_end - k0);
            const Start start = k0 == k_first                ? Start::kZero
                                : (k0 - k_first) % kSumBlock ? Start::kLoad
                                                             : Start::kAddAtEnd;
            const T* a_chunk = a_pack + k0 * mc_packed;
            const T* b_chunk = b_pack + k0 * nc_packed + jb * kc;
            // Tiles column panel by column panel (the B micro-panel stays
            // in L1 while A streams); for short k chunks, where C traffic
            // dominates, row by row instead (stores run along C's rows).
            const bool by_rows = kc < kShortK;
            const int64_t panels = (width + blk.nr - 1) / blk.nr;
            const int64_t strips = (mc + kMr - 1) / kMr;
            for (int64_t outer = 0; outer < (by_rows ? strips : panels);
                 ++outer) {
              for (int64_t inner = 0; inner < (by_rows ? panels : strips);
                   ++inner) {
                const int64_t jr = (by_rows ? inner : outer) * blk.nr;
                const int64_t ir = (by_rows ? outer : inner) * kMr;
                RunTile(d, blk, kc, a_chunk + ir * kc, b_chunk + jr * kc,
                        std::min(kMr, mc - ir), std::min(blk.nr, width - jr),
                        to + jr, to_m + ir, start, scratch);
              }
            }
          }
          return slot;
        };
        auto combine = [&](size_t lo, size_t hi, size_t) {
          T *lo_at, *hi_at;
          const int64_t *lo_m, *hi_m;
          slot_at(lo, lo_at, lo_m);
          slot_at(hi, hi_at, hi_m);
          AddPanel(d, mc, width, lo_at, lo_m, hi_at, hi_m);
          return lo;
        };
        PairwiseTree(0, blocks, LeafBlocks(blk), fold, combine);
      }
    }
  }
}

// Bytes of B packed for the whole of k per n panel, beyond which Gemm
// narrows its n panels (to nr at least).
constexpr int64_t kPackedBBytes = int64_t{4} << 20;
// Bytes of an m block of A packed for the whole of k, beyond which Gemm
// narrows its m blocks (to kMr rows at least): a quarter of the core's L2,
// 128 KiB at least. For large k the m blocks are short, so every packed B
// micro-panel serves few register tiles; a larger L2 (2 MiB against Zen
// 3's 512 KiB) keeps more rows per block (float64 2048^2 on AVX3: 1.7x).
// The L2's size comes from sysconf, read once (512 KiB where the system does
// not say). The blocking changes no bits: the summation order of
// contraction_task.h does not depend on it.
int64_t PackedABytes() {
  static const int64_t bytes = [] {
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return std::max<int64_t>(int64_t{128} << 10,
                             (l2 > 0 ? int64_t{l2} : int64_t{512} << 10) / 4);
  }();
  return bytes;
}

// The blocked product for n_size > 1: per batch position, loops over n
// panels (B packed for all of k), m blocks (A packed for all of k), column
// groups, k blocks, then register tiles (GemmOne); edge tiles go through a
// full-size scratch tile. The pending sums of k blocks take levels x mc x
// nr elements.
// With a null task.scratch, returns the scratch bytes it needs and does
// nothing else.
template <typename T>
int64_t Gemm(const GemmTask& task) {
  const hn::ScalableTag<T> d;
  const int64_t nl = int64_t(hn::Lanes(d));
  const Blocking blk = BlockingFor<T>(nl);
  // m blocks of A packed for the whole of k: blk.mc rows when one tree leaf
  // takes every k block (its chunks are used one after the other), else in
  // about kPackedABytes (L2).
  const int64_t leaf = int64_t(LeafBlocks(blk));
  const int64_t leaves =
      ((task.k_size + kSumBlock - 1) / kSumBlock + leaf - 1) / leaf;
  const int64_t block_mc =
      leaves <= 1
          ? blk.mc
          : std::clamp<int64_t>(
                PackedABytes() / (task.k_size * int64_t(sizeof(T))) / kMr * kMr,
                kMr, blk.mc);
  const int64_t mc_max =
      std::min(block_mc, (task.m_size + kMr - 1) / kMr * kMr);
  const int64_t fit = std::max<int64_t>(
      blk.nr,
      kPackedBBytes / (task.k_size * int64_t(sizeof(T))) / blk.nr * blk.nr);
  const int64_t nc_max =
      std::min(fit, (task.n_size + blk.nr - 1) / blk.nr * blk.nr);
  // The deepest PairwiseTree slot over the k blocks.
  int64_t levels = 0;
  while ((int64_t{1} << levels) < leaves) ++levels;
  ScratchCarver carver(task.scratch);
  T* a_pack = carver.Take<T>(mc_max * task.k_size);
  T* b_pack = carver.Take<T>(task.k_size * nc_max);
  T* scratch = carver.Take<T>(kMr * blk.nr);
  const int64_t panel = levels > 0 ? mc_max * blk.nr : 0;
  T* pending_base = carver.Take<T>(levels * panel);
  int64_t* pending_rows = carver.Take<int64_t>(levels > 0 ? mc_max : 0);
  if (task.scratch == nullptr) return carver.used();
  for (int64_t i = 0; levels > 0 && i < mc_max; ++i) {
    pending_rows[i] = i * blk.nr;
  }
  const PendingSums<T> pending{pending_base, panel, pending_rows};
  const bool b_n_unit = IsUnit(task.b_n, task.n_size);
  for (int64_t i = 0; i < task.batch; ++i) {
    GemmTask t = task;
    t.a = static_cast<const T*>(task.a) + task.a_batch[i];
    t.b = static_cast<const T*>(task.b) + task.b_batch[i];
    t.c = static_cast<T*>(task.c) + task.c_batch[i];
    GemmOne(d, blk, mc_max, nc_max, t, b_n_unit, a_pack, b_pack, scratch,
            pending);
  }
  return carver.used();
}

// Partial sums of the n_size == 1 path (simd/contraction/contraction_task.h).
template <typename T>
constexpr int64_t kPartials = kDotPartials<T>;
static_assert(kSumBlock % kPartials<int32_t> == 0);

// partial[l] += a[g * kPartials + l] * b[g * kPartials + l] for g < groups,
// in kVecs vectors of d holding the kPartials sums.
template <int64_t kVecs, class D, typename T = hn::TFromD<D>>
void DotGroups(D d, const T* HWY_RESTRICT a, const T* HWY_RESTRICT b,
               int64_t groups, T* HWY_RESTRICT partial) {
  const size_t nl = hn::Lanes(d);
  auto s0 = hn::LoadU(d, partial);
  auto s1 = s0, s2 = s0, s3 = s0;
  if constexpr (kVecs > 1) s1 = hn::LoadU(d, partial + nl);
  if constexpr (kVecs > 2) {
    s2 = hn::LoadU(d, partial + 2 * nl);
    s3 = hn::LoadU(d, partial + 3 * nl);
  }
  for (int64_t g = 0; g < groups; ++g) {
    const T* x = a + g * kPartials<T>;
    const T* y = b + g * kPartials<T>;
    s0 = MulAdd(d, hn::LoadU(d, x), hn::LoadU(d, y), s0);
    if constexpr (kVecs > 1) {
      s1 = MulAdd(d, hn::LoadU(d, x + nl), hn::LoadU(d, y + nl), s1);
    }
    if constexpr (kVecs > 2) {
      s2 = MulAdd(d, hn::LoadU(d, x + 2 * nl), hn::LoadU(d, y + 2 * nl), s2);
      s3 = MulAdd(d, hn::LoadU(d, x + 3 * nl), hn::LoadU(d, y + 3 * nl), s3);
    }
  }
  hn::StoreU(s0, d, partial);
  if constexpr (kVecs > 1) hn::StoreU(s1, d, partial + nl);
  if constexpr (kVecs > 2) {
    hn::StoreU(s2, d, partial + 2 * nl);
    hn::StoreU(s3, d, partial + 3 * nl);
  }
}

// The same sums element by element, for vector widths that do not divide
// kPartials into 1, 2 or 4 vectors.
template <typename T>
void DotGroupsScalar(const T* a, const T* b, int64_t groups, T* partial) {
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t l = 0; l < kPartials<T>; ++l) {
      const int64_t at = g * kPartials<T> + l;
      partial[l] = scalar_ops::MulAdd(a[at], b[at], partial[l]);
    }
  }
}

template <typename T>
void AddDotGroups(const T* a, const T* b, int64_t groups, T* partial) {
  const hn::CappedTag<T, size_t(kPartials<T>)> d;
  const int64_t vecs = kPartials<T> / int64_t(hn::Lanes(d));
  if (vecs * int64_t(hn::Lanes(d)) != kPartials<T>) {
    return DotGroupsScalar(a, b, groups, partial);
  }
  switch (vecs) {
    case 1:
      return DotGroups<1>(d, a, b, groups, partial);
    case 2:
      return DotGroups<2>(d, a, b, groups, partial);
    case 4:
      return DotGroups<4>(d, a, b, groups, partial);
    default:
      return DotGroupsScalar(a, b, groups, partial);
  }
}

// One operand of a dot product along a k block [k0, k0 + len): its whole
// groups at the returned pointer (in place when the offsets are unit, else
// gathered into `buf`; `constant`, when given, holds kSumBlock copies of
// the element for a step of 0) and its last incomplete group in tail[0,
// kPartials), zero padded.
template <typename T>
const T* DotBlockOperand(const T* base, const int64_t* table, int64_t step,
                         int64_t k0, int64_t len, T* buf, const T* constant,
                         T* tail) {
  const T* from = buf;
  if (table == nullptr && step == 1) {
    from = base + k0;
  } else if (table == nullptr && step == 0 && constant != nullptr) {
    from = constant;
  } else if (table == nullptr) {
    for (int64_t k = 0; k < len; ++k) buf[k] = base[(k0 + k) * step];
  } else {
    for (int64_t k = 0; k < len; ++k) buf[k] = base[table[k0 + k]];
  }
  const int64_t whole = len / kPartials<T> * kPartials<T>;
  for (int64_t l = 0; whole < len && l < kPartials<T>; ++l) {
    tail[l] = whole + l < len ? from[whole + l] : T(0);
  }
  return from;
}

// lo[l] += hi[l] for the kPartials lanes.
template <typename T>
void AddPartials(T* HWY_RESTRICT lo, const T* HWY_RESTRICT hi) {
  const hn::CappedTag<T, size_t(kPartials<T>)> d;
  const size_t nl = hn::Lanes(d);
  if (size_t(kPartials<T>) % nl != 0) {  // vectors of other lengths (SVE)
    for (size_t l = 0; l < size_t(kPartials<T>); ++l) {
      lo[l] = scalar_ops::Add(lo[l], hi[l]);
    }
    return;
  }
  for (size_t l = 0; l < size_t(kPartials<T>); l += nl) {
    hn::StoreU(hn::Add(hn::LoadU(d, lo + l), hn::LoadU(d, hi + l)), d, lo + l);
  }
}

// The partials of the dot product of A's row at `a` with B's column at `b`
// (t's k offsets) over k blocks [first, first + count), PairwiseTree's
// order: per block kPartials sums from zero, blocks combined lane by lane;
// into `out` (kPartials values). Leaves of two blocks add the second's
// sum to the first's: the tree's own split of two.
template <typename T>
void DotBlocks(const GemmTask& t, const T* a, const T* b, size_t first,
               size_t count, T* a_buf, T* b_buf, const T* b_constant, T* out) {
  constexpr int64_t kL = kPartials<T>;
  // Slot s of the tree's pending sums at slots + s * kL (depth < 64).
  HWY_ALIGN T slots[65 * kL];
  // Whole blocks of operands read in place (unit steps, or B a constant
  // block) skip DotBlockOperand.
  const bool direct = t.a_k == nullptr && t.a_k_step == 1 && t.b_k == nullptr &&
                      (t.b_k_step == 1 || (t.b_k_step == 0 && b_constant));
  const auto block_into = [&](size_t block, T* p) {
    std::fill_n(p, kL, T(0));
    const int64_t k0 = int64_t(block) * kSumBlock;
    const int64_t len = std::min(kSumBlock, t.k_size - k0);
    if (direct && len == kSumBlock) {
      AddDotGroups(a + k0, t.b_k_step == 0 ? b_constant : b + k0,
                   kSumBlock / kL, p);
      return;
    }
    HWY_ALIGN T a_tail[kL], b_tail[kL];
    const T* x = DotBlockOperand<T>(a, t.a_k, t.a_k_step, k0, len, a_buf,
                                    nullptr, a_tail);
    const T* y = DotBlockOperand(b, t.b_k, t.b_k_step, k0, len, b_buf,
                                 b_constant, b_tail);
    AddDotGroups(x, y, len / kL, p);
    if (len % kL != 0) AddDotGroups(a_tail, b_tail, 1, p);
  };
  const auto fold = [&](size_t block, size_t blocks, size_t slot) {
    T* p = slots + slot * kL;
    block_into(block, p);
    if (blocks == 2) {
      T* second = slots + 64 * kL;
      block_into(block + 1, second);
      AddPartials(p, second);
    }
    return slot;
  };
  const auto combine = [&](size_t lo, size_t hi, size_t) {
    AddPartials(slots + lo * kL, slots + hi * kL);
    return lo;
  };
  const size_t root = PairwiseTree(first, count, 2, fold, combine);
  std::copy_n(slots + root * kL, kL, out);
}

// The n_size == 1 path: per batch position and row of A, one dot product
// over k blocks, A read in place where its k offsets are unit, else
// gathered a block at a time; B read in place where unit, one block of
// copies where constant along k, else gathered whole once per batch
// position (shared by every row). With t.dot_partials, the one product's
// share of blocks (contraction_task.h). As Gemm for its scratch.
template <typename T>
int64_t DotRows(const GemmTask& t) {
  const bool b_steady = t.b_k == nullptr && t.b_k_step == 0;
  const bool b_gathered = !b_steady && !(t.b_k == nullptr && t.b_k_step == 1);
  ScratchCarver carver(t.scratch);
  T* a_buf = carver.Take<T>(kSumBlock);
  T* b_buf = carver.Take<T>(kSumBlock);
  T* b_constant = carver.Take<T>(kSumBlock);
  T* b_whole = carver.Take<T>(b_gathered ? t.k_size : 0);
  if (t.scratch == nullptr) return carver.used();
  const int64_t blocks = (t.k_size + kSumBlock - 1) / kSumBlock;
  // B's offsets as the blocks read them: gathered B is unit.
  GemmTask unit_b = t;
  if (b_gathered) {
    unit_b.b_k = nullptr;
    unit_b.b_k_step = 1;
  }
  for (int64_t i = 0; i < t.batch; ++i) {
    const T* b = static_cast<const T*>(t.b) + t.b_batch[i] + t.b_n[0];
    if (b_steady) std::fill_n(b_constant, kSumBlock, b[0]);
    if (b_gathered) {  // the k range of the blocks this call sums
      const int64_t first = t.dot_partials ? t.dot_block_begin : 0;
      const int64_t count = t.dot_partials ? t.dot_block_count : blocks;
      const int64_t k_end = std::min(t.k_size, (first + count) * kSumBlock);
      for (int64_t k = first * kSumBlock; k < k_end; ++k) {
        b_whole[k] = b[t.BK(k)];
      }
      b = b_whole;
    }
    const T* steady = b_steady ? b_constant : nullptr;
    const T* a = static_cast<const T*>(t.a) + t.a_batch[i];
    T* c = static_cast<T*>(t.c) + t.c_batch[i];
    for (int64_t m = 0; m < t.m_size; ++m) {
      if (t.dot_partials != nullptr) {
        DotBlocks(unit_b, a + t.a_m[m], b, size_t(t.dot_block_begin),
                  size_t(t.dot_block_count), a_buf, b_buf, steady,
                  static_cast<T*>(t.dot_partials));
        continue;
      }
      HWY_ALIGN T p[kPartials<T>];
      DotBlocks(unit_b, a + t.a_m[m], b, 0, size_t(blocks), a_buf, b_buf,
                steady, p);
      c[t.c_m[m]] =
          FoldDotPartials<T>(p, [](T x, T y) { return scalar_ops::Add(x, y); });
    }
  }
  return carver.used();
}

// The product, or with a null task.scratch its scratch bytes.
int64_t GemmOrScratch(const GemmTask& task) {
  int64_t bytes = 0;
  if (task.batch > 0 && task.m_size > 0 && task.n_size > 0 && task.k_size > 0) {
    VisitType(EinsumTypes{}, task.dtype, [&](auto zero) {
      using T = decltype(zero);
      bytes = task.n_size == 1 ? DotRows<T>(task) : Gemm<T>(task);
    });
  }
  return bytes;
}

int64_t RunGemmKernel(const GemmTask& task) {
  GemmOrScratch(task);
  return HWY_TARGET;
}

int64_t GemmScratchBytesKernel(const GemmTask& task) {
  GemmTask count = task;
  count.scratch = nullptr;
  return GemmOrScratch(count);
}

}  // namespace
}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
STRIDEKIT_EXPORT_KERNEL_TABLE(RunGemmKernel, GemmKernels)
STRIDEKIT_EXPORT_KERNEL_TABLE(GemmScratchBytesKernel, GemmScratchBytesKernels)
#endif  // HWY_ONCE
