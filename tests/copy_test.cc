// The copy family: the dispatched Copy/Fill against the per-element
// reference on random views (every element size, broadcasting, masks,
// overlap), byte-exact over whole buffers, plus golden cases and errors.
#include "stridekit/copy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

#include "allocation.h"
#include "dispatch/operand_box.h"
#include "equivalence.h"
#include "random_views.h"
#include "reference_kernels.h"
#include "stridekit/einsum.h"
#include "stridekit/elementwise.h"
#include "stridekit/reduce.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;
using testing::ViewGenerator;
using Bytes = std::vector<unsigned char>;

struct CopyCase {
  size_t elem_size;
  sk_view src, dst;
  bool src_in_dst_buffer;
  Bytes src_buffer, dst_buffer;
  bool has_fill;
  unsigned char fill[16];
  size_t misalign;  // Byte shift of both data pointers (unaligned elements).
};

CopyCase RandomCase(ViewGenerator& gen, int64_t max_elements) {
  CopyCase c{};
  const size_t sizes[] = {1, 2, 4, 8, 16};
  c.elem_size = sizes[gen.Uniform(0, 4)];
  const auto shape = gen.Shape(int(gen.Uniform(0, 8)), max_elements);
  const auto src_shape = gen.Chance(40) ? gen.BroadcastSource(shape) : shape;
  const int64_t dst_end = gen.Layout(shape, gen.Uniform(0, 5), c.dst);
  c.src_in_dst_buffer = gen.Chance(30);
  const int64_t src_base =
      c.src_in_dst_buffer ? gen.Uniform(0, dst_end) : gen.Uniform(0, 5);
  const int64_t src_end = gen.Layout(src_shape, src_base, c.src);
  if (gen.Chance(30)) gen.Mask(c.src);
  if (gen.Chance(20)) gen.Mask(c.dst);
  const int64_t dst_elems =
      std::max(dst_end, c.src_in_dst_buffer ? src_end : 0);
  c.misalign = gen.Chance(20) ? size_t(gen.Uniform(1, 15)) : 0;
  c.dst_buffer.resize(size_t(dst_elems + 3) * c.elem_size + c.misalign);
  c.src_buffer.resize(size_t(src_end + 3) * c.elem_size + c.misalign);
  gen.Randomize(c.dst_buffer);
  gen.Randomize(c.src_buffer);
  c.has_fill = gen.Chance(50);
  for (auto& b : c.fill) b = static_cast<unsigned char>(gen.Uniform(0, 255));
  return c;
}

// Runs one copy on private buffers; returns the destination buffer.
template <typename CopyFn>
Bytes RunCase(const CopyCase& c, CopyFn copy) {
  Bytes dst = c.dst_buffer, src = c.src_buffer;
  const void* src_data =
      (c.src_in_dst_buffer ? dst.data() : src.data()) + c.misalign;
  copy(c.elem_size, c.src, src_data, c.dst, dst.data() + c.misalign,
       c.has_fill ? c.fill : nullptr);
  return dst;
}

// Every test of this suite runs once per available target, forced.
class CopyOnTarget : public testing::TargetTest {};
STRIDEKIT_INSTANTIATE_FOR_EACH_TARGET(CopyOnTarget);

TEST_P(CopyOnTarget, MatchesReferenceOnRandomViews) {
  ViewGenerator gen(20261122);
  for (int trial = 0; trial < testing::Trials(4000); ++trial) {
    const CopyCase c = RandomCase(gen, trial % 10 == 0 ? 40000 : 3000);
    const Bytes want = RunCase(c, [](auto... a) { reference::Copy(a...); });
    const Bytes got = RunCase(c, [](auto... a) { Copy(a...); });
    ASSERT_EQ(got, want) << "trial " << trial << " elem " << c.elem_size
                         << " overlap " << c.src_in_dst_buffer << "\nsrc "
                         << testing::Describe(c.src) << "\ndst "
                         << testing::Describe(c.dst);
  }
  ExpectForcedTargetRan();
}

