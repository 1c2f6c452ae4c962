// The measured accuracy of every transcendental (lib/math_kernels.h), run
// by hand (tests/accuracy/run; not in CI): float32 over every one of the
// 2^32 inputs (binary functions: random pairs, near-equal pairs and a grid
// of specials) against the C library's double functions rounded to
// float32's ulp, float64 over a few million inputs (uniform over each
// function's interesting range, log-uniform magnitudes from the smallest
// subnormal up, and the neighbourhoods of its special points) against the
// x87 long double functions (logaddexp: quad precision, libquadmath; the
// tool is for x86-64). The scalar policy is measured: every target
// gives its bits (tests/math_test.cc, MathTargets.BitExact). Prints a
// Markdown table of the maximum error in ulp and where it occurs.
//
//   math_accuracy [--quick] [--float64] [function ...]
//   (--float64: the float64 columns only, the float32 ones left blank)
#include <quadmath.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "math_kernels.h"

namespace {

using stridekit::math::ScalarMath;
namespace sm = stridekit::math;

// |got - want| in ulps of T at want (subnormal ulp below the normal range;
// past the largest finite value, ulps of the top binade); mismatched
// NaN/infinity is 1e9.
template <typename T>
double UlpError(T got, long double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  if (std::isnan(got)) return 1e9;
  using L = std::numeric_limits<T>;
  const long double max = L::max();
  if (std::isinf(got) || std::isinf(want) || std::fabs(want) > max) {
    const long double limit =
        max + std::ldexp(1.0L, std::ilogbl(max) - L::digits);
    const bool want_inf = std::fabs(want) >= limit;
    if (std::isinf(got)) return want_inf && (got > 0) == (want > 0) ? 0 : 1e9;
    if (want_inf) return 1e9;
  }
  int e = want == 0 ? L::min_exponent : std::ilogbl(want) + 1;
  if (e < L::min_exponent) e = L::min_exponent;
  if (e > L::max_exponent) e = L::max_exponent;
  return double(std::fabs((long double)got - want) /
                std::ldexp(1.0L, e - L::digits));
}

// In quad precision (libquadmath): near a zero result the sum cancels, and
// long double would leave too few correct bits for a double's ulp.
long double LogAddExp(long double x, long double y, bool base2) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  if (x == y) return x + (base2 ? 1.0L : logl(2.0L));
  const __float128 a = x, b = y;
  const __float128 big = a > b ? a : b, d = -fabsq(a - b);
  return (long double)(big + (base2 ? log1pq(exp2q(d)) / logq(__float128(2))
                                    : log1pq(expq(d))));
}

long double LogAddExpE(long double x, long double y) {
  return LogAddExp(x, y, false);
}
long double LogAddExp2(long double x, long double y) {
  return LogAddExp(x, y, true);
}

// A function: its float and double instantiations, its references (double
// for float32, long double for float64) and float64's interesting range
// (float32's: the same, clamped).
struct Function {
  const char* name;
  float (*f32)(float, float);
  double (*f64)(double, double);
  double (*reference32)(double, double);
  long double (*reference)(long double, long double);
  bool binary;
  double lo, hi;
};

#define UNARY(Name, name, ref, lo, hi)                                      \
  Function {                                                                \
    name, [](float x, float) { return sm::Name(ScalarMath<float>{}, x); },  \
        [](double x, double) { return sm::Name(ScalarMath<double>{}, x); }, \
        [](double x, double) { return ref(x); },                            \
        [](long double x, long double) { return ref##l(x); }, false, lo, hi \
  }
#define BINARY(Name, name, ref, lo, hi)                                       \
  Function {                                                                  \
    name,                                                                     \
        [](float x, float y) { return sm::Name(ScalarMath<float>{}, x, y); }, \
        [](double x, double y) {                                              \
          return sm::Name(ScalarMath<double>{}, x, y);                        \
        },                                                                    \
        [](double x, double y) { return double(ref(x, y)); },                 \
        [](long double x, long double y) { return ref(x, y); }, true, lo, hi  \
  }

const Function kFunctions[] = {
    UNARY(Exp, "exp", exp, -746, 710),
    UNARY(Log, "log", log, 0, 4),
    UNARY(Expm1, "expm1", expm1, -40, 710),
    UNARY(Log1p, "log1p", log1p, -1, 4),
    UNARY(Sin, "sin", sin, -10, 10),
    UNARY(Cos, "cos", cos, -10, 10),
    UNARY(Tanh, "tanh", tanh, -25, 25),
    UNARY(Tan, "tan", tan, -10, 10),
    UNARY(Arcsin, "arcsin", asin, -1, 1),
    UNARY(Arccos, "arccos", acos, -1, 1),
    UNARY(Arctan, "arctan", atan, -10, 10),
    UNARY(Sinh, "sinh", sinh, -711, 711),
    UNARY(Cosh, "cosh", cosh, -711, 711),
    UNARY(Arcsinh, "arcsinh", asinh, -10, 10),
    UNARY(Arccosh, "arccosh", acosh, 1, 10),
    UNARY(Arctanh, "arctanh", atanh, -1, 1),
    UNARY(Exp2, "exp2", exp2, -1075, 1024),
    UNARY(Log2, "log2", log2, 0, 4),
    UNARY(Log10, "log10", log10, 0, 4),
    UNARY(Cbrt, "cbrt", cbrt, -10, 10),
    BINARY(Arctan2, "arctan2", atan2l, -10, 10),
    BINARY(Hypot, "hypot", hypotl, -10, 10),
    BINARY(Logaddexp, "logaddexp", LogAddExpE, -800, 800),
    BINARY(Logaddexp2, "logaddexp2", LogAddExp2, -1100, 1100),
};

struct Worst {
  double ulp = 0;
  double x = 0, y = 0;
  uint64_t count = 0;
  void Note(double e, double a, double b) {
    ++count;
    if (e > ulp) ulp = e, x = a, y = b;
  }
  void Merge(const Worst& o) {
    count += o.count;
    if (o.ulp > ulp) ulp = o.ulp, x = o.x, y = o.y;
  }
};

// Runs body(worst, begin, end) over [0, n) in one chunk per thread.
template <class Body>
Worst Parallel(uint64_t n, Body body) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Worst> parts(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back(
        [&, t] { body(parts[t], n * t / threads, n * (t + 1) / threads); });
  }
  for (auto& th : pool) th.join();
  Worst all;
  for (const Worst& p : parts) all.Merge(p);
  return all;
}

