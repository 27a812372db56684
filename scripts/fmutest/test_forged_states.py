"""Forged and short serialized FMU states through the C API, for every model FMU that scripts/test.sh builds.

A state edited to hold inf, nan or +-1e300 in its simulation part, its SHA-256 recomputed the way the format
has it, must be refused by fmi2DeSerializeFMUstate/fmi3DeserializeFMUState or by
fmi2SetFMUstate/fmi3SetFMUState: every number is forged to +-1e300 (inf and nan on a sample), beyond the
bound STATE_LIMIT every number of a state keeps (fmu.StateLimit); a position forged to 1e300 must be
refused; and where a forged number is accepted, no getter may then give with OK an output beyond
OUTPUT_LIMIT (fmu.OutputLimit) or a non-finite value, nor an output derivative beyond 2 OUTPUT_LIMIT / h.  A buffer cut short, a header declaring
another length, or a size larger than the buffer gets Error, never a crash: the larger size is passed
with the buffer ending at an inaccessible page, in a child process, so that a read past the buffer ends
the child, not the suite.

Run from the repository root with the FMUs built and named as scripts/test.sh does it (HOIST_FMU,
HOIST3_FMU, RIGIDHOIST_FMU, RIGIDHOIST3_FMU, HOISTCONTROLLED_FMU, WIREBEAM_FMU, WIREBEAM3_FMU,
WIREHOIST_FMU, WIREHOIST3_FMU, MASSSPRINGHOIST_FMU, MASSSPRINGHOIST3_FMU, SPLINEHOIST_FMU,
SPLINEHOIST3_FMU):

    python3 -m unittest scripts/fmutest/test_forged_states.py -v
"""

import ctypes
import hashlib
import json
import math
import mmap
import os
import struct
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fmutestlib  # noqa: E402
from cablefmu import fmi2  # noqa: E402  (fmutestlib put the bindings on sys.path)
from cablefmu import fmi3  # noqa: E402

#: Environment variable -> (FMI version, the command that builds it), as in scripts/test.sh.
MODELS = {
    "HOIST_FMU": (2, "go run ./build export -o out/Hoist.fmu examples/massless"),
    "HOIST3_FMU": (3, "go run ./build export -fmi 3 -o out/Hoist3.fmu examples/massless"),
    "RIGIDHOIST_FMU": (2, "go run ./build export -o out/RigidHoist.fmu examples/rigid-cable"),
    "RIGIDHOIST3_FMU": (3, "go run ./build export -fmi 3 -o out/RigidHoist3.fmu examples/rigid-cable"),
    "HOISTCONTROLLED_FMU": (2, "go run ./build export -o out/HoistControlled.fmu examples/massless-controlled"),
    "WIREBEAM_FMU": (2, "go run ./build export -o out/WireBeam.fmu examples/hmr-wire"),
    "WIREBEAM3_FMU": (3, "go run ./build export -fmi 3 -o out/WireBeam3.fmu examples/hmr-wire"),
    "WIREHOIST_FMU": (2, "go run ./build export -o out/WireHoist.fmu examples/wire-hoist"),
    "WIREHOIST3_FMU": (3, "go run ./build export -fmi 3 -o out/WireHoist3.fmu examples/wire-hoist"),
    "MASSSPRINGHOIST_FMU": (2, "go run ./build export -o out/MassSpringHoist.fmu examples/mass-spring"),
    "MASSSPRINGHOIST3_FMU": (3, "go run ./build export -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring"),
    "SPLINEHOIST_FMU": (2, "go run ./build export -o out/SplineHoist.fmu examples/spline"),
    "SPLINEHOIST3_FMU": (3, "go run ./build export -fmi 3 -o out/SplineHoist3.fmu examples/spline"),
}

# The serialized state's layout (fmu/state.go): the magic, the format (uint32) and the total length
# (uint64); the engine version and the GUID (uint32 length + bytes); the state machine value (int32),
# three flags, three times and the grid offset (float64); the changed inputs (uint32 count + bytes);
# six float64 arrays (uint32 count + numbers): values, input derivatives, outputs one step back, the
# simulation's state, the driven points' paths and the values the simulation was built from; the extra bytes
# (uint32 count + bytes); the SHA-256 of everything before it.
MAGIC = b"cablefmu-state\x00"
HEADER = len(MAGIC) + 4 + 8
SUM = 32

