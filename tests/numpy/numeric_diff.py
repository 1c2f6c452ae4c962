"""NumPy differential test of sk_binary, sk_unary and sk_reduce, for every
dtype.

Random broadcast combinations of random views (permuted strides, gaps,
flips, step slices, stride-0 broadcast views; outputs with random layouts,
sometimes in place) are computed through the C ABI and compared with
np.add / subtract / multiply / divide (np.floor_divide for integers) /
minimum / maximum / remainder / negative / absolute / sqrt / square, and with np.sum /
prod / min / max over axis tuples with and without keepdims, each for the
dtypes NumPy (and stridekit) define it on with the same dtype in and out:
bool (add is or, multiply and minimum are and, maximum is or), every
integer width (wrapping), float16, bfloat16 (no NumPy dtype: a float32
computation rounded to nearest even), float32, float64, complex64 and
complex128 (add, subtract, multiply, divide, negative, square, sum, prod).

Elementwise results must match exactly (NaN matching NaN, signs of zeros
included; complex part by part); integer and bool reductions exactly; float
min/max exactly up to the sign of zero; float and complex sums and products
within a relative bound (stridekit sums pairwise in a different order than
NumPy; float16 accumulates in float32).
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from bfloat16 import BF16, bf16_to_f32, f32_to_bf16, storage

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", BF16, "float32", "float64",
          "complex64", "complex128"]
BINARY = ["add", "subtract", "multiply", "divide", "minimum", "maximum",
          "remainder", "power", "bitwise_and", "bitwise_or", "bitwise_xor",
          "left_shift", "right_shift"]
UNARY = ["negative", "absolute", "sqrt", "square", "invert"]
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor", "invert"}
SHIFTS = {"left_shift", "right_shift"}
REDUCE = ["sum", "prod", "min", "max"]

# The ops NumPy defines with the same dtype in and out, per kind.
ACCEPTS = {
    "bool": {"add", "multiply", "minimum", "maximum", "absolute",
             "sum", "prod", "min", "max"} | BITWISE,
    "int": set(BINARY + ["negative", "absolute", "square", "invert"] + REDUCE),
    "float": set(BINARY + UNARY + REDUCE) - BITWISE - SHIFTS,
    "complex": {"add", "subtract", "multiply", "divide", "negative",
                "square", "sum", "prod"},
}


def kind_of(name):
    if name == "bool":
        return "bool"
    if name.startswith("complex"):
        return "complex"
    if name.startswith("float") or name == BF16:
        return "float"
    return "int"


def float_values(np_rng, dtype, n, kind):
    if kind == "prod":
        return np_rng.uniform(0.5, 2.0, n).astype(dtype)
    v = (np_rng.standard_normal(n) * 10).astype(dtype)
    if kind == "special":
        picks = np_rng.random(n) < 0.1
        v[picks] = np_rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0],
                                 picks.sum())
    return v


def random_values(rng, name, n, kind):
    """n values of dtype `name` (storage(name)): 'special' mixes in NaN,
    inf, -0.0 and integer extremes; 'divisor' avoids 0 and -1; 'sum' and
    'prod' stay moderate (complex 'prod': modulus 1)."""
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    k = kind_of(name)
    if k == "bool":
        return np_rng.integers(0, 2, n).astype(bool)
    if k == "int":
        info = np.iinfo(name)
        v = np_rng.integers(max(info.min, -1000), min(info.max, 1000) + 1,
                            n).astype(name)
        if kind == "divisor":
            v[v == 0] = 7
            if info.min < 0:
                v[v == -1] = 7
        elif kind == "exponent":  # Powers and shifts: 0 .. bits + 3.
            v = np_rng.integers(0, info.bits + 4, n).astype(name)
        elif kind == "special":
            picks = np_rng.random(n) < 0.1
            extremes = np.array([info.min, info.max, 0, 1], dtype=name)
            v[picks] = np_rng.choice(extremes, picks.sum())
        return v
    if k == "complex":
        part = np.float32 if name == "complex64" else np.float64
        if kind == "prod":
            angle = np_rng.uniform(-3, 3, n)
            return (np.cos(angle) + 1j * np.sin(angle)).astype(name)
        return (float_values(np_rng, part, n, kind)
                + 1j * float_values(np_rng, part, n, kind)).astype(name)
    if name == BF16:
        return f32_to_bf16(float_values(np_rng, np.float32, n, kind))
    return float_values(np_rng, name, n, kind)


def computable(name, arr):
    """arr as NumPy computes dtype `name`: bfloat16 bits widened to float32."""
    return bf16_to_f32(arr) if name == BF16 else arr


def stored(name, result):
    """A result of `computable` operands back in dtype `name`'s storage."""
    if name == BF16:
        return f32_to_bf16(result)
    return np.asarray(result).astype(storage(name))


