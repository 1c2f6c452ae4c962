// Golden vectors for View: reference/nx.md section 9 (numbers in the test
// names; where our NumPy semantics depart from Nx HEAD the expectation is
// NumPy's and the comment says so) and reference/gomlx_numsharp.md 2.11.
#include "stridekit/view.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stridekit/stridekit.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Vec;
using V = std::vector<int64_t>;

View Make(V shape, V strides, int64_t offset = 0) {
  return View::Make(shape, strides, offset);
}
View C(V shape, int64_t offset = 0) { return View::Make(shape, offset); }

#define EXPECT_VIEW(view, want_shape, want_strides, want_offset)    \
  do {                                                              \
    const View& v_ = (view);                                        \
    EXPECT_EQ(Vec(v_.shape()), V(want_shape)) << v_.ToString();     \
    EXPECT_EQ(Vec(v_.strides()), V(want_strides)) << v_.ToString(); \
    EXPECT_EQ(v_.offset(), (want_offset)) << v_.ToString();         \
  } while (0)

std::vector<AxisRange> Mask(const View& v) {
  std::vector<AxisRange> out;
  for (int d = 0; d < v.ndim(); ++d) out.push_back(v.mask(d));
  return out;
}

// T = permute (C [2,3]) [1,0] = V([3,2]; [1,3]; 0).
View T() { return C({2, 3}).Permute(V{1, 0}); }

TEST(ViewCreate, Nx51To64) {
  EXPECT_VIEW(C({2, 3}), V({2, 3}), V({3, 1}), 0);
  EXPECT_TRUE(C({2, 3}).IsCContiguous());
  EXPECT_EQ(C({}).numel(), 1);
  EXPECT_TRUE(C({}).IsCContiguous());
  EXPECT_VIEW(C({2, 3}, 5), V({2, 3}), V({3, 1}), 5);
  EXPECT_TRUE(C({2, 3}, 5).IsCContiguous());
  // 54: Nx resets the offset of an empty view; NumPy keeps its pointer.
  EXPECT_VIEW(C({2, 0, 3}, 5), V({2, 0, 3}), V({0, 0, 1}), 5);
  // 55: empty views are contiguous (NumPy; Nx HEAD says Strided).
  EXPECT_TRUE(Make({0, 3}, {3, 1}, 5).IsCContiguous());
  EXPECT_SK_ERROR(C({0, -2}), ErrorKind::kInvalidArgument,
                  "view: negative dimension -2 at axis 1 of [0,-2]");
  EXPECT_SK_ERROR(C({3, -2}), ErrorKind::kInvalidArgument,
                  "view: negative dimension -2 at axis 1 of [3,-2]");
  // 58-61: size-1 strides are ignored (NumPy, Nx_array vector 140).
  EXPECT_TRUE(Make({1, 3}, {0, 1}).IsCContiguous());
  EXPECT_TRUE(Make({1, 3}, {3, 1}).IsCContiguous());
  EXPECT_TRUE(Make({3, 1}, {1, 1}).IsCContiguous());
  EXPECT_TRUE(Make({3, 1}, {1, 0}).IsCContiguous());
  EXPECT_SK_ERROR(Make({2, 3}, {1}), ErrorKind::kInvalidArgument,
                  "view: strides has 1 entries for a view of 2 dimensions");
  EXPECT_SK_ERROR(C({2, 3}).dim(2), ErrorKind::kOutOfRange,
                  "dim: axis 2 out of bounds for 2D view");
  EXPECT_SK_ERROR(C({2, 3}).stride(-1), ErrorKind::kOutOfRange,
                  "stride: axis -1 out of bounds for 2D view");
  EXPECT_EQ(C({2, 3}).dim(1), 3);
  EXPECT_EQ(C({2, 3}).stride(0), 3);
}

TEST(ViewCreate, OffsetsMustFitInt64) {
  EXPECT_SK_ERROR(Make({3}, {INT64_MAX / 2 + 1}), ErrorKind::kOverflow,
                  "view: element offsets of view shape [3] strides "
                  "[4611686018427387904] offset 0 overflow int64");
  EXPECT_SK_ERROR(
      Make({INT64_MAX, 4}, {1, 1}), ErrorKind::kOverflow,
      "view: the element count of view shape [9223372036854775807,4] "
      "overflows int64");
  EXPECT_SK_ERROR(View::Make(V{2}, V{1}, 0, std::vector<AxisRange>{{1, 3}}),
                  ErrorKind::kInvalidArgument,
                  "view: mask [1, 3) of axis 0 is not a range within [0, 2]");
  // 136: a mask of the wrong rank.
  EXPECT_SK_ERROR(
      View::Make(V{2, 3}, V{3, 1}, 0, std::vector<AxisRange>{{0, 1}}),
      ErrorKind::kInvalidArgument,
      "view: mask has 1 entries for a view of 2 dimensions");
}

