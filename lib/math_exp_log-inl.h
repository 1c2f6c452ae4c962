// The exp/log family of lib/math_kernels.h on the policy M, for float and
// double: exp, exp2, expm1, log, log2, log10, log1p, cbrt, sinh, cosh,
// tanh, arcsinh, arccosh, arctanh, logaddexp, logaddexp2. Part of
// math_kernels-inl.h's body (no include guard, no namespace of its own).
//
// Methods. exp: n = round(x / ln2) by the shifter trick (one multiply-add
// whose bits also carry 2^n), r + r_lo = x - n ln2 by multiply-adds (the
// first exact), exp(r) = 1 + r + r^2 Q(r) with a minimax Q (Remez fits
// with mpmath, coefficients rounded to T), the result 2^n + 2^n (r + ...)
// in one multiply-add; lanes beyond the normal range of 2^n (overflow,
// subnormal results, NaN) take a rare path (AnyLane) scaling by two powers.
// exp2, expm1, sinh, cosh, tanh reuse the reduction and Q. log, float: x
// = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)) by integer ops, log(1 + f)
// = f + f^2 Q(f) (minimax), k C + f D summed in double-word for the bases
// e, 2 and 10. log, double: table-driven (math_log_table-inl.h, generated
// by math_log_table.py): x = 2^k z, z's top 4 mantissa bits pick one of 16
// rows (M::Table16: one vector permute on AVX3), r = z invc - 1 exact in
// one multiply-add (invc has few bits), log(x) = k ln2 + log(c) (the
// row's, double-word) + log1p(r), log1p(r) - r = r^2 P(r) of degree 8 (|r|
// < 2^-4.8), in double-word as above; log1p
// folds its rounding correction into r (no division). Subnormals, zeros,
// negatives, infinities and NaN take the rare path. No division in exp,
// exp2, log, log2, log10, double's log1p; no table but double's log. The
// inverse hyperbolics go through log1p; cbrt through Newton steps on
// x^(-1/3); logaddexp through log1p(exp) with a double-word path where the
// sum cancels. Measured (every float32; millions of doubles against long
// double or quad references): exp, exp2, log, log2, log10, log1p below 1
// ulp (double: 0.501), cbrt 0.5, tanh 1.06, expm1 1.34, the others below 2;
// logaddexp and logaddexp2 below 2 ulp except where the result is below about
// 2^-26 (float) or 2^-50 (double) of its terms (deep cancellation beyond the
// double-word precision; NumPy's formula is off by hundreds to 10^8 ulp
// wherever it cancels).

// Per-precision constants of the family.
template <typename T>
struct ExpLogConsts;

#include "math_log_table-inl.h"  // NOLINT(build/include)

template <>
struct ExpLogConsts<double> {
  using Int = int64_t;
  // 1.5 2^52 + bias: x log2e + kShifter rounds to an integer n whose low
  // bits are n + bias (the exponent field of 2^n after a shift).
  static constexpr double kShifter = 0x1.8p52 + 1023;
  static constexpr double kShifterBare = 0x1.8p52;
  static constexpr double kLog2e = 0x1.71547652b82fep+0;
  static constexpr double kLn2 = 0x1.62e42fefa39efp-1;     // ln2 rounded.
  static constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;  // ln2 - kLn2.
  static constexpr double kFastExp = 708;  // 2^n normal for |x| below.
  static constexpr double kFastExp2 = 1022;
  static constexpr double kExpLo = -746, kExpHi = 710;  // Clamp (rare path).
  static constexpr double kExp2Lo = -1080, kExp2Hi = 1030;
  // exp(r) = 1 + r + r^2 (c[0] + c[1] r + ...), |r| <= ln2 / 2: 2^-60.
  static constexpr std::array<double, 11> kExpPoly = {
      0x1.0000000000000p-1,  0x1.555555555555bp-3,  0x1.5555555555503p-5,
      0x1.111111110ec5dp-7,  0x1.6c16c16c3048dp-10, 0x1.a01a01b37e3b7p-13,
      0x1.a01a01368f6f4p-16, 0x1.71ddf020c575cp-19, 0x1.27e5b44655704p-22,
      0x1.af6be7f2d512fp-26, 0x1.1e3d2d03fe791p-29};
  // log_b(x) = k C + log_b(c) + log1p(r) D, C = C_hi + C_lo (C_hi a
  // multiple of 2^-42: k C_hi exact for |k| < 2^11, and so its sum with the
  // table's log_b(c) hi part), D = D_hi + D_lo: for b = e, 2, 10.
  static constexpr double kLogC[3][2] = {
      {0x1.62e42ff000000p-1, -0x1.718432a1b0e26p-35},
      {1, 0},
      {0x1.3441350a00000p-2, -0x1.0c0219dc1da99p-39}};
  static constexpr double kLogD[3][2] = {
      {1, 0},
      {0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56},
      {0x1.bcb7b1526e50ep-2, 0x1.95355baaafad3p-57}};
  static constexpr double kSinhMax = 710.5;     // sinh, cosh overflow beyond.
  static constexpr double kSinhTiny = 0x1p-27;  // sinh(x) rounds to x.
  static constexpr double kInvHuge = 0x1p53;    // asinh, acosh: log(2x).
  static constexpr int kCbrtShift = 54;         // Subnormals: 2^54 (3 | 54).
  // 1/k! for expm1 in double-word (logaddexp's cancellation): k = 2..13
  // as hi + lo, k = 14..23 rounded.
  static constexpr std::array<double, 12> kDwFactHi = {
      0x1.0000000000000p-1,  0x1.5555555555555p-3,  0x1.5555555555555p-5,
      0x1.1111111111111p-7,  0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13,
      0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19, 0x1.27e4fb7789f5cp-22,
      0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33};
  static constexpr std::array<double, 12> kDwFactLo = {
      0x0.0000000000000p+0,   0x1.5555555555555p-57,  0x1.5555555555555p-59,
      0x1.1111111111111p-63,  -0x1.f49f49f49f49fp-65, 0x1.a01a01a01a01ap-73,
      0x1.a01a01a01a01ap-76,  -0x1.c154f8ddc6c00p-73, 0x1.cbbc05b4fa99ap-76,
      -0x1.c062e06d1f209p-80, -0x1.2aec959e14c06p-83, 0x1.f28e0cc748ebep-87};
  static constexpr std::array<double, 10> kDwFactTail = {
      0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-41, 0x1.ae7f3e733b81fp-45,
      0x1.952c77030ad4ap-49, 0x1.6827863b97d97p-53, 0x1.2f49b46814157p-57,
      0x1.e542ba4020225p-62, 0x1.71b8ef6dcf572p-66, 0x1.0ce396db7f853p-70,
      0x1.761b41316381ap-75};
};

