// Size groups, buffers, case names and bytes moved shared by the numeric
// benchmarks (numeric_bench: stridekit; iter_bench: sk_iter_run and
// the host's pools; xtensor_bench, eigen_bench, xnnpack_bench: the peer
// libraries), so that all measure the same shapes on the same kind of
// buffers and carry the same labels for bench/compare.py.
#ifndef STRIDEKIT_BENCH_NUMERIC_CASES_H_
#define STRIDEKIT_BENCH_NUMERIC_CASES_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "bench_buffer.h"
#include "clocks.h"

namespace stridekit::bench {

// Bytes of the main input per size group: L2 (256 KiB), L3 (16 MiB) and
// DRAM (256 MiB; with the other operands well beyond the 260 MiB L3).
constexpr int64_t kGroupBytes[] = {int64_t{256} << 10, int64_t{16} << 20,
                                   int64_t{256} << 20};
constexpr const char* kGroupNames[] = {"L2", "L3", "DRAM"};

enum class Case {
  kAddContiguous,  // [n] + [n]
  kAddOuter,       // [N,1] + [1,M] -> [N,M]
  kAddRow,         // [N,M] + [M]
  kAddTransposed,  // a.T + b, both [N,N]
  kSumLast,        // [N,M].sum(-1)
  kSumAxis0,       // [N,M].sum(0)
  kSumTransposed,  // a.T.sum(-1), a [N,N]
  // Comparisons and where, [N,N] (bool output / bool cond).
  kGreaterContiguous,  // a > b
  kGreaterTransposed,  // a.T > b
  kWhereContiguous,    // where(cond, a, b)
  kWhereTransposed,    // where(cond, a.T, b)
  // Unary math, [N,N] in and C-order out; input values from CaseValue.
  kExpContiguous,   // exp(a)
  kExpTransposed,   // exp(a.T)
  kLogContiguous,   // log(a)
  kLogTransposed,   // log(a.T)
  kTanhContiguous,  // tanh(a)
  kTanhTransposed,  // tanh(a.T)
  // Argmax (int64 [N] out) and cumsum ([N,N] out) of [N,N].
  kArgmaxLast,        // argmax(a, -1)
  kArgmaxAxis0,       // argmax(a, 0)
  kArgmaxTransposed,  // argmax(a.T, -1)
  kCumsumLast,        // cumsum(a, -1)
  kCumsumAxis0,       // cumsum(a, 0)
  kCumsumTransposed,  // cumsum(a.T, -1)
};
constexpr const char* kCaseNames[] = {
    "add_contiguous",   "add_outer",          "add_row",
    "add_transposed",   "sum_last",           "sum_axis0",
    "sum_transposed",   "greater_contiguous", "greater_transposed",
    "where_contiguous", "where_transposed",   "exp_contiguous",
    "exp_transposed",   "log_contiguous",     "log_transposed",
    "tanh_contiguous",  "tanh_transposed",    "argmax_last",
    "argmax_axis0",     "argmax_transposed",  "cumsum_last",
    "cumsum_axis0",     "cumsum_transposed"};

// The first case whose input `a` holds CaseValue rather than a byte fill.
constexpr Case kFirstValuedCase = Case::kExpContiguous;

// Element i (C order) of input `a` of a valued case: 1024 values spread
// over log's domain [0.5, 2) or [-5, 5) for the others, in a scrambled
// order (7919 is odd: a permutation mod 1024). Every step is exact in
// double, so a cast to the dtype gives the same bits as numpy_peers.py's
// _case_values.
inline double CaseValue(Case c, int64_t i) {
  const bool log = c == Case::kLogContiguous || c == Case::kLogTransposed;
  const double lo = log ? 0.5 : -5.0, width = log ? 1.5 : 10.0;
  return lo + double((i * 7919) % 1024) / 1024 * width;
}

// The largest n with n * n elements of elem_size bytes within `bytes`, one
// less when that is a power of two (avoids cache-set aliasing of columns).
inline int64_t SquareEdge(int64_t bytes, int64_t elem_size) {
  int64_t n = 1;
  while ((n + 1) * (n + 1) * elem_size <= bytes) ++n;
  return (n & (n - 1)) == 0 ? n - 1 : n;
}

// Bytes that must move per call: inputs read once, output written once.
struct Traffic {
  int64_t read, written;
};
inline Traffic BytesTraffic(Case c, int64_t n, int64_t elem_size) {
  const int64_t nn = n * n * elem_size;
  switch (c) {
    case Case::kAddContiguous:
    case Case::kAddTransposed:
      return {2 * nn, nn};
    case Case::kAddOuter:
      return {2 * n * elem_size, nn};
    case Case::kAddRow:
      return {nn + n * elem_size, nn};
    case Case::kGreaterContiguous:
    case Case::kGreaterTransposed:  // Two inputs, a bool output.
      return {2 * nn, n * n};
    case Case::kWhereContiguous:
    case Case::kWhereTransposed:  // A bool cond, two inputs, the output.
      return {2 * nn + n * n, nn};
    case Case::kArgmaxLast:
    case Case::kArgmaxAxis0:
    case Case::kArgmaxTransposed:  // The input and an int64 vector.
      return {nn, n * int64_t(sizeof(int64_t))};
    case Case::kSumLast:
    case Case::kSumAxis0:
    case Case::kSumTransposed:  // The input and the output vector.
      return {nn, n * elem_size};
    default:  // Unary math and cumsum: the input and the output.
      return {nn, nn};
  }
}
inline int64_t BytesMoved(Case c, int64_t n, int64_t elem_size) {
  const Traffic t = BytesTraffic(c, n, elem_size);
  return t.read + t.written;
}

// The label of a case: its NumPy peer (none for bfloat16, which NumPy
// lacks), size group and bytes moved. `dtype`: NumPy's name ("float32").
inline std::string CaseLabel(Case c, const std::string& dtype, int64_t n,
                             int group, int64_t moved) {
  return std::string(dtype == "bfloat16" ? "case=" : "peer=") +
         "numeric:" + kCaseNames[int(c)] + ":" + dtype + ":" +
         std::to_string(n) + " group=" + kGroupNames[group] +
         " bytes=" + std::to_string(moved);
}

// The cases that numeric_bench's peers (xtensor, Eigen, XNNPACK) measure.
constexpr Case kPeerCases[] = {Case::kAddContiguous, Case::kAddOuter,
                               Case::kAddRow, Case::kSumLast, Case::kSumAxis0};

// A peer of numeric case range(0) for elements of range(1) bytes in size
// group range(2) (benchmark with UseManualTime: timed by thread CPU time,
// as numeric_bench times its one-thread cases), on numeric_bench's buffers: a
// and out hold n * n elements, b n * n (n for the broadcast operands). make(c,
// n, es, a, b, out) returns the kernel (a std::function) or nullptr when the
// peer lacks the case, which then reports an error. Labelled as the case, plus
// " impl=<impl>".
template <typename Make>
void RunPeer(benchmark::State& state, const char* impl, Make make) {
  const Case c = static_cast<Case>(state.range(0));
  const int64_t es = state.range(1);
  const int group = int(state.range(2));
  const int64_t n = SquareEdge(kGroupBytes[group], es);
  Buffer a(n * n * es, 0), b(n * n * es, 5), out(n * n * es, 11);
  const auto run = make(c, n, es, a, b, out);
  if (!run) {
    state.SkipWithError("no such peer case");
    return;
  }
  const int64_t moved = BytesMoved(c, n, es);
  for (auto _ : state) {
    const double t0 = ThreadSeconds();
    run();
    benchmark::ClobberMemory();
    state.SetIterationTime(ThreadSeconds() - t0);
  }
  state.SetBytesProcessed(state.iterations() * moved);
  state.SetLabel(
      CaseLabel(c, es == 4 ? "float32" : "float64", n, group, moved) +
      " impl=" + impl);
}

// Arguments of RunPeer: every kPeerCases case, float32 and float64, at
// every size group.
inline void PeerArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (Case c : kPeerCases) {
      for (int64_t es : {4, 8}) b->Args({int64_t(c), es, group});
    }
  }
}

}  // namespace stridekit::bench

#endif  // STRIDEKIT_BENCH_NUMERIC_CASES_H_
