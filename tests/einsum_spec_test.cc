// NumPy einsum subscripts: parsing, implicit output, shape-level results and
// projections, and every error path.
#include "stridekit/einsum_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace stridekit {
namespace {

using ::stridekit::testing::Vec;
using I = AxisIndex;

std::vector<int64_t> Shape(std::string_view spec,
                           std::vector<std::vector<int64_t>> shapes) {
  std::vector<DimsView> views(shapes.begin(), shapes.end());
  return Vec(EinsumShape(spec, views));
}

Projections Plan(std::string_view spec,
                 std::vector<std::vector<int64_t>> shapes) {
  std::vector<DimsView> views(shapes.begin(), shapes.end());
  return EinsumProjections(ParseEinsumSubscripts(spec), views);
}

TEST(EinsumSubscripts, ParsesExplicitOutput) {
  const EinsumSubscripts s = ParseEinsumSubscripts(" ij , jk -> ik ");
  ASSERT_EQ(s.inputs.size(), 2u);
  EXPECT_EQ(s.inputs[0], (EinsumTerm{"ij", -1}));
  EXPECT_EQ(s.inputs[1], (EinsumTerm{"jk", -1}));
  EXPECT_EQ(s.output, (EinsumTerm{"ik", -1}));
  EXPECT_TRUE(s.explicit_output);
}

TEST(EinsumSubscripts, ParsesEllipsisPositions) {
  const EinsumSubscripts s = ParseEinsumSubscripts("a...b,...->b...");
  EXPECT_EQ(s.inputs[0], (EinsumTerm{"ab", 1}));
  EXPECT_EQ(s.inputs[1], (EinsumTerm{"", 0}));
  EXPECT_EQ(s.output, (EinsumTerm{"b", 1}));
}

TEST(EinsumSubscripts, ImplicitOutputIsSortedLabelsSeenOnce) {
  EXPECT_EQ(ParseEinsumSubscripts("ij,jk").output, (EinsumTerm{"ik", -1}));
  EXPECT_EQ(ParseEinsumSubscripts("ba").output, (EinsumTerm{"ab", -1}));
  // ASCII order: uppercase before lowercase.
  EXPECT_EQ(ParseEinsumSubscripts("bA").output, (EinsumTerm{"Ab", -1}));
  EXPECT_EQ(ParseEinsumSubscripts("ii").output, (EinsumTerm{"", -1}));
  EXPECT_EQ(ParseEinsumSubscripts("j...i,i").output, (EinsumTerm{"j", 0}));
  EXPECT_FALSE(ParseEinsumSubscripts("ij").explicit_output);
}

TEST(EinsumShape, MatchesNumPy) {
  EXPECT_EQ(Shape("ij,jk->ik", {{2, 3}, {3, 4}}), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(Shape("ij,jk", {{2, 1}, {3, 4}}), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(Shape("ii", {{3, 3}}), (std::vector<int64_t>{}));
  EXPECT_EQ(Shape("ii->i", {{3, 3}}), (std::vector<int64_t>{3}));
  EXPECT_EQ(Shape("...i,...i", {{1, 3}, {4, 3}}), (std::vector<int64_t>{4}));
  EXPECT_EQ(Shape("i...i", {{3, 2, 3}}), (std::vector<int64_t>{2}));
  EXPECT_EQ(Shape("ij->ij...", {{2, 3}}), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Shape("i->...", {{2}}), (std::vector<int64_t>{}));
  EXPECT_EQ(Shape("", {{}}), (std::vector<int64_t>{}));
  EXPECT_EQ(Shape("ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}),
            (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(Shape("b...,...c->c...b", {{2, 5, 1}, {7, 3}}),
            (std::vector<int64_t>{3, 5, 7, 2}));
  EXPECT_EQ(Shape("i,i", {{0}, {1}}), (std::vector<int64_t>{}));
}

TEST(EinsumProjections, MatmulLoopsResultFirstThenReduction) {
  const Projections p = Plan("ij,jk->ik", {{2, 3}, {3, 4}});
  EXPECT_EQ(Vec(p.product_space), (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(p.is_reduction, (LoopFlags{false, false, true}));
  EXPECT_EQ(p.result_map, (AxisMap{I::Iterator(0), I::Iterator(1)}));
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Iterator(0), I::Iterator(2)}));
  EXPECT_EQ(p.operand_maps[1], (AxisMap{I::Iterator(2), I::Iterator(1)}));
  EXPECT_TRUE(p.initialize_neutral);
  EXPECT_EQ(p.num_reduction_loops(), 1);
}

TEST(EinsumProjections, DiagonalAndPermutation) {
  const Projections trace = Plan("ii->i", {{3, 3}});
  EXPECT_EQ(trace.operand_maps[0], (AxisMap{I::Iterator(0), I::Iterator(0)}));
  EXPECT_FALSE(trace.initialize_neutral);
  const Projections transpose = Plan("ij->ji", {{2, 3}});
  EXPECT_EQ(Vec(transpose.product_space), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(transpose.operand_maps[0],
            (AxisMap{I::Iterator(1), I::Iterator(0)}));
  EXPECT_FALSE(transpose.initialize_neutral);
}

TEST(EinsumProjections, BroadcastSizeOneAxesArePinnedAtZero) {
  const Projections p = Plan("...i,...i->...i", {{1, 3}, {4, 3}});
  EXPECT_EQ(Vec(p.result_shape), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Fixed(0), I::Iterator(1)}));
  EXPECT_EQ(p.operand_maps[1], (AxisMap{I::Iterator(0), I::Iterator(1)}));
  // Size-1 classes get no loop.
  const Projections q = Plan("ij,jk->ik", {{1, 1}, {1, 4}});
  EXPECT_EQ(Vec(q.product_space), (std::vector<int64_t>{4}));
  EXPECT_EQ(q.operand_maps[0], (AxisMap{I::Fixed(0), I::Fixed(0)}));
}

TEST(EinsumErrors, Parse) {
  const ErrorKind k = ErrorKind::kInvalidArgument;
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i$"), k,
                  "einsum: invalid subscript '$' in einstein sum subscripts "
                  "string, subscripts must be letters (column 2)");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i.j"), k,
                  "einsum: einstein sum subscripts string contains a '.' that "
                  "is not part of an ellipsis ('...') in operand 0 (column 2)");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i,......"), k,
                  "einsum: einstein sum subscripts string contains a '.' that "
                  "is not part of an ellipsis ('...') in operand 1 (column 6)");
  EXPECT_SK_ERROR(
      ParseEinsumSubscripts("i->i.."), k,
      "einsum: einstein sum subscripts string contains a '.' that "
      "is not part of an ellipsis ('...') in the output (column 5)");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i->i->"), k,
                  "einsum: einstein sum subscripts string contains '->' more "
                  "than once (column 5)");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i-"), k,
                  "einsum: einstein sum subscript string does not contain "
                  "proper '->' output specified (column 2)");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i>"), k,
                  "einsum: einstein sum subscript string does not contain "
                  "proper '->' output specified (column 2)");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("ij->k"), k,
                  "einsum: einstein sum subscripts string included output "
                  "subscript 'k' which never appeared in an input");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("ij->ii"), k,
                  "einsum: einstein sum subscripts string includes output "
                  "subscript 'i' multiple times");
  EXPECT_SK_ERROR(ParseEinsumSubscripts("i->i,i"), k,
                  "einsum: invalid subscript ',' in einstein sum subscripts "
                  "string, subscripts must be letters (column 5)");
}

