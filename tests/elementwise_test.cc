// The elementwise kernels: the dispatched Binary/Unary on every target
// against the per-element reference on random views (broadcast, strided,
// reversed, masked, in place, overlapping) and special values, bit-exact
// (NaN payloads aside); then NumPy-semantics golden cases and errors.
#include "stridekit/elementwise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "dispatch/engine.h"
#include "equivalence.h"
#include "numeric_types.h"
#include "numeric_values.h"
#include "random_views.h"
#include "reference_kernels.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Describe;
using testing::MakeView;
using testing::ViewGenerator;

// Where an input's elements live.
enum class Placement { kOwnBuffer, kInOutBuffer, kInPlace };

template <typename T>
struct Case {
  bool unary;
  BinaryOp binary;
  UnaryOp unary_op;
  sk_view in[2], out;
  Placement placement[2];
  std::vector<T> in_buffer[2], out_buffer;
};

template <typename T>
Case<T> RandomCase(ViewGenerator& gen) {
  Case<T> c{};
  c.unary = gen.Chance(35);
  // Every op of the op table (stridekit/ops.h) that accepts T.
  do {
    c.binary = kBinaryOps[gen.Uniform(0, std::size(kBinaryOps) - 1)].op;
  } while (!OpAccepts(c.binary, kKindOf<T>));
  do {
    c.unary_op = kUnaryOps[gen.Uniform(0, std::size(kUnaryOps) - 1)].op;
  } while (!OpAccepts(c.unary_op, kKindOf<T>));
  const auto shape = gen.Shape(int(gen.Uniform(0, 6)), 3000);
  int64_t out_end = gen.Layout(shape, gen.Uniform(0, 4), c.out);
  if (gen.Chance(15)) gen.Mask(c.out);
  int64_t buffer_end = out_end;
  const int inputs = c.unary ? 1 : 2;
  for (int i = 0; i < inputs; ++i) {
    const int64_t kind = gen.Uniform(0, 99);
    if (kind < 12 && i == 0) {
      c.placement[i] = Placement::kInPlace;
      c.in[i] = c.out;
      continue;
    }
    const auto in_shape = gen.Chance(40) ? gen.BroadcastSource(shape) : shape;
    const bool overlap = kind < 25;
    c.placement[i] = overlap ? Placement::kInOutBuffer : Placement::kOwnBuffer;
    const int64_t end = gen.Layout(
        in_shape, overlap ? gen.Uniform(0, out_end) : gen.Uniform(0, 4),
        c.in[i]);
    if (gen.Chance(20)) gen.Mask(c.in[i]);
    if (overlap) {
      buffer_end = std::max(buffer_end, end);
    } else {
      c.in_buffer[i].resize(size_t(end + 2));
    }
  }
  c.out_buffer.resize(size_t(buffer_end + 2));
  for (auto* buffer : {&c.in_buffer[0], &c.in_buffer[1], &c.out_buffer}) {
    for (T& x : *buffer) x = testing::SpecialValue<T>(gen.rng());
  }
  // Integer division (divide, floor_divide, fmod, remainder, reciprocal):
  // mostly defined divisors, sometimes errors; integer power: mostly small
  // non-negative exponents, sometimes errors.
  if constexpr (std::is_integral_v<T>) {
    auto& second =
        c.placement[1] == Placement::kOwnBuffer ? c.in_buffer[1] : c.out_buffer;
    const bool division =
        c.unary ? FindOp(c.unary_op)->prechecked
                : FindOp(c.binary)->prechecked && c.binary != BinaryOp::kPow;
    if (c.unary && division && gen.Chance(80)) {
      auto& first = c.placement[0] == Placement::kOwnBuffer ? c.in_buffer[0]
                                                            : c.out_buffer;
      for (T& x : first) x = x == 0 ? T(1) : x;
      c.in[0].has_mask = 0;
    }
    if (!c.unary && division && gen.Chance(80)) {
      for (T& x : second) x = x == 0 ? T(3) : x == T(-1) ? T(2) : x;
      c.in[1].has_mask = 0;
    }
    if (!c.unary && c.binary == BinaryOp::kPow && gen.Chance(80)) {
      for (T& x : second) x = T(x & 15);
      c.in[1].has_mask = 0;
    }
  }
  return c;
}

template <typename T>
struct Outcome {
  std::vector<T> out;
  std::optional<ErrorKind> error;
};

