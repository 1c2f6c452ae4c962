// The math ops (the transcendentals exp .. cbrt, arctan2, hypot, logaddexp,
// logaddexp2; floor, ceil, rint, trunc, sign; the exact float family's
// bits across targets): accuracy of the scalar reference against long double
// over millions of samples per op and dtype (dense ranges, tiny, subnormal,
// near the overflow thresholds, huge trigonometric arguments; the maximum ulp
// error is printed and at most 4 asserted), every target bit-for-bit equal
// to the reference on the same samples, and NumPy 1.24's special values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#if defined(STRIDEKIT_TEST_QUADMATH)
#include <quadmath.h>
#endif

#include "equivalence.h"
#include "numeric_types.h"
#include "numeric_values.h"
#include "random_views.h"
#include "reference_kernels.h"
#include "scalar_ops.h"
#include "stridekit/elementwise.h"
#include "test_util.h"

namespace stridekit {
namespace {

using testing::MakeView;

struct Transcendental {
  UnaryOp op;
  const char* name;
  long double (*reference)(long double);
};
const Transcendental kTranscendentals[] = {
    {UnaryOp::kExp, "exp", [](long double x) { return expl(x); }},
    {UnaryOp::kLog, "log", [](long double x) { return logl(x); }},
    {UnaryOp::kExpm1, "expm1", [](long double x) { return expm1l(x); }},
    {UnaryOp::kLog1p, "log1p", [](long double x) { return log1pl(x); }},
    {UnaryOp::kSin, "sin", [](long double x) { return sinl(x); }},
    {UnaryOp::kCos, "cos", [](long double x) { return cosl(x); }},
    {UnaryOp::kTanh, "tanh", [](long double x) { return tanhl(x); }},
    {UnaryOp::kTan, "tan", [](long double x) { return tanl(x); }},
    {UnaryOp::kArcsin, "arcsin", [](long double x) { return asinl(x); }},
    {UnaryOp::kArccos, "arccos", [](long double x) { return acosl(x); }},
    {UnaryOp::kArctan, "arctan", [](long double x) { return atanl(x); }},
    {UnaryOp::kSinh, "sinh", [](long double x) { return sinhl(x); }},
    {UnaryOp::kCosh, "cosh", [](long double x) { return coshl(x); }},
    {UnaryOp::kArcsinh, "arcsinh", [](long double x) { return asinhl(x); }},
    {UnaryOp::kArccosh, "arccosh", [](long double x) { return acoshl(x); }},
    {UnaryOp::kArctanh, "arctanh", [](long double x) { return atanhl(x); }},
    {UnaryOp::kExp2, "exp2", [](long double x) { return exp2l(x); }},
    {UnaryOp::kLog2, "log2", [](long double x) { return log2l(x); }},
    {UnaryOp::kLog10, "log10", [](long double x) { return log10l(x); }},
    {UnaryOp::kCbrt, "cbrt", [](long double x) { return cbrtl(x); }},
};

// The binary transcendentals, against long double (logaddexp and
// logaddexp2 without cancellation: max + log1p(base^-|x - y|)).
struct BinaryTranscendental {
  BinaryOp op;
  const char* name;
  long double (*reference)(long double, long double);
};
// In quad precision where libquadmath exists: near a zero result (x and y
// near -ln2 or -1) the sum cancels, and long double's 64 bits would leave
// too few correct ones for a double's ulp.
long double LogAddExpL(long double x, long double y, bool base2) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  if (x == y) return x + (base2 ? 1.0L : logl(2.0L));
#if defined(STRIDEKIT_TEST_QUADMATH)
  const __float128 a = x, b = y;
  const __float128 big = a > b ? a : b, d = -fabsq(a - b);
  return (long double)(big + (base2 ? log1pq(exp2q(d)) / logq(__float128(2))
                                    : log1pq(expq(d))));
#else
  const long double big = std::fmax(x, y), d = -std::fabs(x - y);
  return big + (base2 ? log1pl(exp2l(d)) / logl(2.0L) : log1pl(expl(d)));
#endif
}
const BinaryTranscendental kBinaryTranscendentals[] = {
    {BinaryOp::kArctan2, "arctan2",
     [](long double y, long double x) { return atan2l(y, x); }},
    {BinaryOp::kHypot, "hypot",
     [](long double x, long double y) { return hypotl(x, y); }},
    {BinaryOp::kLogaddexp, "logaddexp",
     [](long double x, long double y) { return LogAddExpL(x, y, false); }},
    {BinaryOp::kLogaddexp2, "logaddexp2",
     [](long double x, long double y) { return LogAddExpL(x, y, true); }},
};

template <typename T>
long double ValueOf(T x) {
  if constexpr (kIsHalf<T>) {
    return scalar_ops::Widen(x);
  } else {
    return x;
  }
}

// |got - want| in units of the last place of T at want (subnormal ulp
// below the normal range); infinities and NaNs must match exactly.
template <typename T>
double UlpError(T got_t, long double want) {
  const long double got = ValueOf(got_t);
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  int digits, min_exp;
  long double max;
  if constexpr (std::is_same_v<T, Float16>) {
    digits = 11, min_exp = -13, max = 65504;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    digits = 8, min_exp = -125, max = 0x1.fep127L;
  } else {
    digits = std::numeric_limits<T>::digits;
    min_exp = std::numeric_limits<T>::min_exponent;
    max = std::numeric_limits<T>::max();
  }
  if (std::isinf(got) || std::isinf(want) || std::fabs(want) > max) {
    // Beyond the largest finite value: the correct result is max or inf.
    const long double limit = max + std::ldexp(1.0L, std::ilogbl(max) - digits);
    const bool want_inf = std::fabs(want) >= limit;
    if (std::isinf(got)) return want_inf && (got > 0) == (want > 0) ? 0 : 1e9;
    if (!want_inf)
      return double(std::fabs(got - want) /
                    std::ldexp(1.0L, std::ilogbl(max) - digits + 1));
    return 1e9;
  }
  int e = want == 0 ? min_exp : std::ilogbl(want) + 1;
  if (e < min_exp) e = min_exp;
  return double(std::fabs(got - want) / std::ldexp(1.0L, e - digits));
}

// Samples: uniform over the ranges of interest and log-uniform magnitudes
// of both signs from the smallest subnormal to the largest value.
template <typename T>
std::vector<T> Samples(UnaryOp op, size_t count) {
  using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
  std::mt19937_64 rng(1234 + int(op));
  std::vector<T> out;
  out.reserve(count);
  const double tiny = std::is_same_v<T, double>  ? 4.9e-324
                      : std::is_same_v<T, float> ? 1.4e-45
                                                 : 6e-8;
  const double huge = std::is_same_v<T, double>    ? 1.7e308
                      : std::is_same_v<T, Float16> ? 65504
                                                   : 3.4e38;
  // Per op: the range where the result is neither trivial nor saturated.
  double lo = -10, hi = 10;
  switch (op) {
    case UnaryOp::kExp:
    case UnaryOp::kExpm1:
      lo = std::is_same_v<T, double> ? -746 : -104;
      hi = std::is_same_v<T, double> ? 710 : 89;
      break;
    case UnaryOp::kLog:
      lo = 0, hi = 4;
      break;
    case UnaryOp::kLog1p:
      lo = -1, hi = 4;
      break;
    case UnaryOp::kTanh:
      lo = -25, hi = 25;
      break;
    case UnaryOp::kSinh:
    case UnaryOp::kCosh:
      lo = std::is_same_v<T, double> ? -711 : -90;
      hi = -lo;
      break;
    case UnaryOp::kExp2:
      lo = std::is_same_v<T, double> ? -1075 : -150;
      hi = std::is_same_v<T, double> ? 1024 : 128;
      break;
    case UnaryOp::kArcsin:
    case UnaryOp::kArccos:
    case UnaryOp::kArctanh:
      lo = -1, hi = 1;
      break;
    case UnaryOp::kArccosh:
      lo = 1, hi = 10;
      break;
    case UnaryOp::kLog2:
    case UnaryOp::kLog10:
      lo = 0, hi = 4;
      break;
    default:
      break;
  }
  std::uniform_real_distribution<double> uniform(lo, hi);
  std::uniform_real_distribution<double> exponent(std::log(tiny),
                                                  std::log(huge));
  for (size_t i = 0; i < count; ++i) {
    double x;
    switch (i % 4) {
      case 0:
      case 1:
        x = uniform(rng);
        break;
      case 2:
        x = std::exp(exponent(rng)) * (rng() % 2 ? 1 : -1);
        break;
      default:  // Near the range ends (overflow and underflow thresholds).
        x = (rng() % 2 ? lo : hi) * (1 + (double(rng() % 2000) - 1000) * 1e-6);
        break;
    }
    if constexpr (kIsHalf<T>) {
      out.push_back(scalar_ops::Narrow<T>(float(x)));
    } else if constexpr (std::is_integral_v<T>) {
      // Any bits (modular conversion); a float outside T's range would be
      // undefined behaviour.
      out.push_back(static_cast<T>(rng()));
    } else {
      out.push_back(T(F(x)));
    }
  }
  return out;
}

template <typename T>
double MaxError(const Transcendental& f, const std::vector<T>& in,
                const std::vector<T>& out, T* worst) {
  double max = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double e = UlpError(out[i], f.reference(ValueOf(in[i])));
    if (e > max) max = e, *worst = in[i];
  }
  return max;
}

