// Scans: the dispatched Scan on every target against the reference,
// bit-exact (up to NaN payloads), on random views (permuted, flipped,
// strided, broadcast and masked inputs, masked outputs, outputs in the
// input's buffer or the input itself), every op and dtype, threads; then
// NumPy-semantics golden cases and errors.
#include "stridekit/scan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
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
  ScanOp op;
  sk_view in, out;
  int32_t axis;
  bool out_in_in_buffer;
  std::vector<T> in_buffer, out_buffer;
};

template <typename T>
Case<T> RandomCase(ViewGenerator& gen) {
  Case<T> c{};
  do {
    c.op = kScanOps[gen.Uniform(0, std::size(kScanOps) - 1)].op;
  } while (!OpAccepts(c.op, kKindOf<T>));
  const int rank = int(gen.Uniform(1, 4));
  const auto shape = gen.Shape(rank, 3000);
  const int axis = int(gen.Uniform(0, rank - 1));
  c.axis = gen.Chance(30) ? axis - rank : axis;
  int64_t in_end = gen.Layout(shape, gen.Uniform(0, 4), c.in);
  // Broadcast inputs: stride 0 on some axes.
  if (gen.Chance(15)) c.in.strides[gen.Uniform(0, rank - 1)] = 0;
  if (gen.Chance(15)) gen.Mask(c.in);
  const int kind = int(gen.Uniform(0, 9));  // 0: in place, 1: in in's buffer
  c.out_in_in_buffer = kind <= 1;
  int64_t out_end;
  if (kind == 0 && c.in.has_mask == 0) {
    out_end = gen.Layout(shape, 0, c.out);
    c.in = c.out;  // In place: in is out.
    in_end = out_end;
  } else {
    out_end = gen.Layout(shape, kind == 1 ? gen.Uniform(0, in_end) : 0, c.out);
    if (gen.Chance(10)) gen.Mask(c.out);
  }
  c.in_buffer.resize(
      size_t(std::max(in_end, c.out_in_in_buffer ? out_end : int64_t{0}) + 2));
  c.out_buffer.resize(size_t(out_end + 2));
  auto& rng = gen.rng();
  for (auto* buffer : {&c.in_buffer, &c.out_buffer}) {
    for (T& x : *buffer) x = testing::SpecialValue<T>(rng);
  }
  return c;
}

template <typename T, typename ScanFn>
std::vector<T> Run(const Case<T>& c, ScanFn scan) {
  std::vector<T> in = c.in_buffer, out = c.out_buffer;
  T* out_data = c.out_in_in_buffer ? in.data() : out.data();
  scan(c.op, testing::DTypeOf<T>(), c.in, in.data(), c.axis, c.out, out_data);
  return c.out_in_in_buffer ? in : out;
}

template <typename T>
void MatchesReferenceOnEveryTarget(uint64_t seed, int trials) {
  ViewGenerator gen(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const Case<T> c = RandomCase<T>(gen);
    const std::vector<T> want =
        Run(c, [](auto... a) { reference::Scan(a...); });
    testing::ForEachTarget([&](const std::string&) {
      for (int threads : {1, testing::ThreadsAllowed() ? 3 : 1}) {
        const std::vector<T> got =
            Run(c, [&](auto... a) { Scan(a..., NumericOptions{threads}); });
        const int64_t i = testing::FirstDifference(got, want);
        ASSERT_EQ(i, -1) << "trial " << trial << " op " << FindOp(c.op)->name
                         << " axis " << c.axis << " threads " << threads
                         << " element " << i << " got "
                         << testing::Printable(got[size_t(i)]) << " want "
                         << testing::Printable(want[size_t(i)]) << "\nin  "
                         << Describe(c.in) << "\nout " << Describe(c.out)
                         << " in in's buffer " << c.out_in_in_buffer;
      }
    });
  }
}

TEST(Scan, EveryDTypeMatchesReference) {
  uint64_t seed = 300;
  [&]<typename... T>(TypeList<T...>) {
    (
        [&] {
          SCOPED_TRACE(DTypeName(kDTypeOf<T>));
          MatchesReferenceOnEveryTarget<T>(seed++, testing::Trials(150));
        }(),
        ...);
  }(NumericTypes{});
}

