#!/usr/bin/env python3
"""Generates lib/math_log_table-inl.h: float64 log's reduction table and
polynomials (the generator only; the header is committed).

    /usr/bin/python3 lib/math_log_table.py [rows [degree]] |
      clang-format --assume-filename=lib/math_log_table-inl.h \
      > lib/math_log_table-inl.h

x = 2^k z, z in [kOff, 2 kOff) (kOff = 0x1.68p-1 for 16 rows: bits(z) =
kOffBits plus 52 bits), split into kRows (16: a vector permute's table)
subintervals by the top 4 bits of the mantissa field of bits(x) - kOffBits
(the subinterval holding 1 has 1 at its centre: its row has invc = 1 and
log c = 0, so that log(1) = 0 exactly and the reduction is the identity
near 1). Per row, invc ~ 1/c with few significant bits, picked among the
multiples of 2^-b (b = 4..16) that are near 1/centre so that r = z invc -
1 is exact (one multiply-add) for every z of the row, the one with the
smallest max |r| over the row; then -log_b(invc) for b = e, 2, 10 as
hi + lo, hi a multiple of 2^-42 (k C_hi + hi is then exact: C_hi a
multiple of 2^-42 too, |k C_hi + hi| < 2^11) and lo = (-log_b(invc) -
hi) rounded. The polynomial: log1p(r) - r = r^2 (-1/2 + r Q(r)), Q fitted
(Chebyshev interpolation with mpmath, close to minimax) to (log1p(r) - r
+ r^2/2) / r^3 over the rows' range of r, its coefficients rounded to
double; for b = 2, 10 the coefficients of r^2 (-1/2 + r Q(r)) times
log_b(e), rounded once. Prints the maximum errors of the polynomial.
"""
from fractions import Fraction

import mpmath as mp

mp.mp.prec = 300

import sys

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 16
Q_DEGREE = int(sys.argv[2]) if len(sys.argv) > 2 else 7
ROW_SHIFT = 52 - (ROWS.bit_length() - 1)
# kOff's bits: 1 at the centre of a row, z from about 0.7 on.
OFF_BITS = 0x3FE6000000000000 + (1 << (ROW_SHIFT - 1))
BASES = [("e", mp.mpf(1)), ("2", 1 / mp.log(2)), ("10", 1 / mp.log(10))]


def bits_to_fraction(b):
    """The double whose bits are b (positive normal), exactly."""
    e = (b >> 52) & 0x7FF
    m = (b & ((1 << 52) - 1)) | (1 << 52)
    return Fraction(m) * Fraction(2) ** (e - 1075)


def to_double(q):
    """Fraction or mpf q rounded to the nearest double (as a Fraction)."""
    return Fraction(float(mp.mpf(q.numerator) / q.denominator)
                    if isinstance(q, Fraction) else float(q))


def hexd(q):
    return float(q).hex()


def round_to(q, step):
    """mpf q rounded to the nearest multiple of Fraction step."""
    n = int(mp.nint(q / (mp.mpf(step.numerator) / step.denominator)))
    return Fraction(n) * step


def rows():
    out = []
    for i in range(ROWS):
        lo_bits = OFF_BITS + (i << ROW_SHIFT)
        hi_bits = OFF_BITS + ((i + 1) << ROW_SHIFT)  # exclusive
        a = bits_to_fraction(lo_bits)
        b = bits_to_fraction(hi_bits - 1)  # largest z of the row
        if a <= 1 <= b:
            assert bits_to_fraction(OFF_BITS + (i << ROW_SHIFT) +
                                    (1 << (ROW_SHIFT - 1))) == 1
            out.append((Fraction(1), a, b))
            continue
        # ulp of the row's z (the row lies in one binade).
        ulp = Fraction(2) ** (-53 if b < 1 else -52)
        centre = (a + bits_to_fraction(hi_bits)) / 2
        best = None
        for p in range(4, 17):
            step = Fraction(1, 2 ** p)
            n0 = round(Fraction(1) / centre / step)
            for n in range(n0 - 2, n0 + 3):
                invc = n * step
                rmax = max(abs(a * invc - 1), abs(b * invc - 1))
                # r is a multiple of ulp * 2^-p: exact below 2^53 of them.
                if rmax >= ulp * step * 2 ** 53:
                    continue
                if best is None or rmax < best[0]:
                    best = (rmax, invc)
        out.append((best[1], a, b))
    return out


