// Differential fuzzer of the view algebra against a brute-force model: the
// model of a view is its shape and, per element in C order, whether it is
// valid and the buffer offset it reads. Each operation of a random chain
// (reshape, expand, permute, shrink, pad, flip, squeeze, unsqueeze, swapaxes,
// basic indexing, compose) is applied both to the View and, element by
// element, to the model; a View that an operation returns must list exactly
// the model's elements. Where the model says the arguments are valid, the
// operations that always have a view result (all but reshape and compose,
// which may need a copy) must not throw.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "stridekit/view.h"

namespace {

using stridekit::Dims;
using stridekit::SliceItem;
using stridekit::View;

// Larger models are not followed: building one throws TooLarge and the
// chain stops.
constexpr int64_t kMaxElements = 4096;
struct TooLarge {};

struct Model {
  Dims shape;
  std::vector<int64_t> offset;  // per element in C order
  std::vector<uint8_t> valid;
};

// NumPy's count rule, as the library's: the product of the nonzero dims
// must fit in int64 even when a zero dim makes the count 0.
std::optional<int64_t> Numel(const Dims& shape) {
  int64_t n = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) return std::nullopt;
    if (d == 0) {
      empty = true;
    } else if (__builtin_mul_overflow(n, d, &n)) {
      return std::nullopt;
    }
  }
  return empty ? 0 : n;
}

