"""NumPy differential test of the C ABI "Shapes" section.

Thousands of seeded random cases for sk_broadcast_shapes, sk_unravel_index,
sk_ravel_index, sk_c_strides and sk_resolve_reshape; NumPy raising must
coincide with stridekit returning an error status. Documented departures:
  * unravel_index of k=0 in a zero-size shape returns zeros (Nx seed 000),
    where np.unravel_index raises;
  * reshape specs with a dim below -1 are rejected (issue 2), where NumPy
    1.24 treats any negative dim as the unknown one.
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def random_shape(rng, max_rank=5, dims=(0, 1, 1, 2, 3, 4, 5, 7)):
    return tuple(rng.choice(dims) for _ in range(rng.randint(0, max_rank)))


def numpy_outcome(fn):
    try:
        return True, fn()
    except (ValueError, IndexError, TypeError, MemoryError):
        return False, None


def zero_strided(shape):
    """A NumPy view of the given (possibly huge) shape that owns one element."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), shape=shape,
                                           strides=(0,) * len(shape))


def test_broadcast_shapes(rng, tally):
    for _ in range(3000):
        n = rng.randint(1, 4)
        base = random_shape(rng)
        shapes = []
        for _ in range(n):
            s = list(base[rng.randint(0, len(base)):])
            for i in range(len(s)):
                if rng.random() < 0.3:
                    s[i] = 1
                elif rng.random() < 0.05:
                    s[i] = rng.choice((0, 2, 3, 6))
            shapes.append(tuple(s))
        ok, want = numpy_outcome(lambda: np.broadcast_shapes(*shapes))
        st, got = sk.broadcast_shapes(shapes)
        tally.check((st == sk.SK_OK) == ok and (not ok or tuple(want) == got),
                    f"broadcast {shapes}: numpy {want if ok else 'raises'}, "
                    f"stridekit status {st} {got} {sk.last_error()}")
    # Zero shapes, and huge dims (no allocation is involved).
    for shapes in ([], [(2**62, 1)], [(2**62, 1), (1, 2)],
                   [(2**62, 1), (1, 2**62)]):
        ok, want = numpy_outcome(lambda: np.broadcast_shapes(*shapes))
        st, got = sk.broadcast_shapes(shapes)
        tally.check((st == sk.SK_OK) == ok and (ok or st == sk.SK_ERR_OVERFLOW)
                    and (not ok or tuple(want) == got),
                    f"broadcast {shapes}: {want} vs {st} {got}")


def test_unravel_index(rng, tally):
    for _ in range(3000):
        shape = random_shape(rng, max_rank=6)
        size = int(np.prod(shape, dtype=np.int64))
        k = rng.randint(-2, size + 2)
        st, got = sk.unravel_index(k, shape)
        if size == 0 and k == 0:  # Seed 000: accepted, all zeros.
            tally.check(st == sk.SK_OK and got == (0,) * len(shape),
                        f"unravel 0 in zero-size {shape}: {st} {got}")
            continue
        ok, want = numpy_outcome(lambda: np.unravel_index(k, shape))
        want = tuple(int(w) for w in want) if ok else None
        tally.check((st == sk.SK_OK) == ok and (not ok or want == got),
                    f"unravel {k} {shape}: numpy {want}, stridekit {st} {got}")
        if st != sk.SK_OK:
            tally.check(st == sk.SK_ERR_OUT_OF_RANGE, f"unravel status {st}")
    # Indices near the int64 limit.
    for shape in [(2**62, 2), (3, 2**61), (INT64_MAX,)]:
        for k in (0, INT64_MAX - 1, INT64_MAX, INT64_MIN):
            ok, want = numpy_outcome(lambda: np.unravel_index(k, shape))
            want = tuple(int(w) for w in want) if ok else None
            st, got = sk.unravel_index(k, shape)
            tally.check((st == sk.SK_OK) == ok and (not ok or want == got),
                        f"unravel {k} {shape}: numpy {want}, stridekit {st} {got}")


def fits(x):
    return INT64_MIN <= x <= INT64_MAX


