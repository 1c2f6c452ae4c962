// einsum_bench's cases, shared with its peer libraries (blis_bench,
// eigen_bench) so that all measure the same shapes and carry the same peer
// keys for bench/compare.py. Independent of stridekit.
#ifndef STRIDEKIT_BENCH_EINSUM_CASES_H_
#define STRIDEKIT_BENCH_EINSUM_CASES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace stridekit::bench::einsum {

using Shape = std::vector<int64_t>;

struct Case {
  const char* name;
  const char* spec;
  std::vector<Shape> shapes;
  Shape out;
  int64_t positions;  // product-space size
  // Operand 0 is every step0-th element of its last axis in a C-order
  // buffer (a[..., ::step0]); 1: C order.
  int64_t step0 = 1;
  bool float64 = false;  // Also run in float64 (else float32 only).
  bool plain = true;     // Also compared with np.einsum(optimize=False).
  bool gemm = false;     // Also compared with np.matmul (the BLAS GEMM).
  // Memory-bound (dot products, sums): also timed against the copy
  // reference of the bytes it reads (copy_reference.h), in size group
  // `group` (numeric_cases.h kGroupNames: 1 L3, 2 DRAM).
  int group = -1;
};

// The NumPy peers of a row: np.einsum(optimize=False), (optimize=True) and
// np.matmul, the BLAS GEMM without einsum's planning.
constexpr const char* kModes[] = {"plain", "optimize", "gemm"};

// Matrix products (256, 1024 and 2048, also against np.matmul: the issue 19
// goals; 2048 without NumPy's optimize=False loop, which takes seconds), a
// product with a transposed and one with a strided operand, a batched product,
// a transposed contraction, a contraction of a 3-D operand, three-operand
// chains, a trace, a diagonal and an outer product.
inline const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"matmul256",
       "ij,jk->ik",
       {{256, 256}, {256, 256}},
       {256, 256},
       int64_t{256} * 256 * 256,
       1,
       true,
       true,
       true},
      {"matmul1024",
       "ij,jk->ik",
       {{1024, 1024}, {1024, 1024}},
       {1024, 1024},
       int64_t{1024} * 1024 * 1024,
       1,
       true,
       true,
       true},
      {"matmul2048",
       "ij,jk->ik",
       {{2048, 2048}, {2048, 2048}},
       {2048, 2048},
       int64_t{2048} * 2048 * 2048,
       1,
       true,
       false,
       true},
      {"matmul_t512",
       "ji,jk->ik",
       {{512, 512}, {512, 512}},
       {512, 512},
       int64_t{512} * 512 * 512},
      {"matmul_strided512",
       "ij,jk->ik",
       {{512, 512}, {512, 512}},
       {512, 512},
       int64_t{512} * 512 * 512,
       2},
      {"batched",
       "bij,bjk->bik",
       {{16, 64, 64}, {16, 64, 64}},
       {16, 64, 64},
       int64_t{16} * 64 * 64 * 64},
      {"transposed",
       "ijk,kj->i",
       {{64, 128, 128}, {128, 128}},
       {64},
       int64_t{64} * 128 * 128},
      {"contraction",
       "abc,cd->abd",
       {{32, 64, 128}, {128, 64}},
       {32, 64, 64},
       int64_t{32} * 64 * 128 * 64},
      {"chain3",
       "ab,bc,cd->ad",
       {{64, 64}, {64, 64}, {64, 64}},
       {64, 64},
       int64_t{64} * 64 * 64 * 64},
      {"chain3_256",
       "ab,bc,cd->ad",
       {{256, 256}, {256, 256}, {256, 256}},
       {256, 256},
       int64_t{256} * 256 * 256 * 256},
      {"trace", "ii->", {{2048, 2048}}, {}, 2048},
      {"diagonal", "ii->i", {{2048, 2048}}, {2048}, 2048},
      {"outer",
       "i,j->ij",
       {{1024}, {1024}},
       {1024, 1024},
       int64_t{1024} * 1024},
      // Dot products and whole sums at L3 (16 MiB read) and DRAM (256 MiB
      // read) sizes: read-bound, compared with the copy reference.
      {"dot_l3",
       "i,i->",
       {{1 << 21}, {1 << 21}},
       {},
       1 << 21,
       1,
       true,
       false,
       false,
       1},
      {"dot_dram",
       "i,i->",
       {{1 << 25}, {1 << 25}},
       {},
       1 << 25,
       1,
       true,
       false,
       false,
       2},
      {"sum_l3",
       "ij->",
       {{2048, 2048}},
       {},
       2048 * 2048,
       1,
       true,
       false,
       false,
       1},
      {"sum_dram",
       "ij->",
       {{8192, 8192}},
       {},
       8192 * 8192,
       1,
       true,
       false,
       false,
       2},
  };
  return cases;
}

// Every element of case c's output when every operand element is 0.5:
// 0.5^operands times the terms summed per element (exact in float32).
inline double Expected(const Case& c) {
  int64_t out = 1;
  for (int64_t d : c.out) out *= d;
  double value = double(c.positions / out);
  for (size_t i = 0; i < c.shapes.size(); ++i) value *= 0.5;
  return value;
}

inline int CaseIndex(const std::string& name) {
  for (size_t i = 0; i < Cases().size(); ++i) {
    if (name == Cases()[i].name) return int(i);
  }
  return -1;
}

// The label of a case's row: its peer key "einsum:<case>:<dtype>[:<mode>]"
// (mode: a kModes entry, the NumPy peer; none for peer libraries, whose
// row serves both), threads=<n> and, for a peer library, impl=<impl>.
inline std::string Label(const Case& c, bool float64, const char* mode,
                         int threads, const char* impl = nullptr) {
  std::string label = std::string("peer=einsum:") + c.name + ":" +
                      (float64 ? "float64" : "float32");
  if (mode != nullptr) label += std::string(":") + mode;
  label += " threads=" + std::to_string(threads);
  if (impl != nullptr) label += std::string(" impl=") + impl;
  return label;
}

}  // namespace stridekit::bench::einsum

#endif  // STRIDEKIT_BENCH_EINSUM_CASES_H_
