// Size groups, cases, shapes, timing and labels of copy_bench's cases, shared
// with its peers (eigen_bench, xnnpack_bench) so that all measure the same
// shapes on the same kind of buffers, timed alike, under the same peer keys
// for bench/compare.py. Independent of stridekit.
#ifndef STRIDEKIT_BENCH_COPY_CASES_H_
#define STRIDEKIT_BENCH_COPY_CASES_H_

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "clocks.h"

namespace stridekit::bench::copy {

// Size groups, derived from this machine's caches at run time (sysconf;
// STRIDEKIT_BENCH_<GROUP>_BYTES overrides, for machines that report caches
// one core does not see). Destination bytes: a quarter of L2 (source and
// destination fit in half of it), a quarter of L3, and at DRAM four times L3
// and at least 512 MiB (STREAM's rule: each array >= 4x the last level).
constexpr const char* kGroupNames[] = {"L2", "L3", "DRAM"};

inline std::array<int64_t, 3> ComputeGroupBytes() {
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

inline int64_t GroupBytes(int group) {
  static const std::array<int64_t, 3> bytes = ComputeGroupBytes();
  return bytes[group];
}

// The largest n with n^rank elements of elem_size bytes within `bytes`.
inline int64_t Edge(int64_t bytes, int64_t elem_size, int rank) {
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

// Whether case c runs in `group` with elements of es bytes: 107^4 floats
// (0.5 GB) is a DRAM-size case only; float64 for the 2-D transposes only.
inline bool CaseRuns(Case c, int64_t es, int group) {
  if (c == Case::kPermute4D107 && group != 2) return false;
  return es == 4 || c == Case::kTranspose2D || c == Case::kTranspose2DPow2;
}

// A permutation case: dst = src.transpose(axes) for a C-contiguous source of
// shape `shape`.
struct Permutation {
  std::vector<int64_t> shape, axes;
};

// The permutation of case c at `bytes` of es-byte elements; false for the
// cases that are not permutations.
inline bool PermutationOf(Case c, int64_t bytes, int64_t es, Permutation* p) {
  switch (c) {
    case Case::kTranspose2D:
    case Case::kTranspose2DPow2: {
      int64_t n = Edge(bytes, es, 2);
      if (c == Case::kTranspose2DPow2) {
        while (n & (n - 1)) n &= n - 1;
      } else if ((n & (n - 1)) == 0) {
        --n;
      }
      *p = {{n, n}, {1, 0}};
      return true;
    }
    case Case::kPermute3D: {
      const int64_t n = Edge(bytes, es, 3);
      *p = {{n, n, n}, {2, 1, 0}};
      return true;
    }
    case Case::kPermute4D: {
      const int64_t n = Edge(bytes, es, 4);
      *p = {{n, n, n, n}, {1, 3, 0, 2}};
      return true;
    }
    case Case::kPermute4D107:
      *p = {{107, 107, 107, 107}, {3, 1, 0, 2}};
      return true;
    case Case::kPermute5D: {
      const int64_t n = Edge(bytes, es, 5);
      *p = {{n, n, n, n, n}, {4, 3, 2, 1, 0}};
      return true;
    }
    default:
      return false;
  }
}

// The pad case: a [n-2, n-2] array padded by one on every side to [n, n].
inline int64_t PadEdge(int64_t bytes, int64_t es) { return Edge(bytes, es, 2); }

inline std::string ShapeLabel(std::span<const int64_t> shape) {
  std::string s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d > 0) s.push_back('x');
    s.append(std::to_string(shape[d]));
  }
  return s;
}

// The label of case c: its NumPy peer key, size group and bytes moved.
inline std::string CaseLabel(Case c, int64_t es,
                             std::span<const int64_t> dst_shape, int group,
                             int64_t moved) {
  return std::string("peer=copy:") + kCaseNames[int(c)] + ":" +
         (es == 4 ? "float32" : "float64") + ":" + ShapeLabel(dst_shape) +
         " group=" + kGroupNames[group] + " bytes=" + std::to_string(moved);
}

// A peer of case c (benchmark with UseManualTime): times each call of `run`
// by thread CPU time, as BM_Copy times stridekit's, and labels it as case
// c's peer with " impl=<impl>".
template <typename Run>
void RunPeer(benchmark::State& state, Case c, int64_t es,
             std::span<const int64_t> dst_shape, int group, int64_t moved,
             const char* impl, Run run) {
  for (auto _ : state) {
    const double t0 = ThreadSeconds();
    run();
    benchmark::ClobberMemory();
    state.SetIterationTime(ThreadSeconds() - t0);
  }
  state.SetBytesProcessed(state.iterations() * moved);
  state.SetLabel(CaseLabel(c, es, dst_shape, group, moved) + " impl=" + impl);
}

}  // namespace stridekit::bench::copy

#endif  // STRIDEKIT_BENCH_COPY_CASES_H_
