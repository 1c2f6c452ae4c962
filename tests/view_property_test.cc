// Property test: random chains of view operations on random layouts. Beside
// each View we keep a naive model, the explicit offset of every position (or
// "masked"), and apply every operation to it by moving cells; after each step
// the view's LinearIndex/IsValid must reproduce the model exactly.
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

using V = std::vector<int64_t>;
constexpr int64_t kMasked = INT64_MIN;

struct Model {
  V shape;
  std::vector<int64_t> cells;  // C order; kMasked where invalid
};

int64_t Count(const V& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Calls f(index, position) for every index of `shape` in C order.
template <typename F>
void ForEachIndex(const V& shape, F&& f) {
  const int64_t n = Count(shape);
  V index(shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    f(index, k);
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

int64_t Position(const V& shape, const V& index) {
  int64_t k = 0;
  for (size_t d = 0; d < shape.size(); ++d) k = k * shape[d] + index[d];
  return k;
}

// A model of `new_shape` whose cell at each index is the old cell at
// source(index), or masked when source returns false.
template <typename Source>
Model Remap(const Model& m, const V& new_shape, Source&& source) {
  Model out{new_shape, std::vector<int64_t>(Count(new_shape))};
  ForEachIndex(new_shape, [&](const V& index, int64_t k) {
    V old(m.shape.size());
    out.cells[k] =
        source(index, old) ? m.cells[Position(m.shape, old)] : kMasked;
  });
  return out;
}

class Chain {
 public:
  explicit Chain(uint64_t seed) : rng_(seed) {}

  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }

  // A random strided layout (any strides, including 0 and negative).
  void Start() {
    const int rank = int(Uniform(0, 4));
    V shape(rank), strides(rank);
    for (int d = 0; d < rank; ++d) {
      shape[d] = Uniform(0, 9) == 0 ? 0 : Uniform(1, 4);
      strides[d] = Uniform(-7, 7);
    }
    if (Uniform(0, 9) < 4) {  // Often a (scaled) C layout: mergeable axes.
      const int64_t scale = Uniform(1, 2);
      int64_t next = scale;
      for (int d = rank - 1; d >= 0; --d) {
        strides[d] = next;
        next *= std::max<int64_t>(shape[d], 1);
      }
    }
    const int64_t offset = Uniform(0, 60);
    view_ = View::Make(shape, strides, offset);
    model_ = Model{shape, std::vector<int64_t>(Count(shape))};
    ForEachIndex(shape, [&](const V& index, int64_t k) {
      int64_t o = offset;
      for (int d = 0; d < rank; ++d) o += index[d] * strides[d];
      model_.cells[k] = o;
    });
    log_ = view_.ToString();
  }

  // Applies one random operation to both; false when the view refuses it
  // with kNeedsCopy (allowed for reshape and compose only).
  bool Step() {
    const V shape(view_.shape().begin(), view_.shape().end());
    const int n = int(shape.size());
    switch (Uniform(0, 10)) {
      case 0: {  // reshape to a random factorisation of the element count
        const V target = Factor(Count(shape));
        log_ += " reshape" + Str(target);
        try {
          view_ = view_.Reshape(target);
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::kNeedsCopy) << log_ << e.what();
          return false;
        }
        model_.shape = target;
        return true;
      }
      case 1: {  // expand: prepend axes and grow size-1 axes
        V target;
        for (int i = int(Uniform(0, 1)); i > 0; --i)
          target.push_back(Uniform(1, 3));
        const int lead = int(target.size());
        for (int64_t d : shape) target.push_back(d == 1 ? Uniform(0, 3) : d);
        if (Count(target) > 4096) return true;
        log_ += " expand" + Str(target);
        view_ = view_.Expand(target);
        model_ = Remap(model_, target, [&](const V& i, V& old) {
          for (int d = 0; d < n; ++d) old[d] = shape[d] == 1 ? 0 : i[lead + d];
          return true;
        });
        return true;
      }
      case 2: {  // permute
        V axes(n);
        for (int d = 0; d < n; ++d) axes[d] = d;
        std::shuffle(axes.begin(), axes.end(), rng_);
        V signed_axes = axes;
        for (auto& a : signed_axes) a -= Uniform(0, 1) * n;
        log_ += " permute" + Str(signed_axes);
        view_ = view_.Permute(signed_axes);
        V target(n);
        for (int d = 0; d < n; ++d) target[d] = shape[axes[d]];
        model_ = Remap(model_, target, [&](const V& i, V& old) {
          for (int d = 0; d < n; ++d) old[axes[d]] = i[d];
          return true;
        });
        return true;
      }
      case 3: {  // shrink
        V begin(n), end(n);
        for (int d = 0; d < n; ++d) {
          begin[d] = Uniform(0, shape[d]);
          end[d] = Uniform(begin[d], shape[d]);
        }
        log_ += " shrink" + Str(begin) + Str(end);
        view_ = view_.Shrink(begin, end);
        V target(n);
        for (int d = 0; d < n; ++d) target[d] = end[d] - begin[d];
        model_ = Remap(model_, target, [&](const V& i, V& old) {
          for (int d = 0; d < n; ++d) old[d] = i[d] + begin[d];
          return true;
        });
        return true;
      }
      case 4: {  // pad
        V before(n), after(n), target(n);
        for (int d = 0; d < n; ++d) {
          before[d] = Uniform(0, 2);
          after[d] = Uniform(0, 2);
          target[d] = shape[d] + before[d] + after[d];
        }
        if (Count(target) > 4096) return true;
        log_ += " pad" + Str(before) + Str(after);
        view_ = view_.Pad(before, after);
        model_ = Remap(model_, target, [&](const V& i, V& old) {
          for (int d = 0; d < n; ++d) {
            old[d] = i[d] - before[d];
            if (old[d] < 0 || old[d] >= shape[d]) return false;
          }
          return true;
        });
        return true;
      }
      case 5: {  // flip
        if (n == 0) return true;
        const int a = int(Uniform(0, n - 1));
        log_ += " flip(";
        log_ += std::to_string(a) + ")";
        view_ = view_.Flip(a);
        model_ = Remap(model_, shape, [&](const V& i, V& old) {
          old = i;
          old[a] = shape[a] - 1 - i[a];
          return true;
        });
        return true;
      }
      case 6: {  // squeeze all size-1 axes / unsqueeze one
        if (Uniform(0, 1) == 0) {
          log_ += " squeeze";
          try {
            view_ = view_.Squeeze();
          } catch (const Error& e) {  // All masked and no axis left.
            EXPECT_EQ(e.kind(), ErrorKind::kNeedsCopy) << log_ << e.what();
            return false;
          }
          V target;
          for (int64_t d : shape) {
            if (d != 1) target.push_back(d);
          }
          model_.shape = target;
        } else {
          if (n >= 6) return true;
          const int64_t axis = Uniform(-(n + 1), n);
          log_ += " unsqueeze(";
          log_ += std::to_string(axis) + ")";
          view_ = view_.Unsqueeze(V{axis});
          V target = shape;
          target.insert(target.begin() + (axis < 0 ? axis + n + 1 : axis), 1);
          model_.shape = target;
        }
        return true;
      }
      case 7:
      case 8:
        return Slice(shape);
      case 9: {  // moveaxis / swapaxes
        if (n < 2) return true;
        const int a = int(Uniform(0, n - 1)), b = int(Uniform(0, n - 1));
        log_ += " swapaxes(" + std::to_string(a) + ',';
        log_ += std::to_string(b) + ")";
        view_ = view_.SwapAxes(a, b);
        V target = shape;
        std::swap(target[a], target[b]);
        model_ = Remap(model_, target, [&](const V& i, V& old) {
          old = i;
          std::swap(old[a], old[b]);
          return true;
        });
        return true;
      }
      default:
        return Compose(shape);
    }
  }

  void Check() {
    ASSERT_EQ(V(view_.shape().begin(), view_.shape().end()), model_.shape)
        << log_;
    ForEachIndex(model_.shape, [&](const V& index, int64_t k) {
      const bool valid = model_.cells[k] != kMasked;
      ASSERT_EQ(view_.IsValid(index), valid)
          << log_ << " at position " << k << " -> " << view_.ToString();
      if (valid) {
        ASSERT_EQ(view_.LinearIndex(index), model_.cells[k])
            << log_ << " at position " << k << " -> " << view_.ToString();
      }
    });
    const View::Span span = view_.ValidSpan();
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t c : model_.cells) {
      if (c == kMasked) continue;
      lo = std::min(lo, c);
      hi = std::max(hi, c + 1);
    }
    if (lo == INT64_MAX) lo = hi = 0;
    ASSERT_EQ(span, (View::Span{lo, hi})) << log_;
  }

 private:
  static std::string Str(const V& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s += ',';
      s += std::to_string(v[i]);
    }
    return s + "]";
  }

  // A random shape with `count` elements (rank 0..5, size-1 axes sprinkled).
  V Factor(int64_t count) {
    V out;
    if (count == 0) {
      out = {0};
      while (Uniform(0, 2) == 0)
        out.insert(out.begin() + Uniform(0, out.size()), Uniform(1, 3));
      return out;
    }
    int64_t rest = count;
    for (int64_t p = 2; p <= rest; ++p) {
      while (rest % p == 0) {
        out.push_back(p);
        rest /= p;
      }
    }
    // Merge random neighbours and insert ones.
    while (out.size() > 1 && Uniform(0, 1) == 0) {
      const size_t i = size_t(Uniform(0, int64_t(out.size()) - 2));
      out[i] *= out[i + 1];
      out.erase(out.begin() + i + 1);
    }
    std::shuffle(out.begin(), out.end(), rng_);
    while (out.size() < 5 && Uniform(0, 3) == 0) {
      out.insert(out.begin() + Uniform(0, int64_t(out.size())), 1);
    }
    return out;
  }

  // Random basic indexing; starts are in range so the naive model below
  // needs no Python normalisation (the NumPy differential test covers it).
  bool Slice(const V& shape) {
    const int n = int(shape.size());
    SliceItems items;
    struct Axis {
      std::vector<int64_t> picks;  // old indices, in new order
      bool dropped;
    };
    std::vector<Axis> plan;
    V target;
    int newaxes = 0;
    std::string text;
    for (int d = 0; d < n; ++d) {
      if (Uniform(0, 4) == 0 && newaxes < 2) {
        items.push_back(SliceItem::NewAxis());
        target.push_back(1);
        ++newaxes;
      }
      const int64_t dim = shape[d];
      const int kind = int(Uniform(0, 3));
      if (kind == 0 && dim > 0) {
        const int64_t i = Uniform(-dim, dim - 1);
        items.push_back(SliceItem::Index(i));
        plan.push_back({{i < 0 ? i + dim : i}, true});
      } else if (kind == 1 || dim == 0) {
        items.push_back(SliceItem::All());
        std::vector<int64_t> all;
        for (int64_t i = 0; i < dim; ++i) all.push_back(i);
        plan.push_back({all, false});
        target.push_back(dim);
      } else {
        int64_t step = Uniform(1, 3) * (Uniform(0, 1) ? 1 : -1);
        const int64_t start = Uniform(0, dim - 1);
        std::optional<int64_t> stop;
        if (Uniform(0, 1))
          stop = step > 0 ? Uniform(start, dim) : Uniform(0, start);
        std::vector<int64_t> picks;
        for (int64_t i = start;
             step > 0 ? i < stop.value_or(dim) : i > stop.value_or(-1);
             i += step) {
          picks.push_back(i);
        }
        items.push_back(SliceItem::Range(start, stop, step));
        target.push_back(int64_t(picks.size()));
        plan.push_back({picks, false});
      }
    }
    for (const SliceItem& item : items) text += ToString(item) + ",";
    log_ += " slice(" + text + ")";
    try {
      view_ = view_.Slice(items);
    } catch (const Error& e) {  // An integer index on a masked-out row
      EXPECT_EQ(e.kind(), ErrorKind::kNeedsCopy) << log_ << e.what();
      return false;
    }
    Model fresh{target, std::vector<int64_t>(Count(target))};
    ForEachIndex(target, [&](const V& index, int64_t k) {
      V old(n);
      int t = 0, d = 0;
      for (const SliceItem& item : items) {
        if (item.kind == SliceItem::Kind::kNewAxis) {
          ++t;
          continue;
        }
        const Axis& axis = plan[d];
        old[d] = axis.dropped ? axis.picks[0] : axis.picks[index[t++]];
        ++d;
      }
      fresh.cells[k] = model_.cells[Position(shape, old)];
    });
    model_ = fresh;
    return true;
  }

  bool Compose(const V& shape) {
    // `over`: a random reshaped, permuted, flipped, shrunk C layout over the
    // C-order positions of the current view.
    const int64_t count = Count(shape);
    View over = View::Make(Factor(count));
    std::string text = "compose(" + over.ToString();
    if (over.ndim() > 0) {
      const int a = int(Uniform(0, over.ndim() - 1));
      over = over.Flip(a);
      V axes(over.ndim());
      for (int d = 0; d < over.ndim(); ++d) axes[d] = d;
      std::shuffle(axes.begin(), axes.end(), rng_);
      over = over.Permute(axes);
      V begin(over.ndim()), end(over.ndim());
      for (int d = 0; d < over.ndim(); ++d) {
        begin[d] = Uniform(0, over.dim(d));
        end[d] = Uniform(begin[d], over.dim(d));
      }
      over = over.Shrink(begin, end);
    }
    log_ += " " + text + " -> " + over.ToString() + ")";
    try {
      view_ = stridekit::Compose(view_, over);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kNeedsCopy) << log_ << e.what();
      return false;
    }
    const V target(over.shape().begin(), over.shape().end());
    Model fresh{target, std::vector<int64_t>(Count(target))};
    ForEachIndex(target, [&](const V& index, int64_t k) {
      fresh.cells[k] = model_.cells[over.LinearIndex(index)];
    });
    model_ = fresh;
    return true;
  }

  std::mt19937_64 rng_;
  View view_;
  Model model_;
  std::string log_;
};

TEST(ViewProperty, RandomChainsMatchTheNaiveModel) {
  int steps = 0, refused = 0;
  for (int trial = 0; trial < testing::Trials(3000); ++trial) {
    Chain chain(0x5eed0000 + trial);
    chain.Start();
    chain.Check();
    if (::testing::Test::HasFatalFailure()) return;
    for (int i = 0; i < 8; ++i) {
      if (!chain.Step()) {
        ++refused;
        break;
      }
      ++steps;
      chain.Check();
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  // The chains must mostly succeed, or the test checks little.
  EXPECT_GT(steps, 10 * refused);
  std::printf("%d steps, %d refused with kNeedsCopy\n", steps, refused);
}

}  // namespace
}  // namespace stridekit
