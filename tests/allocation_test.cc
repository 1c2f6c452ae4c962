// Counts heap allocations (this binary replaces the global operator new) and
// asserts that the shape core, the iteration plan and the view-level checks
// allocate nothing for ranks up to 8.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "stridekit/iteration_plan.h"
#include "stridekit/shape.h"

namespace {
std::atomic<int64_t> allocations{0};
}  // namespace

// The replacements pair malloc with free consistently; GCC 12 at -O1 inlines
// them and then misreads gtest's `new TestClass` as mismatched.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace stridekit {
namespace {

// Runs body and returns how many allocations it made.
template <typename Body>
int64_t AllocationsDuring(Body&& body) {
  const int64_t before = allocations.load();
  body();
  return allocations.load() - before;
}

TEST(Allocations, ShapeCoreAllocatesNothingUpToRank8) {
  for (int rank = 0; rank <= 8; ++rank) {
    const Dims shape(rank, 3), ones(rank, 1), spec{-1};
    const Dims axes(rank > 0 ? 1 : 0, 0);
    const DimsView shapes[] = {shape, ones, shape, ones};
    int64_t sink = 0;
    const int64_t count = AllocationsDuring([&] {
      sink += Numel(shape);
      sink += CContiguousStrides(shape).size();
      sink += FContiguousStrides(shape).size();
      const Dims index = UnravelIndex(Numel(shape) - 1, shape);
      sink += RavelIndex(index, CContiguousStrides(shape));
      sink += Broadcast(shape, ones).size();
      sink += BroadcastShapes(shapes).size();
      sink += BroadcastIndex(index, ones).size();
      sink += ReduceOutputShape(shape, axes, true).size();
      sink += ResolveNegOne(shape, spec).size();
    });
    EXPECT_EQ(count, 0) << "rank " << rank;
    EXPECT_GT(sink, 0);
  }
}

TEST(Allocations, IterationPlanAllocatesNothingUpToRank8) {
  for (int rank = 0; rank <= 8; ++rank) {
    const Dims shape(rank, 2);
    const OperandLayout ops[2] = {{CContiguousStrides(shape), 0},
                                  {FContiguousStrides(shape), 0}};
    int64_t visited = 0;
    const int64_t count = AllocationsDuring([&] {
      const IterationPlan plan = IterationPlan::Make(shape, ops);
      ChunkIterator chunks(plan);
      Chunk chunk;
      while (chunks.Next(chunk)) ++visited;
    });
    EXPECT_EQ(count, 0) << "rank " << rank;
    EXPECT_GT(visited, 0);
  }
}

}  // namespace
}  // namespace stridekit
