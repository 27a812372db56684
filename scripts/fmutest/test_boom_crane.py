"""The BoomCrane FMU (a crane model: a slewing, luffing boom with an elastic tip) from outside Go, through ctypes,
in FMI 2.0 and 3.0.

Run with BOOMCRANE_FMU=out/BoomCrane.fmu BOOMCRANE3_FMU=out/BoomCrane3.fmu (built by
'go run ./build export -o out/BoomCrane.fmu examples/boom-crane' and 'go run ./build export -fmi 3 -o
out/BoomCrane3.fmu examples/boom-crane').
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

M, K = 2000.0, 1e6  # the example's tip mass and stiffness
TMP = None
FOLDERS = {}
OUTPUTS = ["tip.x", "tip.y", "tip.z", "tip.vz", "slew.angle", "luff.angle"]


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("boom-test-", "examples/boom-crane", "BoomCrane")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


class BoomCase(fmutestlib.StatusAssertions, unittest.TestCase):
    VERSION = None
    FMI = None

    def slave(self, name="boom", parameters=None):
        s = fmutestlib.Slave(self.VERSION, FOLDERS[self.VERSION], name).initialize(parameters)
        self.addCleanup(s.free)
        return s

    def test_tip_rings_at_its_mode(self):
        """A 10 t load's weight set on the tip at once: the tip rings about W/k lower at sqrt(k/m) (period within
        0.5 % over 5 periods at communication steps of 1 ms), for a stiffer tip (boom.tipStiffness 4e6) at twice
        the frequency."""
        for k in (K, 4 * K):
            s = self.slave("boom-%g" % k, {"boom.tipStiffness": k})
            z0, = s.get(["tip.z"])
            s.set(["cable.fz"], [-10000 * 9.81])
            t, h, last, ups = 0.0, 1e-3, None, []
            rest = z0 - 10000 * 9.81 / k
            while t < 2 - 1e-9:
                t = s.step(t, h)
                x = s.get(["tip.z"])[0] - rest
                if last is not None and last < 0 <= x:
                    ups.append(t - h * x / (x - last))
                last = x
            period = (ups[5] - ups[0]) / 5
            want = 2 * math.pi / math.sqrt(k / M)
            self.assertLess(abs(period / want - 1), 0.005, "tip stiffness %g: period %.5f s, want %.5f" % (k, period, want))

    def test_state_rollback(self):
        """A state saved while slewing and ringing replays bitwise, in the same instance and, serialized, in a fresh one."""
        s = self.slave()
        s.set(["slew.rate", "cable.fz"], [0.05, -50000.0])
        t = 0.0
        for _ in range(40):
            t = s.step(t, 0.01)
        state = s.s.get_fmu_state()
        blob = s.s.serialize_fmu_state(state)
        t0, first = t, []
        for _ in range(40):
            t = s.step(t, 0.01)
            first.append(fmutestlib.bits(s.get(OUTPUTS)))
        s.s.set_fmu_state(state)
        t = t0
        for k in range(40):
            t = s.step(t, 0.01)
            self.assertEqual(fmutestlib.bits(s.get(OUTPUTS)), first[k], "restored run differs at step %d" % (k + 1))
        fresh = self.slave("fresh")
        fresh.set(["slew.rate", "cable.fz"], [0.05, -50000.0])
        fresh.s.set_fmu_state(fresh.s.deserialize_fmu_state(blob))
        t = t0
        for k in range(40):
            t = fresh.step(t, 0.01)
            self.assertEqual(fmutestlib.bits(fresh.get(OUTPUTS)), first[k], "deserialized run differs at step %d" % (k + 1))
        s.s.free_fmu_state(state)

    def test_bad_values_refused(self):
        s = fmutestlib.Slave(self.VERSION, FOLDERS[self.VERSION], "bad")
        self.addCleanup(s.free)
        self.assertFails(lambda: s.set(["boom.tipStiffness"], [0.0]), "boom.tipStiffness = 0", mentions=["boom.tipStiffness"])
        self.assertFails(lambda: s.set(["boom.tipMass"], [float("nan")]), "boom.tipMass = nan", mentions=["boom.tipMass"])
        s.initialize()
        self.assertFails(lambda: s.set(["slew.rate"], [100.0]), "slew.rate = 100", mentions=["slew.rate"])
        s.set(["luff.rate"], [1.0])
        t, failed = 0.0, False
        for _ in range(200):
            try:
                t = s.step(t, 0.01)
            except (fmi2.FMIError, fmi3.FMIError):
                failed = True
                break
        self.assertTrue(failed, "luffing past the vertical was not an error")
        self.assertTrue(all(math.isfinite(v) for v in s.get(OUTPUTS)), "outputs finite after the failed step")


class TestBoomCraneFMI2(BoomCase):
    VERSION = 2
    FMI = fmi2


class TestBoomCraneFMI3(BoomCase):
    VERSION = 3
    FMI = fmi3


del BoomCase

if __name__ == "__main__":
    unittest.main()