TEST(ViewReshape, Nx65To97) {
  EXPECT_VIEW(C({2, 3}).Reshape(V{6}), V({6}), V({1}), 0);
  EXPECT_VIEW(C({2, 3}, 4).Reshape(V{3, 2}), V({3, 2}), V({2, 1}), 4);
  EXPECT_SK_ERROR(C({2, 3}).Reshape(V{5}), ErrorKind::kInvalidArgument,
                  "reshape: cannot reshape [2,3] to [5] (6 vs 5 elements)");
  EXPECT_SK_ERROR(T().Reshape(V{6}), ErrorKind::kNeedsCopy,
                  "reshape: cannot reshape View(shape=[3,2], strides=[1,3], "
                  "offset=0) to [6] without a copy: its strides do not merge");
  EXPECT_THROW(C({2, 2}).Permute(V{1, 0}).Reshape(V{4}), Error);
  EXPECT_VIEW(C({0, 5}).Reshape(V{5, 0}), V({5, 0}), V({0, 0}), 0);
  EXPECT_VIEW(C({0, 5}).Reshape(V{0}), V({0}), V({0}), 0);
  // 72-74: the element count is always checked (Nx_array, NumPy).
  EXPECT_THROW(C({0, 5}).Reshape(V{2, 2}), Error);
  EXPECT_THROW(C({2, 2}).Reshape(V{0, 5}), Error);
  EXPECT_THROW(C({0}).Reshape(V{}), Error);
  // 75/76: NumPy's _attempt_nocopy_reshape strides for new size-1 axes.
  EXPECT_VIEW(T().Reshape(V{3, 1, 2}), V({3, 1, 2}), V({1, 6, 3}), 0);
  EXPECT_VIEW(T().Reshape(V{1, 3, 2, 1}), V({1, 3, 2, 1}), V({3, 1, 3, 3}), 0);
  EXPECT_VIEW(Make({1, 1}, {5, 7}, 3).Reshape(V{}), V({}), V({}), 3);
  EXPECT_VIEW(Make({1, 1}, {5, 7}, 3).Reshape(V{1}), V({1}), V({1}), 3);
  EXPECT_VIEW(Make({4, 3}, {12, 1}).Reshape(V{2, 2, 3}), V({2, 2, 3}),
              V({24, 12, 1}), 0);
  EXPECT_VIEW(Make({6}, {2}).Reshape(V{2, 3}), V({2, 3}), V({6, 2}), 0);
  EXPECT_VIEW(Make({6}, {2}).Reshape(V{3, 2}), V({3, 2}), V({4, 2}), 0);
  EXPECT_VIEW(Make({2, 3}, {6, 2}).Reshape(V{6}), V({6}), V({2}), 0);
  // 83: merge then split (Nx_array, NumPy).
  EXPECT_VIEW(Make({2, 3}, {6, 2}).Reshape(V{3, 2}), V({3, 2}), V({4, 2}), 0);
  EXPECT_VIEW(Make({2, 3, 4}, {24, 4, 1}).Reshape(V{2, 12}), V({2, 12}),
              V({24, 1}), 0);
  EXPECT_VIEW(Make({2, 3, 4}, {24, 4, 1}).Reshape(V{2, 3, 2, 2}),
              V({2, 3, 2, 2}), V({24, 4, 2, 1}), 0);
  EXPECT_THROW(Make({2, 3, 4}, {24, 4, 1}).Reshape(V{6, 4}), Error);
  EXPECT_VIEW(Make({2, 4, 2}, {16, 2, 1}).Reshape(V{2, 2, 4}), V({2, 2, 4}),
              V({16, 4, 1}), 0);
  EXPECT_THROW(Make({2, 3}, {1, 2}).Reshape(V{3, 2}), Error);
  EXPECT_VIEW(Make({6}, {-1}, 5).Reshape(V{2, 3}), V({2, 3}), V({-3, -1}), 5);
  const View flipped = C({2, 3}).Flip(0).Flip(1);
  EXPECT_VIEW(flipped.Reshape(V{6}), V({6}), V({-1}), 5);
  EXPECT_THROW(C({2, 3}).Flip(1).Reshape(V{6}), Error);
  EXPECT_THROW(C({1, 3}).Expand(V{2, 3}).Reshape(V{6}), Error);
  EXPECT_VIEW(C({3, 1}).Expand(V{3, 4}).Reshape(V{3, 2, 2}), V({3, 2, 2}),
              V({1, 0, 0}), 0);
  EXPECT_VIEW(C({1, 3}).Expand(V{4, 3}).Reshape(V{2, 2, 3}), V({2, 2, 3}),
              V({0, 0, 1}), 0);
  EXPECT_VIEW(Make({2, 3}, {0, 0}, 7).Reshape(V{6}), V({6}), V({0}), 7);
  EXPECT_THROW(C({6}).Reshape(V{-2, -3}), Error);
  // 97: the Nx scalar-expand bug is not copied.
  EXPECT_VIEW(C({}).Expand(V{2, 3}).Reshape(V{6}), V({6}), V({0}), 0);
}

// Found by view_fuzz: a zero-size shape whose other dims overflow when
// multiplied is rejected (NumPy's rule), here and when read back from C.
TEST(ViewReshape, ZeroSizeShapesStillCountTheirOtherDims) {
  const int64_t huge = int64_t{1} << 61;
  EXPECT_SK_ERROR(C({0}).Reshape(V{2, 3, huge, 0}), ErrorKind::kOverflow,
                  "reshape: the element count of shape "
                  "[2,3,2305843009213693952,0] overflows int64");
  EXPECT_THROW(C({0, 8, huge}), Error);
  EXPECT_EQ(C({0}).Reshape(V{3, huge, 0}).numel(), 0);
}

TEST(ViewReshape, InfersMinusOneAndKeepsIdentity) {
  EXPECT_VIEW(C({2, 3, 4}).Reshape(V{2, -1}), V({2, 12}), V({12, 1}), 0);
  const View t = T();
  EXPECT_EQ(t.Reshape(V{3, 2}), t);
  EXPECT_SK_ERROR(C({2, 3}).Reshape(V{-1, -1}), ErrorKind::kInvalidArgument,
                  "reshape: multiple -1 dimensions in [-1,-1], can only infer "
                  "one");
}

TEST(ViewExpand, Nx98To106) {
  EXPECT_VIEW(C({3, 1}).Expand(V{3, 4}), V({3, 4}), V({1, 0}), 0);
  EXPECT_VIEW(C({1, 3}, 2).Expand(V{4, 3}), V({4, 3}), V({0, 1}), 2);
  const View scalar = C({}).Expand(V{2, 3});
  EXPECT_VIEW(scalar, V({2, 3}), V({0, 0}), 0);
  EXPECT_FALSE(scalar.IsCContiguous());  // 100: not the Nx quirk.
  EXPECT_TRUE(scalar.IsBroadcast());
  EXPECT_FALSE(scalar.IsWriteable());
  EXPECT_VIEW(C({}, 4).Expand(V{0, 2}), V({0, 2}), V({0, 0}), 4);
  EXPECT_SK_ERROR(C({2, 3}).Expand(V{2, 3, 1}), ErrorKind::kInvalidArgument,
                  "expand: cannot broadcast [2,3] to [2,3,1]: axis 0 of size "
                  "2 is not 1 and differs from 3");
  // 103: NumPy broadcast_to prepends axes.
  EXPECT_VIEW(C({3}).Expand(V{2, 3}), V({2, 3}), V({0, 1}), 0);
  EXPECT_SK_ERROR(C({2, 3}).Expand(V{3}), ErrorKind::kInvalidArgument,
                  "expand: cannot broadcast [2,3] to [3]: the target has "
                  "fewer dimensions");
  EXPECT_SK_ERROR(C({2, 3}).Expand(V{4, 3}), ErrorKind::kInvalidArgument,
                  "expand: cannot broadcast [2,3] to [4,3]: axis 0 of size "
                  "2 is not 1 and differs from 4");
  // 105: an empty axis does not grow (NumPy; Nx HEAD skips the check).
  EXPECT_THROW(C({0, 3}).Expand(V{5, 3}), Error);
  EXPECT_VIEW(C({1, 3}).Expand(V{0, 3}), V({0, 3}), V({0, 1}), 0);
}

