// The iteration plan: canonicalisation golden cases, and a property test that
// walking a plan (outer odometer + inner rows or 2-D tiles) visits exactly the
// same per-operand offset tuples as a naive C-order walk of the input.
#include "stridekit/iteration_plan.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

#include "stridekit/parallel.h"
#include "stridekit/shape.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Vec;
using V = std::vector<int64_t>;

IterationPlan Plan(V shape, std::vector<std::pair<V, int64_t>> ops) {
  std::vector<Operand> layouts;
  for (auto& [strides, offset] : ops)
    layouts.push_back({Dims(strides), offset});
  return IterationPlan::Make(shape, layouts);
}

TEST(IterationPlan, ContiguousCoalescesToOneAxis) {
  auto p = Plan({2, 3, 4}, {{{12, 4, 1}, 5}, {{12, 4, 1}, 0}});
  EXPECT_EQ(Vec(p.shape()), V{24});
  EXPECT_EQ(p.inner_kind(0), InnerKind::kContiguous);
  EXPECT_EQ(p.inner_kind(1), InnerKind::kContiguous);
  EXPECT_EQ(p.outer_size(), 1);
  EXPECT_EQ(p.offset(0), 5);
  EXPECT_EQ(p.Describe(),
            "shape [24] numel 24 | op0 strides [1] offset 5 contiguous | op1 "
            "strides [1] offset 0 contiguous");
}

TEST(IterationPlan, SizeOneAxesDropAndScalar) {
  auto p = Plan({1, 5, 1}, {{{7, 1, 99}, 0}, {{0, 2, 3}, 1}});
  EXPECT_EQ(Vec(p.shape()), V{5});
  EXPECT_EQ(p.inner_kind(1), InnerKind::kStrided);
  auto s = Plan({}, {{{}, 3}, {{}, 4}});
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(s.inner_size(), 1);
  EXPECT_EQ(s.outer_size(), 1);
}

TEST(IterationPlan, EmptyShape) {
  auto p = Plan({3, 0, 2}, {{{0, 0, 1}, 0}});
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.outer_size(), 0);
  Chunk c;
  ChunkIterator it(p);
  EXPECT_FALSE(it.Next(c));
}

TEST(IterationPlan, TransposeIsTiled) {
  // out[i][j] = in[j][i]: out [3,4] C-order, in strides [1,3].
  auto p = Plan({3, 4}, {{{4, 1}, 0}, {{1, 3}, 0}});
  EXPECT_TRUE(p.tiled());
  EXPECT_EQ(p.inner_kind(1), InnerKind::kTransposed);
  EXPECT_EQ(Vec(p.shape()), (V{3, 4}));
  EXPECT_EQ(Vec(p.strides(1)), (V{1, 3}));
  EXPECT_EQ(p.outer_ndim(), 0);
  EXPECT_EQ(p.outer_size(), 1);
  // Without tiles the input stays strided on the inner axis.
  const Operand ops[] = {{{4, 1}, 0}, {{1, 3}, 0}};
  const Dims shape{3, 4};
  auto rows = IterationPlan::Make(shape, ops, /*allow_tiles=*/false);
  EXPECT_FALSE(rows.tiled());
  EXPECT_EQ(rows.inner_kind(1), InnerKind::kStrided);
  EXPECT_EQ(rows.outer_size(), 3);
}

TEST(IterationPlan, PermutationMovesTileAxis) {
  // Permutation (2,0,1) of a C-contiguous [4,5,6] input coalesces to 2-D.
  auto p = Plan({6, 4, 5}, {{{20, 5, 1}, 0}, {{1, 30, 6}, 0}});
  EXPECT_TRUE(p.tiled());
  EXPECT_EQ(Vec(p.shape()), (V{6, 20}));
  EXPECT_EQ(Vec(p.strides(0)), (V{20, 1}));
  EXPECT_EQ(Vec(p.strides(1)), (V{1, 6}));
  // Permutation (2,1,0) stays 3-D; the input's stride-1 axis becomes the
  // tile axis, next to the inner one.
  auto q = Plan({6, 5, 4}, {{{20, 4, 1}, 0}, {{1, 6, 30}, 0}});
  EXPECT_TRUE(q.tiled());
  EXPECT_EQ(Vec(q.shape()), (V{5, 6, 4}));
  EXPECT_EQ(Vec(q.strides(0)), (V{4, 20, 1}));
  EXPECT_EQ(Vec(q.strides(1)), (V{6, 1, 30}));
  EXPECT_EQ(q.outer_size(), 5);
}

