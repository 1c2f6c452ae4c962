"""The benchmark comparison that bench/run prints.

Runs every Google Benchmark suite built in <build>/bench (JSON output, several
repetitions, medians). A case's label may carry key=value fields:
  peer=<key>    its NumPy peer (numpy_peers.py), measured in the same run;
  threads=<n>   the row ran on n threads: stridekit's row, or a peer
                library's, shown beside stridekit's row of the same n only;
                NumPy's einsum optimize=True and np.matmul peers run with
                its BLAS on n
                threads (numpy_peers.py, numpy_blas.py), other NumPy peers
                on one;
  group=<name>  its size group (L2, L3, DRAM). A data case carries its
                own bandwidth reference ("ref", "vs ref" and the goals'
                ratio to the reference; CSV memcpy_gbps and vs_memcpy) as
                counters ref_bytes_per_second and x_ref (copy_bench,
                numeric_bench, cast_bench, iter_bench; copy_reference.h:
                the best of memcpy and stridekit's contiguous copy of as
                many bytes, interleaved with the case);
  bytes=<n>     bytes moved per iteration (read + write), for NumPy's GB/s;
  via=<name>    the call (and host pool) that ran the case, appended to the
                case name (iter_bench: iter, binary, copy, reduce; +ptp on
                pthreadpool, +omp on OpenMP);
  impl=<name>   a peer library's row (xtensor_bench: xtensor, eigen_bench:
                eigen, xnnpack_bench: xnnpack, blis_bench: blis, whose
                arch=<name> field names BLIS's kernels): shown beside the
                stridekit row with the same peer key (or that key less its
                last field, so one BLIS matmul serves einsum's :plain,
                :optimize and :gemm rows) and threads as <name>_gbps and vs_<name>,
                not as a row of its own.
Prints the run's metadata (machine, CPU, active Highway target, compiler,
commit, threads; report.py) and one table of medians with their min-max
over the repetitions and a thread-count column; writes it as CSV (the
metadata in every row) to <build>/results/comparison.csv, plots GB/s per
data-movement case (stridekit, NumPy, each peer library, copy reference;
n/a where a peer is missing) to <build>/results/comparison.png (and per
suite to suite_<name>_gbps.png), the speedup over each peer per case on a
log scale to suite_<name>.png, one per suite, and a one-page overview to
overview.png (overview.py; summary.png is a copy of it): per suite, size
group and thread count, the geometric mean and min..max of the speedups and
of the fraction of the copy reference, with the goals below marked. The
report also gives the CPU's cores and caches, the copy reference's GB/s at
DRAM size on one thread and on the most threads a DRAM case ran on, and the
floors saved in <build>/results (transpose_floor*.txt, copy_floor*.txt: the
output of those programs, run by hand). --from-csv <comparison.csv> runs
nothing: it reports and plots an earlier run's CSV. Issue
17's numeric cases (a > b, where, exp, log, tanh, argmax, cumsum) are listed
again with their goal and whether it is met (issue17_goal), and so are issue
19's einsum rows compared with optimize=True or np.matmul on the same
threads
(issue19_goal; CSV columns goal_issue, goal, goal_met). The header and the
CSV name NumPy's BLAS in its einsum peers (numpy_blas.describe()). index_bench gets its own table: per kernel,
case, batch size n and target, elements/s and the speedup over the
"reference" target, ViewOffsets against memset of the same bytes and
UnravelBatch against np.unravel_index (index_kernels.csv).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_peers  # noqa: E402
import overview  # noqa: E402
import report  # noqa: E402

# Peer libraries (label impl=<key>) and their display names, in column order;
# an impl not listed is shown under its own name after these.
PEER_LIBS = {"xtensor": "xtensor", "eigen": "Eigen", "xnnpack": "XNNPACK",
             "blis": "BLIS"}


# The shape of index_bench's UnravelBatch/rank4 cases.
UNRAVEL_SHAPE = (37, 1000, 999, 1023)


def numpy_unravel_elements_per_second(n):
    """np.unravel_index of n random flat indices into UNRAVEL_SHAPE."""
    rng = np.random.default_rng(42)
    flat = rng.integers(0, int(np.prod(UNRAVEL_SHAPE)), size=n, dtype=np.int64)
    timer = timeit.Timer(lambda: np.unravel_index(flat, UNRAVEL_SHAPE))
    number, _ = timer.autorange()
    return n * number / min(timer.repeat(repeat=3, number=number))


def index_table(benchmarks):
    """Rows: kernel, case, n, target, Melem/s, speedup vs reference, ..."""
    by_key = {}
    for b in benchmarks:
        name = b["name"].removesuffix("/real_time").removesuffix("/manual_time")
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
               "x ref": "", "x numpy": ""}
        memset = by_key.get(("Memset", "memset", n, "memset"))
        if group == "ViewOffsets" and memset:
            row["x ref"] = b["bytes_per_second"] / memset["bytes_per_second"]
        if group == "UnravelBatch":
            # Its own copy reference, timed beside it (x_ref).
            row["x ref"] = b.get("x_ref", "")
            if n not in numpy_cache:
                numpy_cache[n] = numpy_unravel_elements_per_second(n)
            row["x numpy"] = eps / numpy_cache[n]
        rows.append(row)
    for n, eps in sorted(numpy_cache.items()):
        rows.append({"kernel": "np.unravel_index", "case": "rank4", "n": n,
                     "target": "numpy", "Melem/s": eps / 1e6, "x reference": "",
                     "GB/s": eps * 32 / 1e9, "x ref": "", "x numpy": 1.0})
    for (group, case, n, target), b in sorted(by_key.items()):
        if group == "Memset":
            rows.append({"kernel": "memset", "case": "", "n": n,
                         "target": "libc", "Melem/s": b["items_per_second"] / 1e6,
                         "x reference": "", "GB/s": b["bytes_per_second"] / 1e9,
                         "x ref": 1.0, "x numpy": ""})
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


def run_suite(exe, repetitions, min_time, bench_filter, extra=()):
    """The median aggregates, each with min_real_time and max_real_time over
    its repetitions (same time unit)."""
    cmd = [exe, "--benchmark_format=json",
           f"--benchmark_repetitions={repetitions}",
           f"--benchmark_min_time={min_time}"]
    if bench_filter:
        cmd.append(f"--benchmark_filter={bench_filter}")
    cmd += list(extra)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    if not out.strip():  # The filter matched nothing in this suite.
        return []
    benchmarks = json.loads(out)["benchmarks"]
    times = {}
    for b in benchmarks:
        if b.get("run_type") == "iteration":
            times.setdefault(b["run_name"], []).append(b["real_time"])
    medians = []
    for b in benchmarks:
        if b.get("aggregate_name") == "median":
            runs = times.get(b["run_name"], [b["real_time"]])
            medians.append(dict(b, min_real_time=min(runs),
                                max_real_time=max(runs)))
    return medians


def seconds_per_iteration(b):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
    return b["real_time"] * scale


def label_fields(label):
    fields = {}
    for word in label.split():
        if "=" in word:
            key, value = word.split("=", 1)
            fields[key] = value
        else:
            fields[word] = ""
    return fields


def fmt(value, spec):
    return "" if value in ("", None) else format(value, spec)


_UNITS = [(1e9, "s"), (1e6, "ms"), (1e3, "us"), (1.0, "ns")]


def _unit(ns_value):
    return next((scale, name) for scale, name in _UNITS if ns_value >= scale
                or scale == 1.0)


def ns(value):
    """A time given in ns, in the unit that suits it: "3.116 ms"."""
    if value in ("", None):
        return ""
    scale, name = _unit(value)
    return f"{value / scale:.4g} {name}"


def ns_range(lo, hi, median):
    """min-max in the unit of the median: "3.031-3.239"."""
    if lo in ("", None):
        return ""
    scale, _ = _unit(median)
    return f"{lo / scale:.4g}-{hi / scale:.4g}"


# Issue 17's numeric_bench cases (peer numeric:<name>_<variant>:...).
ISSUE17_CASES = ("greater", "where", "exp", "log", "tanh", "argmax", "cumsum")


# A goal is a list of checks (key, least, text): the row's key (vs_numpy,
# vs_memcpy, vs_<peer library>) at least `least`; met when every check is.


def issue17_checks(row):
    """The checks of an issue-17 row, else []: at least NumPy's speed, 3x
    where NumPy's loop is strided (a transposed operand, argmax or cumsum
    over axis 0), and 0.8 of the copy reference at DRAM for a > b and where."""
    parts = row["peer"].split(":") + ["", ""]
    name, _, variant = parts[1].partition("_")
    if (parts[0] != "numeric" or name not in ISSUE17_CASES
            or row["vs_numpy"] == ""):
        return []
    want = 3 if variant in ("transposed", "axis0") else 1
    checks = [("vs_numpy", want, f">={want}x NumPy")]
    if name in ("greater", "where") and row["group"] == "DRAM":
        checks.append(("vs_memcpy", 0.8, ">=0.8 ref"))
    return checks


# Issue 19's einsum goals on the same threads: per case, the NumPy peer
# (einsum_cases.h mode: gemm is np.matmul, NumPy's BLAS GEMM) and the least
# speedup over it.
ISSUE19_GOALS = {
    "matmul256": ("gemm", 0.9),
    "matmul1024": ("gemm", 0.9),
    "matmul2048": ("gemm", 0.9),
    "batched": ("optimize", 1.5),
    "transposed": ("optimize", 1.5),
    "contraction": ("optimize", 1.5),
    "matmul_t512": ("optimize", 1.5),
    "matmul_strided512": ("optimize", 1.5),
    "chain3": ("optimize", 1.0),
    "chain3_256": ("optimize", 1.0),
}
MODE_NAMES = {"gemm": "NumPy's BLAS GEMM", "optimize": "optimize=True"}


def issue19_checks(row):
    """The check of an einsum row compared with its goal's NumPy peer, else
    []."""
    parts = row["peer"].split(":")
    if (len(parts) != 4 or parts[0] != "einsum"
            or ISSUE19_GOALS.get(parts[1], ("",))[0] != parts[3]
            or row["vs_numpy"] == ""):
        return []
    mode, want = ISSUE19_GOALS[parts[1]]
    return [("vs_numpy", want, f">={want:g}x {MODE_NAMES[mode]}")]


# Issue 18's copy_bench cases by kind (peer copy:<case>:<dtype>:...).
ISSUE18_PERMUTATIONS = ("transpose2d", "transpose2d_pow2", "permute3d",
                        "permute4d", "permute4d_3102", "permute5d")
ISSUE18_STREAMS = ("contiguous", "reversed", "pad", "broadcast_row")


def issue18_checks(row):
    """The checks of a one-thread issue-18 row, else []:
    permutations >= 0.7 of the copy reference at DRAM and >= 0.5 at L3 and
    faster than NumPy and Eigen; contiguous, reversed, pad and broadcast row
    >= 0.9 of the reference (broadcast row's reference writes the same bytes:
    the write-only roofline), pad >= XNNPACK; the broadcasting adds >=
    XNNPACK; einsum trace and diagonal >= np.einsum."""
    parts = row["peer"].split(":") + ["", ""]
    if row["threads"] != 1:
        return []
    checks = []
    if parts[0] == "copy" and parts[1] in ISSUE18_PERMUTATIONS:
        least = {"DRAM": 0.7, "L3": 0.5}.get(row["group"])
        if least is not None:
            checks.append(("vs_memcpy", least, f">={least:g} ref"))
        checks.append(("vs_numpy", 1, ">=1x NumPy"))
        if row.get("vs_eigen", "") != "":
            checks.append(("vs_eigen", 1, ">=1x Eigen"))
    elif parts[0] == "copy" and parts[1] in ISSUE18_STREAMS:
        checks.append(("vs_memcpy", 0.9, ">=0.9 ref"))
        if parts[1] == "pad" and row.get("vs_xnnpack", "") != "":
            checks.append(("vs_xnnpack", 1, ">=1x XNNPACK"))
    elif (parts[0] == "numeric" and parts[1].startswith("add_")
          and row.get("vs_xnnpack", "") != ""):
        checks.append(("vs_xnnpack", 1, ">=1x XNNPACK"))
    elif (parts[0] == "einsum" and parts[1] in ("trace", "diagonal")
          and parts[3] == "plain" and row["vs_numpy"] != ""):
        checks.append(("vs_numpy", 1, ">=1x np.einsum"))
    return checks


# Issue 34's memory-bound einsum cases (einsum_cases.h, Case::group): dot
# products and whole sums at L3 and DRAM sizes.
ISSUE34_STREAMS = ("dot_l3", "dot_dram", "sum_l3", "sum_dram")


def issue34_checks(row):
    """The check of an einsum dot or sum row: >= 0.8 of the copy reference
    of its bytes, else []."""
    parts = row["peer"].split(":")
    if (len(parts) != 4 or parts[0] != "einsum"
            or parts[1] not in ISSUE34_STREAMS or parts[3] != "optimize"):
        return []
    return [("vs_memcpy", 0.8, ">=0.8 ref")]


def goal_checks(row):
    """(issue, checks) of a row with a goal, else ("", [])."""
    if "peer" not in row:  # index_bench's rows carry no goal.
        return "", []
    for issue, of in (("17", issue17_checks), ("18", issue18_checks),
                      ("19", issue19_checks), ("34", issue34_checks)):
        checks = of(row)
        if checks:
            return issue, checks
    return "", []


def met(row, key, least):
    return row.get(key, "") not in ("", None) and row[key] >= least


def goal(row):
    """(issue, goal, met) of a row with a goal, else ("", "", "")."""
    issue, checks = goal_checks(row)
    if not checks:
        return "", "", ""
    return (issue, ", ".join(text for _, _, text in checks),
            "yes" if all(met(row, k, least) for k, least, _ in checks)
            else "NO")


def peer_names(results):
    """{impl: display name} of the peer libraries: PEER_LIBS, then any other
    impl=<name> found in the results."""
    names = dict(PEER_LIBS)
    for r in results:
        if r["impl"] != "stridekit":
            names.setdefault(r["impl"], r["impl"])
    return names


def set_peers(results, names):
    """The stridekit rows, each with <impl>_gbps and vs_<impl> ("" where that
    peer lacks the case) from the peer rows of the same peer key, or of the
    key less its last field, on the same number of threads."""
    peers = {(r["impl"], r["peer"], r["threads"]): r for r in results
             if r["impl"] in names}
    rows = [r for r in results if r["impl"] not in names]
    for r in rows:
        keys = [r["peer"], r["peer"].rpartition(":")[0]] if r["peer"] else []
        for impl in names:
            peer = next((peers[(impl, k, r["threads"])] for k in keys
                         if (impl, k, r["threads"]) in peers), None)
            r[f"{impl}_gbps"] = peer["gbps"] if peer else ""
            r[f"vs_{impl}"] = (peer["ns_per_iter"] / r["ns_per_iter"]
                               if peer else "")
    return rows


def plot(rows, path, names):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return False
    rows = [r for r in rows if r.get("gbps", "") != ""
            and r.get("memcpy_gbps", "") != ""
            and r.get("impl") == "stridekit"]
    if not rows:
        return False
    # One panel per size group (L2, L3, DRAM), in the order they ran.
    groups = list(dict.fromkeys(r["group"] for r in rows))
    widest = max(sum(r["group"] == g for r in rows) for g in groups)
    fig, axes = plt.subplots(len(groups), 1, squeeze=False,
                             figsize=(max(8, 0.45 * widest), 4.5 * len(groups)))
    bars = ([("stridekit", "gbps"), ("NumPy", "numpy_gbps")] +
            [(name, f"{impl}_gbps") for impl, name in names.items()] +
            [("copy reference (same bytes)", "memcpy_gbps")])
    width = 0.84 / len(bars)
    for ax, group in zip(axes[:, 0], groups):
        panel = [r for r in rows if r["group"] == group]
        x = range(len(panel))
        for k, (label, key) in enumerate(bars):
            xs = [i + (k - (len(bars) - 1) / 2) * width for i in x]
            have = [(xi, r[key]) for xi, r in zip(xs, panel) if r[key] != ""]
            ax.bar([xi for xi, _ in have], [v for _, v in have], width,
                   label=label, color=f"C{k}")
            for xi, r in zip(xs, panel):  # a missing peer: n/a, not 0
                if r[key] == "":
                    ax.text(xi, 0, "n/a", rotation=90, ha="center",
                            va="bottom", fontsize=5, color=f"C{k}")
        ax.set_xticks(list(x))
        ax.set_xticklabels([r["case"].removesuffix(" " + group).replace(
            " " + group + " ", " ") for r in panel],
            rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("GB/s (read + write)")
        ax.set_title(f"{group}: " + " vs ".join(label for label, _ in bars) +
                     " (medians; 2thr = 2 threads; NumPy's ufuncs on 1)",
                     fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def run_benchmarks(args, repetitions, min_time, meta):
    """Runs the suites: (stridekit rows with their peers beside, index_bench
    rows, {impl: peer library name}); adds NumPy's BLAS and the peer
    libraries' kernels to meta."""
    bench_dir = os.path.join(args.build, "bench")
    suites = sorted(f for f in os.listdir(bench_dir)
                    if f.endswith("_bench") and
                    any(part in f for part in args.suite.split(",")))
    results = []
    index_rows = []
    peer_kernels = set()
    for suite in suites:
        print(f"running {suite} ...", file=sys.stderr)
        extra = ["--max_n=1e7"] if args.quick and suite == "index_bench" else []
        medians = run_suite(os.path.join(bench_dir, suite), repetitions,
                            min_time, args.filter, extra)
        if suite == "index_bench":
            # Per kernel x target x n: speedup over the reference target.
            index_rows = index_table([dict(b, name=b["run_name"])
                                      for b in medians])
            continue
        for b in medians:
            fields = label_fields(b.get("label", ""))
            secs = seconds_per_iteration(b)
            unit = seconds_per_iteration(dict(b, real_time=1.0))
            bps = b.get("bytes_per_second", "")
            group = fields.get("group", "")
            # Readable name: the peer's case and dtype plus the size group.
            name = b["run_name"]
            # A case without a NumPy peer (bfloat16) names itself: case=.
            key = fields.get("peer", fields.get("case", ""))
            if ":" in key:
                # einsum:<case>:<dtype>:<mode>: the mode too.
                parts = key.split(":")
                name = ":".join(parts[1:4 if parts[0] == "einsum" else 3])
                name += " " + group if group else ""
            if "via" in fields:  # The call and pool (iter_bench).
                name += f" {fields['via']}"
            if fields.get("threads", "1") != "1":
                name += f" {fields['threads']}thr"
            row = {"suite": suite, "case": name, "group": group,
                   "threads": int(fields.get("threads", 1)),
                   "ns_per_iter": secs * 1e9,
                   "ns_min": b["min_real_time"] * unit * 1e9,
                   "ns_max": b["max_real_time"] * unit * 1e9,
                   "gbps": bps / 1e9 if bps != "" else "",
                   "items_per_second": b.get("items_per_second", ""),
                   "memcpy_gbps": "",
                   "vs_memcpy": "", "numpy_threads": "",
                   "numpy_ns_per_iter": "", "numpy_ns_min": "",
                   "numpy_ns_max": "", "numpy_gbps": "",
                   "vs_numpy": "",
                   "peer": fields.get("peer", ""),
                   "impl": fields.get("impl", "stridekit")}
            if "ref_bytes_per_second" in b:  # The case's own reference.
                row["memcpy_gbps"] = b["ref_bytes_per_second"] / 1e9
                row["vs_memcpy"] = b["x_ref"]
            if row["impl"] != "stridekit":
                if "arch" in fields:  # BLIS's kernel set (blis_bench).
                    peer_kernels.add(f"{row['impl']} {fields['arch']}")
                results.append(row)  # A peer library: set beside below.
                continue
            if "peer" in fields:
                # Einsum peers on the row's threads (NumPy's BLAS limited
                # to them; its optimize=False loop runs on one), others on 1.
                blas = not fields["peer"].endswith(":plain")
                threads = row["threads"]
                np_secs = numpy_peers.measure(fields["peer"], args.quick,
                                              threads)
                row["numpy_ns_per_iter"] = np_secs * 1e9
                lo, hi = numpy_peers.SPREAD[(fields["peer"], threads)]
                row["numpy_ns_min"], row["numpy_ns_max"] = lo * 1e9, hi * 1e9
                row["numpy_threads"] = (
                    threads if fields["peer"].startswith("einsum:") and blas
                    else 1)
                row["vs_numpy"] = np_secs / secs
                if "bytes" in fields:
                    row["numpy_gbps"] = int(fields["bytes"]) / np_secs / 1e9
            results.append(row)

    # The peer libraries: GB/s and ratio beside stridekit's row.
    names = peer_names(results)
    results = set_peers(results, names)
    meta["numpy_blas"] = "; ".join(f"{t} thr: {d}" for t, d in
                                   sorted(numpy_peers.BLAS.items()))
    meta["peer_kernels"] = ", ".join(sorted(peer_kernels))
    return results, index_rows, names


