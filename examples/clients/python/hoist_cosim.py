#!/usr/bin/env python3
"""Co-simulate a trolley crane against the Hoist FMU (FMI 2.0 Co-Simulation).

    python3 examples/clients/python/hoist_cosim.py out/Hoist.fmu --csv out/hoist.csv

Scenario (communication step 0.01 s, 30 s):

* The suspension point starts where the scenario puts it (the start
  values of suspension.x|y|z, read from the FMU: 20 m up in
  examples/massless).  From t = 1 s the trolley accelerates along x at
  0.5 m/s^2 to 1 m/s, travels, and brakes at 0.5 m/s^2 to stand still
  10 m further (t = 13 s).  Position and velocity
  are both taken from this trapezoidal velocity profile, so the inputs are
  consistent with each other.  The FMU moves the suspension point along a
  smooth path through these samples; when the FMU declares
  canInterpolateInputs, the acceleration is passed as the first derivative
  of suspension.vx with fmi2SetRealInputDerivatives, so that the path
  extrapolates the motion over each step instead of following the samples a
  step (and an internal step) late.
* The winch pays out at 0.5 m/s for 4 s from t = 12 s and hauls in at
  0.5 m/s for 4 s from t = 20 s.

The FMU is unpacked once into a work folder (``--workdir``, by default a
folder next to the CSV file) and that folder is reused by later runs as long
as the archive is unchanged.  The exit code is 0 on success, 1 on any FMI
error or non-finite output.
"""

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the cablefmu package beside it

from cablefmu import fmi2  # noqa: E402

INPUTS = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed"]
OUTPUTS = ["load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz",
           "cable.tension", "cable.length", "suspension.fx", "suspension.fy", "suspension.fz"]
# The CSV's columns: the ports as the FMU names them (inputs as applied),
# and the sway angle derived from them; each header is "name (unit)".
COLUMNS = ["time", "suspension.x", "suspension.vx", "winch.speed", "load.x", "load.y", "load.z",
           "load.vx", "load.vz", "sway", "cable.tension", "cable.length", "suspension.fx", "suspension.fz"]


def header(md):
    """The CSV header: each column with its unit from the model
    description (s for time, deg for the sway)."""
    units = {"time": "s", "sway": "deg"}
    out = []
    for name in COLUMNS:
        unit = units.get(name) or md.variables[name].unit or "1"
        out.append("%s (%s)" % (name, unit))
    return out


def suspension_start(md):
    """The suspension point's start position (m), the scenario's."""
    return tuple(md.variables["suspension." + a].start for a in "xyz")


class TrapezoidProfile:
    """Rest-to-rest motion over ``distance`` with a trapezoidal velocity profile."""

    def __init__(self, t_start=1.0, accel=0.5, v_max=1.0, distance=10.0):
        self.t0 = t_start
        self.a = accel
        self.v = v_max
        t_acc = v_max / accel
        d_acc = 0.5 * accel * t_acc * t_acc
        if 2 * d_acc > distance:
            raise ValueError("distance too short to reach v_max")
        self.d_acc = d_acc
        self.distance = distance
        self.t1 = self.t0 + t_acc  # end of acceleration
        self.t2 = self.t1 + (distance - 2 * d_acc) / v_max  # start of braking
        self.t3 = self.t2 + t_acc  # stand still

    def __call__(self, t):
        """Return position, velocity and acceleration at time ``t``."""
        if t < self.t0:
            return 0.0, 0.0, 0.0
        if t < self.t1:
            tau = t - self.t0
            return 0.5 * self.a * tau * tau, self.a * tau, self.a
        if t < self.t2:
            return self.d_acc + self.v * (t - self.t1), self.v, 0.0
        if t < self.t3:
            tau = t - self.t2
            x = self.distance - self.d_acc + self.v * tau - 0.5 * self.a * tau * tau
            return x, self.v - self.a * tau, -self.a
        return self.distance, 0.0, 0.0


def winch_speed(t):
    """Winch speed in m/s (positive pays out) at time ``t``."""
    if 12.0 <= t < 16.0:
        return 0.5
    if 20.0 <= t < 24.0:
        return -0.5
    return 0.0


