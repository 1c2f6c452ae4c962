// The copy family at L2, L3 and DRAM sizes, each case against its copy
// reference: the same bytes moved between the same buffers by the best of
// the C library (memcpy + memset) and stridekit's own contiguous copy and
// fill, timed in the same benchmark loop, interleaved with the case. Each
// case reports bytes/s counting read + write, the reference's bytes/s
// (counter ref_bytes_per_second) and the ratio of the two (x_ref), and names
// its NumPy peer and size group in the label for bench/compare.py.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench_buffer.h"
#include "stridekit/copy.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// Size groups, derived from this machine's caches at run time (sysconf;
// STRIDEKIT_BENCH_<GROUP>_BYTES overrides, for machines that report caches
// one core does not see). Destination bytes: a quarter of L2 (source and
// destination fit in half of it), a quarter of L3, and at DRAM four times L3
// and at least 512 MiB (STREAM's rule: each array >= 4x the last level).
constexpr const char* kGroupNames[] = {"L2", "L3", "DRAM"};

std::array<int64_t, 3> ComputeGroupBytes() {
  const int64_t l2 =
      std::max<int64_t>(sysconf(_SC_LEVEL2_CACHE_SIZE), int64_t{256} << 10);
  const int64_t l3 = std::max<int64_t>(sysconf(_SC_LEVEL3_CACHE_SIZE), 4 * l2);
  std::array<int64_t, 3> bytes = {
      l2 / 4, l3 / 4, std::max<int64_t>(4 * l3, int64_t{512} << 20)};
  for (int g = 0; g < 3; ++g) {
    const std::string var =
        std::string("STRIDEKIT_BENCH_") + kGroupNames[g] + "_BYTES";
    if (const char* v = std::getenv(var.c_str())) bytes[g] = std::atoll(v);
  }
  return bytes;
}

int64_t GroupBytes(int group) {
  static const std::array<int64_t, 3> bytes = ComputeGroupBytes();
  return bytes[group];
}

using bench::Buffer;

