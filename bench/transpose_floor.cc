// What bounds a permuted float32 copy at DRAM size, per pattern, on one
// thread and on every core: stridekit's permuted Copy beside the traffic-only
// probe of its access pattern and beside the copy reference (the best of
// memcpy and stridekit's contiguous Copy on the same buffers and threads,
// copy_reference.h), for copy_bench's float32 permutation cases
// (copy_cases.h) at the given bytes a buffer.
//
// The probe replays the copy engine's plan (dispatch/copy.cc CopyBox,
// simd/copy/copy-inl.h TransposeBuffered and TransposeRegisterTiles, as on
// AVX-512 targets): the same thread parts, macro tiles (256 x 128, grouped
// along the source as the 288 KiB scratch allows), reads of 16 columns at a
// time into the L2 buffer, non-temporal writes of whole destination lines
// with their carries, and the register tiles of the strips the buffer
// leaves. traffic_only moves the loaded lines untransposed to the same
// addresses (the bytes land scrambled); traffic_8x8_transpose adds a
// minimal AVX2 transpose (four 8 x 8 per 16 x 16 tile), whose output must
// equal stridekit's (checked before timing: the probe's addresses are the
// kernel's). Rounds interleave the variants (alternating their order);
// medians of 7. 1 thread is timed by thread CPU time, more by wall time.
//
// Run by hand: build/<dir>/bench/transpose_floor [MiB [case ...]]
// (default 512 MiB a buffer and every permutation case).
#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "clocks.h"
#include "copy_cases.h"
#include "copy_reference.h"
#include "stridekit/copy.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/numeric_options.h"
#include "stridekit/parallel.h"
#include "stridekit/shape.h"
#include "stridekit/targets.h"