// Threads split the plan; stream_min_bytes 0 forces non-temporal stores on
// every contiguous destination row.
TEST_P(CopyOnTarget, ThreadsAndStreamingGiveTheSameResult) {
  ViewGenerator gen(7);
  for (int trial = 0; trial < testing::Trials(600); ++trial) {
    const CopyCase c = RandomCase(gen, 20000);
    const Bytes want = RunCase(c, [](auto... a) { reference::Copy(a...); });
    CopyOptions options;
    options.threads = testing::ThreadsAllowed() ? int(gen.Uniform(1, 3)) : 1;
    options.stream_min_bytes = gen.Chance(70) ? 0 : options.stream_min_bytes;
    const Bytes got =
        RunCase(c, [&](size_t es, auto&&... a) { Copy(es, a..., options); });
    ASSERT_EQ(got, want) << "trial " << trial << "\nsrc "
                         << testing::Describe(c.src) << "\ndst "
                         << testing::Describe(c.dst);
  }
}

// Copies large enough for several parts (ThreadBoxes: an axis outer on
// both sides, else the destination's slowest axis in whole 64-position
// blocks, else the longest axis) give the reference's bytes: a contiguous
// row, a 2-D transpose whose one tile used to run on one thread, 3-D, 4-D
// and 5-D permutations (split along a middle axis), a masked (padded)
// source whose pads the parts leave to the fill, and a column too short to
// split.
TEST_P(CopyOnTarget, ThreadPartsGiveTheReferenceBytes) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP() << "threads disabled";
  struct Layout {
    sk_view src, dst;
  };
  sk_view padded = MakeView({300, 250}, {250, 1}, 0);
  padded.has_mask = 1;
  padded.mask_begin[0] = 3, padded.mask_end[0] = 297;
  padded.mask_begin[1] = 5, padded.mask_end[1] = 240;
  const Layout layouts[] = {
      {MakeView({70001}, {1}, 0), MakeView({70001}, {1}, 0)},
      {MakeView({257, 300}, {1, 257}, 0), MakeView({257, 300}, {300, 1}, 0)},
      {MakeView({40, 33, 50}, {1, 2000, 40}, 0),
       MakeView({40, 33, 50}, {1650, 50, 1}, 0)},
      {padded, MakeView({300, 250}, {250, 1}, 0)},
      {MakeView({20000, 1}, {1, 1}, 0), MakeView({20000, 1}, {1, 1}, 0)},
      // {3, 1, 0, 2} of 15^4 and the reversed 9^5 (copy_bench's shapes).
      {MakeView({15, 15, 15, 15}, {1, 225, 3375, 15}, 0),
       MakeView({15, 15, 15, 15}, {3375, 225, 15, 1}, 0)},
      {MakeView({9, 9, 9, 9, 9}, {1, 9, 81, 729, 6561}, 0),
       MakeView({9, 9, 9, 9, 9}, {6561, 729, 81, 9, 1}, 0)},
  };
  for (const Layout& l : layouts) {
    for (size_t es : {size_t{1}, size_t{4}, size_t{8}}) {
      Bytes src(size_t(80000) * es), want(src.size(), 0xAB), got = want;
      for (size_t i = 0; i < src.size(); ++i) src[i] = (unsigned char)(i * 7);
      reference::Copy(es, l.src, src.data(), l.dst, want.data(), nullptr);
      for (int threads : {2, 3}) {
        CopyOptions options;
        options.threads = threads;
        std::fill(got.begin(), got.end(), 0xAB);
        Copy(es, l.src, src.data(), l.dst, got.data(), nullptr, options);
        ASSERT_EQ(got, want)
            << es << "-byte elements, " << threads << " threads\nsrc "
            << testing::Describe(l.src) << "\ndst " << testing::Describe(l.dst);
      }
    }
  }
  ExpectForcedTargetRan();
}

