// Reductions: the dispatched Reduce on every target against the reference
// (long double sums and products) on random views, axis sets and keepdims:
// integers and min/max exact, float sums and products within the bound of
// reduce.h; then accuracy, NumPy-semantics golden cases and errors.
#include "stridekit/reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "equivalence.h"
#include "numeric_values.h"
#include "random_views.h"
#include "reference_kernels.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Describe;
using testing::MakeView;
using testing::ViewGenerator;

template <typename T>
struct Case {
  ReduceOp op;
  sk_view in, out;
  std::vector<int32_t> axes;
  bool out_in_in_buffer;
  std::vector<T> in_buffer, out_buffer;
  int64_t reduced_count;  // Input elements per output element.
};

// Float parts (complex: each part), compared within a bound.
template <typename T>
inline constexpr bool kInexact = kKindOf<T> == kFloatKinds || kIsComplex<T>;

// Half the distance from 1 to the next value of T (of a part of complex T).
template <typename T>
double UnitRoundoff() {
  if constexpr (std::is_same_v<T, Float16>) {
    return 0x1p-11;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return 0x1p-8;
  } else if constexpr (kIsComplex<T>) {
    return UnitRoundoff<decltype(T{}.re)>();
  } else if constexpr (kInexact<T>) {
    return std::numeric_limits<T>::epsilon() / 2;
  } else {
    return 0;  // Exact.
  }
}

// The value of a real element, or of part `part` of a complex one.
template <typename T>
double PartValue(T x, int part) {
  if constexpr (kIsComplex<T>) {
    return part == 0 ? double(x.re) : double(x.im);
  } else if constexpr (kIsHalf<T>) {
    return scalar_ops::Widen(x);
  } else if constexpr (std::is_same_v<T, Bool>) {
    return x.byte;
  } else {
    return double(x);
  }
}

// |x| (complex: part by part).
template <typename T>
T Magnitude(T x) {
  if constexpr (kIsComplex<T>) {
    return T{std::abs(x.re), std::abs(x.im)};
  } else if constexpr (kIsHalf<T>) {
    return scalar_ops::Abs(x);
  } else if constexpr (kInexact<T>) {
    return std::abs(x);
  } else {
    return x;
  }
}

// Min, max, any and all are exact on every dtype.
bool IsExact(ReduceOp op) {
  return op == ReduceOp::kMin || op == ReduceOp::kMax || op == ReduceOp::kAny ||
         op == ReduceOp::kAll;
}

template <typename T>
Case<T> RandomCase(ViewGenerator& gen) {
  Case<T> c{};
  do {
    c.op = kReduceOps[gen.Uniform(0, std::size(kReduceOps) - 1)].op;
  } while (!OpAccepts(c.op, kKindOf<T>));
  const int rank = int(gen.Uniform(0, 5));
  auto shape = gen.Shape(rank, 4000);
  std::vector<int64_t> out_shape;
  const bool keepdims = gen.Chance(50);
  c.reduced_count = 1;
  for (int d = 0; d < rank; ++d) {
    const bool reduce = gen.Chance(50);
    if (reduce) {
      // Min and max of an empty axis are errors (tested separately).
      if (shape[d] == 0 && (c.op == ReduceOp::kMin || c.op == ReduceOp::kMax)) {
        shape[d] = 3;
      }
      c.axes.push_back(int32_t(gen.Chance(30) ? d - rank : d));
      c.reduced_count *= shape[d];
    }
    if (!reduce || keepdims) out_shape.push_back(reduce ? 1 : shape[d]);
  }
  std::shuffle(c.axes.begin(), c.axes.end(), gen.rng());
  const int64_t in_end = gen.Layout(shape, gen.Uniform(0, 4), c.in);
  if (gen.Chance(20)) gen.Mask(c.in);
  c.out_in_in_buffer = gen.Chance(10);
  const int64_t out_end = gen.Layout(
      out_shape, c.out_in_in_buffer ? gen.Uniform(0, in_end) : 0, c.out);
  if (gen.Chance(10)) gen.Mask(c.out);
  c.in_buffer.resize(
      size_t(std::max(in_end, c.out_in_in_buffer ? out_end : int64_t{0}) + 2));
  c.out_buffer.resize(size_t(out_end + 2));
  auto& rng = gen.rng();
  for (auto* buffer : {&c.in_buffer, &c.out_buffer}) {
    for (T& x : *buffer) {
      if (!kInexact<T> || IsExact(c.op)) {
        x = testing::SpecialValue<T>(rng);
      } else if (c.op == ReduceOp::kSum || c.op == ReduceOp::kMean) {
        x = testing::OrdinaryValue<T>(rng, 0, 100, false);
      } else if constexpr (kIsComplex<T>) {
        // Products of unit-modulus numbers neither overflow nor vanish.
        const double angle = std::uniform_real_distribution<double>(-3, 3)(rng);
        x = T{decltype(x.re)(std::cos(angle)), decltype(x.re)(std::sin(angle))};
      } else {
        x = testing::OrdinaryValue<T>(rng, 0.5, 2, true);
      }
    }
  }
  return c;
}

