"""The gantry package of examples/crane-system run in OMSimulator (the
OpenModelica SSP tool, through its Python API) and by cablefmu.system on the
same experiment: the trolley at rest for 2 s, then commanded to 0.5 m/s, to
20 s at a fixed step of 1/60 s. Prints both results side by side.

    PYTHONPATH=OMSIMULATOR/lib/x86_64-linux-gnu /usr/bin/python3 scripts/ssp/omsimulator_check.py out/gantry-hoist.ssp

OMSimulator is no dependency of cablefmu or its tests: the README's SSP
section says how to build it. Its Python API reads the package's parameter
bindings and units, and passes values between the FMUs at each step without
input derivatives.
"""
import csv
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "clients", "python"))
from cablefmu import system  # noqa: E402

STOP, STEP, START, SPEED = 20.0, 1.0 / 60, 2.0, 0.5


def omsimulator(package, folder):
    """The final trolley position and the peak tension OMSimulator gives."""
    from OMSimulator import SSP, CRef  # noqa: the tool's own package, on PYTHONPATH
    model = SSP(package)
    name = model.activeVariant.system.name
    inst = model.instantiate()
    result = os.path.join(folder, "omsimulator.csv")
    inst.setResultFile(result)
    inst.setStopTime(STOP)
    inst.setFixedStepSize(STEP)
    inst.setLoggingInterval(STEP)
    inst.initialize()
    inst.stepUntil(START)
    inst.setValue(CRef(name, "speedCommand"), SPEED)
    inst.stepUntil(STOP)
    inst.terminate()
    inst.delete()
    with open(result, newline="") as f:
        rows = list(csv.reader(f))
    head = [h.strip().strip('"') for h in rows[0]]
    x = next(i for i, h in enumerate(head) if h.endswith("crane.trolley.x"))
    tension = next(i for i, h in enumerate(head) if h.endswith("cable.cable.tension"))
    values = [[float(v) for v in r] for r in rows[1:] if r]
    return values[-1][x], max(r[tension] for r in values)


def cablefmu_system(package, coupling):
    s = system.load_ssp(package)
    r = system.run(s, stop_time=STOP, step=STEP, coupling=coupling, outputs=["crane.trolley.x", "cable.cable.tension"],
                   inputs={"speedCommand": lambda t: SPEED if t >= START - 1e-9 else 0.0})
    return r["crane.trolley.x"][-1], max(r["cable.cable.tension"])


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    package = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        rows = [("OMSimulator", omsimulator(package, folder))]
    rows += [("cablefmu.system, %s" % c, cablefmu_system(package, c)) for c in ("explicit", "implicit")]
    print("| master | trolley.x at %g s (m) | peak tension (N) |" % STOP)
    print("|---|---|---|")
    for name, (x, t) in rows:
        print("| %s | %.5f | %.1f |" % (name, x, t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