// ThreadBoxes cuts an axis outer on both sides when there is one (the
// middle axis of a reversed 3-D copy, not the destination's slowest axis,
// which is the source's contiguous one) and it splits evenly or nothing
// else is long, else the destination's slowest in whole 64-position blocks
// (a 2-D transpose, a contiguous copy, a row broadcast down a matrix).
TEST(ThreadBoxes, CutsNeitherSidesContiguousRuns) {
  const auto split_axis = [](const Dims& shape, const Dims& dst,
                             const Dims& src) {
    const Box box{Dims(shape.size(), 0), shape};
    const std::vector<Box> parts = ThreadBoxes(box, dst, src, 2);
    EXPECT_EQ(parts.size(), 2u);
    for (int d = 0; d < shape.size(); ++d) {
      if (parts[0].end[d] != shape[d]) return d;
    }
    return -1;
  };
  EXPECT_EQ(split_axis({40, 40, 40}, {1600, 40, 1}, {1, 40, 1600}), 1);
  EXPECT_EQ(
      split_axis({15, 15, 15, 15}, {3375, 225, 15, 1}, {1, 225, 3375, 15}), 1);
  EXPECT_EQ(split_axis({300, 257}, {257, 1}, {1, 300}), 0);
  EXPECT_EQ(split_axis({300, 257}, {257, 1}, {257, 1}), 0);
  EXPECT_EQ(split_axis({300, 257}, {257, 1}, {0, 1}), 0);
  // Three long contiguous rows: halves of the rows, not one row and two.
  EXPECT_EQ(split_axis({3, 100000}, {100000, 1}, {100000, 1}), 1);
  // A reversed 3-D copy of long axes: still the middle axis.
  EXPECT_EQ(split_axis({300, 300, 300}, {90000, 300, 1}, {1, 300, 90000}), 1);
}

TEST_P(CopyOnTarget, TransposeAcrossTileEdges) {
  for (int64_t rows : {1, 15, 16, 17, 33, 100}) {
    for (int64_t cols : {1, 16, 31, 64, 70}) {
      std::vector<float> a(size_t(rows * cols)), b(a.size(), -1.0f);
      for (size_t i = 0; i < a.size(); ++i) a[i] = float(i);
      // b[j][i] = a[i][j]: b is [cols, rows] C-order, a read transposed.
      const sk_view src = MakeView({cols, rows}, {1, cols}, 0);
      const sk_view dst = MakeView({cols, rows}, {rows, 1}, 0);
      Copy(4, src, a.data(), dst, b.data());
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
          ASSERT_EQ(b[size_t(j * rows + i)], a[size_t(i * cols + j)])
              << rows << "x" << cols << " at " << i << "," << j;
        }
      }
    }
  }
}

// Streamed transposes large enough for the buffered macro tiles (256 x 128
// elements; 512 x 32 for 8-byte elements) plus ragged strips: destination
// rows aligned or not (pitch and base), source columns walked forwards and
// backwards.
TEST_P(CopyOnTarget, StreamedTransposeThroughTheBuffer) {
  ViewGenerator gen(18);
  CopyOptions options;
  options.stream_min_bytes = 0;
  for (const int64_t es : {4, 8}) {
    for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{256, 128},
                                     {300, 260},
                                     {257, 385},
                                     {48, 48},
                                     {107, 107},
                                     {130, 100},
                                     {600, 70},
                                     // More bands than the scratch keeps
                                     // carries for: two groups of bands.
                                     {2600, 300}}) {
      // Rows aligned, rows at varying offsets (pitch), all rows shifted.
      for (const auto& [pad, shift] :
           {std::pair<int64_t, int64_t>{0, 0}, {3, 0}, {0, 5}}) {
        for (const bool backwards : {false, true}) {
          // dst [rows, cols] with row pitch cols + pad; src a [cols, rows +
          // 1] buffer read transposed.
          const int64_t pitch = rows + 1;
          const sk_view src = backwards ? MakeView({rows, cols}, {1, -pitch},
                                                   (cols - 1) * pitch)
                                        : MakeView({rows, cols}, {1, pitch}, 0);
          const sk_view dst = MakeView({rows, cols}, {cols + pad, 1}, shift);
          Bytes src_buffer(size_t(cols * pitch * es));
          Bytes dst_buffer(size_t((rows * (cols + pad) + shift) * es));
          gen.Randomize(src_buffer);
          gen.Randomize(dst_buffer);
          Bytes want = dst_buffer, got = dst_buffer;
          reference::Copy(size_t(es), src, src_buffer.data(), dst, want.data(),
                          nullptr);
          Copy(size_t(es), src, src_buffer.data(), dst, got.data(), nullptr,
               options);
          ASSERT_EQ(got, want)
              << es << " " << rows << "x" << cols << " pad " << pad << " shift "
              << shift << " backwards " << backwards;
        }
      }
    }
  }
  ExpectForcedTargetRan();
}