template <typename T>
void CheckAccuracy(size_t count) {
  const DType t = testing::DTypeOf<T>();
  for (const Transcendental& f : kTranscendentals) {
    const std::vector<T> in = Samples<T>(f.op, count);
    std::vector<T> out(in.size());
    const int64_t n = int64_t(in.size());
    const sk_view v = MakeView({n}, {1}, 0);
    reference::Unary(f.op, t, v, in.data(), v, out.data());
    T worst{};
    const double error = MaxError(f, in, out, &worst);
    std::printf("%-6s %-8s max error %.3f ulp over %zu samples (at %.17Lg)\n",
                f.name, std::string(DTypeName(t)).c_str(), error, in.size(),
                ValueOf(worst));
    EXPECT_LE(error, 4.0) << f.name << " " << DTypeName(t) << " at "
                          << ValueOf(worst);
  }
}

// (A tenth under the sanitizers: testing::Trials.)
TEST(MathAccuracy, Float32) { CheckAccuracy<float>(testing::Trials(2000000)); }
TEST(MathAccuracy, Float64) { CheckAccuracy<double>(testing::Trials(2000000)); }
TEST(MathAccuracy, Float16) { CheckAccuracy<Float16>(testing::Trials(200000)); }
TEST(MathAccuracy, BFloat16) {
  CheckAccuracy<BFloat16>(testing::Trials(200000));
}

