// Shape inference beyond the einsum golden tables: Pointwise, Compose,
// Transpose, Batch_slice, shapes from specs, the closing pass (reference
// section 5.2 "Pointwise and compose examples" C1-C11) and its errors.
#include "stridekit/shape_inference.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace stridekit {
namespace {

using ::stridekit::testing::Vec;
using I = AxisIndex;
using D = std::vector<int64_t>;

class Inference : public ::testing::Test {
 protected:
  ShapeId Dims3(const char* name, D batch, D input, D output) {
    return inf_.ShapeFromDims(name, batch, input, output);
  }
  ShapeId Param(const char* name, std::array<Row, 3> rows) {
    const ShapeId id = inf_.ShapeFromRows(name, std::move(rows));
    inf_.AddStep({id, TerminalLogic{true}});
    return id;
  }
  // A parameter with no batch axes and unknown input and output rows.
  ShapeId Param(const char* name) {
    return Param(name, {Row{}, Row{{}, inf_.NewRowVar(), {}},
                        Row{{}, inf_.NewRowVar(), {}}});
  }
  ShapeId Binary(ComposeType type, ShapeId a, ShapeId b, const char* name) {
    const ShapeId c = inf_.NewShape(name);
    last_ = inf_.AddStep({c, BroadcastLogic{type, {a, b}, ""}});
    return c;
  }
  ShapeId Unary(TransposeType type, ShapeId a, const char* name) {
    const ShapeId c = inf_.NewShape(name);
    last_ = inf_.AddStep({c, TransposeLogic{type, a, ""}});
    return c;
  }

  ShapeInference inf_;
  StepId last_ = -1;
};

// C1: ({hey} * [2;3]) + [4;5;6].
TEST_F(Inference, ComposeThenPointwiseInfersParameter) {
  const ShapeId hey = Param("hey");
  const ShapeId comp =
      Binary(ComposeType::kCompose, hey, Dims3("l23", {}, {}, {2}), "comp");
  const ShapeId y =
      Binary(ComposeType::kPointwiseBin, comp, Dims3("l456", {}, {}, {3}), "y");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(hey), "1:2->0:3");
  EXPECT_EQ(inf_.ToString(y), "0:3");
}

// C3: (hey * (1 + 1)) - 10 with hey 6|7,8,9->10,11.
TEST_F(Inference, ComposeWithBroadcastScalar) {
  const ShapeId hey = Dims3("hey", {6}, {7, 8, 9}, {10, 11});
  const ShapeId two =
      Binary(ComposeType::kPointwiseBin, Dims3("1", {}, {}, {1}),
             Dims3("1", {}, {}, {1}), "two");
  const ShapeId comp = Binary(ComposeType::kCompose, hey, two, "comp");
  const ShapeId y =
      Binary(ComposeType::kPointwiseBin, comp, Dims3("10", {}, {}, {1}), "y");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(y), "0:6|1:10,2:11");
  // hey's inputs are summed against the broadcast scalar.
  const Projections p = inf_.DeriveProjections(last_ - 1);
  EXPECT_EQ(Vec(p.product_space), (D{6, 10, 11, 7, 8, 9}));
  // The broadcast scalar (1 + 1) is stretched to hey's inputs.
  EXPECT_EQ(inf_.ToString(two), "0:6|1:7,2:8,3:9");
  EXPECT_EQ(p.operand_maps[1], (AxisMap{I::Iterator(0), I::Iterator(3),
                                        I::Iterator(4), I::Iterator(5)}));
  EXPECT_EQ(p.num_reduction_loops(), 3);
}

// C5 and C6.
TEST_F(Inference, UnconstrainedParameterIsAnError) {
  const ShapeId w = Param("w");
  Binary(ComposeType::kCompose, w, Dims3("l", {}, {}, {3}), "y");
  EXPECT_SK_ERROR(inf_.Finish(), ErrorKind::kInvalidArgument,
                  "You forgot to specify the hidden dimension(s) of parameter "
                  "\"w\" (output row): <..>,0:3-><..>");
}

