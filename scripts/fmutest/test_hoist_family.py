"""The hoist family's FMUs from outside Go, through ctypes, in FMI 2.0 and 3.0: RigidHoist (rigid-body cable),
MassSpringHoist (mass-spring cable) and SplineHoist (quasi-dynamic spline cable).

Run with RIGIDHOIST_FMU, RIGIDHOIST3_FMU, MASSSPRINGHOIST_FMU, MASSSPRINGHOIST3_FMU, SPLINEHOIST_FMU and
SPLINEHOIST3_FMU set to the builds of examples/rigid-cable, examples/mass-spring and examples/spline
('go run ./build export -o out/RigidHoist.fmu examples/rigid-cable', with -fmi 3 for RigidHoist3.fmu, and so on). Every
model passes the checks of every cable model with the Hoist ports (fmutestlib.CableHoistChecks), with its own
outputs, tolerance and drive; the FMI 3.0 builds of the mass-spring and spline cables also run the common FMU tests
of test_fmi3.py.
"""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fmutestlib  # noqa: E402  (puts the cablefmu package on the path)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

# The models: example folder, model identifier, instance name, the model's own outputs, the tolerance of the
# crane's static force, and the drive (inputs set before each step, a function of t).
MODELS = {
    "RigidHoist": ("examples/rigid-cable", "rigid", [], 1e-3,
                   lambda t: (["suspension.vx", "winch.speed"], [0.4 * math.sin(t), 0.1 * math.cos(0.5 * t)])),
    "MassSpringHoist": ("examples/mass-spring", "ms", ["cable.iterations"], 1e-3,
                        lambda t: (["suspension.vx", "winch.speed"], [0.4 * math.sin(t), 0.2 * math.cos(0.5 * t)])),
    # The budget swings: Algorithm 2 has nothing to switch on a rope held at one point, it stays dynamic.
    "SplineHoist": ("examples/spline", "spline", ["cable.static", "cable.cost"], 1e-6,
                    lambda t: (["suspension.vx", "winch.speed", "cable.budget"],
                               [0.4 * math.sin(t), 0.2 * math.cos(0.5 * t), 1e6 * (1 + math.sin(t))])),
}

TMP = {}
FOLDERS = {name: {} for name in MODELS}


def setUpModule():
    for name, (example, *_) in MODELS.items():
        TMP[name], folders = fmutestlib.unpack_standards(name.lower() + "-test-", example, name)
        FOLDERS[name].update(folders)


def tearDownModule():
    for tmp in TMP.values():
        fmutestlib.remove_tmp(tmp)


def checks(name):
    """The CableHoistChecks of model ``name``, for FMI 2.0 and 3.0."""
    _, instance, extra, tolerance, drive = MODELS[name]
    attrs = {"FOLDERS": FOLDERS[name], "INSTANCE": instance, "EXTRA_OUTPUTS": extra, "FZ_TOLERANCE": tolerance,
             "DRIVE": staticmethod(drive)}
    base = type(name + "Checks", (fmutestlib.CableHoistChecks,), attrs)
    return (type(name + "FMI2", (base, unittest.TestCase), {"VERSION": 2, "FMI": fmi2}),
            type(name + "FMI3", (base, unittest.TestCase), {"VERSION": 3, "FMI": fmi3}))


RigidHoistFMI2, RigidHoistFMI3 = checks("RigidHoist")
MassSpringHoistFMI2, MassSpringHoistFMI3 = checks("MassSpringHoist")
SplineHoistFMI2, SplineHoistFMI3 = checks("SplineHoist")


class TestRigidHoistMoving(unittest.TestCase):
    """RigidHoist while the trolley moves at 0.5 m/s: 20 segments give 21 nodes spanning the cable, the outputs
    finite, the crane carrying -(M + m_cable) g within 1 %."""

    def test_carries_load_and_cable_and_reports_nodes(self):
        s = fmutestlib.Slave(2, FOLDERS["RigidHoist"][2], "rigid")
        self.addCleanup(s.free)
        s.initialize(None)
        names = [n for n in s.s.md.variables if n.startswith("cable.node[") and n.endswith(".z")]
        self.assertEqual(len(names), 21, "20 segments give 21 nodes")
        mass, density, d, length, g = s.get(["load.mass", "cable.density", "cable.diameter", "cable.length0", "gravity"])
        want = -(mass + density * math.pi * d * d / 4 * length) * g
        t = 0.0
        for _ in range(120):
            s.set(["suspension.x", "suspension.vx"], [0.5 * t, 0.5])
            t = s.step(t, 1.0 / 60)
        fz = s.get(["suspension.fz"])[0]
        self.assertLess(abs(fz / want - 1), 0.01,
                        "suspension.fz %.1f N while moving at 0.5 m/s, want -(M + m_cable) g = %.1f N within 1 %%" % (fz, want))
        top, bottom = s.get(["cable.node[1].z", "cable.node[21].z"])
        self.assertAlmostEqual(top - bottom, length, delta=0.05, msg="the nodes span the cable")


if __name__ == "__main__":
    unittest.main()
