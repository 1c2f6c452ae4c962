// Einsum execution: golden cases (matrix product, trace, diagonal, outer
// product, batched, "...", three operands, OCANNL labels), views (strided,
// reversed, broadcast, masked inputs; masked and overlapping outputs),
// integer wrap-around, every error path, and the float error bound of
// stridekit/einsum.h on long sums (every target).
#include "stridekit/einsum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "equivalence.h"
#include "random_views.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/projections.h"
#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;

template <typename T>
std::vector<T> EinsumOf(const char* spec, DType t, std::vector<sk_view> views,
                        std::vector<const void*> datas, const sk_view& out,
                        size_t out_size) {
  std::vector<T> result(out_size, T(-7));
  Einsum(spec, t, views, datas, out, result.data());
  return result;
}

TEST(Einsum, GoldenCases) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6};  // [2,3]
  const std::vector<double> b = {1, 0, 2, 1, 0, 3};  // [3,2]
  const sk_view a23 = MakeView({2, 3}, {3, 1}, 0);
  const sk_view b32 = MakeView({3, 2}, {2, 1}, 0);
  const sk_view o22 = MakeView({2, 2}, {2, 1}, 0);
  // Matrix product.
  EXPECT_EQ(EinsumOf<double>("ij,jk->ik", DType::kFloat64, {a23, b32},
                             {a.data(), b.data()}, o22, 4),
            (std::vector<double>{1 + 4, 2 + 9, 4 + 10, 5 + 18}));
  // Implicit output (sorted labels that appear once) is the same.
  EXPECT_EQ(EinsumOf<double>("ij,jk", DType::kFloat64, {a23, b32},
                             {a.data(), b.data()}, o22, 4),
            (std::vector<double>{5, 11, 14, 23}));
  // Transpose, row sums, total.
  EXPECT_EQ(EinsumOf<double>("ij->ji", DType::kFloat64, {a23}, {a.data()},
                             MakeView({3, 2}, {2, 1}, 0), 6),
            (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(EinsumOf<double>("ij->i", DType::kFloat64, {a23}, {a.data()},
                             MakeView({2}, {1}, 0), 2),
            (std::vector<double>{6, 15}));
  EXPECT_EQ(EinsumOf<double>("ij->", DType::kFloat64, {a23}, {a.data()},
                             MakeView({}, {}, 0), 1),
            (std::vector<double>{21}));
  // Trace and diagonal of a [3,3].
  const std::vector<double> m = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const sk_view m33 = MakeView({3, 3}, {3, 1}, 0);
  EXPECT_EQ(EinsumOf<double>("ii", DType::kFloat64, {m33}, {m.data()},
                             MakeView({}, {}, 0), 1),
            (std::vector<double>{15}));
  EXPECT_EQ(EinsumOf<double>("ii->i", DType::kFloat64, {m33}, {m.data()},
                             MakeView({3}, {1}, 0), 3),
            (std::vector<double>{1, 5, 9}));
  // Outer product, and three operands.
  const std::vector<double> u = {1, 2}, w = {10, 20, 30};
  EXPECT_EQ(
      EinsumOf<double>("i,j->ij", DType::kFloat64,
                       {MakeView({2}, {1}, 0), MakeView({3}, {1}, 0)},
                       {u.data(), w.data()}, MakeView({2, 3}, {3, 1}, 0), 6),
      (std::vector<double>{10, 20, 30, 20, 40, 60}));
  EXPECT_EQ(
      EinsumOf<double>("i,ij,j->", DType::kFloat64,
                       {MakeView({2}, {1}, 0), a23, MakeView({3}, {1}, 0)},
                       {u.data(), a.data(), w.data()}, MakeView({}, {}, 0), 1),
      (std::vector<double>{1 * (10 + 40 + 90) + 2 * (40 + 100 + 180)}));
  // Batched with "...": [2,1,2] x [2,2] broadcast over the batch.
  const std::vector<double> batch = {1, 2, 3, 4};
  const std::vector<double> rhs = {1, 1, 0, 1};
  EXPECT_EQ(
      EinsumOf<double>(
          "...ij,jk->...ik", DType::kFloat64,
          {MakeView({2, 1, 2}, {2, 2, 1}, 0), MakeView({2, 2}, {2, 1}, 0)},
          {batch.data(), rhs.data()}, MakeView({2, 1, 2}, {2, 2, 1}, 0), 4),
      (std::vector<double>{1, 3, 3, 7}));
  // OCANNL labels: memory order batch, output, input.
  EXPECT_EQ(EinsumOf<double>("ij;jk=>ik", DType::kFloat64, {a23, b32},
                             {a.data(), b.data()}, o22, 4),
            (std::vector<double>{5, 11, 14, 23}));
}

TEST(Einsum, ViewsMasksAndOverlap) {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6};
  // A reversed, transposed reading: a[::-1, ::-1].T as [3,2].
  const sk_view rt = MakeView({3, 2}, {-1, -3}, 5);
  const std::vector<float> v = {1, 10};
  EXPECT_EQ(
      EinsumOf<float>("ij,j->i", DType::kFloat32, {rt, MakeView({2}, {1}, 0)},
                      {a.data(), v.data()}, MakeView({3}, {1}, 0), 3),
      (std::vector<float>{6 + 30, 5 + 20, 4 + 10}));
  // A broadcast operand (stride 0) and a padded (masked) one: pad reads 0.
  sk_view padded = MakeView({4}, {1}, -1);
  padded.has_mask = 1;
  padded.mask_begin[0] = 1;
  padded.mask_end[0] = 4;
  const std::vector<float> ones = {2};
  EXPECT_EQ(EinsumOf<float>("i,i->i", DType::kFloat32,
                            {padded, MakeView({4}, {0}, 0)},
                            {a.data(), ones.data()}, MakeView({4}, {1}, 0), 4),
            (std::vector<float>{0, 2, 4, 6}));
  // A masked output keeps its masked-out cells.
  sk_view masked_out = MakeView({3}, {1}, 0);
  masked_out.has_mask = 1;
  masked_out.mask_begin[0] = 1;
  masked_out.mask_end[0] = 3;
  EXPECT_EQ(
      EinsumOf<float>("ij->j", DType::kFloat32, {MakeView({2, 3}, {3, 1}, 0)},
                      {a.data()}, masked_out, 3),
      (std::vector<float>{-7, 7, 9}));
  // Output overlapping its input: as if the input were copied first.
  std::vector<float> x = {1, 2, 3, 4};
  Einsum("i->i", DType::kFloat32, std::vector<sk_view>{MakeView({4}, {-1}, 3)},
         std::vector<const void*>{x.data()}, MakeView({4}, {1}, 0), x.data());
  EXPECT_EQ(x, (std::vector<float>{4, 3, 2, 1}));
}