template <typename T, typename ReduceFn>
std::vector<T> Run(const Case<T>& c, const std::vector<T>& in_buffer,
                   ReduceFn reduce) {
  std::vector<T> in = in_buffer, out = c.out_buffer;
  T* out_data = c.out_in_in_buffer ? in.data() : out.data();
  reduce(c.op, testing::DTypeOf<T>(), c.in, in.data(), std::span(c.axes), c.out,
         out_data);
  return c.out_in_in_buffer ? in : out;
}

template <typename T>
void MatchesReferenceOnEveryTarget(uint64_t seed, int trials) {
  ViewGenerator gen(seed);
  auto reference_reduce = [](auto... a) { reference::Reduce(a...); };
  for (int trial = 0; trial < trials; ++trial) {
    const Case<T> c = RandomCase<T>(gen);
    const std::vector<T> want = Run(c, c.in_buffer, reference_reduce);
    // Sum of |x| per output element, for the error bound of sums.
    Case<T> abs_case = c;
    abs_case.op = c.op == ReduceOp::kMean ? ReduceOp::kMean : ReduceOp::kSum;
    std::vector<T> abs_in = c.in_buffer;
    for (T& x : abs_in) x = Magnitude(x);  // Integers compare exactly.
    const std::vector<T> abs_sum = Run(abs_case, abs_in, reference_reduce);
    const bool exact = !kInexact<T> || IsExact(c.op);
    // Complex products: four roundings per step, relative to the modulus.
    const double u = UnitRoundoff<T>() * (kIsComplex<T> ? 4 : 1);
    const double bound = double(c.reduced_count + 3) * u;
    testing::ForEachTarget([&](const std::string&) {
      const std::vector<T> got =
          Run(c, c.in_buffer, [](auto... a) { Reduce(a...); });
      for (size_t i = 0; i < got.size(); ++i) {
        // Min/max of -0.0 and +0.0 may give either zero.
        bool ok = testing::SameValue(got[i], want[i]);
        for (int part = 0; part < (kIsComplex<T> ? 2 : 1) && !ok && exact;
             ++part) {
          ok = PartValue(got[i], part) == PartValue(want[i], part);
        }
        if (!exact) {
          // Elements outside out's valid positions are equal (untouched).
          ok = true;
          for (int part = 0; part < (kIsComplex<T> ? 2 : 1); ++part) {
            const double g = PartValue(got[i], part);
            const double w = PartValue(want[i], part);
            const double scale =
                c.op == ReduceOp::kSum || c.op == ReduceOp::kMean
                    ? std::abs(PartValue(abs_sum[i], part))
                    : std::abs(PartValue(want[i], 0)) +
                          (kIsComplex<T> ? std::abs(PartValue(want[i], 1)) : 0);
            ok = ok && (g == w || (std::isnan(g) && std::isnan(w)) ||
                        std::abs(g - w) <= bound * scale);
          }
        }
        ASSERT_TRUE(ok) << "trial " << trial << " op " << int(c.op)
                        << " element " << i << " got "
                        << testing::Printable(got[i]) << " want "
                        << testing::Printable(want[i]) << "\nin  "
                        << Describe(c.in) << "\nout " << Describe(c.out)
                        << " in in's buffer " << c.out_in_in_buffer;
      }
    });
  }
}

// Every dtype of the type list (NumericTypes), each op that accepts it.
TEST(Reduce, EveryDTypeMatchesReference) {
  uint64_t seed = 200;
  [&]<typename... T>(TypeList<T...>) {
    (
        [&] {
          SCOPED_TRACE(DTypeName(kDTypeOf<T>));
          MatchesReferenceOnEveryTarget<T>(seed++, testing::Trials(200));
        }(),
        ...);
  }(NumericTypes{});
}