// Cached transposes of at least 4 MiB whose row pitches are near a multiple
// of 4 KiB go through the buffered macro tiles with plain stores: square and
// ragged, pitches of 1024 and 1023 elements and shifted destinations.
TEST_P(CopyOnTarget, CachedTransposeWithAliasingRowsThroughTheBuffer) {
  ViewGenerator gen(19);
  for (const int64_t es : {4, 8}) {
    for (const auto& [rows, cols, pitch] :
         {std::tuple<int64_t, int64_t, int64_t>{1024, 1024, 1024},
          {1023, 1030, 1023},
          {1024, 700, 1024},
          {600, 2047, 1024}}) {
      for (const int64_t shift : {0, 3}) {
        // dst [rows, cols] with row pitch `pitch` when it fits, else cols;
        // src a [cols, pitch] buffer read transposed.
        const int64_t dst_pitch = pitch >= cols ? pitch : cols;
        const sk_view src = MakeView({rows, cols}, {1, pitch}, 0);
        const sk_view dst = MakeView({rows, cols}, {dst_pitch, 1}, shift);
        Bytes src_buffer(size_t(cols * pitch * es));
        Bytes dst_buffer(size_t((rows * dst_pitch + shift) * es));
        gen.Randomize(src_buffer);
        gen.Randomize(dst_buffer);
        Bytes want = dst_buffer, got = dst_buffer;
        reference::Copy(size_t(es), src, src_buffer.data(), dst, want.data(),
                        nullptr);
        Copy(size_t(es), src, src_buffer.data(), dst, got.data(), nullptr);
        ASSERT_EQ(got, want) << es << " " << rows << "x" << cols << " pitch "
                             << pitch << " shift " << shift;
      }
    }
  }
  ExpectForcedTargetRan();
}

// A streamed 4-D permutation {3,1,0,2} with short extents: many small
// buffered blocks (70 x 64), one per outer position, at unaligned rows.
TEST_P(CopyOnTarget, StreamedPermutationOfShortExtents) {
  ViewGenerator gen(1073);
  CopyOptions options;
  options.stream_min_bytes = 0;
  for (const int64_t es : {4, 8}) {
    for (const int64_t shift : {0, 3}) {
      // src [3, 5, 64, 70] C-contiguous; dst = src.transpose(3, 1, 0, 2).
      const sk_view src =
          MakeView({70, 5, 3, 64}, {1, 64 * 70, 5 * 64 * 70, 70}, 0);
      const sk_view dst =
          MakeView({70, 5, 3, 64}, {5 * 3 * 64, 3 * 64, 64, 1}, shift);
      Bytes src_buffer(size_t(3 * 5 * 64 * 70 * es));
      Bytes dst_buffer(src_buffer.size() + size_t(shift * es));
      gen.Randomize(src_buffer);
      gen.Randomize(dst_buffer);
      Bytes want = dst_buffer, got = dst_buffer;
      reference::Copy(size_t(es), src, src_buffer.data(), dst, want.data(),
                      nullptr);
      Copy(size_t(es), src, src_buffer.data(), dst, got.data(), nullptr,
           options);
      ASSERT_EQ(got, want) << es << " shift " << shift;
    }
  }
  ExpectForcedTargetRan();
}

