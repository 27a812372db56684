"""The MassSpringHoist FMU (mass-spring cable) from outside Go, through ctypes, in FMI 2.0 and 3.0.

Run with MASSSPRINGHOIST_FMU=out/MassSpringHoist.fmu MASSSPRINGHOIST3_FMU=out/MassSpringHoist3.fmu (built by
'go run ./build -o out/MassSpringHoist.fmu examples/mass-spring-hoist' and
'go run ./build -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring-hoist').
The FMI 3.0 build also runs the common FMU tests of test_fmu3.py.
"""
import math
import os
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))
sys.path.insert(0, HERE)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402
import fmutestlib  # noqa: E402

G, H = 9.81, 1.0 / 60
TMP = None
FOLDERS = {}


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("massspring-test-", "examples/mass-spring-hoist", "MassSpringHoist")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


class Slave(fmutestlib.Slave):
    def __init__(self, version, name="ms"):
        super().__init__(version, FOLDERS[version], name)

    def step(self, t, h=H):
        self.s.do_step(t, h)
        return t + h


class MassSpringCase(fmutestlib.StatusAssertions, unittest.TestCase):
    VERSION = None
    FMI = None

    def slave(self, name="ms", parameters=None):
        s = Slave(self.VERSION, name).initialize(parameters)
        self.addCleanup(s.free)
        return s

    def outputs(self, s):
        return fmutestlib.bits(s.get(fmutestlib.OUTPUTS + ["cable.iterations"]))

    def drive(self, s, t, steps):
        for _ in range(steps):
            s.set(["hoist.vx", "winch.speed"], [0.4 * math.sin(t), 0.2 * math.cos(0.5 * t)])
            t = s.step(t)
        return t

    def test_statics_and_load_mass_parameter(self):
        """At rest the crane carries -(M + rho A L) g within 0.1 %, for the scenario's load and a 2 t one."""
        for mass in (None, 2000.0):
            s = self.slave(parameters=None if mass is None else {"load.mass": mass})
            t = 0.0
            for _ in range(60):
                t = s.step(t)
            fz, m, rho, d, l0 = s.get(["hoist.fz", "load.mass", "cable.density", "cable.diameter", "cable.length0"])
            want = -(m + rho * math.pi * d * d / 4 * l0) * G
            self.assertLess(abs(fz / want - 1), 1e-3, "hoist.fz %.1f N, want %.1f (load %g kg)" % (fz, want, m))

    def test_state_rollback_bitwise(self):
        """A state saved while the trolley moves and the winch pays out replays bitwise, restored in the
        same instance and, serialized, in a fresh one."""
        s = self.slave()
        t0 = self.drive(s, 0.0, 40)
        state = s.s.get_fmu_state()
        blob = s.s.serialize_fmu_state(state)
        first = []
        t = t0
        for _ in range(30):
            t = self.drive(s, t, 1)
            first.append(self.outputs(s))
        s.s.set_fmu_state(state)
        t = t0
        for k in range(30):
            t = self.drive(s, t, 1)
            self.assertEqual(self.outputs(s), first[k], "restored run differs at step %d" % (k + 1))
        fresh = self.slave("fresh")
        fresh.s.set_fmu_state(fresh.s.deserialize_fmu_state(blob))
        t = t0
        for k in range(30):
            t = self.drive(fresh, t, 1)
            self.assertEqual(self.outputs(fresh), first[k], "deserialized run differs at step %d" % (k + 1))
        s.s.free_fmu_state(state)

    def test_threads_match_sequential_bitwise(self):
        """Three instances stepped in three threads at once give the sequential run's bits."""
        want = self.slave("seq")
        self.drive(want, 0.0, 120)
        reference = self.outputs(want)
        slaves = [self.slave("thread%d" % k) for k in range(3)]
        errors = []

        def run(s):
            try:
                self.drive(s, 0.0, 120)
            except Exception as e:  # reported below
                errors.append(e)

        threads = [threading.Thread(target=run, args=(s,)) for s in slaves]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        self.assertEqual(errors, [])
        for s in slaves:
            self.assertEqual(self.outputs(s), reference, "a threaded instance differs from the sequential run")

    def test_damaged_state_refused_and_instance_unchanged(self):
        s = self.slave()
        t = self.drive(s, 0.0, 10)
        before = self.outputs(s)
        state = s.s.get_fmu_state()
        blob = bytearray(s.s.serialize_fmu_state(state))
        for cut in (len(blob) // 2, len(blob) - 8):
            self.assertFails(lambda: s.s.deserialize_fmu_state(bytes(blob[:cut])),
                             "deserializing a state cut to %d of %d bytes" % (cut, len(blob)))
        self.assertEqual(self.outputs(s), before, "a refused state changed the instance")
        self.drive(s, t, 1)
        s.s.free_fmu_state(state)

    def test_bad_values_refused(self):
        s = Slave(self.VERSION, "bad")
        self.addCleanup(s.free)
        self.assertFails(lambda: s.set(["load.mass"], [float("nan")]), "load.mass = nan", mentions=["load.mass"])
        self.assertFails(lambda: s.set(["cable.length0"], [-1.0]), "cable.length0 = -1", mentions=["cable.length0"])
        self.assertFails(lambda: s.set(["h"], [0.0]), "h = 0", mentions=["h"])
        s.initialize()
        self.assertFails(lambda: s.set(["hoist.vx"], [float("inf")]), "hoist.vx = inf", mentions=["hoist.vx"])
        self.assertFails(lambda: s.step(0.0, -H), "a negative communication step")
        values = s.get(fmutestlib.OUTPUTS)
        self.assertTrue(all(math.isfinite(v) for v in values), "outputs finite after refused calls")


class TestMassSpringFMI2(MassSpringCase):
    VERSION = 2
    FMI = fmi2


class TestMassSpringFMI3(MassSpringCase):
    VERSION = 3
    FMI = fmi3


del MassSpringCase

if __name__ == "__main__":
    unittest.main()