TEST(ViewPermute, Nx107To112) {
  EXPECT_VIEW(C({2, 3, 4}).Permute(V{2, 0, 1}), V({4, 2, 3}), V({1, 12, 4}), 0);
  EXPECT_VIEW(C({1, 3}).Permute(V{1, 0}), V({3, 1}), V({1, 3}), 0);
  EXPECT_VIEW(Make({2, 0, 3}, {0, 0, 1}).Permute(V{2, 0, 1}), V({3, 2, 0}),
              V({1, 0, 0}), 0);
  EXPECT_SK_ERROR(C({2, 3}).Permute(V{0}), ErrorKind::kInvalidArgument,
                  "permute: axes [0] have 1 entries for a view of 2 "
                  "dimensions");
  EXPECT_SK_ERROR(C({2, 3}).Permute(V{0, 0}), ErrorKind::kInvalidArgument,
                  "permute: axes [0,0] are not a permutation (axis 0 repeats)");
  // 112: negative axes count from the end.
  EXPECT_VIEW(C({2, 3}).Permute(V{-1, 0}), V({3, 2}), V({1, 3}), 0);
  EXPECT_SK_ERROR(C({2, 3}).Permute(V{2, 0}), ErrorKind::kOutOfRange,
                  "permute: axis 2 is out of bounds for array of dimension 2");
}

TEST(ViewShrink, Nx113To122) {
  EXPECT_VIEW(C({3, 6}).Shrink(V{0, 1}, V{3, 5}), V({3, 4}), V({6, 1}), 1);
  const View rows = C({4, 4}).Shrink(V{1, 0}, V{3, 4});
  EXPECT_VIEW(rows, V({2, 4}), V({4, 1}), 4);
  EXPECT_TRUE(rows.IsCContiguous());
  EXPECT_VIEW(C({5, 5}).Shrink(V{1, 0}, V{3, 5}).Shrink(V{0, 0}, V{1, 5}),
              V({1, 5}), V({5, 1}), 5);
  EXPECT_VIEW(T().Shrink(V{1, 0}, V{3, 2}), V({2, 2}), V({1, 3}), 1);
  // 117: empty ranges are allowed (Nx_array).
  EXPECT_VIEW(C({4}).Shrink(V{2}, V{2}), V({0}), V({1}), 2);
  EXPECT_SK_ERROR(C({4}).Shrink(V{0}, V{5}), ErrorKind::kOutOfRange,
                  "shrink: bounds [0, 5) of axis 0 are not within [0, 4]");
  EXPECT_SK_ERROR(C({4}).Shrink(V{3}, V{2}), ErrorKind::kOutOfRange,
                  "shrink: bounds [3, 2) of axis 0 are not within [0, 4]");
  EXPECT_EQ(C({0, 3}).Shrink(V{0, 0}, V{0, 3}), C({0, 3}));
  EXPECT_VIEW(C({0, 3}).Shrink(V{0, 1}, V{0, 3}), V({0, 2}), V({0, 1}), 1);
  EXPECT_SK_ERROR(C({2, 3}).Shrink(V{0}, V{2}), ErrorKind::kInvalidArgument,
                  "shrink: begin has 1 entries for a view of 2 dimensions");
}

TEST(ViewFlip, Nx123To128) {
  EXPECT_VIEW(C({2, 3}).Flip(1), V({2, 3}), V({3, -1}), 2);
  EXPECT_VIEW(C({2, 3}).Flip(0).Flip(1), V({2, 3}), V({-3, -1}), 5);
  const View back = C({2, 3}).Flip(0).Flip(1).Flip(0).Flip(1);
  EXPECT_EQ(back, C({2, 3}));
  // 126: NumPy still calls it C-contiguous (size-1 axes ignored).
  const View one = C({1, 3}).Flip(0);
  EXPECT_VIEW(one, V({1, 3}), V({-3, 1}), 0);
  EXPECT_TRUE(one.IsCContiguous());
  // 127: NumPy leaves an empty axis alone; the other axis still flips.
  EXPECT_VIEW(C({0, 3}).Flip(0).Flip(1), V({0, 3}), V({0, -1}), 2);
  EXPECT_SK_ERROR(C({2, 3}).Flip(2), ErrorKind::kOutOfRange,
                  "flip: axis 2 is out of bounds for array of dimension 2");
}

TEST(ViewMask, Nx129To135) {
  const View padded = C({2, 3}).Pad(V{1, 0}, V{1, 2});
  EXPECT_VIEW(padded, V({4, 5}), V({3, 1}), -3);
  EXPECT_EQ(Mask(padded), (std::vector<AxisRange>{{1, 3}, {0, 3}}));
  EXPECT_FALSE(padded.strides_opt().has_value());
  EXPECT_EQ(padded.LinearIndex(V{0, 0}), -3);
  EXPECT_FALSE(padded.IsValid(V{0, 0}));
  EXPECT_TRUE(padded.IsValid(V{1, 2}));
  EXPECT_FALSE(padded.IsValid(V{1}));
  EXPECT_EQ(padded.Flags(), kMasked);

  const View inner = padded.Shrink(V{1, 0}, V{3, 3});
  EXPECT_EQ(inner, C({2, 3}));
  EXPECT_FALSE(inner.has_mask());
  EXPECT_TRUE(inner.IsCContiguous());

  const View corner = padded.Shrink(V{0, 2}, V{2, 5});
  EXPECT_VIEW(corner, V({2, 3}), V({3, 1}), -1);
  EXPECT_EQ(Mask(corner), (std::vector<AxisRange>{{1, 2}, {0, 1}}));

  const View flipped = padded.Flip(0).Flip(1);
  EXPECT_VIEW(flipped, V({4, 5}), V({-3, -1}), 10);
  EXPECT_EQ(Mask(flipped), (std::vector<AxisRange>{{1, 3}, {2, 5}}));

  EXPECT_SK_ERROR(padded.Reshape(V{20}), ErrorKind::kNeedsCopy,
                  "reshape: cannot reshape View(shape=[4,5], strides=[3,1], "
                  "offset=-3, mask=[(1,3),(0,3)]) to [20] without a copy: its "
                  "strides do not merge");

  const View row = C({1, 3}).Pad(V{0, 1}, V{0, 0}).Expand(V{5, 4});
  EXPECT_VIEW(row, V({5, 4}), V({0, 1}), -1);
  EXPECT_EQ(Mask(row), (std::vector<AxisRange>{{0, 5}, {1, 4}}));

  EXPECT_SK_ERROR(C({2}).Pad(V{-1}, V{2}), ErrorKind::kInvalidArgument,
                  "pad: negative padding (-1, 2) on axis 0; use shrink or "
                  "slice instead");
}

