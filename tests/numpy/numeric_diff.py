"""NumPy differential test of sk_binary, sk_unary and sk_reduce.

Random broadcast combinations of random views (permuted strides, gaps,
flips, step slices, stride-0 broadcast views; outputs with random layouts,
sometimes in place) are computed through the C ABI and compared with
np.add / subtract / multiply / divide (np.floor_divide for integers) /
minimum / maximum / remainder / negative / absolute / sqrt / square, and with np.sum /
prod / min / max over axis tuples with and without keepdims.

Elementwise results must match NumPy exactly (NaN matching NaN, signs of
zeros included); integer reductions exactly; float min/max exactly up to the
sign of zero; float sums and products within a relative bound (stridekit
sums pairwise in a different order than NumPy).
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk

DTYPES = [np.float32, np.float64, np.int32, np.int64]
BINARY = ["add", "subtract", "multiply", "divide", "minimum", "maximum",
          "remainder"]
UNARY = ["negative", "absolute", "sqrt", "square"]
REDUCE = ["sum", "prod", "min", "max"]


def random_values(rng, dtype, n, kind):
    """n values of dtype: 'special' mixes in NaN, inf, -0.0 and integer
    extremes; 'divisor' avoids 0 and -1; 'sum' and 'prod' stay moderate."""
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        v = np_rng.integers(-1000, 1000, n).astype(dtype)
        if kind == "divisor":
            v[(v == 0) | (v == -1)] = 7
        elif kind == "special":
            picks = np_rng.random(n) < 0.1
            v[picks] = np_rng.choice([info.min, info.max, -1, 0, 1], picks.sum())
        return v
    if kind == "prod":
        return np_rng.uniform(0.5, 2.0, n).astype(dtype)
    v = (np_rng.standard_normal(n) * 10).astype(dtype)
    if kind == "special":
        picks = np_rng.random(n) < 0.1
        v[picks] = np_rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0],
                                 picks.sum())
    return v


def random_view(rng, dtype, shape, kind):
    """A view of exactly `shape` over a fresh random buffer: permuted
    strides with gaps, some axes flipped, sometimes a step-2 slice."""
    rank = len(shape)
    step_axis = rng.randrange(rank) if rank and rng.random() < 0.2 else None
    full = [n * (2 if d == step_axis else 1) for d, n in enumerate(shape)]
    order = list(range(rank))
    rng.shuffle(order)
    stride, strides = 1, [0] * rank
    for d in reversed(order):
        strides[d] = stride
        stride *= max(1, full[d]) * rng.choice((1, 1, 2))
    base = random_values(rng, dtype, stride + 8, kind)
    start = rng.randint(0, 7)
    arr = np.lib.stride_tricks.as_strided(
        base[start:], shape=full, strides=[s * base.itemsize for s in strides])
    if step_axis is not None:
        index = [slice(None)] * rank
        index[step_axis] = slice(None, None, 2)
        arr = arr[tuple(index)]
    for d in range(rank):
        if rng.random() < 0.25:
            arr = np.flip(arr, d)
    return base, arr


def broadcast_input(rng, dtype, shape, kind):
    """An input that broadcasts to `shape`: size-1 axes, dropped leading
    axes, or a stride-0 np.broadcast_to view."""
    if rng.random() < 0.15 and shape:
        row = shape[1:] if len(shape) > 1 else shape
        base, arr = random_view(rng, dtype, row, kind)
        return base, np.broadcast_to(arr, shape)
    drop = rng.randint(0, len(shape)) if rng.random() < 0.3 else 0
    small = [1 if rng.random() < 0.3 else n for n in shape[drop:]]
    return random_view(rng, dtype, small, kind)


def random_shape(rng, max_rank=4):
    return [rng.choice((1, 2, 3, 5, 8, 17, 33)) for _ in range(rng.randint(0, max_rank))]


def same_result(out, want):
    if out.shape != want.shape:
        return False
    if not np.issubdtype(out.dtype, np.floating):
        return np.array_equal(out, want)
    real = ~np.isnan(want)
    return (np.array_equal(np.isnan(out), ~real)
            and np.array_equal(out[real], want[real])
            and np.array_equal(np.signbit(out[real]), np.signbit(want[real])))


def test_elementwise(rng, tally):
    for _ in range(1500):
        dtype = rng.choice(DTYPES)
        shape = random_shape(rng)
        unary = rng.random() < 0.35
        op = rng.choice(UNARY if unary else BINARY)
        if op == "sqrt" and np.issubdtype(dtype, np.integer):
            op = "square"
        integer_div = (op in ("divide", "remainder")
                       and np.issubdtype(dtype, np.integer))
        a_base, a = broadcast_input(rng, dtype, shape, "special")
        b_base, b = broadcast_input(rng, dtype, shape,
                                    "divisor" if integer_div else "special")
        out_base, out = random_view(rng, dtype, shape, "special")
        in_place = rng.random() < 0.15
        if in_place:
            a_base, a = out_base, out
        ufunc = getattr(np, "floor_divide" if integer_div and op == "divide"
                        else op)
        with np.errstate(all="ignore"):
            want = np.broadcast_to(ufunc(a) if unary else ufunc(a, b), shape)
        av = sk.view_of(a, a_base)
        ov = sk.view_of(out, out_base)
        if unary:
            st = sk.unary(op, np.dtype(dtype), av, a_base, ov, out_base)
        else:
            st = sk.binary(op, np.dtype(dtype), av, a_base,
                           sk.view_of(b, b_base), b_base, ov, out_base)
        tally.check(st == sk.SK_OK and same_result(out, want),
                    f"{op} {np.dtype(dtype)} out {shape} a {a.shape}{a.strides}"
                    f" in_place {in_place}: status {st} {sk.last_error()}")


def test_integer_division_errors(rng, tally):
    for dtype in (np.int32, np.int64):
        info = np.iinfo(dtype)
        a = np.array([5, info.min, 7], dtype)
        out = np.full(3, 9, dtype)
        for divisor, status in ((0, sk.SK_ERR_INVALID), (-1, sk.SK_ERR_OUT_OF_RANGE)):
            b = np.array([1, divisor, 1], dtype)
            v = sk.view_of(a, a)
            st = sk.binary("divide", np.dtype(dtype), v, a, v, b, v, out)
            tally.check(st == status and np.all(out == 9),
                        f"{np.dtype(dtype)} division by {divisor}: status {st}")
        # Remainder: a zero divisor is an error; MIN % -1 is 0 as in NumPy.
        for divisor, status in ((0, sk.SK_ERR_INVALID), (-1, sk.SK_OK)):
            b = np.array([1, divisor, 1], dtype)
            out[:] = 9
            v = sk.view_of(a, a)
            st = sk.binary("remainder", np.dtype(dtype), v, a, v, b, v, out)
            want = np.full(3, 9, dtype) if status else np.remainder(a, b)
            tally.check(st == status and np.array_equal(out, want),
                        f"{np.dtype(dtype)} remainder by {divisor}: status {st}")


def test_reduce(rng, tally):
    for _ in range(1200):
        dtype = rng.choice(DTYPES)
        op = rng.choice(REDUCE)
        shape = random_shape(rng, 4)
        if rng.random() < 0.05 and shape:
            shape[rng.randrange(len(shape))] = 0
        kind = {"sum": "sum", "prod": "prod"}.get(op, "special")
        if np.issubdtype(dtype, np.integer):
            kind = "special"
        base, arr = random_view(rng, dtype, shape, kind)
        if rng.random() < 0.1 and shape:
            arr = np.broadcast_to(arr[..., :1], shape)
        axes = [d for d in range(len(shape)) if rng.random() < 0.5]
        axes = [d - len(shape) if rng.random() < 0.3 else d for d in axes]
        rng.shuffle(axes)
        keepdims = rng.random() < 0.5
        fn = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max}[op]
        try:
            with np.errstate(all="ignore"):
                # dtype=: NumPy would promote int32 sums to int64.
                extra = {"dtype": dtype} if op in ("sum", "prod") else {}
                want = np.asarray(fn(arr, axis=tuple(axes), keepdims=keepdims,
                                     **extra))
        except ValueError:
            want = None
        out_shape = want.shape if want is not None else ()
        out_base, out = random_view(rng, dtype, list(out_shape), "special")
        st = sk.reduce(op, np.dtype(dtype), sk.view_of(arr, base), base, axes,
                       sk.view_of(out, out_base), out_base)
        what = (f"{op} {np.dtype(dtype)} {shape} strides {arr.strides} axes "
                f"{axes} keepdims {keepdims}: status {st} {sk.last_error()}")
        if want is None:
            tally.check(st == sk.SK_ERR_INVALID, what)
        elif np.issubdtype(dtype, np.integer):
            tally.check(st == sk.SK_OK and np.array_equal(out, want), what)
        elif op in ("min", "max"):
            tally.check(st == sk.SK_OK and np.array_equal(out, want, equal_nan=True),
                        what)
        else:
            eps = np.finfo(dtype).eps
            count = max(1, arr.size // max(1, want.size))
            if op == "sum":
                scale = np.sum(np.abs(arr.astype(np.float64)), axis=tuple(axes),
                               keepdims=keepdims)
            else:
                scale = np.abs(want.astype(np.float64))
            with np.errstate(all="ignore"):
                err = np.abs(out.astype(np.float64) - want.astype(np.float64))
            close = (out == want) | (err <= 2 * (count + 2) * eps * scale)
            tally.check(st == sk.SK_OK and np.all(close),
                        what + f" max err {err.max() if err.size else 0}")


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    rng = random.Random(seed)
    tally = sk.Tally(f"numeric_diff (seed {seed})")
    test_elementwise(rng, tally)
    test_integer_division_errors(rng, tally)
    test_reduce(rng, tally)
    tally.finish()


if __name__ == "__main__":
    main()
