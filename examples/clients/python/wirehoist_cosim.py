#!/usr/bin/env python3
"""Co-simulate a crane's lift cycle against the WireHoist FMU (FMI 2.0 Co-Simulation).

    python3 examples/clients/python/wirehoist_cosim.py out/WireHoist.fmu --csv out/wirehoist.csv

The crane of the FMU's scenario (examples/wire-hoist: boom tip 50 m up,
four falls of 40 m, 20 t load 7 m above the ground; the client reads the
boom tip's start and the number of falls and sheaves from the FMU) goes
through one lift cycle, the master acting on the FMU's outputs as a crane
operator would:

* lift: from t = 2 s the winch hauls in at 2 m/s (the hook rises at
  0.5 m/s on four falls) for 6 s;
* boom-tip move: from t = 10 s the boom tip moves 4 m outwards along x
  (trapezoidal velocity, 0.25 m/s^2 to 0.5 m/s) and stops; the load swings;
* set-down: from t = 30 s the winch pays out at 2 m/s until the ground
  carries half of the load's weight (ground.force), then stops and the
  holding brake is engaged; the wire goes slack over the load;
* lift again: 6 s later the brake is released and the winch hauls in at
  2 m/s for 6 s, then holds the load in the air to the end (t = 90 s).

Winch speed changes are ramped over 0.5 s.  The communication step is
0.05 s (three internal steps of 1/60 s).  Exit code 0 on success, 1 on any
FMI error or non-finite output.
"""

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the cablefmu package beside it

from cablefmu import fmi2  # noqa: E402

INPUTS = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed", "winch.brake"]
SPEED = 2.0  # m/s of wire at the drum


def count(md, pattern):
    """How many of the FMU's variables pattern % k names, k = 1, 2, …"""
    k = 0
    while pattern % (k + 1) in md.variables:
        k += 1
    return k


def outputs(md):
    """The outputs the client records: the crane's, then a tension per fall
    and a speed per sheave, as many as the scenario's reeving has."""
    return (["hook.x", "hook.z", "load.z", "ground.force", "cable.tension", "cable.length",
             "cable.massNodes", "cable.contactNodes", "suspension.fx", "suspension.fz", "drum.omega",
             "drum.motorTorque", "drum.brakeTorque", "drum.wound"]
            + ["fall[%d].tension" % k for k in range(1, count(md, "fall[%d].tension") + 1)]
            + ["sheave[%d].omega" % k for k in range(1, count(md, "sheave[%d].omega") + 1)])


def header(md, names):
    """The CSV header, "name (unit)" with the units of the model
    description; the boom tip's x is suspension.x's offset from its start."""
    unit = {"time": "s", "boom.dx": "m", "winch.speed": "m/s", "winch.brake": "1", "sway": "deg"}
    return ["%s (%s)" % (n, unit.get(n) or md.variables[n].unit or "1")
            for n in ["time", "boom.dx", "winch.speed", "winch.brake"] + names + ["sway"]]


class Ramp:
    """A winch speed that follows its target with a slope of at most 1/0.5 s of SPEED."""

    def __init__(self):
        self.value = 0.0

    def toward(self, target, dt):
        rate = SPEED / 0.5
        self.value += max(-rate * dt, min(rate * dt, target - self.value))
        return self.value


def boom_x(t, t0=10.0, accel=0.25, v_max=0.5, distance=4.0):
    """Boom tip x offset and velocity of a rest-to-rest trapezoidal move."""
    t_acc = v_max / accel
    d_acc = 0.5 * accel * t_acc * t_acc
    t1, t2 = t0 + t_acc, t0 + t_acc + (distance - 2 * d_acc) / v_max
    t3 = t2 + t_acc
    if t < t0:
        return 0.0, 0.0
    if t < t1:
        return 0.5 * accel * (t - t0) ** 2, accel * (t - t0)
    if t < t2:
        return d_acc + v_max * (t - t1), v_max
    if t < t3:
        tau = t - t2
        return distance - d_acc + v_max * tau - 0.5 * accel * tau * tau, v_max - accel * tau
    return distance, 0.0


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("fmu", help="path of WireHoist.fmu")
    p.add_argument("--csv", help="write the results to this CSV file")
    p.add_argument("--workdir", help="folder to unpack the FMU into (reused across runs)")
    p.add_argument("--step", type=float, default=0.05, help="communication step size in s (default 0.05)")
    p.add_argument("--stop", type=float, default=90.0, help="stop time in s (default 90)")
    p.add_argument("--log", action="store_true", help="switch FMU logging on and print its messages")
    args = p.parse_args(argv)
    if args.step <= 0 or args.stop <= 0:
        p.error("--step and --stop must be positive")
    return args


