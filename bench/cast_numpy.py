"""NumPy's astype on the cases of bench/cast_bench.cc (bfloat16 has no NumPy
dtype: no peer). Prints GB/s counting the source read plus the destination
written, like cast_bench. Run with Debian's /usr/bin/python3."""
import sys
import timeit

import numpy as np

GROUPS = {"L2": 256 << 10, "L3": 16 << 20}
PAIRS = [("float32", "float16"), ("float64", "float32"), ("int32", "float32"),
         ("uint8", "float32"), ("float16", "float32"), ("float32", "int32"),
         ("int64", "float64"), ("float32", "float64")]


def measure(src_t, dst_t, transposed, group_bytes, min_time):
    dst_size, src_size = np.dtype(dst_t).itemsize, np.dtype(src_t).itemsize
    if transposed:
        n = 1
        while (n + 1) * (n + 1) * dst_size <= group_bytes:
            n += 1
        src = np.ones((n, n), dtype=src_t).T
        count = n * n
    else:
        count = group_bytes // dst_size
        src = np.ones(count, dtype=src_t)
    out = np.ones(src.shape, dtype=dst_t)  # Real pages, not the zero page.
    run = lambda: np.copyto(out, src, casting="unsafe")  # noqa: E731
    number = 1
    while timeit.timeit(run, number=number) < min_time:
        number *= 2
    best = min(timeit.repeat(run, number=number, repeat=5)) / number
    return count * (src_size + dst_size) / best / 1e9


def main():
    min_time = float(sys.argv[1]) if len(sys.argv) > 1 else 0.05
    for group, size in GROUPS.items():
        for src_t, dst_t in PAIRS:
            for transposed in (False, True):
                gbps = measure(src_t, dst_t, transposed, size, min_time)
                layout = "transposed" if transposed else "contiguous"
                print(f"numpy {src_t}->{dst_t} {layout} {group}: "
                      f"{gbps:.2f} GB/s")


if __name__ == "__main__":
    main()
