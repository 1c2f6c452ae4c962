"""NumPy's dtype resolution for the package's kernels, and the cases the
library lacks. One rule for both paths: the extension asks fast_dtypes once
per kernel and input dtypes; the Python path asks loop_dtypes per call."""
import numpy as np

from ._view import NP_DTYPES, SK_DTYPES

# name -> (kind, C ABI op): the kinds are _ext's (BINARY=0 .. EINSUM=8)
BINARY, COMPARE, UNARY, WHERE, REDUCE, ARG, SCAN, CAST, EINSUM = range(9)
KERNELS = {
    "add": (BINARY, 0), "subtract": (BINARY, 1), "multiply": (BINARY, 2),
    "divide": (BINARY, 3), "floor_divide": (BINARY, 17), "minimum": (BINARY, 4),
    "maximum": (BINARY, 5), "power": (BINARY, 6), "remainder": (BINARY, 7),
    "bitwise_and": (BINARY, 8), "bitwise_or": (BINARY, 9),
    "bitwise_xor": (BINARY, 10), "left_shift": (BINARY, 11),
    "right_shift": (BINARY, 12), "arctan2": (BINARY, 13),
    "hypot": (BINARY, 14), "copysign": (BINARY, 15), "fmod": (BINARY, 16),
    "fmax": (BINARY, 18), "fmin": (BINARY, 19), "logaddexp": (BINARY, 20),
    "logaddexp2": (BINARY, 21), "nextafter": (BINARY, 22),
    "heaviside": (BINARY, 23), "gcd": (BINARY, 24), "lcm": (BINARY, 25),
    "equal": (COMPARE, 0), "not_equal": (COMPARE, 1), "less": (COMPARE, 2),
    "less_equal": (COMPARE, 3), "greater": (COMPARE, 4),
    "greater_equal": (COMPARE, 5),
    "negative": (UNARY, 0), "absolute": (UNARY, 1), "sqrt": (UNARY, 2),
    "square": (UNARY, 3), "exp": (UNARY, 4), "log": (UNARY, 5),
    "expm1": (UNARY, 6), "log1p": (UNARY, 7), "sin": (UNARY, 8),
    "cos": (UNARY, 9), "tanh": (UNARY, 10), "floor": (UNARY, 11),
    "ceil": (UNARY, 12), "rint": (UNARY, 13), "trunc": (UNARY, 14),
    "sign": (UNARY, 15), "invert": (UNARY, 16), "isnan": (UNARY, 17),
    "isinf": (UNARY, 18), "isfinite": (UNARY, 19), "tan": (UNARY, 20),
    "arcsin": (UNARY, 21), "arccos": (UNARY, 22), "arctan": (UNARY, 23),
    "sinh": (UNARY, 24), "cosh": (UNARY, 25), "arcsinh": (UNARY, 26),
    "arccosh": (UNARY, 27), "arctanh": (UNARY, 28), "exp2": (UNARY, 29),
    "log2": (UNARY, 30), "log10": (UNARY, 31), "cbrt": (UNARY, 32),
    "reciprocal": (UNARY, 33), "signbit": (UNARY, 34),
    "where": (WHERE, 0),
    "sum": (REDUCE, 0), "prod": (REDUCE, 1), "min": (REDUCE, 2),
    "max": (REDUCE, 3), "any": (REDUCE, 4), "all": (REDUCE, 5),
    "mean": (REDUCE, 6),
    "argmin": (ARG, 0), "argmax": (ARG, 1),
    "cumsum": (SCAN, 0), "cumprod": (SCAN, 1), "cummin": (SCAN, 2),
    "cummax": (SCAN, 3),
    "astype": (CAST, 0), "einsum": (EINSUM, 0),
}
UFUNCS = {name: getattr(np, "true_divide" if name == "divide" else name)
          for name, (kind, _) in KERNELS.items()
          if kind in (BINARY, COMPARE, UNARY)}
# reductions and scans: NumPy's function for the default result dtype
DEFAULT_DTYPE = {"sum": np.sum, "prod": np.prod, "mean": np.mean,
                 "cumsum": np.cumsum, "cumprod": np.cumprod}
COMPLEX_OK = {"add", "subtract", "multiply", "divide", "negative", "square",
              "equal", "not_equal", "sum", "prod", "cumsum", "cumprod",
              "where", "astype", "any", "all", "reciprocal"}
EINSUM_DTYPES = {np.dtype(t) for t in ("float32", "float64", "int32", "int64")}
PREDICATES = {"isnan", "isinf", "isfinite", "signbit"}


def lacking(name, compute):
    """Why the library cannot compute `name` in dtype compute, or None."""
    if compute.kind == "c" and name not in COMPLEX_OK:
        return f"the library has no complex {name}"
    if name == "mean" and compute.kind != "f":
        return "the library's mean is for float dtypes"
    if compute not in SK_DTYPES:
        return f"the library has no {compute} dtype"
    return None


def loop_dtypes(name, dtypes):
    """(compute dtype, result dtype) of NumPy's loop of `name` for operands
    of `dtypes` (after NumPy's value-based casting of scalars); NumPy's
    TypeError when it has none."""
    kind = KERNELS[name][0]
    dtypes = [np.dtype(d) for d in dtypes]
    if kind in (BINARY, COMPARE, UNARY):
        ufunc = UFUNCS[name]
        loop = ufunc.resolve_dtypes(tuple(dtypes) + (None,))
        return loop[0], loop[-1]
    if kind == WHERE:
        t = np.result_type(*dtypes)
        return t, t
    (t,) = dtypes
    if kind in (REDUCE, SCAN):
        if name in DEFAULT_DTYPE:
            with np.errstate(all="ignore"):
                t = DEFAULT_DTYPE[name](np.zeros(1, t)).dtype
        return t, (np.dtype(bool) if name in ("any", "all") else t)
    if kind == ARG:
        return t, np.dtype(np.int64)
    raise TypeError(f"stridekit: no dtype rule for {name}")


def fast_dtypes(name, a, b):
    """The extension's question: (compute, result) sk_dtypes of `name` for
    inputs of sk_dtypes a (and b), when the library computes it with the
    inputs as they are, else None (the Python path decides)."""
    kind = KERNELS[name][0]
    try:
        nin = {BINARY: 2, COMPARE: 2, WHERE: 2, EINSUM: 2}.get(kind, 1)
        if kind == EINSUM:
            ta = NP_DTYPES[a]
            return (a, a) if a == b and ta in EINSUM_DTYPES else None
        compute, out = loop_dtypes(name, [NP_DTYPES[x] for x in (a, b)[:nin]])
    except (TypeError, KeyError, ValueError):
        return None
    if lacking(name, compute):
        return None
    if out != compute and not (out == np.dtype(bool) and (
            kind == COMPARE or name in PREDICATES or name in ("any", "all"))) \
            and kind != ARG:
        return None
    return SK_DTYPES[compute], SK_DTYPES[out]
