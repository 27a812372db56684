"""Summary plots of a study (Matplotlib): each reduction against each
varied name, every run a point and the largest at each value a line, the
axes with their units; and, where the runs kept their time series, the
envelope of the sway over all runs."""

import csv
import math
import os

from .sim import column_name


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
    units = study.units()

    def label(name):
        unit = units.get(name, "")
        return "%s (%s)" % (name, unit) if unit else name

    # One panel per reduction and varied name: every run's value against
    # that name (the others spread the points), and the largest at each of
    # its values, the line a design limit is read against.
    fig, axes = plt.subplots(len(reds), len(names), figsize=(4.2 * len(names) + 2.2, 3.2 * len(reds)),
                             squeeze=False)
    for i, red in enumerate(reds):
        for j, name in enumerate(names):
            ax = axes[i][j]
            xs = [r[name] for r in ok]
            ys = [r[red] for r in ok]
            ax.plot(xs, ys, linestyle="none", marker="o", markersize=3, alpha=0.5, color="tab:blue",
                    label="a run")
            worst = {}
            for x, y in zip(xs, ys):
                if isinstance(y, float) and math.isfinite(y):
                    worst[x] = max(worst.get(x, -math.inf), y)
            top = sorted(worst)
            ax.plot(top, [worst[x] for x in top], color="tab:red", linewidth=1.2, marker="s", markersize=3,
                    label="the largest at each value")
            ax.set_xlabel(label(name))
            ax.set_ylabel(label(red))
            ax.grid(True, alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", fontsize=8)  # outside the panels
    fig.suptitle("%s: %d runs" % (study.name, len(ok)))
    fig.tight_layout(rect=(0, 0, 1, 0.97 - 0.25 / len(reds)))
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
            head = [column_name(h) for h in data[0]]  # "sway (deg)": the column sway
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
