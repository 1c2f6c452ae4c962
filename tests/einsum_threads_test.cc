// Einsum on threads (NumericOptions::threads, sk_set_threads): matrix
// products (split over m, over n, and over the batch), batched and
// transposed contractions, single-operand sums, three-operand chains and
// loop nests give the same bits on 1, 2 and 3 threads, on every target;
// and the split of a product covers each element of C exactly once, with
// no one-column part (dispatch/gemm_parts.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dispatch/gemm_parts.h"
#include "equivalence.h"
#include "random_views.h"
#include "simd/contraction/contraction_task.h"
#include "stridekit/einsum.h"
#include "stridekit/parallel.h"
#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;
using Shape = std::vector<int64_t>;

sk_view CView(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) {
    strides[d - 1] = strides[d] * shape[d];
  }
  return MakeView(shape, strides, 0);
}

int64_t Count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Thread counts to compare: 1, 2 and 3, or 1 alone without threads.
std::vector<int> ThreadCounts() {
  if (!testing::ThreadsAllowed()) return {1};
  return {1, 2, 3};
}

struct ThreadCase {
  std::string spec;
  std::vector<Shape> operands;
  Shape out;
  // The operand views (C-contiguous unless given).
  std::vector<sk_view> views = {};
};

// Random values of both signs and many magnitudes (sums depend on order),
// the same on every platform (integer arithmetic on mt19937's output only:
// std::uniform_real_distribution goes through long double, whose format
// differs between x86-64 and aarch64).
template <typename T>
std::vector<T> Values(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(static_cast<size_t>(n));
  for (T& x : v) {
    const uint32_t bits = gen();
    if constexpr (std::is_integral_v<T>) {
      x = T(bits);
    } else {
      // A 24-bit signed fraction in [-1, 1), times 2^e for e in [-8, 8].
      const int32_t fraction = int32_t(bits >> 8) - (int32_t{1} << 23);
      x = T(std::ldexp(double(fraction), int(gen() % 17) - 8 - 23));
    }
  }
  return v;
}

// out of `c` on `threads` threads, as bytes.
template <typename T>
std::vector<T> RunOn(const ThreadCase& c, DType t,
                     const std::vector<std::vector<T>>& inputs, int threads) {
  std::vector<sk_view> views = c.views;
  if (views.empty()) {
    for (const Shape& s : c.operands) views.push_back(CView(s));
  }
  std::vector<const void*> datas;
  for (const auto& in : inputs) datas.push_back(in.data());
  std::vector<T> out(size_t(Count(c.out)), T(-3));
  NumericOptions options;
  options.threads = threads;
  Einsum(c.spec, t, views, datas, CView(c.out), out.data(), options);
  return out;
}

// The same bits on every thread count, and on every target as on the first.
template <typename T>
void ExpectSameBitsOnThreads(const std::vector<ThreadCase>& cases, DType t) {
  std::vector<std::vector<T>> first_target;
  testing::ForEachTarget([&](const std::string& target) {
    uint32_t seed = 1;
    for (size_t i = 0; i < cases.size(); ++i) {
      const ThreadCase& c = cases[i];
      SCOPED_TRACE(c.spec);
      std::vector<std::vector<T>> inputs;
      for (const Shape& s : c.operands) {
        inputs.push_back(Values<T>(Count(s), seed++));
      }
      const std::vector<T> one = RunOn<T>(c, t, inputs, 1);
      if (first_target.size() < cases.size()) {
        first_target.push_back(one);
      } else {
        EXPECT_EQ(std::memcmp(one.data(), first_target[i].data(),
                              one.size() * sizeof(T)),
                  0)
            << target << " differs from the first target";
      }
      for (int threads : ThreadCounts()) {
        const std::vector<T> got = RunOn<T>(c, t, inputs, threads);
        ASSERT_EQ(got.size(), one.size());
        EXPECT_EQ(std::memcmp(got.data(), one.data(), one.size() * sizeof(T)),
                  0)
            << threads << " threads";
      }
    }
  });
}

// Matrix products split over m (tall), over n (wide), dot rows (n = 1),
// several k blocks (k > 128), and sizes off the tile grains.
std::vector<ThreadCase> MatrixProducts() {
  std::vector<ThreadCase> cases;
  // {300, 600, 70}: several m blocks, each with pending k-block sums;
  // {1, 4096, 300}: B for all of k narrows the n panels.
  const std::vector<Shape> mkn = {
      {256, 256, 256}, {97, 300, 131}, {5, 1000, 700}, {700, 200, 1},
      {300, 129, 2},   {1, 4096, 300}, {300, 600, 70}};
  for (const Shape& s : mkn) {
    cases.push_back({"ij,jk->ik", {{s[0], s[1]}, {s[1], s[2]}}, {s[0], s[2]}});
  }
  // A transposed operand, and out transposed (the product writes n rows).
  cases.push_back({"ji,jk->ik", {{200, 150}, {200, 170}}, {150, 170}});
  cases.push_back({"ij,jk->ki", {{150, 200}, {200, 170}}, {170, 150}});
  return cases;
}