TMP = None
FOLDERS = {}
H = 1.0 / 60

#: fmu.OutputLimit and fmu.StateLimit: the bounds of a restored state's outputs and other numbers.
OUTPUT_LIMIT = 1e12
STATE_LIMIT = 1e30


def setUpModule():
    global TMP
    problems = [p for p in (fmutestlib.fmu_path_problem(env, build) for env, (_, build) in MODELS.items()) if p]
    if problems:
        raise RuntimeError("\n".join(problems))
    TMP = fmutestlib.make_tmp("forged-states-")
    for env in MODELS:
        FOLDERS[env] = fmi2.unzip(os.environ[env], os.path.join(TMP, env))


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def sim_part(blob):
    """Offset and count of the simulation's numbers in a serialized state."""
    at = HEADER

    def u32():
        nonlocal at
        x, = struct.unpack_from("<I", blob, at)
        at += 4
        return x

    def skip(size):
        """Read a count, then step over that many items of size bytes."""
        nonlocal at
        n = u32()  # first: it moves at past the count
        at += size * n
    skip(1)  # version
    skip(1)  # GUID
    at += 4 + 3 + 3 * 8 + 8  # state machine value, flags, times, grid offset
    skip(1)  # changed inputs
    for _ in range(3):  # values, derivatives, outputs one step back
        skip(8)
    n = u32()
    assert at + 8 * n <= len(blob) - SUM, "simulation part runs past the state"
    return at, n


def reseal(blob):
    """The state with its checksum recomputed over the edited bytes, as a forger would."""
    return blob[:-SUM] + hashlib.sha256(blob[:-SUM]).digest()


def forge(blob, at, x):
    return reseal(blob[:at] + struct.pack("<d", x) + blob[at + 8:])


def api(version):
    """(binding, DeSerialize function name, SetState function name, byte type)."""
    if version == 2:
        return fmi2, "fmi2DeSerializeFMUstate", "fmi2SetFMUstate", fmi2.fmi2Byte
    return fmi3, "fmi3DeserializeFMUState", "fmi3SetFMUState", fmi3.fmi3Byte


def running(env, name):
    """An instance of the FMU named by env, initialized and stepped for 0.2 s with the suspension point
    moving where the model has one; returns it, its serialized state and its time."""
    version = MODELS[env][0]
    s = fmutestlib.Slave(version, FOLDERS[env], name)
    s.initialize()
    t = 0.0
    for k in range(12):
        if "suspension.x" in s.s.md.variables:
            s.set(["suspension.x"], [0.01 * k])
        t = s.step(t, H)
    state = s.s.get_fmu_state()
    blob = s.s.serialize_fmu_state(state)
    s.s.free_fmu_state(state)
    return s, blob, t


def real_names(s):
    """Every Real/Float64 variable but the FMI 3.0 independent time."""
    return sorted(n for n, v in s.s.md.variables.items()
                  if v.type in ("Real", "Float64") and v.causality != "independent")


def deserialize_raw(s, data, size=None, buffer_size=None):
    """fmi2DeSerializeFMUstate/fmi3DeserializeFMUState with data in a buffer of buffer_size bytes (default
    its length) and the given size (default the buffer's); returns the status and the handle."""
    _, fn, _, byte = api(s.version)
    n = len(data) if buffer_size is None else buffer_size
    buf = (byte * max(n, 1))()
    ctypes.memmove(buf, data, min(len(data), n))
    handle = ctypes.c_void_p()
    status = s.s.call(fn, buf, n if size is None else size, ctypes.byref(handle))
    return status, handle.value


