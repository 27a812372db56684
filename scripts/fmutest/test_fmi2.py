"""FMI 2.0 Co-Simulation conformance and behaviour tests for the Hoist FMU.

Run from the repository root:

    go run ./build export -o out/Hoist.fmu examples/massless
    HOIST_FMU=out/Hoist.fmu python3 -m unittest discover -s scripts/fmutest -v

The tests drive the FMU binary through the ctypes binding in
examples/clients/python/cablefmu/fmi2.py.  The FMU is unpacked once into a temporary
folder and its binary is loaded once for the whole test process (each load
from a new path would start another Go runtime in the process).  Tests that
must survive a crash of the binary, or that unload it, run in a subprocess.
"""

import ctypes
import functools
import math
import os
import shutil
import struct
import subprocess
import sys
import textwrap
import threading
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fmutestlib import BINDING_DIR, INPUTS, OUTPUTS, REPO, bits  # noqa: E402
import fmutestlib  # noqa: E402
from cablefmu import fmi2  # noqa: E402

sname = functools.partial(fmutestlib.status_name, fmi2)  # name of an fmi2Status (None: NULL)
C_MASTER = os.path.join(REPO, "examples", "clients", "c", "fmi2_master.c")
COSIM_SCRIPT = os.path.join(REPO, "examples", "clients", "python", "hoist_cosim.py")
REST = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0]  # suspension point still at z = 20 m
TENSION_TOL = 0.005  # relative tolerance of tension at rest against m*g

FMU_PATH = None
TMP = None
FOLDER = None
MD = None


def setUpModule():
    global FMU_PATH, TMP, FOLDER, MD
    problem = fmutestlib.fmu_path_problem("HOIST_FMU", "go run ./build export -o out/Hoist.fmu examples/massless")
    if problem:
        raise RuntimeError(problem + "\nthen run: HOIST_FMU=out/Hoist.fmu "
                           "python3 -m unittest discover -s scripts/fmutest -v")
    FMU_PATH = os.environ["HOIST_FMU"]
    TMP = fmutestlib.make_tmp("hoist-fmutest-")
    FOLDER = fmi2.unzip(FMU_PATH, os.path.join(TMP, "Hoist"))
    MD = fmi2.read_model_description(FOLDER)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def motion_inputs(t):
    """A smooth, consistent suspension-point motion plus winch action."""
    w = 0.8
    x = 0.5 * math.sin(w * t)
    vx = 0.5 * w * math.cos(w * t)
    y = 0.2 * (1.0 - math.cos(w * t))
    vy = 0.2 * w * math.sin(w * t)
    ws = 0.3 if 0.5 <= t < 1.5 else 0.0
    return [x, y, 20.0, vx, vy, 0.0, ws]


class FMUTestCase(fmutestlib.StatusAssertions, unittest.TestCase):
    """Helpers shared by the tests."""

    FMI = fmi2

    def new_slave(self, name="hoist", instantiate=True, logging_on=False):
        slave = fmi2.FMU2Slave(FOLDER, instance_name=name, model_description=MD)
        if instantiate:
            slave.instantiate(logging_on=logging_on)
            self.addCleanup(slave.free)
        return slave

    def ready_slave(self, name="hoist", params=None, inputs=REST):
        """An instance in step mode with the suspension point at rest at z = 20 m."""
        slave = self.new_slave(name)
        slave.setup_experiment(start_time=0.0)
        if params:
            slave.set_real(list(params), list(params.values()))
        slave.enter_initialization_mode()
        slave.set_real(INPUTS, inputs)
        slave.exit_initialization_mode()
        return slave

    def run_steps(self, slave, steps, inputs_at=lambda t: REST, t0=0.0):
        """Step through the list of step sizes; return the outputs after each step."""
        t = t0
        rows = []
        for h in steps:
            slave.set_real(INPUTS, inputs_at(t))
            slave.do_step(t, h)
            t += h
            out = slave.get_real(OUTPUTS)
            self.assertFinite(out, "outputs after step to t=%.6g" % t)
            rows.append(out)
        return rows

    def assertFinite(self, values, what):
        bad = [(n, v) for n, v in zip(OUTPUTS if len(values) == len(OUTPUTS) else range(len(values)), values)
               if not math.isfinite(v)]
        if bad:
            self.fail("%s: non-finite values %s" % (what, bad))

    def assertTensionIsWeight(self, slave, what):
        tension, mass, g = slave.get_real(["cable.tension", "load.mass", "gravity"])
        mg = mass * g
        rel = (tension - mg) / mg
        self.assertLessEqual(abs(rel), TENSION_TOL,
                             "%s: tension %.6g N vs m*g %.6g N, deviation %.4f %% > %.2f %%"
                             % (what, tension, mg, 100 * rel, 100 * TENSION_TOL))
        return tension

    def assertRawFails(self, slave, name, *args):
        """A raw call (status returned, not raised) must give fmi2Error and log a message naming it."""
        logged = super().assertRawFails(slave, name, *args)
        self.assertTrue(any(name in text for _, _, text in logged),
                        "%s: the logged reason does not name the function: %r" % (name, logged))
        return logged