def run(args):
    stem = os.path.splitext(os.path.basename(args.fmu))[0]
    base = os.path.dirname(os.path.abspath(args.csv if args.csv else args.fmu))
    folder = fmi2.unzip(args.fmu, args.workdir or os.path.join(base, stem + "_fmu"))
    slave = fmi2.FMU2Slave(folder, instance_name="wirehoist", echo=args.log)
    md = slave.md
    h = args.step
    n_steps = int(round(args.stop / h))
    names = outputs(md)
    falls = count(md, "fall[%d].tension")
    if falls == 0:
        raise ValueError("%s has no fall[k].tension outputs: is it a wire hoist?" % args.fmu)
    boom = tuple(md.variables["suspension." + a].start for a in "xyz")  # the scenario's boom tip
    col = {name: i for i, name in enumerate(names)}
    rows = []
    winch, brake = Ramp(), 0.0
    phase, phase_t = "lift", 0.0  # the operator's state and when it began
    set_down_at = None

    wall0 = time.perf_counter()
    slave.instantiate(logging_on=args.log)
    try:
        slave.setup_experiment(start_time=0.0, stop_time=args.stop)
        slave.enter_initialization_mode()
        slave.set_values(INPUTS, [boom[0], boom[1], boom[2], 0, 0, 0, 0, 0])
        slave.exit_initialization_mode()
        mass, gravity = slave.get_real(["load.mass", "gravity"])
        weight = mass * gravity
        out = slave.get_values(names)
        for i in range(n_steps + 1):
            t = i * h
            bx, bvx = boom_x(t)
            hook_x, hook_z = out[col["hook.x"]], out[col["hook.z"]]
            if i == 0:
                offset = hook_x - boom[0]  # the hook hangs n r beyond the first boom sheave
            sway = math.degrees(math.atan2(hook_x - (boom[0] + bx) - offset, boom[2] - hook_z))
            rows.append([t, bx, winch.value, brake] + list(out) + [sway])
            if not fmi2.all_finite(out):
                bad = [n for n, v in zip(names, out) if not math.isfinite(v)]
                raise fmi2.FMIError("fmi2GetReal", None, slave.messages,
                                    "non-finite output at t=%g: %s" % (t, ", ".join(bad)))
            if i == n_steps:
                break
            # The operator's decisions at this communication point.
            target = 0.0
            if phase == "lift" and 2.0 <= t < 8.0:
                target = -SPEED
            elif phase == "lift" and t >= 30.0:
                phase, phase_t = "lower", t
            if phase == "lower":
                target = SPEED
                if out[col["ground.force"]] >= 0.5 * weight:
                    phase, phase_t, set_down_at = "stop", t, t
            if phase == "stop" and abs(winch.value) < 1e-12:
                phase, phase_t, brake = "rest", t, 1.0
            if phase == "rest" and t >= phase_t + 6.0:
                phase, phase_t, brake = "lift again", t, 0.0
            if phase == "lift again" and t < phase_t + 6.0:
                target = -SPEED
            speed = winch.toward(target, h)
            slave.set_values(INPUTS, [boom[0] + bx, boom[1], boom[2], bvx, 0, 0, speed, brake])
            slave.do_step(t, h)
            out = slave.get_values(names)
        slave.terminate()
    finally:
        slave.free()
    wall = time.perf_counter() - wall0

    if args.csv:
        os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
        with open(args.csv, "w") as f:
            f.write(",".join(header(md, names)) + "\n")
            for r in rows:
                f.write(",".join(repr(v) for v in r) + "\n")

    c = {name: i for i, name in enumerate(["time", "boom.dx", "winch.speed", "winch.brake"] + names + ["sway"])}

    def column(name, t0=0.0, t1=float("inf")):
        return [r[c[name]] for r in rows if t0 <= r[0] <= t1]

    hooked = rows[0][c["fall[1].tension"]]
    falls_end = [column("fall[%d].tension" % k, args.stop - 5)[-1] for k in range(1, falls + 1)]
    peak_fall = max(max(column("fall[%d].tension" % k)) for k in range(1, falls + 1))
    nodes = column("cable.massNodes")
    print("WireHoist co-simulation: %d steps of %g s to t = %g s" % (n_steps, h, n_steps * h))
    print("  load %.0f kg on %d falls: fall tensions at the start %s N (the load's share m g/n = %.0f N; the block, "
          "its sheaves and the falls' own weight the rest)" % (
        mass, falls, ", ".join("%.0f" % rows[0][c["fall[%d].tension" % k]] for k in range(1, falls + 1)),
        weight / falls))
    print("  hook height          %8.3f m at the start, %8.3f m highest, %8.3f m lowest" % (
        rows[0][c["hook.z"]], max(column("hook.z")), min(column("hook.z"))))
    after_move = column("sway", 18, 30)
    if after_move:
        print("  largest sway         %8.3f deg after the boom-tip move (t = 18-30 s)" % max(abs(s) for s in after_move))
    if set_down_at is None:
        print("  set-down             the load never reached the ground")
    else:
        rest = column("ground.force", set_down_at + 2, set_down_at + 6)
        print("  set down at t = %.2f s: ground carries %.1f %% of the load's weight, load centre at %.4f m, drum tension %.0f N" % (
            set_down_at, 100 * sum(rest) / len(rest) / weight,
            column("load.z", set_down_at + 5, set_down_at + 5.01)[0],
            column("cable.tension", set_down_at + 5, set_down_at + 5.01)[0]))
    print("  lifted again: fall tensions %s N at the end (%.0f N at the start)" % (
        ", ".join("%.0f" % x for x in falls_end), hooked))
    print("  peak fall tension    %8.0f N (%.2f x the start's)" % (peak_fall, peak_fall / hooked))
    print("  peak boom-tip force  %8.0f N (vertical)" % max(abs(x) for x in column("suspension.fz")))
    print("  mass nodes           %d to %d" % (min(nodes), max(nodes)))
    print("  wall time            %8.3f s  (%.1f x real time)" % (wall, n_steps * h / wall if wall > 0 else 0.0))
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
