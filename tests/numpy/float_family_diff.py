"""NumPy differential test of the float family of sk_unary (tan .. cbrt,
reciprocal, signbit) and sk_binary (arctan2 .. lcm), on random views
(permuted strides, gaps, flips, step slices, broadcasts, in place) through
the C ABI.

Transcendentals (tan, arcsin, arccos, arctan, sinh, cosh, arcsinh, arccosh,
arctanh, exp2, log2, log10, cbrt; arctan2, hypot, logaddexp, logaddexp2):
float32 and float64 at most 4 ulp from the exact result rounded to the dtype
(float32: NumPy's float64 result; float64: NumPy's long double result, and
for logaddexp and logaddexp2 a formula without cancellation in long
double), with NaN, infinities and the signs of zeros exactly as NumPy;
float16 and bfloat16 (float32 computation rounded once) within 1 ulp of the
float32 result rounded. The exact ops (reciprocal, signbit, copysign, fmod,
floor_divide, fmax, fmin, nextafter, heaviside, gcd, lcm): bit-for-bit
NumPy; bfloat16 nextafter steps bfloat16's own bits. Refused dtypes give
SK_ERR_UNSUPPORTED; integer zero divisors SK_ERR_INVALID and MIN // -1
SK_ERR_OUT_OF_RANGE, with out untouched.
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from bfloat16 import BF16, bf16_to_f32, f32_to_bf16, storage
from math_diff import ulps_apart
from numeric_diff import (DTYPES, broadcast_input, computable, kind_of,
                          random_shape, random_values, random_view,
                          same_result, stored)

UNARY_MATH = ["tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh",
              "arccosh", "arctanh", "exp2", "log2", "log10", "cbrt"]
BINARY_MATH = ["arctan2", "hypot", "logaddexp", "logaddexp2"]
UNARY_EXACT = ["reciprocal", "signbit"]
BINARY_EXACT = ["copysign", "fmod", "floor_divide", "fmax", "fmin",
                "nextafter", "heaviside", "gcd", "lcm"]
UNARY = UNARY_MATH + UNARY_EXACT
BINARY = BINARY_MATH + BINARY_EXACT
INTEGER_OK = {"reciprocal", "fmod", "floor_divide", "fmax", "fmin", "gcd",
              "lcm"}
BOOL_OK = {"fmax", "fmin"}
COMPLEX_OK = {"reciprocal"}
DIVISIONS = {"reciprocal", "fmod", "floor_divide"}

# Each transcendental's interesting range (float32, float64): inputs are
# drawn uniformly there, log-uniformly over the whole range, and special.
RANGES = {
    "tan": (8, 8), "arcsin": (1.1, 1.1), "arccos": (1.1, 1.1),
    "arctan": (50, 50), "sinh": (95, 715), "cosh": (95, 715),
    "arcsinh": (50, 50), "arccosh": (50, 50), "arctanh": (1.1, 1.1),
    "exp2": (155, 1080), "log2": (10, 10), "log10": (10, 10),
    "cbrt": (30, 30), "arctan2": (10, 10), "hypot": (10, 10),
    "logaddexp": (100, 800), "logaddexp2": (150, 1100),
}
SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 2.0,
            1e-40, 1e-310, 5e-324, 88.7, 89.5, 127.9, 128.0, -149.0, -150.0,
            709.8, 710.5, 1023.9, 1024.0, -1074.0, -1075.0, 1e30, 3e38,
            1e300]


def accepts(op, name):
    k = kind_of(name)
    if k == "float":
        return op not in ("gcd", "lcm")
    if k == "int":
        return op in INTEGER_OK
    if k == "bool":
        return op in BOOL_OK
    return op in COMPLEX_OK


def float_inputs(np_rng, op, name, n):
    """Values of dtype `name`'s computation type spanning op's domain."""
    wide = name == "float64"
    dt = np.float64 if wide else np.float32
    r = RANGES.get(op, (10, 10))[1 if wide else 0]
    v = np_rng.uniform(-r, r, n)
    log = np_rng.random(n) < 0.3
    top = 300 if wide else 37
    v[log] = (np_rng.choice([-1, 1], log.sum()) *
              10.0 ** np_rng.uniform(-top, top, log.sum()))
    picks = np_rng.random(n) < 0.1
    v[picks] = np_rng.choice(SPECIALS, picks.sum())
    near = np_rng.random(n) < 0.05  # Next to the integers (exp2, rounding).
    v[near] = np.round(v[near]) + np_rng.choice([-1e-7, 1e-7, 0], near.sum())
    with np.errstate(all="ignore"):
        v = v.astype(dt)
        if name == BF16:
            return f32_to_bf16(v)
        return v.astype(storage(name))


def exact_result(op, x, y=None):
    """The correctly rounded reference: float32 from float64 and float64
    from long double computations."""
    wide = np.float64 if x.dtype == np.float32 else np.longdouble
    x = x.astype(wide)
    if y is not None:
        y = y.astype(wide)
    with np.errstate(all="ignore"):
        if op in ("logaddexp", "logaddexp2"):
            # max + log1p(base^-|x - y|) without NumPy's cancellation.
            big = np.maximum(x, y)
            d = -np.abs(x - y)
            if op == "logaddexp":
                r = big + np.log1p(np.exp(d))
            else:
                r = big + np.log1p(np.exp2(d)) / np.log(wide(2))
            same = x == y  # Also infinities of one sign.
            r = np.where(same, x + (np.log(wide(2)) if op == "logaddexp"
                                    else wide(1)), r)
            r = np.where(np.isnan(x) | np.isnan(y), x + y, r)
            return r
        f = getattr(np, op)
        return f(x) if y is None else f(x, y)


def check_float(tally, worst, what, name, got, want, exact):
    """Transcendental results: float32/float64 within 4 ulp of `exact` and
    of NumPy's specials; halves within 1 ulp of NumPy's value."""
    if name in ("float32", "float64"):
        e = ulps_apart(got, exact)
        n = ulps_apart(got, want)
        worst[what[0]] = max(worst.get(what[0], (0, 0)), (e, n))
        # NumPy's own values may be further off (logaddexp); its NaNs,
        # infinities and zero signs must still agree.
        special = ~np.isfinite(want) | (want == 0)
        agree = same_result(name, got[special], want[special])
        tally.check(e <= 4 and agree,
                    f"{what[1]} ({e} ulp from exact, {n} from NumPy)")
    else:
        apart = ulps_apart(computable(name, got), computable(name, want))
        tally.check(apart <= 1, f"{what[1]} ({apart} ulp from NumPy)")


def bf16_nextafter(a, b):
    """bfloat16 bit steps toward b (NumPy's float16 rule on bfloat16)."""
    x, y = bf16_to_f32(a), bf16_to_f32(b)
    out = a.copy()
    for i in range(a.size):
        if np.isnan(x.flat[i]) or np.isnan(y.flat[i]):
            out.flat[i] = 0x7fc0
        elif x.flat[i] == y.flat[i]:
            pass
        elif x.flat[i] == 0:
            out.flat[i] = (int(b.flat[i]) & 0x8000) + 1
        elif (x.flat[i] < y.flat[i]) == (not int(a.flat[i]) & 0x8000):
            out.flat[i] = a.flat[i] + 1
        else:
            out.flat[i] = a.flat[i] - 1
    return out


def numpy_result(op, name, ca, cb):
    with np.errstate(all="ignore"):
        if op == "nextafter" and name == BF16:
            return bf16_nextafter(f32_to_bf16(ca), f32_to_bf16(cb))
        f = getattr(np, op)
        r = f(ca) if cb is None else f(ca, cb)
        if op == "signbit":
            return r
        return stored(name, r)


def test_elementwise(rng, tally, worst):
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    for _ in range(5000):
        name = rng.choice(DTYPES)
        unary = rng.random() < 0.45
        op = rng.choice(UNARY if unary else BINARY)
        if not accepts(op, name):
            continue
        shape = random_shape(rng)
        k = kind_of(name)
        a_base, a = broadcast_input(rng, name, shape, "special")
        second = "divisor" if k == "int" and op in DIVISIONS else "special"
        b_base, b = broadcast_input(rng, name, shape, second)
        if k == "float" and rng.random() < 0.8:
            a_base[...] = float_inputs(np_rng, op, name, a_base.size)
            b_base[...] = float_inputs(np_rng, op, name, b_base.size)
        bool_out = op == "signbit"
        out_base, out = random_view(rng, "bool" if bool_out else name, shape,
                                    "special")
        in_place = not bool_out and rng.random() < 0.15
        if in_place:
            a_base, a = out_base, out
        if k == "int" and op == "reciprocal":  # Divisors, many 1 and -1.
            a_base[...] = random_values(rng, name, a_base.size, "divisor")
            a_base[a_base == 7] = rng.choice([1, 7])
            if np.iinfo(name).min < 0:
                a_base.reshape(-1)[::3] = -1
        ca = np.broadcast_to(computable(name, a), shape).copy(order="C")
        cb = (None if unary else
              np.broadcast_to(computable(name, b), shape).copy(order="C"))
        want = numpy_result(op, name, ca, cb)
        av, ov = sk.view_of(a, a_base), sk.view_of(out, out_base)
        if bool_out:
            st = sk.predicate(op, name, av, a_base, ov, out_base)
        elif unary:
            st = sk.unary(op, name, av, a_base, ov, out_base)
        else:
            st = sk.binary(op, name, av, a_base, sk.view_of(b, b_base), b_base,
                           ov, out_base)
        got = np.array(out, copy=True)
        what = (f"{op} {name} out {shape} a {a.shape}{a.strides}"
                f" in_place {in_place}: status {st} {sk.last_error()}")
        if st != sk.SK_OK:
            tally.check(False, what)
        elif op in UNARY_MATH or op in BINARY_MATH:
            exact = None
            if name in ("float32", "float64"):
                exact = exact_result(op, ca, cb).astype(name)
            check_float(tally, worst, ((op, name), what), name,
                        got.reshape(-1), want.reshape(-1),
                        None if exact is None else exact.reshape(-1))
        else:
            tally.check(same_result("bool" if bool_out else name, got, want),
                        what)


def test_special_values(tally, worst):
    """Every pair of specials, float32 and float64."""
    for name in ("float32", "float64"):
        with np.errstate(all="ignore"):
            s = np.array(SPECIALS + [-x for x in SPECIALS], np.float64)
            s = s.astype(name)
        a = np.repeat(s, s.size)
        b = np.tile(s, s.size)
        for op in UNARY_MATH + BINARY_MATH:
            unary = op in UNARY_MATH
            x = s if unary else a
            out = np.empty_like(x)
            v = sk.view_of(x, x)
            if unary:
                st = sk.unary(op, name, v, x, sk.view_of(out, out), out)
            else:
                st = sk.binary(op, name, v, a, sk.view_of(b, b), b,
                               sk.view_of(out, out), out)
            want = numpy_result(op, name, x, None if unary else b)
            exact = exact_result(op, x, None if unary else b).astype(name)
            what = (f"{op} {name} specials: status {st}",
                    f"{op} {name} of specials")
            if st != sk.SK_OK:
                tally.check(False, what[0])
                continue
            check_float(tally, worst, ((op, name + " specials"), what[1]),
                        name, out, want, exact)


def test_logaddexp_cancellation(tally, worst):
    """Where NumPy 1.24's formula cancels (x close to y), stridekit stays
    within the bound."""
    rng = np.random.default_rng(5)
    for name in ("float32", "float64"):
        x = rng.uniform(-3, 3, 20000).astype(name)
        y = (x + rng.uniform(-1e-3, 1e-3, x.size)).astype(name)
        for op in ("logaddexp", "logaddexp2"):
            out = np.empty_like(x)
            st = sk.binary(op, name, sk.view_of(x, x), x, sk.view_of(y, y), y,
                           sk.view_of(out, out), out)
            e = ulps_apart(out, exact_result(op, x, y).astype(name))
            worst[(op, name + " near")] = (e, 0)
            tally.check(st == sk.SK_OK and e <= 4,
                        f"{op} {name} near x == y: {e} ulp")


def test_refused(tally):
    """NumPy has no same-dtype loop: SK_ERR_UNSUPPORTED naming the op."""
    for name in DTYPES:
        a = random_values(random.Random(2), name, 3, "divisor")
        out = a.copy()
        v = sk.view_of(a, a)
        for op in UNARY + BINARY:
            if accepts(op, name):
                continue
            if op == "signbit":
                bools = np.zeros(3, bool)
                st = sk.predicate(op, name, v, a, sk.view_of(bools, bools),
                                  bools)
            elif op in UNARY:
                st = sk.unary(op, name, v, a, v, out)
            else:
                st = sk.binary(op, name, v, a, v, a, v, out)
            err = sk.last_error()
            tally.check(st == sk.SK_ERR_UNSUPPORTED and op in err and
                        np.array_equal(out.view(np.uint8), a.view(np.uint8)),
                        f"{op} {name}: status {st} {err}")


def test_integer_errors(tally):
    """Zero divisors and MIN // -1: an error naming the op, out untouched."""
    for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint64"):
        info = np.iinfo(dtype)
        a = np.array([5, info.min, 7], dtype)
        cases = [("fmod", 0, sk.SK_ERR_INVALID),
                 ("floor_divide", 0, sk.SK_ERR_INVALID)]
        if info.min < 0:
            cases += [("floor_divide", -1, sk.SK_ERR_OUT_OF_RANGE),
                      ("fmod", -1, sk.SK_OK)]
        for op, divisor, status in cases:
            b = np.array([1, divisor, 1], dtype)
            out = np.full(3, 9, dtype)
            v = sk.view_of(a, a)
            st = sk.binary(op, dtype, v, a, v, b, v, out)
            err = sk.last_error()
            if status == sk.SK_OK:
                ok = st == sk.SK_OK and np.array_equal(out, [0, 0, 0])
            else:
                ok = st == status and np.all(out == 9) and op in err
            tally.check(ok, f"{dtype} {op} by {divisor}: status {st} {err}")
        z = np.array([3, 0, 1], dtype)
        out = np.full(3, 9, dtype)
        v = sk.view_of(z, z)
        st = sk.unary("reciprocal", dtype, v, z, v, out)
        err = sk.last_error()
        tally.check(st == sk.SK_ERR_INVALID and np.all(out == 9) and
                    "reciprocal" in err,
                    f"{dtype} reciprocal of 0: status {st} {err}")


def test_integer_extremes(tally):
    """gcd and lcm at the limits: |MIN| wraps as NumPy's."""
    for dtype in ("int8", "int16", "int32", "int64", "uint8", "uint32"):
        info = np.iinfo(dtype)
        vals = np.array([info.min, info.max, 0, 1, -1 if info.min else 2, 6,
                         100, info.min // 2 or 3], dtype)
        a = np.repeat(vals, vals.size)
        b = np.tile(vals, vals.size)
        for op in ("gcd", "lcm", "fmax", "fmin", "fmod"):
            if op == "fmod":
                keep = b != 0
                x, y = a[keep], b[keep]
            else:
                x, y = a, b
            out = np.empty_like(x)
            st = sk.binary(op, dtype, sk.view_of(x, x), x, sk.view_of(y, y),
                           y, sk.view_of(out, out), out)
            with np.errstate(all="ignore"):
                if op == "fmod":  # C's MIN % -1 is undefined; ours is 0.
                    want = np.where(y == -1 if info.min else False, 0,
                                    np.fmod(x, np.where(y == -1, 1, y)))
                    want = want.astype(dtype)
                else:
                    want = getattr(np, op)(x, y)
            tally.check(st == sk.SK_OK and np.array_equal(out, want),
                        f"{op} {dtype} extremes: {out} vs {want}")


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    rng = random.Random(seed)
    tally = sk.Tally(f"float_family_diff (seed {seed})")
    worst = {}
    test_elementwise(rng, tally, worst)
    test_special_values(tally, worst)
    test_logaddexp_cancellation(tally, worst)
    test_refused(tally)
    test_integer_errors(tally)
    test_integer_extremes(tally)
    for (op, name), (exact, numpy) in sorted(worst.items()):
        print(f"  {op:10} {name:18} max {exact} ulp from exact,"
              f" {numpy} from NumPy")
    tally.finish()


if __name__ == "__main__":
    main()
