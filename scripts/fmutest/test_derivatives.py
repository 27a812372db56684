"""Inputs, their derivatives and output derivatives from outside Go, in both standards.

No output responds at once to an input: the suspension point's inputs act
over the next communication step, along its smooth path, so the model
descriptions declare no output dependencies and no directional
derivatives, the outputs read after the inputs are set are those read
before, and GetDirectionalDerivative is refused with the reason. Input
derivatives remove the lag of the path; output derivatives are the outputs'
rates. Needs HOIST_FMU, RIGIDHOIST_FMU, WIREHOIST_FMU, HOIST3_FMU,
RIGIDHOIST3_FMU and WIREHOIST3_FMU (see scripts/test.sh).
"""
import os
import shutil
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

TMP = None
FORCES = ["suspension.fx", "suspension.fy", "suspension.fz"]
KNOWNS = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz"]
DELTA = 1e-6


def setUpModule():
    global TMP
    for env in ("HOIST_FMU", "RIGIDHOIST_FMU", "WIREHOIST_FMU", "HOIST3_FMU", "RIGIDHOIST3_FMU", "WIREHOIST3_FMU"):
        if not os.path.isfile(os.environ.get(env, "")):
            raise RuntimeError("set %s to the built FMU (see scripts/test.sh)" % env)
    TMP = tempfile.mkdtemp(prefix="derivatives-test-")


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


class Binding:
    """The few calls the checks need, for one standard."""

    def __init__(self, version, env, name):
        self.version = version
        folder = os.path.join(TMP, name)
        if version == 2:
            self.s = fmi2.FMU2Slave(fmi2.unzip(os.environ[env], folder), name)
            self.s.instantiate()
            self.s.setup_experiment(start_time=0.0)
            self.s.enter_initialization_mode()
            self.s.exit_initialization_mode()
            self.get, self.set = self.s.get_real, self.s.set_real
        else:
            self.s = fmi3.FMU3Slave(fmi3.unzip(os.environ[env], folder), name)
            self.s.instantiate_co_simulation()
            self.s.enter_initialization_mode(start_time=0.0)
            self.s.exit_initialization_mode()
            self.get, self.set = self.s.get_float64, self.s.set_float64
        self.t = 0.0

    def step(self, n, h=0.05):
        for _ in range(n):
            t = self.t
            self.set(["suspension.x", "suspension.vx", "winch.speed"], [0.25 * t * t, 0.5 * t, 0.2])
            self.s.do_step(t, h)
            self.t += h

    def directional(self, unknowns, known):
        """Calls GetDirectionalDerivative; returns its status."""
        vr = self.s.md.vr
        u = [vr(n) for n in unknowns]
        if self.version == 2:
            unk = (fmi2.fmi2ValueReference * len(u))(*u)
            kn = (fmi2.fmi2ValueReference * 1)(vr(known))
            seed = (fmi2.fmi2Real * 1)(1.0)
            out = (fmi2.fmi2Real * len(u))()
            return self.s.lib.fmi2GetDirectionalDerivative(getattr(self.s, self.s.HANDLE), unk, len(u), kn, 1, seed, out)
        unk = (fmi3.fmi3ValueReference * len(u))(*u)
        kn = (fmi3.fmi3ValueReference * 1)(vr(known))
        seed = (fmi3.fmi3Float64 * 1)(1.0)
        out = (fmi3.fmi3Float64 * len(u))()
        return self.s.lib.fmi3GetDirectionalDerivative(getattr(self.s, self.s.HANDLE), unk, len(u), kn, 1, seed, 1, out, len(u))

    def finite_difference(self, unknowns, known):
        state = self.s.get_fmu_state()
        u0 = self.get([known])[0]
        reads = []
        for sign in (1, -1):
            self.set([known], [u0 + sign * DELTA])
            reads.append(self.get(unknowns))
            self.s.set_fmu_state(state)
        self.s.free_fmu_state(state)
        return [(p - m) / (2 * DELTA) for p, m in zip(*reads)]

    def close(self):
        self.s.terminate()
        self.s.free()