template <>
struct ExpLogConsts<float> {
  using Int = int32_t;
  static constexpr float kShifter = 0x1.8p23f + 127;
  static constexpr float kShifterBare = 0x1.8p23f;
  static constexpr float kLog2e = 0x1.715476p+0f;
  static constexpr float kLn2 = 0x1.62e430p-1f;
  static constexpr float kLn2Lo = -0x1.05c610p-29f;
  static constexpr float kFastExp = 87;
  static constexpr float kFastExp2 = 126;
  static constexpr float kExpLo = -104, kExpHi = 89;
  static constexpr float kExp2Lo = -152, kExp2Hi = 130;
  // 2^-28.
  static constexpr std::array<float, 5> kExpPoly = {
      0x1.fffffcp-2f, 0x1.555492p-3f, 0x1.5558f2p-5f, 0x1.1239e2p-7f,
      0x1.6a2434p-10f};
  // log(1 + f) = f + f^2 (c[0] + c[1] f + ...): 2^-27.5 (ln; log2 and
  // log10 take kLogSquareOf and kLogCubicOf, logaddexp2's log1p the
  // kLogPolyHalf form: 2^-28.2).
  static constexpr std::array<float, 9> kLogPoly = {
      -0x1.fffff8p-2f, 0x1.55555p-2f,   -0x1.000426p-2f,
      0x1.99a3f4p-3f,  -0x1.54276cp-3f, 0x1.227198p-3f,
      -0x1.0f376cp-3f, 0x1.08488p-3f,   -0x1.383046p-4f};
  // log_b(1 + f) = f log_b(e) + f^2 c + f^3 (c[0] + c[1] f + ...), c =
  // kLogSquareOf[kBase], c[i] = kLogCubicOf[kBase][i], for b = 2, 10 (kBase
  // 1, 2; LogCombineShort): relative error 2^-27.7 (Lawson fits,
  // coefficients rounded one by one, the rest refit).
  static constexpr float kLogSquareOf[3] = {0, -0x1.71547p-1f, -0x1.bcb7aap-3f};
  static constexpr std::array<float, 8> kLogCubicOf[3] = {
      {},
      {0x1.ec7094p-2f, -0x1.715afep-2f, 0x1.277f44p-2f, -0x1.eaa24cp-3f,
       0x1.a2c9ep-3f, -0x1.87f7d2p-3f, 0x1.7f27ep-3f, -0x1.c39bap-4f},
      {0x1.287a7p-3f, -0x1.bcbf52p-4f, 0x1.63d068p-4f, -0x1.276a48p-4f,
       0x1.f84c1ap-5f, -0x1.d7938ep-5f, 0x1.cd07cap-5f, -0x1.108158p-5f}};
  static constexpr std::array<float, 9> kLogPolyHalf = {
      0x1.555546p-2f,  -0x1.000012p-2f, 0x1.99a53ep-3f,
      -0x1.555ab2p-3f, 0x1.232d98p-3f,  -0x1.fc3458p-4f,
      0x1.e77698p-4f,  -0x1.de407p-4f,  0x1.13757ep-4f};
  static constexpr Int kLogOffset = 0x3f800000 - 0x3f3504f3;
  static constexpr Int kSqrtHalfBits = 0x3f3504f3;
  static constexpr float kLogC[3][2] = {
      {0x1.62e4p-1f, 0x1.7f7d1cp-20f}, {1, 0}, {0x1.3442p-2f, -0x1.95ec1p-19f}};
  static constexpr float kLogD[3][2] = {{1, 0},
                                        {0x1.715476p+0f, 0x1.4ae0cp-26f},
                                        {0x1.bcb7b2p-2f, -0x1.5b235ep-27f}};
  // tanh(a) = a + a^3 (c[0] + c[1] a^2 + ...) below kTanhSmall: relative
  // error 2^-30 (Lawson fit, coefficients rounded one by one, the rest
  // refit); beyond, 1 - 2 / (e^(2a) + 1), a clamped to kTanhBig (the result
  // rounds to 1 from 9.01 on).
  static constexpr float kTanhSmall = 0.875f;
  static constexpr float kTanhBig = 10;
  static constexpr std::array<float, 7> kTanhPoly = {
      -0x1.55555p-2f, 0x1.110fa8p-3f, -0x1.b9da52p-5f, 0x1.6376eep-6f,
      -0x1.11023p-7f, 0x1.5b6d5ap-9f, -0x1.f9b7d6p-12f};
  static constexpr float kSinhMax = 89.5f;
  static constexpr float kSinhTiny = 0x1p-12f;
  static constexpr float kInvHuge = 0x1p24f;
  static constexpr int kCbrtShift = 24;
  static constexpr std::array<float, 6> kDwFactHi = {
      0x1p-1f,        0x1.555556p-3f,  0x1.555556p-5f,
      0x1.111112p-7f, 0x1.6c16c2p-10f, 0x1.a01a02p-13f};
  static constexpr std::array<float, 6> kDwFactLo = {
      0x0p+0f,           -0x1.555556p-28f, -0x1.555556p-30f,
      -0x1.ddddde0p-32f, -0x1.27d27ep-35f, -0x1.7f97fap-39f};
  static constexpr std::array<float, 6> kDwFactTail = {
      0x1.a01a02p-16f, 0x1.71de3ap-19f, 0x1.27e4fcp-22f,
      0x1.ae6456p-26f, 0x1.1eed8ep-29f, 0x1.612462p-33f};
};

// sum c[i] x^i by Estrin's scheme (each step one multiply-add, the rule),
// x2 = x^2, x4 = x^4, ...: a short dependency chain for long polynomials.
template <size_t kLo, size_t kN, class M, typename V, typename T, size_t kC>
V EstrinRange(const M& m, V x, V x2, V x4, V x8, V x16,
              const std::array<T, kC>& c) {
  if constexpr (kN == 1) {
    return m.Set(c[kLo]);
  } else if constexpr (kN == 2) {
    return m.MulAdd(m.Set(c[kLo + 1]), x, m.Set(c[kLo]));
  } else {
    constexpr size_t kH = kN > 16 ? 16 : kN > 8 ? 8 : kN > 4 ? 4 : 2;
    const V xh = kH == 16 ? x16 : kH == 8 ? x8 : kH == 4 ? x4 : x2;
    return m.MulAdd(EstrinRange<kLo + kH, kN - kH>(m, x, x2, x4, x8, x16, c),
                    xh, EstrinRange<kLo, kH>(m, x, x2, x4, x8, x16, c));
  }
}
template <class M, typename V, typename T, size_t kC>
V Estrin(const M& m, V x, V x2, const std::array<T, kC>& c) {
  const V x4 = kC > 4 ? m.Mul(x2, x2) : x2;
  const V x8 = kC > 8 ? m.Mul(x4, x4) : x4;
  const V x16 = kC > 16 ? m.Mul(x8, x8) : x8;
  return EstrinRange<0, kC>(m, x, x2, x4, x8, x16, c);
}

// exp(r) - 1 - r = r^2 Q(r), |r| <= ln2 / 2 (a little beyond is fine).
template <class M, typename V>
V ExpTail(const M& m, V r) {
  const V r2 = m.Mul(r, r);
  return m.Mul(r2, Estrin(m, r, r2, ExpLogConsts<typename M::T>::kExpPoly));
}