def test_ravel_index(rng, tally):
    for _ in range(2000):
        shape = tuple(d for d in random_shape(rng) if d > 0)
        index = tuple(rng.randrange(d) for d in shape)
        strides = tuple(int(s) for s in
                        np.empty(shape, np.int8).strides) if shape else ()
        want = int(np.ravel_multi_index(index, shape)) if shape else 0
        st, got = sk.ravel_index(index, strides)
        tally.check(st == sk.SK_OK and got == want,
                    f"ravel {index} {strides}: numpy {want}, stridekit {st} {got}")
    # Arbitrary strides: exact integer arithmetic; any step beyond int64 errors.
    for _ in range(2000):
        rank = rng.randint(0, 5)
        big = rng.random() < 0.3
        index = [rng.randint(-10, 10) for _ in range(rank)]
        strides = [rng.choice((rng.randint(-100, 100),
                               rng.randint(-2**62, 2**62) if big else 1))
                   for _ in range(rank)]
        total, ok = 0, True
        for i, s in zip(index, strides):
            ok = ok and fits(i * s) and fits(total + i * s)
            total += i * s
        st, got = sk.ravel_index(index, strides)
        tally.check((st == sk.SK_OK) == ok and (not ok or got == total)
                    and (ok or st == sk.SK_ERR_OVERFLOW),
                    f"ravel {index} {strides}: want {total if ok else 'overflow'},"
                    f" stridekit {st} {got}")


def test_c_strides(rng, tally):
    for _ in range(2000):
        shape = tuple(d for d in random_shape(rng, max_rank=6) if d > 0)
        want = np.empty(shape, np.int8).strides
        st, got = sk.c_strides(shape)
        tally.check(st == sk.SK_OK and tuple(want) == got,
                    f"c_strides {shape}: numpy {want}, stridekit {st} {got}")
    st, _ = sk.c_strides((2**62, 4, 2))
    tally.check(st == sk.SK_ERR_OVERFLOW, f"c_strides overflow status {st}")
    st, _ = sk.c_strides((2, -1))
    tally.check(st == sk.SK_ERR_INVALID, f"c_strides negative status {st}")


def test_resolve_reshape(rng, tally):
    for _ in range(3000):
        shape = random_shape(rng)
        size = int(np.prod(shape, dtype=np.int64))
        spec = list(random_shape(rng))
        if rng.random() < 0.5 and size > 0:
            # Build a spec that factors size, so successes are common.
            spec, rest = [], size
            for f in (2, 3, 5, 7):
                while rest % f == 0 and rng.random() < 0.7:
                    spec.append(f)
                    rest //= f
            spec.append(rest)
            rng.shuffle(spec)
        for _ in range(rng.choice((0, 1, 1, 1, 2))):
            if spec:
                spec[rng.randrange(len(spec))] = -1
        spec = tuple(spec)
        ok, want = numpy_outcome(lambda: np.empty(shape, np.int8).reshape(spec).shape)
        st, got = sk.resolve_reshape(shape, spec)
        tally.check((st == sk.SK_OK) == ok and (not ok or tuple(want) == got),
                    f"reshape {shape} -> {spec}: numpy {want if ok else 'raises'},"
                    f" stridekit {st} {got} {sk.last_error()}")
    # Huge shapes through zero-stride views (nothing allocated).
    for shape, spec in [((2**31, 2**31), (-1,)), ((2**62, 2), (2, -1)),
                        ((2**62,), (2**62, 2)), ((3,), (2**62, 4, 0))]:
        ok, want = numpy_outcome(lambda: zero_strided(shape).reshape(spec).shape)
        st, got = sk.resolve_reshape(shape, spec)
        tally.check((st == sk.SK_OK) == ok and (not ok or tuple(want) == got),
                    f"reshape {shape} -> {spec}: numpy {want if ok else 'raises'},"
                    f" stridekit {st} {got}")
    # Departure: dims below -1 are rejected.
    st, _ = sk.resolve_reshape((6,), (-2, 3))
    tally.check(st == sk.SK_ERR_INVALID, f"reshape -2 status {st}")


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20261122
    rng = random.Random(seed)
    tally = sk.Tally(f"shape_diff (seed {seed})")
    test_broadcast_shapes(rng, tally)
    test_unravel_index(rng, tally)
    test_ravel_index(rng, tally)
    test_c_strides(rng, tally)
    test_resolve_reshape(rng, tally)
    tally.finish()


if __name__ == "__main__":
    main()
