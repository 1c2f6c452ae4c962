"""ctypes bindings of the stridekit C ABI for the NumPy differential tests.

The shared library's path comes from the STRIDEKIT_LIB environment variable
(tests/meson.build sets it). Each wrapper returns (status, result) so tests
can compare error behaviour with NumPy's exceptions. With
STRIDEKIT_DIFF_VIA_PLANS=1 every data kernel (copy, fill, cast, binary,
unary, predicate, compare, where, reduce, arg_reduce, scan, einsum) runs as
its plan instead: sk_plan_<kernel> without the data pointers, then
sk_plan_execute and sk_plan_free, so the same differential cases check the
plans (tests/meson.build runs the kernel suites both ways).
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
    """The C ABI's sk_view struct (layout fixed by C_API.md)."""

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
LIB.sk_plan_execute.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.c_void_p]
LIB.sk_plan_free.argtypes = [ctypes.c_void_p]
LIB.sk_plan_free.restype = None
VIA_PLANS = os.environ.get("STRIDEKIT_DIFF_VIA_PLANS") == "1"


def _run(one_shot, plan, args, inputs, out):
    """one_shot(*args with data pointers) or, with VIA_PLANS, plan(*args
    without them, &plan) and sk_plan_execute(plan, inputs, out): `args` is
    a list whose data-pointer entries are (pointer,) tuples."""
    if not VIA_PLANS:
        return one_shot(*[a[0] if isinstance(a, tuple) else a for a in args])
    handle = ctypes.c_void_p()
    st = plan(*[a for a in args if not isinstance(a, tuple)],
              ctypes.byref(handle))
    if st != SK_OK:
        return st
    pointers = (ctypes.c_void_p * max(1, len(inputs)))(
        *[p.value if isinstance(p, ctypes.c_void_p) else p for p in inputs])
    out_value = out.value if isinstance(out, ctypes.c_void_p) else out
    try:
        return LIB.sk_plan_execute(handle, pointers, out_value)
    finally:
        LIB.sk_plan_free(handle)


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


def make_view(shape, strides, offset, mask=None):
    v = SkView()
    v.ndim = len(shape)
    v.offset = offset
    for d, (n, s) in enumerate(zip(shape, strides)):
        v.shape[d] = n
        v.strides[d] = s
    if mask is not None:
        v.has_mask = 1
        for d, (b, e) in enumerate(mask):
            v.mask_begin[d] = b
            v.mask_end[d] = e
    return v


