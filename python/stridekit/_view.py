"""View: an sk_view (shape, element strides, offset, optional mask) over the
memory of a NumPy array or a DLPack producer. View operations are metadata
only (the C ABI's sk_view_* functions, through the extension); kernels read
the memory through it."""
import numpy as np

from . import _ext

# sk_dtype values by NumPy dtype (bfloat16 has no NumPy dtype).
SK_DTYPES = {
    np.dtype(np.bool_): 0, np.dtype(np.int8): 1, np.dtype(np.int16): 2,
    np.dtype(np.int32): 3, np.dtype(np.int64): 4, np.dtype(np.uint8): 5,
    np.dtype(np.uint16): 6, np.dtype(np.uint32): 7, np.dtype(np.uint64): 8,
    np.dtype(np.float16): 9, np.dtype(np.float32): 11,
    np.dtype(np.float64): 12, np.dtype(np.complex64): 13,
    np.dtype(np.complex128): 14,
}
NP_DTYPES = {v: k for k, v in SK_DTYPES.items()}
SK_BFLOAT16 = 10


def sk_dtype(dtype):
    dtype = np.dtype(dtype)
    code = SK_DTYPES.get(dtype) if dtype.isnative else None
    if code is None:
        raise TypeError(f"stridekit: unsupported dtype {dtype} (supported: "
                        f"{', '.join(str(d) for d in SK_DTYPES)})")
    return code


class View:
    """Metadata view over a buffer. Every method returns a new View of the
    same memory (no data is touched); .numpy() gives a NumPy array of it."""

    __slots__ = ("_sk", "_ptr", "_dtype", "_owner", "_writeable", "_info")

    def __init__(self, sk, ptr, dtype, owner, writeable):
        self._sk = sk          # bytes holding the sk_view
        self._ptr = ptr        # address the offsets count from (int)
        self._dtype = np.dtype(dtype)
        self._owner = owner    # keeps the memory alive
        self._writeable = writeable
        # (ndim, offset, shape, strides, mask or None)
        self._info = _ext.view_info(sk)

    # ---- properties
    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return self._info[0]

    @property
    def shape(self):
        return self._info[2]

    @property
    def strides(self):
        """Element strides (not bytes as NumPy's)."""
        return self._info[3]

    @property
    def offset(self):
        return self._info[1]

    @property
    def mask(self):
        """((begin, end) per axis) of a padded view, else None."""
        return self._info[4]

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def flags(self):
        """Set of "C_CONTIGUOUS", "F_CONTIGUOUS", "BROADCAST", "MASKED"."""
        bits = _ext.view_flags(self._sk)
        names = [(1, "C_CONTIGUOUS"), (2, "F_CONTIGUOUS"), (4, "BROADCAST"),
                 (8, "MASKED")]
        return {name for bit, name in names if bits & bit}

    def __repr__(self):
        mask = f", mask={self.mask}" if self.mask else ""
        return (f"stridekit.View(shape={self.shape}, strides={self.strides}, "
                f"offset={self.offset}{mask}, dtype={self.dtype})")

    def __len__(self):
        if not self.ndim:
            raise TypeError("len() of a 0-d view")
        return self.shape[0]

    # ---- view operations (metadata only)
    def _derive(self, op, *args):
        return View(_ext.view_op(op, self._sk, *args), self._ptr, self._dtype,
                    self._owner, self._writeable)

    def reshape(self, *shape):
        """NumPy reshape without a copy (one -1 inferred); StridekitError
        SK_ERR_NEEDS_COPY when no view of the same memory has that shape."""
        shape = _shape_arg(shape)
        return self._derive("reshape", shape)

    def permute(self, *axes):
        axes = _shape_arg(axes)
        return self._derive("permute", axes)

    def transpose(self, *axes):
        """Reversed axes by default, else as permute (NumPy transpose)."""
        axes = _shape_arg(axes)
        return self.permute(*(axes or range(self.ndim - 1, -1, -1)))

    @property
    def T(self):
        return self.transpose()

    def slice(self, spec):
        """NumPy basic indexing as text: "1:3, ::-1, ..., None, 0"."""
        return self._derive("slice", spec)

    def __getitem__(self, spec):
        if not isinstance(spec, str):
            spec = _index_text(spec)
        return self.slice(spec)

    def shrink(self, begin, end):
        """Half-open [begin, end) per axis."""
        return self._derive("shrink", begin, end)

    def pad(self, before, after):
        """Virtual padding through the mask (kernels read 0 there; copy and
        ascontiguous read their fill value)."""
        return self._derive("pad", before, after)

    def flip(self, axis):
        return self._derive("flip", int(axis))

    def broadcast_to(self, *shape):
        shape = _shape_arg(shape)
        return self._derive("expand", shape)

    def squeeze(self, axis=None):
        if axis is None:
            return self._derive("squeeze", None)
        return self._derive("squeeze", _axes_arg(axis))

    def expand_dims(self, axis):
        return self._derive("unsqueeze", _axes_arg(axis))

    def swapaxes(self, axis1, axis2):
        return self._derive("swapaxes", int(axis1), int(axis2))

    def moveaxis(self, source, destination):
        src, dst = _axes_arg(source), _axes_arg(destination)
        if len(src) != len(dst):
            raise ValueError("moveaxis: source and destination need the same "
                             f"number of axes ({len(src)} vs {len(dst)})")
        return self._derive("moveaxis", src, dst)

    # ---- back to NumPy
    def numpy(self):
        """A NumPy array of this view: the same memory when the view has no
        mask (read-only when broadcast or when the producer is); a padded
        view is materialised into a new array (padding reads 0)."""
        if self.mask is not None:
            from . import ascontiguous
            return ascontiguous(self)
        item = self._dtype.itemsize
        holder = _Holder(self)
        holder.__array_interface__ = {
            "version": 3, "shape": self.shape,
            "strides": tuple(s * item for s in self.strides),
            "typestr": self._dtype.str,
            "data": (self._ptr + self.offset * item,
                     not self._writeable or "BROADCAST" in self.flags),
        }
        return np.asarray(holder)

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)