class TestNoOutputRespondsAtOnce(unittest.TestCase):
    def check(self, version, env, name):
        md = ET.parse(os.path.join(fmi2.unzip(os.environ[env], os.path.join(TMP, name + "-md")), "modelDescription.xml")).getroot()
        flag = "providesDirectionalDerivative" if version == 2 else "providesDirectionalDerivatives"
        self.assertNotEqual(md.find("CoSimulation").get(flag, "false"), "true", "%s: %s" % (name, flag))
        for o in md.find("ModelStructure").iter("Output"):
            self.assertEqual(o.get("dependencies"), "", "%s: output %s depends on %r" % (name, o.get("index") or o.get("valueReference"), o.get("dependencies")))
        b = Binding(version, env, name)
        try:
            b.step(30)
            outputs = FORCES + ["load.x", "cable.tension"]
            before = b.get(outputs)
            b.set(KNOWNS, [x + 1 for x in b.get(KNOWNS)])
            self.assertEqual(b.get(outputs), before, "%s: outputs changed at once when the inputs were set" % name)
            self.assertEqual(b.directional(FORCES, "suspension.x"), 3, "%s: GetDirectionalDerivative not refused" % name)
            self.assertIn("not provided", " ".join(str(m) for m in b.s.messages[-2:]), "%s: the refusal says why" % name)
            b.s.do_step(b.t, 0.05)
            self.assertNotEqual(b.get(outputs), before, "%s: the inputs did not act over the next step" % name)
        finally:
            b.close()

    def test_hoist_fmi2(self):
        self.check(2, "HOIST_FMU", "hoist2")

    def test_rigidhoist_fmi2(self):
        self.check(2, "RIGIDHOIST_FMU", "rigid2")

    def test_hoist_fmi3(self):
        self.check(3, "HOIST3_FMU", "hoist3")

    def test_rigidhoist_fmi3(self):
        self.check(3, "RIGIDHOIST3_FMU", "rigid3")

    def test_wirehoist_fmi2(self):
        self.check(2, "WIREHOIST_FMU", "wire2")

    def test_wirehoist_fmi3(self):
        self.check(3, "WIREHOIST3_FMU", "wire3")


class TestInputDerivatives(unittest.TestCase):
    def test_coarse_steps_follow_with_derivatives(self):
        # The trolley accelerates at 1 m/s^2. Communication steps of 0.5 s
        # holding the velocity input miss the motion in between; with
        # fmi2SetRealInputDerivatives(suspension.vx, 1, a) the load's position
        # after 3 s is at least ten times closer to a fine-step reference.
        a = 1.0

        def run(h, derivatives):
            b = Binding(2, "HOIST_FMU", "inputs-%g-%s" % (h, derivatives))
            try:
                vr = b.s.md.vr
                t = 0.0
                for _ in range(int(round(3.0 / h))):
                    b.set(["suspension.x", "suspension.vx"], [a * t * t / 2, a * t])
                    if derivatives:
                        refs = (fmi2.fmi2ValueReference * 1)(vr("suspension.vx"))
                        order = (fmi2.fmi2Integer * 1)(1)
                        val = (fmi2.fmi2Real * 1)(a)
                        st = b.s.lib.fmi2SetRealInputDerivatives(getattr(b.s, b.s.HANDLE), refs, 1, order, val)
                        self.assertEqual(st, 0, "fmi2SetRealInputDerivatives status %d" % st)
                    b.s.do_step(t, h)
                    t += h
                return b.get(["load.x"])[0]
            finally:
                b.close()

        ref = run(1.0 / 60, False)
        held = abs(run(0.5, False) - ref)
        extrapolated = abs(run(0.5, True) - ref)
        self.assertLess(extrapolated, held / 10,
                        "load.x error %.3g m with derivatives, %.3g m without: want a tenfold drop" % (extrapolated, held))


class TestOutputDerivatives(unittest.TestCase):
    def test_position_rate_is_velocity(self):
        # fmi2GetRealOutputDerivatives: d(load.x)/dt equals load.vx (1e-9).
        b = Binding(2, "HOIST_FMU", "hoist2-out")
        try:
            b.step(30)
            vr = b.s.md.vr
            refs = (fmi2.fmi2ValueReference * 1)(vr("load.x"))
            order = (fmi2.fmi2Integer * 1)(1)
            out = (fmi2.fmi2Real * 1)()
            st = b.s.lib.fmi2GetRealOutputDerivatives(getattr(b.s, b.s.HANDLE), refs, 1, order, out)
            self.assertEqual(st, 0, "fmi2GetRealOutputDerivatives status %d" % st)
            v = b.get(["load.vx"])[0]
            self.assertLessEqual(abs(out[0] - v), 1e-9 * abs(v), "d(load.x)/dt %.12g vs load.vx %.12g" % (out[0], v))
        finally:
            b.close()


if __name__ == "__main__":
    unittest.main()