TEST(ViewMask, ReshapeKeepsBoxes) {
  // A padded row block of a contiguous [4,6] buffer: rows 1..2 valid.
  const View rows = C({2, 6}).Pad(V{1, 0}, V{1, 0});
  const View flat = rows.Reshape(V{24});
  EXPECT_VIEW(flat, V({24}), V({1}), -6);
  EXPECT_EQ(Mask(flat), (std::vector<AxisRange>{{6, 18}}));
  const View split = flat.Reshape(V{4, 2, 3});
  EXPECT_EQ(Mask(split), (std::vector<AxisRange>{{1, 3}, {0, 2}, {0, 3}}));
  // Columns 1..2 of each row cannot become one interval of a flat axis.
  const View cols = C({4, 2}).Pad(V{0, 1}, V{0, 1});
  EXPECT_THROW(cols.Reshape(V{16}), Error);
  // But splitting the row axis keeps the box.
  const View rows_split = C({4, 6}).Pad(V{0, 1}, V{0, 1}).Reshape(V{2, 2, 8});
  EXPECT_EQ(Mask(rows_split), (std::vector<AxisRange>{{0, 2}, {0, 2}, {1, 7}}));
}

TEST(ViewMask, NoValidElementIsKept) {
  const View none = C({3}).Pad(V{0}, V{2}).Shrink(V{3}, V{5});
  EXPECT_TRUE(none.has_mask());
  EXPECT_EQ(none.ValidSpan(), (View::Span{0, 0}));
  const View sliced = C({3, 4}).Pad(V{1, 0}, V{0, 0}).Slice("0");
  EXPECT_EQ(sliced.ValidSpan(), (View::Span{0, 0}));
  EXPECT_EQ(Mask(sliced), (std::vector<AxisRange>{{0, 0}}));
  EXPECT_SK_ERROR(C({2}).Pad(V{1}, V{0}).Slice("0"), ErrorKind::kNeedsCopy,
                  "slice: the selected element of View(shape=[3], "
                  "strides=[1], offset=-1, mask=[(1,3)]) is masked, which a "
                  "view without axes cannot express");
}

TEST(ViewSlice, NumSharp8To11And23) {
  const View ten = C({10});
  EXPECT_EQ(ten.Slice(":"), ten);
  EXPECT_EQ(ten.Slice("-77:77"), ten);
  EXPECT_VIEW(ten.Slice(":7"), V({7}), V({1}), 0);
  EXPECT_VIEW(ten.Slice("7:"), V({3}), V({1}), 7);
  EXPECT_VIEW(ten.Slice("-7:"), V({7}), V({1}), 3);
  EXPECT_VIEW(ten.Slice(":5").Slice("2:"), V({3}), V({1}), 2);
  EXPECT_VIEW(ten.Slice(":5").Slice("2:").Slice("::2"), V({2}), V({2}), 2);
  EXPECT_VIEW(C({3, 3}).Slice(":,1:"), V({3, 2}), V({3, 1}), 1);
  const View s = C({10, 10, 10}).Slice("2:8, ::-2, 7");
  EXPECT_VIEW(s, V({6, 5}), V({100, -20}), 297);
  EXPECT_EQ(s.LinearIndex(V{3, 2}), 297 + 300 - 40);
  EXPECT_VIEW(C({4, 3}).Slice("1:3, :"), V({2, 3}), V({3, 1}), 3);
  EXPECT_VIEW(ten.Slice("3:7"), V({4}), V({1}), 3);
  EXPECT_VIEW(ten.Slice("1:7:2"), V({3}), V({2}), 1);
  EXPECT_VIEW(C({4, 3}).Slice(":, 1"), V({4}), V({3}), 1);
  EXPECT_VIEW(C({4, 3}).Slice("2, 1"), V({}), V({}), 7);
  EXPECT_VIEW(C({4, 3}).Slice("1:4, :").Slice("1:3, 1:3"), V({2, 2}), V({3, 1}),
              7);
}

// NumSharp 2.11 vector 20: (start, step, count) of a slice of dim 10, as the
// offset, stride and size of the sliced 1-D view (an empty slice: NumPy
// keeps the stride and points at 0).
TEST(ViewSlice, NumSharp20SliceDefs) {
  struct Case {
    const char* text;
    int64_t start, step, count;
  };
  const Case cases[] = {
      {"0:10", 0, 1, 10},      {":", 0, 1, 10},
      {"1:9", 1, 1, 8},        {"2:3", 2, 1, 1},
      {"3:2", 0, 1, 0},        {"2:2", 0, 1, 0},
      {"2:2:-1", 0, 1, 0},     {"-77:77", 0, 1, 10},
      {"77:-77", 0, 1, 0},     {"77:-77:-1", 9, -1, 10},
      {"::77", 0, 77, 1},      {"::-77", 9, -77, 1},
      {"::7", 0, 7, 2},        {"::-7", 9, -7, 2},
      {"::2", 0, 2, 5},        {"::-2", 9, -2, 5},
      {"::3", 0, 3, 4},        {"::-3", 9, -3, 4},
      {"10:2:-7", 9, -7, 1},   {"10:1:-7", 9, -7, 2},
      {"-7::- 1", 3, -1, 4},   {"9:2:-2", 9, -2, 4},
      {"-77:77:-77", 0, 1, 0}, {"77:-77:-77", 9, -77, 1},
      {":-5:-1", 9, -1, 4},    {":-6:-1", 9, -1, 5},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_VIEW(C({10}).Slice(c.text), V({c.count}), V({c.step}), c.start);
  }
}

TEST(ViewSlice, NumSharp21And22Counts) {
  const std::pair<const char*, int64_t> cases[] = {
      {":", 10},        {"-77:77", 10},    {"7:", 3},     {":5", 5},
      {"2:3", 1},       {"::2", 5},        {"::3", 4},    {"::77", 1},
      {"-77:77:77", 1}, {"::-1", 10},      {"::-2", 5},   {"::-3", 4},
      {"::-77", 1},     {"77:-77:-77", 1}, {"-7:", 7},    {":-5", 5},
      {":-6", 4},       {"-3:-2", 1},      {"-7::-1", 4}, {":-5:-1", 4},
      {":-6:-1", 5},    {"-2:-3:-1", 1},
  };
  for (const auto& [text, n] : cases) {
    EXPECT_EQ(C({10}).Slice(text).dim(0), n) << text;
  }
  const View chain = C({10}).Slice(":").Slice("1:9").Slice("::-2");
  EXPECT_EQ(chain.dim(0), 4);
  EXPECT_EQ(chain.Slice("::-3").dim(0), 2);
}

