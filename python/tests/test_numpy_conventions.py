"""The package's functions against NumPy 1.24: names, dtype resolution
(mixed dtypes, Python scalars), out= cast on store, return types, and
special values taken from NumPy's own test_umath cases (NaN propagation of
maximum/minimum/argmax, signed zeros, remainder/floor_divide signs)."""
import numpy as np
import pytest

import stridekit as sk
from conftest import LAYOUTS, layouts, values
from test_kernels import check

FLOATS = ["float32", "float64"]
INTS = ["int8", "int32", "int64", "uint16", "uint64"]

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def close(got, want, rtol):
    if isinstance(want, np.generic):
        assert isinstance(got, np.generic), type(got)
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)


COMPARE = ["equal", "not_equal", "less", "less_equal", "greater",
           "greater_equal"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op", COMPARE)
@pytest.mark.parametrize("dtype", FLOATS + INTS + ["bool", "float16"])
def test_comparisons(rng, op, dtype, layout):
    a = layouts(values(rng, dtype))[layout]
    b = values(rng, dtype, 7)
    check(getattr(sk, op)(a, b), getattr(np, op)(a, b))
    check(getattr(sk, op)(a, a[::-1]), getattr(np, op)(a, a[::-1]))


@pytest.mark.parametrize("op", COMPARE)
def test_comparisons_mixed_scalars_nan(op):
    f = np.array([np.nan, -0.0, 0.0, 1.0, np.inf, -np.inf])
    check(getattr(sk, op)(f, f[::-1]), getattr(np, op)(f, f[::-1]))
    check(getattr(sk, op)(f, 0.0), getattr(np, op)(f, 0.0))
    i8 = np.arange(-3, 3, dtype=np.int8)
    u64 = np.arange(6, dtype=np.uint64)
    check(getattr(sk, op)(i8, u64), getattr(np, op)(i8, u64))
    check(getattr(sk, op)(i8, 1000), getattr(np, op)(i8, 1000))
    check(getattr(sk, op)(i8, 1.5), getattr(np, op)(i8, 1.5))
    check(getattr(sk, op)(2, 3), getattr(np, op)(2, 3))  # NumPy bool scalar
    c = np.array([1 + 1j, 2 + 0j], np.complex64)
    if op in ("equal", "not_equal"):
        check(getattr(sk, op)(c, 1 + 1j), getattr(np, op)(c, 1 + 1j))
    else:
        with pytest.raises(TypeError, match=op):
            getattr(sk, op)(c, c)


def test_where(rng):
    c = rng.integers(0, 2, (5, 7)).astype(bool)
    a = layouts(values(rng, "float32"))["transposed"]
    b = values(rng, "float32", 7)
    check(sk.where(c, a, b), np.where(c, a, b))
    check(sk.where(c.astype(np.int32) * 3, a, b), np.where(c * 3, a, b))
    i8 = np.arange(4, dtype=np.int8)
    check(sk.where(i8 % 2 == 1, i8, 1000), np.where(i8 % 2 == 1, i8, 1000))
    check(sk.where(c, a, 2.5), np.where(c, a, 2.5))
    check(sk.where(c, a.astype(np.float64), i8[:1]),
          np.where(c, a.astype(np.float64), i8[:1]))


MATH = ["exp", "log", "expm1", "log1p", "sin", "cos", "tanh"]
ROUND = ["floor", "ceil", "rint", "trunc", "sign"]
PREDICATES = ["isnan", "isinf", "isfinite"]
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.5, 2.5,
                    -2.5, 1e-30, -1e-30, 100.0, -100.0, 1e30, 3.0])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op", MATH)
@pytest.mark.parametrize("dtype", FLOATS + ["float16", "int16"])
def test_math(rng, op, dtype, layout):
    a = layouts(values(rng, dtype, positive=op in ("log",)))[layout]
    want = getattr(np, op)(a)
    rtol = {2: 2e-3, 4: 2e-6, 8: 1e-14}[want.dtype.itemsize]
    close(getattr(sk, op)(a), want, rtol)
    out = np.empty((7, 5), want.dtype).T
    assert getattr(sk, op)(a, out=out) is out
    close(out, want, rtol)


