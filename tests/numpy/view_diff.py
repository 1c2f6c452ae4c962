"""NumPy differential test of the view algebra through the C ABI.

Random arrays are np.lib.stride_tricks.as_strided views of an int64 arange
(so every value is its own element offset). Random chains of reshape,
transpose, broadcast_to, flip and basic-indexing strings run on the NumPy
array and on its sk_view; after every step shape, strides (in elements, for
non-empty views), offset, contiguity flags and every element's offset must
agree; NumPy raising <=> an error status, and where NumPy's reshape would
copy, stridekit must say SK_ERR_NEEDS_COPY. Pad is compared with np.pad on
materialised values, also after further slicing of the padded view. (DLPack
is dlpack_diff.py.) Prints "N passed, N failed".
"""
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from checks import check, report

INT64_MIN = np.iinfo(np.int64).min
ITEM = 8


def random_base(rng):
    """(buffer, NumPy array, sk_view) of a random strided layout."""
    ndim = rng.randint(0, 4)
    shape = [rng.choice([0, 1]) if rng.random() < 0.1 else rng.randint(1, 5)
             for _ in range(ndim)]
    if rng.random() < 0.4:  # A (scaled, partly flipped) C layout.
        strides, step = [], rng.choice([1, 1, 2])
        for n in reversed(shape):
            strides.insert(0, step)
            step *= max(n, 1)
        strides = [s if rng.random() < 0.8 else -s for s in strides]
    else:
        strides = [rng.randint(-6, 6) for _ in shape]
    low = sum(s * (n - 1) for n, s in zip(shape, strides) if s < 0 and n > 0)
    high = sum(s * (n - 1) for n, s in zip(shape, strides) if s > 0 and n > 0)
    offset = -low + rng.randint(0, 5)
    buf = np.arange(offset + high + 8, dtype=np.int64)
    arr = np.lib.stride_tricks.as_strided(
        buf[offset:], shape=shape, strides=[s * ITEM for s in strides])
    st, view = sk.view_make(shape, strides, offset)
    assert st == sk.SK_OK, sk.last_error()
    return buf, arr, view


def offset_of(arr, buf):
    return (arr.__array_interface__["data"][0] -
            buf.__array_interface__["data"][0]) // ITEM