template <typename T, typename Binary, typename Unary>
Outcome<T> Run(const Case<T>& c, Binary binary, Unary unary) {
  Outcome<T> r{c.out_buffer, std::nullopt};
  std::vector<T> in[2] = {c.in_buffer[0], c.in_buffer[1]};
  const void* data[2];
  for (int i = 0; i < 2; ++i) {
    data[i] =
        c.placement[i] == Placement::kOwnBuffer ? in[i].data() : r.out.data();
  }
  try {
    if (c.unary) {
      unary(c.unary_op, testing::DTypeOf<T>(), c.in[0], data[0], c.out,
            r.out.data());
    } else {
      binary(c.binary, testing::DTypeOf<T>(), c.in[0], data[0], c.in[1],
             data[1], c.out, r.out.data());
    }
  } catch (const Error& e) {
    r.error = e.kind();
  }
  return r;
}

template <typename T>
void MatchesReferenceOnEveryTarget(uint64_t seed, int trials) {
  ViewGenerator gen(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const Case<T> c = RandomCase<T>(gen);
    const Outcome<T> want = Run(
        c, [](auto... a) { reference::Binary(a...); },
        [](auto... a) { reference::Unary(a...); });
    testing::ForEachTarget([&](const std::string&) {
      const Outcome<T> got = Run(
          c, [](auto... a) { Binary(a...); }, [](auto... a) { Unary(a...); });
      const int64_t at = testing::FirstDifference(got.out, want.out);
      ASSERT_TRUE(at < 0 && got.error == want.error)
          << "trial " << trial << (c.unary ? " unary " : " binary ")
          << (c.unary ? int(c.unary_op) : int(c.binary)) << " element " << at
          << " got " << testing::Printable(at >= 0 ? got.out[size_t(at)] : T{})
          << " want "
          << testing::Printable(at >= 0 ? want.out[size_t(at)] : T{})
          << " error " << got.error.has_value() << " vs "
          << want.error.has_value() << "\nout " << Describe(c.out) << "\na   "
          << Describe(c.in[0]) << " placement " << int(c.placement[0])
          << "\nb   " << Describe(c.in[1]) << " placement "
          << int(c.placement[1]);
    });
  }
}

// Every dtype of the type list (NumericTypes), each op that accepts it.
TEST(Elementwise, EveryDTypeMatchesReference) {
  uint64_t seed = 100;
  [&]<typename... T>(TypeList<T...>) {
    (
        [&] {
          SCOPED_TRACE(DTypeName(kDTypeOf<T>));
          MatchesReferenceOnEveryTarget<T>(seed++, testing::Trials(250));
        }(),
        ...);
  }(NumericTypes{});
}

TEST(Elementwise, Float32MatchesReference) {
  MatchesReferenceOnEveryTarget<float>(11, 600);
}
TEST(Elementwise, Float64MatchesReference) {
  MatchesReferenceOnEveryTarget<double>(12, 600);
}
TEST(Elementwise, Int32MatchesReference) {
  MatchesReferenceOnEveryTarget<int32_t>(13, 600);
}
TEST(Elementwise, Int64MatchesReference) {
  MatchesReferenceOnEveryTarget<int64_t>(14, 600);
}

// Runs op on two 1-D float64 arrays of equal length on every target and the
// reference, and checks the result bits.
void ExpectBinary(BinaryOp op, std::vector<double> a, std::vector<double> b,
                  std::vector<double> want) {
  const int64_t n = int64_t(a.size());
  const sk_view v = MakeView({n}, {1}, 0);
  std::vector<double> out(a.size());
  reference::Binary(op, DType::kFloat64, v, a.data(), v, b.data(), v,
                    out.data());
  EXPECT_EQ(testing::FirstDifference(out, want), -1) << "reference";
  testing::ForEachTarget([&](const std::string&) {
    std::vector<double> got(a.size());
    Binary(op, DType::kFloat64, v, a.data(), v, b.data(), v, got.data());
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(testing::SameValue(got[i], want[i]))
          << "element " << i << " got " << got[i] << " want " << want[i];
    }
  });
}

