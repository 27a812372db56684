"""The WireHoist FMU (a crane's reeved hoist on the HMR wire) from outside Go, through ctypes, in FMI 2.0 and 3.0.

Run with WIREHOIST_FMU=out/WireHoist.fmu WIREHOIST3_FMU=out/WireHoist3.fmu (built by
'go run ./build export -o out/WireHoist.fmu examples/wire-hoist' and 'go run ./build export -fmi 3 -o out/WireHoist3.fmu
examples/wire-hoist').
"""
import math
import os
import struct
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "clients", "python"))
sys.path.insert(0, HERE)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402
import fmutestlib  # noqa: E402

# examples/wire-hoist: four falls, a 20 t load, a 500 kg block with two
# 80 kg hook sheaves, a 20 mm rope of density 6370 kg/m3, sheave and drum
# radius 0.4 m.
G, FALLS, H = 9.81, 4, 1.0 / 60
HOOKED = (20000 + 500 + 2 * 80) * G
RHO = 6370 * math.pi * 0.01 ** 2  # kg/m
R = 0.4
TMP = None
FOLDERS = {}


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("wirehoist-test-", "examples/wire-hoist", "WireHoist")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


class Slave(fmutestlib.Slave):
    """A WireHoist instance that keeps its time."""

    def __init__(self, version, name="hoist"):
        super().__init__(version, FOLDERS[version], name)
        self.t = 0.0

    def run(self, seconds, h=H, **inputs):
        """Steps for the given seconds with the inputs held."""
        if inputs:
            self.set(list(inputs), list(inputs.values()))
        for _ in range(int(round(seconds / h))):
            self.s.do_step(self.t, h)
            self.t += h

    def ramp(self, speed, seconds=0.5, h=H):
        """Runs the winch speed linearly from its value to speed."""
        v0, = self.get(["winch.speed"])
        n = int(round(seconds / h))
        for k in range(1, n + 1):
            self.set(["winch.speed"], [v0 + (speed - v0) * k / n])
            self.s.do_step(self.t, h)
            self.t += h


OUTPUTS = (["suspension.fx", "suspension.fy", "suspension.fz", "cable.tension", "cable.length", "cable.massNodes",
            "cable.contactNodes", "drum.angle", "drum.omega", "drum.motorTorque", "drum.brakeTorque", "drum.wound",
            "hook.z", "hook.vz", "load.z", "ground.force"]
           + ["fall[%d].tension" % k for k in range(1, FALLS + 1)]
           + ["sheave[%d].omega" % k for k in range(1, FALLS + 1)])
# The wire's shape: 41 scalars x|y|z in FMI 2.0, one 41 x 3 array in FMI 3.0.
NODES = {2: ["cable.node[%d].%s" % (k, a) for k in range(1, 42) for a in "xyz"], 3: ["cable.node"]}


