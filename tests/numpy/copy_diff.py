"""NumPy differential test of sk_copy and sk_fill.

Random NumPy views (as_strided layouts, then chains of transposes, basic
slices with steps, flips and broadcast_to) are materialised by sk_copy into a
C-contiguous array and compared with np.ascontiguousarray; pads are compared
with np.pad; broadcast copies with np.broadcast_to; copies between
overlapping views of one buffer with np.copyto on the same layout.

Overlap: C_API.md requires the result to be as if the source were first
copied to a temporary. NumPy 1.24's np.copyto (and a[...] = b) gets this
wrong for overlapping 1-D views with different strides, e.g. with
buf = np.arange(31), np.copyto(buf[9:16], buf[7:20:2]) leaves
buf[9:16] = [7, 9, 11, 19, 19, 17, 19] instead of [7, 9, 11, 13, 15, 17, 19].
The oracle is therefore np.copyto(a, b.copy()); the cases where NumPy's
in-place copyto agrees are also counted, and must all agree with stridekit.
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk

DTYPES = [np.int8, np.int16, np.float32, np.float64, np.complex128]


def random_array(rng, dtype):
    """A random view of a random buffer: permuted strides, gaps, flips."""
    rank = rng.randint(0, 4)
    shape = [rng.choice((1, 2, 3, 5, 8, 17)) for _ in range(rank)]
    base = np.arange(4096, dtype=np.int64).astype(dtype)
    order = list(range(rank))
    rng.shuffle(order)
    stride, strides = 1, [0] * rank
    for d in reversed(order):
        strides[d] = stride
        stride *= shape[d] * rng.choice((1, 1, 2))
    if stride > 2000:
        return random_array(rng, dtype)
    arr = np.lib.stride_tricks.as_strided(
        base[rng.randint(0, 50):], shape=shape,
        strides=[s * base.itemsize for s in strides])
    return base, arr


def random_chain(rng, arr):
    for _ in range(rng.randint(0, 3)):
        op = rng.randint(0, 3)
        if op == 0 and arr.ndim:
            axes = list(range(arr.ndim))
            rng.shuffle(axes)
            arr = arr.transpose(axes)
        elif op == 1 and arr.ndim:
            index = tuple(slice(rng.choice((None, 0, 1)), rng.choice((None, -1)),
                                rng.choice((1, 2, -1, -2))) for _ in range(arr.ndim))
            arr = arr[index]
        elif op == 2 and arr.ndim:
            arr = np.flip(arr, rng.randrange(arr.ndim))
        else:
            shape = [rng.choice((2, 3)) for _ in range(rng.randint(0, 2))]
            shape += [n if rng.random() < 0.7 or n != 1 else 4 for n in arr.shape]
            arr = np.broadcast_to(arr, shape)
    return arr


def test_materialise(rng, tally):
    for _ in range(2500):
        dtype = rng.choice(DTYPES)
        base, arr = random_array(rng, dtype)
        arr = random_chain(rng, arr)
        want = np.ascontiguousarray(arr)
        out = np.full(want.shape, 99, dtype)
        out_base = out.reshape(-1)
        st = sk.copy(want.dtype, sk.view_of(arr, base), base,
                     sk.view_of(out, out_base), out_base)
        tally.check(st == sk.SK_OK and np.array_equal(out, want),
                    f"materialise {arr.shape} strides {arr.strides}: status {st}"
                    f" {sk.last_error()}")


def test_broadcast_copy(rng, tally):
    for _ in range(800):
        dtype = rng.choice(DTYPES)
        base, arr = random_array(rng, dtype)
        target = [rng.choice((2, 3))] + [n if n != 1 else rng.choice((1, 4))
                                         for n in arr.shape]
        want = np.broadcast_to(arr, target).copy()
        out = np.zeros(target, dtype)
        st = sk.copy(want.dtype, sk.view_of(arr, base), base,
                     sk.view_of(out, out.reshape(-1)), out.reshape(-1))
        tally.check(st == sk.SK_OK and np.array_equal(out, want),
                    f"broadcast {arr.shape} -> {target}: status {st}")


def test_pad(rng, tally):
    for _ in range(800):
        dtype = rng.choice(DTYPES)
        base, arr = random_array(rng, dtype)
        if arr.ndim == 0:
            continue  # np.pad needs at least one axis.
        widths = [(rng.randint(0, 3), rng.randint(0, 3)) for _ in range(arr.ndim)]
        value = rng.randint(-5, 5)
        want = np.pad(arr, widths, constant_values=value)
        v = sk.view_of(arr, base)
        shape = [n + b + a for n, (b, a) in zip(arr.shape, widths)]
        strides = [v.strides[d] for d in range(arr.ndim)]
        offset = v.offset - sum(b * s for (b, _), s in zip(widths, strides))
        mask = [(b, b + n) for n, (b, _) in zip(arr.shape, widths)]
        padded = sk.make_view(shape, strides, offset, mask)
        out = np.zeros(want.shape, dtype)
        fill = np.array([value], dtype)
        st = sk.copy(want.dtype, padded, base, sk.view_of(out, out.reshape(-1)),
                     out.reshape(-1), fill)
        tally.check(st == sk.SK_OK and np.array_equal(out, want),
                    f"pad {arr.shape} {widths}: status {st} {sk.last_error()}")


def same_layout(arr, base, other):
    """arr's layout (relative to base) over the buffer `other`."""
    start = (arr.__array_interface__["data"][0]
             - base.__array_interface__["data"][0]) // base.itemsize
    return np.lib.stride_tricks.as_strided(other[start:], arr.shape, arr.strides)


