// sk_iter_run against the dispatched kernels through the C ABI, on the same
// buffers and sizes as numeric_bench (numeric_cases.h: L2, L3, DRAM):
// - a caller's float32 add loop (ufunc-style, below) run by sk_iter_run
//   against sk_binary's add, contiguous ([n*n]), transposed (a.T + b,
//   [n,n]) and row broadcast ([n,n] + [n]), on 1 and 2 threads
//   (sk_set_threads);
// - the threaded calls (sk_iter_run's add, sk_binary's add, sk_copy of a
//   transpose, sk_reduce's sum) with their parts on a host's pool through
//   sk_set_executor, pthreadpool and OpenMP, against stridekit's own pool at
//   the same thread count.
// Labels: "via=" names the call (iter = sk_iter_run, binary, copy, reduce)
// and a host's pool (+ptp: pthreadpool, +omp: OpenMP); bench/compare.py
// appends it to the case name. The NumPy peers are numeric_bench's and
// copy_bench's (np.add, np.copyto, np.sum). Each case is timed (thread
// CPU time on one thread, else the wall clock) against its copy reference
// of as many bytes through its buffers (numeric_buffers.h).
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "numeric_buffers.h"
#include "stridekit/stridekit.h"

#if defined(SK_BENCH_PTHREADPOOL)
#include <pthreadpool.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

