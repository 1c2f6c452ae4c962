// The bool-output families and where: the dispatched Compare, Predicate and
// Where on every target against the per-element reference on random views
// (broadcast, strided, reversed, masked, in place, overlapping the output,
// threads) for every dtype and op, bit-exact; then NumPy's golden cases
// (NaN, -0.0, inf, bool bytes, complex) and errors.
#include "stridekit/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "allocation.h"
#include "equivalence.h"
#include "numeric_types.h"
#include "numeric_values.h"
#include "random_views.h"
#include "reference_kernels.h"
#include "stridekit/where.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::Describe;
using testing::MakeView;
using testing::ViewGenerator;

enum class Kind { kCompare, kPredicate, kWhere };
// Where an input's elements live: its own buffer, somewhere in the output's
// buffer (any overlap), or exactly the output (where's a and b only).
enum class Placement { kOwnBuffer, kInOutBuffer, kInPlace };

// A random call: buffers are bytes; inputs are T (where's cond bytes), the
// output bytes (compare, predicate) or T (where).
template <typename T>
struct Case {
  Kind kind;
  CompareOp compare;
  PredicateOp predicate;
  int threads;
  sk_view in[3], out;
  Placement placement[3];
  std::vector<unsigned char> in_buffer[3], out_buffer;

  int Inputs() const {
    return kind == Kind::kWhere ? 3 : kind == Kind::kCompare ? 2 : 1;
  }
  size_t InSize(int i) const {
    return kind == Kind::kWhere && i == 0 ? 1 : sizeof(T);
  }
  size_t OutSize() const { return kind == Kind::kWhere ? sizeof(T) : 1; }
};

// Fills `bytes` with values of T (cond bytes: 0, 1 or any byte).
template <typename T>
void FillValues(std::vector<unsigned char>& bytes, size_t size,
                std::mt19937_64& rng) {
  if (size == 1 && !std::is_same_v<T, uint8_t>) {
    for (auto& b : bytes) {
      const uint64_t r = rng() % 8;
      b = r < 3 ? 0 : r < 6 ? 1 : static_cast<unsigned char>(rng());
    }
    return;
  }
  for (size_t k = 0; k + sizeof(T) <= bytes.size(); k += sizeof(T)) {
    const T x = testing::SpecialValue<T>(rng);
    std::memcpy(bytes.data() + k, &x, sizeof(T));
  }
}

template <typename T>
Case<T> RandomCase(ViewGenerator& gen) {
  Case<T> c{};
  const int64_t k = gen.Uniform(0, 99);
  c.kind = k < 50 ? Kind::kCompare : k < 70 ? Kind::kPredicate : Kind::kWhere;
  do {
    c.compare = kCompareOps[gen.Uniform(0, std::size(kCompareOps) - 1)].op;
  } while (!OpAccepts(c.compare, kKindOf<T>));
  // A kind's predicate (signbit is for floats only).
  do {
    c.predicate =
        kPredicateOps[gen.Uniform(0, std::size(kPredicateOps) - 1)].op;
  } while (!OpAccepts(c.predicate, kKindOf<T>));
  c.threads = testing::ThreadsAllowed() && gen.Chance(10) ? 2 : 1;
  const auto shape = gen.Shape(int(gen.Uniform(0, 6)), 3000);
  const int64_t out_end = gen.Layout(shape, gen.Uniform(0, 4), c.out);
  if (gen.Chance(15)) gen.Mask(c.out);
  size_t buffer_bytes = size_t(out_end + 2) * c.OutSize();
  for (int i = 0; i < c.Inputs(); ++i) {
    const int64_t kind = gen.Uniform(0, 99);
    if (kind < 12 && c.kind == Kind::kWhere && i > 0) {
      c.placement[i] = Placement::kInPlace;
      c.in[i] = c.out;
      continue;
    }
    const auto in_shape = gen.Chance(40) ? gen.BroadcastSource(shape) : shape;
    const bool overlap = kind < 25;
    c.placement[i] = overlap ? Placement::kInOutBuffer : Placement::kOwnBuffer;
    // In the output's buffer: an offset of whole input elements inside it.
    const int64_t base =
        overlap ? gen.Uniform(0, int64_t(buffer_bytes / c.InSize(i)))
                : gen.Uniform(0, 4);
    const int64_t end = gen.Layout(in_shape, base, c.in[i]);
    if (gen.Chance(20)) gen.Mask(c.in[i]);
    const size_t bytes = size_t(end + 2) * c.InSize(i);
    if (overlap) {
      buffer_bytes = std::max(buffer_bytes, bytes);
    } else {
      c.in_buffer[i].resize(bytes);
      FillValues<T>(c.in_buffer[i], c.InSize(i), gen.rng());
    }
  }
  c.out_buffer.resize(buffer_bytes);
  FillValues<T>(c.out_buffer, sizeof(T), gen.rng());
  // Comparisons of equal values: b often copies a's buffer.
  if (c.kind == Kind::kCompare && gen.Chance(30) &&
      c.placement[0] == Placement::kOwnBuffer &&
      c.placement[1] == Placement::kOwnBuffer) {
    c.in_buffer[1] = c.in_buffer[0];
    c.in[1] = c.in[0];
    // Shifted up by one element (never down: a's lowest element may be the
    // buffer's first); the buffer grows to keep the shifted view inside.
    if (gen.Chance(50)) c.in[1].offset += gen.Uniform(0, 1);
    c.in_buffer[1].resize(c.in_buffer[1].size() + 2 * sizeof(T));
  }
  return c;
}

