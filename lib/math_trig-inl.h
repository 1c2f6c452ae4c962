// The trigonometric family of lib/math_kernels.h (sin, cos, tan, arcsin,
// arccos, arctan, arctan2, hypot), included textually by
// math_kernels-inl.h (no include guard, no namespace of its own), written
// over the same arithmetic policy `M` with the same rule: correctly rounded
// IEEE basic operations and M::MulAdd only, so that every target gives the
// scalar reference's bits.
//
// Methods (polynomials fitted for this file: weighted Remez fits with the
// coefficients rounded to T, /tmp/trig/remez.py; no division except where
// noted). Measured (/tmp/trig/acc.cc): below 1 ulp for every function
// and dtype (float32 sin over every float, cos, tan, arcsin, arccos, arctan
// over every 16th bit pattern; the rest sampled against long double).
// - sin, cos, tan: n = round(|x| 2/pi) (by a multiply-add of 1.5 2^p,
//   whose low bits hold n mod 4), r + rlo = |x| - n pi/2 by an exact FMA step
//   and a product of an exact split of pi/2 (Fast2Sum), so that the reduced
//   argument carries about 2p bits for |x| <= kTrigLimit (beyond, the
//   policy's Fallback: the C library's double sin/cos/tan rounded to T).
//   sin(r) = r + r z S(z), cos(r) = 1 - z/2 + z^2 C(z) (z = r^2, |r| <=
//   pi/4), each with its rlo term and the rounding of its leading sum kept
//   apart; the quadrant picks and signs them. tan is sin/cos or -cos/sin
//   as a double-word quotient (one division).
// - arctan, arctan2: the angle of (b, a), a, b >= 0, is atan(t) + k pi/4
//   with t = a/b (a <= b/2), (a - b)/(a + b) (the difference exact), or
//   -b/a (a > 2b); |t| <= 1/2, one reciprocal and the quotient's residual
//   (double-word t), atan(t) = t + t z A(z); arctan2 mirrors the angle for
//   x < 0 (k pi/4 from pi) and signs it by y. Inputs near the ends of the
//   exponent range are scaled by a power of two (an exact, rare path).
// - arcsin, arccos: |x| <= 1/2: asin(x) = x + x z B(z); beyond, asin(|x|)
//   = pi/2 - 2 asin(w), w = sqrt((1 - |x|)/2) with its residual (one
//   division); arccos from the same asin(t) and offsets of pi/4 multiples.
// - hypot: sqrt(fma(M, M, m m)) of the operands, M the larger, scaled by a
//   power of two near the ends of the exponent range (rare path).

// Per-precision constants of the trigonometric family.
template <typename T>
struct TrigConsts;

