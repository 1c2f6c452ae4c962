// Data-driven view algebra cases checked against brute-force index models:
// tinygrad's masked reshapes (test_shapetracker.py: reshape_combining_*,
// reshape_splitting_*, zero_mask_*, ...) and Compose against an exhaustive
// search for a single view.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "stridekit/view.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Vec;
using V = std::vector<int64_t>;

int64_t Count(const V& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The C-order coordinates of position k of `shape`.
V Unravel(int64_t k, const V& shape) {
  V index(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    index[d] = k % shape[d];
    k /= shape[d];
  }
  return index;
}

std::vector<AxisRange> Mask(const View& v) {
  std::vector<AxisRange> out;
  for (int d = 0; d < v.ndim(); ++d) out.push_back(v.mask(d));
  return out;
}

std::string MaskText(const std::vector<AxisRange>& mask) {
  std::string text;
  for (const AxisRange& r : mask) {
    text += "(" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")";
  }
  return text;
}

// A reshape must keep the C order: position k of `from` and of `to` are the
// same element (same offset when valid, invalid in both otherwise).
void ExpectSameElements(const View& from, const View& to,
                        const std::string& what) {
  ASSERT_EQ(from.numel(), to.numel()) << what;
  const V from_shape = Vec(from.shape()), to_shape = Vec(to.shape());
  for (int64_t k = 0; k < from.numel(); ++k) {
    const V i = Unravel(k, from_shape), j = Unravel(k, to_shape);
    ASSERT_EQ(from.IsValid(i), to.IsValid(j))
        << what << ": position " << k << " of " << from.ToString() << " and "
        << to.ToString();
    if (from.IsValid(i)) {
      ASSERT_EQ(from.LinearIndex(i), to.LinearIndex(j))
          << what << ": position " << k << " of " << from.ToString() << " and "
          << to.ToString();
    }
  }
}

// One movement operation of a case.
struct Step {
  enum Kind { kPad, kShrink, kReshape, kExpand, kPermute } kind;
  V a;  // pad before, shrink begin, reshape/expand shape, permute axes
  V b;  // pad after, shrink end
};

Step Pad(V before, V after) { return {Step::kPad, before, after}; }
Step Shrink(V begin, V end) { return {Step::kShrink, begin, end}; }
Step Reshape(V shape) { return {Step::kReshape, shape, {}}; }
Step Expand(V shape) { return {Step::kExpand, shape, {}}; }
Step Permute(V axes) { return {Step::kPermute, axes, {}}; }

struct ReshapeCase {
  const char* name;
  V shape;  // a C-contiguous start at offset 0
  std::vector<Step> steps;
  // The view after the last step.
  V strides;
  int64_t offset;
  std::vector<AxisRange> mask;  // empty: no mask
};

// tinygrad reshapes a masked view whenever its valid region stays a box,
// merging and splitting through axes whose mask keeps one index (their
// stride is then irrelevant). tinygrad canonicalises such strides to 0;
// stridekit gives them NumPy's C stride from the merged group instead, so
// strides and offsets differ from tinygrad's where only masked positions
// see the difference.
const ReshapeCase kReshapeCases[] = {
    // The README example: [1,5] padded to [2,10], flattened.
    {"readme_example",
     {1, 5},
     {Pad({1, 0}, {0, 5}), Reshape({20})},
     {1},
     -10,
     {{10, 15}}},
    {"reshape_combining_1",
     {2, 1, 10},
     {Pad({2, 0, 0}, {6, 0, 0}), Reshape({100})},
     {1},
     -20,
     {{20, 40}}},
    {"reshape_combining_2",
     {1, 1, 5},
     {Pad({3, 0, 0}, {6, 0, 5}), Reshape({100})},
     {1},
     -30,
     {{30, 35}}},
    {"reshape_combining_3",
     {1, 1, 4},
     {Pad({3, 0, 1}, {6, 0, 5}), Reshape({100})},
     {1},
     -31,
     {{31, 35}}},
    {"reshape_combining_4",
     {1, 1, 5, 5, 1, 1, 5},
     {Pad({2, 0, 0, 0, 2, 0, 0}, {1, 0, 2, 0, 1, 0, 2}), Reshape({28, 5, 28})},
     {25, 5, 1},
     -364,
     {{14, 19}, {0, 5}, {14, 19}}},

    {"reshape_splitting_combining",
     {1, 5, 5},
     {Pad({0, 0, 0}, {4, 5, 0}), Reshape({10, 25})},
     {25, 1},
     0,
     {{0, 1}, {0, 25}}},
    {"reshape_splitting_1",
     {1, 10, 1},
     {Pad({0, 0, 1}, {4, 0, 0}), Reshape({5, 5, 2, 2})},
     {10, 2, 1, 1},
     -1,
     {{0, 1}, {0, 5}, {0, 2}, {1, 2}}},

    {"reshape_only_1s",
     {1, 1, 1, 4, 1, 3, 5, 1},
     {Pad({0, 0, 0, 1, 0, 0, 0, 0}, {4, 0, 0, 1, 0, 0, 0, 0}),
      Reshape({5, 6, 3, 5}), Reshape({1, 1, 5, 6, 3, 5, 1, 1}),
      Reshape({1, 5, 6, 1, 3, 1, 5, 1})},
     {300, 60, 15, 15, 5, 5, 1, 1},
     -15,
     {{0, 1}, {0, 1}, {1, 5}, {0, 1}, {0, 3}, {0, 1}, {0, 5}, {0, 1}}},

    {"zero_mask_1",
     {1, 3, 2},
     {Pad({0, 0, 0}, {0, 3, 0}), Shrink({0, 3, 0}, {1, 6, 2}), Reshape({3, 2}),
      Reshape({1, 3, 1, 2, 1})},
     {6, 2, 2, 1, 1},
     6,
     {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}},

    {"zero_mask_2",
     {1, 3, 2},
     {Pad({0, 0, 0}, {2, 3, 0}), Shrink({2, 3, 0}, {3, 6, 2}), Reshape({3, 2}),
      Reshape({1, 3, 1, 2, 1})},
     {6, 2, 2, 1, 1},
     18,
     {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}},

    {"expanded_reshaped",
     {1, 3, 2, 1},
     {Expand({5, 3, 2, 2}), Pad({0, 0, 0, 0}, {0, 3, 0, 0}),
      Reshape({5, 2, 3, 2, 2})},
     {0, 6, 2, 1, 0},
     0,
     {{0, 5}, {0, 1}, {0, 3}, {0, 2}, {0, 2}}},

    {"splitting_big",
     {1, 5, 1, 15, 1},
     {Pad({0, 0, 0, 0, 0}, {0, 5, 0, 15, 0}), Reshape({10, 1, 30}),
      Permute({2, 1, 0}), Reshape({2, 3, 5, 2, 5})},
     {15, 5, 1, 75, 15},
     0,
     {{0, 1}, {0, 3}, {0, 5}, {0, 1}, {0, 5}}},

    {"combining_big",
     {1, 3, 1, 5, 3, 1},
     {Pad({0, 2, 0, 0, 0, 0}, {0, 2, 0, 0, 0, 0}),
      Reshape({1, 1, 1, 105, 1, 1})},
     {105, 105, 105, 1, 1, 1},
     -30,
     {{0, 1}, {0, 1}, {0, 1}, {30, 75}, {0, 1}, {0, 1}}},

    {"pad_reshape",
     {4},
     {Pad({2}, {2}), Reshape({4, 2})},
     {2, 1},
     -2,
     {{1, 3}, {0, 2}}},
    // No valid element: any strides will do, even where none merge.
    {"none_valid_transposed",
     {2, 3},
     {Permute({1, 0}), Pad({3, 0}, {0, 0}), Shrink({0, 0}, {3, 2}),
      Reshape({6})},
     {0},
     -3,
     {{0, 0}}},
};

View Apply(const View& v, const Step& s) {
  switch (s.kind) {
    case Step::kPad:
      return v.Pad(s.a, s.b);
    case Step::kShrink:
      return v.Shrink(s.a, s.b);
    case Step::kReshape:
      return v.Reshape(s.a);
    case Step::kExpand:
      return v.Expand(s.a);
    case Step::kPermute:
      return v.Permute(s.a);
  }
  return v;
}

TEST(ViewCases, TinygradMaskedReshapes) {
  for (const ReshapeCase& c : kReshapeCases) {
    SCOPED_TRACE(c.name);
    View v = View::Make(c.shape);
    for (const Step& s : c.steps) {
      View next;
      try {
        next = Apply(v, s);
      } catch (const Error& e) {
        FAIL() << c.name << ": " << e.what();
      }
      if (s.kind == Step::kReshape) {
        ExpectSameElements(v, next, c.name);
        if (::testing::Test::HasFatalFailure()) return;
      }
      v = next;
    }
    EXPECT_EQ(Vec(v.strides()), c.strides) << v.ToString();
    EXPECT_EQ(v.offset(), c.offset) << v.ToString();
    EXPECT_EQ(v.has_mask() ? Mask(v) : std::vector<AxisRange>{}, c.mask)
        << MaskText(Mask(v));
  }
}

TEST(ViewCases, MaskedReshapesThatAreNoBox) {
  // tinygrad's test_pad_reshape: valid positions 3 and 4 of [3,2] are (1,1)
  // and (2,0), no box (tinygrad keeps two views).
  EXPECT_SK_ERROR(View::Make(V{1, 2}).Pad(V{1, 0}, V{0, 1}).Reshape(V{3, 2}),
                  ErrorKind::kNeedsCopy,
                  "reshape: cannot reshape View(shape=[2,3], strides=[2,1], "
                  "offset=-2, mask=[(1,2),(0,2)]) to [3,2] without a copy: its "
                  "mask would not stay a box");
  // A one-index axis between two varying ones still separates them.
  EXPECT_THROW(View::Make(V{2, 1, 3})
                   .Permute(V{2, 1, 0})
                   .Pad(V{0, 1, 0}, V{0, 1, 0})
                   .Reshape(V{18}),
               Error);
}

}  // namespace
}  // namespace stridekit
