// The Eigen peer (Debian's libeigen3-dev, the unsupported Tensor module) on
// one thread (DefaultDevice, no ThreadPoolDevice): shuffle for copy_bench's
// permutations and pad for its pad case, broadcasting adds and axis sums for
// numeric_bench's cases, contract for einsum_bench's matrix products. Same
// shapes on the same kind of buffers (row-major TensorMaps, no copies),
// timed as the stridekit suite times the case; labelled "impl=eigen" beside
// the case's peer key, so bench/compare.py sets it next to the stridekit row.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <unsupported/Eigen/CXX11/Tensor>
#include <utility>
#include <vector>

#include "copy_cases.h"
#include "einsum_cases.h"
#include "numeric_cases.h"

namespace stridekit::bench {
namespace {

using Eigen::Index;
template <typename T, int R>
using Map = Eigen::TensorMap<Eigen::Tensor<T, R, Eigen::RowMajor>>;
template <typename T, int R>
using ConstMap = Eigen::TensorMap<const Eigen::Tensor<T, R, Eigen::RowMajor>>;

// dst = src.transpose(p.axes), rank R.
template <typename T, int R>
std::function<void()> Shuffle(const copy::Permutation& p, const void* src,
                              void* dst) {
  std::array<Index, R> in_dims, out_dims, axes;
  for (int d = 0; d < R; ++d) {
    in_dims[d] = p.shape[d];
    axes[d] = p.axes[d];
    out_dims[d] = p.shape[p.axes[d]];
  }
  ConstMap<T, R> in(static_cast<const T*>(src), in_dims);
  Map<T, R> out(static_cast<T*>(dst), out_dims);
  return [=]() mutable { out = in.shuffle(axes); };
}

template <typename T>
std::function<void()> ShuffleKernel(const copy::Permutation& p, const void* src,
                                    void* dst) {
  switch (p.shape.size()) {
    case 2:
      return Shuffle<T, 2>(p, src, dst);
    case 3:
      return Shuffle<T, 3>(p, src, dst);
    case 4:
      return Shuffle<T, 4>(p, src, dst);
    case 5:
      return Shuffle<T, 5>(p, src, dst);
    default:
      return nullptr;
  }
}

// copy_bench's permutations (shuffle) and pad (pad with zeros), by case
// range(0), element size range(1) and size group range(2).
void BM_EigenCopy(benchmark::State& state) {
  const auto c = static_cast<copy::Case>(state.range(0));
  const int64_t es = state.range(1);
  const int group = int(state.range(2));
  const int64_t bytes = copy::GroupBytes(group);
  copy::Permutation p;
  if (copy::PermutationOf(c, bytes, es, &p)) {
    int64_t numel = 1;
    std::vector<int64_t> dst_shape;
    for (int64_t axis : p.axes) {
      numel *= p.shape[axis];
      dst_shape.push_back(p.shape[axis]);
    }
    Buffer src(numel * es), dst(numel * es);
    const std::function<void()> run =
        es == 4 ? ShuffleKernel<float>(p, src.data, dst.data)
                : ShuffleKernel<double>(p, src.data, dst.data);
    copy::RunPeer(state, c, es, dst_shape, group, 2 * numel * es, "eigen", run);
  } else {  // The pad case, float32.
    const int64_t n = copy::PadEdge(bytes, es);
    Buffer src((n - 2) * (n - 2) * es), dst(n * n * es);
    ConstMap<float, 2> in(reinterpret_cast<const float*>(src.data), n - 2,
                          n - 2);
    Map<float, 2> out(reinterpret_cast<float*>(dst.data), n, n);
    const std::array<std::pair<Index, Index>, 2> pads = {
        std::make_pair(Index{1}, Index{1}), std::make_pair(Index{1}, Index{1})};
    const std::vector<int64_t> dst_shape = {n, n};
    copy::RunPeer(state, c, es, dst_shape, group,
                  ((n - 2) * (n - 2) + n * n) * es, "eigen",
                  [&] { out = in.pad(pads); });
  }
}

void EigenCopyArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (int c = 0; c <= int(copy::Case::kPad); ++c) {
      copy::Permutation p;
      const bool peer = c == int(copy::Case::kPad) ||
                        copy::PermutationOf(copy::Case(c), 1 << 12, 4, &p);
      for (int64_t es : {4, 8}) {
        if (peer && copy::CaseRuns(copy::Case(c), es, group)) {
          b->Args({c, es, group});
        }
      }
    }
  }
}