TEST(IterationPlan, FuseTilesJoinsOuterAxesIntoShortTiles) {
  // dst = src.transpose(4,3,2,1,0) for a C-contiguous src [3,4,5,6,7]: the
  // plain tile is 7 x 3.
  auto p = Plan({7, 6, 5, 4, 3},
                {{{360, 60, 12, 3, 1}, 0}, {{1, 7, 42, 210, 840}, 0}});
  ASSERT_TRUE(p.tiled());
  EXPECT_EQ(Vec(p.shape()), (V{6, 5, 4, 7, 3}));
  EXPECT_EQ(p.tile_row_axes(), 1);
  EXPECT_EQ(p.tile_col_axes(), 1);
  EXPECT_EQ(p.outer_size(), 120);
  // Rows take the axes that continue the input (strides 7 then 42), columns
  // the one that continues the output (stride 3); rows stop at 210 >= 64,
  // columns at 12 (the output's stride-12 axis already joined the rows).
  auto f = p;
  f.FuseTiles(64, 64);
  EXPECT_EQ(Vec(f.shape()), (V{5, 6, 7, 4, 3}));
  EXPECT_EQ(Vec(f.strides(0)), (V{12, 60, 360, 3, 1}));
  EXPECT_EQ(Vec(f.strides(1)), (V{42, 7, 1, 210, 840}));
  EXPECT_EQ(f.tile_row_axes(), 3);
  EXPECT_EQ(f.tile_col_axes(), 2);
  EXPECT_EQ(f.outer_ndim(), 0);
  EXPECT_EQ(f.outer_size(), 1);
  EXPECT_EQ(f.inner_kind(1), InnerKind::kTransposed);
  EXPECT_NE(f.Describe().find("tiled 3x2 axes"), std::string::npos);
  // Limits that the plain tile meets, and untiled plans, change nothing.
  auto same = p;
  same.FuseTiles(7, 3);
  EXPECT_EQ(Vec(same.shape()), Vec(p.shape()));
  EXPECT_EQ(same.tile_row_axes() + same.tile_col_axes(), 2);
  auto rows = Plan({3, 4}, {{{4, 1}, 0}, {{4, 1}, 0}});
  rows.FuseTiles(64, 64);
  EXPECT_FALSE(rows.tiled());
  EXPECT_EQ(rows.outer_ndim(), 0);
  EXPECT_EQ(rows.tile_col_axes(), 1);
}

TEST(IterationPlan, FuseTilesKeepsTablesBounded) {
  // A 2 x 30000 x 3 reversed: the long axis would make 90000 rows, more than
  // kMaxFusedTileExtent, so it joins the columns (60000) instead.
  auto p = Plan({3, 30000, 2}, {{{60000, 2, 1}, 0}, {{1, 3, 90000}, 0}});
  ASSERT_TRUE(p.tiled());
  auto f = p;
  f.FuseTiles(1 << 20, 1 << 20);
  EXPECT_EQ(Vec(f.shape()), (V{3, 30000, 2}));
  EXPECT_EQ(Vec(f.strides(0)), (V{60000, 2, 1}));
  EXPECT_EQ(f.tile_row_axes(), 1);
  EXPECT_EQ(f.tile_col_axes(), 2);
  EXPECT_EQ(f.outer_size(), 1);
}

TEST(IterationPlan, BroadcastAndReversed) {
  auto p = Plan({3, 4}, {{{4, 1}, 0}, {{0, 1}, 0}, {{1, 0}, 2}});
  EXPECT_EQ(Vec(p.shape()), (V{3, 4}));
  EXPECT_EQ(p.inner_kind(1), InnerKind::kContiguous);
  EXPECT_EQ(p.inner_kind(2), InnerKind::kBroadcast);
  EXPECT_FALSE(p.tiled());
  // All-negative axes flip: a fully reversed copy becomes forward.
  auto r = Plan({2, 3}, {{{-3, -1}, 5}, {{-3, -1}, 5}});
  EXPECT_EQ(Vec(r.shape()), V{6});
  EXPECT_EQ(r.offset(0), 0);
  EXPECT_EQ(r.inner_kind(1), InnerKind::kContiguous);
  // A reversed input into a forward output stays reversed.
  auto m = Plan({6}, {{{1}, 0}, {{-1}, 5}});
  EXPECT_EQ(m.inner_kind(1), InnerKind::kReversed);
}

TEST(IterationPlan, Errors) {
  EXPECT_SK_ERROR(Plan({2, 3}, {{{3}, 0}}), ErrorKind::kInvalidArgument,
                  "iteration_plan: operand 0 has 1 strides for shape [2,3]");
  EXPECT_SK_ERROR(Plan({3}, {{{1LL << 62}, 0}}), ErrorKind::kOverflow,
                  "iteration_plan: offsets of operand 0 (strides "
                  "[4611686018427387904], offset 0) over shape [3] overflow "
                  "int64");
  EXPECT_SK_ERROR(Plan({2}, {}), ErrorKind::kInvalidArgument,
                  "iteration_plan: 0 operands, expected 1 to 8");
  auto p = Plan({4, 4}, {{{4, 1}, 0}});
  EXPECT_SK_ERROR(ChunkIterator(p, 0, 2), ErrorKind::kOutOfRange,
                  "chunk_iterator: range [0, 2) is outside [0, 1)");
}

