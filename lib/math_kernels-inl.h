// The body of lib/math_kernels.h (its comment states the contract), with
// no include guard and no namespace of its own: math_kernels.h includes it
// in namespace stridekit::math for the scalar reference, and
// simd/math-inl.h once per Highway target inside that target's namespace,
// so that the vector instantiations are compiled with the target's
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
  static constexpr double kLog2e = 0x1.71547652b82fep+0;
  static constexpr double kLn2Hi = 0x1.62e42fee00000p-1;  // 32 bits.
  static constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
  static constexpr double kExpMin = -746, kExpMax = 710;
  static constexpr double kExpm1Min = -40;
  static constexpr double kHalfExpm1Cap = 60;  // 1 - 2^-60 rounds to 1.
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
  static constexpr int kExpTerms = 13;  // exp: degree 13 on |r| <= ln2/2.
  static constexpr int kLogTerms = 10;  // log: z^1 .. z^10.
  static constexpr int kSinTerms = 8;   // sin: r^3 .. r^17.
  static constexpr int kCosTerms = 7;   // cos: r^4 .. r^16.
};

template <>
struct Consts<float> {
  using Int = int32_t;
  static constexpr int kMantissaBits = 23;
  static constexpr Int kBias = 127;
  static constexpr float kLog2e = 0x1.715476p+0f;
  static constexpr float kLn2Hi = 0x1.62e4p-1f;  // 16 bits.
  static constexpr float kLn2Lo = 0x1.7f7d1cp-20f;
  static constexpr float kExpMin = -104, kExpMax = 89;
  static constexpr float kExpm1Min = -18;
  static constexpr float kHalfExpm1Cap = 30;
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
  static constexpr int kExpTerms = 7;
  static constexpr int kLogTerms = 4;
  static constexpr int kSinTerms = 4;
  static constexpr int kCosTerms = 5;
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
  // exp(r) - 1 - r = r^2 (1/2! + r/3! + ...).
  static constexpr auto kExp =
      Table<C::kExpTerms - 1>([](int i) { return InverseFactorial<T>(i + 2); });
  // 2 atanh(s) = 2s + s z (2/3 + 2/5 z + ...), z = s^2.
  static constexpr auto kLog =
      Table<C::kLogTerms>([](int i) { return T(2.0L / (2 * i + 3)); });
  // sin(r) - r = r^3 (-1/3! + r^2/5! - ...).
  static constexpr auto kSin = Table<C::kSinTerms>(
      [](int i) { return T(i % 2 ? 1 : -1) * InverseFactorial<T>(2 * i + 3); });
  // cos(r) - 1 + r^2/2 = r^4 (1/4! - r^2/6! + ...).
  static constexpr auto kCos = Table<C::kCosTerms>(
      [](int i) { return T(i % 2 ? -1 : 1) * InverseFactorial<T>(2 * i + 4); });
};

// sum_k c[k] x^k, by Horner, each step one multiply-add (the rule).
template <class M, typename V, typename T, size_t kN>
V Horner(const M& m, V x, const std::array<T, kN>& c) {
  V p = m.Set(c[kN - 1]);
  for (size_t k = kN - 1; k-- > 0;) p = m.MulAdd(p, x, m.Set(c[k]));
  return p;
}

// 2^n for integral n in the normal exponent range.
template <class M, typename V>
V Pow2(const M& m, V n) {
  using C = Consts<typename M::T>;
  return m.FromBits(
      m.template ShlI<C::kMantissaBits>(m.AddI(m.ToInt(n), m.SetI(C::kBias))));
}

