"""stridekit for NumPy: views as metadata and strided SIMD kernels.

Every function has NumPy's name, arguments, dtype resolution (value-based
casting of Python scalars, as NumPy 1.x) and return convention (0-d results
as NumPy scalars, out= returned, out= of another dtype cast on store with
casting='same_kind'). Calls whose operands are NumPy arrays already of the
kernel's dtypes run in the compiled extension (stridekit._ext: views built
in C, the C ABI called directly, layouts that repeat through cached C ABI
plans); the rest (Views, DLPack producers, scalars, casts, padded views)
run through the same C ABI from Python. stridekit.plan(func, *arrays)
prepares one call for arrays of the same layouts. Failures of the library
raise StridekitError (a ValueError) with its message; cases the library
lacks raise TypeError naming the function (list: README.md).
"""
import numpy as np

from . import _ext, _functions, _resolve
from ._errors import StridekitError
from ._functions import ascontiguous, copy, fill
from ._view import View, view

__version__ = _ext.version()


def _kernel(name, fallback, doc):
    kind, op = _resolve.KERNELS[name]
    fallback.__name__ = fallback.__qualname__ = name
    fallback.__doc__ = doc
    return _ext.Kernel(name, kind, op, fallback)


def _ufunc(name, nin, doc):
    if nin == 2:
        def fn(x1, x2, out=None):
            return _functions.elementwise(name, [x1, x2], out)
    else:
        def fn(x, out=None):
            return _functions.elementwise(name, [x], out)
    return _kernel(name, fn, f"NumPy {name} by the C ABI: {doc}")


_BINARY_DOCS = {
    "add": "x1 + x2 (bool: or).", "subtract": "x1 - x2.",
    "multiply": "x1 * x2 (bool: and).",
    "divide": "x1 / x2 (integers in float64, as NumPy).",
    "floor_divide": "x1 // x2 (integers: a zero divisor is an error).",
    "minimum": "NaN-propagating minimum.", "maximum": "NaN-propagating maximum.",
    "power": "x1 ** x2.", "remainder": "x1 % x2, floor modulo (sign of x2).",
    "bitwise_and": "x1 & x2.", "bitwise_or": "x1 | x2.",
    "bitwise_xor": "x1 ^ x2.", "left_shift": "x1 << x2.",
    "right_shift": "x1 >> x2.",
    "equal": "x1 == x2 (bool).", "not_equal": "x1 != x2 (bool; NaN: True).",
    "less": "x1 < x2 (bool).", "less_equal": "x1 <= x2 (bool).",
    "greater": "x1 > x2 (bool).", "greater_equal": "x1 >= x2 (bool).",
    "arctan2": "arc tangent of x1/x2 in the right quadrant.",
    "hypot": "sqrt(x1**2 + x2**2) without overflow.",
    "copysign": "|x1| with the sign of x2.",
    "fmod": "C remainder (sign of x1; integers: a zero divisor is an error).",
    "fmax": "maximum ignoring NaN.", "fmin": "minimum ignoring NaN.",
    "logaddexp": "log(exp(x1) + exp(x2)).",
    "logaddexp2": "log2(2**x1 + 2**x2).",
    "nextafter": "the next value after x1 toward x2.",
    "heaviside": "0, x2 or 1 as x1 < 0, == 0, > 0.",
    "gcd": "greatest common divisor.", "lcm": "least common multiple.",
}
_UNARY_DOCS = {
    "negative": "-x.", "absolute": "|x| (not for complex).",
    "sqrt": "square root.", "square": "x * x.", "exp": "e**x.",
    "log": "natural logarithm.", "expm1": "exp(x) - 1.", "log1p": "log(1 + x).",
    "sin": "sine.", "cos": "cosine.", "tanh": "hyperbolic tangent.",
    "floor": "round down.", "ceil": "round up.",
    "rint": "round half to even.", "trunc": "round toward zero.",
    "sign": "-1, 0 or 1 (NaN stays NaN).", "invert": "~x (bool: not).",
    "isnan": "x is NaN (bool).", "isinf": "x is infinite (bool).",
    "isfinite": "x is finite (bool).", "tan": "tangent.",
    "arcsin": "inverse sine.", "arccos": "inverse cosine.",
    "arctan": "inverse tangent.", "sinh": "hyperbolic sine.",
    "cosh": "hyperbolic cosine.", "arcsinh": "inverse hyperbolic sine.",
    "arccosh": "inverse hyperbolic cosine.",
    "arctanh": "inverse hyperbolic tangent.", "exp2": "2**x.",
    "log2": "base-2 logarithm.", "log10": "base-10 logarithm.",
    "cbrt": "cube root.",
    "reciprocal": "1/x (integers: truncated; 0 is an error).",
    "signbit": "the sign bit is set (bool).",
}
for _name, _doc in _BINARY_DOCS.items():
    globals()[_name] = _ufunc(_name, 2, _doc)