template <>
struct TrigConsts<double> {
  static constexpr int kSignBit = 63;
  static constexpr double kRoundMagic = 0x1.8p52;  // Adds round to integers.
  static constexpr double k2OverPi = 0x1.45f306dc9c883p-1;
  // pi/2 = kPio2A (53 bits: n kPio2A exact in an FMA) + kPio2B (36 bits:
  // n kPio2B exact for n < 2^17) + kPio2C + kPio2D.
  static constexpr double kPio2A = 0x1.921fb54442d18p+0;
  static constexpr double kPio2B = 0x1.1a62633140000p-54;
  static constexpr double kPio2C = 0x1.701b839a25205p-92;
  static constexpr double kPio2D = 0;
  // pi/4 = kPio4Hi (50 bits: k kPio4Hi exact for k <= 4) + kPio4Lo.
  static constexpr double kPio4Hi = 0x1.921fb54442d18p-1;
  static constexpr double kPio4Lo = 0x1.1a62633145c07p-55;
  // Operands of arctan2 and hypot within [kRangeLo, kRangeHi] go the fast
  // way; beyond, they are scaled by kScaleDown or kScaleUp (exact).
  static constexpr double kRangeLo = 0x1p-500, kRangeHi = 0x1p500;
  static constexpr double kScaleDown = 0x1p-600, kScaleUp = 0x1p600;
  // arctan(x) for x beyond this is pi/2 rounded.
  static constexpr double kAtanBig = 0x1p100;
  static constexpr double kTinyNum = 0x1p-900;
  // Weighted Remez fits with double coefficients (/tmp/trig/remez.py),
  // max relative errors (of sin, cos, atan) 2^-57.8, 2^-63.2, 2^-57.5.
  // sin(r) = r + r z S(z), z = r^2 <= (pi/4)^2.
  static constexpr std::array<double, 6> kSin = {
      -0x1.555555555554cp-3, 0x1.111111110fbd7p-7,   -0x1.a01a019c636e5p-13,
      0x1.71de35b0ede5dp-19, -0x1.ae5e8bc1be676p-26, 0x1.5d9c5ddf82c8ep-33};
  // cos(r) = 1 - z/2 + z^2 C(z).
  static constexpr std::array<double, 6> kCos = {
      0x1.5555555555553p-5,   -0x1.6c16c16c15eacp-10, 0x1.a01a019dcc344p-16,
      -0x1.27e4f8bd41987p-22, 0x1.1eea58f9bae31p-29,  -0x1.8fe1d8cab8021p-37};
  // atan(t) = t + t z A(z), z = t^2 <= 1/4.
  static constexpr std::array<double, 12> kAtan = {
      -0x1.5555555555539p-2, 0x1.9999999994111p-3,  -0x1.2492492224498p-3,
      0x1.c71c70c6dffdbp-4,  -0x1.745cf9324d6d9p-4, 0x1.3b1178da29d0dp-4,
      -0x1.10f52f0ad0dbap-4, 0x1.e00242c5518dbp-5,  -0x1.a3fb860ca6e8fp-5,
      0x1.57f289e5e1ba8p-5,  -0x1.c467d9ac3aeedp-6, 0x1.4f46070238203p-7};
  // asin(t) = t + t z B(z), z = t^2 <= 1/4 (2^-55.7).
  static constexpr std::array<double, 12> kAsin = {
      0x1.55555555554a4p-3, 0x1.333333335700ep-4,  0x1.6db6db4ea1013p-5,
      0x1.f1c728eda0fc3p-6, 0x1.6e8a38d5ea628p-6,  0x1.1c684bcad5607p-6,
      0x1.c73da24970438p-7, 0x1.8d4404116e33dp-7,  0x1.b7be3d968415ep-8,
      0x1.385db0b2292d1p-6, -0x1.fd5ba06d442f4p-7, 0x1.01d51867399d2p-5};
};

template <>
struct TrigConsts<float> {
  static constexpr int kSignBit = 31;
  static constexpr float kRoundMagic = 0x1.8p23f;
  static constexpr float k2OverPi = 0x1.45f306p-1f;
  // 24 + 12 (n < 2^12) + 24 bits (kPio2D unused: every float up to
  // kTrigLimit tested).
  static constexpr float kPio2A = 0x1.921fb6p+0f;
  static constexpr float kPio2B = -0x1.778p-25f;
  static constexpr float kPio2C = 0x1.68c234p-39f;
  static constexpr float kPio2D = 0;
  static constexpr float kPio4Hi = 0x1.921fbp-1f;  // 21 bits.
  static constexpr float kPio4Lo = 0x1.5110b4p-23f;
  static constexpr float kRangeLo = 0x1p-50f, kRangeHi = 0x1p50f;
  static constexpr float kScaleDown = 0x1p-100f, kScaleUp = 0x1p100f;
  static constexpr float kAtanBig = 0x1p60f;
  static constexpr float kTinyNum = 0x1p-90f;
  // Weighted Remez fits with float coefficients (/tmp/trig/remez.py);
  // max relative errors 2^-27.9, 2^-32.3, 2^-27.3, 2^-27.5.
  static constexpr std::array<float, 3> kSin = {-0x1.555546p-3f, 0x1.110776p-7f,
                                                -0x1.9952fap-13f};
  static constexpr std::array<float, 3> kCos = {
      0x1.55554ep-5f, -0x1.6c0e30p-10f, 0x1.9a6850p-16f};
  static constexpr std::array<float, 5> kAtan = {
      -0x1.555520p-2f, 0x1.997e88p-3f, -0x1.226f78p-3f, 0x1.a14952p-4f,
      -0x1.a7eab2p-5f};
  static constexpr std::array<float, 5> kAsin = {0x1.5555acp-3f, 0x1.3308cep-4f,
                                                 0x1.73edd4p-5f, 0x1.910278p-6f,
                                                 0x1.55bc2ep-5f};
};