std::vector<ThreadCase> BatchedAndChains() {
  return {
      // Fewer batch positions than threads (split within each), and more.
      {"bij,bjk->bik", {{2, 90, 140}, {2, 140, 110}}, {2, 90, 110}},
      {"bij,bjk->bik", {{7, 40, 64}, {7, 64, 50}}, {7, 40, 50}},
      // A batch of tiny products: the loop nest, split over b.
      {"bij,bjk->bik", {{5000, 3, 3}, {5000, 3, 3}}, {5000, 3, 3}},
      // Three operands contracted pairwise, and one summed in a nest.
      {"ij,jk,kl->il", {{60, 170}, {170, 80}, {80, 90}}, {60, 90}},
      {"ab,ab,ab->a", {{20000, 3}, {20000, 3}, {20000, 3}}, {20000}},
      // Single-operand sums (products with ones): rows and columns.
      {"ij->i", {{300, 1000}}, {300}},
      {"ij->j", {{1000, 300}}, {300}},
  };
}

// Dot products and whole sums long enough to split along k (subtrees of
// the k-block tree per thread): contiguous (a step), transposed (a table),
// an odd length (a partial last block).
std::vector<ThreadCase> LongDots() {
  const int64_t n = (int64_t{1} << 20) + 77;
  return {
      {"i,i->", {{n}, {n}}, {}},
      {"ij->", {{1100, 1000}}, {}},
      {"ji->", {{1000, 1100}}, {}},
      {"ij,ij->", {{1024, 1031}, {1024, 1031}}, {}},
      {"ij,ji->", {{1024, 1031}, {1031, 1024}}, {}},  // B gathered
  };
}

TEST(EinsumThreads, LongDotsFloat32) {
  ExpectSameBitsOnThreads<float>(LongDots(), DType::kFloat32);
}

TEST(EinsumThreads, LongDotsFloat64) {
  ExpectSameBitsOnThreads<double>(LongDots(), DType::kFloat64);
}

TEST(EinsumThreads, LongDotsInt64) {
  ExpectSameBitsOnThreads<int64_t>(LongDots(), DType::kInt64);
}

// FNV-1a of `bytes` bytes, continuing from `hash`.
uint64_t Fnv1a(const void* bytes, size_t size, uint64_t hash) {
  for (size_t i = 0; i < size; ++i) {
    hash =
        (hash ^ static_cast<const unsigned char*>(bytes)[i]) * 0x100000001b3ull;
  }
  return hash;
}