// Pairs for the binary transcendentals: both uniform in [-10, 10], one
// log-uniform magnitude, nearly equal (logaddexp's cancellation), and
// wide logaddexp arguments.
template <typename T>
void BinarySamples(BinaryOp op, size_t count, std::vector<T>& x,
                   std::vector<T>& y) {
  std::mt19937_64 rng(777 + int(op));
  std::uniform_real_distribution<double> uniform(-10, 10);
  std::uniform_real_distribution<double> exponent(-80, 80);
  const double wide = std::is_same_v<T, double> ? 800 : 110;
  std::uniform_real_distribution<double> far(-wide, wide);
  for (size_t i = 0; i < count; ++i) {
    double a = uniform(rng), b = uniform(rng);
    switch (i % 4) {
      case 1:
        b = std::exp(exponent(rng)) * (rng() % 2 ? 1 : -1);
        a = std::exp(exponent(rng)) * (rng() % 2 ? 1 : -1);
        break;
      case 2:
        b = a * (1 + (double(rng() % 2000) - 1000) * 1e-6);
        break;
      case 3:
        a = far(rng), b = far(rng);
        break;
      default:
        break;
    }
    if constexpr (kIsHalf<T>) {
      x.push_back(scalar_ops::Narrow<T>(float(a)));
      y.push_back(scalar_ops::Narrow<T>(float(b)));
    } else {
      x.push_back(T(a));
      y.push_back(T(b));
    }
  }
}