TEST(Elementwise, MinimumAndMaximumFollowNumPy) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // np.minimum(-0.0, 0.0) is 0.0 and np.minimum(0.0, -0.0) is -0.0: b wins
  // between equals; NaN in either operand propagates. Repeated to fill
  // whole vectors and a tail on every target.
  std::vector<double> a, b, min, max;
  for (int i = 0; i < 9; ++i) {
    a.insert(a.end(), {-0.0, 0.0, nan, 1.0, 2.0, -1.0});
    b.insert(b.end(), {0.0, -0.0, 1.0, nan, 1.0, 3.0});
    min.insert(min.end(), {0.0, -0.0, nan, nan, 1.0, -1.0});
    max.insert(max.end(), {0.0, -0.0, nan, nan, 2.0, 3.0});
  }
  ExpectBinary(BinaryOp::kMin, a, b, min);
  ExpectBinary(BinaryOp::kMax, a, b, max);
}

TEST(Elementwise, RemainderIsNumPysFloorModulo) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // np.remainder (NumPy 1.24): the result takes b's sign, a zero result
  // too; b == 0 and an infinite a give NaN, an infinite b gives a or inf.
  ExpectBinary(
      BinaryOp::kMod,
      {5.5, -5.5, 5.5, -5.5, 0.0, -0.0, 1.0, inf, 3.0, -3.0, 6.0, -6.0},
      {2.0, 2.0, -2.0, -2.0, 3.0, -3.0, 0.0, 2.0, inf, inf, 3.0, -3.0},
      {1.5, 0.5, -0.5, -1.5, 0.0, -0.0, nan, nan, 3.0, inf, 0.0, -0.0});
  const int32_t min = std::numeric_limits<int32_t>::min();
  std::vector<int32_t> a = {7, -7, 7, -7, min, 0, 5, min, 9};
  std::vector<int32_t> b = {3, 3, -3, -3, -1, 4, -5, 7, min};
  const std::vector<int32_t> want = {1, 2, -2, -1, 0, 0, 0, 5, -2147483639};
  const sk_view v = MakeView({int64_t(a.size())}, {1}, 0);
  testing::ForEachTarget([&](const std::string& target) {
    std::vector<int32_t> got(a.size());
    Binary(BinaryOp::kMod, DType::kInt32, v, a.data(), v, b.data(), v,
           got.data());
    EXPECT_EQ(got, want) << target;
  });
  std::vector<int32_t> zero = {1, 0, 1}, out = {7, 7, 7};
  const sk_view three = MakeView({3}, {1}, 0);
  EXPECT_SK_ERROR(Binary(BinaryOp::kMod, DType::kInt32, three, a.data(), three,
                         zero.data(), three, out.data()),
                  ErrorKind::kInvalidArgument,
                  "remainder: integer modulo by zero (-7 % 0)");
  EXPECT_EQ(out, (std::vector<int32_t>{7, 7, 7}));
}

TEST(Elementwise, IntegerFloorDivisionAndWrapAround) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  const int64_t low = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> a, b;
  for (int i = 0; i < 5; ++i) {
    a.insert(a.end(), {-7, 7, -7, 7, low, big, 6});
    b.insert(b.end(), {2, -2, -2, 2, 1, 3, 3});
  }
  const sk_view v = MakeView({int64_t(a.size())}, {1}, 0);
  testing::ForEachTarget([&](const std::string&) {
    std::vector<int64_t> q(a.size()), p(a.size()), s(a.size());
    Binary(BinaryOp::kDiv, DType::kInt64, v, a.data(), v, b.data(), v,
           q.data());
    Binary(BinaryOp::kMul, DType::kInt64, v, a.data(), v, a.data(), v,
           p.data());
    Unary(UnaryOp::kAbs, DType::kInt64, v, a.data(), v, s.data());
    for (size_t i = 0; i < 7; ++i) {
      const int64_t want_q[] = {-4, -4, 3, 3, low, big / 3, 2};
      EXPECT_EQ(q[i], want_q[i]) << i;
      EXPECT_EQ(q[i + 28], want_q[i]) << i;
    }
    // big * big wraps to 1, low * low to 0; abs(low) stays low.
    EXPECT_EQ(p[5], 1);
    EXPECT_EQ(p[4], 0);
    EXPECT_EQ(p[0], 49);
    EXPECT_EQ(s[4], low);
    EXPECT_EQ(s[0], 7);
  });
}

