// Data-driven view algebra cases checked against brute-force index models:
// tinygrad's masked reshapes (test_shapetracker.py: reshape_combining_*,
// reshape_splitting_*, zero_mask_*, ...) and Compose against an exhaustive
// search for a single view.
#include <gtest/gtest.h>

#include <algorithm>
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

// What a single view expressing Compose(base, over) must be, by brute force:
// index i of over reads base's C-order position over.LinearIndex(i); it is
// valid when valid in both. The valid indices must form a box, and their
// offsets must be affine there: a stride per axis from the difference
// between neighbouring indices at the box's first corner, then verified at
// every index.
struct Expected {
  bool exists = false;
  std::vector<std::optional<int64_t>> cells;  // per index of over, C order
};

Expected BruteForceCompose(const View& base, const View& over) {
  Expected e;
  const V shape = Vec(over.shape()), base_shape = Vec(base.shape());
  const int m = over.ndim();
  V lo(m, INT64_MAX), hi(m, INT64_MIN);
  int64_t valid = 0;
  for (int64_t k = 0; k < over.numel(); ++k) {
    const V i = Unravel(k, shape);
    std::optional<int64_t> cell;
    if (over.IsValid(i)) {
      const V b = Unravel(over.LinearIndex(i), base_shape);
      if (base.IsValid(b)) cell = base.LinearIndex(b);
    }
    e.cells.push_back(cell);
    if (!cell) continue;
    ++valid;
    for (int d = 0; d < m; ++d) {
      lo[d] = std::min(lo[d], i[d]);
      hi[d] = std::max(hi[d], i[d]);
    }
  }
  if (valid == 0) {
    e.exists = m > 0 || over.numel() == 0;  // No axis to mask a scalar.
    return e;
  }
  int64_t volume = 1;
  for (int d = 0; d < m; ++d) volume *= hi[d] - lo[d] + 1;
  if (volume != valid) return e;  // Not a box.
  auto cell_at = [&](const V& i) {
    int64_t k = 0;
    for (int d = 0; d < m; ++d) k = k * shape[d] + i[d];
    return e.cells[k];
  };
  const int64_t corner = *cell_at(lo);
  V strides(m, 0);
  for (int d = 0; d < m; ++d) {
    if (hi[d] == lo[d]) continue;
    V next = lo;
    ++next[d];
    strides[d] = *cell_at(next) - corner;
  }
  for (int64_t k = 0; k < over.numel(); ++k) {
    if (!e.cells[k]) continue;
    const V i = Unravel(k, shape);
    int64_t want = corner;
    for (int d = 0; d < m; ++d) want += (i[d] - lo[d]) * strides[d];
    if (*e.cells[k] != want) return e;
  }
  e.exists = true;
  return e;
}

class ComposeCases {
 public:
  explicit ComposeCases(uint64_t seed) : rng_(seed) {}

  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

  // A small strided layout, masked with probability mask_percent.
  View Layout(int max_rank, int64_t max_dim, int64_t max_stride,
              int mask_percent) {
    const int rank = int(Uniform(0, max_rank));
    V shape(rank), strides(rank);
    std::vector<AxisRange> mask;
    const bool masked = rank > 0 && Uniform(0, 99) < mask_percent;
    for (int d = 0; d < rank; ++d) {
      shape[d] = Uniform(1, max_dim);
      strides[d] = Uniform(-max_stride, max_stride);
      if (masked) {
        const int64_t b = Uniform(0, shape[d] - 1);
        mask.push_back({b, Uniform(b + 1, shape[d])});
      }
    }
    return View::Make(shape, strides, Uniform(-20, 20), mask);
  }

  // `over` with an offset that keeps its valid positions in [0, count),
  // or nullopt when none does.
  std::optional<View> Over(const View& shape_of, int64_t count) {
    const View::Span span = shape_of.ValidSpan();
    const int64_t lo = -span.lo, hi = count - span.hi;
    if (lo > hi) return std::nullopt;
    const int64_t shift = Uniform(lo, hi);
    std::vector<AxisRange> mask;
    if (shape_of.has_mask()) {
      for (int d = 0; d < shape_of.ndim(); ++d) {
        mask.push_back(shape_of.mask(d));
      }
    }
    return View::Make(shape_of.shape(), shape_of.strides(),
                      shape_of.offset() + shift, mask);
  }

  std::mt19937_64 rng_;
};

// Compares Compose with the brute force on random small pairs: it must
// return a view exactly when one exists, reading the same elements.
void CheckComposeCases(int trials, int mask_percent, int& found, int& refused) {
  for (int trial = 0; trial < trials; ++trial) {
    ComposeCases gen(0xc0de0000 + trial + 100000 * mask_percent);
    const View base = gen.Layout(3, 4, 6, mask_percent);
    const std::optional<View> over =
        gen.Over(gen.Layout(3, 4, gen.Uniform(0, 1) ? 4 : 13, mask_percent / 2),
                 base.numel());
    if (!over) continue;
    const std::string what =
        "Compose(" + base.ToString() + ", " + over->ToString() + ")";
    const Expected want = BruteForceCompose(base, *over);
    std::optional<View> got;
    try {
      got = Compose(base, *over);
    } catch (const Error& e) {
      ASSERT_EQ(e.kind(), ErrorKind::kNeedsCopy) << what << ": " << e.what();
      ASSERT_FALSE(want.exists) << what << ": " << e.what();
      ++refused;
      continue;
    }
    ASSERT_TRUE(want.exists) << what << " gave " << got->ToString();
    ++found;
    ASSERT_EQ(Vec(got->shape()), Vec(over->shape())) << what;
    for (int64_t k = 0; k < over->numel(); ++k) {
      const V i = Unravel(k, Vec(over->shape()));
      ASSERT_EQ(got->IsValid(i), want.cells[k].has_value())
          << what << " gave " << got->ToString() << " at " << k;
      if (want.cells[k]) {
        ASSERT_EQ(got->LinearIndex(i), *want.cells[k])
            << what << " gave " << got->ToString() << " at " << k;
      }
    }
  }
}