// float32: every input (unary), else random pairs in the range and
// log-uniform magnitudes, near-equal pairs and every pair of a grid.
Worst Float32(const Function& f, bool quick) {
  if (!f.binary) {
    const uint64_t n = quick ? (uint64_t{1} << 32) / 97 : uint64_t{1} << 32;
    const uint64_t step = quick ? 97 : 1;
    return Parallel(n, [&](Worst& w, uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) {
        float x;
        const uint32_t bits = uint32_t(i * step);
        std::memcpy(&x, &bits, 4);
        const float got = f.f32(x, 0);
        w.Note(UlpError(got, (long double)f.reference32(x, 0)), x, 0);
      }
    });
  }
  const uint64_t n = quick ? 2000000 : 200000000;
  return Parallel(n, [&](Worst& w, uint64_t b, uint64_t e) {
    std::mt19937_64 rng(b + 17);
    const double lo = std::max(f.lo, -150.0), hi = std::min(f.hi, 150.0);
    std::uniform_real_distribution<double> uniform(lo, hi);
    std::uniform_real_distribution<double> exponent(-103, 88);
    for (uint64_t i = b; i < e; ++i) {
      float x, y;
      switch (i % 3) {
        case 0:
          x = float(uniform(rng)), y = float(uniform(rng));
          break;
        case 1:
          x = float(std::exp(exponent(rng)) * (rng() % 2 ? 1 : -1));
          y = float(std::exp(exponent(rng)) * (rng() % 2 ? 1 : -1));
          break;
        default:
          x = float(uniform(rng));
          y = std::nextafter(x, float(rng() % 2 ? 1e30 : -1e30));
          for (int k = int(rng() % 64); k > 0; --k) y = std::nextafter(y, 0.f);
          break;
      }
      w.Note(UlpError(f.f32(x, y), (long double)f.reference32(x, y)), x, y);
    }
  });
}

// float64: uniform in the range, log-uniform magnitudes of both signs from
// the smallest subnormal, the neighbourhoods of the range ends and of the
// integers and halves (binary: pairs of these, and near-equal pairs).
Worst Float64(const Function& f, bool quick) {
  const uint64_t n = quick ? 400000 : 8000000;
  return Parallel(n, [&](Worst& w, uint64_t b, uint64_t e) {
    std::mt19937_64 rng(b + 29);
    std::uniform_real_distribution<double> uniform(f.lo, f.hi);
    std::uniform_real_distribution<double> exponent(-744, 709);
    const auto sample = [&](uint64_t i) {
      switch (i % 4) {
        case 0:
        case 1:
          return uniform(rng);
        case 2:
          return std::exp(exponent(rng)) * (rng() % 2 ? 1 : -1);
        default: {
          const double anchor =
              rng() % 2 ? (rng() % 2 ? f.lo : f.hi) : std::round(uniform(rng));
          return anchor * (1 + (double(rng() % 20001) - 10000) * 1e-12) +
                 (double(rng() % 3) - 1) * 1e-9;
        }
      }
    };
    for (uint64_t i = b; i < e; ++i) {
      const double x = sample(i);
      double y = f.binary ? sample(i / 4) : 0;
      if (f.binary && i % 5 == 0)
        y = x * (1 + (double(rng() % 2001) - 1000) * 1e-9);
      w.Note(UlpError(f.f64(x, y), f.reference(x, y)), x, y);
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, only64 = false;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--quick") {
      quick = true;
    } else if (std::string(argv[i]) == "--float64") {
      only64 = true;
    } else {
      only.push_back(argv[i]);
    }
  }
  std::printf("| function | float32 max ulp | at | float64 max ulp | at |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const Function& f : kFunctions) {
    if (!only.empty() &&
        std::find(only.begin(), only.end(), f.name) == only.end()) {
      continue;
    }
    const Worst w32 = only64 ? Worst{} : Float32(f, quick);
    const Worst w64 = Float64(f, quick);
    char at32[96], at64[96];
    if (f.binary) {
      std::snprintf(at32, sizeof(at32), "(%.9g, %.9g)", w32.x, w32.y);
      std::snprintf(at64, sizeof(at64), "(%.17g, %.17g)", w64.x, w64.y);
    } else {
      std::snprintf(at32, sizeof(at32), "%.9g", w32.x);
      std::snprintf(at64, sizeof(at64), "%.17g", w64.x);
    }
    if (only64) {
      std::printf("| %s | | | %.3f | %s |\n", f.name, w64.ulp, at64);
    } else {
      std::printf("| %s | %.3f | %s | %.3f | %s |\n", f.name, w32.ulp, at32,
                  w64.ulp, at64);
    }
    std::fflush(stdout);
  }
  return 0;
}
