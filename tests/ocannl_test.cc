// Golden tests from reference/ocannl.md: 5.1 (labels specs to rows, parse
// failures), 5.2 (einsum / permute with concrete shapes, projections) and
// 5.3 (error messages).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stridekit/ocannl_labels.h"
#include "stridekit/shape_inference.h"
#include "test_util.h"

namespace stridekit {
namespace {

using ::stridekit::testing::Vec;
using I = AxisIndex;
using K = AxisKind;
using D = std::vector<int64_t>;

// "batch | input | output" rows of a parsed labels spec.
std::string Rows(const LabelsSpec& s) {
  return StrCat(ToString(s.row(K::kBatch)), " ", ToString(s.row(K::kInput)),
                " ", ToString(s.row(K::kOutput)));
}
std::string Rows(std::string_view spec) { return Rows(ParseAxisLabels(spec)); }

// Table 5.1 (P).
TEST(OcannlLabels, ParsesReferenceTable) {
  EXPECT_EQ(Rows("abc"), "[] [] [a,b,c]");
  EXPECT_FALSE(IsMultichar("abc"));
  EXPECT_EQ(Rows("abc,"), "[] [] [abc]");
  EXPECT_TRUE(IsMultichar("abc,"));
  EXPECT_EQ(Rows("a, b, c"), "[] [] [a,b,c]");
  EXPECT_EQ(Rows("a b c"), "[] [] [a,b,c]");
  EXPECT_EQ(Rows("ab|cd->ef"), "[a,b] [c,d] [e,f]");
  EXPECT_EQ(Rows("|se->h"), "[] [s,e] [h]");
  EXPECT_EQ(Rows("bs|->e"), "[b,s] [] [e]");
  EXPECT_EQ(Rows("...|...->..."), "[<..batch..>] [<..input..>] [<..output..>]");
  EXPECT_EQ(Rows("..v..|...ijk"), "[<..v..>] [] [<..output..> i,j,k]");
  EXPECT_EQ(Rows("j..."), "[] [] [j <..output..>]");
  EXPECT_EQ(Rows("...|j...->i"), "[<..batch..>] [j <..input..>] [i]");
  EXPECT_EQ(Rows("2...|...->..."),
            "[#2 <..batch..>] [<..input..>] [<..output..>]");
  EXPECT_EQ(Rows("i0j"), "[] [] [i,#0,j]");
  EXPECT_EQ(Rows("a1b2"), "[] [] [a,#1,b,#2]");
  EXPECT_EQ(Rows("12ab"), "[] [] [#12,a,b]");
  EXPECT_EQ(Rows("a..r.."), "[] [] [a <..r..>]");
  EXPECT_EQ(Rows("..r..b"), "[] [] [<..r..> b]");
  EXPECT_EQ(Rows("a, ..row1.., b"), "[] [] [a <..row1..> b]");
  EXPECT_EQ(Rows("batch | height, width -> channels,"),
            "[batch] [height,width] [channels]");
  EXPECT_EQ(Rows("_ a _"), "[] [] [_,a,_]");
  EXPECT_EQ(Rows("i->"), "[] [i] []");
  EXPECT_EQ(Rows("->o"), "[] [] [o]");
  EXPECT_EQ(Rows("|"), "[] [] []");
  EXPECT_EQ(Rows("..abc..,"), "[] [] [<..abc..>]");
  EXPECT_EQ(Rows(""), "[] [] []");
}

TEST(OcannlLabels, ParsesEinsumSlots) {
  const EinsumLabelsSpec s = ParseEinsumLabels("b|i->o; b|o->h => b|i->h");
  ASSERT_EQ(s.operands.size(), 2u);
  EXPECT_EQ(Rows(s.operands[0]), "[b] [i] [o]");
  EXPECT_EQ(Rows(s.operands[1]), "[b] [o] [h]");
  EXPECT_EQ(Rows(s.result), "[b] [i] [h]");
  EXPECT_EQ(ParseEinsumLabels("ij;jk;km=>im").operands.size(), 3u);
  EXPECT_EQ(Rows(ParseEinsumLabels("ij=>").result), "[] [] []");
  EXPECT_EQ(Rows(ParseEinsumLabels("ij=>0").result), "[] [] [#0]");
}

// The parse failures listed under table 5.1, each with its position.
TEST(OcannlLabels, ParseFailures) {
  const ErrorKind k = ErrorKind::kInvalidArgument;
  EXPECT_SK_ERROR(ParseAxisLabels("...a..b"), k,
                  "Parse error at column 5 in spec \"...a..b\": a row can have "
                  "at most one row variable");
  EXPECT_SK_ERROR(ParseAxisLabels("..abc.."), k,
                  "Parse error at column 4 in spec \"..abc..\": expected '..' "
                  "to close the row variable 'a'");
  EXPECT_SK_ERROR(ParseAxisLabels("...ab..."), k,
                  "Parse error at column 6 in spec \"...ab...\": a row can "
                  "have at most one row variable");
  EXPECT_SK_ERROR(ParseAxisLabels("..|"), k,
                  "Parse error at column 3 in spec \"..|\": expected a row "
                  "variable name after '..'");
  EXPECT_SK_ERROR(ParseAxisLabels("a|b|c"), k,
                  "Parse error at column 4 in spec \"a|b|c\": unexpected '|': "
                  "a labels spec has at most one '|' and one '->', in that "
                  "order");
  EXPECT_SK_ERROR(ParseAxisLabels("a->b->c"), k,
                  "Parse error at column 5 in spec \"a->b->c\": unexpected "
                  "'->': a labels spec has at most one '|' and one '->', in "
                  "that order");
  EXPECT_SK_ERROR(ParseAxisLabels("a->b|c"), k,
                  "Parse error at column 5 in spec \"a->b|c\": unexpected '|': "
                  "a labels spec has at most one '|' and one '->', in that "
                  "order");
  EXPECT_SK_ERROR(ParseAxisLabels("a b, c"), k,
                  "Parse error at column 3 in spec \"a b, c\": expected ',' "
                  "between axes");
  EXPECT_SK_ERROR(ParseAxisLabels("a,,b"), k,
                  "Parse error at column 3 in spec \"a,,b\": empty axis "
                  "before ','");
  EXPECT_SK_ERROR(ParseAxisLabels(",a"), k,
                  "Parse error at column 1 in spec \",a\": empty axis before "
                  "','");
  EXPECT_SK_ERROR(ParseAxisLabels("ij;jk"), k,
                  "Parse error at column 3 in spec \"ij;jk\": unexpected ';' "
                  "in a labels spec");
  EXPECT_SK_ERROR(ParseEinsumLabels("ij,jk->ik"), k,
                  "Parse error at column 10 in spec \"ij,jk->ik\": expected "
                  "';' or '=>' but found 'end of spec'");
  EXPECT_SK_ERROR(ParseEinsumLabels("ij;jk"), k,
                  "Parse error at column 6 in spec \"ij;jk\": expected ';' or "
                  "'=>' but found 'end of spec'");
  EXPECT_SK_ERROR(ParseEinsumLabels("ij;jk=>ik=>i"), k,
                  "Parse error at column 10 in spec \"ij;jk=>ik=>i\": "
                  "unexpected '=>' after the result spec");
  EXPECT_SK_ERROR(ParseAxisLabels("a.b"), k,
                  "Lexer error: Unexpected character in single-char mode: . "
                  "at column 2 in spec \"a.b\"");
  EXPECT_SK_ERROR(ParseAxisLabels("a\xc3\xa9"), k,
                  "Lexer error: Unexpected character in single-char mode: "
                  "\xc3\xa9 at column 2 in spec \"a\xc3\xa9\"");
  EXPECT_SK_ERROR(ParseAxisLabels("a,-b"), k,
                  "Lexer error: Unexpected character in multichar mode: - at "
                  "column 3 in spec \"a,-b\"");
  EXPECT_SK_ERROR(ParseAxisLabels("a&b"), k,
                  "Lexer error: '&' at column 2 is reserved in spec \"a&b\"");
  EXPECT_SK_ERROR(ParseAxisLabels("99999999999999999999"), k,
                  "Lexer error: integer at column 1 overflows int64 in spec: "
                  "\"99999999999999999999\"");
  const ErrorKind u = ErrorKind::kUnsupported;
  EXPECT_SK_ERROR(ParseAxisLabels("2*i+1"), u,
                  "Unsupported axis syntax '*' at column 2 in spec \"2*i+1\": "
                  "affine, convolution and concatenation axes are not "
                  "supported");
  EXPECT_SK_ERROR(ParseAxisLabels("o<+k"), u,
                  "Unsupported axis syntax '<' at column 2 in spec \"o<+k\": "
                  "affine, convolution and concatenation axes are not "
                  "supported");
  EXPECT_SK_ERROR(ParseAxisLabels("a^b^c"), u,
                  "Unsupported axis syntax '^' at column 2 in spec \"a^b^c\": "
                  "affine, convolution and concatenation axes are not "
                  "supported");
}

// Section 5.3: a name used as a label and as a row variable.
TEST(OcannlLabels, NameClash) {
  EXPECT_SK_ERROR(ParseEinsumLabels("..d.., d; d, e => ..d.., e"),
                  ErrorKind::kInvalidArgument,
                  "Name 'd' is used as both a dimension variable and a row "
                  "variable in spec: ..d.., d; d, e => ..d.., e");
  EXPECT_SK_ERROR(ParseEinsumLabels("..v.., v => v, ..v.."),
                  ErrorKind::kInvalidArgument,
                  "Name 'v' is used as both a dimension variable and a row "
                  "variable in spec: ..v.., v => v, ..v..");
}

struct Rows3 {
  D batch, input, output;
};

// Runs `x ++ spec` (one operand) or `a +* spec b` and prints the result.
class Golden : public ::testing::Test {
 protected:
  ShapeId Operand(const Rows3& r) {
    return inference_.ShapeFromDims(StrCat("x", next_++), r.batch, r.input,
                                    r.output);
  }
  std::string Permute(std::string_view spec, const Rows3& x) {
    const ShapeId operand = Operand(x);
    result_ = inference_.NewShape("y");
    step_ = inference_.AddStep(
        {result_,
         TransposeLogic{TransposeType::kPermute, operand, std::string(spec)}});
    inference_.Finish();
    return inference_.ToString(result_);
  }
  std::string Einsum(std::string_view spec, const std::vector<Rows3>& xs) {
    std::vector<ShapeId> operands;
    for (const Rows3& x : xs) operands.push_back(Operand(x));
    const ShapeId result = inference_.NewShape("y");
    step_ = inference_.AddStep(
        {result,
         BroadcastLogic{ComposeType::kEinsum, operands, std::string(spec)}});
    inference_.Finish();
    return inference_.ToString(result);
  }