TEST(Elementwise, InPlaceAndOuterProduct) {
  // a += b in place over a [3,4] view, then out = col [3,1] + row [1,4].
  std::vector<float> a(12), b(12);
  for (int i = 0; i < 12; ++i) a[i] = float(i), b[i] = float(100 * i);
  const sk_view m = MakeView({3, 4}, {4, 1}, 0);
  Binary(BinaryOp::kAdd, DType::kFloat32, m, a.data(), m, b.data(), m,
         a.data());
  for (int i = 0; i < 12; ++i) EXPECT_EQ(a[i], float(101 * i));
  const std::vector<float> col = {1, 2, 3}, row = {10, 20, 30, 40};
  std::vector<float> out(12);
  Binary(BinaryOp::kAdd, DType::kFloat32, MakeView({3, 1}, {1, 0}, 0),
         col.data(), MakeView({1, 4}, {0, 1}, 0), row.data(), m, out.data());
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) EXPECT_EQ(out[i * 4 + j], col[i] + row[j]);
  }
}

// Outputs of 64 MiB and more take the non-temporal store path; a misaligned
// output exercises its alignment head. Skipped under emulation (slow).
TEST(Elementwise, StreamedOutputsMatchTheReference) {
  if (std::getenv("STRIDEKIT_TEST_QUICK") != nullptr) GTEST_SKIP();
  const int64_t n = (int64_t{64} << 20) / 4 + 37;
  std::vector<float> a(n), b(n), out(n + 1), want(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = float(i % 1000) * 0.5f;
    b[i] = float(i % 777) - 300.0f;
    want[i] = a[i] * b[i];
  }
  const sk_view v = MakeView({n}, {1}, 0);
  testing::ForEachTarget([&](const std::string&) {
    std::fill(out.begin(), out.end(), -1.0f);
    Binary(BinaryOp::kMul, DType::kFloat32, v, a.data(), v, b.data(), v,
           out.data() + 1);
    EXPECT_EQ(out[0], -1.0f);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin() + 1));
  });
}

// The streamed rows with other input layouts and a narrow signed type (run
// on the unsigned kernel of its width): a reversed input minus a broadcast
// one, into a misaligned int16 output of 64 MiB.
TEST(Elementwise, StreamedRowsOfReversedAndBroadcastInputs) {
  if (std::getenv("STRIDEKIT_TEST_QUICK") != nullptr) GTEST_SKIP();
  const int64_t n = (int64_t{64} << 20) / 2 + 37;
  std::vector<int16_t> a(n), out(n + 1), want(n);
  const int16_t b = -1234;
  for (int64_t i = 0; i < n; ++i) a[i] = int16_t(i * 7919);
  for (int64_t i = 0; i < n; ++i) want[i] = int16_t(a[n - 1 - i] - b);
  const sk_view reversed = MakeView({n}, {-1}, n - 1);
  const sk_view broadcast = MakeView({n}, {0}, 0);
  const sk_view v = MakeView({n}, {1}, 0);
  testing::ForEachTarget([&](const std::string&) {
    std::fill(out.begin(), out.end(), int16_t{-1});
    Binary(BinaryOp::kSub, DType::kInt16, reversed, a.data(), broadcast, &b, v,
           out.data() + 1);
    EXPECT_EQ(out[0], -1);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin() + 1));
  });
}

// The transcendentals' blocks (numeric-inl.h's BlockRow) on streamed rows:
// exp of a contiguous input and arctan2 of a reversed input beside a
// broadcast one (staged through buffers, then streamed), into misaligned
// float32 outputs of 64 MiB, against the scalar reference's bits.
TEST(Elementwise, StreamedMathRowsMatchTheReference) {
  if (std::getenv("STRIDEKIT_TEST_QUICK") != nullptr) GTEST_SKIP();
  const int64_t n = (int64_t{64} << 20) / 4 + 37;
  std::vector<float> a(n), out(n + 1), want(n);
  for (int64_t i = 0; i < n; ++i) a[i] = float(i % 2001) * 0.01f - 10.0f;
  const float b = 0.75f;
  const sk_view v = MakeView({n}, {1}, 0);
  const sk_view reversed = MakeView({n}, {-1}, n - 1);
  const sk_view broadcast = MakeView({n}, {0}, 0);
  reference::Unary(UnaryOp::kExp, DType::kFloat32, v, a.data(), v, want.data());
  testing::ForEachTarget([&](const std::string& target) {
    std::fill(out.begin(), out.end(), -1.0f);
    Unary(UnaryOp::kExp, DType::kFloat32, v, a.data(), v, out.data() + 1);
    EXPECT_EQ(out[0], -1.0f);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin() + 1))
        << target << " exp";
  });
  reference::Binary(BinaryOp::kArctan2, DType::kFloat32, reversed, a.data(),
                    broadcast, &b, v, want.data());
  testing::ForEachTarget([&](const std::string& target) {
    std::fill(out.begin(), out.end(), -1.0f);
    Binary(BinaryOp::kArctan2, DType::kFloat32, reversed, a.data(), broadcast,
           &b, v, out.data() + 1);
    EXPECT_EQ(out[0], -1.0f);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), out.begin() + 1))
        << target << " arctan2";
  });
}