// r + rlo = a - n pi/2 for 0 <= a <= kTrigLimit, n = round(a 2/pi) (ties
// to even); the bits of n + 1.5 2^p (nbits) hold n mod 4 in their lowest
// bits.
template <class M, typename V>
V ReducePio2(const M& m, V a, V& rlo, typename M::I& nbits) {
  using TC = TrigConsts<typename M::T>;
  const V magic = m.Set(TC::kRoundMagic);
  const V big = m.MulAdd(a, m.Set(TC::k2OverPi), magic);
  nbits = m.BitsOf(big);
  const V n = m.Sub(big, magic);
  const V r1 = m.MulAdd(n, m.Set(-TC::kPio2A), a);  // Exact.
  const V t = m.Mul(n, m.Set(TC::kPio2B));          // Exact.
  const V r = m.Sub(r1, t);
  const V e = m.Sub(m.Sub(r1, r), t);  // Fast2Sum (r1 is a multiple of
                                       // t's ulp).
  if constexpr (TC::kPio2D != 0) {
    rlo = m.MulAdd(n, m.Set(-TC::kPio2C), m.MulAdd(n, m.Set(-TC::kPio2D), e));
  } else {
    rlo = m.MulAdd(n, m.Set(-TC::kPio2C), e);
  }
  return r;
}

// sin (kKind 0), cos (1) or tan (2) of x.
template <int kKind, class M, typename V>
V TrigOf(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  using TC = TrigConsts<T>;
  const V one = m.Set(1);
  const V a = m.Abs(x);
  V rlo;
  typename M::I nbits;
  const V r = ReducePio2(m, a, rlo, nbits);
  const V z = m.Mul(r, r);
  const V nhz = m.Mul(z, m.Set(-0.5));
  // sin(r + rlo) = r + (r z S(z) + rlo (1 - z/2)) = sh + sl.
  const V su =
      m.MulAdd(m.Mul(r, z), Horner(m, z, TC::kSin), m.MulAdd(nhz, rlo, rlo));
  const V sh = m.Add(r, su);
  // cos(r + rlo) = (1 - z/2) + (z^2 C(z) - r rlo) = ch + cl.
  const V w = m.Add(one, nhz);
  const V cu = m.MulAdd(  // Fast2Sum's error of w, then the rest.
      m.Mul(z, z), Horner(m, z, TC::kCos),
      m.Sub(m.Add(m.Sub(one, w), nhz), m.Mul(r, rlo)));
  const V ch = m.Add(w, cu);
  // The quadrant's parity (of n + 1 for cos).
  const auto low_bit =
      kKind == 1 ? m.AddI(nbits, m.SetI(1)) : nbits;  // n mod 4 (+1 for cos)
  // Negative (as an integer) for odd n.
  const auto odd = m.template ShlI<TC::kSignBit>(low_bit);
  const auto sign_mask = m.SetI(typename C::Int(1) << TC::kSignBit);
  V result;
  typename M::I flip;
  if constexpr (kKind == 2) {
    // tan = sh/ch (n even) or -ch/sh, as a double-word quotient.
    const V sl = m.Add(m.Sub(r, sh), su);
    const V cl = m.Add(m.Sub(w, ch), cu);
    const V num = m.SelectIfNegativeI(odd, ch, sh);
    const V num_lo = m.SelectIfNegativeI(odd, cl, sl);
    const V den = m.SelectIfNegativeI(odd, sh, ch);
    const V den_lo = m.SelectIfNegativeI(odd, sl, cl);
    const V inv = m.Div(one, den);
    const V q = m.Mul(num, inv);
    const V res =
        m.MulAdd(m.Neg(q), den_lo, m.Add(m.MulAdd(m.Neg(q), den, num), num_lo));
    result = m.MulAdd(res, inv, q);
    // Negative for odd n, and odd in x.
    flip = m.XorI(m.template ShlI<TC::kSignBit>(nbits), m.BitsOf(x));
  } else {
    result = m.SelectIfNegativeI(odd, ch, sh);
    // Negative in quadrants 2 and 3; sin is odd in x.
    flip = m.template ShlI<TC::kSignBit - 1>(low_bit);
    if constexpr (kKind == 0) flip = m.XorI(flip, m.BitsOf(x));
  }
  result = m.FromBits(m.XorI(m.BitsOf(result), m.AndI(flip, sign_mask)));
  // NaN, infinities and arguments beyond kTrigLimit (rare).
  const auto special = m.Not(m.Le(a, m.Set(C::kTrigLimit)));
  if (m.AnyLane(special)) {
    const auto finite = m.IsFinite(x);
    result = m.Select(finite, result, m.Set(InvalidNaN<T>()));
    result = m.Fallback(m.And(finite, special), x, result, [](T v) {
      const double d = double(v);
      return T(kKind == 0   ? std::sin(d)
               : kKind == 1 ? std::cos(d)
                            : std::tan(d));
    });
    result = KeepNaN(m, x, result);
  }
  return result;
}

