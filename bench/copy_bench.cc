// The copy family against memcpy of the same bytes, at L2, L3 and DRAM
// sizes. Each case reports bytes/s counting read + write, and names its
// NumPy peer and size group in the label for bench/compare.py.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_buffer.h"
#include "stridekit/copy.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

// Bytes of the destination per size group: L2 (256 KiB), L3 (16 MiB) and
// DRAM (512 MiB, so source + destination span 1 GiB).
constexpr int64_t kGroupBytes[] = {int64_t{256} << 10, int64_t{16} << 20,
                                   int64_t{512} << 20};
constexpr const char* kGroupNames[] = {"L2", "L3", "DRAM"};

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
    s += (d ? "x" : "") + std::to_string(shape[d]);
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
  kReversed,
  kEveryOther,
  kBroadcastRow,
  kPad,
};
constexpr const char* kCaseNames[] = {
    "contiguous", "transpose2d", "transpose2d_pow2", "permute3d", "permute4d",
    "reversed",   "every_other", "broadcast_row",    "pad"};

// The source view (over a buffer of src_elems elements) and the destination
// shape of a case; the destination is always C-contiguous.
struct Layout {
  sk_view src;
  Dims dst_shape;
  int64_t src_elems;
  std::string numpy_shape;  // The source array NumPy builds.
};

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
      l.dst_shape = {n, n};
      l.src = View({n, n}, {1, n}, 0);
      l.src_elems = n * n;
      break;
    }
    case Case::kPermute3D: {
      const int64_t n = Edge(bytes, es, 3);
      // dst[i,j,k] = src[k,j,i] over a C-contiguous [n,n,n] source.
      l.dst_shape = {n, n, n};
      l.src = View({n, n, n}, {1, n, n * n}, 0);
      l.src_elems = n * n * n;
      break;
    }
    case Case::kPermute4D: {
      const int64_t n = Edge(bytes, es, 4);
      // Axes (1,3,0,2) of a C-contiguous [n,n,n,n] source.
      l.dst_shape = {n, n, n, n};
      l.src = View({n, n, n, n}, {n * n, 1, n * n * n, n}, 0);
      l.src_elems = n * n * n * n;
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

void BM_Copy(benchmark::State& state) {
  const Case c = static_cast<Case>(state.range(0));
  const int64_t es = state.range(1);
  const int group = int(state.range(2));
  const Layout l = MakeLayout(c, kGroupBytes[group], es);
  const sk_view dst = View(l.dst_shape, CContiguousStrides(l.dst_shape), 0);
  const int64_t dst_elems = Numel(l.dst_shape);
  Buffer src(l.src_elems * es), out(dst_elems * es);
  for (auto _ : state) {
    Copy(size_t(es), l.src, src.data, dst, out.data);
    benchmark::ClobberMemory();
  }
  // Read + write: the source elements read once, the destination written.
  const int64_t moved = (std::min(l.src_elems, dst_elems) + dst_elems) * es;
  state.SetBytesProcessed(state.iterations() * moved);
  const Dims src_shape(DimsView(l.src.shape, size_t(l.src.ndim)));
  state.SetLabel(std::string("peer=copy:") + kCaseNames[int(c)] + ":" +
                 (es == 4 ? "float32" : "float64") + ":" +
                 ShapeLabel(l.dst_shape) + " group=" + kGroupNames[group] +
                 " bytes=" + std::to_string(moved));
}

void BM_Memcpy(benchmark::State& state) {
  const int group = int(state.range(0));
  const int64_t bytes = kGroupBytes[group];
  Buffer src(bytes), out(bytes);
  for (auto _ : state) {
    std::memcpy(out.data, src.data, size_t(bytes));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * 2 * bytes);
  state.SetLabel(std::string("memcpy group=") + kGroupNames[group] +
                 " bytes=" + std::to_string(2 * bytes));
}

void CopyArgs(benchmark::internal::Benchmark* b) {
  for (int group = 0; group < 3; ++group) {
    for (int c = 0; c <= int(Case::kPad); ++c) {
      const bool transpose =
          c == int(Case::kTranspose2D) || c == int(Case::kTranspose2DPow2);
      for (int64_t es : {4, 8}) {
        if (es == 8 && !transpose) continue;
        b->Args({c, es, group});
      }
    }
  }
}

BENCHMARK(BM_Memcpy)->DenseRange(0, 2)->UseRealTime();
BENCHMARK(BM_Copy)->Apply(CopyArgs)->UseRealTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