  ShapeInference inference_;
  ShapeId result_ = -1;
  StepId step_ = -1;
  int next_ = 0;
};

TEST_F(Golden, Table52Permute) {
  EXPECT_EQ(Permute("b|i->o => o|b->i", {{2}, {3}, {4}}), "0:4|2:2->1:3");
  EXPECT_EQ(Permute("ab|cd->ef => cf|ae->db", {{2, 3}, {4, 5}, {6, 7}}),
            "0:4,1:7|4:2,5:6->2:5,3:3");
  EXPECT_EQ(Permute("ab|cd->ef => c|a->d", {{2, 3}, {4, 5}, {6, 7}}),
            "0:4|2:2->1:5");
  EXPECT_EQ(Permute("b|i->o => b|i", {{2}, {3}, {4}}), "0:2|1:3");
  EXPECT_EQ(Permute("...|i->o => ...|o->i", {{2}, {3}, {4}}), "0:2|2:4->1:3");
  EXPECT_EQ(Permute("b|...->o => o|...->b", {{2}, {3}, {4}}), "0:4|2:3->1:2");
  EXPECT_EQ(
      Permute("...b|...i->...o => ...i|...o->...b", {{2, 3}, {4, 5}, {6, 7}}),
      "0:2,1:5|4:4,5:7->2:6,3:3");
  EXPECT_EQ(Permute("...b|...i->...o => i|o->b", {{2, 3}, {4, 5}, {6, 7}}),
            "0:5|2:7->1:3");
  EXPECT_EQ(Permute("...|...->...o => o", {{2}, {3}, {4}}), "0:4");
  EXPECT_EQ(Permute("i->...o => ...io", {{}, {2}, {3, 4}}), "0:3,1:2,2:4");
  EXPECT_EQ(Permute("...|1->... => ...|...", {{2}, {3}, {4}}), "0:2|1:4");
  EXPECT_EQ(Permute("...|...->... => ...|...->0", {{2}, {3}, {4}}),
            "0:2|2:3->1:1");
  EXPECT_EQ(Permute("...|...->... => 0", {{}, {2}, {3}}), "0:1");
  EXPECT_EQ(Permute("i->j => i0j", {{}, {2}, {3}}), "0:2,1:1,2:3");
  EXPECT_EQ(Permute("ii => i", {{}, {}, {3, 3}}), "0:3");
  EXPECT_EQ(Permute("i=>ii", {{}, {}, {5}}), "0:5,1:5");
}

TEST_F(Golden, Table52Einsum) {
  EXPECT_EQ(Einsum("i; j => i->j", {{{}, {}, {2}}, {{}, {}, {3}}}), "1:2->0:3");
  EXPECT_EQ(
      Einsum("i|j->k; l|m->n => il|jm->kn", {{{2}, {3}, {4}}, {{5}, {6}, {7}}}),
      "0:2,1:5|4:3,5:6->2:4,3:7");
  EXPECT_EQ(
      Einsum("b|i->o; b|i->o => b|i->o", {{{2}, {3}, {4}}, {{2}, {3}, {4}}}),
      "0:2|2:3->1:4");
  EXPECT_EQ(
      Einsum("b|h->o; b|i->h => b|i->o", {{{2}, {4}, {5}}, {{2}, {3}, {4}}}),
      "0:2|2:3->1:5");
  EXPECT_EQ(
      Einsum("a|i->h; b|h->o => ab|i->o", {{{2}, {3}, {4}}, {{2}, {4}, {5}}}),
      "0:2,1:2|3:3->2:5");
  EXPECT_EQ(
      Einsum("b|i->h; b|h->o => i->o", {{{2}, {3}, {4}}, {{2}, {4}, {5}}}),
      "1:3->0:5");
  EXPECT_EQ(Einsum("...|i->...; ...|...->i => ...|i",
                   {{{3}, {4}, {2}}, {{3}, {1}, {4}}}),
            "0:3|1:4");
  EXPECT_EQ(Einsum("i->...;j->... => ...ij", {{{}, {2}, {3}}, {{}, {4}, {3}}}),
            "0:3,1:2,2:4");
  EXPECT_EQ(Einsum("...|i->1; ...|j...->i => ...|ij",
                   {{{3}, {4}, {2}}, {{3}, {2, 3}, {4}}}),
            "0:3|1:4,2:2");
  EXPECT_EQ(Einsum("i->1; ij...->0 => ...->ji",
                   {{{}, {2}, {2}}, {{}, {2, 3, 4}, {2}}}),
            "2:4->0:3,1:2");
  EXPECT_EQ(Einsum("ij;jk;km=>im",
                   {{{}, {}, {2, 2}}, {{}, {}, {2, 2}}, {{}, {}, {2, 2}}}),
            "0:2,1:2");
  EXPECT_EQ(Einsum("ij;ij;ij=>i",
                   {{{}, {}, {2, 3}}, {{}, {}, {2, 3}}, {{}, {}, {2, 3}}}),
            "0:2");
  EXPECT_EQ(Einsum("... s | h d; ... t | h d => ... s | t -> h",
                   {{{2, 5}, {}, {3, 4}}, {{2, 6}, {}, {3, 4}}}),
            "0:2,1:5|3:6->2:3");
}

// Captured variables (rows 25, 26 of table 5.2).
TEST_F(Golden, Table52Captures) {
  EXPECT_EQ(Einsum("ab;bc=>ac", {{{}, {}, {2, 3}}, {{}, {}, {3, 4}}}),
            "0:2,1:4");
  EXPECT_EQ(Vec(inference_.LabelDims(step_, "a")), D{2});
  EXPECT_EQ(Vec(inference_.LabelDims(step_, "b")), D{3});
  EXPECT_EQ(Vec(inference_.LabelDims(step_, "c")), D{4});
  EXPECT_SK_ERROR(inference_.LabelDims(step_, "x"), ErrorKind::kInvalidArgument,
                  "Variable x not found in environments for spec: ab;bc=>ac");
  EXPECT_EQ(
      Einsum("a..r..;..r..b=>ab", {{{}, {}, {2, 3, 4}}, {{}, {}, {3, 4, 5}}}),
      "0:2,1:5");
  EXPECT_EQ(Vec(inference_.LabelDims(step_, "r")), (D{3, 4}));
  EXPECT_EQ(Einsum("a, ..row1.., b; ..row2.., c => a, ..row1.., c",
                   {{{}, {}, {2, 3, 4}}, {{}, {}, {3, 5}}}),
            "0:2,1:3,2:5");
}

TEST_F(Golden, ProjectionsOfMatmul) {
  Einsum("ij;jk=>ik", {{{}, {}, {2, 3}}, {{}, {}, {3, 4}}});
  const Projections p = inference_.DeriveProjections(step_);
  EXPECT_EQ(Vec(p.product_space), (D{2, 4, 3}));
  EXPECT_EQ(p.result_map, (AxisMap{I::Iterator(0), I::Iterator(1)}));
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Iterator(0), I::Iterator(2)}));
  EXPECT_EQ(p.operand_maps[1], (AxisMap{I::Iterator(2), I::Iterator(1)}));
  EXPECT_EQ(p.is_reduction, (LoopFlags{false, false, true}));
  EXPECT_TRUE(p.initialize_neutral);
}