namespace stridekit {
namespace {

using bench::Buffer;
using bench::kGroupBytes;
using bench::kGroupNames;
using bench::SquareEdge;

// out = a + b as a runtime's float32 ufunc loop: a contiguous path the
// compiler vectorises, else one element at a time through the strides.
void AddLoop(char* const* p, int64_t n, const int64_t* s, void*) {
  if (s[0] == 4 && s[1] == 4 && s[2] == 4) {
    float* out = reinterpret_cast<float*>(p[0]);
    const float* a = reinterpret_cast<const float*>(p[1]);
    const float* b = reinterpret_cast<const float*>(p[2]);
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
    return;
  }
  char *out = p[0], *a = p[1], *b = p[2];
  for (int64_t i = 0; i < n; ++i, out += s[0], a += s[1], b += s[2]) {
    *reinterpret_cast<float*>(out) =
        *reinterpret_cast<const float*>(a) + *reinterpret_cast<const float*>(b);
  }
}

enum class Call { kIterAdd, kBinaryAdd, kCopy, kSum };
constexpr const char* kCallNames[] = {"iter", "binary", "copy", "reduce"};
enum class Pool { kOwn, kPthreadpool, kOpenMP };
// Short: the comparison table's case column is 44 characters wide.
constexpr const char* kPoolNames[] = {"own", "ptp", "omp"};

#if defined(SK_BENCH_PTHREADPOOL)
struct PoolJob {
  sk_part_fn part;
  void* job;
};
void RunOnPthreadpool(void* host, int64_t nparts, sk_part_fn part, void* job) {
  PoolJob j{part, job};
  pthreadpool_parallelize_1d(
      static_cast<pthreadpool_t>(host),
      [](void* c, size_t i) {
        auto* pj = static_cast<PoolJob*>(c);
        pj->part(pj->job, int64_t(i));
      },
      &j, size_t(nparts), 0);
}
#endif
#if defined(_OPENMP)
void RunOnOpenMP(void*, int64_t nparts, sk_part_fn part, void* job) {
#pragma omp parallel for num_threads(int(nparts)) schedule(static)
  for (int64_t i = 0; i < nparts; ++i) part(job, i);
}
#endif

// Installs `pool` with `threads` threads; false when it is not built in.
bool UsePool(Pool pool, int threads) {
  sk_set_threads(threads);
  switch (pool) {
    case Pool::kOwn:
      return sk_set_executor(nullptr, nullptr) == SK_OK;
    case Pool::kPthreadpool:
#if defined(SK_BENCH_PTHREADPOOL)
    {
      // One pool per thread count, kept for the whole run.
      static pthreadpool_t pools[3] = {};
      if (threads > 2) return false;
      if (!pools[threads]) pools[threads] = pthreadpool_create(size_t(threads));
      return sk_set_executor(RunOnPthreadpool, pools[threads]) == SK_OK;
    }
#else
      return false;
#endif
    case Pool::kOpenMP:
#if defined(_OPENMP)
      return sk_set_executor(RunOnOpenMP, nullptr) == SK_OK;
#else
      return false;
#endif
  }
  return false;
}

sk_view View2(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  sk_view v{};
  v.ndim = 2;
  v.shape[0] = rows, v.shape[1] = cols;
  v.strides[0] = s0, v.strides[1] = s1;
  return v;
}

// Args: call, layout (0 contiguous, 1 transposed, 2 row broadcast), size
// group, threads, pool.
void BM_Iter(benchmark::State& state) {
  const Call call = static_cast<Call>(state.range(0));
  const int layout = int(state.range(1));
  const bool transposed = layout == 1, row = layout == 2;
  const int group = int(state.range(2));
  const int threads = int(state.range(3));
  const Pool pool = static_cast<Pool>(state.range(4));
  if (!UsePool(pool, threads)) {
    state.SkipWithError("pool not built in");
    return;
  }
  const int64_t n = SquareEdge(kGroupBytes[group], 4);
  const bench::Case c =
      call == Call::kSum
          ? (transposed ? bench::Case::kSumTransposed : bench::Case::kSumLast)
      : transposed ? bench::Case::kAddTransposed
      : row        ? bench::Case::kAddRow
                   : bench::Case::kAddContiguous;
  // A copy reads and writes n * n elements; the others as numeric_bench's
  // case c.
  const bench::Traffic traffic = call == Call::kCopy
                                     ? bench::Traffic{n * n * 4, n * n * 4}
                                     : bench::BytesTraffic(c, n, 4);
  bench::NumericBuffers buffers(n, 4, false, traffic, threads);
  unsigned char *const a = buffers.a, *const b = buffers.b;
  Buffer& out = buffers.out;
  // Contiguous adds and copies are over [n*n] (one chunk), the others over
  // [n,n]: a read as a.T, or b a row [n] broadcast to every row; sums
  // reduce the last axis of [n,n] or of a.T.
  const sk_view full = View2(n, n, n, 1), at = View2(n, n, 1, n);
  const sk_view m = layout == 0 ? View2(1, n * n, n * n, 1) : full;
  const sk_view in = transposed ? at : m;
  const sk_view sum_in = transposed ? at : full;
  sk_view vec{};
  vec.ndim = 1, vec.shape[0] = n, vec.strides[0] = 1;
  const sk_view& b_view = row ? vec : m;
  const sk_view* add_views[] = {&m, &in, &b_view};
  const size_t sizes[] = {4, 4, 4};
  void* add_datas[] = {out.data, a, b};
  const int32_t axis1[] = {1};
  const int64_t moved = traffic.read + traffic.written;
  std::string peer;
  sk_status status = SK_OK;
  const auto run = [&] {
    switch (call) {
      case Call::kIterAdd:
        return sk_iter_run(3, add_views, sizes, add_datas, 0, AddLoop, nullptr);
      case Call::kBinaryAdd:
        return sk_binary(SK_ADD, SK_FLOAT32, &in, a, &b_view, b, &m, out.data);
      case Call::kCopy:
        return sk_copy(SK_FLOAT32, &in, a, &m, out.data, nullptr);
      case Call::kSum:
        return sk_reduce(SK_SUM, SK_FLOAT32, &sum_in, a, 1, axis1, &vec,
                         out.data);
    }
    return SK_ERR_INVALID;
  };
  switch (call) {
    case Call::kIterAdd:
    case Call::kBinaryAdd:
    case Call::kSum:
      peer = bench::CaseLabel(c, "float32", n, group, moved);
      break;
    case Call::kCopy:
      peer = "peer=copy:" +
             std::string(transposed ? "transpose2d" : "contiguous") +
             ":float32:" +
             (transposed ? std::to_string(n) + "x" + std::to_string(n)
                         : std::to_string(n * n)) +
             " group=" + kGroupNames[group] + " bytes=" + std::to_string(moved);
      break;
  }
  bench::RunWithReference(
      state, buffers.ref, moved,
      threads > 1 ? bench::WallSeconds : bench::ThreadSeconds,
      [&] { status = run(); });
  if (status != SK_OK) state.SkipWithError(sk_last_error());
  sk_set_executor(nullptr, nullptr);
  sk_set_threads(1);
  state.SetLabel(
      peer + " via=" + kCallNames[int(call)] +
      (pool == Pool::kOwn ? "" : std::string("+") + kPoolNames[int(pool)]) +
      (threads > 1 ? " threads=" + std::to_string(threads) : ""));
}

void IterArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    // sk_iter_run's loop against sk_binary, 1 and 2 threads, own pool.
    for (int layout : {0, 1, 2}) {
      for (int call : {int(Call::kIterAdd), int(Call::kBinaryAdd)}) {
        for (int threads : {1, 2}) {
          b->Args({call, layout, group, threads, int(Pool::kOwn)});
        }
      }
    }
    // The pools at 2 threads (the own pool's rows are above, or here for
    // the calls not above).
    for (int transposed : {0, 1}) {
      for (int call = 0; call <= int(Call::kSum); ++call) {
        for (int pool :
             {int(Pool::kOwn), int(Pool::kPthreadpool), int(Pool::kOpenMP)}) {
          if (pool == int(Pool::kOwn) && call <= int(Call::kBinaryAdd)) {
            continue;
          }
          b->Args({call, transposed, group, 2, pool});
        }
      }
    }
  }
}

BENCHMARK(BM_Iter)->Apply(IterArgs)->UseManualTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