# comparison.csv's columns that hold text; the others hold numbers or "".
TEXT_COLUMNS = {"suite", "case", "group", "peer", "impl", "goal_issue",
                "goal", "goal_met", "kernel", "target"}


def _parse(row):
    out = {}
    for key, value in row.items():
        if key in TEXT_COLUMNS or key in report.METADATA_KEYS or value == "":
            out[key] = value
        else:
            try:
                number = float(value)
                out[key] = (int(number) if key in ("threads", "numpy_threads",
                                                   "n") else number)
            except ValueError:
                out[key] = value
    return out


def load_results(csv_path):
    """An earlier run's comparison.csv (and index_kernels.csv beside it):
    (rows, index rows, metadata, {impl: peer library name}). The machine
    fields an older CSV lacks are read from this machine."""
    with open(csv_path, newline="") as f:
        reader = csv.DictReader(f)
        rows = [_parse(r) for r in reader]
        columns = reader.fieldnames or []
    meta = {k: rows[0].get(k, "") if rows else "" for k in
            report.METADATA_KEYS}
    for key, value in report.machine_fields().items():
        if not meta.get(key):
            meta[key] = f"{value} (this machine; not in the CSV)"
    for key in report.METADATA_KEYS:
        for r in rows:
            r.pop(key, None)
    names = dict(PEER_LIBS)
    for c in columns:
        if c.startswith("vs_") and c not in ("vs_memcpy", "vs_numpy"):
            names.setdefault(c[3:], c[3:])
    for r in rows:
        for impl in names:
            r.setdefault(f"{impl}_gbps", "")
            r.setdefault(f"vs_{impl}", "")
    index_csv = os.path.join(os.path.dirname(csv_path), "index_kernels.csv")
    index_rows = []
    if os.path.exists(index_csv):
        with open(index_csv, newline="") as f:
            index_rows = [_parse(r) for r in csv.DictReader(f)]
    return rows, index_rows, meta, names


