"""stridekit for NumPy: views as metadata and strided SIMD kernels.

Inputs are NumPy arrays, stridekit Views, anything with __dlpack__ (read
through the library's sk_view_from_dlpack, no copy) or what np.asarray
accepts. Results are new NumPy arrays (or out=, a writeable array or View of
the right shape and dtype). Dtypes follow NumPy's rules for each function;
an input of another dtype is first converted with the library's cast.
Failures raise StridekitError (a ValueError) with the library's message.
"""
import builtins
import ctypes

import numpy as np

from . import _capi
from ._capi import SkView, StridekitError, call, int32s, shape_list
from ._view import View, sk_dtype, view

__all__ = [
    "View", "StridekitError", "view", "ascontiguous", "copy", "astype",
    "add", "subtract", "multiply", "divide", "floor_divide", "minimum",
    "maximum", "power", "remainder", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "negative", "absolute",
    "sqrt", "square", "invert", "sum", "prod", "min", "max", "amin", "amax",
    "einsum", "set_threads", "get_threads", "targets", "active_target",
    "force_target", "__version__",
]
__version__ = _capi.lib.sk_version().decode()


def _ptr(v):
    return ctypes.c_void_p(v._ptr)


def _is_scalar(x):
    return isinstance(x, (bool, int, float, complex))


def _output(out, shape, dtype, name, broadcast=True):
    """(result to return, its View): a new C-order array of shape, or out
    (inputs broadcast to out's shape when `broadcast`: the library checks)."""
    if out is None:
        arr = np.empty(shape, dtype)
        return arr, view(arr)
    ov = view(out)
    if (not broadcast and ov.shape != tuple(shape)) or ov.dtype != np.dtype(dtype):
        raise ValueError(f"stridekit.{name}: out has shape {ov.shape} and dtype "
                         f"{ov.dtype}, expected shape {tuple(shape)} and dtype "
                         f"{np.dtype(dtype)}")
    if not ov._writeable:
        raise ValueError(f"stridekit.{name}: out is read-only")
    return out, ov


def _cast_view(v, dtype):
    """v itself when it has dtype, else a new array of v cast to dtype."""
    dtype = np.dtype(dtype)
    if v.dtype == dtype:
        return v
    return view(astype(v, dtype))


def _operand(x, dtype):
    """The View of x in dtype (Python scalars become 0-d arrays)."""
    if _is_scalar(x):
        return view(np.asarray(x, dtype=dtype))
    return _cast_view(view(x), dtype)


def _numpy_proxy(x):
    """A cheap stand-in for x in NumPy's own dtype resolution."""
    if _is_scalar(x):
        return x
    v = view(x)
    if v.ndim == 0:  # NumPy looks at 0-d values (value-based casting)
        return v.numpy()
    return np.empty((0,), v.dtype)


# ---- copies and casts

def copy(x, out=None, fill=None):
    """A copy of x (a padded View reads `fill`, default 0, in the padding);
    with out=, x is broadcast to out's shape (sk_copy)."""
    v = view(x)
    res, ov = _output(out, v.shape, v.dtype, "copy")
    fill_arr = None if fill is None else np.asarray(fill, dtype=v.dtype)
    call("sk_copy", sk_dtype(v.dtype), ctypes.byref(v._sk), _ptr(v),
         ctypes.byref(ov._sk), _ptr(ov),
         None if fill_arr is None else ctypes.c_void_p(fill_arr.ctypes.data))
    return res


def ascontiguous(x, fill=None):
    """x as a C-contiguous NumPy array: x itself when it already is one (as
    np.ascontiguousarray), else a copy made by the library's strided copy."""
    if isinstance(x, np.ndarray) and x.flags.c_contiguous:
        return x
    return copy(x, fill=fill)


def astype(x, dtype, out=None):
    """NumPy astype(dtype, casting='unsafe') by sk_cast."""
    v = view(x)
    dtype = np.dtype(dtype)
    res, ov = _output(out, v.shape, dtype, "astype")
    call("sk_cast", sk_dtype(v.dtype), ctypes.byref(v._sk), _ptr(v),
         sk_dtype(dtype), ctypes.byref(ov._sk), _ptr(ov))
    return res


