// OCANNL einsum with each operand's row lengths given (EinsumRows,
// LabelsEinsumShape with rows, sk_einsum_rows_shape, sk_einsum_rows): specs
// whose slots have row variables in two or more rows, which the flat forms
// cannot split, checked element by element against plain loops; and every
// refusal of the row lengths, the same through the shape and the compute
// function.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "random_views.h"
#include "stridekit/einsum.h"
#include "stridekit/einsum_spec.h"
#include "stridekit/shape_inference.h"
#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;

// out[b0,b1,o,i0,i1] = sum_h a[b0,b1,h,i0,i1] * w[b0,b1,o,h]: a's slot has
// row variables in its batch and input rows.
constexpr const char* kContraction =
    "..b..|..i..->h; ..b..|h->o => ..b..|..i..->o";
using Shape = std::vector<int64_t>;
const Shape kA = {2, 3, 4, 5, 3};  // batch 2, output 1 (h), input 2
const Shape kW = {2, 3, 6, 4};     // batch 2, output 1 (o), input 1 (h)
const Shape kOut = {2, 3, 6, 5, 3};
const std::vector<RowLengths> kRows = {{2, 1, 2}, {2, 1, 1}};
const std::vector<int32_t> kCRows = {2, 1, 2, 2, 1, 1};

Shape Vec(const Dims& d) { return Shape(d.begin(), d.end()); }

// A C-contiguous view of `shape`.
sk_view CView(const Shape& shape) {
  return MakeView(shape, Vec(CContiguousStrides(shape)), 0);
}

// Small integers, so that every sum is exact in float64.
std::vector<double> Values(size_t n, int seed) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = double((int(i) * 7 + seed) % 11 - 5);
  return v;
}

std::vector<double> ContractionByLoops(const std::vector<double>& a,
                                       const std::vector<double>& w) {
  std::vector<double> out(2 * 3 * 6 * 5 * 3, 0.0);
  for (int b0 = 0; b0 < 2; ++b0)
    for (int b1 = 0; b1 < 3; ++b1)
      for (int o = 0; o < 6; ++o)
        for (int i0 = 0; i0 < 5; ++i0)
          for (int i1 = 0; i1 < 3; ++i1) {
            double sum = 0;
            for (int h = 0; h < 4; ++h) {
              sum += a[size_t((((b0 * 3 + b1) * 4 + h) * 5 + i0) * 3 + i1)] *
                     w[size_t(((b0 * 3 + b1) * 6 + o) * 4 + h)];
            }
            out[size_t((((b0 * 3 + b1) * 6 + o) * 5 + i0) * 3 + i1)] = sum;
          }
  return out;
}

TEST(EinsumRows, ShapeOfSpecsWithRowVariablesInTwoRows) {
  const std::vector<DimsView> shapes = {kA, kW};
  EXPECT_SK_ERROR(LabelsEinsumShape(kContraction, shapes),
                  ErrorKind::kInvalidArgument,
                  "einsum: operand 0: cannot split its 5 axes into batch, "
                  "output and input rows: more than one row of its spec slot "
                  "has a row variable (give its row lengths: EinsumRows, "
                  "sk_einsum_rows)");
  EXPECT_EQ(Vec(LabelsEinsumShape(kContraction, shapes, kRows)), kOut);
  // Other splits of the same flat shapes are other einsums.
  EXPECT_EQ(Vec(LabelsEinsumShape(
                kContraction, std::vector<DimsView>{kA, Shape{2, 6, 3}},
                std::vector<RowLengths>{{1, 1, 3}, {1, 1, 1}})),
            (Shape{2, 6, 4, 5, 3}));
  // Rows that agree with the slot's own split give the flat form's result.
  const std::vector<DimsView> one = {kA};
  EXPECT_EQ(LabelsEinsumShape("...|i->o => o|...->i", one,
                              std::vector<RowLengths>{{3, 1, 1}}),
            LabelsEinsumShape("...|i->o => o|...->i", one));
}