using Tuple = std::array<int64_t, 3>;

// Every offset tuple a plan visits over outer positions [begin, end).
void WalkPlan(const IterationPlan& p, int64_t begin, int64_t end,
              std::vector<Tuple>& out) {
  const int nops = p.num_operands();
  const int64_t inner = p.inner_size();
  const int64_t rows = p.tiled() ? p.shape()[p.ndim() - 2] : 1;
  ChunkIterator it(p, begin, end);
  Chunk c;
  while (it.Next(c)) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t i = 0; i < inner; ++i) {
        Tuple t{};
        for (int op = 0; op < nops; ++op) {
          const int64_t row_stride =
              p.tiled() ? p.strides(op)[p.ndim() - 2] : 0;
          t[op] = c.offsets[op] + r * row_stride + i * p.inner_stride(op);
        }
        out.push_back(t);
      }
    }
  }
}

// ForEachChunk visits the positions ChunkIterator gives over [begin, end),
// in its order.
void ExpectForEachChunkWalksLikeChunkIterator(const IterationPlan& p,
                                              int64_t begin, int64_t end) {
  const int nops = p.num_operands();
  std::vector<Tuple> iterated, visited;
  ChunkIterator it(p, begin, end);
  Chunk c;
  while (it.Next(c)) {
    Tuple t{};
    for (int op = 0; op < nops; ++op) t[op] = c.offsets[op];
    iterated.push_back(t);
  }
  ForEachChunk(p, begin, end, [&](const int64_t* offsets) {
    Tuple t{};
    for (int op = 0; op < nops; ++op) t[op] = offsets[op];
    visited.push_back(t);
  });
  EXPECT_EQ(visited, iterated)
      << "[" << begin << ", " << end << ") of " << p.Describe();
}

TEST(ForEachChunk, RejectsRangesOutsideThePlan) {
  auto p = Plan({4, 4}, {{{8, 1}, 0}});
  ASSERT_EQ(p.outer_ndim(), 1);
  EXPECT_SK_ERROR(ForEachChunk(p, 0, 5, [](const int64_t*) {}),
                  ErrorKind::kOutOfRange,
                  "chunk_iterator: range [0, 5) is outside [0, 4)");
  EXPECT_SK_ERROR(ForEachChunk(p, 3, 2, [](const int64_t*) {}),
                  ErrorKind::kOutOfRange,
                  "chunk_iterator: range [3, 2) is outside [0, 4)");
}

TEST(IterationPlan, PropertyVisitsTheSameOffsets) {
  std::mt19937_64 rng(1234);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 3000; ++trial) {
    const int rank = int(pick(0, 5));
    const int nops = int(pick(1, 3));
    V shape(rank);
    for (auto& d : shape) d = pick(0, 9) == 0 ? pick(0, 1) : pick(1, 5);
    std::vector<Operand> ops(nops);
    for (int op = 0; op < nops; ++op) {
      ops[op].offset = pick(-50, 50);
      // Either a permuted / flipped C layout (so coalescing and tiling
      // trigger) or random strides.
      const V c = Vec(CContiguousStrides(shape));
      V perm(rank);
      for (int d = 0; d < rank; ++d) perm[d] = d;
      std::shuffle(perm.begin(), perm.end(), rng);
      for (int d = 0; d < rank; ++d) {
        int64_t s = pick(0, 3) ? c[perm[d]] : pick(-7, 7);
        if (pick(0, 5) == 0) s = -s;
        if (op > 0 && pick(0, 6) == 0) s = 0;
        ops[op].strides.push_back(s);
      }
    }
    const IterationPlan plan = IterationPlan::Make(shape, ops);
    std::vector<Tuple> want;
    const int64_t numel = Numel(shape);
    for (int64_t k = 0; k < numel; ++k) {
      const Dims idx = UnravelIndex(k, shape);
      Tuple t{};
      for (int op = 0; op < nops; ++op) {
        t[op] = ops[op].offset + RavelIndex(idx, ops[op].strides);
      }
      want.push_back(t);
    }
    std::vector<Tuple> got;
    const Dims bounds = PartitionOuter(plan, int(pick(1, 4)));
    for (int i = 0; i + 1 < bounds.size(); ++i) {
      WalkPlan(plan, bounds[i], bounds[i + 1], got);
      ExpectForEachChunkWalksLikeChunkIterator(plan, bounds[i], bounds[i + 1]);
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want) << "trial " << trial << ": " << plan.Describe();
  }
}

