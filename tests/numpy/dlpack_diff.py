"""NumPy differential test of DLPack through the C ABI.

Import: NumPy's __dlpack__ export (a PyCapsule "dltensor" holding a
DLManagedTensor, whose first member is the DLTensor) of transposed, sliced
(a[:, ::4]), reversed (a[::-1]), broadcast (stride 0, built writeable with
as_strided: NumPy refuses to export read-only arrays such as broadcast_to's)
and random strided arrays, read by sk_view_from_dlpack (element strides, as
DLPack defines them) and by sk_view_from_dlpack_byte_strides on the same
tensor with its strides turned into bytes.

Export: sk_view_to_dlpack of the sk_view of the same arrays, wrapped in a
DLManagedTensor capsule and read back by np.from_dlpack, must be the same
array (shape, strides, data pointer, values); masked views are refused.
Prints "N passed, N failed".
"""
import ctypes
import random
import sys

import numpy as np

import stridekit_ctypes as sk
from checks import check, report

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          np.uint32, np.uint64, np.float16, np.float32, np.float64,
          np.complex64, np.complex128]
KDLCPU = 1

capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
capsule_pointer.restype = ctypes.c_void_p
capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", sk.DLTensor),
                            ("manager_ctx", ctypes.c_void_p),
                            ("deleter", DELETER)]
deleted = []


@DELETER
def _deleter(managed):
    deleted.append(ctypes.addressof(managed.contents))


