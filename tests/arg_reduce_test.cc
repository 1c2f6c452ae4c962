// Arg reductions: the dispatched ArgReduce on every target against the
// reference, exactly, on random views (permuted, flipped, strided, broadcast
// and masked inputs, masked and keepdims outputs, outputs in the input's
// buffer), both ops and every ordered dtype, threads; then NumPy-semantics
// golden cases (ties, NaN positions) and errors.
#include "stridekit/arg_reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
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
  ArgOp op;
  sk_view in, out;
  int32_t axis;
  bool out_in_in_buffer;
  std::vector<T> in_buffer;
  std::vector<int64_t> out_buffer;
};

template <typename T>
Case<T> RandomCase(ViewGenerator& gen) {
  Case<T> c{};
  c.op = gen.Chance(50) ? ArgOp::kArgMin : ArgOp::kArgMax;
  const int rank = int(gen.Uniform(1, 4));
  auto shape = gen.Shape(rank, 3000);
  const int axis = int(gen.Uniform(0, rank - 1));
  if (shape[size_t(axis)] == 0) shape[size_t(axis)] = 2;  // An error.
  c.axis = gen.Chance(30) ? axis - rank : axis;
  const int64_t in_end = gen.Layout(shape, gen.Uniform(0, 4), c.in);
  if (gen.Chance(15)) c.in.strides[gen.Uniform(0, rank - 1)] = 0;
  if (gen.Chance(15)) gen.Mask(c.in);
  std::vector<int64_t> out_shape;
  const bool keepdims = gen.Chance(30);
  for (int d = 0; d < rank; ++d) {
    if (d != axis || keepdims) out_shape.push_back(d == axis ? 1 : shape[d]);
  }
  // The input's buffer holds int64 slots for an output there.
  c.out_in_in_buffer = gen.Chance(10);
  const int64_t in_slots = (in_end * int64_t(sizeof(T)) + 7) / 8;
  const int64_t out_end = gen.Layout(
      out_shape, c.out_in_in_buffer ? gen.Uniform(0, in_slots) : 0, c.out);
  if (gen.Chance(10)) gen.Mask(c.out);
  const int64_t slots = std::max(in_slots, out_end) + 2;
  c.in_buffer.resize(size_t(slots * 8 / int64_t(sizeof(T))));
  c.out_buffer.assign(size_t(out_end + 2), -7);
  auto& rng = gen.rng();
  // Few distinct values: ties are common.
  const bool ties = gen.Chance(50);
  for (T& x : c.in_buffer) {
    x = testing::SpecialValue<T>(rng);
    if constexpr (std::is_integral_v<T>) {
      if (ties) x = T(x % 3);
    }
  }
  return c;
}

template <typename T, typename ArgFn>
std::vector<int64_t> Run(const Case<T>& c, ArgFn arg) {
  std::vector<T> in = c.in_buffer;
  std::vector<int64_t> out = c.out_buffer;
  void* out_data = c.out_in_in_buffer ? static_cast<void*>(in.data())
                                      : static_cast<void*>(out.data());
  arg(c.op, testing::DTypeOf<T>(), c.in, in.data(), c.axis, c.out, out_data);
  if (c.out_in_in_buffer) {
    out.resize(in.size() * sizeof(T) / 8);
    std::memcpy(out.data(), in.data(), out.size() * 8);
  }
  return out;
}

template <typename T>
void MatchesReferenceOnEveryTarget(uint64_t seed, int trials) {
  ViewGenerator gen(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const Case<T> c = RandomCase<T>(gen);
    const std::vector<int64_t> want =
        Run(c, [](auto... a) { reference::ArgReduce(a...); });
    testing::ForEachTarget([&](const std::string&) {
      for (int threads : {1, testing::ThreadsAllowed() ? 3 : 1}) {
        const std::vector<int64_t> got = Run(
            c, [&](auto... a) { ArgReduce(a..., NumericOptions{threads}); });
        ASSERT_EQ(got, want)
            << "trial " << trial << " " << FindOp(c.op)->name << " axis "
            << c.axis << " threads " << threads << "\nin  " << Describe(c.in)
            << "\nout " << Describe(c.out) << " in in's buffer "
            << c.out_in_in_buffer;
      }
    });
  }
}

TEST(ArgReduce, EveryOrderedDTypeMatchesReference) {
  uint64_t seed = 400;
  [&]<typename... T>(TypeList<T...>) {
    (
        [&] {
          if constexpr ((kKindOf<T> & kOrderedKinds) != 0) {
            SCOPED_TRACE(DTypeName(kDTypeOf<T>));
            MatchesReferenceOnEveryTarget<T>(seed++, testing::Trials(150));
          }
        }(),
        ...);
  }(NumericTypes{});
}

