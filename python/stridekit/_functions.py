"""The package's functions in Python over the extension's C ABI functions
(_ext.binary, ...: views as bytes, data as addresses): every case the
extension's fast path leaves (Views and DLPack inputs, Python scalars,
casts of inputs, out= of another dtype cast on store, padded views) and
NumPy's errors. __init__ wraps each in the extension's Kernel, which runs
the plain-array calls itself."""
import builtins

import numpy as np

from . import _ext
from ._resolve import KERNELS, UFUNCS, lacking, loop_dtypes
from ._view import View, sk_dtype, view

_BOOL = np.dtype(bool)


def _address(a):
    return a.__array_interface__["data"][0]


def _is_scalar(x):
    return isinstance(x, (bool, int, float, complex))


def _scalar_like(x):
    return _is_scalar(x) or isinstance(x, np.generic) or (
        isinstance(x, (np.ndarray, View)) and x.ndim == 0)


def _numpy_proxy(x):
    """A cheap stand-in for x in NumPy's own dtype resolution."""
    if _is_scalar(x) or isinstance(x, np.generic):
        return x
    v = view(x)
    if v.ndim == 0:  # NumPy looks at 0-d values (value-based casting)
        return v.numpy()
    return np.empty((0,), v.dtype)


def _operand_dtypes(operands):
    """The dtypes NumPy's loop selection sees: a scalar or 0-d operand among
    n-d arrays takes NumPy 1.x's value-based dtype."""
    proxies = [_numpy_proxy(x) for x in operands]
    dtypes = [np.asarray(p).dtype for p in proxies]
    if any(_scalar_like(x) for x in operands) and not all(
            _scalar_like(x) for x in operands):
        arrays = [p for x, p in zip(operands, proxies) if not _scalar_like(x)]
        dtypes = [np.result_type(*arrays, p) if _scalar_like(x) else d
                  for x, p, d in zip(operands, proxies, dtypes)]
    return proxies, dtypes


def _refuse(name, compute):
    why = lacking(name, compute)
    if why:
        raise TypeError(f"stridekit.{name}: {why} (dtype {compute}); NumPy "
                        "has this loop: see the package README")


def _cast_view(v, dtype):
    """v itself when it has dtype, else a new array of v cast to dtype."""
    dtype = np.dtype(dtype)
    if v.dtype == dtype:
        return v
    return view(astype(v, dtype))


def _operand(x, dtype):
    """The View of x in dtype (Python scalars become 0-d arrays)."""
    if _is_scalar(x) or isinstance(x, np.generic):
        return view(np.asarray(x, dtype=dtype))
    return _cast_view(view(x), dtype)


def _result(res, out):
    """NumPy's return convention: out itself, or a 0-d result as a scalar."""
    if out is not None:
        return out
    return res[()] if isinstance(res, np.ndarray) and res.ndim == 0 else res


class _Target:
    """Where a kernel writes: out itself when it has the result dtype, else
    a temporary cast into out on store (NumPy's casting='same_kind')."""

    def __init__(self, name, out, shape, dtype, same_shape=False):
        dtype = np.dtype(dtype)
        self.out = out
        if out is None:
            self.array = np.empty(shape, dtype)
            self.view = view(self.array)
            return
        ov = view(out)
        if not ov._writeable:
            raise ValueError(f"stridekit.{name}: out is read-only")
        if same_shape and ov.shape != tuple(shape):
            raise ValueError(f"stridekit.{name}: out has shape {ov.shape}, "
                             f"expected {tuple(shape)}")
        if ov.dtype == dtype:
            self.array, self.view = out, ov
            return
        if not np.can_cast(dtype, ov.dtype, "same_kind"):
            raise TypeError(f"stridekit.{name}: cannot cast the result from "
                            f"{dtype} to out's {ov.dtype} with casting rule "
                            "'same_kind' (as NumPy)")
        self.array = np.empty(ov.shape, dtype)
        self.view = view(self.array)

    def finish(self):
        if self.out is not None and self.array is not self.out:
            astype(self.array, view(self.out).dtype, out=self.out)
        return _result(self.array, self.out)


# ---- copies and casts

def copy(x, out=None, fill=None):
    """A copy of x (a padded View reads `fill`, default 0, in the padding);
    with out=, x is broadcast to out's shape (sk_copy)."""
    v = view(x)
    t = _Target("copy", out, v.shape, v.dtype)
    if t.view.dtype != v.dtype:
        raise ValueError(f"stridekit.copy: out has dtype {t.view.dtype}, "
                         f"expected {v.dtype} (astype casts)")
    fill_arr = None if fill is None else np.asarray(fill, dtype=v.dtype)
    _ext.copy(sk_dtype(v.dtype), v._sk, v._ptr, t.view._sk, t.view._ptr,
              0 if fill_arr is None else _address(fill_arr))
    return t.array