def view_of(arr, base):
    """The sk_view of NumPy array `arr` relative to the start of `base`
    (a 1-D array owning the buffer), in elements."""
    item = arr.itemsize
    delta = arr.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    assert delta % item == 0 and all(s % item == 0 for s in arr.strides)
    return make_view(arr.shape, [s // item for s in arr.strides], delta // item)


# sk_dtype values by NumPy dtype.
SK_DTYPES = {
    "bool": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "uint8": 5,
    "uint16": 6, "uint32": 7, "uint64": 8, "float16": 9, "bfloat16": 10, "float32": 11,
    "float64": 12, "complex64": 13, "complex128": 14,
}


def data_ptr(arr):
    return ctypes.c_void_p(arr.__array_interface__["data"][0])


def copy(dtype, src_view, src_base, dst_view, dst_base, fill=None):
    fill_ptr = None
    if fill is not None:
        fill_ptr = ctypes.c_void_p(fill.__array_interface__["data"][0])
    src, dst = data_ptr(src_base), data_ptr(dst_base)
    return _run(LIB.sk_copy, LIB.sk_plan_copy,
                [SK_DTYPES[str(dtype)], ctypes.byref(src_view), (src,),
                 ctypes.byref(dst_view), (dst,), fill_ptr], [src], dst)


# sk_dtype value of bfloat16 (NumPy has none: stored as uint16 bits).
SK_BFLOAT16 = 10


def cast(src_t, src_view, src_base, dst_t, dst_view, dst_base):
    """sk_cast with sk_dtype values src_t and dst_t; returns the status."""
    src, dst = data_ptr(src_base), data_ptr(dst_base)
    return _run(LIB.sk_cast, LIB.sk_plan_cast,
                [ctypes.c_int32(src_t), ctypes.byref(src_view), (src,),
                 ctypes.c_int32(dst_t), ctypes.byref(dst_view), (dst,)],
                [src], dst)


def fill(dtype, dst_view, dst_base, value):
    dst, val = data_ptr(dst_base), data_ptr(value)
    return _run(LIB.sk_fill, LIB.sk_plan_fill,
                [SK_DTYPES[str(dtype)], ctypes.byref(dst_view), (dst,), (val,)],
                [val], dst)


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


def view_offsets(view, begin, count):
    """Returns (status, offsets[count])."""
    out = np.empty(max(count, 0), dtype=np.int64)
    st = LIB.sk_view_offsets(ctypes.byref(view), begin, count, _pointer(out))
    return st, out


# Data kernels: op enums of C_API.md.
SK_BINARY_OPS = {"add": 0, "subtract": 1, "multiply": 2, "divide": 3,
                 "minimum": 4, "maximum": 5, "power": 6, "remainder": 7,
                 "bitwise_and": 8, "bitwise_or": 9, "bitwise_xor": 10,
                 "left_shift": 11, "right_shift": 12, "arctan2": 13,
                 "hypot": 14, "copysign": 15, "fmod": 16, "floor_divide": 17,
                 "fmax": 18, "fmin": 19, "logaddexp": 20, "logaddexp2": 21,
                 "nextafter": 22, "heaviside": 23, "gcd": 24, "lcm": 25}
SK_UNARY_OPS = {"negative": 0, "absolute": 1, "sqrt": 2, "square": 3,
                "exp": 4, "log": 5, "expm1": 6, "log1p": 7, "sin": 8,
                "cos": 9, "tanh": 10, "floor": 11, "ceil": 12, "rint": 13,
                "trunc": 14, "sign": 15, "invert": 16, "tan": 20,
                "arcsin": 21, "arccos": 22, "arctan": 23, "sinh": 24,
                "cosh": 25, "arcsinh": 26, "arccosh": 27, "arctanh": 28,
                "exp2": 29, "log2": 30, "log10": 31, "cbrt": 32,
                "reciprocal": 33}
SK_REDUCE_OPS = {"sum": 0, "prod": 1, "min": 2, "max": 3, "any": 4, "all": 5,
                 "mean": 6}
SK_ARG_OPS = {"argmin": 0, "argmax": 1}
SK_SCAN_OPS = {"cumsum": 0, "cumprod": 1, "cummin": 2, "cummax": 3}


def arg_reduce(op, dtype, in_view, in_base, axis, out_view, out_base):
    """sk_arg_reduce: out (int64) = index of the first min/max along axis."""
    src, dst = data_ptr(in_base), data_ptr(out_base)
    return _run(LIB.sk_arg_reduce, LIB.sk_plan_arg_reduce,
                [SK_ARG_OPS[op], SK_DTYPES[str(dtype)], ctypes.byref(in_view),
                 (src,), axis, ctypes.byref(out_view), (dst,)], [src], dst)


def scan(op, dtype, in_view, in_base, axis, out_view, out_base):
    """sk_scan: cumsum/cumprod/cummin/cummax along axis, out of in's shape."""
    src, dst = data_ptr(in_base), data_ptr(out_base)
    return _run(LIB.sk_scan, LIB.sk_plan_scan,
                [SK_SCAN_OPS[op], SK_DTYPES[str(dtype)], ctypes.byref(in_view),
                 (src,), axis, ctypes.byref(out_view), (dst,)], [src], dst)


def binary(op, dtype, a_view, a_base, b_view, b_base, out_view, out_base):
    a, b, dst = data_ptr(a_base), data_ptr(b_base), data_ptr(out_base)
    return _run(LIB.sk_binary, LIB.sk_plan_binary,
                [SK_BINARY_OPS[op], SK_DTYPES[str(dtype)], ctypes.byref(a_view),
                 (a,), ctypes.byref(b_view), (b,), ctypes.byref(out_view),
                 (dst,)], [a, b], dst)


def unary(op, dtype, a_view, a_base, out_view, out_base):
    a, dst = data_ptr(a_base), data_ptr(out_base)
    return _run(LIB.sk_unary, LIB.sk_plan_unary,
                [SK_UNARY_OPS[op], SK_DTYPES[str(dtype)], ctypes.byref(a_view),
                 (a,), ctypes.byref(out_view), (dst,)], [a], dst)


def reduce(op, dtype, in_view, in_base, axes, out_view, out_base):
    axes_arr = (ctypes.c_int32 * max(1, len(axes)))(*axes)
    src, dst = data_ptr(in_base), data_ptr(out_base)
    return _run(LIB.sk_reduce, LIB.sk_plan_reduce,
                [SK_REDUCE_OPS[op], SK_DTYPES[str(dtype)], ctypes.byref(in_view),
                 (src,), len(axes), axes_arr, ctypes.byref(out_view), (dst,)],
                [src], dst)


# Comparisons, predicates (sk_unary values 17..19) and where.
SK_COMPARE_OPS = {"equal": 0, "not_equal": 1, "less": 2, "less_equal": 3,
                  "greater": 4, "greater_equal": 5}
SK_PREDICATE_OPS = {"isnan": 17, "isinf": 18, "isfinite": 19, "signbit": 34}


def compare(op, dtype, a_view, a_base, b_view, b_base, out_view, out_base):
    a, b, dst = data_ptr(a_base), data_ptr(b_base), data_ptr(out_base)
    return _run(LIB.sk_compare, LIB.sk_plan_compare,
                [SK_COMPARE_OPS.get(op, op), SK_DTYPES[str(dtype)],
                 ctypes.byref(a_view), (a,), ctypes.byref(b_view), (b,),
                 ctypes.byref(out_view), (dst,)], [a, b], dst)


def predicate(op, dtype, a_view, a_base, out_view, out_base):
    a, dst = data_ptr(a_base), data_ptr(out_base)
    return _run(LIB.sk_unary, LIB.sk_plan_unary,
                [SK_PREDICATE_OPS[op], SK_DTYPES[str(dtype)],
                 ctypes.byref(a_view), (a,), ctypes.byref(out_view), (dst,)],
                [a], dst)


def where(dtype, cond_view, cond_base, a_view, a_base, b_view, b_base,
          out_view, out_base):
    c, a, b = data_ptr(cond_base), data_ptr(a_base), data_ptr(b_base)
    dst = data_ptr(out_base)
    return _run(LIB.sk_where, LIB.sk_plan_where,
                [SK_DTYPES[str(dtype)], ctypes.byref(cond_view), (c,),
                 ctypes.byref(a_view), (a,), ctypes.byref(b_view), (b,),
                 ctypes.byref(out_view), (dst,)], [c, a, b], dst)


def einsum_shape(spec, shapes):
    """sk_einsum_shape: NumPy subscripts, or OCANNL notation with "=>"."""
    n, ndims, ptrs, _arrays = shape_list_args(shapes)
    out_ndim = ctypes.c_int32()
    out = int64_array([], SK_MAX_NDIM)
    st = LIB.sk_einsum_shape(spec.encode(), n, ndims, ptrs,
                             ctypes.byref(out_ndim), out)
    return st, tuple(out[: out_ndim.value])


# ---- Views ----
def _view_call(fn, v, *args):
    out = SkView()
    st = fn(ctypes.byref(v), *args, ctypes.byref(out))
    return st, out


def _int32_array(values):
    values = list(values)
    arr = (ctypes.c_int32 * max(1, len(values)))()
    for i, x in enumerate(values):
        arr[i] = x
    return arr


def view_make(shape, strides=None, offset=0):
    out = SkView()
    st = LIB.sk_view_make(len(shape), int64_array(shape),
                          None if strides is None else int64_array(strides),
                          ctypes.c_int64(offset), ctypes.byref(out))
    return st, out


def view_reshape(v, shape):
    return _view_call(LIB.sk_view_reshape, v, ctypes.c_int32(len(shape)),
                      int64_array(shape))


def view_expand(v, shape):
    return _view_call(LIB.sk_view_expand, v, ctypes.c_int32(len(shape)),
                      int64_array(shape))


def view_permute(v, axes):
    return _view_call(LIB.sk_view_permute, v, _int32_array(axes))


def view_shrink(v, begin, end):
    return _view_call(LIB.sk_view_shrink, v, int64_array(begin),
                      int64_array(end))


def view_pad(v, before, after):
    return _view_call(LIB.sk_view_pad, v, int64_array(before),
                      int64_array(after))


def view_flip(v, axis):
    return _view_call(LIB.sk_view_flip, v, ctypes.c_int32(axis))


def view_slice(v, spec):
    return _view_call(LIB.sk_view_slice, v, spec.encode())


def view_squeeze(v, axes=None):
    if axes is None:
        return _view_call(LIB.sk_view_squeeze, v, ctypes.c_int32(-1), None)
    return _view_call(LIB.sk_view_squeeze, v, ctypes.c_int32(len(axes)),
                      _int32_array(axes))


def view_unsqueeze(v, axes):
    return _view_call(LIB.sk_view_unsqueeze, v, ctypes.c_int32(len(axes)),
                      _int32_array(axes))


def view_moveaxis(v, source, destination):
    return _view_call(LIB.sk_view_moveaxis, v, ctypes.c_int32(len(source)),
                      _int32_array(source), _int32_array(destination))


def view_flags(v):
    LIB.sk_view_flags.restype = ctypes.c_uint32
    return LIB.sk_view_flags(ctypes.byref(v))


def view_span(v):
    lo, hi = ctypes.c_int64(), ctypes.c_int64()
    st = LIB.sk_view_span(ctypes.byref(v), ctypes.byref(lo), ctypes.byref(hi))
    return st, (lo.value, hi.value)


SK_C_CONTIGUOUS, SK_F_CONTIGUOUS, SK_BROADCAST, SK_MASKED = 1, 2, 4, 8


def view_fields(v):
    """(shape, strides, offset, mask or None) of an SkView as tuples."""
    n = v.ndim
    mask = None
    if v.has_mask:
        mask = tuple(zip(v.mask_begin[:n], v.mask_end[:n]))
    return tuple(v.shape[:n]), tuple(v.strides[:n]), v.offset, mask


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", c_int64_p), ("strides", c_int64_p),
                ("byte_offset", ctypes.c_uint64)]


def view_from_dlpack(tensor_ptr, byte_strides=False):
    """sk_view_from_dlpack (element strides, DLPack's definition) or
    sk_view_from_dlpack_byte_strides on a DLTensor pointer."""
    fn = (LIB.sk_view_from_dlpack_byte_strides if byte_strides
          else LIB.sk_view_from_dlpack)
    out = SkView()
    dtype = ctypes.c_int32()
    data = ctypes.c_void_p()
    st = fn(tensor_ptr, ctypes.byref(out), ctypes.byref(dtype),
            ctypes.byref(data))
    return st, out, dtype.value, data.value


def view_to_dlpack(view, dtype_code, data):
    """sk_view_to_dlpack: (status, DLTensor, shape storage, strides storage);
    the DLTensor points into the two storage arrays."""
    n = max(1, view.ndim)
    shape = (ctypes.c_int64 * n)()
    strides = (ctypes.c_int64 * n)()
    out = DLTensor()
    st = LIB.sk_view_to_dlpack(ctypes.byref(view), ctypes.c_int32(dtype_code),
                               ctypes.c_void_p(data), shape, strides,
                               ctypes.byref(out))
    return st, out, shape, strides


def einsum(spec, dtype, arrays_views, out_view, out_base):
    """sk_einsum over (view, base array) pairs into out_base."""
    n = len(arrays_views)
    views = (ctypes.POINTER(SkView) * max(1, n))()
    datas = (ctypes.c_void_p * max(1, n))()
    for i, (view, base) in enumerate(arrays_views):
        views[i] = ctypes.pointer(view)
        datas[i] = base.__array_interface__["data"][0]
    dst = data_ptr(out_base)
    return _run(LIB.sk_einsum, LIB.sk_plan_einsum,
                [spec.encode(), SK_DTYPES[str(dtype)], n, views, (datas,),
                 ctypes.byref(out_view), (dst,)], list(datas)[:n], dst)


# ---- Iteration and threads (sk_iter_*, sk_set_threads, sk_set_executor)

SK_ITER_REDUCE_OK = 1
# sk_loop_fn: (char* const* ptrs, int64_t count, const int64_t* byte_strides,
# void* ctx); pointers arrive as integers.
LOOP_FN = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p),
                           ctypes.c_int64, c_int64_p, ctypes.c_void_p)
