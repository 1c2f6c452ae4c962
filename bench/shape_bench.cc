// ns per call of the shape core. Every case runs on Dims, so none allocates.
#include <benchmark/benchmark.h>

#include <string>
#include <string_view>
#include <vector>

#include "stridekit/logical_shape.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

void BM_Broadcast2(benchmark::State& state) {
  const Dims a{8, 1, 6, 1}, b{7, 1, 5};
  for (auto _ : state) {
    benchmark::DoNotOptimize(Broadcast(a, b));
  }
  state.SetLabel("peer=broadcast2");
}
BENCHMARK(BM_Broadcast2);

void BM_Broadcast4(benchmark::State& state) {
  const Dims a{8, 1, 6, 1}, b{7, 1, 5}, c{1, 1, 1, 5}, d{6, 1};
  const DimsView shapes[] = {a, b, c, d};
  for (auto _ : state) {
    benchmark::DoNotOptimize(BroadcastShapes(shapes));
  }
  state.SetLabel("peer=broadcast4");
}
BENCHMARK(BM_Broadcast4);

void BM_UnravelIndex(benchmark::State& state) {
  const int rank = static_cast<int>(state.range(0));
  Dims shape(rank, 7);
  const int64_t size = Numel(shape);
  int64_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(UnravelIndex(k, shape));
    k = k + 1 == size ? 0 : k + 1;
  }
  state.SetLabel("peer=unravel_index_rank" + std::to_string(rank));
}
BENCHMARK(BM_UnravelIndex)->Arg(2)->Arg(4)->Arg(8);

void BM_CContiguousStrides(benchmark::State& state) {
  Dims shape(static_cast<int>(state.range(0)), 5);
  for (auto _ : state) {
    benchmark::DoNotOptimize(CContiguousStrides(shape));
  }
}
BENCHMARK(BM_CContiguousStrides)->Arg(2)->Arg(4)->Arg(8);

void BM_ShapeToString(benchmark::State& state) {
  Dims shape(static_cast<int>(state.range(0)), 128);
  for (auto _ : state) {
    benchmark::DoNotOptimize(ToString(shape));
  }
}
BENCHMARK(BM_ShapeToString)->Arg(2)->Arg(4)->Arg(8);

// GoMLX's String() of a logical shape with a named dynamic axis, e.g.
// "(Float32)[batch=?, 128, 128]" at rank 3.
void BM_LogicalShapeString(benchmark::State& state) {
  const int rank = static_cast<int>(state.range(0));
  Dims dims(rank, 128);
  dims[0] = LogicalShape::kDynamicDim;
  std::vector<std::string_view> names(rank, "");
  names[0] = "batch";
  const LogicalShape shape =
      LogicalShape::MakeDynamic(DType::kFloat32, dims, names);
  for (auto _ : state) {
    benchmark::DoNotOptimize(shape.String());
  }
}
BENCHMARK(BM_LogicalShapeString)->Arg(2)->Arg(4)->Arg(8);

void BM_LogicalShapeIter(benchmark::State& state) {
  const LogicalShape shape =
      LogicalShape::Make(DType::kFloat32, Dims{8, 8, 8, 8});
  for (auto _ : state) {
    int64_t sum = 0;
    for (const IndexStep step : shape.Iter()) sum += step.flat;
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * shape.Size());
}
BENCHMARK(BM_LogicalShapeIter);

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
