// The C++ overloads on stridekit::View (copy.h, elementwise.h, compare.h,
// where.h, scan.h, arg_reduce.h) run the operation of their sk_view forms:
// each is called on a transposed or flipped View and checked against values
// worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "stridekit/arg_reduce.h"
#include "stridekit/compare.h"
#include "stridekit/copy.h"
#include "stridekit/elementwise.h"
#include "stridekit/scan.h"
#include "stridekit/view.h"
#include "stridekit/where.h"

namespace stridekit {
namespace {

// x = [[0, 1, 2], [3, 4, 5]] in C order; its transpose is [[0, 3], [1, 4],
// [2, 5]].
const View kMatrix = View::Make(Dims{2, 3});
const View kTransposed = kMatrix.Permute(Dims{1, 0});
const View kOut3x2 = View::Make(Dims{3, 2});

TEST(ViewOverloads, FillWritesOnlyTheView) {
  std::vector<int32_t> buffer(6, 0);
  const int32_t seven = 7;
  // Every other element of the flat buffer, from the end.
  const View odd = View::Make(Dims{3}, Dims{-2}, 5);
  Fill(sizeof(int32_t), odd, buffer.data(), &seven);
  EXPECT_EQ(buffer, (std::vector<int32_t>{0, 7, 0, 7, 0, 7}));
}

TEST(ViewOverloads, UnaryReadsATransposedView) {
  const std::vector<float> x{0, 1, 2, 3, 4, 5};
  std::vector<float> out(6, -1);
  Unary(UnaryOp::kNeg, DType::kFloat32, kTransposed, x.data(), kOut3x2,
        out.data());
  EXPECT_EQ(out, (std::vector<float>{-0.f, -3, -1, -4, -2, -5}));
  EXPECT_TRUE(std::signbit(out[0]));
}

TEST(ViewOverloads, CompareAndPredicateWriteBools) {
  const std::vector<float> x{0, 1, 2, 3, 4, 5};
  const std::vector<float> y{0, 3, 2, 4, 4, 5};  // C order, 3 x 2
  std::vector<uint8_t> out(6, 9);
  Compare(CompareOp::kEq, DType::kFloat32, kTransposed, x.data(), kOut3x2,
          y.data(), kOut3x2, out.data());
  // x^T = [0, 3, 1, 4, 2, 5] against y.
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 0, 1, 0, 1}));

  const std::vector<float> z{1, NAN, INFINITY, 0, -INFINITY, NAN};
  Predicate(PredicateOp::kIsNan, DType::kFloat32, kTransposed, z.data(),
            kOut3x2, out.data());
  // z^T = [1, 0, NaN, -inf, inf, NaN].
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 0, 1, 0, 0, 1}));
}

TEST(ViewOverloads, WhereSelectsPerElement) {
  const std::vector<uint8_t> cond{1, 0, 0, 1, 1, 0};  // C order, 3 x 2
  const std::vector<int64_t> a{0, 1, 2, 3, 4, 5};
  const std::vector<int64_t> b{10, 11, 12, 13, 14, 15};  // C order, 3 x 2
  std::vector<int64_t> out(6, -1);
  Where(DType::kInt64, kOut3x2, cond.data(), kTransposed, a.data(), kOut3x2,
        b.data(), kOut3x2, out.data());
  // a^T = [0, 3, 1, 4, 2, 5].
  EXPECT_EQ(out, (std::vector<int64_t>{0, 11, 12, 4, 2, 15}));
}

TEST(ViewOverloads, ScanRunsAlongTheGivenAxis) {
  const std::vector<int32_t> x{0, 1, 2, 3, 4, 5};
  std::vector<int32_t> out(6, -1);
  // Cumulative sums down the columns of x^T ([[0, 3], [1, 4], [2, 5]]).
  Scan(ScanOp::kCumsum, DType::kInt32, kTransposed, x.data(), 0, kOut3x2,
       out.data());
  EXPECT_EQ(out, (std::vector<int32_t>{0, 3, 1, 7, 3, 12}));
}

TEST(ViewOverloads, ArgReduceGivesTheFirstExtremum) {
  const std::vector<double> x{4, 9, 9, 1, 0, 1};
  std::vector<int64_t> out(3, -1);
  // x^T rows: [4, 1], [9, 0], [9, 1]; axis -1.
  ArgReduce(ArgOp::kArgMax, DType::kFloat64, kTransposed, x.data(), -1,
            View::Make(Dims{3}), out.data());
  EXPECT_EQ(out, (std::vector<int64_t>{0, 0, 0}));
  ArgReduce(ArgOp::kArgMin, DType::kFloat64, kTransposed, x.data(), 0,
            View::Make(Dims{2}), out.data());
  // Columns of x^T: [4, 9, 9] and [1, 0, 1].
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 1);
}

}  // namespace
}  // namespace stridekit
