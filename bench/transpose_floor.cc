// What bounds a permuted float32 copy at DRAM size, per pattern, on one
// thread and on every core: stridekit's permuted Copy beside the traffic-only
// probe of its access pattern and beside the copy reference (the better of
// memcpy and stridekit's contiguous Copy on the same buffers and threads,
// copy_reference.h), for copy_bench's float32 permutation cases
// (copy_cases.h) at the given bytes a buffer.
//
// The probe replays the copy engine's plan (dispatch/copy.cc CopyBox) on the
// target Highway selects here: the same thread parts (ThreadBoxes), plans
// (IterationPlan::Make, FuseTiles) and blocks, the kernel's macro tiles
// (simd/copy/copy-inl.h TransposeBuffered: MacroRows and MacroCols, groups of
// bands as the scratch allows, FillMacroTile's prefetches and loads of a vector
// from each of Lanes columns, DrainMacroTile itself) and the register tiles of
// the strips the buffer leaves (TransposeRegisterTiles). traffic_only moves
// the loaded vectors untransposed to the same addresses (the bytes land
// scrambled); traffic_register_transpose adds the kernel's TransposeSquare,
// so it runs the kernel's instructions through the probe's loops, and must
// write stridekit's bytes (checked before timing). Rounds interleave the
// variants (alternating their order); medians of 7. One thread is timed by
// thread CPU time, more by wall time.
//
// Run by hand: build/<dir>/bench/transpose_floor [MiB [case ...]]
// (default 512 MiB a buffer and every permutation case of copy_bench).
#ifndef STRIDEKIT_BENCH_TRANSPOSE_FLOOR_COMMON_
#define STRIDEKIT_BENCH_TRANSPOSE_FLOOR_COMMON_

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
#include "simd/copy/copy_task.h"
#include "stridekit/copy.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/numeric_options.h"
#include "stridekit/parallel.h"
#include "stridekit/shape.h"
#include "stridekit/targets.h"

namespace stridekit::bench {

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

}  // namespace stridekit::bench

#endif  // STRIDEKIT_BENCH_TRANSPOSE_FLOOR_COMMON_

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/transpose_floor.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
// Per-target code: after foreach_target.h and highway.h.
#include "simd/copy/copy-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit::bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using stridekit::HWY_NAMESPACE::TableAddressing;

#if STRIDEKIT_REGISTER_TRANSPOSE
using stridekit::HWY_NAMESPACE::CanTransposeInRegisters;
using stridekit::HWY_NAMESPACE::DrainMacroTile;
using stridekit::HWY_NAMESPACE::kStreamMacroCols;
using stridekit::HWY_NAMESPACE::kStreamMacroRows;
using stridekit::HWY_NAMESPACE::kTransposeBandRows;
using stridekit::HWY_NAMESPACE::kTransposeScratchBytes;
using stridekit::HWY_NAMESPACE::MacroCols;
using stridekit::HWY_NAMESPACE::MacroRows;
using stridekit::HWY_NAMESPACE::TransposeSquare;

// The traffic of the streamed transpose of one block of a part (the
// kernel's TransposeBuffered, then TransposeRegisterTiles on the strips it
// leaves), with or without the kernel's register transpose.
template <bool kTranspose, class D>
class BlockProbe {
  using T = hn::TFromD<D>;
  static constexpr size_t L = 64 / sizeof(T);  // Elements per cache line.

 public:
  BlockProbe(D d, const TiledPart& part, T* scratch)
      : d_(d),
        p_(part),
        a_{part.cols_at.data(), part.rows_at.data()},
        scratch_(scratch) {
    tile_rows_ = MacroRows(p_.rows, kStreamMacroRows<T>);
    tile_cols_ = MacroCols(p_.cols, kStreamMacroCols<T>, L);
    pitch_ = L + tile_cols_;
    done_rows_ = p_.rows - p_.rows % tile_rows_;
    full_cols_ = p_.cols - p_.cols % tile_cols_;
    const size_t carry_rows =
        kTransposeScratchBytes / sizeof(T) / L - tile_rows_ * pitch_ / L;
    group_rows_ = carry_rows / tile_rows_ * tile_rows_;
  }