# ---- elementwise

def _broadcast_shape(shapes):
    n, ndims, ptrs, _keep = shape_list(shapes)
    out_ndim = ctypes.c_int32()
    out = (ctypes.c_int64 * _capi.SK_MAX_NDIM)()
    call("sk_broadcast_shapes", n, ndims, ptrs, ctypes.byref(out_ndim), out)
    return tuple(out[: out_ndim.value])


def _make_binary(name, code, numpy_name, doc, dtype_rule=None):
    ufunc = getattr(np, numpy_name)

    def fn(a, b, out=None):
        dtype = ufunc(_numpy_proxy(a), _numpy_proxy(b)).dtype
        if dtype_rule:
            dtype = dtype_rule(dtype)
        va, vb = _operand(a, dtype), _operand(b, dtype)
        shape = _broadcast_shape([va.shape, vb.shape])
        res, ov = _output(out, shape, dtype, name)
        call("sk_binary", code, sk_dtype(dtype), ctypes.byref(va._sk), _ptr(va),
             ctypes.byref(vb._sk), _ptr(vb), ctypes.byref(ov._sk), _ptr(ov))
        return res

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"NumPy {numpy_name}(a, b) by sk_binary: {doc} a and b "
                  "broadcast; NumPy's result dtype.")
    return fn


def _floor_divide_dtype(dtype):
    if dtype.kind not in "biu":
        raise TypeError(f"stridekit.floor_divide: integers only (the library's "
                        f"SK_DIV is floor division for integers), got {dtype}")
    return dtype


add = _make_binary("add", 0, "add", "a + b (bool: or).")
subtract = _make_binary("subtract", 1, "subtract", "a - b.")
multiply = _make_binary("multiply", 2, "multiply", "a * b (bool: and).")
divide = _make_binary("divide", 3, "true_divide",
                      "a / b (integers in float64, as NumPy).")
floor_divide = _make_binary("floor_divide", 3, "floor_divide",
                            "a // b for integers (zero divisor: error).",
                            _floor_divide_dtype)
minimum = _make_binary("minimum", 4, "minimum", "NaN-propagating minimum.")
maximum = _make_binary("maximum", 5, "maximum", "NaN-propagating maximum.")
power = _make_binary("power", 6, "power", "a ** b.")
remainder = _make_binary("remainder", 7, "remainder", "a % b, floor modulo.")
bitwise_and = _make_binary("bitwise_and", 8, "bitwise_and", "a & b.")
bitwise_or = _make_binary("bitwise_or", 9, "bitwise_or", "a | b.")
bitwise_xor = _make_binary("bitwise_xor", 10, "bitwise_xor", "a ^ b.")
left_shift = _make_binary("left_shift", 11, "left_shift", "a << b.")
right_shift = _make_binary("right_shift", 12, "right_shift", "a >> b.")


def _make_unary(name, code, doc):
    ufunc = getattr(np, name)

    def fn(a, out=None):
        dtype = ufunc(_numpy_proxy(a)).dtype
        if not _is_scalar(a) and view(a).dtype.kind == "c" and dtype.kind != "c":
            dtype = view(a).dtype  # complex -> real: the library decides
        va = _operand(a, dtype)
        res, ov = _output(out, va.shape, dtype, name)
        call("sk_unary", code, sk_dtype(dtype), ctypes.byref(va._sk), _ptr(va),
             ctypes.byref(ov._sk), _ptr(ov))
        return res

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"NumPy {name}(a) by sk_unary: {doc}"
    return fn


negative = _make_unary("negative", 0, "-a.")
absolute = _make_unary("absolute", 1, "|a| (not for complex).")
sqrt = _make_unary("sqrt", 2, "square root (integers in NumPy's float type).")
square = _make_unary("square", 3, "a * a.")
invert = _make_unary("invert", 16, "~a (bool: not).")


# ---- reductions