template <typename T>
void CheckBinaryAccuracy(size_t count) {
  const DType t = testing::DTypeOf<T>();
  for (const BinaryTranscendental& f : kBinaryTranscendentals) {
    std::vector<T> x, y;
    BinarySamples(f.op, count, x, y);
    std::vector<T> out(x.size());
    const sk_view v = MakeView({int64_t(x.size())}, {1}, 0);
    reference::Binary(f.op, t, v, x.data(), v, y.data(), v, out.data());
    double max = 0;
    size_t at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const long double want = f.reference(ValueOf(x[i]), ValueOf(y[i]));
#if !defined(STRIDEKIT_TEST_QUADMATH)
      // Without quad precision (clang builds) long double cannot resolve a
      // double result that cancels far below its inputs: those pairs are
      // left to the GCC build's check.
      if (std::is_same_v<T, double> && f.op != BinaryOp::kArctan2 &&
          f.op != BinaryOp::kHypot &&
          std::fabs(want) < std::ldexp(std::fmax(std::fabs(ValueOf(x[i])),
                                                 std::fabs(ValueOf(y[i]))),
                                       -8)) {
        continue;
      }
#endif
      const double e = UlpError(out[i], want);
      if (e > max) max = e, at = i;
    }
    std::printf(
        "%-10s %-8s max error %.3f ulp over %zu pairs (at %.17Lg, "
        "%.17Lg)\n",
        f.name, std::string(DTypeName(t)).c_str(), max, x.size(),
        ValueOf(x[at]), ValueOf(y[at]));
    EXPECT_LE(max, 4.0) << f.name << " " << DTypeName(t);
  }
}

TEST(MathAccuracy, BinaryFloat32) {
  CheckBinaryAccuracy<float>(testing::Trials(1000000));
}
TEST(MathAccuracy, BinaryFloat64) {
  CheckBinaryAccuracy<double>(testing::Trials(1000000));
}
TEST(MathAccuracy, BinaryFloat16) {
  CheckBinaryAccuracy<Float16>(testing::Trials(100000));
}

// Every float32 near the ends of the exp ranges (exhaustive over a few
// thousand values) and float32 sin/cos far out.
TEST(MathAccuracy, Float32Thresholds) {
  std::vector<float> in;
  for (float start : {88.72f, -87.33f, -103.97f, -16.6f, 9.01f, 3.0e4f}) {
    float x = start;
    for (int i = 0; i < 4000; ++i) in.push_back(x = std::nextafter(x, 1e9f));
  }
  std::vector<float> out(in.size());
  const sk_view v = MakeView({int64_t(in.size())}, {1}, 0);
  for (const Transcendental& f : kTranscendentals) {
    reference::Unary(f.op, DType::kFloat32, v, in.data(), v, out.data());
    float worst = 0;
    EXPECT_LE(MaxError(f, in, out, &worst), 4.0) << f.name << " at " << worst;
  }
}

