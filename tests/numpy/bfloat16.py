"""bfloat16 for the differential tests: NumPy has no such dtype, so values
are uint16 bit patterns, widened exactly to float32 and rounded back to
nearest even on the float32 bits (ml_dtypes' rule)."""
import numpy as np

BF16 = "bfloat16"


def storage(name):
    """The NumPy dtype that holds elements of dtype `name`."""
    return np.dtype(np.uint16 if name == BF16 else name)


def bf16_to_f32(bits):
    bits = np.asarray(bits)
    wide = bits.reshape(-1).astype(np.uint32) << 16
    return wide.view(np.float32).reshape(bits.shape)


def f32_to_bf16(f):
    """Round to nearest even on the float32 bits; NaN -> sign | 0x7fc0."""
    f = np.asarray(f, dtype=np.float32)
    u = np.ascontiguousarray(f).reshape(-1).view(np.uint32)
    rounded = ((u + np.uint32(0x7FFF) + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f.reshape(-1))
    rounded[nan] = ((u[nan] >> 16) & 0x8000).astype(np.uint16) | 0x7FC0
    return rounded.reshape(f.shape)
