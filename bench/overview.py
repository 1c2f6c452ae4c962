"""The one-page overview of a benchmark comparison (bench/compare.py writes
it to <build>/results/overview.png and summary.png): per suite, size group
(L2, L3, DRAM) and thread count, the geometric mean and the min..max over the
cases of stridekit's speedup over each peer and of its fraction of the copy
reference, with the issue goals on each measure marked and counted."""
import math

# Size groups in plot order; a case without one (einsum's matrix products,
# call, view, shape and index cases) comes last in its suite.
GROUP_ORDER = {"L2": 0, "L3": 1, "DRAM": 2}


def _value(v):
    return v not in ("", None) and v == v and v > 0


def buckets(rows):
    """[(label, rows)]: the rows per suite, size group and thread count, in
    the order their suites ran; the label names the threads only where the
    suite ran on several."""
    suites = list(dict.fromkeys(r["suite"] for r in rows))
    out = []
    for suite in suites:
        of_suite = [r for r in rows if r["suite"] == suite]
        threads = sorted({int(r.get("threads") or 1) for r in of_suite})
        keys = sorted({(r.get("group") or "", int(r.get("threads") or 1))
                       for r in of_suite},
                      key=lambda k: (GROUP_ORDER.get(k[0], 3), k[0], k[1]))
        for group, thr in keys:
            part = [r for r in of_suite if (r.get("group") or "") == group
                    and int(r.get("threads") or 1) == thr]
            label = suite.removesuffix("_bench")
            label += f" {group}" if group else ""
            label += f" {thr} thr" if len(threads) > 1 else ""
            out.append((label, part))
    return out


def stats(rows, key, goal_checks):
    """(geometric mean, min, max, n, goals) of key over rows, or None when no
    row has it; goals: {least: [met, of]} of the rows' goals on key."""
    values = [float(r[key]) for r in rows if _value(r.get(key))]
    goals = {}
    for r in rows:
        for k, least, _ in goal_checks(r):
            if k == key:
                tally = goals.setdefault(least, [0, 0])
                tally[0] += _value(r.get(key)) and r[key] >= least
                tally[1] += 1
    if not values:
        return None if not goals else (None, None, None, 0, goals)
    gm = math.exp(sum(math.log(v) for v in values) / len(values))
    return gm, min(values), max(values), len(values), goals


def _fmt(v, ratio):
    text = f"{v:.0f}" if v >= 10 else f"{v:.2g}"
    return text if ratio else text + "x"


def _room_for(fig, ax, lo, hi, labels):
    """The upper x limit (log axis from lo) at which every row's labels end
    inside the axes: hi at least."""
    renderer = fig.canvas.get_renderer()
    width = ax.get_window_extent(renderer).width
    top = math.log(hi)
    for x, texts in labels:
        boxes = [t.get_window_extent(renderer) for t in texts]
        need = max(b.x1 for b in boxes) - min(b.x0 for b in boxes) + 8
        free = max(width - need, 0.15 * width)
        top = max(top, math.log(lo) + (math.log(x) - math.log(lo)) *
                  width / free)
    return math.exp(top)