// Long axes, first and last, contiguous: the vector paths' blocks.
TEST(Scan, LongAxesMatchReference) {
  std::mt19937_64 rng(5);
  const int64_t rows = 37, cols = 2100;
  std::vector<float> x(rows * cols);
  std::vector<int8_t> b(rows * cols);
  for (auto& v : x) v = testing::OrdinaryValue<float>(rng, 0, 10, false);
  for (auto& v : b) v = int8_t(rng());
  const sk_view in = MakeView({rows, cols}, {cols, 1}, 0);
  for (const ScanOp op :
       {ScanOp::kCumsum, ScanOp::kCumprod, ScanOp::kCummin, ScanOp::kCummax}) {
    for (const int32_t axis : {0, 1, -1}) {
      std::vector<float> want(x.size()), got(x.size());
      std::vector<int8_t> want8(x.size()), got8(x.size());
      reference::Scan(op, DType::kFloat32, in, x.data(), axis, in, want.data());
      reference::Scan(op, DType::kInt8, in, b.data(), axis, in, want8.data());
      testing::ForEachTarget([&](const std::string&) {
        Scan(op, DType::kFloat32, in, x.data(), axis, in, got.data());
        Scan(op, DType::kInt8, in, b.data(), axis, in, got8.data());
        EXPECT_EQ(testing::FirstDifference(got, want), -1)
            << FindOp(op)->name << " axis " << axis;
        EXPECT_EQ(got8, want8) << FindOp(op)->name << " axis " << axis;
      });
    }
  }
}

// An input read across out's rows (its scan axis strided, out's contiguous,
// another axis of unit stride), at least 16 KiB: transposed into out by the
// copy engine first, then scanned in place. 2-D and 3-D, odd edges, every
// op, a float and an integer dtype, 1 and 3 threads, bit-exact against the
// reference; below the size the strided walk runs (the same bits).
TEST(Scan, TransposedInputMatchesReference) {
  std::mt19937_64 rng(9);
  struct Shape {
    std::vector<int64_t> shape, in_strides, out_strides;
    int32_t axis;
  };
  const int64_t r = 67, c = 131;  // 8,777 elements: 35 KiB of float32.
  const std::vector<Shape> shapes = {
      {{r, c}, {1, r}, {c, 1}, 1},                         // a.T along its rows
      {{r, c}, {1, r}, {c, 1}, -1},                        // the same, axis -1
      {{5, 41, 43}, {1, 5 * 43, 5}, {41 * 43, 43, 1}, 2},  // 3-D, permuted
      {{9, 7}, {1, 9}, {7, 1}, 1},                         // below the size
  };
  for (const Shape& sh : shapes) {
    int64_t n = 1;
    for (int64_t e : sh.shape) n *= e;
    const sk_view in = MakeView(sh.shape, sh.in_strides, 0);
    const sk_view out = MakeView(sh.shape, sh.out_strides, 0);
    std::vector<float> x(static_cast<size_t>(n));
    std::vector<int16_t> b(static_cast<size_t>(n));
    for (auto& v : x) v = testing::OrdinaryValue<float>(rng, 0, 10, false);
    for (auto& v : b) v = int16_t(rng());
    for (const ScanOp op : {ScanOp::kCumsum, ScanOp::kCumprod, ScanOp::kCummin,
                            ScanOp::kCummax}) {
      std::vector<float> want(x.size()), got(x.size());
      std::vector<int16_t> want16(b.size()), got16(b.size());
      reference::Scan(op, DType::kFloat32, in, x.data(), sh.axis, out,
                      want.data());
      reference::Scan(op, DType::kInt16, in, b.data(), sh.axis, out,
                      want16.data());
      testing::ForEachTarget([&](const std::string&) {
        for (int threads : {1, testing::ThreadsAllowed() ? 3 : 1}) {
          std::fill(got.begin(), got.end(), -1.0f);
          Scan(op, DType::kFloat32, in, x.data(), sh.axis, out, got.data(),
               NumericOptions{threads});
          Scan(op, DType::kInt16, in, b.data(), sh.axis, out, got16.data(),
               NumericOptions{threads});
          EXPECT_EQ(testing::FirstDifference(got, want), -1)
              << FindOp(op)->name << " " << Describe(in) << " threads "
              << threads;
          EXPECT_EQ(got16, want16) << FindOp(op)->name << " " << Describe(in);
        }
      });
    }
  }
}