namespace stridekit::bench {
namespace {

constexpr size_t kLine = 16;  // Floats per cache line and per 64-byte vector.
// The copy engine's constants for streamed float32 copies on AVX-512.
constexpr int64_t kFusedTileMinExtent = 256;  // dispatch/copy.cc
constexpr size_t kMacroRows = 256, kMacroCols = 128;
constexpr size_t kScratchBytes = size_t{288} << 10;
constexpr size_t kBandRows = 512;     // kTransposeBandRows of float32.
constexpr int64_t kThreadBlock = 64;  // dispatch/operand_box.h

// bytes (rounded up to 2 MiB) on 2 MiB boundaries, huge pages advised, as
// NumPy's allocator advises them; written once so that pages are faulted in.
float* HugeBuffer(size_t bytes) {
  bytes = (bytes + (size_t{2} << 20) - 1) >> 21 << 21;
  void* p = std::aligned_alloc(size_t{2} << 20, bytes);
  if (p == nullptr) std::abort();
  madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, CopyReference::kFillByte, bytes);
  return static_cast<float*>(p);
}

// Transposes the 8 x 8 floats v in place (v[j][k] = old v[k][j]).
void Transpose8x8(__m256* v) {
  __m256 t[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(v[k], v[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(v[k], v[k + 1]);
  }
  __m256 u[8];
  for (int g = 0; g < 8; g += 4) {
    u[g] = _mm256_shuffle_ps(t[g], t[g + 2], 0x44);
    u[g + 1] = _mm256_shuffle_ps(t[g], t[g + 2], 0xEE);
    u[g + 2] = _mm256_shuffle_ps(t[g + 1], t[g + 3], 0x44);
    u[g + 3] = _mm256_shuffle_ps(t[g + 1], t[g + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    v[j] = _mm256_permute2f128_ps(u[j], u[j + 4], 0x20);
    v[j + 4] = _mm256_permute2f128_ps(u[j], u[j + 4], 0x31);
  }
}

// A 16 x 16 tile as 16 lines of two halves: line k, half h.
struct Tile16 {
  __m256 v[kLine][2];

  // Line k = the 16 floats at at(k).
  template <class At>
  void Load(At at) {
    for (size_t k = 0; k < kLine; ++k) {
      v[k][0] = _mm256_loadu_ps(at(k));
      v[k][1] = _mm256_loadu_ps(at(k) + 8);
    }
  }
  // With `transpose`, line j becomes what column j was (four 8 x 8 blocks,
  // the off-diagonal ones swapped); without, the lines stay as loaded.
  void Transpose(bool transpose) {
    if (!transpose) return;
    __m256 block[8];
    for (int bk = 0; bk < 2; ++bk) {
      for (int bh = 0; bh < 2; ++bh) {
        if (bh < bk) continue;  // Each off-diagonal pair once, with (bk, bh).
        for (int i = 0; i < 8; ++i) block[i] = v[8 * bk + i][bh];
        Transpose8x8(block);
        if (bk == bh) {
          for (int i = 0; i < 8; ++i) v[8 * bk + i][bh] = block[i];
          continue;
        }
        __m256 other[8];
        for (int i = 0; i < 8; ++i) other[i] = v[8 * bh + i][bk];
        Transpose8x8(other);
        for (int i = 0; i < 8; ++i) {
          v[8 * bh + i][bk] = block[i];
          v[8 * bk + i][bh] = other[i];
        }
      }
    }
  }
  template <class At>
  void Store(At at) const {
    for (size_t j = 0; j < kLine; ++j) {
      _mm256_storeu_ps(at(j), v[j][0]);
      _mm256_storeu_ps(at(j) + 8, v[j][1]);
    }
  }
};

// One thread part's tiled copy as the engine plans it: blocks of `rows`
// destination rows (the source contiguous along them) x `cols` columns (the
// destination contiguous along them), row r of a block at destination
// offset rows_at[r], column c at source offset cols_at[c], one block per
// outer position of the plan (origins from ForEachChunk).
struct TiledPart {
  IterationPlan plan;
  size_t rows = 0, cols = 0;
  bool fused = false;  // Tile axes fused (offset tables), else 2-D pitches.
  std::vector<int64_t> rows_at, cols_at;
};

// The part of box [begin, end) of dst = src permuted, planned as CopyBox
// plans it (IterationPlan::Make, FuseTiles); plan.tiled() false when it is
// no transpose.
TiledPart PlanPart(const Dims& begin, const Dims& end, const Dims& dst_strides,
                   const Dims& src_strides) {
  Operand layouts[2] = {{dst_strides}, {src_strides}};
  Dims shape;
  for (int d = 0; d < begin.size(); ++d) {
    shape.push_back(end[d] - begin[d]);
    for (Operand& op : layouts) op.offset += begin[d] * op.strides[d];
  }
  TiledPart part{IterationPlan::Make(shape, layouts), 0, 0, false, {}, {}};
  IterationPlan& plan = part.plan;
  plan.FuseTiles(kFusedTileMinExtent, kFusedTileMinExtent);
  if (!plan.tiled()) return part;
  part.fused = plan.tile_row_axes() + plan.tile_col_axes() > 2;
  // Rows are placed in the destination, columns in the source; each
  // group's axes in C order.
  const int bounds[3] = {plan.outer_ndim(), plan.ndim() - plan.tile_col_axes(),
                         plan.ndim()};
  for (int g = 0; g < 2; ++g) {
    std::vector<int64_t> level = {0};
    for (int a = bounds[g]; a < bounds[g + 1]; ++a) {
      std::vector<int64_t> next;
      for (const int64_t base : level) {
        for (int64_t k = 0; k < plan.shape()[a]; ++k) {
          next.push_back(base + k * plan.strides(g == 0 ? 0 : 1)[a]);
        }
      }
      level = std::move(next);
    }
    (g == 0 ? part.rows_at : part.cols_at) = std::move(level);
  }
  part.rows = part.rows_at.size();
  part.cols = part.cols_at.size();
  return part;
}

// The boxes of `parts` threads as the engine cuts a copy's box (a mirror of
// dispatch/operand_box.cc ThreadBoxes and SplitBox): along the axis outer in
// both operands when the destination's slowest axis is too short for blocks
// of kThreadBlock positions per part or the outer axis has 8 positions per
// part, else along that slowest axis in such blocks.
std::vector<std::pair<Dims, Dims>> ThreadBoxes(const Dims& shape,
                                               const Dims& dst_strides,
                                               const Dims& src_strides,
                                               int parts) {
  const Dims begin(shape.size(), 0);
  if (parts <= 1) return {{begin, shape}};
  int outer = -1, axis = -1;
  int64_t outer_score = 1, slowest = 0;
  for (int d = 0; d < shape.size(); ++d) {
    const int64_t dst = std::abs(dst_strides[d]),
                  src = std::abs(src_strides[d]);
    const int64_t score = src == 0 ? dst : std::min(dst, src);
    if (shape[d] >= parts && score > outer_score) {
      outer = d;
      outer_score = score;
    }
    if (dst != 0 && shape[d] >= parts * kThreadBlock &&
        (axis < 0 || dst > slowest)) {
      axis = d;
      slowest = dst;
    }
  }
  int64_t align = kThreadBlock;
  if (outer >= 0 && outer != axis &&
      (axis < 0 || shape[outer] >= 8 * int64_t(parts))) {
    align = shape[outer] >= parts * kThreadBlock ? kThreadBlock : 1;
    axis = outer;
  }
  if (axis < 0) {
    std::fprintf(stderr, "transpose_floor: no thread split mirrored\n");
    std::exit(1);
  }
  const int64_t units = (shape[axis] + align - 1) / align;
  const int64_t n = std::clamp<int64_t>(parts, 1, std::max<int64_t>(units, 1));
  std::vector<std::pair<Dims, Dims>> boxes;
  for (int64_t i = 0; i < n; ++i) {
    Dims lo = begin, hi = shape;
    lo[axis] = std::min(shape[axis], units * i / n * align);
    hi[axis] = std::min(shape[axis], units * (i + 1) / n * align);
    boxes.push_back({lo, hi});
  }
  return boxes;
}

// The traffic of one block of `part` (TransposeBuffered's macro tiles, then
// TransposeRegisterTiles on the strips they leave), source block origin
// `from`, destination `to`, with or without the transpose (Tile16).
class BlockProbe {
 public:
  BlockProbe(const TiledPart& part, float* scratch, bool transpose)
      : p_(part), scratch_(scratch), transpose_(transpose) {
    tile_rows_ = std::min(p_.rows, kMacroRows) / kLine * kLine;
    tile_cols_ = std::min(p_.cols, kMacroCols) / kLine * kLine;
    buffered_ = tile_rows_ >= 2 * kLine && tile_cols_ >= 2 * kLine;
    if (!buffered_) tile_rows_ = tile_cols_ = 0;
    pitch_ = kLine + tile_cols_;
    done_rows_ = buffered_ ? p_.rows - p_.rows % tile_rows_ : 0;
    full_cols_ = buffered_ ? p_.cols - p_.cols % tile_cols_ : 0;
    if (buffered_) {
      const size_t carry_rows =
          kScratchBytes / 4 / kLine - tile_rows_ * pitch_ / kLine;
      group_rows_ = carry_rows / tile_rows_ * tile_rows_;
    }
  }

  void Run(const float* from, float* to) const {
    size_t right = 0, bottom = 0;
    if (buffered_) {
      Buffered(from, to);
      // StripsAfterBuffer: each strip widened back to at least a tile.
      right = full_cols_ == p_.cols ? p_.cols
                                    : std::min(full_cols_, p_.cols - kLine);
      bottom = done_rows_ == p_.rows ? p_.rows
                                     : std::min(done_rows_, p_.rows - kLine);
    }
    // The 2-D path's strips run in bands of kBandRows rows, the fused ones
    // whole.
    const size_t band = p_.fused ? p_.rows : kBandRows;
    for (size_t r0 = 0; r0 < done_rows_; r0 += band) {
      RegisterTiles(from, to, r0, right, std::min(band, done_rows_ - r0),
                    p_.cols - right);
    }
    for (size_t r0 = bottom; r0 < p_.rows; r0 += band) {
      RegisterTiles(from, to, r0, 0, std::min(band, p_.rows - r0), p_.cols);
    }
  }

 private:
  const float* Col(const float* from, size_t c) const {
    return from + p_.cols_at[c];
  }
  float* Row(float* to, size_t r) const { return to + p_.rows_at[r]; }

  void Buffered(const float* from, float* to) const {
    float* const carries = scratch_ + tile_rows_ * pitch_;
    for (size_t g0 = 0; g0 < done_rows_; g0 += group_rows_) {
      const size_t g1 = std::min(done_rows_, g0 + group_rows_);
      for (size_t c0 = 0; c0 < full_cols_; c0 += tile_cols_) {
        for (size_t r0 = g0; r0 < g1; r0 += tile_rows_) {
          Fill(from + r0, c0);
          Drain(to, r0, c0, carries + (r0 - g0) * kLine);
        }
      }
    }
  }

  // FillMacroTile: per 16 columns, the next 16 columns' lines prefetched,
  // then 16 x 16 tiles down the macro tile's rows into the buffer.
  void Fill(const float* band, size_t c0) const {
    for (size_t cc = 0; cc < tile_cols_; cc += kLine) {
      const size_t c = c0 + cc;
      for (size_t k = kLine; k < 2 * kLine && c + k < p_.cols; ++k) {
        for (size_t q = 0; q < tile_rows_; q += kLine) {
          _mm_prefetch(reinterpret_cast<const char*>(Col(band, c + k) + q),
                       _MM_HINT_T0);
        }
      }
      for (size_t rr = 0; rr < tile_rows_; rr += kLine) {
        Tile16 t;
        t.Load([&](size_t k) { return Col(band, c + k) + rr; });
        t.Transpose(transpose_);
        t.Store([&](size_t j) {
          return scratch_ + (rr + j) * pitch_ + kLine + cc;
        });
      }
    }
  }

  // DrainMacroTile: each row's lines, the first completed from its carry.
  void Drain(float* to, size_t r0, size_t c0, float* carries) const {
    for (size_t j = 0; j < tile_rows_; ++j) {
      float* row = Row(to, r0 + j);
      float* buf = scratch_ + j * pitch_;
      float* carry = carries + j * kLine;
      if (c0 != 0) std::memcpy(buf, carry, kLine * 4);
      const uintptr_t at = reinterpret_cast<uintptr_t>(row);
      const size_t h = (64 - at % 64) % 64 / 4;  // Rows are 4-byte aligned.
      size_t c = c0 + h - (h == 0 ? 0 : kLine);
      if (c0 == 0 && h != 0) {
        for (size_t x = 0; x < h; ++x) row[x] = buf[kLine + x];
        c = h;
      }
      for (; c + kLine <= c0 + tile_cols_; c += kLine) {
        const float* line = buf + kLine + c - c0;
        _mm256_stream_ps(row + c, _mm256_loadu_ps(line));
        _mm256_stream_ps(row + c + 8, _mm256_loadu_ps(line + 8));
      }
      std::memcpy(carry, buf + tile_cols_, kLine * 4);
      if (c0 + tile_cols_ == full_cols_) {
        for (; c < full_cols_; ++c) row[c] = carry[c + kLine - full_cols_];
      }
    }
  }

  // TransposeRegisterTiles<false> on rows [r0, r0 + rows) x columns
  // [c0, c0 + cols): whole tiles (an edge of at least 8 as one more tile
  // moved back), columns outer, then the rest of each row element by
  // element.
  void RegisterTiles(const float* from, float* to, size_t r0, size_t c0,
                     size_t rows, size_t cols) const {
    const auto covered = [](size_t extent) {
      const bool overlap = extent >= kLine && extent % kLine >= kLine / 2;
      return overlap ? extent : extent - extent % kLine;
    };
    const size_t full_rows = covered(rows), full_cols = covered(cols);
    for (size_t c = 0; c < full_cols; c += kLine) {
      const size_t tc = c0 + (c + kLine > full_cols ? full_cols - kLine : c);
      for (size_t r = 0; r < full_rows; r += kLine) {
        const size_t tr = r0 + (r + kLine > full_rows ? full_rows - kLine : r);
        Tile16 t;
        t.Load([&](size_t k) { return Col(from, tc + k) + tr; });
        t.Transpose(transpose_);
        t.Store([&](size_t j) { return Row(to, tr + j) + tc; });
      }
    }
    for (size_t r = 0; r < rows; ++r) {
      float* row = Row(to, r0 + r);
      for (size_t c = r < full_rows ? full_cols : 0; c < cols; ++c) {
        row[c0 + c] = Col(from, c0 + c)[r0 + r];
      }
    }
  }

  const TiledPart& p_;
  float* scratch_;
  bool transpose_;
  bool buffered_;
  size_t tile_rows_, tile_cols_, pitch_, done_rows_, full_cols_;
  size_t group_rows_ = 0;
};

// dst = src.transpose(axes) of copy_bench's case, on `threads` threads: the
// engine's parts and plans, and the probe of them.
class Pattern {
 public:
  Pattern(const copy::Permutation& p, int threads, const float* src, float* dst)
      : src_(src), dst_(dst), threads_(threads) {
    const Dims shape(p.shape), strides = CContiguousStrides(shape);
    for (int64_t axis : p.axes) {
      dst_shape_.push_back(shape[axis]);
      src_strides_.push_back(strides[axis]);
    }
    const Dims dst_strides = CContiguousStrides(dst_shape_);
    const int64_t numel = Numel(shape);
    const int parts = int(std::clamp<int64_t>(
        std::min<int64_t>(threads,
                          numel / NumericOptions::kMinElementsPerThread),
        1, threads));
    for (const auto& [begin, end] :
         ThreadBoxes(dst_shape_, dst_strides, src_strides_, parts)) {
      parts_.push_back(PlanPart(begin, end, dst_strides, src_strides_));
      const TiledPart& part = parts_.back();
      // Only buffered transposes (macro tiles of at least 2 x 2 lines).
      tiled_ = tiled_ && part.plan.tiled() && part.rows >= 2 * kLine &&
               part.cols >= 2 * kLine;
    }
    for (size_t i = 0; i < parts_.size(); ++i) {
      scratch_.emplace_back(
          static_cast<float*>(std::aligned_alloc(64, kScratchBytes)),
          &std::free);
    }
    bytes_ = numel * 4;
  }

  bool tiled() const { return tiled_; }
  const Dims& DstShape() const { return dst_shape_; }
  int64_t bytes() const { return bytes_; }
  // "3 parts of 2x41 blocks of 1681 x 1681 (fused)" and the like.
  std::string Describe() const {
    std::string s;
    for (const TiledPart& part : parts_) {
      s += (s.empty() ? "" : "; ") + std::to_string(part.plan.outer_size()) +
           " block(s) of " + std::to_string(part.rows) + " x " +
           std::to_string(part.cols) + (part.fused ? " (fused)" : "");
    }
    return s;
  }

  void Stridekit() const {
    sk_view src{}, dst{};
    src.ndim = dst.ndim = int32_t(dst_shape_.size());
    const Dims dst_strides = CContiguousStrides(dst_shape_);
    for (int d = 0; d < src.ndim; ++d) {
      src.shape[d] = dst.shape[d] = dst_shape_[d];
      src.strides[d] = src_strides_[d];
      dst.strides[d] = dst_strides[d];
    }
    Copy(4, src, src_, dst, dst_, nullptr, CopyOptions{threads_});
  }

  void Probe(bool transpose) const {
    RunParallel(int(parts_.size()), [&](int i) {
      const TiledPart& part = parts_[size_t(i)];
      const BlockProbe probe(part, scratch_[size_t(i)].get(), transpose);
      ForEachChunk(part.plan, 0, part.plan.outer_size(),
                   [&](const int64_t* offsets) {
                     probe.Run(src_ + offsets[1], dst_ + offsets[0]);
                   });
      _mm_sfence();
    });
  }

 private:
  const float* src_;
  float* dst_;
  int threads_;
  Dims dst_shape_, src_strides_;
  std::vector<TiledPart> parts_;
  std::vector<std::unique_ptr<float, decltype(&std::free)>> scratch_;
  bool tiled_ = true;
  int64_t bytes_ = 0;
};

// A checksum of the first `bytes` of p (order-sensitive).
uint64_t Checksum(const void* p, int64_t bytes) {
  const uint64_t* w = static_cast<const uint64_t*>(p);
  uint64_t h = 0;
  for (int64_t i = 0; i < bytes / 8; ++i) {
    h = (h ^ w[i]) * 0x100000001B3ull + uint64_t(i);
  }
  return h;
}

double Median(std::vector<double> s) {
  std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
  return s[s.size() / 2];
}

struct Variant {
  const char* name;
  int threads;
  std::function<void()> run;
  std::vector<double> seconds;
};

// Runs every variant once per round, in alternating order; medians.
void Measure(std::vector<Variant>& variants, int rounds) {
  for (int round = 0; round < rounds; ++round) {
    for (size_t i = 0; i < variants.size(); ++i) {
      Variant& v = variants[round % 2 == 0 ? i : variants.size() - 1 - i];
      const auto clock = v.threads > 1 ? WallSeconds : ThreadSeconds;
      const double t0 = clock();
      v.run();
      v.seconds.push_back(clock() - t0);
    }
  }
}

// Case c at `bytes` a buffer on each of `thread_counts`: checks the probe
// against stridekit, then measures and prints the variants. False when the
// probe's output differs.
bool RunCase(copy::Case c, int64_t bytes, const float* src, float* dst,
             const std::vector<int>& thread_counts) {
  const char* name = copy::kCaseNames[int(c)];
  copy::Permutation p;
  if (!copy::PermutationOf(c, bytes, 4, &p)) return true;
  std::vector<Pattern> patterns;
  patterns.reserve(thread_counts.size());
  for (int threads : thread_counts) patterns.emplace_back(p, threads, src, dst);
  const Pattern& one = patterns[0];
  if (one.bytes() > bytes || !one.tiled()) {
    std::printf("\n%s: skipped (%s)\n", name,
                one.bytes() > bytes ? "larger than the buffers"
                                    : "no macro-tiled transpose");
    return true;
  }
  one.Stridekit();
  const uint64_t want = Checksum(dst, one.bytes());
  for (const Pattern& pattern : patterns) {
    std::memset(dst, 0, size_t(one.bytes()));
    pattern.Probe(true);
    if (Checksum(dst, one.bytes()) != want) {
      std::printf("%s: the probe's output differs from stridekit's\n", name);
      return false;
    }
  }
  std::vector<CopyReference> refs;
  for (int threads : thread_counts) {
    refs.push_back(CopyReference::For(one.bytes(), one.bytes()));
    refs.back().src = reinterpret_cast<const unsigned char*>(src);
    refs.back().dst = reinterpret_cast<unsigned char*>(dst);
    refs.back().threads = threads;
  }
  // Per thread count: memcpy and stridekit's contiguous Copy (the
  // reference), stridekit's permuted Copy, then the probes.
  constexpr size_t kPerThreads = 5;
  std::vector<Variant> variants;
  for (size_t t = 0; t < thread_counts.size(); ++t) {
    const CopyReference& ref = refs[t];
    const Pattern& pattern = patterns[t];
    const int threads = thread_counts[t];
    variants.push_back({"memcpy", threads, [&ref] { ref.Libc(); }, {}});
    variants.push_back(
        {"stridekit_contiguous", threads, [&ref] { ref.Stridekit(); }, {}});
    variants.push_back({"stridekit_permuted",
                        threads,
                        [&pattern] { pattern.Stridekit(); },
                        {}});
    variants.push_back(
        {"traffic_only", threads, [&pattern] { pattern.Probe(false); }, {}});
    variants.push_back({"traffic_8x8_transpose",
                        threads,
                        [&pattern] { pattern.Probe(true); },
                        {}});
  }
  Measure(variants, 7);

  std::printf("\n%s float32 %s (%.0f MiB a buffer)\n", name,
              copy::ShapeLabel(one.DstShape()).c_str(),
              double(one.bytes()) / (1 << 20));
  for (size_t t = 0; t < thread_counts.size(); ++t) {
    std::printf("  %d thread(s): %s\n", thread_counts[t],
                patterns[t].Describe().c_str());
  }
  std::printf("  %-24s", "GB/s (read + write), x_ref");
  for (int threads : thread_counts) std::printf("  %9d thread(s)", threads);
  std::printf("\n");
  const double moved = 2.0 * double(one.bytes());
  const auto median = [&](size_t t, size_t k) {
    return Median(variants[t * kPerThreads + k].seconds);
  };
  for (size_t k = 0; k < kPerThreads; ++k) {
    std::printf("  %-24s", variants[k].name);
    for (size_t t = 0; t < thread_counts.size(); ++t) {
      const double reference = std::min(median(t, 0), median(t, 1));
      std::printf("  %7.2f GB/s %5.2f", moved / median(t, k) / 1e9,
                  reference / median(t, k));
    }
    std::printf("\n");
  }
  std::printf("  %-24s", "stridekit / traffic_only");
  for (size_t t = 0; t < thread_counts.size(); ++t) {
    std::printf("  %18.2f", median(t, 3) / median(t, 2));
  }
  std::printf("\n");
  std::fflush(stdout);
  return true;
}

}  // namespace
}  // namespace stridekit::bench

int main(int argc, char** argv) {
  using namespace stridekit::bench;
  if (!__builtin_cpu_supports("avx2")) {
    std::printf("transpose_floor: this CPU has no AVX2\n");
    return 0;
  }
  const int64_t mib = argc > 1 ? std::atoll(argv[1]) : 512;
  if (mib <= 0) {
    std::printf("usage: transpose_floor [MiB a buffer [case ...]]\n");
    return 1;
  }
  const int64_t bytes = mib << 20;
  float* src = HugeBuffer(size_t(bytes));
  float* dst = HugeBuffer(size_t(bytes));
  for (int64_t i = 0; i < bytes / 4; ++i) {
    // Distinct non-zero words, so that the check sees every misplacement.
    const uint32_t word = uint32_t(i) | 0x40000000u;
    std::memcpy(src + i, &word, 4);
  }
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<int> thread_counts =
      cores > 1 ? std::vector<int>{1, cores} : std::vector<int>{1};
  std::printf(
      "transpose_floor: float32 permutations (copy_bench's cases) at %lld MiB "
      "a buffer, target %s, %d cores. x_ref: fraction of the copy reference "
      "(the better of memcpy and stridekit's contiguous Copy, same buffers and "
      "threads); medians of 7 interleaved rounds\n",
      static_cast<long long>(mib),
      std::string(stridekit::ActiveTarget()).c_str(), cores);
  for (int c = int(copy::Case::kTranspose2D); c <= int(copy::Case::kPermute5D);
       ++c) {
    const auto named = [&](const char* a) {
      return std::strcmp(a, copy::kCaseNames[c]) == 0;
    };
    if (argc > 2 && std::none_of(argv + 2, argv + argc, named)) continue;
    if (!RunCase(copy::Case(c), bytes, src, dst, thread_counts)) return 1;
  }
  return 0;
}