def overview_plot(rows, path, measures, goal_checks, title, notes=()):
    """Writes the overview to path (1600 x 1000 px); False without
    matplotlib or data. rows: stridekit rows (suite, group, threads and the
    measures' keys); measures: (panel title, key) per panel, the copy
    reference's key "vs_memcpy"; goal_checks(row): [(key, least, text)];
    notes: lines under the title (machine, bandwidth)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker  # noqa: F401 - matplotlib.ticker below
        from matplotlib.lines import Line2D
    except ImportError:
        return False
    groups = buckets(rows)
    measures = [(name, key) for name, key in measures
                if any(_value(r.get(key)) for r in rows)]
    if not groups or not measures:
        return False
    fig = plt.figure(figsize=(16, 10), dpi=100)
    top = 0.885 - 0.018 * max(0, len(notes) - 2)
    # NumPy, the peer of almost every case, gets the widest panel.
    widths = [1.35 if key == "vs_numpy" else 1.0 for _, key in measures]
    left, right = 0.115, 0.995
    grid = fig.add_gridspec(1, len(measures), left=left, right=right,
                            top=top, bottom=0.085, wspace=0.06,
                            width_ratios=widths)
    n = len(groups)
    font = 9 if n <= 36 else max(6, 9 - (n - 36) // 8)
    suites = [label.split()[0] for label, _ in groups]
    shade = [i for i, s in enumerate(suites)
             if sorted(set(suites), key=suites.index).index(s) % 2]
    first = None
    for col, (name, key) in enumerate(measures):
        ax = fig.add_subplot(grid[0, col], sharey=first)
        first = first or ax
        per = [stats(part, key, goal_checks) for _, part in groups]
        seen = [v for s in per if s and s[0] is not None for v in s[1:3]]
        seen += [least for s in per if s for least in s[4]]
        lo = min(seen + [0.5]) / 1.3
        hi = max(seen + [2.0]) * 1.1
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        labels = []  # (x, [text]) per row: its labels start at x
        for i in shade:
            ax.axhspan(i - 0.5, i + 0.5, color="0.93", zorder=0)
        ratio = key == "vs_memcpy"
        for i, s in enumerate(per):
            if s is None:
                ax.text(1.0, i, "  -", va="center", fontsize=font - 1,
                        color="0.6")
                continue
            gm, mn, mx, count, goals = s
            if gm is not None:
                color = ("tab:blue" if ratio else
                         "tab:green" if gm >= 1 else "tab:red")
                ax.hlines(i, mn, mx, color=color, alpha=0.35, linewidth=7,
                          zorder=2)
                ax.plot([gm], [i], "o", color=color, markersize=6,
                        markeredgecolor="k", markeredgewidth=0.6, zorder=4)
            end = max(mx if gm is not None else 0, *goals or [0]) * 1.12
            label = ax.text(end, i, _fmt(gm, ratio) + f" n={count}"
                            if gm is not None else "n/a", va="center",
                            fontsize=font - 1, zorder=5)
            for least in goals:
                ax.plot([least], [i], marker="|", markersize=14,
                        markeredgewidth=2.2, color="k", zorder=3)
            texts = [label]
            if goals:
                met = sum(m for m, _ in goals.values())
                of = sum(o for _, o in goals.values())
                texts += [ax.annotate(f"goal {met}/{of}", xy=(1, 0.5),
                            xycoords=label, xytext=(5, 0),
                            textcoords="offset points", va="center",
                            fontsize=font - 1, fontweight="bold", zorder=5,
                            color="tab:green" if met == of else "tab:red")]
            labels.append((end, texts))
        hi = _room_for(fig, ax, lo, hi, labels)
        ax.set_xlim(lo, hi)
        ax.axvline(1.0, color="k", linewidth=0.9, zorder=1)
        ax.grid(axis="x", which="major", alpha=0.3)
        ax.set_title(name, fontsize=11)
        ax.set_xlabel("stridekit GB/s / reference GB/s" if ratio else
                      "peer time / stridekit time", fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
        ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(
            subs=(1, 2, 5) if hi / lo < 100 else (1,), numticks=8))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
            lambda v, _: f"{v / 1000:g}k" if v >= 1000 else f"{v:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        if col:
            ax.tick_params(axis="y", left=False, labelleft=False)
    first.set_yticks(range(n))
    first.set_yticklabels([f"{label} ({len(part)})" for label, part in groups],
                          fontsize=font)
    first.set_ylim(n - 0.5, -0.5)
    fig.suptitle(title, fontsize=13, y=0.985, va="top")
    fig.text(0.5, 0.952, "\n".join(notes), ha="center", va="top",
             fontsize=9, linespacing=1.4)
    legend = [
        Line2D([], [], marker="o", color="tab:green", linestyle="",
               markeredgecolor="k", label="geometric mean over the cases "
               "(value, n cases with this peer)"),
        Line2D([], [], color="tab:green", alpha=0.35, linewidth=7,
               label="min..max over the cases"),
        Line2D([], [], marker="|", color="k", linestyle="", markersize=14,
               markeredgewidth=2.2, label="an issue goal's threshold"),
        Line2D([], [], color="tab:red", marker="$k/n$", linestyle="",
               markersize=16, label="goal k/n: cases meeting their goal "
               "on this measure"),
    ]
    fig.legend(handles=legend, loc="lower center", ncol=4, fontsize=9,
               frameon=False, bbox_to_anchor=(0.5, 0.0))
    fig.text(0.005, 0.035, "rows: suite, size group, threads (cases); "
             ">1: stridekit faster / closer to the reference", fontsize=8,
             color="0.35")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