TEST(ViewSlice, NewAxisEllipsisAndErrors) {
  const View v = C({2, 3, 4});
  EXPECT_VIEW(v.Slice("..., None, 0"), V({2, 3, 1}), V({12, 4, 0}), 0);
  EXPECT_VIEW(v.Slice("None, 1, ..."), V({1, 3, 4}), V({0, 4, 1}), 12);
  EXPECT_VIEW(v.Slice("1:3, ::-1, ..., None, 0"), V({1, 3, 1}), V({12, -4, 0}),
              20);
  EXPECT_VIEW(v.Slice(""), V({2, 3, 4}), V({12, 4, 1}), 0);
  EXPECT_VIEW(v.Slice("-1,"), V({3, 4}), V({4, 1}), 12);
  EXPECT_SK_ERROR(v.Slice("0, 0, 0, 0"), ErrorKind::kOutOfRange,
                  "slice: too many indices for array: array is 3-dimensional, "
                  "but 4 were indexed");
  EXPECT_SK_ERROR(v.Slice("..., ..."), ErrorKind::kInvalidArgument,
                  "slice: an index can only have a single ellipsis ('...')");
  EXPECT_SK_ERROR(v.Slice("2"), ErrorKind::kOutOfRange,
                  "slice: index 2 is out of bounds for axis 0 with size 2");
  EXPECT_SK_ERROR(v.Slice(":, -4"), ErrorKind::kOutOfRange,
                  "slice: index -4 is out of bounds for axis 1 with size 3");
  EXPECT_SK_ERROR(v.Slice("::0"), ErrorKind::kInvalidArgument,
                  "slice: slice step cannot be zero");
  // NumSharp 2.11 vector 18: malformed text.
  for (const char* bad :
       {":::", "x", "0.5:", "0.00008", "x:y:z", "..", "....", "1,,2",
        "999999999999999999999999999999999", "1:99999999999999999999", "- :"}) {
    EXPECT_THROW(ParseSlices(bad), Error) << bad;
  }
  EXPECT_SK_ERROR(ParseSlices("1, x"), ErrorKind::kInvalidArgument,
                  "slice: malformed integer 'x' at position 2 of \"1, x\"");
}

// Error paths of the accessors and transforms the other tests do not reach,
// each naming its operation, and equality of views that differ only in
// shape.
TEST(ViewErrors, AccessorsAndTransforms) {
  const View v = C({2, 3});
  EXPECT_SK_ERROR(v.mask(2), ErrorKind::kOutOfRange,
                  "mask: axis 2 out of bounds for 2D view");
  EXPECT_SK_ERROR(v.mask(-1), ErrorKind::kOutOfRange,
                  "mask: axis -1 out of bounds for 2D view");
  EXPECT_EQ(v.mask(1).end, 3);
  EXPECT_SK_ERROR(v.Unsqueeze(V(31, 0)), ErrorKind::kInvalidArgument,
                  "unsqueeze: rank 33 exceeds the maximum rank 32");
  EXPECT_SK_ERROR(
      v.MoveAxis(V{0, 1}, V{1}), ErrorKind::kInvalidArgument,
      "moveaxis: source [0,1] and destination [1] must have the same "
      "number of elements");
  // The positive twin of INT64_MIN does not fit in int64.
  EXPECT_SK_ERROR(v.Slice("9223372036854775808"), ErrorKind::kInvalidArgument,
                  "slice: integer out of int64 range '9223372036854775808' at "
                  "position 0 of \"9223372036854775808\"");
  EXPECT_FALSE(v == C({3, 2}));
  EXPECT_TRUE(v == C({2, 3}));
}

TEST(ViewSlice, ParseAndPrint) {
  // NumSharp 2.11 vectors 16, 17, 19 (our canonical text).
  const std::pair<const char*, const char*> cases[] = {
      {"1:3", "1:3"},         {"-5:-8", "-5:-8"},
      {"::- 1", "::-1"},      {"-  5:- 8", "-5:-8"},
      {"+  5:+ 8", "5:8"},    {"\r\n\t:\t  ", ":"},
      {":\t:\t    \t1", ":"}, {"  : \t:\t    \t2  ", "::2"},
      {"17", "17"},           {"7::9", "7::9"},
      {":7:9", ":7:9"},       {"...", "..."},
      {"np.newaxis", "None"}, {"newaxis", "None"},
  };
  for (const auto& [text, want] : cases) {
    const SliceItems items = ParseSlices(text);
    ASSERT_EQ(items.size(), 1) << text;
    EXPECT_EQ(ToString(items[0]), want) << text;
  }
  const SliceItems many = ParseSlices(
      "1:3,-5:-8,7:8:9,...,1:,999,:,:1,7::9,:7:9,::-1,-5:-8,5:8,None");
  std::string joined;
  for (const SliceItem& item : many) {
    if (!joined.empty()) joined += ',';
    joined += ToString(item);
  }
  EXPECT_EQ(joined,
            "1:3,-5:-8,7:8:9,...,1:,999,:,:1,7::9,:7:9,::-1,-5:-8,5:8,None");
  EXPECT_EQ(ParseSlices("1:2")[0], SliceItem::Range(1, 2));
  EXPECT_EQ(ParseSlices("-9223372036854775808")[0],
            SliceItem::Index(INT64_MIN));
}

TEST(ViewSlice, MaskedAxes) {
  // Padded [2 | 3 valid | 2] on a 1-D buffer, then sliced.
  const View padded = C({3}).Pad(V{2}, V{2});
  EXPECT_EQ(Mask(padded.Slice("::2")), (std::vector<AxisRange>{{1, 3}}));
  EXPECT_EQ(Mask(padded.Slice("::-1")), (std::vector<AxisRange>{{2, 5}}));
  EXPECT_EQ(Mask(padded.Slice("::-3")), (std::vector<AxisRange>{{1, 2}}));
  EXPECT_EQ(padded.Slice("3:").offset(), 1);
  EXPECT_EQ(Mask(padded.Slice("3:")), (std::vector<AxisRange>{{0, 2}}));
}

