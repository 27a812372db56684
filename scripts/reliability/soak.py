#!/usr/bin/env python3
"""A long run of an FMU: memory stays flat, every step is OK and finite, saved states replay bitwise.

    python3 scripts/reliability/soak.py [--steps N] FMU.fmu ...

Each FMU (FMI 2.0 or 3.0) runs for N internal steps (default 1,000,000, of
the FMU's default internal step): the trolley shuttles back and forth and
the winch pays out and hauls in, in communication steps of 1 s. Every 200
communication steps the FMU state is saved, serialized, deserialized, the
next 20 steps are run, the state is restored and the same steps are run
again, which must give the same outputs bit for bit; then the states are
freed. The resident memory of the process is measured after the first
tenth of the run and at its end; it must not grow by more than --grow MB
(a leak of one small allocation per step would show as tens of MB).
Only the standard library is used.
"""

import argparse
import math
import os
import shutil
import struct
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))

from cablefmu import fmucommon  # noqa: E402
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

INPUTS = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed"]


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Run:
    """One instance of an unpacked FMU, driven by the same inputs in both standards."""

    def __init__(self, folder):
        md_path = os.path.join(folder, "modelDescription.xml")
        with open(md_path) as f:
            self.fmi = 3 if 'fmiVersion="3' in f.read(400) else 2
        if self.fmi == 2:
            self.s = fmi2.FMU2Slave(folder, instance_name="soak")
            self.s.instantiate()
            self.s.setup_experiment(start_time=0.0)
            self.s.enter_initialization_mode()
        else:
            self.s = fmi3.FMU3Slave(folder, instance_name="soak")
            self.s.instantiate_co_simulation()
            self.s.enter_initialization_mode(start_time=0.0)
        self.z = self.s.md.variables["suspension.z"].start
        self.set(0.0)
        self.s.exit_initialization_mode()
        self.outputs = [v.name for v in self.s.md.variables.values() if v.causality == "output"]
        h = self.s.md.variables.get("internalStep")
        self.h = h.start if h is not None else 1 / 60

    def inputs(self, t):
        # The trolley shuttles over 10 m with a period of 40 s; the winch
        # pays out and hauls in 1 m, with a period of 60 s.
        w = 2 * math.pi / 40
        x, vx = 5 * (1 - math.cos(w * t)), 5 * w * math.sin(w * t)
        winch = 0.1 * math.copysign(1, math.sin(2 * math.pi * t / 60))
        return [x, 0.0, self.z, vx, 0.0, 0.0, winch]

    def set(self, t):
        vals = self.inputs(t)
        if self.fmi == 2:
            self.s.set_real(INPUTS, vals)
        else:
            self.s.set_float64(INPUTS, vals)

    def get(self):
        vals = self.s.get_values(self.outputs)  # counts and switches through their own functions
        if not all(math.isfinite(x) for x in vals):
            raise AssertionError("non-finite output %r" % (vals,))
        return vals

    def step(self, t, H):
        self.set(t)
        self.s.do_step(t, H)
        return self.get()


def soak(folder, steps, grow):
    r = Run(folder)
    H = 1.0
    per_call = max(1, round(H / r.h))
    n = max(1, steps // per_call)
    t, base, replays, calls = 0.0, None, 0, 0
    t0 = time.monotonic()
    for k in range(n):
        if k == n // 10:
            base = rss_mb()
        if k % 200 == 100:
            state = r.s.get_fmu_state()
            blob = r.s.serialize_fmu_state(state)
            copy = r.s.deserialize_fmu_state(blob)
            first = [struct.pack("<%dd" % len(v), *v) for v in (r.step(t + i * H, H) for i in range(20))]
            for saved in (state, copy):
                r.s.set_fmu_state(saved)
                again = [struct.pack("<%dd" % len(v), *v) for v in (r.step(t + i * H, H) for i in range(20))]
                if again != first:
                    raise AssertionError("t = %g s: the run after restoring the state differs" % t)
            r.s.free_fmu_state(state)
            r.s.free_fmu_state(copy)
            replays += 1
            t += 20 * H  # where the replays left the FMU
            calls += 60
        r.step(t, H)
        t += H
        calls += 1
    secs = time.monotonic() - t0
    end = rss_mb()
    r.s.free()
    print("soak: %s (FMI %d): %d internal steps (%d calls of %g s, %.0f s simulated), %d state replays, "
          "memory %.1f -> %.1f MB, %.1f s" % (os.path.basename(folder), r.fmi, calls * per_call, calls, H, t,
                                              replays, base, end, secs))
    if end - base > grow:
        raise AssertionError("memory grew by %.1f MB over the run (at most %g allowed)" % (end - base, grow))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fmus", nargs="+")
    p.add_argument("--steps", type=int, default=1_000_000, help="internal steps per FMU (default 1,000,000)")
    p.add_argument("--grow", type=float, default=8.0, help="MB the resident memory may grow (default 8)")
    a = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="cablefmu-soak-")
    failed = 0
    try:
        for i, path in enumerate(a.fmus):
            folder = fmucommon.unzip(path, os.path.join(tmp, "%d-%s" % (i, os.path.splitext(os.path.basename(path))[0])))
            try:
                soak(folder, a.steps, a.grow)
            except (AssertionError, fmucommon.FMIError) as e:
                print("soak: %s: FAILED: %s" % (path, e))
                failed += 1
    finally:
        # The unpacked FMUs (40 MB a run) went nowhere before: the binaries
        # stay mapped while the process lives, and Linux removes them
        # only after.
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