struct Outcome {
  std::vector<unsigned char> out;
  std::optional<ErrorKind> error;
};

// Runs the case with the dispatched kernels (`reference` false) or the
// reference's.
template <typename T>
Outcome Run(const Case<T>& c, bool reference) {
  Outcome r{c.out_buffer, std::nullopt};
  std::vector<unsigned char> in[3] = {c.in_buffer[0], c.in_buffer[1],
                                      c.in_buffer[2]};
  const void* data[3] = {};
  for (int i = 0; i < c.Inputs(); ++i) {
    data[i] =
        c.placement[i] == Placement::kOwnBuffer ? in[i].data() : r.out.data();
  }
  const DType t = testing::DTypeOf<T>();
  NumericOptions options;
  options.threads = c.threads;
  try {
    switch (c.kind) {
      case Kind::kCompare:
        reference ? reference::Compare(c.compare, t, c.in[0], data[0], c.in[1],
                                       data[1], c.out, r.out.data())
                  : Compare(c.compare, t, c.in[0], data[0], c.in[1], data[1],
                            c.out, r.out.data(), options);
        break;
      case Kind::kPredicate:
        reference ? reference::Predicate(c.predicate, t, c.in[0], data[0],
                                         c.out, r.out.data())
                  : Predicate(c.predicate, t, c.in[0], data[0], c.out,
                              r.out.data(), options);
        break;
      case Kind::kWhere:
        reference ? reference::Where(t, c.in[0], data[0], c.in[1], data[1],
                                     c.in[2], data[2], c.out, r.out.data())
                  : Where(t, c.in[0], data[0], c.in[1], data[1], c.in[2],
                          data[2], c.out, r.out.data(), options);
        break;
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
    const Outcome want = Run(c, true);
    ASSERT_FALSE(want.error.has_value()) << "trial " << trial;
    testing::ForEachTarget([&](const std::string&) {
      const Outcome got = Run(c, false);
      const int64_t at = testing::FirstDifference(got.out, want.out);
      ASSERT_TRUE(at < 0 && !got.error.has_value())
          << "trial " << trial << " kind " << int(c.kind) << " compare "
          << int(c.compare) << " predicate " << int(c.predicate) << " byte "
          << at << " got " << int(at >= 0 ? got.out[size_t(at)] : 0) << " want "
          << int(at >= 0 ? want.out[size_t(at)] : 0) << " threads " << c.threads
          << "\nout  " << Describe(c.out) << "\nin0  " << Describe(c.in[0])
          << " placement " << int(c.placement[0]) << "\nin1  "
          << Describe(c.in[1]) << " placement " << int(c.placement[1])
          << "\nin2  " << Describe(c.in[2]) << " placement "
          << int(c.placement[2]);
    });
  }
}

// Every dtype of NumericTypes, every op that accepts it.
TEST(Compare, EveryDTypeMatchesReference) {
  uint64_t seed = 1700;
  [&]<typename... T>(TypeList<T...>) {
    (
        [&] {
          SCOPED_TRACE(DTypeName(kDTypeOf<T>));
          MatchesReferenceOnEveryTarget<T>(seed++, testing::Trials(300));
        }(),
        ...);
  }(NumericTypes{});
}

TEST(Compare, Float32MatchesReference) {
  MatchesReferenceOnEveryTarget<float>(17, 800);
}

// a op b on 1-D arrays on the reference and every target (repeated to fill
// whole vectors and a tail).
template <typename T>
void ExpectCompare(CompareOp op, DType t, const std::vector<T>& a0,
                   const std::vector<T>& b0, const std::vector<uint8_t>& want0,
                   int repeat = 9) {
  std::vector<T> a, b;
  std::vector<uint8_t> want;
  for (int r = 0; r < repeat; ++r) {
    a.insert(a.end(), a0.begin(), a0.end());
    b.insert(b.end(), b0.begin(), b0.end());
    want.insert(want.end(), want0.begin(), want0.end());
  }
  const sk_view v = MakeView({int64_t(a.size())}, {1}, 0);
  std::vector<uint8_t> got(a.size(), 7);
  reference::Compare(op, t, v, a.data(), v, b.data(), v, got.data());
  EXPECT_EQ(got, want) << "reference op " << int(op);
  testing::ForEachTarget([&](const std::string&) {
    std::fill(got.begin(), got.end(), 7);
    Compare(op, t, v, a.data(), v, b.data(), v, got.data());
    EXPECT_EQ(got, want) << "op " << int(op);
  });
}

TEST(Compare, FloatsFollowNumPy) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> a = {nan, 1.0, nan, -0.0, 0.0, inf, -inf, 1.0, 2.0};
  const std::vector<double> b = {1.0, nan, nan, 0.0, -0.0, inf, inf, 2.0, 1.0};
  ExpectCompare<double>(CompareOp::kEq, DType::kFloat64, a, b,
                        {0, 0, 0, 1, 1, 1, 0, 0, 0});
  ExpectCompare<double>(CompareOp::kNe, DType::kFloat64, a, b,
                        {1, 1, 1, 0, 0, 0, 1, 1, 1});
  ExpectCompare<double>(CompareOp::kLt, DType::kFloat64, a, b,
                        {0, 0, 0, 0, 0, 0, 1, 1, 0});
  ExpectCompare<double>(CompareOp::kLe, DType::kFloat64, a, b,
                        {0, 0, 0, 1, 1, 1, 1, 1, 0});
  ExpectCompare<double>(CompareOp::kGt, DType::kFloat64, a, b,
                        {0, 0, 0, 0, 0, 0, 0, 0, 1});
  ExpectCompare<double>(CompareOp::kGe, DType::kFloat64, a, b,
                        {0, 0, 0, 1, 1, 1, 0, 0, 1});
  const std::vector<float> fa = {float(nan), -0.0f, 3.0f};
  const std::vector<float> fb = {float(nan), 0.0f, 2.0f};
  ExpectCompare<float>(CompareOp::kNe, DType::kFloat32, fa, fb, {1, 0, 1});
  ExpectCompare<float>(CompareOp::kGe, DType::kFloat32, fa, fb, {0, 1, 1});
}

