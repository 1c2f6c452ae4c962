"""NumPy differential test of the math ops of sk_unary: exp, log, expm1,
log1p, sin, cos, tanh (float dtypes), floor, ceil, rint, trunc and sign
(every non-bool, non-complex dtype), on random views (permuted strides,
gaps, flips, step slices, broadcasts, in place) through the C ABI.

Transcendentals: float32 and float64 at most 4 ulp from NumPy (whose
float32 exp/log are SVML-like vector code on AVX-512 machines) and at most
4 ulp from the long double result rounded to the dtype; float16 and
bfloat16 (float32 computation rounded once) within 1 ulp of NumPy's (or
the float32 computation's) value; NaN, infinities and the signs of zeros
exactly as NumPy. Rounding ops and sign: bit-for-bit NumPy (integers keep
their dtype: NumPy's float64 results of floor/ceil/rint/trunc hold the same
values). Refused dtypes are SK_ERR_UNSUPPORTED.
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from bfloat16 import BF16, f32_to_bf16, storage
from numeric_diff import (DTYPES, broadcast_input, computable, kind_of,
                          random_shape, random_values, random_view,
                          same_result, stored)

TRANSCENDENTAL = ["exp", "log", "expm1", "log1p", "sin", "cos", "tanh"]
ROUNDING = ["floor", "ceil", "rint", "trunc"]
OPS = TRANSCENDENTAL + ROUNDING + ["sign"]
FLOATS = ["float16", BF16, "float32", "float64"]


def accepts(op, name):
    k = kind_of(name)
    if k == "float":
        return True
    return k == "int" and op not in TRANSCENDENTAL


def special_inputs(rng, name, n):
    """Values that exercise each op: wide magnitudes, thresholds, specials."""
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    dt = np.float32 if name in ("float16", BF16) else np.dtype(name)
    v = np_rng.standard_normal(n) * np_rng.choice([1e-30, 1e-3, 1, 10, 100,
                                                   700, 1e5, 1e22], n)
    picks = np_rng.random(n) < 0.1
    v[picks] = np_rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0, 88.72,
                              -87.33, 709.78, -745.1, 1e-310, 5e-324, -1.0,
                              0.5, 1.5, 2.5, -0.5],
                             picks.sum())
    with np.errstate(all="ignore"):
        v = v.astype(dt)
        return f32_to_bf16(v) if name == BF16 else v.astype(storage(name))


def ordered(x):
    """Float bits mapped to integers monotonic in the value."""
    x = np.ascontiguousarray(x)
    it = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    i = x.view(it).astype(np.int64)
    top = np.int64(np.iinfo(it).min)
    return np.where(i < 0, top - i, i)


def ulps_apart(out, want):
    """Max ulp distance; NaN must meet NaN and zeros keep their sign."""
    out, want = out.reshape(-1), want.reshape(-1)
    nan = np.isnan(want)
    if not np.array_equal(np.isnan(out), nan):
        return float("inf")
    zero = want == 0
    if not np.array_equal(np.signbit(out[zero]), np.signbit(want[zero])):
        return float("inf")
    if not nan.all():
        return int(np.max(np.abs(ordered(out[~nan]) - ordered(want[~nan]))))
    return 0


def test_elementwise(rng, tally, worst):
    for _ in range(4000):
        name = rng.choice(DTYPES)
        op = rng.choice(OPS)
        if not accepts(op, name):
            continue
        shape = random_shape(rng)
        a_base, a = broadcast_input(rng, name, shape, "special")
        if kind_of(name) == "float" and rng.random() < 0.7:
            # Replace the values (not the layout) by wider-ranging ones.
            a_base[...] = special_inputs(rng, name, a_base.size)
        out_base, out = random_view(rng, name, shape, "special")
        in_place = rng.random() < 0.15
        if in_place:
            a_base, a = out_base, out
        ca = np.broadcast_to(computable(name, a), shape).copy(order="C")
        with np.errstate(all="ignore"):
            if kind_of(name) == "int" and op in ROUNDING:
                want = ca.copy()  # NumPy: float64 of the same values.
            else:
                want = stored(name, getattr(np, op)(ca))
            exact = None
            if op in TRANSCENDENTAL and name in ("float32", "float64"):
                exact = getattr(np, op)(ca.astype(np.longdouble)).astype(name)
        st = sk.unary(op, name, sk.view_of(a, a_base), a_base,
                      sk.view_of(out, out_base), out_base)
        got = np.array(out, copy=True)
        what = (f"{op} {name} out {shape} a {a.shape}{a.strides}"
                f" in_place {in_place}: status {st} {sk.last_error()}")
        if op not in TRANSCENDENTAL:
            tally.check(st == sk.SK_OK and same_result(name, got, want), what)
            continue
        if name in ("float32", "float64"):
            vs_numpy = ulps_apart(got, want)
            vs_exact = ulps_apart(got, exact)
            key = (op, name)
            worst[key] = max(worst.get(key, (0, 0)),
                             (vs_exact, vs_numpy))
            tally.check(st == sk.SK_OK and vs_numpy <= 4 and vs_exact <= 4,
                        f"{what} ({vs_numpy} ulp from NumPy, {vs_exact} from"
                        f" long double)")
        else:
            apart = ulps_apart(computable(name, got), computable(name, want))
            worst[(op, name)] = max(worst.get((op, name), (0, 0)), (0, apart))
            tally.check(st == sk.SK_OK and apart <= 1,
                        f"{what} ({apart} ulp from NumPy)")


def test_refused(tally):
    """Integers, bool and complex for the transcendentals; bool and complex
    for the rounding ops and sign (NumPy has no same-dtype loop)."""
    for name in DTYPES:
        a = random_values(random.Random(2), name, 3, "special")
        out = a.copy()
        v = sk.view_of(a, a)
        for op in OPS:
            if accepts(op, name):
                continue
            st = sk.unary(op, name, v, a, v, out)
            err = sk.last_error()
            tally.check(st == sk.SK_ERR_UNSUPPORTED and op in err,
                        f"{op} {name}: status {st} {err}")


def test_special_values(tally):
    """NumPy's exact results at the edges, float32 and float64."""
    for name in ("float32", "float64"):
        x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5,
                      -0.5, 2.5, 1e-310, 1e22, -1e22, 88.72, 89.0, 709.78,
                      710.0, -745.1, -746.0, 3.0e38], dtype=np.float64)
        with np.errstate(all="ignore"):
            x = x.astype(name)
            for op in OPS:
                want = getattr(np, op)(x)
                out = np.empty_like(x)
                v = sk.view_of(x, x)
                st = sk.unary(op, name, v, x, sk.view_of(out, out), out)
                if op in TRANSCENDENTAL:
                    ok = ulps_apart(out, want) <= 4
                else:
                    ok = same_result(name, out, want)
                tally.check(st == sk.SK_OK and ok,
                            f"{op} {name} of {x}: {out} vs NumPy {want}")


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    rng = random.Random(seed)
    tally = sk.Tally(f"math_diff (seed {seed})")
    worst = {}
    test_elementwise(rng, tally, worst)
    test_refused(tally)
    test_special_values(tally)
    for (op, name), (exact, numpy) in sorted(worst.items()):
        print(f"  {op:6} {name:9} max {exact} ulp from long double,"
              f" {numpy} from NumPy")
    tally.finish()


if __name__ == "__main__":
    main()
