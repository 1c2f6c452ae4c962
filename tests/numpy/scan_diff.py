"""NumPy differential test of sk_reduce's any / all / mean, sk_arg_reduce
and sk_scan, for every dtype each accepts.

Random views (permuted strides, gaps, flips, step slices, stride-0
broadcast inputs, input masks reading zero; axis 0, the last axis and
negative axes) are computed through the C ABI and compared with np.any /
np.all (exact), np.mean (within a relative bound: stridekit's pairwise sum
runs in another order), np.argmin / np.argmax (exact; first occurrence, a
NaN wins; keepdims), and np.cumsum / np.cumprod (dtype= the input's: integers
wrap, bool is or / and), np.minimum.accumulate / np.maximum.accumulate
(exact, NaN as NaN, zero signs included; float16 rounds at every step as
NumPy does; bfloat16 has no NumPy dtype: a float32 step rounded to bfloat16
at every step; complex cumprod within a bound, as NumPy's accumulate loop
fuses multiply-adds where np.multiply does not). Scans also run in place
and into masked outputs (masked-out positions untouched).
"""
import random
import sys
import warnings

import numpy as np

import stridekit_ctypes as sk
from bfloat16 import BF16, bf16_to_f32, f32_to_bf16, storage
from numeric_diff import (DTYPES, computable, kind_of, random_shape,
                          random_view, same_result)

ORDERED = [n for n in DTYPES if kind_of(n) != "complex"]
FLOATS = [n for n in DTYPES if kind_of(n) == "float"]


def masked_input(rng, arr):
    """A mask over arr's axes (or None) and arr with masked-out positions
    zero (what the kernels read there)."""
    if not arr.ndim or rng.random() >= 0.15:
        return None, arr
    mask = []
    for n in arr.shape:
        b = rng.randint(0, n)
        e = rng.randint(b, n)
        mask.append((b, e))
    zeroed = np.zeros_like(arr)
    index = tuple(slice(b, e) for b, e in mask)
    zeroed[index] = arr[index]
    return mask, zeroed


