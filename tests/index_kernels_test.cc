// Equivalence of the batch index kernels on every available target with the
// scalar reference (lib/index_reference.h), over seeded random cases.
#include "stridekit/index_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include "equivalence.h"
#include "index_reference.h"
#include "strided_layout.h"
#include "stridekit/shape.h"
#include "test_util.h"

namespace stridekit::testing {
namespace {

using Rng = std::mt19937_64;

int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

bool OneIn(Rng& rng, int64_t k) { return Uniform(rng, 0, k - 1) == 0; }

// A stride: zero, small of either sign, or huge.
int64_t RandomStride(Rng& rng) {
  switch (Uniform(rng, 0, 5)) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return Uniform(rng, -9, 9);
    case 3:
      return Uniform(rng, -1000, 1000);
    case 4:
      return Uniform(rng, -(int64_t{1} << 40), int64_t{1} << 40);
    default:
      return Uniform(rng, INT64_MIN, INT64_MAX);
  }
}

// Input data placed `misalign` elements past a vector-aligned start.
class Input {
 public:
  Input(std::vector<int64_t> values, size_t misalign)
      : storage_(values.size() + misalign + 1, -3), misalign_(misalign) {
    std::copy(values.begin(), values.end(), storage_.begin() + misalign);
  }
  const int64_t* data() const { return storage_.data() + misalign_; }