// Products at every blocking edge of the blocked kernel (1-3, the tile's
// 6 rows +-1, an m block of A packed for all of k +1 (84 float32 rows or
// 42 float64 rows at k 385 on AVX2), its columns (2 vectors: 8 .. 32
// lanes) +-1, k around the 128-product block and its multiples) give the same
// bits on every target and thread count, within einsum.h's bound of the long
// double product; and the bits recorded by `golden` (an FNV-1a hash of every
// product, in order): what x86-64's targets give, which aarch64's (NEON, SVE,
// SVE2, tested one per emulated CPU model by tests/cross/run) must give too.
template <typename T>
void ExpectBlockingEdges(DType t, uint64_t golden) {
  uint64_t hash = 0xcbf29ce484222325ull;
  bool hashed = false;
  const std::vector<int64_t> ms = {1, 2, 3, 5, 6, 7, 13, 43, 85};
  const std::vector<int64_t> ns = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 65};
  const std::vector<int64_t> ks = {1, 3, 127, 128, 129, 255, 257, 385};
  std::mt19937 gen(5);
  for (int64_t m : ms) {
    for (int64_t n : ns) {
      for (int64_t k : ks) {
        if (gen() % 3 != 0) continue;  // a third of the grid per run
        const ThreadCase c{"ij,jk->ik", {{m, k}, {k, n}}, {m, n}};
        SCOPED_TRACE("m " + std::to_string(m) + ", n " + std::to_string(n) +
                     ", k " + std::to_string(k));
        const std::vector<std::vector<T>> inputs = {
            Values<T>(m * k, uint32_t(m * 1000 + k)),
            Values<T>(k * n, uint32_t(n * 1000 + k))};
        std::vector<T> first;
        testing::ForEachTarget([&](const std::string& target) {
          for (int threads : ThreadCounts()) {
            const std::vector<T> got = RunOn<T>(c, t, inputs, threads);
            if (first.empty()) {
              first = got;
              hash = Fnv1a(got.data(), got.size() * sizeof(T), hash);
              hashed = true;
              // einsum.h's bound: (b(k) + 4) u sum |products|.
              const int64_t levels = int64_t(std::ceil(
                  std::log2(std::ceil(double(k) / double(kSumBlock)))));
              const double b =
                  double(std::min<int64_t>(k, kSumBlock) + levels + 4);
              for (int64_t i = 0; i < m; ++i) {
                for (int64_t j = 0; j < n; ++j) {
                  long double exact = 0, magnitude = 0;
                  for (int64_t l = 0; l < k; ++l) {
                    const long double p =
                        (long double)inputs[0][size_t(i * k + l)] *
                        inputs[1][size_t(l * n + j)];
                    exact += p;
                    magnitude += std::fabs(p);
                  }
                  const double u = std::numeric_limits<T>::epsilon() / 2;
                  ASSERT_LE(std::fabs(double(got[size_t(i * n + j)] - exact)),
                            b * u * double(magnitude))
                      << "C[" << i << ", " << j << "]";
                }
              }
            }
            EXPECT_EQ(
                std::memcmp(got.data(), first.data(), first.size() * sizeof(T)),
                0)
                << target << " on " << threads << " threads";
          }
        });
      }
    }
  }
  if (hashed) {  // a SIMD target ran (ForEachTarget skips the reference)
    EXPECT_EQ(hash, golden) << "FNV-1a of the products: 0x" << std::hex << hash;
  }
}

TEST(EinsumBlocking, Float32SameBitsOnEveryTarget) {
  ExpectBlockingEdges<float>(DType::kFloat32, 0x3a0bc445451830a7ull);
}

TEST(EinsumBlocking, Float64SameBitsOnEveryTarget) {
  ExpectBlockingEdges<double>(DType::kFloat64, 0xfdac542160b74abeull);
}

TEST(EinsumThreads, MatrixProductsFloat32) {
  ExpectSameBitsOnThreads<float>(MatrixProducts(), DType::kFloat32);
}

TEST(EinsumThreads, MatrixProductsFloat64) {
  ExpectSameBitsOnThreads<double>(MatrixProducts(), DType::kFloat64);
}

TEST(EinsumThreads, BatchedAndChainsFloat32) {
  ExpectSameBitsOnThreads<float>(BatchedAndChains(), DType::kFloat32);
}

TEST(EinsumThreads, BatchedAndChainsFloat64) {
  ExpectSameBitsOnThreads<double>(BatchedAndChains(), DType::kFloat64);
}

TEST(EinsumThreads, Int32) {
  ExpectSameBitsOnThreads<int32_t>(
      {{"ij,jk->ik", {{97, 300}, {300, 131}}, {97, 131}}}, DType::kInt32);
}

// sk_einsum runs on sk_set_threads' count.
TEST(EinsumThreads, CAbiFollowsSetThreads) {
  const Shape a = {120, 333}, b = {333, 140}, o = {120, 140};
  const std::vector<double> x = Values<double>(Count(a), 7);
  const std::vector<double> y = Values<double>(Count(b), 8);
  const sk_view va = CView(a), vb = CView(b), vo = CView(o);
  const sk_view* views[] = {&va, &vb};
  const void* datas[] = {x.data(), y.data()};
  std::vector<double> one(size_t(Count(o))), two(one.size());
  ASSERT_EQ(
      sk_einsum("ij,jk->ik", SK_FLOAT64, 2, views, datas, &vo, one.data()),
      SK_OK);
  if (testing::ThreadsAllowed()) {
    ASSERT_EQ(sk_set_threads(2), SK_OK);
  }
  const sk_status status =
      sk_einsum("ij,jk->ik", SK_FLOAT64, 2, views, datas, &vo, two.data());
  ASSERT_EQ(sk_set_threads(1), SK_OK);
  ASSERT_EQ(status, SK_OK) << sk_last_error();
  EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(double)),
            0);
}

// A host executor that runs the parts in order and records how many it got.
int64_t g_most_parts = 0;
void CountingExecutor(void*, int64_t nparts, PartFn part, void* job) {
  g_most_parts = std::max(g_most_parts, nparts);
  for (int64_t i = 0; i < nparts; ++i) part(job, i);
}