  void Run(const T* from, T* to) const {
    T* const carries = scratch_ + tile_rows_ * pitch_;
    for (size_t g0 = 0; g0 < done_rows_; g0 += group_rows_) {
      const size_t g1 = HWY_MIN(done_rows_, g0 + group_rows_);
      for (size_t c0 = 0; c0 < full_cols_; c0 += tile_cols_) {
        for (size_t r0 = g0; r0 < g1; r0 += tile_rows_) {
          Fill(from + r0, c0);
          DrainMacroTile<true>(d_, a_, r0, c0, tile_rows_, tile_cols_,
                               full_cols_, pitch_, scratch_,
                               carries + (r0 - g0) * L, to);
        }
      }
    }
    // StripsAfterBuffer: each strip widened back to at least a tile; the
    // 2-D path's run in bands of kTransposeBandRows, the fused ones whole.
    const size_t N = hn::Lanes(d_);
    const size_t right =
        full_cols_ == p_.cols ? p_.cols : HWY_MIN(full_cols_, p_.cols - N);
    const size_t bottom =
        done_rows_ == p_.rows ? p_.rows : HWY_MIN(done_rows_, p_.rows - N);
    const size_t band = p_.fused ? p_.rows : kTransposeBandRows<T>;
    for (size_t r0 = 0; r0 < done_rows_; r0 += band) {
      RegisterTiles(from, to, r0, right, HWY_MIN(band, done_rows_ - r0),
                    p_.cols - right);
    }
    for (size_t r0 = bottom; r0 < p_.rows; r0 += band) {
      RegisterTiles(from, to, r0, 0, HWY_MIN(band, p_.rows - r0), p_.cols);
    }
  }

 private:
  // FillMacroTile: per Lanes columns, the next ones' lines prefetched, then
  // a vector from each column down the macro tile's rows into the buffer.
  void Fill(const T* band, size_t c0) const {
    const size_t N = hn::Lanes(d_);
    for (size_t cc = 0; cc < tile_cols_; cc += N) {
      const size_t c = c0 + cc;
      if constexpr (sizeof(T) < 8) {
        for (size_t k = N; k < 2 * N && c + k < p_.cols; ++k) {
          const T* next = band + a_.Col(c + k);
          for (size_t q = 0; q < tile_rows_; q += L) hwy::Prefetch(next + q);
        }
      }
      for (size_t r = 0; r < tile_rows_; r += N) {
        const size_t rr = HWY_MIN(r, tile_rows_ - N);
        hn::Vec<D> v[L];
        for (size_t k = 0; k < N; ++k) {
          v[k] = hn::LoadU(d_, band + a_.Col(c + k) + rr);
        }
        if constexpr (kTranspose) TransposeSquare(d_, v);
        for (size_t j = 0; j < N; ++j) {
          hn::Store(v[j], d_, scratch_ + (rr + j) * pitch_ + L + cc);
        }
      }
    }
  }

  // TransposeRegisterTiles<false> on rows [r0, r0 + rows) x columns
  // [c0, c0 + cols): whole tiles (an edge of at least N / 2 as one more
  // tile moved back), columns outer, then the rest of each row element by
  // element.
  void RegisterTiles(const T* from, T* to, size_t r0, size_t c0, size_t rows,
                     size_t cols) const {
    const size_t N = hn::Lanes(d_);
    const auto covered = [&](size_t extent) {
      const bool overlap = extent >= N && extent % N >= N / 2;
      return overlap ? extent : extent - extent % N;
    };
    const size_t full_rows = covered(rows), full_cols = covered(cols);
    for (size_t c = 0; c < full_cols; c += N) {
      const size_t tc = c0 + (c + N > full_cols ? full_cols - N : c);
      for (size_t r = 0; r < full_rows; r += N) {
        const size_t tr = r0 + (r + N > full_rows ? full_rows - N : r);
        hn::Vec<D> v[L];
        for (size_t k = 0; k < N; ++k) {
          v[k] = hn::LoadU(d_, from + tr + a_.Col(tc + k));
        }
        if constexpr (kTranspose) TransposeSquare(d_, v);
        for (size_t j = 0; j < N; ++j) {
          hn::StoreU(v[j], d_, to + a_.Row(tr + j) + tc);
        }
      }
    }
    for (size_t r = 0; r < rows; ++r) {
      T* row = to + a_.Row(r0 + r);
      for (size_t c = r < full_rows ? full_cols : 0; c < cols; ++c) {
        row[c0 + c] = from[r0 + r + a_.Col(c0 + c)];
      }
    }
  }

  D d_;
  const TiledPart& p_;
  TableAddressing a_;
  T* scratch_;
  size_t tile_rows_, tile_cols_, pitch_, done_rows_, full_cols_, group_rows_;
};