class ForgedStates(fmutestlib.StatusAssertions, unittest.TestCase):
    FMI = fmi2  # the statuses of both standards have the same numbers

    def test_forged_numbers_refused_or_getters_bounded(self):
        """Every number of the simulation part forged to +-1e300, and a sample to inf, -inf, nan: refused by
        DeSerialize or SetState (a position always); one restored must leave every getter finite, every
        output within OUTPUT_LIMIT and every output derivative within 2 OUTPUT_LIMIT / h."""
        for env in MODELS:
            with self.subTest(fmu=env):
                self.check_forgeries(env)

    def check_forgeries(self, env):
        s, blob, t = running(env, "forged")
        self.addCleanup(s.free)
        binding, _, set_fn, _ = api(s.version)
        names = real_names(s)
        before = s.get(names)
        at, n = sim_part(blob)
        self.assertGreater(n, 0, "%s: no simulation part in the state" % env)
        # Numbers holding exactly a nonzero height (an input or output .z, or in FMI 3.0 the z elements of
        # an array of points such as cable.node): positions.
        heights = set()
        for nm in names:
            var = s.s.md.variables[nm]
            if getattr(var, "is_array", False):
                heights |= {struct.pack("<d", z) for z in s.get([nm])[2::3] if z != 0}
            elif nm.endswith(".z"):
                heights |= {struct.pack("<d", z) for z in s.get([nm]) if z != 0}
        positions = {k for k in range(n) if blob[at + 8 * k:at + 8 * k + 8] in heights}
        self.assertTrue(positions, "%s: no position found in the simulation's state" % env)
        stride = max(1, n // 60)
        outputs = [nm for nm in names if s.s.md.variables[nm].causality == "output"]
        h = s.get(["internalStep"])[0] if "internalStep" in s.s.md.variables else H
        accepted = 0
        for k in range(n):
            forgeries = (1e300, -1e300) + ((math.inf, -math.inf, math.nan) if k % stride == 0 or k in positions else ())
            for x in forgeries:
                data = forge(blob, at + 8 * k, x)
                status, handle = deserialize_raw(s, data)
                if status != binding.OK:
                    self.assertEqual(status, binding.ERROR, "%s: number %d forged to %r" % (env, k, x))
                    continue
                self.assertTrue(math.isfinite(x) and abs(x) <= STATE_LIMIT,
                                "%s: number %d of %d forged to %r: DeSerialize accepted it" % (env, k, n, x))
                status = s.s.call(set_fn, handle)
                s.s.free_fmu_state(handle)
                if status != binding.OK:
                    self.assertEqual(status, binding.ERROR, "%s: number %d forged to %r: SetState" % (env, k, x))
                    continue
                self.assertNotIn(k, positions, "%s: number %d, a position, forged to %r: restored" % (env, k, x))
                accepted += 1
                for nm in names:
                    try:
                        values = s.get([nm])
                    except s.error:
                        continue  # refused: not a non-finite value with OK
                    self.assertTrue(all(math.isfinite(v) for v in values),
                                    "%s: number %d forged to %r: %s = %r with OK" % (env, k, x, nm, values))
                    if nm in outputs:
                        self.assertTrue(all(abs(v) <= OUTPUT_LIMIT for v in values),
                                        "%s: number %d forged to %r: %s = %r with OK" % (env, k, x, nm, values))
                        try:
                            rates = (s.s.get_real_output_derivatives([nm], 1) if s.version == 2
                                     else s.s.get_output_derivatives([nm], 1))
                        except s.error:
                            continue
                        self.assertTrue(all(abs(v) <= 2 * OUTPUT_LIMIT / h for v in rates),
                                        "%s: number %d forged to %r: d%s/dt = %r with OK" % (env, k, x, nm, rates))
                s.s.set_fmu_state(s.s.deserialize_fmu_state(blob))
        self.assertEqual(s.get(names), before, "%s: the refused and replaced states changed the instance" % env)
        s.step(t, H)  # and it steps on

    def test_short_buffers_and_wrong_lengths(self):
        """A state cut short (size as given), a header declaring another length, a size one byte larger
        than the state (the buffer padded): Error with a message, and the instance goes on."""
        for env in MODELS:
            with self.subTest(fmu=env):
                s, blob, t = running(env, "short")
                self.addCleanup(s.free)
                binding = api(s.version)[0]
                for cut in (0, 7, len(MAGIC), HEADER - 1, HEADER, len(blob) // 2, len(blob) - 1):
                    s.s.clear_messages()
                    status, _ = deserialize_raw(s, blob[:cut], size=cut, buffer_size=max(cut, 1))
                    self.assertEqual(status, binding.ERROR,
                                     "%s: a state cut to %d of %d bytes" % (env, cut, len(blob)))
                    self.assertTrue(any(m[0] != binding.OK for m in s.s.messages),
                                    "%s: no message for the cut state" % env)
                for declared in (len(blob) + 1, len(blob) - 1, 1 << 40):
                    data = blob[:len(MAGIC) + 4] + struct.pack("<Q", declared) + blob[HEADER:]
                    s.s.clear_messages()
                    status, _ = deserialize_raw(s, reseal(data))
                    self.assertEqual(status, binding.ERROR,
                                     "%s: a header declaring %d of %d bytes" % (env, declared, len(blob)))
                    self.assertTrue(any("declares" in m[2] for m in s.s.messages),
                                    "%s: the refusal does not name the declared length: %r" % (env, s.s.messages))
                status, _ = deserialize_raw(s, blob + b"\0", size=len(blob) + 1)
                self.assertEqual(status, binding.ERROR, "%s: the state with a byte more" % env)
                status, handle = deserialize_raw(s, blob)
                self.assertEqual(status, binding.OK, "%s: the state itself" % env)
                s.s.free_fmu_state(handle)
                s.step(t, H)

    def test_size_beyond_the_buffer_does_not_crash(self):
        """The state in a buffer that ends where an inaccessible page starts, passed with a size 4096 bytes
        and 2**40 bytes larger: Error, and no read past the buffer (which would end the child process)."""
        jobs = [(env, MODELS[env][0], FOLDERS[env]) for env in MODELS]
        child = ("import sys; sys.path.insert(0, %r); import test_forged_states as t; "
                 "t.guarded_child(sys.argv[1])" % HERE)
        proc = subprocess.run([sys.executable, "-c", child, json.dumps(jobs)],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, "the child ended with %d (a read past the buffer?)\nstdout:\n%s\n"
                         "stderr:\n%s" % (proc.returncode, proc.stdout[-2000:], proc.stderr[-4000:]))
        results = json.loads(proc.stdout.strip().splitlines()[-1])
        self.assertEqual(len(results), 2 * len(jobs))
        for env, extra, status, name in results:
            self.assertEqual(name, "ERROR", "%s: size %d bytes beyond the buffer: status %s" % (env, extra, name))


def guarded(blob):
    """A copy of blob that ends exactly where a page without any access starts; returns the mapping (keep
    it alive) and the copy's address."""
    page = mmap.PAGESIZE
    pages = (len(blob) + page - 1) // page + 1
    m = mmap.mmap(-1, pages * page)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    start = (pages - 1) * page - len(blob)
    m[start:start + len(blob)] = blob
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    if libc.mprotect(base + (pages - 1) * page, page, 0) != 0:  # PROT_NONE
        raise OSError(ctypes.get_errno(), "mprotect")
    return m, base + start


def guarded_child(jobs_json):
    """Run in a child process: for each (env, version, folder), deserialize a state of the FMU from a
    guarded buffer with sizes beyond it; print [env, extra, status, status name] rows as JSON."""
    rows, mappings = [], []
    for env, version, folder in json.loads(jobs_json):
        s = fmutestlib.Slave(version, folder, "guarded")
        s.initialize()
        s.step(0.0, H)
        state = s.s.get_fmu_state()
        blob = s.s.serialize_fmu_state(state)
        binding, fn, _, byte = api(version)
        m, addr = guarded(blob)
        mappings.append(m)  # kept mapped until the process ends
        for extra in (4096, 1 << 40):
            handle = ctypes.c_void_p()
            status = s.s.call(fn, ctypes.cast(addr, ctypes.POINTER(byte)), len(blob) + extra, ctypes.byref(handle))
            name = {binding.OK: "OK", binding.ERROR: "ERROR"}.get(status, str(status))
            rows.append([env, extra, status, name])
        s.free()
    print(json.dumps(rows))


if __name__ == "__main__":
    unittest.main()
