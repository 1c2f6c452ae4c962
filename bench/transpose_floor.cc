// What bounds a float32 transpose at DRAM size on one core: stridekit's
// transposed Copy beside the same memory traffic without the transpose
// (each 256 x 128 macro tile's 128 source rows read as 1 KiB runs, eight
// rows interleaved, into an L2 buffer, then 256 destination rows written as
// 512-byte runs with non-temporal stores: TransposeBuffered's traffic) and
// beside that traffic with a minimal 8 x 8 AVX2 register transpose into the
// buffer, on the same buffers, against the best of memcpy and stridekit's
// contiguous Copy. Rounds interleave the variants; medians of 7.
// Run by hand: build/<dir>/bench/transpose_floor [n] (n a multiple of 256;
// default 11264, 484 MiB a buffer).
#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "stridekit/copy.h"

namespace {

constexpr int64_t kTileRows = 256;  // Destination rows per macro tile.
constexpr int64_t kTileCols = 128;  // Source rows per macro tile.

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// bytes (a multiple of 2 MiB) on 2 MiB boundaries, huge pages advised, as
// NumPy's allocator advises them; written once so that pages are faulted in.
float* HugeBuffer(size_t bytes) {
  void* p = std::aligned_alloc(size_t{2} << 20, bytes);
  if (p == nullptr) std::abort();
  madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, 0x3F, bytes);
  return static_cast<float*>(p);
}

// Transposes the 8 x 8 floats v in place (v[j][k] = old v[k][j]).
void Transpose8x8(__m256* v) {
  __m256 t[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm256_unpacklo_ps(v[k], v[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(v[k], v[k + 1]);
  }
  __m256 u[8];
  for (int g = 0; g < 8; g += 4) {
    u[g] = _mm256_shuffle_ps(t[g], t[g + 2], 0x44);
    u[g + 1] = _mm256_shuffle_ps(t[g], t[g + 2], 0xEE);
    u[g + 2] = _mm256_shuffle_ps(t[g + 1], t[g + 3], 0x44);
    u[g + 3] = _mm256_shuffle_ps(t[g + 1], t[g + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    v[j] = _mm256_permute2f128_ps(u[j], u[j + 4], 0x20);
    v[j + 4] = _mm256_permute2f128_ps(u[j], u[j + 4], 0x31);
  }
}

// Macro tiles of an n x n matrix: kTileCols source rows of kTileRows floats
// into `buffer` (eight rows at a time, a vector from each), then kTileRows
// destination rows of kTileCols floats out of it by non-temporal stores.
// With `transpose`, the eight vectors are transposed in registers first, so
// that `to` is from's transpose; without, the bytes move in the same order
// but land untransposed.
void MacroTiles(const float* from, int64_t n, float* to, float* buffer,
                bool transpose) {
  for (int64_t r0 = 0; r0 < n; r0 += kTileCols) {
    for (int64_t c0 = 0; c0 < n; c0 += kTileRows) {
      for (int64_t r = 0; r < kTileCols; r += 8) {
        for (int64_t c = 0; c < kTileRows; c += 8) {
          __m256 v[8];
          for (int k = 0; k < 8; ++k) {
            v[k] = _mm256_loadu_ps(from + (r0 + r + k) * n + c0 + c);
          }
          if (transpose) Transpose8x8(v);
          for (int k = 0; k < 8; ++k) {
            // Transposed: buffer row c + k (destination row c0 + c + k)
            // gets source rows r .. r + 7 of column c + k.
            float* at = transpose ? buffer + (c + k) * kTileCols + r
                                  : buffer + (r + k) * kTileRows + c;
            _mm256_store_ps(at, v[k]);
          }
        }
      }
      for (int64_t c = 0; c < kTileRows; ++c) {
        float* row = to + (c0 + c) * n + r0;
        const float* line = buffer + c * kTileCols;
        for (int64_t k = 0; k < kTileCols; k += 8) {
          _mm256_stream_ps(row + k, _mm256_load_ps(line + k));
        }
      }
    }
  }
  _mm_sfence();
}

sk_view View(std::vector<int64_t> shape, std::vector<int64_t> strides) {
  sk_view v{};
  v.ndim = int32_t(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx2")) {
    std::printf("transpose_floor: this CPU has no AVX2\n");
    return 0;
  }
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 11264;
  if (n <= 0 || n % kTileRows != 0) {
    std::printf("transpose_floor: n must be a positive multiple of %lld\n",
                static_cast<long long>(kTileRows));
    return 1;
  }
  const size_t bytes = size_t(n) * size_t(n) * 4;
  const size_t rounded = (bytes + (size_t{2} << 20) - 1) >> 21 << 21;
  const float* src = HugeBuffer(rounded);
  float* dst = HugeBuffer(rounded);
  float* buffer = static_cast<float*>(
      std::aligned_alloc(64, size_t(kTileRows * kTileCols) * 4));

  const sk_view line = View({n * n}, {1});
  const sk_view columns = View({n, n}, {1, n});
  const sk_view matrix = View({n, n}, {n, 1});
  struct Variant {
    const char* name;
    std::function<void()> run;
    std::vector<double> seconds;
  };
  std::vector<Variant> variants = {
      {"memcpy", [&] { std::memcpy(dst, src, bytes); }, {}},
      {"stridekit_copy", [&] { stridekit::Copy(4, line, src, line, dst); }, {}},
      {"stridekit_transpose",
       [&] { stridekit::Copy(4, columns, src, matrix, dst); },
       {}},
      {"traffic_only", [&] { MacroTiles(src, n, dst, buffer, false); }, {}},
      {"traffic_8x8_transpose",
       [&] { MacroTiles(src, n, dst, buffer, true); },
       {}}};
  for (int round = 0; round < 7; ++round) {
    for (Variant& v : variants) {
      const double t0 = Now();
      v.run();
      v.seconds.push_back(Now() - t0);
    }
  }
  auto median = [](std::vector<double> s) {
    std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
    return s[s.size() / 2];
  };
  const double reference =
      std::min(median(variants[0].seconds), median(variants[1].seconds));
  std::printf(
      "%lld x %lld float32 (%.0f MiB a buffer); ratios to the best "
      "of memcpy and stridekit's contiguous Copy\n",
      static_cast<long long>(n), static_cast<long long>(n),
      double(bytes) / (1 << 20));
  for (const Variant& v : variants) {
    const double t = median(v.seconds);
    std::printf("  %-22s %6.2f GB/s moved  %.2f\n", v.name,
                2.0 * double(bytes) / t / 1e9, reference / t);
  }
  return 0;
}
