// Cast for the hot dtype pairs, contiguous and transposed (dst = src.T
// converted, C-contiguous), at L2 and L3 sizes, beside the same run's
// contiguous Copy of the destination's bytes (BM_CopyReference). Bytes/s
// count the source read plus the destination written. NumPy's astype on the
// same cases: bench/cast_numpy.py.
#include <benchmark/benchmark.h>

#include <string>

#include "bench_buffer.h"
#include "stridekit/cast.h"
#include "stridekit/copy.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// Destination bytes per size group.
constexpr int64_t kGroupBytes[] = {int64_t{256} << 10, int64_t{16} << 20};
constexpr const char* kGroupNames[] = {"L2", "L3"};

constexpr DType kPairs[][2] = {
    {DType::kFloat32, DType::kFloat16}, {DType::kFloat32, DType::kBFloat16},
    {DType::kFloat64, DType::kFloat32}, {DType::kInt32, DType::kFloat32},
    {DType::kUint8, DType::kFloat32},   {DType::kFloat16, DType::kFloat32},
    {DType::kFloat32, DType::kInt32},   {DType::kInt64, DType::kFloat64},
    {DType::kFloat32, DType::kFloat64},
};

sk_view View(const Dims& shape, const Dims& strides) {
  sk_view v{};
  v.ndim = shape.size();
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

void BM_Cast(benchmark::State& state) {
  const DType from = kPairs[state.range(0)][0], to = kPairs[state.range(0)][1];
  const bool transposed = state.range(1) != 0;
  const int group = int(state.range(2));
  const int64_t dst_size = int64_t(DTypeSize(to));
  const int64_t src_size = int64_t(DTypeSize(from));
  int64_t n = 1;  // Square edge for transposes.
  while ((n + 1) * (n + 1) * dst_size <= kGroupBytes[group]) ++n;
  const int64_t count = transposed ? n * n : kGroupBytes[group] / dst_size;
  const sk_view dst = transposed ? View({n, n}, {n, 1}) : View({count}, {1});
  const sk_view src = transposed ? View({n, n}, {1, n}) : View({count}, {1});
  bench::Buffer in(count * src_size, 0), out(count * dst_size, 3);
  for (auto _ : state) {
    Cast(from, src, in.data, to, dst, out.data);
    benchmark::ClobberMemory();
  }
  const int64_t moved = count * (src_size + dst_size);
  state.SetBytesProcessed(state.iterations() * moved);
  state.SetLabel(
      std::string(DTypeName(from)) + "->" + std::string(DTypeName(to)) +
      (transposed ? " transposed" : " contiguous") +
      " group=" + kGroupNames[group] + " bytes=" + std::to_string(moved));
}

// The same run's contiguous copy of `es`-byte elements filling a group.
void BM_CopyReference(benchmark::State& state) {
  const int64_t es = state.range(0);
  const int group = int(state.range(1));
  const int64_t count = kGroupBytes[group] / es;
  const sk_view v = View({count}, {1});
  bench::Buffer in(count * es, 0), out(count * es, 3);
  for (auto _ : state) {
    Copy(size_t(es), v, in.data, v, out.data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * count * es);
  state.SetLabel(std::string("copy_reference es=") + std::to_string(es) +
                 " group=" + kGroupNames[group]);
}

void CastArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 2; ++group) {
    for (int pair = 0; pair < int(std::size(kPairs)); ++pair) {
      for (int transposed = 0; transposed < 2; ++transposed) {
        b->Args({pair, transposed, group});
      }
    }
  }
}

BENCHMARK(BM_CopyReference)->ArgsProduct({{2, 4, 8}, {0, 1}})->UseRealTime();
BENCHMARK(BM_Cast)->Apply(CastArgs)->UseRealTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