// Bit-exact across targets: the same samples on every target, contiguous
// and strided, against the reference.
template <typename T>
void CheckTargets(size_t count) {
  const DType t = testing::DTypeOf<T>();
  std::mt19937_64 rng(99);
  for (const OpInfo<UnaryOp>& row : kUnaryOps) {
    if (!OpAccepts(row.op, kKindOf<T>)) continue;
    std::vector<T> in = Samples<T>(row.op, count);
    for (size_t i = 0; i < in.size(); i += 7) {
      in[i] = testing::SpecialValue<T>(rng);
    }
    if constexpr (std::is_integral_v<T>) {
      // Integer reciprocal's zero is an error (tested elsewhere).
      if (row.prechecked) {
        for (T& x : in) x = x == 0 ? T(1) : x;
      }
    }
    const int64_t n = int64_t(in.size());
    for (const sk_view& v :
         {MakeView({n}, {1}, 0), MakeView({n / 2}, {-2}, n - 1)}) {
      const sk_view out_view = MakeView({v.shape[0]}, {1}, 0);
      std::vector<T> want(size_t(v.shape[0])), got(want.size());
      reference::Unary(row.op, t, v, in.data(), out_view, want.data());
      testing::ForEachTarget([&](const std::string& target) {
        Unary(row.op, t, v, in.data(), out_view, got.data());
        const int64_t i = testing::FirstDifference(got, want);
        EXPECT_EQ(i, -1) << target << " " << row.name << " " << DTypeName(t)
                         << " element " << i;
        if constexpr (!kIsHalf<T>) {
          // Also NaN bits.
          EXPECT_EQ(
              std::memcmp(got.data(), want.data(), got.size() * sizeof(T)), 0)
              << target << " " << row.name;
        }
      });
    }
  }
}

// The binary float rows (the transcendentals and the exact float family)
// likewise, on BinarySamples with specials mixed in.
template <typename T>
void CheckBinaryTargets(size_t count) {
  const DType t = testing::DTypeOf<T>();
  std::mt19937_64 rng(98);
  for (const OpInfo<BinaryOp>& row : kBinaryOps) {
    if (!OpAccepts(row.op, kKindOf<T>) || int(row.op) < 13) continue;
    std::vector<T> x, y;
    BinarySamples(row.op, count, x, y);
    for (size_t i = 0; i < x.size(); i += 5) {
      (i % 2 ? x : y)[i] = testing::SpecialValue<T>(rng);
    }
    const int64_t n = int64_t(x.size());
    const sk_view v = MakeView({n}, {1}, 0);
    const sk_view strided = MakeView({n / 2}, {-2}, n - 1);
    for (const sk_view& a : {v, strided}) {
      const sk_view out_view = MakeView({a.shape[0]}, {1}, 0);
      std::vector<T> want(size_t(a.shape[0])), got(want.size());
      reference::Binary(row.op, t, a, x.data(), a, y.data(), out_view,
                        want.data());
      testing::ForEachTarget([&](const std::string& target) {
        Binary(row.op, t, a, x.data(), a, y.data(), out_view, got.data());
        EXPECT_EQ(testing::FirstDifference(got, want), -1)
            << target << " " << row.name << " " << DTypeName(t);
        if constexpr (!kIsHalf<T>) {
          EXPECT_EQ(
              std::memcmp(got.data(), want.data(), got.size() * sizeof(T)), 0)
              << target << " " << row.name;
        }
      });
    }
  }
}

TEST(MathTargets, BitExact) {
  CheckBinaryTargets<float>(100003);
  CheckBinaryTargets<double>(100003);
  CheckBinaryTargets<Float16>(20001);
  CheckBinaryTargets<BFloat16>(20001);
  CheckTargets<float>(100003);
  CheckTargets<double>(100003);
  CheckTargets<Float16>(20001);
  CheckTargets<BFloat16>(20001);
  CheckTargets<int8_t>(1001);
  CheckTargets<int64_t>(1001);
  CheckTargets<uint8_t>(1001);
  CheckTargets<uint32_t>(1001);
}

// One element through the dispatched kernel.
template <typename T>
T One(UnaryOp op, T x) {
  T out{};
  const sk_view v = MakeView({1}, {1}, 0);
  Unary(op, testing::DTypeOf<T>(), v, &x, v, &out);
  return out;
}

template <typename T>
void ExpectSame(T got, T want, const char* what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what;
  } else {
    EXPECT_EQ(got, want) << what;
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << what;
  }
}

