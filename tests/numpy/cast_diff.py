"""NumPy differential test of sk_cast over the 15 x 15 dtype matrix.

For each (source, destination) pair and each target, random source views
(as_strided layouts, transposes, slices with steps, flips, broadcast_to) are
cast into a C-contiguous or transposed destination and compared with
NumPy's astype(casting='unsafe') of the same view:

- in-range values everywhere, plus the cases NumPy leaves undefined and
  stridekit defines: float -> integer out of range saturates at the limits
  and NaN -> 0 (the oracle clips in float64);
- bfloat16 (no NumPy dtype: uint16 bits) is compared against float32
  rounded to nearest even with uint32 bit arithmetic (ml_dtypes' rule), its
  sources widened exactly to float32; casts to bfloat16 use sources that
  float32 holds exactly (stridekit rounds once from the exact value; the
  double-rounding cases are golden tests in tests/cast_test.cc);
- NaNs compare as NaN with the same sign (stridekit makes them the
  canonical quiet NaN; NumPy keeps payloads); other floats compare by bits,
  so -0.0 and +0.0 differ.
"""
import random
import warnings

import numpy as np

import stridekit_ctypes as sk
from bfloat16 import BF16, bf16_to_f32, f32_to_bf16, storage

# sk_dtype order.
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", BF16, "float32", "float64",
          "complex64", "complex128"]
SK = {name: i for i, name in enumerate(DTYPES)}
INTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64"}
FLOATS = {"float16", BF16, "float32", "float64"}
COMPLEX = {"complex64", "complex128"}

SPECIAL_REALS = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1.5, -2.5,
                 0.49999997, 65504.0, 65519.0, 65520.0, -65520.0, 127.9,
                 -128.5, 255.5, -1.0, 32768.0, 2147483520.0, 2147483648.0,
                 -2147483904.0, 4294967296.0, 9.3e18, -9.3e18, 1.9e19, 1e30,
                 3.5e38, 1e-40, -3e-8, 6e-8, 2.0 ** -25]


def random_values(rng, nprng, name, n, to_bf16):
    """n values of source dtype `name` (as its storage dtype)."""
    if name == "bool":
        return nprng.integers(0, 2, n).astype(np.bool_)
    if name in INTS:
        info = np.iinfo(name)
        if to_bf16 and info.bits > 16:  # Exactly representable in float32.
            signed = info.min < 0
            m = nprng.integers(-(1 << 23) if signed else 0, 1 << 23, n)
            k = nprng.integers(0, info.bits - 23, n)
            return np.array([int(a) << int(b) for a, b in zip(m, k)],
                            dtype=name)
        return nprng.integers(info.min, info.max, n, dtype=name,
                              endpoint=True)
    if name in ("float16", BF16):
        return nprng.integers(0, 1 << 16, n).astype(np.uint16).view(
            np.float16 if name == "float16" else np.uint16)
    reals = nprng.standard_normal(n) * 10.0 ** nprng.integers(-45, 40, n)
    pick = nprng.integers(0, 3, n) == 0
    reals[pick] = nprng.choice(SPECIAL_REALS, int(pick.sum()))
    if to_bf16 or name in ("float32", "complex64"):
        with np.errstate(over="ignore"):
            reals = reals.astype(np.float32).astype(np.float64)
    if name in COMPLEX:
        out = np.empty(n, dtype=name)
        out.real = reals
        out.imag = np.roll(reals, 1)
        return out
    return reals.astype(name)


def saturate(x, name):
    """float64 x to integer dtype `name`: truncate, saturate, NaN -> 0."""
    info = np.iinfo(name)
    limit = 2.0 ** (info.bits - 1 if info.min < 0 else info.bits)
    lowest = -limit if info.min < 0 else 0.0
    out = np.zeros(x.shape, dtype=name)
    ok = ~np.isnan(x) & (x < limit) & (x > lowest - 1)
    with np.errstate(invalid="ignore"):
        out[ok] = np.trunc(x[ok]).astype(name)
    out[~np.isnan(x) & (x >= limit)] = info.max
    out[~np.isnan(x) & (x <= lowest - 1)] = info.min
    return out


