#!/usr/bin/env python3
"""Export time per example: the cablefmu command (engines carried inside)
against the in-tree exporter (go run ./build export, which compiles the
engines), both writing the two-platform FMI 2.0 FMU; and a study's set-up
before its first run (its scenario exported and unpacked): the command for
this platform only, against the in-tree exporter's two-platform FMU.

    python3 scripts/bench_export.py [--dist out/dist] [--repeat 5]

Needs the commands of scripts/dist.sh and, for the in-tree column, Go and
the C compilers (bash scripts/setup.sh). Prints a Markdown table; the best
of --repeat runs of each (the in-tree exporter once warm: its build cache
filled by a first run that is not counted).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "clients", "python"))
from cablefmu import sim  # noqa: E402

EXAMPLES = ["massless", "massless-controlled", "rigid-cable", "mass-spring", "spline", "hmr-wire", "wire-hoist"]


def best(cmd, repeat, **kw):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        times.append(time.perf_counter() - t0)
    return min(times)


def setup_time(export, tmp, repeat):
    """Seconds from a scenario folder to an FMU unpacked and ready to
    instantiate, as a study's first run needs it (best of repeat)."""
    times = []
    for k in range(repeat):
        out = os.path.join(tmp, "setup-%d" % k, "HoistWind.fmu")
        cache = os.path.join(tmp, "cache-%d" % k)
        os.environ["CABLEFMU_CACHE"] = cache
        sim._loaded.clear()
        sim._seen.clear()
        t0 = time.perf_counter()
        export(out)
        sim.load(out)
        times.append(time.perf_counter() - t0)
    return min(times), os.path.getsize(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", default=os.path.join(ROOT, "out", "dist"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    cmd = os.path.join(args.dist, "linux64", "cablefmu")
    if not os.path.isfile(cmd):
        raise SystemExit("%s is missing: bash scripts/dist.sh builds it" % cmd)
    tmp = tempfile.mkdtemp(prefix="bench-export-")
    try:
        print("Export of each example, FMI 2.0 with the linux64 and win64 engines (s, best of %d):\n" % args.repeat)
        print("| example | cablefmu command | in-tree exporter (go run) |")
        print("|---|---:|---:|")
        subprocess.run(["go", "run", "./build", "export", os.path.join(ROOT, "examples", "massless"), "-o",
                        os.path.join(tmp, "warm.fmu")], cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)  # the build cache filled
        for name in EXAMPLES:
            folder = os.path.join(ROOT, "examples", name)
            fast = best([cmd, "export", folder, "-o", os.path.join(tmp, name + ".fmu")], args.repeat)
            tree = ["go", "run", "./build", "export", folder, "-o", os.path.join(tmp, name + "-tree.fmu")]
            slow = best(tree, max(1, args.repeat // 2), cwd=ROOT)
            print("| %s | %.3f | %.2f |" % (name, fast, slow))

        folder = os.path.join(ROOT, "examples", "studies", "payload-sweep", "hoist-wind")
        after, size_after = setup_time(
            lambda out: subprocess.run([cmd, "export", folder, "-platforms", "linux64", "-o", out], check=True,
                                       stdout=subprocess.DEVNULL), tmp, args.repeat)
        before, size_before = setup_time(
            lambda out: subprocess.run(["go", "run", "./build", "export", folder, "-o", out], cwd=ROOT, check=True,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), tmp,
            max(1, args.repeat // 2))
        print("\nA study's set-up (payload sweep: its scenario exported and the FMU unpacked, s):\n")
        print("| | set-up (s) | FMU (MB) |")
        print("|---|---:|---:|")
        print("| in-tree exporter, both platforms (before) | %.2f | %.1f |" % (before, size_before / 1e6))
        print("| cablefmu command, this platform (now) | %.3f | %.1f |" % (after, size_after / 1e6))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