// Transposed inputs run the executors' tiled path (register-tile
// transposes, dispatch/elementwise.cc); results must equal the reference,
// also for unary ops, both inputs transposed, and integer division (which
// keeps the row path).
TEST(Elementwise, TransposedInputsOfLargeOutputs) {
  const int64_t n = 301;  // ragged register tiles on every target
  std::vector<int32_t> a(n * n), b(n * n), out(n * n), want(n * n);
  for (int64_t i = 0; i < n * n; ++i) {
    a[i] = int32_t(i % 1013) - 500;
    b[i] = int32_t(i % 17) + 1;
  }
  const sk_view c = MakeView({n, n}, {n, 1}, 0);
  const sk_view t = MakeView({n, n}, {1, n}, 0);
  struct Case {
    BinaryOp op;
    sk_view a, b;
  };
  for (const Case& k :
       {Case{BinaryOp::kSub, t, c}, Case{BinaryOp::kMul, c, t},
        Case{BinaryOp::kAdd, t, t}, Case{BinaryOp::kDiv, t, c}}) {
    reference::Binary(k.op, DType::kInt32, k.a, a.data(), k.b, b.data(), c,
                      want.data());
    testing::ForEachTarget([&](const std::string&) {
      std::fill(out.begin(), out.end(), 7);
      Binary(k.op, DType::kInt32, k.a, a.data(), k.b, b.data(), c, out.data());
      EXPECT_EQ(out, want) << "op " << int(k.op);
    });
  }
  reference::Unary(UnaryOp::kNeg, DType::kInt32, t, a.data(), c, want.data());
  testing::ForEachTarget([&](const std::string&) {
    Unary(UnaryOp::kNeg, DType::kInt32, t, a.data(), c, out.data());
    EXPECT_EQ(out, want);
  });
  // A zero divisor in the transposed operand: nothing may be written.
  b[5] = 0;
  testing::ForEachTarget([&](const std::string&) {
    std::fill(out.begin(), out.end(), 7);
    EXPECT_THROW(Binary(BinaryOp::kDiv, DType::kInt32, c, a.data(), t, b.data(),
                        c, out.data()),
                 Error);
    EXPECT_TRUE(
        std::all_of(out.begin(), out.end(), [](int32_t v) { return v == 7; }));
  });
}

