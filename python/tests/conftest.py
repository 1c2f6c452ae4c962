import numpy as np
import pytest


def layouts(base):
    """(name, array) pairs of one contiguous array in NumPy layouts that
    stridekit sees as strided views: transposed, sliced, reversed and
    broadcast (all of the same 2-D shape (5, 7) when base is (7, 5)-able)."""
    a = np.asarray(base)
    return {
        "contiguous": np.ascontiguousarray(a.reshape(5, 7)),
        "transposed": np.ascontiguousarray(a.reshape(7, 5)).T,
        "sliced": np.concatenate([a.reshape(5, 7)] * 3, axis=1)[:, 1::3],
        "reversed": a.reshape(5, 7)[::-1, ::-1],
        "broadcast": np.broadcast_to(a.reshape(5, 7)[:1], (5, 7)),
    }


LAYOUTS = ["contiguous", "transposed", "sliced", "reversed", "broadcast"]


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def values(rng, dtype, n=35, positive=False):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo = 1 if positive else builtins_max(info.min, -100)
        return rng.integers(lo, builtins_min(info.max, 100), n).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    v = rng.standard_normal(n) * 4
    return (np.abs(v) + 0.5 if positive else v).astype(dtype)


builtins_max, builtins_min = max, min