TEST(Reduce, Float32MatchesReference) {
  MatchesReferenceOnEveryTarget<float>(21, 500);
}
TEST(Reduce, Float64MatchesReference) {
  MatchesReferenceOnEveryTarget<double>(22, 500);
}
TEST(Reduce, Int32MatchesReference) {
  MatchesReferenceOnEveryTarget<int32_t>(23, 500);
}
TEST(Reduce, Int64MatchesReference) {
  MatchesReferenceOnEveryTarget<int64_t>(24, 500);
}

// Pairwise summation keeps the error of a long contiguous sum near
// log2(n) roundings, where a sequential float sum drifts by ~n/2.
TEST(Reduce, PairwiseSumIsAccurate) {
  const int64_t n = int64_t{1} << 22;
  std::vector<float> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[size_t(i)] = 0.1f + float(i % 7) * 1e-3f;
  long double exact = 0;
  for (float v : x) exact += v;
  const double u = std::numeric_limits<float>::epsilon() / 2;
  const double bound = (22 + kPairwiseBlock + 2) * u * double(exact);
  const int32_t axis0[] = {0};
  testing::ForEachTarget([&](const std::string&) {
    float got = -1;
    Reduce(ReduceOp::kSum, DType::kFloat32, MakeView({n}, {1}, 0), x.data(),
           axis0, MakeView({}, {}, 0), &got);
    EXPECT_LE(std::abs(double(got) - double(exact)), bound);
    // The same data as [1024, n/1024] summed over axis 0 then axis 1.
    std::vector<float> rows(size_t(n / 1024));
    Reduce(ReduceOp::kSum, DType::kFloat32,
           MakeView({1024, n / 1024}, {n / 1024, 1}, 0), x.data(), axis0,
           MakeView({n / 1024}, {1}, 0), rows.data());
    long double exact_row = 0;
    for (int64_t r = 0; r < 1024; ++r) exact_row += x[size_t(r * (n / 1024))];
    EXPECT_LE(std::abs(double(rows[0]) - double(exact_row)),
              (1024 + 2) * u * double(exact_row));
  });
}

// Threads reduce parts of the input (NumericOptions): integers and min/max
// exactly as one thread, float sums within reduce.h's bound (grown by
// P u sum |x|) of the reference, and the bits of one thread when a kept
// axis is split.
TEST(Reduce, ThreadsCombinePartsInOrder) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  const int64_t rows = 1031, cols = 1033;  // > 2^19 elements: 2+ parts
  std::vector<int64_t> ints(rows * cols);
  std::vector<float> floats(rows * cols);
  std::mt19937_64 rng(7);
  for (int64_t i = 0; i < rows * cols; ++i) {
    ints[i] = testing::SpecialValue<int64_t>(rng);
    floats[i] = testing::OrdinaryValue<float>(rng, 0, 100, false);
  }
  const sk_view in = MakeView({rows, cols}, {cols, 1}, 0);
  const sk_view transposed = MakeView({cols, rows}, {1, cols}, 0);
  const int32_t axis0[] = {0}, axis1[] = {1}, both[] = {0, 1};
  struct Case {
    sk_view in;
    std::span<const int32_t> axes;
    int64_t out_size;
  };
  for (const Case& k : {Case{in, axis0, cols}, Case{in, axis1, rows},
                        Case{transposed, axis1, cols}, Case{in, both, 1}}) {
    const sk_view out =
        k.out_size == 1 ? MakeView({}, {}, 0) : MakeView({k.out_size}, {1}, 0);
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMin, ReduceOp::kMax}) {
      std::vector<int64_t> want(k.out_size), got(k.out_size);
      Reduce(op, DType::kInt64, k.in, ints.data(), k.axes, out, want.data());
      Reduce(op, DType::kInt64, k.in, ints.data(), k.axes, out, got.data(),
             NumericOptions{3});
      EXPECT_EQ(got, want) << "op " << int(op);
    }
    std::vector<float> want(k.out_size), got(k.out_size), abs_sum(k.out_size);
    std::vector<float> abs_floats = floats;
    for (float& x : abs_floats) x = std::abs(x);
    reference::Reduce(ReduceOp::kSum, DType::kFloat32, k.in, floats.data(),
                      k.axes, out, want.data());
    reference::Reduce(ReduceOp::kSum, DType::kFloat32, k.in, abs_floats.data(),
                      k.axes, out, abs_sum.data());
    Reduce(ReduceOp::kSum, DType::kFloat32, k.in, floats.data(), k.axes, out,
           got.data(), NumericOptions{3});
    const int64_t reduced = rows * cols / k.out_size;
    const double bound =
        double(reduced + 2 + 3) * std::numeric_limits<float>::epsilon() / 2;
    for (int64_t i = 0; i < k.out_size; ++i) {
      ASSERT_LE(std::abs(double(got[i]) - double(want[i])),
                bound * double(abs_sum[i]))
          << "element " << i;
    }
    // Splits along a kept axis reduce every output element in one part, in
    // the order of one thread: the same bits.
    if (k.out_size > 1) {
      std::vector<float> one_thread(k.out_size);
      Reduce(ReduceOp::kSum, DType::kFloat32, k.in, floats.data(), k.axes, out,
             one_thread.data());
      EXPECT_EQ(got, one_thread);
    }
  }
}