def random_view(rng, name, shape, kind):
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
    base = random_values(rng, name, stride + 8, kind)
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


def broadcast_input(rng, name, shape, kind):
    """An input that broadcasts to `shape`: size-1 axes, dropped leading
    axes, or a stride-0 np.broadcast_to view."""
    if rng.random() < 0.15 and shape:
        row = shape[1:] if len(shape) > 1 else shape
        base, arr = random_view(rng, name, row, kind)
        return base, np.broadcast_to(arr, shape)
    drop = rng.randint(0, len(shape)) if rng.random() < 0.3 else 0
    small = [1 if rng.random() < 0.3 else n for n in shape[drop:]]
    return random_view(rng, name, small, kind)


def random_shape(rng, max_rank=4):
    return [rng.choice((1, 2, 3, 5, 8, 17, 33)) for _ in range(rng.randint(0, max_rank))]


def same_floats(out, want):
    real = ~np.isnan(want)
    return (np.array_equal(np.isnan(out), ~real)
            and np.array_equal(out[real], want[real])
            and np.array_equal(np.signbit(out[real]), np.signbit(want[real])))


def same_result(name, out, want):
    """Exact equality in dtype `name` (NaN as NaN, zero signs included)."""
    if out.shape != want.shape:
        return False
    k = kind_of(name)
    if k == "complex":
        return same_floats(out.real, want.real) and same_floats(out.imag,
                                                                want.imag)
    if k == "float":
        return same_floats(computable(name, out), computable(name, want))
    return np.array_equal(out, want)


def within_one_ulp(out, want):
    """Equal, or finite and at most one unit in the last place apart."""
    if out.shape != want.shape:
        return False
    if same_floats(out, want):
        return True
    real = ~np.isnan(want)
    finite = np.isfinite(want) & np.isfinite(out)
    with np.errstate(all="ignore"):
        apart = np.abs(out.astype(np.float64) - want.astype(np.float64))
    close = (out == want) | (finite & (apart <= np.spacing(np.abs(want))))
    return (np.array_equal(np.isnan(out), ~real) and bool(np.all(close[real])))


def pick(rng, ops, name):
    return rng.choice([op for op in ops if op in ACCEPTS[kind_of(name)]])


def test_elementwise(rng, tally):
    for _ in range(3000):
        name = rng.choice(DTYPES)
        shape = random_shape(rng)
        unary = rng.random() < 0.35
        op = pick(rng, UNARY if unary else BINARY, name)
        integer = kind_of(name) == "int"
        second = "special"
        if integer and op in ("divide", "remainder"):
            second = "divisor"
        elif integer and op in ("power", "left_shift", "right_shift"):
            second = "exponent"
        a_base, a = broadcast_input(rng, name, shape, "special")
        b_base, b = broadcast_input(rng, name, shape, second)
        integer_div = integer and op == "divide"
        out_base, out = random_view(rng, name, shape, "special")
        in_place = rng.random() < 0.15
        if in_place:
            a_base, a = out_base, out
        ufunc = getattr(np, "floor_divide" if integer_div else op)
        # NumPy computed on contiguous copies: its strided complex128 loops
        # round differently (contracted to fused multiply-adds in Debian's
        # build) from its contiguous ones, which follow the formula.
        ca = np.broadcast_to(computable(name, a), shape).copy(order="C")
        cb = np.broadcast_to(computable(name, b), shape).copy(order="C")
        ca, cb = ca.reshape(-1), cb.reshape(-1)  # 0-d too: the 1-d loop.
        # Float32/float64 power is the C library's pow (within 1 ulp of the
        # exact value; NumPy on AVX-512 machines uses SVML instead): the
        # oracle is pow in long double, and results may be 1 ulp apart.
        power = op == "power" and name in ("float32", "float64")
        if power:
            ca, cb = ca.astype(np.longdouble), cb.astype(np.longdouble)
        with np.errstate(all="ignore"):
            want = stored(name, ufunc(ca) if unary
                          else ufunc(ca, cb)).reshape(shape)
        av = sk.view_of(a, a_base)
        ov = sk.view_of(out, out_base)
        if unary:
            st = sk.unary(op, name, av, a_base, ov, out_base)
        else:
            st = sk.binary(op, name, av, a_base, sk.view_of(b, b_base), b_base,
                           ov, out_base)
        same = (within_one_ulp(out, want) if power
                else same_result(name, out, want))
        tally.check(st == sk.SK_OK and same,
                    f"{op} {name} out {shape} a {a.shape}{a.strides}"
                    f" in_place {in_place}: status {st} {sk.last_error()}")


