// The BLIS peer (Debian's libblis, bli_?gemm with arbitrary row and column
// strides, as stridekit's einsum takes any strides) of einsum_bench's
// matrix products and contractions with a transposed, strided, batched or
// 3-D operand (einsum_cases.h), on 1 and 2 threads
// (bli_thread_set_num_threads). Each row is labelled as the case's peer key
// less its NumPy mode, threads=<n>, impl=blis and arch=<BLIS's kernel set>
// (SelectBlisKernels).
#include <benchmark/benchmark.h>
#include <blis.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_buffer.h"
#include "einsum_cases.h"

namespace stridekit::bench {
namespace {

using einsum::Cases;

// One C = A B (beta 0) or C += A B (beta 1) of m x k and k x n matrices,
// each element (r, c) at r * rs + c * cs.
template <typename T>
struct Mat {
  T* p;
  inc_t rs, cs;
};

template <typename T>
void Gemm(dim_t m, dim_t n, dim_t k, Mat<T> a, Mat<T> b, T beta, Mat<T> c) {
  T one = 1;
  if constexpr (sizeof(T) == 4) {
    bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, a.p, a.rs,
              a.cs, b.p, b.rs, b.cs, &beta, c.p, c.rs, c.cs);
  } else {
    bli_dgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, a.p, a.rs,
              a.cs, b.p, b.rs, b.cs, &beta, c.p, c.rs, c.cs);
  }
}

// The BLIS calls of case `name` on operands a, b (laid out as einsum_bench
// lays them out) into the C-order output o; empty for a case BLIS lacks.
template <typename T>
std::function<void()> Kernel(const std::string& name, T* a, T* b, T* o) {
  if (name.starts_with("matmul") && name != "matmul_t512" &&
      name != "matmul_strided512") {
    const dim_t n = std::stol(name.substr(6));
    return [=] { Gemm<T>(n, n, n, {a, n, 1}, {b, n, 1}, 0, {o, n, 1}); };
  }
  if (name == "matmul_t512") {  // "ji,jk->ik": A(i, j) = a[j, i].
    return [=] {
      Gemm<T>(512, 512, 512, {a, 1, 512}, {b, 512, 1}, 0, {o, 512, 1});
    };
  }
  if (name == "matmul_strided512") {  // A = a[:, ::2] of a [512, 1024].
    return [=] {
      Gemm<T>(512, 512, 512, {a, 1024, 2}, {b, 512, 1}, 0, {o, 512, 1});
    };
  }
  if (name == "batched") {  // "bij,bjk->bik", 16 x 64^3.
    return [=] {
      for (int64_t i = 0; i < 16; ++i) {
        const int64_t off = i * 64 * 64;
        Gemm<T>(64, 64, 64, {a + off, 64, 1}, {b + off, 64, 1}, 0,
                {o + off, 64, 1});
      }
    };
  }
  if (name == "transposed") {  // "ijk,kj->i": per j, o += a[:, j, :] b[:, j].
    return [=] {
      for (int64_t j = 0; j < 128; ++j) {
        Gemm<T>(64, 1, 128, {a + j * 128, 128 * 128, 1}, {b + j, 128, 1},
                j == 0 ? 0 : 1, {o, 1, 1});
      }
    };
  }
  if (name == "contraction") {  // "abc,cd->abd": [2048, 128] x [128, 64].
    return [=] {
      Gemm<T>(32 * 64, 64, 128, {a, 128, 1}, {b, 64, 1}, 0, {o, 64, 1});
    };
  }
  return nullptr;
}

int64_t Elements(const einsum::Shape& shape, int64_t step) {
  int64_t n = step;
  for (int64_t d : shape) n *= d;
  return n;
}

template <typename T>
void BM_Blis(benchmark::State& state) {
  const einsum::Case& c = Cases()[state.range(0)];
  const int threads = int(state.range(1));
  const int64_t es = sizeof(T);
  Buffer a(Elements(c.shapes[0], c.step0) * es, 0),
      b(Elements(c.shapes[1], 1) * es, 1), out(Elements(c.out, 1) * es, 3);
  std::fill_n(reinterpret_cast<T*>(a.data), Elements(c.shapes[0], c.step0),
              T(0.5));
  std::fill_n(reinterpret_cast<T*>(b.data), Elements(c.shapes[1], 1), T(0.5));
  const auto run =
      Kernel<T>(c.name, reinterpret_cast<T*>(a.data),
                reinterpret_cast<T*>(b.data), reinterpret_cast<T*>(out.data));
  bli_thread_set_num_threads(threads);
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  bli_thread_set_num_threads(1);
  const T* result = reinterpret_cast<const T*>(out.data);
  if (result[0] != T(einsum::Expected(c)) ||
      result[Elements(c.out, 1) - 1] != T(einsum::Expected(c))) {
    state.SkipWithError("wrong result");
  }
  state.SetItemsProcessed(state.iterations() * c.positions);
  state.SetLabel(einsum::Label(c, es == 8, nullptr, threads, "blis") +
                 " arch=" + bli_arch_string(bli_arch_query_id()));
}

// The cases Kernel has (float64 too where the case says), 1 and 2 threads.
void BlisArgs(benchmark::internal::Benchmark* b, bool float64) {
  for (size_t i = 0; i < Cases().size(); ++i) {
    if (float64 && !Cases()[i].float64) continue;
    if (!Kernel<float>(Cases()[i].name, nullptr, nullptr, nullptr)) continue;
    for (int threads : {1, 2}) b->Args({int64_t(i), threads});
  }
}

BENCHMARK(BM_Blis<float>)
    ->Apply([](benchmark::internal::Benchmark* b) { BlisArgs(b, false); })
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Blis<double>)
    ->Apply([](benchmark::internal::Benchmark* b) { BlisArgs(b, true); })
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// BLIS 0.9 selects its sub-configuration (kernel set) from the CPU model
// and falls back to "generic" (plain C) on CPUs it does not know, such as
// AMD's AVX-512 Zen 4: on a CPU with AVX-512 F, DQ, BW and VL this selects
// "skx" (BLIS's choice on Intel's AVX-512 servers) unless BLIS_ARCH_TYPE
// is set; elsewhere BLIS's own detection stands.
void SelectBlisKernels() {
  if (std::getenv("BLIS_ARCH_TYPE") != nullptr) return;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl")) {
    setenv("BLIS_ARCH_TYPE", std::to_string(int(BLIS_ARCH_SKX)).c_str(), 1);
  }
}

}  // namespace
}  // namespace stridekit::bench

int main(int argc, char** argv) {
  stridekit::bench::SelectBlisKernels();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
