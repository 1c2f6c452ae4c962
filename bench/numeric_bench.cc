// The numeric kernels against memcpy of the same size group, at L2, L3 and
// DRAM sizes: broadcasting adds (contiguous, outer product, row broadcast,
// transposed input) and sums (last axis, axis 0, a transposed view), f32
// and f64. Each case reports bytes/s counting the bytes that must move
// (inputs read once, output written once) and names its NumPy peer and
// size group in the label for bench/compare.py.
#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "stridekit/elementwise.h"
#include "stridekit/reduce.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// Bytes of the main input per size group: L2 (256 KiB), L3 (16 MiB) and
// DRAM (256 MiB; with the other operands well beyond the 260 MiB L3).
constexpr int64_t kGroupBytes[] = {int64_t{256} << 10, int64_t{16} << 20,
                                   int64_t{256} << 20};
constexpr const char* kGroupNames[] = {"L2", "L3", "DRAM"};

// A zeroed buffer whose start is `shift` cache lines past a page boundary
// offset: large allocations all start at the same page offset, and operands
// at equal offsets modulo 4 KiB make loads falsely wait on stores (4K
// aliasing), which would measure the allocator rather than the kernel.
struct Buffer {
  std::unique_ptr<unsigned char[]> storage;
  unsigned char* data;
  Buffer(int64_t n, int shift)
      : storage(new unsigned char[size_t(n) + 4096]),
        data(storage.get() + 64 * shift) {
    std::memset(storage.get(), 0, size_t(n) + 4096);  // Fault pages in.
  }
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

sk_view CView(const Dims& shape) {
  return View(shape, CContiguousStrides(shape));
}

enum class Case {
  kAddContiguous,  // [n] + [n]
  kAddOuter,       // [N,1] + [1,M] -> [N,M]
  kAddRow,         // [N,M] + [M]
  kAddTransposed,  // a.T + b, both [N,N]
  kSumLast,        // [N,M].sum(-1)
  kSumAxis0,       // [N,M].sum(0)
  kSumTransposed,  // a.T.sum(-1), a [N,N]
};
constexpr const char* kCaseNames[] = {
    "add_contiguous", "add_outer", "add_row",       "add_transposed",
    "sum_last",       "sum_axis0", "sum_transposed"};

// The largest n with n * n elements of elem_size bytes within `bytes`, one
// less when that is a power of two (avoids cache-set aliasing of columns).
int64_t SquareEdge(int64_t bytes, int64_t elem_size) {
  int64_t n = 1;
  while ((n + 1) * (n + 1) * elem_size <= bytes) ++n;
  return (n & (n - 1)) == 0 ? n - 1 : n;
}

void BM_Numeric(benchmark::State& state) {
  const Case c = static_cast<Case>(state.range(0));
  const int64_t es = state.range(1);
  const int group = int(state.range(2));
  const DType t = es == 4 ? DType::kFloat32 : DType::kFloat64;
  const int64_t n = SquareEdge(kGroupBytes[group], es);
  Dims shape;
  int64_t moved = 0;  // Bytes that must move per iteration.
  Buffer a(n * n * es, 0), b(n * n * es, 5), out(n * n * es, 11);
  std::function<void()> run;
  switch (c) {
    case Case::kAddContiguous: {
      shape = {n * n};
      const sk_view v = CView(shape);
      moved = 3 * n * n * es;
      run = [&, v] {
        Binary(BinaryOp::kAdd, t, v, a.data, v, b.data, v, out.data);
      };
      break;
    }
    case Case::kAddOuter:
    case Case::kAddRow: {
      shape = {n, n};
      const sk_view o = CView(shape);
      const sk_view left =
          c == Case::kAddOuter ? View({n, 1}, {1, 0}) : CView(shape);
      const sk_view right = View({n}, {1});
      moved = (c == Case::kAddOuter ? 2 * n + n * n : 2 * n * n + n) * es;
      run = [&, o, left, right] {
        Binary(BinaryOp::kAdd, t, left, a.data, right, b.data, o, out.data);
      };
      break;
    }
    case Case::kAddTransposed: {
      shape = {n, n};
      const sk_view o = CView(shape), at = View(shape, {1, n});
      moved = 3 * n * n * es;
      run = [&, o, at] {
        Binary(BinaryOp::kAdd, t, at, a.data, o, b.data, o, out.data);
      };
      break;
    }
    case Case::kSumLast:
    case Case::kSumAxis0:
    case Case::kSumTransposed: {
      shape = {n, n};
      const sk_view in =
          c == Case::kSumTransposed ? View(shape, {1, n}) : CView(shape);
      const int32_t axis = c == Case::kSumAxis0 ? 0 : 1;
      const sk_view o = View({n}, {1});
      moved = (n * n + n) * es;
      run = [&, in, axis, o] {
        const int32_t axes[] = {axis};
        Reduce(ReduceOp::kSum, t, in, a.data, axes, o, out.data);
      };
      break;
    }
  }
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * moved);
  state.SetLabel(std::string("peer=numeric:") + kCaseNames[int(c)] + ":" +
                 (es == 4 ? "float32" : "float64") + ":" + std::to_string(n) +
                 " group=" + kGroupNames[group] +
                 " bytes=" + std::to_string(moved));
}

void BM_Memcpy(benchmark::State& state) {
  const int group = int(state.range(0));
  const int64_t bytes = kGroupBytes[group];
  Buffer src(bytes, 0), out(bytes, 5);
  for (auto _ : state) {
    std::memcpy(out.data, src.data, size_t(bytes));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * bytes);
  state.SetLabel(std::string("memcpy group=") + kGroupNames[group] +
                 " bytes=" + std::to_string(2 * bytes));
}

void NumericArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (int c = 0; c <= int(Case::kSumTransposed); ++c) {
      for (int64_t es : {4, 8}) b->Args({c, es, group});
    }
  }
}

BENCHMARK(BM_Memcpy)->DenseRange(0, 2)->UseRealTime();
BENCHMARK(BM_Numeric)->Apply(NumericArgs)->UseRealTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
