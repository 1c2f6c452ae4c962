"""Before/after speed of two builds of the same benchmarks, run interleaved.

Runs each suite of two build directories in turn (base, head, then head,
base, ...), `--rounds` times, and prints per case the base time over the head
time (above 1: head is faster), from the medians of the rounds' medians.
Both builds must have the benchmarks enabled with the same flags, e.g.
  meson setup DIR SRC -Dbuildtype=release -Dbench=enabled \
    "-Dcpp_args=-DHWY_COMPILE_ONLY_STATIC -march=native"

Usage: compare_builds.py BASE_BUILD HEAD_BUILD [--rounds 3]
         [--suite copy_bench:'BM_Copy/.*/1/' ...]
"""
import argparse
import json
import statistics
import subprocess


def run(exe, bench_filter, repetitions, min_time):
    out = subprocess.run(
        [exe, "--benchmark_format=json",
         f"--benchmark_repetitions={repetitions}",
         "--benchmark_report_aggregates_only=true",
         f"--benchmark_min_time={min_time}",
         f"--benchmark_filter={bench_filter}"],
        check=True, capture_output=True, text=True).stdout
    return [(b["run_name"], b.get("label", ""), b["real_time"])
            for b in json.loads(out)["benchmarks"]
            if b.get("aggregate_name") == "median"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("head")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", default="0.2")
    ap.add_argument("--suite", action="append",
                    default=None, help="binary:filter (repeatable)")
    args = ap.parse_args()
    suites = args.suite or ["numeric_bench:BM_Numeric/.*/[01]/1/",
                            "copy_bench:BM_Copy/.*/[01]/"]
    times = {}
    for rnd in range(args.rounds):
        order = [("base", args.base), ("head", args.head)]
        if rnd % 2:
            order.reverse()
        for suite in suites:
            name, bench_filter = suite.split(":", 1)
            for who, build in order:
                for case, label, t in run(f"{build}/bench/{name}", bench_filter,
                                          args.repetitions, args.min_time):
                    # By label where there is one: a case keeps its label
                    # when its name gains arguments (copy_bench's threads).
                    times.setdefault(label or case, {}).setdefault(
                        who, []).append(t)
    ratios = []
    for key, v in sorted(times.items()):
        if "base" in v and "head" in v:
            r = statistics.median(v["base"]) / statistics.median(v["head"])
            ratios.append(r)
            print(f"{key:48s} {r:5.2f}")
    if ratios:
        print(f"{len(ratios)} cases: median {statistics.median(ratios):.3f}, "
              f"min {min(ratios):.3f}, max {max(ratios):.3f}")


if __name__ == "__main__":
    main()
