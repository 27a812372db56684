"""Helpers shared by the FMI 2.0 and FMI 3.0 tests (test_fmi2.py, test_fmi3.py).

Importing this module puts the Python package (examples/clients/python/cablefmu,
with the ctypes bindings) on ``sys.path``, so that ``from cablefmu import fmi2, fmi3``
works without installing it.
"""

import math
import os
import shutil
import struct
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BINDING_DIR = os.path.join(REPO, "examples", "clients", "python")
if BINDING_DIR not in sys.path:
    sys.path.insert(0, BINDING_DIR)

# The scalar variables both Hoist FMUs declare, in both standards.
INPUTS = ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed"]
OUTPUTS = ["suspension.fx", "suspension.fy", "suspension.fz", "cable.tension", "cable.length",
           "load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz"]
PARAMETERS = ["load.mass", "cable.length0", "cable.E", "cable.diameter", "cable.density",
              "gravity", "internalStep"]
#: ``(name, causality)`` of INPUTS, OUTPUTS and PARAMETERS.
DECLARED = [(n, "input") for n in INPUTS] + [(n, "output") for n in OUTPUTS] + \
           [(n, "parameter") for n in PARAMETERS]


class Slave:
    """An FMI 2.0 or 3.0 Co-Simulation instance of an FMU unpacked in ``folder``, behind the same calls."""

    def __init__(self, version, folder, name):
        from cablefmu import fmi2
        from cablefmu import fmi3
        self.version = version
        if version == 2:
            self.s = fmi2.FMU2Slave(folder, name)
            self.s.instantiate()
        else:
            self.s = fmi3.FMU3Slave(folder, instance_name=name)
            self.s.instantiate_co_simulation()
        self.error = fmi2.FMIError if version == 2 else fmi3.FMIError

    def initialize(self, parameters=None):
        self.s.initialize(parameters=parameters)
        return self

    def get(self, names):
        """Variables of any type as numbers (counts and switches through their own functions)."""
        return self.s.get_values(names)

    def set(self, names, values):
        return self.s.set_values(names, values)

    def step(self, t, h):
        """One communication step from t; returns t + h."""
        self.s.do_step(t, h)
        return t + h

    def free(self):
        self.s.free()


def unpack_standards(prefix, example, identifier):
    """Unpack the FMI 2.0 and 3.0 builds of an example, named by IDENTIFIER_FMU and IDENTIFIER3_FMU.

    ``example`` is its scenario folder and ``identifier`` its model identifier.
    Returns a new temporary folder (for remove_tmp) and {2: folder, 3: folder};
    raises RuntimeError naming a missing FMU and the command that builds it.
    """
    from cablefmu import fmi2  # the binding's unzip serves both standards
    env = identifier.upper() + "_FMU"
    builds = {env: "go run ./build export -o out/%s.fmu %s" % (identifier, example),
              env.replace("_FMU", "3_FMU"): "go run ./build export -fmi 3 -o out/%s3.fmu %s" % (identifier, example)}
    problems = [p for p in (fmu_path_problem(e, b) for e, b in builds.items()) if p]
    if problems:
        raise RuntimeError("\n".join(problems))
    tmp = make_tmp(prefix)
    return tmp, {version: fmi2.unzip(os.environ[e], os.path.join(tmp, "fmi%d" % version))
                 for version, e in zip((2, 3), builds)}


def bits(values):
    """Exact byte image of a list of floats, for bitwise comparisons."""
    return struct.pack("<%dd" % len(values), *values)


def fmu_path_problem(env, build):
    """What is wrong with the FMU named by the environment variable ``env`` (None: nothing).

    ``build`` is the command that builds it, quoted in the message.
    """
    path = os.environ.get(env)
    if not path:
        return "%s is not set (build the FMU with '%s' and set %s to it)" % (env, build, env)
    if not os.path.isfile(path):
        return "%s=%s: no such file (build it with '%s')" % (env, path, build)
    return None


def make_tmp(prefix):
    """A new temporary folder for the unpacked FMUs of a test module."""
    return tempfile.mkdtemp(prefix=prefix)


