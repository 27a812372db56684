"""Python plugins inside the FMU, from outside Go through ctypes.

Run with HOISTCONTROLLED_FMU=out/HoistControlled.fmu
('go run ./build export -o out/HoistControlled.fmu examples/massless-controlled'),
PLUGINFAULTS_FMU=out/PluginFaults.fmu and PLUGINFAULTS3_FMU=out/PluginFaults3.fmu
('go run ./build [-fmi 3] -o ... scripts/fmutest/plugin-faults').
"""
import math
import os
import time
import unittest

import fmutestlib
from fmutestlib import bits
from cablefmu import fmi2  # noqa: E402  (fmutestlib put the bindings on sys.path)
from cablefmu import fmi3  # noqa: E402

TMP = None
FOLDERS = {}
H = 1.0 / 60


def setUpModule():
    global TMP
    TMP = fmutestlib.make_tmp("plugins-test-")
    for env, build in (("HOISTCONTROLLED_FMU", "go run ./build export -o out/HoistControlled.fmu examples/massless-controlled"),
                       ("PLUGINFAULTS_FMU", "go run ./build export -o out/PluginFaults.fmu scripts/fmutest/plugin-faults"),
                       ("PLUGINFAULTS3_FMU", "go run ./build export -fmi 3 -o out/PluginFaults3.fmu scripts/fmutest/plugin-faults")):
        problem = fmutestlib.fmu_path_problem(env, build)
        if problem:
            raise RuntimeError(problem)
        FOLDERS[env] = fmi2.unzip(os.environ[env], os.path.join(TMP, env))


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def controlled(name="hoist", parameters=None):
    s = fmi2.FMU2Slave(FOLDERS["HOISTCONTROLLED_FMU"], name)
    s.instantiate()
    s.initialize(parameters=parameters)
    return s


def gust(t):
    """Wind speed along x: a 12 m/s gust from 6 s to 10 s with 1 s ramps."""
    if t < 6 or t > 10:
        return 0.0
    return 12.0 * min(1.0, t - 6, 10 - t)


OUTS = ["load.z", "load.x", "cable.tension", "controller.reference", "controller.error", "wind.force"]


def lift(s, seconds=20.0):
    """Run the lift with the gust; return the rows of OUTS after each step."""
    rows = []
    t = 0.0
    for _ in range(int(round(seconds / H))):
        s.set_real(["wind.speed"], [gust(t)])
        s.do_step(t, H)
        t += H
        rows.append(s.get_real(OUTS))
    return rows


class TestControlledHoist(unittest.TestCase):
    def test_controller_follows_profile_under_tension_limit_in_wind(self):
        s = controlled()
        try:
            z0, limit = s.get_real(["load.z", "controller.tension_limit"])
            rows = lift(s)
            worst = max(abs(r[4]) for r in rows)
            peak = max(r[2] for r in rows)
            push = max(abs(r[5]) for r in rows)
            sway = max(abs(r[1]) for r in rows)
            self.assertLess(worst, 0.03, "tracking error %.4f m, want within 3 cm" % worst)
            self.assertLess(peak, limit, "tension %.0f N, limit %.0f N" % (peak, limit))
            self.assertAlmostEqual(rows[-1][0] - z0, 5.0, delta=0.01, msg="lifted 5 m")
            # Drag ½ρ C_d A v² of the 12 m/s gust on the 2 m² load: 211.7 N at most.
            self.assertGreater(push, 150.0, "wind force %.1f N" % push)
            self.assertLess(push, 0.5 * 1.225 * 1.2 * 2.0 * 144 * 1.001, "wind force %.1f N" % push)
            self.assertGreater(sway, 0.02, "the gust displaces the load (%.3f m)" % sway)
        finally:
            s.terminate()
            s.free()

    def test_heavy_load_held_under_limit(self):
        s = controlled(parameters={"load.mass": 1100.0, "controller.acceleration": 0.8})
        try:
            limit = s.get_real(["controller.tension_limit"])[0]
            peak = max(r[2] for r in lift(s))
            self.assertLess(peak, limit, "tension %.0f N with 1100 kg, limit %.0f N" % (peak, limit))
        finally:
            s.free()

    def test_two_instances_with_different_parameters_stay_independent(self):
        solo = {}
        for lift_m in (3.0, 5.0):
            s = controlled("solo", {"controller.lift": lift_m})
            try:
                solo[lift_m] = lift(s, 8.0)
            finally:
                s.free()
        a = controlled("a", {"controller.lift": 3.0})
        b = controlled("b", {"controller.lift": 5.0})
        try:
            ra, rb = [], []
            t = 0.0
            for _ in range(int(round(8.0 / H))):
                for s, rows in ((a, ra), (b, rb)):
                    s.set_real(["wind.speed"], [gust(t)])
                    s.do_step(t, H)
                    rows.append(s.get_real(OUTS))
                t += H
            self.assertEqual(bits(sum(ra, [])), bits(sum(solo[3.0], [])), "instance a equals its solo run")
            self.assertEqual(bits(sum(rb, [])), bits(sum(solo[5.0], [])), "instance b equals its solo run")
            self.assertNotEqual(ra[-1][3], rb[-1][3], "the references differ")
        finally:
            a.free()
            b.free()

    def test_rollback_with_plugin_state_is_bitwise_exact(self):
        s = controlled()
        try:
            t = 0.0
            for _ in range(240):
                s.set_real(["wind.speed"], [gust(t)])
                s.do_step(t, H)
                t += H
            state = s.get_fmu_state()
            blob = s.serialize_fmu_state(state)

            def run_on(slave, t):
                rows = []
                for _ in range(360):
                    slave.set_real(["wind.speed"], [gust(t)])
                    slave.do_step(t, H)
                    t += H
                    rows.append(slave.get_real(OUTS))
                return rows

            first = run_on(s, t)
            s.set_fmu_state(state)
            again = run_on(s, t)
            self.assertEqual(bits(sum(again, [])), bits(sum(first, [])), "rollback replays bitwise")
            s.free_fmu_state(state)

            fresh = controlled("fresh")
            try:
                restored = fresh.deserialize_fmu_state(blob)
                fresh.set_fmu_state(restored)
                self.assertEqual(bits(sum(run_on(fresh, t), [])), bits(sum(first, [])),
                                 "a serialized state replays bitwise in another instance")
                fresh.free_fmu_state(restored)
            finally:
                fresh.free()
        finally:
            s.free()