def compare(arr, buf, view, what):
    shape, strides, offset, mask = sk.view_fields(view)
    check(mask is None, f"{what}: unexpected mask {mask}")
    check(shape == arr.shape, f"{what}: shape {shape} vs NumPy {arr.shape}")
    if shape != arr.shape:
        return False
    # Empty views: stridekit's canonical C strides (the Nx rule, zero strides
    # left of a 0 dim) differ from NumPy's, and so may later offsets.
    if arr.size > 0:
        check(offset == offset_of(arr, buf),
              f"{what}: offset {offset} vs NumPy {offset_of(arr, buf)}")
        np_strides = tuple(s // ITEM for s in arr.strides)
        check(strides == np_strides,
              f"{what}: strides {strides} vs NumPy {np_strides}")
    flags = sk.view_flags(view)
    check(bool(flags & sk.SK_C_CONTIGUOUS) == arr.flags["C_CONTIGUOUS"],
          f"{what}: C flag {flags} vs NumPy {arr.flags['C_CONTIGUOUS']}")
    check(bool(flags & sk.SK_F_CONTIGUOUS) == arr.flags["F_CONTIGUOUS"],
          f"{what}: F flag {flags} vs NumPy {arr.flags['F_CONTIGUOUS']}")
    broadcast = arr.size > 0 and any(
        s == 0 and n > 1 for n, s in zip(arr.shape, arr.strides))
    check(bool(flags & sk.SK_BROADCAST) == broadcast, f"{what}: broadcast flag")
    st, offsets = sk.view_offsets(view, 0, arr.size)
    check(st == sk.SK_OK and np.array_equal(offsets, arr.ravel()),
          f"{what}: element offsets differ")
    st, span = sk.view_span(view)
    want = (0, 0) if arr.size == 0 else (int(arr.min()), int(arr.max()) + 1)
    check(st == sk.SK_OK and span == want, f"{what}: span {span} vs {want}")
    return True


def random_shape_for(rng, size):
    """A random shape with `size` elements (sometimes with a -1)."""
    dims = []
    rest = size
    if size == 0:
        dims = [0] + [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
        rng.shuffle(dims)
        return dims
    p = 2
    while rest > 1:
        while rest % p == 0:
            dims.append(p)
            rest //= p
        p += 1
    while len(dims) > 1 and rng.random() < 0.5:
        i = rng.randrange(len(dims) - 1)
        dims[i:i + 2] = [dims[i] * dims[i + 1]]
    rng.shuffle(dims)
    for _ in range(rng.randint(0, 2)):
        dims.insert(rng.randint(0, len(dims)), 1)
    if dims and rng.random() < 0.2:
        dims[rng.randrange(len(dims))] = -1
    if rng.random() < 0.05:
        dims.append(2)  # Wrong element count: both must refuse.
    return dims


def numpy_reshape_nocopy(arr, shape):
    """NumPy's reshape as a view: the array, "copy", or "error"."""
    b = arr.view()
    try:
        b.shape = shape
    except AttributeError:
        return "copy"
    except ValueError:
        return "error"
    return b


def random_index_text(rng, arr):
    items = []
    consuming = 0
    for d in range(arr.ndim + rng.choice([0, 0, 0, 1])):
        n = arr.shape[d] if d < arr.ndim else 3
        r = rng.random()
        if r < 0.1:
            items.append("None")
        elif r < 0.15 and "..." not in items:
            items.append("...")
            continue
        if r < 0.35:
            items.append(str(rng.randint(-n - 1, n)))
        elif r < 0.4:
            continue
        else:
            def bound():
                return "" if rng.random() < 0.4 else str(
                    rng.randint(-2 * n - 1, 2 * n + 1))
            step = rng.choice(["", "", "1", "2", "3", "-1", "-2", "-3", "0",
                               "-7", "7"]) if rng.random() < 0.98 else "0"
            text = bound() + ":" + bound()
            if step:
                text += ":" + step
            items.append(text)
        consuming += 1
    if rng.random() < 0.05:
        items.append("...")
    return ", ".join(items)


def numpy_index(arr, text):
    try:
        index = eval("np.index_exp[" + text + "]") if text else ()
        return arr[index]
    except (IndexError, ValueError):
        return None


def step(rng, buf, arr, view, log):
    """One random operation on both; returns (arr, view, log) or None."""
    op = rng.choice(["reshape", "transpose", "broadcast", "flip", "slice",
                     "slice"])
    if op == "reshape":
        shape = random_shape_for(rng, arr.size)
        log += f".reshape({shape})"
        want = numpy_reshape_nocopy(arr, shape)
        st, out = sk.view_reshape(view, shape)
        if isinstance(want, str):
            expected = (sk.SK_ERR_NEEDS_COPY if want == "copy"
                        else sk.SK_ERR_INVALID)
            check(st == expected,
                  f"{log}: NumPy {want}, stridekit status {st} "
                  f"{sk.last_error()}")
            return None
        check(st == sk.SK_OK, f"{log}: status {st} {sk.last_error()}")
        return (want, out, log) if st == sk.SK_OK else None
    if op == "transpose":
        axes = list(range(arr.ndim))
        rng.shuffle(axes)
        signed = [a - arr.ndim if rng.random() < 0.3 else a for a in axes]
        log += f".transpose({signed})"
        st, out = sk.view_permute(view, signed)
        check(st == sk.SK_OK, f"{log}: status {st} {sk.last_error()}")
        return np.transpose(arr, signed), out, log
    if op == "broadcast":
        shape = [rng.randint(1, 3) for _ in range(rng.randint(0, 1))]
        shape += [rng.randint(0, 3) if n == 1 and rng.random() < 0.7 else
                  (n if rng.random() < 0.9 else n + 1) for n in arr.shape]
        log += f".broadcast_to({shape})"
        try:
            want = np.broadcast_to(arr, shape)
        except ValueError:
            want = None
        st, out = sk.view_expand(view, shape)
        check((want is None) == (st != sk.SK_OK),
              f"{log}: NumPy {'raises' if want is None else 'works'}, "
              f"status {st} {sk.last_error()}")
        return (want, out, log) if want is not None and st == sk.SK_OK else None
    if op == "flip":
        if arr.ndim == 0:
            return arr, view, log
        axis = rng.randint(-arr.ndim, arr.ndim - 1)
        log += f".flip({axis})"
        st, out = sk.view_flip(view, axis)
        check(st == sk.SK_OK, f"{log}: status {st} {sk.last_error()}")
        return np.flip(arr, axis), out, log
    text = random_index_text(rng, arr)
    log += f"[{text}]"
    want = numpy_index(arr, text)
    st, out = sk.view_slice(view, text)
    check((want is None) == (st != sk.SK_OK),
          f"{log}: NumPy {'raises' if want is None else 'works'}, "
          f"status {st} {sk.last_error()}")
    if want is None or st != sk.SK_OK:
        return None
    if not isinstance(want, np.ndarray):  # Every axis indexed: a scalar.
        shape, _, offset, _ = sk.view_fields(out)
        check(shape == () and offset == int(want),
              f"{log}: scalar at {int(want)} vs view {shape} {offset}")
        return None
    return want, out, log


def test_chains(rng, cases):
    for case in range(cases):
        buf, arr, view = random_base(rng)
        log = f"case {case}: as_strided{arr.shape}{arr.strides}"
        if not compare(arr, buf, view, log):
            continue
        for _ in range(6):
            result = step(rng, buf, arr, view, log)
            if result is None:
                break
            arr, view, log = result
            if not compare(arr, buf, view, log):
                break


def materialise(view, buf):
    """The view's values (buf + 1 at each offset) with 0 where masked."""
    shape, _, _, _ = sk.view_fields(view)
    n = int(np.prod(shape, dtype=np.int64))
    st, offsets = sk.view_offsets(view, 0, n)
    assert st == sk.SK_OK, sk.last_error()
    values = np.where(offsets == INT64_MIN, 0,
                      buf[np.where(offsets == INT64_MIN, 0, offsets)] + 1)
    return values.reshape(shape)


def test_pad(rng, cases):
    for case in range(cases):
        buf, arr, view = random_base(rng)
        if arr.ndim == 0:  # np.pad takes no 0-d arrays.
            continue
        widths = [(rng.randint(0, 2), rng.randint(0, 2)) for _ in arr.shape]
        log = f"pad case {case}: as_strided{arr.shape}{arr.strides} {widths}"
        st, padded = sk.view_pad(view, [w[0] for w in widths],
                                 [w[1] for w in widths])
        check(st == sk.SK_OK, f"{log}: status {st} {sk.last_error()}")
        if st != sk.SK_OK:
            continue
        want = np.pad(arr + 1, np.array(widths, dtype=np.int64).reshape(-1, 2))
        got = materialise(padded, buf)
        check(got.shape == want.shape and np.array_equal(got, want),
              f"{log}: values differ")
        # Masks through further indexing, flips, transposes and reshapes.
        current = padded
        for _ in range(3):
            r = rng.random()
            if r < 0.5:
                text = random_index_text(rng, want)
                log += f"[{text}]"
                expected = numpy_index(want, text)
                st, out = sk.view_slice(current, text)
                if expected is None:
                    check(st != sk.SK_OK, f"{log}: NumPy raises, status {st}")
                    break
                if st == sk.SK_ERR_NEEDS_COPY and np.ndim(expected) == 0:
                    check(int(expected) == 0,  # A masked scalar.
                          f"{log}: needs copy for a valid element")
                    break
                check(st == sk.SK_OK, f"{log}: status {st} {sk.last_error()}")
                if st != sk.SK_OK:
                    break
                want, current = np.asarray(expected), out
            elif r < 0.7 and want.ndim > 0:
                axis = rng.randint(0, want.ndim - 1)
                log += f".flip({axis})"
                st, current = sk.view_flip(current, axis)
                want = np.flip(want, axis)
            elif r < 0.85:
                axes = list(range(want.ndim))
                rng.shuffle(axes)
                log += f".transpose({axes})"
                st, current = sk.view_permute(current, axes)
                want = np.transpose(want, axes)
            else:
                shape = random_shape_for(rng, want.size)
                log += f".reshape({shape})"
                try:
                    reshaped = np.reshape(want, shape)
                except ValueError:
                    reshaped = None
                st, out = sk.view_reshape(current, shape)
                if reshaped is None:
                    check(st == sk.SK_ERR_INVALID, f"{log}: status {st}")
                    break
                check(st in (sk.SK_OK, sk.SK_ERR_NEEDS_COPY),
                      f"{log}: status {st} {sk.last_error()}")
                if st != sk.SK_OK:
                    break
                want, current = reshaped, out
            got = materialise(current, buf)
            check(got.shape == want.shape and np.array_equal(got, want),
                  f"{log}: values differ")


def main():
    rng = random.Random(20261123)
    test_chains(rng, 2500)
    test_pad(rng, 800)
    return report()


if __name__ == "__main__":
    sys.exit(main())