class Exported:
    """What np.from_dlpack reads: __dlpack__ and __dlpack_device__ over a
    DLManagedTensor that keeps the storage sk_view_to_dlpack filled alive."""

    def __init__(self, tensor, keep):
        self.managed = DLManagedTensor(tensor, None, _deleter)
        self.keep = keep

    def __dlpack__(self, stream=None):
        return capsule_new(ctypes.addressof(self.managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (KDLCPU, 0)


def examples(rng):
    """(name, base, array) pairs: array is a writeable view of 1-D base."""
    out = []
    for dtype in DTYPES:
        base = (np.arange(96) % 120).astype(dtype)
        a = base[:48].reshape(6, 8)
        out += [
            ("transposed", base, a.T),
            ("sliced a[:, ::4]", base, a[:, ::4]),
            ("reversed a[::-1]", base, a[::-1]),
            ("reversed both", base, a[::-1, ::-3]),
            ("broadcast", base,
             np.lib.stride_tricks.as_strided(base[5:], (4, 8),
                                             (0, base.itemsize))),
            ("scalar", base, base[7:8].reshape(())),
            ("empty", base, a[:0, 2:]),
        ]
    for case in range(300):
        dtype = np.dtype(rng.choice(DTYPES))
        base = (np.arange(200) % 100).astype(dtype)
        shape = [rng.randint(1, 4) for _ in range(rng.randint(0, 4))]
        arr = base[rng.randint(0, 5):][:int(np.prod(shape))].reshape(shape)
        if arr.ndim:
            arr = arr[tuple(slice(None, None, rng.choice([1, 2, -1, -2]))
                            for _ in range(arr.ndim))]
        if rng.random() < 0.5:
            arr = np.transpose(arr)
        out.append((f"random {case}", base, arr))
    return out


def test_import(name, base, arr):
    dtype = arr.dtype
    item = dtype.itemsize
    what = f"import {name}: {dtype} {arr.shape} {arr.strides}"
    capsule = arr.__dlpack__()
    tensor = capsule_pointer(capsule, b"dltensor")
    st, view, code, data = sk.view_from_dlpack(ctypes.c_void_p(tensor))
    check(st == sk.SK_OK, f"{what}: status {st} {sk.last_error()}")
    if st != sk.SK_OK:
        return
    shape, strides, offset, mask = sk.view_fields(view)
    check(code == sk.SK_DTYPES[str(dtype)], f"{what}: dtype {code}")
    check(shape == arr.shape and mask is None, f"{what}: shape {shape}")
    check(arr.size <= 1 or
          all(s * item == t for s, t, n in zip(strides, arr.strides, arr.shape)
              if n > 1),
          f"{what}: strides {strides}")
    check(data + offset * item == arr.__array_interface__["data"][0],
          f"{what}: data pointer")
    # The byte-stride reader on the same tensor with byte strides.
    dl = sk.DLTensor.from_address(tensor)
    byte_strides = sk.int64_array([s * item for s in strides], len(strides))
    copy = sk.DLTensor(dl.data, dl.device, dl.ndim, dl.dtype, dl.shape,
                       ctypes.cast(byte_strides, sk.c_int64_p), dl.byte_offset)
    st, view2, _, _ = sk.view_from_dlpack(ctypes.byref(copy),
                                          byte_strides=True)
    check(st == sk.SK_OK and sk.view_fields(view2) == sk.view_fields(view),
          f"{what}: byte strides give {sk.view_fields(view2)}")
    if item > 1 and arr.ndim > 0 and any(s != 0 for s in strides):
        odd = sk.int64_array([s * item + 1 for s in strides], len(strides))
        copy.strides = ctypes.cast(odd, sk.c_int64_p)
        st, _, _, _ = sk.view_from_dlpack(ctypes.byref(copy),
                                          byte_strides=True)
        check(st == sk.SK_ERR_INVALID, f"{what}: indivisible stride {st}")
    copy.strides = None
    copy.dtype = sk.DLDataType(2, 8, 1)  # float8: no sk_dtype
    st, _, _, _ = sk.view_from_dlpack(ctypes.byref(copy))
    check(st == sk.SK_ERR_UNSUPPORTED, f"{what}: unknown dtype {st}")


def test_export(name, base, arr):
    dtype = arr.dtype
    item = dtype.itemsize
    what = f"export {name}: {dtype} {arr.shape} {arr.strides}"
    view = sk.view_of(arr, base)
    base_ptr = base.__array_interface__["data"][0]
    st, tensor, shape_st, strides_st = sk.view_to_dlpack(
        view, sk.SK_DTYPES[str(dtype)], base_ptr)
    check(st == sk.SK_OK, f"{what}: status {st} {sk.last_error()}")
    if st != sk.SK_OK:
        return
    check(tensor.device.device_type == KDLCPU and tensor.ndim == arr.ndim and
          tensor.dtype.lanes == 1 and tensor.dtype.bits == item * 8,
          f"{what}: header")
    # The DLManagedTensor must outlive the array: NumPy calls its deleter
    # when the array goes.
    exported = Exported(tensor, (shape_st, strides_st))
    got = np.from_dlpack(exported)
    check(got.dtype == dtype, f"{what}: dtype {got.dtype}")
    check(got.shape == arr.shape, f"{what}: shape {got.shape}")
    check(arr.size == 0 or got.strides == arr.strides or arr.size == 1,
          f"{what}: strides {got.strides}")
    check(arr.size == 0 or got.__array_interface__["data"][0] ==
          arr.__array_interface__["data"][0], f"{what}: data pointer")
    check(np.array_equal(got, arr), f"{what}: values")
    # And back through the importer.
    st, back, code, data = sk.view_from_dlpack(ctypes.byref(tensor))
    check(st == sk.SK_OK and code == sk.SK_DTYPES[str(dtype)] and
          data + back.offset * item == base_ptr + view.offset * item and
          sk.view_fields(back)[:2] == sk.view_fields(view)[:2],
          f"{what}: round trip {st} {sk.view_fields(back)}")
    before = len(deleted)
    del got
    check(len(deleted) == before + 1, f"{what}: deleter not called once")
    del exported


def test_export_refusals():
    base = np.zeros(16, np.float32)
    view = sk.make_view([2, 3], [3, 1], 0, mask=[(0, 2), (1, 3)])
    st, _, _, _ = sk.view_to_dlpack(view, 11, base.__array_interface__["data"][0])
    check(st == sk.SK_ERR_UNSUPPORTED and "mask" in sk.last_error(),
          f"masked view: status {st} {sk.last_error()}")
    st, _, _, _ = sk.view_to_dlpack(sk.make_view([2], [1], 0), 99,
                                    base.__array_interface__["data"][0])
    check(st == sk.SK_ERR_UNSUPPORTED, f"unknown dtype: status {st}")
    # Bool: DLPack code 6 (kDLBool), 8 bits; NumPy 1.24 cannot import it.
    st, tensor, _, _ = sk.view_to_dlpack(sk.make_view([2], [1], 0), 0,
                                         base.__array_interface__["data"][0])
    check(st == sk.SK_OK and tensor.dtype.code == 6 and
          tensor.dtype.bits == 8, f"bool: status {st}")
    # A negative offset moves the data pointer (byte_offset is unsigned).
    ptr = base.__array_interface__["data"][0] + 32
    st, tensor, _, _ = sk.view_to_dlpack(sk.make_view([3], [1], -2), 11, ptr)
    check(st == sk.SK_OK and tensor.byte_offset == 0 and
          tensor.data == ptr - 8, f"negative offset: {st} {tensor.data}")


def main():
    rng = random.Random(20261123)
    for name, base, arr in examples(rng):
        test_import(name, base, arr)
        test_export(name, base, arr)
    test_export_refusals()
    return report()


if __name__ == "__main__":
    sys.exit(main())