TEST_F(Inference, ParameterInferredThroughPointwise) {
  const ShapeId w = Param("w");
  const ShapeId comp =
      Binary(ComposeType::kCompose, w, Dims3("l345", {}, {}, {3}), "comp");
  Binary(ComposeType::kPointwiseBin, Dims3("l12", {}, {}, {2}), comp, "y");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(w), "1:3->0:2");
  const Projections p = inf_.DeriveProjections(1);  // The Compose step.
  EXPECT_EQ(Vec(p.product_space), (D{2, 3}));
  EXPECT_EQ(p.result_map, (AxisMap{I::Iterator(0)}));
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Iterator(0), I::Iterator(1)}));
  EXPECT_EQ(p.operand_maps[1], (AxisMap{I::Iterator(1)}));
  EXPECT_EQ(p.is_reduction, (LoopFlags{false, true}));
}

// C7, C8: NumPy right alignment per row kind; C10: a plain 1 broadcasts.
TEST_F(Inference, PointwiseBroadcastsPerKind) {
  const ShapeId s1 =
      Binary(ComposeType::kPointwiseBin, Dims3("x", {}, {}, {2, 3}),
             Dims3("y", {}, {}, {3}), "s1");
  const ShapeId s2 =
      Binary(ComposeType::kPointwiseBin, Dims3("x", {5}, {}, {3}),
             Dims3("y", {}, {}, {3}), "s2");
  const ShapeId s3 =
      Binary(ComposeType::kPointwiseBin, Dims3("x", {}, {}, {3, 1}),
             Dims3("y", {}, {}, {3, 4}), "s3");
  // Before closing, the result rows are open with at least these axes.
  EXPECT_EQ(inf_.ToString(s1), "<..>|<..>-><..>,0:2,1:3");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(s1), "0:2,1:3");
  EXPECT_EQ(inf_.ToString(s2), "0:5|1:3");
  EXPECT_EQ(inf_.ToString(s3), "0:3,1:4");
  const Projections p = inf_.DeriveProjections(last_);
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::Iterator(0), I::Fixed(0)}));
  EXPECT_FALSE(p.initialize_neutral);
}

// C9: x 4->3 plus y out [4] fails (no flattening across kinds).
TEST_F(Inference, PointwiseMismatch) {
  EXPECT_SK_ERROR(
      Binary(ComposeType::kPointwiseBin, Dims3("x", {}, {4}, {3}),
             Dims3("y", {}, {}, {4}), "s"),
      ErrorKind::kInvalidArgument,
      "dimension comparison for axis: mismatch (3 vs 4) at axis -1: output "
      "row of \"s\" <..>|<..>,1:4-><..>,0:3 vs output row of \"y\" 0:4 in "
      "Pointwise_bin for "
      "\"s\"");
}

// C11: (r ++ "i=>i0") = (r ++ "j=>0j") gives the identity's shape.
TEST_F(Inference, FixedIndexAxesBroadcast) {
  const ShapeId r = Dims3("r", {}, {}, {3});
  const ShapeId a = inf_.NewShape("a");
  inf_.AddStep({a, TransposeLogic{TransposeType::kPermute, r, "i=>i0"}});
  const ShapeId b = inf_.NewShape("b");
  inf_.AddStep({b, TransposeLogic{TransposeType::kPermute, r, "j=>0j"}});
  const ShapeId s = Binary(ComposeType::kPointwiseBin, a, b, "s");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(s), "0:3,1:3");
}

// Section 5.3: compose errors.
TEST_F(Inference, ComposeErrors) {
  const ShapeId w = inf_.ShapeFromSpec("w", "2,3->..o..,");
  EXPECT_SK_ERROR(
      Binary(ComposeType::kCompose, w, Dims3("x", {}, {}, {5}), "y"),
      ErrorKind::kInvalidArgument,
      "dimension comparison for axis: mismatch (3 vs 5) at axis 1: "
      "input row of \"w\" 0:2,1:3-><..> vs output row of \"x\" 0:5 "
      "in Compose for \"y\"");
  const ShapeId v = inf_.ShapeFromSpec("v", "4->..o..,");
  EXPECT_SK_ERROR(
      Binary(ComposeType::kCompose, v, Dims3("x", {}, {}, {2, 4}), "y"),
      ErrorKind::kInvalidArgument,
      "Too many axes in an operand; maybe using * instead of *.?: input row "
      "of \"v\" 0:4-><..> vs output row of \"x\" 0:2,1:4 in Compose for "
      "\"y\"");
  EXPECT_SK_ERROR(
      inf_.AddStep({v, BroadcastLogic{ComposeType::kCompose, {v}, ""}}),
      ErrorKind::kInvalidArgument, "Compose takes two operands, got 1");
}

