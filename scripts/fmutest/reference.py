#!/usr/bin/env python3
"""Reference result of the Hoist example: the trolley move of
examples/clients/python/hoist_cosim.py sampled every 0.1 s.

    python3 scripts/fmutest/reference.py out/Hoist.fmu   # rewrites examples/massless/Hoist_ref.csv

Regenerate it only when the physics is meant to change, and say why in the
commit; test_fmi2.py compares every build against it.
"""
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COSIM = os.path.join(ROOT, "examples", "clients", "python", "hoist_cosim.py")
REFERENCE = os.path.join(ROOT, "examples", "massless", "Hoist_ref.csv")
EVERY = 10  # communication steps of 0.01 s between samples


def run(fmu_path, csv_path):
    """Runs the co-simulation and returns (header, sampled rows as floats)."""
    proc = subprocess.run([sys.executable, COSIM, fmu_path, "--csv", csv_path],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("hoist_cosim.py failed:\n%s\n%s" % (proc.stdout, proc.stderr))
    return read(csv_path, EVERY)


def read(path, every=1):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, data = rows[0], [[float(x) for x in r] for r in rows[1:] if r]
    return header, data[::every]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: reference.py Hoist.fmu")
    tmp = os.path.join(ROOT, "out", "reference")
    os.makedirs(tmp, exist_ok=True)
    header, rows = run(sys.argv[1], os.path.join(tmp, "hoist.csv"))
    with open(REFERENCE, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([repr(x) for x in r])
    print("wrote %s (%d rows)" % (REFERENCE, len(rows)))


if __name__ == "__main__":
    main()
