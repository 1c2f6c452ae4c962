// Einsum execution (einsum_cases.h's cases) against np.einsum(optimize=False),
// np.einsum(optimize=True) and, for matrix products, np.matmul (a row per
// NumPy peer, einsum_cases.h kModes), on one thread and on
// two (NumericOptions::threads; NumPy's BLAS limited to the same count by
// bench/compare.py). Reports product-space positions per second as
// items_per_second (one multiply-add each for the plain loop).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench_buffer.h"
#include "copy_reference.h"
#include "einsum_cases.h"
#include "numeric_cases.h"
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

// The operands of case c (each element 0.5), laid out as einsum_cases.h
// says, and its output.
struct CaseBuffers {
  std::vector<bench::Buffer> buffers;
  std::vector<sk_view> views;
  std::vector<const void*> datas;
  int64_t read = 0;  // bytes of the operands' elements
  Dims out_shape;
  bench::Buffer out{64, 3};
  sk_view out_view;

  template <typename T>
  static CaseBuffers Make(const bench::einsum::Case& c) {
    const int64_t es = sizeof(T);
    CaseBuffers b;
    for (const bench::einsum::Shape& s : c.shapes) {
      const Dims shape(s);
      // Operand 0 of a strided case: a[..., ::step0] of a C-order buffer.
      const int64_t step = b.buffers.empty() ? c.step0 : 1;
      Dims full = shape;
      if (!full.empty()) full.back() *= step;
      Dims strides = CContiguousStrides(full);
      if (!strides.empty()) strides.back() *= step;
      const int64_t n = Numel(full);
      b.buffers.emplace_back(n * es, int(b.buffers.size()));
      std::fill_n(reinterpret_cast<T*>(b.buffers.back().data), n, T(0.5));
      b.views.push_back(MakeView(shape, strides));
      b.read += Numel(shape) * es;
    }
    for (const auto& buffer : b.buffers) b.datas.push_back(buffer.data);
    b.out_shape = Dims(c.out);
    b.out = bench::Buffer(Numel(b.out_shape) * es, 3);
    b.out_view = MakeView(b.out_shape, CContiguousStrides(b.out_shape));
    return b;
  }
  // False (and the benchmark skipped) unless out holds the expected value.
  template <typename T>
  bool Check(benchmark::State& state, const bench::einsum::Case& c) const {
    const T* result = reinterpret_cast<const T*>(out.data);
    if (result[0] != T(bench::einsum::Expected(c)) ||
        result[Numel(out_shape) - 1] != T(bench::einsum::Expected(c))) {
      state.SkipWithError("wrong result");
      return false;
    }
    return true;
  }
};

template <typename T>
void BM_Einsum(benchmark::State& state) {
  const bench::einsum::Case& c = Cases()[state.range(0)];
  const char* const mode = bench::einsum::kModes[state.range(1)];
  const int threads = int(state.range(2));
  const CaseBuffers b = CaseBuffers::Make<T>(c);
  const DType t = sizeof(T) == 8 ? DType::kFloat64 : DType::kFloat32;
  const NumericOptions options{threads};
  for (auto _ : state) {
    Einsum(c.spec, t, b.views, b.datas, b.out_view, b.out.data, options);
    benchmark::ClobberMemory();
  }
  if (!b.Check<T>(state, c)) return;
  state.SetItemsProcessed(state.iterations() * c.positions);
  state.SetLabel(bench::einsum::Label(c, sizeof(T) == 8, mode, threads));
}

// A memory-bound case (Case::group set) against the copy reference of its
// bytes (copy_reference.h), timed beside it.
template <typename T>
void BM_EinsumStream(benchmark::State& state) {
  const bench::einsum::Case& c = Cases()[state.range(0)];
  const char* const mode = bench::einsum::kModes[state.range(1)];
  const int threads = int(state.range(2));
  const CaseBuffers b = CaseBuffers::Make<T>(c);
  const DType t = sizeof(T) == 8 ? DType::kFloat64 : DType::kFloat32;
  const NumericOptions options{threads};
  const int64_t written = Numel(b.out_shape) * int64_t(sizeof(T));
  bench::CopyReference ref = bench::CopyReference::For(b.read, written);
  bench::Buffer ref_dst(ref.DstBytes(), 5);
  ref.src = static_cast<const unsigned char*>(b.buffers[0].data);
  ref.dst = static_cast<unsigned char*>(ref_dst.data);
  ref.threads = threads;
  const int64_t moved = b.read + written;
  bench::RunWithReference(
      state, ref, moved,
      threads > 1 ? bench::WallSeconds : bench::ThreadSeconds, [&] {
        Einsum(c.spec, t, b.views, b.datas, b.out_view, b.out.data, options);
      });
  if (!b.Check<T>(state, c)) return;
  state.SetLabel(bench::einsum::Label(c, sizeof(T) == 8, mode, threads) +
                 " group=" + bench::kGroupNames[c.group] +
                 " bytes=" + std::to_string(moved));
}

// Every case in float32 (float64 too where the case says), each NumPy mode
// the case has, on 1 and 2 threads.
void EinsumArgs(benchmark::internal::Benchmark* b, bool float64, bool stream) {
  for (size_t i = 0; i < Cases().size(); ++i) {
    if (float64 && !Cases()[i].float64) continue;
    if ((Cases()[i].group >= 0) != stream) continue;
    for (int mode : {0, 1, 2}) {
      if ((mode == 0 && !Cases()[i].plain) || (mode == 2 && !Cases()[i].gemm)) {
        continue;
      }
      for (int threads : {1, 2}) b->Args({int64_t(i), mode, threads});
    }
  }
}

BENCHMARK(BM_Einsum<float>)
    ->Apply([](benchmark::internal::Benchmark* b) {
      EinsumArgs(b, false, false);
    })
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Einsum<double>)
    ->Apply([](benchmark::internal::Benchmark* b) {
      EinsumArgs(b, true, false);
    })
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EinsumStream<float>)
    ->Apply([](benchmark::internal::Benchmark* b) {
      EinsumArgs(b, false, true);
    })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EinsumStream<double>)
    ->Apply([](benchmark::internal::Benchmark* b) {
      EinsumArgs(b, true, true);
    })
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