def _reduce(name, code, x, axis, keepdims, out, dtype):
    v = view(x)
    if dtype is None and code in (0, 1):  # NumPy's accumulator for sum/prod
        dtype = np.sum(np.empty((1,), v.dtype)).dtype
    v = _cast_view(v, v.dtype if dtype is None else dtype)
    if axis is None:
        axes = tuple(range(v.ndim))
    elif isinstance(axis, (int, np.integer)):
        axes = (int(axis),)
    else:
        axes = tuple(int(a) for a in axis)
    reduced = {a % v.ndim for a in axes if -v.ndim <= a < v.ndim}
    shape = tuple(1 if d in reduced else n for d, n in enumerate(v.shape)
                  if keepdims or d not in reduced)
    res, ov = _output(out, shape, v.dtype, name, broadcast=False)
    call("sk_reduce", code, sk_dtype(v.dtype), ctypes.byref(v._sk), _ptr(v),
         len(axes), int32s(axes), ctypes.byref(ov._sk), _ptr(ov))
    return res


def sum(x, axis=None, keepdims=False, out=None, dtype=None):  # noqa: A001
    """np.sum by sk_reduce. As NumPy, bool and integers narrower than 64 bits
    accumulate in int64/uint64 (cast first); dtype= chooses."""
    return _reduce("sum", 0, x, axis, keepdims, out, dtype)


def prod(x, axis=None, keepdims=False, out=None, dtype=None):
    """np.prod by sk_reduce (accumulator dtype as sum)."""
    return _reduce("prod", 1, x, axis, keepdims, out, dtype)


def min(x, axis=None, keepdims=False, out=None):  # noqa: A001
    """np.min by sk_reduce (NaN propagates; empty axis: error)."""
    return _reduce("min", 2, x, axis, keepdims, out, None)


def max(x, axis=None, keepdims=False, out=None):  # noqa: A001
    """np.max by sk_reduce (NaN propagates; empty axis: error)."""
    return _reduce("max", 3, x, axis, keepdims, out, None)


amin, amax = min, max


# ---- einsum

def einsum(spec, *operands, out=None):
    """np.einsum(spec, *operands) by sk_einsum (float32, float64, int32,
    int64; operands converted to NumPy's common dtype). spec may also be
    OCANNL notation with "=>"."""
    views = [view(x) for x in operands]
    dtype = np.result_type(*[v.dtype for v in views])
    views = [_cast_view(v, dtype) for v in views]
    n, ndims, ptrs, _keep = shape_list([v.shape for v in views])
    out_ndim = ctypes.c_int32()
    out_shape = (ctypes.c_int64 * _capi.SK_MAX_NDIM)()
    spec_b = spec.encode()
    call("sk_einsum_shape", spec_b, n, ndims, ptrs, ctypes.byref(out_ndim),
         out_shape)
    res, ov = _output(out, tuple(out_shape[: out_ndim.value]), dtype, "einsum",
                      broadcast=False)
    vps = (ctypes.POINTER(SkView) * builtins.max(1, n))(
        *[ctypes.pointer(v._sk) for v in views])
    datas = (ctypes.c_void_p * builtins.max(1, n))(*[v._ptr for v in views])
    call("sk_einsum", spec_b, sk_dtype(dtype), n, vps, datas,
         ctypes.byref(ov._sk), _ptr(ov))
    return res


# ---- threads and targets

def set_threads(n):
    """Threads of copy, cast, elementwise and reduce kernels: 1 = serial
    (the default), 0 = all cores. Results do not depend on it (except float
    sums to few outputs)."""
    call("sk_set_threads", int(n))


def get_threads():
    return _capi.lib.sk_get_threads()


def targets():
    """SIMD targets available here, best first, "reference" last."""
    lib = _capi.lib
    return [lib.sk_target_name(i).decode() for i in range(lib.sk_target_count())]


def active_target():
    return _capi.lib.sk_target_active().decode()


def force_target(name=None):
    """Runs every kernel on target `name` (one of targets()); None: the best."""
    call("sk_target_force", None if name is None else name.encode())