// The work is split at all: a product into three parts, a loop nest too.
TEST(EinsumThreads, SplitsIntoParts) {
  SetExecutor(CountingExecutor, nullptr);
  for (const ThreadCase& c : std::vector<ThreadCase>{
           {"ij,jk->ik", {{150, 100}, {100, 80}}, {150, 80}},
           {"bij,bjk->bik", {{5000, 3, 3}, {5000, 3, 3}}, {5000, 3, 3}}}) {
    SCOPED_TRACE(c.spec);
    g_most_parts = 0;
    std::vector<std::vector<double>> inputs;
    for (const Shape& s : c.operands) {
      inputs.push_back(Values<double>(Count(s), 3));
    }
    const std::vector<double> three =
        RunOn<double>(c, DType::kFloat64, inputs, 3);
    EXPECT_EQ(g_most_parts, 3);
    g_most_parts = 0;
    EXPECT_EQ(RunOn<double>(c, DType::kFloat64, inputs, 1), three);
    EXPECT_EQ(g_most_parts, 0);
  }
  SetExecutor(nullptr, nullptr);
}

TEST(GemmParts, SplitRange) {
  using B = std::vector<int64_t>;
  EXPECT_EQ(dispatch::SplitRange(10, 1, 1, 1), (B{0, 10}));
  EXPECT_EQ(dispatch::SplitRange(10, 3, 1, 1), (B{0, 3, 6, 10}));
  EXPECT_EQ(dispatch::SplitRange(256, 2, 48, 1), (B{0, 144, 256}));
  EXPECT_EQ(dispatch::SplitRange(150, 3, 48, 1), (B{0, 48, 96, 150}));
  EXPECT_EQ(dispatch::SplitRange(65, 2, 64, 2), (B{0, 32, 65}));
  // No range shorter than `least`.
  EXPECT_EQ(dispatch::SplitRange(3, 3, 1, 2), (B{0, 3}));
  EXPECT_EQ(dispatch::SplitRange(5, 3, 1, 2), (B{0, 3, 5}));
  EXPECT_EQ(dispatch::SplitRange(0, 3, 1, 1), (B{0, 0}));
}

// Every element of C in exactly one sub-task; no sub-task of n_size 1
// unless the product has one column.
TEST(GemmParts, SplitCoversEachElementOnce) {
  for (const Shape& s : std::vector<Shape>{{1, 300, 400, 200},
                                           {2, 300, 301, 200},
                                           {5, 100, 100, 100},
                                           {1, 2000, 1, 500},
                                           {1, 3, 65, 10000},
                                           {3, 7, 3, 100000}}) {
    const int64_t batch = s[0], m = s[1], n = s[2], k = s[3];
    std::vector<int64_t> batch_offsets(static_cast<size_t>(batch));
    std::vector<int64_t> m_offsets(static_cast<size_t>(m));
    std::vector<int64_t> n_offsets(static_cast<size_t>(n));
    std::vector<int64_t> k_offsets(static_cast<size_t>(k), 0);
    for (int64_t i = 0; i < batch; ++i) batch_offsets[size_t(i)] = i * m * n;
    for (int64_t i = 0; i < m; ++i) m_offsets[size_t(i)] = i * n;
    for (int64_t i = 0; i < n; ++i) n_offsets[size_t(i)] = i;
    std::vector<float> c(static_cast<size_t>(batch * m * n));
    GemmTask task{DType::kFloat32,
                  batch,
                  batch_offsets.data(),
                  batch_offsets.data(),
                  batch_offsets.data(),
                  m,
                  n,
                  k,
                  nullptr,
                  m_offsets.data(),
                  k_offsets.data(),
                  nullptr,
                  k_offsets.data(),
                  n_offsets.data(),
                  c.data(),
                  m_offsets.data()};
    for (int threads : {1, 2, 3, 8}) {
      SCOPED_TRACE(std::to_string(threads) + " threads");
      std::vector<int> seen(c.size(), 0);
      for (const GemmTask& t : dispatch::SplitGemm(task, threads)) {
        if (n > 1) {
          EXPECT_GT(t.n_size, 1);
        }
        for (int64_t b = 0; b < t.batch; ++b) {
          for (int64_t i = 0; i < t.m_size; ++i) {
            for (int64_t j = 0; j < t.n_size; ++j) {
              const float* at =
                  static_cast<const float*>(t.c) + t.c_batch[b] + t.c_m[i] + j;
              ++seen[size_t(at - c.data())];
            }
          }
        }
      }
      EXPECT_EQ(seen, std::vector<int>(c.size(), 1));
    }
  }
}

}  // namespace
}  // namespace stridekit
