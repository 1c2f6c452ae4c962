#!/usr/bin/env python3
"""Kernels on a transposed input beside NumPy, in one process.

Times stridekit (through ctypes) and NumPy in turns, call by call, on float32
n x n operands whose first input is a transposed view (a.T, as NumPy gives
it), and stridekit on the contiguous input too, on 1 thread; reports the
medians, NumPy time / stridekit time (> 1: stridekit faster) and stridekit's
contiguous time / its transposed time (issue "data movement": >= 3x NumPy at
every size, >= 0.8 of the contiguous call at L2). NumPy's where allocates its
result (it has no out=); every other NumPy call writes into out=.

    python3 bench/transposed_peers.py [--lib build/tests/libstridekit.so]
                                      [--sizes 256,1024,4096] [--rounds 7]
"""
import argparse
import ctypes
import os
import time

import numpy as np

from gemm_peers import view_of  # The C ABI's sk_view, one definition.

F32, F64, BOOL = 11, 12, 0  # sk_dtype values (stridekit.h)
EXP, LOG, TANH = 4, 5, 10  # sk_unary_op
GT = 4  # sk_compare_op
CUMSUM = 0  # sk_scan_op


def cases(lib, b, cond, out32, out64, outb):
    """Per case: (stridekit call on input (view, pointer), NumPy call on x).
    Views and pointers are made once, outside the timed calls."""
    def vp(x):
        return ctypes.byref(view_of(x)), ctypes.c_void_p(x.ctypes.data)

    vb, pb = vp(b)
    vc, pc = vp(cond)
    vo, po = vp(out32)
    v64, p64 = vp(out64)
    vob, pob = vp(outb)

    def unary(op, ufunc):
        return (lambda v, p: lib.sk_unary(op, F32, v, p, vo, po),
                lambda x: ufunc(x, out=out32))

    return {
        "a > b": (lambda v, p: lib.sk_compare(GT, F32, v, p, vb, pb, vob, pob),
                  lambda x: np.greater(x, b, out=outb)),
        "where(c, a, b)": (lambda v, p: lib.sk_where(F32, vc, pc, v, p, vb, pb,
                                                     vo, po),
                           lambda x: np.where(cond, x, b)),
        "exp": unary(EXP, np.exp),
        "log": unary(LOG, np.log),
        "tanh": unary(TANH, np.tanh),
        "cumsum axis 1": (lambda v, p: lib.sk_scan(CUMSUM, F32, v, p, 1, vo,
                                                   po),
                          lambda x: np.cumsum(x, axis=1, out=out32)),
        "astype float64": (lambda v, p: lib.sk_cast(F32, v, p, F64, v64, p64),
                           lambda x: np.copyto(out64, x)),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", default=os.path.join(
        os.path.dirname(__file__), "..", "build", "tests", "libstridekit.so"))
    parser.add_argument("--sizes", default="256,1024,4096")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    lib = ctypes.CDLL(args.lib)
    lib.sk_last_error.restype = ctypes.c_char_p
    lib.sk_target_active.restype = ctypes.c_char_p
    assert lib.sk_set_threads(1) == 0
    print(f"numpy {np.__version__}; stridekit target "
          f"{lib.sk_target_active().decode()}; float32, 1 thread; medians of "
          "interleaved turns (ms)")
    print("| case | n | KiB per array | stridekit a.T | NumPy a.T | "
          "NumPy / stridekit | stridekit contiguous | contiguous / a.T |")
    print("|---|---|---|---|---|---|---|---|")
    rng = np.random.default_rng(1)
    for n in (int(s) for s in args.sizes.split(",")):
        a = rng.uniform(0.5, 10, (n, n)).astype(np.float32)
        b = rng.uniform(0.5, 10, (n, n)).astype(np.float32)
        cond = rng.integers(0, 2, (n, n)).astype(np.bool_)
        out32 = np.empty((n, n), np.float32)
        out64 = np.empty((n, n), np.float64)
        outb = np.empty((n, n), np.bool_)
        reps = max(1, (1 << 20) // (n * n))
        at = a.T
        vt, pt = ctypes.byref(view_of(at)), ctypes.c_void_p(at.ctypes.data)
        va, pa = ctypes.byref(view_of(a)), ctypes.c_void_p(a.ctypes.data)
        for name, (sk, peer) in cases(lib, b, cond, out32, out64,
                                      outb).items():
            calls = {"sk_t": lambda: sk(vt, pt), "np_t": lambda: peer(at),
                     "sk_c": lambda: sk(va, pa)}
            assert sk(vt, pt) == 0, lib.sk_last_error()
            times = {k: [] for k in calls}
            for fn in calls.values():
                fn()
            for _ in range(args.rounds):
                for key, fn in calls.items():
                    t0 = time.perf_counter()
                    for _ in range(reps):
                        fn()
                    times[key].append((time.perf_counter() - t0) / reps)
            med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
            print(f"| {name} | {n} | {n * n * 4 // 1024} | "
                  f"{med['sk_t'] * 1e3:.3f} | {med['np_t'] * 1e3:.3f} | "
                  f"{med['np_t'] / med['sk_t']:.2f} | "
                  f"{med['sk_c'] * 1e3:.3f} | "
                  f"{med['sk_c'] / med['sk_t']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
