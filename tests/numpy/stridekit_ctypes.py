"""ctypes bindings of the stridekit C ABI for the NumPy differential tests.

The shared library's path comes from the STRIDEKIT_LIB environment variable
(tests/meson.build sets it). Each wrapper returns (status, result) so tests
can compare error behaviour with NumPy's exceptions.
"""
import ctypes
import os

SK_MAX_NDIM = 32
SK_OK = 0
SK_ERR_INVALID = 1
SK_ERR_OUT_OF_RANGE = 2
SK_ERR_OVERFLOW = 3
SK_ERR_NEEDS_COPY = 4
SK_ERR_UNSUPPORTED = 5
SK_ERR_NOMEM = 6

c_int64_p = ctypes.POINTER(ctypes.c_int64)


def load():
    path = os.environ.get("STRIDEKIT_LIB")
    if not path:
        raise SystemExit("STRIDEKIT_LIB is not set (path of libstridekit.so)")
    lib = ctypes.CDLL(path)
    lib.sk_last_error.restype = ctypes.c_char_p
    lib.sk_version.restype = ctypes.c_char_p
    return lib


LIB = load()


def last_error():
    return LIB.sk_last_error().decode()


def int64_array(values, size=None):
    values = list(values)
    arr = (ctypes.c_int64 * max(1, size if size is not None else len(values)))()
    for i, v in enumerate(values):
        arr[i] = v
    return arr


def numel(shape):
    out = ctypes.c_int64()
    st = LIB.sk_numel(len(shape), int64_array(shape), ctypes.byref(out))
    return st, out.value


def c_strides(shape):
    out = int64_array([], len(shape))
    st = LIB.sk_c_strides(len(shape), int64_array(shape), out)
    return st, tuple(out[: len(shape)])


def ravel_index(index, strides):
    out = ctypes.c_int64()
    st = LIB.sk_ravel_index(len(index), int64_array(index), int64_array(strides),
                            ctypes.byref(out))
    return st, out.value


def unravel_index(k, shape):
    out = int64_array([], len(shape))
    st = LIB.sk_unravel_index(ctypes.c_int64(k), len(shape), int64_array(shape), out)
    return st, tuple(out[: len(shape)])


def resolve_reshape(shape, spec):
    out = int64_array([], len(spec))
    st = LIB.sk_resolve_reshape(len(shape), int64_array(shape), len(spec),
                                int64_array(spec), out)
    return st, tuple(out[: len(spec)])


def shape_list_args(shapes):
    """(n, ndims, shapes) arguments for a list of shapes; keeps the arrays alive
    through the returned tuple."""
    n = len(shapes)
    ndims = (ctypes.c_int32 * max(1, n))(*[len(s) for s in shapes])
    arrays = [int64_array(s) for s in shapes]
    ptrs = (c_int64_p * max(1, n))(*[ctypes.cast(a, c_int64_p) for a in arrays])
    return n, ndims, ptrs, arrays


def broadcast_shapes(shapes):
    n, ndims, ptrs, _arrays = shape_list_args(shapes)
    out_ndim = ctypes.c_int32()
    out = int64_array([], SK_MAX_NDIM)
    st = LIB.sk_broadcast_shapes(n, ndims, ptrs, ctypes.byref(out_ndim), out)
    return st, tuple(out[: out_ndim.value])


class Tally:
    """Counts differential cases and collects the first few mismatches."""

    def __init__(self, name):
        self.name = name
        self.cases = 0
        self.failures = []

    def check(self, ok, what):
        self.cases += 1
        if not ok and len(self.failures) < 20:
            self.failures.append(what)
        elif not ok:
            self.failures.append(None)

    def finish(self):
        bad = len(self.failures)
        print(f"{self.name}: {self.cases} cases, {bad} mismatches")
        for f in self.failures[:20]:
            print("  MISMATCH:", f)
        raise SystemExit(1 if bad else 0)


def einsum_shape(spec, shapes):
    """sk_einsum_shape: NumPy subscripts, or OCANNL notation with "=>"."""
    n, ndims, ptrs, _arrays = shape_list_args(shapes)
    out_ndim = ctypes.c_int32()
    out = int64_array([], SK_MAX_NDIM)
    st = LIB.sk_einsum_shape(spec.encode(), n, ndims, ptrs,
                             ctypes.byref(out_ndim), out)
    return st, tuple(out[: out_ndim.value])