template <class M, typename V>
V Sin(const M& m, V x) {
  return TrigOf<0>(m, x);
}
template <class M, typename V>
V Cos(const M& m, V x) {
  return TrigOf<1>(m, x);
}
template <class M, typename V>
V Tan(const M& m, V x) {
  return TrigOf<2>(m, x);
}

// The angle of the point (b, a), a, b >= 0 finite, not both zero, their
// larger within [kRangeLo, 2 kRangeHi]: atan(a/b), or pi - atan(a/b) in
// the lanes of `back` (kBack).
template <bool kBack, class M, typename V, typename K>
V AtanOfRatio(const M& m, V a, V b, K back) {
  using T = typename M::T;
  using TC = TrigConsts<T>;
  const auto low = m.Le(a, m.Mul(b, m.Set(0.5)));  // t = a/b
  const auto high = m.Lt(m.Add(b, b), a);          // t = -b/a
  // Otherwise t = (a - b)/(a + b), a - b exact (Sterbenz), a + b a
  // double-word (TwoSum).
  const V sum = m.Add(a, b);
  const V bb = m.Sub(sum, a);
  const V sum_lo = m.Add(m.Sub(a, m.Sub(sum, bb)), m.Sub(b, bb));
  V num = m.Select(low, a, m.Select(high, m.Neg(b), m.Sub(a, b)));
  const V den = m.Select(low, b, m.Select(high, a, sum));
  const V den_lo = m.Select(m.Or(low, high), m.Set(0), sum_lo);
  // The multiple k of pi/4: 0 (low), 1, 2 (high); 4 - k for back.
  V k = m.Select(low, m.Set(0), m.Select(high, m.Set(2), m.Set(1)));
  if constexpr (kBack) {
    num = m.Select(back, m.Neg(num), num);
    k = m.Select(back, m.Sub(m.Set(4), k), k);
  }
  // t + tlo = num / (den + den_lo).
  const V inv = m.Div(m.Set(1), den);
  const V t = m.Mul(num, inv);
  const V res = m.MulAdd(m.Neg(t), den_lo, m.MulAdd(m.Neg(t), den, num));
  const V tlo = m.Mul(res, inv);
  const V z = m.Mul(t, t);
  // atan(t + tlo) = t + (t z A(z) + tlo (1 - z)).
  const V tail = m.MulAdd(m.Mul(t, z), Horner(m, z, TC::kAtan),
                          m.MulAdd(m.Neg(z), tlo, tlo));
  const V off = m.Mul(k, m.Set(TC::kPio4Hi));  // Exact.
  const V s = m.Add(off, t);
  const V e = m.Add(m.Sub(off, s), t);  // Fast2Sum: |t| <= 1/2 < pi/4.
  V result = m.Add(s, m.Add(e, m.MulAdd(k, m.Set(TC::kPio4Lo), tail)));
  if constexpr (kBack) {
    // A tiny numerator (k = 0): the residual would underflow, but atan(t)
    // rounds as t = num/den (|t| < kTinyNum / kRangeLo) does.
    const auto tiny =
        m.And(m.Lt(m.Abs(num), m.Set(TC::kTinyNum)), m.Eq(k, m.Set(0)));
    if (m.AnyLane(tiny)) result = m.Select(tiny, m.Div(num, den), result);
  }
  return result;
}

