// Fixed costs (issues 18, 33): ns per call of the C ABI on tiny float32
// arrays of 1, 16 and 256 elements ([1,1], [4,4] and [16,16], C order):
// sk_copy, sk_binary (SK_ADD), sk_plan_execute of a SK_ADD plan (made once),
// sk_einsum ("ij,jk->ik") and the view algebra
// (sk_view_slice "1:, ::-1", sk_view_reshape to [n], sk_view_permute
// [1,0]; metadata only, the elements do not matter). Each case names its
// NumPy peer (numpy_peers.py: the same operation on ndarrays of the same
// layout, timed from Python, so its figure includes the interpreter's call
// overhead) for bench/compare.py. With XNNPACK installed, its prepared
// add_nd_f32 operator (xnn_run_operator on the same buffers, in the same
// process) runs beside sk_binary and sk_plan_execute (impl=xnnpack).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "bench_buffer.h"
#include "stridekit/stridekit.h"

#ifdef SK_BENCH_XNNPACK
#include <xnnpack.h>

#include <limits>
#endif

namespace stridekit {
namespace {

enum class Op {
  kCopy,
  kBinary,
  kEinsum,
  kSlice,
  kReshape,
  kPermute,
  kPlanExecute
};
constexpr const char* kOpNames[] = {
    "sk_copy",         "sk_binary",       "sk_einsum",      "sk_view_slice",
    "sk_view_reshape", "sk_view_permute", "sk_plan_execute"};

// The [e, e] C-order view of e * e elements.
sk_view Square(int64_t e) {
  sk_view v{};
  v.ndim = 2;
  v.shape[0] = v.shape[1] = e;
  v.strides[0] = e;
  v.strides[1] = 1;
  return v;
}

// Stops the benchmark when a call fails: the figure would time the error.
void Check(benchmark::State& state, sk_status s) {
  if (s != SK_OK) state.SkipWithError("call failed");
}

void BM_Call(benchmark::State& state) {
  const Op op = static_cast<Op>(state.range(0));
  const int64_t n = state.range(1);
  int64_t e = 1;
  while (e * e < n) ++e;
  const sk_view v = Square(e);
  bench::Buffer a(n * 4, 0), b(n * 4, 1), out(n * 4, 2);
  sk_view result{};
  switch (op) {
    case Op::kCopy:
      for (auto _ : state) {
        Check(state, sk_copy(SK_FLOAT32, &v, a.data, &v, out.data, nullptr));
        benchmark::ClobberMemory();
      }
      break;
    case Op::kBinary:
      for (auto _ : state) {
        Check(state, sk_binary(SK_ADD, SK_FLOAT32, &v, a.data, &v, b.data, &v,
                               out.data));
        benchmark::ClobberMemory();
      }
      break;
    case Op::kEinsum: {
      const sk_view* views[] = {&v, &v};
      const void* datas[] = {a.data, b.data};
      for (auto _ : state) {
        Check(state, sk_einsum("ij,jk->ik", SK_FLOAT32, 2, views, datas, &v,
                               out.data));
        benchmark::ClobberMemory();
      }
      break;
    }
    case Op::kSlice:
      for (auto _ : state) {
        Check(state, sk_view_slice(&v, "1:, ::-1", &result));
        benchmark::DoNotOptimize(result);
      }
      break;
    case Op::kReshape: {
      const int64_t flat[] = {e * e};
      for (auto _ : state) {
        Check(state, sk_view_reshape(&v, 1, flat, &result));
        benchmark::DoNotOptimize(result);
      }
      break;
    }
    case Op::kPermute: {
      const int32_t axes[] = {1, 0};
      for (auto _ : state) {
        Check(state, sk_view_permute(&v, axes, &result));
        benchmark::DoNotOptimize(result);
      }
      break;
    }
    case Op::kPlanExecute: {
      sk_plan* plan = nullptr;
      Check(state, sk_plan_binary(SK_ADD, SK_FLOAT32, &v, &v, &v, &plan));
      const void* in[2] = {a.data, b.data};
      for (auto _ : state) {
        Check(state, sk_plan_execute(plan, in, out.data));
        benchmark::ClobberMemory();
      }
      sk_plan_free(plan);
      break;
    }
  }
  state.SetLabel(std::string("peer=call:") + kOpNames[int(op)] + ":" +
                 std::to_string(n));
}

BENCHMARK(BM_Call)->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {1, 16, 256}});

#ifdef SK_BENCH_XNNPACK
// XNNPACK's add_nd_f32 created and set up once on the same [e, e] buffers,
// then xnn_run_operator per call (no thread pool): the peer of sk_binary
// and sk_plan_execute (range 0: 1 or 6, the Op whose row it joins).
void BM_XnnpackCall(benchmark::State& state) {
  const Op op = static_cast<Op>(state.range(0));
  const int64_t n = state.range(1);
  int64_t e = 1;
  while (e * e < n) ++e;
  bench::Buffer a(n * 4, 0), b(n * 4, 1), out(n * 4, 2);
  xnn_operator_t add = nullptr;
  const size_t shape[2] = {size_t(e), size_t(e)};
  if (xnn_initialize(nullptr) != xnn_status_success ||
      xnn_create_add_nd_f32(-std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::infinity(), 0,
                            &add) != xnn_status_success ||
      xnn_setup_add_nd_f32(
          add, 2, shape, 2, shape, reinterpret_cast<const float*>(a.data),
          reinterpret_cast<const float*>(b.data),
          reinterpret_cast<float*>(out.data), nullptr) != xnn_status_success) {
    state.SkipWithError("XNNPACK add_nd_f32 failed");
    return;
  }
  for (auto _ : state) {
    if (xnn_run_operator(add, nullptr) != xnn_status_success) {
      state.SkipWithError("xnn_run_operator failed");
    }
    benchmark::ClobberMemory();
  }
  xnn_delete_operator(add);
  state.SetLabel(std::string("peer=call:") + kOpNames[int(op)] + ":" +
                 std::to_string(n) + " impl=xnnpack");
}

BENCHMARK(BM_XnnpackCall)->ArgsProduct({{1, 6}, {1, 16, 256}});
#endif

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