TEST_F(Inference, TransposeAndPointwiseUnary) {
  const ShapeId x = Dims3("x", {2}, {3}, {4});
  const ShapeId t = Unary(TransposeType::kTranspose, x, "t");
  const ShapeId u = Unary(TransposeType::kPointwiseUn, x, "u");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(t), "0:2|2:4->1:3");
  EXPECT_EQ(inf_.ToString(u), "0:2|2:3->1:4");
}

TEST_F(Inference, BatchSlice) {
  const ShapeId x = Dims3("x", {5, 2}, {3}, {4});
  const ShapeId s = Unary(TransposeType::kBatchSlice, x, "s");
  EXPECT_EQ(inf_.ToString(s), "0:2|2:3->1:4");
  const Projections p = inf_.DeriveProjections(last_);
  EXPECT_EQ(p.operand_maps[0], (AxisMap{I::SliceIndex(), I::Iterator(0),
                                        I::Iterator(1), I::Iterator(2)}));
  EXPECT_SK_ERROR(
      Unary(TransposeType::kBatchSlice, Dims3("z", {}, {}, {4}), "s"),
      ErrorKind::kInvalidArgument,
      "Number of axes mismatch (at least 1 vs 0): batch row of "
      "\"z\" 0:4 vs batch row of \"s\" <..>|<..>-><..> in "
      "Batch_slice for \"s\"");
}

TEST_F(Inference, ShapeFromSpecSharesLabelsWithinTheShape) {
  const ShapeId x = inf_.ShapeFromSpec("x", "3, ..rho.., 7");
  EXPECT_EQ(inf_.ToString(x), "0:3,<..>,1:7");
  const ShapeId y = inf_.ShapeFromSpec("y", "a a");
  const ShapeId s =
      Binary(ComposeType::kPointwiseBin, y, Dims3("z", {}, {}, {1, 6}), "s");
  inf_.Finish();
  EXPECT_EQ(inf_.ToString(y), "0:6,1:6");
  EXPECT_EQ(inf_.ToString(s), "0:6,1:6");
}

// Section 5.3: row constraints rho <= rho2.[2], rho2 <= rho.[3].
TEST_F(Inference, RankCycle) {
  const int rho = inf_.NewRowVar();
  const int rho2 = inf_.NewRowVar();
  auto output_row = [](int var, D end) {
    Row row{{}, var, {}};
    for (int64_t d : end) row.end.push_back(Dim::Size(d));
    return std::array<Row, 3>{Row{}, Row{}, row};
  };
  inf_.AddStep(
      {inf_.ShapeFromRows("a", output_row(rho, {})),
       TransposeLogic{TransposeType::kPointwiseUn,
                      inf_.ShapeFromRows("b", output_row(rho2, {2})), ""}});
  EXPECT_SK_ERROR(
      {
        inf_.AddStep({inf_.ShapeFromRows("c", output_row(rho2, {})),
                      TransposeLogic{
                          TransposeType::kPointwiseUn,
                          inf_.ShapeFromRows("d", output_row(rho, {3})), ""}});
        inf_.PropagateToFixpoint();
      },
      ErrorKind::kInvalidArgument,
      "Infinite number of axes by rank cycle among row variables (a row grew "
      "beyond 32 axes)");
}

TEST_F(Inference, SelfReference) {
  const int rho = inf_.NewRowVar();
  const ShapeId x =
      inf_.ShapeFromRows("x", {Row{}, Row{}, Row{{}, rho, {Dim::Size(2)}}});
  const ShapeId y = inf_.ShapeFromRows("y", {Row{}, Row{}, Row{{}, rho, {}}});
  EXPECT_SK_ERROR(
      inf_.AddStep(
          {y, TransposeLogic{TransposeType::kPermute, x, "..r.. => ..r.."}}),
      ErrorKind::kInvalidArgument,
      "Infinite number of axes by self-reference: output row of \"y\" <..> vs "
      "output row [<..r..>] of spec result in Permute \"..r.. => ..r..\" for "
      "\"y\"");
}

