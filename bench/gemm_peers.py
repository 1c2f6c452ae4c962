#!/usr/bin/env python3
"""Matrix products interleaved with their peers in one process.

einsum_bench and NumPy's peers run one after the other, so on a noisy
machine (a shared VM) their ratios move with the load between the two runs.
This script times stridekit's sk_einsum("ij,jk->ik"), NumPy's np.matmul
(its BLAS: OpenBLAS on Debian with libopenblas0-pthread) and BLIS's
bli_?gemm (libblis-dev, when installed) in turns, call by call, on the same
C-order operands, on 1 and 2 threads each (sk_set_threads, threadpoolctl,
bli_thread_set_num_threads), and reports each one's best time and the
ratios peer time / stridekit time (> 1: stridekit faster).

    python3 bench/gemm_peers.py [--lib build/tests/libstridekit.so]
                                [--sizes 256,1024,2048] [--rounds 7]
"""
import argparse
import ctypes
import ctypes.util
import os
import time

# In turns on few cores, a peer's idle worker threads must not spin into
# the next library's call: OpenBLAS's wait for work (2^4 cycles, its
# least), BLIS's OpenMP threads passive. Set before the libraries load.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("GOMP_SPINCOUNT", "0")

import numpy as np  # noqa: E402

SK_MAX_NDIM = 32
DTYPES = {np.float32: 11, np.float64: 12}  # sk_dtype values (stridekit.h)


class SkView(ctypes.Structure):
    _fields_ = [("ndim", ctypes.c_int32), ("has_mask", ctypes.c_int32),
                ("offset", ctypes.c_int64),
                ("shape", ctypes.c_int64 * SK_MAX_NDIM),
                ("strides", ctypes.c_int64 * SK_MAX_NDIM),
                ("mask_begin", ctypes.c_int64 * SK_MAX_NDIM),
                ("mask_end", ctypes.c_int64 * SK_MAX_NDIM)]


def view_of(a):
    v = SkView()
    v.ndim = a.ndim
    for d in range(a.ndim):
        v.shape[d] = a.shape[d]
        v.strides[d] = a.strides[d] // a.itemsize
    return v


def stridekit_gemm(lib, a, b, c):
    views = [view_of(a), view_of(b)]
    out = view_of(c)
    view_ptrs = (ctypes.POINTER(SkView) * 2)(*[ctypes.pointer(v) for v in views])
    datas = (ctypes.c_void_p * 2)(a.ctypes.data, b.ctypes.data)
    dtype = DTYPES[a.dtype.type]

    def run():
        status = lib.sk_einsum(b"ij,jk->ik", dtype, 2, view_ptrs, datas,
                               ctypes.byref(out), ctypes.c_void_p(c.ctypes.data))
        assert status == 0, lib.sk_last_error()
    return run


def blis_gemm(blis, a, b, c):
    n = a.shape[0]
    one = (ctypes.c_float if a.dtype == np.float32 else ctypes.c_double)(1)
    zero = (ctypes.c_float if a.dtype == np.float32 else ctypes.c_double)(0)
    fn = blis.bli_sgemm if a.dtype == np.float32 else blis.bli_dgemm
    i64 = ctypes.c_int64

    def run():  # BLIS_NO_TRANSPOSE is 0; row-major: row stride n, col 1
        fn(0, 0, i64(n), i64(n), i64(n), ctypes.byref(one),
           ctypes.c_void_p(a.ctypes.data), i64(n), i64(1),
           ctypes.c_void_p(b.ctypes.data), i64(n), i64(1), ctypes.byref(zero),
           ctypes.c_void_p(c.ctypes.data), i64(n), i64(1))
    return run


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.path.join(root, "build", "tests",
                                                  "libstridekit.so"))
    ap.add_argument("--sizes", default="256,1024,2048")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    lib.sk_last_error.restype = ctypes.c_char_p
    blis_path = ctypes.util.find_library("blis")
    blis = ctypes.CDLL(blis_path) if blis_path else None
    from threadpoolctl import threadpool_limits, threadpool_info
    blas = ", ".join(f"{i['internal_api']} {i.get('version')} "
                     f"{i.get('architecture')}" for i in threadpool_info())
    if blis is not None:
        blis.bli_arch_query_id.restype = ctypes.c_int
        blis.bli_arch_string.restype = ctypes.c_char_p
        blis_arch = blis.bli_arch_string(blis.bli_arch_query_id()).decode()
    print(f"NumPy {np.__version__} on {blas}; BLIS "
          f"{blis_arch if blis else 'not installed'}")
    print(f"{'case':<18}{'thr':>4}{'stridekit':>12}{'np.matmul':>12}"
          f"{'BLIS':>12}{'vs NumPy':>10}{'vs BLIS':>9}  (best of "
          f"{args.rounds} rounds, ms)")
    for dtype in (np.float32, np.float64):
        for n in (int(s) for s in args.sizes.split(",")):
            a = np.full((n, n), 0.5, dtype)
            b = np.full((n, n), 0.25, dtype)
            c = np.empty((n, n), dtype)
            for threads in (1, 2):
                lib.sk_set_threads(threads)
                if blis is not None:
                    blis.bli_thread_set_num_threads(ctypes.c_int64(threads))
                runs = {"stridekit": stridekit_gemm(lib, a, b, c),
                        "numpy": lambda: np.matmul(a, b, out=c)}
                if blis is not None:
                    runs["blis"] = blis_gemm(blis, a, b, c)
                best = {k: float("inf") for k in runs}
                with threadpool_limits(threads):
                    reps = max(1, int(2e8 / n**3))
                    for _ in range(args.rounds):
                        for name, run in runs.items():  # in turns
                            t0 = time.perf_counter()
                            for _ in range(reps):
                                run()
                            best[name] = min(best[name],
                                             (time.perf_counter() - t0) / reps)
                assert c[0, 0] == dtype(0.125 * n)
                sk = best["stridekit"]
                bl = best.get("blis", float("nan"))
                print(f"{np.dtype(dtype).name + ' ' + str(n):<18}{threads:>4}"
                      f"{sk * 1e3:>12.3f}{best['numpy'] * 1e3:>12.3f}"
                      f"{bl * 1e3:>12.3f}{best['numpy'] / sk:>10.2f}"
                      f"{bl / sk:>9.2f}")
    lib.sk_set_threads(1)


if __name__ == "__main__":
    main()