// Permutations of rank 3 to 5 with short extents, whose tiles fuse outer
// axes (IterationPlan::FuseTiles): element sizes 1, 4, 8 and 16, cached on
// one thread and streamed on two into a shifted destination; 9^5 reversed
// streams 4- and 8-byte elements through the macro-tile buffer. Small
// enough for the emulated aarch64 targets.
TEST_P(CopyOnTarget, PermutationsWithFusedTiles) {
  ViewGenerator gen(2005);
  struct Permutation {
    std::vector<int64_t> shape, axes;
    std::vector<size_t> elem_sizes;
  };
  const std::vector<size_t> all = {1, 4, 8, 16};
  const Permutation cases[] = {{{3, 4, 5, 6, 7}, {4, 3, 2, 1, 0}, all},
                               {{2, 9, 3, 5, 6}, {4, 3, 2, 1, 0}, all},
                               {{18, 5, 3, 9}, {3, 1, 0, 2}, all},
                               {{3, 40, 2, 9}, {1, 3, 0, 2}, all},
                               {{3, 20, 2, 9, 2}, {2, 4, 0, 3, 1}, all},
                               {{21, 5, 30}, {2, 1, 0}, all},
                               {{9, 9, 9, 9, 9}, {4, 3, 2, 1, 0}, {4, 8}}};
  for (const Permutation& p : cases) {
    const int n = int(p.shape.size());
    // dst = src.transpose(axes): dst axis k reads src axis axes[k].
    std::vector<int64_t> src_strides(p.shape.size()), dst_shape,
        dst_strides(p.shape.size()), read_strides;
    int64_t numel = 1;
    for (int d = n - 1; d >= 0; --d) {
      src_strides[size_t(d)] = numel;
      numel *= p.shape[size_t(d)];
    }
    for (int k = 0; k < n; ++k) {
      dst_shape.push_back(p.shape[size_t(p.axes[size_t(k)])]);
      read_strides.push_back(src_strides[size_t(p.axes[size_t(k)])]);
    }
    int64_t pitch = 1;
    for (int d = n - 1; d >= 0; --d) {
      dst_strides[size_t(d)] = pitch;
      pitch *= dst_shape[size_t(d)];
    }
    for (const size_t es : p.elem_sizes) {
      for (const bool stream : {false, true}) {
        if (!stream && p.elem_sizes.size() < all.size()) continue;
        const int64_t shift = stream ? 3 : 0;
        CopyOptions options;
        if (stream) options.stream_min_bytes = 0;
        options.threads = stream && testing::ThreadsAllowed() ? 2 : 1;
        const sk_view src = MakeView(dst_shape, read_strides, 0);
        const sk_view dst = MakeView(dst_shape, dst_strides, shift);
        Bytes src_buffer(size_t(numel) * es);
        Bytes dst_buffer(size_t(numel + shift) * es);
        gen.Randomize(src_buffer);
        gen.Randomize(dst_buffer);
        Bytes want = dst_buffer, got = dst_buffer;
        reference::Copy(es, src, src_buffer.data(), dst, want.data(), nullptr);
        Copy(es, src, src_buffer.data(), dst, got.data(), nullptr, options);
        ASSERT_EQ(got, want) << ::testing::PrintToString(p.shape) << " es "
                             << es << " stream " << stream;
      }
    }
  }
  ExpectForcedTargetRan();
}