def test_overlapping_copy(rng, tally):
    numpy_agrees = 0
    for _ in range(1500):
        dtype = rng.choice(DTYPES)
        n = rng.randint(1, 300)
        buf = np.arange(n, dtype=np.int64).astype(dtype)
        length = rng.randint(0, n)
        step_a, step_b = rng.choice((1, -1, 2)), rng.choice((1, -1, 2))

        def view(step):
            span = (length - 1) * abs(step) + 1 if length else 0
            if span > n:
                return None
            start = rng.randint(0, n - span)
            v = buf[start:start + span:abs(step)]
            return v[::-1] if step < 0 else v
        a, b = view(step_a), view(step_b)
        if a is None or b is None or a.shape != b.shape:
            continue
        mine = buf.copy()
        st = sk.copy(buf.dtype, sk.view_of(b, buf), mine, sk.view_of(a, buf), mine)
        in_place = buf.copy()
        np.copyto(same_layout(a, buf, in_place), same_layout(b, buf, in_place))
        np.copyto(a, b.copy())  # As if through a temporary.
        numpy_agrees += np.array_equal(in_place, buf)
        tally.check(st == sk.SK_OK and np.array_equal(mine, buf),
                    f"overlap copy len {length} steps {step_a},{step_b}")
    print(f"overlap: NumPy's in-place copyto agreed in {numpy_agrees} cases")


def test_fill(rng, tally):
    for _ in range(500):
        dtype = rng.choice(DTYPES)
        base, arr = random_array(rng, dtype)
        arr = random_chain(rng, arr)
        if any(s == 0 and n > 1 for s, n in zip(arr.strides, arr.shape)):
            continue  # Broadcast views are not writeable.
        value = np.array([rng.randint(-9, 9)], dtype)
        want = base.copy()
        np.lib.stride_tricks.as_strided(
            want[(arr.__array_interface__["data"][0]
                  - base.__array_interface__["data"][0]) // base.itemsize:],
            arr.shape, arr.strides)[...] = value[0]
        st = sk.fill(base.dtype, sk.view_of(arr, base), base, value)
        tally.check(st == sk.SK_OK and np.array_equal(base, want),
                    f"fill {arr.shape} {arr.strides}: status {st}")


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rng = random.Random(seed)
    tally = sk.Tally(f"copy_diff (seed {seed})")
    test_materialise(rng, tally)
    test_broadcast_copy(rng, tally)
    test_pad(rng, tally)
    test_overlapping_copy(rng, tally)
    test_fill(rng, tally)
    # Errors: a bad dtype and a broadcast destination.
    out = np.zeros(4, np.float32)
    st = sk.copy("float32", sk.make_view([4], [1], 0), out,
                 sk.make_view([4], [0], 0), out)
    tally.check(st == sk.SK_ERR_INVALID, f"broadcast destination status {st}")
    tally.finish()


if __name__ == "__main__":
    main()