TEST(Compare, HalvesBoolAndComplex) {
  // float16: 1.0 = 0x3c00, NaN 0x7e00, -0 0x8000, +0 0, 65504 = 0x7bff.
  const std::vector<Float16> ha = {{0x3c00}, {0x7e00}, {0x8000}, {0x7bff}};
  const std::vector<Float16> hb = {{0x3c00}, {0x7e00}, {0x0000}, {0x3c00}};
  ExpectCompare<Float16>(CompareOp::kEq, DType::kFloat16, ha, hb, {1, 0, 1, 0});
  ExpectCompare<Float16>(CompareOp::kGt, DType::kFloat16, ha, hb, {0, 0, 0, 1});
  // bfloat16 1.0 = 0x3f80, 1.0078125 = 0x3f81.
  const std::vector<BFloat16> ba = {{0x3f80}, {0x3f81}, {0x7fc0}};
  const std::vector<BFloat16> bb = {{0x3f81}, {0x3f80}, {0x7fc0}};
  ExpectCompare<BFloat16>(CompareOp::kLt, DType::kBFloat16, ba, bb, {1, 0, 0});
  ExpectCompare<BFloat16>(CompareOp::kNe, DType::kBFloat16, ba, bb, {1, 1, 1});
  // Bool: any non-zero byte is true.
  const std::vector<Bool> a = {{0}, {1}, {2}, {255}, {0}};
  const std::vector<Bool> b = {{0}, {7}, {1}, {0}, {3}};
  ExpectCompare<Bool>(CompareOp::kEq, DType::kBool, a, b, {1, 1, 1, 0, 0});
  ExpectCompare<Bool>(CompareOp::kLt, DType::kBool, a, b, {0, 0, 0, 0, 1});
  ExpectCompare<Bool>(CompareOp::kGe, DType::kBool, a, b, {1, 1, 1, 1, 0});
  // Complex: both parts equal; a NaN part is never equal.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<Complex64> ca = {{1, 2}, {1, 2}, {nan, 0}, {-0.0f, 0}};
  const std::vector<Complex64> cb = {{1, 2}, {1, 3}, {nan, 0}, {0, -0.0f}};
  ExpectCompare<Complex64>(CompareOp::kEq, DType::kComplex64, ca, cb,
                           {1, 0, 0, 1});
  ExpectCompare<Complex64>(CompareOp::kNe, DType::kComplex64, ca, cb,
                           {0, 1, 1, 0});
  // Integers at the extremes (unsigned compare, not signed).
  const std::vector<uint32_t> ua = {0xffffffffu, 0, 5};
  const std::vector<uint32_t> ub = {0, 0xffffffffu, 5};
  ExpectCompare<uint32_t>(CompareOp::kGt, DType::kUint32, ua, ub, {1, 0, 0});
  ExpectCompare<uint32_t>(CompareOp::kLe, DType::kUint32, ua, ub, {0, 1, 1});
  const std::vector<int64_t> ia = {INT64_MIN, INT64_MAX, -1};
  const std::vector<int64_t> ib = {INT64_MAX, INT64_MIN, -1};
  ExpectCompare<int64_t>(CompareOp::kLt, DType::kInt64, ia, ib, {1, 0, 0});
  ExpectCompare<int64_t>(CompareOp::kGe, DType::kInt64, ia, ib, {0, 1, 1});
}