template <typename T>
void CheckSpecials() {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T big = std::numeric_limits<T>::max();
  struct Case {
    UnaryOp op;
    T x, want;
  };
  const Case cases[] = {
      {UnaryOp::kExp, T(0), T(1)},
      {UnaryOp::kExp, T(-0.0), T(1)},
      {UnaryOp::kExp, inf, inf},
      {UnaryOp::kExp, -inf, T(0)},
      {UnaryOp::kExp, nan, nan},
      {UnaryOp::kExp, big, inf},
      {UnaryOp::kExp, -big, T(0)},
      {UnaryOp::kLog, T(0), -inf},
      {UnaryOp::kLog, T(-0.0), -inf},
      {UnaryOp::kLog, T(-1), nan},
      {UnaryOp::kLog, inf, inf},
      {UnaryOp::kLog, -inf, nan},
      {UnaryOp::kLog, T(1), T(0)},
      {UnaryOp::kLog, nan, nan},
      {UnaryOp::kExpm1, T(-0.0), T(-0.0)},
      {UnaryOp::kExpm1, T(0), T(0)},
      {UnaryOp::kExpm1, inf, inf},
      {UnaryOp::kExpm1, -inf, T(-1)},
      {UnaryOp::kExpm1, big, inf},
      {UnaryOp::kLog1p, T(-0.0), T(-0.0)},
      {UnaryOp::kLog1p, T(-1), -inf},
      {UnaryOp::kLog1p, T(-2), nan},
      {UnaryOp::kLog1p, inf, inf},
      {UnaryOp::kLog1p, -inf, nan},
      {UnaryOp::kSin, T(-0.0), T(-0.0)},
      {UnaryOp::kSin, inf, nan},
      {UnaryOp::kSin, -inf, nan},
      {UnaryOp::kCos, T(-0.0), T(1)},
      {UnaryOp::kCos, inf, nan},
      {UnaryOp::kTanh, T(-0.0), T(-0.0)},
      {UnaryOp::kTanh, inf, T(1)},
      {UnaryOp::kTanh, -inf, T(-1)},
      {UnaryOp::kTanh, nan, nan},
      {UnaryOp::kFloor, T(-0.5), T(-1)},
      {UnaryOp::kFloor, T(-0.0), T(-0.0)},
      {UnaryOp::kCeil, T(-0.5), T(-0.0)},
      {UnaryOp::kRint, T(0.5), T(0)},
      {UnaryOp::kRint, T(1.5), T(2)},
      {UnaryOp::kRint, T(2.5), T(2)},
      {UnaryOp::kRint, T(-0.5), T(-0.0)},
      {UnaryOp::kRint, inf, inf},
      {UnaryOp::kTrunc, T(-1.5), T(-1)},
      {UnaryOp::kTrunc, T(-0.25), T(-0.0)},
      {UnaryOp::kSign, T(-0.0), T(0)},
      {UnaryOp::kSign, T(-3), T(-1)},
      {UnaryOp::kSign, inf, T(1)},
      {UnaryOp::kSign, nan, nan},
      {UnaryOp::kSign, T(1e-40), T(1)},
  };
  for (const Case& c : cases) {
    testing::ForEachTarget([&](const std::string& target) {
      ExpectSame(One(c.op, c.x), c.want,
                 (target + " " + FindOp(c.op)->name + " of " +
                  std::to_string(double(c.x)))
                     .c_str());
    });
    T want{};
    const sk_view v = MakeView({1}, {1}, 0);
    reference::Unary(c.op, testing::DTypeOf<T>(), v, &c.x, v, &want);
    ExpectSame(want, c.want, FindOp(c.op)->name);
  }
}

