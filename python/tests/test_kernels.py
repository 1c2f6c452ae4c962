"""Every kernel against NumPy on contiguous, transposed, sliced, reversed and
broadcast inputs (conftest.layouts), with and without out=."""
import numpy as np
import pytest

import stridekit as sk
from conftest import LAYOUTS, layouts, values

FLOATS = ["float32", "float64"]
INTS = ["int8", "int32", "int64", "uint16"]
ALL = FLOATS + INTS + ["float16", "complex64", "bool"]


def check(got, want, dtype=None):
    """got equals want: values, dtype, shape, and NumPy's return type (a 0-d
    result of NumPy is a NumPy scalar)."""
    if isinstance(want, np.generic):
        assert isinstance(got, np.generic), type(got)
        got, want = np.asarray(got), np.asarray(want)
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if got.dtype.kind in "fc":
        tol = {2: 1e-2, 4: 1e-5, 8: 1e-12, 16: 1e-12}[got.dtype.itemsize]
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_copy_and_ascontiguous(rng, layout, dtype):
    a = layouts(values(rng, dtype))[layout]
    c = sk.ascontiguous(a)
    assert c.flags.c_contiguous
    check(c, np.ascontiguousarray(a))
    got = sk.copy(a)
    assert got.flags.c_contiguous and not np.shares_memory(got, a)
    check(got, a.copy())
    out = np.empty((5, 7), dtype).T.T  # a fresh array
    assert sk.copy(a, out=out) is out
    check(out, a.copy())


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("src,dst", [("float64", "int32"), ("float32", "float16"),
                                     ("int64", "uint8"), ("int16", "float64"),
                                     ("complex64", "float32"), ("float64", "bool"),
                                     ("bool", "float32")])
def test_astype(rng, layout, src, dst):
    a = layouts(values(rng, src))[layout]
    with np.errstate(all="ignore"):  # complex -> real: the real part
        want = (a.real if np.dtype(src).kind == "c" else a).astype(dst)
    check(sk.astype(a, dst), want)
    out = np.zeros((7, 5), dst).T
    sk.astype(a, dst, out=out)
    check(out, want)


BINARY = [("add", ALL), ("subtract", FLOATS + INTS + ["complex64"]),
          ("multiply", ALL), ("divide", FLOATS + ["int32", "complex64"]),
          ("floor_divide", INTS), ("minimum", FLOATS + INTS + ["bool"]),
          ("maximum", FLOATS + INTS), ("power", FLOATS + ["int32", "uint16"]),
          ("remainder", FLOATS + INTS), ("bitwise_and", INTS + ["bool"]),
          ("bitwise_or", INTS), ("bitwise_xor", INTS + ["bool"]),
          ("left_shift", ["int32", "uint16"]), ("right_shift", ["int8", "int64"])]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op,dtype", [(op, d) for op, ds in BINARY for d in ds])
def test_binary(rng, op, dtype, layout):
    positive = op in ("divide", "floor_divide", "remainder", "power",
                      "left_shift", "right_shift")
    a = layouts(values(rng, dtype))[layout]
    b = values(rng, dtype, 7, positive=positive)  # broadcast along rows
    if op == "power":
        b = (b % 4).astype(dtype) if np.dtype(dtype).kind in "iu" else b % 3
    if op in ("left_shift", "right_shift"):
        b = (b % 5).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, op)(a, b)
        check(getattr(sk, op)(a, b), want)
        # transposed and reversed second operand, into a transposed out=
        b2 = layouts(values(rng, dtype, positive=positive))[layout]
        if op == "power":
            b2 = (b2 % 3).astype(dtype)
        if op in ("left_shift", "right_shift"):
            b2 = (b2 % 5).astype(dtype)
        want2 = getattr(np, op)(a, b2.T.T[::-1])
        out = np.empty((7, 5), want2.dtype).T
        assert getattr(sk, op)(a, b2[::-1], out=out) is out
        check(out, want2)


def test_binary_scalars_and_promotion():
    a = np.arange(10, dtype=np.int8)
    check(sk.add(a, 3), np.add(a, 3))                 # stays int8 (NumPy 1.x)
    check(sk.multiply(a, 2.5), np.multiply(a, 2.5))   # float64
    check(sk.add(a, np.arange(10.0, dtype=np.float32)), a + np.arange(10.0, dtype=np.float32))
    check(sk.divide(a, 4), a / 4)


UNARY = [("negative", FLOATS + INTS + ["complex64", "float16"]),
         ("absolute", FLOATS + INTS), ("sqrt", FLOATS + ["int16", "float16"]),
         ("square", ALL[:-1]), ("invert", INTS + ["bool"])]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op,dtype", [(op, d) for op, ds in UNARY for d in ds])
def test_unary(rng, op, dtype, layout):
    a = layouts(values(rng, dtype, positive=(op == "sqrt")))[layout]
    with np.errstate(all="ignore"):
        check(getattr(sk, op)(a), getattr(np, op)(a))
        out = np.empty((7, 5), getattr(np, op)(a).dtype).T
        getattr(sk, op)(a, out=out)
        check(out, getattr(np, op)(a))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("op", ["sum", "prod", "min", "max"])
@pytest.mark.parametrize("dtype", FLOATS + INTS + ["bool", "float16"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True),
                                           ((0, 1), True), (-1, False)])
