// Einsum execution (einsum_cases.h's cases) against np.einsum(optimize=False),
// np.einsum(optimize=True) and, for matrix products, np.matmul (a row per
// NumPy peer, einsum_cases.h kModes), on one thread and on
// two (NumericOptions::threads; NumPy's BLAS limited to the same count by
// bench/compare.py). Reports product-space positions per second as
// items_per_second (one multiply-add each for the plain loop).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "bench_buffer.h"
#include "einsum_cases.h"
#include "stridekit/einsum.h"
#include "stridekit/numeric_options.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

using bench::einsum::Cases;

sk_view MakeView(const Dims& shape, const Dims& strides) {
  sk_view v{};
  v.ndim = shape.size();
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

template <typename T>
void BM_Einsum(benchmark::State& state) {
  const bench::einsum::Case& c = Cases()[state.range(0)];
  const char* const mode = bench::einsum::kModes[state.range(1)];
  const int threads = int(state.range(2));
  const int64_t es = sizeof(T);
  std::vector<bench::Buffer> buffers;
  std::vector<sk_view> views;
  std::vector<const void*> datas;
  for (const bench::einsum::Shape& s : c.shapes) {
    const Dims shape(s);
    // Operand 0 of a strided case: a[..., ::step0] of a C-order buffer.
    const int64_t step = buffers.empty() ? c.step0 : 1;
    Dims full = shape;
    if (!full.empty()) full.back() *= step;
    Dims strides = CContiguousStrides(full);
    if (!strides.empty()) strides.back() *= step;
    const int64_t n = Numel(full);
    buffers.emplace_back(n * es, int(buffers.size()));
    std::fill_n(reinterpret_cast<T*>(buffers.back().data), n, T(0.5));
    views.push_back(MakeView(shape, strides));
  }
  for (const auto& b : buffers) datas.push_back(b.data);
  const Dims out_shape(c.out);
  bench::Buffer out(Numel(out_shape) * es, 3);
  const sk_view out_view = MakeView(out_shape, CContiguousStrides(out_shape));
  const DType t = es == 8 ? DType::kFloat64 : DType::kFloat32;
  const NumericOptions options{threads};
  for (auto _ : state) {
    Einsum(c.spec, t, views, datas, out_view, out.data, options);
    benchmark::ClobberMemory();
  }
  const T* result = reinterpret_cast<const T*>(out.data);
  if (result[0] != T(bench::einsum::Expected(c)) ||
      result[Numel(out_shape) - 1] != T(bench::einsum::Expected(c))) {
    state.SkipWithError("wrong result");
  }
  state.SetItemsProcessed(state.iterations() * c.positions);
  state.SetLabel(bench::einsum::Label(c, es == 8, mode, threads));
}

// Every case in float32 (float64 too where the case says), each NumPy mode
// the case has, on 1 and 2 threads.
void EinsumArgs(benchmark::internal::Benchmark* b, bool float64) {
  for (size_t i = 0; i < Cases().size(); ++i) {
    if (float64 && !Cases()[i].float64) continue;
    for (int mode : {0, 1, 2}) {
      if ((mode == 0 && !Cases()[i].plain) || (mode == 2 && !Cases()[i].gemm)) {
        continue;
      }
      for (int threads : {1, 2}) b->Args({int64_t(i), mode, threads});
    }
  }
}

BENCHMARK(BM_Einsum<float>)
    ->Apply([](benchmark::internal::Benchmark* b) { EinsumArgs(b, false); })
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Einsum<double>)
    ->Apply([](benchmark::internal::Benchmark* b) { EinsumArgs(b, true); })
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