TEST(Reduce, EmptyAndNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = {1, nan, 3, -4, 5, 6, 7, 8, 9, 10, 11, 12};
  const int32_t axes[] = {1, -3};
  testing::ForEachTarget([&](const std::string&) {
    double out[3] = {};
    // [2,3,2] strided view reduced over axes 0 and 1 -> [2].
    Reduce(ReduceOp::kMax, DType::kFloat64, MakeView({2, 3, 2}, {6, 2, 1}, 0),
           x.data(), axes, MakeView({2}, {1}, 0), out);
    EXPECT_EQ(out[0], 11.0);
    EXPECT_TRUE(std::isnan(out[1]));
    Reduce(ReduceOp::kMin, DType::kFloat64, MakeView({2, 3, 2}, {6, 2, 1}, 0),
           x.data(), axes, MakeView({1, 1, 2}, {2, 2, 1}, 0), out);
    EXPECT_EQ(out[0], 1.0);
    EXPECT_TRUE(std::isnan(out[1]));
    // Empty reductions: sum 0, prod 1.
    double sum = 7, prod = 7;
    Reduce(ReduceOp::kSum, DType::kFloat64, MakeView({0, 3}, {3, 1}, 0),
           x.data(), {}, MakeView({0, 3}, {3, 1}, 0), out);
    const int32_t all[] = {0, 1};
    Reduce(ReduceOp::kSum, DType::kFloat64, MakeView({0, 3}, {3, 1}, 0),
           x.data(), all, MakeView({}, {}, 0), &sum);
    Reduce(ReduceOp::kProd, DType::kFloat64, MakeView({0, 3}, {3, 1}, 0),
           x.data(), all, MakeView({}, {}, 0), &prod);
    EXPECT_EQ(sum, 0.0);
    EXPECT_EQ(prod, 1.0);
  });
}

TEST(Reduce, IntegersWrapAround) {
  std::vector<int32_t> x(1000, std::numeric_limits<int32_t>::max());
  const int32_t all[] = {0};
  testing::ForEachTarget([&](const std::string&) {
    int32_t sum = 0, prod = 0;
    Reduce(ReduceOp::kSum, DType::kInt32, MakeView({1000}, {1}, 0), x.data(),
           all, MakeView({}, {}, 0), &sum);
    Reduce(ReduceOp::kProd, DType::kInt32, MakeView({1000}, {1}, 0), x.data(),
           all, MakeView({}, {}, 0), &prod);
    // 1000 * (2^31 - 1) mod 2^32 = -1000; (2^31 - 1)^1000 mod 2^32 = 1.
    EXPECT_EQ(sum, -1000);
    EXPECT_EQ(prod, 1);
  });
}

TEST(Reduce, Errors) {
  double x[6] = {}, out[6] = {};
  const sk_view v = MakeView({2, 3}, {3, 1}, 0);
  const int32_t dup[] = {1, -1}, bad[] = {2}, one[] = {1};
  EXPECT_SK_ERROR(Reduce(ReduceOp::kSum, DType::kFloat64, v, x, dup,
                         MakeView({2}, {1}, 0), out),
                  ErrorKind::kInvalidArgument,
                  "sum: duplicate value in 'axis' (1)");
  EXPECT_SK_ERROR(Reduce(ReduceOp::kSum, DType::kFloat64, v, x, bad,
                         MakeView({2}, {1}, 0), out),
                  ErrorKind::kInvalidArgument,
                  "sum: axis 2 is out of bounds for array of dimension 2");
  EXPECT_SK_ERROR(Reduce(ReduceOp::kProd, DType::kFloat64, v, x, one,
                         MakeView({3}, {1}, 0), out),
                  ErrorKind::kInvalidArgument,
                  "prod: output shape [3] does not match input shape [2,3] "
                  "reduced over 1 axes (with or without keepdims)");
  EXPECT_SK_ERROR(
      Reduce(ReduceOp::kMin, DType::kFloat64, MakeView({2, 0}, {0, 0}, 0), x,
             one, MakeView({2}, {1}, 0), out),
      ErrorKind::kInvalidArgument,
      "min: zero-size array to reduction operation minimum "
      "which has no identity");
}