class WireHoistCase(fmutestlib.StatusAssertions, unittest.TestCase):
    VERSION = None

    def slave(self, name="hoist", parameters=None):
        s = Slave(self.VERSION, name).initialize(parameters)
        self.addCleanup(s.free)
        return s

    def outputs(self, s):
        return fmutestlib.bits(s.get(OUTPUTS + NODES[self.VERSION]))

    def test_ports(self):
        """The Hoist ports, the drum's, sheaves', falls' and hook's outputs and the wire's shape are declared."""
        md = self.slave().s.md
        names = set(md.variables)
        want = (["suspension." + a for a in ("x", "y", "z", "vx", "vy", "vz", "fx", "fy", "fz")]
                + ["winch.speed", "winch.brake", "cable.tension", "cable.length", "drum.angle", "drum.omega",
                   "drum.motorTorque", "drum.brakeTorque", "drum.wound", "hook.z", "ground.force",
                   "load.mass", "brake.holdingTorque", "motor.torqueLimit"] + NODES[self.VERSION][-1:]
                + ["fall[%d].tension" % k for k in range(1, FALLS + 1)]
                + ["sheave[%d].omega" % k for k in range(1, FALLS + 1)])
        self.assertFalse([n for n in want if n not in names], "missing ports")
        self.assertNotIn("cable.node[42].x", names)
        if self.VERSION == 3:
            self.assertEqual(tuple(md.variables["cable.node"].shape), (41, 3), "cable.node is K x 3")

    def test_statics_and_boom_tip_force(self):
        """At rest each fall carries W/n + rho g L/2 within 1 %; the boom tip carries more than the hooked
        weight and the falls' (the boom sheaves, the lead) and the lead pulls it back towards the drum."""
        s = self.slave()
        s.run(3)
        falls = s.get(["fall[%d].tension" % k for k in range(1, FALLS + 1)])
        want = HOOKED / FALLS + RHO * G * 40 / 2
        for k, T in enumerate(falls):
            self.assertLess(abs(T / want - 1), 0.01, "fall %d carries %.0f N, want %.0f within 1 %%" % (k + 1, T, want))
        fx, fz, drum = s.get(["suspension.fx", "suspension.fz", "cable.tension"])
        self.assertLess(fz, -(HOOKED + RHO * G * FALLS * 40), "boom tip carries %.0f N" % -fz)
        self.assertLess(fx, 0, "the lead pulls the boom tip back towards the drum")
        self.assertLess(abs(drum / want - 1), 0.02, "tension at the drum %.0f N vs the falls' %.0f N" % (drum, want))

    def test_winch_hook_and_sheaves(self):
        """Hauling in at 1.2 m/s the hook rises at 0.3 m/s and the drum turns at -v/R within 1 %;
        with the brake engaged the drum stops and the brake holds the load's moment."""
        s = self.slave()
        s.run(1)
        s.ramp(-1.2)
        s.run(2)
        z0, = s.get(["hook.z"])
        s.run(2)
        z1, omega, sheave1, length0 = s.get(["hook.z", "drum.omega", "sheave[1].omega", "cable.length"])
        vz = (z1 - z0) / 2  # the mean over 2 s: the start of the haul set the hook bouncing
        self.assertLess(abs(vz / 0.3 - 1), 0.01, "hook rises at %.4f m/s, want 0.3" % vz)
        self.assertLess(abs(omega / (-1.2 / R) - 1), 0.01, "drum turns at %.4f rad/s, want %.4f" % (omega, -1.2 / R))
        self.assertLess(abs(abs(sheave1) / (1.2 / R) - 1), 0.01, "boom sheave 1 turns at %.4f rad/s" % sheave1)
        s.run(1)
        self.assertLess(abs((length0 - s.get(["cable.length"])[0]) / 1.2 - 1), 0.01, "paid-out length shrinks at 1.2 m/s")
        s.ramp(0.0)
        s.run(1, **{"winch.brake": 1.0})
        s.run(3)
        omega, brake, tension = s.get(["drum.omega", "drum.brakeTorque", "cable.tension"])
        self.assertLess(abs(omega), 1e-3, "braked drum turns at %.4g rad/s" % omega)
        self.assertLess(abs(abs(brake) / (R * tension) - 1), 0.05,
                        "brake holds %.0f N m against the wire's %.0f N m" % (brake, R * tension))

    def set_down(self, s, check=None):
        """Pays out at 2 m/s until the ground carries half the load, 0.5 s more, then stops the winch."""
        s.ramp(2.0)
        for _ in range(2000):
            if s.get(["ground.force"])[0] > 0.5 * HOOKED:
                break
            s.run(H)
            if check:
                check()
        else:
            self.fail("the load never reached the ground")
        s.run(0.5)
        s.ramp(0.0, 0.5)

    def test_set_down_and_lift(self):
        """The load rests on the ground within 1 cm carrying 95 % of the hooked weight (mean over 3 s),
        the wire goes slack at the drum, and hauled in
        again each fall's tension returns to W/n + rho g L/2 within 2 % (mean over 3 s)."""
        s = self.slave(parameters={"cable.length0": 46.0})
        s.run(1)
        self.set_down(s)
        s.run(2)
        ground, n = 0.0, 0
        for _ in range(180):
            s.run(H)
            ground, n = ground + s.get(["ground.force"])[0], n + 1
        ground /= n
        load, drum = s.get(["load.z", "cable.tension"])
        self.assertLess(abs(load - 1.0), 0.01, "load centre at %.4f m, want 1 m (resting)" % load)
        self.assertGreater(ground, 0.95 * HOOKED, "ground carries %.0f of %.0f N" % (ground, HOOKED))
        self.assertLess(drum, 0.1 * HOOKED / FALLS, "the wire at the drum carries %.0f N set down" % drum)
        s.ramp(-1.2)
        s.run(4)
        s.ramp(0.0)
        s.run(3)
        mean, n = [0.0] * FALLS, 0
        for _ in range(180):
            s.run(H)
            for k, T in enumerate(s.get(["fall[%d].tension" % k for k in range(1, FALLS + 1)])):
                mean[k] += T
            n += 1
        hook, = s.get(["hook.z"])
        want = HOOKED / FALLS + RHO * G * (50 - hook) / 2
        for k in range(FALLS):
            self.assertLess(abs(mean[k] / n / want - 1), 0.02, "fall %d: %.0f N, want %.0f" % (k + 1, mean[k] / n, want))

    def test_state_rollback_across_set_down(self):
        """A state saved just before the load touches down (the wire then goes slack and refines)
        replays bitwise in the same instance and, serialized, in a fresh one."""
        s = self.slave(parameters={"cable.length0": 46.0})
        s.run(1)
        s.ramp(2.0)
        while s.get(["load.z"])[0] > 1.15:
            s.run(H)
        t0 = s.t
        state = s.s.get_fmu_state()
        blob = s.s.serialize_fmu_state(state)

        def settle(slave):
            """The winch slows from 2 m/s to rest over 2 s, then 1 s at rest: the outputs of each step."""
            slave.t, rows, nodes = t0, [], []
            for k in range(180):
                slave.set(["winch.speed"], [2.0 * max(0.0, 1 - (k + 1) / 120)])
                slave.run(H)
                rows.append(self.outputs(slave))
                nodes.append(slave.get(["cable.massNodes"])[0])
            return rows, nodes

        first, nodes = settle(s)
        self.assertNotEqual(min(nodes), max(nodes), "the resolution changes across the set-down: %r" % nodes[::10])
        self.assertGreater(s.get(["ground.force"])[0], 0, "the load is down")
        s.s.set_fmu_state(state)
        again, _ = settle(s)
        fresh = self.slave("fresh", parameters={"cable.length0": 46.0})
        fresh.s.set_fmu_state(fresh.s.deserialize_fmu_state(blob))
        thawed, _ = settle(fresh)
        for k in range(len(first)):
            self.assertEqual(again[k], first[k], "restored run differs at step %d" % (k + 1))
            self.assertEqual(thawed[k], first[k], "deserialized run differs at step %d" % (k + 1))
        s.s.free_fmu_state(state)

    def test_state_with_unreevable_input_restores(self):
        """A state saved after the boom tip's input was set beyond reeving (not stepped to) loads into a
        fresh instance, and with the input set back both instances go on bitwise alike."""
        s = self.slave()
        s.run(0.5)
        s.set(["suspension.x"], [-40.0])
        blob = s.s.serialize_fmu_state(s.s.get_fmu_state())
        fresh = self.slave("fresh")
        fresh.s.set_fmu_state(fresh.s.deserialize_fmu_state(blob))
        for slave in (s, fresh):
            slave.set(["suspension.x"], [0.0])
            slave.t = 0.5
        for k in range(30):
            s.run(H)
            fresh.run(H)
            self.assertEqual(self.outputs(fresh), self.outputs(s), "the restored instance differs at step %d" % (k + 1))

    def test_bad_values_refused(self):
        s = Slave(self.VERSION, "bad")
        self.addCleanup(s.free)
        for name, x in (("load.mass", float("nan")), ("load.mass", -1.0), ("internalStep", 0.0), ("cable.length0", 0.0),
                        ("brake.holdingTorque", -5.0), ("winch.speed", float("inf"))):
            self.assertFails(lambda: s.set([name], [x]), "%s = %r" % (name, x), mentions=[name])
        # The brake is a switch (Boolean), the node counts Integer: the Real
        # functions refuse them, naming the functions of their types.
        real_set = s.s.set_real if self.VERSION == 2 else s.s.set_float64
        real_get = s.s.get_real if self.VERSION == 2 else s.s.get_float64
        self.assertFails(lambda: real_set(["winch.brake"], [1.0]), "winch.brake through the Real setter",
                         mentions=["winch.brake", "SetBoolean"])
        s.initialize()
        self.assertFails(lambda: real_get(["cable.massNodes"]), "cable.massNodes through the Real getter",
                         mentions=["cable.massNodes", "GetInt"])
        self.assertFails(lambda: s.s.do_step(0.0, -H), "a negative communication step")
        values = s.get(OUTPUTS)
        self.assertTrue(all(math.isfinite(v) for v in values), "outputs finite after refused calls")

    def test_unreevable_boom_tip_refused(self):
        """A boom tip behind the drum cannot be reeved: initialization fails with the reason."""
        s = Slave(self.VERSION, "behind")
        self.addCleanup(s.free)
        s.set(["suspension.x"], [-40.0])
        self.assertFails(lambda: s.initialize(), "boom tip behind the drum", mentions=["drum"])

    def test_damaged_state_refused_and_instance_unchanged(self):
        s = self.slave()
        s.run(0.5)
        before = self.outputs(s)
        state = s.s.get_fmu_state()
        blob = bytearray(s.s.serialize_fmu_state(state))
        for cut in (len(blob) // 2, len(blob) - 8):
            self.assertFails(lambda: s.s.deserialize_fmu_state(bytes(blob[:cut])),
                             "deserializing a state cut to %d of %d bytes" % (cut, len(blob)))
        self.assertEqual(self.outputs(s), before, "a refused state changed the instance")
        s.s.free_fmu_state(state)

    def trajectory(self, s):
        rows = []
        s.run(0.5)
        s.ramp(-1.0, 0.5)
        for k in range(60):
            s.set(["suspension.x", "suspension.vx"], [0.5 * s.t, 0.5])
            s.run(H)
            rows.append(self.outputs(s))
        return rows

    def test_threads_match_sequential_bitwise(self):
        """Three instances stepped in three threads at once give the sequential run's bits."""
        reference = self.trajectory(self.slave("sequential"))
        slaves = [self.slave("thread%d" % i) for i in range(3)]
        results, errors = [None] * 3, []
        barrier = threading.Barrier(3)

        def work(i):
            try:
                barrier.wait(timeout=60)
                results[i] = self.trajectory(slaves[i])
            except BaseException as e:  # reported below
                errors.append("thread %d: %r" % (i, e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=300)
        self.assertFalse(any(th.is_alive() for th in threads), "a stepping thread did not finish within 300 s")
        self.assertFalse(errors, "errors in threads: %s" % errors)
        for i, rows in enumerate(results):
            for k, (a, b) in enumerate(zip(rows, reference)):
                self.assertEqual(a, b, "thread %d differs from the sequential run at step %d" % (i, k + 1))


class TestWireHoistFMI2(WireHoistCase):
    VERSION = 2
    FMI = fmi2


class TestWireHoistFMI3(WireHoistCase):
    VERSION = 3
    FMI = fmi3


del WireHoistCase

if __name__ == "__main__":
    unittest.main()