def input_view(arr, base, mask):
    v = sk.view_of(arr, base)
    if mask is not None:
        v = sk.make_view(arr.shape, [s // arr.itemsize for s in arr.strides],
                         v.offset, mask)
    return v


def random_input(rng, name, kind, min_rank=1):
    shape = random_shape(rng, 4)
    while len(shape) < min_rank:
        shape.append(rng.choice((1, 3, 17, 33)))
    if rng.random() < 0.05 and shape:
        shape[rng.randrange(len(shape))] = 0
    base, arr = random_view(rng, name, shape, kind)
    if rng.random() < 0.1 and shape:
        arr = np.broadcast_to(arr[..., :1], shape)
    mask, seen = masked_input(rng, arr)
    return base, arr, mask, seen


def test_any_all_mean(rng, tally):
    for _ in range(1500):
        op = rng.choice(["any", "all", "mean"])
        name = rng.choice(FLOATS if op == "mean" else DTYPES)
        base, arr, mask, seen = random_input(rng, name, "special" if op !=
                                             "mean" else "sum", 0)
        shape = list(arr.shape)
        axes = [d for d in range(len(shape)) if rng.random() < 0.5]
        axes = [d - len(shape) if rng.random() < 0.3 else d for d in axes]
        keepdims = rng.random() < 0.5
        wide = computable(name, seen)
        with np.errstate(all="ignore"):
            if op == "mean":
                wide = wide.astype(np.float64)
                want = np.asarray(np.mean(wide, axis=tuple(axes),
                                          keepdims=keepdims))
            else:
                fn = np.any if op == "any" else np.all
                want = np.asarray(fn(wide, axis=tuple(axes),
                                     keepdims=keepdims))
        out_name = name if op == "mean" else "bool"
        out_base, out = random_view(rng, out_name, list(want.shape), "special")
        st = sk.reduce(op, name, input_view(arr, base, mask), base, axes,
                       sk.view_of(out, out_base), out_base)
        what = (f"{op} {name} {shape} strides {arr.strides} mask {mask} axes "
                f"{axes} keepdims {keepdims}: status {st} {sk.last_error()}")
        if op != "mean":
            tally.check(st == sk.SK_OK and np.array_equal(out, want), what)
            continue
        part = {"float16": np.float16, BF16: None}.get(name, name)
        eps = 2.0 ** -7 if part is None else float(np.finfo(part).eps)
        count = max(1, seen.size // max(1, want.size))
        got = computable(name, out).astype(np.float64)
        with np.errstate(all="ignore"):
            scale = np.mean(np.abs(wide), axis=tuple(axes), keepdims=keepdims)
            err = np.abs(got - want)
        close = ((got == want) | (np.isnan(got) & np.isnan(want))
                 | (err <= 4 * (count + 2) * eps * scale + eps * np.abs(want)))
        tally.check(st == sk.SK_OK and bool(np.all(close)), what)
    # NumPy's mean of integers is float64: refused, cast first.
    a = np.arange(4, dtype=np.int32)
    out = np.zeros(1, np.int32)
    st = sk.reduce("mean", "int32", sk.view_of(a, a), a, [0],
                   sk.make_view([], [], 0), out)
    tally.check(st == sk.SK_ERR_UNSUPPORTED, f"mean int32: status {st}")


def test_arg_reduce(rng, tally):
    for _ in range(2000):
        name = rng.choice(ORDERED)
        op = rng.choice(["argmin", "argmax"])
        base, arr, mask, seen = random_input(rng, name, "special")
        rank = arr.ndim
        # Axis 0 and the last axis most often.
        axis = rng.choice([0, rank - 1, rng.randrange(rank)])
        if rng.random() < 0.3:
            axis -= rank
        keepdims = rng.random() < 0.3
        fn = np.argmin if op == "argmin" else np.argmax
        try:
            want = np.asarray(fn(computable(name, seen), axis=axis,
                                 keepdims=keepdims))
        except ValueError:
            want = None
        out_shape = (list(want.shape) if want is not None else
                     [n for d, n in enumerate(arr.shape) if d != axis % rank])
        out_base, out = random_view(rng, "int64", out_shape, "special")
        st = sk.arg_reduce(op, name, input_view(arr, base, mask), base, axis,
                           sk.view_of(out, out_base), out_base)
        what = (f"{op} {name} {list(arr.shape)} strides {arr.strides} mask "
                f"{mask} axis {axis} keepdims {keepdims}: status {st} "
                f"{sk.last_error()}")
        if want is None:
            tally.check(st == sk.SK_ERR_INVALID, what)
        else:
            tally.check(st == sk.SK_OK and np.array_equal(out, want), what)
    # Complex: refused (NumPy orders it lexicographically).
    z = np.zeros(3, np.complex64)
    out = np.zeros(1, np.int64)
    st = sk.arg_reduce("argmax", "complex64", sk.view_of(z, z), z, 0,
                       sk.make_view([], [], 0), out)
    tally.check(st == sk.SK_ERR_UNSUPPORTED, f"argmax complex64: status {st}")


def numpy_scan(op, name, seen, axis):
    """NumPy's scan in dtype `name` (bfloat16: float32 steps rounded)."""
    ufunc = {"cumsum": np.add, "cumprod": np.multiply, "cummin": np.minimum,
             "cummax": np.maximum}[op]
    if name != BF16:
        with np.errstate(all="ignore"):
            return ufunc.accumulate(seen, axis=axis, dtype=seen.dtype)
    moved = np.moveaxis(seen, axis, 0)
    out = np.empty_like(moved)
    if moved.shape[0]:
        out[0] = moved[0]
    for k in range(1, moved.shape[0]):
        with np.errstate(all="ignore"):
            out[k] = f32_to_bf16(ufunc(bf16_to_f32(out[k - 1]),
                                       bf16_to_f32(moved[k])))
    return np.moveaxis(out, 0, axis)


def test_scan(rng, tally):
    for _ in range(2500):
        name = rng.choice(DTYPES)
        ops = ["cumsum", "cumprod"]
        if kind_of(name) != "complex":
            ops += ["cummin", "cummax"]
        op = rng.choice(ops)
        kind = "prod" if op == "cumprod" else "special"
        base, arr, mask, seen = random_input(rng, name, kind)
        rank = arr.ndim
        axis = rng.choice([0, rank - 1, rng.randrange(rank)])
        if rng.random() < 0.3:
            axis -= rank
        want = numpy_scan(op, name, seen, axis)
        in_place = (mask is None and arr.flags.writeable and
                    rng.random() < 0.15 and 0 not in arr.strides)
        out_mask = None
        if in_place:
            out_base, out = base, arr
            before = None
        else:
            out_base, out = random_view(rng, name, list(arr.shape), "special")
            before = out.copy()
            if rng.random() < 0.1:
                out_mask, _ = masked_input(random.Random(rng.random()), out)
        out_view = input_view(out, out_base, out_mask)
        st = sk.scan(op, name, input_view(arr, base, mask), base, axis,
                     out_view, out_base)
        what = (f"{op} {name} {list(arr.shape)} strides {arr.strides} mask "
                f"{mask} axis {axis} in place {in_place} out mask {out_mask}: "
                f"status {st} {sk.last_error()}")
        if out_mask is not None:
            index = tuple(slice(b, e) for b, e in out_mask)
            expect = before.copy()
            expect[index] = want[index]
            want = expect
        if op == "cumprod" and kind_of(name) == "complex":
            # NumPy 1.24's complex accumulate loop (AVX-512F) fuses the
            # products' adds (fma); stridekit keeps np.multiply's formula
            # (no fma): within a few ulps per step of unit-modulus values.
            n = max(arr.shape[axis], 1)
            eps = float(np.finfo(want.real.dtype).eps)
            with np.errstate(all="ignore"):
                close = ((out == want) | (np.isnan(out) & np.isnan(want))
                         | (np.abs(out - want) <= 4 * (n + 1) * eps))
            tally.check(st == sk.SK_OK and bool(np.all(close)), what)
            continue
        tally.check(st == sk.SK_OK and same_result(name, out, want), what)


def main():
    warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's empty means.
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 17
    rng = random.Random(seed)
    tally = sk.Tally(f"scan_diff (seed {seed})")
    test_any_all_mean(rng, tally)
    test_arg_reduce(rng, tally)
    test_scan(rng, tally)
    tally.finish()


if __name__ == "__main__":
    main()
