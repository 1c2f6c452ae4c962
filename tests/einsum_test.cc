// Einsum execution: golden cases (matrix product, trace, diagonal, outer
// product, batched, "...", three operands, OCANNL labels), views (strided,
// reversed, broadcast, masked inputs; masked and overlapping outputs),
// integer wrap-around, and every error path.
#include "stridekit/einsum.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace stridekit
