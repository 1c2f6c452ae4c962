// Batch index kernels per kernel x target x batch size: items/s (elements
// per second) and output bytes/s, with a memset of the same output bytes as
// the bandwidth reference; UnravelBatch instead reports the bytes it moves
// (8 read + 32 written per index) against its own copy reference, timed
// beside it (copy_reference.h: x_ref). bench/compare.py derives the speedups
// over the "reference" target and over NumPy.
//   --max_n=N  largest batch (default 1e8; the kernels with rank-4 rows stop
//              at 1e7, whose 320 MB output already exceeds every cache)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "clocks.h"
#include "copy_reference.h"
#include "stridekit/index_kernels.h"
#include "stridekit/shape.h"
#include "stridekit/targets.h"

namespace stridekit {
namespace {

// The rank-4 shape of perf.md's unravel measurements.
const Dims kShape4{37, 1000, 999, 1023};
constexpr int64_t kMaxRowKernelN = 10'000'000;

std::vector<int64_t> RandomFlat(int64_t n, int64_t numel) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> flat(0, numel - 1);
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (int64_t& v : values) v = flat(rng);
  return values;
}

void Report(benchmark::State& state, int64_t n, int64_t out_bytes_per_item,
            const std::string& target) {
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * out_bytes_per_item);
  state.SetLabel("target=" + target);
}

// Against the copy roofline: a copy of the 8 bytes read per index into the
// output and a fill of its other 24, on the same buffers.
void UnravelRank4(benchmark::State& state, std::string target) {
  const int64_t n = state.range(0);
  const std::vector<int64_t> flat = RandomFlat(n, Numel(kShape4));
  std::vector<int64_t> out(static_cast<size_t>(n) * 4);
  ForceTarget(target);
  const int64_t read = n * int64_t(sizeof(int64_t));
  bench::CopyReference ref = bench::CopyReference::For(read, 4 * read);
  ref.src = reinterpret_cast<const unsigned char*>(flat.data());
  ref.dst = reinterpret_cast<unsigned char*>(out.data());
  bench::RunWithReference(state, ref, 5 * read, bench::ThreadSeconds, [&] {
    UnravelBatch(n, flat.data(), kShape4, out.data());
  });
  state.SetItemsProcessed(state.iterations() * n);
  state.SetLabel("target=" + target);
}

void RavelRank4(benchmark::State& state, std::string target) {
  const int64_t n = state.range(0);
  const std::vector<int64_t> flat = RandomFlat(n, Numel(kShape4));
  std::vector<int64_t> indices(static_cast<size_t>(n) * 4);
  UnravelBatch(n, flat.data(), kShape4, indices.data());
  const Dims strides = CContiguousStrides(kShape4);
  std::vector<int64_t> out(static_cast<size_t>(n));
  ForceTarget(target);
  for (auto _ : state) {
    RavelBatch(n, indices.data(), strides, 0, out.data());
    benchmark::ClobberMemory();
  }
  Report(state, n, sizeof(int64_t), target);
}

// Views of n elements: rows of 1000 elements, contiguous, broadcast (every
// row the same) or transposed (the rows are columns of a [1000, n / 1000]
// array).
enum class ViewKind { kContiguous, kBroadcast, kTransposed };

void Offsets(benchmark::State& state, ViewKind kind, std::string target) {
  const int64_t n = state.range(0);
  const int64_t rows = n / 1000;
  sk_view v{};
  v.ndim = 2;
  v.shape[0] = rows;
  v.shape[1] = 1000;
  v.strides[0] = kind == ViewKind::kContiguous  ? 1000
                 : kind == ViewKind::kBroadcast ? 0
                                                : 1;
  v.strides[1] = kind == ViewKind::kTransposed ? rows : 1;
  std::vector<int64_t> out(static_cast<size_t>(n));
  ForceTarget(target);
  for (auto _ : state) {
    ViewOffsets(v, 0, n, out.data());
    benchmark::ClobberMemory();
  }
  Report(state, n, sizeof(int64_t), target);
}

void Memset(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<int64_t> out(static_cast<size_t>(n));
  int value = 0;
  for (auto _ : state) {
    std::memset(out.data(), ++value & 0xff, out.size() * sizeof(int64_t));
    benchmark::ClobberMemory();
  }
  Report(state, n, sizeof(int64_t), "memset");
}

// Batch sizes 1000, 10^4, ... up to max_n; real time unless the case times
// itself (manual_time).
void ApplySizes(benchmark::internal::Benchmark* b, int64_t max_n,
                bool manual_time = false) {
  for (int64_t n = 1000; n <= max_n; n *= 10) b->Arg(n);
  if (manual_time) {
    b->UseManualTime();
  } else {
    b->UseRealTime();
  }
  b->Unit(benchmark::kMicrosecond);
}

int64_t ParseMaxN(int* argc, char** argv) {
  int64_t max_n = 100'000'000;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp(argv[i], "--max_n=", 8) == 0) {
      max_n = static_cast<int64_t>(std::stod(argv[i] + 8));
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return max_n;
}

void RegisterAll(int64_t max_n) {
  const int64_t row_max_n = std::min(max_n, kMaxRowKernelN);
  for (std::string_view name : AvailableTargets()) {
    const std::string target(name);
    ApplySizes(
        benchmark::RegisterBenchmark(("UnravelBatch/rank4/" + target).c_str(),
                                     UnravelRank4, target),
        row_max_n, /*manual_time=*/true);
    ApplySizes(benchmark::RegisterBenchmark(
                   ("RavelBatch/rank4/" + target).c_str(), RavelRank4, target),
               row_max_n);
    const std::pair<const char*, ViewKind> kinds[] = {
        {"contiguous", ViewKind::kContiguous},
        {"broadcast", ViewKind::kBroadcast},
        {"transposed", ViewKind::kTransposed}};
    for (const auto& [kind_name, kind] : kinds) {
      ApplySizes(
          benchmark::RegisterBenchmark(
              ("ViewOffsets/" + std::string(kind_name) + "/" + target).c_str(),
              Offsets, kind, target),
          max_n);
    }
  }
  ApplySizes(benchmark::RegisterBenchmark("Memset/memset/memset", Memset),
             max_n);
}

}  // namespace
}  // namespace stridekit

int main(int argc, char** argv) {
  const int64_t max_n = stridekit::ParseMaxN(&argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  stridekit::RegisterAll(max_n);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
