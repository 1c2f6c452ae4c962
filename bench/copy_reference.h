// The copy reference of a benchmark case: as many bytes moved (read + write)
// as the case moves, by the best of the C library (memcpy + memset) and
// stridekit's own contiguous Copy and Fill, timed in the same benchmark loop
// as the case and interleaved with it (a single memcpy figure per suite
// proved unstable). Shared by copy_bench, numeric_bench and cast_bench.
#ifndef STRIDEKIT_BENCH_COPY_REFERENCE_H_
#define STRIDEKIT_BENCH_COPY_REFERENCE_H_

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "clocks.h"
#include "stridekit/copy.h"
#include "stridekit/parallel.h"

namespace stridekit::bench {

inline double Mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

// The reference of a case that reads `read` and writes `written` bytes: it
// copies `copied` bytes from src to dst and fills the `filled` bytes after
// them, 2 * copied + filled = read + written (to a cache line): a copy of
// the bytes read and a fill of the rest when the case writes at least as
// much as it reads, else a copy of half the bytes moved. src must hold
// `copied` bytes, dst DstBytes(): the case's own input and output buffers
// (room added to the output where needed), so that the reference meets the
// cache state the case meets. Stridekit() copies and fills on `threads`
// threads (the case's), Libc() too: memcpy and memset of one slice per
// thread (the library's worker pool), as two np.copyto halves would.
struct CopyReference {
  const unsigned char* src;
  unsigned char* dst;
  int64_t copied = 0, filled = 0;
  int threads = 1;

  static CopyReference For(int64_t read, int64_t written) {
    CopyReference r{};
    const int64_t copied = read <= written ? read : (read + written) / 2;
    r.copied = copied / 64 * 64;
    r.filled = (read + written - 2 * copied) / 64 * 64;
    return r;
  }
  int64_t Moved() const { return 2 * copied + filled; }
  int64_t DstBytes() const { return copied + filled; }

  // The fill writes non-zero bytes: on some machines (the Zen 3 VMs this
  // project is measured on) streaming zeros to DRAM runs twice as fast as
  // any other value, which would flatter the roofline.
  static constexpr unsigned char kFillByte = 0x3F;

  void Libc() const {
    if (threads <= 1) {
      std::memcpy(dst, src, size_t(copied));
      std::memset(dst + copied, kFillByte, size_t(filled));
      return;
    }
    // Slices of whole cache lines, part i copying and filling its share.
    RunParallel(threads, [&](int i) {
      const auto slice = [&](int64_t bytes, int k) {
        return bytes / 64 * k / threads * 64;
      };
      const int64_t c0 = slice(copied, i), c1 = slice(copied, i + 1);
      const int64_t f0 = slice(filled, i), f1 = slice(filled, i + 1);
      if (i + 1 == threads) {
        std::memcpy(dst + c0, src + c0, size_t(copied - c0));
        std::memset(dst + copied + f0, kFillByte, size_t(filled - f0));
        return;
      }
      std::memcpy(dst + c0, src + c0, size_t(c1 - c0));
      std::memset(dst + copied + f0, kFillByte, size_t(f1 - f0));
    });
  }
  void Stridekit() const {
    // Streamed when the bytes it writes would stream as one copy, though
    // each of its two parts is smaller.
    CopyOptions options{threads};
    if (DstBytes() >= options.stream_min_bytes) options.stream_min_bytes = 0;
    const sk_view v = Contiguous(copied / 8);
    Copy(8, v, src, v, dst, nullptr, options);
    if (filled > 0) {
      int64_t value;
      std::memset(&value, kFillByte, sizeof(value));
      Fill(8, Contiguous(filled / 8), dst + copied, &value, options);
    }
  }

 private:
  static sk_view Contiguous(int64_t n) {
    sk_view v{};
    v.ndim = 1;
    v.shape[0] = n;
    v.strides[0] = 1;
    return v;
  }
};

// The benchmark loop of a case against its reference (UseManualTime): each
// iteration times run() by `clock`, which is the iteration time, and (in
// alternating order, before or after it) ref.Libc() and ref.Stridekit().
// Reports bytes/s of `moved` bytes per iteration and the counters
// ref_bytes_per_second (the better of the references' mean speeds),
// libc_bytes_per_second, sk_contiguous_bytes_per_second and x_ref (the
// case's mean speed over the reference's, bench/compare.py's "vs ref"; the
// reference runs right before or after the case, so the two meet the same
// machine load). Time by ThreadSeconds when the case runs on the calling
// thread only, else by WallSeconds (clocks.h).
template <typename Run>
void RunWithReference(benchmark::State& state, const CopyReference& ref,
                      int64_t moved, double (*clock)(), Run&& run) {
  std::vector<double> t_case, t_libc, t_sk;
  bool refs_first = false;
  auto run_refs = [&] {
    const double t0 = clock();
    ref.Libc();
    benchmark::ClobberMemory();
    const double t1 = clock();
    ref.Stridekit();
    benchmark::ClobberMemory();
    const double t2 = clock();
    t_libc.push_back(t1 - t0);
    t_sk.push_back(t2 - t1);
  };
  for (auto _ : state) {
    if (refs_first) run_refs();
    const double t0 = clock();
    run();
    benchmark::ClobberMemory();
    const double t1 = clock();
    if (!refs_first) run_refs();
    refs_first = !refs_first;
    t_case.push_back(t1 - t0);
    state.SetIterationTime(t_case.back());
  }
  if (t_case.empty()) return;
  state.SetBytesProcessed(state.iterations() * moved);
  // Means, the statistic of bytes_per_second (total bytes / total time).
  const double ref_bytes = double(ref.Moved());
  const double libc = ref_bytes / Mean(t_libc);
  const double sk = ref_bytes / Mean(t_sk);
  state.counters["ref_bytes_per_second"] = std::max(libc, sk);
  state.counters["libc_bytes_per_second"] = libc;
  state.counters["sk_contiguous_bytes_per_second"] = sk;
  state.counters["x_ref"] = double(moved) / Mean(t_case) / std::max(libc, sk);
}

}  // namespace stridekit::bench

#endif  // STRIDEKIT_BENCH_COPY_REFERENCE_H_