class FaultsMixin(fmutestlib.StatusAssertions):
    """The PluginFaults FMU in one standard: ``new(mode, parameters)`` returns an initialized slave."""

    def step_until_error(self, s):
        t = 0.0
        for _ in range(100):
            try:
                s.do_step(t, 0.01)
            except self.FMI.FMIError as e:
                return t, e
            t += 0.01
        self.fail("no error in 1 s of a faulty plugin")

    def logged(self, s):
        return "\n".join(text for _, _, text in s.messages)

    def test_exception_gives_error_with_traceback(self):
        s = self.new(1)
        try:
            t, err = self.step_until_error(s)
            self.assertEqual(err.status, self.FMI.ERROR, self.sname(err.status))
            self.assertAlmostEqual(t, 0.5, delta=0.011, msg="the fault starts at 0.5 s")
            log = self.logged(s)
            for want in ("Traceback (most recent call last):", 'File "faults.py", line 24, in step',
                         'File "faults.py", line 15, in divide', "ZeroDivisionError"):
                self.assertIn(want, log)
            with self.assertRaises(self.FMI.FMIError):
                s.do_step(t, 0.01)  # the instance stays in the error state
        finally:
            s.free()

    def test_endless_loop_stopped_at_its_operations_budget(self):
        """The budget is counted, not timed: two runs stop at the same time with the same message."""
        stops = []
        for _ in range(2):
            s = self.new(2)
            try:
                t, err = self.step_until_error(s)
                self.assertAlmostEqual(t, 0.5, delta=0.011, msg="the fault starts at 0.5 s")
                self.assertEqual(err.status, self.FMI.ERROR)
                log = self.logged(s)
                self.assertIn("step() in faults.py ran past its budget of 200000 operations (parameter "
                              "faulty.operations) and was stopped at faults.py:27", log)
                stops.append((t, log))
            finally:
                s.free()
        self.assertEqual(stops[0], stops[1])

    def test_wall_clock_timeout_is_the_last_guard(self):
        """With an operations budget it will not reach, the loop is stopped by its timeout."""
        s = self.new(2, {"faulty.operations": 1e12, "faulty.timeout": 0.2})
        try:
            t0 = time.monotonic()
            t, err = self.step_until_error(s)
            took = time.monotonic() - t0
            self.assertEqual(err.status, self.FMI.ERROR)
            self.assertIn("ran past its wall-clock timeout of 200ms (parameter faulty.timeout)", self.logged(s))
            self.assertGreaterEqual(took, 0.2, "ran its timeout (%.3f s)" % took)
        finally:
            s.free()

    def test_exhausting_stack_or_memory_gives_error_and_the_host_lives_on(self):
        for mode, line, want in ((3, 31, "RecursionError: a list that contains itself"),
                                 (4, 33, "MemoryError: the result of * would need about 1.6e+05 MB"),
                                 (5, 35, "MemoryError: the power would have about 3.32e+08 bits"),
                                 (6, 39, "MemoryError: the result of * would need about")):
            with self.subTest(mode=mode):
                s = self.new(mode)
                try:
                    t, err = self.step_until_error(s)
                    self.assertEqual(err.status, self.FMI.ERROR, self.sname(err.status))
                    self.assertAlmostEqual(t, 0.5, delta=0.011, msg="the fault starts at 0.5 s")
                    log = self.logged(s)
                    self.assertIn('File "faults.py", line %d, in step' % line, log)
                    self.assertIn(want, log)
                finally:
                    s.free()

    def test_reset_after_fault_runs_again(self):
        s = self.new(1)
        try:
            self.step_until_error(s)
            s.reset()
            if self.FMI is fmi2:
                s.initialize(parameters={"faulty.fault_time": 100.0})
            else:
                s.initialize(parameters={"faulty.fault_time": 100.0})
            for k in range(10):
                s.do_step(k * 0.01, 0.01)
            calls = s.get_real(["faulty.calls"])[0] if self.FMI is fmi2 else s.get_float64(["faulty.calls"])[0]
            self.assertEqual(calls, 10.0, "a reset instance starts its plugin afresh")
        finally:
            s.free()


class TestFaults2(FaultsMixin, unittest.TestCase):
    FMI = fmi2

    def new(self, mode, parameters=None):
        s = fmi2.FMU2Slave(FOLDERS["PLUGINFAULTS_FMU"], "faults")
        s.instantiate(logging_on=True)
        return s.initialize(parameters=dict(parameters or {}, **{"faulty.mode": float(mode)}))


class TestFaults3(FaultsMixin, unittest.TestCase):
    FMI = fmi3

    def new(self, mode, parameters=None):
        s = fmi3.FMU3Slave(FOLDERS["PLUGINFAULTS3_FMU"], "faults")
        s.instantiate_co_simulation(logging_on=True)
        return s.initialize(parameters=dict(parameters or {}, **{"faulty.mode": float(mode)}))


if __name__ == "__main__":
    unittest.main()