// A row broadcast into consecutive rows, streamed: the destination is
// written as one run (StreamPeriodic), rows of up to 8 KiB from a staged
// copy of the row, longer ones from the row itself.
TEST_P(CopyOnTarget, StreamedRowBroadcast) {
  ViewGenerator gen(2026);
  for (const size_t es : {1, 2, 4, 8, 16}) {
    for (const int64_t row : {1, 3, 8, 17, 1024, 2049, 8193}) {
      const int64_t rows = std::max<int64_t>(3, 20000 / row / int64_t(es));
      for (const int64_t shift : {0, 1, 5}) {
        CopyOptions options;
        options.stream_min_bytes = 0;
        options.threads = shift == 5 && testing::ThreadsAllowed() ? 2 : 1;
        const sk_view src = MakeView({rows, row}, {0, 1}, 0);
        const sk_view dst = MakeView({rows, row}, {row, 1}, shift);
        Bytes src_buffer(size_t(row) * es);
        Bytes dst_buffer(size_t(rows * row + shift + 7) * es);
        gen.Randomize(src_buffer);
        gen.Randomize(dst_buffer);
        Bytes want = dst_buffer, got = dst_buffer;
        reference::Copy(es, src, src_buffer.data(), dst, want.data(), nullptr);
        Copy(es, src, src_buffer.data(), dst, got.data(), nullptr, options);
        ASSERT_EQ(got, want) << "row " << row << " rows " << rows << " es "
                             << es << " shift " << shift;
      }
    }
  }
  ExpectForcedTargetRan();
}

TEST_P(CopyOnTarget, PadReadsTheFillValue) {
  // Nx vector 129: pad [2,3] by [(1,1),(0,2)] -> [4,5], offset -3.
  const int32_t src_data[6] = {1, 2, 3, 4, 5, 6};
  sk_view src = MakeView({4, 5}, {3, 1}, -3);
  src.has_mask = 1;
  src.mask_begin[0] = 1, src.mask_end[0] = 3;
  src.mask_begin[1] = 0, src.mask_end[1] = 3;
  int32_t out[20];
  const int32_t fill = -7;
  Copy(4, src, src_data, MakeView({4, 5}, {5, 1}, 0), out, &fill);
  const int32_t want[20] = {-7, -7, -7, -7, -7, 1,  2,  3,  -7, -7,
                            4,  5,  6,  -7, -7, -7, -7, -7, -7, -7};
  EXPECT_EQ(std::memcmp(out, want, sizeof(out)), 0);
}

TEST_P(CopyOnTarget, OverlapBehavesAsThroughATemporary) {
  // a[1:] = a[:-1] and a[:-1] = a[1:] on the same buffer (NumPy copyto).
  std::vector<int64_t> a{0, 1, 2, 3, 4, 5, 6, 7};
  Copy(8, MakeView({7}, {1}, 0), a.data(), MakeView({7}, {1}, 1), a.data());
  EXPECT_EQ(a, (std::vector<int64_t>{0, 0, 1, 2, 3, 4, 5, 6}));
  Copy(8, MakeView({7}, {1}, 1), a.data(), MakeView({7}, {1}, 0), a.data());
  EXPECT_EQ(a, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 6}));
  // In-place reversal a[:] = a[::-1].
  Copy(8, MakeView({8}, {-1}, 7), a.data(), MakeView({8}, {1}, 0), a.data());
  EXPECT_EQ(a, (std::vector<int64_t>{6, 6, 5, 4, 3, 2, 1, 0}));
}

TEST(Materialize, TransposedViewBecomesCContiguous) {
  const double a[6] = {0, 1, 2, 3, 4, 5};  // [2,3]
  const Materialized m = Materialize(8, MakeView({3, 2}, {1, 3}, 0), a);
  EXPECT_EQ(m.view.ndim, 2);
  EXPECT_EQ(m.view.strides[0], 2);
  EXPECT_EQ(m.view.strides[1], 1);
  double got[6];
  std::memcpy(got, m.data.get(), sizeof(got));
  const double want[6] = {0, 3, 1, 4, 2, 5};
  EXPECT_EQ(std::memcmp(got, want, sizeof(got)), 0);
  EXPECT_SK_ERROR(Materialize(8, MakeView({1LL << 60, 4}, {0, 0}, 0), a),
                  ErrorKind::kOverflow,
                  "materialize: 4611686018427387904 * 8 overflows int64");
}

