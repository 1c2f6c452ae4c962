"""NumPy differential test of sk_compare, the predicates of sk_unary
(isnan, isinf, isfinite) and sk_where, for every dtype.

Random broadcast combinations of random views (permuted strides, gaps,
flips, step slices, stride-0 broadcast views; outputs with random layouts,
sometimes masked; inputs sometimes masked, reading zero outside the mask;
where sometimes in place) go through the C ABI and are compared with
np.equal / not_equal / less / less_equal / greater / greater_equal, np.isnan
/ isinf / isfinite and np.where, exactly. bfloat16 (no NumPy dtype)
compares its exact float32 values. Complex ordered comparisons, which NumPy
1.24 answers lexicographically, must be SK_ERR_UNSUPPORTED.
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from bfloat16 import BF16, storage
from numeric_diff import (DTYPES, broadcast_input, computable, kind_of,
                          random_shape, random_values, random_view)

COMPARE = ["equal", "not_equal", "less", "less_equal", "greater",
           "greater_equal"]
PREDICATES = ["isnan", "isinf", "isfinite"]


def random_mask(rng, shape):
    return [(b, e) if b <= e else (e, b) for b, e in
            ((rng.randint(0, n) if rng.random() < 0.5 else 0,
              rng.randint(0, n) if rng.random() < 0.5 else n) for n in shape)]


def mask_grid(shape, mask):
    """Boolean array of `shape`: True inside the mask's box."""
    grid = np.ones(shape, dtype=bool)
    for d, (b, e) in enumerate(mask):
        index = [slice(None)] * len(shape)
        index[d] = slice(0, b)
        grid[tuple(index)] = False
        index[d] = slice(e, None)
        grid[tuple(index)] = False
    return grid


def masked_input(rng, arr, base):
    """The view of arr, sometimes masked, and the values a kernel reads
    (zero outside the mask)."""
    view = sk.view_of(arr, base)
    if rng.random() < 0.15 and arr.ndim:
        mask = random_mask(rng, arr.shape)
        view = sk.make_view(arr.shape, list(view.strides)[:arr.ndim],
                            view.offset, mask)
        arr = np.where(mask_grid(arr.shape, mask), arr,
                       np.zeros((), arr.dtype))
    return view, arr


def masked_output(rng, out, base):
    """The view of out, sometimes masked, and the positions written."""
    view = sk.view_of(out, base)
    if rng.random() < 0.15 and out.ndim:
        mask = random_mask(rng, out.shape)
        view = sk.make_view(out.shape, list(view.strides)[:out.ndim],
                            view.offset, mask)
        return view, mask_grid(out.shape, mask)
    return view, np.ones(out.shape, dtype=bool)


def reuse_values(rng, a_base, b_base):
    """Often makes b's values a's, so that equal pairs are common."""
    if rng.random() < 0.4 and a_base.size:
        np_rng = np.random.default_rng(rng.randrange(1 << 30))
        b_base[:] = np_rng.choice(a_base, b_base.size)


def as_bytes(arr):
    arr = np.ascontiguousarray(arr)
    return arr.view(np.uint8) if arr.ndim else arr.reshape(1).view(np.uint8)


def test_compare(rng, tally):
    for _ in range(3000):
        name = rng.choice(DTYPES)
        op = rng.choice(COMPARE)
        shape = random_shape(rng)
        a_base, a = broadcast_input(rng, name, shape, "special")
        b_base, b = broadcast_input(rng, name, shape, "special")
        reuse_values(rng, a_base, b_base)
        out_base, out = random_view(rng, "bool", shape, "special")
        before = out.copy()
        av, a_read = masked_input(rng, a, a_base)
        ov, written = masked_output(rng, out, out_base)
        st = sk.compare(op, name, av, a_base, sk.view_of(b, b_base), b_base,
                        ov, out_base)
        what = (f"{op} {name} out {shape} a {a.shape}{a.strides} b "
                f"{b.shape}{b.strides}: status {st} {sk.last_error()}")
        if kind_of(name) == "complex" and op not in ("equal", "not_equal"):
            tally.check(st == sk.SK_ERR_UNSUPPORTED and
                        np.array_equal(out, before), what)
            continue
        with np.errstate(all="ignore"):
            want = getattr(np, op)(computable(name, a_read),
                                   computable(name, b))
        want = np.where(written, np.broadcast_to(want, shape), before)
        tally.check(st == sk.SK_OK and np.array_equal(out, want), what)


