"""The GantryCrane FMU (a crane model: a trolley on its rail) from outside Go, through ctypes, in FMI 2.0 and 3.0.

Run with GANTRYCRANE_FMU=out/GantryCrane.fmu GANTRYCRANE3_FMU=out/GantryCrane3.fmu (built by
'go run ./build export -o out/GantryCrane.fmu examples/gantry-crane' and 'go run ./build export -fmi 3 -o
out/GantryCrane3.fmu examples/gantry-crane').
"""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))
sys.path.insert(0, HERE)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402
import fmutestlib  # noqa: E402

G, M, R, MU = 9.81, 10000.0, 0.25, 0.01  # the example's trolley
TMP = None
FOLDERS = {}
OUTPUTS = ["trolley.x", "trolley.y", "trolley.z", "trolley.vx", "motor.torque"]


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("gantry-test-", "examples/gantry-crane", "GantryCrane")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


class GantryCase(fmutestlib.StatusAssertions, unittest.TestCase):
    VERSION = None
    FMI = None

    def slave(self, name="gantry", parameters=None):
        s = fmutestlib.Slave(self.VERSION, FOLDERS[self.VERSION], name).initialize(parameters)
        self.addCleanup(s.free)
        return s

    def test_torque_limit_and_rolling_resistance(self):
        """Commanded to 1 m/s, the trolley accelerates at (tau_max/r - mu M g)/M within 0.5 % while its motor is at
        its 5 kN.m limit, then runs at 1 m/s within 1 mm/s, its motor giving mu M g r within 1 %; a lighter
        trolley (trolley.mass 5 t) accelerates at its own rate."""
        for mass in (M, 5000.0):
            s = self.slave("gantry-%g" % mass, {"trolley.mass": mass})
            s.set(["trolley.speedCommand"], [1.0])
            t, h = 0.0, 0.01
            v = []
            while t < 8 - 1e-9:
                t = s.step(t, h)
                v.append(s.get(["trolley.vx", "motor.torque"]))
            limited = [k for k, (_, tau) in enumerate(v) if tau == 5000.0]
            a = (v[limited[-1]][0] - v[limited[0]][0]) / ((limited[-1] - limited[0]) * h)
            want = (5000.0 / R - MU * mass * G) / mass
            self.assertLess(abs(a / want - 1), 0.005, "trolley of %g kg: %.5f m/s2, want %.5f" % (mass, a, want))
            speed, torque = v[-1]
            self.assertLess(abs(speed - 1), 1e-3, "after 8 s at %.6f m/s" % speed)
            self.assertLess(abs(torque / (MU * mass * G * R) - 1), 0.01, "torque %.2f N.m" % torque)

    def test_cable_force_drags_and_loads(self):
        """A cable pulling sideways with 2 kN and down with 200 kN on a trolley told to stand (command 0), its rail
        without resistance (trolley.railFriction 0): the speed controller's integral holds it where its torque
        balances the pull, -2000 r N.m, after giving way by F r/Ki (the integral of the speed error is the way
        given), both within 1 % after 40 s (the loop's slow pole, Ki/Kp = 0.2/s, leaves 1.8 % at 20 s). With the example's resistance, mu (M g + 200 kN) = 2.98 kN, the
        rail alone holds it."""
        s = self.slave("frictionless", {"trolley.railFriction": 0.0})
        s.set(["cable.fx", "cable.fz"], [2000.0, -200000.0])
        t = 0.0
        while t < 40 - 1e-9:
            t = s.step(t, 0.05)
        x, torque = s.get(["trolley.x", "motor.torque"])
        self.assertLess(abs(x / (2000.0 * R / 4e4) - 1), 0.01, "gave way to x = %.5f m, want F r/Ki = %.5f m" % (x, 2000.0 * R / 4e4))
        self.assertLess(abs(torque / (-2000.0 * R) - 1), 0.01, "torque %.2f N.m" % torque)
        held = self.slave("held")
        held.set(["cable.fx", "cable.fz"], [2000.0, -200000.0])
        t = 0.0
        while t < 5 - 1e-9:
            t = held.step(t, 0.05)
        self.assertEqual(held.get(["trolley.x", "trolley.vx"]), [0.0, 0.0], "the rail holds the trolley")

    def test_state_rollback(self):
        """A state saved mid-acceleration replays bitwise, in the same instance and, serialized, in a fresh one."""
        s = self.slave()
        s.set(["trolley.speedCommand"], [0.8])
        t = 0.0
        for _ in range(50):
            t = s.step(t, 0.02)
        state = s.s.get_fmu_state()
        blob = s.s.serialize_fmu_state(state)
        first = []
        t0 = t
        for _ in range(50):
            t = s.step(t, 0.02)
            first.append(fmutestlib.bits(s.get(OUTPUTS)))
        s.s.set_fmu_state(state)
        t = t0
        for k in range(50):
            t = s.step(t, 0.02)
            self.assertEqual(fmutestlib.bits(s.get(OUTPUTS)), first[k], "restored run differs at step %d" % (k + 1))
        fresh = self.slave("fresh")
        fresh.set(["trolley.speedCommand"], [0.8])
        fresh.s.set_fmu_state(fresh.s.deserialize_fmu_state(blob))
        t = t0
        for k in range(50):
            t = fresh.step(t, 0.02)
            self.assertEqual(fmutestlib.bits(fresh.get(OUTPUTS)), first[k], "deserialized run differs at step %d" % (k + 1))
        s.s.free_fmu_state(state)

    def test_bad_values_refused(self):
        s = fmutestlib.Slave(self.VERSION, FOLDERS[self.VERSION], "bad")
        self.addCleanup(s.free)
        self.assertFails(lambda: s.set(["trolley.mass"], [float("nan")]), "trolley.mass = nan", mentions=["trolley.mass"])
        self.assertFails(lambda: s.set(["trolley.railFriction"], [2.0]), "trolley.railFriction = 2",
                         mentions=["trolley.railFriction"])
        s.initialize()
        self.assertFails(lambda: s.set(["cable.fx"], [float("inf")]), "cable.fx = inf", mentions=["cable.fx"])
        self.assertFails(lambda: s.step(0.0, 0.0), "a zero communication step")
        self.assertTrue(all(math.isfinite(v) for v in s.get(OUTPUTS)), "outputs finite after refused calls")


class TestGantryCraneFMI2(GantryCase):
    VERSION = 2
    FMI = fmi2


class TestGantryCraneFMI3(GantryCase):
    VERSION = 3
    FMI = fmi3


del GantryCase

if __name__ == "__main__":
    unittest.main()