TEST(Copy, AllocationFailureLeavesTheDestinationUntouched) {
  std::vector<int32_t> a{0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<int32_t> before = a;
  FailAllocationAfterForTest(0);
  EXPECT_SK_ERROR(Copy(4, MakeView({8}, {-1}, 7), a.data(),
                       MakeView({8}, {1}, 0), a.data()),
                  ErrorKind::kNoMemory,
                  "copy: cannot allocate a 32-byte buffer");
  EXPECT_EQ(a, before);
  FailAllocationAfterForTest(0);  // Injection fails one allocation.
  EXPECT_SK_ERROR(Materialize(4, MakeView({8}, {1}, 0), a.data()),
                  ErrorKind::kNoMemory,
                  "materialize: cannot allocate a 32-byte buffer");
  FailAllocationAfterForTest(-1);
  Copy(4, MakeView({8}, {-1}, 7), a.data(), MakeView({8}, {1}, 0), a.data());
  EXPECT_EQ(a, (std::vector<int32_t>{7, 6, 5, 4, 3, 2, 1, 0}));
}

// Inputs the fuzzer found; under the sanitizer build any UB here fails.
TEST(Copy, FuzzRegressions) {
  int64_t data[4] = {};
  // An empty view whose non-empty axes alone would overflow (ValidSpan used
  // to multiply before noticing the empty axis).
  const sk_view empty = MakeView({4294967296, 0}, {549755813888, 1}, 0);
  Copy(8, empty, data, empty, data);
  // A stride of INT64_MIN: |stride| is not an int64 (the distinct-position
  // check used to negate it).
  EXPECT_SK_ERROR(Copy(8, MakeView({2}, {1}, 0), data,
                       MakeView({2}, {INT64_MIN}, INT64_MAX - 1), data),
                  ErrorKind::kOverflow,
                  "copy: byte offsets of view offset 9223372036854775806 span "
                  "[-2, 9223372036854775806] with element size 8 overflow "
                  "int64");
  // An axis extent beyond int64 inside a span that fits thanks to a negative
  // offset (found by copy_fuzz: ValidSpan must not form 4 * stride in int64).
  EXPECT_SK_ERROR(
      Fill(1, MakeView({5}, {3000000000000000000}, -3000000000000000000),
           nullptr, data),
      ErrorKind::kInvalidArgument,
      "fill: destination data is NULL for a non-empty view");
  EXPECT_SK_ERROR(
      Fill(1, MakeView({3}, {INT64_MIN / 2}, INT64_MAX), data, data),
      ErrorKind::kOverflow,
      "fill: element offsets of view shape [3] strides [-4611686018427387904] "
      "offset 9223372036854775807 overflow int64");
}

TEST_P(CopyOnTarget, FillWritesValidPositionsOnly) {
  std::vector<uint16_t> a(12, 0);
  sk_view v = MakeView({3, 4}, {4, 1}, 0);
  v.has_mask = 1;
  v.mask_begin[0] = 1, v.mask_end[0] = 3;
  v.mask_begin[1] = 2, v.mask_end[1] = 4;
  const uint16_t value = 9;
  Fill(2, v, a.data(), &value);
  EXPECT_EQ(a, (std::vector<uint16_t>{0, 0, 0, 0, 0, 0, 9, 9, 0, 0, 9, 9}));
  std::vector<uint16_t> b(12, 0);
  reference::Fill(2, v, b.data(), &value);
  EXPECT_EQ(a, b);
}

TEST(Copy, Errors) {
  int64_t data[8] = {};
  const sk_view v = MakeView({2, 3}, {3, 1}, 0);
  EXPECT_SK_ERROR(Copy(3, v, data, v, data), ErrorKind::kUnsupported,
                  "copy: element size 3 is not 1, 2, 4, 8 or 16 bytes");
  EXPECT_SK_ERROR(Copy(8, MakeView({4}, {1}, 0), data, v, data),
                  ErrorKind::kInvalidArgument,
                  "copy: cannot broadcast source shape [4] to destination "
                  "shape [2,3]");
  EXPECT_SK_ERROR(Copy(8, v, data, MakeView({2, 3}, {0, 1}, 0), data),
                  ErrorKind::kInvalidArgument,
                  "copy: destination is a broadcast view (stride 0 on axis 0 "
                  "of size 2) and is not writeable");
  EXPECT_SK_ERROR(Copy(8, v, data, MakeView({2, 3}, {1, 1}, 0), data),
                  ErrorKind::kInvalidArgument,
                  "copy: destination positions may share memory (strides "
                  "[1,1] over shape [2,3]); a destination must write each "
                  "location once");
  sk_view bad = v;
  bad.ndim = 33;
  EXPECT_SK_ERROR(Copy(8, v, data, bad, data), ErrorKind::kInvalidArgument,
                  "copy: view ndim 33 is outside [0, 32]");
  EXPECT_SK_ERROR(
      Copy(8, MakeView({2}, {INT64_MAX}, 1), data, MakeView({2}, {1}, 0), data),
      ErrorKind::kOverflow,
      "copy: element offsets of view shape [2] strides "
      "[9223372036854775807] offset 1 overflow int64");
  EXPECT_SK_ERROR(
      Copy(8, MakeView({2}, {1LL << 60}, 0), data, MakeView({2}, {1}, 0), data),
      ErrorKind::kOverflow,
      "copy: byte offsets of view offset 0 span [0, "
      "1152921504606846976] with element size 8 overflow int64");
  sk_view masked = v;
  masked.has_mask = 1;
  masked.mask_begin[0] = 0, masked.mask_end[0] = 3;
  EXPECT_SK_ERROR(Copy(8, masked, data, v, data), ErrorKind::kInvalidArgument,
                  "copy: mask [0, 3) of axis 0 is not a range within [0, 2]");
  EXPECT_SK_ERROR(Copy(8, v, nullptr, v, data), ErrorKind::kInvalidArgument,
                  "copy: source data is NULL for a non-empty view");
  EXPECT_SK_ERROR(Fill(8, v, data, nullptr), ErrorKind::kInvalidArgument,
                  "fill: value is NULL");
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

TEST(ViewApi, KernelsTakeViews) {
  const float a[6] = {0, 1, 2, 3, 4, 5};
  const View at = View::Make(Dims{2, 3}).Permute(Dims{1, 0});  // a.T
  const View c = View::Make(Dims{3, 2});
  float t[6] = {};
  Copy(sizeof(float), at, a, c, t);
  EXPECT_THAT(t, ::testing::ElementsAre(0, 3, 1, 4, 2, 5));
  float sum[6] = {};
  Binary(BinaryOp::kAdd, DType::kFloat32, at, a, c, t, c, sum);
  EXPECT_THAT(sum, ::testing::ElementsAre(0, 6, 2, 8, 4, 10));
  float rows[3] = {};
  const int32_t axes[] = {1};
  Reduce(ReduceOp::kSum, DType::kFloat32, at, a, axes, View::Make(Dims{3}),
         rows);
  EXPECT_THAT(rows, ::testing::ElementsAre(3, 5, 7));
  float dot[1] = {};
  const View operands[] = {View::Make(Dims{6}), View::Make(Dims{6})};
  const void* datas[] = {a, a};
  Einsum("i,i->", DType::kFloat32, operands, datas, View::Make(Dims{}), dot);
  EXPECT_EQ(dot[0], 55.0f);
}

}  // namespace
}  // namespace stridekit