// Outputs of dispatch::TransposeThroughOutputMinBytes or more (64 KiB for
// the cheap ops) first copy the transposed input into the output with the
// copy engine's tiled transpose, then run in place. n is the smallest odd
// edge at that size (ragged copy tiles), derived from the threshold so that
// the test follows it. With two threads each part is below it and takes
// the register-tile path instead; both must equal the reference.
TEST(Elementwise, TransposedInputGoesThroughTheOutput) {
  int64_t n = 1;
  while (n * n * 8 < dispatch::TransposeThroughOutputMinBytes(false)) n += 2;
  std::vector<double> a(size_t(n * n)), b(a.size()), out(a.size()),
      want(a.size());
  for (int64_t i = 0; i < n * n; ++i) {
    a[size_t(i)] = double(i % 1009) * 0.5;
    b[size_t(i)] = double(i % 13) - 6;
  }
  const sk_view c = MakeView({n, n}, {n, 1}, 0);
  const sk_view t = MakeView({n, n}, {1, n}, 0);
  struct Case {
    BinaryOp op;
    bool a_transposed;
    int threads;
  };
  for (const Case& k :
       {Case{BinaryOp::kSub, true, 1}, Case{BinaryOp::kSub, false, 1},
        Case{BinaryOp::kMul, false, 2}}) {
    const int threads = testing::ThreadsAllowed() ? k.threads : 1;
    const sk_view& x = k.a_transposed ? t : c;
    const sk_view& y = k.a_transposed ? c : t;
    reference::Binary(k.op, DType::kFloat64, x, a.data(), y, b.data(), c,
                      want.data());
    testing::ForEachTarget([&](const std::string&) {
      std::fill(out.begin(), out.end(), -1.0);
      Binary(k.op, DType::kFloat64, x, a.data(), y, b.data(), c, out.data(),
             NumericOptions{threads});
      EXPECT_TRUE(out == want)
          << "op " << int(k.op) << ", threads " << threads
          << ", transposed input " << (k.a_transposed ? "a" : "b");
    });
  }
  // A transcendental goes through the output from its own, larger size:
  // exp of a transposed input there. Quick runs (qemu-user, the
  // sanitizers) skip it: each 64 MiB pass per target takes seconds there.
  if (std::getenv("STRIDEKIT_TEST_QUICK") != nullptr) return;
  int64_t m = 1;
  while (m * m * 8 < dispatch::TransposeThroughOutputMinBytes(true)) m += 2;
  std::vector<double> x(size_t(m * m)), y(x.size()), expected(x.size());
  for (int64_t i = 0; i < m * m; ++i) x[size_t(i)] = double(i % 2003) * 0.01;
  const sk_view mc = MakeView({m, m}, {m, 1}, 0);
  const sk_view mt = MakeView({m, m}, {1, m}, 0);
  reference::Unary(UnaryOp::kExp, DType::kFloat64, mt, x.data(), mc,
                   expected.data());
  testing::ForEachTarget([&](const std::string&) {
    std::fill(y.begin(), y.end(), -1.0);
    Unary(UnaryOp::kExp, DType::kFloat64, mt, x.data(), mc, y.data());
    EXPECT_TRUE(y == expected) << "exp of a transposed input";
  });
}

// The register-tile path for a transposed input, bit-exact against the
// reference on every target: every shape of ragged edges (below, equal to
// and above the vector length), 2-D and 3-D (several slabs), the transposed
// input first or second (non-commutative ops), the other input contiguous,
// broadcast along the rows (stride 0 on the inner axis: the fused path) or
// transposed too (the row path), unary ops, and special values.
template <typename T>
void CheckTransposedTiles(DType dtype) {
  std::mt19937_64 rng(11);
  // Plain variables: clang 14 lambdas cannot capture structured bindings.
  for (const std::array<int64_t, 3>& shape : {std::array<int64_t, 3>{1, 1, 1},
                                              {1, 5, 17},
                                              {1, 16, 16},
                                              {1, 33, 47},
                                              {1, 64, 3},
                                              {1, 129, 130},
                                              {3, 20, 9},
                                              {2, 17, 33}}) {
    const int64_t slabs = shape[0], rows = shape[1], cols = shape[2];
    const int64_t n = slabs * rows * cols;
    std::vector<T> a(n), b(n), column(slabs * rows), want(n), got(n);
    for (T& x : a) x = testing::SpecialValue<T>(rng);
    for (T& x : b) x = testing::SpecialValue<T>(rng);
    for (T& x : column) x = testing::SpecialValue<T>(rng);
    // out and b are C-ordered [slabs, rows, cols]; `t` reads a stored as
    // [slabs, cols, rows] (stride 1 along rows); `column` is [slabs, rows,
    // 1] broadcast along cols.
    const sk_view c = MakeView({slabs, rows, cols}, {rows * cols, cols, 1}, 0);
    const sk_view t = MakeView({slabs, rows, cols}, {rows * cols, 1, rows}, 0);
    const sk_view bcast = MakeView({slabs, rows, cols}, {rows, 1, 0}, 0);
    struct Binary_ {
      BinaryOp op;
      sk_view x, y;
      bool y_is_column;
    };
    for (const Binary_& k :
         {Binary_{BinaryOp::kSub, t, c, false},
          // Integer division keeps the row path (and would divide by 0).
          Binary_{std::is_integral_v<T> ? BinaryOp::kMul : BinaryOp::kDiv, c, t,
                  false},
          Binary_{BinaryOp::kMax, t, bcast, true},
          Binary_{BinaryOp::kSub, bcast, t, false},
          Binary_{BinaryOp::kMin, t, t, false}}) {
      // bcast reads `column`; as x it is the first operand.
      const bool x_is_column = k.x.strides[2] == 0;
      const T* x_data = x_is_column           ? column.data()
                        : k.x.strides[1] == 1 ? a.data()
                                              : b.data();
      const T* y_data = k.y_is_column         ? column.data()
                        : k.y.strides[1] == 1 ? a.data()
                                              : b.data();
      reference::Binary(k.op, dtype, k.x, x_data, k.y, y_data, c, want.data());
      testing::ForEachTarget([&](const std::string& target) {
        std::fill(got.begin(), got.end(), T(7));
        Binary(k.op, dtype, k.x, x_data, k.y, y_data, c, got.data());
        const int64_t i = testing::FirstDifference(got, want);
        EXPECT_EQ(i, -1) << target << " op " << int(k.op) << " shape " << slabs
                         << "x" << rows << "x" << cols;
      });
    }
    for (UnaryOp op : {UnaryOp::kNeg, UnaryOp::kSquare}) {
      reference::Unary(op, dtype, t, a.data(), c, want.data());
      testing::ForEachTarget([&](const std::string& target) {
        Unary(op, dtype, t, a.data(), c, got.data());
        EXPECT_EQ(testing::FirstDifference(got, want), -1)
            << target << " unary " << int(op);
      });
    }
  }
}