// x = n ln2 + r + r_lo: returns r = x - n ln2_hi - n ln2_lo rounded
// (x - n ln2_hi is exact: ln2_hi has p bits and |r| < 1/2), sets n, the
// residual r_lo (below half an ulp of r) and s = 2^(n + kOffset) (from the
// bits of the shifted sum: valid while n + kOffset is a normal exponent).
template <int kOffset = 0, class M, typename V>
V ReduceExp(const M& m, V x, V& n, V& r_lo, V& s) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  constexpr int kBits = std::numeric_limits<T>::digits - 1;
  const V shifter = m.Set(E::kShifter + kOffset);
  const V z = m.MulAdd(x, m.Set(E::kLog2e), shifter);
  n = m.Sub(z, shifter);
  s = m.FromBits(m.template ShlI<kBits>(m.BitsOf(z)));
  const V r1 = m.MulAdd(n, m.Set(-E::kLn2), x);
  const V r = m.MulAdd(n, m.Set(-E::kLn2Lo), r1);
  r_lo = m.MulAdd(n, m.Set(-E::kLn2Lo), m.Sub(r1, r));
  return r;
}

// sum c[i] x^i as pairs c[2j] + c[2j+1] x by Horner in x2 = x^2 (each
// step one multiply-add, the rule): fewer operations than Estrin.
template <class M, typename V, typename T, size_t kC>
V PairHorner(const M& m, V x, V x2, const std::array<T, kC>& c) {
  const auto pair = [&](size_t j) {
    return 2 * j + 1 < kC ? m.MulAdd(m.Set(c[2 * j + 1]), x, m.Set(c[2 * j]))
                          : m.Set(c[2 * j]);
  };
  constexpr size_t kPairs = (kC + 1) / 2;
  V p = pair(kPairs - 1);
  for (size_t j = kPairs - 1; j-- > 0;) p = m.MulAdd(p, x2, pair(j));
  return p;
}

// 2^n for integral n in the normal exponent range, by the shifter (no
// float-to-integer conversion).
template <class M, typename V>
V Pow2Exact(const M& m, V n) {
  using T = typename M::T;
  constexpr int kBits = std::numeric_limits<T>::digits - 1;
  return m.FromBits(m.template ShlI<kBits>(
      m.BitsOf(m.Add(n, m.Set(ExpLogConsts<T>::kShifter)))));
}

// 2^n (1 + e) for any n of the clamped ranges: two normal powers, the
// first product rounded once to T's precision, the second to the result.
template <class M, typename V>
V ScaleWide(const M& m, V e, V n) {
  const V half = m.Trunc(m.Mul(n, m.Set(0.5)));
  const V s1 = Pow2Exact(m, m.Sub(n, half));
  return m.Mul(m.MulAdd(s1, e, s1), Pow2Exact(m, half));
}

// TwoSum: s = a + b rounded, err = a + b - s exactly.
template <class M, typename V>
V TwoSum(const M& m, V a, V b, V& err) {
  const V s = m.Add(a, b);
  const V bv = m.Sub(s, a);
  err = m.Add(m.Sub(a, m.Sub(s, bv)), m.Sub(b, bv));
  return s;
}

// expm1(r + r_lo) ~ r + (r^2 Q(r) + r_lo).
template <class M, typename V>
V ExpM1Reduced(const M& m, V r, V r_lo) {
  return m.Add(r, m.Add(ExpTail(m, r), r_lo));
}

template <class M, typename V>
V Exp(const M& m, V x) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  V n, r_lo, s;
  const V r = ReduceExp(m, x, n, r_lo, s);
  V result = m.MulAdd(s, ExpM1Reduced(m, r, r_lo), s);
  const auto rare = m.Not(m.Lt(m.Abs(x), m.Set(E::kFastExp)));
  if (m.AnyLane(rare)) {
    const V r2 = ReduceExp(m, Clamp(m, x, E::kExpLo, E::kExpHi), n, r_lo, s);
    const V wide = ScaleWide(m, ExpM1Reduced(m, r2, r_lo), n);
    result = m.Select(rare, KeepNaN(m, x, wide), result);
  }
  return result;
}

// 2^x: n = round(x) (the shifter), r = x - n exact, r ln2 = t + t_lo in
// double-word, 2^r = 1 + t + (t^2 Q(t) + t_lo).
template <class M, typename V>
V Exp2Reduced(const M& m, V x, V& n, V& s) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  constexpr int kBits = std::numeric_limits<T>::digits - 1;
  const V shifter = m.Set(E::kShifter);
  const V z = m.Add(x, shifter);
  n = m.Sub(z, shifter);
  s = m.FromBits(m.template ShlI<kBits>(m.BitsOf(z)));
  const V r = m.Sub(x, n);
  const V t = m.Mul(r, m.Set(E::kLn2));
  const V t_lo =
      m.MulAdd(r, m.Set(E::kLn2Lo), m.MulAdd(r, m.Set(E::kLn2), m.Neg(t)));
  return m.Add(t, m.Add(ExpTail(m, t), t_lo));
}

template <class M, typename V>
V Exp2(const M& m, V x) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  V n, s;
  const V e = Exp2Reduced(m, x, n, s);
  V result = m.MulAdd(s, e, s);
  const auto rare = m.Not(m.Lt(m.Abs(x), m.Set(E::kFastExp2)));
  if (m.AnyLane(rare)) {
    const V e2 = Exp2Reduced(m, Clamp(m, x, E::kExp2Lo, E::kExp2Hi), n, s);
    result = m.Select(rare, KeepNaN(m, x, ScaleWide(m, e2, n)), result);
  }
  return result;
}

// expm1(x) = (2^n - 1 + 2^n r) + 2^n (r^2 Q(r) + r_lo): the first sum
// exact (Fast2Sum: |2^n - 1| >= |2^n r| or n = 0), so that only the tail
// and the last addition round; |x| < kFastExp. Returns the rounded sum,
// sets lo to its rounding error (roughly).
template <class M, typename V>
V Expm1Parts(const M& m, V x, V& lo) {
  V n, r_lo, s;
  const V r = ReduceExp(m, x, n, r_lo, s);
  const V q = m.Add(ExpTail(m, r), r_lo);
  const V a = m.Sub(s, m.Set(1));
  const V b = m.Mul(s, r);
  const V hi = m.Add(a, b);
  const V tail = m.MulAdd(s, q, m.Add(m.Sub(a, hi), b));
  const V result = m.Add(hi, tail);
  lo = m.Add(m.Sub(hi, result), tail);
  return result;
}

template <class M, typename V>
V Expm1(const M& m, V x) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  V lo;
  V result = Expm1Parts(m, x, lo);
  const auto rare = m.Not(m.Lt(m.Abs(x), m.Set(E::kFastExp)));
  if (m.AnyLane(rare)) {
    // Beyond: -1 (x < 0, also -inf) or exp(x) (overflow).
    V n, r_lo, s;
    const V r2 = ReduceExp(m, Clamp(m, x, 0, E::kExpHi), n, r_lo, s);
    const V wide = ScaleWide(m, ExpM1Reduced(m, r2, r_lo), n);
    result = m.Select(
        rare, KeepNaN(m, x, m.Select(m.Lt(x, m.Set(0)), m.Set(-1), wide)),
        result);
  }
  // Zeros keep their sign.
  return m.Select(m.Eq(x, m.Set(0)), x, result);
}

