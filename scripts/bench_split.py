"""The RigidHoist step of a long rope through the C ABI, split between two processors or not: a table.

Exports scripts/fmutest/rigid-long with N segments (1000 unless given) into a temporary folder and steps it through
ctypes (FMI 2.0), the trolley moving, in processes whose Go runtime has one processor (GOMAXPROCS=1: the step is not
split) and two: back to back, paced at 60 Hz as a real-time master steps, and with one and two busy processes beside
it. Prints each case's median and 90th percentile time of fmi2DoStep and the process's processor time a step (the
paced runs' includes the master's own waiting loop).

    /usr/bin/python3 scripts/bench_split.py [N]
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RUN = r"""
import os, resource, sys, time
sys.path.insert(0, %(binding)r)
from cablefmu import fmi2
folder = fmi2.unzip(%(fmu)r, os.path.join(%(tmp)r, "run%%d" %% os.getpid()))
s = fmi2.FMU2Slave(folder, "bench")
s.instantiate()
s.initialize()
t, h, pace, steps = 0.0, 1.0 / 60, %(pace)r, %(steps)d
# Warm-up, as the run (the split's first trials, 32 steps, measured the way the run goes).
for _ in range(60):
    a = time.perf_counter()
    s.set_values(["suspension.vx"], [0.5]); s.do_step(t, h); t += h
    while pace and time.perf_counter() - a < pace:
        time.sleep(0.0005)
walls = []
r0 = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(steps):
    a = time.perf_counter()
    s.set_values(["suspension.vx"], [0.5]); s.do_step(t, h); t += h
    walls.append(time.perf_counter() - a)
    while pace and time.perf_counter() - a < pace:
        time.sleep(0.0005)
r1 = resource.getrusage(resource.RUSAGE_SELF)
walls.sort()
cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) / steps
print(walls[len(walls) // 2], walls[int(0.9 * len(walls))], cpu)
s.free()
"""


def measure(fmu, tmp, procs, pace, steps):
    script = RUN % {"binding": os.path.join(ROOT, "examples", "clients", "python"), "fmu": fmu, "tmp": tmp,
                    "pace": pace, "steps": steps}
    out = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, GOMAXPROCS=str(procs)),
                         capture_output=True, text=True, check=True, timeout=600).stdout
    return [float(x) * 1e3 for x in out.split()]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory(prefix="bench-split-") as tmp:
        with open(os.path.join(ROOT, "scripts", "fmutest", "rigid-long", "scenario.json")) as f:
            sc = json.load(f)
        sc["config"]["cable"]["segments"] = n
        folder = os.path.join(tmp, "scenario")
        os.mkdir(folder)
        with open(os.path.join(folder, "scenario.json"), "w") as f:
            json.dump(sc, f)
        fmu = os.path.join(tmp, "RigidHoistLong.fmu")
        subprocess.run(["go", "run", "./build", "export", "-platforms", "linux64", "-o", fmu, folder], cwd=ROOT,
                       check=True, capture_output=True)
        print("RigidHoist, %d segments, fmi2DoStep of 1/60 s through ctypes: median / 90th percentile ms, "
              "processor ms a step" % n)
        print("%-34s %26s %26s" % ("", "one processor", "two processors"))
        for label, pace, busy, steps in (("back to back", 0, 0, 1200), ("paced at 60 Hz", 1 / 60, 0, 300),
                                         ("one busy process beside", 0, 1, 1200),
                                         ("two busy processes beside", 0, 2, 1200)):
            hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
            try:
                cells = ["%.3f / %.3f, %.3f" % tuple(measure(fmu, tmp, procs, pace, steps)) for procs in (1, 2)]
            finally:
                for p in hogs:
                    p.kill()
                    p.wait()
            print("%-34s %26s %26s" % (label, cells[0], cells[1]))


if __name__ == "__main__":
    main()
