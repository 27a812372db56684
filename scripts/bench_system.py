"""The SSP master's own cost per communication step, beyond the FMUs': the
crane systems of examples/crane-system run by cablefmu.system in each
coupling, the time spent inside the FMUs' functions (every FMI call, timed
around the foreign call) taken from the run's wall time; and the wall time
of a 10-minute crane cycle. The best of --repeat runs is shown: the machine
may be busy with other work.

    /usr/bin/python3 scripts/bench_system.py --fmus out [--stop 20] [--repeat 3] [--cycle]

--fmus names the folder holding Hoist.fmu, GantryCrane.fmu, BoomCrane.fmu
and WireHoist.fmu (scripts/test.sh builds them into out/).
"""
import argparse
import atexit
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "examples", "clients", "python"))
import cablefmu  # noqa: E402
from cablefmu import fmucommon, system  # noqa: E402

inside = [0.0]  # seconds spent inside the FMUs' functions


def _timed(fn):
    clock = time.perf_counter

    def call(*args):
        t0 = clock()
        try:
            return fn(*args)
        finally:
            inside[0] += clock() - t0
    return call


def _declare_timed(declare):
    def wrapped(self, lib):
        lib = declare(self, lib)
        names = self.signatures.keys() if isinstance(self.signatures, dict) else [n for n, _ in self.signatures]
        for name in names:
            fn = getattr(lib, name, None)
            if fn is not None and not getattr(fn, "timed", False):
                call = _timed(fn)
                call.timed = True
                setattr(lib, name, call)
        return lib
    return wrapped


SYSTEMS = {
    # name: (folder, FMUs, inputs, stop time of the cycle's pattern)
    "gantry-hoist": ("gantry-hoist", ("Hoist", "GantryCrane"),
                     {"speedCommand": cablefmu.Table([0, 2, 10, 12, 20, 22, 30, 32], [0, 0.5, 0.5, 0, 0, -0.5, -0.5, 0])}, 40.0),
    "boom-wirehoist": ("boom-wirehoist", ("BoomCrane", "WireHoist"),
                       {"winchSpeed": cablefmu.Table([0, 1, 6, 7, 20, 21, 26, 27], [0, 0.5, 0.5, 0, 0, -0.5, -0.5, 0]),
                        "slewRate": cablefmu.Table([7, 8, 18, 19, 27, 28, 38, 39], [0, 0.05, 0.05, 0, 0, -0.05, -0.05, 0])}, 40.0),
}


def cycle(inputs, period, minutes):
    """The inputs repeated every ``period`` seconds for ``minutes``."""
    out = {}
    for name, t in inputs.items():
        times, values = [], []
        for n in range(int(minutes * 60 / period)):
            times += [n * period + x for x in t.times]
            values += t.values
        out[name] = cablefmu.Table(times, values)
    return out


def measure(package, inputs, stop, coupling, repeat, case=None):
    best = None
    for _ in range(repeat):
        s = system.load_ssp(package, parameter_sets=[case] if case else [])
        inside[0] = 0.0
        t0 = time.perf_counter()
        r = system.run(s, stop_time=stop, step=1.0 / 60, coupling=coupling, inputs=inputs)
        wall = time.perf_counter() - t0
        steps = len(r["time"]) - 1
        row = (wall / steps * 1e6, inside[0] / steps * 1e6, (wall - inside[0]) / steps * 1e6,
               getattr(r, "jacobians", None) and r.jacobians / steps)
        best = row if best is None or row[2] < best[2] else best
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fmus", default=os.path.join(REPO, "out"), help="folder of the FMUs (default out/)")
    p.add_argument("--stop", type=float, default=20.0, help="simulated seconds per run (default 20)")
    p.add_argument("--repeat", type=int, default=3, help="runs per row, the best shown (default 3)")
    p.add_argument("--cycle", action="store_true", help="also time a 10-minute crane cycle of each system")
    args = p.parse_args()
    fmucommon.LibraryCache._declare = _declare_timed(fmucommon.LibraryCache._declare)
    tmp = tempfile.mkdtemp(prefix="bench-system-")
    atexit.register(shutil.rmtree, tmp, True)  # the packed systems, each run's own
    # The boom's default tip (1e6 N/m) is beyond the explicit coupling's limit at 1/60 s: explicitly, the stiffest.
    cases = {("boom-wirehoist", "explicit"): "resources/cases/tip-1e8.ssv"}
    print("| system | coupling | wall per step (µs) | inside the FMUs (µs) | the master's own (µs) | Jacobians per step |")
    print("|---|---|---|---|---|---|")
    packages = {}
    for name, (folder, fmus, inputs, period) in SYSTEMS.items():
        have = os.path.join(tmp, name + "-fmus")
        os.makedirs(have)
        for f in fmus:
            os.symlink(os.path.abspath(os.path.join(args.fmus, f + ".fmu")), os.path.join(have, f + ".fmu"))
        packages[name] = system.pack(os.path.join(REPO, "examples", "crane-system", folder), have, os.path.join(tmp, name + ".ssp"))
        for coupling in ("explicit", "implicit"):
            wall, fmu, own, jac = measure(packages[name], inputs, args.stop, coupling, args.repeat, cases.get((name, coupling)))
            print("| %s%s | %s | %.0f | %.0f | %.0f | %s |" % (name, " (%s)" % os.path.basename(cases[(name, coupling)]) if (name, coupling) in cases else "",
                                                      coupling, wall, fmu, own, "%.2f" % jac if jac is not None else ""), flush=True)
    if args.cycle:
        print()
        print("| system | coupling | 10-minute cycle, wall (s) | × real time |")
        print("|---|---|---|---|")
        for name, (folder, fmus, inputs, period) in SYSTEMS.items():
            for coupling in ("explicit", "implicit") if name == "gantry-hoist" else ("implicit",):
                s = system.load_ssp(packages[name])
                t0 = time.perf_counter()
                system.run(s, stop_time=600, step=1.0 / 60, coupling=coupling, inputs=cycle(inputs, period, 10), outputs=[])
                wall = time.perf_counter() - t0
                print("| %s | %s | %.1f | %.0f |" % (name, coupling, wall, 600 / wall), flush=True)


if __name__ == "__main__":
    main()