def test_predicates(rng, tally):
    for _ in range(1500):
        name = rng.choice(DTYPES)
        op = rng.choice(PREDICATES)
        shape = random_shape(rng)
        a_base, a = broadcast_input(rng, name, shape, "special")
        out_base, out = random_view(rng, "bool", shape, "special")
        before = out.copy()
        av, a_read = masked_input(rng, a, a_base)
        ov, written = masked_output(rng, out, out_base)
        st = sk.predicate(op, name, av, a_base, ov, out_base)
        if kind_of(name) in ("int", "bool"):
            # NumPy's isnan/isinf/isfinite of integers and bool.
            want = getattr(np, op)(a_read.astype(np.float64))
        else:
            want = getattr(np, op)(computable(name, a_read))
        want = np.where(written, np.broadcast_to(want, shape), before)
        tally.check(st == sk.SK_OK and np.array_equal(out, want),
                    f"{op} {name} out {shape} a {a.shape}{a.strides}: "
                    f"status {st} {sk.last_error()}")


def test_where(rng, tally):
    for _ in range(2000):
        name = rng.choice(DTYPES)
        shape = random_shape(rng)
        c_base, cond = broadcast_input(rng, "bool", shape, "special")
        # Any non-zero byte is true.
        c_bytes = c_base.view(np.uint8)
        c_bytes[c_bytes == 1] = np.uint8(rng.choice((1, 2, 128, 255)))
        a_base, a = broadcast_input(rng, name, shape, "special")
        b_base, b = broadcast_input(rng, name, shape, "special")
        out_base, out = random_view(rng, name, shape, "special")
        before = out.copy()
        in_place = rng.random() < 0.15
        if in_place:
            a_base, a = out_base, out
        a_now = a.copy()
        cv, c_read = masked_input(rng, cond, c_base)
        ov, written = masked_output(rng, out, out_base)
        st = sk.where(name, cv, c_base, sk.view_of(a, a_base), a_base,
                      sk.view_of(b, b_base), b_base, ov, out_base)
        truth = np.asarray(c_read).view(np.uint8) != 0
        want = np.where(np.broadcast_to(truth, shape), a_now, b)
        want = np.where(written, want, before)
        tally.check(st == sk.SK_OK and
                    np.array_equal(as_bytes(out), as_bytes(want)),
                    f"where {name} out {shape} cond {cond.shape}"
                    f"{cond.strides} a {a.shape}{a.strides} in_place "
                    f"{in_place}: status {st} {sk.last_error()}")


def test_refused(tally):
    """Bad ops and dtypes, non-bool sizes and shape mismatches."""
    a = np.arange(4, dtype=np.float32)
    out = np.zeros(4, dtype=bool)
    v = sk.view_of(a, a)
    ov = sk.view_of(out, out)
    tally.check(sk.compare(6, "float32", v, a, v, a, ov, out)
                == sk.SK_ERR_INVALID, "compare op 6")
    tally.check(sk.compare(-1, "float32", v, a, v, a, ov, out)
                == sk.SK_ERR_INVALID, "compare op -1")
    short = sk.make_view([3], [1], 0)
    tally.check(sk.compare("less", "float32", short, a, v, a, ov, out)
                == sk.SK_ERR_INVALID, "compare shape mismatch")
    tally.check(sk.where("float32", ov, out, v, a, short, a, v, a)
                == sk.SK_ERR_INVALID, "where shape mismatch")
    c = np.zeros(4, dtype=np.complex64)
    cv = sk.view_of(c, c)
    for op in ("less", "less_equal", "greater", "greater_equal"):
        tally.check(sk.compare(op, "complex64", cv, c, cv, c, ov, out)
                    == sk.SK_ERR_UNSUPPORTED, f"complex {op}")


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 17
    rng = random.Random(seed)
    tally = sk.Tally(f"compare_diff (seed {seed})")
    test_compare(rng, tally)
    test_predicates(rng, tally)
    test_where(rng, tally)
    test_refused(tally)
    tally.finish()


if __name__ == "__main__":
    main()
