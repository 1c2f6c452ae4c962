// The copy family at L2, L3 and DRAM sizes, each case against its copy
// reference: the same bytes moved between the same buffers by the best of
// the C library (memcpy + memset) and stridekit's own contiguous copy and
// fill, timed in the same benchmark loop, interleaved with the case. Each
// case reports bytes/s counting read + write, the reference's bytes/s
// (counter ref_bytes_per_second) and the ratio of the two (x_ref), and names
// its NumPy peer and size group in the label for bench/compare.py.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <thread>

#include "bench_buffer.h"
#include "copy_cases.h"
#include "copy_reference.h"
#include "stridekit/copy.h"
#include "stridekit/shape.h"

namespace stridekit {
namespace {

using bench::Buffer;
using bench::ThreadSeconds;
using bench::WallSeconds;
using bench::copy::Case;
using bench::copy::GroupBytes;

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

// The source view (over a buffer of src_elems elements) and the destination
// shape of a case; the destination is always C-contiguous.
struct Layout {
  sk_view src;
  Dims dst_shape;
  int64_t src_elems;
};

// dst = src.transpose(p.axes) for a C-contiguous source of shape p.shape.
void Permuted(Layout& l, const bench::copy::Permutation& p) {
  const Dims shape(p.shape), strides = CContiguousStrides(shape);
  Dims dst_shape, src_strides;
  for (int64_t axis : p.axes) {
    dst_shape.push_back(shape[axis]);
    src_strides.push_back(strides[axis]);
  }
  l.dst_shape = dst_shape;
  l.src = View(dst_shape, src_strides, 0);
  l.src_elems = Numel(shape);
}

Layout MakeLayout(Case c, int64_t bytes, int64_t es) {
  Layout l;
  if (bench::copy::Permutation p; PermutationOf(c, bytes, es, &p)) {
    Permuted(l, p);
    return l;
  }
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
    case Case::kBroadcastRow: {
      const int64_t m = 1024, rows = n1 / m;
      l.dst_shape = {rows, m};
      l.src = View({m}, {1}, 0);
      l.src_elems = m;
      break;
    }
    case Case::kPad: {
      const int64_t n = bench::copy::PadEdge(bytes, es);
      // A [n-2, n-2] array padded by one on every side.
      l.dst_shape = {n, n};
      l.src = View({n, n}, {n - 2, 1}, -(n - 2) - 1);
      l.src.has_mask = 1;
      l.src.mask_begin[0] = l.src.mask_begin[1] = 1;
      l.src.mask_end[0] = l.src.mask_end[1] = n - 1;
      l.src_elems = (n - 2) * (n - 2);
      break;
    }
    default:  // The permutations, above.
      break;
  }
  return l;
}

// Manual time (thread CPU time on one thread, wall time on more): each
// iteration times the case, then (in alternating order) both references on
// the same buffers and threads: the first `read` bytes of the destination
// copied from the source, the rest filled.
void BM_Copy(benchmark::State& state) {
  const Case c = static_cast<Case>(state.range(0));
  const int64_t es = state.range(1);
  const int group = int(state.range(2));
  const int threads = int(state.range(3));
  const Layout l = MakeLayout(c, GroupBytes(group), es);
  const sk_view dst = View(l.dst_shape, CContiguousStrides(l.dst_shape), 0);
  const int64_t dst_elems = Numel(l.dst_shape);
  const int64_t read = std::min(l.src_elems, dst_elems) * es;
  const int64_t written = dst_elems * es;
  // Non-zero data (CopyReference::kFillByte says why).
  Buffer src(l.src_elems * es, 0, bench::CopyReference::kFillByte),
      out(written);
  bench::CopyReference ref = bench::CopyReference::For(read, written);
  ref.src = src.data;
  ref.dst = out.data;
  ref.threads = threads;
  const int64_t moved = read + written;
  const CopyOptions options{threads};
  bench::RunWithReference(
      state, ref, moved, threads > 1 ? WallSeconds : ThreadSeconds, [&] {
        Copy(size_t(es), l.src, src.data, dst, out.data, nullptr, options);
      });
  state.SetLabel(bench::copy::CaseLabel(c, es, l.dst_shape, group, moved) +
                 (threads > 1 ? " threads=" + std::to_string(threads) : ""));
}

// Every case on one thread and on every core (when there are several).
void CopyArgs(benchmark::internal::Benchmark* b) {
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  for (int threads : {1, cores}) {
    for (int group = 0; group < 3; ++group) {
      for (int c = 0; c <= int(Case::kPad); ++c) {
        for (int64_t es : {4, 8}) {
          if (bench::copy::CaseRuns(Case(c), es, group)) {
            b->Args({c, es, group, threads});
          }
        }
      }
    }
    if (cores == 1) break;
  }
}

BENCHMARK(BM_Copy)->Apply(CopyArgs)->UseManualTime();

}  // namespace
}  // namespace stridekit

BENCHMARK_MAIN();
