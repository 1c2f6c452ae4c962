#!/usr/bin/env python3
"""The float family's transcendentals interleaved with NumPy in one process.

Times stridekit's sk_unary / sk_binary (through ctypes; a call's fixed cost
is about a microsecond, far below these sizes' times) and NumPy's ufunc
with out= in turns, call by call, on the same contiguous float32 and
float64 operands at L2, L3 and DRAM sizes, on 1 thread, and reports each
one's median and the ratio NumPy time / stridekit time (> 1: stridekit
faster), beside the copy reference: the better of memcpy and stridekit's
contiguous sk_copy of the input to the output, timed in the same turns
(the fraction of the copy reference is copy time / stridekit time: the same
bytes read and written once).

    python3 bench/math_peers.py [--lib build/tests/libstridekit.so]
                                [--rounds 7] [--ops exp,log,...]
"""
import argparse
import ctypes
import os
import time

import numpy as np

from gemm_peers import view_of  # The C ABI's sk_view, one definition.

DTYPES = {np.float32: 11, np.float64: 12}  # sk_dtype values (stridekit.h)
UNARY = {"exp": 4, "log": 5, "expm1": 6, "log1p": 7, "sin": 8, "cos": 9,
         "tanh": 10, "tan": 20, "arcsin": 21, "arccos": 22, "arctan": 23,
         "sinh": 24, "cosh": 25, "arcsinh": 26, "arccosh": 27,
         "arctanh": 28, "exp2": 29, "log2": 30, "log10": 31, "cbrt": 32}
BINARY = {"arctan2": 13, "hypot": 14, "logaddexp": 20, "logaddexp2": 21}
# Inputs in each function's domain (interesting range, no specials).
RANGES = {"arcsin": (-1, 1), "arccos": (-1, 1), "arctanh": (-0.99, 0.99),
          "arccosh": (1, 50), "log": (0.01, 100), "log2": (0.01, 100),
          "log10": (0.01, 100), "log1p": (-0.9, 100), "exp": (-80, 80),
          "exp2": (-120, 120), "expm1": (-80, 80), "sinh": (-80, 80),
          "cosh": (-80, 80)}
# Elements per operand: L2 (256 KiB of float32 output), L3, DRAM.
SIZES = {"L2": 1 << 16, "L3": 1 << 21, "DRAM": 1 << 25}


def median_ratio(lib, name, dtype, n, rounds):
    rng = np.random.default_rng(1)
    lo, hi = RANGES.get(name, (-10, 10))
    a = rng.uniform(lo, hi, n).astype(dtype)
    b = rng.uniform(lo, hi, n).astype(dtype)
    out = np.empty_like(a)
    va, vb, vo = view_of(a), view_of(b), view_of(out)
    pa, pb, po = (ctypes.c_void_p(x.ctypes.data) for x in (a, b, out))
    t = DTYPES[dtype]
    if name in BINARY:
        op = BINARY[name]

        def sk():
            return lib.sk_binary(op, t, ctypes.byref(va), pa,
                                 ctypes.byref(vb), pb, ctypes.byref(vo), po)

        ufunc = getattr(np, name)

        def peer():
            ufunc(a, b, out=out)
    else:
        op = UNARY[name]

        def sk():
            return lib.sk_unary(op, t, ctypes.byref(va), pa, ctypes.byref(vo),
                                po)

        ufunc = getattr(np, name)

        def peer():
            ufunc(a, out=out)

    # The copy reference: the better of memcpy and stridekit's contiguous
    # copy of the same bytes (read a, write out).
    nbytes = a.nbytes

    def memcpy():
        ctypes.memmove(po, pa, nbytes)

    def sk_copy():
        lib.sk_copy(t, ctypes.byref(va), pa, ctypes.byref(vo), po)

    assert sk() == 0, lib.sk_last_error()
    # Calls per timing: at least about a millisecond at L2.
    reps = max(1, (1 << 18) // n)
    times = {"sk": [], "numpy": [], "memcpy": [], "sk_copy": []}
    with np.errstate(all="ignore"):
        for fn in (sk, peer, memcpy, sk_copy):  # Warm: pages, code, caches.
            fn()
        for _ in range(rounds):
            for key, fn in (("sk", sk), ("numpy", peer), ("memcpy", memcpy),
                            ("sk_copy", sk_copy)):
                t0 = time.perf_counter()
                for _ in range(reps):
                    fn()
                times[key].append((time.perf_counter() - t0) / reps)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    med["copy"] = min(med["memcpy"], med["sk_copy"])
    return med


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "tests", "libstridekit.so"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--ops", default=",".join(list(UNARY) + list(BINARY)))
    parser.add_argument("--sizes", default="L2,L3,DRAM")
    args = parser.parse_args()
    lib = ctypes.CDLL(args.lib)
    lib.sk_last_error.restype = ctypes.c_char_p
    lib.sk_target_active.restype = ctypes.c_char_p
    print(f"numpy {np.__version__}; stridekit target "
          f"{lib.sk_target_active().decode()}; "
          "1 thread; medians of interleaved turns")
    print("| function | dtype | size | stridekit ns/elem | NumPy / stridekit |"
          " fraction of copy reference |")
    print("|---|---|---|---|---|---|")
    for name in args.ops.split(","):
        for dtype in (np.float32, np.float64):
            for group in args.sizes.split(","):
                n = SIZES[group]
                med = median_ratio(lib, name, dtype, n, args.rounds)
                print(f"| {name} | {np.dtype(dtype).name} | {group} | "
                      f"{med['sk'] / n * 1e9:.2f} | "
                      f"{med['numpy'] / med['sk']:.2f} | "
                      f"{med['copy'] / med['sk']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