LIB.sk_iter_new.argtypes = [ctypes.c_int32, ctypes.POINTER(ctypes.POINTER(SkView)),
                            ctypes.POINTER(ctypes.c_size_t),
                            ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint32,
                            ctypes.POINTER(ctypes.c_void_p)]
LIB.sk_iter_next.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                             c_int64_p, c_int64_p]
LIB.sk_iter_next.restype = ctypes.c_int32
LIB.sk_iter_describe.argtypes = [ctypes.c_void_p]
LIB.sk_iter_describe.restype = ctypes.c_char_p
LIB.sk_iter_free.argtypes = [ctypes.c_void_p]
LIB.sk_iter_free.restype = None
LIB.sk_iter_run.argtypes = [ctypes.c_int32, ctypes.POINTER(ctypes.POINTER(SkView)),
                            ctypes.POINTER(ctypes.c_size_t),
                            ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint32,
                            LOOP_FN, ctypes.c_void_p]
LIB.sk_set_threads.argtypes = [ctypes.c_int32]
LIB.sk_get_threads.restype = ctypes.c_int32


def _operand_args(operands):
    """(nop, views, elsizes, datas) for [(sk_view, base array), ...]; the
    base arrays give the data pointers and element sizes."""
    nop = len(operands)
    views = (ctypes.POINTER(SkView) * max(1, nop))(
        *[ctypes.pointer(v) for v, _ in operands])
    sizes = (ctypes.c_size_t * max(1, nop))(*[b.itemsize for _, b in operands])
    datas = (ctypes.c_void_p * max(1, nop))(
        *[b.__array_interface__["data"][0] for _, b in operands])
    return nop, views, sizes, datas


