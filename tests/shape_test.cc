// Golden vectors for the shape core: reference/nx.md section 9 (Shape, 1-50),
// GoMLX strides, NumSharp coordinates and InferNegativeCoordinates, with the
// documented departures where the issue or NumPy overrides a seed quirk.
#include "stridekit/shape.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "test_util.h"

namespace stridekit {
namespace {

using testing::Vec;
using V = std::vector<int64_t>;
constexpr auto kInvalid = ErrorKind::kInvalidArgument;
constexpr auto kRange = ErrorKind::kOutOfRange;
constexpr auto kOverflow = ErrorKind::kOverflow;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(Numel, Golden) {
  EXPECT_EQ(Numel(V{}), 1);      // nx 11
  EXPECT_EQ(Numel(V{2, 0}), 0);  // nx 12
  EXPECT_EQ(Numel(V{2, 3, 4}), 24);
}

TEST(Numel, Errors) {
  EXPECT_SK_ERROR(Numel(V{3, -2}), kInvalid,
                  "numel: negative dimension -2 at axis 1 of [3,-2]");
  EXPECT_SK_ERROR(Numel(V{kMax, 2}), kOverflow,
                  "numel: the element count of shape [9223372036854775807,2] "
                  "overflows int64");
  EXPECT_SK_ERROR(Numel(V(33, 1)), kInvalid,
                  "numel: rank 33 exceeds the maximum rank 32");
}

TEST(CContiguousStrides, NxCanonicalRule) {
  EXPECT_EQ(Vec(CContiguousStrides(V{})), V{});                        // 1
  EXPECT_EQ(Vec(CContiguousStrides(V{2, 3, 4})), (V{12, 4, 1}));       // 2
  EXPECT_EQ(Vec(CContiguousStrides(V{2, 1, 3})), (V{3, 3, 1}));        // 3
  EXPECT_EQ(Vec(CContiguousStrides(V{1, 1})), (V{1, 1}));              // 4
  EXPECT_EQ(Vec(CContiguousStrides(V{0})), (V{0}));                    // 5
  EXPECT_EQ(Vec(CContiguousStrides(V{2, 0, 3})), (V{0, 0, 1}));        // 6
  EXPECT_EQ(Vec(CContiguousStrides(V{0, 2, 3})), (V{0, 3, 1}));        // 7
  EXPECT_EQ(Vec(CContiguousStrides(V{3, 0})), (V{0, 0}));              // 8
  EXPECT_EQ(Vec(CContiguousStrides(V{2, 3, 0})), (V{0, 0, 0}));        // 9
  EXPECT_EQ(Vec(CContiguousStrides(V{2, 0, 0, 3})), (V{0, 0, 0, 1}));  // 10
  // GoMLX Strides vectors (non-empty shapes agree).
  EXPECT_EQ(Vec(CContiguousStrides(V{5})), (V{1}));
  EXPECT_EQ(Vec(CContiguousStrides(V{3, 1, 2})), (V{2, 2, 1}));
}

TEST(CContiguousStrides, OverflowAndNegative) {
  EXPECT_SK_ERROR(CContiguousStrides(V{2, 1LL << 62, 4}), kOverflow,
                  "c_contiguous_strides: the strides of "
                  "[2,4611686018427387904,4] overflow int64");
  // A zero-size dim keeps every stride to its left at 0, so nothing overflows.
  EXPECT_EQ(Vec(CContiguousStrides(V{kMax, 0})), (V{0, 0}));
  EXPECT_SK_ERROR(CContiguousStrides(V{2, -1}), kInvalid,
                  "c_contiguous_strides: negative dimension -1 at axis 1 of "
                  "[2,-1]");
}

TEST(FContiguousStrides, Mirror) {
  EXPECT_EQ(Vec(FContiguousStrides(V{2, 3, 4})), (V{1, 2, 6}));  // NumSharp F
  EXPECT_EQ(Vec(FContiguousStrides(V{3, 4})), (V{1, 3}));
  EXPECT_EQ(Vec(FContiguousStrides(V{3, 0, 2})), (V{1, 0, 0}));
  EXPECT_EQ(Vec(FContiguousStrides(V{})), V{});
}

TEST(RavelIndex, Golden) {
  EXPECT_EQ(RavelIndex(V{1, 2}, V{3, 1}), 5);  // 13
  EXPECT_SK_ERROR(RavelIndex(V{1}, V{3, 1}), kInvalid,
                  "ravel_index: indices[1] vs strides[2], dimensions must "
                  "match");  // 14
  EXPECT_EQ(RavelIndex(V{1, 2}, V{-3, 0}), -3);
  EXPECT_SK_ERROR(RavelIndex(V{2}, V{kMax}), kOverflow,
                  "ravel_index: 2 * 9223372036854775807 overflows int64");
  EXPECT_SK_ERROR(RavelIndex(V{1, 1}, V{kMax, 1}), kOverflow,
                  "ravel_index: 9223372036854775807 + 1 overflows int64");
}

TEST(UnravelIndex, Golden) {
  EXPECT_EQ(Vec(UnravelIndex(0, V{})), V{});  // 15
  EXPECT_SK_ERROR(UnravelIndex(1, V{}), kRange,
                  "unravel_index: k=1 out of bounds for scalar");  // 16
  EXPECT_EQ(Vec(UnravelIndex(0, V{2, 0, 3})), (V{0, 0, 0}));       // 17
  EXPECT_SK_ERROR(UnravelIndex(1, V{2, 0, 3}), kRange,
                  "unravel_index: k=1 out of bounds for zero-size shape "
                  "[2,0,3]");                                  // 18
  EXPECT_EQ(Vec(UnravelIndex(5, V{2, 3})), (V{1, 2}));         // 19
  EXPECT_EQ(Vec(UnravelIndex(23, V{2, 3, 4})), (V{1, 2, 3}));  // 20
  EXPECT_EQ(Vec(UnravelIndex(7, V{1, 4, 2})), (V{0, 3, 1}));   // 21
  EXPECT_SK_ERROR(UnravelIndex(6, V{2, 3}), kRange,
                  "unravel_index: k=6 out of bounds for shape [2,3] (size 6)");
  EXPECT_SK_ERROR(UnravelIndex(-1, V{2, 3}), kRange,
                  "unravel_index: k=-1 out of bounds for shape [2,3] (size "
                  "6)");  // 23
  EXPECT_SK_ERROR(UnravelIndex(0, V{2, -3}), kInvalid,
                  "unravel_index: negative dimension -3 at axis 1 of [2,-3]");
  EXPECT_EQ(Vec(UnravelIndex(kMax - 1, V{kMax})), (V{kMax - 1}));
}

TEST(UnravelIndexInto, WritesAndChecksLength) {
  int64_t dst[3] = {9, 9, 9};
  UnravelIndexInto(23, V{2, 3, 4}, dst);
  EXPECT_EQ(V(dst, dst + 3), (V{1, 2, 3}));
  EXPECT_SK_ERROR(UnravelIndexInto(6, V{2, 3}, std::span<int64_t>(dst, 2)),
                  kRange,
                  "unravel_index_into: k=6 out of bounds for shape [2,3] "
                  "(size 6)");
  EXPECT_SK_ERROR(UnravelIndexInto(0, V{2, 3}, dst), kInvalid,
                  "unravel_index_into: destination has length 3 but the shape "
                  "[2,3] has rank 2");
  UnravelIndexInto(0, V{}, std::span<int64_t>(dst, 0));  // Writes nothing.
  EXPECT_EQ(dst[0], 1);
}

TEST(CoordinatesOf, NumPySemantics) {
  // NumSharp GetCoordinates by dims (its stride-path bug is not copied).
  EXPECT_EQ(Vec(CoordinatesOf(2, V{1, 3})), (V{0, 2}));
  EXPECT_EQ(Vec(CoordinatesOf(11, V{4, 3, 2})), (V{1, 2, 1}));
  // Unlike Nx's unravel_index, no index exists in a zero-size shape.
  EXPECT_SK_ERROR(CoordinatesOf(0, V{2, 0}), kRange,
                  "coordinates: k=0 out of bounds for zero-size shape [2,0]");
}

TEST(ResolveNegOne, Golden) {
  EXPECT_EQ(Vec(ResolveNegOne(V{2, 3, 4}, V{2, -1})), (V{2, 12}));  // 24
  EXPECT_EQ(Vec(ResolveNegOne(V{2, 3, 4}, V{-1, 6})), (V{4, 6}));   // 25
  EXPECT_EQ(Vec(ResolveNegOne(V{}, V{-1})), (V{1}));                // 26
  EXPECT_SK_ERROR(ResolveNegOne(V{2, 3}, V{4, -1}), kInvalid,
                  "reshape: cannot reshape [2,3] (6 elements) into [4,-1]: -1 "
                  "cannot be inferred");  // 27
  EXPECT_SK_ERROR(ResolveNegOne(V{2, 3}, V{-1, -1}), kInvalid,
                  "reshape: multiple -1 dimensions in [-1,-1], can only infer "
                  "one");                                       // 28
  EXPECT_EQ(Vec(ResolveNegOne(V{0, 3}, V{-1, 3})), (V{0, 3}));  // 29
  // 30 departs from Nx: NumPy refuses to infer -1 next to a 0 dim.
  EXPECT_SK_ERROR(ResolveNegOne(V{0, 3}, V{0, -1}), kInvalid,
                  "reshape: cannot reshape [0,3] (0 elements) into [0,-1]: -1 "
                  "cannot be inferred");
  EXPECT_SK_ERROR(ResolveNegOne(V{2, 3}, V{0, -1}), kInvalid,
                  "reshape: cannot reshape [2,3] (6 elements) into [0,-1]: -1 "
                  "cannot be inferred");  // 31
  // 32 departs from Nx: the element count is always checked (NumPy).
  EXPECT_SK_ERROR(ResolveNegOne(V{2, 3}, V{5}), kInvalid,
                  "reshape: cannot reshape [2,3] to [5] (6 vs 5 elements)");
  // 33 departs from Nx: dims below -1 are rejected (issue 2).
  EXPECT_SK_ERROR(ResolveNegOne(V{6}, V{-1, -2}), kInvalid,
                  "reshape: negative dimension -2 at axis 1 of [-1,-2] (only "
                  "-1 may be inferred)");
  EXPECT_EQ(Vec(ResolveNegOne(V{2, 3}, V{3, 2})), (V{3, 2}));
  EXPECT_EQ(Vec(ResolveNegOne(V{0, 3}, V{2, -1})), (V{2, 0}));
  EXPECT_SK_ERROR(ResolveNegOne(V{2}, V{kMax, 4}), kOverflow,
                  "reshape: the element count of [9223372036854775807,4] "
                  "overflows int64");
  EXPECT_EQ(Vec(ResolveNegOne(V{0}, V{kMax, 4, 0})), (V{kMax, 4, 0}));
}

TEST(Broadcast, Golden) {
  EXPECT_EQ(Vec(Broadcast(V{3, 1}, V{1, 4})), (V{3, 4}));        // 34
  EXPECT_EQ(Vec(Broadcast(V{5, 1, 4}, V{3, 1})), (V{5, 3, 4}));  // 35
  EXPECT_EQ(Vec(Broadcast(V{}, V{2, 3})), (V{2, 3}));            // 36
  EXPECT_EQ(Vec(Broadcast(V{1}, V{0})), (V{0}));                 // 37
  EXPECT_EQ(Vec(Broadcast(V{2, 1}, V{0})), (V{2, 0}));           // 38
  EXPECT_SK_ERROR(Broadcast(V{0}, V{3}), kInvalid,
                  "broadcast: cannot broadcast [0] with [3] (argument 1, dim "
                  "0: 0 vs 3)");  // 39
  EXPECT_SK_ERROR(Broadcast(V{2, 3}, V{4}), kInvalid,
                  "broadcast: cannot broadcast [2,3] with [4] (argument 1, dim "
                  "1: 3 vs 4)");  // 40
  EXPECT_SK_ERROR(Broadcast(V{2}, V{3}), kInvalid,
                  "broadcast: cannot broadcast [2] with [3] (argument 1, dim "
                  "0: 2 vs 3)");  // 41
  // NumSharp ResolveReturnShape vectors.
  EXPECT_EQ(Vec(Broadcast(V{256, 256, 3}, V{3})), (V{256, 256, 3}));
  EXPECT_EQ(Vec(Broadcast(V{15, 3, 5}, V{3, 1})), (V{15, 3, 5}));
  EXPECT_EQ(Vec(Broadcast(V{1}, V{})), (V{1}));  // NumSharp's rank-loss bug.
  EXPECT_SK_ERROR(Broadcast(V{1LL << 62, 1}, V{1, 2}), kOverflow,
                  "broadcast: the element count of the result "
                  "[4611686018427387904,2] overflows int64");
}

TEST(BroadcastShapes, NShapesAndBroadcastable) {
  const V a{8, 1, 6, 1}, b{7, 1, 5}, c{1};
  const DimsView abc[] = {a, b, c};
  EXPECT_EQ(Vec(BroadcastShapes(abc)), (V{8, 7, 6, 5}));
  EXPECT_EQ(Vec(BroadcastShapes({})), V{});
  auto ok = [](V x, V y) {
    const DimsView xy[] = {x, y};
    return AreBroadcastable(xy);
  };
  EXPECT_TRUE(ok({1, 3}, {3, 1}));
  EXPECT_TRUE(ok({5, 4}, {1}));
  EXPECT_TRUE(ok({5, 4}, {4}));
  EXPECT_FALSE(ok({3}, {4}));
  EXPECT_FALSE(ok({2, 1}, {8, 4, 3}));
  EXPECT_FALSE(ok({1, 3, 4}, {2, 3, 3}));
  const V d{2, 3}, e{2, 1}, f{4, 3};
  const DimsView def[] = {d, e, f};
  EXPECT_SK_ERROR(BroadcastShapes(def), kInvalid,
                  "broadcast: cannot broadcast [2,3] with [4,3] (argument 2, "
                  "dim 0: 2 vs 4)");
}

TEST(BroadcastIndex, Golden) {
  EXPECT_EQ(Vec(BroadcastIndex(V{1, 2}, V{1, 3})), (V{0, 2}));        // 42
  EXPECT_EQ(Vec(BroadcastIndex(V{4, 1, 2}, V{3})), (V{2}));           // 43
  EXPECT_EQ(Vec(BroadcastIndex(V{1, 2}, V{5, 1, 3})), (V{0, 0, 2}));  // 44
  int64_t dst[3] = {9, 9, 9};
  BroadcastIndexInto(V{1, 2}, V{5, 1, 3}, dst);  // 45
  EXPECT_EQ(V(dst, dst + 3), (V{9, 0, 2}));
  EXPECT_SK_ERROR(BroadcastIndex(V{1, 7}, V{1, 3}), kRange,
                  "broadcast_index: target index 7 at axis 1 is out of bounds "
                  "for source dim 1 of size 3");
}

TEST(ReduceOutputShape, Golden) {
  EXPECT_EQ(Vec(ReduceOutputShape(V{2, 3, 4}, V{1}, false)), (V{2, 4}));  // 46
  EXPECT_EQ(Vec(ReduceOutputShape(V{2, 3, 4}, V{0, 2}, true)),
            (V{1, 3, 1}));  // 47
  // 48 departs from Nx (which ignores -1): NumPy normalises negative axes.
  EXPECT_EQ(Vec(ReduceOutputShape(V{2, 3, 4}, V{-1}, false)), (V{2, 3}));
  EXPECT_EQ(Vec(ReduceOutputShape(V{2, 3, 4}, V{}, false)), (V{2, 3, 4}));
  EXPECT_EQ(Vec(ReduceOutputShape(V{}, V{}, true)), V{});
  EXPECT_SK_ERROR(ReduceOutputShape(V{2, 3}, V{2}, false), kRange,
                  "reduce: axis 2 is out of bounds for array of dimension 2");
  EXPECT_SK_ERROR(ReduceOutputShape(V{2, 3}, V{1, -1}, false), kInvalid,
                  "reduce: duplicate value in 'axis': [1,-1]");
}

TEST(NormalizeIndex, NumSharpInferNegativeCoordinates) {
  V coords{-1, 2};
  NormalizeIndex(V{9, 3}, coords);
  EXPECT_EQ(coords, (V{8, 2}));
  V too_many{0, 0, 0};
  EXPECT_SK_ERROR(NormalizeIndex(V{2, 3}, too_many), kRange,
                  "index: too many indices for array: array is 2-dimensional, "
                  "but 3 were indexed");
  V out{0, 3};
  EXPECT_SK_ERROR(NormalizeIndex(V{2, 3}, out), kRange,
                  "index: index 3 is out of bounds for axis 1 with size 3");
  V low{-3};
  EXPECT_SK_ERROR(NormalizeIndex(V{2}, low), kRange,
                  "index: index -3 is out of bounds for axis 0 with size 2");
  V zero{0};
  EXPECT_SK_ERROR(NormalizeIndex(V{0}, zero), kRange,
                  "index: index 0 is out of bounds for axis 0 with size 0");
  V extreme{kMin};
  EXPECT_SK_ERROR(NormalizeIndex(V{kMax}, extreme), kRange,
                  "index: index -9223372036854775808 is out of bounds for "
                  "axis 0 with size 9223372036854775807");
}

TEST(NormalizeAxis, NumPyWording) {
  EXPECT_EQ(NormalizeAxis(-1, 3, "op"), 2);
  EXPECT_EQ(NormalizeAxis(0, 1, "op"), 0);
  EXPECT_SK_ERROR(NormalizeAxis(3, 3, "sum"), kRange,
                  "sum: axis 3 is out of bounds for array of dimension 3");
  EXPECT_SK_ERROR(NormalizeAxis(kMin, 3, "sum"), kRange,
                  "sum: axis -9223372036854775808 is out of bounds for array "
                  "of dimension 3");
}

TEST(ToString, GoldenAndRoundTrip) {
  EXPECT_EQ(ToString(V{2, 3, 4}), "[2,3,4]");  // 49
  EXPECT_EQ(ToString(V{}), "[]");              // 50
  for (const V& s : {V{}, V{0}, V{2, 3, 4}, V{kMax, 1}}) {
    EXPECT_EQ(Vec(ParseShape(ToString(s))), s);
  }
  EXPECT_EQ(Vec(ParseShape(" [ 2 , 3,4 ] ")), (V{2, 3, 4}));
}

TEST(ParseShape, Errors) {
  EXPECT_SK_ERROR(ParseShape("2,3"), kInvalid,
                  "parse_shape: expected '[' at position 0 in \"2,3\"");
  EXPECT_SK_ERROR(ParseShape("[2,-3]"), kInvalid,
                  "parse_shape: expected a non-negative dimension at position "
                  "3 in \"[2,-3]\"");
  EXPECT_SK_ERROR(ParseShape("[2,]"), kInvalid,
                  "parse_shape: expected a non-negative dimension at position "
                  "3 in \"[2,]\"");
  EXPECT_SK_ERROR(
      ParseShape("[2 3]"), kInvalid,
      "parse_shape: expected ',' or ']' at position 3 in \"[2 3]\"");
  EXPECT_SK_ERROR(ParseShape("[2]x"), kInvalid,
                  "parse_shape: unexpected trailing text at position 3 in "
                  "\"[2]x\"");
  EXPECT_SK_ERROR(ParseShape("[99999999999999999999]"), kOverflow,
                  "parse_shape: dimension at position 1 in "
                  "\"[99999999999999999999]\" overflows int64");
  EXPECT_SK_ERROR(ParseShape(""), kInvalid,
                  "parse_shape: expected '[' at position 0 in \"\"");
  std::string big = "[";
  for (int i = 0; i < 33; ++i) big += i ? ",1" : "1";
  big += "]";
  EXPECT_THROW(ParseShape(big), Error);
}

}  // namespace
}  // namespace stridekit