template <class M, typename V>
V Arctan(const M& m, V x) {
  using T = typename M::T;
  using TC = TrigConsts<T>;
  const V big = m.Set(TC::kAtanBig);
  V a = m.Abs(x);
  a = m.Select(m.Lt(a, big), a, big);  // Also NaN (fixed below).
  const V result = AtanOfRatio<false>(m, a, m.Set(1), m.Lt(a, a));
  return KeepNaN(m, x, m.CopySign(result, x));
}

// 2^n for integral n within the normal exponents.
template <class M, typename V>
V TwoPow(const M& m, V n) {
  using C = Consts<typename M::T>;
  return m.FromBits(
      m.template ShlI<C::kMantissaBits>(m.AddI(m.ToInt(n), m.SetI(C::kBias))));
}

// a, b (>= 0, or NaN) scaled by a common power of two into the range of
// AtanOfRatio: beyond kRangeHi the larger one into [1, 2) (two exact
// factors; the smaller one may lose the bits below the normal range,
// where the result does too), below kRangeLo both by kScaleUp (exact).
// Infinities become 1 (and the other operand 0, unless both are
// infinite); two zeros become (0, 1). `up1` and `up2` (if not null) get
// factors that undo the scaling. Rare (outside [kRangeLo, kRangeHi]).
template <class M, typename V>
void ScaleOperands(const M& m, V& a, V& b, V* up1, V* up2) {
  using T = typename M::T;
  using C = Consts<T>;
  using TC = TrigConsts<T>;
  const V inf = m.Set(std::numeric_limits<T>::infinity());
  const V zero = m.Set(0), one = m.Set(1);
  const auto a_inf = m.Eq(a, inf), b_inf = m.Eq(b, inf);
  const V a1 = m.Select(a_inf, one, m.Select(b_inf, zero, a));
  const V b1 = m.Select(b_inf, one, m.Select(a_inf, zero, b));
  const V larger = m.Select(m.Lt(a1, b1), b1, a1);
  const auto down = m.Lt(m.Set(TC::kRangeHi), larger);
  const auto upward = m.Lt(larger, m.Set(TC::kRangeLo));
  // larger = 2^k (1 + f) (normal); 2^-k = 2^-h 2^(h - k).
  const V k =
      m.Sub(m.ToFloat(m.template ShrI<C::kMantissaBits>(m.BitsOf(larger))),
            m.Set(T(C::kBias)));
  const V h = m.Floor(m.Mul(k, m.Set(0.5)));
  const V s1 = m.Select(down, TwoPow(m, m.Neg(h)),
                        m.Select(upward, m.Set(TC::kScaleUp), one));
  const V s2 = m.Select(down, TwoPow(m, m.Sub(h, k)), one);
  if (up1 != nullptr) {
    *up1 = m.Select(down, TwoPow(m, h),
                    m.Select(upward, m.Set(TC::kScaleDown), one));
    *up2 = m.Select(down, TwoPow(m, m.Sub(k, h)), one);
  }
  a = m.Mul(m.Mul(a1, s1), s2);
  b = m.Mul(m.Mul(b1, s1), s2);
  b = m.Select(m.And(m.Eq(a, zero), m.Eq(b, zero)), one, b);
}

// Whether a, b (>= 0) need ScaleOperands: not within [kRangeLo, kRangeHi]
// (larger one), NaN, infinite.
template <class M, typename V>
auto OutOfRange(const M& m, V a, V b) {
  using TC = TrigConsts<typename M::T>;
  const V hi = m.Set(TC::kRangeHi), lo = m.Set(TC::kRangeLo);
  return m.Not(
      m.And(m.And(m.Le(a, hi), m.Le(b, hi)), m.Or(m.Le(lo, a), m.Le(lo, b))));
}

// np.arctan2(y, x).
template <class M, typename V>
V Arctan2(const M& m, V y, V x) {
  V a = m.Abs(y), b = m.Abs(x);
  if (m.AnyLane(OutOfRange(m, a, b)))
    ScaleOperands(m, a, b, (V*)nullptr, (V*)nullptr);
  // x < 0 or x = -0: the angle from pi.
  const auto back = m.Lt(m.CopySign(m.Set(1), x), m.Set(0));
  V result = m.CopySign(AtanOfRatio<true>(m, a, b, back), y);
  // Both NaN: x's (as NumPy's).
  result = KeepNaN(m, y, result);
  return KeepNaN(m, x, result);
}