// Each kind of outcome in more than 1 of 20 trials (the seeds are fixed).
TEST(ViewCases, ComposeIsExactForUnmaskedViews) {
  int found = 0, refused = 0;
  const int trials = testing::Trials(20000);
  CheckComposeCases(trials, 0, found, refused);
  std::printf("unmasked: %d composed, %d refused\n", found, refused);
  EXPECT_GT(found, trials / 20);
  EXPECT_GT(refused, trials / 20);
}

TEST(ViewCases, ComposeIsExactForMaskedViews) {
  int found = 0, refused = 0;
  const int trials = testing::Trials(20000);
  CheckComposeCases(trials, 60, found, refused);
  std::printf("masked: %d composed, %d refused\n", found, refused);
  EXPECT_GT(found, trials / 20);
  EXPECT_GT(refused, trials / 20);
}

// Reshape of random small (mostly masked) views to random factorisations of
// their size: it must succeed exactly when a single view reads the same
// elements in C order (the brute force of Compose over a C layout).
TEST(ViewCases, MaskedReshapeIsExact) {
  int reshaped = 0, refused = 0;
  const int trials = testing::Trials(20000);
  for (int trial = 0; trial < trials; ++trial) {
    ComposeCases gen(0x5a9e0000 + trial);
    View v = gen.Layout(4, 4, 6, 70);
    if (v.ndim() > 0 && gen.Uniform(0, 9) == 0) {
      // The same shape with no valid element: the padding after axis 0.
      V after(v.ndim(), 0), begin(v.ndim(), 0), end = Vec(v.shape());
      after[0] = end[0];
      begin[0] = end[0];
      end[0] *= 2;
      v = v.Pad(V(v.ndim(), 0), after).Shrink(begin, end);
    }
    int64_t n = v.numel();
    V shape;
    while (n > 1) {
      int64_t f = gen.Uniform(2, n);
      while (n % f != 0) ++f;
      shape.push_back(f);
      n /= f;
    }
    if (v.numel() == 0 || gen.Uniform(0, 2) == 0) {
      shape.insert(shape.begin() + gen.Uniform(0, int64_t(shape.size())),
                   v.numel() == 0 ? 0 : 1);
    }
    std::shuffle(shape.begin(), shape.end(), gen.rng_);
    const std::string what =
        v.ToString() + ".Reshape(" + View::Make(shape).ToString() + ")";
    const Expected want = BruteForceCompose(v, View::Make(shape));
    View got;
    try {
      got = v.Reshape(shape);
    } catch (const Error& e) {
      ASSERT_EQ(e.kind(), ErrorKind::kNeedsCopy) << what << ": " << e.what();
      ASSERT_FALSE(want.exists) << what << ": " << e.what();
      ++refused;
      continue;
    }
    ASSERT_TRUE(want.exists) << what << " gave " << got.ToString();
    ++reshaped;
    ExpectSameElements(v, got, what);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("reshape: %d reshaped, %d refused\n", reshaped, refused);
  EXPECT_GT(reshaped, trials / 20);
  EXPECT_GT(refused, trials / 20);
}

// Beyond the search limit only the digit test decides: whatever it
// returns must still read the right elements.
TEST(ViewCases, ComposeOfLargeViewsIsSound) {
  int found = 0;
  const int trials = testing::Trials(24);
  for (int trial = 0; trial < trials; ++trial) {
    ComposeCases gen(0xb16 + trial);
    const V base_shape{gen.Uniform(300, 400), gen.Uniform(3, 5),
                       gen.Uniform(100, 120)};
    const int64_t inner = gen.Uniform(1, 3);
    // Half the bases have rows that merge (then over's rows fit in them).
    const V base_strides{
        gen.Uniform(-9, 9),
        gen.Uniform(0, 1) ? base_shape[2] * inner : gen.Uniform(-9, 9), inner};
    const View base = View::Make(base_shape, base_strides, 0);
    const int64_t block = base_shape[1] * base_shape[2];
    // Each row of over runs along one base block: no digit carries.
    const int64_t rows = gen.Uniform(200, 250), cols = gen.Uniform(300, block);
    const int64_t row_stride = block;
    const int64_t col_stride = gen.Uniform(0, 3) ? 1 : -1;
    if ((rows - 1) * row_stride + block > base.numel()) continue;
    const int64_t start = col_stride > 0 ? gen.Uniform(0, block - cols)
                                         : gen.Uniform(cols - 1, block - 1);
    const std::optional<View> over =
        View::Make(V{rows, cols}, V{row_stride, col_stride}, start);
    const std::string what =
        "Compose(" + base.ToString() + ", " + over->ToString() + ")";
    View got;
    try {
      got = Compose(base, *over);
    } catch (const Error& e) {
      ASSERT_EQ(e.kind(), ErrorKind::kNeedsCopy) << what << ": " << e.what();
      continue;
    }
    ++found;
    const V shape = Vec(over->shape());
    for (int64_t k = 0; k < over->numel(); ++k) {
      const V i = Unravel(k, shape);
      const V b = Unravel(over->LinearIndex(i), base_shape);
      ASSERT_EQ(got.LinearIndex(i), base.LinearIndex(b))
          << what << " gave " << got.ToString() << " at " << k;
    }
  }
  std::printf("large: %d composed\n", found);
  EXPECT_GE(found, std::max(1, trials / 4));
}

}  // namespace
}  // namespace stridekit
