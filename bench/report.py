"""What bench/compare.py's report carries besides the timings: the machine,
CPU, its cores and caches, active Highway target, compiler, commit and thread
counts (metadata()), the memory bandwidth the copy reference measured at DRAM
size (bandwidth_lines()), the floors measured by hand (floor_lines()), and the
per-case plot of stridekit's speedup over each peer (summary_plot(), one per
suite)."""
import ctypes
import datetime
import glob
import json
import os
import platform
import re
import subprocess

import numpy as np


def _run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.split(":")[0].strip() in ("model name", "Model"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _cores():
    """"<p> cores, <l> logical CPUs": physical cores as distinct (physical
    id, core id) pairs of /proc/cpuinfo, else lscpu's count."""
    logical = os.cpu_count() or 1
    pairs, phys = set(), ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "physical id":
                    phys = value
                elif key == "core id":
                    pairs.add((phys, value))
    except OSError:
        pass
    cores = len(pairs)
    if not cores:
        text = _run(["lscpu", "-p=core"])
        cores = len({l for l in text.splitlines() if l and l[0] != "#"})
    return (f"{cores} cores, " if cores else "") + f"{logical} logical CPUs"


def _size(text):
    """sysfs's "512K" / "32768K" as "512 KiB" / "32 MiB"."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    try:
        n = int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)
    except (ValueError, IndexError):
        return text
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n} B"


def _caches():
    """CPU 0's caches from sysfs ("L1d 32 KiB, L1i 32 KiB, L2 512 KiB, L3 32
    MiB (shared by CPUs 0-1)"), else lscpu's cache lines."""
    parts = []
    for d in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        def read(name, d=d):
            try:
                with open(os.path.join(d, name)) as f:
                    return f.read().strip()
            except OSError:
                return ""
        level, kind, size = read("level"), read("type"), read("size")
        if not level or not size:
            continue
        name = "L" + level + {"Data": "d", "Instruction": "i"}.get(kind, "")
        shared = read("shared_cpu_list")
        part = f"{name} {_size(size)}"
        if shared and shared != "0":
            part += f" (shared by CPUs {shared})"
        parts.append(part)
    if parts:
        return ", ".join(parts)
    lines = [l for l in _run(["lscpu"]).splitlines()
             if l.startswith("L") and "cache" in l.split(":")[0]]
    return ", ".join(" ".join(l.split()) for l in lines) or "unknown"


def _active_target(build):
    """sk_target_active() of the build's shared library, as the benchmarks
    see it (STRIDEKIT_TARGET applies to both)."""
    libs = sorted(glob.glob(os.path.join(build, "libstridekit.so*")))
    if not libs:
        return "unknown (no libstridekit.so in the build)"
    lib = ctypes.CDLL(libs[0])
    lib.sk_target_active.restype = ctypes.c_char_p
    return lib.sk_target_active().decode()


def _compiler(build):
    """The first line of `<C++ compiler> --version` of the build's compile
    commands (Meson 1.0's introspection does not list compilers)."""
    try:
        with open(os.path.join(build, "compile_commands.json")) as f:
            commands = json.load(f)
        command = next(c["command"] for c in commands
                       if c["file"].endswith(".cc"))
    except (OSError, ValueError, StopIteration):
        return "unknown"
    version = _run([command.split()[0], "--version"])
    return version.splitlines()[0] if version else command.split()[0]


def _build_flags(build):
    text = _run(["meson", "introspect", build, "--buildoptions"])
    try:
        opts = {o["name"]: o["value"] for o in json.loads(text)}
    except ValueError:
        return ""
    args = " ".join(opts.get("cpp_args", []))
    return f"{opts.get('buildtype', '?')}" + (f", cpp_args {args}" if args else "")


def _commit(root):
    sha = _run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"])
    if not sha:
        return "unknown"
    dirty = _run(["git", "-C", root, "status", "--porcelain",
                  "--untracked-files=no"])
    return sha + ("-dirty" if dirty else "")


def _blas_threads():
    """Threads NumPy's BLAS may use in this process."""
    try:
        from threadpoolctl import threadpool_info
        counts = [i["num_threads"] for i in threadpool_info()
                  if i.get("user_api") == "blas"]
        if counts:
            return max(counts)
    except Exception:  # noqa: BLE001 - optional module
        pass
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    return os.cpu_count() or 1


def metadata(build, root):
    """Ordered (key, value) pairs; the same for every row of one run."""
    return {
        "machine": f"{platform.node()} ({platform.machine()}, "
                   f"{os.cpu_count()} logical CPUs)",
        "cpu": _cpu_model(),
        "cores": _cores(),
        "caches": _caches(),
        "target": _active_target(build),
        "compiler": _compiler(build),
        "build": _build_flags(build),
        "commit": _commit(root),
        "numpy": np.__version__,
        "blas_threads": _blas_threads(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"),
    }


# metadata()'s keys, with those compare.py adds: the columns of
# comparison.csv that describe the run rather than a case.
METADATA_KEYS = ("machine", "cpu", "cores", "caches", "target", "compiler",
                 "build", "commit", "numpy", "blas_threads", "date",
                 "numpy_blas", "peer_kernels")


def machine_fields():
    """The fields of metadata() that describe this machine's CPU."""
    return {"cpu": _cpu_model(), "cores": _cores(), "caches": _caches()}


def header_lines(meta):
    return [
        f"machine  {meta['machine']}; CPU {meta['cpu']}",
        f"cores    {meta.get('cores') or 'unknown'}; caches "
        f"{meta.get('caches') or 'unknown'}",
        f"target   {meta['target']} (Highway target the kernels ran on)",
        f"compiler {meta['compiler']} ({meta['build']})",
        f"commit   {meta['commit']}; NumPy {meta['numpy']}; {meta['date']}",
        "threads  'thr' column: stridekit's threads per case; NumPy's "
        "ufunc/copy peers and einsum optimize=False run on 1 thread, its "
        "einsum optimize=True and np.matmul peers with the BLAS on the row's "
        "threads; "
        "peer libraries (vs <name>) on the row's threads, n/a without such "
        f"a row (NumPy's BLAS in this process: up to {meta['blas_threads']} "
        "threads)",
    ]


def _number(v):
    return v not in ("", None) and v == v  # not "" / None / NaN


def dram_bandwidth(rows, cpus):
    """{"1": (peak, median, n), "all": (threads, peak, median, n) or None}:
    the copy reference's GB/s (its ref_bytes_per_second, column
    memcpy_gbps) over the DRAM-size cases on one thread and on the most
    threads any such case ran on (None when no DRAM case ran on more than
    one). cpus: the machine's logical CPUs."""
    by_threads = {}
    for r in rows:
        if r.get("group") == "DRAM" and _number(r.get("memcpy_gbps")):
            by_threads.setdefault(int(r.get("threads") or 1), []).append(
                float(r["memcpy_gbps"]))
    def stats(values):
        values = sorted(values)
        return max(values), values[len(values) // 2], len(values)
    out = {"1": stats(by_threads[1]) if 1 in by_threads else None,
           "all": None}
    most = max(by_threads, default=1)
    if most > 1:
        out["all"] = (most,) + stats(by_threads[most])
    return out


def logical_cpus(meta):
    """The run's logical CPUs, from metadata()'s machine field."""
    m = re.search(r"(\d+) logical CPUs", meta.get("machine", ""))
    return int(m.group(1)) if m else os.cpu_count() or 1


def bandwidth_lines(rows, cpus):
    """The report's lines on the DRAM bandwidth that the copy reference
    (bench/copy_reference.h) measured beside the DRAM-size cases."""
    bw = dram_bandwidth(rows, cpus)
    def text(s):
        peak, median, n = s
        return (f"{peak:.1f} GB/s peak, {median:.1f} median over {n} "
                f"DRAM case{'s' if n != 1 else ''}")
    one = text(bw["1"]) if bw["1"] else "not measured"
    if bw["all"]:
        threads = bw["all"][0]
        of = (f"all {cpus} CPUs" if threads >= cpus
              else f"of {cpus} CPUs")
        many = f"{threads} threads ({of}): {text(bw['all'][1:])}"
    else:
        many = f"all {cpus} CPUs: not measured (no DRAM case with threads>1)"
    return [f"memory   copy reference at DRAM size (read + write GB/s): "
            f"1 thread: {one}; {many}"]


# The floors measured by hand (bench/meson.build: copy_floor,
# transpose_floor), as their output saved in the results directory.
FLOORS = ("transpose_floor", "copy_floor")


def floor_lines(results_dir, build):
    """Each floor's saved output (<results>/<floor>*.txt), indented, or how
    to produce it."""
    lines = []
    for floor in FLOORS:
        files = sorted(glob.glob(os.path.join(results_dir, floor + "*.txt")))
        if not files:
            lines.append(
                f"floor    {floor}: not in the results (run by hand: "
                f"{os.path.join(build, 'bench', floor)} > "
                f"{os.path.join(results_dir, floor + '.txt')})")
        for path in files:
            with open(path) as f:
                text = [l.rstrip() for l in f if l.strip()]
            lines.append(f"floor    {os.path.basename(path)}:")
            lines += ["           " + l.strip() for l in text]
    return lines


# Summary plot: one panel per peer; a row per case with its speedup.
PEERS = [("NumPy", "vs_numpy"), ("xtensor", "vs_xtensor"),
         ("copy reference (memcpy/memset)", "vs_memcpy")]


def summary_plot(rows, meta, path, peers=PEERS,
                 title="stridekit speedups (medians)"):
    """Horizontal bars of stridekit's speedup over each peer (log scale; >1:
    stridekit faster), one row per case of the rows given (compare.py: one
    suite), "n/a" where a case has no such peer. rows: dicts with suite,
    case, threads and the peers' keys ("" or absent when missing); peers:
    (name, key) per panel."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in rows if any(r.get(k) not in ("", None) for _, k in peers)]
    if not rows:
        return False
    labels = []
    for r in rows:
        thr = f" [{r['threads']} thr]" if str(r.get("threads", "1")) != "1" else ""
        if f"{r.get('threads')}thr" in r["case"]:
            thr = ""  # The case name says it already.
        case = r["case"].strip().replace(":plain", " (NumPy optimize=False)")
        case = case.replace(":optimize", " (NumPy optimize=True)")
        case = case.replace(":gemm", " (np.matmul)")
        labels.append(f"{r['suite'].removesuffix('_bench')}: {case}{thr}")
    values = [[r.get(k) for r in rows] for _, k in peers]
    finite = [v for col in values for v in col if v not in ("", None) and v > 0]
    lo = min(min(finite), 0.5) / 1.5
    hi = max(max(finite), 2.0) * 1.5
    height = 1.5 + 0.17 * len(rows)
    fig, axes = plt.subplots(1, len(peers), sharey=True, squeeze=False,
                             figsize=(6 + 3.2 * len(peers), height))
    axes = axes[0]
    y = list(range(len(rows)))
    for ax, (name, _), col in zip(axes, peers, values):
        for i, v in enumerate(col):
            if v in ("", None) or v <= 0:
                ax.text(1.06, i, "n/a", ha="left", va="center", fontsize=6,
                        color="0.45")
            else:
                ax.barh(i, v - 1.0, left=1.0, height=0.7,  # from parity
                        color="tab:green" if v >= 1 else "tab:red")
                ax.text(v * 1.05 if v >= 1 else v / 1.05, i, f"{v:.0f}x" if v >= 10 else f"{v:.2g}x",
                        ha="left" if v >= 1 else "right", va="center",
                        fontsize=5)
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        ax.axvline(1.0, color="k", linewidth=0.8)
        ax.set_title(f"speedup over {name}", fontsize=9)
        ax.set_xlabel("peer time / stridekit time (log; >1: stridekit faster)",
                      fontsize=7)
        ax.grid(axis="x", which="both", alpha=0.25)
        ax.tick_params(axis="x", labelsize=7)
    axes[0].set_yticks(y)
    axes[0].set_yticklabels(labels, fontsize=6)
    axes[0].set_ylim(len(rows) - 0.5, -0.5)
    fig.suptitle(title + " -- " + "; ".join(
        [meta["cpu"], "target " + meta["target"], meta["compiler"],
         "commit " + meta["commit"]]), fontsize=9, y=1 - 0.2 / height,
        va="top")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.55 / height))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