TEST(Elementwise, TransposedInputsByRegisterTiles) {
  CheckTransposedTiles<float>(DType::kFloat32);
  CheckTransposedTiles<double>(DType::kFloat64);
  CheckTransposedTiles<int32_t>(DType::kInt32);
  CheckTransposedTiles<int64_t>(DType::kInt64);
}

// Threads split out's valid box into parts (NumericOptions): the same bits
// as one thread, for broadcast, transposed, masked, in-place and streamed
// layouts; integer division stays one part (nothing written on error).
TEST(Elementwise, ThreadsGiveTheSameBits) {
  if (!testing::ThreadsAllowed()) GTEST_SKIP();
  const int64_t rows = 1031, cols = 1033;  // > 2^19 elements: 2+ parts
  std::vector<int32_t> a(rows * cols), b(rows * cols), want(rows * cols),
      got(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    a[i] = int32_t(i % 1013) - 500;
    b[i] = int32_t(i % 17) + 1;
  }
  const sk_view c = MakeView({rows, cols}, {cols, 1}, 0);
  const sk_view t = MakeView({rows, cols}, {1, rows}, 0);
  const sk_view row = MakeView({cols}, {1}, 0);
  sk_view masked = c;
  masked.has_mask = 1;
  masked.mask_begin[0] = 3, masked.mask_end[0] = rows - 5;
  masked.mask_begin[1] = 0, masked.mask_end[1] = cols - 1;
  struct Case {
    BinaryOp op;
    sk_view a, b, out;
  };
  for (const Case& k :
       {Case{BinaryOp::kAdd, c, row, c}, Case{BinaryOp::kMul, t, c, c},
        Case{BinaryOp::kSub, masked, c, c},
        Case{BinaryOp::kMax, c, c, masked}}) {
    for (int threads : {2, 3}) {
      testing::ForEachTarget([&](const std::string&) {
        std::fill(want.begin(), want.end(), 7);
        std::fill(got.begin(), got.end(), 7);
        Binary(k.op, DType::kInt32, k.a, a.data(), k.b, b.data(), k.out,
               want.data());
        Binary(k.op, DType::kInt32, k.a, a.data(), k.b, b.data(), k.out,
               got.data(), NumericOptions{threads});
        EXPECT_EQ(got, want) << "op " << int(k.op) << " threads " << threads;
      });
    }
  }
  // In place, threaded: a -= b.
  std::vector<int32_t> in_place = a;
  Binary(BinaryOp::kSub, DType::kInt32, c, in_place.data(), c, b.data(), c,
         in_place.data(), NumericOptions{2});
  for (int64_t i = 0; i < rows * cols; ++i) ASSERT_EQ(in_place[i], a[i] - b[i]);
  // A zero divisor anywhere: nothing is written, whatever the threads.
  b[rows * cols - 2] = 0;
  std::fill(got.begin(), got.end(), 7);
  EXPECT_THROW(Binary(BinaryOp::kDiv, DType::kInt32, c, a.data(), c, b.data(),
                      c, got.data(), NumericOptions{2}),
               Error);
  EXPECT_TRUE(
      std::all_of(got.begin(), got.end(), [](int32_t v) { return v == 7; }));
}