def remove_tmp(tmp):
    """Remove a test module's temporary folder (None: nothing to do).

    The binaries loaded from it stay mapped (they cannot be unloaded);
    removing their files is fine.
    """
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)


def status_name(binding, status):
    """Name of a status of ``binding`` (``fmi2`` or ``fmi3``); None stands for a NULL instance."""
    return "NULL" if status is None else binding.STATUS_NAMES.get(status, str(status))


class StatusAssertions:
    """Assertions on FMI statuses, mixed into a unittest.TestCase.

    ``FMI`` is the binding module (``fmi2`` or ``fmi3``): its STATUS_NAMES,
    OK, ERROR and FMIError are used.
    """

    FMI = None

    def sname(self, status):
        """Name of a status; None stands for a NULL instance."""
        return status_name(self.FMI, status)

    def assertFails(self, fn, what, statuses=None, mentions=()):
        """fn() must raise FMIError with a status in ``statuses`` (default: Error) and log a non-OK message.

        ``mentions``: strings that must appear in one of the logged messages.
        """
        statuses = (self.FMI.ERROR,) if statuses is None else statuses
        expected = "/".join(self.sname(s) for s in statuses)
        with self.assertRaises(self.FMI.FMIError, msg="%s: expected %s, the call succeeded" % (what, expected)) as cm:
            fn()
        err = cm.exception
        self.assertIn(err.status, statuses, "%s: expected %s, got %s" % (what, expected, self.sname(err.status)))
        logged = [m for m in err.messages if m[0] != self.FMI.OK]
        self.assertTrue(logged, "%s: %s without a logged error message (messages of the call: %r)" % (
            what, self.sname(err.status), err.messages))
        for word in mentions:
            self.assertTrue(any(word in text for _, _, text in logged),
                            "%s: no logged message mentions %r: %r" % (what, word, logged))
        return err

    def assertRawFails(self, slave, name, *args, what=None):
        """A raw call (status returned, not raised) must give Error and log a message; returns those logged."""
        what = what or name
        error = self.sname(self.FMI.ERROR)
        before = len(slave.messages)
        status = slave.call(name, *args)
        self.assertEqual(status, self.FMI.ERROR, "%s: expected %s, got %s" % (what, error, self.sname(status)))
        logged = [m for m in slave.messages[before:] if m[0] != self.FMI.OK]
        self.assertTrue(logged, "%s: returned %s but logged no error message" % (what, error))
        return logged

    def assertDeclared(self, md, variables, type_, check=None):
        """Every ``(name, causality)`` of ``variables`` is in ``md`` with that causality and type ``type_``;
        ``check(name, var)`` adds assertions of its own."""
        for name, causality in variables:
            with self.subTest(variable=name):
                self.assertIn(name, md.variables, "variable %s missing from modelDescription.xml" % name)
                var = md.variables[name]
                self.assertEqual(var.type, type_, "%s type" % name)
                self.assertEqual(var.causality, causality, "%s causality" % name)
                if check is not None:
                    check(name, var)

    def assertRestoreRepeats(self, slave, t0, n0, t1, n1, what):
        """Drive ``n0`` steps from ``t0``, save the FMU state, drive ``n1`` steps from ``t1``, restore the
        state and drive them again: both runs must agree bitwise.  Uses ``self.drive(slave, t, n)``
        (returning ``bits`` of the outputs); returns the saved state."""
        self.drive(slave, t0, n0)
        state = slave.get_fmu_state()
        first = self.drive(slave, t1, n1)
        slave.set_fmu_state(state)
        again = self.drive(slave, t1, n1)
        self.assertEqual(first, again, what)
        return state