 private:
  std::vector<int64_t> storage_;
  size_t misalign_;
};

class IndexKernelsTest : public TargetTest {};
STRIDEKIT_INSTANTIATE_FOR_EACH_TARGET(IndexKernelsTest);

// ---------------------------------------------------------------- RavelBatch

TEST_P(IndexKernelsTest, RavelBatchMatchesReference) {
  Rng rng(0x5eed0001);
  for (int iteration = 0; iteration < 600; ++iteration) {
    const int ndim = static_cast<int>(Uniform(rng, 0, 8));
    const std::vector<int64_t> sizes = BatchSizes();
    const int64_t n = sizes[Uniform(rng, 0, sizes.size() - 1)];
    Dims strides;
    for (int d = 0; d < ndim; ++d) strides.push_back(RandomStride(rng));
    const int64_t offset = OneIn(rng, 4) ? RandomStride(rng) : 0;
    std::vector<int64_t> indices(size_t(n * ndim));
    const bool huge_indices = OneIn(rng, 4);
    for (int64_t& index : indices) {
      index = huge_indices && OneIn(rng, 8) ? Uniform(rng, INT64_MIN, INT64_MAX)
                                            : Uniform(rng, -50, 1000);
    }
    const Input input(indices, size_t(Uniform(rng, 0, 3)));
    const size_t misalign = size_t(Uniform(rng, 0, 3));
    const Outcome want = RunKernel(size_t(n), 0, [&](int64_t* out) {
      reference::RavelBatch(n, input.data(), strides, offset, out);
    });
    const Outcome got = RunKernel(size_t(n), misalign, [&](int64_t* out) {
      RavelBatch(n, input.data(), strides, offset, out);
    });
    ASSERT_EQ(got, want) << "iteration " << iteration << " n=" << n
                         << " strides=" << ToString(strides);
    if (got.ok) ExpectForcedTargetRan();
  }
}

// Vector targets multiply 32-bit halves when every stride fits int32: indices
// and strides at and just beyond the int32 range must still give the
// reference's offsets (or its overflow error), at every rank.
TEST_P(IndexKernelsTest, RavelBatchIsExactAroundTheInt32Range) {
  Rng rng(0x5eed0004);
  const int64_t edges[] = {0,
                           1,
                           -1,
                           INT32_MAX,
                           INT32_MIN,
                           int64_t{INT32_MAX} + 1,
                           int64_t{INT32_MIN} - 1,
                           int64_t{1} << 32,
                           -(int64_t{1} << 32) - 5,
                           UINT32_MAX};
  const int64_t stride_edges[] = {1,         -1,        7,
                                  INT32_MAX, INT32_MIN, int64_t{INT32_MAX} + 1};
  for (int iteration = 0; iteration < 200; ++iteration) {
    const int ndim = static_cast<int>(Uniform(rng, 1, 8));
    const int64_t n = Uniform(rng, 0, 100);
    Dims strides;
    for (int d = 0; d < ndim; ++d) {
      strides.push_back(OneIn(rng, 2) ? stride_edges[Uniform(rng, 0, 5)]
                                      : Uniform(rng, -9, 9));
    }
    std::vector<int64_t> indices(size_t(n * ndim));
    const bool rare = OneIn(rng, 2);
    for (int64_t& index : indices) {
      index = !rare || OneIn(rng, 16) ? edges[Uniform(rng, 0, 9)]
                                      : Uniform(rng, -3, 3);
    }
    const int64_t offset = OneIn(rng, 2) ? 0 : edges[Uniform(rng, 0, 9)];
    const Outcome want = RunKernel(size_t(n), 0, [&](int64_t* out) {
      reference::RavelBatch(n, indices.data(), strides, offset, out);
    });
    const Outcome got = RunKernel(size_t(n), 1, [&](int64_t* out) {
      RavelBatch(n, indices.data(), strides, offset, out);
    });
    ASSERT_EQ(got, want) << "iteration " << iteration << " n=" << n
                         << " strides=" << ToString(strides);
  }
}

TEST_P(IndexKernelsTest, RavelBatchOverflowIsReportedAtTheFirstRow) {
  // Row 9 overflows; rows before it are fine and within no vector bound.
  const int64_t big = int64_t{1} << 62;
  std::vector<int64_t> indices(40, 1);
  indices[9 * 2] = 2;
  const int64_t strides[2] = {big, 1};
  std::vector<int64_t> out(20);
  EXPECT_SK_ERROR(RavelBatch(20, indices.data(), strides, 0, out.data()),
                  ErrorKind::kOverflow,
                  "ravel_batch: row 9 index 2 * stride 4611686018427387904 at "
                  "axis 0 overflows int64");
}

TEST_P(IndexKernelsTest, RavelBatchRejectsRanksAboveTheMaximum) {
  const std::vector<int64_t> strides(kMaxRank + 1, 1);
  int64_t out = -1;
  EXPECT_SK_ERROR(RavelBatch(0, nullptr, strides, 0, &out),
                  ErrorKind::kInvalidArgument,
                  "ravel_batch: rank 33 exceeds the maximum rank 32");
  EXPECT_EQ(out, -1);
}

TEST_P(IndexKernelsTest, RavelBatchComputesOffsets) {
  const int64_t indices[] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const int64_t strides[] = {10, -1};
  std::vector<int64_t> out(6);
  RavelBatch(6, indices, strides, 100, out.data());
  EXPECT_EQ(out, (std::vector<int64_t>{100, 108, 126, 144, 162, 180}));
  ExpectForcedTargetRan();
}

// -------------------------------------------------------------- UnravelBatch

// A shape of rank `ndim` whose element count fits in int64; sometimes with
// dims so large that the count approaches or exceeds 2^52.
Dims RandomShape(Rng& rng, int ndim) {
  for (;;) {
    Dims shape;
    for (int d = 0; d < ndim; ++d) {
      switch (Uniform(rng, 0, 9)) {
        case 0:
          shape.push_back(1);
          break;
        case 1:
          shape.push_back(Uniform(rng, 1, int64_t{1} << 30));
          break;
        case 2:
          shape.push_back(OneIn(rng, 8) ? 0 : Uniform(rng, 1000, 100000));
          break;
        default:
          shape.push_back(Uniform(rng, 1, 13));
      }
    }
    int64_t numel = 1;
    bool fits = true;
    for (int64_t d : shape) {  // Zero dims aside, as CheckedNumel.
      if (d != 0) fits &= !__builtin_mul_overflow(numel, d, &numel);
    }
    if (fits) return shape;
  }
}

// A flat index in [0, numel) biased to edges: 0, numel - 1 and multiples of
// the trailing sub-products (where reciprocal division is most fragile).
int64_t RandomFlat(Rng& rng, DimsView shape, int64_t numel) {
  if (numel == 0) return 0;
  int64_t inner = 1;
  for (size_t d = Uniform(rng, 0, shape.size()); d < shape.size(); ++d) {
    inner *= shape[d];
  }
  switch (Uniform(rng, 0, 4)) {
    case 0:
      return OneIn(rng, 2) ? 0 : numel - 1;
    case 1: {
      const int64_t k = inner * Uniform(rng, 0, numel / inner - 1);
      return std::clamp<int64_t>(k + Uniform(rng, -1, 0), 0, numel - 1);
    }
    default:
      return Uniform(rng, 0, numel - 1);
  }
}

TEST_P(IndexKernelsTest, UnravelBatchMatchesReference) {
  Rng rng(0x5eed0002);
  for (int iteration = 0; iteration < 1500; ++iteration) {
    const int ndim = static_cast<int>(Uniform(rng, 0, 8));
    const Dims shape = RandomShape(rng, ndim);
    const int64_t numel = Numel(shape);
    const std::vector<int64_t> sizes = BatchSizes();
    const int64_t n = sizes[Uniform(rng, 0, sizes.size() - 1)];
    std::vector<int64_t> flat(static_cast<size_t>(n));
    for (int64_t& k : flat) k = RandomFlat(rng, shape, numel);
    if (n > 0 && OneIn(rng, 6)) {
      const int64_t bad[] = {-1, numel, numel + 1, INT64_MIN, INT64_MAX};
      flat[Uniform(rng, 0, n - 1)] = bad[Uniform(rng, 0, 4)];
    }
    const Input input(flat, size_t(Uniform(rng, 0, 3)));
    const size_t size = static_cast<size_t>(n * ndim);
    const Outcome want = RunKernel(size, 0, [&](int64_t* out) {
      reference::UnravelBatch(n, input.data(), shape, numel, out);
    });
    const Outcome got = RunKernel(
        size, size_t(Uniform(rng, 0, 3)),
        [&](int64_t* out) { UnravelBatch(n, input.data(), shape, out); });
    ASSERT_EQ(got, want) << "iteration " << iteration << " n=" << n
                         << " shape=" << ToString(shape);
    if (got.ok) ExpectForcedTargetRan();
  }
}

// Divisors and dividends at the edge of the reciprocal route's range: the
// element count is exactly 2^51 (the largest divided by reciprocals), just
// below it, or just above it (exact scalar rows).
TEST_P(IndexKernelsTest, UnravelBatchIsExactAtTheReciprocalLimit) {
  const int64_t two51 = int64_t{1} << 51;
  const std::vector<Dims> shapes = {{int64_t{1} << 26, int64_t{1} << 25},
                                    {3, 5, (two51 - 1) / 15},
                                    {two51 - 1},
                                    {two51 + 1},
                                    {67108859, 33554393},
                                    {33554393, 67108859},
                                    {2, 3, 375299968947541},
                                    {2, two51 / 2 + 1}};
  for (const Dims& shape : shapes) {
    const int64_t numel = Numel(shape);
    std::vector<int64_t> flat;
    for (int64_t delta = 0; delta < 40; ++delta) {
      const int64_t multiple =
          (numel / shape.back() - 1 - delta) * shape.back();
      for (int64_t k : {numel - 1 - delta, delta, multiple, multiple - 1}) {
        if (k >= 0 && k < numel) flat.push_back(k);
      }
    }
    const int64_t n = static_cast<int64_t>(flat.size());
    const size_t size = flat.size() * shape.size();
    const Outcome want = RunKernel(size, 0, [&](int64_t* out) {
      reference::UnravelBatch(n, flat.data(), shape, numel, out);
    });
    const Outcome got = RunKernel(size, 1, [&](int64_t* out) {
      UnravelBatch(n, flat.data(), shape, out);
    });
    ASSERT_TRUE(want.ok);
    EXPECT_EQ(got, want) << ToString(shape);
  }
}

TEST_P(IndexKernelsTest, UnravelBatchReportsTheFirstOutOfRangeIndex) {
  std::vector<int64_t> flat(21, 5);
  flat[13] = 24;
  flat[17] = -1;
  const int64_t shape[] = {2, 3, 4};
  std::vector<int64_t> out(flat.size() * 3);
  EXPECT_SK_ERROR(UnravelBatch(21, flat.data(), shape, out.data()),
                  ErrorKind::kOutOfRange,
                  "unravel_batch: flat[13] = 24 is out of bounds for shape "
                  "[2,3,4] (size 24)");
  const int64_t empty[] = {2, 0};
  EXPECT_SK_ERROR(UnravelBatch(1, flat.data(), empty, out.data()),
                  ErrorKind::kOutOfRange,
                  "unravel_batch: flat[0] = 5 is out of bounds for shape "
                  "[2,0] (size 0)");
}

TEST_P(IndexKernelsTest, UnravelBatchComputesMultiIndices) {
  const int64_t flat[] = {0, 23, 5, 12};
  const int64_t shape[] = {2, 3, 4};
  std::vector<int64_t> out(12);
  UnravelBatch(4, flat, shape, out.data());
  EXPECT_EQ(out, (std::vector<int64_t>{0, 0, 0, 1, 2, 3, 0, 1, 1, 1, 0, 0}));
  ExpectForcedTargetRan();
}

// --------------------------------------------------------------- ViewOffsets

// A view of rank `ndim` with random dims, strides of every kind, offset and
// optional mask; usually valid, sometimes with overflowing offsets.
sk_view RandomView(Rng& rng, int ndim) {
  sk_view v{};
  v.ndim = ndim;
  v.has_mask = OneIn(rng, 3);
  v.offset = OneIn(rng, 4) ? Uniform(rng, -1000, 1000) : 0;
  for (int d = 0; d < ndim; ++d) {
    const int64_t size = OneIn(rng, 12) ? 0 : Uniform(rng, 1, ndim > 4 ? 4 : 9);
    v.shape[d] = OneIn(rng, 5) ? 1 : size;
    v.strides[d] = RandomStride(rng) / (OneIn(rng, 20) ? 1 : 64);
    v.mask_begin[d] = Uniform(rng, 0, v.shape[d]);
    v.mask_end[d] =
        OneIn(rng, 2) ? v.shape[d] : Uniform(rng, v.mask_begin[d], v.shape[d]);
    if (OneIn(rng, 2)) v.mask_begin[d] = 0;
  }
  if (OneIn(rng, 3)) {  // A contiguous or expanded layout.
    int64_t next = 1;
    for (int d = ndim - 1; d >= 0; --d) {
      v.strides[d] = OneIn(rng, 3) ? 0 : next;
      next *= std::max<int64_t>(1, v.shape[d]);
    }
  }
  return v;
}

TEST_P(IndexKernelsTest, ViewOffsetsMatchesReference) {
  Rng rng(0x5eed0003);
  int valid_cases = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    const sk_view view = RandomView(rng, static_cast<int>(Uniform(rng, 0, 8)));
    int64_t numel = 1;
    for (int d = 0; d < view.ndim; ++d) numel *= view.shape[d];
    int64_t begin = Uniform(rng, 0, numel);
    int64_t count = Uniform(rng, 0, numel - begin);
    if (OneIn(rng, 3)) begin = 0, count = numel;
    if (OneIn(rng, 30)) count = numel - begin + 1;  // Out of range.
    const size_t size = static_cast<size_t>(std::max<int64_t>(count, 0));
    const Outcome want = RunKernel(size, 0, [&](int64_t* out) {
      const int64_t valid_numel = CheckStridedLayout(view, "view_offsets");
      CheckPositionRange(begin, count, valid_numel, "view_offsets");
      reference::ViewOffsets(view, begin, count, out);
    });
    const Outcome got =
        RunKernel(size, size_t(Uniform(rng, 0, 3)),
                  [&](int64_t* out) { ViewOffsets(view, begin, count, out); });
    ASSERT_EQ(got, want) << "iteration " << iteration;
    if (got.ok) {
      ExpectForcedTargetRan();
      valid_cases += count > 0;
    }
  }
  EXPECT_GT(valid_cases, 1000);
}