BENCHMARK(BM_EigenCopy)->Apply(EigenCopyArgs)->UseManualTime();

// numeric_bench's broadcasting adds and axis sums.
template <typename T>
std::function<void()> NumericKernel(Case c, int64_t n, Buffer& a, Buffer& b,
                                    Buffer& out) {
  T* pa = reinterpret_cast<T*>(a.data);
  T* pb = reinterpret_cast<T*>(b.data);
  T* po = reinterpret_cast<T*>(out.data);
  const std::array<Index, 2> row_bcast = {n, 1}, col_bcast = {1, n};
  switch (c) {
    case Case::kAddContiguous:
      return [=]() mutable {
        Map<T, 1>(po, n * n) = Map<T, 1>(pa, n * n) + Map<T, 1>(pb, n * n);
      };
    case Case::kAddOuter:  // [n,1] + [1,n]
      return [=]() mutable {
        Map<T, 2>(po, n, n) = Map<T, 2>(pa, n, 1).broadcast(col_bcast) +
                              Map<T, 2>(pb, 1, n).broadcast(row_bcast);
      };
    case Case::kAddRow:  // [n,n] + [1,n]
      return [=]() mutable {
        Map<T, 2>(po, n, n) =
            Map<T, 2>(pa, n, n) + Map<T, 2>(pb, 1, n).broadcast(row_bcast);
      };
    case Case::kSumLast:
    case Case::kSumAxis0:
      return [=]() mutable {
        const std::array<Index, 1> axis = {c == Case::kSumLast ? 1 : 0};
        Map<T, 1>(po, n) = Map<T, 2>(pa, n, n).sum(axis);
      };
    default:
      return nullptr;
  }
}

void BM_EigenNumeric(benchmark::State& state) {
  RunPeer(state, "eigen",
          [](Case c, int64_t n, int64_t es, Buffer& a, Buffer& b, Buffer& out) {
            return es == 4 ? NumericKernel<float>(c, n, a, b, out)
                           : NumericKernel<double>(c, n, a, b, out);
          });
}

BENCHMARK(BM_EigenNumeric)->Apply(PeerArgs)->UseManualTime();

// einsum_bench's matrix products "ij,jk->ik" (float32, operands of 0.5, one
// thread), labelled with its peer key less the :plain/:optimize suffix,
// which both of its rows share.
void BM_EigenContract(benchmark::State& state) {
  const Index n = state.range(0);
  Buffer a(n * n * 4, 0), b(n * n * 4, 1), out(n * n * 4, 3);
  Map<float, 2> x(reinterpret_cast<float*>(a.data), n, n);
  Map<float, 2> y(reinterpret_cast<float*>(b.data), n, n);
  Map<float, 2> o(reinterpret_cast<float*>(out.data), n, n);
  x.setConstant(0.5f);
  y.setConstant(0.5f);
  const std::array<Eigen::IndexPair<Index>, 1> dims = {
      Eigen::IndexPair<Index>(1, 0)};
  for (auto _ : state) {
    o = x.contract(y, dims);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n * n * n);
  const einsum::Case& c =
      einsum::Cases()[einsum::CaseIndex("matmul" + std::to_string(n))];
  state.SetLabel(einsum::Label(c, false, nullptr, 1, "eigen"));
}

BENCHMARK(BM_EigenContract)
    ->Arg(256)
    ->Arg(1024)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace stridekit::bench

BENCHMARK_MAIN();