TEST_F(Inference, UnresolvedAndMisuse) {
  const ShapeId x = inf_.NewShape("x");
  EXPECT_FALSE(inf_.IsResolved(x));
  EXPECT_SK_ERROR(inf_.ToDims(x), ErrorKind::kInvalidArgument,
                  "Not enough shape information: unresolved variable in shape "
                  "\"x\" <..>|<..>-><..>");
  const StepId t = inf_.AddStep({x, TerminalLogic{}});
  EXPECT_SK_ERROR(inf_.DeriveProjections(t), ErrorKind::kInvalidArgument,
                  "derive_projections: a Terminal step has no operands");
  EXPECT_SK_ERROR(inf_.Propagate(7), ErrorKind::kInvalidArgument,
                  "Propagate: unknown step 7");
  EXPECT_SK_ERROR(
      inf_.AddStep({x, TransposeLogic{TransposeType::kTranspose, 9, ""}}),
      ErrorKind::kInvalidArgument, "AddStep: unknown operand shape 9");
  EXPECT_SK_ERROR(inf_.AddStep({9, TerminalLogic{}}),
                  ErrorKind::kInvalidArgument,
                  "AddStep: unknown result shape 9");
  EXPECT_SK_ERROR(inf_.ShapeFromRows("r", {Row{{}, 99, {}}, Row{}, Row{}}),
                  ErrorKind::kInvalidArgument,
                  "ShapeFromRows: unknown row variable 99 in shape \"r\"");
  EXPECT_SK_ERROR(
      inf_.ShapeFromRows("r", {Row{{}, {}, {Dim::Var(99)}}, Row{}, Row{}}),
      ErrorKind::kInvalidArgument,
      "ShapeFromRows: invalid dimension in shape \"r\"");
  inf_.Finish();
  EXPECT_EQ(Vec(inf_.ToDims(x)), D{});
}

// A fixed index needs the axis to be longer than its use site allows.
TEST_F(Inference, FixedIndexAboveItsUseSite) {
  const ShapeId y = inf_.NewShape("y");
  inf_.AddStep({y, TransposeLogic{TransposeType::kPermute,
                                  Dims3("x", {}, {}, {4}), "i => 2"}});
  Binary(ComposeType::kPointwiseBin, y, Dims3("w", {}, {}, {2}), "z");
  EXPECT_SK_ERROR(inf_.Finish(), ErrorKind::kInvalidArgument,
                  "dereferenced at dimension 3, higher than use site 2");
}

TEST_F(Inference, CapturesNeedResolvedVariables) {
  const ShapeId y = inf_.NewShape("y");
  const StepId step =
      inf_.AddStep({y, TransposeLogic{TransposeType::kPermute,
                                      inf_.NewShape("x"), "a..r.. => a"}});
  EXPECT_SK_ERROR(inf_.LabelDims(step, "a"), ErrorKind::kInvalidArgument,
                  "Not enough shape information: unresolved variable a");
  EXPECT_SK_ERROR(inf_.LabelDims(step, "r"), ErrorKind::kInvalidArgument,
                  "Not enough shape information: unresolved variable r");
  EXPECT_SK_ERROR(Dims3("n", {}, {}, {-1}), ErrorKind::kInvalidArgument,
                  "ShapeFromDims: negative dimension -1 at axis 0 of [-1]");
  EXPECT_SK_ERROR(inf_.AddStep({y, TransposeLogic{TransposeType::kPermute, y,
                                                  "9223372036854775807 => i"}}),
                  ErrorKind::kOverflow,
                  "fixed index: 9223372036854775807 + 1 overflows int64");
}

TEST(LabelsEinsumShape, SplitsMemoryDimsByTheSpec) {
  const D x = {2, 4, 3};
  const std::vector<DimsView> boi = {x};
  EXPECT_EQ(Vec(LabelsEinsumShape("b|i->o => o|b->i", boi)), (D{4, 3, 2}));
  EXPECT_EQ(Vec(LabelsEinsumShape("...|i->o => ...|o->i", boi)), (D{2, 3, 4}));
  EXPECT_SK_ERROR(LabelsEinsumShape("...|...->o => o", boi),
                  ErrorKind::kInvalidArgument,
                  "einsum: operand 0: cannot split its 3 axes into batch, "
                  "output and input rows: more than one row of its spec slot "
                  "has a row variable (give its row lengths: EinsumRows, "
                  "sk_einsum_rows)");
  EXPECT_SK_ERROR(
      LabelsEinsumShape("b|i->o => o", std::vector<DimsView>{D{2, 3}}),
      ErrorKind::kInvalidArgument,
      "einsum: operand 0 has 2 axes but its spec slot has 3 "
      "(batch, output, input)");
  EXPECT_SK_ERROR(LabelsEinsumShape("ab...=> a", std::vector<DimsView>{D{2}}),
                  ErrorKind::kInvalidArgument,
                  "einsum: operand 0 has 1 axes but its spec slot has at least "
                  "2 (batch, output, input)");
}

}  // namespace
}  // namespace stridekit