TEST_P(IndexKernelsTest, ViewOffsetsOfAPaddedFlippedView) {
  // shape [3, 4], element (i, j) at 20 + 4 * i - j, valid only for i in
  // [1, 3) and j in [1, 3).
  sk_view v{};
  v.ndim = 2;
  v.has_mask = 1;
  v.offset = 20;
  v.shape[0] = 3;
  v.shape[1] = 4;
  v.strides[0] = 4;
  v.strides[1] = -1;
  v.mask_begin[0] = 1;
  v.mask_end[0] = 3;
  v.mask_begin[1] = 1;
  v.mask_end[1] = 3;
  std::vector<int64_t> out(10);
  ViewOffsets(v, 1, 10, out.data());
  const int64_t m = INT64_MIN;
  EXPECT_EQ(out, (std::vector<int64_t>{m, m, m, m, 23, 22, m, m, 27, 26}));
  ExpectForcedTargetRan();
}

TEST_P(IndexKernelsTest, ViewOffsetsOfABroadcastView) {
  sk_view v{};
  v.ndim = 3;
  v.offset = 7;
  const int64_t shape[] = {2, 3, 5};
  const int64_t strides[] = {0, 5, 1};
  std::copy(shape, shape + 3, v.shape);
  std::copy(strides, strides + 3, v.strides);
  std::vector<int64_t> out(30);
  ViewOffsets(v, 0, 30, out.data());
  for (int64_t p = 0; p < 30; ++p) EXPECT_EQ(out[p], 7 + p % 15) << p;
  ExpectForcedTargetRan();
}

