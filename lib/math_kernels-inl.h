// The body of lib/math_kernels.h (its comment states the contract), with
// no include guard and no namespace of its own: math_kernels.h includes it
// in namespace stridekit::math for the scalar reference, and
// simd/elementwise/math-inl.h once per Highway target inside that target's
// namespace, so that the vector instantiations are compiled with the target's
// attributes (GCC requires them for SVE types). Include the standard
// headers of math_kernels.h first.

// Per-precision constants.
template <typename T>
struct Consts;

template <>
struct Consts<double> {
  using Int = int64_t;
  static constexpr int kMantissaBits = 52;
  static constexpr Int kBias = 1023;
  static constexpr double kMinNormal = 0x1p-1022;
  static constexpr double kSubnormalScale = 0x1p54;
  static constexpr int kSubnormalShift = 54;
  static constexpr double kExact = 0x1p53;  // Integers from here on.
  static constexpr double kTanhOne = 22;    // tanh rounds to 1 beyond.
  static constexpr double k2OverPi = 0x1.45f306dc9c883p-1;
  // pi/2 = kPio2[0] + kPio2[1] + kPio2[2] (at most 36 bits each: exact
  // products with reduction multiples below 2^17) + kPio2[3].
  static constexpr int kPio2Parts = 4;
  static constexpr double kPio2[4] = {
      0x1.921fb54440000p+0, 0x1.68c234c4c0000p-39, 0x1.98a2e03700000p-77,
      0x1.cd129024e088ap-115};
  static constexpr double kTrigLimit = 1e5;
  // Terms of the series (Taylor coefficients beyond the first ones).
  static constexpr int kSinTerms = 8;   // sin: r^3 .. r^17.
  static constexpr int kCosTerms = 7;   // cos: r^4 .. r^16.
  static constexpr int kCoshTerms = 6;  // cosh: r^2 .. r^12.
  static constexpr int kSinhTerms = 6;  // sinh: r^3 .. r^13.
};

template <>
struct Consts<float> {
  using Int = int32_t;
  static constexpr int kMantissaBits = 23;
  static constexpr Int kBias = 127;
  static constexpr float kMinNormal = 0x1p-126f;
  static constexpr float kSubnormalScale = 0x1p25f;
  static constexpr int kSubnormalShift = 25;
  static constexpr float kExact = 0x1p24f;
  static constexpr float kTanhOne = 9;
  static constexpr float k2OverPi = 0x1.45f306p-1f;
  // At most 12 bits each: exact products with multiples below 2^12.
  static constexpr int kPio2Parts = 5;
  static constexpr float kPio2[5] = {0x1.92p+0f, 0x1.fb4p-12f, 0x1.444p-24f,
                                     0x1.68cp-39f, 0x1.1a6264p-54f};
  static constexpr float kTrigLimit = 4000;
  static constexpr int kSinTerms = 4;
  static constexpr int kCosTerms = 5;
  static constexpr int kCoshTerms = 3;
  static constexpr int kSinhTerms = 3;
};

// 1/k!, rounded to T (through long double: exact enough).
template <typename T>
constexpr T InverseFactorial(int k) {
  long double f = 1;
  for (int i = 2; i <= k; ++i) f *= i;
  return T(1.0L / f);
}

// The series coefficients, lowest order first.
template <typename T>
struct Series {
  using C = Consts<T>;
  template <int kN, class F>
  static constexpr std::array<T, kN> Table(F f) {
    std::array<T, kN> a{};
    for (int i = 0; i < kN; ++i) a[i] = f(i);
    return a;
  }
  // sin(r) - r = r^3 (-1/3! + r^2/5! - ...).
  static constexpr auto kSin = Table<C::kSinTerms>(
      [](int i) { return T(i % 2 ? 1 : -1) * InverseFactorial<T>(2 * i + 3); });
  // cos(r) - 1 + r^2/2 = r^4 (1/4! - r^2/6! + ...).
  static constexpr auto kCos = Table<C::kCosTerms>(
      [](int i) { return T(i % 2 ? -1 : 1) * InverseFactorial<T>(2 * i + 4); });
  // cosh(r) - 1 = r^2 (1/2! + r^2/4! + ...) and sinh(r) - r = r^3 (1/3! +
  // r^2/5! + ...) for |r| <= ln2 / 2 (sinh and cosh): truncation below
  // 2^-57 (double) and 2^-27 (float) of 1 + cosh(r) - 1.
  static constexpr auto kCosh = Table<C::kCoshTerms>(
      [](int i) { return InverseFactorial<T>(2 * i + 2); });
  static constexpr auto kSinh = Table<C::kSinhTerms>(
      [](int i) { return InverseFactorial<T>(2 * i + 3); });
};