def test_refused_ops(tally):
    """The ops NumPy has no same-dtype loop for are SK_ERR_UNSUPPORTED."""
    for name in DTYPES:
        a = random_values(random.Random(1), name, 3, "special")
        out = a.copy()
        v = sk.view_of(a, a)
        for op in BINARY + UNARY:
            if op in ACCEPTS[kind_of(name)]:
                continue
            if op in UNARY:
                st = sk.unary(op, name, v, a, v, out)
            else:
                st = sk.binary(op, name, v, a, v, a, v, out)
            tally.check(st == sk.SK_ERR_UNSUPPORTED and
                        np.array_equal(out.view(np.uint8), a.view(np.uint8)),
                        f"{op} {name} must be refused: status {st}")


def test_negative_integer_powers(tally):
    """NumPy raises ValueError; stridekit SK_ERR_INVALID, out untouched."""
    for name in ("int8", "int16", "int32", "int64"):
        a = np.array([2, 3, 4], name)
        b = np.array([1, -1, 2], name)
        out = np.full(3, 9, name)
        v = sk.view_of(a, a)
        st = sk.binary("power", name, v, a, v, b, v, out)
        tally.check(st == sk.SK_ERR_INVALID and np.all(out == 9),
                    f"{name} power by -1: status {st}")


def test_integer_division_errors(rng, tally):
    for dtype in (np.int8, np.int16, np.int32, np.int64):
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
    for _ in range(2400):
        name = rng.choice(DTYPES)
        k = kind_of(name)
        op = pick(rng, REDUCE, name)
        shape = random_shape(rng, 4)
        if rng.random() < 0.05 and shape:
            shape[rng.randrange(len(shape))] = 0
        kind = {"sum": "sum", "prod": "prod"}.get(op, "special")
        if k in ("int", "bool"):
            kind = "special"
        base, arr = random_view(rng, name, shape, kind)
        if rng.random() < 0.1 and shape:
            arr = np.broadcast_to(arr[..., :1], shape)
        axes = [d for d in range(len(shape)) if rng.random() < 0.5]
        axes = [d - len(shape) if rng.random() < 0.3 else d for d in axes]
        rng.shuffle(axes)
        keepdims = rng.random() < 0.5
        fn = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max}[op]
        exact = k in ("int", "bool") or op in ("min", "max")
        # Exact ops in the dtype itself (dtype=: NumPy would promote integer
        # sums); inexact ones in float64 / complex128, the accuracy oracle.
        wide = computable(name, arr)
        if not exact:
            wide = wide.astype(np.complex128 if k == "complex" else np.float64)
        try:
            with np.errstate(all="ignore"):
                extra = ({"dtype": wide.dtype} if op in ("sum", "prod")
                         else {})
                want = np.asarray(fn(wide, axis=tuple(axes), keepdims=keepdims,
                                     **extra))
        except ValueError:
            want = None
        out_shape = want.shape if want is not None else ()
        out_base, out = random_view(rng, name, list(out_shape), "special")
        st = sk.reduce(op, name, sk.view_of(arr, base), base, axes,
                       sk.view_of(out, out_base), out_base)
        what = (f"{op} {name} {shape} strides {arr.strides} axes "
                f"{axes} keepdims {keepdims}: status {st} {sk.last_error()}")
        if want is None:
            tally.check(st == sk.SK_ERR_INVALID, what)
        elif k in ("int", "bool"):
            tally.check(st == sk.SK_OK and np.array_equal(out, want), what)
        elif op in ("min", "max"):
            tally.check(st == sk.SK_OK and np.array_equal(
                computable(name, out), want, equal_nan=True), what)
        else:
            part = {"complex64": np.float32, "complex128": np.float64,
                    "float16": np.float16, BF16: None}.get(name, name)
            eps = 2.0 ** -7 if part is None else float(np.finfo(part).eps)
            count = max(1, arr.size // max(1, want.size))
            got = computable(name, out).astype(want.dtype)
            # The oracle rounded to the dtype (inf where it overflows).
            rounded = computable(name, stored(name, want)).astype(want.dtype)
            ok = st == sk.SK_OK
            for select in ((np.real, np.imag) if k == "complex" else (np.real,)):
                if op == "sum":
                    scale = np.sum(np.abs(select(wide)), axis=tuple(axes),
                                   keepdims=keepdims)
                else:
                    scale = np.abs(want)
                with np.errstate(all="ignore"):
                    err = np.abs(select(got) - select(want))
                close = ((select(got) == select(rounded))
                         | (err <= 4 * (count + 2) * eps * scale))
                ok = ok and bool(np.all(close))
            tally.check(ok, what)


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    rng = random.Random(seed)
    tally = sk.Tally(f"numeric_diff (seed {seed})")
    test_elementwise(rng, tally)
    test_refused_ops(tally)
    test_negative_integer_powers(tally)
    test_integer_division_errors(rng, tally)
    test_reduce(rng, tally)
    tally.finish()


if __name__ == "__main__":
    main()
