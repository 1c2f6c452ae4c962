"""NumPy differential test of the batch index kernels on every target.

sk_unravel_batch against np.unravel_index, and sk_view_offsets against the
element offsets of NumPy views (slices, flips, transposes, broadcast_to,
as_strided) of an arange whose values are their own offsets; errors must
match (NumPy raises <=> an error status). Prints "N passed, N failed".
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from checks import check, report

INT64_MIN = np.iinfo(np.int64).min


def numpy_unravel(flat, shape):
    """np.unravel_index as an (n, ndim) array, or None when NumPy raises."""
    try:
        if len(shape) == 0:  # NumPy takes only scalars for 0-d shapes.
            for k in flat:
                np.unravel_index(int(k), ())
            return np.empty((len(flat), 0), dtype=np.int64)
        return np.stack(np.unravel_index(flat, shape), axis=-1).reshape(
            len(flat), len(shape))
    except ValueError:
        return None


def random_shape(rng, ndim):
    while True:
        shape = []
        for _ in range(ndim):
            r = rng.random()
            if r < 0.1:
                shape.append(rng.choice([0, 1]))
            elif r < 0.2:
                shape.append(rng.randint(1000, 1 << 24))
            else:
                shape.append(rng.randint(1, 12))
        if np.prod(shape, dtype=object) < (1 << 62):
            return tuple(shape)


def test_unravel(rng, target):
    for case in range(300):
        shape = random_shape(rng, rng.randint(0, 6))
        numel = int(np.prod(shape, dtype=object))
        n = rng.choice([0, 1, 3, 7, 8, 9, 17, 100, 1000])
        flat = np.array([rng.randrange(max(numel, 1)) for _ in range(n)],
                        dtype=np.int64)
        if n and rng.random() < 0.2:
            flat[rng.randrange(n)] = rng.choice(
                [-1, numel, numel + 5, INT64_MIN])
        want = numpy_unravel(flat, shape)
        st, got = sk.unravel_batch(flat, shape)
        what = f"unravel[{target}] case {case} shape {shape}"
        if want is None:
            check(st == sk.SK_ERR_OUT_OF_RANGE, f"{what}: status {st}, NumPy raised")
        else:
            check(st == sk.SK_OK and np.array_equal(got, want),
                  f"{what}: status {st} {sk.last_error()}")


def random_numpy_view(rng, base):
    """A view of `base` (1-D arange) made of NumPy view operations."""
    ndim = rng.randint(1, 5)
    shape = [rng.randint(1, 6) for _ in range(ndim)]
    size = int(np.prod(shape))
    start = rng.randrange(base.size - size + 1)
    v = base[start:start + size].reshape(shape)
    for _ in range(rng.randint(0, 4)):
        op = rng.randrange(5)
        if op == 0:
            v = np.flip(v, axis=rng.randrange(v.ndim))
        elif op == 1:
            v = v.transpose(rng.sample(range(v.ndim), v.ndim))
        elif op == 2:
            axis = rng.randrange(v.ndim)
            n = v.shape[axis]
            lo = rng.randint(0, n)
            hi = rng.randint(lo, n)
            step = rng.choice([1, 2, -1, -2])
            index = [slice(None)] * v.ndim
            index[axis] = slice(lo, hi, step) if step > 0 else slice(hi, lo, step)
            v = v[tuple(index)]
        elif op == 3 and v.ndim < 7:
            lead = tuple(rng.randint(1, 4) for _ in range(rng.randint(0, 2)))
            target = tuple(s if s != 1 else rng.randint(1, 4) for s in v.shape)
            v = np.broadcast_to(v, lead + target)
        else:
            v = np.lib.stride_tricks.as_strided(
                v, shape=v.shape, strides=tuple(v.strides), writeable=False)
    return v


def sk_view_of(v, base):
    offset = (v.__array_interface__["data"][0] -
              base.__array_interface__["data"][0]) // base.itemsize
    return sk.make_view(v.shape, [s // base.itemsize for s in v.strides],
                        offset)


def test_view_offsets(rng, target):
    base = np.arange(1 << 15, dtype=np.int64)
    for case in range(400):
        v = random_numpy_view(rng, base)
        view = sk_view_of(v, base)
        want = np.ascontiguousarray(v).ravel()  # Values are offsets.
        begin = rng.randint(0, want.size)
        count = rng.randint(0, want.size - begin)
        st, got = sk.view_offsets(view, begin, count)
        what = f"view_offsets[{target}] case {case} shape {v.shape} strides {v.strides}"
        check(st == sk.SK_OK and np.array_equal(got, want[begin:begin + count]),
              f"{what}: status {st} {sk.last_error()}")
        if v.ndim == 0 or rng.random() < 0.5:
            continue
        # A validity mask per axis, applied to NumPy's offsets with np.ix_.
        mask = []
        for s in v.shape:
            lo = rng.randint(0, s)
            mask.append((lo, rng.randint(lo, s)))
        valid = np.zeros(v.shape, dtype=bool)
        valid[np.ix_(*[np.arange(lo, hi) for lo, hi in mask])] = True
        masked_want = np.where(valid, v, INT64_MIN).ravel()
        view.has_mask = 1
        for d, (lo, hi) in enumerate(mask):
            view.mask_begin[d] = lo
            view.mask_end[d] = hi
        st, got = sk.view_offsets(view, 0, masked_want.size)
        check(st == sk.SK_OK and np.array_equal(got, masked_want),
              f"{what} mask {mask}: status {st} {sk.last_error()}")
    # NumPy rejects negative dims <=> SK_ERR_INVALID.
    for shape in [(2, -1), (-3,)]:
        try:
            np.lib.stride_tricks.as_strided(base, shape=shape,
                                            strides=(8,) * len(shape))
            numpy_raised = False
        except ValueError:
            numpy_raised = True
        st, _ = sk.view_offsets(sk.make_view(shape, [1] * len(shape), 0), 0, 0)
        check(numpy_raised and st == sk.SK_ERR_INVALID,
              f"view_offsets[{target}] negative dim {shape}: status {st}")


def main():
    targets = sk.targets()
    print("targets:", ", ".join(targets))
    for target in targets:
        check(sk.force_target(target) == sk.SK_OK, f"force {target}")
        check(sk.active_target() == target, f"active {target}")
        rng = random.Random(20240401)
        test_unravel(rng, target)
        test_view_offsets(rng, target)
    sk.force_target(None)
    return report()


if __name__ == "__main__":
    sys.exit(main())