TEST(EinsumRows, RefusesRowLengthsThatDoNotFit) {
  const std::vector<DimsView> shapes = {kA, kW};
  using R = std::vector<RowLengths>;
  EXPECT_SK_ERROR(LabelsEinsumShape(kContraction, shapes, R{{2, 1, 2}}),
                  ErrorKind::kInvalidArgument,
                  "einsum: 1 row lengths for 2 operands");
  EXPECT_SK_ERROR(
      LabelsEinsumShape(kContraction, shapes, R{{2, 1, 2}, {2, -1, 3}}),
      ErrorKind::kInvalidArgument,
      "einsum: operand 1: row lengths (batch 2, output -1, input 3) must not "
      "be negative");
  EXPECT_SK_ERROR(
      LabelsEinsumShape(kContraction, shapes, R{{2, 2, 2}, {2, 1, 1}}),
      ErrorKind::kInvalidArgument,
      "einsum: operand 0: row lengths (batch 2, output 2, input 2) sum to 6 "
      "but it has 5 axes");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_SK_ERROR(
      LabelsEinsumShape(kContraction, shapes, R{{kMax, 1, 0}, {2, 1, 1}}),
      ErrorKind::kOverflow, "einsum: 9223372036854775807 + 1 overflows int64");
  // A closed row of another length; a row variable's row too short.
  EXPECT_SK_ERROR(
      LabelsEinsumShape(kContraction, shapes, R{{1, 2, 2}, {2, 1, 1}}),
      ErrorKind::kInvalidArgument,
      "einsum: operand 0: its output row has 2 axes but its spec slot's "
      "output row [h] has 1");
  EXPECT_SK_ERROR(
      LabelsEinsumShape("..b..|i,..j..->h => ..b..|h",
                        std::vector<DimsView>{kA}, R{{4, 1, 0}}),
      ErrorKind::kInvalidArgument,
      "einsum: operand 0: its input row has 0 axes but its spec slot's input "
      "row [i <..j..>] has at least 1");
  // NumPy subscripts take no rows.
  EXPECT_SK_ERROR(
      EinsumSpecProjections("ij->ji", std::vector<DimsView>{Shape{2, 3}},
                            std::span<const RowLengths>(R{{0, 1, 1}})),
      ErrorKind::kInvalidArgument,
      "einsum: row lengths apply to OCANNL label specs (with \"=>\"), not to "
      "NumPy subscripts \"ij->ji\"");
}

TEST(EinsumRows, ContractionElementByElement) {
  const std::vector<double> a = Values(2 * 3 * 4 * 5 * 3, 1);
  const std::vector<double> w = Values(2 * 3 * 6 * 4, 4);
  const std::vector<double> want = ContractionByLoops(a, w);
  const sk_view va = CView(kA);
  const sk_view vw = CView(kW);
  const sk_view vo = CView(kOut);
  std::vector<double> got(want.size(), -1.0);
  EinsumRows(kContraction, kRows, DType::kFloat64, std::vector<sk_view>{va, vw},
             std::vector<const void*>{a.data(), w.data()}, vo, got.data());
  EXPECT_EQ(got, want);
  EXPECT_THROW(
      Einsum(kContraction, DType::kFloat64, std::vector<sk_view>{va, vw},
             std::vector<const void*>{a.data(), w.data()}, vo, got.data()),
      Error);
}

TEST(EinsumRows, ThroughTheCAbi) {
  const std::vector<double> a = Values(2 * 3 * 4 * 5 * 3, 2);
  const std::vector<double> w = Values(2 * 3 * 6 * 4, 3);
  const std::vector<double> want = ContractionByLoops(a, w);
  const int32_t ndims[] = {5, 4};
  const int64_t* shapes[] = {kA.data(), kW.data()};
  int32_t out_ndim = -1;
  int64_t out_shape[SK_MAX_NDIM] = {};
  // The flat forms cannot split operand 0; the row forms can.
  EXPECT_EQ(
      sk_einsum_shape(kContraction, 2, ndims, shapes, &out_ndim, out_shape),
      SK_ERR_INVALID);
  EXPECT_NE(std::string(sk_last_error()).find("more than one row"),
            std::string::npos);
  ASSERT_EQ(sk_einsum_rows_shape(kContraction, 2, kCRows.data(), ndims, shapes,
                                 &out_ndim, out_shape),
            SK_OK)
      << sk_last_error();
  EXPECT_EQ(Shape(out_shape, out_shape + out_ndim), kOut);
  const sk_view va = CView(kA);
  const sk_view vw = CView(kW);
  const sk_view vo = CView(kOut);
  const sk_view* views[] = {&va, &vw};
  const void* datas[] = {a.data(), w.data()};
  std::vector<double> got(want.size(), -1.0);
  EXPECT_EQ(
      sk_einsum(kContraction, SK_FLOAT64, 2, views, datas, &vo, got.data()),
      SK_ERR_INVALID);
  ASSERT_EQ(sk_einsum_rows(kContraction, SK_FLOAT64, 2, kCRows.data(), views,
                           datas, &vo, got.data()),
            SK_OK)
      << sk_last_error();
  EXPECT_EQ(got, want);
}