template <typename T>
void ExpectPredicate(PredicateOp op, DType t, const std::vector<T>& a0,
                     const std::vector<uint8_t>& want0) {
  std::vector<T> a;
  std::vector<uint8_t> want;
  for (int r = 0; r < 9; ++r) {
    a.insert(a.end(), a0.begin(), a0.end());
    want.insert(want.end(), want0.begin(), want0.end());
  }
  const sk_view v = MakeView({int64_t(a.size())}, {1}, 0);
  std::vector<uint8_t> got(a.size(), 7);
  reference::Predicate(op, t, v, a.data(), v, got.data());
  EXPECT_EQ(got, want) << "reference";
  testing::ForEachTarget([&](const std::string&) {
    std::fill(got.begin(), got.end(), 7);
    Predicate(op, t, v, a.data(), v, got.data());
    EXPECT_EQ(got, want) << "op " << int(op);
  });
}

TEST(Compare, PredicatesFollowNumPy) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> d = {nan, inf, -inf, 0.0, -1e308, 5e-324};
  ExpectPredicate<double>(PredicateOp::kIsNan, DType::kFloat64, d,
                          {1, 0, 0, 0, 0, 0});
  ExpectPredicate<double>(PredicateOp::kIsInf, DType::kFloat64, d,
                          {0, 1, 1, 0, 0, 0});
  ExpectPredicate<double>(PredicateOp::kIsFinite, DType::kFloat64, d,
                          {0, 0, 0, 1, 1, 1});
  // float16 inf 0x7c00, NaN 0x7e00, -inf 0xfc00, 65504.
  const std::vector<Float16> h = {{0x7c00}, {0x7e00}, {0xfc00}, {0x7bff}};
  ExpectPredicate<Float16>(PredicateOp::kIsInf, DType::kFloat16, h,
                           {1, 0, 1, 0});
  ExpectPredicate<Float16>(PredicateOp::kIsFinite, DType::kFloat16, h,
                           {0, 0, 0, 1});
  const std::vector<int8_t> i = {-128, 0, 127};
  ExpectPredicate<int8_t>(PredicateOp::kIsNan, DType::kInt8, i, {0, 0, 0});
  ExpectPredicate<int8_t>(PredicateOp::kIsFinite, DType::kInt8, i, {1, 1, 1});
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  const float finf = std::numeric_limits<float>::infinity();
  const std::vector<Complex64> c = {{fnan, 0}, {0, finf}, {fnan, finf}, {1, 2}};
  ExpectPredicate<Complex64>(PredicateOp::kIsNan, DType::kComplex64, c,
                             {1, 0, 1, 0});
  ExpectPredicate<Complex64>(PredicateOp::kIsInf, DType::kComplex64, c,
                             {0, 1, 1, 0});
  ExpectPredicate<Complex64>(PredicateOp::kIsFinite, DType::kComplex64, c,
                             {0, 0, 0, 1});
}