// np.hypot(x, y).
template <class M, typename V>
V Hypot(const M& m, V x, V y) {
  using T = typename M::T;
  V a = m.Abs(x), b = m.Abs(y);
  const auto out = OutOfRange(m, a, b);
  const bool rare = m.AnyLane(out);
  V up1 = m.Set(1), up2 = up1;
  if (rare) ScaleOperands(m, a, b, &up1, &up2);
  const auto swap = m.Lt(a, b);
  const V big = m.Select(swap, b, a), small = m.Select(swap, a, b);
  V result = m.Sqrt(m.MulAdd(big, big, m.Mul(small, small)));
  if (rare) {
    result = m.Mul(m.Mul(result, up1), up2);
    const V inf = m.Set(std::numeric_limits<T>::infinity());
    // Zeros: (0, 1) after ScaleOperands.
    result =
        m.Select(m.And(m.Eq(x, m.Set(0)), m.Eq(y, m.Set(0))), m.Set(0), result);
    result = KeepNaN(m, y, result);
    result = KeepNaN(m, x, result);
    result =
        m.Select(m.Or(m.Eq(m.Abs(x), inf), m.Eq(m.Abs(y), inf)), inf, result);
  }
  return result;
}

// arcsin (kAcos false) or arccos of x.
template <bool kAcos, class M, typename V>
V AsinAcos(const M& m, V x) {
  using T = typename M::T;
  using TC = TrigConsts<T>;
  const V one = m.Set(1), zero = m.Set(0);
  const V a = m.Abs(x);
  const auto small = m.Le(a, m.Set(0.5));
  // Beyond 1/2: w + wlo = sqrt(zb), zb = (1 - a)/2 (exact).
  const V zb = m.Mul(m.Sub(one, a), m.Set(0.5));
  const V w = m.Sqrt(zb);
  const V wden = m.Select(m.Eq(zb, zero), one, m.Add(w, w));
  const V wlo = m.Div(m.MulAdd(m.Neg(w), w, zb), wden);
  const V t = m.Select(small, a, w);
  const V z = m.Select(small, m.Mul(a, a), zb);
  // asin(t + tlo) = t + p.
  const V p = m.MulAdd(m.Mul(t, z), Horner(m, z, TC::kAsin),
                       m.Select(small, zero, wlo));
  // result = k pi/4 + mult (t + p): asin: small 0, 1; else 2, -2 (pi/2 -
  // 2 asin(w)). acos: small 2, -sign(x); x > 1/2: 0, 2; x < -1/2: 4, -2.
  V k, mult;
  const auto neg = m.Lt(x, zero);
  if constexpr (kAcos) {
    k = m.Select(small, m.Set(2), m.Select(neg, m.Set(4), zero));
    mult = m.Select(small, m.Select(neg, one, m.Set(-1)),
                    m.Select(neg, m.Set(-2), m.Set(2)));
  } else {
    k = m.Select(small, zero, m.Set(2));
    mult = m.Select(small, one, m.Set(-2));
  }
  const V u = m.Mul(mult, t);  // Exact.
  const V off = m.Mul(k, m.Set(TC::kPio4Hi));
  const V s = m.Add(off, u);
  const V e = m.Add(m.Sub(off, s), u);  // Fast2Sum (or off = 0).
  V result =
      m.Add(s, m.Add(e, m.MulAdd(k, m.Set(TC::kPio4Lo), m.Mul(mult, p))));
  if constexpr (!kAcos) result = m.CopySign(result, x);
  const auto outside = m.Not(m.Le(a, one));
  if (m.AnyLane(outside)) {
    // NumPy's arcsin and arccos give the positive quiet NaN here.
    result =
        m.Select(outside, m.Set(std::numeric_limits<T>::quiet_NaN()), result);
    result = KeepNaN(m, x, result);
  }
  return result;
}

template <class M, typename V>
V Arcsin(const M& m, V x) {
  return AsinAcos<false>(m, x);
}
template <class M, typename V>
V Arccos(const M& m, V x) {
  return AsinAcos<true>(m, x);
}