// p * 2^n, rounded once: n split into two halves that are normal powers.
template <class M, typename V>
V Scale(const M& m, V p, V n) {
  const V half = m.Trunc(m.Mul(n, m.Set(0.5)));
  return m.Mul(m.Mul(p, Pow2(m, half)), Pow2(m, m.Sub(n, half)));
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

// n = round(x / ln2), r = x - n ln2 (Cody-Waite; n ln2_hi exact).
template <class M, typename V>
V ReduceLn2(const M& m, V x, V& n) {
  using C = Consts<typename M::T>;
  n = m.Round(m.Mul(x, m.Set(C::kLog2e)));
  return m.Sub(m.Sub(x, m.Mul(n, m.Set(C::kLn2Hi))),
               m.Mul(n, m.Set(C::kLn2Lo)));
}

template <class M, typename V>
V Exp(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  V n;
  const V r = ReduceLn2(m, Clamp(m, x, C::kExpMin, C::kExpMax), n);
  // exp(r) = 1 + (r + r^2 (1/2! + r/3! + ...)).
  const V q = Horner(m, r, Series<T>::kExp);
  const V p = m.Add(m.Set(1), m.Add(r, m.Mul(m.Mul(r, r), q)));
  return KeepNaN(m, x, Scale(m, p, n));
}

// expm1(x) = 2^n (expm1(r) + 1 - 2^-n), the sum rounded once.
template <class M, typename V>
V Expm1(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  V n;
  const V r = ReduceLn2(m, Clamp(m, x, C::kExpm1Min, C::kExpMax), n);
  const V q = Horner(m, r, Series<T>::kExp);
  const V em1 = m.Add(r, m.Mul(m.Mul(r, r), q));
  const V capped = Clamp(m, n, -C::kHalfExpm1Cap, C::kHalfExpm1Cap);
  const V one_minus = m.Sub(m.Set(1), Pow2(m, m.Sub(m.Set(0), capped)));
  const V result = Scale(m, m.Add(em1, one_minus), n);
  // Zeros keep their sign.
  return KeepNaN(m, x, m.Select(m.Eq(x, m.Set(0)), x, result));
}

// log(1 + f) - f + ... : the fdlibm combination with the reduction
// multiple k and a correction c (log1p):
// k ln2_hi - ((hfsq - (s (hfsq + R) + (k ln2_lo + c))) - f).
template <class M, typename V>
V LogOf(const M& m, V f, V k, V c) {
  using T = typename M::T;
  using C = Consts<T>;
  const V s = m.Div(f, m.Add(m.Set(2), f));
  const V z = m.Mul(s, s);
  const V R = m.Mul(z, Horner(m, z, Series<T>::kLog));
  const V hfsq = m.Mul(m.Mul(m.Set(0.5), f), f);
  const V low =
      m.Add(m.Mul(s, m.Add(hfsq, R)), m.Add(m.Mul(k, m.Set(C::kLn2Lo)), c));
  return m.Sub(m.Mul(k, m.Set(C::kLn2Hi)), m.Sub(m.Sub(hfsq, low), f));
}

// x (positive, normal) = 2^k mm with mm in [sqrt(2)/2, sqrt(2)).
template <class M, typename V>
V Decompose(const M& m, V x, V& k) {
  using T = typename M::T;
  using C = Consts<T>;
  const auto bits = m.BitsOf(x);
  const V e = m.ToFloat(
      m.AddI(m.template ShrI<C::kMantissaBits>(bits), m.SetI(-C::kBias)));
  const auto mantissa =
      m.AndI(bits, m.SetI((typename C::Int(1) << C::kMantissaBits) - 1));
  V mm = m.FromBits(m.OrI(mantissa, m.BitsOf(m.Set(1))));
  const auto big = m.Lt(m.Set(T(0x1.6a09e667f3bcdp+0)), mm);
  mm = m.Select(big, m.Mul(mm, m.Set(0.5)), mm);
  k = m.Select(big, m.Add(e, m.Set(1)), e);
  return mm;
}

template <class M, typename V>
V Log(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  const auto zero = m.Set(0);
  const auto valid = m.And(m.Lt(zero, x), m.IsFinite(x));
  const auto sub = m.Lt(x, m.Set(C::kMinNormal));
  V xs = m.Select(valid, x, m.Set(1));
  xs = m.Select(sub, m.Mul(xs, m.Set(C::kSubnormalScale)), xs);
  V k;
  const V mm = Decompose(m, xs, k);
  k = m.Select(sub, m.Sub(k, m.Set(T(C::kSubnormalShift))), k);
  V result = LogOf(m, m.Sub(mm, m.Set(1)), k, zero);
  result = m.Select(m.Eq(x, zero), m.Set(-std::numeric_limits<T>::infinity()),
                    result);
  result = m.Select(m.Lt(x, zero), m.Set(InvalidNaN<T>()), result);
  result =
      m.Select(m.Eq(x, m.Set(std::numeric_limits<T>::infinity())), x, result);
  return KeepNaN(m, x, result);
}

// u = 1 + x = 2^k mm, f = mm - 1, c = (1 + x - u) / u (fdlibm).
template <class M, typename V>
V Log1p(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  const auto one = m.Set(1);
  const auto valid = m.And(m.Lt(m.Set(-1), x), m.IsFinite(x));
  const V xs = m.Select(valid, x, m.Set(0));
  const V u = m.Add(one, xs);
  V k;
  const V mm = Decompose(m, u, k);
  V c = m.Select(m.Le(m.Set(2), u), m.Sub(one, m.Sub(u, xs)),
                 m.Sub(xs, m.Sub(u, one)));
  c = m.Select(m.Le(m.Set(C::kExact), xs), m.Set(0), m.Div(c, u));
  V result = LogOf(m, m.Sub(mm, one), k, c);
  result = m.Select(m.Eq(x, m.Set(0)), x, result);
  result = m.Select(m.Eq(x, m.Set(-1)),
                    m.Set(-std::numeric_limits<T>::infinity()), result);
  result = m.Select(m.Lt(x, m.Set(-1)), m.Set(InvalidNaN<T>()), result);
  result =
      m.Select(m.Eq(x, m.Set(std::numeric_limits<T>::infinity())), x, result);
  return KeepNaN(m, x, result);
}

// tanh(x) = sign(x) e / (e + 2), e = expm1(2 |x|).
template <class M, typename V>
V Tanh(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  const V a = Clamp(m, m.Abs(x), 0, C::kTanhOne);
  const V e = Expm1(m, m.Add(a, a));
  V t = m.Div(e, m.Add(e, m.Set(2)));
  t = m.Select(m.Lt(m.Set(C::kTanhOne), m.Abs(x)), m.Set(1), t);
  return KeepNaN(m, x, m.CopySign(t, x));
}

// sin (kCos false) or cos of x: r + rlo = x - n pi/2 in double-word
// arithmetic, the quadrant n mod 4 picks the series and the sign.
template <bool kCos, class M, typename V>
V SinCos(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  const auto finite = m.IsFinite(x);
  const auto large = m.Lt(m.Set(C::kTrigLimit), m.Abs(x));
  const V a = m.Select(m.And(finite, m.Le(m.Abs(x), m.Set(C::kTrigLimit))), x,
                       m.Set(0));
  const V n = m.Round(m.Mul(a, m.Set(C::k2OverPi)));
  V s = m.Sub(a, m.Mul(n, m.Set(C::kPio2[0])));  // Exact (Sterbenz).
  V e = m.Set(0);
  for (int i = 1; i + 1 < C::kPio2Parts; ++i) {
    // (s, err) = TwoSum(s, -n p_i), the product exact.
    const V b = m.Sub(m.Set(0), m.Mul(n, m.Set(C::kPio2[i])));
    const V sum = m.Add(s, b);
    const V bb = m.Sub(sum, s);
    const V err = m.Add(m.Sub(s, m.Sub(sum, bb)), m.Sub(b, bb));
    s = sum;
    e = m.Add(e, err);
  }
  e = m.Sub(e, m.Mul(n, m.Set(C::kPio2[C::kPio2Parts - 1])));
  const V r = m.Add(s, e);
  const V rlo = m.Sub(e, m.Sub(r, s));
  const V r2 = m.Mul(r, r);
  // sin(r + rlo) ~ r + (r^3 P(r^2) + rlo (1 - r^2 / 2)).
  const V ps = Horner(m, r2, Series<T>::kSin);
  const V sin_r =
      m.Add(r, m.Add(m.Mul(m.Mul(r, r2), ps),
                     m.Sub(rlo, m.Mul(m.Mul(rlo, r2), m.Set(0.5)))));
  // cos(r + rlo) ~ 1 - (r^2/2 - (r^4 Q(r^2) - rlo r)).
  const V pc = Horner(m, r2, Series<T>::kCos);
  const V hz = m.Mul(r2, m.Set(0.5));
  const V cos_r = m.Sub(
      m.Set(1), m.Sub(hz, m.Sub(m.Mul(m.Mul(r2, r2), pc), m.Mul(rlo, r))));
  // Quadrant q = (n + kCos) mod 4: 0 sin, 1 cos, 2 -sin, 3 -cos.
  const V nq = kCos ? m.Add(n, m.Set(1)) : n;
  const V q = m.Sub(nq, m.Mul(m.Set(4), m.Floor(m.Mul(nq, m.Set(0.25)))));
  const auto odd = m.Or(m.Eq(q, m.Set(1)), m.Eq(q, m.Set(3)));
  V result = m.Select(odd, cos_r, sin_r);
  result = m.Select(m.Le(m.Set(2), q), m.Sub(m.Set(0), result), result);
  if constexpr (!kCos) result = m.Select(m.Eq(x, m.Set(0)), x, result);
  result = m.Select(finite, result, m.Set(InvalidNaN<T>()));
  result = m.Fallback(m.And(finite, large), x, result, [](T v) {
    return T(kCos ? std::cos(double(v)) : std::sin(double(v)));
  });
  return KeepNaN(m, x, result);
}

template <class M, typename V>
V Sin(const M& m, V x) {
  return SinCos<false>(m, x);
}
template <class M, typename V>
V Cos(const M& m, V x) {
  return SinCos<true>(m, x);
}

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
};
