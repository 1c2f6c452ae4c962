#!/usr/bin/env python3
"""Two builds of libstridekit.so in one process, call by call.

An A/B of a kernel change on a noisy machine: both libraries are loaded
(ctypes), and their calls alternate round by round on the same operands,
so that load drifts hit both alike. Reports each one's median (math) or
best (gemm) time, the ratio A/B (> 1: B faster) and whether the two
outputs have the same bits.

    python3 bench/ab_libs.py math A.so B.so [--ops exp,log] [--n 65536]
                             [--transposed] [--rounds 9]
    (--ops also takes the comparisons: greater, less, equal, ...)
    python3 bench/ab_libs.py gemm A.so B.so [--sizes 256,1024,2048]
                             [--threads 1] [--rounds 5]

STRIDEKIT_TARGET=AVX2 (for instance) runs both on another target.
"""
import argparse
import ctypes
import time

import numpy as np

from gemm_peers import stridekit_gemm, view_of
from math_peers import BINARY, DTYPES, RANGES, UNARY

# sk_compare_op values (stridekit.h).
COMPARE = {"equal": 0, "not_equal": 1, "less": 2, "less_equal": 3,
           "greater": 4, "greater_equal": 5}


def alternate(fns, rounds, reps):
    """Per function, its time per call in each round (turns alternate)."""
    times = [[] for _ in fns]
    for _ in range(rounds):
        for k, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(reps):
                fn()
            times[k].append((time.perf_counter() - t0) / reps)
    return times


def math_case(libs, name, dtype, n, transposed, rounds):
    rng = np.random.default_rng(1)
    lo, hi = RANGES.get(name, (-10, 10))
    a = rng.uniform(lo, hi, n).astype(dtype)
    b = rng.uniform(lo, hi, n).astype(dtype)
    if transposed:  # a read across the output's rows
        a = a.reshape(n // 256, 256).T
        b = b.reshape(256, n // 256)
    out_dtype = np.bool_ if name in COMPARE else dtype
    outs = [np.empty(a.shape, out_dtype) for _ in libs]
    va, vb = view_of(a), view_of(b)
    pa, pb = ctypes.c_void_p(a.ctypes.data), ctypes.c_void_p(b.ctypes.data)
    t = DTYPES[dtype]

    def call(lib, out):
        vo, po = view_of(out), ctypes.c_void_p(out.ctypes.data)
        if name in COMPARE:
            op = COMPARE[name]
            return lambda: lib.sk_compare(op, t, ctypes.byref(va), pa,
                                          ctypes.byref(vb), pb,
                                          ctypes.byref(vo), po)
        if name in BINARY:
            op = BINARY[name]
            return lambda: lib.sk_binary(op, t, ctypes.byref(va), pa,
                                         ctypes.byref(vb), pb,
                                         ctypes.byref(vo), po)
        op = UNARY[name]
        return lambda: lib.sk_unary(op, t, ctypes.byref(va), pa,
                                    ctypes.byref(vo), po)

    fns = [call(lib, out) for lib, out in zip(libs, outs)]
    for fn in fns:
        assert fn() == 0
    same = outs[0].tobytes() == outs[1].tobytes()
    times = alternate(fns, rounds, max(1, (1 << 18) // n))
    med = [sorted(x)[len(x) // 2] for x in times]
    print(f"{name:10s} {np.dtype(dtype).name:8s} A {med[0] / n * 1e9:.3f} "
          f"B {med[1] / n * 1e9:.3f} ns/elem  A/B {med[0] / med[1]:.3f}  "
          f"{'same bits' if same else 'BITS DIFFER'}", flush=True)


def gemm_case(libs, dtype, n, rounds):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    outs = [np.empty((n, n), dtype) for _ in libs]
    fns = [stridekit_gemm(lib, a, b, c) for lib, c in zip(libs, outs)]
    for fn in fns:
        fn()
    same = outs[0].tobytes() == outs[1].tobytes()
    times = alternate(fns, rounds, max(1, int(2e8 / (2 * n**3))))
    best = [min(x) for x in times]
    print(f"{np.dtype(dtype).name} {n}: A {best[0] * 1e3:.3f} ms "
          f"B {best[1] * 1e3:.3f} ms  A/B {best[0] / best[1]:.3f}  "
          f"B {2 * n**3 / best[1] / 1e9:.1f} GFLOPS  "
          f"{'same bits' if same else 'BITS DIFFER'}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["math", "gemm"])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--ops", default=",".join(list(UNARY) + list(BINARY)))
    ap.add_argument("--n", type=int, default=1 << 16)
    ap.add_argument("--transposed", action="store_true")
    ap.add_argument("--sizes", default="256,1024,2048")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int)
    args = ap.parse_args()
    if args.transposed and (args.n < 256 or args.n % 256):
        ap.error(f"--transposed needs --n a multiple of 256, not {args.n}")
    libs = [ctypes.CDLL(p) for p in (args.a, args.b)]
    libs[0].sk_target_active.restype = ctypes.c_char_p
    print(f"target {libs[0].sk_target_active().decode()}; "
          f"A {args.a}, B {args.b}")
    for dtype in (np.float32, np.float64):
        if args.mode == "math":
            for name in args.ops.split(","):
                math_case(libs, name, dtype, args.n, args.transposed,
                          args.rounds or 9)
        else:
            for lib in libs:
                lib.sk_set_threads(args.threads)
            for n in (int(s) for s in args.sizes.split(",")):
                gemm_case(libs, dtype, n, args.rounds or 5)


if __name__ == "__main__":
    main()