// OCANNL results that are not a permutation of the loops (a diagonal, a
// fixed index on an axis longer than 1) go through a zeroed temporary;
// every target agrees with the reference.
TEST(Einsum, OcannlDiagonalAndFixedIndexResults) {
  const std::vector<double> x = {1, 2, 3, 4};
  for (const char* target : {"", "reference"}) {
    SCOPED_TRACE(target);
    ASSERT_EQ(sk_target_force(target), SK_OK);
    // "i=>ii": x on the diagonal of a [3,3], zero elsewhere.
    EXPECT_EQ(
        EinsumOf<double>("i=>ii", DType::kFloat64, {MakeView({3}, {1}, 0)},
                         {x.data()}, MakeView({3, 3}, {3, 1}, 0), 9),
        (std::vector<double>{1, 0, 0, 0, 2, 0, 0, 0, 3}));
    // "i => 2": the sum written at index 2 of a [3], zero elsewhere.
    EXPECT_EQ(
        EinsumOf<double>("i => 2", DType::kFloat64, {MakeView({4}, {1}, 0)},
                         {x.data()}, MakeView({3}, {1}, 0), 3),
        (std::vector<double>{0, 0, 10}));
  }
  sk_target_force(nullptr);
}

TEST(Einsum, IntegersWrapAround) {
  const std::vector<int32_t> big = {INT32_MAX, INT32_MAX};
  EXPECT_EQ(EinsumOf<int32_t>("i->", DType::kInt32, {MakeView({2}, {1}, 0)},
                              {big.data()}, MakeView({}, {}, 0), 1),
            (std::vector<int32_t>{-2}));
  const std::vector<int64_t> p = {INT64_MAX, 2};
  EXPECT_EQ(EinsumOf<int64_t>("i,i->", DType::kInt64,
                              {MakeView({1}, {1}, 0), MakeView({1}, {1}, 1)},
                              {p.data(), p.data()}, MakeView({}, {}, 0), 1),
            (std::vector<int64_t>{-2}));
}