TEST(Elementwise, OverlapBehavesAsThroughATemporary) {
  // a[1:] = a[:-1] + a[1:] (NumPy with a temporary): shifted overlap.
  std::vector<int32_t> a = {1, 2, 3, 4, 5, 6, 7, 8};
  Binary(BinaryOp::kAdd, DType::kInt32, MakeView({7}, {1}, 0), a.data(),
         MakeView({7}, {1}, 1), a.data(), MakeView({7}, {1}, 1), a.data());
  EXPECT_EQ(a, (std::vector<int32_t>{1, 3, 5, 7, 9, 11, 13, 15}));
  // In-place reversal: a = -a[::-1].
  Unary(UnaryOp::kNeg, DType::kInt32, MakeView({8}, {-1}, 7), a.data(),
        MakeView({8}, {1}, 0), a.data());
  EXPECT_EQ(a, (std::vector<int32_t>{-15, -13, -11, -9, -7, -5, -3, -1}));
}

TEST(Elementwise, Errors) {
  std::vector<int32_t> a = {4, std::numeric_limits<int32_t>::min(), 6},
                       zero = {1, 0, 1}, minus = {1, -1, 1}, out = {7, 7, 7};
  const sk_view v = MakeView({3}, {1}, 0);
  EXPECT_SK_ERROR(Binary(BinaryOp::kDiv, DType::kInt32, v, a.data(), v,
                         zero.data(), v, out.data()),
                  ErrorKind::kInvalidArgument,
                  "divide: integer division by zero (-2147483648 // 0)");
  EXPECT_SK_ERROR(Binary(BinaryOp::kDiv, DType::kInt32, v, a.data(), v,
                         minus.data(), v, out.data()),
                  ErrorKind::kOutOfRange,
                  "divide: integer overflow in -2147483648 // -1");
  EXPECT_EQ(out, (std::vector<int32_t>{7, 7, 7}));
  EXPECT_SK_ERROR(reference::Binary(BinaryOp::kDiv, DType::kInt32, v, a.data(),
                                    v, minus.data(), v, out.data()),
                  ErrorKind::kOutOfRange,
                  "divide: integer overflow in -2147483648 // -1");
  EXPECT_EQ(out, (std::vector<int32_t>{7, 7, 7}));
  EXPECT_SK_ERROR(
      Unary(UnaryOp::kSqrt, DType::kInt32, v, a.data(), v, out.data()),
      ErrorKind::kUnsupported,
      "sqrt: integer dtype Int32 is not supported (NumPy returns floats; "
      "stridekit keeps the dtype)");
  // NumPy has no bool subtract (TypeError) and no complex order.
  EXPECT_SK_ERROR(Binary(BinaryOp::kSub, DType::kBool, v, a.data(), v, a.data(),
                         v, out.data()),
                  ErrorKind::kUnsupported,
                  "subtract: bool dtype Bool is not supported");
  EXPECT_SK_ERROR(Binary(BinaryOp::kMax, DType::kComplex64, v, a.data(), v,
                         a.data(), v, out.data()),
                  ErrorKind::kUnsupported,
                  "maximum: complex dtype Complex64 is not supported");
  EXPECT_SK_ERROR(Binary(BinaryOp::kAdd, DType(15), v, a.data(), v, a.data(), v,
                         out.data()),
                  ErrorKind::kUnsupported,
                  "add: dtype (unknown) is not supported (Bool, Int8, Int16, "
                  "Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float16, "
                  "BFloat16, Float32, Float64, Complex64, Complex128)");
  EXPECT_SK_ERROR(Binary(BinaryOp(26), DType::kInt32, v, a.data(), v, a.data(),
                         v, out.data()),
                  ErrorKind::kInvalidArgument, "binary: unknown op 26");
  EXPECT_SK_ERROR(Binary(BinaryOp::kMul, DType::kInt32, MakeView({2}, {1}, 0),
                         a.data(), v, a.data(), v, out.data()),
                  ErrorKind::kInvalidArgument,
                  "multiply: cannot broadcast source shape [2] to "
                  "destination shape [3]");
}

}  // namespace
}  // namespace stridekit
