"""Per-call cost of stridekit against NumPy's same call, from Python.

Interleaved best-of-N: each repetition times a batch of stridekit calls and
then a batch of NumPy's, and the table keeps each side's best batch (the
least disturbed), float32, one thread. Ratios below 1 mean stridekit is
faster. Run: python3 bench_calls.py [--repeat N] [--sizes 1,16,256].
"""
import argparse
import time

import numpy as np

import stridekit as sk


def best_of(fn_a, fn_b, number, repeat):
    best_a = best_b = float("inf")
    for _ in range(repeat):
        for which in (0, 1):
            fn = fn_a if which == 0 else fn_b
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            t = (time.perf_counter() - t0) / number
            if which == 0:
                best_a = min(best_a, t)
            else:
                best_b = min(best_b, t)
    return best_a, best_b


def cases(n, layout):
    """(name, stridekit call, NumPy call, plan call) for n float32 elements
    laid out contiguous or transposed (a 2-D array's .T when n > 1)."""
    rng = np.random.default_rng(0)

    def arr():
        if layout == "transposed" and n >= 16:
            rows = 4
            return rng.standard_normal((rows, n // rows)).astype(np.float32).T
        return rng.standard_normal(n).astype(np.float32)

    a, b = arr(), arr()
    m = rng.standard_normal((4, 4)).astype(np.float32)
    if layout == "transposed":
        m = np.ascontiguousarray(m).T
    k = min(64, max(1, int(round(n ** 0.5))))  # NumPy's einsum is O(k^3)
    e = rng.standard_normal((k, k)).astype(np.float32)
    if layout == "transposed":
        e = e.T
    f64 = np.float64
    out = [
        ("add", lambda: sk.add(a, b), lambda: np.add(a, b),
         sk.plan(sk.add, a, b)),
        ("exp", lambda: sk.exp(a), lambda: np.exp(a), sk.plan(sk.exp, a)),
        ("greater", lambda: sk.greater(a, b), lambda: np.greater(a, b),
         sk.plan(sk.greater, a, b)),
        ("sum", lambda: sk.sum(a), lambda: np.sum(a), sk.plan(sk.sum, a)),
        ("astype", lambda: sk.astype(a, f64), lambda: a.astype(f64),
         sk.plan(sk.astype, a, f64)),
        (f"einsum {k}x{k}", lambda: sk.einsum("ij,jk->ik", e, e),
         lambda: np.einsum("ij,jk->ik", e, e),
         sk.plan(sk.einsum, "ij,jk->ik", e, e)),
    ]
    plans = {"add": (a, b), "exp": (a,), "greater": (a, b), "sum": (a,),
             "astype": (a,)}
    rows = []
    for name, s, npf, p in out:
        ops = plans.get(name, (e, e))
        rows.append((name, s, npf, lambda p=p, ops=ops: p(*ops)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=101)
    ap.add_argument("--number", type=int, default=200)
    ap.add_argument("--sizes", default="1,16,256")
    args = ap.parse_args()
    np.seterr(all="ignore")
    sk.set_threads(1)
    print(f"stridekit {sk.__version__} ({sk.active_target()}), NumPy "
          f"{np.__version__}; float32, best of {args.repeat} interleaved "
          f"batches of {args.number} calls")
    print(f"{'call':<14}{'n':>8} {'layout':<11}{'NumPy us':>10}{'sk us':>10}"
          f"{'sk/np':>7}{'plan us':>10}{'plan/np':>8}")
    for n in [int(s) for s in args.sizes.split(",")]:
        for layout in ("contiguous", "transposed"):
            for name, s, npf, pc in cases(n, layout):
                s(), pc()  # warm: the cached plan of the layout is made
                s()
                t_sk, t_np = best_of(s, npf, args.number, args.repeat)
                t_pl, t_np2 = best_of(pc, npf, args.number, args.repeat)
                t_np = min(t_np, t_np2)
                print(f"{name:<14}{n:>8} {layout:<11}{t_np * 1e6:>10.3f}"
                      f"{t_sk * 1e6:>10.3f}{t_sk / t_np:>7.2f}"
                      f"{t_pl * 1e6:>10.3f}{t_pl / t_np:>8.2f}")


if __name__ == "__main__":
    main()