TEST(Einsum, Errors) {
  const std::vector<float> a(6, 1.0f);
  std::vector<float> out(6);
  const sk_view a23 = MakeView({2, 3}, {3, 1}, 0);
  const std::vector<sk_view> one = {a23};
  const std::vector<const void*> data = {a.data()};
  EXPECT_SK_ERROR(Einsum("ij->ji", DType::kFloat32, one, data, a23, out.data()),
                  ErrorKind::kInvalidArgument,
                  "einsum: out has shape [2,3] but \"ij->ji\" gives [3,2]");
  EXPECT_SK_ERROR(Einsum("ij->i", DType::kFloat16, one, data,
                         MakeView({2}, {1}, 0), out.data()),
                  ErrorKind::kUnsupported,
                  "einsum: dtype Float16 is not supported (Float32, Float64, "
                  "Int32, Int64)");
  EXPECT_THROW(Einsum("ij,jk->ik", DType::kFloat32, one, data,
                      MakeView({2, 2}, {2, 1}, 0), out.data()),
               Error);
  EXPECT_THROW(Einsum("ij->i", DType::kFloat32, one, data,
                      MakeView({2}, {0}, 0), out.data()),
               Error);  // broadcast output
  EXPECT_SK_ERROR(
      Einsum("ij->i", DType::kFloat32, one, std::vector<const void*>{},
             MakeView({2}, {1}, 0), out.data()),
      ErrorKind::kInvalidArgument,
      "einsum: 1 operand views but 0 data pointers");
  // The C ABI.
  const sk_view* views[] = {&a23};
  const void* datas[] = {a.data()};
  const sk_view o2 = MakeView({2}, {1}, 0);
  EXPECT_EQ(sk_einsum("ij->i", SK_FLOAT32, 1, views, datas, &o2, out.data()),
            SK_OK);
  EXPECT_EQ(out[0], 3.0f);
  EXPECT_EQ(sk_einsum(nullptr, SK_FLOAT32, 1, views, datas, &o2, out.data()),
            SK_ERR_INVALID);
  EXPECT_EQ(sk_einsum("ij->i", SK_FLOAT32, -1, views, datas, &o2, out.data()),
            SK_ERR_INVALID);
  EXPECT_EQ(sk_einsum("ij->i", SK_INT8, 1, views, datas, &o2, out.data()),
            SK_ERR_UNSUPPORTED);
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

TEST(Einsum, TooManyLoopsNamesTheOperation) {
  // 52 distinct labels of size 2 over two 26-axis operands: 52 loops.
  const std::string left = "abcdefghijklmnopqrstuvwxyz";
  const std::string right = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const Dims shape(26, 2);
  std::vector<DimsView> ops = {shape, shape};
  EXPECT_SK_ERROR(
      EinsumProjections(ParseEinsumSubscripts(left + "," + right + "->"), ops),
      ErrorKind::kInvalidArgument,
      "einsum: more than 32 distinct loops (labels of size other "
      "than 1) in the product space; at most 32 are supported");
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

// sk_einsum_shape and sk_einsum accept the same specs: 40 multi-character
// OCANNL labels over two 20-axis operands are 40 loops, more than 32 (the
// result, 20 axes, would fit).
TEST(Einsum, ShapeAndExecutionAgreeOnTooManyLoops) {
  std::string a = "a0", b = "b0";
  for (int i = 1; i < 20; ++i) {
    a.append(",a").append(std::to_string(i));
    b.append(",b").append(std::to_string(i));
  }
  std::string spec = a;
  spec.append(";").append(b).append("=>").append(a);
  const std::vector<int64_t> dims(20, 2);
  const int32_t ndims[2] = {20, 20};
  const int64_t* shapes[2] = {dims.data(), dims.data()};
  int32_t out_ndim = 0;
  int64_t out_shape[SK_MAX_NDIM];
  EXPECT_EQ(
      sk_einsum_shape(spec.c_str(), 2, ndims, shapes, &out_ndim, out_shape),
      SK_ERR_INVALID);
  EXPECT_EQ(std::string(sk_last_error()),
            "einsum: more than 32 distinct loops (labels of size other than "
            "1) in the product space; at most 32 are supported");
}

// ---- Accuracy (stridekit/einsum.h's bound).

// b(R) of stridekit/einsum.h: min(R, 128) + ceil(log2(ceil(R / 128))).
int64_t BlockBound(int64_t r) {
  const int64_t blocks = (r + 127) / 128;
  int64_t levels = 0;
  while ((int64_t{1} << levels) < blocks) ++levels;
  return std::min<int64_t>(r, 128) + levels;
}

// An exact-enough sum in long double (Neumaier's compensation).
struct LongSum {
  long double sum = 0, compensation = 0;
  void Add(long double x) {
    const long double t = sum + x;
    compensation +=
        std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  long double Value() const { return sum + compensation; }
};

// Expects |got - exact| <= (b(r) + operands + 2) u abs_sum: one summation
// stage of r products of `operands` factors.
template <typename T>
void ExpectWithinBound(T got, long double exact, long double abs_sum, int64_t r,
                       int64_t operands) {
  const long double u = std::numeric_limits<T>::epsilon() / 2.0L;
  const long double error = std::fabs((long double)got - exact);
  EXPECT_LE(error, (long double)(BlockBound(r) + operands + 2) * u * abs_sum)
      << "got " << got << " exact " << double(exact) << " R " << r;
}

// np.einsum("i->", x) over a broadcast of 1 + 8196 eps to a million
// elements (issue 19: an 8-lane running sum erred by about 1e4 u sum |x|).
template <typename T>
void BroadcastSum(DType t) {
  constexpr int64_t kCount = 1000000;
  const T x = T(1) + T(8196) * std::numeric_limits<T>::epsilon();
  const long double exact = (long double)x * kCount;
  testing::ForEachTarget([&](const std::string&) {
    T out = 0;
    const std::vector<sk_view> views = {MakeView({kCount}, {0}, 0)};
    const std::vector<const void*> datas = {&x};
    Einsum("i->", t, views, datas, MakeView({}, {}, 0), &out);
    ExpectWithinBound(out, exact, exact, kCount, 1);
  });
}

TEST(EinsumAccuracy, BroadcastSumOfAMillion) {
  BroadcastSum<double>(DType::kFloat64);
  BroadcastSum<float>(DType::kFloat32);
}

// Products whose low bits a running sum drops: a[i] = 1 + 8196 eps and
// b[i] = 1 + (i mod 7) / 8.
template <typename T>
std::vector<T> Excess(int64_t count) {
  return std::vector<T>(size_t(count),
                        T(1) + T(8196) * std::numeric_limits<T>::epsilon());
}
template <typename T>
T Ramp(int64_t i) {
  return T(1) + T(i % 7) / T(8);
}

// Dots of length up to 2^20, contiguous and strided.
template <typename T>
void LongDots(DType t) {
  for (const int64_t k : {int64_t{129}, int64_t{1000}, int64_t{1} << 16,
                          (int64_t{1} << 20) - 3, int64_t{1} << 20}) {
    const std::vector<T> a = Excess<T>(k);
    std::vector<T> b(size_t(2 * k));
    for (int64_t i = 0; i < k; ++i) b[size_t(2 * i)] = Ramp<T>(i);
    LongSum exact;
    for (int64_t i = 0; i < k; ++i) {
      exact.Add((long double)a[size_t(i)] * b[size_t(2 * i)]);
    }
    testing::ForEachTarget([&](const std::string&) {
      T out = 0;
      const std::vector<sk_view> views = {MakeView({k}, {1}, 0),
                                          MakeView({k}, {2}, 0)};
      const std::vector<const void*> datas = {a.data(), b.data()};
      Einsum("i,i->", t, views, datas, MakeView({}, {}, 0), &out);
      SCOPED_TRACE("k " + std::to_string(k));
      ExpectWithinBound(out, exact.Value(), exact.Value(), k, 2);
    });
  }
}

TEST(EinsumAccuracy, LongDots) {
  LongDots<double>(DType::kFloat64);
  LongDots<float>(DType::kFloat32);
}

// C = A B with k = 2^20 (and k just past one block): A [m, k] holds
// (1 + 8196 eps) (1 + i / 8) in memory, B [k, n] is a broadcast of
// 1 + (n mod 7) / 8 along k (the packed product, vectorised along n), and
// a matrix-vector product (m rows of dots).
template <typename T>
void LongMatrixProducts(DType t) {
  constexpr int64_t kM = 3, kN = 17;
  for (const int64_t k : {int64_t{129}, int64_t{5000}, int64_t{1} << 20}) {
    std::vector<T> a(size_t(kM * k));
    for (int64_t i = 0; i < kM; ++i) {
      const T row = (T(1) + T(8196) * std::numeric_limits<T>::epsilon()) *
                    (T(1) + T(i) / T(8));
      std::fill_n(a.begin() + i * k, k, row);
    }
    std::vector<T> b(size_t{kN});
    std::vector<T> v(static_cast<size_t>(k));
    for (int64_t n = 0; n < kN; ++n) b[size_t(n)] = Ramp<T>(n);
    for (int64_t j = 0; j < k; ++j) v[size_t(j)] = Ramp<T>(j);
    testing::ForEachTarget([&](const std::string&) {
      SCOPED_TRACE("k " + std::to_string(k));
      std::vector<T> c(kM * kN, T(-7)), w(kM, T(-7));
      const sk_view a_view = MakeView({kM, k}, {k, 1}, 0);
      Einsum("ij,jk->ik", t,
             std::vector<sk_view>{a_view, MakeView({k, kN}, {0, 1}, 0)},
             std::vector<const void*>{a.data(), b.data()},
             MakeView({kM, kN}, {kN, 1}, 0), c.data());
      Einsum("ij,j->i", t, std::vector<sk_view>{a_view, MakeView({k}, {1}, 0)},
             std::vector<const void*>{a.data(), v.data()},
             MakeView({kM}, {1}, 0), w.data());
      for (int64_t i = 0; i < kM; ++i) {
        const long double x = a[size_t(i * k)];
        for (int64_t n = 0; n < kN; ++n) {
          const long double exact = x * b[size_t(n)] * k;
          ExpectWithinBound(c[size_t(i * kN + n)], exact, exact, k, 2);
        }
        LongSum exact;
        for (int64_t j = 0; j < k; ++j) exact.Add(x * v[size_t(j)]);
        ExpectWithinBound(w[size_t(i)], exact.Value(), exact.Value(), k, 2);
      }
    });
  }
}

TEST(EinsumAccuracy, MatrixProductsWithLongK) {
  LongMatrixProducts<double>(DType::kFloat64);
  LongMatrixProducts<float>(DType::kFloat32);
}

}  // namespace
}  // namespace stridekit
