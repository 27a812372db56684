"""Physical ranges, finite numbers and tiny steps, through the C ABI of both models in both standards.

Run from the repository root with the four FMUs built (see test_handles.py).
Every parameter and input declares a physical range in the model
description; values outside it are refused with the variable and the range,
and the instance goes on.  Communication steps far below the internal step
(1e-300 s, the smallest subnormal) advance time without stepping the
physics and leave the instance usable.
"""

import math
import os
import sys
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fmutestlib import INPUTS  # noqa: E402
import fmutestlib  # noqa: E402
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

REST = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0]
ENVS = tuple(fmutestlib.EXAMPLE_FMUS)
TMP = None
FOLDERS = {}
ABSURD_PARAMETERS = {"gravity": 1e300, "load.mass": 1e300, "cable.length0": 1e300}
ABSURD_INPUTS = {"winch.speed": 1.8e308, "suspension.vx": 1.8e308, "suspension.x": 1e155}


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_examples("ranges-fmutest-")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


class Slave:
    """The calls these tests need, the same for both standards."""

    def __init__(self, env):
        self.v3 = env.endswith("3_FMU")
        if self.v3:
            self.s = fmi3.FMU3Slave(FOLDERS[env], instance_name="ranges")
            self.s.instantiate_co_simulation()
        else:
            self.s = fmi2.FMU2Slave(FOLDERS[env], instance_name="ranges")
            self.s.instantiate()
            self.s.setup_experiment(start_time=0.0)
        self.error = self.s.ERROR

    def enter(self):
        if self.v3:
            self.s.enter_initialization_mode(start_time=0.0)
        else:
            self.s.enter_initialization_mode()

    def set(self, names, values):
        return self.s.set_float64(names, values) if self.v3 else self.s.set_real(names, values)

    def get(self, names):
        return self.s.get_float64(names) if self.v3 else self.s.get_real(names)

    def ready(self):
        self.enter()
        self.set(INPUTS, REST)
        self.s.exit_initialization_mode()
        return self

    def logged(self):
        return " | ".join(m[-1] for m in self.s.messages)


class TestRanges(unittest.TestCase):

    def test_every_parameter_and_input_declares_a_range(self):
        for env in ENVS:
            root = ET.parse(os.path.join(FOLDERS[env], "modelDescription.xml")).getroot()
            for v in root.iter():
                if v.get("causality") not in ("parameter", "input"):
                    continue
                elem = v.find("Real") if v.tag == "ScalarVariable" else v
                with self.subTest(fmu=env, variable=v.get("name")):
                    lo, hi = float(elem.get("min")), float(elem.get("max"))
                    self.assertTrue(math.isfinite(lo) and math.isfinite(hi) and lo < hi, (lo, hi))

    def test_absurd_values_refused_and_instance_goes_on(self):
        for env in ENVS:
            with self.subTest(fmu=env):
                s = Slave(env)
                try:
                    s.enter()
                    for name, x in ABSURD_PARAMETERS.items():
                        with self.assertRaises(s.error, msg=name):
                            s.set([name], [x])
                        self.assertIn(name + " = ", s.logged())
                        self.assertIn("outside", s.logged())
                    s.set(INPUTS, REST)
                    s.s.exit_initialization_mode()
                    for name, x in ABSURD_INPUTS.items():
                        with self.assertRaises(s.error, msg=name):
                            s.set([name], [x])
                    s.s.do_step(0.0, 1.0 / 60)
                    outs = s.get(["cable.tension", "suspension.fz", "cable.length"])
                    self.assertTrue(all(math.isfinite(x) for x in outs), outs)
                finally:
                    s.s.free()

    def test_tiny_steps_advance_time(self):
        for env in ENVS:
            with self.subTest(fmu=env):
                s = Slave(env).ready()
                try:
                    t = 0.0
                    for h in (1e-300, 5e-324, 1.0 / 60, 1e-300, 5e-324, 1.0 / 60):
                        s.s.do_step(t, h)
                        t += h
                        outs = s.get(["cable.tension", "suspension.fz"])
                        self.assertTrue(all(math.isfinite(x) for x in outs), (h, outs))
                finally:
                    s.s.free()


if __name__ == "__main__":
    unittest.main()