sk_view View(const Dims& shape, const Dims& strides, int64_t offset) {
  sk_view v{};
  v.ndim = shape.size();
  v.offset = offset;
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

std::string ShapeLabel(const Dims& shape) {
  std::string s;
  for (int d = 0; d < shape.size(); ++d) {
    if (d > 0) s.push_back('x');
    s.append(std::to_string(shape[d]));
  }
  return s;
}

// The largest n with n^rank elements of elem_size bytes within `bytes`.
int64_t Edge(int64_t bytes, int64_t elem_size, int rank) {
  int64_t n = 1;
  while (true) {
    int64_t next = 1;
    for (int i = 0; i < rank; ++i) next *= n + 1;
    if (next * elem_size > bytes) return n;
    ++n;
  }
}

enum class Case {
  kContiguous,
  kTranspose2D,
  kTranspose2DPow2,
  kPermute3D,
  kPermute4D,
  kPermute4D107,
  kPermute5D,
  kReversed,
  kEveryOther,
  kBroadcastRow,
  kPad,
};
constexpr const char* kCaseNames[] = {
    "contiguous",    "transpose2d", "transpose2d_pow2",
    "permute3d",     "permute4d",   "permute4d_3102",
    "permute5d",     "reversed",    "every_other",
    "broadcast_row", "pad"};

// The source view (over a buffer of src_elems elements) and the destination
// shape of a case; the destination is always C-contiguous.
struct Layout {
  sk_view src;
  Dims dst_shape;
  int64_t src_elems;
};

// dst = src.transpose(axes) for a C-contiguous source of shape `shape`.
void Permuted(Layout& l, const Dims& shape, const Dims& axes) {
  const Dims strides = CContiguousStrides(shape);
  Dims dst_shape, src_strides;
  for (int d = 0; d < axes.size(); ++d) {
    dst_shape.push_back(shape[axes[d]]);
    src_strides.push_back(strides[axes[d]]);
  }
  l.dst_shape = dst_shape;
  l.src = View(dst_shape, src_strides, 0);
  l.src_elems = Numel(shape);
}

Layout MakeLayout(Case c, int64_t bytes, int64_t es) {
  Layout l;
  const int64_t n1 = bytes / es;
  switch (c) {
    case Case::kContiguous:
    case Case::kReversed: {
      l.dst_shape = {n1};
      l.src = c == Case::kContiguous ? View({n1}, {1}, 0)
                                     : View({n1}, {-1}, n1 - 1);
      l.src_elems = n1;
      break;
    }
    case Case::kEveryOther: {
      l.dst_shape = {n1};
      l.src = View({n1}, {2}, 0);
      l.src_elems = 2 * n1;
      break;
    }
    case Case::kTranspose2D:
    case Case::kTranspose2DPow2: {
      int64_t n = Edge(bytes, es, 2);
      if (c == Case::kTranspose2DPow2) {
        while (n & (n - 1)) n &= n - 1;
      } else if ((n & (n - 1)) == 0) {
        --n;
      }
      Permuted(l, {n, n}, {1, 0});
      break;
    }
    case Case::kPermute3D: {
      const int64_t n = Edge(bytes, es, 3);
      Permuted(l, {n, n, n}, {2, 1, 0});
      break;
    }
    case Case::kPermute4D: {
      const int64_t n = Edge(bytes, es, 4);
      Permuted(l, {n, n, n, n}, {1, 3, 0, 2});
      break;
    }
    case Case::kPermute4D107: {
      Permuted(l, {107, 107, 107, 107}, {3, 1, 0, 2});
      break;
    }
    case Case::kPermute5D: {
      const int64_t n = Edge(bytes, es, 5);
      Permuted(l, {n, n, n, n, n}, {4, 3, 2, 1, 0});
      break;
    }
    case Case::kBroadcastRow: {
      const int64_t m = 1024, rows = n1 / m;
      l.dst_shape = {rows, m};
      l.src = View({m}, {1}, 0);
      l.src_elems = m;
      break;
    }
    case Case::kPad: {
      const int64_t n = Edge(bytes, es, 2);
      // A [n-2, n-2] array padded by one on every side.
      l.dst_shape = {n, n};
      l.src = View({n, n}, {n - 2, 1}, -(n - 2) - 1);
      l.src.has_mask = 1;
      l.src.mask_begin[0] = l.src.mask_begin[1] = 1;
      l.src.mask_end[0] = l.src.mask_end[1] = n - 1;
      l.src_elems = (n - 2) * (n - 2);
      break;
    }
  }
  return l;
}

// This thread's CPU time in seconds: the copies run on the calling thread
// (CopyOptions::threads is 1), and on a shared machine the wall clock also
// counts the time other processes hold the core. Memory stalls count.
double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double Median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// The copy reference of a case that reads `read` and writes `written` bytes
// (read <= written): the first `read` bytes of the destination copied from
// the source buffer, the rest filled, by libc or by stridekit.
struct Reference {
  const unsigned char* src;
  unsigned char* dst;
  int64_t read, written, es;

  void Libc() const {
    std::memcpy(dst, src, size_t(read));
    std::memset(dst + read, 0, size_t(written - read));
  }
  void Stridekit() const {
    const Dims n{read / es}, rest{(written - read) / es};
    const sk_view v = View(n, {1}, 0);
    Copy(size_t(es), v, src, v, dst);
    if (rest[0] > 0) {
      const int64_t zero = 0;
      Fill(size_t(es), View(rest, {1}, 0), dst + read, &zero);
    }
  }
};

// Manual time (thread CPU time): each iteration times the case, then (in
// alternating order) both references on the same buffers; only the case
// counts as iteration time. The counters carry the medians' ratio.
void BM_Copy(benchmark::State& state) {
  const Case c = static_cast<Case>(state.range(0));
  const int64_t es = state.range(1);
  const int group = int(state.range(2));
  const Layout l = MakeLayout(c, GroupBytes(group), es);
  const sk_view dst = View(l.dst_shape, CContiguousStrides(l.dst_shape), 0);
  const int64_t dst_elems = Numel(l.dst_shape);
  const int64_t read = std::min(l.src_elems, dst_elems) * es;
  const int64_t written = dst_elems * es;
  Buffer src(l.src_elems * es), out(written);
  const Reference ref{src.data, out.data, read, written, es};
  std::vector<double> t_case, t_libc, t_sk;
  bool refs_first = false;
  for (auto _ : state) {
    auto run_refs = [&] {
      const double t0 = ThreadSeconds();
      ref.Libc();
      benchmark::ClobberMemory();
      const double t1 = ThreadSeconds();
      ref.Stridekit();
      benchmark::ClobberMemory();
      const double t2 = ThreadSeconds();
      t_libc.push_back(t1 - t0);
      t_sk.push_back(t2 - t1);
    };
    if (refs_first) run_refs();
    const double t0 = ThreadSeconds();
    Copy(size_t(es), l.src, src.data, dst, out.data);
    benchmark::ClobberMemory();
    const double t1 = ThreadSeconds();
    if (!refs_first) run_refs();
    refs_first = !refs_first;
    t_case.push_back(t1 - t0);
    state.SetIterationTime(t_case.back());
  }
  const int64_t moved = read + written;
  state.SetBytesProcessed(state.iterations() * moved);
  const double ref_s = std::min(Median(t_libc), Median(t_sk));
  state.counters["ref_bytes_per_second"] = double(moved) / ref_s;
  state.counters["libc_bytes_per_second"] = double(moved) / Median(t_libc);
  state.counters["sk_contiguous_bytes_per_second"] =
      double(moved) / Median(t_sk);
  state.counters["x_ref"] = ref_s / Median(t_case);
  state.SetLabel(std::string("peer=copy:") + kCaseNames[int(c)] + ":" +
                 (es == 4 ? "float32" : "float64") + ":" +
                 ShapeLabel(l.dst_shape) + " group=" + kGroupNames[group] +
                 " bytes=" + std::to_string(moved));
}

void CopyArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (int c = 0; c <= int(Case::kPad); ++c) {
      // 107^4 floats (0.5 GB) is a DRAM-size case only.
      if (c == int(Case::kPermute4D107) && group != 2) continue;
      const bool transpose =
          c == int(Case::kTranspose2D) || c == int(Case::kTranspose2DPow2);
      for (int64_t es : {4, 8}) {
        if (es == 8 && !transpose) continue;
        b->Args({c, es, group});
      }
    }
  }
}

BENCHMARK(BM_Copy)->Apply(CopyArgs)->UseManualTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