// Calls f(k, index) for every index of `shape` in C order.
template <class F>
void ForEachIndex(const Dims& shape, F f) {
  const auto n = Numel(shape);
  if (!n || *n == 0) return;
  Dims index(shape.size(), 0);
  for (int64_t k = 0; k < *n; ++k) {
    f(k, index);
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

// The C-order position of `index` in `shape`.
int64_t Flat(const Dims& shape, const Dims& index) {
  int64_t k = 0;
  for (int d = 0; d < shape.size(); ++d) k = k * shape[d] + index[d];
  return k;
}

// The model of a view, read from its fields with plain arithmetic
// (nullopt when it is too large to follow).
std::optional<Model> ModelOf(const View& v) {
  Model m;
  m.shape.assign(v.shape());
  const auto n = Numel(m.shape);
  if (!n || *n > kMaxElements) return std::nullopt;
  m.offset.resize(size_t(*n));
  m.valid.resize(size_t(*n));
  ForEachIndex(m.shape, [&](int64_t k, const Dims& index) {
    __int128 at = v.offset();
    bool valid = true;
    for (int d = 0; d < v.ndim(); ++d) {
      at += __int128(index[d]) * v.stride(d);
      if (v.has_mask() &&
          (index[d] < v.mask(d).begin || index[d] >= v.mask(d).end)) {
        valid = false;
      }
    }
    m.valid[size_t(k)] = valid;
    m.offset[size_t(k)] = valid ? int64_t(at) : 0;
  });
  return m;
}

// True when the view lists exactly the model's elements.
bool Matches(const Model& expected, const View& v) {
  const std::optional<Model> actual = ModelOf(v);
  return actual && actual->shape == expected.shape &&
         actual->valid == expected.valid && actual->offset == expected.offset;
}

// A model of `shape` whose element at `index` is the source's element
// source_k(index), or invalid when that returns -1.
template <class F>
std::optional<Model> Gather(const Model& from, const Dims& shape, F source_k) {
  Model m;
  m.shape = shape;
  const auto n = Numel(shape);
  if (!n || *n > kMaxElements) throw TooLarge{};
  m.offset.assign(size_t(*n), 0);
  m.valid.assign(size_t(*n), 0);
  ForEachIndex(shape, [&](int64_t k, const Dims& index) {
    const int64_t s = source_k(index);
    if (s >= 0 && from.valid[size_t(s)]) {
      m.valid[size_t(k)] = 1;
      m.offset[size_t(k)] = from.offset[size_t(s)];
    }
  });
  return m;
}

int64_t NormalizeAxis(int64_t axis, int64_t ndim) {
  return axis < 0 ? axis + ndim : axis;
}

std::optional<Model> Reshape(const Model& m, Dims shape) {
  int infer = -1;
  int64_t known = 1;
  for (int d = 0; d < int(shape.size()); ++d) {
    if (shape[d] == -1 && infer < 0) {
      infer = d;
    } else if (shape[d] < 0 ||
               __builtin_mul_overflow(known, shape[d], &known)) {
      return std::nullopt;
    }
  }
  const int64_t n = int64_t(m.valid.size());
  if (infer >= 0) {
    if (known == 0 || n % known != 0) return std::nullopt;
    shape[infer] = n / known;
  } else if (known != n) {
    return std::nullopt;
  }
  Model r = m;
  r.shape = shape;
  return r;
}

std::optional<Model> Expand(const Model& m, const Dims& shape) {
  const int lead = int(shape.size()) - int(m.shape.size());
  if (lead < 0) return std::nullopt;
  for (int d = 0; d < int(shape.size()); ++d) {
    if (shape[d] < 0) return std::nullopt;
    if (d >= lead && m.shape[d - lead] != shape[d] && m.shape[d - lead] != 1) {
      return std::nullopt;
    }
  }
  return Gather(m, shape, [&](const Dims& index) {
    Dims at(m.shape.size());
    for (int d = 0; d < at.size(); ++d) {
      at[d] = m.shape[d] == 1 ? 0 : index[d + lead];
    }
    return Flat(m.shape, at);
  });
}

std::optional<Model> Permute(const Model& m, Dims axes) {
  const int n = int(m.shape.size());
  if (int(axes.size()) != n) return std::nullopt;
  std::vector<bool> seen(n);
  for (int64_t& a : axes) {
    a = NormalizeAxis(a, n);
    if (a < 0 || a >= n || seen[a]) return std::nullopt;
    seen[a] = true;
  }
  Dims shape(n);
  for (int d = 0; d < n; ++d) shape[d] = m.shape[axes[d]];
  return Gather(m, shape, [&](const Dims& index) {
    Dims at(n);
    for (int d = 0; d < n; ++d) at[axes[d]] = index[d];
    return Flat(m.shape, at);
  });
}

std::optional<Model> Shrink(const Model& m, const Dims& begin,
                            const Dims& end) {
  const int n = int(m.shape.size());
  if (int(begin.size()) != n || int(end.size()) != n) return std::nullopt;
  Dims shape(n);
  for (int d = 0; d < n; ++d) {
    if (begin[d] < 0 || begin[d] > end[d] || end[d] > m.shape[d]) {
      return std::nullopt;
    }
    shape[d] = end[d] - begin[d];
  }
  return Gather(m, shape, [&](const Dims& index) {
    Dims at(n);
    for (int d = 0; d < n; ++d) at[d] = index[d] + begin[d];
    return Flat(m.shape, at);
  });
}

std::optional<Model> Pad(const Model& m, const Dims& before,
                         const Dims& after) {
  const int n = int(m.shape.size());
  if (int(before.size()) != n || int(after.size()) != n) return std::nullopt;
  Dims shape(n);
  for (int d = 0; d < n; ++d) {
    if (before[d] < 0 || after[d] < 0) return std::nullopt;
    shape[d] = m.shape[d] + before[d] + after[d];
  }
  return Gather(m, shape, [&](const Dims& index) -> int64_t {
    Dims at(n);
    for (int d = 0; d < n; ++d) {
      at[d] = index[d] - before[d];
      if (at[d] < 0 || at[d] >= m.shape[d]) return -1;
    }
    return Flat(m.shape, at);
  });
}

std::optional<Model> Flip(const Model& m, int64_t axis) {
  const int n = int(m.shape.size());
  axis = NormalizeAxis(axis, n);
  if (axis < 0 || axis >= n) return std::nullopt;
  return Gather(m, m.shape, [&](Dims index) {
    index[axis] = m.shape[axis] - 1 - index[axis];
    return Flat(m.shape, index);
  });
}

// NumPy basic indexing of items without an ellipsis: ranges, integers and
// new axes; missing trailing axes are taken whole.
std::optional<Model> Slice(const Model& m,
                           const std::vector<SliceItem>& items) {
  const int n = int(m.shape.size());
  std::vector<std::vector<int64_t>> picks;  // per source axis: indices
  Dims shape;
  std::vector<int> kept;  // result axis -> source axis, or -1 (new axis)
  int axis = 0;
  for (const SliceItem& item : items) {
    if (item.kind == SliceItem::Kind::kNewAxis) {
      shape.push_back(1);
      kept.push_back(-1);
      continue;
    }
    if (axis >= n) return std::nullopt;
    const int64_t dim = m.shape[axis];
    std::vector<int64_t> pick;
    if (item.kind == SliceItem::Kind::kIndex) {
      const int64_t i = item.index < 0 ? item.index + dim : item.index;
      if (i < 0 || i >= dim) return std::nullopt;
      pick.push_back(i);
    } else {  // Python's slice.indices.
      const int64_t step = item.step;
      if (step == 0) return std::nullopt;
      const auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v < 0 ? *v + dim : *v;
        if (step > 0) return x < 0 ? 0 : (x > dim ? dim : x);
        return x < -1 ? -1 : (x > dim - 1 ? dim - 1 : x);
      };
      const int64_t start = clamp(item.start, step > 0 ? 0 : dim - 1);
      const int64_t stop = clamp(item.stop, step > 0 ? dim : -1);
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        pick.push_back(i);
      }
      shape.push_back(int64_t(pick.size()));
      kept.push_back(axis);
    }
    picks.push_back(pick);
    ++axis;
  }
  for (; axis < n; ++axis) {
    std::vector<int64_t> all(size_t(m.shape[axis]));
    for (int64_t i = 0; i < m.shape[axis]; ++i) all[size_t(i)] = i;
    picks.push_back(all);
    shape.push_back(m.shape[axis]);
    kept.push_back(axis);
  }
  return Gather(m, shape, [&](const Dims& index) {
    Dims at(n);
    for (int d = 0; d < n; ++d) at[d] = picks[d].empty() ? 0 : picks[d][0];
    for (size_t r = 0; r < kept.size(); ++r) {
      if (kept[r] >= 0) at[kept[r]] = picks[kept[r]][size_t(index[r])];
    }
    return Flat(m.shape, at);
  });
}