// Any and all: truth values (NaN true, complex either part) into bool;
// mean: the pairwise sum divided by the count, as NumPy.
TEST(Reduce, AnyAllMeanGolden) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {0, 0, 0, nan, 0, -0.0, 2, 3, 4};
  const sk_view rows = MakeView({3, 3}, {3, 1}, 0);
  const int32_t axis1[] = {1}, axis0[] = {0};
  testing::ForEachTarget([&](const std::string&) {
    uint8_t any[3] = {9, 9, 9}, all[3] = {9, 9, 9};
    Reduce(ReduceOp::kAny, DType::kFloat64, rows, x.data(), axis1,
           MakeView({3}, {1}, 0), any);
    Reduce(ReduceOp::kAll, DType::kFloat64, rows, x.data(), axis0,
           MakeView({1, 3}, {3, 1}, 0), all);
    EXPECT_EQ(std::vector<int>(any, any + 3), (std::vector<int>{0, 1, 1}));
    EXPECT_EQ(std::vector<int>(all, all + 3), (std::vector<int>{0, 0, 0}));
    // Complex: true when either part is non-zero.
    const Complex64 z[3] = {{0, 0}, {0, -1}, {0, 0}};
    uint8_t zany = 9, zall = 9;
    const int32_t only[] = {0};
    Reduce(ReduceOp::kAny, DType::kComplex64, MakeView({3}, {1}, 0), z, only,
           MakeView({}, {}, 0), &zany);
    Reduce(ReduceOp::kAll, DType::kComplex64, MakeView({2}, {1}, 1), z, only,
           MakeView({}, {}, 0), &zall);
    EXPECT_EQ(zany, 1);
    EXPECT_EQ(zall, 0);
    // Empty: any false, all true, mean NaN.
    uint8_t eany = 9, eall = 9;
    double emean = 0;
    const int32_t both[] = {0, 1};
    Reduce(ReduceOp::kAny, DType::kInt32, MakeView({0, 2}, {2, 1}, 0), x.data(),
           both, MakeView({}, {}, 0), &eany);
    Reduce(ReduceOp::kAll, DType::kInt32, MakeView({0, 2}, {2, 1}, 0), x.data(),
           both, MakeView({}, {}, 0), &eall);
    Reduce(ReduceOp::kMean, DType::kFloat64, MakeView({0, 2}, {2, 1}, 0),
           x.data(), both, MakeView({}, {}, 0), &emean);
    EXPECT_EQ(eany, 0);
    EXPECT_EQ(eall, 1);
    EXPECT_TRUE(std::isnan(emean));
    // Mean of float32 rows: the sum divided by the count in float32.
    std::vector<float> f(1000);
    for (size_t i = 0; i < f.size(); ++i) f[i] = 0.25f * float(i % 13);
    float mean = 0, sum = 0;
    Reduce(ReduceOp::kMean, DType::kFloat32, MakeView({1000}, {1}, 0), f.data(),
           only, MakeView({}, {}, 0), &mean);
    Reduce(ReduceOp::kSum, DType::kFloat32, MakeView({1000}, {1}, 0), f.data(),
           only, MakeView({}, {}, 0), &sum);
    EXPECT_EQ(mean, sum / 1000.0f);
  });
  uint8_t out = 0;
  int32_t ints[2] = {1, 2};
  const int32_t only[] = {0};
  EXPECT_SK_ERROR(Reduce(ReduceOp::kMean, DType::kInt32, MakeView({2}, {1}, 0),
                         ints, only, MakeView({}, {}, 0), &out),
                  ErrorKind::kUnsupported,
                  "mean: integer dtype Int32 is not supported (NumPy's mean "
                  "returns float64 for it: cast first)");
}

}  // namespace
}  // namespace stridekit