TEST_F(Golden, ProjectionsOfDiagonals) {
  Permute("ii => i", {{}, {}, {3, 3}});
  Projections p = inference_.DeriveProjections(step_);
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Iterator(0), I::Iterator(0)}));
  EXPECT_FALSE(p.initialize_neutral);
  Permute("i=>ii", {{}, {}, {5}});
  p = inference_.DeriveProjections(step_);
  EXPECT_EQ(p.result_map, (AxisMap{I::Iterator(0), I::Iterator(0)}));
  EXPECT_TRUE(p.initialize_neutral);  // Not surjective.
}

TEST_F(Golden, ProjectionsOfFixedIndices) {
  Permute("i=>i0", {{}, {}, {3}});
  EXPECT_EQ(inference_.ToString(result_), "0:3,1:1");
  Projections p = inference_.DeriveProjections(step_);
  EXPECT_EQ(p.result_map, (AxisMap{I::Iterator(0), I::Fixed(0)}));
  EXPECT_FALSE(p.initialize_neutral);
  // Row 19: x[:, :, 1] in memory order batch, output, input.
  Permute("...|1->... => ...|...", {{2}, {3}, {4}});
  p = inference_.DeriveProjections(step_);
  EXPECT_EQ(p.operand_maps[0],
            (AxisMap{I::Iterator(0), I::Iterator(1), I::Fixed(1)}));
  // Row 2 "=> ...2": closes to 3, written only at index 2.
  Permute("i => 2", {{}, {}, {4}});
  EXPECT_EQ(inference_.ToString(result_), "0:3");
  p = inference_.DeriveProjections(step_);
  EXPECT_EQ(p.result_map, (AxisMap{I::Fixed(2)}));
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Iterator(0)}));
  EXPECT_EQ(p.is_reduction, (LoopFlags{true}));
  EXPECT_TRUE(p.initialize_neutral);
}

