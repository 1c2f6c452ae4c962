"""NumPy's BLAS as the einsum optimize=True peers use it: which library and
kernel it is (describe(): threadpoolctl's threadpool_info -- internal_api,
version, architecture, threading layer, num_threads -- or, where
threadpoolctl cannot see it, the libblas NumPy loaded, by path) and the
environment that runs a peer process on n threads (environment(n)): every
BLAS's thread variable set to n before NumPy loads it, which works for
OpenBLAS, BLIS and MKL alike (threadpoolctl cannot limit a BLIS built into
Debian's libblas.so.3, which exports no thread calls)."""
import os

THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "BLIS_NUM_THREADS",
               "MKL_NUM_THREADS")


def _has_avx512():
    """AVX-512 F, DQ, BW and VL, the set BLIS's "skx" kernels need."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f
                          if line.startswith("flags")), [])
    except OSError:
        return False
    return all(f in flags for f in ("avx512f", "avx512dq", "avx512bw",
                                    "avx512vl"))


def blis_kernels(env):
    """env with BLIS_ARCH_TYPE=0 ("skx") on an AVX-512 CPU unless set: BLIS
    0.9 falls back to plain C ("generic") on CPUs it does not know, such as
    AMD's AVX-512 Zen 4 (blis_bench.cc's SelectBlisKernels does the same)."""
    if "BLIS_ARCH_TYPE" not in env and _has_avx512():
        env = dict(env, BLIS_ARCH_TYPE="0")
    return env


def environment(threads):
    """os.environ for a NumPy peer process whose BLAS runs on `threads`."""
    return blis_kernels(dict(os.environ, **{v: str(threads)
                                             for v in THREAD_VARS}))


def describe():
    """One line naming the BLAS this process's NumPy uses."""
    import numpy  # noqa: F401 - loads the BLAS
    try:
        from threadpoolctl import threadpool_info
        blas = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    except ImportError:
        blas = []
    if blas:
        return "; ".join(
            f"{i.get('internal_api')} {i.get('version')}, "
            f"{i.get('architecture')} kernels, "
            f"{i.get('threading_layer')} threading, "
            f"{i.get('num_threads')} threads ({i.get('filepath')})"
            for i in blas)
    try:
        with open("/proc/self/maps") as f:
            paths = sorted({os.path.realpath(line.split()[-1]) for line in f
                            if "blas" in line.rsplit("/", 1)[-1]})
    except OSError:
        paths = []
    arch = os.environ.get("BLIS_ARCH_TYPE")
    return ("not identified by threadpoolctl: " + (", ".join(paths) or "?") +
            (f" (BLIS_ARCH_TYPE={arch})" if arch else ""))