// sum_k c[k] x^k, by Horner, each step one multiply-add (the rule).
template <class M, typename V, typename T, size_t kN>
V Horner(const M& m, V x, const std::array<T, kN>& c) {
  V p = m.Set(c[kN - 1]);
  for (size_t k = kN - 1; k-- > 0;) p = m.MulAdd(p, x, m.Set(c[k]));
  return p;
}

// x with NaN lanes replaced by 0 and clamped to [lo, hi].
template <class M, typename V>
V Clamp(const M& m, V x, typename M::T lo, typename M::T hi) {
  x = m.Select(m.IsNaN(x), m.Set(0), x);
  x = m.Select(m.Lt(x, m.Set(lo)), m.Set(lo), x);
  return m.Select(m.Lt(m.Set(hi), x), m.Set(hi), x);
}

// The quiet NaN of invalid results (x86's default NaN, as NumPy gives).
template <typename T>
T InvalidNaN() {
  return -std::numeric_limits<T>::quiet_NaN();
}

// NaN lanes of x give x quieted (x + x).
template <class M, typename V>
V KeepNaN(const M& m, V x, V result) {
  return m.Select(m.IsNaN(x), m.Add(x, x), result);
}

#include "math_exp_log-inl.h"  // NOLINT(build/include)
#include "math_trig-inl.h"     // NOLINT(build/include)

// The scalar policy: V = T, one lane.
template <typename P>
struct ScalarMath {
  using T = P;
  using V = P;
  using I = typename Consts<P>::Int;
  using K = bool;
  static V Set(double c) { return T(c); }
  static V Add(V a, V b) { return a + b; }
  static V Sub(V a, V b) { return a - b; }
  static V Mul(V a, V b) { return a * b; }
  static V MulAdd(V a, V b, V c) { return std::fma(a, b, c); }
  static V Div(V a, V b) { return a / b; }
  static V Sqrt(V a) { return std::sqrt(a); }
  static V Neg(V a) { return -a; }
  static V Abs(V a) { return std::fabs(a); }
  static V CopySign(V mag, V sign) { return std::copysign(mag, sign); }
  static V Round(V a) { return std::nearbyint(a); }
  static V Floor(V a) { return std::floor(a); }
  static V Trunc(V a) { return std::trunc(a); }
  static K Lt(V a, V b) { return a < b; }
  static K Le(V a, V b) { return a <= b; }
  static K Eq(V a, V b) { return a == b; }
  static K IsNaN(V a) { return a != a; }
  static K IsFinite(V a) { return std::isfinite(a); }
  static K And(K a, K b) { return a && b; }
  static K Or(K a, K b) { return a || b; }
  static K Not(K a) { return !a; }
  static V Select(K k, V yes, V no) { return k ? yes : no; }
  static I BitsOf(V a) {
    I bits;
    std::memcpy(&bits, &a, sizeof(bits));
    return bits;
  }
  static V FromBits(I bits) {
    V a;
    std::memcpy(&a, &bits, sizeof(a));
    return a;
  }
  static I SetI(I v) { return v; }
  static V Table16(const T* table, I index) { return table[index & 15]; }
  static K LtI(I a, I b) { return a < b; }
  static I AddI(I a, I b) {
    using U = std::make_unsigned_t<I>;
    return I(U(a) + U(b));
  }
  static I AndI(I a, I b) { return a & b; }
  static I OrI(I a, I b) { return a | b; }
  template <int kBits>
  static I ShlI(I a) {
    return I(std::make_unsigned_t<I>(a) << kBits);
  }
  template <int kBits>
  static I ShrI(I a) {
    return a >> kBits;
  }
  static I ToInt(V a) { return I(a); }
  static V ToFloat(I a) { return V(a); }
  template <class Fn>
  static V Fallback(K k, V x, V result, Fn fn) {
    return k ? fn(x) : result;
  }
  static bool AnyLane(K k) { return k; }
  static I XorI(I a, I b) { return a ^ b; }
  static V SelectIfNegativeI(I k, V yes, V no) { return k < 0 ? yes : no; }
};