// Element i of the result is base's C-order element over.LinearIndex(i);
// nullopt when over reads outside base (a base with no valid element may
// take any over: nothing of it is read).
std::optional<Model> Compose(const Model& base, const Model& over) {
  const int64_t n = int64_t(base.valid.size());
  bool base_valid = false;
  for (uint8_t valid : base.valid) base_valid |= valid != 0;
  for (size_t k = 0; base_valid && k < over.valid.size(); ++k) {
    if (over.valid[k] && (over.offset[k] < 0 || over.offset[k] >= n)) {
      return std::nullopt;
    }
  }
  return Gather(base, over.shape, [&](const Dims& index) -> int64_t {
    const int64_t k = Flat(over.shape, index);
    return base_valid && over.valid[size_t(k)] ? over.offset[size_t(k)] : -1;
  });
}

Dims Values(stridekit::fuzz::FuzzInput& in, int n, int64_t lo, int64_t hi) {
  Dims out;
  for (int i = 0; i < n; ++i) out.push_back(in.Range(lo, hi));
  return out;
}

std::optional<int64_t> MaybeValue(stridekit::fuzz::FuzzInput& in) {
  if (in.Byte() % 3 == 0) return std::nullopt;
  return in.Range(-5, 5);
}

int Run(const uint8_t* data, size_t size) {
  stridekit::fuzz::FuzzInput in(data, size);
  const int rank = int(in.Range(0, 4));
  View v;
  try {
    const Dims shape = Values(in, rank, 0, 4);
    const Dims strides = Values(in, rank, -6, 6);
    v = View::Make(shape, strides, in.Range(0, 60));
  } catch (const stridekit::Error&) {
    return 0;
  }
  std::optional<Model> model = ModelOf(v);
  if (!model) return 0;
  for (int step = 0; step < 8 && !in.empty(); ++step) {
    const int n = v.ndim();
    std::optional<Model> next;
    bool must_succeed = true;  // when the model accepts the arguments
    std::optional<View> result;
    const char* op = "";
    std::string error;
    auto attempt = [&](auto op) {
      try {
        result = op();
      } catch (const stridekit::Error& e) {
        result.reset();
        error = e.what();
      }
    };
    switch (in.Byte() % 11) {
      case 0: {
        op = "reshape";
        const Dims shape = Values(in, int(in.Range(0, 4)), -1, 6);
        next = Reshape(*model, shape);
        must_succeed = false;  // may need a copy
        attempt([&] { return v.Reshape(shape); });
        break;
      }
      case 1: {
        op = "expand";
        const Dims shape = Values(in, n + int(in.Range(0, 1)), 0, 4);
        next = Expand(*model, shape);
        attempt([&] { return v.Expand(shape); });
        break;
      }
      case 2: {
        op = "permute";
        const Dims axes = Values(in, n, -n, n);
        next = Permute(*model, axes);
        attempt([&] { return v.Permute(axes); });
        break;
      }
      case 3: {
        op = "shrink";
        const Dims begin = Values(in, n, -1, 4);
        const Dims end = Values(in, n, 0, 5);
        next = Shrink(*model, begin, end);
        attempt([&] { return v.Shrink(begin, end); });
        break;
      }
      case 4: {
        op = "pad";
        const Dims before = Values(in, n, -1, 3);
        const Dims after = Values(in, n, 0, 3);
        next = Pad(*model, before, after);
        attempt([&] { return v.Pad(before, after); });
        break;
      }
      case 5: {
        op = "flip";
        const int64_t axis = in.Range(-n - 1, n);
        next = Flip(*model, axis);
        attempt([&] { return v.Flip(axis); });
        break;
      }
      case 6: {
        op = "squeeze";  // Squeeze all: the C order is unchanged.
        Dims shape;
        for (int64_t d : model->shape) {
          if (d != 1) shape.push_back(d);
        }
        next = Reshape(*model, shape);
        attempt([&] { return v.Squeeze(); });
        break;
      }
      case 7: {
        op = "unsqueeze";  // Unsqueeze one axis of the result.
        const int64_t axis = in.Range(-n - 1, n + 1);
        const int64_t at = NormalizeAxis(axis, n + 1);
        if (at >= 0 && at <= n) {
          Dims shape = model->shape;
          shape.insert(int(at), 1);
          next = Reshape(*model, shape);
        }
        attempt([&] { return v.Unsqueeze(Dims{axis}); });
        break;
      }
      case 8: {
        op = "swapaxes";
        const int64_t a = in.Range(-n, n - 1), b = in.Range(-n, n - 1);
        if (n > 0) {
          Dims axes(n);
          for (int d = 0; d < n; ++d) axes[d] = d;
          std::swap(axes[NormalizeAxis(a, n)], axes[NormalizeAxis(b, n)]);
          next = Permute(*model, axes);
        }
        attempt([&] { return v.SwapAxes(a, b); });
        break;
      }
      case 9: {
        op = "slice";
        std::vector<SliceItem> items;
        const int count = int(in.Range(0, n + 1));
        for (int i = 0; i < count; ++i) {
          switch (in.Byte() % 4) {
            case 0:
              items.push_back(SliceItem::Index(in.Range(-5, 5)));
              break;
            case 1:
              items.push_back(SliceItem::NewAxis());
              break;
            default: {
              const auto start = MaybeValue(in), stop = MaybeValue(in);
              const int64_t step = in.Byte() % 2 ? 1 : in.Range(-3, 3);
              items.push_back(SliceItem::Range(start, stop, step));
              break;
            }
          }
        }
        next = Slice(*model, items);
        attempt([&] { return v.Slice(items); });
        break;
      }
      default: {
        op = "compose";
        const int r = int(in.Range(0, 3));
        const Dims shape = Values(in, r, 0, 5);
        const Dims strides = Values(in, r, -4, 4);
        View over;
        try {
          over = View::Make(shape, strides, in.Range(0, 30));
        } catch (const stridekit::Error&) {
          continue;
        }
        if (in.Byte() % 2) {
          try {
            over = over.Pad(Values(in, r, 0, 1), Values(in, r, 0, 1));
          } catch (const stridekit::Error&) {
          }
        }
        const std::optional<Model> over_model = ModelOf(over);
        if (!over_model) continue;
        next = Compose(*model, *over_model);
        must_succeed = false;  // may need a copy
        attempt([&] { return stridekit::Compose(v, over); });
        break;
      }
    }
    // A view without axes has no mask to hide a masked-out element.
    if (next && next->shape.empty() && !next->valid[0]) must_succeed = false;
    const auto die = [&](const char* what) {
      fprintf(stderr, "view_model_fuzz: %s %s: %s -> %s\n", op, what,
              v.ToString().c_str(),
              result ? result->ToString().c_str() : error.c_str());
      abort();
    };
    if (result) {
      if (!next) die("accepted arguments the model refuses");
      if (!Matches(*next, *result)) die("lists other elements than the model");
      v = *result;
      model = next;
    } else if (next && must_succeed) {
      die("refused arguments the model accepts");
    }
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    return Run(data, size);
  } catch (const TooLarge&) {
    return 0;  // the model grew beyond what the harness follows
  } catch (const stridekit::Error&) {
    return 0;  // the model's Dims beyond the maximum rank (the library's
               // own calls catch their errors where they are made)
  }
}
