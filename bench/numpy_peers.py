"""NumPy peers of the stridekit benchmarks, measured in the same bench/run.

measure(key, threads=n) returns the median seconds per call of the NumPy
operation that the benchmark labelled "peer=<key>" is compared with; einsum
peers run with NumPy's BLAS on n threads, the others on one.
"""
import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_blas  # noqa: E402


# Per (key, threads): (min, max) seconds per call over the repetitions (for
# the report).
SPREAD = {}
# Per thread count: numpy_blas.describe() of the einsum peers' processes.
BLAS = {}


def _median_seconds(fn, quick, clock=time.perf_counter, key=None):
    timer = timeit.Timer(fn, timer=clock)
    number, _ = timer.autorange()
    runs = timer.repeat(repeat=3 if quick else 5, number=number)
    SPREAD[key] = (min(runs) / number, max(runs) / number)
    return statistics.median(runs) / number


def _unravel(rank):
    shape = (7,) * rank
    return lambda: np.unravel_index(12345 % 7**rank, shape)


PEERS = {
    "broadcast2": lambda: np.broadcast_shapes((8, 1, 6, 1), (7, 1, 5)),
    "broadcast4": lambda: np.broadcast_shapes((8, 1, 6, 1), (7, 1, 5),
                                              (1, 1, 1, 5), (6, 1)),
    "unravel_index_rank2": _unravel(2),
    "unravel_index_rank4": _unravel(4),
    "unravel_index_rank8": _unravel(8),
    "python_call": lambda: None,  # What Python adds to every peer's call.
}



def _copy_peer(case, dtype, dst_shape):
    """The NumPy operation each copy_bench case is compared with."""
    dt = np.dtype(dtype)
    shape = tuple(int(n) for n in dst_shape.split("x"))
    out = np.empty(shape, dt)
    if case in ("contiguous", "reversed", "every_other"):
        n = shape[0]
        a = np.ones(2 * n if case == "every_other" else n, dt)
        src = {"contiguous": a, "reversed": a[::-1], "every_other": a[::2]}[case]
        return lambda: np.copyto(out, src)
    if case.startswith("transpose2d"):
        a = np.ones(shape, dt)
        return lambda: np.copyto(out, a.T)
    if case == "permute3d":
        a = np.ones(shape, dt)
        return lambda: np.copyto(out, a.transpose(2, 1, 0))
    permutations = {"permute4d": (1, 3, 0, 2), "permute4d_3102": (3, 1, 0, 2),
                    "permute5d": (4, 3, 2, 1, 0)}
    if case in permutations:
        axes = permutations[case]
        a = np.ones(tuple(shape[axes.index(d)] for d in range(len(axes))), dt)
        return lambda: np.copyto(out, a.transpose(axes))
    if case == "broadcast_row":
        row = np.ones(shape[1], dt)
        return lambda: np.copyto(out, row)
    if case == "pad":
        a = np.ones((shape[0] - 2, shape[1] - 2), dt)
        return lambda: np.pad(a, 1)
    raise KeyError(case)


def _case_values(case, dt, n):
    """Input a of the numeric cases from exp_contiguous on, as
    bench::CaseValue (numeric_cases.h) fills it: element i (C order) is
    lo + ((i * 7919) % 1024) / 1024 * width, exact in float64, then cast."""
    lo, width = (0.5, 1.5) if case.startswith("log_") else (-5.0, 10.0)
    k = (np.arange(n * n, dtype=np.int64) * 7919) % 1024
    return (lo + k / 1024 * width).astype(dt).reshape(n, n)


def _numeric_peer(case, dtype, edge):
    """The NumPy operation each numeric_bench case is compared with."""
    dt = np.dtype(dtype)
    n = int(edge)
    a = np.ones((n, n), dt)
    b = np.ones((n, n), dt)
    out = np.empty((n, n), dt)
    if case == "add_contiguous":
        return lambda: np.add(a.reshape(-1), b.reshape(-1), out=out.reshape(-1))
    if case == "add_outer":
        col, row = np.ones((n, 1), dt), np.ones(n, dt)
        return lambda: np.add(col, row, out=out)
    if case == "add_row":
        row = np.ones(n, dt)
        return lambda: np.add(a, row, out=out)
    if case == "add_transposed":
        return lambda: np.add(a.T, b, out=out)
    if case in ("greater_contiguous", "greater_transposed"):
        flags = np.empty((n, n), bool)
        x = a.T if case == "greater_transposed" else a
        return lambda: np.greater(x, b, out=flags)
    if case in ("where_contiguous", "where_transposed"):
        cond = np.ones((n, n), bool)
        x = a.T if case == "where_transposed" else a
        # np.where has no out=: np.copyto(out, x, where=...) would not be
        # the same operation; the allocation is NumPy's cost of where.
        return lambda: np.where(cond, x, b)
    name, _, variant = case.partition("_")
    if name in ("exp", "log", "tanh", "argmax", "cumsum"):
        a = _case_values(case, dt, n)
    if name in ("exp", "log", "tanh"):
        ufunc = getattr(np, name)
        x = a.T if variant == "transposed" else a
        return lambda: ufunc(x, out=out)
    if name in ("argmax", "cumsum"):
        x, axis = {"last": (a, 1), "axis0": (a, 0), "transposed": (a.T, 1)}[
            variant]
        if name == "cumsum":
            return lambda: np.cumsum(x, axis=axis, out=out)
        indices = np.empty(n, np.intp)
        return lambda: np.argmax(x, axis=axis, out=indices)
    sums = np.empty(n, dt)
    if case == "sum_last":
        return lambda: np.sum(a, axis=1, out=sums)
    if case == "sum_axis0":
        return lambda: np.sum(a, axis=0, out=sums)
    if case == "sum_transposed":
        return lambda: np.sum(a.T, axis=1, out=sums)
    raise KeyError(case)