TEST_F(Golden, PlaceholdersAreIndependent) {
  EXPECT_EQ(Permute("_ a _ => a", {{}, {}, {2, 3, 4}}), "0:3");
  const Projections p = inference_.DeriveProjections(step_);
  EXPECT_EQ(Vec(p.product_space), (D{3, 2, 4}));
  EXPECT_EQ(p.operand_maps[0],
            (AxisMap{I::Iterator(1), I::Iterator(0), I::Iterator(2)}));
}

// Section 5.3.
TEST_F(Golden, Errors) {
  const ErrorKind k = ErrorKind::kInvalidArgument;
  EXPECT_SK_ERROR(
      Einsum("ij;jk=>im",
             {{{}, {}, {2, 2}}, {{}, {}, {2, 2}}, {{}, {}, {2, 2}}}),
      k, "Invalid einsum spec (expected three arguments): ij;jk=>im");
  EXPECT_SK_ERROR(Einsum("ij=>i", {{{}, {}, {2, 2}}, {{}, {}, {2, 2}}}), k,
                  "Invalid einsum spec (expected two arguments): ij=>i");
  EXPECT_SK_ERROR(Permute("i;j=>i", {{}, {}, {2}}), k,
                  "Invalid permutation spec (expected one argument): i;j=>i");
  EXPECT_SK_ERROR(
      Einsum("ij;jk=>ik", {{{}, {}, {2, 2}}, {{}, {}, {3, 4}}}), k,
      "solved dimensions for axis: mismatch (3 vs 2) at axis 0: output row of "
      "\"x7\" 0:3,1:4 vs output row [j,k] of spec slot 2 in Einsum "
      "\"ij;jk=>ik\" for \"y\"");
  EXPECT_SK_ERROR(
      Einsum("ij;jk=>ik", {{{}, {}, {2, 1}}, {{}, {}, {3, 4}}}), k,
      "solved dimensions for axis: mismatch (3 vs 1) at axis 0: output row of "
      "\"x9\" 0:3,1:4 vs output row [j,k] of spec slot 2 in Einsum "
      "\"ij;jk=>ik\" for \"y\"");
  EXPECT_SK_ERROR(Permute("ijk => kji", {{2}, {3, 4, 5}, {}}), k,
                  "Mismatching number of axes (1 vs 0): batch row of \"x10\" "
                  "0:2|1:3,2:4,3:5-> vs batch row [] of spec slot 1 in Permute "
                  "\"ijk => kji\" for \"y\"");
  EXPECT_SK_ERROR(
      Permute("...|3->... => ...|...", {{2}, {3}, {4}}), k,
      "At_least_dim constraint failed, expected 4 at axis 0: input "
      "row of \"x11\" 0:2|2:3->1:4 vs input row [#3] of spec slot 1 "
      "in Permute \"...|3->... => ...|...\" for \"y\"");
  EXPECT_SK_ERROR(Permute("ab => ab", {{}, {}, {2}}), k,
                  "Mismatching number of axes (1 vs 2): output row of \"x12\" "
                  "0:2 vs output row [a,b] of spec slot 1 in Permute \"ab => "
                  "ab\" for \"y\"");
  EXPECT_SK_ERROR(Permute("a..r..b => ab", {{}, {}, {2}}), k,
                  "Number of axes mismatch (at least 2 vs 1): output row of "
                  "\"x13\" 0:2 vs output row [a <..r..> b] of spec slot 1 in "
                  "Permute \"a..r..b => ab\" for \"y\"");
}

}  // namespace
}  // namespace stridekit