@pytest.mark.parametrize("op", MATH + ROUND + PREDICATES + ["sqrt", "absolute",
                                                           "negative", "square"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_special_values(op, dtype):
    a = SPECIAL.astype(dtype)
    want = getattr(np, op)(a)
    if op in MATH and np.dtype(dtype) == np.float32:
        close(getattr(sk, op)(a), want, 2e-6)
    elif op in MATH:
        close(getattr(sk, op)(a), want, 1e-14)
    else:
        got = getattr(sk, op)(a)
        check(got, want)
        if want.dtype.kind == "f":  # signed zeros too
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("op", ROUND + PREDICATES)
@pytest.mark.parametrize("dtype", INTS + ["float16", "bool"])
def test_rounding_and_predicates_dtypes(rng, op, dtype):
    a = values(rng, dtype)
    try:
        want = getattr(np, op)(a)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(sk, op)(a)
        return
    check(getattr(sk, op)(a), want)


def test_maximum_minimum_nan_and_signed_zeros():
    # test_umath TestMaximum/TestMinimum: NaN wins from either side
    a = np.array([np.nan, 1.0, np.nan, 0.0, -0.0, np.inf, -np.inf])
    b = np.array([1.0, np.nan, np.nan, -0.0, 0.0, np.nan, 1.0])
    for op in ("maximum", "minimum"):
        for x, y in ((a, b), (b, a)):
            want = getattr(np, op)(x, y)
            got = getattr(sk, op)(x, y)
            check(got, want)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
        check(getattr(sk, op)(a.astype(np.float32), np.float32(np.nan)),
              getattr(np, op)(a.astype(np.float32), np.float32(np.nan)))


def test_remainder_floor_divide_signs():
    # test_umath TestRemainder / TestDivision: the sign of the divisor
    for dt in ("int8", "int32", "int64"):
        a = np.array([-7, 7, -7, 7, 0, -1], dt)
        b = np.array([2, -2, -2, 2, 3, 3], dt)
        check(sk.remainder(a, b), np.remainder(a, b))
        check(sk.floor_divide(a, b), np.floor_divide(a, b))
    x = np.array([-1.0, 1.0, -0.0, 0.0, 5.5, -5.5, 1.0, np.nan, np.inf])
    y = np.array([3.0, -3.0, 3.0, -3.0, np.inf, np.inf, np.nan, 1.0, 2.0])
    for dt in FLOATS:
        got, want = sk.remainder(x.astype(dt), y.astype(dt)), \
            np.remainder(x.astype(dt), y.astype(dt))
        check(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    for dt in FLOATS:  # npy_floor_divide, signs of zeros included
        got = sk.floor_divide(x.astype(dt), y.astype(dt))
        with np.errstate(all="ignore"):
            want = np.floor_divide(x.astype(dt), y.astype(dt))
        check(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_float_family_specials():
    # test_umath's special values of the float family (NumPy 1.24)
    inf, nan = np.inf, np.nan
    y = np.array([0.0, -0.0, 0.0, -0.0, inf, -inf, 1.0, -1.0, nan])
    x = np.array([-0.0, -0.0, 0.0, 0.0, -inf, -inf, inf, inf, 1.0])
    with np.errstate(all="ignore"):
        for dt in ("float32", "float64"):
            a, b = y.astype(dt), x.astype(dt)
            for name in ("arctan2", "hypot", "copysign", "fmax", "fmin",
                         "heaviside", "nextafter", "logaddexp"):
                got = getattr(sk, name)(a, b)
                want = getattr(np, name)(a, b)
                np.testing.assert_allclose(got, want, rtol=4e-7, atol=0)
                np.testing.assert_array_equal(np.signbit(got[want == 0]),
                                              np.signbit(want[want == 0]))
            np.testing.assert_array_equal(sk.signbit(a), np.signbit(a))


@pytest.mark.parametrize("op", ["any", "all", "mean"])
@pytest.mark.parametrize("dtype", FLOATS + ["int32", "bool", "float16",
                                            "complex64"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False),
                                           (1, True), ((0, 1), False)])
def test_any_all_mean(rng, op, dtype, axis, keepdims):
    a = layouts(values(rng, dtype))["transposed"].copy()
    a.ravel()[::3] = 0
    want = getattr(np, op)(a, axis=axis, keepdims=keepdims)
    got = getattr(sk, op)(a, axis=axis, keepdims=keepdims)
    rtol = 1e-2 if dtype == "float16" else 1e-5
    close(got, want, rtol) if op == "mean" else check(got, want)


def test_reduce_out_and_dtype():
    a = np.arange(12, dtype=np.int8).reshape(3, 4)
    out = np.empty(3, np.float32)
    assert sk.sum(a, axis=1, out=out) is out
    check(out, np.sum(a, axis=1, out=np.empty(3, np.float32)))
    check(sk.sum(a, axis=0, dtype=np.float64), np.sum(a, axis=0, dtype=np.float64))
    check(sk.mean(a, axis=0), np.mean(a, axis=0))
    check(sk.prod(a, 1), np.prod(a, 1))  # positional axis
    out = np.empty((1, 4), bool)
    assert sk.any(a, axis=0, keepdims=True, out=out) is out
    check(out, np.any(a, axis=0, keepdims=True))
    with pytest.raises(ValueError, match="shape"):
        sk.mean(a, axis=0, out=np.empty(3))


@pytest.mark.parametrize("op", ["argmin", "argmax"])
@pytest.mark.parametrize("dtype", FLOATS + INTS + ["bool", "float16"])
def test_arg_reduce(rng, op, dtype):
    for layout in LAYOUTS:
        a = layouts(values(rng, dtype))[layout]
        check(getattr(sk, op)(a), getattr(np, op)(a))
        for axis in (0, 1, -1):
            check(getattr(sk, op)(a, axis), getattr(np, op)(a, axis))
        check(getattr(sk, op)(a, axis=0, keepdims=True),
              getattr(np, op)(a, axis=0, keepdims=True))
        check(getattr(sk, op)(a, keepdims=True),
              getattr(np, op)(a, keepdims=True))


def test_arg_reduce_nan_and_ties():
    # NumPy: the first NaN wins; ties give the first index
    for a in ([1.0, np.nan, 3.0, np.nan], [np.nan, 1.0], [2.0, 5.0, 5.0, -1.0],
              [-0.0, 0.0], [np.inf, np.nan, -np.inf]):
        for dt in FLOATS:
            x = np.array(a, dt)
            check(sk.argmax(x), np.argmax(x))
            check(sk.argmin(x), np.argmin(x))
    with pytest.raises(TypeError, match="argmax"):
        sk.argmax(np.ones(3, np.complex64))
    with pytest.raises(ValueError):
        sk.argmin(np.empty((0,)))


@pytest.mark.parametrize("op,npf", [("cumsum", np.cumsum), ("cumprod", np.cumprod),
                                    ("cummin", np.minimum.accumulate),
                                    ("cummax", np.maximum.accumulate)])
@pytest.mark.parametrize("dtype", FLOATS + ["int8", "int64", "uint16", "bool"])
def test_scans(rng, op, npf, dtype):
    for layout in LAYOUTS:
        a = layouts(values(rng, dtype))[layout]
        if op == "cumprod" and np.dtype(dtype).kind == "f":
            a = a / 8 + 1
        for axis in (0, 1, -1):
            check(getattr(sk, op)(a, axis=axis), npf(a, axis=axis))
        if op in ("cumsum", "cumprod"):
            check(getattr(sk, op)(a), npf(a))
            check(getattr(sk, op)(a, 1, np.float64), npf(a, 1, np.float64))
    x = np.array([1.0, np.nan, -1.0, 3.0])
    check(getattr(sk, op)(x), npf(x, axis=0) if op.startswith("cumm") else npf(x))


def test_fill():
    a = np.zeros((3, 4), np.int16)[:, ::2]
    assert sk.fill(a, 2.7) is a
    b = np.zeros((3, 4), np.int16)[:, ::2]
    b.fill(2.7)
    check(a, b)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16",
                                   "uint32", "uint64", "float16"])
def test_einsum_dtypes_through_casts(rng, dtype):
    a = values(rng, dtype, 12).reshape(3, 4)
    b = values(rng, dtype, 20).reshape(4, 5)
    for spec, ops in (("ij,jk->ik", (a, b)), ("ij->j", (a,)), ("ij,ij->", (a, a))):
        want = np.einsum(spec, *ops)
        got = sk.einsum(spec, *ops)
        if np.dtype(dtype) == np.float16:
            close(got, want, 1e-2)
        else:
            check(got, want)


def test_mixed_dtypes_scalars_and_out_casts():
    i8 = np.arange(-4, 4, dtype=np.int8) * 40
    check(sk.add(i8, i8, out=np.empty(8, np.int64)),
          np.add(i8, i8, out=np.empty(8, np.int64)))
    check(sk.multiply(i8, 2.5), np.multiply(i8, 2.5))
    check(sk.subtract(np.uint8(3), i8), np.subtract(np.uint8(3), i8))
    check(sk.add(i8, np.float32(1)), np.add(i8, np.float32(1)))
    check(sk.exp(3), np.exp(3))
    check(sk.sqrt(np.arange(4, dtype=np.int8)), np.sqrt(np.arange(4, dtype=np.int8)))
    check(sk.divide(i8, i8[::-1] | 1), np.divide(i8, i8[::-1] | 1))
    check(sk.exp(np.arange(3.0), out=np.empty(3, np.float32)),
          np.exp(np.arange(3.0), out=np.empty(3, np.float32)))
    with pytest.raises(TypeError, match="same_kind"):
        sk.exp(np.arange(3.0), out=np.empty(3, np.int64))
    with pytest.raises(TypeError):
        sk.subtract(np.ones(2, bool), np.ones(2, bool))  # NumPy refuses too
    with pytest.raises(TypeError, match="absolute"):
        sk.absolute(1.5 + 0.5j)  # listed in the README
    check(sk.add(np.float64(1), np.float64(2)), np.add(np.float64(1), np.float64(2)))


def test_plans(rng):
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((5, 7)).astype(np.float32).T.copy().T
    p = sk.plan(sk.add, a, b)
    assert isinstance(p, sk.Plan) and "add" in p.description
    a2 = rng.standard_normal((5, 7)).astype(np.float32)
    b2 = np.asfortranarray(rng.standard_normal((5, 7)).astype(np.float32))
    check(p(a2, b2), a2 + b2)
    out = np.empty((5, 7), np.float32)
    assert p(a2, b2, out=out) is out
    check(out, a2 + b2)
    with pytest.raises(ValueError, match="layout"):
        p(a2, a2)  # b's strides differ from the planned ones
    with pytest.raises(ValueError, match="layout"):
        p(a2.astype(np.float64), b2)
    with pytest.raises(TypeError, match="takes 2"):
        p(a2)
    with pytest.raises(ValueError, match="plan"):
        sk.plan(sk.add, a, 1.0)
    cases = [(sk.exp, (a,), np.exp), (sk.sum, (a,), np.sum),
             (sk.greater, (a, b), np.greater),
             (sk.where, (a > 0, a, b), np.where),
             (sk.cumsum, (a,), np.cumsum), (sk.argmax, (a,), np.argmax)]
    for fn, ops, npf in cases:
        q = sk.plan(fn, *ops)
        new = [x.copy(order="K") for x in ops]
        close(q(*new), npf(*new), 1e-5)
    q = sk.plan(sk.sum, a, axis=1, keepdims=True)
    close(q(a2), np.sum(a2, axis=1, keepdims=True), 1e-5)
    q = sk.plan(sk.astype, a, np.float64)
    check(q(a2), a2.astype(np.float64))
    q = sk.plan(sk.einsum, "ij,jk->ik", a, b.T)
    close(q(a2, b2.T), np.einsum("ij,jk->ik", a2, b2.T), 1e-5)


def test_fast_path_and_python_path_agree(rng):
    # the same call through the extension (arrays) and through Python (Views)
    a = layouts(values(rng, "float32"))["reversed"]
    b = values(rng, "float32", 7)
    for name in ("add", "greater", "maximum"):
        check(getattr(sk, name)(a, b), getattr(sk, name)(sk.view(a), sk.view(b)))
    for name in ("exp", "floor", "isnan"):
        check(getattr(sk, name)(a), getattr(sk, name)(sk.view(a)))
    check(sk.sum(a, axis=0), sk.sum(sk.view(a), axis=0))
    check(sk.argmax(a), sk.argmax(sk.view(a)))
    for _ in range(3):  # the cached plan of a repeated layout
        check(sk.add(a, b), a + b)
        check(sk.einsum("ij,kj->ik", a, a), np.einsum("ij,kj->ik", a, a))


def test_results_follow_numpys_memory_order():
    a = np.ones((4, 6), np.float32).T
    assert sk.add(a, a).flags.f_contiguous == np.add(a, a).flags.f_contiguous
    assert sk.astype(a, np.float64).strides == a.astype(np.float64).strides


SCALARS = [True, 0, 3, -1, 300, 70000, 2 ** 40, 2 ** 63 + 1, 1.5, -0.0, 1e300,
           2 + 1j]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint64",
                                   "float16", "float32", "float64",
                                   "complex64"])
@pytest.mark.parametrize("op", ["add", "multiply", "greater", "maximum",
                                "where"])
def test_python_scalars_value_based(op, dtype):
    # NumPy 1.x value-based casting: the array's dtype unless the scalar's
    # kind is above it or an int scalar does not fit
    a = np.arange(4).astype(dtype)
    for s in SCALARS:
        for args in ((a, s), (s, a)):
            if op == "where":
                fn, npf, args = sk.where, np.where, (a != 0,) + args
            else:
                fn, npf = getattr(sk, op), getattr(np, op)
            try:
                want = npf(*args)
            except (TypeError, OverflowError) as e:
                with pytest.raises(type(e)):
                    fn(*args)
                continue
            try:
                got = fn(*args)
            except TypeError as e:  # a documented library gap
                assert "stridekit" in str(e) and "complex" in str(e), e
                continue
            check(got, want)