def sway_deg(hoist_x, hoist_y, hoist_z, load_x, load_y, load_z):
    """Angle of the cable chord from the vertical, signed like the x offset."""
    dx = load_x - hoist_x
    dy = load_y - hoist_y
    horizontal = math.copysign(math.hypot(dx, dy), dx)
    return math.degrees(math.atan2(horizontal, hoist_z - load_z))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("fmu", help="path of Hoist.fmu")
    p.add_argument("--csv", help="write the results to this CSV file")
    p.add_argument("--workdir", help="folder to unpack the FMU into (reused across runs)")
    p.add_argument("--step", type=float, default=0.01, help="communication step size in s (default 0.01)")
    p.add_argument("--stop", type=float, default=30.0, help="stop time in s (default 30)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="set a parameter before initialization, e.g. load.mass=2000 (repeatable)")
    p.add_argument("--no-derivatives", action="store_true",
                   help="do not pass input derivatives even if the FMU can interpolate inputs")
    p.add_argument("--log", action="store_true", help="switch FMU logging on and print its messages")
    args = p.parse_args(argv)
    if args.step <= 0 or args.stop <= 0:
        p.error("--step and --stop must be positive")
    params = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep:
            p.error("--param expects NAME=VALUE, got %r" % item)
        try:
            params[name.strip()] = float(value)
        except ValueError:
            p.error("--param %s: %r is not a number" % (name, value))
    args.params = params
    return args


def default_workdir(args):
    stem = os.path.splitext(os.path.basename(args.fmu))[0]
    base = os.path.dirname(os.path.abspath(args.csv if args.csv else args.fmu))
    return os.path.join(base, stem + "_fmu")


def run(args):
    workdir = args.workdir or default_workdir(args)
    folder = fmi2.unzip(args.fmu, workdir)
    slave = fmi2.FMU2Slave(folder, instance_name="hoist", echo=args.log)
    md = slave.md
    use_derivatives = md.can_interpolate_inputs and not args.no_derivatives
    profile = TrapezoidProfile()
    h = args.step
    n_steps = int(round(args.stop / h))

    in_vrs = md.vrs(INPUTS)
    out_vrs = md.vrs(OUTPUTS)
    idx = {name: i for i, name in enumerate(OUTPUTS)}
    x0, y0, z0 = suspension_start(md)
    rows = []

    def record(t, x, vx, ws, out):
        lx, ly, lz = out[idx["load.x"]], out[idx["load.y"]], out[idx["load.z"]]
        rows.append((t, x, vx, ws, lx, ly, lz, out[idx["load.vx"]], out[idx["load.vz"]],
                     sway_deg(x, y0, z0, lx, ly, lz),
                     out[idx["cable.tension"]], out[idx["cable.length"]],
                     out[idx["suspension.fx"]], out[idx["suspension.fz"]]))
        if not fmi2.all_finite(out):
            bad = [n for n, v in zip(OUTPUTS, out) if not math.isfinite(v)]
            raise fmi2.FMIError("fmi2GetReal", None, slave.messages,
                                "non-finite output at t=%g: %s" % (t, ", ".join(bad)))

    wall0 = time.perf_counter()
    slave.instantiate(logging_on=args.log)
    try:
        slave.setup_experiment(start_time=0.0, stop_time=args.stop)
        if args.params:
            slave.set_real(list(args.params), list(args.params.values()))
        slave.enter_initialization_mode()
        x, vx, _ = profile(0.0)
        x += x0
        slave.set_real(in_vrs, [x, y0, z0, vx, 0.0, 0.0, 0.0])
        slave.exit_initialization_mode()
        mass, gravity = slave.get_real(["load.mass", "gravity"])
        out = slave.get_real(out_vrs)
        record(0.0, x, vx, 0.0, out)

        for i in range(n_steps):
            t = i * h
            x, vx, _ = profile(t)
            x += x0
            accel = profile(t + 0.5 * h)[2]  # constant over the step: phase edges are on the grid
            ws = winch_speed(t + 0.5 * h)
            slave.set_real(in_vrs, [x, y0, z0, vx, 0.0, 0.0, ws])
            if use_derivatives:
                slave.set_real_input_derivatives(["suspension.vx"], [1], [accel])
            slave.do_step(t, h)
            t_end = (i + 1) * h
            x_end, vx_end, _ = profile(t_end)
            record(t_end, x0 + x_end, vx_end, ws, slave.get_real(out_vrs))
        slave.terminate()
    finally:
        slave.free()
    wall = time.perf_counter() - wall0

    if args.csv:
        os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
        with open(args.csv, "w") as f:
            f.write(",".join(header(md)) + "\n")
            for r in rows:
                f.write(",".join(repr(v) for v in r) + "\n")

    col = {name: i for i, name in enumerate(COLUMNS)}
    mg = mass * gravity
    t0_tension = rows[0][col["cable.tension"]]
    sway = [r[col["sway"]] for r in rows]
    i_sway = max(range(len(rows)), key=lambda i: abs(sway[i]))
    tail = [s for r, s in zip(rows, sway) if r[0] >= args.stop - 5.0 - 1e-9]
    residual = 0.5 * (max(tail) - min(tail))
    tensions = [r[col["cable.tension"]] for r in rows]
    i_ten = max(range(len(rows)), key=lambda i: tensions[i])

    print("Hoist co-simulation: %d steps of %g s to t = %g s (%s)" % (
        n_steps, h, n_steps * h,
        "input derivatives on" if use_derivatives else "inputs held over each step"))
    print("  initial tension      %12.3f N  vs m*g = %.3f N  (%+.4f %%)" % (
        t0_tension, mg, 100.0 * (t0_tension - mg) / mg))
    print("  max sway angle       %12.4f deg at t = %.2f s" % (abs(sway[i_sway]), rows[i_sway][0]))
    print("  residual sway        %12.4f deg amplitude over the last 5 s" % residual)
    print("  max tension          %12.3f N  at t = %.2f s  (%.4f m*g)" % (
        tensions[i_ten], rows[i_ten][0], tensions[i_ten] / mg))
    print("  final cable length   %12.4f m" % rows[-1][col["cable.length"]])
    print("  final load position  x = %.4f m, z = %.4f m" % (rows[-1][col["load.x"]], rows[-1][col["load.z"]]))
    print("  wall time            %12.3f s  (%.1f x real time)" % (wall, n_steps * h / wall if wall > 0 else 0.0))
    if args.csv:
        print("  wrote %s (%d rows)" % (args.csv, len(rows)))
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except fmi2.FMIError as e:
        print("FMI error: %s" % e, file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
