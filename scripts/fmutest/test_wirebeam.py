"""The WireBeam FMU (hybrid multiresolution wire) from outside Go, through ctypes, in FMI 2.0 and 3.0.

Run with WIREBEAM_FMU=out/WireBeam.fmu WIREBEAM3_FMU=out/WireBeam3.fmu (built by
'go run ./build export -o out/WireBeam.fmu examples/hmr-wire' and 'go run ./build export -fmi 3 -o out/WireBeam3.fmu
examples/hmr-wire').
"""
import math
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))
sys.path.insert(0, HERE)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402
import fmutestlib  # noqa: E402

G, M1, M2, H = 9.81, 10.0, 20.0, 1.0 / 60
TMP = None
FOLDERS = {}


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("wirebeam-test-", "examples/hmr-wire", "WireBeam")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


class Slave(fmutestlib.Slave):
    def __init__(self, version, name="wire"):
        super().__init__(version, FOLDERS[version], name)

    def step(self, t, h=H):
        self.s.do_step(t, h)
        return t + h


class WireBeamCase(fmutestlib.StatusAssertions, unittest.TestCase):
    VERSION = None
    FMI = None

    def slave(self, name="wire", parameters=None):
        s = Slave(self.VERSION, name).initialize(parameters)
        self.addCleanup(s.free)
        return s

    def test_atwood_acceleration_tension_and_beam_force(self):
        """a = g(1 - r)/(1 + r), T = 2r m2 g/(1 + r) with r = 0.5 within 2 %; the beam carries 2T."""
        s = self.slave()
        t = 0.0
        while t < 0.5 - 1e-9:
            t = s.step(t)
        v0, = s.get(["m1.vz"])
        while t < 1 - 1e-9:
            t = s.step(t)
        v1, tension, fz, contacts = s.get(["m1.vz", "wire.tension", "beam.fz", "wire.contactNodes"])
        r = M1 / M2
        a, want_a, want_t = (v1 - v0) / 0.5, G * (1 - r) / (1 + r), 2 * r * M2 * G / (1 + r)
        self.assertLess(abs(a / want_a - 1), 0.02, "m1 rises at %.4f m/s2, want %.4f within 2 %%" % (a, want_a))
        self.assertLess(abs(tension / want_t - 1), 0.02, "tension %.3f N, want %.3f within 2 %%" % (tension, want_t))
        self.assertLess(abs(-fz / (2 * tension) - 1), 0.02, "beam.fz %.3f N, want -2T = %.3f" % (fz, -2 * tension))
        self.assertEqual(contacts, 2.0, "contact nodes on the beam's two top edges")

    def test_mass_parameters_change_the_machine(self):
        """Equal masses balance: the boxes stay at rest (|v| below 1 mm/s after 1 s)."""
        s = self.slave(parameters={"m1.mass": 20.0})
        t = 0.0
        while t < 1 - 1e-9:
            t = s.step(t)
        v1, v2 = s.get(["m1.vz", "m2.vz"])
        self.assertLess(max(abs(v1), abs(v2)), 1e-3, "balanced machine moves: %r, %r m/s" % (v1, v2))

    def outputs(self, s):
        names = ["m1.x", "m1.z", "m1.vz", "m2.z", "wire.tension", "wire.massNodes", "wire.contactNodes",
                 "beam.fx", "beam.fz"]
        return [struct.pack("<d", v) for v in s.get(names)]

    def test_state_rollback_across_resolution_change(self):
        """A state saved before the wire coarsens (42 mass nodes laid, 2 under tension) replays bitwise,
        restored in the same instance and, serialized, in a fresh one."""
        s = self.slave()
        laid, = s.get(["wire.massNodes"])
        state = s.s.get_fmu_state()
        blob = s.s.serialize_fmu_state(state)
        first, counts = [], []
        t = 0.0
        for _ in range(30):
            t = s.step(t)
            first.append(self.outputs(s))
            counts.append(s.get(["wire.massNodes"])[0])
        self.assertGreater(laid, 10, "the wire is laid at 0.1 m spacing")
        self.assertLess(min(counts), laid, "the wire coarsens under tension: %r → %r" % (laid, counts[-1]))
        s.s.set_fmu_state(state)
        self.assertEqual(s.get(["wire.massNodes"])[0], laid, "the restored state has the laid resolution")
        t = 0.0
        for k in range(30):
            t = s.step(t)
            self.assertEqual(self.outputs(s), first[k], "restored run differs at step %d" % (k + 1))
        fresh = self.slave("fresh")
        fresh.s.set_fmu_state(fresh.s.deserialize_fmu_state(blob))
        t = 0.0
        for k in range(30):
            t = fresh.step(t)
            self.assertEqual(self.outputs(fresh), first[k], "deserialized run differs at step %d" % (k + 1))
        s.s.free_fmu_state(state)

    def test_damaged_state_refused_and_instance_unchanged(self):
        s = self.slave()
        t = 0.0
        for _ in range(10):
            t = s.step(t)
        before = self.outputs(s)
        state = s.s.get_fmu_state()
        blob = bytearray(s.s.serialize_fmu_state(state))
        for cut in (len(blob) // 2, len(blob) - 8):
            self.assertFails(lambda: s.s.deserialize_fmu_state(bytes(blob[:cut])),
                             "deserializing a state cut to %d of %d bytes" % (cut, len(blob)))
        self.assertEqual(self.outputs(s), before, "a refused state changed the instance")
        t = s.step(t)
        s.s.free_fmu_state(state)

    def test_bad_values_refused(self):
        s = Slave(self.VERSION, "bad")
        self.addCleanup(s.free)
        self.assertFails(lambda: s.set(["m1.mass"], [float("nan")]), "m1.mass = nan", mentions=["m1.mass"])
        self.assertFails(lambda: s.set(["m1.mass"], [-1.0]), "m1.mass = -1", mentions=["m1.mass"])
        self.assertFails(lambda: s.set(["internalStep"], [0.0]), "internalStep = 0", mentions=["internalStep"])
        s.initialize()
        self.assertFails(lambda: s.step(0.0, -H), "a negative communication step")
        self.assertFails(lambda: s.step(0.0, 0.0), "a zero communication step")
        values = s.get(["m1.z", "wire.tension"])
        self.assertTrue(all(math.isfinite(v) for v in values), "outputs finite after refused calls")


class TestWireBeamFMI2(WireBeamCase):
    VERSION = 2
    FMI = fmi2


class TestWireBeamFMI3(WireBeamCase):
    VERSION = 3
    FMI = fmi3


del WireBeamCase

if __name__ == "__main__":
    unittest.main()