def ascontiguous(x, fill=None):
    """x as a C-contiguous NumPy array: x itself when it already is one (as
    np.ascontiguousarray), else a copy made by the library's strided copy."""
    if isinstance(x, np.ndarray) and x.flags.c_contiguous:
        return x
    return copy(x, fill=fill)


def astype(x, dtype, out=None):
    """NumPy astype(dtype, casting='unsafe') by sk_cast; out= of any dtype
    of x's shape (x broadcast to it)."""
    v = view(x)
    dtype = np.dtype(dtype)
    if out is None:
        res = np.empty(v.shape, dtype)
        ov = view(res)
    else:
        res, ov = out, view(out)
        if not ov._writeable:
            raise ValueError("stridekit.astype: out is read-only")
        dtype = ov.dtype
    _ext.cast(sk_dtype(v.dtype), v._sk, v._ptr, sk_dtype(dtype), ov._sk,
              ov._ptr)
    return res


def fill(a, value):
    """a[...] = value by sk_fill (value cast to a's dtype as ndarray.fill);
    returns a."""
    v = view(a)
    if not v._writeable:
        raise ValueError("stridekit.fill: a is read-only")
    with np.errstate(all="ignore"):
        val = np.asarray(value).astype(v.dtype)
    _ext.fill(sk_dtype(v.dtype), v._sk, v._ptr, _address(val))
    return a


# ---- elementwise: binary, compare, unary, where

def _broadcast_shape(shapes):
    return _ext.broadcast_shapes(shapes)


def elementwise(name, operands, out):
    """NumPy's ufunc `name` on operands by the library: NumPy's loop dtypes
    (inputs cast to its computation dtype), NumPy's result dtype, out= of
    another dtype cast on store."""
    kind, op = KERNELS[name]
    proxies, dtypes = _operand_dtypes(operands)
    with np.errstate(all="ignore"):
        result = UFUNCS[name](*proxies).dtype  # NumPy's TypeError if none
    compute, _ = loop_dtypes(name, dtypes)
    _refuse(name, compute)
    views = [_operand(x, compute) for x in operands]
    shape = _broadcast_shape([v.shape for v in views] + (
        [view(out).shape] if out is not None else []))
    if result != compute and result != _BOOL:
        raise TypeError(f"stridekit.{name}: NumPy computes {compute} into "
                        f"{result}; the library has no such loop")
    t = _Target(name, out, shape, result)
    args = []
    for v in views:
        args += [v._sk, v._ptr]
    args += [t.view._sk, t.view._ptr]
    fn = {0: _ext.binary, 1: _ext.compare, 2: _ext.unary}[kind]
    fn(op, sk_dtype(compute), *args)
    return t.finish()


def where(condition, x, y):
    """np.where(condition, x, y) by sk_where: condition as bool (non-zero),
    x and y in NumPy's common dtype, all broadcast."""
    proxies, dtypes = _operand_dtypes([x, y])
    dtype = np.result_type(*proxies)
    _refuse("where", dtype)
    c = view(condition)
    if c.dtype != _BOOL:
        c = view(astype(c, _BOOL))
    vx, vy = _operand(x, dtype), _operand(y, dtype)
    shape = _broadcast_shape([c.shape, vx.shape, vy.shape])
    res = np.empty(shape, dtype)
    ov = view(res)
    _ext.where(sk_dtype(dtype), c._sk, c._ptr, vx._sk, vx._ptr, vy._sk,
               vy._ptr, ov._sk, ov._ptr)
    return res


# ---- reductions, arg reductions, scans

def _axes(axis, ndim, name):
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    return tuple(int(a) for a in axes)


def reduce(name, x, axis=None, dtype=None, out=None, keepdims=False):
    """np.<name>(x, axis, dtype, out, keepdims) by sk_reduce."""
    _, op = KERNELS[name]
    v = view(x)
    if dtype is None:
        compute, result = loop_dtypes(name, [v.dtype])
    else:
        compute = result = np.dtype(dtype)
        if name in ("any", "all"):
            raise TypeError(f"stridekit.{name}: no dtype= (NumPy's any/all "
                            "have none)")
    if name == "mean" and compute.kind == "c":  # sum / count, as NumPy
        s = reduce("sum", x, axis, compute, None, keepdims)
        n = v.size // builtins.max(1, np.asarray(s).size)
        return _store(np.asarray(s / n, compute), out, "mean")
    if name == "mean" and compute.kind in "biu":
        compute = result = np.dtype(np.float64)
    _refuse(name, compute)
    v = _cast_view(v, compute)
    axes = _axes(axis, v.ndim, name)
    reduced = {a % v.ndim for a in axes if -v.ndim <= a < v.ndim}
    shape = tuple(1 if d in reduced else n for d, n in enumerate(v.shape)
                  if keepdims or d not in reduced)
    t = _Target(name, out, shape, result, same_shape=True)
    _ext.reduce(op, sk_dtype(compute), v._sk, v._ptr, axes, t.view._sk,
                t.view._ptr)
    return t.finish()