// x (positive normal) = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)): returns
// f (exact) and k.
template <class M, typename V>
V SplitLog(const M& m, V x, V& k) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  constexpr int kBits = std::numeric_limits<T>::digits - 1;
  using Int = typename E::Int;
  const auto t = m.AddI(m.BitsOf(x), m.SetI(E::kLogOffset));
  // k + bias in the exponent field of t: as a float through 2^kBits.
  const auto biased = m.template ShrI<kBits>(t);
  const T big = T(Int(1) << kBits);
  k = m.Sub(m.FromBits(m.OrI(biased, m.BitsOf(m.Set(big)))),
            m.Set(big + T(Consts<T>::kBias)));
  const V mm = m.FromBits(m.AddI(m.AndI(t, m.SetI((Int(1) << kBits) - 1)),
                                 m.SetI(E::kSqrtHalfBits)));
  return m.Sub(mm, m.Set(1));
}

// Float's log_b(2^k (1 + f)) + c (c a small correction, log1p's), b = e, 2
// or 10 (kBase 0, 1, 2): k C_hi + f D_hi in double-word (k C_hi exact,
// Fast2Sum as |k C_hi| >= |f D_hi| or k = 0); in the kHalf form (log1p in
// base 2, logaddexp2's) also -f^2/2 D (another Fast2Sum); plus the small
// terms. Float's log2 and log10: LogCombineShort.
template <int kBase, class M, typename V>
V LogCombine(const M& m, V f, V k, V c) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  constexpr bool kHalf = kBase != 0;
  const V f2 = m.Mul(f, f);
  const V f2_lo = m.MulAdd(f, f, m.Neg(f2));  // f^2 = f2 + f2_lo.
  // q = log1p(f) - f + c (- f^2/2 in the kHalf form, then h = -f2/2).
  V q, h = f2;
  if constexpr (kHalf) {
    h = m.Mul(f2, m.Set(-0.5));
    q = m.MulAdd(m.Mul(f2, f), Estrin(m, f, f2, E::kLogPolyHalf),
                 m.MulAdd(f2_lo, m.Set(-0.5), c));
  } else {
    const V p = Estrin(m, f, f2, E::kLogPoly);
    q = m.MulAdd(f2, p, m.MulAdd(f2_lo, p, c));
  }
  const V a = m.Mul(k, m.Set(E::kLogC[kBase][0]));
  V b = f, low;
  if constexpr (kBase == 0) {
    low = m.MulAdd(k, m.Set(E::kLogC[kBase][1]), q);
  } else {
    const V d = m.Set(E::kLogD[kBase][0]);
    const V d_lo = m.Set(E::kLogD[kBase][1]);
    b = m.Mul(f, d);
    const V b_lo = m.MulAdd(f, d, m.Neg(b));
    const V hd = m.Mul(h, d);
    low = m.Add(m.Add(m.MulAdd(k, m.Set(E::kLogC[kBase][1]), b_lo),
                      m.MulAdd(h, d_lo, m.MulAdd(h, d, m.Neg(hd)))),
                m.MulAdd(f, d_lo, m.Mul(q, d)));
    h = hd;
  }
  V hi = m.Add(a, b);
  V e = m.Add(m.Sub(a, hi), b);
  if constexpr (kHalf) {
    const V hi2 = m.Add(hi, h);
    e = m.Add(e, m.Add(m.Sub(hi, hi2), h));
    hi = hi2;
  }
  return m.Add(hi, m.Add(e, low));
}

// log_b(2^k (1 + f)) for float's log2 and log10 (kBase 1, 2; shorter
// than LogCombine, without its correction c): k C_hi + f D_hi in
// double-word as there, plus the small terms k C_lo + f D_lo + f^2
// kLogSquareOf + f^3 P(f) (kLogCubicOf), the f^2 term fused in the last
// multiply-add.
template <int kBase, class M, typename V>
V LogCombineShort(const M& m, V f, V k) {
  using E = ExpLogConsts<typename M::T>;
  const V f2 = m.Mul(f, f);
  const V f2_lo = m.MulAdd(f, f, m.Neg(f2));  // f^2 = f2 + f2_lo.
  const V cubic = m.Mul(m.Mul(f2, f), Estrin(m, f, f2, E::kLogCubicOf[kBase]));
  const V c2 = m.Set(E::kLogSquareOf[kBase]);
  const V d = m.Set(E::kLogD[kBase][0]);
  const V a = m.Mul(k, m.Set(E::kLogC[kBase][0]));
  const V b = m.Mul(f, d);
  V small = m.MulAdd(k, m.Set(E::kLogC[kBase][1]), m.MulAdd(f, d, m.Neg(b)));
  small = m.MulAdd(f2_lo, c2, m.MulAdd(f, m.Set(E::kLogD[kBase][1]), small));
  const V low = m.MulAdd(f2, c2, m.Add(cubic, small));
  const V hi = m.Add(a, b);
  return m.Add(hi, m.Add(m.Add(m.Sub(a, hi), b), low));
}

// Zeros, negatives, infinities and NaN of log_b: -inf, NaN, inf, NaN (for
// negatives NumPy's: the invalid NaN, +NaN for log10).
template <int kBase, class M, typename V>
V LogSpecial(const M& m, V x, V result) {
  using T = typename M::T;
  const T inf = std::numeric_limits<T>::infinity();
  const T nan =
      kBase == 2 ? std::numeric_limits<T>::quiet_NaN() : InvalidNaN<T>();
  result = m.Select(m.Eq(x, m.Set(0)), m.Set(-inf), result);
  result = m.Select(m.Lt(x, m.Set(0)), m.Set(nan), result);
  result = m.Select(m.Eq(x, m.Set(inf)), x, result);
  return KeepNaN(m, x, result);
}

// Double's x (positive normal) = 2^k z, z in [kOff, 2 kOff) (LogTable):
// returns z (exact), sets k and row (z's table row in its low 4 bits, for
// M::Table16).
template <class M, typename V>
V SplitLogTable(const M& m, V x, V& k, typename M::I& row) {
  constexpr int kBits = 52;
  constexpr int64_t kMantissa = (int64_t(1) << kBits) - 1;
  // x's bits - kOffBits plus the bias in the exponent field: k + bias there
  // (positive), the row in the mantissa's top bits.
  const auto t = m.AddI(m.BitsOf(x),
                        m.SetI((int64_t(1023) << kBits) - LogTable::kOffBits));
  const double big = 0x1p52;
  k = m.Sub(m.FromBits(m.OrI(m.template ShrI<kBits>(t), m.BitsOf(m.Set(big)))),
            m.Set(big + 1023));
  row = m.template ShrI<LogTable::kRowShift>(t);
  return m.FromBits(
      m.AddI(m.AndI(t, m.SetI(kMantissa)), m.SetI(LogTable::kOffBits)));
}

