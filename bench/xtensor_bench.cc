// The xtensor peer of numeric_bench's broadcast adds and axis sums: the same
// shapes on the same buffers (xt::adapt, no copies), built with xsimd and
// -march=native as an xtensor user tuning for speed would. Labelled
// "impl=xtensor" beside the case's peer key, so bench/compare.py sets it
// next to the stridekit row.
#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <functional>
#include <xtensor/xadapt.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xtensor.hpp>

#include "numeric_cases.h"

namespace stridekit::bench {
namespace {

template <typename T>
std::function<void()> Kernel(Case c, int64_t n, Buffer& a, Buffer& b,
                             Buffer& out) {
  using Shape1 = std::array<size_t, 1>;
  using Shape2 = std::array<size_t, 2>;
  const size_t m = size_t(n);
  T* pa = reinterpret_cast<T*>(a.data);
  T* pb = reinterpret_cast<T*>(b.data);
  T* po = reinterpret_cast<T*>(out.data);
  switch (c) {
    case Case::kAddContiguous:
      return [=] {
        auto x = xt::adapt(pa, m * m, xt::no_ownership(), Shape1{m * m});
        auto y = xt::adapt(pb, m * m, xt::no_ownership(), Shape1{m * m});
        auto o = xt::adapt(po, m * m, xt::no_ownership(), Shape1{m * m});
        xt::noalias(o) = x + y;
      };
    case Case::kAddOuter:
      return [=] {
        auto x = xt::adapt(pa, m, xt::no_ownership(), Shape2{m, 1});
        auto y = xt::adapt(pb, m, xt::no_ownership(), Shape1{m});
        auto o = xt::adapt(po, m * m, xt::no_ownership(), Shape2{m, m});
        xt::noalias(o) = x + y;
      };
    case Case::kAddRow:
      return [=] {
        auto x = xt::adapt(pa, m * m, xt::no_ownership(), Shape2{m, m});
        auto y = xt::adapt(pb, m, xt::no_ownership(), Shape1{m});
        auto o = xt::adapt(po, m * m, xt::no_ownership(), Shape2{m, m});
        xt::noalias(o) = x + y;
      };
    case Case::kSumLast:
    case Case::kSumAxis0:
      return [=] {
        auto x = xt::adapt(pa, m * m, xt::no_ownership(), Shape2{m, m});
        auto o = xt::adapt(po, m, xt::no_ownership(), Shape1{m});
        const size_t axis = c == Case::kSumLast ? 1 : 0;
        xt::noalias(o) = xt::sum(x, {axis});
      };
    default:
      return nullptr;
  }
}

void BM_Xtensor(benchmark::State& state) {
  RunPeer(state, "xtensor",
          [](Case c, int64_t n, int64_t es, Buffer& a, Buffer& b, Buffer& out) {
            return es == 4 ? Kernel<float>(c, n, a, b, out)
                           : Kernel<double>(c, n, a, b, out);
          });
}

BENCHMARK(BM_Xtensor)->Apply(PeerArgs)->UseManualTime();

}  // namespace
}  // namespace stridekit::bench

BENCHMARK_MAIN();