TEST(MathSpecials, NumPyValues) {
  CheckSpecials<float>();
  CheckSpecials<double>();
  // Overflow thresholds: ln(max) = 709.782712893384 (double),
  // 88.7228394 (float).
  EXPECT_TRUE(std::isfinite(One(UnaryOp::kExp, 709.78)));
  EXPECT_EQ(One(UnaryOp::kExp, 709.79), HUGE_VAL);
  EXPECT_TRUE(std::isfinite(One(UnaryOp::kExp, 88.72f)));
  EXPECT_EQ(One(UnaryOp::kExp, 88.73f), HUGE_VALF);
  EXPECT_GT(One(UnaryOp::kExp, -745.1), 0.0);  // The smallest subnormal.
  EXPECT_EQ(One(UnaryOp::kExp, -745.2), 0.0);
  EXPECT_TRUE(std::isfinite(One(UnaryOp::kExpm1, 709.78)));
  // NumPy's float64 sin of a huge argument (glibc, exact reduction).
  EXPECT_EQ(One(UnaryOp::kSin, 1e22), -0.8522008497671888);
  EXPECT_EQ(One(UnaryOp::kCos, 1e22), 0.523214785395139);
  // Subnormal inputs.
  EXPECT_EQ(One(UnaryOp::kLog, 4.9406564584124654e-324), -744.4400719213812);
  EXPECT_EQ(One(UnaryOp::kLog2, 4.9406564584124654e-324), -1074.0);
  EXPECT_EQ(One(UnaryOp::kLog1p, 1e-310), 1e-310);
  // float64 log's table rows: exact powers, the largest finite input
  // (1 + x = 2^1024 z in log1p).
  EXPECT_EQ(One(UnaryOp::kLog2, 0x1p-1022), -1022.0);
  EXPECT_EQ(One(UnaryOp::kLog2, 0x1p1023), 1023.0);
  EXPECT_EQ(One(UnaryOp::kLog10, 1e22), 22.0);
  EXPECT_EQ(One(UnaryOp::kLog10, 1e-300), -300.0);
  EXPECT_EQ(One(UnaryOp::kLog, 2.0), 0.6931471805599453);
  EXPECT_EQ(One(UnaryOp::kLog, std::numeric_limits<double>::max()),
            709.782712893384);
  EXPECT_EQ(One(UnaryOp::kLog1p, std::numeric_limits<double>::max()),
            709.782712893384);
  EXPECT_EQ(One(UnaryOp::kLog1p, 1.0), 0.6931471805599453);
  EXPECT_EQ(One(UnaryOp::kExpm1, 1e-310), 1e-310);
  EXPECT_EQ(One(UnaryOp::kSin, -1e-310), -1e-310);
  EXPECT_EQ(One(UnaryOp::kTanh, 1e-40f), 1e-40f);
  // Integers: the rounding ops are the identity, sign -1/0/1.
  EXPECT_EQ(One(UnaryOp::kFloor, int8_t{-128}), -128);
  EXPECT_EQ(One(UnaryOp::kRint, uint64_t{~0ull}), ~0ull);
  EXPECT_EQ(One(UnaryOp::kSign, int8_t{-128}), -1);
  EXPECT_EQ(One(UnaryOp::kSign, int64_t{0}), 0);
  EXPECT_EQ(One(UnaryOp::kSign, uint8_t{200}), 1);
  EXPECT_EQ(One(UnaryOp::kSign, uint16_t{0}), 0);
}

// Dtypes NumPy has no same-dtype loop for.
TEST(MathSpecials, Refused) {
  const sk_view v = MakeView({2}, {1}, 0);
  int32_t i[2] = {1, 2};
  for (UnaryOp op :
       {UnaryOp::kExp, UnaryOp::kLog, UnaryOp::kExpm1, UnaryOp::kLog1p,
        UnaryOp::kSin, UnaryOp::kCos, UnaryOp::kTanh}) {
    EXPECT_THROW(Unary(op, DType::kInt32, v, i, v, i), Error);
  }
  uint8_t b[2] = {0, 1};
  for (UnaryOp op : {UnaryOp::kFloor, UnaryOp::kCeil, UnaryOp::kRint,
                     UnaryOp::kTrunc, UnaryOp::kSign, UnaryOp::kExp}) {
    EXPECT_THROW(Unary(op, DType::kBool, v, b, v, b), Error);
  }
  Complex64 c[2] = {};
  for (UnaryOp op : {UnaryOp::kSign, UnaryOp::kExp, UnaryOp::kFloor}) {
    try {
      Unary(op, DType::kComplex64, v, c, v, c);
      ADD_FAILURE() << "complex " << FindOp(op)->name;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUnsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find(FindOp(op)->name), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace stridekit