// Long rows along the first and the last axis (vector blocks, index
// blocks of 8-bit lanes), with NaNs and ties placed at block edges.
TEST(ArgReduce, LongAxesMatchReference) {
  std::mt19937_64 rng(9);
  for (const int64_t n : {int64_t{7}, int64_t{300}, int64_t{5000}}) {
    const int64_t m = 19;
    std::vector<float> x(size_t(n * m));
    std::vector<int8_t> b(size_t(n * m));
    for (auto& v : x) v = float(int(rng() % 5));
    for (auto& v : b) v = int8_t(rng() % 4);
    x[size_t(n * m / 2)] = std::numeric_limits<float>::quiet_NaN();
    x[size_t(n * m - 1)] = std::numeric_limits<float>::quiet_NaN();
    for (const sk_view& in :
         {MakeView({n, m}, {m, 1}, 0), MakeView({m, n}, {n, 1}, 0)}) {
      const int64_t rows = in.shape[0], cols = in.shape[1];
      for (const ArgOp op : {ArgOp::kArgMin, ArgOp::kArgMax}) {
        for (const int32_t axis : {0, 1}) {
          const int64_t count = axis == 0 ? cols : rows;
          const sk_view out = MakeView({count}, {1}, 0);
          std::vector<int64_t> want(static_cast<size_t>(count)), got(want);
          std::vector<int64_t> want8(static_cast<size_t>(count)), got8(want8);
          reference::ArgReduce(op, DType::kFloat32, in, x.data(), axis, out,
                               want.data());
          reference::ArgReduce(op, DType::kInt8, in, b.data(), axis, out,
                               want8.data());
          testing::ForEachTarget([&](const std::string&) {
            ArgReduce(op, DType::kFloat32, in, x.data(), axis, out, got.data());
            ArgReduce(op, DType::kInt8, in, b.data(), axis, out, got8.data());
            EXPECT_EQ(got, want) << "n " << n << " axis " << axis;
            EXPECT_EQ(got8, want8) << "n " << n << " axis " << axis;
          });
        }
      }
    }
  }
}

TEST(ArgReduce, Golden) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {3, 1, 3, 1, nan, 0, nan, 5};
  const sk_view all = MakeView({8}, {1}, 0);
  const sk_view scalar = MakeView({}, {}, 0);
  testing::ForEachTarget([&](const std::string&) {
    int64_t i = -1;
    ArgReduce(ArgOp::kArgMax, DType::kFloat64, MakeView({4}, {1}, 0), x.data(),
              0, scalar, &i);
    EXPECT_EQ(i, 0);  // First of the equal maxima.
    ArgReduce(ArgOp::kArgMin, DType::kFloat64, MakeView({4}, {1}, 0), x.data(),
              -1, scalar, &i);
    EXPECT_EQ(i, 1);
    ArgReduce(ArgOp::kArgMin, DType::kFloat64, all, x.data(), 0, scalar, &i);
    EXPECT_EQ(i, 4);  // The first NaN wins.
    ArgReduce(ArgOp::kArgMax, DType::kFloat64, all, x.data(), 0, scalar, &i);
    EXPECT_EQ(i, 4);
    // [2,4]: over axis 0 with keepdims.
    int64_t cols[4] = {};
    ArgReduce(ArgOp::kArgMax, DType::kFloat64, MakeView({2, 4}, {4, 1}, 0),
              x.data(), 0, MakeView({1, 4}, {4, 1}, 0), cols);
    EXPECT_EQ(std::vector<int64_t>(cols, cols + 4),
              (std::vector<int64_t>{1, 0, 1, 1}));
    // Bool: any non-zero byte is true.
    const uint8_t b[4] = {0, 2, 1, 255};
    ArgReduce(ArgOp::kArgMax, DType::kBool, MakeView({4}, {1}, 0), b, 0, scalar,
              &i);
    EXPECT_EQ(i, 1);
  });
}

TEST(ArgReduce, Errors) {
  double x[6] = {};
  int64_t out[6] = {};
  const sk_view v = MakeView({2, 3}, {3, 1}, 0);
  EXPECT_SK_ERROR(ArgReduce(ArgOp::kArgMax, DType::kFloat64, v, x, -3,
                            MakeView({3}, {1}, 0), out),
                  ErrorKind::kInvalidArgument,
                  "argmax: axis -3 is out of bounds for array of dimension 2");
  EXPECT_SK_ERROR(ArgReduce(ArgOp::kArgMin, DType::kFloat64, v, x, 0,
                            MakeView({2}, {1}, 0), out),
                  ErrorKind::kInvalidArgument,
                  "argmin: output shape [2] does not match input shape [2,3] "
                  "without axis 0 (with or without keepdims)");
  EXPECT_SK_ERROR(
      ArgReduce(ArgOp::kArgMax, DType::kFloat64, MakeView({0, 3}, {3, 1}, 0), x,
                0, MakeView({3}, {1}, 0), out),
      ErrorKind::kInvalidArgument,
      "argmax: attempt to get argmax of an empty sequence (axis 0 "
      "has length 0)");
  EXPECT_SK_ERROR(ArgReduce(ArgOp::kArgMax, DType::kComplex128, v, x, 0,
                            MakeView({3}, {1}, 0), out),
                  ErrorKind::kUnsupported,
                  "argmax: complex dtype Complex128 is not supported");
}

}  // namespace
}  // namespace stridekit