def test_reduce(rng, op, dtype, layout, axis, keepdims):
    if op == "prod" and dtype == "float16":
        pytest.skip("float16 products overflow: tolerance meaningless")
    a = layouts(values(rng, dtype))[layout]
    if op == "prod" and np.dtype(dtype).kind == "f":
        a = a / 4 + 1
    want = getattr(np, op)(a, axis=axis, keepdims=keepdims)
    got = getattr(sk, op)(a, axis=axis, keepdims=keepdims)
    check(np.asarray(got), np.asarray(want))


def test_reduce_out_and_errors():
    a = np.arange(12.0).reshape(3, 4)[:, ::-1]
    out = np.empty(3)
    assert sk.sum(a, axis=1, out=out) is out
    check(out, a.sum(axis=1))
    with pytest.raises(sk.StridekitError, match="min"):
        sk.min(np.empty((0, 3)), axis=0)
    with pytest.raises(sk.StridekitError) as e:
        sk.sum(a, axis=(0, 0))
    assert e.value.function == "sk_reduce"
    check(sk.sum(np.arange(300, dtype=np.int8)), np.sum(np.arange(300, dtype=np.int8)))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("spec", ["ij,jk->ik", "ij->ji", "ij->", "ij,ij->i",
                                  "ij,kj->ikj", "ii->i"])
def test_einsum(rng, dtype, layout, spec):
    a = layouts(values(rng, dtype))[layout]
    if spec == "ii->i":
        a = a[:5, :5]
    ops = [a]
    if "," in spec:
        other = layouts(values(rng, dtype))[layout]
        ops.append(other.T if spec == "ij,jk->ik" else other)
    check(sk.einsum(spec, *ops), np.einsum(spec, *ops, optimize=False))


def test_einsum_errors_and_promotion():
    a = np.ones((2, 3), np.float32)
    with pytest.raises(sk.StridekitError, match="einsum"):
        sk.einsum("ij,jk->ik", a, np.ones((4, 2), np.float32))
    check(sk.einsum("ij,jk", a, np.ones((3, 2))), np.einsum("ij,jk", a, np.ones((3, 2))))


def test_unsupported_pairs_raise_library_errors():
    with pytest.raises(TypeError, match="absolute.*complex"):
        sk.absolute(np.ones(3, np.complex64))
    with pytest.raises(sk.StridekitError) as e:
        sk.floor_divide(np.ones(3, np.int32), np.zeros(3, np.int32))
    assert e.value.status_name == "SK_ERR_INVALID" and str(e.value)
    with pytest.raises(sk.StridekitError) as e:
        sk.reciprocal(np.array([1, 0, 2], np.int16))
    assert e.value.status_name == "SK_ERR_INVALID"
    with pytest.raises(TypeError):
        sk.gcd(np.ones(3), np.ones(3))  # NumPy has no float gcd either
    with pytest.raises(sk.StridekitError, match="broadcast"):
        sk.add(np.ones(3), 1, out=np.empty(4))
    out32 = np.empty(3, np.float32)  # cast on store, as NumPy
    assert sk.add(np.ones(3), 1, out=out32) is out32
    check(out32, np.full(3, 2, np.float32))
    with pytest.raises(TypeError, match="same_kind"):
        sk.add(np.ones(3), 1, out=np.empty(3, np.int64))
    with pytest.raises(ValueError, match="shape"):
        sk.sum(np.ones((3, 2)), axis=0, out=np.empty(3))
    check(sk.add(1.0, 2.0, out=np.empty(3)), np.full(3, 3.0))


def test_padded_inputs_read_zero():
    a = np.arange(6.0).reshape(2, 3)
    v = sk.view(a).pad([1, 0], [1, 0])
    check(sk.add(v, 1.0), np.pad(a, ((1, 1), (0, 0))) + 1.0)
    check(sk.sum(v, axis=0), np.pad(a, ((1, 1), (0, 0))).sum(axis=0))


def test_view_outputs_write_in_place():
    a = np.zeros((4, 6))
    sk.add(np.ones((2, 3)), 1.0, out=sk.view(a)[1:3, ::2])
    want = np.zeros((4, 6))
    want[1:3, ::2] = 2
    check(a, want)
    with pytest.raises(ValueError, match="read-only"):
        sk.add(1.0, 1.0, out=np.broadcast_to(np.zeros(1), (3,)))


def test_threads_give_the_same_results(rng):
    a = rng.standard_normal((301, 257))[:, ::-1]
    before = sk.get_threads()
    try:
        sk.set_threads(2)
        assert sk.get_threads() == 2
        check(sk.multiply(a, a.T.T), a * a)
        check(sk.max(a, axis=0), a.max(axis=0))
        with pytest.raises(sk.StridekitError):
            sk.set_threads(-1)
    finally:
        sk.set_threads(before)


def test_targets(rng):
    names = sk.targets()
    assert names[-1] == "reference" and sk.active_target() in names
    a = layouts(values(rng, "float32"))["transposed"]
    try:
        for name in names:
            sk.force_target(name)
            assert sk.active_target() == name
            check(sk.add(a, a[::-1]), a + a[::-1])
        with pytest.raises(sk.StridekitError) as e:
            sk.force_target("NO_SUCH_TARGET")
        assert e.value.status_name == "SK_ERR_UNSUPPORTED"
    finally:
        sk.force_target(None)
    assert sk.active_target() == names[0]