def _view_peer(op, rank):
    """The NumPy operation of bench/view_bench.cc on the same layout."""
    rank = int(rank)
    base = np.empty((4,) * (rank - 1) + (8,))[..., ::2]
    if op == "reshape":
        shape = (2, 2) + (4,) * (rank - 1)
        return lambda: base.reshape(shape)
    if op == "permute":
        axes = tuple(reversed(range(rank)))
        return lambda: base.transpose(axes)
    if op == "expand":
        one = np.empty((1,) + (4,) * (rank - 1))
        shape = (4,) * rank
        return lambda: np.broadcast_to(one, shape)
    # "slice" and "slice_text": NumPy indexes with a tuple it already has.
    index = np.index_exp[1:3, ::-1, ..., 0] if rank >= 3 else np.index_exp[
        1:3, ::-1]
    return lambda: base[index]


_EINSUM_CASES = {  # einsum_cases.h: spec, operand shapes, operand 0's step
    "matmul256": ("ij,jk->ik", [(256, 256), (256, 256)], 1),
    "matmul1024": ("ij,jk->ik", [(1024, 1024), (1024, 1024)], 1),
    "matmul2048": ("ij,jk->ik", [(2048, 2048), (2048, 2048)], 1),
    "matmul_t512": ("ji,jk->ik", [(512, 512), (512, 512)], 1),
    "matmul_strided512": ("ij,jk->ik", [(512, 512), (512, 512)], 2),
    "batched": ("bij,bjk->bik", [(16, 64, 64), (16, 64, 64)], 1),
    "transposed": ("ijk,kj->i", [(64, 128, 128), (128, 128)], 1),
    "contraction": ("abc,cd->abd", [(32, 64, 128), (128, 64)], 1),
    "chain3": ("ab,bc,cd->ad", [(64, 64), (64, 64), (64, 64)], 1),
    "chain3_256": ("ab,bc,cd->ad", [(256, 256), (256, 256), (256, 256)], 1),
    "trace": ("ii->", [(2048, 2048)], 1),
    "diagonal": ("ii->i", [(2048, 2048)], 1),
    "outer": ("i,j->ij", [(1024,), (1024,)], 1),
    "dot_l3": ("i,i->", [(1 << 21,), (1 << 21,)], 1),
    "dot_dram": ("i,i->", [(1 << 25,), (1 << 25,)], 1),
    "sum_l3": ("ij->", [(2048, 2048)], 1),
    "sum_dram": ("ij->", [(8192, 8192)], 1),
}


def _einsum_peer(case, dtype, mode):
    """np.einsum (mode plain: optimize=False; optimize: optimize=True), or
    np.matmul into an existing array (mode gemm: the BLAS GEMM alone), on
    operands laid out as einsum_bench lays them out: C order, operand 0 of
    a strided case a[..., ::step] of a C-order array."""
    spec, shapes, step = _EINSUM_CASES[case]
    operands = [np.full(s, 0.5, dtype=dtype) for s in shapes]
    if step != 1:
        full = shapes[0][:-1] + (shapes[0][-1] * step,)
        operands[0] = np.full(full, 0.5, dtype=dtype)[..., ::step]
    if mode == "gemm":
        out = np.empty((operands[0].shape[0], operands[1].shape[1]), dtype)
        return lambda: np.matmul(*operands, out=out)
    # Into an existing array, as stridekit writes its out: without out=,
    # np.einsum("ii->i") returns a view and would time no copy at all.
    inputs, output = spec.split("->")
    sizes = {}
    for labels, shape in zip(inputs.split(","), shapes):
        sizes.update(zip(labels, shape))
    out = np.empty(tuple(sizes[label] for label in output), dtype)
    optimize = mode == "optimize"
    return lambda: np.einsum(spec, *operands, optimize=optimize, out=out)