def _store(res, out, name):
    if out is None:
        return _result(res, None)
    t = _Target(name, out, res.shape, res.dtype, same_shape=True)
    copy(res, out=t.array)
    return t.finish()


def _flat(x):
    """x as one axis in C order (a copy when no view has that shape)."""
    v = view(x)
    try:
        return v.reshape(-1)
    except ValueError:
        return view(copy(v)).reshape(-1)


def arg_reduce(name, x, axis=None, out=None, keepdims=False):
    """np.argmin/argmax by sk_arg_reduce (first index; NaN wins)."""
    _, op = KERNELS[name]
    v = view(x)
    if v.dtype.kind == "c":
        raise TypeError(f"stridekit.{name}: the library has no complex "
                        f"{name} (NumPy orders complex lexicographically)")
    shape_kept = None
    if axis is None:
        shape_kept = (1,) * v.ndim
        v, axis = _flat(v), 0
    elif not -v.ndim <= int(axis) < builtins.max(1, v.ndim):
        raise np.AxisError(int(axis), v.ndim)
    axis = int(axis) % builtins.max(1, v.ndim)
    shape = tuple(n for d, n in enumerate(v.shape) if d != axis)
    res = np.empty(shape, np.int64)
    ov = view(res)
    _ext.arg_reduce(op, sk_dtype(v.dtype), v._sk, v._ptr, axis, ov._sk,
                    ov._ptr)
    if keepdims:
        res = res.reshape(shape_kept if shape_kept is not None else
                          v.shape[:axis] + (1,) + v.shape[axis + 1:])
    return _store(res, out, name)


def scan(name, x, axis=None, dtype=None, out=None):
    """np.cumsum/cumprod (and np.minimum/maximum.accumulate as cummin,
    cummax) by sk_scan."""
    _, op = KERNELS[name]
    v = view(x)
    compute = np.dtype(dtype) if dtype is not None else \
        loop_dtypes(name, [v.dtype])[0]
    _refuse(name, compute)
    if axis is None:
        v, axis = _flat(v), 0
    v = _cast_view(v, compute)
    axis = int(axis)
    if not -v.ndim <= axis < v.ndim:
        raise np.AxisError(axis, v.ndim)
    t = _Target(name, out, v.shape, compute, same_shape=True)
    _ext.scan(op, sk_dtype(compute), v._sk, v._ptr, axis, t.view._sk,
              t.view._ptr)
    return t.finish()


# ---- einsum

# dtypes the library lacks, computed in one it has with the same result
# (wrapping integer sums of products; bool as any of ands; float16 in
# float32, rounded once)
_EINSUM_VIA = {np.dtype(t): np.dtype(v) for t, v in [
    ("bool", "int64"), ("int8", "int32"), ("uint8", "int32"),
    ("int16", "int32"), ("uint16", "int32"), ("uint32", "int64"),
    ("uint64", "int64"), ("float16", "float32")]}


def einsum(spec, *operands, out=None):
    """np.einsum(spec, *operands) by sk_einsum (float32, float64, int32,
    int64; other real dtypes computed through one of those as NumPy's
    result); spec may also be OCANNL notation with "=>"."""
    views = [view(x) for x in operands]
    dtype = np.result_type(*[v.dtype for v in views])
    compute = _EINSUM_VIA.get(dtype, dtype)
    if compute.kind == "c" or compute not in SK_EINSUM:
        raise TypeError(f"stridekit.einsum: the library has no {dtype} "
                        "einsum (float32, float64, int32, int64 and the "
                        "real dtypes computed through them)")
    views = [_cast_view(v, compute) for v in views]
    shape = _ext.einsum_shape(spec, [v.shape for v in views])
    res = np.empty(shape, compute)
    ov = view(res)
    _ext.einsum(spec, sk_dtype(compute), [v._sk for v in views],
                [v._ptr for v in views], ov._sk, ov._ptr)
    if compute != dtype:
        res = astype(res, dtype) if dtype != _BOOL else \
            elementwise("not_equal", [res, 0], None)
    return _store(np.asarray(res), out, "einsum")


SK_EINSUM = {np.dtype(t) for t in ("float32", "float64", "int32", "int64")}
