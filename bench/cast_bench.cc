// Cast for the hot dtype pairs, contiguous and transposed (dst = src.T
// converted, C-contiguous), at L2, L3 and DRAM sizes of the destination,
// beside the same run's copy reference (BM_CopyReference: per iteration the
// faster of memcpy and stridekit's contiguous Copy on the same buffers).
// Bytes/s count the source read plus the destination written. Each case
// names its NumPy peer (np.copyto(out, src, casting="unsafe"),
// bench/numpy_peers.py) for bench/compare.py; bfloat16 has none.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "bench_buffer.h"
#include "stridekit/cast.h"
#include "stridekit/copy.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// Destination bytes per size group.
constexpr int64_t kGroupBytes[] = {int64_t{256} << 10, int64_t{16} << 20,
                                   int64_t{256} << 20};
constexpr const char* kGroupNames[] = {"L2", "L3", "DRAM"};

// The casts an array runtime does most (astype after loading, mixed
// precision), the table of the dtype issue plus the float16 widening.
constexpr DType kPairs[][2] = {
    {DType::kFloat32, DType::kFloat16}, {DType::kFloat32, DType::kBFloat16},
    {DType::kFloat64, DType::kFloat32}, {DType::kInt32, DType::kFloat32},
    {DType::kUint8, DType::kFloat32},   {DType::kFloat16, DType::kFloat32},
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

// NumPy's name of t ("float32"): GoMLX's in lower case.
std::string NumPyName(DType t) {
  std::string name(DTypeName(t));
  for (char& c : name) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return name;
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
  const bool numpy_has = from != DType::kBFloat16 && to != DType::kBFloat16;
  state.SetLabel(
      std::string(numpy_has ? "peer=" : "case=") + "cast:" + NumPyName(from) +
      ">" + NumPyName(to) + ":" + (transposed ? "transposed" : "contiguous") +
      ":" + std::to_string(transposed ? n : count) +
      " group=" + kGroupNames[group] + " bytes=" + std::to_string(moved));
}

// The copy reference of a group: a group's bytes copied contiguously, each
// iteration timed as the faster of memcpy and stridekit's Copy of the same
// buffers (compare.py reads it as the group's "memcpy" column).
void BM_CopyReference(benchmark::State& state) {
  const int group = int(state.range(0));
  const int64_t bytes = kGroupBytes[group];
  const sk_view v = View({bytes / 4}, {1});
  bench::Buffer in(bytes, 0), out(bytes, 3);
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    std::memcpy(out.data, in.data, size_t(bytes));
    benchmark::ClobberMemory();
    const auto t1 = Clock::now();
    Copy(4, v, in.data, v, out.data);
    benchmark::ClobberMemory();
    const auto t2 = Clock::now();
    state.SetIterationTime(
        std::chrono::duration<double>(std::min(t1 - t0, t2 - t1)).count());
  }
  state.SetBytesProcessed(state.iterations() * 2 * bytes);
  state.SetLabel(std::string("memcpy group=") + kGroupNames[group] +
                 " bytes=" + std::to_string(2 * bytes));
}

void CastArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (int pair = 0; pair < int(std::size(kPairs)); ++pair) {
      for (int transposed = 0; transposed < 2; ++transposed) {
        b->Args({pair, transposed, group});
      }
    }
  }
}

BENCHMARK(BM_CopyReference)->DenseRange(0, 2)->UseManualTime();
BENCHMARK(BM_Cast)->Apply(CastArgs)->UseRealTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