template <bool kTranspose>
void ProbeBlocks(const TiledPart& part, const float* src, float* dst,
                 float* scratch) {
  const hn::ScalableTag<float> d;
  const BlockProbe<kTranspose, decltype(d)> probe(d, part, scratch);
  ForEachChunk(part.plan, 0, part.plan.outer_size(),
               [&](const int64_t* offsets) {
                 probe.Run(src + offsets[1], dst + offsets[0]);
               });
  hwy::FlushStream();
}
#endif  // STRIDEKIT_REGISTER_TRANSPOSE

// Probes the blocks of `part` (scratch: kCopyScratchBytes, 64-byte
// aligned); false on targets without the kernel's register transpose.
bool ProbePart(const TiledPart& part, const float* src, float* dst,
               float* scratch, bool transpose) {
#if STRIDEKIT_REGISTER_TRANSPOSE
  if (!CanTransposeInRegisters(hn::ScalableTag<float>())) return false;
  if (transpose) {
    ProbeBlocks<true>(part, src, dst, scratch);
  } else {
    ProbeBlocks<false>(part, src, dst, scratch);
  }
  return true;
#else
  (void)part, (void)src, (void)dst, (void)scratch, (void)transpose;
  return false;
#endif
}

// The Highway target this code runs on.
const char* ProbeTarget() { return hwy::TargetName(HWY_TARGET); }

}  // namespace HWY_NAMESPACE
}  // namespace stridekit::bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace stridekit::bench {
HWY_EXPORT(ProbePart);
HWY_EXPORT(ProbeTarget);

namespace {

constexpr int64_t kLineFloats = 16;
constexpr int64_t kFusedTileMinExtent = 256;  // dispatch/copy.cc
constexpr int64_t kThreadBlock = 64;          // dispatch/operand_box.h

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
      // Only streamed buffered transposes (macro tiles of at least 2 x 2
      // lines, each part's bytes at least its share of stream_min_bytes).
      tiled_ = tiled_ && part.plan.tiled() && part.rows >= 2 * kLineFloats &&
               part.cols >= 2 * kLineFloats &&
               part.plan.numel() >= CopyOptions{}.stream_min_bytes / parts / 4;
    }
    for (size_t i = 0; i < parts_.size(); ++i) {
      scratch_.emplace_back(
          static_cast<float*>(std::aligned_alloc(64, kCopyScratchBytes)),
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

  // False on targets without the kernel's register transpose.
  bool Probe(bool transpose) const {
    bool ran = true;
    RunParallel(int(parts_.size()), [&](int i) {
      if (!HWY_DYNAMIC_DISPATCH(ProbePart)(parts_[size_t(i)], src_, dst_,
                                           scratch_[size_t(i)].get(),
                                           transpose)) {
        ran = false;  // Every part runs on the same target.
      }
    });
    return ran;
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
                                    : "no streamed macro-tiled transpose");
    return true;
  }
  one.Stridekit();
  const uint64_t want = Checksum(dst, one.bytes());
  for (const Pattern& pattern : patterns) {
    std::memset(dst, 0, size_t(one.bytes()));
    if (!pattern.Probe(true)) {
      std::printf("%s: no register transpose on the probe's target\n", name);
      return false;
    }
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
    variants.push_back({"traffic_register_transpose",
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
  std::printf("  %-28s", "GB/s (read + write), x_ref");
  for (int threads : thread_counts) std::printf("  %9d thread(s)", threads);
  std::printf("\n");
  const double moved = 2.0 * double(one.bytes());
  const auto median = [&](size_t t, size_t k) {
    return Median(variants[t * kPerThreads + k].seconds);
  };
  for (size_t k = 0; k < kPerThreads; ++k) {
    std::printf("  %-28s", variants[k].name);
    for (size_t t = 0; t < thread_counts.size(); ++t) {
      const double reference = std::min(median(t, 0), median(t, 1));
      std::printf("  %7.2f GB/s %5.2f", moved / median(t, k) / 1e9,
                  reference / median(t, k));
    }
    std::printf("\n");
  }
  std::printf("  %-28s", "stridekit / traffic_only");
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
      "a buffer, stridekit's target %s, the probe's %s, %d cores. x_ref: "
      "fraction of the copy reference (the better of memcpy and stridekit's "
      "contiguous Copy, same buffers and threads); medians of 7 interleaved "
      "rounds\n",
      static_cast<long long>(mib),
      std::string(stridekit::ActiveTarget()).c_str(),
      HWY_DYNAMIC_DISPATCH(ProbeTarget)(), cores);
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
#endif  // HWY_ONCE