def main():
    table = rows()
    rmin = min(a * invc - 1 for invc, a, b in table)
    rmax = max(b * invc - 1 for invc, a, b in table)
    lo, hi = mp.mpf(float(rmin)), mp.mpf(float(rmax))

    def h(r):
        if abs(r) < mp.mpf(2) ** -60:
            return mp.mpf(1) / 3 - r / 4 + r * r / 5
        return (mp.log1p(r) - r + r * r / 2) / r ** 3

    q, _ = mp.chebyfit(h, [lo, hi], Q_DEGREE + 1, error=True)
    q = [to_double(mp.mpf(c)) for c in reversed(q)]  # lowest order first
    # Coefficients of log1p(r) - r = r^2 (c[0] + c[1] r + ...).
    poly = [Fraction(-1, 2)] + q
    polys = [[to_double(mp.mpf(c.numerator) / c.denominator * d)
              for c in poly] for _, d in BASES]
    # Maximum error of r^2 P(r) against log_b(1 + r) - r log_b(e), relative
    # to |r log_b(e)| (the result's size near 1, the worst case).
    errors = []
    for (name, d), coefs in zip(BASES, polys):
        worst = mp.mpf(0)
        for j in range(5001):
            r = lo + (hi - lo) * j / 5000
            if r == 0:
                continue
            p = sum(mp.mpf(c.numerator) / c.denominator * r ** (n + 2)
                    for n, c in enumerate(coefs))
            want = (mp.log1p(r) - r) * d
            worst = max(worst, abs((p - want) / (r * d)))
        errors.append((name, worst))

    step42 = Fraction(1, 2 ** 42)
    invcs, his, los = [], [[] for _ in BASES], [[] for _ in BASES]
    for invc, a, b in table:
        invcs.append(invc)
        for n, (_, d) in enumerate(BASES):
            exact = -mp.log(mp.mpf(invc.numerator) / invc.denominator) * d
            h_ = round_to(exact, step42)
            his[n].append(h_)
            los[n].append(
                to_double(exact - mp.mpf(h_.numerator) / h_.denominator))
        # LogTableOf's Fast2Sum w + r D with k = 0 (w = hi): |hi| > |r|
        # (with a margin for the roundings of hi and r D) or hi = 0.
        rbig = max(abs(a * invc - 1), abs(b * invc - 1))
        assert his[0][-1] == 0 or abs(his[0][-1]) >= rbig * (1 + 2 ** -30)

    def array(name, values):
        print("  alignas(64) static constexpr double %s[%d] = {" %
              (name, len(values)))
        print("      " + ", ".join(hexd(v) for v in values) + "};")

    def arrays(name, rows):
        print("  alignas(64) static constexpr double %s[%d][%d] = {" %
              (name, len(rows), len(rows[0])))
        for values in rows:
            print("      {" + ", ".join(hexd(v) for v in values) + "},")
        print("  };")

    print("// Generated by lib/math_log_table.py (mpmath, 300 bits): do not")
    print("// edit. float64 log's reduction table and polynomials; part of")
    print("// math_exp_log-inl.h's body (no include guard, no namespace).")
    print("// %d rows; r = z invc - 1 in [%s, %s];" %
          (ROWS, hexd(rmin), hexd(rmax)))
    print("// the polynomials' relative error (to r log_b(e), sampled):")
    print("// " + ", ".join("%s 2^%.1f" % (n, float(mp.log(e, 2)))
                           for n, e in errors) + ".")
    print("struct LogTable {")
    print("  static constexpr int kRows = %d;" % ROWS)
    print("  static constexpr int kRowShift = %d;" % ROW_SHIFT)
    print("  static constexpr int64_t kOffBits = 0x%x;" % OFF_BITS)
    print("  // Per row: invc, and -log_b(invc) = kHi + kLo for b = e, 2, 10")
    print("  // (kHi a multiple of 2^-42).")
    array("kInvc", invcs)
    arrays("kHi", his)
    arrays("kLo", los)
    print("  // log_b(1 + r) - r log_b(e) = r^2 (c[0] + c[1] r + ...), b = e,")
    print("  // 2, 10.")
    print("  static constexpr std::array<double, %d> kPoly[3] = {" %
          len(poly))
    for coefs in polys:
        print("      {" + ", ".join(hexd(c) for c in coefs) + "},")
    print("  };")
    print("};")


if __name__ == "__main__":
    main()
