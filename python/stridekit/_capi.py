"""ctypes declarations of the C ABI (stridekit/stridekit.h, docs/c_abi.md),
for views and the calls the extension's fast path leaves to Python.

The library is the extension module stridekit._ext itself (it exports the
C ABI's sk_* symbols): one copy of the library, one thread setting and one
forced target for both layers.
"""
import ctypes

from . import _ext
from ._errors import StridekitError

SK_MAX_NDIM = 32
SK_OK = 0
SK_C_CONTIGUOUS, SK_F_CONTIGUOUS, SK_BROADCAST, SK_MASKED = 1, 2, 4, 8

i32, i64, u32, vp = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint32, ctypes.c_void_p
i64p = ctypes.POINTER(i64)
i32p = ctypes.POINTER(i32)


class SkView(ctypes.Structure):
    """sk_view (layout fixed by the contract)."""

    _fields_ = [
        ("ndim", i32),
        ("has_mask", i32),
        ("offset", i64),
        ("shape", i64 * SK_MAX_NDIM),
        ("strides", i64 * SK_MAX_NDIM),
        ("mask_begin", i64 * SK_MAX_NDIM),
        ("mask_end", i64 * SK_MAX_NDIM),
    ]


SkViewP = ctypes.POINTER(SkView)


lib = ctypes.CDLL(_ext.__file__)

_SIGNATURES = {
    "sk_last_error": (ctypes.c_char_p, []),
    "sk_version": (ctypes.c_char_p, []),
    "sk_broadcast_shapes": (i32, [i32, i32p, ctypes.POINTER(i64p), i32p, i64p]),
    "sk_view_make": (i32, [i32, i64p, i64p, i64, SkViewP]),
    "sk_view_reshape": (i32, [SkViewP, i32, i64p, SkViewP]),
    "sk_view_expand": (i32, [SkViewP, i32, i64p, SkViewP]),
    "sk_view_permute": (i32, [SkViewP, i32p, SkViewP]),
    "sk_view_shrink": (i32, [SkViewP, i64p, i64p, SkViewP]),
    "sk_view_pad": (i32, [SkViewP, i64p, i64p, SkViewP]),
    "sk_view_flip": (i32, [SkViewP, i32, SkViewP]),
    "sk_view_slice": (i32, [SkViewP, ctypes.c_char_p, SkViewP]),
    "sk_view_squeeze": (i32, [SkViewP, i32, i32p, SkViewP]),
    "sk_view_unsqueeze": (i32, [SkViewP, i32, i32p, SkViewP]),
    "sk_view_swapaxes": (i32, [SkViewP, i32, i32, SkViewP]),
    "sk_view_moveaxis": (i32, [SkViewP, i32, i32p, i32p, SkViewP]),
    "sk_view_flags": (u32, [SkViewP]),
    "sk_view_span": (i32, [SkViewP, i64p, i64p]),
    "sk_view_from_dlpack": (i32, [vp, SkViewP, i32p, ctypes.POINTER(vp)]),
    "sk_target_active": (ctypes.c_char_p, []),
    "sk_target_count": (i32, []),
    "sk_target_name": (ctypes.c_char_p, [i32]),
    "sk_target_force": (i32, [ctypes.c_char_p]),
    "sk_copy": (i32, [i32, SkViewP, vp, SkViewP, vp, vp]),
    "sk_cast": (i32, [i32, SkViewP, vp, i32, SkViewP, vp]),
    "sk_binary": (i32, [i32, i32, SkViewP, vp, SkViewP, vp, SkViewP, vp]),
    "sk_unary": (i32, [i32, i32, SkViewP, vp, SkViewP, vp]),
    "sk_reduce": (i32, [i32, i32, SkViewP, vp, i32, i32p, SkViewP, vp]),
    "sk_set_threads": (i32, [i32]),
    "sk_get_threads": (i32, []),
    "sk_einsum_shape": (i32, [ctypes.c_char_p, i32, i32p, ctypes.POINTER(i64p),
                              i32p, i64p]),
    "sk_fill": (i32, [i32, SkViewP, vp, vp]),
    "sk_compare": (i32, [i32, i32, SkViewP, vp, SkViewP, vp, SkViewP, vp]),
    "sk_where": (i32, [i32, SkViewP, vp, SkViewP, vp, SkViewP, vp, SkViewP,
                       vp]),
    "sk_arg_reduce": (i32, [i32, i32, SkViewP, vp, i32, SkViewP, vp]),
    "sk_scan": (i32, [i32, i32, SkViewP, vp, i32, SkViewP, vp]),
    "sk_einsum": (i32, [ctypes.c_char_p, i32, i32, ctypes.POINTER(SkViewP),
                        ctypes.POINTER(vp), SkViewP, vp]),
}
for _name, (_res, _args) in _SIGNATURES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args


def call(name, *args):
    """Calls sk_<name>; raises StridekitError with sk_last_error() on failure."""
    status = getattr(lib, name)(*args)
    if status != SK_OK:
        raise StridekitError(name, status, lib.sk_last_error().decode())


def int64s(values):
    values = [int(v) for v in values]
    return (i64 * max(1, len(values)))(*values)


def int32s(values):
    values = [int(v) for v in values]
    return (i32 * max(1, len(values)))(*values)


def shape_list(shapes):
    """(n, ndims, pointers, keep-alive) arguments for a list of shapes."""
    arrays = [int64s(s) for s in shapes]
    ndims = int32s([len(s) for s in shapes])
    ptrs = (i64p * max(1, len(shapes)))(*[ctypes.cast(a, i64p) for a in arrays])
    return len(shapes), ndims, ptrs, arrays
