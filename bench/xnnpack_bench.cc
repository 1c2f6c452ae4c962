// The XNNPACK peer (Debian's 2022 libxnnpack-dev) on one thread (no
// threadpool), run as TensorFlow Lite runs its operators: created and set up
// once, then xnn_run_operator per call. xnn_add_nd_f32 for numeric_bench's
// broadcasting adds (float32), xnn_constant_pad_nd_x32 for copy_bench's pad
// case; that version has no transpose operator. Same shapes on the same
// kind of buffers, timed as the stridekit suite times the case; labelled
// "impl=xnnpack" beside the case's peer key for bench/compare.py.
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "copy_cases.h"
#include "numeric_cases.h"

namespace stridekit::bench {
namespace {

// Deletes an operator when its benchmark ends.
struct OperatorDeleter {
  void operator()(xnn_operator* op) const { xnn_delete_operator(op); }
};

// Whether XNNPACK initialised (once per process); benchmarks skip if not.
bool Initialized() {
  static const bool ok = xnn_initialize(nullptr) == xnn_status_success;
  return ok;
}

// xnn_run_operator of a set-up operator on the calling thread.
std::function<void()> Runner(std::shared_ptr<xnn_operator> op) {
  return [op] { xnn_run_operator(op.get(), nullptr); };
}

// numeric_bench's broadcasting adds, float32: [n*n] + [n*n], [n,1] + [n]
// and [n,n] + [n].
std::function<void()> AddKernel(Case c, int64_t n, int64_t es, Buffer& a,
                                Buffer& b, Buffer& out) {
  if (es != 4 || !Initialized()) return nullptr;
  const size_t m = size_t(n);
  std::vector<size_t> shape_a, shape_b;
  switch (c) {
    case Case::kAddContiguous:
      shape_a = shape_b = {m * m};
      break;
    case Case::kAddOuter:
      shape_a = {m, 1};
      shape_b = {m};
      break;
    case Case::kAddRow:
      shape_a = {m, m};
      shape_b = {m};
      break;
    default:
      return nullptr;
  }
  xnn_operator_t op = nullptr;
  if (xnn_create_add_nd_f32(-std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::infinity(), 0,
                            &op) != xnn_status_success) {
    return nullptr;
  }
  std::shared_ptr<xnn_operator> owned(op, OperatorDeleter());
  if (xnn_setup_add_nd_f32(
          op, shape_a.size(), shape_a.data(), shape_b.size(), shape_b.data(),
          reinterpret_cast<float*>(a.data), reinterpret_cast<float*>(b.data),
          reinterpret_cast<float*>(out.data), nullptr) != xnn_status_success) {
    return nullptr;
  }
  return Runner(owned);
}

void BM_XnnpackAdd(benchmark::State& state) {
  RunPeer(state, "xnnpack", AddKernel);
}

void AddArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (Case c : {Case::kAddContiguous, Case::kAddOuter, Case::kAddRow}) {
      b->Args({int64_t(c), 4, group});
    }
  }
}

BENCHMARK(BM_XnnpackAdd)->Apply(AddArgs)->UseManualTime();

// copy_bench's pad case (float32): [n-2, n-2] padded by one on every side
// with zeros.
void BM_XnnpackPad(benchmark::State& state) {
  const int group = int(state.range(0));
  const int64_t es = 4;
  const int64_t n = copy::PadEdge(copy::GroupBytes(group), es);
  Buffer src((n - 2) * (n - 2) * es), dst(n * n * es);
  const uint32_t zero = 0;
  const std::array<size_t, 2> shape = {size_t(n - 2), size_t(n - 2)},
                              pre = {1, 1}, post = {1, 1};
  xnn_operator_t op = nullptr;
  if (!Initialized() ||
      xnn_create_constant_pad_nd_x32(&zero, 0, &op) != xnn_status_success) {
    state.SkipWithError("xnn_create_constant_pad_nd_x32 failed");
    return;
  }
  std::shared_ptr<xnn_operator> owned(op, OperatorDeleter());
  if (xnn_setup_constant_pad_nd_x32(op, 2, shape.data(), pre.data(),
                                    post.data(), src.data, dst.data,
                                    nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_setup_constant_pad_nd_x32 failed");
    return;
  }
  const std::vector<int64_t> dst_shape = {n, n};
  copy::RunPeer(state, copy::Case::kPad, es, dst_shape, group,
                ((n - 2) * (n - 2) + n * n) * es, "xnnpack", Runner(owned));
}

BENCHMARK(BM_XnnpackPad)->DenseRange(0, 2)->UseManualTime();

}  // namespace
}  // namespace stridekit::bench

BENCHMARK_MAIN();