TEST(EinsumErrors, Shapes) {
  const ErrorKind k = ErrorKind::kInvalidArgument;
  EXPECT_SK_ERROR(Shape("ij", {{2, 3, 4}}), k,
                  "einsum: operand 0 has more dimensions than subscripts given "
                  "in einstein sum, but no '...' ellipsis provided to "
                  "broadcast the extra dimensions.");
  EXPECT_SK_ERROR(Shape("i,ijk", {{2}, {2, 3}}), k,
                  "einsum: einstein sum subscripts string contains too many "
                  "subscripts for operand 1");
  EXPECT_SK_ERROR(Shape("i...", {{}}), k,
                  "einsum: einstein sum subscripts string contains too many "
                  "subscripts for operand 0");
  EXPECT_SK_ERROR(Shape("i,j", {{2}}), k,
                  "einsum: fewer operands provided to einstein sum function "
                  "than specified in the subscripts string (1 vs 2)");
  EXPECT_SK_ERROR(Shape("i", {{2}, {3}}), k,
                  "einsum: more operands provided to einstein sum function "
                  "than specified in the subscripts string (2 vs 1)");
  EXPECT_SK_ERROR(Shape("ii", {{1, 3}}), k,
                  "einsum: dimensions in operand 0 for collapsing index 'i' "
                  "don't match (1 != 3)");
  EXPECT_SK_ERROR(Shape("ij,jk", {{2, 3}, {4, 5}}), k,
                  "einsum: operands could not be broadcast together: label "
                  "'j' has size 3 in operand 0 and size 4 in operand 1");
  EXPECT_SK_ERROR(Shape("...i,...i", {{2, 3}, {4, 3}}), k,
                  "einsum: operands could not be broadcast together: ellipsis "
                  "dimension 0 has size 2 in operand 0 and size 4 in operand "
                  "1");
  EXPECT_SK_ERROR(Shape("i...j->ij", {{2, 3, 4}}), k,
                  "einsum: output has more dimensions than subscripts given in "
                  "einstein sum, but no '...' ellipsis provided to broadcast "
                  "the extra dimensions.");
  EXPECT_SK_ERROR(Shape("i", {{-2}}), k,
                  "einsum: negative dimension -2 at axis 0 of [-2]");
}