// ---------------------------------------------------- layout validation

TEST(StridedLayoutTest, RejectsMalformedViews) {
  sk_view v{};
  v.ndim = 33;
  EXPECT_SK_ERROR(CheckStridedLayout(v, "op"), ErrorKind::kInvalidArgument,
                  "op: view ndim 33 is outside [0, 32]");
  v.ndim = 2;
  v.shape[0] = 2;
  v.shape[1] = -1;
  EXPECT_SK_ERROR(CheckStridedLayout(v, "op"), ErrorKind::kInvalidArgument,
                  "op: negative dimension -1 at axis 1 of [2,-1]");
  v.shape[1] = 3;
  v.has_mask = 2;
  EXPECT_SK_ERROR(CheckStridedLayout(v, "op"), ErrorKind::kInvalidArgument,
                  "op: view has_mask 2 is not 0 or 1");
  v.has_mask = 1;
  v.mask_end[0] = 2;
  v.mask_begin[1] = 2;
  v.mask_end[1] = 4;
  EXPECT_SK_ERROR(CheckStridedLayout(v, "op"), ErrorKind::kInvalidArgument,
                  "op: mask [2, 4) of axis 1 is not a range within [0, 3]");
  v.mask_end[1] = 3;
  v.strides[0] = INT64_MAX;
  v.offset = 1;
  EXPECT_SK_ERROR(CheckStridedLayout(v, "op"), ErrorKind::kOverflow,
                  "op: element offsets of view shape [2,3] strides "
                  "[9223372036854775807,0] offset 1 overflow int64");
  v.offset = -1;
  EXPECT_EQ(CheckStridedLayout(v, "op"), 6);
  v.shape[0] = int64_t{1} << 62;
  v.shape[1] = 4;
  v.has_mask = 0;
  EXPECT_SK_ERROR(CheckStridedLayout(v, "op"), ErrorKind::kOverflow,
                  "op: the element count of view shape [4611686018427387904,4] "
                  "overflows int64");
}