TEST(ViewOps, SqueezeUnsqueezeSwapMove) {
  const View v = Make({1, 3, 1, 4}, {99, 4, 77, 1}, 2);
  EXPECT_VIEW(v.Squeeze(), V({3, 4}), V({4, 1}), 2);
  EXPECT_VIEW(v.Squeeze(V{-2}), V({1, 3, 4}), V({99, 4, 1}), 2);
  EXPECT_SK_ERROR(v.Squeeze(V{1}), ErrorKind::kInvalidArgument,
                  "squeeze: cannot select an axis to squeeze out which has "
                  "size not equal to one (axis 1 of [1,3,1,4])");
  EXPECT_SK_ERROR(v.Squeeze(V{0, 0}), ErrorKind::kInvalidArgument,
                  "squeeze: repeated axis 0 in [0,0]");
  // NumSharp 2.11 vector 12: ExpandDimension keeps offsets.
  const View cube = C({3, 3, 3});
  EXPECT_EQ(cube.Unsqueeze(V{1}).LinearIndex(V{2, 0, 0, 2}), 20);
  EXPECT_EQ(cube.Unsqueeze(V{0}).LinearIndex(V{0, 2, 0, 2}), 20);
  EXPECT_EQ(cube.Unsqueeze(V{2}).LinearIndex(V{2, 0, 0, 2}), 20);
  EXPECT_EQ(cube.Unsqueeze(V{3}).LinearIndex(V{2, 0, 2, 0}), 20);
  // Vectors 13 and 14.
  const View a = cube.Slice("0,:").Unsqueeze(V{1});
  EXPECT_EQ(Vec(a.shape()), V({3, 1, 3}));
  EXPECT_EQ(a.LinearIndex(V{2, 0, 2}), 8);
  const View b = C({3, 2, 3}).Slice("1,:").Unsqueeze(V{1});
  EXPECT_EQ(Vec(b.shape()), V({2, 1, 3}));
  EXPECT_EQ(b.LinearIndex(V{0, 0, 2}), 8);
  EXPECT_VIEW(C({2, 3}).Unsqueeze(V{-1, 0}), V({1, 2, 3, 1}), V({6, 3, 1, 1}),
              0);
  EXPECT_VIEW(C({2}).Unsqueeze(V{0, -2}), V({1, 1, 2}), V({2, 2, 1}), 0);
  EXPECT_SK_ERROR(C({2}).Unsqueeze(V{0, -3}), ErrorKind::kInvalidArgument,
                  "unsqueeze: repeated axis 0 in [0,-3]");
  EXPECT_VIEW(C({2, 3, 4}).SwapAxes(0, -1), V({4, 3, 2}), V({1, 4, 12}), 0);
  EXPECT_VIEW(C({2, 3, 4}).MoveAxis(V{0}, V{-1}), V({3, 4, 2}), V({4, 1, 12}),
              0);
  EXPECT_VIEW(C({2, 3, 4, 5}).MoveAxis(V{0, 1}, V{-1, -2}), V({4, 5, 3, 2}),
              V({5, 1, 20, 60}), 0);
  EXPECT_THROW(C({2, 3}).MoveAxis(V{0, 0}, V{0, 1}), Error);
}

TEST(ViewFlags, NumSharp28And29) {
  const View a = C({10});
  EXPECT_TRUE(a.Slice("2:7").IsCContiguous());
  EXPECT_TRUE(a.Slice("3:4").IsCContiguous());
  const View m = C({3, 4});
  EXPECT_TRUE(m.Slice("1:3").IsCContiguous());
  EXPECT_TRUE(m.Slice("1:2, 1:3").IsCContiguous());
  EXPECT_TRUE(C({2, 3, 4}).Slice("0:1, 1:3, :").IsCContiguous());
  EXPECT_TRUE(a.Slice("::2").Slice("0:1").IsCContiguous());
  EXPECT_FALSE(a.Slice("::2").IsCContiguous());
  EXPECT_FALSE(a.Slice("::-1").IsCContiguous());
  EXPECT_FALSE(m.Slice(":, 1:3").IsCContiguous());
  EXPECT_FALSE(C({2, 3, 4}).Slice(":, 1:2, :").IsCContiguous());
  EXPECT_FALSE(a.Slice("::2").Slice("1:3").IsCContiguous());
  EXPECT_FALSE(C({3}).Expand(V{2, 3}).IsCContiguous());
  EXPECT_EQ(C({}).Flags(), kCContiguous | kFContiguous);
  EXPECT_EQ(C({5}).Flags(), kCContiguous | kFContiguous);
  EXPECT_EQ(C({3, 4}).Flags(), kCContiguous);
  EXPECT_EQ(C({3, 4}).Permute(V{1, 0}).Flags(), kFContiguous);
  EXPECT_EQ(C({3}).Expand(V{2, 3}).Flags(), kBroadcast);
  EXPECT_FALSE(C({0, 3}).Expand(V{0, 3}).IsBroadcast());
  EXPECT_TRUE(m.Slice(":, 1:3").IsSimpleSlice());
  EXPECT_TRUE(m.Slice("1:").IsSimpleSlice());
  EXPECT_FALSE(m.IsSimpleSlice());
  EXPECT_FALSE(C({3}).Expand(V{2, 3}).IsSimpleSlice());
}

TEST(ViewQueries, SpanCoordinatesOffsets) {
  // Nx_array vector 139: extent of V([2,3]; [3,-1]; 2) is (0, 6).
  EXPECT_EQ(Make({2, 3}, {3, -1}, 2).ValidSpan(), (View::Span{0, 6}));
  EXPECT_EQ(Make({2, 3}, {3, -1}, 2).RequiredBufferSize(), 6);
  EXPECT_EQ(C({0, 3}).ValidSpan(), (View::Span{0, 0}));
  const View padded = C({2, 3}).Pad(V{1, 0}, V{1, 2});
  EXPECT_EQ(padded.ValidSpan(), (View::Span{0, 6}));
  EXPECT_SK_ERROR(Make({2}, {-1}, 0).RequiredBufferSize(),
                  ErrorKind::kOutOfRange,
                  "required_buffer_size: View(shape=[2], strides=[-1], "
                  "offset=0) reads element offset -1, before the buffer start");
  // NumSharp 2.11 vector 2 and the transposed case of 2.5.
  const View c = C({4, 3, 2});
  EXPECT_EQ(c.LinearIndex(V{1, 2, 1}), 11);
  EXPECT_EQ(Vec(c.CoordinatesOf(11)), V({1, 2, 1}));
  const View ones_t = Make({1, 3}, {1, 1});
  EXPECT_EQ(Vec(ones_t.CoordinatesOf(2)), V({0, 2}));
  EXPECT_EQ(ones_t.OffsetOf(2), 2);
  const View t = T();
  for (int64_t k = 0; k < 6; ++k) {
    const Dims idx = t.CoordinatesOf(k);
    EXPECT_EQ(t.OffsetOf(k), t.LinearIndex(idx));
  }
  EXPECT_SK_ERROR(t.OffsetOf(6), ErrorKind::kOutOfRange,
                  "offset_of: element 6 is out of range for a view of 6 "
                  "elements");
}

