"""Summary plots of a study (Matplotlib): each reduction against the first
varied name, one series per combination of the others; and, where the runs
kept their time series, the envelope of the sway over all runs."""

import csv
import math
import os


def plot(study, rows, out):
    """Write OUT/summary.png (and OUT/sway-envelope.png) and return their paths."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("study plot needs Matplotlib (Debian: python3-matplotlib)")
    names = list(study.spec.get("vary", {}))
    reds = list(study.spec["reductions"])
    ok = [r for r in rows if r.get("status") == "ok"]
    if not names or not ok:
        raise RuntimeError("nothing to plot: %d finished runs, %d varied names" % (len(ok), len(names)))
    x, others = names[0], names[1:]
    groups = {}
    for r in ok:
        groups.setdefault(tuple(r[n] for n in others), []).append(r)
    cols = 2
    rowsn = int(math.ceil(len(reds) / cols))
    fig, axes = plt.subplots(rowsn, cols, figsize=(12, 4 * rowsn), squeeze=False)
    for i, red in enumerate(reds):
        ax = axes[i // cols][i % cols]
        for key, rs in sorted(groups.items()):
            rs = sorted(rs, key=lambda r: r[x])
            label = ", ".join("%s = %g" % (n, v) for n, v in zip(others, key)) or None
            ax.plot([r[x] for r in rs], [r[red] for r in rs], marker="o", markersize=3, linewidth=1, label=label)
        ax.set_xlabel(x)
        ax.set_ylabel(red)
        ax.set_title("%s against %s" % (red, x))
        ax.grid(True, alpha=0.3)
    if len(groups) <= 12:
        axes[0][0].legend(fontsize=7)
    for j in range(len(reds), rowsn * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle("%s: %d runs" % (study.name, len(ok)))
    fig.tight_layout()
    paths = [os.path.join(out, "summary.png")]
    fig.savefig(paths[0], dpi=100)
    plt.close(fig)
    series_dir = os.path.join(out, "series")
    if os.path.isdir(series_dir) and "sway" in study.spec:
        times, lo, hi, count = None, None, None, 0
        for name in sorted(os.listdir(series_dir)):
            if not name.endswith(".csv"):
                continue
            count += 1
            with open(os.path.join(series_dir, name), newline="") as f:
                data = list(csv.reader(f))
            head = data[0]
            t = [float(r[head.index("time")]) for r in data[1:]]
            s = [float(r[head.index("sway")]) for r in data[1:]]
            if times is None:
                times, lo, hi = t, list(s), list(s)
            else:
                for k in range(min(len(s), len(lo))):
                    lo[k], hi[k] = min(lo[k], s[k]), max(hi[k], s[k])
        if times:
            fig, ax = plt.subplots(figsize=(10, 4))
            ax.fill_between(times[:len(lo)], lo, hi, alpha=0.4)
            ax.set_xlabel("time (s)")
            ax.set_ylabel("sway (deg)")
            ax.set_title("%s: sway envelope over the %d of %d runs that kept their series" % (study.name, count, len(rows)))
            ax.grid(True, alpha=0.3)
            fig.tight_layout()
            paths.append(os.path.join(out, "sway-envelope.png"))
            fig.savefig(paths[-1], dpi=100)
            plt.close(fig)
    return paths
