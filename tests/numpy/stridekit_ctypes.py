"""ctypes bindings of the stridekit C ABI for the NumPy differential tests.

The shared library's path comes from the STRIDEKIT_LIB environment variable
(tests/meson.build sets it). Each wrapper returns (status, result) so tests
can compare error behaviour with NumPy's exceptions.
"""
import ctypes
import os

import numpy as np

SK_MAX_NDIM = 32
SK_OK = 0
SK_ERR_INVALID = 1
SK_ERR_OUT_OF_RANGE = 2
SK_ERR_OVERFLOW = 3
SK_ERR_NEEDS_COPY = 4
SK_ERR_UNSUPPORTED = 5
SK_ERR_NOMEM = 6

c_int64_p = ctypes.POINTER(ctypes.c_int64)


class SkView(ctypes.Structure):
    _fields_ = [
        ("ndim", ctypes.c_int32),
        ("has_mask", ctypes.c_int32),
        ("offset", ctypes.c_int64),
        ("shape", ctypes.c_int64 * SK_MAX_NDIM),
        ("strides", ctypes.c_int64 * SK_MAX_NDIM),
        ("mask_begin", ctypes.c_int64 * SK_MAX_NDIM),
        ("mask_end", ctypes.c_int64 * SK_MAX_NDIM),
    ]


def load():
    path = os.environ.get("STRIDEKIT_LIB")
    if not path:
        raise SystemExit("STRIDEKIT_LIB is not set (path of libstridekit.so)")
    lib = ctypes.CDLL(path)
    lib.sk_last_error.restype = ctypes.c_char_p
    lib.sk_version.restype = ctypes.c_char_p
    lib.sk_target_active.restype = ctypes.c_char_p
    lib.sk_target_name.restype = ctypes.c_char_p
    lib.sk_target_name.argtypes = [ctypes.c_int32]
    lib.sk_ravel_batch.argtypes = [ctypes.c_int64, ctypes.c_int32, c_int64_p,
                                   c_int64_p, ctypes.c_int64, c_int64_p]
    lib.sk_unravel_batch.argtypes = [ctypes.c_int64, c_int64_p, ctypes.c_int32,
                                     c_int64_p, c_int64_p]
    lib.sk_view_offsets.argtypes = [ctypes.POINTER(SkView), ctypes.c_int64,
                                    ctypes.c_int64, c_int64_p]
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


def _pointer(array):
    return array.ctypes.data_as(c_int64_p)


def targets():
    """Available targets, best first, "reference" last."""
    return [LIB.sk_target_name(i).decode() for i in range(LIB.sk_target_count())]


def force_target(name):
    """Forces `name` (None: the best); returns the status."""
    return LIB.sk_target_force(None if name is None else name.encode())


def active_target():
    return LIB.sk_target_active().decode()


def ravel_batch(indices, strides, offset):
    """indices: (n, ndim) int64 array. Returns (status, offsets[n])."""
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    out = np.empty(indices.shape[0], dtype=np.int64)
    st = LIB.sk_ravel_batch(indices.shape[0], len(strides), _pointer(indices),
                            int64_array(strides), offset, _pointer(out))
    return st, out


def unravel_batch(flat, shape):
    """Returns (status, multi-indices as an (n, ndim) int64 array)."""
    flat = np.ascontiguousarray(flat, dtype=np.int64)
    out = np.empty((flat.size, len(shape)), dtype=np.int64)
    st = LIB.sk_unravel_batch(flat.size, _pointer(flat), len(shape),
                              int64_array(shape), _pointer(out))
    return st, out


def make_view(shape, strides, offset, mask=None):
    """An SkView; mask is None or a list of (begin, end) per axis."""
    v = SkView()
    v.ndim = len(shape)
    v.offset = offset
    for d, (size, stride) in enumerate(zip(shape, strides)):
        v.shape[d] = size
        v.strides[d] = stride
    if mask is not None:
        v.has_mask = 1
        for d, (begin, end) in enumerate(mask):
            v.mask_begin[d] = begin
            v.mask_end[d] = end
    return v


def view_offsets(view, begin, count):
    """Returns (status, offsets[count])."""
    out = np.empty(max(count, 0), dtype=np.int64)
    st = LIB.sk_view_offsets(ctypes.byref(view), begin, count, _pointer(out))
    return st, out
