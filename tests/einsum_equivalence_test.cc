// Einsum on every target against the reference (a plain loop over the
// product space, long double for floats) on random subscripts (diagonals,
// broadcasts, reductions, 1-4 operands, sizes around vector widths and
// large enough for the blocked matrix products, and sums over merged k
// loops of many 128-product blocks) over random views (strided, reversed,
// broadcast, masked; outputs masked or overlapping an input): integers
// exact, floats within (R + operands + 2) u sum |products| for R reduced
// positions per element (the reference sums in long double, in its own
// order); and every SIMD target gives the same bits as the first one
// (simd/contraction/contraction_task.h's summation order, pairwise over k
// blocks, does not depend on the target), special values too, and the same bits
// on three threads as on one.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "equivalence.h"
#include "numeric_values.h"
#include "random_views.h"
#include "reference_kernels.h"
#include "stridekit/einsum.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Describe;
using testing::ViewGenerator;

template <typename T>
struct Case {
  std::string spec;
  std::vector<sk_view> views;
  sk_view out;
  bool out_in_first_operand;            // out lives in operand 0's buffer
  std::vector<std::vector<T>> buffers;  // operands, then out
  int64_t reduced_count;  // product-space positions per output element
  bool special_values;
};

template <typename T>
Case<T> RandomCase(ViewGenerator& gen) {
  Case<T> c{};
  // Large cases are products big enough for the blocked kernels (>= 4096
  // multiply-adds); the others random subscripts over small sizes.
  const bool large = gen.Chance(40);
  const int label_count = large ? 4 : int(gen.Uniform(1, 6));
  std::vector<int64_t> sizes(label_count);
  std::vector<std::string> subscripts;
  std::string used;
  int64_t space = 0;
  do {
    for (auto& s : sizes) {
      s = large
              ? std::vector<int64_t>{5, 16, 17, 31, 33, 48, 64, 65}[gen.Uniform(
                    0, 7)]
          : gen.Chance(3) ? 0
          : gen.Chance(70)
              ? gen.Uniform(1, 5)
              : std::vector<int64_t>{
                    7, 8, 9, 15, 16, 17, 31, 33}[gen.Uniform(0, 7)];
    }
    if (large) {
      static const std::vector<std::vector<std::string>> kProducts = {
          {"ab", "bc"},       {"ba", "bc"},       {"ab", "cb"}, {"abc", "cb"},
          {"ab", "b"},        {"b", "bc"},        {"a", "b"},   {"abc", "acd"},
          {"ab", "bc", "cd"}, {"ab", "bc", "ca"}, {"abcd"},     {"aab", "bc"},
          {"abc", "bcd"},     {"abc", "bc"}};
      subscripts =
          kProducts[size_t(gen.Uniform(0, int64_t(kProducts.size()) - 1))];
    } else {
      const int operands = int(gen.Chance(15)   ? 1
                               : gen.Chance(65) ? 2
                                                : gen.Uniform(3, 4));
      subscripts.assign(operands, "");
      for (auto& sub : subscripts) {
        const int rank = int(gen.Uniform(operands == 1 ? 1 : 0, 4));
        for (int d = 0; d < rank; ++d) {
          sub += char('a' + gen.Uniform(0, label_count - 1));
        }
      }
    }
    used.clear();
    for (const std::string& sub : subscripts) {
      for (char l : sub) {
        if (used.find(l) == std::string::npos) used += l;
      }
    }
    space = 1;
    for (char l : used) space *= std::max<int64_t>(1, sizes[size_t(l - 'a')]);
  } while (space > (large ? 80000 : 20000));
  // The output: a random subset of the used labels in random order.
  std::string output;
  std::shuffle(used.begin(), used.end(), gen.rng());
  for (char l : used) {
    if (gen.Chance(50)) output += l;
  }
  c.reduced_count = 1;
  for (char l : used) {
    if (output.find(l) == std::string::npos) {
      c.reduced_count *= sizes[size_t(l - 'a')];
    }
  }
  for (size_t i = 0; i < subscripts.size(); ++i) {
    c.spec += (i ? "," : "") + subscripts[i];
  }
  c.spec += "->" + output;

  auto shape_of = [&](const std::string& sub) {
    std::vector<int64_t> shape;
    for (char l : sub) shape.push_back(sizes[size_t(l - 'a')]);
    return shape;
  };
  c.special_values = gen.Chance(15);
  auto& rng = gen.rng();
  auto fill = [&](std::vector<T>& buffer) {
    for (T& x : buffer) {
      x = std::is_integral_v<T> || c.special_values
              ? testing::SpecialValue<T>(rng)
              : testing::OrdinaryValue<T>(rng, 0, 4, false);
    }
  };
  for (const std::string& sub : subscripts) {
    sk_view v;
    const int64_t end = gen.Layout(shape_of(sub), gen.Uniform(0, 4), v);
    if (v.ndim > 0 && gen.Chance(10)) {
      v.strides[gen.Uniform(0, v.ndim - 1)] = 0;  // broadcast
    }
    if (gen.Chance(15)) gen.Mask(v);
    c.views.push_back(v);
    c.buffers.emplace_back(size_t(end + 2));
    fill(c.buffers.back());
  }
  c.out_in_first_operand = gen.Chance(10);
  std::vector<T>& host =
      c.out_in_first_operand ? c.buffers[0] : c.buffers.emplace_back();
  const int64_t out_end = gen.Layout(
      shape_of(output),
      c.out_in_first_operand ? gen.Uniform(0, int64_t(host.size())) : 0, c.out);
  if (gen.Chance(10)) gen.Mask(c.out);
  if (host.size() < size_t(out_end + 2)) {
    const size_t old = host.size();
    host.resize(size_t(out_end + 2));
    for (size_t i = old; i < host.size(); ++i) host[i] = T(5);
  }
  if (!c.out_in_first_operand) fill(host);
  return c;
}

