// copy_bench's contiguous, reversed, pad, broadcast_row and float64
// transpose2d cases at one size (default: its L2 group) beside the C library
// and beside minimal AVX2 loops of the same access pattern (aligned stores;
// for the transpose, 4 x 4 register tiles), on the same buffers,
// interleaved, medians of 301 rounds. It bounds what a vector store loop can
// reach where the C library's reference uses `rep movsb` / `rep stosb`, and
// what a plain register-tile transpose reaches against memcpy.
// Run by hand: build/<dir>/bench/copy_floor [bytes].
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "bench_buffer.h"
#include "copy_cases.h"
#include "stridekit/copy.h"

namespace {

using stridekit::Copy;

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Variant {
  const char* name;
  std::function<void()> run;
  std::vector<double> seconds;
};

// Times every variant in turn, `rounds` times, and prints each one's median
// speed over `moved` bytes and its ratio to the first variant.
void Compare(const char* title, double moved, std::vector<Variant> variants) {
  constexpr int kRounds = 301, kCalls = 20;
  for (int r = 0; r < kRounds; ++r) {
    for (Variant& v : variants) {
      const double t0 = Now();
      for (int i = 0; i < kCalls; ++i) v.run();
      v.seconds.push_back((Now() - t0) / kCalls);
    }
  }
  auto median = [](std::vector<double> s) {
    std::nth_element(s.begin(), s.begin() + s.size() / 2, s.end());
    return s[s.size() / 2];
  };
  const double first = median(variants[0].seconds);
  std::printf("%-14s", title);
  for (const Variant& v : variants) {
    const double t = median(v.seconds);
    std::printf("  %s %.1f GB/s (%.2f)", v.name, moved / t / 1e9, first / t);
  }
  std::printf("\n");
}

sk_view View(std::vector<int64_t> shape, std::vector<int64_t> strides,
             int64_t offset) {
  sk_view v{};
  v.ndim = int32_t(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    v.shape[d] = shape[d];
    v.strides[d] = strides[d];
  }
  v.offset = offset;
  return v;
}

// Elements before `p` reaches a 32-byte boundary (at most `n`).
int64_t Head(const float* p, int64_t n) {
  return std::min<int64_t>(n, int64_t((32 - uintptr_t(p) % 32) % 32 / 4));
}

// to[i] = from[i], stores aligned, four vectors a step.
void CopyAligned(const float* from, int64_t n, float* to) {
  int64_t i = 0;
  for (const int64_t h = Head(to, n); i < h; ++i) to[i] = from[i];
  for (; i + 32 <= n; i += 32) {
    const __m256 a = _mm256_loadu_ps(from + i),
                 b = _mm256_loadu_ps(from + i + 8),
                 c = _mm256_loadu_ps(from + i + 16),
                 e = _mm256_loadu_ps(from + i + 24);
    _mm256_store_ps(to + i, a);
    _mm256_store_ps(to + i + 8, b);
    _mm256_store_ps(to + i + 16, c);
    _mm256_store_ps(to + i + 24, e);
  }
  for (; i < n; ++i) to[i] = from[i];
}

// to[i] = from[n - 1 - i], stores aligned, four vectors a step.
void ReverseAligned(const float* from, int64_t n, float* to) {
  const __m256i rev = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  auto load = [&](int64_t i) {
    return _mm256_permutevar8x32_ps(_mm256_loadu_ps(from + n - 8 - i), rev);
  };
  int64_t i = 0;
  for (const int64_t h = Head(to, n); i < h; ++i) to[i] = from[n - 1 - i];
  for (; i + 32 <= n; i += 32) {
    const __m256 a = load(i), b = load(i + 8), c = load(i + 16),
                 e = load(i + 24);
    _mm256_store_ps(to + i, a);
    _mm256_store_ps(to + i + 8, b);
    _mm256_store_ps(to + i + 16, c);
    _mm256_store_ps(to + i + 24, e);
  }
  for (; i < n; ++i) to[i] = from[n - 1 - i];
}

// to[r * n + c] = from[c * n + r] for an n x n float64 matrix: 4 x 4
// register tiles (unpack, then swap 128-bit halves), the destination's
// columns outer as in stridekit's register tiles, scalar edges.
void Transpose4x4(const double* from, int64_t n, double* to) {
  const int64_t n4 = n / 4 * 4;
  for (int64_t c = 0; c < n4; c += 4) {
    for (int64_t r = 0; r < n4; r += 4) {
      const __m256d a = _mm256_loadu_pd(from + c * n + r),
                    b = _mm256_loadu_pd(from + (c + 1) * n + r),
                    e = _mm256_loadu_pd(from + (c + 2) * n + r),
                    f = _mm256_loadu_pd(from + (c + 3) * n + r);
      const __m256d ab0 = _mm256_unpacklo_pd(a, b),
                    ab1 = _mm256_unpackhi_pd(a, b),
                    ef0 = _mm256_unpacklo_pd(e, f),
                    ef1 = _mm256_unpackhi_pd(e, f);
      _mm256_storeu_pd(to + r * n + c, _mm256_permute2f128_pd(ab0, ef0, 0x20));
      _mm256_storeu_pd(to + (r + 1) * n + c,
                       _mm256_permute2f128_pd(ab1, ef1, 0x20));
      _mm256_storeu_pd(to + (r + 2) * n + c,
                       _mm256_permute2f128_pd(ab0, ef0, 0x31));
      _mm256_storeu_pd(to + (r + 3) * n + c,
                       _mm256_permute2f128_pd(ab1, ef1, 0x31));
    }
  }
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t c = r < n4 ? n4 : 0; c < n; ++c)
      to[r * n + c] = from[c * n + r];
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!__builtin_cpu_supports("avx2")) {
    std::printf("copy_floor: this CPU has no AVX2\n");
    return 0;
  }
  const int64_t bytes =
      argc > 1 ? std::atoll(argv[1]) : stridekit::bench::copy::GroupBytes(0);
  const int64_t n1 = bytes / 4;
  stridekit::bench::Buffer src_buffer(2 * bytes), out_buffer(bytes);
  const float* s = reinterpret_cast<const float*>(src_buffer.data);
  float* d = reinterpret_cast<float*>(out_buffer.data);
  std::printf(
      "%lld bytes of float32; source and destination at %d and %d "
      "modulo 64\n",
      static_cast<long long>(bytes), int(uintptr_t(s) % 64),
      int(uintptr_t(d) % 64));

  const sk_view line = View({n1}, {1}, 0);
  Compare("contiguous", 2.0 * double(bytes),
          {{"memcpy", [&] { std::memcpy(d, s, size_t(bytes)); }, {}},
           {"stridekit", [&] { Copy(4, line, s, line, d); }, {}},
           {"avx2_aligned", [&] { CopyAligned(s, n1, d); }, {}}});

  const sk_view reversed = View({n1}, {-1}, n1 - 1);
  Compare("reversed", 2.0 * double(bytes),
          {{"memcpy", [&] { std::memcpy(d, s, size_t(bytes)); }, {}},
           {"stridekit", [&] { Copy(4, reversed, s, line, d); }, {}},
           {"avx2_aligned", [&] { ReverseAligned(s, n1, d); }, {}}});

  // A [n-2, n-2] array padded by one on every side, as copy_bench's pad.
  const int64_t n = stridekit::bench::copy::PadEdge(bytes, 4), m = n - 2;
  sk_view padded = View({n, n}, {m, 1}, -m - 1);
  padded.has_mask = 1;
  padded.mask_begin[0] = padded.mask_begin[1] = 1;
  padded.mask_end[0] = padded.mask_end[1] = n - 1;
  const sk_view square = View({n, n}, {n, 1}, 0);
  auto pad_rows = [&](void (*row)(const float*, int64_t, float*)) {
    std::memset(d, 0, size_t(n) * 4);
    for (int64_t r = 1; r < n - 1; ++r) {
      d[r * n] = 0;
      row(s + (r - 1) * m, m, d + r * n + 1);
      d[r * n + n - 1] = 0;
    }
    std::memset(d + (n - 1) * n, 0, size_t(n) * 4);
  };
  auto memcpy_row = [](const float* from, int64_t count, float* to) {
    std::memcpy(to, from, size_t(count) * 4);
  };
  Compare("pad", 4.0 * double(m * m + n * n),
          {{"memcpy+memset",
            [&] {
              std::memcpy(d, s, size_t(m * m) * 4);
              std::memset(d + m * m, 0, size_t(n * n - m * m) * 4);
            },
            {}},
           {"stridekit", [&] { Copy(4, padded, s, square, d); }, {}},
           {"memcpy_rows", [&] { pad_rows(memcpy_row); }, {}},
           {"avx2_aligned_rows", [&] { pad_rows(CopyAligned); }, {}}});

  const int64_t width = 1024, rows = n1 / width;
  const sk_view row = View({rows, width}, {0, 1}, 0);
  const sk_view grid = View({rows, width}, {width, 1}, 0);
  Compare("broadcast_row", 4.0 * double(rows * width + width),
          {{"memset", [&] { std::memset(d, 0, size_t(rows * width) * 4); }, {}},
           {"stridekit", [&] { Copy(4, row, s, grid, d); }, {}},
           {"memcpy_rows",
            [&] {
              for (int64_t r = 0; r < rows; ++r)
                memcpy_row(s, width, d + r * width);
            },
            {}},
           {"avx2_aligned_rows",
            [&] {
              for (int64_t r = 0; r < rows; ++r)
                CopyAligned(s, width, d + r * width);
            },
            {}}});

  // copy_bench's transpose2d float64: an odd edge n (n^2 doubles within the
  // group's bytes).
  int64_t e = stridekit::bench::copy::Edge(bytes, 8, 2);
  if ((e & (e - 1)) == 0) --e;
  const double* s8 = reinterpret_cast<const double*>(s);
  double* d8 = reinterpret_cast<double*>(d);
  const sk_view columns = View({e, e}, {1, e}, 0);
  const sk_view matrix = View({e, e}, {e, 1}, 0);
  Compare("transpose2d64", 2.0 * double(e * e * 8),
          {{"memcpy", [&] { std::memcpy(d8, s8, size_t(e * e) * 8); }, {}},
           {"stridekit", [&] { Copy(8, columns, s8, matrix, d8); }, {}},
           {"avx2_4x4", [&] { Transpose4x4(s8, e, d8); }, {}}});
  return 0;
}