// Double's log_b(2^k z) + corr (kCorr: log1p's correction, corr = the
// rounding error of its 1 + x = 2^k z), b = e, 2, 10 (kBase 0, 1, 2): r = z
// invc - 1 exact (the table's invc: one multiply-add), log_b = k C +
// log_b(c) + log_b(1 + r) with log_b(c) = -log_b(invc) from the table as
// hi + lo; w = k C_hi + hi exact (both multiples of 2^-42, |w| < 2^11); w
// + r D in double-word (Fast2Sum: |w| >= |r D| or w = 0), plus the small
// terms k C_lo + lo + r D_lo + r^2 P(r); with kCorr, log_b(1 + r + e) -
// log_b(1 + r) ~ e (1 - r - e/2) D, e = corr invc 2^-k, its e D part
// added to the high part by another Fast2Sum.
template <int kBase, bool kCorr, class M, typename V>
V LogTableOf(const M& m, V z, V k, typename M::I row, V corr) {
  using E = ExpLogConsts<double>;
  static_assert(LogTable::kRows == 16);
  const V invc = m.Table16(LogTable::kInvc, row);
  const V log_hi = m.Table16(LogTable::kHi[kBase], row);
  const V log_lo = m.Table16(LogTable::kLo[kBase], row);
  const V r = m.MulAdd(z, invc, m.Set(-1));  // Exact.
  const V r2 = m.Mul(r, r);
  const V p = PairHorner(m, r, r2, LogTable::kPoly[kBase]);
  const V w = m.MulAdd(k, m.Set(E::kLogC[kBase][0]), log_hi);  // Exact.
  V low = m.MulAdd(k, m.Set(E::kLogC[kBase][1]), log_lo);
  // hi + e = w + r D (Fast2Sum), for b = 2, 10 as w - (-r D_hi) (no
  // negation), the product's error and r D_lo to low.
  V hi;
  if constexpr (kBase != 0) {
    const V neg_t = m.Mul(r, m.Set(-E::kLogD[kBase][0]));
    low = m.Add(low, m.MulAdd(r, m.Set(E::kLogD[kBase][1]),
                              m.MulAdd(r, m.Set(E::kLogD[kBase][0]), neg_t)));
    hi = m.Sub(w, neg_t);
    low = m.Add(low, m.Sub(m.Sub(w, hi), neg_t));
  } else {
    hi = m.Add(w, r);
    low = m.Add(low, m.Add(m.Sub(w, hi), r));
  }
  if constexpr (kCorr) {
    // e D added to hi (Fast2Sum: |hi| >= |e|; e exact where w = 0: invc =
    // 1, k = 0), e (-r - e/2) D to low.
    // e = corr 2^(1 - k) (invc / 2): 2^(1 - k) normal (or 0: k = 1024,
    // where corr = 0) and the first product exact (corr may be subnormal).
    V e = m.Mul(m.Mul(corr, Pow2Exact(m, m.Sub(m.Set(1), k))),
                m.Mul(invc, m.Set(0.5)));
    const V e2 = m.Mul(m.MulAdd(e, m.Set(-0.5), m.Neg(r)), e);
    if constexpr (kBase != 0) {
      const V d = m.Set(E::kLogD[kBase][0]);
      e = m.Mul(e, d);
      low = m.MulAdd(e2, d, low);
    } else {
      low = m.Add(low, e2);
    }
    const V hi2 = m.Add(hi, e);
    low = m.Add(low, m.Add(m.Sub(hi, hi2), e));
    hi = hi2;
  }
  return m.Add(hi, m.MulAdd(r2, p, low));
}

// log_b(x), x positive normal (kScaled: x 2^kSubnormalShift), kBase 0, 1,
// 2: b = e, 2, 10. Double: the table (LogTableOf); float's log:
// LogCombine, log2 and log10: LogCombineShort.
template <int kBase, bool kScaled, class M, typename V>
V LogOf(const M& m, V x) {
  using T = typename M::T;
  V k;
  const auto shift = [&m](V k) {
    return kScaled ? m.Sub(k, m.Set(T(Consts<T>::kSubnormalShift))) : k;
  };
  if constexpr (sizeof(T) == 8) {
    typename M::I row;
    const V z = SplitLogTable(m, x, k, row);
    return LogTableOf<kBase, false>(m, z, shift(k), row, z);
  } else {
    const V f = SplitLog(m, x, k);
    if constexpr (kBase != 0) {
      return LogCombineShort<kBase>(m, f, shift(k));
    } else {
      return LogCombine<kBase>(m, f, shift(k), m.Set(0));
    }
  }
}

// log_b(x), kBase 0, 1, 2: b = e, 2, 10.
template <int kBase, class M, typename V>
V LogBase(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  V result = LogOf<kBase, false>(m, x);
  // x not positive normal finite: bits(x) in [2^p, inf's) (p the mantissa
  // bits) as bits(x) + 2^(w-1) - 2^p (wrapping, w the width) below
  // -2^(p+1) (signed): one integer comparison.
  using U = std::make_unsigned_t<typename C::Int>;
  const U sign = U(1) << (sizeof(T) * 8 - 1);
  const U min_bits = U(1) << C::kMantissaBits;
  const auto rare =
      m.Not(m.LtI(m.AddI(m.BitsOf(x), m.SetI(typename C::Int(sign - min_bits))),
                  m.SetI(typename C::Int(U(0) - 2 * min_bits))));
  if (m.AnyLane(rare)) {
    // Subnormals scaled to normal; other lanes replaced afterwards.
    const V xs = m.Select(m.Lt(m.Set(0), x), x, m.Set(1));
    const V scaled =
        LogOf<kBase, true>(m, m.Mul(xs, m.Set(C::kSubnormalScale)));
    result = m.Select(rare, LogSpecial<kBase>(m, x, scaled), result);
  }
  return result;
}

template <class M, typename V>
V Log(const M& m, V x) {
  return LogBase<0>(m, x);
}
template <class M, typename V>
V Log2(const M& m, V x) {
  return LogBase<1>(m, x);
}
template <class M, typename V>
V Log10(const M& m, V x) {
  return LogBase<2>(m, x);
}

// log_b(1 + x + x_lo), x > -1 finite, |x_lo| tiny: u = 1 + x rounded, c =
// 1 + x - u + x_lo its rounding correction (fdlibm); double: log_b(u + c)
// by LogTableOf's correction, float: u = 2^k (1 + f), log_b(u) + (c / u) /
// ln b.
template <int kBase, class M, typename V>
V Log1pBase(const M& m, V x, V x_lo) {
  using T = typename M::T;
  using C = Consts<T>;
  const V one = m.Set(1);
  const V u = m.Add(one, x);
  V k;
  V c = m.Select(m.Le(m.Set(2), u), m.Sub(one, m.Sub(u, x)),
                 m.Sub(x, m.Sub(u, one)));
  if constexpr (sizeof(T) == 8) {
    // c finite (x finite), also for huge x (there LogTableOf's 2^(1 - k)
    // scales it to nothing).
    typename M::I row;
    const V z = SplitLogTable(m, u, k, row);
    return LogTableOf<kBase, true>(m, z, k, row, m.Add(c, x_lo));
  } else {
    const V f = SplitLog(m, u, k);
    c = m.Select(m.Le(m.Set(C::kExact), x), m.Set(0), m.Div(m.Add(c, x_lo), u));
    return LogCombine<kBase>(m, f, k, c);
  }
}