def _call_peer(op, n):
    """bench/call_bench.cc's call on float32 ndarrays of the same [e, e]
    layout (n = e * e elements); timed from Python, so the figure includes
    the interpreter's call overhead (key "python_call": a no-op lambda)."""
    e = int(round(int(n) ** 0.5))
    a, b = np.ones((e, e), np.float32), np.ones((e, e), np.float32)
    out = np.empty((e, e), np.float32)
    return {"sk_copy": lambda: np.copyto(out, a),
            "sk_binary": lambda: np.add(a, b, out=out),
            "sk_plan_execute": lambda: np.add(a, b, out=out),
            "sk_einsum": lambda: np.einsum("ij,jk->ik", a, b, out=out),
            "sk_view_slice": lambda: a[1:, ::-1],
            "sk_view_reshape": lambda: a.reshape(e * e),
            "sk_view_permute": lambda: a.transpose(1, 0)}[op]


_PEER_CACHE = {}


def _cast_peer(src, dst, layout, edge):
    """NumPy's astype into an existing array (bench/cast_bench.cc)."""
    n = int(edge)
    if layout == "transposed":
        source = np.ones((n, n), dtype=src).T
    else:
        source = np.ones(n, dtype=src)
    out = np.ones(source.shape, dtype=dst)  # Real pages, not the zero page.
    return lambda: np.copyto(out, source, casting="unsafe")


def _measure_here(key, quick):
    """Median seconds per call of key's peer in this process."""
    if key.startswith("copy:"):
        _, case, dtype, shape = key.split(":")
        fn = _copy_peer(case, dtype, shape)
    elif key.startswith("einsum:"):
        _, case, dtype, mode = key.split(":")
        fn = _einsum_peer(case, dtype, mode)
    elif key.startswith("view:"):
        _, op, rank = key.split(":")
        fn = _view_peer(op, rank)
    elif key.startswith("cast:"):
        _, pair, layout, edge = key.split(":")
        src, dst = pair.split(">")
        fn = _cast_peer(src, dst, layout, edge)
    elif key.startswith("numeric:"):
        _, case, dtype, edge = key.split(":")
        fn = _numeric_peer(case, dtype, edge)
    elif key.startswith("call:"):
        _, op, n = key.split(":")
        fn = _call_peer(op, n)
    else:
        fn = PEERS[key]
    # copy_bench, numeric_bench and cast_bench time their single-threaded
    # cases by thread CPU time (bench/clocks.h: other processes' time on the
    # core does not count); so do their peers, which run on one thread.
    # Others keep the wall clock (BLAS peers run threads).
    cpu_timed = key.split(":")[0] in ("copy", "numeric", "cast")
    clock = time.thread_time if cpu_timed else time.perf_counter
    return _median_seconds(fn, quick, clock, key)


def measure(key, quick=False, threads=1):
    """Median seconds per call of the peer of `key` beside a row on
    `threads` threads; SPREAD[(key, threads)] holds the (min, max). Einsum
    peers run in a process of their own whose BLAS runs on `threads` for
    optimize=True and np.matmul, on one for optimize=False (NumPy's own
    loop, no BLAS)
    (numpy_blas.environment); the others here, on one thread."""
    blas = key.startswith("einsum:") and not key.endswith(":plain")
    peer_threads = threads if blas else 1
    cached = (key, peer_threads)
    if cached not in _PEER_CACHE:
        if key.startswith("einsum:"):
            cmd = [sys.executable, os.path.abspath(__file__), key]
            out = subprocess.run(cmd + (["--quick"] if quick else []),
                                 env=numpy_blas.environment(peer_threads),
                                 check=True, capture_output=True, text=True)
            result = json.loads(out.stdout)
            median, spread = result["median"], tuple(result["spread"])
            BLAS[peer_threads] = result["blas"]
        else:
            median = _measure_here(key, quick)
            spread = SPREAD.pop(key)
        SPREAD[cached] = spread
        _PEER_CACHE[cached] = median
    SPREAD[(key, threads)] = SPREAD[cached]
    return _PEER_CACHE[cached]


if __name__ == "__main__":
    # numpy_peers.py KEY [--quick]: KEY's peer in this process (its BLAS
    # threads as the environment says), as JSON: median, spread, blas.
    median = _measure_here(sys.argv[1], "--quick" in sys.argv[2:])
    print(json.dumps({"median": median, "spread": SPREAD[sys.argv[1]],
                      "blas": numpy_blas.describe()}))