TEST(PartitionOuter, DisjointCover) {
  auto p = Plan({10, 3, 7}, {{{21, 7, 1}, 0}, {{1, 10, 30}, 0}});
  const Dims b = PartitionOuter(p, 4);
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(b[b.size() - 1], p.outer_size());
  for (int i = 0; i + 1 < b.size(); ++i) EXPECT_LE(b[i], b[i + 1]);
  EXPECT_EQ(PartitionOuter(p, 1000).size(),
            std::min<int64_t>(p.outer_size(), 31) + 1);
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

TEST(RunPartitioned, CoversEveryPositionOnceAndRethrows) {
  auto p = Plan({64, 3, 5}, {{{15, 5, 1}, 0}, {{1, 64, 192}, 0}});
  std::vector<std::atomic<int>> seen(size_t(p.outer_size()));
  RunPartitioned(p, 3, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) ++seen[size_t(i)];
  });
  for (auto& s : seen) EXPECT_EQ(s.load(), 1);
  EXPECT_SK_ERROR(RunPartitioned(p, 2,
                                 [&](int64_t begin, int64_t) {
                                   if (begin > 0) {
                                     Fail(ErrorKind::kNoMemory, "part ", begin);
                                   }
                                 }),
                  ErrorKind::kNoMemory,
                  StrCat("part ", PartitionOuter(p, 2)[1]));
}

// RunParallel on the persistent workers: every part exactly once, whatever
// the part count (above the pool's 64 parts too), back to back; calls from
// inside a part and from several threads at once (which find the workers
// taken) still run every part; the first failing part's error is rethrown
// after every part has finished.
TEST(RunParallel, RunsEveryPartOnceFromAnyCaller) {
  for (int parts : {1, 2, 3, 7, 64, 65, 100}) {
    for (int call = 0; call < 50; ++call) {
      auto seen = std::vector<std::atomic<int>>(size_t(parts));
      RunParallel(parts, [&](int i) { ++seen[size_t(i)]; });
      for (int i = 0; i < parts; ++i) {
        ASSERT_EQ(seen[size_t(i)].load(), 1) << parts << " parts, part " << i;
      }
    }
  }
  std::vector<std::atomic<int>> nested(9);
  RunParallel(3, [&](int outer) {
    RunParallel(3, [&](int inner) { ++nested[size_t(outer * 3 + inner)]; });
  });
  for (auto& n : nested) EXPECT_EQ(n.load(), 1);
  std::vector<std::atomic<int>> concurrent(4 * 200 * 3);
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      for (int call = 0; call < 200; ++call) {
        RunParallel(
            3, [&](int i) { ++concurrent[size_t((t * 200 + call) * 3 + i)]; });
      }
    });
  }
  for (auto& c : callers) c.join();
  for (auto& c : concurrent) EXPECT_EQ(c.load(), 1);
  std::atomic<int> finished{0};
  EXPECT_SK_ERROR(RunParallel(4,
                              [&](int i) {
                                if (i == 1 || i == 3) {
                                  Fail(ErrorKind::kNoMemory, "part ", i);
                                }
                                ++finished;
                              }),
                  ErrorKind::kNoMemory, "part 1");
  EXPECT_EQ(finished.load(), 2);
}

// A part whose thread cannot be started (here: the address space is
// limited to what the process already uses, so no thread stack fits) runs
// on the calling thread: every part runs once, nothing aborts, no
// std::system_error escapes. Nested calls take the fallback path that
// starts threads of their own. Sanitizers reserve address space of their
// own, so they skip this.
TEST(RunParallel, ThreadCreationFailureRunsPartsOnTheCaller) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers need address space of their own";
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "sanitizers need address space of their own";
#endif
#endif
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  std::vector<std::atomic<int>> runs(8);
  bool failed_to_limit = false;
  RunParallel(2, [&](int part) {
    if (part != 0) return;
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
    long pages = 0;
    FILE* statm = std::fopen("/proc/self/statm", "r");
    ASSERT_NE(statm, nullptr);
    ASSERT_EQ(std::fscanf(statm, "%ld", &pages), 1);
    std::fclose(statm);
    rlimit tight = old;
    tight.rlim_cur = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (1 << 20);
    failed_to_limit = setrlimit(RLIMIT_AS, &tight) != 0;
    // From inside a part: the pool is held, so the parts want threads of
    // their own, which cannot start.
    RunParallel(8, [&](int i) { ++runs[size_t(i)]; });
    setrlimit(RLIMIT_AS, &old);
  });
  ASSERT_FALSE(failed_to_limit);
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
}

}  // namespace
}  // namespace stridekit
