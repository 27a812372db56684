"""FMI 3.0 Co-Simulation tests for the Hoist, RigidHoist, MassSpringHoist and SplineHoist FMUs.

Run from the repository root:

    go run ./build export -fmi 3 -o out/Hoist3.fmu examples/massless
    go run ./build export -fmi 3 -o out/RigidHoist3.fmu examples/rigid-cable
    go run ./build export -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring
    go run ./build export -fmi 3 -o out/SplineHoist3.fmu examples/spline
    HOIST3_FMU=out/Hoist3.fmu RIGIDHOIST3_FMU=out/RigidHoist3.fmu MASSSPRINGHOIST3_FMU=out/MassSpringHoist3.fmu \\
        SPLINEHOIST3_FMU=out/SplineHoist3.fmu \\
        python3 -m unittest -v scripts/fmutest/test_fmi3.py

The tests drive the FMU binaries through the ctypes binding in
examples/clients/python/cablefmu/fmi3.py.  Each FMU is unpacked once into a temporary
folder and its binary is loaded once for the whole test process (each load
from a new path would start another Go runtime in the process).  Tests that
pass NULL where the FMU must not crash run in a subprocess.

The model description is validated against the official FMI 3.0 XSD with
xmllint (../shared/fmi/schema/3.0 next to the repository, $CABLEFMU_FMI_SCHEMA/3.0,
or the folder in FMI3_SCHEMA_DIR);
without xmllint or the schema that test is skipped, unless CI=true.
"""

import ctypes
import functools
import json
import math
import os
import shutil
import subprocess
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fmutestlib import BINDING_DIR, INPUTS, OUTPUTS, REPO, bits  # noqa: E402
import fmutestlib  # noqa: E402
from cablefmu import fmi3  # noqa: E402

sname = functools.partial(fmutestlib.status_name, fmi3)  # name of an fmi3Status (None: NULL)
C_MASTER = os.path.join(REPO, "examples", "clients", "c", "fmi3_master.c")
SCHEMA_DIR = os.environ.get("FMI3_SCHEMA_DIR") or os.path.join(
    os.environ.get("CABLEFMU_FMI_SCHEMA") or os.path.join(REPO, "..", "shared", "fmi", "schema"), "3.0")
IN_CI = os.environ.get("CI", "").strip().lower() == "true"

H = 1.0 / 60.0  # communication step of the lifecycle tests

# key -> (environment variable, build command, scenario folder)
FMUS = {
    "hoist": ("HOIST3_FMU", "go run ./build export -fmi 3 -o out/Hoist3.fmu examples/massless", "examples/massless"),
    "rigid": ("RIGIDHOIST3_FMU", "go run ./build export -fmi 3 -o out/RigidHoist3.fmu examples/rigid-cable",
              "examples/rigid-cable"),
    "massspring": ("MASSSPRINGHOIST3_FMU", "go run ./build export -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring",
                   "examples/mass-spring"),
    "spline": ("SPLINEHOIST3_FMU", "go run ./build export -fmi 3 -o out/SplineHoist3.fmu examples/spline",
               "examples/spline"),
}

TMP = None
FIXTURES = {}  # key -> Fixture


class Fixture:
    def __init__(self, key, fmu_path, folder, md):
        self.key = key
        self.fmu_path = fmu_path
        self.folder = folder
        self.md = md


def setUpModule():
    global TMP
    problems = []
    for key, (env, build, _) in FMUS.items():
        problem = fmutestlib.fmu_path_problem(env, build)
        if problem:
            problems.append(problem)
    if problems:
        raise RuntimeError("the FMI 3.0 tests need every FMU:\n    " + "\n    ".join(problems) +
                           "\nthen run: HOIST3_FMU=out/Hoist3.fmu RIGIDHOIST3_FMU=out/RigidHoist3.fmu "
                           "MASSSPRINGHOIST3_FMU=out/MassSpringHoist3.fmu SPLINEHOIST3_FMU=out/SplineHoist3.fmu "
                           "python3 -m unittest -v scripts/fmutest/test_fmi3.py")
    TMP = fmutestlib.make_tmp("fmi3-fmutest-")
    for key, (env, _, _) in FMUS.items():
        path = os.environ[env]
        folder = fmi3.unzip(path, os.path.join(TMP, key))
        FIXTURES[key] = Fixture(key, path, folder, fmi3.read_model_description(folder))


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def scenario(folder):
    with open(os.path.join(REPO, folder, "scenario.json")) as f:
        return json.load(f)


