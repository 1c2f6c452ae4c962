"""The benchmark comparison that bench/run prints.

Runs every Google Benchmark suite built in <build>/bench with JSON output.
For index_bench it prints, per kernel, case and batch size n, each target's
elements/s and its speedup over the "reference" target; for ViewOffsets the
output GB/s as a fraction of memset of the same bytes; for UnravelBatch the
speedup over np.unravel_index on the same shape and indices, measured in the
same run. Other suites are listed with their time per iteration. The tables
are also written as CSV to <build>/results/.
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import timeit

import numpy as np

# The shape of index_bench's UnravelBatch/rank4 cases.
UNRAVEL_SHAPE = (37, 1000, 999, 1023)


def numpy_unravel_elements_per_second(n):
    """np.unravel_index of n random flat indices into UNRAVEL_SHAPE."""
    rng = np.random.default_rng(42)
    flat = rng.integers(0, int(np.prod(UNRAVEL_SHAPE)), size=n, dtype=np.int64)
    timer = timeit.Timer(lambda: np.unravel_index(flat, UNRAVEL_SHAPE))
    number, _ = timer.autorange()
    return n * number / min(timer.repeat(repeat=3, number=number))


def run_suite(exe, args):
    cmd = [exe, "--benchmark_format=json"] + args
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["benchmarks"]


def index_table(benchmarks):
    """Rows: kernel, case, n, target, Melem/s, speedup vs reference, ..."""
    by_key = {}
    for b in benchmarks:
        name = b["name"].removesuffix("/real_time")
        group, case, target_and_n = name.split("/", 2)
        target, n = target_and_n.rsplit("/", 1)
        by_key[(group, case, int(n), target)] = b
    rows = []
    numpy_cache = {}
    for (group, case, n, target), b in sorted(by_key.items()):
        if group == "Memset":
            continue
        eps = b["items_per_second"]
        ref = by_key.get((group, case, n, "reference"))
        row = {"kernel": group, "case": case, "n": n, "target": target,
               "Melem/s": eps / 1e6,
               "x reference": eps / ref["items_per_second"] if ref else "",
               "GB/s": b["bytes_per_second"] / 1e9,
               "x memset": "", "x numpy": ""}
        memset = by_key.get(("Memset", "memset", n, "memset"))
        if group == "ViewOffsets" and memset:
            row["x memset"] = b["bytes_per_second"] / memset["bytes_per_second"]
        if group == "UnravelBatch":
            if n not in numpy_cache:
                numpy_cache[n] = numpy_unravel_elements_per_second(n)
            row["x numpy"] = eps / numpy_cache[n]
        rows.append(row)
    for n, eps in sorted(numpy_cache.items()):
        rows.append({"kernel": "np.unravel_index", "case": "rank4", "n": n,
                     "target": "numpy", "Melem/s": eps / 1e6, "x reference": "",
                     "GB/s": eps * 32 / 1e9, "x memset": "", "x numpy": 1.0})
    for (group, case, n, target), b in sorted(by_key.items()):
        if group == "Memset":
            rows.append({"kernel": "memset", "case": "", "n": n,
                         "target": "libc", "Melem/s": b["items_per_second"] / 1e6,
                         "x reference": "", "GB/s": b["bytes_per_second"] / 1e9,
                         "x memset": 1.0, "x numpy": ""})
    return rows


def print_table(rows):
    columns = list(rows[0].keys())
    def cell(v):
        return f"{v:.2f}" if isinstance(v, float) else str(v)
    widths = [max(len(c), *(len(cell(r[c])) for r in rows)) for c in columns]
    print("  ".join(c.rjust(w) for c, w in zip(columns, widths)))
    for r in rows:
        print("  ".join(cell(r[c]).rjust(w) for c, w in zip(columns, widths)))


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--quick", action="store_true",
                        help="batches up to 1e6 and shorter runs")
    parser.add_argument("--filter", default="", help="--benchmark_filter")
    args = parser.parse_args()
    results = os.path.join(args.build, "results")
    os.makedirs(results, exist_ok=True)
    common = [f"--benchmark_min_time={0.05 if args.quick else 0.3}"]
    if args.filter:
        common.append(f"--benchmark_filter={args.filter}")
    for exe in sorted(glob.glob(os.path.join(args.build, "bench", "*_bench"))):
        name = os.path.basename(exe)
        extra = ["--max_n=1e6"] if args.quick and name == "index_bench" else []
        benchmarks = run_suite(exe, common + extra)
        if not benchmarks:
            continue
        print(f"== {name}")
        if name == "index_bench":
            rows = index_table(benchmarks)
        else:
            rows = [{"benchmark": b["name"],
                     "ns/iter": b["real_time"] if b["time_unit"] == "ns" else
                     b["real_time"] * {"us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]}
                    for b in benchmarks]
        print_table(rows)
        write_csv(rows, os.path.join(results, name + ".csv"))
        print(f"(CSV: {os.path.join(results, name + '.csv')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
