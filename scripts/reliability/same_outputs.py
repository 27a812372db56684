#!/usr/bin/env python3
"""The same inputs give the same outputs: runs an FMU's co-simulation many times through the cablefmu package.

    python3 scripts/reliability/same_outputs.py [--runs N] [--save F | --against F] FMU.fmu

Each run simulates the FMU for its default experiment with the HoistControlled
example's wind gust on ``wind.speed`` (when the FMU has that input) and
compares every output of every step bitwise with the first run, or with the
outputs saved by an earlier run (``--against``: a run on a quiet machine, say,
compared with runs beside a load). Any failed run or differing bit fails the
script, naming the run, the output and the time. Only the standard library
and the cablefmu package are used.
"""

import argparse
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "clients", "python"))
import cablefmu  # noqa: E402


def gust(t):
    """Wind speed along x (m/s): 12 m/s from 6 s to 10 s with 1 s ramps."""
    if t < 6 or t > 10:
        return 0.0
    return 12.0 * min(1.0, t - 6, 10 - t)


def run(fmu):
    inputs = {"wind.speed": gust} if "wind.speed" in fmu.md.variables else {}
    res = cablefmu.simulate(fmu, inputs=inputs, stop_time=fmu.md.default_experiment.get("stopTime", 10.0))
    return {name: [struct.pack("<d", v).hex() for v in values] for name, values in res.items()}


def first_difference(a, b):
    if sorted(a) != sorted(b):
        return "the outputs differ: %s against %s" % (sorted(a), sorted(b))
    for name in sorted(a):
        if len(a[name]) != len(b[name]):
            return "%s has %d samples against %d" % (name, len(a[name]), len(b[name]))
        for k, (x, y) in enumerate(zip(a[name], b[name])):
            if x != y:
                t = struct.unpack("<d", bytes.fromhex(a["time"][k]))[0]
                return "%s at t = %.6g s: %r against %r" % (
                    name, t, struct.unpack("<d", bytes.fromhex(x))[0], struct.unpack("<d", bytes.fromhex(y))[0])
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fmu")
    p.add_argument("--runs", type=int, default=100)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--save", help="write the first run's outputs to this file")
    g.add_argument("--against", help="compare every run with the outputs in this file")
    a = p.parse_args()
    if a.runs < 1:
        p.error("--runs %d: at least 1" % a.runs)
    fmu = cablefmu.load(a.fmu)
    reference = None
    if a.against:
        with open(a.against) as f:
            reference = json.load(f)
    for k in range(a.runs):
        try:
            out = run(fmu)
        except cablefmu.FMUError as e:
            log = "\n".join(text for _, _, text in e.log)
            sys.exit("same outputs: run %d of %s failed: %s\n%s" % (k, fmu.name, e, log))
        if reference is None:
            reference = out
            if a.save:
                with open(a.save, "w") as f:
                    json.dump(out, f)
            continue
        diff = first_difference(out, reference)
        if diff:
            sys.exit("same outputs: run %d of %s differs from the %s: %s" % (
                k, fmu.name, "saved run" if a.against else "first run", diff))
    samples = len(reference["time"])
    print("same outputs: %s: %d runs of %d outputs x %d samples, bitwise equal to the %s" % (
        fmu.name, a.runs, len(reference) - 1, samples, "saved run (%s)" % a.against if a.against else "first run"))


if __name__ == "__main__":
    main()
