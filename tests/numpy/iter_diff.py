"""NumPy differential test of the strided iterator (sk_iter_run, sk_iter_new
/ sk_iter_next) driven from Python through ctypes, as a runtime's ufunc
loop would be.

A Python callback computes out = a + b chunk by chunk over random views
(permuted, flipped, step-sliced, broadcast inputs with size-1 and missing
axes, masked outputs) of float64 and int64 and of mixed element sizes
(int8 + int16 -> int64), on 1 and 3 threads; the result must equal NumPy's
np.add exactly, and positions outside an output mask must be untouched. A
reduction through SK_ITER_REDUCE_OK (the output expanded with stride 0 over
the reduced axes) must equal np.sum over those axes (int64: exact).
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk


def random_array(rng, dtype, shape):
    """(base, view): a view of exactly `shape` over a fresh 1-D base,
    with permuted axes, flips and step-2 slices."""
    rank = len(shape)
    order = list(range(rank))
    rng.shuffle(order)
    steps = [2 if rng.random() < 0.2 else 1 for _ in range(rank)]
    full = [n * s for n, s in zip(shape, steps)]
    size = int(np.prod([max(1, n) for n in full])) + 3
    base = (np.arange(size) * 7 % 1013 - 500).astype(dtype)
    start = rng.randint(0, 3)
    arr = base[start:start + int(np.prod(full))].reshape([full[d] for d in order])
    arr = arr.transpose(np.argsort(order))
    if rank:  # a 0-d array indexed by () gives a scalar copy
        arr = arr[tuple(slice(None, None, s) for s in steps)]
    for d in range(rank):
        if rng.random() < 0.25:
            arr = np.flip(arr, d)
    assert arr.shape == tuple(shape)
    return base, arr


def broadcast_input(rng, dtype, shape):
    if shape and rng.random() < 0.15:
        base, row = random_array(rng, dtype, shape[1:])
        return base, np.broadcast_to(row, shape)
    drop = rng.randint(0, len(shape)) if rng.random() < 0.3 else 0
    small = [1 if rng.random() < 0.3 else n for n in shape[drop:]]
    return random_array(rng, dtype, small)


def random_shape(rng, big):
    if big:  # Large enough to split over threads (8192 elements a part).
        return [rng.choice((64, 97, 128)), rng.choice((129, 200, 257))]
    return [rng.choice((0, 1, 2, 3, 5, 8, 17)) for _ in range(rng.randint(0, 5))]


def add_loop(types):
    def loop(ptrs, count, strides):
        out = sk.chunk_array(ptrs[0], count, strides[0], types[0])
        a = sk.chunk_array(ptrs[1], count, strides[1], types[1])
        b = sk.chunk_array(ptrs[2], count, strides[2], types[2])
        np.add(a, b, out=out, casting="unsafe")
    return loop


def test_add(rng, tally):
    for case in range(400):
        threads = 3 if case % 2 else 1
        assert sk.set_threads(threads) == sk.SK_OK
        mixed = rng.random() < 0.25
        types = ((np.int64, np.int8, np.int16) if mixed else
                 (rng.choice((np.float64, np.int64)),) * 3)
        shape = random_shape(rng, big=rng.random() < 0.2)
        a_base, a = broadcast_input(rng, types[1], shape)
        b_base, b = broadcast_input(rng, types[2], shape)
        out_base, out = random_array(rng, types[0], shape)
        out_base[:] = -12345
        ov = sk.view_of(out, out_base)
        box = tuple(slice(None) for _ in shape)
        if shape and rng.random() < 0.3:
            mask = []
            for n in shape:
                lo = rng.randint(0, n)
                hi = rng.randint(lo, n)
                mask.append((lo, hi))
            ov = sk.make_view(out.shape, [s // out.itemsize for s in out.strides],
                              ov.offset, mask)
            box = tuple(slice(lo, hi) for lo, hi in mask)
        operands = [(ov, out_base), (sk.view_of(a, a_base), a_base),
                    (sk.view_of(b, b_base), b_base)]
        st = sk.iter_run(operands, 0, add_loop(types))
        want = np.full(shape, -12345, dtype=types[0])
        want[box] = np.broadcast_to(np.add(a, b, dtype=types[0]), shape)[box]
        tally.check(st == sk.SK_OK and np.array_equal(out, want),
                    f"add {types} shape {shape} a {a.shape}{a.strides} "
                    f"b {b.shape}{b.strides} out {out.strides} box {box} "
                    f"threads {threads}: status {st} {sk.last_error()}")

        # The same chunks through sk_iter_new / sk_iter_next.
        out_base[:] = -12345
        st, text, chunks = sk.iter_chunks(operands)
        for ptrs, count, strides in chunks:
            add_loop(types)(ptrs, count, strides)
        tally.check(st == sk.SK_OK and np.array_equal(out, want),
                    f"sk_iter_next add {types} shape {shape} plan {text}: "
                    f"status {st} {sk.last_error()}")
    sk.set_threads(1)


def sum_loop(ptrs, count, strides):
    out = sk.chunk_array(ptrs[0], count, strides[0], np.int64)
    x = sk.chunk_array(ptrs[1], count, strides[1], np.int64)
    if strides[0] == 0:
        out[0] += x.sum()
    else:
        out += x


def test_reduce(rng, tally):
    for case in range(300):
        threads = 3 if case % 2 else 1
        assert sk.set_threads(threads) == sk.SK_OK
        shape = random_shape(rng, big=rng.random() < 0.2)
        base, x = random_array(rng, np.int64, shape)
        axes = tuple(d for d in range(len(shape)) if rng.random() < 0.5)
        kept = np.zeros(np.sum(x, axis=axes, keepdims=True).shape, np.int64)
        out = np.broadcast_to(kept, shape)  # stride 0 on the reduced axes
        operands = [(sk.view_of(out, kept), kept), (sk.view_of(x, base), base)]
        st = sk.iter_run(operands, sk.SK_ITER_REDUCE_OK, sum_loop)
        want = np.sum(x, axis=axes, keepdims=True)
        tally.check(st == sk.SK_OK and np.array_equal(kept, want),
                    f"sum {shape} axes {axes} threads {threads}: status {st} "
                    f"{sk.last_error()}")
        reduces = any(shape[d] > 1 for d in axes) and x.size > 0
        st = sk.iter_run(operands, 0, sum_loop)
        tally.check(st == (sk.SK_ERR_INVALID if reduces else sk.SK_OK) and
                    (not reduces or "SK_ITER_REDUCE_OK" in sk.last_error()),
                    f"sum {shape} axes {axes} without the flag: status {st} "
                    f"{sk.last_error()}")
    sk.set_threads(1)


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    rng = random.Random(seed)
    tally = sk.Tally(f"iter_diff (seed {seed})")
    test_add(rng, tally)
    test_reduce(rng, tally)
    tally.finish()


if __name__ == "__main__":
    main()