def goal_checks_of(row):
    return goal_checks(row)[1]


def write_plots(results, index_rows, meta, names, out_dir):
    """The one-page overview (overview.png, also written as summary.png),
    the per-case speedups and GB/s per suite (suite_<name>.png,
    suite_<name>_gbps.png) and the GB/s of every data case
    (comparison.png): a list of (what, path), empty without matplotlib."""
    written = []
    png_path = os.path.join(out_dir, "comparison.png")
    if plot(results, png_path, names):
        written.append(("GB/s per data case, all suites", png_path))
    summary_rows = results + [
        {"suite": "index_bench", "case": f"{r['kernel']} {r['case']} n={r['n']}",
         "group": "", "threads": 1, "vs_numpy": r["x numpy"],
         "vs_memcpy": r["x ref"]}
        for r in index_rows if r["target"] == meta["target"]]
    summary_peers = ([("NumPy", "vs_numpy")] +
                     [(name, f"vs_{impl}") for impl, name in names.items()] +
                     [("copy reference (memcpy/memset)", "vs_memcpy")])
    measures = ([("speedup over NumPy", "vs_numpy")] +
                [(f"speedup over {name}", f"vs_{impl}")
                 for impl, name in names.items()] +
                [("fraction of the copy reference", "vs_memcpy")])
    cpus = report.logical_cpus(meta)
    overview_path = os.path.join(out_dir, "overview.png")
    notes = [
        "; ".join([meta["cpu"], meta.get("cores", ""), "target " +
                   meta["target"], meta["compiler"], "commit " +
                   meta["commit"], meta["date"]]),
        "caches " + meta.get("caches", ""),
        report.bandwidth_lines(results, cpus)[0].split(None, 1)[1],
    ]
    if overview.overview_plot(
            summary_rows, overview_path, measures, goal_checks_of,
            "stridekit per suite, size group and threads: geometric mean and "
            "min..max over the cases (medians)", notes):
        written.append(("one-page overview", overview_path))
        summary_path = os.path.join(out_dir, "summary.png")
        shutil.copyfile(overview_path, summary_path)
        written.append(("the overview again (its old name)", summary_path))
    for suite in dict.fromkeys(r["suite"] for r in summary_rows):
        rows = [r for r in summary_rows if r["suite"] == suite]
        name = suite.removesuffix("_bench")
        peers = [(p, k) for p, k in summary_peers
                 if any(r.get(k) not in ("", None) for r in rows)]
        path = os.path.join(out_dir, f"suite_{name}.png")
        if peers and report.summary_plot(
                rows, meta, path, peers,
                title=f"{suite}: stridekit speedups per case (medians)"):
            written.append((f"{suite}: speedup per case", path))
        path = os.path.join(out_dir, f"suite_{name}_gbps.png")
        if plot(rows, path, names):
            written.append((f"{suite}: GB/s per data case", path))
    return written


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--quick", action="store_true",
                    help="fewer repetitions and shorter runs")
    ap.add_argument("--suite", default="",
                    help="only suites containing this (comma-separated list)")
    ap.add_argument("--filter", default="", help="Google Benchmark filter")
    ap.add_argument("--from-csv", default="", metavar="CSV",
                    help="run nothing: report and plot an earlier run's "
                    "comparison.csv (into <build>/results)")
    args = ap.parse_args()
    repetitions, min_time = (3, 0.05) if args.quick else (5, 0.2)

    if args.from_csv:
        results, index_rows, meta, names = load_results(args.from_csv)
    else:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        meta = report.metadata(args.build, root)
        results, index_rows, names = run_benchmarks(args, repetitions,
                                                    min_time, meta)
    for r in results:
        r["goal_issue"], r["goal"], r["goal_met"] = goal(r)

    out_dir = os.path.join(args.build, "results")
    os.makedirs(out_dir, exist_ok=True)
    csv_path = os.path.join(out_dir, "comparison.csv")
    if not args.from_csv or (os.path.abspath(args.from_csv) !=
                             os.path.abspath(csv_path)):
        with open(csv_path, "w", newline="") as f:
            if results:
                w = csv.DictWriter(f, fieldnames=list(results[0].keys()) +
                                   list(meta.keys()))
                w.writeheader()
                w.writerows(dict(r, **meta) for r in results)
    plots = write_plots(results, index_rows, meta, names, out_dir)

    print("== stridekit benchmark report")
    for line in (report.header_lines(meta) +
                 report.bandwidth_lines(results, report.logical_cpus(meta)) +
                 report.floor_lines(out_dir, args.build)):
        print(line)
    if args.from_csv:
        print(f"(from {args.from_csv}: an earlier run, nothing measured now)")
        if meta["numpy_blas"]:
            print(f"NumPy's BLAS in its einsum peers: {meta['numpy_blas']}")
    for threads, blas in sorted(numpy_peers.BLAS.items()):
        print(f"NumPy's BLAS in its {threads}-thread einsum peers: {blas}")
    if meta["peer_kernels"]:
        print(f"peer kernels: {meta['peer_kernels']}")
    print(f"{'case':44} {'thr':>3} {'time':>10} {'min-max':>13} {'GB/s':>7} "
          f"{'ref':>7} {'vs ref':>7} {'NumPy time':>10} {'min-max':>13} "
          f"{'thr':>3} {'NumPy GB/s':>10} {'vs NumPy':>8}" +
          "".join(f" {name[:7] + ' GB/s':>12} {'vs ' + name[:7]:>10}"
                  for name in names.values()))
    for r in results:
        print(f"{r['case'][:44]:44} {r['threads']:>3} "
              f"{ns(r['ns_per_iter']):>10} "
              f"{ns_range(r['ns_min'], r['ns_max'], r['ns_per_iter']):>13} "
              f"{fmt(r['gbps'], '7.2f'):>7} {fmt(r['memcpy_gbps'], '7.2f'):>7} "
              f"{fmt(r['vs_memcpy'], '7.2f'):>7} "
              f"{ns(r['numpy_ns_per_iter']):>10} "
              f"{ns_range(r['numpy_ns_min'], r['numpy_ns_max'], r['numpy_ns_per_iter']):>13} "
              f"{r['numpy_threads']:>3} "
              f"{fmt(r['numpy_gbps'], '10.2f'):>10} "
              f"{fmt(r['vs_numpy'], '7.1f') + ('x' if r['vs_numpy'] != '' else ''):>8}" +
              "".join(f" {fmt(r[f'{impl}_gbps'], '12.2f'):>12} "
                      f"{fmt(r[f'vs_{impl}'], '9.1f') + ('x' if r[f'vs_{impl}'] != '' else ''):>10}"
                      for impl in names))
    runs = ("the run's" if args.from_csv else str(repetitions))
    print(f"(time: median of {runs} repetitions per call, min-max over "
          "them in the same unit; vs = peer time / stridekit time; thr = "
          "threads; einsum ...:plain is NumPy optimize=False, ...:optimize "
          "optimize=True, ...:gemm np.matmul; CSV, in ns: "
          f"{csv_path})")
    if plots:
        print("plots:")
        for what, path in plots:
            print(f"  {path}  ({what})")
    else:
        print("plots: none (matplotlib missing or no peers)")
    if any(r["peer"].startswith("call:") for r in results):
        noop = ("" if args.from_csv else
                f", {numpy_peers.measure('python_call', args.quick) * 1e9:.0f}"
                " ns for a no-op lambda in this run")
        print(f"(call_bench: fixed cost per call on tiny arrays, time in ns; "
              f"NumPy's time is from Python and includes its call overhead"
              f"{noop})")
    for issue, title in (
            ("17", "vs NumPy; vs ref: the copy reference"),
            ("18", "vs NumPy; vs ref: the copy reference"),
            ("19", "vs NumPy on the same threads; vs BLIS beside")):
        goals = [r for r in results if r["goal_issue"] == issue]
        if not goals:
            continue
        print(f"\n== issue {issue} goals ({title})")
        for r in goals:
            other = (fmt(r.get("vs_blis", ""), "5.2f") if issue == "19"
                     else fmt(r["vs_memcpy"], "5.2f"))
            print(f"{r['case'][:44]:44} {r['threads']:>3} "
                  f"{fmt(r['vs_numpy'], '7.2f')}x "
                  f"{other:>5} {r['goal']:30} {r['goal_met']}")
        print(f"{sum(r['goal_met'] == 'yes' for r in goals)} of {len(goals)} "
              "met")
    if index_rows:
        print("\n== batch index kernels (elements/s per target)")
        print_table(index_rows)
        index_csv = os.path.join(out_dir, "index_kernels.csv")
        if not args.from_csv:
            write_csv(index_rows, index_csv)
        print(f"(CSV {index_csv})")


if __name__ == "__main__":
    main()