// A permute whose one operand has row variables in all three rows: input
// and output rows swap places (memory order batch, output, input).
TEST(EinsumRows, PermuteWithThreeRowVariables) {
  const Shape shape = {2, 3, 4, 5};  // batch [2], output [3, 4], input [5]
  const std::vector<double> x = Values(2 * 3 * 4 * 5, 5);
  const sk_view vx = CView(shape);
  const Shape out = {2, 5, 3, 4};  // batch [2], output [5], input [3, 4]
  const sk_view vo = CView(out);
  const int32_t rows[] = {1, 2, 1};
  const sk_view* views[] = {&vx};
  const void* datas[] = {x.data()};
  const char* spec = "..b..|..i..->..o.. => ..b..|..o..->..i..";
  std::vector<double> got(x.size(), -1.0);
  ASSERT_EQ(
      sk_einsum_rows(spec, SK_FLOAT64, 1, rows, views, datas, &vo, got.data()),
      SK_OK)
      << sk_last_error();
  for (int b = 0; b < 2; ++b)
    for (int o0 = 0; o0 < 3; ++o0)
      for (int o1 = 0; o1 < 4; ++o1)
        for (int i = 0; i < 5; ++i) {
          EXPECT_EQ(got[size_t(((b * 5 + i) * 3 + o0) * 4 + o1)],
                    x[size_t(((b * 3 + o0) * 4 + o1) * 5 + i)]);
        }
}

// sk_einsum_rows_shape and sk_einsum_rows refuse the same arguments, with
// messages naming themselves and the values.
TEST(EinsumRows, ShapeAndComputeRefuseTheSame) {
  struct Case {
    std::vector<int32_t> rows;
    const char* spec;
    const char* message;  // after the function's name
  };
  const std::vector<Case> cases = {
      {{2, 1, 2, 2, 2, 1},
       kContraction,
       ": operand 1: row lengths (batch 2, output 2, input 1) sum to 5 but it "
       "has 4 axes"},
      {{2, 1, 2, -1, 4, 1},
       kContraction,
       ": operand 1: row lengths (batch -1, output 4, input 1) must not be "
       "negative"},
      {{2, 1, 2, 2, 1, 1}, "ab,cd->", "einsum: row lengths apply to OCANNL"},
      {{1, 2, 2, 2, 1, 1},
       kContraction,
       "einsum: operand 0: its output row has 2 axes"},
  };
  const int32_t ndims[] = {5, 4};
  const int64_t* shapes[] = {kA.data(), kW.data()};
  const sk_view va = CView(kA);
  const sk_view vw = CView(kW);
  const sk_view vo = CView(kOut);
  const sk_view* views[] = {&va, &vw};
  std::vector<double> a(120), w(144), out(540);
  const void* datas[] = {a.data(), w.data()};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    int32_t out_ndim;
    int64_t out_shape[SK_MAX_NDIM];
    EXPECT_EQ(sk_einsum_rows_shape(c.spec, 2, c.rows.data(), ndims, shapes,
                                   &out_ndim, out_shape),
              SK_ERR_INVALID);
    const std::string shape_message = sk_last_error();
    EXPECT_EQ(sk_einsum_rows(c.spec, SK_FLOAT64, 2, c.rows.data(), views, datas,
                             &vo, out.data()),
              SK_ERR_INVALID);
    const std::string compute_message = sk_last_error();
    if (c.message[0] == ':') {
      EXPECT_EQ(shape_message, std::string("sk_einsum_rows_shape") + c.message);
      EXPECT_EQ(compute_message, std::string("sk_einsum_rows") + c.message);
    } else {
      EXPECT_EQ(shape_message.rfind(c.message, 0), 0u) << shape_message;
      EXPECT_EQ(compute_message, shape_message);
    }
  }
  // n = 0 needs no rows.
  int32_t out_ndim = -1;
  int64_t out_shape[SK_MAX_NDIM];
  EXPECT_EQ(sk_einsum_rows_shape("=>", 0, nullptr, nullptr, nullptr, &out_ndim,
                                 out_shape),
            sk_einsum_shape("=>", 0, nullptr, nullptr, &out_ndim, out_shape));
}

}  // namespace
}  // namespace stridekit