class FMU3Case(fmutestlib.StatusAssertions, unittest.TestCase):
    """Shared setup and assertions; KEY selects the FMU."""

    KEY = None
    FMI = fmi3

    @property
    def fx(self):
        return FIXTURES[self.KEY]

    @property
    def md(self):
        return self.fx.md

    def rest(self):
        """The inputs' start values: the suspension point at rest where the scenario puts it."""
        return [self.md.variables[n].start for n in INPUTS]

    def outputs(self):
        """Names of every output (arrays included)."""
        return [v.name for v in self.md.by_causality("output")]

    def new_slave(self, name="fmu", instantiate=True, logging_on=False, **kw):
        slave = fmi3.FMU3Slave(self.fx.folder, instance_name=name, model_description=self.md)
        if instantiate:
            slave.instantiate_co_simulation(logging_on=logging_on, **kw)
            self.addCleanup(slave.free)
        return slave

    def ready_slave(self, name="fmu", params=None, inputs=None):
        """An instance in Step Mode with the suspension point at rest."""
        slave = self.new_slave(name)
        if params:
            slave.set_float64(list(params), [params[k] for k in params])
        slave.enter_initialization_mode(start_time=0.0)
        slave.set_float64(INPUTS, self.rest() if inputs is None else inputs)
        slave.exit_initialization_mode()
        return slave

    def run_steps(self, slave, n, h=H, t0=0.0, inputs_at=None):
        """n steps of h from t0; checks every fmi3DoStep result and returns the time reached."""
        t = t0
        for k in range(n):
            if inputs_at is not None:
                slave.set_float64(INPUTS, inputs_at(t))
            res = slave.do_step(t, h)
            what = "fmi3DoStep(currentCommunicationPoint=%.17g, communicationStepSize=%.17g), step %d" % (t, h, k + 1)
            self.assertFalse(res.event_handling_needed, "%s: eventHandlingNeeded = true" % what)
            self.assertFalse(res.terminate_simulation, "%s: terminateSimulation = true" % what)
            self.assertFalse(res.early_return, "%s: earlyReturn = true without earlyReturnAllowed" % what)
            self.assertAlmostEqual(res.last_successful_time, t + h, delta=1e-9 * max(1.0, abs(t + h)),
                                   msg="%s: lastSuccessfulTime = %.17g, expected t + h = %.17g"
                                   % (what, res.last_successful_time, t + h))
            t += h
        return t

    def assertFinite(self, values, what):
        bad = [(i, v) for i, v in enumerate(values) if not math.isfinite(v)]
        if bad:
            self.fail("%s: non-finite values (index, value) %s" % (what, bad[:10]))

    def run_script(self, body, timeout=120):
        """Run a Python snippet in a subprocess with the binding importable; returns stdout."""
        script = "import ctypes, sys\nsys.path.insert(0, %r)\nfrom cablefmu import fmi3\nFOLDER = %r\n" % (
            BINDING_DIR, self.fx.folder) + textwrap.dedent(body)
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout)
        self.assertEqual(proc.returncode, 0, "subprocess exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]))
        return proc.stdout


class CommonTests:
    """Tests run for every FMU (mixed into a FMU3Case with KEY set)."""

    # -- description and binary ----------------------------------------------

    def test_binary_exports_all_fmi3_functions(self):
        self.assertEqual(len(fmi3.FUNCTION_NAMES), 75)
        path = fmi3.binary_path(self.fx.folder, self.md.model_identifier)
        self.assertTrue(os.path.isfile(path), "binary %s missing from the FMU (binaries/x86_64-linux/%s.so)"
                        % (path, self.md.model_identifier))
        missing = fmi3.missing_functions(path)
        self.assertEqual(missing, [], "%d fmi3* functions not exported: %s" % (len(missing), ", ".join(missing)))

    def test_version(self):
        slave = self.new_slave(instantiate=False)
        self.assertEqual(slave.version(), "3.0", "fmi3GetVersion()")

    def test_model_description(self):
        md = self.md
        self.assertEqual(md.fmi_version, "3.0")
        self.assertTrue(md.instantiation_token, "instantiationToken is empty")
        self.assertTrue(md.can_get_and_set_fmu_state, "canGetAndSetFMUState is not true")
        self.assertTrue(md.can_serialize_fmu_state, "canSerializeFMUState is not true")
        self.assertTrue(md.can_handle_variable_step, "canHandleVariableCommunicationStepSize is not true")
        self.assertDeclared(md, fmutestlib.DECLARED, "Float64",
                            lambda name, var: self.assertEqual(var.shape, (), "%s should be a scalar" % name))
        time = md.independent()
        self.assertIsNotNone(time, "no variable with causality=\"independent\"")
        self.assertEqual(time.name, "time")
        self.assertEqual(time.type, "Float64")
        self.assertIsNone(time.start, "the independent variable must not have a start value")
        vrs = [v.value_reference for v in md.variables.values()]
        self.assertEqual(len(vrs), len(set(vrs)), "value references are not unique")
        outputs = sorted(v.value_reference for v in md.by_causality("output"))
        self.assertEqual(sorted(md.outputs), outputs, "<ModelStructure><Output> vs. the outputs")
        for var in md.variables.values():
            if var.is_array and var.start is not None:
                self.assertEqual(len(var.start), var.size, "%s: start values vs. its dimensions" % var.name)

    def test_model_description_validates_against_xsd(self):
        schema = os.path.join(SCHEMA_DIR, "fmi3ModelDescription.xsd")
        xmllint = shutil.which("xmllint")
        missing = [what for what, ok in (("xmllint", xmllint), ("the schema %s" % schema, os.path.isfile(schema)))
                   if not ok]
        if missing:
            if IN_CI:
                self.fail("CI=true but %s not found" % " and ".join(missing))
            self.skipTest("%s not found" % " and ".join(missing))
        xml = os.path.join(self.fx.folder, "modelDescription.xml")
        proc = subprocess.run([xmllint, "--noout", "--schema", schema, xml], capture_output=True, text=True,
                              timeout=120)
        self.assertEqual(proc.returncode, 0, "xmllint --schema %s:\n%s" % (schema, proc.stderr[-4000:]))

    # -- lifecycle -----------------------------------------------------------

    def test_lifecycle(self):
        slave = self.new_slave("lifecycle")
        slave.enter_initialization_mode(start_time=0.0, stop_time=120 * H)
        slave.set_float64(INPUTS, self.rest())
        slave.exit_initialization_mode()
        self.assertFinite(slave.get_values(self.outputs()), "outputs after fmi3ExitInitializationMode")
        t = self.run_steps(slave, 120)
        self.assertAlmostEqual(t, 2.0, delta=1e-9)
        self.assertFinite(slave.get_values(self.outputs()), "outputs after 120 steps")
        slave.terminate()
        slave.free()
        self.assertIsNone(slave.instance)

    def test_time_variable(self):
        slave = self.ready_slave()
        self.assertEqual(slave.get_float64(["time"]), [0.0], "time after initialization at startTime 0")
        t = self.run_steps(slave, 30)
        got, = slave.get_float64(["time"])
        self.assertAlmostEqual(got, t, delta=1e-9, msg="fmi3GetFloat64(time) after 30 steps of 1/60 s")

    def test_reset_gives_identical_results(self):
        slave = self.new_slave()

        def one_run():
            slave.enter_initialization_mode(start_time=0.0)
            slave.set_float64(INPUTS, self.rest())
            slave.exit_initialization_mode()
            self.run_steps(slave, 40, inputs_at=self.motion)
            return bits(slave.get_values(self.outputs()))

        first = one_run()
        slave.terminate()
        slave.reset()
        self.assertEqual(first, one_run(), "outputs after fmi3Reset and the same run differ")

    def test_reset_restores_parameters(self):
        slave = self.new_slave()
        start = self.md.variables["load.mass"].start
        slave.set_float64(["load.mass"], [2 * start])
        slave.enter_initialization_mode()
        slave.exit_initialization_mode()
        self.assertEqual(slave.get_float64(["load.mass"]), [2 * start])
        slave.terminate()
        slave.reset()
        slave.enter_initialization_mode()
        slave.exit_initialization_mode()
        self.assertEqual(slave.get_float64(["load.mass"]), [start], "load.mass after fmi3Reset")

    def test_debug_logging_messages(self):
        # The FMI 3.0 log callback is not variadic: messages arrive as plain text.
        categories = self.md.log_categories
        self.assertTrue(categories, "no <LogCategories> in modelDescription.xml")
        slave = self.new_slave(logging_on=True)
        slave.set_debug_logging(True, ["logCalls"] if "logCalls" in categories else categories)
        slave.enter_initialization_mode()
        slave.exit_initialization_mode()
        slave.do_step(0.0, H)
        calls = [m for m in slave.messages if "fmi3DoStep" in m[2]]
        self.assertTrue(calls, "logCalls on: no message names fmi3DoStep; messages: %r" % slave.messages[-10:])
        for status, category, text in slave.messages:
            self.assertIn(category, categories, "message %r in an undeclared category" % text)
            self.assertNotIn("%s", text, "a printf format reached the non-variadic log callback: %r" % text)

    # -- FMU state -----------------------------------------------------------

    def motion(self, t):
        x0, y0, z0 = self.rest()[:3]
        return [x0 + 0.25 * t * t, y0, z0, 0.5 * t, 0.0, 0.0, 0.2 if t < 1.0 else 0.0]

    def drive(self, slave, t0, n, h=0.05):
        self.run_steps(slave, n, h=h, t0=t0, inputs_at=self.motion)
        return bits(slave.get_values(self.outputs()))

    def test_state_restore_continues_bitwise(self):
        slave = self.ready_slave()
        state = self.assertRestoreRepeats(slave, 0.0, 10, 0.5, 20,
                                          "outputs after fmi3SetFMUState differ from the original run")
        state = slave.get_fmu_state(state)  # updating an existing state in place
        ahead = self.drive(slave, 1.5, 5)
        slave.set_fmu_state(state)
        self.assertEqual(ahead, self.drive(slave, 1.5, 5), "state updated in place by fmi3GetFMUState")
        self.assertIsNone(slave.free_fmu_state(state), "fmi3FreeFMUState must set the handle to NULL")

    def test_free_null_state_ignored(self):
        slave = self.ready_slave()
        self.assertIsNone(slave.free_fmu_state(None), "fmi3FreeFMUState(NULL)")

    def test_serialized_state_restores_in_fresh_instance(self):
        slave = self.ready_slave("original")
        self.drive(slave, 0.0, 10)
        state = slave.get_fmu_state()
        data = slave.serialize_fmu_state(state)
        slave.free_fmu_state(state)
        self.assertTrue(data, "serialized state is empty")
        first = self.drive(slave, 0.5, 20)
        fresh = self.new_slave("fresh")  # just instantiated
        restored = fresh.deserialize_fmu_state(data)
        fresh.set_fmu_state(restored)
        fresh.free_fmu_state(restored)
        self.assertEqual(first, self.drive(fresh, 0.5, 20), "a fresh instance restored from bytes differs")

    def test_damaged_state_refused(self):
        slave = self.ready_slave()
        self.drive(slave, 0.0, 4)
        state = slave.get_fmu_state()
        data = slave.serialize_fmu_state(state)
        slave.free_fmu_state(state)
        token = self.md.instantiation_token.encode()
        if token not in data:
            self.skipTest("the serialized state does not hold the instantiationToken verbatim; "
                          "cannot damage it selectively")
        bad = token[:-2] + (b"x" if token[-2:-1] != b"x" else b"y") + token[-1:]
        damaged = data.replace(token, bad)
        err = self.assertFails(lambda: slave.deserialize_fmu_state(damaged),
                               "fmi3DeserializeFMUState with the instantiationToken in the state changed to %r"
                               % bad.decode(errors="replace"))
        self.assertTrue(any("token" in m[2].lower() or "instantiation" in m[2].lower() for m in err.messages),
                        "the refusal does not name the instantiation token: %r" % err.messages)
        self.assertFails(lambda: slave.deserialize_fmu_state(b"not a state"),
                         "fmi3DeserializeFMUState of 11 garbage bytes")
        self.assertFails(lambda: slave.deserialize_fmu_state(data[:len(data) // 2]),
                         "fmi3DeserializeFMUState of a truncated state (%d of %d bytes)" % (len(data) // 2, len(data)))
        # the refusals left the instance untouched (beyond the standard, which
        # allows an FMU to demand fmi3Reset after fmi3Error)
        self.drive(slave, 0.2, 4)

    # -- errors --------------------------------------------------------------

    def test_nan_and_inf_inputs_refused(self):
        for value in (float("nan"), float("inf"), float("-inf")):
            for mode in ("initialization", "step"):
                with self.subTest(value=value, mode=mode):
                    slave = self.new_slave()
                    slave.enter_initialization_mode()
                    slave.set_float64(INPUTS, self.rest())
                    if mode == "step":
                        slave.exit_initialization_mode()
                    self.assertFails(lambda: slave.set_float64(["suspension.x"], [value]),
                                     "fmi3SetFloat64(suspension.x = %r) in %s mode" % (value, mode),
                                     mentions=["suspension.x"])
                    if mode == "step":
                        try:
                            out = slave.get_values(self.outputs())
                        except fmi3.FMIError:
                            continue  # the instance may refuse further calls after fmi3Error
                        self.assertFinite(out, "outputs after the refused fmi3SetFloat64(%r)" % value)

    def test_nan_parameter_refused(self):
        slave = self.new_slave()
        self.assertFails(lambda: slave.set_float64(["load.mass"], [float("nan")]),
                         "fmi3SetFloat64(load.mass = nan) after instantiation", mentions=["load.mass"])

    def unknown_vr(self):
        return max(v.value_reference for v in self.md.variables.values()) + 1000

    def test_unknown_value_reference(self):
        vr = self.unknown_vr()
        slave = self.ready_slave()
        self.assertFails(lambda: slave.get_float64([vr]), "fmi3GetFloat64(vr=%d)" % vr, mentions=[str(vr)])
        self.assertFails(lambda: slave.set_float64([vr], [1.0]), "fmi3SetFloat64(vr=%d)" % vr, mentions=[str(vr)])

    def test_wrong_number_of_values_refused(self):
        # nValues must be the number of elements of the variables referenced.
        slave = self.ready_slave()
        vrs = (fmi3.fmi3ValueReference * 2)(*self.md.vrs(["cable.tension", "suspension.fz"]))
        buf = (fmi3.fmi3Float64 * 8)()
        for n in (1, 3):
            self.assertRawFails(slave, "fmi3GetFloat64", vrs, 2, buf, n,
                                what="fmi3GetFloat64(2 scalar value references, nValues=%d)" % n)
        self.assertRawFails(slave, "fmi3SetFloat64", (fmi3.fmi3ValueReference * 1)(self.md.vr("suspension.x")), 1,
                            buf, 2, what="fmi3SetFloat64(suspension.x, nValues=2)")

    def test_do_step_rejects_nonpositive_step(self):
        for h in (0.0, -0.01):
            with self.subTest(h=h):
                slave = self.ready_slave()
                self.assertFails(lambda: slave.do_step(0.0, h), "fmi3DoStep(communicationStepSize=%g)" % h)

    def test_calls_in_wrong_state(self):
        cases = [
            ("fmi3DoStep right after instantiation", lambda s: None, lambda s: s.do_step(0.0, H)),
            ("fmi3GetFloat64 right after instantiation", lambda s: None,
             lambda s: s.get_float64(["cable.tension"])),
            ("fmi3ExitInitializationMode right after instantiation", lambda s: None,
             lambda s: s.exit_initialization_mode()),
            ("fmi3DoStep in Initialization Mode", lambda s: s.enter_initialization_mode(),
             lambda s: s.do_step(0.0, H)),
            ("fmi3EnterInitializationMode twice", lambda s: s.enter_initialization_mode(),
             lambda s: s.enter_initialization_mode()),
            ("fmi3EnterInitializationMode in Step Mode", self.to_step_mode,
             lambda s: s.enter_initialization_mode()),
            ("fmi3EnterStepMode in Step Mode (eventModeUsed = false)", self.to_step_mode,
             lambda s: s.enter_step_mode()),
            ("fmi3SetFloat64 of the fixed parameter load.mass in Step Mode", self.to_step_mode,
             lambda s: s.set_float64(["load.mass"], [1.0])),
            ("fmi3DoStep after fmi3Terminate", lambda s: (self.to_step_mode(s), s.terminate()),
             lambda s: s.do_step(0.0, H)),
            ("fmi3SetFloat64 of an input after fmi3Terminate", lambda s: (self.to_step_mode(s), s.terminate()),
             lambda s: s.set_float64(["suspension.x"], [0.0])),
        ]
        for what, prepare, call in cases:
            with self.subTest(case=what):
                slave = self.new_slave()
                prepare(slave)
                self.assertFails(lambda: call(slave), what)

    def to_step_mode(self, slave):
        slave.enter_initialization_mode()
        slave.exit_initialization_mode()

    def test_wrong_instantiation_token(self):
        slave = self.new_slave(instantiate=False)
        err = self.assertFails(lambda: slave.instantiate_co_simulation(
            instantiation_token="{00000000-0000-0000-0000-000000000000}"),
            "fmi3InstantiateCoSimulation(wrong instantiationToken)", statuses=(None,))
        self.assertIsNone(slave.instance)
        self.assertTrue(err.messages, "NULL for a wrong instantiationToken but nothing logged")
        # In FMI 3.0's words: the instantiation token, not FMI 2.0's GUID.
        self.assertTrue(any('instantiation token "{00000000-0000-0000-0000-000000000000}" does not match' in m[-1]
                            and "GUID" not in m[-1] for m in err.messages), err.messages)

    def test_event_mode_used_refused(self):
        # hasEventMode is false: an importer asking for Event Mode gets NULL
        # and the reason (FMI 3.0, fmi3InstantiateCoSimulation), not an
        # instance whose first fmi3EnterStepMode fails.
        self.assertFalse(self.md.has_event_mode)
        slave = self.new_slave(instantiate=False)
        err = self.assertFails(lambda: slave.instantiate_co_simulation(event_mode_used=True),
                               "fmi3InstantiateCoSimulation(eventModeUsed=true)", statuses=(None,))
        self.assertIsNone(slave.instance)
        self.assertTrue(any("eventModeUsed" in m[-1] for m in err.messages), err.messages)

    def test_missing_resource_path(self):
        slave = self.new_slave(instantiate=False)
        missing = os.path.join(TMP, "no-such-folder", "resources") + os.sep
        self.assertFails(lambda: slave.instantiate_co_simulation(resource_path=missing),
                         "fmi3InstantiateCoSimulation(resourcePath=%s)" % missing, statuses=(None,))
        self.assertIsNone(slave.instance)

    def test_other_interface_types_refused(self):
        # Neither <ModelExchange> nor <ScheduledExecution> is declared: both
        # instantiate functions return NULL and say why.
        self.assertFalse(self.md.has_model_exchange)
        self.assertFalse(self.md.has_scheduled_execution)
        logged = []
        logger = fmi3.fmi3LogMessageCallback(lambda env, st, cat, msg: logged.append((st, cat, msg)))
        lib = fmi3.load_library(fmi3.binary_path(self.fx.folder, self.md.model_identifier))
        token = self.md.instantiation_token.encode()
        res = fmi3.resource_path(self.fx.folder).encode()
        inst = lib.fmi3InstantiateModelExchange(b"me", token, res, False, False, None, logger)
        if inst:
            lib.fmi3FreeInstance(inst)
        self.assertFalse(inst, "fmi3InstantiateModelExchange returned an instance")
        self.assertTrue(logged, "fmi3InstantiateModelExchange returned NULL without a message")
        del logged[:]
        inst = lib.fmi3InstantiateScheduledExecution(b"se", token, res, False, False, None, logger,
                                                     None, None, None)
        if inst:
            lib.fmi3FreeInstance(inst)
        self.assertFalse(inst, "fmi3InstantiateScheduledExecution returned an instance")
        self.assertTrue(logged, "fmi3InstantiateScheduledExecution returned NULL without a message")

    def test_unsupported_functions_refused(self):
        # Every fmi3* function is exported; what the FMU does not provide
        # returns fmi3Error with a logged reason.  The standard lets an FMU
        # demand fmi3Reset after fmi3Error; these FMUs refuse such calls
        # without touching the instance (as their FMI 2.0 counterparts do),
        # so the instance must stay usable.
        slave = self.ready_slave()
        self.run_steps(slave, 2)
        md = self.md
        f64 = fmi3.fmi3Float64
        vr1 = (fmi3.fmi3ValueReference * 1)(md.vr("cable.tension"))
        known = (fmi3.fmi3ValueReference * 1)(md.vr("suspension.x"))
        buf = (f64 * 8)()
        seed = (f64 * 1)(1.0)
        b = [fmi3.fmi3Boolean(False) for _ in range(6)]
        size = ctypes.c_size_t(0)
        u64a, u64b = (fmi3.fmi3UInt64 * 1)(), (fmi3.fmi3UInt64 * 1)()
        quals = (fmi3.fmi3IntervalQualifier * 1)()
        clocks = (fmi3.fmi3Clock * 1)()
        sizes = (ctypes.c_size_t * 1)(1)
        binaries = (fmi3.fmi3Binary * 1)()
        strings = (fmi3.fmi3String * 1)()
        deps = (ctypes.c_size_t * 4)(), (fmi3.fmi3ValueReference * 4)(), (ctypes.c_size_t * 4)(), \
            (fmi3.fmi3DependencyKind * 4)()
        calls = {
            # Model Exchange
            "fmi3EnterContinuousTimeMode": (),
            "fmi3CompletedIntegratorStep": (True, ctypes.byref(b[0]), ctypes.byref(b[1])),
            "fmi3SetTime": (0.5,),
            "fmi3SetContinuousStates": (buf, 1),
            "fmi3GetContinuousStateDerivatives": (buf, 1),
            "fmi3GetEventIndicators": (buf, 1),
            "fmi3GetContinuousStates": (buf, 1),
            "fmi3GetNominalsOfContinuousStates": (buf, 1),
            # event mode and discrete states (hasEventMode is false)
            "fmi3EnterEventMode": (),
            "fmi3EvaluateDiscreteStates": (),
            "fmi3UpdateDiscreteStates": tuple(ctypes.byref(x) for x in b[:5]) + (buf,),
            # derivatives (those not declared; see test_declared_derivatives)
            "fmi3GetDirectionalDerivative": (vr1, 1, known, 1, seed, 1, buf, 1),
            "fmi3GetAdjointDerivative": (vr1, 1, known, 1, seed, 1, buf, 1),
            "fmi3GetOutputDerivatives": (vr1, 1, (fmi3.fmi3Int32 * 1)(1), buf, 1),
            # configuration mode (no structural parameters)
            "fmi3EnterConfigurationMode": (),
            "fmi3ExitConfigurationMode": (),
            # clocks (cable.tension is not a clock)
            "fmi3GetClock": (vr1, 1, clocks),
            "fmi3SetClock": (vr1, 1, clocks),
            "fmi3GetIntervalDecimal": (vr1, 1, buf, quals),
            "fmi3GetIntervalFraction": (vr1, 1, u64a, u64b, quals),
            "fmi3GetShiftDecimal": (vr1, 1, buf),
            "fmi3GetShiftFraction": (vr1, 1, u64a, u64b),
            "fmi3SetIntervalDecimal": (vr1, 1, buf),
            "fmi3SetIntervalFraction": (vr1, 1, u64a, u64b),
            "fmi3SetShiftDecimal": (vr1, 1, buf),
            "fmi3SetShiftFraction": (vr1, 1, u64a, u64b),
            # Scheduled Execution
            "fmi3ActivateModelPartition": (md.vr("cable.tension"), 0.0),
            # per-element dependencies are not provided
            "fmi3GetNumberOfVariableDependencies": (md.vr("cable.tension"), ctypes.byref(size)),
            "fmi3GetVariableDependencies": (md.vr("cable.tension"),) + deps + (1,),
            # a Float64 variable through the getters and setters of other types
            "fmi3GetBinary": (vr1, 1, sizes, binaries, 1),
            "fmi3SetBinary": (vr1, 1, sizes, binaries, 1),
            "fmi3GetString": (vr1, 1, strings, 1),
            "fmi3SetString": (vr1, 1, (fmi3.fmi3String * 1)(b"1"), 1),
        }
        for name, ctype in (("Float32", fmi3.fmi3Float32), ("Int8", fmi3.fmi3Int8), ("UInt8", fmi3.fmi3UInt8),
                            ("Int16", fmi3.fmi3Int16), ("UInt16", fmi3.fmi3UInt16), ("Int32", fmi3.fmi3Int32),
                            ("UInt32", fmi3.fmi3UInt32), ("Int64", fmi3.fmi3Int64), ("UInt64", fmi3.fmi3UInt64),
                            ("Boolean", fmi3.fmi3Boolean)):
            calls["fmi3Get" + name] = (vr1, 1, (ctype * 1)(), 1)
            calls["fmi3Set" + name] = (vr1, 1, (ctype * 1)(), 1)
        if md.provides_directional_derivatives:
            del calls["fmi3GetDirectionalDerivative"]
        if md.provides_adjoint_derivatives:
            del calls["fmi3GetAdjointDerivative"]
        if md.max_output_derivative_order >= 1:
            del calls["fmi3GetOutputDerivatives"]
        for name, args in calls.items():
            with self.subTest(function=name):
                self.assertRawFails(slave, name, *args)
        # fmi3GetNumberOf{EventIndicators,ContinuousStates} belong to Model
        # Exchange: fmi3Error with a message, or fmi3OK reporting none.
        for name in ("fmi3GetNumberOfEventIndicators", "fmi3GetNumberOfContinuousStates"):
            with self.subTest(function=name):
                size.value = 12345
                before = len(slave.messages)
                status = slave.call(name, ctypes.byref(size))
                if status == fmi3.ERROR:
                    self.assertTrue([m for m in slave.messages[before:] if m[0] != fmi3.OK],
                                    "%s returned fmi3Error without a message" % name)
                else:
                    self.assertEqual((status, size.value), (fmi3.OK, 0),
                                     "%s: expected fmi3Error, or fmi3OK with 0" % name)
        # the instance is still usable for co-simulation
        self.run_steps(slave, 3, t0=2 * H)

    def test_declared_derivatives(self):
        # Derivatives the model description declares are provided; an output
        # derivative of a higher order than maxOutputDerivativeOrder is refused.
        md = self.md
        slave = self.ready_slave()
        self.run_steps(slave, 3, inputs_at=self.motion)
        outputs = [v.name for v in md.by_causality("output") if not v.is_array and v.type == "Float64"]
        inputs = [n for n in INPUTS if n in md.variables]
        if md.max_output_derivative_order >= 1:
            for order in range(1, md.max_output_derivative_order + 1):
                values = slave.get_output_derivatives(outputs, order)
                self.assertFinite(values, "fmi3GetOutputDerivatives(order %d) of %s" % (order, outputs))
            too_high = md.max_output_derivative_order + 1
            self.assertFails(lambda: slave.get_output_derivatives(outputs[:1], too_high),
                             "fmi3GetOutputDerivatives(%s, order %d > maxOutputDerivativeOrder %d)"
                             % (outputs[0], too_high, md.max_output_derivative_order))
        for flag, name in (("provides_directional_derivatives", "fmi3GetDirectionalDerivative"),
                           ("provides_adjoint_derivatives", "fmi3GetAdjointDerivative")):
            if not getattr(md, flag):
                continue
            with self.subTest(function=name):
                unknowns = (fmi3.fmi3ValueReference * len(outputs))(*md.vrs(outputs))
                knowns = (fmi3.fmi3ValueReference * len(inputs))(*md.vrs(inputs))
                n_seed = len(inputs) if name == "fmi3GetDirectionalDerivative" else len(outputs)
                n_sens = len(outputs) if name == "fmi3GetDirectionalDerivative" else len(inputs)
                seed = (fmi3.fmi3Float64 * n_seed)(*([1.0] * n_seed))
                sens = (fmi3.fmi3Float64 * n_sens)()
                status = slave.call(name, unknowns, len(outputs), knowns, len(inputs), seed, n_seed, sens, n_sens)
                self.assertEqual(status, fmi3.OK, "%s(all scalar outputs, all inputs, seed 1): %s; messages %r"
                                 % (name, sname(status), slave.messages[-3:]))
                self.assertFinite(list(sens), "%s sensitivities" % name)
        if not (md.max_output_derivative_order or md.provides_directional_derivatives
                or md.provides_adjoint_derivatives):
            self.skipTest("the model description declares no derivatives")

    def test_null_instance_does_not_crash(self):
        out = self.run_script("""
            md = fmi3.read_model_description(FOLDER)
            lib = fmi3.load_library(fmi3.binary_path(FOLDER, md.model_identifier))
            vr = (fmi3.fmi3ValueReference * 1)(md.vr("cable.tension"))
            val = (fmi3.fmi3Float64 * 1)(1.0)
            b = fmi3.fmi3Boolean(False)
            t = fmi3.fmi3Float64(0.0)
            state = fmi3.fmi3FMUState()
            size = ctypes.c_size_t(0)
            calls = [
                ("fmi3SetDebugLogging", (True, 0, None)),
                ("fmi3EnterInitializationMode", (False, 0.0, 0.0, False, 0.0)),
                ("fmi3ExitInitializationMode", ()),
                ("fmi3GetFloat64", (vr, 1, val, 1)),
                ("fmi3SetFloat64", (vr, 1, val, 1)),
                ("fmi3DoStep", (0.0, 0.01, True, ctypes.byref(b), ctypes.byref(b), ctypes.byref(b),
                                ctypes.byref(t))),
                ("fmi3GetFMUState", (ctypes.byref(state),)),
                ("fmi3SerializedFMUStateSize", (None, ctypes.byref(size))),
                ("fmi3EnterStepMode", ()),
                ("fmi3Terminate", ()),
                ("fmi3Reset", ()),
            ]
            bad = []
            for name, args in calls:
                st = getattr(lib, name)(None, *args)
                print(name, st, flush=True)
                if st != fmi3.ERROR:
                    bad.append("%s(NULL, ...) returned %d" % (name, st))
            lib.fmi3FreeInstance(None)
            print("fmi3FreeInstance(NULL) returned", flush=True)
            if bad:
                print("expected fmi3Error for a NULL instance: " + "; ".join(bad))
                sys.exit(3)
            print("OK")
        """)
        self.assertIn("OK", out)

    def test_do_step_null_output_pointers(self):
        # fmi3DoStep writes its four output arguments; NULL pointers must not
        # crash the host (fmi3Error with a message, or ignored).
        out = self.run_script("""
            md = fmi3.read_model_description(FOLDER)
            s = fmi3.FMU3Slave(FOLDER, "null-outputs", model_description=md)
            s.instantiate_co_simulation()
            s.enter_initialization_mode()
            s.exit_initialization_mode()
            st = s.call("fmi3DoStep", 0.0, 0.01, True, None, None, None, None)
            print("status", st, s.messages[-3:], flush=True)
            if st == fmi3.ERROR and not s.messages:
                print("fmi3Error without a message")
                sys.exit(3)
            s.free()
            print("OK")
        """)
        self.assertIn("OK", out)


class TestHoist(CommonTests, FMU3Case):
    KEY = "hoist"
    TENSION_TOL = 0.005

    def assertTensionIsWeight(self, slave, what):
        tension, mass, g = slave.get_float64(["cable.tension", "load.mass", "gravity"])
        rel = (tension - mass * g) / (mass * g)
        self.assertLessEqual(abs(rel), self.TENSION_TOL,
                             "%s: cable.tension %.6g N vs load.mass*gravity %.6g N, deviation %.4f %% > %.2f %%"
                             % (what, tension, mass * g, 100 * rel, 100 * self.TENSION_TOL))

    def test_static_equilibrium_at_start(self):
        slave = self.ready_slave()
        self.assertTensionIsWeight(slave, "right after fmi3ExitInitializationMode")
        out = dict(zip(OUTPUTS, slave.get_float64(OUTPUTS)))
        for name in ("load.vx", "load.vy", "load.vz"):
            self.assertLess(abs(out[name]), 1e-6, "%s = %g: the load is not at rest" % (name, out[name]))
        self.assertAlmostEqual(out["suspension.fz"], -out["cable.tension"], delta=1e-6 * out["cable.tension"],
                               msg="suspension.fz vs -cable.tension of a vertical cable")
        self.run_steps(slave, 120)
        self.assertTensionIsWeight(slave, "after 120 steps of 1/60 s at rest")

    def test_c_master(self):
        gcc = shutil.which("gcc")
        if not gcc:
            if IN_CI:
                self.fail("CI=true but gcc not found")
            self.skipTest("gcc not found")
        exe = os.path.join(TMP, "fmi3_master")
        build = subprocess.run([gcc, "-O2", "-Wall", "-Wextra", "-o", exe, C_MASTER, "-ldl", "-lpthread", "-lm"],
                               capture_output=True, text=True, timeout=120)
        self.assertEqual(build.returncode, 0, "gcc failed:\n%s" % build.stderr)
        self.assertEqual(build.stderr.strip(), "", "gcc warnings:\n%s" % build.stderr)
        proc = subprocess.run([exe, self.fx.folder], capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, "C master exit code %d\nstdout:\n%s\nstderr:\n%s"
                         % (proc.returncode, proc.stdout, proc.stderr))
        self.assertIn("PASS", proc.stdout)

    def test_two_masses(self):
        light = self.ready_slave("light", params={"load.mass": 1000.0})
        heavy = self.ready_slave("heavy", params={"load.mass": 2500.0})
        for s in (light, heavy):
            self.run_steps(s, 60)
            self.assertTensionIsWeight(s, "instance %s" % s.instance_name)


class TestRigidHoist(CommonTests, FMU3Case):
    KEY = "rigid"
    FZ_TOL = 0.01

    def expected_fz(self, slave):
        mass, density, d, length0, g = slave.get_float64(
            ["load.mass", "cable.density", "cable.diameter", "cable.length0", "gravity"])
        return -(mass + density * math.pi * d * d / 4 * length0) * g

    def assertCarriesLoadAndCable(self, slave, what):
        fz, = slave.get_float64(["suspension.fz"])
        want = self.expected_fz(slave)
        self.assertLess(abs(fz / want - 1), self.FZ_TOL,
                        "%s: suspension.fz %.2f N, want -(M + m_cable)*g = %.2f N within %g %% (off by %.3f %%)"
                        % (what, fz, want, 100 * self.FZ_TOL, 100 * (fz / want - 1)))

    def test_static_equilibrium_at_start(self):
        slave = self.ready_slave()
        self.assertCarriesLoadAndCable(slave, "right after fmi3ExitInitializationMode")
        self.run_steps(slave, 120)
        self.assertCarriesLoadAndCable(slave, "after 120 steps of 1/60 s at rest")

    def node_count(self):
        """The nodes cable.node holds: the segment ends."""
        return scenario(FMUS[self.KEY][2])["config"]["cable"]["segments"] + 1

    def node_variable(self):
        arrays = [v for v in self.md.variables.values() if v.is_array]
        self.assertIn("cable.node", self.md.variables,
                      "no array variable cable.node (array variables: %s)" % [v.name for v in arrays])
        return self.md.variables["cable.node"]

    def test_node_array(self):
        var = self.node_variable()
        self.assertEqual(var.type, "Float64")
        self.assertEqual(var.causality, "output")
        count = self.node_count()
        self.assertEqual(var.shape, (count, 3),
                         "cable.node dimensions %s, want %d x 3 (one row a node)" % (var.shape, count))
        slave = self.ready_slave()
        t = self.run_steps(slave, 60)
        flat = slave.get_float64(["cable.node"])
        self.assertEqual(len(flat), var.size)
        self.assertFinite(flat, "cable.node after 60 steps")
        nodes = slave.get_array("cable.node")
        self.assertEqual(len(nodes), count)
        x, y, z = slave.get_float64(["suspension.x", "suspension.y", "suspension.z"])
        top, bottom = nodes[0], nodes[-1]
        for k, (got, want) in enumerate(zip(top, (x, y, z))):
            self.assertAlmostEqual(got, want, delta=0.01, msg="cable.node[1] component %d = %r, the suspension "
                                   "point is at %r (t = %.3f s)" % (k + 1, got, want, t))
        length, = slave.get_float64(["cable.length"])
        polyline = sum(math.dist(a, b) for a, b in zip(nodes, nodes[1:]))
        self.assertAlmostEqual(polyline, length, delta=0.01 * length,
                               msg="the nodes span %.4f m along the cable, cable.length = %.4f m" % (polyline, length))
        self.assertAlmostEqual(top[2] - bottom[2], length, delta=0.05,
                               msg="a hanging cable: top z %.4f - bottom z %.4f vs cable.length %.4f"
                               % (top[2], bottom[2], length))
        # the array's values in a call together with scalars, in order
        mixed = slave.get_float64(["cable.tension", "cable.node", "cable.length"])
        self.assertEqual(bits(mixed), bits(slave.get_float64(["cable.tension"]) + flat + [length]))

    def test_node_array_wrong_number_of_values(self):
        var = self.node_variable()
        slave = self.ready_slave()
        vr = (fmi3.fmi3ValueReference * 1)(var.value_reference)
        buf = (fmi3.fmi3Float64 * (var.size + 1))()
        for n in (1, var.size - 1, var.size + 1):
            self.assertRawFails(slave, "fmi3GetFloat64", vr, 1, buf, n,
                                what="fmi3GetFloat64(cable.node of %d elements, nValues=%d)" % (var.size, n))

    def test_node_array_not_settable(self):
        var = self.node_variable()
        slave = self.ready_slave()
        self.assertFails(lambda: slave.set_float64(["cable.node"], [0.0] * var.size),
                         "fmi3SetFloat64 of the output cable.node")


class TestMassSpringHoist(TestRigidHoist):
    """The mass-spring cable through the rigid-body cable's tests: the same ports, statics and node array."""
    KEY = "massspring"
    FZ_TOL = 0.001


class TestSplineHoist(TestRigidHoist):
    """The spline cable through the rigid-body cable's tests; its nodes sample the centreline."""
    KEY = "spline"
    FZ_TOL = 1e-6

    def node_count(self):
        return scenario(FMUS[self.KEY][2])["config"]["spline"]["outputNodes"]


if __name__ == "__main__":
    unittest.main()
