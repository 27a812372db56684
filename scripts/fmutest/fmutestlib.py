"""Helpers shared by the FMI 2.0 and FMI 3.0 tests (test_fmu2.py, test_fmu3.py).

Importing this module puts the Python package (examples/clients/python/cablefmu,
with the ctypes bindings) on ``sys.path``, so that ``from cablefmu import fmi2, fmi3``
works without installing it.
"""

import os
import shutil
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BINDING_DIR = os.path.join(REPO, "examples", "clients", "python")
if BINDING_DIR not in sys.path:
    sys.path.insert(0, BINDING_DIR)

# The scalar variables both Hoist FMUs declare, in both standards.
INPUTS = ["hoist.x", "hoist.y", "hoist.z", "hoist.vx", "hoist.vy", "hoist.vz", "winch.speed"]
OUTPUTS = ["hoist.fx", "hoist.fy", "hoist.fz", "cable.tension", "cable.length",
           "load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz"]
PARAMETERS = ["load.mass", "cable.length0", "cable.E", "cable.diameter", "cable.density",
              "gravity", "h"]
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
        return self.s.get_real(names) if self.version == 2 else self.s.get_float64(names)

    def set(self, names, values):
        return self.s.set_real(names, values) if self.version == 2 else self.s.set_float64(names, values)

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
    builds = {env: "go run ./build -o out/%s.fmu %s" % (identifier, example),
              env.replace("_FMU", "3_FMU"): "go run ./build -fmi 3 -o out/%s3.fmu %s" % (identifier, example)}
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
    "HOIST_FMU": "go run ./build -o out/Hoist.fmu examples/hoist",
    "RIGIDHOIST_FMU": "go run ./build -o out/RigidHoist.fmu examples/rigid-hoist",
    "HOIST3_FMU": "go run ./build -fmi 3 -o out/Hoist3.fmu examples/hoist",
    "RIGIDHOIST3_FMU": "go run ./build -fmi 3 -o out/RigidHoist3.fmu examples/rigid-hoist",
    "MASSSPRINGHOIST_FMU": "go run ./build -o out/MassSpringHoist.fmu examples/mass-spring-hoist",
    "MASSSPRINGHOIST3_FMU": "go run ./build -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring-hoist",
    "SPLINEHOIST_FMU": "go run ./build -o out/SplineHoist.fmu examples/spline-hoist",
    "SPLINEHOIST3_FMU": "go run ./build -fmi 3 -o out/SplineHoist3.fmu examples/spline-hoist",
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