// Found by view_fuzz: partial sums of an element offset may overflow even
// though the offset itself fits.
TEST(ViewQueries, OffsetsWhosePartialSumsOverflow) {
  const int64_t stride = -1308335330115492448;
  const View v = Make({3}, {stride}, 39).Pad(V{3}, V{3});
  EXPECT_EQ(v.offset(), 39 - 3 * stride);
  EXPECT_EQ(v.OffsetOf(8), 39 + 5 * stride);
  EXPECT_EQ(v.LinearIndex(V{8}), 39 + 5 * stride);
  EXPECT_SK_ERROR(C({2}, 1).LinearIndex(V{INT64_MAX}), ErrorKind::kOverflow,
                  "linear_index: the offset of index [9223372036854775807] in "
                  "View(shape=[2], strides=[1], offset=1) overflows int64");
  EXPECT_THROW(Make({2, 2}, {INT64_MAX / 2, INT64_MAX / 2})
                   .LinearIndex(V{INT64_MAX, INT64_MAX}),
               Error);
}

TEST(ViewCompose, MergesWhenExpressible) {
  // A transposed base; over = every other element of its C order.
  const View base = T();                  // offsets in C order: 0 3 1 4 2 5
  const View over = C({3}).Slice("::2");  // positions 0, 2, 4 -> 0, 1, 2
  const View merged = Compose(base, over);
  EXPECT_VIEW(merged, V({2}), V({1}), 0);
  // Positions 0..5 as [2,3] over a transposed base: no single view.
  EXPECT_SK_ERROR(Compose(base, C({2, 3})), ErrorKind::kNeedsCopy,
                  "compose: View(shape=[2,3], strides=[3,1], offset=0) cannot "
                  "be expressed as one view on View(shape=[3,2], "
                  "strides=[1,3], offset=0)");
  // Rows 0 and 2 of a transposed [3,4] base: strides on both digits.
  EXPECT_VIEW(Compose(Make({3, 4}, {1, 3}), C({3, 4}).Slice("::2, :")),
              V({2, 4}), V({2, 3}), 0);
  // A row of a reversed base.
  const View rev = C({4, 5}).Flip(0);
  const View row = Compose(rev, C({20}).Slice("5:10"));
  EXPECT_VIEW(row, V({5}), V({1}), 10);
  EXPECT_SK_ERROR(Compose(rev, C({21})), ErrorKind::kOutOfRange,
                  "compose: View(shape=[21], strides=[1], offset=0) reads "
                  "positions [0, 21) outside the 20 elements of "
                  "View(shape=[4,5], strides=[-5,1], offset=15)");
  // A masked base: position 0 of the padded [4] is padding.
  const View padded_base = C({3}).Pad(V{1}, V{0});
  const View masked = Compose(padded_base, C({2}));
  EXPECT_VIEW(masked, V({2}), V({0}), 0);  // One valid index: stride 0.
  EXPECT_EQ(Mask(masked), (std::vector<AxisRange>{{1, 2}}));
  EXPECT_EQ(Mask(Compose(padded_base, C({1}))),
            (std::vector<AxisRange>{{0, 0}}));
  EXPECT_SK_ERROR(Compose(padded_base, View()), ErrorKind::kNeedsCopy,
                  "compose: the element of View(shape=[], strides=[], "
                  "offset=0) is masked in View(shape=[4], strides=[1], "
                  "offset=-1, mask=[(1,4)]), which a view without axes cannot "
                  "express");
  // Columns 1..2 of a padded [3,4] base read as [3,4]: a box again.
  const View cols = Compose(C({3, 2}).Pad(V{0, 1}, V{0, 1}), C({3, 4}));
  EXPECT_VIEW(cols, V({3, 4}), V({2, 1}), -1);
  EXPECT_EQ(Mask(cols), (std::vector<AxisRange>{{0, 3}, {1, 3}}));
  // Over reading across the padding of each row: no box.
  EXPECT_THROW(Compose(C({3, 2}).Pad(V{0, 1}, V{0, 1}), C({12})), Error);
}

TEST(ViewCompose, DigitsThatMoveTogether) {
  // Each step of over's axis 1 moves both base digits (4 = 1*3 + 1): one
  // view, though no single digit carries the step.
  EXPECT_VIEW(Compose(Make({15, 3}, {9, 1}, 6), Make({4, 3}, {12, 4})),
              V({4, 3}), V({36, 10}), 6);
  // Digits that carry, but whose offsets still line up: positions 2, 3, 4
  // of [2,2,2] strides [7,5,1] are offsets 5, 6, 7.
  EXPECT_VIEW(Compose(Make({2, 2, 2}, {7, 5, 1}), Make({3}, {1}, 2)), V({3}),
              V({1}), 5);
  EXPECT_THROW(Compose(Make({2, 2, 2}, {7, 5, 1}), Make({5}, {1}, 2)), Error);
}

TEST(ViewCompose, NoIntermediateOverflow) {
  // Element 2 of a [3] base with a huge stride: its offset fits, though
  // 2 * stride does not (UBSan flagged the old partial sums).
  constexpr int64_t kStride = 5837228067025584365;
  const View base = Make({3}, {kStride}, -kStride);
  EXPECT_VIEW(Compose(base, Make({1}, {1}, 2)), V({1}), V({0}), kStride);
  EXPECT_VIEW(Compose(base, Make({2}, {1}, 1)), V({2}), V({kStride}), 0);
  // Results that do not fit are errors naming the operation.
  EXPECT_SK_ERROR(Compose(base, Make({2}, {2}, 0)), ErrorKind::kOverflow,
                  "compose: the stride of axis 0 of View(shape=[2], "
                  "strides=[2], offset=0) on View(shape=[3], "
                  "strides=[5837228067025584365], "
                  "offset=-5837228067025584365) overflows int64");
  // The result's offset: one before the first of two elements far apart.
  constexpr int64_t kFar = (int64_t{3} << 61);
  const View pair = Make({2}, {kFar}, -(int64_t{1} << 62));
  const std::vector<AxisRange> tail{{1, 3}};
  EXPECT_SK_ERROR(Compose(pair, View::Make(V{3}, V{1}, -1, tail)),
                  ErrorKind::kOverflow,
                  "compose: the offset of View(shape=[3], strides=[1], "
                  "offset=-1, mask=[(1,3)]) on View(shape=[2], "
                  "strides=[6917529027641081856], "
                  "offset=-4611686018427387904) overflows int64");
}

}  // namespace
}  // namespace stridekit