class TestDescriptionAndBinary(FMUTestCase):

    def test_binary_exports_all_44_functions(self):
        lib = fmi2.load_library(fmi2.binary_path(FOLDER, MD.model_identifier))
        self.assertEqual(len(fmi2.FUNCTION_NAMES), 44)
        self.assertEqual(lib.fmi2_missing, [], "functions not exported: %s" % lib.fmi2_missing)

    def test_version_and_types_platform(self):
        slave = self.new_slave(instantiate=False)
        self.assertEqual(slave.version(), "2.0")
        self.assertEqual(slave.types_platform(), "default")

    def test_model_description(self):
        self.assertEqual(MD.fmi_version, "2.0")
        self.assertEqual(MD.model_identifier, "Hoist")
        self.assertTrue(MD.guid, "guid is empty")
        self.assertDeclared(MD, fmutestlib.DECLARED, "Real")
        vrs = [v.value_reference for v in MD.variables.values() if v.type == "Real"]
        self.assertEqual(len(vrs), len(set(vrs)), "Real value references are not unique")
        self.assertEqual(MD.variables["load.mass"].start, 1000.0)
        self.assertEqual(MD.variables["cable.length0"].start, 10.0)
        self.assertEqual(MD.variables["gravity"].start, 9.81)


class TestLifecycle(FMUTestCase):

    def test_full_lifecycle(self):
        slave = self.new_slave()
        slave.setup_experiment(start_time=0.0, stop_time=1.0)
        slave.enter_initialization_mode()
        slave.set_real(INPUTS, REST)
        slave.exit_initialization_mode()
        self.assertFinite(slave.get_real(OUTPUTS), "outputs after initialization")
        rows = self.run_steps(slave, [0.01] * 100)
        self.assertEqual(len(rows), 100)
        self.assertTensionIsWeight(slave, "after 100 steps at rest")
        slave.terminate()
        slave.free()
        self.assertIsNone(slave.component)

    def test_initial_static_equilibrium(self):
        slave = self.ready_slave()
        out = dict(zip(OUTPUTS, slave.get_real(OUTPUTS)))
        self.assertTensionIsWeight(slave, "right after initialization")
        for name in ("load.vx", "load.vy", "load.vz"):
            self.assertLess(abs(out[name]), 1e-6, "%s = %g, load not at rest after initialization" % (
                name, out[name]))
        self.assertLess(abs(out["load.x"]), 1e-9, "load.x = %g, expected directly below x = 0" % out["load.x"])
        self.assertLess(abs(out["load.y"]), 1e-9, "load.y = %g, expected directly below y = 0" % out["load.y"])
        length0 = slave.get_real(["cable.length0"])[0]
        drop = 20.0 - out["load.z"]
        self.assertGreaterEqual(drop, length0 * (1 - 1e-9),
                                "load hangs %.6g m below the suspension point, less than cable.length0 = %g m"
                                % (drop, length0))
        self.assertLess(drop, length0 * 1.05, "load hangs %.6g m below the suspension point (length0 %g m)"
                        % (drop, length0))
        self.assertLess(out["suspension.fz"], 0.0, "suspension.fz = %g, the cable must pull the crane down" % out["suspension.fz"])
        self.assertLess(abs(out["suspension.fx"]) + abs(out["suspension.fy"]), 1e-6 * abs(out["suspension.fz"]),
                        "horizontal force at rest: fx = %g, fy = %g" % (out["suspension.fx"], out["suspension.fy"]))

    def test_winch_changes_cable_length(self):
        slave = self.ready_slave()
        length_before = slave.get_real(["cable.length"])[0]
        paid = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.5]
        self.run_steps(slave, [0.01] * 100, inputs_at=lambda t: paid)
        length_after = slave.get_real(["cable.length"])[0]
        self.assertAlmostEqual(length_after - length_before, 0.5, delta=0.005,
                               msg="paying out 0.5 m/s for 1 s changed cable.length by %.6g m (expected 0.5 +- 0.005)"
                               % (length_after - length_before))

    def test_velocity_inputs_move_suspension_point(self):
        # The trolley runs at 1 m/s from rest, sampled every internal step
        # h (positions and velocities set consistently): the load is dragged
        # along and the lagging load pulls the crane back; a master that
        # cuts each step into thirds, setting the same samples at the grid
        # points and again, unchanged, between them, gets every output
        # identical to the bit (the path depends on the samples, and steps
        # below the internal step change nothing).
        h = MD.variables["internalStep"].start
        results = []
        for cuts in (1, 3):
            slave = self.ready_slave("cuts-of-%d" % cuts)
            t = 0.0
            for k in range(60):
                for c in range(cuts):
                    slave.set_real(INPUTS, [k * h, 0.0, 20.0, 1.0, 0.0, 0.0, 0.0])
                    slave.do_step(t, h / cuts)
                    t += h / cuts
            results.append(dict(zip(OUTPUTS, slave.get_real(OUTPUTS))))
        one, three = results
        self.assertGreater(one["load.x"], 0.05, "load.x = %g after 1 s: the load was not dragged along" % one["load.x"])
        self.assertLess(one["suspension.fx"], -100.0, "suspension.fx = %g N: the lagging load should pull the crane back"
                        % one["suspension.fx"])
        self.assertEqual(bits([one[n] for n in OUTPUTS]), bits([three[n] for n in OUTPUTS]),
                         "steps of h and of h/3 with the same samples:\n%r\n%r" % (one, three))

    def test_reset_gives_identical_results(self):
        slave = self.new_slave()

        def one_run():
            slave.setup_experiment(start_time=0.0)
            slave.enter_initialization_mode()
            slave.set_real(INPUTS, motion_inputs(0.0))
            slave.exit_initialization_mode()
            rows = [slave.get_real(OUTPUTS)]
            rows += self.run_steps(slave, [0.01] * 100, inputs_at=motion_inputs)
            return rows

        first = one_run()
        slave.terminate()
        slave.reset()
        second = one_run()
        for i, (a, b) in enumerate(zip(first, second)):
            self.assertEqual(bits(a), bits(b), "row %d differs after fmi2Reset:\n%r\n%r" % (i, a, b))

    def test_reset_restores_parameters(self):
        slave = self.new_slave()
        slave.setup_experiment(start_time=0.0)
        slave.set_real(["load.mass"], [2000.0])
        slave.enter_initialization_mode()
        slave.set_real(INPUTS, REST)
        slave.exit_initialization_mode()
        slave.terminate()
        slave.reset()
        slave.setup_experiment(start_time=0.0)
        slave.enter_initialization_mode()
        slave.set_real(INPUTS, REST)
        slave.exit_initialization_mode()
        mass = slave.get_real(["load.mass"])[0]
        self.assertEqual(mass, MD.variables["load.mass"].start,
                         "load.mass after fmi2Reset is %g, expected the start value %g"
                         % (mass, MD.variables["load.mass"].start))

    def test_outputs_never_nan(self):
        slave = self.ready_slave(inputs=motion_inputs(0.0))
        self.run_steps(slave, [0.01] * 300, inputs_at=motion_inputs)
        # emergency stop: the suspension point halts where it is, the winch hauls in fast
        x, y, z = motion_inputs(3.0)[:3]
        stop = [x, y, z, 0.0, 0.0, 0.0, -2.0]
        self.run_steps(slave, [0.01] * 100, inputs_at=lambda t: stop, t0=3.0)

    def test_input_derivatives_accepted(self):
        # The suspension point follows the master's samples one step (and
        # one internal step) late; derivatives of the velocity inputs
        # extrapolate them, with no lag. A derivative of a position input
        # has no effect where the master drives the velocity. Derivatives
        # apply to the next step only.
        if not MD.can_interpolate_inputs:
            self.skipTest("the FMU does not declare canInterpolateInputs")

        def one_step(name, vx, derivatives):
            slave = self.ready_slave(name)
            slave.set_real(INPUTS, [0.0, 0.0, 20.0, vx, 0.0, 0.0, 0.0])
            if derivatives:
                slave.set_real_input_derivatives(list(derivatives), [1] * len(derivatives), list(derivatives.values()))
            slave.do_step(0.0, 1.0)
            return dict(zip(OUTPUTS, slave.get_real(OUTPUTS)))

        def assertSame(got, want, what):
            for name in OUTPUTS:
                self.assertEqual(bits([got[name]]), bits([want[name]]),
                                 "%s: %s = %r, want %r" % (what, name, got[name], want[name]))

        # d(suspension.x)/dt with suspension.vx = 0: the point stays put for the step
        rest = one_step("rest", 0.0, {})
        assertSame(one_step("xdot-only", 0.0, {"suspension.x": 1.0}), rest,
                   "suspension.x = 0, d(suspension.x)/dt = 1 m/s, suspension.vx = 0, one step of 1 s vs. no input change")
        # ... and with suspension.vx = 1 m/s it moves with the velocity alone
        moving = one_step("vx", 1.0, {})
        self.assertLess(moving["suspension.fx"], -100.0, "suspension.vx = 1 m/s for 1 s: suspension.fx = %g N, the lagging load "
                        "should pull the crane back" % moving["suspension.fx"])
        assertSame(one_step("vx-and-xdot", 1.0, {"suspension.x": 1.0}), moving,
                   "suspension.vx = 1 m/s with d(suspension.x)/dt = 1 m/s vs. without the derivative")

        # d(suspension.vx)/dt = a over steps of 1 s: the point runs along
        # x = a*t^2/2 as a master stepping at h with the same derivatives
        # moves it (the path's cubics are exact on a parabola).
        a = 0.6
        h = MD.variables["internalStep"].start
        ref = self.ready_slave("reference")
        expected = []
        for k in range(120):
            t = k * h
            ref.set_real(INPUTS, [0.5 * a * t * t, 0.0, 20.0, a * t, 0.0, 0.0, 0.0])
            ref.set_real_input_derivatives(["suspension.vx"], [1], [a])
            ref.do_step(t, h)
            if k in (59, 119):
                expected.append(dict(zip(OUTPUTS, ref.get_real(OUTPUTS))))

        def accelerate(name, second_derivative):
            slave = self.ready_slave(name)
            slave.set_real(INPUTS, [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0])
            slave.set_real_input_derivatives(["suspension.vx"], [1], [a])
            slave.do_step(0.0, 1.0)
            first = dict(zip(OUTPUTS, slave.get_real(OUTPUTS)))
            slave.set_real(INPUTS, [0.5 * a, 0.0, 20.0, a, 0.0, 0.0, 0.0])
            if second_derivative is not None:
                slave.set_real_input_derivatives(["suspension.vx"], [1], [second_derivative])
            slave.do_step(1.0, 1.0)
            return first, dict(zip(OUTPUTS, slave.get_real(OUTPUTS)))

        def close(got, want):
            return all(abs(got[n] - want[n]) <= 1e-6 * max(1.0, abs(want[n])) for n in OUTPUTS)

        first, second = accelerate("accelerate", a)
        self.assertLess(first["suspension.fx"], -10.0, "d(suspension.vx)/dt = %g m/s2 for 1 s: suspension.fx = %g N, the lagging "
                        "load should pull the crane back" % (a, first["suspension.fx"]))
        for (got, want, when) in ((first, expected[0], "t = 1 s"), (second, expected[1], "t = 2 s")):
            for name in OUTPUTS:
                self.assertAlmostEqual(
                    got[name], want[name], delta=1e-6 * max(1.0, abs(want[name])),
                    msg="%s at %s: d(suspension.vx)/dt = %g m/s2 over 1 s steps gives %r, a master stepping at 1/60 s "
                        "with the same derivatives %r; tolerance 1e-6 rel." % (name, when, a, got[name], want[name]))
        # the derivative was not carried into the second step: without it
        # the second step follows the sample, a step late; a derivative set
        # to 0 is a derivative (the velocity extrapolated as held, no lag),
        # unlike none at all
        _, dropped = accelerate("accelerate-then-none", None)
        _, explicit_zero = accelerate("accelerate-then-zero", 0.0)
        self.assertFalse(close(dropped, second), "the second step without d(suspension.vx)/dt changed no output by more "
                                                 "than 1e-6 rel. from the one with it: %r" % (dropped,))
        self.assertFalse(close(explicit_zero, dropped), "d(suspension.vx)/dt = 0 set explicitly changed no output by "
                                                        "more than 1e-6 rel. from none set: %r" % (explicit_zero,))


