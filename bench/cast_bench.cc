// Cast for the hot dtype pairs, contiguous and transposed (dst = src.T
// converted, C-contiguous), at L2, L3 and DRAM sizes of the destination,
// each timed by thread CPU time against its copy reference of the same bytes
// (copy_reference.h: the best of memcpy and stridekit's contiguous Copy,
// interleaved with the case; counters ref_bytes_per_second and x_ref).
// Bytes/s count the source read plus the destination written. Each case
// names its NumPy peer (np.copyto(out, src, casting="unsafe"),
// bench/numpy_peers.py) for bench/compare.py; bfloat16 has none.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "bench_buffer.h"
#include "copy_reference.h"
#include "stridekit/cast.h"
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
  // The copy reference moves its bytes from `in` to `out`, the case's own
  // buffers; out has room for its destination.
  bench::CopyReference ref =
      bench::CopyReference::For(count * src_size, count * dst_size);
  bench::Buffer in(count * src_size, 0),
      out(std::max(count * dst_size, ref.DstBytes()), 3);
  ref.src = in.data;
  ref.dst = out.data;
  const int64_t moved = count * (src_size + dst_size);
  bench::RunWithReference(state, ref, moved, bench::ThreadSeconds,
                          [&] { Cast(from, src, in.data, to, dst, out.data); });
  const bool numpy_has = from != DType::kBFloat16 && to != DType::kBFloat16;
  state.SetLabel(
      std::string(numpy_has ? "peer=" : "case=") + "cast:" + NumPyName(from) +
      ">" + NumPyName(to) + ":" + (transposed ? "transposed" : "contiguous") +
      ":" + std::to_string(transposed ? n : count) +
      " group=" + kGroupNames[group] + " bytes=" + std::to_string(moved));
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

BENCHMARK(BM_Cast)->Apply(CastArgs)->UseManualTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