// The derivation of plain subscripts (EinsumSpecProjections' quick path:
// letters, commas, "->") gives the general path's projections, loop
// numbers included, and its errors, on random specs and shapes: repeated
// labels, size-1 broadcasts, zero sizes, implicit and explicit outputs,
// and mismatches of every kind.
TEST(EinsumProjections, PlainSubscriptsMatchTheGeneralPath) {
  std::mt19937_64 rng(20261128);
  const auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const std::string alphabet = "abcdAB";
  int errors = 0, matched = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<int64_t> size(alphabet.size());
    for (int64_t& n : size) n = pick(0, 9) == 0 ? 0 : pick(1, 4);
    const int terms = int(pick(1, 4));
    std::string spec;
    std::vector<std::vector<int64_t>> shapes(static_cast<size_t>(terms));
    std::string used;
    for (int t = 0; t < terms; ++t) {
      if (t > 0) spec += ',';
      const int rank = int(pick(0, 4));
      for (int a = 0; a < rank; ++a) {
        const size_t label = size_t(pick(0, int64_t(alphabet.size()) - 1));
        spec += alphabet[label];
        used += alphabet[label];
        // Mostly the label's size; sometimes 1 (a broadcast) or another.
        const int64_t kind = pick(0, 19);
        shapes[size_t(t)].push_back(kind == 0   ? 1
                                    : kind == 1 ? pick(0, 5)
                                                : size[label]);
      }
      if (pick(0, 29) == 0) shapes[size_t(t)].push_back(2);  // Rank error.
    }
    if (pick(0, 29) == 0) shapes.push_back({3});  // Operand count error.
    if (pick(0, 1) == 0) {
      spec += "->";
      std::string out;
      for (char c : used) {
        if (out.find(c) == std::string::npos && pick(0, 2) > 0) out += c;
      }
      std::shuffle(out.begin(), out.end(), rng);
      if (pick(0, 29) == 0) out += 'z';                     // Never an input.
      if (pick(0, 29) == 0 && !out.empty()) out += out[0];  // Repeated.
      spec += out;
    }
    const std::vector<DimsView> views(shapes.begin(), shapes.end());
    std::optional<Projections> want;
    std::string want_error;
    try {
      want = EinsumProjections(ParseEinsumSubscripts(spec), views);
    } catch (const Error& e) {
      want_error = e.what();
    }
    SCOPED_TRACE(spec);
    if (!want) {
      ++errors;
      EXPECT_SK_ERROR(EinsumSpecProjections(spec, views, std::nullopt),
                      ErrorKind::kInvalidArgument, want_error);
      continue;
    }
    ++matched;
    const Projections got = EinsumSpecProjections(spec, views, std::nullopt);
    EXPECT_EQ(Vec(got.product_space), Vec(want->product_space));
    EXPECT_EQ(got.is_reduction, want->is_reduction);
    EXPECT_EQ(Vec(got.result_shape), Vec(want->result_shape));
    EXPECT_EQ(got.result_map, want->result_map);
    ASSERT_EQ(got.operand_shapes.size(), want->operand_shapes.size());
    for (size_t t = 0; t < got.operand_shapes.size(); ++t) {
      EXPECT_EQ(Vec(got.operand_shapes[t]), Vec(want->operand_shapes[t]));
    }
    EXPECT_EQ(got.operand_maps, want->operand_maps);
    EXPECT_EQ(got.initialize_neutral, want->initialize_neutral);
  }
  // Both kinds of case occur often.
  EXPECT_GT(errors, 2000);
  EXPECT_GT(matched, 5000);
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

using ::stridekit::testing::Vec;

// ProjectionBuilder's own checks, which the spec front ends never trigger.
TEST(ProjectionBuilder, RejectsInconsistentEquations) {
  const std::vector<int64_t> result = {2}, operand = {3, 2};
  const std::vector<DimsView> operands = {operand};
  ProjectionBuilder builder(result, operands);
  EXPECT_SK_ERROR(builder.Equate({ProjectionBuilder::kResult, 0}, {0, 0}),
                  ErrorKind::kInvalidArgument,
                  "Conflicting dimensions for the same projection: 2 vs 3");
  EXPECT_SK_ERROR(builder.Pin({0, 0}, AxisIndex::Fixed(3)),
                  ErrorKind::kOutOfRange,
                  "fixed index 3 is out of range for an axis of size 3");
  builder.Equate({ProjectionBuilder::kResult, 0}, {0, 1});
  builder.Pin({ProjectionBuilder::kResult, 0}, AxisIndex::Fixed(0));
  builder.Pin({0, 1}, AxisIndex::Fixed(1));
  EXPECT_SK_ERROR(builder.Build(), ErrorKind::kInvalidArgument,
                  "einsum: conflicting indices for the same axis/projection");
  builder.Pin({0, 1}, AxisIndex::Fixed(0));
  const Projections p = builder.Build();
  EXPECT_EQ(Vec(p.product_space), (std::vector<int64_t>{3}));
  EXPECT_EQ(p.operand_maps[0],
            (AxisMap{AxisIndex::Iterator(0), AxisIndex::Fixed(0)}));
  EXPECT_EQ(p.is_reduction, (LoopFlags{true}));
}

}  // namespace
}  // namespace stridekit