class _Holder:
    """Carries __array_interface__ and keeps the view's memory alive."""

    def __init__(self, view):
        self.view = view


def _shape_arg(args):
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        return tuple(int(x) for x in args[0])
    return tuple(int(x) for x in args)


def _axes_arg(axis):
    if isinstance(axis, (int, np.integer)):
        return (int(axis),)
    return tuple(int(a) for a in axis)


def _index_text(index):
    """Python index objects as the slice text of sk_view_slice."""
    if not isinstance(index, tuple):
        index = (index,)
    parts = []
    for item in index:
        if item is None:
            parts.append("None")
        elif item is Ellipsis:
            parts.append("...")
        elif isinstance(item, slice):
            parts.append(":".join("" if x is None else str(int(x))
                                  for x in (item.start, item.stop, item.step)))
        elif isinstance(item, (int, np.integer)):
            parts.append(str(int(item)))
        else:
            raise TypeError(f"stridekit: basic indexing only (ints, slices, "
                            f"None, ...), got {type(item).__name__}")
    return ", ".join(parts)


def _from_ndarray(a):
    item = a.itemsize
    sk_dtype(a.dtype)  # supported?
    if any(s % item for s in a.strides):
        raise ValueError(f"stridekit: byte strides {a.strides} of a {a.dtype} "
                         f"array are not multiples of the item size {item}")
    sk = _ext.view_make(a.shape, [s // item for s in a.strides], 0)
    return View(sk, a.__array_interface__["data"][0], a.dtype, a,
                bool(a.flags.writeable))


def _from_dlpack(obj):
    capsule = obj.__dlpack__()
    sk, code, data = _ext.view_from_dlpack(capsule)
    if code == SK_BFLOAT16:
        raise TypeError("stridekit: bfloat16 DLPack tensors have no NumPy dtype")
    # The capsule stays unconsumed: its destructor releases the producer's
    # tensor when the last View of it goes.
    return View(sk, data, NP_DTYPES[code], (obj, capsule), True)


def view(obj):
    """A View of a NumPy array, of anything with __dlpack__ (read through the
    library's sk_view_from_dlpack) or of what np.asarray makes of obj."""
    if isinstance(obj, View):
        return obj
    if isinstance(obj, np.ndarray):
        return _from_ndarray(obj)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj)
    return _from_ndarray(np.asarray(obj))