TEST(Where, SelectsAndBroadcasts) {
  // out [3,4] = cond [3,1] ? a [1,4] : b scalar, any non-zero byte true;
  // NaN payloads move unchanged.
  const std::vector<uint8_t> cond = {0, 2, 255};
  std::vector<double> a = {1, 2, 3, 4};
  uint64_t payload = 0x7ff4000000000123u;
  std::memcpy(&a[3], &payload, 8);
  const double b = -1;
  const sk_view out_v = MakeView({3, 4}, {4, 1}, 0);
  std::vector<double> got(12);
  testing::ForEachTarget([&](const std::string&) {
    std::fill(got.begin(), got.end(), 7.0);
    Where(DType::kFloat64, MakeView({3, 1}, {1, 0}, 0), cond.data(),
          MakeView({1, 4}, {0, 1}, 0), a.data(), MakeView({}, {}, 0), &b, out_v,
          got.data());
    for (int i = 0; i < 12; ++i) {
      uint64_t gb, wb;
      const double w = i < 4 ? b : a[i % 4];
      std::memcpy(&gb, &got[i], 8);
      std::memcpy(&wb, &w, 8);
      EXPECT_EQ(gb, wb) << i;
    }
  });
}

// Large outputs: contiguous, transposed and broadcast inputs, one thread
// and two (parts of the output box), against the reference.
TEST(Compare, LargeTransposedAndThreaded) {
  const int64_t n = 301;
  std::mt19937_64 rng(5);
  std::vector<float> a(n * n), b(n * n), fa(n * n), fb(n * n);
  std::vector<uint8_t> cond(n * n);
  for (int64_t i = 0; i < n * n; ++i) {
    a[i] = testing::SpecialValue<float>(rng);
    b[i] = i % 3 == 0 ? a[i] : testing::SpecialValue<float>(rng);
    cond[i] = uint8_t(rng() % 3);
  }
  const sk_view c = MakeView({n, n}, {n, 1}, 0);
  const sk_view t = MakeView({n, n}, {1, n}, 0);
  const sk_view row = MakeView({n}, {1}, 0);
  for (const int threads : {1, testing::ThreadsAllowed() ? 2 : 1}) {
    NumericOptions options;
    options.threads = threads;
    // Transposed inputs (staged by the engine), and untransposed ones
    // (the plan's direct path at every size).
    for (const auto& operands :
         {std::pair{t, c}, std::pair{c, t}, std::pair{t, t}, std::pair{row, t},
          std::pair{c, c}, std::pair{row, c}}) {
      // Named copies: lambdas cannot capture structured bindings (clang 14).
      const sk_view x = operands.first, y = operands.second;
      std::vector<uint8_t> want(n * n), got(n * n);
      reference::Compare(CompareOp::kGt, DType::kFloat32, x, a.data(), y,
                         b.data(), c, want.data());
      std::vector<float> wf(n * n), gf(n * n);
      reference::Where(DType::kFloat32, x, cond.data(), y, a.data(), c,
                       b.data(), c, wf.data());
      testing::ForEachTarget([&](const std::string&) {
        Compare(CompareOp::kGt, DType::kFloat32, x, a.data(), y, b.data(), c,
                got.data(), options);
        EXPECT_EQ(got, want) << "threads " << threads;
        Where(DType::kFloat32, x, cond.data(), y, a.data(), c, b.data(), c,
              gf.data(), options);
        EXPECT_EQ(testing::FirstDifference(gf, wf), -1)
            << "threads " << threads;
      });
    }
  }
}