class TestErrors(FMUTestCase):

    def test_set_real_rejects_nan_and_inf(self):
        for value in (float("nan"), float("inf"), float("-inf")):
            for mode in ("initialization", "step"):
                with self.subTest(value=value, mode=mode):
                    slave = self.new_slave()
                    slave.setup_experiment(start_time=0.0)
                    slave.enter_initialization_mode()
                    slave.set_real(INPUTS, REST)
                    if mode == "step":
                        slave.exit_initialization_mode()
                    self.assertFails(lambda: slave.set_real(["suspension.x"], [value]),
                                     "fmi2SetReal(suspension.x = %r) in %s mode" % (value, mode),
                                     mentions=["suspension.x"])
                    if mode == "step":
                        try:
                            out = slave.get_real(OUTPUTS)
                        except fmi2.FMIError:
                            continue  # the instance may refuse further calls after fmi2Error
                        self.assertFinite(out, "outputs after rejected fmi2SetReal(%r)" % value)

    def test_set_real_rejects_nan_parameter(self):
        slave = self.new_slave()
        slave.setup_experiment(start_time=0.0)
        self.assertFails(lambda: slave.set_real(["load.mass"], [float("nan")]),
                         "fmi2SetReal(load.mass = nan) after instantiation")

    def unknown_vr(self):
        return max(v.value_reference for v in MD.variables.values()) + 1000

    def test_get_real_unknown_value_reference(self):
        slave = self.ready_slave()
        self.assertFails(lambda: slave.get_real([self.unknown_vr()]),
                         "fmi2GetReal(vr=%d)" % self.unknown_vr(), mentions=[str(self.unknown_vr())])

    def test_set_real_unknown_value_reference(self):
        slave = self.ready_slave()
        self.assertFails(lambda: slave.set_real([self.unknown_vr()], [1.0]),
                         "fmi2SetReal(vr=%d)" % self.unknown_vr(), mentions=[str(self.unknown_vr())])

    def test_do_step_rejects_nonpositive_step(self):
        for h in (0.0, -0.01):
            with self.subTest(h=h):
                slave = self.ready_slave()
                self.assertFails(lambda: slave.do_step(0.0, h), "fmi2DoStep(h=%g)" % h)

    def test_instantiate_missing_resource_location(self):
        slave = self.new_slave(instantiate=False)
        missing = "file://" + os.path.join(TMP, "no-such-folder", "resources")
        err = self.assertFails(lambda: slave.instantiate(resource_location=missing),
                               "fmi2Instantiate(resourceLocation=%s)" % missing, statuses=(None,))
        self.assertIsNone(slave.component)
        self.assertTrue(err.messages, "fmi2Instantiate returned NULL for a missing resource location "
                                      "but logged no message")

    def test_instantiate_wrong_guid(self):
        slave = self.new_slave(instantiate=False)
        err = self.assertFails(lambda: slave.instantiate(guid="{00000000-0000-0000-0000-000000000000}"),
                               "fmi2Instantiate(wrong GUID)", statuses=(None,))
        self.assertIsNone(slave.component)
        self.assertTrue(err.messages, "fmi2Instantiate returned NULL for a wrong GUID but logged no message")

    def test_instantiate_model_exchange_refused(self):
        slave = self.new_slave(instantiate=False)
        err = self.assertFails(lambda: slave.instantiate(fmu_type=fmi2.MODEL_EXCHANGE),
                               "fmi2Instantiate(fmi2ModelExchange)", statuses=(None,))
        self.assertTrue(err.messages, "fmi2Instantiate returned NULL for fmi2ModelExchange but logged no message")

    def test_do_step_right_after_instantiate(self):
        slave = self.new_slave()
        self.assertFails(lambda: slave.do_step(0.0, 0.01), "fmi2DoStep right after fmi2Instantiate")

    def test_do_step_in_initialization_mode(self):
        slave = self.new_slave()
        slave.setup_experiment(start_time=0.0)
        slave.enter_initialization_mode()
        self.assertFails(lambda: slave.do_step(0.0, 0.01), "fmi2DoStep before fmi2ExitInitializationMode")

    def test_get_real_right_after_instantiate(self):
        slave = self.new_slave()
        self.assertFails(lambda: slave.get_real(["cable.tension"]), "fmi2GetReal right after fmi2Instantiate")

    def test_set_fixed_parameter_after_initialization(self):
        self.assertEqual(MD.variables["load.mass"].variability, "fixed",
                         "load.mass should be a fixed parameter")
        slave = self.ready_slave()
        self.assertFails(lambda: slave.set_real(["load.mass"], [2000.0]),
                         "fmi2SetReal(load.mass) after initialization", mentions=["load.mass"])

    def test_exit_initialization_without_enter(self):
        slave = self.new_slave()
        slave.setup_experiment(start_time=0.0)
        self.assertFails(slave.exit_initialization_mode, "fmi2ExitInitializationMode before "
                         "fmi2EnterInitializationMode")

    def test_absurd_inputs_refused(self):
        # Inputs that would blow the simulation up within one step (or
        # overflow to Inf/NaN inside the solver) lie outside the inputs'
        # declared physical ranges: fmi2SetReal refuses them with the range,
        # the outputs and the instance stay as they were, and stepping goes on.
        for name, value in (("suspension.vz", 1e300), ("suspension.vz", 1e308), ("suspension.vx", 1e308), ("suspension.x", 1e200)):
            with self.subTest(input=name, value=value):
                slave = self.ready_slave()
                self.run_steps(slave, [0.01] * 10)
                before = slave.get_real(OUTPUTS)
                what = "fmi2SetReal with %s = %g" % (name, value)
                self.assertFails(lambda: slave.set_real([name], [value]), what, mentions=[name, "outside"])
                self.assertEqual(bits(slave.get_real(OUTPUTS)), bits(before), "outputs changed by the refused " + what)
                self.run_steps(slave, [0.01] * 5, t0=0.1)
                self.assertTensionIsWeight(slave, "after the refused " + what)

    def test_hauling_in_past_zero_length(self):
        # The winch hauls in 15 m of a 10 m cable: the FMU must either stop
        # with fmi2Error/fmi2Discard and a message, or keep a physical state.
        slave = self.ready_slave()
        haul = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, -5.0]
        t = 0.0
        for k in range(300):
            slave.set_real(INPUTS, haul)
            try:
                slave.do_step(t, 0.01)
            except fmi2.FMIError as e:
                self.assertIn(e.status, (fmi2.ERROR, fmi2.DISCARD), "fmi2DoStep at t=%.2f: %s" % (t, e))
                self.assertTrue([m for m in e.messages if m[0] != fmi2.OK],
                                "fmi2DoStep at t=%.2f returned %s without a message" % (
                                    t, sname(e.status)))
                return
            t += 0.01
            length, load_z, tension = slave.get_real(["cable.length", "load.z", "cable.tension"])
            self.assertTrue(math.isfinite(length) and math.isfinite(load_z) and math.isfinite(tension),
                            "non-finite outputs at t=%.2f" % t)
            self.assertGreaterEqual(length, -1e-9, "fmi2DoStep returned fmi2OK with cable.length = %.6g m < 0 "
                                    "at t=%.2f s (winch.speed = -5 m/s from length 10 m)" % (length, t))
            self.assertLess(load_z, 20.0, "fmi2DoStep returned fmi2OK with the load at z = %.6g m, above the "
                            "suspension point (z = 20 m) at t=%.2f s" % (load_z, t))

    def test_model_exchange_functions_refused(self):
        slave = self.ready_slave()
        buf = (fmi2.fmi2Real * 4)()
        info = fmi2.fmi2EventInfo()
        b1, b2 = fmi2.fmi2Boolean(0), fmi2.fmi2Boolean(0)
        calls = {
            "fmi2SetTime": (0.5,),
            "fmi2GetDerivatives": (buf, 1),
            "fmi2EnterEventMode": (),
            "fmi2NewDiscreteStates": (ctypes.byref(info),),
            "fmi2EnterContinuousTimeMode": (),
            "fmi2CompletedIntegratorStep": (fmi2.fmi2True, ctypes.byref(b1), ctypes.byref(b2)),
            "fmi2SetContinuousStates": (buf, 1),
            "fmi2GetEventIndicators": (buf, 1),
            "fmi2GetContinuousStates": (buf, 1),
            "fmi2GetNominalsOfContinuousStates": (buf, 1),
        }
        self.assertEqual(sorted(calls), sorted(fmi2.MODEL_EXCHANGE_FUNCTIONS))
        for name, args in calls.items():
            with self.subTest(function=name):
                self.assertRawFails(slave, name, *args)
        # the instance is still usable for co-simulation
        self.run_steps(slave, [0.01] * 5)

    def test_null_component_does_not_crash(self):
        script = textwrap.dedent("""
            import ctypes, sys
            sys.path.insert(0, %(binding)r)
            from cablefmu import fmi2
            md = fmi2.read_model_description(%(folder)r)
            lib = fmi2.load_library(fmi2.binary_path(%(folder)r, md.model_identifier))
            vr = (fmi2.fmi2ValueReference * 1)(md.vr("cable.tension"))
            val = (fmi2.fmi2Real * 1)(1.0)
            status = fmi2.fmi2Status(0)
            calls = [
                ("fmi2SetupExperiment", (0, 0.0, 0.0, 0, 0.0)),
                ("fmi2EnterInitializationMode", ()),
                ("fmi2ExitInitializationMode", ()),
                ("fmi2GetReal", (vr, 1, val)),
                ("fmi2SetReal", (vr, 1, val)),
                ("fmi2DoStep", (0.0, 0.01, 1)),
                ("fmi2GetStatus", (0, ctypes.byref(status))),
                ("fmi2Terminate", ()),
                ("fmi2Reset", ()),
            ]
            bad = []
            for name, args in calls:
                st = getattr(lib, name)(None, *args)
                print(name, st, flush=True)
                if st != fmi2.ERROR:
                    bad.append("%%s returned %%d" %% (name, st))
            lib.fmi2FreeInstance(None)
            print("fmi2FreeInstance(NULL) returned", flush=True)
            if bad:
                print("expected fmi2Error for a NULL component: " + "; ".join(bad))
                sys.exit(3)
            print("OK")
        """) % {"binding": BINDING_DIR, "folder": FOLDER}
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, "calls with a NULL component: exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout, proc.stderr[-3000:]))

    def test_status_null_value_pointer(self):
        # fmi2GetRealStatus(fmi2LastSuccessfulTime) and
        # fmi2GetBooleanStatus(fmi2Terminated) write through the value
        # pointer: NULL is an error with a message, and the instance stays usable.
        slave = self.ready_slave()
        self.run_steps(slave, [0.01] * 3)
        self.assertRawFails(slave, "fmi2GetRealStatus", fmi2.LAST_SUCCESSFUL_TIME, None)
        self.assertRawFails(slave, "fmi2GetBooleanStatus", fmi2.TERMINATED, None)
        try:
            last = slave.get_real_status(fmi2.LAST_SUCCESSFUL_TIME)
        except fmi2.FMIError as e:
            self.fail("the instance is no longer usable after the NULL-pointer calls: %s" % e)
        self.assertAlmostEqual(last, 0.03, delta=1e-12, msg="fmi2LastSuccessfulTime after the refused calls")
        flag = fmi2.fmi2Boolean(7)
        self.assertEqual(slave.call("fmi2GetBooleanStatus", fmi2.TERMINATED, ctypes.byref(flag)), fmi2.OK)
        self.assertEqual(flag.value, fmi2.fmi2False, "fmi2Terminated with a valid pointer")
        self.run_steps(slave, [0.01] * 3, t0=0.03)

    def test_stale_component_refused(self):
        # A component used after fmi2FreeInstance: every call returns
        # fmi2Error, a second fmi2FreeInstance is harmless, and an instance
        # created afterwards is not reached through the stale component.
        script = textwrap.dedent("""
            import ctypes, sys
            sys.path.insert(0, %(binding)r)
            from cablefmu import fmi2
            folder = %(folder)r
            md = fmi2.read_model_description(folder)
            inputs = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed"]
            rest = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0]

            def ready(name):
                s = fmi2.FMU2Slave(folder, instance_name=name, model_description=md)
                s.instantiate()
                s.setup_experiment(start_time=0.0)
                s.enter_initialization_mode()
                s.set_real(inputs, rest)
                s.exit_initialization_mode()
                return s

            lib = fmi2.load_library(fmi2.binary_path(folder, md.model_identifier))
            vr = (fmi2.fmi2ValueReference * 1)(md.vr("suspension.x"))
            val = (fmi2.fmi2Real * 1)(3.0)
            order = (fmi2.fmi2Integer * 1)(1)
            real = fmi2.fmi2Real(0.0)
            status = fmi2.fmi2Status(0)
            calls = [
                ("fmi2SetDebugLogging", (1, 0, None)),
                ("fmi2SetupExperiment", (0, 0.0, 0.0, 0, 0.0)),
                ("fmi2EnterInitializationMode", ()),
                ("fmi2ExitInitializationMode", ()),
                ("fmi2SetReal", (vr, 1, val)),
                ("fmi2GetReal", (vr, 1, val)),
                ("fmi2SetRealInputDerivatives", (vr, 1, order, val)),
                ("fmi2DoStep", (0.0, 0.01, 1)),
                ("fmi2GetStatus", (0, ctypes.byref(status))),
                ("fmi2GetRealStatus", (fmi2.LAST_SUCCESSFUL_TIME, ctypes.byref(real))),
                ("fmi2Terminate", ()),
                ("fmi2Reset", ()),
            ]
            bad = []

            def use(stale, when):
                for name, args in calls:
                    st = getattr(lib, name)(stale, *args)
                    print(when, name, st, flush=True)
                    if st != fmi2.ERROR:
                        bad.append("%%s: %%s returned %%d" %% (when, name, st))

            a = ready("a")
            a.do_step(0.0, 0.01)
            stale = a.component
            a.free()
            use(stale, "freed, no other instance")
            lib.fmi2FreeInstance(stale)
            print("second fmi2FreeInstance returned", flush=True)

            b = ready("b")
            use(stale, "freed, another instance alive")
            lib.fmi2FreeInstance(stale)
            print("third fmi2FreeInstance returned", flush=True)
            # b was neither stepped, reset, terminated nor moved by the stale calls
            x, = b.get_real(["suspension.x"])
            if x != 0.0:
                bad.append("suspension.x of the live instance is %%r after stale calls set 3.0" %% x)
            for i in range(10):
                b.set_real(inputs, rest)
                b.do_step(i * 0.01, 0.01)
            tension, mass, g = b.get_real(["cable.tension", "load.mass", "gravity"])
            if not abs(tension / (mass * g) - 1) <= 0.005:
                bad.append("live instance: tension %%r N, want m*g = %%r N within 0.5 %%%%" %% (tension, mass * g))
            b.terminate()
            b.free()
            if bad:
                print("FAILED: " + "; ".join(bad))
                sys.exit(3)
            print("OK")
        """) % {"binding": BINDING_DIR, "folder": FOLDER}
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, "calls with a freed component: exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout, proc.stderr[-3000:]))
        self.assertIn("OK", proc.stdout)