TEST(StridedLayoutTest, RejectsPositionsOutsideTheView) {
  EXPECT_SK_ERROR(CheckPositionRange(3, 4, 6, "op"), ErrorKind::kOutOfRange,
                  "op: positions [3, 3 + 4) are outside the view's [0, 6)");
  EXPECT_SK_ERROR(CheckPositionRange(-1, 1, 6, "op"), ErrorKind::kOutOfRange,
                  "op: positions [-1, -1 + 1) are outside the view's [0, 6)");
  CheckPositionRange(6, 0, 6, "op");
}

TEST(StridedLayoutTest, CoalescesContiguousAndDropsUnitAxes) {
  sk_view v{};
  v.ndim = 4;
  const int64_t shape[] = {2, 1, 3, 4};
  const int64_t strides[] = {12, 99, 4, 1};
  std::copy(shape, shape + 4, v.shape);
  std::copy(strides, strides + 4, v.strides);
  const sk_view c = CoalesceAxes(v);
  ASSERT_EQ(c.ndim, 1);
  EXPECT_EQ(c.shape[0], 24);
  EXPECT_EQ(c.strides[0], 1);
  // A masked axis is never merged.
  v.has_mask = 1;
  for (int d = 0; d < 4; ++d) v.mask_end[d] = shape[d];
  v.mask_begin[2] = 1;
  const sk_view m = CoalesceAxes(v);
  ASSERT_EQ(m.ndim, 3);
  EXPECT_EQ(m.has_mask, 1);
  EXPECT_EQ(m.mask_begin[1], 1);
}

}  // namespace
}  // namespace stridekit::testing