template <class M, typename V>
V Log1p(const M& m, V x) {
  using T = typename M::T;
  const T inf = std::numeric_limits<T>::infinity();
  const auto valid = m.And(m.Lt(m.Set(-1), x), m.Lt(x, m.Set(inf)));
  V result = Log1pBase<0>(m, m.Select(valid, x, m.Set(0)), m.Set(0));
  result = m.Select(m.Eq(x, m.Set(0)), x, result);
  if (m.AnyLane(m.Not(valid))) {
    result = m.Select(m.Eq(x, m.Set(-1)), m.Set(-inf), result);
    result = m.Select(m.Lt(x, m.Set(-1)), m.Set(InvalidNaN<T>()), result);
    result = m.Select(m.Eq(x, m.Set(inf)), x, result);
    result = KeepNaN(m, x, result);
  }
  return result;
}

// tanh(x) for float: sign(x) times, for a = |x| below kTanhSmall, the odd
// polynomial a + a^3 P(a^2), else 1 - 2 / (e^(2a) + 1) with e^(2a) + 1 =
// fma(2^n, expm1(r), 2^n + 1) rounded once (exp's reduction and Q) and one
// division. Both are computed, the lanes selected.
template <class M, typename V>
V TanhFloat(const M& m, V x) {
  using E = ExpLogConsts<typename M::T>;
  const V a = m.Abs(x);
  const V a2 = m.Mul(a, a);
  const V small =
      m.MulAdd(m.Mul(a, a2), Estrin(m, a2, m.Mul(a2, a2), E::kTanhPoly), a);
  const V ab = m.Select(m.Lt(a, m.Set(E::kTanhBig)), a, m.Set(E::kTanhBig));
  V n, r_lo, s;
  const V r = ReduceExp(m, m.Add(ab, ab), n, r_lo, s);
  const V d = m.MulAdd(s, ExpM1Reduced(m, r, r_lo), m.Add(s, m.Set(1)));
  const V big = m.Sub(m.Set(1), m.Div(m.Set(2), d));
  const V t = m.Select(m.Lt(a, m.Set(E::kTanhSmall)), small, big);
  return KeepNaN(m, x, m.CopySign(t, x));
}

// tanh(x) = sign(x) e / (e + 2), e = expm1(2 |x|) in double-word: e times
// 1 / (e + 2) (the one division), corrected by the residual times it.
template <class M, typename V>
V TanhDouble(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  const V a = Clamp(m, m.Abs(x), 0, C::kTanhOne);
  V e_lo;
  const V e = Expm1Parts(m, m.Add(a, a), e_lo);
  const V two = m.Set(2);
  V d_lo;
  const V d = TwoSum(m, e, two, d_lo);
  const V inv = m.Div(m.Set(1), d);
  V t = m.Mul(e, inv);
  // e + e_lo - t (d + d_lo + e_lo).
  const V res =
      m.Sub(m.Add(m.MulAdd(m.Neg(t), d, e), e_lo), m.Mul(t, m.Add(d_lo, e_lo)));
  t = m.MulAdd(res, inv, t);
  t = m.Select(m.Lt(m.Set(C::kTanhOne), m.Abs(x)), m.Set(1), t);
  return KeepNaN(m, x, m.CopySign(t, x));
}

template <class M, typename V>
V Tanh(const M& m, V x) {
  if constexpr (sizeof(typename M::T) == 4) {
    return TanhFloat(m, x);
  } else {
    return TanhDouble(m, x);
  }
}

// cbrt(x) = 2^q cbrt(t), |x| = 2^(3q) t, t in [1, 8): w ~ t^(-1/3) by a
// polynomial and division-free Newton steps, y = t w^2 and one last
// Newton correction of y with the exact residual y^3 - t. Without
// kSpecial, for the lanes of normal finite x only (the others' results
// are replaced; the same bits as with kSpecial in those lanes).
template <bool kSpecial, class M, typename V>
V CbrtLanes(const M& m, V x) {
  using T = typename M::T;
  using C = Consts<T>;
  using E = ExpLogConsts<T>;
  constexpr bool kDouble = sizeof(T) == 8;
  const V a0 = m.Abs(x);
  const auto sub = m.Lt(a0, m.Set(C::kMinNormal));
  V a = a0;
  if constexpr (kSpecial) {
    a = m.Select(m.IsFinite(x), a0, m.Set(1));
    a = m.Select(sub, m.Mul(a, m.Set(T(kDouble ? 0x1p54 : 0x1p24))), a);
  }
  const auto bits = m.BitsOf(a);
  const T big = T(typename C::Int(1) << C::kMantissaBits);
  V e = m.Sub(m.FromBits(m.OrI(m.template ShrI<C::kMantissaBits>(bits),
                               m.BitsOf(m.Set(big)))),
              m.Set(big + T(C::kBias)));
  if constexpr (kSpecial) {
    e = m.Select(sub, m.Sub(e, m.Set(E::kCbrtShift)), e);
  }
  const V mm = m.FromBits(
      m.OrI(m.AndI(bits, m.SetI((typename C::Int(1) << C::kMantissaBits) - 1)),
            m.BitsOf(m.Set(1))));
  const V q = m.Floor(m.Mul(m.Add(e, m.Set(0.5)), m.Set(T(1.0L / 3))));
  const V rem = m.Sub(e, m.Mul(q, m.Set(3)));  // 0, 1 or 2.
  const V t = m.Mul(mm, Pow2Exact(m, rem));
  // w0 ~ mm^(-1/3) on [1, 2) (relative error 5e-4), times 2^(-rem/3).
  V w = m.MulAdd(m.MulAdd(m.MulAdd(m.Set(-0.04910403), mm, m.Set(0.31299208)),
                          mm, m.Set(-0.80141188)),
                 mm, m.Set(1.53704487));
  w = m.Mul(w, m.Select(m.Eq(rem, m.Set(0)), m.Set(1),
                        m.Select(m.Eq(rem, m.Set(1)),
                                 m.Set(T(0.793700525984099737375852819636L)),
                                 m.Set(T(0.629960524947436582383605303639L)))));
  for (int i = 0; i < (kDouble ? 2 : 1); ++i) {
    // w += w (1 - t w^3) / 3.
    const V w3 = m.Mul(m.Mul(w, w), w);
    const V d = m.MulAdd(m.Neg(t), w3, m.Set(1));
    w = m.MulAdd(m.Mul(w, d), m.Set(T(1.0L / 3)), w);
  }
  const V w2 = m.Mul(w, w);
  const V y = m.Mul(t, w2);
  const V yy = m.Mul(y, y);
  const V yy_lo = m.MulAdd(y, y, m.Neg(yy));
  const V res = m.MulAdd(yy_lo, y, m.MulAdd(yy, y, m.Neg(t)));
  const V yc = m.MulAdd(m.Neg(res), m.Mul(w2, m.Set(T(1.0L / 3))), y);
  V result = m.CopySign(m.Mul(yc, Pow2Exact(m, q)), x);
  if constexpr (kSpecial) {
    result = m.Select(m.Or(m.Eq(x, m.Set(0)), m.Not(m.IsFinite(x))), x, result);
    result = KeepNaN(m, x, result);
  }
  return result;
}