TEST(Scan, Golden) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {1, 3, nan, 2, 5, -1};
  testing::ForEachTarget([&](const std::string&) {
    std::vector<double> out(6);
    const sk_view v = MakeView({6}, {1}, 0);
    Scan(ScanOp::kCummax, DType::kFloat64, v, x.data(), 0, v, out.data());
    EXPECT_EQ(out[0], 1);
    EXPECT_EQ(out[1], 3);
    for (int i = 2; i < 6; ++i) EXPECT_TRUE(std::isnan(out[size_t(i)]));
    // [2,3] over axis 0 and axis -1.
    const std::vector<int32_t> m = {1, 2, 3, 4, 5, 6};
    std::vector<int32_t> o(6);
    const sk_view mv = MakeView({2, 3}, {3, 1}, 0);
    Scan(ScanOp::kCumsum, DType::kInt32, mv, m.data(), 0, mv, o.data());
    EXPECT_EQ(o, (std::vector<int32_t>{1, 2, 3, 5, 7, 9}));
    Scan(ScanOp::kCumprod, DType::kInt32, mv, m.data(), -1, mv, o.data());
    EXPECT_EQ(o, (std::vector<int32_t>{1, 2, 6, 4, 20, 120}));
    // int8 wraps (NumPy would promote to int64).
    const std::vector<int8_t> s = {100, 100, -128};
    std::vector<int8_t> so(3);
    const sk_view sv = MakeView({3}, {1}, 0);
    Scan(ScanOp::kCumsum, DType::kInt8, sv, s.data(), 0, sv, so.data());
    EXPECT_EQ(so, (std::vector<int8_t>{100, -56, 72}));
    // In place, reversed.
    std::vector<int64_t> r = {1, 2, 3, 4};
    const sk_view rv = MakeView({4}, {-1}, 3);
    Scan(ScanOp::kCumsum, DType::kInt64, rv, r.data(), 0, rv, r.data());
    EXPECT_EQ(r, (std::vector<int64_t>{10, 9, 7, 4}));
    // float16 rounds at every step: 2048 + 1 + 1 stays 2048.
    const std::vector<Float16> h = {scalar_ops::Narrow<Float16>(2048.0f),
                                    scalar_ops::Narrow<Float16>(1.0f),
                                    scalar_ops::Narrow<Float16>(1.0f)};
    std::vector<Float16> ho(3);
    Scan(ScanOp::kCumsum, DType::kFloat16, sv, h.data(), 0, sv, ho.data());
    EXPECT_EQ(scalar_ops::Widen(ho[2]), 2048.0f);
  });
}

TEST(Scan, Errors) {
  double x[6] = {}, out[6] = {};
  const sk_view v = MakeView({2, 3}, {3, 1}, 0);
  EXPECT_SK_ERROR(Scan(ScanOp::kCumsum, DType::kFloat64, v, x, 2, v, out),
                  ErrorKind::kInvalidArgument,
                  "cumsum: axis 2 is out of bounds for array of dimension 2");
  EXPECT_SK_ERROR(Scan(ScanOp::kCumsum, DType::kFloat64, v, x, 0,
                       MakeView({3, 2}, {2, 1}, 0), out),
                  ErrorKind::kInvalidArgument,
                  "cumsum: output shape [3,2] is not the input shape [2,3]");
  EXPECT_SK_ERROR(Scan(ScanOp::kCummin, DType::kComplex64, v, x, 0, v, out),
                  ErrorKind::kUnsupported,
                  "cummin: complex dtype Complex64 is not supported");
  EXPECT_SK_ERROR(Scan(ScanOp(7), DType::kFloat64, v, x, 0, v, out),
                  ErrorKind::kInvalidArgument, "scan: unknown op 7");
}

}  // namespace
}  // namespace stridekit