// The buffer holding out after running `einsum` on copies of `buffers`.
template <typename T, typename EinsumFn>
std::vector<T> Run(const Case<T>& c, std::vector<std::vector<T>> buffers,
                   EinsumFn einsum) {
  std::vector<const void*> datas;
  for (size_t i = 0; i < c.views.size(); ++i) {
    datas.push_back(buffers[i].data());
  }
  std::vector<T>& out = c.out_in_first_operand ? buffers[0] : buffers.back();
  einsum(c.spec, testing::DTypeOf<T>(), std::span<const sk_view>(c.views),
         std::span<const void* const>(datas), c.out, out.data());
  return out;
}

std::string Describe(const std::string& spec, const std::vector<sk_view>& in,
                     const sk_view& out) {
  std::string text = "spec " + spec;
  for (const sk_view& v : in) text += "\n  in  " + Describe(v);
  return text + "\n  out " + Describe(out);
}

template <typename T>
void MatchesReferenceOnEveryTarget(uint64_t seed, int trials) {
  ViewGenerator gen(seed);
  auto reference_einsum = [](auto... a) { reference::Einsum(a...); };
  auto dispatched_einsum = [](auto... a) { Einsum(a...); };
  auto threaded_einsum = [](auto... a) {
    NumericOptions three;
    three.threads = 3;
    Einsum(a..., three);
  };
  for (int trial = 0; trial < trials; ++trial) {
    const Case<T> c = RandomCase<T>(gen);
    const std::string what = "trial " + std::to_string(trial) + " " +
                             Describe(c.spec, c.views, c.out);
    std::vector<T> want, abs_want;
    if (!c.special_values) {
      want = Run(c, c.buffers, reference_einsum);
      std::vector<std::vector<T>> abs_buffers = c.buffers;
      if constexpr (!std::is_integral_v<T>) {
        for (auto& buffer : abs_buffers) {
          for (T& x : buffer) x = std::abs(x);
        }
      }
      abs_want = Run(c, abs_buffers, reference_einsum);
    }
    const double u = std::numeric_limits<T>::epsilon() / 2;
    const double bound =
        double(c.reduced_count + int64_t(c.views.size()) + 2) * u;
    std::vector<T> first_target;
    testing::ForEachTarget([&](const std::string& target) {
      const std::vector<T> got = Run(c, c.buffers, dispatched_einsum);
      if (testing::ThreadsAllowed()) {
        const std::vector<T> threaded = Run(c, c.buffers, threaded_einsum);
        const int64_t at = testing::FirstDifference(threaded, got);
        ASSERT_EQ(at, -1) << "3 threads differ from 1 at " << at << ": "
                          << threaded[size_t(at)] << " vs " << got[size_t(at)]
                          << "\n"
                          << what;
      }
      if (first_target.empty()) {
        first_target = got;
      } else {
        const int64_t at = testing::FirstDifference(got, first_target);
        ASSERT_EQ(at, -1) << target << " differs from the first target at "
                          << at << ": " << got[size_t(at)] << " vs "
                          << first_target[size_t(at)] << "\n"
                          << what;
      }
      if (c.special_values) return;
      for (size_t i = 0; i < got.size(); ++i) {
        const bool ok = std::is_integral_v<T>
                            ? got[i] == want[i]
                            : got[i] == want[i] ||
                                  std::abs(double(got[i]) - double(want[i])) <=
                                      bound * std::abs(double(abs_want[i]));
        ASSERT_TRUE(ok) << "element " << i << " got " << got[i] << " want "
                        << want[i] << "\n"
                        << what;
      }
    });
  }
}

TEST(EinsumEquivalence, Float32MatchesReference) {
  MatchesReferenceOnEveryTarget<float>(101, testing::Trials(400));
}
TEST(EinsumEquivalence, Float64MatchesReference) {
  MatchesReferenceOnEveryTarget<double>(102, testing::Trials(400));
}
TEST(EinsumEquivalence, Int32MatchesReference) {
  MatchesReferenceOnEveryTarget<int32_t>(103, testing::Trials(400));
}
TEST(EinsumEquivalence, Int64MatchesReference) {
  MatchesReferenceOnEveryTarget<int64_t>(104, testing::Trials(400));
}

}  // namespace
}  // namespace stridekit
