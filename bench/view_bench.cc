// ns per call of the view algebra at ranks 2, 4 and 8 (metadata only; none
// allocates, see tests/allocation_test.cc). Each case is labelled with its
// NumPy peer, the same operation on an ndarray of the same layout.
#include <benchmark/benchmark.h>

#include <string>

#include "stridekit/view.h"

namespace stridekit {
namespace {

int Rank(const benchmark::State& state) { return int(state.range(0)); }

void Label(benchmark::State& state, const char* op) {
  state.SetLabel("peer=view:" + std::string(op) + ":" +
                 std::to_string(Rank(state)));
}

// [4]*rank with every other element of the last axis: not contiguous, so
// reshape takes NumPy's no-copy path.
View Strided(int rank) {
  Dims shape(rank, 4);
  shape.back() = 8;
  return View::Make(shape).Slice("..., ::2");
}

void BM_ViewReshape(benchmark::State& state) {
  const View v = Strided(Rank(state));
  Dims split{2, 2};  // Splits the first axis.
  for (int d = 1; d < Rank(state); ++d) split.push_back(4);
  for (auto _ : state) benchmark::DoNotOptimize(v.Reshape(split));
  Label(state, "reshape");
}
BENCHMARK(BM_ViewReshape)->Arg(2)->Arg(4)->Arg(8);

void BM_ViewPermute(benchmark::State& state) {
  const View v = Strided(Rank(state));
  Dims axes;
  for (int d = Rank(state) - 1; d >= 0; --d) axes.push_back(d);
  for (auto _ : state) benchmark::DoNotOptimize(v.Permute(axes));
  Label(state, "permute");
}
BENCHMARK(BM_ViewPermute)->Arg(2)->Arg(4)->Arg(8);

void BM_ViewExpand(benchmark::State& state) {
  Dims shape(Rank(state), 4);
  shape[0] = 1;
  const View v = View::Make(shape);
  const Dims target(Rank(state), 4);
  for (auto _ : state) benchmark::DoNotOptimize(v.Expand(target));
  Label(state, "expand");
}
BENCHMARK(BM_ViewExpand)->Arg(2)->Arg(4)->Arg(8);

// "1:3, ::-1, ..., 0" (rank >= 3) or "1:3, ::-1".
const char* IndexText(int rank) {
  return rank >= 3 ? "1:3, ::-1, ..., 0" : "1:3, ::-1";
}

void BM_ViewSliceText(benchmark::State& state) {
  const View v = Strided(Rank(state));
  const char* text = IndexText(Rank(state));
  for (auto _ : state) benchmark::DoNotOptimize(v.Slice(text));
  Label(state, "slice_text");
}
BENCHMARK(BM_ViewSliceText)->Arg(2)->Arg(4)->Arg(8);

void BM_ViewSliceStructured(benchmark::State& state) {
  const View v = Strided(Rank(state));
  const SliceItems items = ParseSlices(IndexText(Rank(state)));
  for (auto _ : state) benchmark::DoNotOptimize(v.Slice(items));
  Label(state, "slice");
}
BENCHMARK(BM_ViewSliceStructured)->Arg(2)->Arg(4)->Arg(8);

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