// cbrt: CbrtLanes, with the subnormals, zeros, infinities and NaN on a
// rare path.
template <class M, typename V>
V Cbrt(const M& m, V x) {
  using T = typename M::T;
  const V a = m.Abs(x);
  V result = CbrtLanes<false>(m, x);
  const auto rare =
      m.Not(m.And(m.Le(m.Set(Consts<T>::kMinNormal), a),
                  m.Lt(a, m.Set(std::numeric_limits<T>::infinity()))));
  if (m.AnyLane(rare)) {
    result = m.Select(rare, CbrtLanes<true>(m, x), result);
  }
  return result;
}

// sinh and cosh of a = |x| (clamped below the overflow of 2^n / 4):
// 2 ((S -+ T) + (S p(r) -+ T p(-r))), S = 2^(n-2), T = 2^(-n-2) (n capped:
// T's term is far below the rounding beyond), p = expm1 on the reduced r,
// from its even and odd parts (one series each). a = |x| in [0,
// kSinhMax].
template <bool kCosh, class M, typename V>
V SinhCoshOf(const M& m, V x, V a) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  V n, r_lo, s;
  const V r = ReduceExp<-2>(m, a, n, r_lo, s);
  // expm1(+-(r + r_lo)) = even +- (r + odd): even = cosh(r) - 1, r + odd
  // = sinh(r) + r_lo (Taylor series).
  const V r2 = m.Mul(r, r);
  const V r4 = m.Mul(r2, r2);
  const V even = m.Mul(r2, Estrin(m, r2, r4, Series<T>::kCosh));
  const V odd =
      m.MulAdd(m.Mul(r2, r), Estrin(m, r2, r4, Series<T>::kSinh), r_lo);
  const V cap = m.Set(40);
  const V t = Pow2Exact(m, m.Sub(m.Set(-2), m.Select(m.Lt(n, cap), n, cap)));
  // S expm1(r) +- T expm1(-r) = (S +- T) even + (S -+ T) (r + odd), the
  // product by r exact in the multiply-add; the leading S +- T added
  // last, without its rounding error (S + (T + that) for cosh).
  const V sum = m.Add(s, t);
  const V diff = m.Sub(s, t);
  V result;
  if constexpr (kCosh) {
    result = m.MulAdd(diff, r, m.MulAdd(diff, odd, m.Mul(sum, even)));
    result = m.Add(s, m.Add(t, result));
  } else {
    result = m.MulAdd(sum, r, m.MulAdd(sum, odd, m.Mul(diff, even)));
    // S - T = diff + ((S - diff) - T) exactly (Fast2Sum).
    result = m.Add(diff, m.Add(m.Sub(m.Sub(s, diff), t), result));
  }
  result = m.Add(result, result);
  if constexpr (!kCosh) {
    result = m.Select(m.Lt(m.Abs(x), m.Set(E::kSinhTiny)), m.Abs(x), result);
    result = m.CopySign(result, x);
  }
  return result;
}

// SinhCoshOf, with |x| from kSinhMax on (overflow) and NaN on a rare path.
template <bool kCosh, class M, typename V>
V SinhCosh(const M& m, V x) {
  using E = ExpLogConsts<typename M::T>;
  const V a = m.Abs(x);
  V result = SinhCoshOf<kCosh>(m, x, a);
  const auto rare = m.Not(m.Lt(a, m.Set(E::kSinhMax)));
  if (m.AnyLane(rare)) {
    const V clamped = Clamp(m, a, 0, E::kSinhMax);
    result =
        m.Select(rare, KeepNaN(m, x, SinhCoshOf<kCosh>(m, x, clamped)), result);
  }
  return result;
}

template <class M, typename V>
V Sinh(const M& m, V x) {
  return SinhCosh<false>(m, x);
}
template <class M, typename V>
V Cosh(const M& m, V x) {
  return SinhCosh<true>(m, x);
}

// asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))); beyond kInvHuge
// log1p(a) + ln2 (= log(2a) there).
template <class M, typename V>
V Arcsinh(const M& m, V x) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  const V one = m.Set(1);
  const V a = m.Abs(x);
  const auto huge = m.Lt(m.Set(E::kInvHuge), a);
  const V as = m.Select(huge, one, a);
  const V s = m.Sqrt(m.MulAdd(as, as, one));
  V arg = m.Add(as, m.Div(m.Mul(as, as), m.Add(one, s)));
  arg = m.Select(huge, a, arg);
  V r = Log1p(m, arg);
  r = m.Select(huge, m.Add(r, m.Set(E::kLn2)), r);
  r = m.Select(m.Eq(x, m.Set(0)), x, m.CopySign(r, x));
  return KeepNaN(m, x, r);
}

// acosh(x) = log1p(t + sqrt(2t + t^2)), t = x - 1 (exact); beyond
// kInvHuge log1p(x) + ln2; NaN below 1.
template <class M, typename V>
V Arccosh(const M& m, V x) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  const V one = m.Set(1);
  const auto huge = m.Lt(m.Set(E::kInvHuge), x);
  const auto valid = m.Le(one, x);
  const V xs = m.Select(m.And(valid, m.Not(huge)), x, one);
  const V t = m.Sub(xs, one);
  V arg = m.Add(t, m.Sqrt(m.MulAdd(t, t, m.Add(t, t))));
  arg = m.Select(huge, x, arg);
  V r = Log1p(m, arg);
  r = m.Select(huge, m.Add(r, m.Set(E::kLn2)), r);
  r = m.Select(valid, r, m.Set(InvalidNaN<T>()));
  return KeepNaN(m, x, r);
}

// atanh(a) = log1p(2a + 2a a / (1 - a)) / 2 (fdlibm's small-argument form,
// accurate up to 1); inf at 1, NaN beyond.
template <class M, typename V>
V Arctanh(const M& m, V x) {
  using T = typename M::T;
  const V one = m.Set(1);
  const V a = m.Abs(x);
  const auto valid = m.Le(a, one);
  const V as = m.Select(m.Lt(a, one), a, m.Set(0));
  const V a2 = m.Add(as, as);
  V r = m.Mul(m.Set(0.5),
              Log1p(m, m.Add(a2, m.Div(m.Mul(a2, as), m.Sub(one, as)))));
  r = m.Select(m.Eq(a, one), m.Set(std::numeric_limits<T>::infinity()), r);
  r = m.Select(valid, m.CopySign(r, x), m.Set(InvalidNaN<T>()));
  r = m.Select(m.Eq(x, m.Set(0)), x, r);
  return KeepNaN(m, x, r);
}