class TestInstances(FMUTestCase):

    def test_two_instances_with_different_masses(self):
        light = self.ready_slave("light", params={"load.mass": 1000.0})
        heavy = self.ready_slave("heavy", params={"load.mass": 2500.0})
        t = 0.0
        for _ in range(200):
            for s in (light, heavy):
                s.set_real(INPUTS, REST)
                s.do_step(t, 0.01)
            t += 0.01
        t_light = self.assertTensionIsWeight(light, "instance with load.mass = 1000 kg")
        t_heavy = self.assertTensionIsWeight(heavy, "instance with load.mass = 2500 kg")
        self.assertAlmostEqual(t_heavy / t_light, 2.5, delta=2.5 * 2 * TENSION_TOL,
                               msg="tension ratio %.6g, expected 2.5" % (t_heavy / t_light))

    def trajectory(self, slave, n=200, h=0.01):
        rows = []
        for i in range(n):
            t = i * h
            slave.set_real(INPUTS, motion_inputs(t))
            slave.do_step(t, h)
            rows.append(bits(slave.get_real(OUTPUTS)))
        return rows

    def test_threads_match_sequential_bitwise(self):
        reference = self.trajectory(self.ready_slave("sequential", inputs=motion_inputs(0.0)))
        slaves = [self.ready_slave("thread%d" % i, inputs=motion_inputs(0.0)) for i in range(4)]
        results = [None] * 4
        errors = []
        barrier = threading.Barrier(4)

        def work(i):
            try:
                barrier.wait(timeout=60)
                results[i] = self.trajectory(slaves[i])
            except BaseException as e:  # reported below
                errors.append("thread %d: %r" % (i, e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=300)
        self.assertFalse(any(th.is_alive() for th in threads), "a stepping thread did not finish within 300 s")
        self.assertFalse(errors, "errors in threads: %s" % errors)
        for i, rows in enumerate(results):
            self.assertEqual(len(rows), len(reference))
            for k, (a, b) in enumerate(zip(rows, reference)):
                if a != b:
                    self.fail("thread %d differs from the sequential run at step %d (t=%.2f s):\n%r\n%r" % (
                        i, k + 1, (k + 1) * 0.01, struct.unpack("<%dd" % len(OUTPUTS), a),
                        struct.unpack("<%dd" % len(OUTPUTS), b)))

    def test_variable_communication_step_sizes(self):
        self.assertTrue(MD.can_handle_variable_step,
                        "canHandleVariableCommunicationStepSize is not true in modelDescription.xml")
        slave = self.ready_slave()
        pattern = [0.001, 0.013, 0.1, 0.013, 0.001, 0.1, 0.1, 0.001]
        t = 0.0
        k = 0
        while t < 3.0:
            h = pattern[k % len(pattern)]
            slave.set_real(INPUTS, REST)
            slave.do_step(t, h)
            t += h
            k += 1
            self.assertFinite(slave.get_real(OUTPUTS), "outputs at t=%.4f" % t)
            self.assertTensionIsWeight(slave, "at rest after %d variable steps (last h=%g, t=%.4f s)" % (k, h, t))
        self.assertAlmostEqual(slave.get_real_status(fmi2.LAST_SUCCESSFUL_TIME), t, delta=1e-9,
                               msg="fmi2GetRealStatus(fmi2LastSuccessfulTime)")


class TestProcesses(FMUTestCase):

    def test_reload_after_dlclose(self):
        script = textwrap.dedent("""
            import _ctypes, ctypes, sys
            sys.path.insert(0, %(binding)r)
            from cablefmu import fmi2
            folder = %(folder)r
            md = fmi2.read_model_description(folder)
            path = fmi2.binary_path(folder, md.model_identifier)
            inputs = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed"]

            def run(name):
                s = fmi2.FMU2Slave(folder, instance_name=name, model_description=md)
                s.instantiate()
                s.setup_experiment(start_time=0.0)
                s.enter_initialization_mode()
                s.set_real(inputs, [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0])
                s.exit_initialization_mode()
                for i in range(20):
                    s.set_real(inputs, [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0])
                    s.do_step(i * 0.01, 0.01)
                t, = s.get_real(["cable.tension"])
                s.terminate()
                s.free()
                return t

            first = run("before")
            for round_ in range(2):
                raw = ctypes.CDLL(path)               # a second, plain handle
                assert raw.fmi2GetVersion() != 0
                _ctypes.dlclose(raw._handle)
                fmi2.release_library(path)            # _ctypes.dlclose of the binding's handle
                again = run("after-dlclose-%%d" %% round_)   # dlopen of the same path again
                print("tension before %%r, after reload %%r" %% (first, again), flush=True)
                if again != first:
                    sys.exit(4)
            print("OK")
        """) % {"binding": BINDING_DIR, "folder": FOLDER}
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, "reload after dlclose: exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout, proc.stderr[-3000:]))
        self.assertIn("OK", proc.stdout)

    def test_c_master(self):
        gcc = shutil.which("gcc")
        if not gcc:
            self.skipTest("gcc not found")
        exe = os.path.join(TMP, "fmi2_master")
        build = subprocess.run([gcc, "-O2", "-Wall", "-Wextra", "-o", exe, C_MASTER, "-ldl", "-lpthread", "-lm"],
                               capture_output=True, text=True, timeout=120)
        self.assertEqual(build.returncode, 0, "gcc failed:\n%s" % build.stderr)
        self.assertEqual(build.stderr.strip(), "", "gcc warnings:\n%s" % build.stderr)
        proc = subprocess.run([exe, FOLDER], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, "C master exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout, proc.stderr))
        self.assertIn("PASS", proc.stdout)

    def test_reference_result(self):
        # The 30 s trolley move against examples/massless/Hoist_ref.csv, sampled
        # every 0.1 s: each column within 1e-6 of its largest magnitude.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import reference
        ref_header, ref = reference.read(reference.REFERENCE)
        header, got = reference.run(FMU_PATH, os.path.join(TMP, "reference", "hoist.csv"))
        self.assertEqual(header, ref_header)
        self.assertEqual(len(got), len(ref), "sampled rows")
        for c, name in enumerate(header):
            scale = max(abs(r[c]) for r in ref) or 1.0
            worst = max(abs(g[c] - r[c]) for g, r in zip(got, ref))
            self.assertLessEqual(worst, 1e-6 * scale,
                                 "%s deviates from the reference by %.3g (allowed 1e-6 x %.3g)" % (name, worst, scale))

    def test_python_cosim_example(self):
        csv_path = os.path.join(TMP, "cosim", "hoist.csv")
        proc = subprocess.run([sys.executable, COSIM_SCRIPT, FMU_PATH, "--csv", csv_path, "--stop", "2"],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, "hoist_cosim.py exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout, proc.stderr))
        with open(csv_path) as f:
            header = f.readline().strip().split(",")
            rows = [line for line in f if line.strip()]
        self.assertEqual(header, ["time (s)", "suspension.x (m)", "suspension.vx (m/s)", "winch.speed (m/s)",
                                  "load.x (m)", "load.y (m)", "load.z (m)", "load.vx (m/s)", "load.vz (m/s)",
                                  "sway (deg)", "cable.tension (N)", "cable.length (m)", "suspension.fx (N)",
                                  "suspension.fz (N)"])
        self.assertEqual(len(rows), 201, "rows for 2 s at 0.01 s plus the initial row")
        stem = os.path.splitext(os.path.basename(FMU_PATH))[0]
        self.assertTrue(os.path.isfile(os.path.join(TMP, "cosim", stem + "_fmu", "modelDescription.xml")),
                        "the FMU was not unpacked next to the CSV file")


if __name__ == "__main__":
    unittest.main()


class TestFMUState(FMUTestCase):
    """FMU state: save, restore, serialize (canGetAndSetFMUstate, canSerializeFMUstate)."""

    def drive(self, slave, t0, n):
        outputs = [v.name for v in MD.variables.values() if v.causality == "output"]
        t = t0
        for _ in range(n):
            slave.set_real(["suspension.x", "suspension.vx", "winch.speed"], [0.25 * t * t, 0.5 * t, 0.2])
            slave.do_step(t, 0.05)
            t += 0.05
        return bits(slave.get_real(outputs))

    def test_capability_flags(self):
        self.assertTrue(MD.can_get_and_set_fmu_state, "canGetAndSetFMUstate")

    def test_restore_continues_bitwise(self):
        slave = self.ready_slave()
        state = self.assertRestoreRepeats(slave, 0.0, 20, 1.0, 40,
                                          "outputs after restoring the state differ from the original run")
        state = slave.get_fmu_state(state)  # updating an existing state in place
        slave.set_fmu_state(state)
        self.assertEqual(self.drive(slave, 3.0, 5), self.drive_copy(slave, state, 3.0, 5))
        slave.free_fmu_state(state)

    def drive_copy(self, slave, state, t0, n):
        slave.set_fmu_state(state)
        return self.drive(slave, t0, n)

    def test_serialized_state_restores_in_fresh_instance(self):
        slave = self.ready_slave("original")
        self.drive(slave, 0.0, 20)
        data = slave.serialize_fmu_state(slave.get_fmu_state())
        first = self.drive(slave, 1.0, 40)
        fresh = self.new_slave("fresh")
        fresh.set_fmu_state(fresh.deserialize_fmu_state(data))
        self.assertEqual(first, self.drive(fresh, 1.0, 40), "a fresh instance restored from bytes differs")

    def test_foreign_state_refused(self):
        slave = self.ready_slave()
        data = bytearray(slave.serialize_fmu_state(slave.get_fmu_state()))
        guid = MD.guid.encode()
        damaged = bytes(data).replace(guid, guid[:-2] + b"x}")
        with self.assertRaises(fmi2.FMIError) as cm:
            slave.deserialize_fmu_state(damaged)
        self.assertEqual(cm.exception.status, fmi2.ERROR)
        self.assertTrue(any("GUID" in m[-1] for m in cm.exception.messages), "the refusal names the GUID")
        with self.assertRaises(fmi2.FMIError):
            slave.deserialize_fmu_state(b"not a state")