namespace stridekit {
namespace {

using V = std::vector<int64_t>;

sk_view CView(V shape, V strides, int64_t offset = 0) {
  sk_view v{};
  EXPECT_EQ(
      sk_view_make(int32_t(shape.size()), shape.data(),
                   strides.empty() ? nullptr : strides.data(), offset, &v),
      SK_OK)
      << sk_last_error();
  return v;
}

std::string LastError() { return sk_last_error(); }

TEST(ViewCApi, TransformsAndAliasing) {
  sk_view v = CView({2, 3}, {});
  EXPECT_EQ(v.strides[0], 3);
  EXPECT_EQ(sk_view_flags(&v), unsigned(SK_C_CONTIGUOUS));
  const int32_t axes[] = {1, 0};
  ASSERT_EQ(sk_view_permute(&v, axes, &v), SK_OK);  // out aliases v
  EXPECT_EQ(sk_view_flags(&v), unsigned(SK_F_CONTIGUOUS));
  const int64_t six[] = {6};
  EXPECT_EQ(sk_view_reshape(&v, 1, six, &v), SK_ERR_NEEDS_COPY);
  EXPECT_EQ(LastError(),
            "reshape: cannot reshape View(shape=[3,2], "
            "strides=[1,3], offset=0) to [6] without a copy: its strides do "
            "not merge");
  sk_view s;
  ASSERT_EQ(sk_view_slice(&v, "::-1, None", &s), SK_OK) << LastError();
  EXPECT_EQ(s.ndim, 3);
  EXPECT_EQ(s.offset, 2);
  EXPECT_EQ(s.strides[0], -1);
  for (int d = s.ndim; d < SK_MAX_NDIM; ++d) EXPECT_EQ(s.shape[d], 0);
  const int64_t before[] = {1, 0}, after[] = {0, 2};
  sk_view p;
  ASSERT_EQ(sk_view_pad(&v, before, after, &p), SK_OK);
  EXPECT_EQ(p.has_mask, 1);
  EXPECT_EQ(sk_view_flags(&p), unsigned(SK_MASKED));
  int64_t lo = -1, hi = -1;
  ASSERT_EQ(sk_view_span(&p, &lo, &hi), SK_OK);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 6);
  int64_t offset = 0;
  ASSERT_EQ(sk_view_element_offset(&v, 1, &offset), SK_OK);
  EXPECT_EQ(offset, 3);
}

TEST(ViewCApi, ComposeWithHugeStrides) {
  // The fuzzer's repro: 2 * stride overflowed before the offset was added.
  constexpr int64_t kStride = 5837228067025584365;
  const sk_view base = CView({3}, {kStride}, -kStride);
  const sk_view over = CView({1}, {1}, 2);
  sk_view out;
  ASSERT_EQ(sk_view_compose(&base, &over, &out), SK_OK) << LastError();
  EXPECT_EQ(out.ndim, 1);
  EXPECT_EQ(out.shape[0], 1);
  EXPECT_EQ(out.offset, kStride);
}

TEST(ViewCApi, ErrorPaths) {
  sk_view v = CView({2, 3}, {});
  sk_view out;
  const int64_t shape[] = {2, 3};
  EXPECT_EQ(sk_view_make(-1, shape, nullptr, 0, &out), SK_ERR_INVALID);
  EXPECT_EQ(LastError(), "sk_view_make: ndim -1 is outside [0, 32]");
  EXPECT_EQ(sk_view_make(2, nullptr, nullptr, 0, &out), SK_ERR_INVALID);
  EXPECT_EQ(sk_view_make(2, shape, nullptr, 0, nullptr), SK_ERR_INVALID);
  EXPECT_EQ(LastError(), "sk_view_make: out is NULL");
  EXPECT_EQ(sk_view_reshape(nullptr, 2, shape, &out), SK_ERR_INVALID);
  EXPECT_EQ(LastError(), "sk_view_reshape: v is NULL");
  EXPECT_EQ(sk_view_flip(&v, 5, &out), SK_ERR_OUT_OF_RANGE);
  EXPECT_EQ(sk_view_slice(&v, nullptr, &out), SK_ERR_INVALID);
  EXPECT_EQ(sk_view_slice(&v, "::0", &out), SK_ERR_INVALID);
  EXPECT_EQ(sk_view_slice(&v, "5", &out), SK_ERR_OUT_OF_RANGE);
  EXPECT_EQ(sk_view_permute(&v, nullptr, &out), SK_ERR_INVALID);
  const int64_t begin[] = {0, 2}, end[] = {2, 1};
  EXPECT_EQ(sk_view_shrink(&v, begin, end, &out), SK_ERR_OUT_OF_RANGE);
  const int64_t three[] = {3, 3};
  EXPECT_EQ(sk_view_expand(&v, 2, three, &out), SK_ERR_INVALID);
  // A malformed input view: a mask outside the axis.
  sk_view bad = v;
  bad.has_mask = 1;
  bad.mask_begin[0] = 0;
  bad.mask_end[0] = 3;
  EXPECT_EQ(sk_view_flags(&bad), 0u);
  EXPECT_EQ(LastError(),
            "sk_view_flags: mask [0, 3) of axis 0 is not a range within [0, "
            "2]");
  EXPECT_EQ(sk_view_flags(nullptr), 0u);
  int64_t lo;
  EXPECT_EQ(sk_view_span(&v, &lo, nullptr), SK_ERR_INVALID);
  EXPECT_EQ(sk_view_compose(&v, nullptr, &out), SK_ERR_INVALID);
  EXPECT_EQ(sk_view_squeeze(&v, 1, nullptr, &out), SK_ERR_INVALID);
  EXPECT_EQ(sk_view_moveaxis(&v, 40, nullptr, nullptr, &out), SK_ERR_INVALID);
  // Overflow: padding and shrinking move the offset by dim * stride.
  sk_view huge = CView({2}, {INT64_MAX / 2});
  const int64_t pad_before[] = {3}, pad_after[] = {0};
  EXPECT_EQ(sk_view_pad(&huge, pad_before, pad_after, &out), SK_ERR_OVERFLOW);
  const int64_t big[] = {INT64_MAX};
  sk_view line = CView({4}, {});
  EXPECT_EQ(sk_view_pad(&line, big, pad_after, &out), SK_ERR_OVERFLOW);
  EXPECT_EQ(sk_view_slice(&huge, "::-3", &out), SK_OK);  // one element
  EXPECT_EQ(sk_view_slice(&huge, "::3", &out), SK_OK);
  EXPECT_EQ(out.strides[0], INT64_MAX / 2);  // Never moved along.
  const int64_t overflow_shape[] = {INT64_MAX, 2};
  EXPECT_EQ(sk_view_make(2, overflow_shape, nullptr, 0, &out), SK_ERR_OVERFLOW);
}

}  // namespace
}  // namespace stridekit