// x ln b = n ln2 + (r + r_lo), b = e (kBase 0) or 2 (kBase 1), in
// double-word: returns r, sets n and r_lo.
template <int kBase, class M, typename V>
V ReduceExpDw(const M& m, V x, V& n, V& r_lo) {
  using E = ExpLogConsts<typename M::T>;
  const V shifter = m.Set(E::kShifterBare);
  if constexpr (kBase == 0) {
    n = m.Sub(m.MulAdd(x, m.Set(E::kLog2e), shifter), shifter);
    r_lo = m.Mul(n, m.Set(-E::kLn2Lo));
    return m.MulAdd(n, m.Set(-E::kLn2), x);  // Exact.
  } else {
    n = m.Sub(m.Add(x, shifter), shifter);
    const V t = m.Sub(x, n);  // Exact.
    const V r = m.Mul(t, m.Set(E::kLn2));
    r_lo = m.MulAdd(t, m.Set(E::kLn2Lo), m.MulAdd(t, m.Set(E::kLn2), m.Neg(r)));
    return r;
  }
}

// expm1(r + r_lo), |r| <= ln2 / 2 (a little beyond), in double-word
// (relative error about 2^-2p): the Taylor series, its tail rounded, its
// leading terms by double-word Horner steps. Returns the high part.
template <class M, typename V>
V Expm1Dw(const M& m, V r, V r_lo, V& lo) {
  using E = ExpLogConsts<typename M::T>;
  V p = Horner(m, r, E::kDwFactTail);
  V pl = m.Set(0);
  // (p, pl) = (p, pl) (r, r_lo) + c (Fast2Sum: |c| > |p r|); c = 1/k! for
  // k = kDwFactHi.size() + 1 .. 2, then 1.
  const auto step = [&](V ch, V cl) {
    const V th = m.Mul(p, r);
    const V tl =
        m.Add(m.MulAdd(p, r, m.Neg(th)), m.MulAdd(p, r_lo, m.Mul(pl, r)));
    const V sh = m.Add(ch, th);
    pl = m.Add(m.Add(m.Sub(ch, sh), th), m.Add(tl, cl));
    p = sh;
  };
  for (size_t i = E::kDwFactHi.size(); i-- > 0;) {
    step(m.Set(E::kDwFactHi[i]), m.Set(E::kDwFactLo[i]));
  }
  step(m.Set(1), m.Set(0));
  // Times r.
  const V h = m.Mul(p, r);
  lo = m.Add(m.MulAdd(p, r, m.Neg(h)), m.MulAdd(p, r_lo, m.Mul(pl, r)));
  return h;
}

// log_b(b^a + b^y), a < 0, y <= a, where a + log_b(1 + b^(y - a))
// cancels: log_b(1 + u), u = expm1(a ln b) + exp(y ln b) in double-word
// (both reduced by ln2: u = (2^na - 1) + 2^ny + 2^na P_a + 2^ny P_y).
template <int kBase, class M, typename V>
V LogaddexpCancel(const M& m, V a, V y) {
  using E = ExpLogConsts<typename M::T>;
  const typename M::T lo = kBase == 0 ? E::kExpLo : E::kExp2Lo;
  V na, ra_lo, pa_lo, ny, ry_lo, py_lo;
  const V ra = ReduceExpDw<kBase>(m, Clamp(m, a, lo, 0), na, ra_lo);
  const V pa = Expm1Dw(m, ra, ra_lo, pa_lo);
  const V ry = ReduceExpDw<kBase>(m, Clamp(m, y, lo, 0), ny, ry_lo);
  const V py = Expm1Dw(m, ry, ry_lo, py_lo);
  const V sa = Pow2Exact(m, na);  // na >= -3 here.
  const V half = m.Trunc(m.Mul(ny, m.Set(0.5)));
  const V s1 = Pow2Exact(m, m.Sub(ny, half)), s2 = Pow2Exact(m, half);
  V e1, e2, e3;
  V s = TwoSum(m, m.Sub(sa, m.Set(1)), m.Mul(s1, s2), e1);
  s = TwoSum(m, s, m.Mul(pa, sa), e2);
  V e = m.Add(e1, m.MulAdd(pa_lo, sa, e2));
  s = TwoSum(m, s, m.Mul(m.Mul(py, s1), s2), e3);
  e = m.Add(e, m.Add(e3, m.Mul(m.Mul(py_lo, s1), s2)));
  const V u = m.Add(s, e);
  return Log1pBase<kBase>(m, u, m.Sub(e, m.Sub(u, s)));
}

// NumPy's logaddexp (kBase 0) and logaddexp2 (kBase 1): x == y gives
// x + log_b 2 (also the infinities), NaN propagates as x - y; else
// a + log_b(1 + b^-d), a = max, d = |x - y| as d + d_lo (TwoSum) and
// b^-d's correction for d_lo passed to log1p; where a < 0 cancels with
// the log1p term (a > -2 log1p), LogaddexpCancel.
template <int kBase, class M, typename V>
V LogaddexpBase(const M& m, V x, V y) {
  using T = typename M::T;
  using E = ExpLogConsts<T>;
  const V d = m.Sub(x, y);
  const auto x_big = m.Lt(y, x);
  const V a = m.Select(x_big, x, y);
  const V b = m.Select(x_big, y, x);
  V d_lo;
  V ad = TwoSum(m, a, m.Neg(b), d_lo);
  ad = m.Select(m.IsNaN(ad), m.Set(0), ad);
  d_lo = m.Select(m.IsFinite(ad), d_lo, m.Set(0));
  const V e = kBase == 0 ? Exp(m, m.Neg(ad)) : Exp2(m, m.Neg(ad));
  const V e_lo =
      m.Mul(m.Neg(e), kBase == 0 ? d_lo : m.Mul(d_lo, m.Set(E::kLn2)));
  const V l = Log1pBase<kBase>(m, e, e_lo);
  V r = m.Add(a, l);
  const auto cancel = m.And(m.Lt(a, m.Set(0)), m.Lt(m.Neg(m.Add(l, l)), a));
  if (m.AnyLane(cancel)) {
    r = m.Select(cancel, LogaddexpCancel<kBase>(m, a, b), r);
  }
  // x + log_b 2 for x == y: ln2 as kLn2 + kLn2Lo, so that the sum stays
  // within an ulp where it cancels (x near -ln2; NumPy's x + LOGE2 is up
  // to about 16 ulp off there).
  const V same = kBase == 0 ? m.Add(m.Add(x, m.Set(E::kLn2)), m.Set(E::kLn2Lo))
                            : m.Add(x, m.Set(T(1)));
  r = m.Select(m.IsNaN(d), d, r);
  return m.Select(m.Eq(x, y), same, r);
}

template <class M, typename V>
V Logaddexp(const M& m, V x, V y) {
  return LogaddexpBase<0>(m, x, y);
}
template <class M, typename V>
V Logaddexp2(const M& m, V x, V y) {
  return LogaddexpBase<1>(m, x, y);
}