// A failed allocation (a transposed input's staging scratch, an
// overlapping input's temporary) throws kNoMemory before anything is
// written.
TEST(Compare, NoMemoryLeavesOutUntouched) {
  const int64_t n = 200;
  std::vector<float> a(n * n, 1.0f), b(n * n, 0.0f);
  std::vector<uint8_t> out(n * n, 7);
  const sk_view c = MakeView({n, n}, {n, 1}, 0);
  const sk_view t = MakeView({n, n}, {1, n}, 0);
  testing::ForEachTarget([&](const std::string&) {
    FailAllocationAfterForTest(0);
    EXPECT_THROW(Compare(CompareOp::kGt, DType::kFloat32, t, a.data(), c,
                         b.data(), c, out.data()),
                 Error);
    FailAllocationAfterForTest(0);
    EXPECT_THROW(Where(DType::kFloat32, c, out.data(), c, a.data(), t, b.data(),
                       c, a.data()),
                 Error);
    FailAllocationAfterForTest(-1);
    EXPECT_EQ(out, std::vector<uint8_t>(n * n, 7));
    EXPECT_EQ(a, std::vector<float>(n * n, 1.0f));
  });
}

TEST(Compare, Errors) {
  const std::vector<Complex64> c(4);
  std::vector<uint8_t> out(4);
  const sk_view v = MakeView({4}, {1}, 0);
  EXPECT_SK_ERROR(Compare(CompareOp::kLt, DType::kComplex64, v, c.data(), v,
                          c.data(), v, out.data()),
                  ErrorKind::kUnsupported,
                  "less: complex dtype Complex64 has no order (NumPy 1.24 "
                  "orders complex lexicographically; stridekit refuses)");
  EXPECT_SK_ERROR(Compare(CompareOp(9), DType::kFloat32, v, c.data(), v,
                          c.data(), v, out.data()),
                  ErrorKind::kInvalidArgument, "compare: unknown op 9");
  EXPECT_SK_ERROR(
      Compare(CompareOp::kEq, DType::kFloat32, MakeView({3}, {1}, 0), c.data(),
              v, c.data(), v, out.data()),
      ErrorKind::kInvalidArgument,
      "equal: cannot broadcast source shape [3] to destination "
      "shape [4]");
  EXPECT_SK_ERROR(
      Where(DType(77), v, out.data(), v, c.data(), v, c.data(), v, out.data()),
      ErrorKind::kUnsupported,
      "where: dtype (unknown) is not supported (Bool, Int8, "
      "Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, "
      "Float16, BFloat16, Float32, Float64, Complex64, "
      "Complex128)");
}

}  // namespace
}  // namespace stridekit