def expected(values, src, dst):
    """The oracle: `values` (storage dtype of src) cast to dst's storage."""
    if src == BF16:
        values = bf16_to_f32(values)
        src = "float32"
    if dst == BF16:
        if src in COMPLEX:
            values = values.real
        if src == "bool":
            values = values.astype(np.float32)
        return f32_to_bf16(values.astype(np.float32))
    if dst in INTS and (src in FLOATS or src in COMPLEX):
        real = values.real if src in COMPLEX else values
        with np.errstate(invalid="ignore"):
            return saturate(real.astype(np.float64), dst)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return values.astype(dst)


def float_parts(a, name):
    """The float arrays whose bits compare (complex: both parts)."""
    if name == BF16:
        return [bf16_to_f32(a)]
    if name in COMPLEX:
        return [np.ascontiguousarray(a.real), np.ascontiguousarray(a.imag)]
    return [np.ascontiguousarray(a)]


def same(got, want, name):
    got, want = got.reshape(-1), want.reshape(-1)
    if name not in FLOATS and name not in COMPLEX:
        return np.array_equal(got.view(np.uint8), want.view(np.uint8))
    for g, w in zip(float_parts(got, name), float_parts(want, name)):
        gn, wn = np.isnan(g), np.isnan(w)
        if not np.array_equal(gn, wn):
            return False
        if not np.array_equal(np.signbit(g), np.signbit(w)):
            return False
        bits = np.uint64 if g.itemsize == 8 else (
            np.uint32 if g.itemsize == 4 else np.uint16)
        if not np.array_equal(g[~gn].view(bits), w[~wn].view(bits)):
            return False
    return True


def random_view(rng, base):
    """A random view of `base`: permuted strides, gaps, flips, slices."""
    rank = rng.randint(0, 3)
    shape = [rng.choice((1, 2, 3, 5, 8, 17, 33)) for _ in range(rank)]
    order = list(range(rank))
    rng.shuffle(order)
    stride, strides = 1, [0] * rank
    for d in reversed(order):
        strides[d] = stride
        stride *= shape[d] * rng.choice((1, 1, 2))
    if stride + 64 > base.size:
        return random_view(rng, base)
    arr = np.lib.stride_tricks.as_strided(
        base[rng.randint(0, 50):], shape=shape,
        strides=[s * base.itemsize for s in strides])
    if arr.ndim and rng.random() < 0.3:
        arr = np.flip(arr, rng.randrange(arr.ndim))
    if arr.ndim and rng.random() < 0.3:
        arr = arr[tuple(slice(None, None, rng.choice((1, 2, -1)))
                        for _ in range(arr.ndim))]
    if rng.random() < 0.2:
        arr = np.broadcast_to(arr, (2,) + arr.shape)
    return arr


def run_case(rng, nprng, src, dst, tally, target):
    src_dtype, dst_dtype = storage(src), storage(dst)
    base = random_values(rng, nprng, src, 4096, dst == BF16)
    if base.dtype != src_dtype:
        base = base.view(src_dtype)
    arr = random_view(rng, base)
    want = expected(np.array(arr), src, dst)
    transposed = arr.ndim >= 2 and rng.random() < 0.3
    out_base = np.empty(arr.size + 8, dtype=dst_dtype)
    out_base.view(np.uint8)[:] = 0xA5
    if transposed:
        out = out_base[:arr.size].reshape(arr.shape[::-1]).T
    else:
        out = out_base[:arr.size].reshape(arr.shape)
    st = sk.cast(SK[src], sk.view_of(arr, base), base, SK[dst],
                 sk.view_of(out, out_base), out_base)
    ok = st == sk.SK_OK and same(np.array(out), want, dst)
    tally.check(ok, f"{target} {src} -> {dst} shape {arr.shape} strides "
                f"{arr.strides} status {st} {sk.last_error()}"
                f"\n    got {np.array(out).ravel()[:8]}"
                f"\n    want {want.ravel()[:8]}")


def main():
    rng = random.Random(15)
    nprng = np.random.default_rng(15)
    tally = sk.Tally("cast_diff")
    for target in sk.targets():
        assert sk.force_target(target) == sk.SK_OK
        for src in DTYPES:
            for dst in DTYPES:
                for _ in range(6):
                    run_case(rng, nprng, src, dst, tally, target)
    sk.force_target(None)
    tally.finish()


if __name__ == "__main__":
    main()
