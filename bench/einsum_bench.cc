// Einsum execution against np.einsum(optimize=False) and
// np.einsum(optimize=True) (two rows per case, one per NumPy peer): matrix
// products at L2 and L3 sizes, a batched product, a transposed contraction
// "ijk,kj->i", a contraction "abc,cd->abd", three-operand chains, a trace, a
// diagonal and an outer product. Reports product-space positions per second
// as items_per_second (one multiply-add each for the plain loop).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "bench_buffer.h"
#include "stridekit/einsum.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

struct EinsumCase {
  const char* name;
  const char* spec;
  std::vector<Dims> shapes;
  Dims out;
  int64_t positions;  // product-space size
};

const EinsumCase kCases[] = {
    {"matmul256",
     "ij,jk->ik",
     {{256, 256}, {256, 256}},
     {256, 256},
     int64_t{256} * 256 * 256},
    {"matmul1024",
     "ij,jk->ik",
     {{1024, 1024}, {1024, 1024}},
     {1024, 1024},
     int64_t{1024} * 1024 * 1024},
    {"batched",
     "bij,bjk->bik",
     {{16, 64, 64}, {16, 64, 64}},
     {16, 64, 64},
     int64_t{16} * 64 * 64 * 64},
    {"transposed",
     "ijk,kj->i",
     {{64, 128, 128}, {128, 128}},
     {64},
     int64_t{64} * 128 * 128},
    {"contraction",
     "abc,cd->abd",
     {{32, 64, 128}, {128, 64}},
     {32, 64, 64},
     int64_t{32} * 64 * 128 * 64},
    {"chain3",
     "ab,bc,cd->ad",
     {{64, 64}, {64, 64}, {64, 64}},
     {64, 64},
     int64_t{64} * 64 * 64 * 64},
    {"chain3_256",
     "ab,bc,cd->ad",
     {{256, 256}, {256, 256}, {256, 256}},
     {256, 256},
     int64_t{256} * 256 * 256 * 256},
    {"trace", "ii->", {{2048, 2048}}, {}, 2048},
    {"diagonal", "ii->i", {{2048, 2048}}, {2048}, 2048},
    {"outer", "i,j->ij", {{1024}, {1024}}, {1024, 1024}, int64_t{1024} * 1024},
};

sk_view CView(const Dims& shape) {
  sk_view v{};
  v.ndim = shape.size();
  const Dims strides = CContiguousStrides(shape);
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

void BM_Einsum(benchmark::State& state) {
  const EinsumCase& c = kCases[state.range(0)];
  const bool optimize_peer = state.range(1) != 0;
  std::vector<bench::Buffer> buffers;
  std::vector<sk_view> views;
  std::vector<const void*> datas;
  for (const Dims& shape : c.shapes) {
    const int64_t n = Numel(shape);
    buffers.emplace_back(n * int64_t(sizeof(float)), int(buffers.size()));
    float* values = reinterpret_cast<float*>(buffers.back().data);
    std::fill_n(values, n, 0.5f);
    views.push_back(CView(shape));
  }
  for (const auto& b : buffers) datas.push_back(b.data);
  bench::Buffer out(Numel(c.out) * int64_t(sizeof(float)), 3);
  const sk_view out_view = CView(c.out);
  for (auto _ : state) {
    Einsum(c.spec, DType::kFloat32, views, datas, out_view, out.data);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * c.positions);
  state.SetLabel(std::string("peer=einsum:") + c.name + ":" +
                 (optimize_peer ? "optimize" : "plain"));
}
BENCHMARK(BM_Einsum)
    ->ArgsProduct({benchmark::CreateDenseRange(0, std::size(kCases) - 1, 1),
                   {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
