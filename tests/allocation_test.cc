// Counts heap allocations (this binary replaces the global operator new) and
// asserts that the shape core, the iteration plan, the view-level checks and
// the view algebra (C++ and C ABI) allocate nothing for ranks up to 8.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "stridekit/iteration_plan.h"
#include "stridekit/logical_shape.h"
#include "stridekit/shape.h"
#include "stridekit/stridekit.h"
#include "stridekit/view.h"

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
    const Operand ops[2] = {{CContiguousStrides(shape), 0},
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

TEST(Allocations, ViewOperationsAllocateNothingUpToRank8) {
  for (int rank = 2; rank <= 8; ++rank) {
    const Dims shape(rank, 4), zeros(rank, 0), ones(rank, 1);
    Dims reversed, split{2, 2}, grown(rank, 4), begin(rank, 1);
    for (int d = rank - 1; d >= 0; --d) reversed.push_back(d);
    for (int d = 1; d < rank; ++d) split.push_back(4);
    grown.insert(0, 3);
    const SliceItem items[] = {
        SliceItem::Range(1, 3), SliceItem::Range({}, {}, -1),
        SliceItem::Ellipsis(), SliceItem::NewAxis(), SliceItem::Index(0)};
    const std::span<const SliceItem> structured(items, rank >= 3 ? 5 : 2);
    const char* text = rank >= 3 ? "1:3, ::-1, ..., None, 0" : "1:3, ::-1";
    int64_t sink = 0;
    const int64_t count = AllocationsDuring([&] {
      const View c = View::Make(shape);
      const View t = c.Permute(reversed);
      sink += t.Reshape(split).ndim();  // NumPy no-copy path
      sink += c.Reshape(split).ndim();  // contiguous path
      sink += c.Shrink(begin, shape).ndim();
      sink += c.Slice("0:1").Expand(shape).Flags();
      sink += c.Expand(grown).ndim();
      sink += c.Pad(ones, ones).Shrink(zeros, shape).ValidSpan().hi;
      sink += c.Flip(0).Squeeze().Unsqueeze(Dims{0}).ndim();
      sink += c.SwapAxes(0, -1).MoveAxis(Dims{0}, Dims{-1}).ndim();
      sink += c.Slice(structured).ndim() + c.Slice(text).ndim();
      sink += Compose(t, View::Make(Dims{4}).Slice("::2")).offset();
      sink += c.CoordinatesOf(c.numel() - 1).size() + c.OffsetOf(1);
      sink += c.IsSimpleSlice() + c.RequiredBufferSize();
      sk_view v, out;
      c.ToC(&v);
      sink += sk_view_slice(&v, text, &out) + sk_view_flip(&out, 0, &out);
      sink += sk_view_reshape(&v, split.size(), split.data(), &out);
      sink += sk_view_flags(&out);
    });
    EXPECT_EQ(count, 0) << "rank " << rank;
    EXPECT_NE(sink, 0);
  }
}

TEST(Allocations, LogicalShapeWithoutNamesAllocatesNothingUpToRank8) {
  for (int rank = 0; rank <= 8; ++rank) {
    const Dims dims(rank, 3);
    int64_t sink = 0;
    const int64_t count = AllocationsDuring([&] {
      const LogicalShape s = LogicalShape::Make(DType::kFloat32, dims);
      const LogicalShape copy = s;
      sink += copy.Size() + copy.ByteSize() + copy.Strides().size();
      sink += (copy == s) + copy.EqualDimensions(s) + copy.IsDynamic();
      copy.CheckDims(dims);
      for (const IndexStep step : copy.Iter()) sink += step.flat;
      Dims indices(rank, 0);
      for (const IndexStep step : copy.IterOn(indices.span())) {
        sink += step.index.size();
      }
    });
    EXPECT_EQ(count, 0) << "rank " << rank;
    EXPECT_NE(sink, 0);
  }
}

}  // namespace
}  // namespace stridekit