for _name, _doc in _UNARY_DOCS.items():
    globals()[_name] = _ufunc(_name, 1, _doc)
true_divide, abs, absolute = divide, absolute, absolute  # noqa: A001,F821
mod = remainder  # noqa: F821
bitwise_not = invert  # noqa: F821

where = _kernel("where", _functions.where, _functions.where.__doc__)
astype = _kernel("astype", _functions.astype, _functions.astype.__doc__)
einsum = _kernel("einsum", _functions.einsum, _functions.einsum.__doc__)


def _reduction(name, has_dtype, doc):
    if has_dtype:
        def fn(a, axis=None, dtype=None, out=None, keepdims=False):
            return _functions.reduce(name, a, axis, dtype, out, keepdims)
    else:
        def fn(a, axis=None, out=None, keepdims=False):
            return _functions.reduce(name, a, axis, None, out, keepdims)
    return _kernel(name, fn, f"np.{name} by sk_reduce: {doc}")


sum = _reduction("sum", True, "bool and narrow integers accumulate in "  # noqa: A001
                 "64 bits (NumPy's rule); dtype= chooses.")
prod = _reduction("prod", True, "accumulator dtype as sum.")
mean = _reduction("mean", True, "float pairwise sum / count; integers in "
                  "float64, complex as sum / count.")
min = _reduction("min", False, "NaN propagates; an empty axis is an error.")  # noqa: A001
max = _reduction("max", False, "NaN propagates; an empty axis is an error.")  # noqa: A001
any = _reduction("any", False, "x != 0 (NaN true) along the axes.")  # noqa: A001
all = _reduction("all", False, "x != 0 (NaN true) along the axes.")  # noqa: A001
amin, amax = min, max


def _arg(name):
    def fn(a, axis=None, out=None, *, keepdims=False):
        return _functions.arg_reduce(name, a, axis, out, keepdims)
    return _kernel(name, fn, f"np.{name} by sk_arg_reduce: index of the "
                   "first extreme (NaN wins); axis=None: of the flattened "
                   "array.")


argmin, argmax = _arg("argmin"), _arg("argmax")


def _scan(name, doc):
    def fn(a, axis=None, dtype=None, out=None):
        return _functions.scan(name, a, axis, dtype, out)
    return _kernel(name, fn, f"{doc} by sk_scan (axis=None: flattened).")


cumsum = _scan("cumsum", "np.cumsum")
cumprod = _scan("cumprod", "np.cumprod")
cummin = _scan("cummin", "np.minimum.accumulate")
cummax = _scan("cummax", "np.maximum.accumulate")

_ext.setup(_resolve.fast_dtypes)


def plan(func, *arrays, **kwargs):
    """func's call on arrays prepared once (the C ABI's sk_plan_*): the
    returned Plan, called with arrays of the same dtypes, shapes and strides
    (and out= of the planned layout if it was planned with out=), executes
    the plan and checks only those layouts. einsum: plan(einsum, spec, *ops)
    and call it with the operands. Arrays must already have the kernel's
    dtypes (no scalars, no casts)."""
    return _ext.plan(func, *arrays, **kwargs)


Plan = _ext.Plan


# ---- threads and targets

def set_threads(n):
    """Threads of copy, cast, elementwise and reduce kernels: 1 = serial
    (the default), 0 = all cores. Results do not depend on it (except float
    sums to few outputs)."""
    _ext.set_threads(int(n))


def get_threads():
    return _ext.get_threads()


def targets():
    """SIMD targets available here, best first, "reference" last."""
    return _ext.targets()


def active_target():
    return _ext.target_active()


def force_target(name=None):
    """Runs every kernel on target `name` (one of targets()); None: the best.
    Cached plans (made for the former target) are dropped."""
    _ext.target_force(name)


__all__ = [
    "View", "Plan", "StridekitError", "view", "ascontiguous", "copy", "fill",
    "astype", "where", "einsum", "plan", *_BINARY_DOCS, *_UNARY_DOCS,
    "true_divide", "abs", "mod", "bitwise_not", "sum", "prod", "mean", "min",
    "max", "amin", "amax", "any", "all", "argmin", "argmax", "cumsum",
    "cumprod", "cummin", "cummax", "set_threads", "get_threads", "targets",
    "active_target", "force_target", "__version__",
]