#: The example hoist FMUs by environment variable, with the command that builds each.
EXAMPLE_FMUS = {
    "HOIST_FMU": "go run ./build export -o out/Hoist.fmu examples/massless",
    "RIGIDHOIST_FMU": "go run ./build export -o out/RigidHoist.fmu examples/rigid-cable",
    "HOIST3_FMU": "go run ./build export -fmi 3 -o out/Hoist3.fmu examples/massless",
    "RIGIDHOIST3_FMU": "go run ./build export -fmi 3 -o out/RigidHoist3.fmu examples/rigid-cable",
    "MASSSPRINGHOIST_FMU": "go run ./build export -o out/MassSpringHoist.fmu examples/mass-spring",
    "MASSSPRINGHOIST3_FMU": "go run ./build export -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring",
    "SPLINEHOIST_FMU": "go run ./build export -o out/SplineHoist.fmu examples/spline",
    "SPLINEHOIST3_FMU": "go run ./build export -fmi 3 -o out/SplineHoist3.fmu examples/spline",
}


def unpack_examples(prefix):
    """Unpack the example hoist FMUs into a new temporary folder.

    Returns the folder (for remove_tmp) and a dict environment variable ->
    unpacked folder; raises RuntimeError naming a missing FMU and its build.
    """
    from cablefmu import fmi2  # the binding's unzip serves both standards
    for env, build in EXAMPLE_FMUS.items():
        problem = fmu_path_problem(env, build)
        if problem:
            raise RuntimeError(problem)
    tmp = make_tmp(prefix)
    return tmp, {env: fmi2.unzip(os.environ[env], os.path.join(tmp, env)) for env in EXAMPLE_FMUS}


class CableHoistChecks(StatusAssertions):
    """The checks every cable model with the Hoist ports passes from outside Go, mixed into a unittest.TestCase.

    The class sets VERSION (2 or 3), FMI (the binding), FOLDERS ({version: the unpacked FMU}), INSTANCE (the
    instances' name), EXTRA_OUTPUTS (the model's own outputs compared bitwise with OUTPUTS), FZ_TOLERANCE (of
    the crane's static force, relative) and DRIVE (the inputs set before each step: a function of t returning
    names and values).
    """

    VERSION = FMI = FOLDERS = INSTANCE = DRIVE = None
    EXTRA_OUTPUTS = []
    FZ_TOLERANCE = 1e-3
    H = 1.0 / 60

    def slave(self, name=None, parameters=None, initialize=True):
        s = Slave(self.VERSION, self.FOLDERS[self.VERSION], name or self.INSTANCE)
        self.addCleanup(s.free)
        return s.initialize(parameters) if initialize else s

    def outputs(self, s):
        return bits(s.get(OUTPUTS + self.EXTRA_OUTPUTS))

    def drive(self, s, t, steps):
        for _ in range(steps):
            s.set(*type(self).DRIVE(t))
            t = s.step(t, self.H)
        return t

    def test_statics_and_load_mass_parameter(self):
        """At rest the crane carries -(M + rho A L) g within FZ_TOLERANCE, for the scenario's load and a 2 t one."""
        for mass in (None, 2000.0):
            s = self.slave(parameters=None if mass is None else {"load.mass": mass})
            t = 0.0
            for _ in range(60):
                t = s.step(t, self.H)
            fz, m, rho, d, l0 = s.get(["suspension.fz", "load.mass", "cable.density", "cable.diameter", "cable.length0"])
            want = -(m + rho * math.pi * d * d / 4 * l0) * s.get(["gravity"])[0]
            self.assertLess(abs(fz / want - 1), self.FZ_TOLERANCE,
                            "suspension.fz %.3f N, want %.3f (load %g kg)" % (fz, want, m))

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
        s = self.slave("bad", initialize=False)
        self.assertFails(lambda: s.set(["load.mass"], [float("nan")]), "load.mass = nan", mentions=["load.mass"])
        self.assertFails(lambda: s.set(["cable.length0"], [-1.0]), "cable.length0 = -1", mentions=["cable.length0"])
        self.assertFails(lambda: s.set(["internalStep"], [0.0]), "internalStep = 0", mentions=["internalStep"])
        s.initialize()
        self.assertFails(lambda: s.set(["suspension.vx"], [float("inf")]), "suspension.vx = inf", mentions=["suspension.vx"])
        self.assertFails(lambda: s.step(0.0, -self.H), "a negative communication step")
        values = s.get(OUTPUTS)
        self.assertTrue(all(math.isfinite(v) for v in values), "outputs finite after refused calls")
