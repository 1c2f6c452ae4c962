"""The benchmark comparison that bench/run prints.

Runs every Google Benchmark suite built in <build>/bench (JSON output, several
repetitions, medians), measures the NumPy peer of each case that names one in
its label ("peer=<key>", see numpy_peers.py) in the same run, prints one table
and writes it as CSV to <build>/results/comparison.csv.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_peers  # noqa: E402


def run_suite(exe, repetitions, min_time):
    cmd = [exe, "--benchmark_format=json",
           f"--benchmark_repetitions={repetitions}",
           "--benchmark_report_aggregates_only=true",
           f"--benchmark_min_time={min_time}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows = []
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        rows.append(b)
    return rows


def seconds_per_iteration(b):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
    return b["real_time"] * scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--quick", action="store_true",
                    help="fewer repetitions and shorter runs")
    ap.add_argument("--filter", default="", help="only suites containing this")
    args = ap.parse_args()
    repetitions, min_time = (3, 0.05) if args.quick else (5, 0.2)

    bench_dir = os.path.join(args.build, "bench")
    suites = sorted(f for f in os.listdir(bench_dir)
                    if f.endswith("_bench") and args.filter in f)
    results = []
    for suite in suites:
        print(f"running {suite} ...", file=sys.stderr)
        for b in run_suite(os.path.join(bench_dir, suite), repetitions, min_time):
            name = b["run_name"]
            secs = seconds_per_iteration(b)
            row = {"suite": suite, "case": name, "ns_per_iter": secs * 1e9,
                   "bytes_per_second": b.get("bytes_per_second", ""),
                   "items_per_second": b.get("items_per_second", ""),
                   "numpy_ns_per_iter": "", "speedup_vs_numpy": ""}
            label = b.get("label", "")
            peer = dict(kv.split("=", 1) for kv in label.split() if "=" in kv)
            if "peer" in peer:
                np_secs = numpy_peers.measure(peer["peer"], quick=args.quick)
                row["numpy_ns_per_iter"] = np_secs * 1e9
                row["speedup_vs_numpy"] = np_secs / secs
            results.append(row)

    out_dir = os.path.join(args.build, "results")
    os.makedirs(out_dir, exist_ok=True)
    csv_path = os.path.join(out_dir, "comparison.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(results[0].keys()) if results else [])
        w.writeheader()
        w.writerows(results)

    print(f"{'case':48} {'ns/iter':>12} {'NumPy ns':>12} {'vs NumPy':>9}")
    for r in results:
        np_ns = r["numpy_ns_per_iter"]
        ratio = r["speedup_vs_numpy"]
        print(f"{r['case'][:48]:48} {r['ns_per_iter']:12.1f} "
              f"{np_ns if np_ns == '' else format(np_ns, '12.1f'):>12} "
              f"{ratio if ratio == '' else format(ratio, '8.1f') + 'x':>9}")
    print(f"(medians of {repetitions} repetitions; CSV: {csv_path})")


if __name__ == "__main__":
    main()
