#!/usr/bin/env python3
"""Co-simulate the HoistControlled FMU: a lift under a wind gust.

    python3 examples/clients/python/hoist_controlled.py out/HoistControlled.fmu --csv out/controlled.csv

The FMU carries two Python plugins that run inside it: a winch controller
that lifts the load along a smooth profile and keeps the cable tension
below a limit, and a wind load driven by the input wind.speed.  This client
only sets the wind (a 12 m/s gust from 6 s to 10 s) and records; the
controller does the rest.  Communication step 1/60 s, 20 s.  The exit code
is 0 on success, 1 on any FMI error.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the cablefmu package beside it

from cablefmu import fmi2  # noqa: E402

OUTPUTS = ["load.x", "load.z", "cable.tension", "cable.length",
           "controller.reference", "controller.error", "controller.overload", "wind.force"]


def gust(t):
    """Wind speed along x (m/s): 12 m/s from 6 s to 10 s with 1 s ramps."""
    if t < 6 or t > 10:
        return 0.0
    return 12.0 * min(1.0, t - 6, 10 - t)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fmu", help="path of HoistControlled.fmu")
    p.add_argument("--csv", help="write the results to this CSV file")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="set a parameter, e.g. load.mass=1100 or controller.tension_limit=11000")
    p.add_argument("--stop", type=float, default=20.0, help="stop time in s (default 20)")
    p.add_argument("--log", action="store_true", help="print the FMU's log messages")
    args = p.parse_args(argv)
    params = {}
    for item in args.param:
        name, _, value = item.partition("=")
        params[name.strip()] = float(value)

    base = os.path.dirname(os.path.abspath(args.csv or args.fmu))
    folder = fmi2.unzip(args.fmu, os.path.join(base, "HoistControlled_fmu"))
    s = fmi2.FMU2Slave(folder, "controlled", echo=args.log)
    s.instantiate(logging_on=args.log)
    h = 1.0 / 60
    rows = []
    try:
        s.initialize(stop_time=args.stop, parameters=params)
        limit, z0 = s.get_real(["controller.tension_limit", "load.z"])
        t = 0.0
        rows.append([t, 0.0] + s.get_real(OUTPUTS))
        for _ in range(int(round(args.stop / h))):
            s.set_real(["wind.speed"], [gust(t)])
            s.do_step(t, h)
            t += h
            rows.append([t, gust(t)] + s.get_real(OUTPUTS))
        s.terminate()
    except fmi2.FMIError as e:
        print("FMI error:", e, file=sys.stderr)
        return 1
    finally:
        s.free()

    col = {n: i + 2 for i, n in enumerate(OUTPUTS)}
    peak = max(r[col["cable.tension"]] for r in rows)
    worst = max(abs(r[col["controller.error"]]) for r in rows)
    sway = max(abs(r[col["load.x"]]) for r in rows)
    print("lifted %.3f m; worst profile error %.1f mm; peak tension %.0f N (limit %.0f N); "
          "peak wind force %.0f N; largest sway %.0f mm"
          % (rows[-1][col["load.z"]] - z0, 1e3 * worst, peak, limit,
             max(abs(r[col["wind.force"]]) for r in rows), 1e3 * sway))
    if args.csv:
        with open(args.csv, "w") as f:
            f.write(",".join(["time", "wind.speed"] + OUTPUTS) + "\n")
            for r in rows:
                f.write(",".join(repr(v) for v in r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