def chunk_array(ptr, count, byte_stride, dtype):
    """A NumPy array over one operand's chunk (no copy; writeable)."""
    class Chunk:
        __array_interface__ = {
            "version": 3, "shape": (count,), "strides": (byte_stride,),
            "typestr": np.dtype(dtype).str, "data": (ptr or 0, False)}
    return np.asarray(Chunk())


def iter_run(operands, flags, loop):
    """sk_iter_run; loop(ptrs, count, byte_strides) gets Python lists. An
    exception in loop is recorded and re-raised after the call."""
    nop, views, sizes, datas = _operand_args(operands)
    errors = []

    def trampoline(ptrs, count, strides, _ctx):
        try:
            loop([ptrs[k] for k in range(nop)], count,
                 [strides[k] for k in range(nop)])
        except BaseException as e:  # noqa: BLE001 - must not cross C frames
            errors.append(e)

    fn = LOOP_FN(trampoline)
    st = LIB.sk_iter_run(nop, views, sizes, datas, flags, fn, None)
    if errors:
        raise errors[0]
    return st


def iter_chunks(operands, flags=0):
    """sk_iter_new + sk_iter_next: (status, description, [(ptrs, count,
    byte_strides), ...])."""
    nop, views, sizes, datas = _operand_args(operands)
    it = ctypes.c_void_p()
    st = LIB.sk_iter_new(nop, views, sizes, datas, flags, ctypes.byref(it))
    if st != SK_OK:
        return st, "", []
    ptrs = (ctypes.c_void_p * nop)()
    strides = (ctypes.c_int64 * nop)()
    count = ctypes.c_int64()
    chunks = []
    while LIB.sk_iter_next(it, ptrs, ctypes.byref(count), strides):
        chunks.append((list(ptrs), count.value, list(strides)))
    text = LIB.sk_iter_describe(it).decode()
    LIB.sk_iter_free(it)
    return st, text, chunks


def set_threads(n):
    return LIB.sk_set_threads(n)


def get_threads():
    return LIB.sk_get_threads()
