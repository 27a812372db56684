"""The RigidHoist FMU (rigid-body cable) from outside Go, through ctypes.

Run with RIGIDHOIST_FMU=out/RigidHoist.fmu (built by
'go run ./build -o out/RigidHoist.fmu examples/rigid-hoist').
"""
import math
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))
from cablefmu import fmi2  # noqa: E402

TMP = None
SLAVE = None


def setUpModule():
    global TMP, SLAVE
    path = os.environ.get("RIGIDHOIST_FMU")
    if not path or not os.path.isfile(path):
        raise RuntimeError("set RIGIDHOIST_FMU to the built RigidHoist.fmu "
                           "('go run ./build -o out/RigidHoist.fmu examples/rigid-hoist'); got %r" % path)
    TMP = tempfile.mkdtemp(prefix="rigidhoist-test-")
    SLAVE = fmi2.FMU2Slave(fmi2.unzip(path, os.path.join(TMP, "RigidHoist")), "rigid")


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


class TestRigidHoist(unittest.TestCase):
    def test_carries_load_and_cable_and_reports_nodes(self):
        s = SLAVE
        s.instantiate()
        try:
            s.setup_experiment()
            s.enter_initialization_mode()
            s.exit_initialization_mode()
            names = list(s.md.variables)
            nodes = [n for n in names if n.startswith("cable.node[") and n.endswith(".z")]
            self.assertEqual(len(nodes), 21, "20 segments give 21 nodes")
            mass, density, d, length, g = s.get_real(["load.mass", "cable.density", "cable.diameter", "cable.length0", "gravity"])
            want = -(mass + density * math.pi * d * d / 4 * length) * g
            t = 0.0
            for k in range(120):
                s.set_real(["hoist.x", "hoist.vx"], [0.5 * t, 0.5])
                s.do_step(t, 1.0 / 60)
                t += 1.0 / 60
            values = s.get_real(names)
            self.assertTrue(all(math.isfinite(v) for v in values), "outputs finite")
            fz = s.get_real(["hoist.fz"])[0]
            self.assertLess(abs(fz / want - 1), 0.01,
                            "hoist.fz %.1f N while moving at 0.5 m/s, want -(M + m_cable) g = %.1f N within 1 %%" % (fz, want))
            top, bottom = s.get_real(["cable.node[1].z", "cable.node[21].z"])
            self.assertAlmostEqual(top - bottom, length, delta=0.05, msg="the nodes span the cable")
        finally:
            s.terminate()
            s.free()


if __name__ == "__main__":
    unittest.main()
