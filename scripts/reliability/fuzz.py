#!/usr/bin/env python3
"""Random FMI 2.0 / 3.0 call sequences against the FMUs' C API, checked by a state-machine oracle.

    python3 scripts/reliability/fuzz.py [--seeds N] [--first S] [--calls K] [--jobs J] FMU.fmu ...

Each seed runs in a process of its own, forked before any FMU binary is
loaded: it loads one FMU (every third seed a second one beside it, so that
two Go runtimes share the process and their handles meet), instantiates it
a few times and makes K random calls - every function of the standard the
FMU declares, with good and bad arguments: values inside, at and outside the
declared ranges, NaN and infinities, unknown value references, NULL arrays,
absurd counts, step sizes from 5e-324 to beyond the stop time, FMU states
saved, restored, serialized, damaged (bit flips, truncation, extension) and
deserialized, and handles of every kind passed where they do not belong
(another FMU's, another instance's, a state for an instance, freed ones,
small integers).

The oracle models the instance state machine of the FMU contract
(examples/README.md, "Driving the FMU") and predicts each call's status class:
  ok     the call must return OK, and every number it returns must be finite;
  error  the call must return Error, log a message through the instance it
         names (when it names a live one), and leave that instance as it was;
  maybe  physics decides (a step, an initialization with extreme but legal
         parameters): OK with finite numbers, or Error with a message after
         which the instance is in its error state.
A seed fails on a signal (a crash of the host), a hang (no call for
--timeout seconds), a status the oracle does not allow, a non-finite number
with OK, or an accepted foreign, freed or damaged state. The report names
the seed and its last calls; ``--first SEED --seeds 1 -v`` replays it.
Only the standard library is used.
"""

import argparse
import ctypes
import json
import math
import os
import random
import select
import shutil
import signal
import struct
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "examples", "clients", "python"))

from cablefmu import fmucommon  # noqa: E402  (the bindings load no FMU binary on import)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

OK, WARNING, DISCARD, ERROR = 0, 1, 2, 3
NAMES = {0: "OK", 1: "Warning", 2: "Discard", 3: "Error", 4: "Fatal", 5: "Pending"}

# Oracle states (the FMU contract's, shared by both standards).
INSTANTIATED, INIT, STEP, TERMINATED, FAILED = "instantiated", "initialization", "step", "terminated", "error"
READABLE = (INIT, STEP, TERMINATED, FAILED)
WRITABLE = (INSTANTIATED, INIT, STEP)
ANY = (INSTANTIATED, INIT, STEP, TERMINATED, FAILED)

MAX_INTERNAL_STEPS = 10_000_000
GRID_TOLERANCE = 1e-6


class Violation(Exception):
    """A call whose outcome the oracle does not allow."""


# --------------------------------------------------------------------------
# What the model description declares
# --------------------------------------------------------------------------

class Var:
    """A variable as the oracle needs it: value reference, causality, range, start, element count,
    and type: Real (Float64), Integer (Int32: counts) or Boolean (switches)."""

    def __init__(self, name, vr, causality, variability, lo, hi, start, size=1, type_="Real"):
        self.name, self.vr, self.causality, self.variability = name, vr, causality, variability
        self.lo, self.hi, self.start, self.size, self.type = lo, hi, start, size, type_


TYPES = {"Real": "Real", "Float64": "Real", "Integer": "Integer", "Int32": "Integer", "Boolean": "Boolean"}


def _start(text):
    """A start value as a number (a Boolean's as 0 or 1)."""
    if text is None:
        return None
    text = text.split()[0]
    if text in ("true", "false"):
        return 1.0 if text == "true" else 0.0
    return float(text)


def _num(text):
    return None if text is None else float(text)


def read_spec(folder):
    """The FMI version, GUID/token, log categories and variables of an unpacked FMU."""
    root = ET.parse(os.path.join(folder, "modelDescription.xml")).getroot()
    version = root.get("fmiVersion", "")
    spec = {"folder": folder, "fmi": 3 if version.startswith("3") else 2, "vars": [],
            "categories": [c.get("name") for c in root.iter("Category")],
            "token": root.get("guid") or root.get("instantiationToken")}
    mv = root.find("ModelVariables")
    if spec["fmi"] == 2:
        for sv in mv.findall("ScalarVariable"):
            el = next(c for c in sv if c.tag in TYPES)
            spec["vars"].append(Var(sv.get("name"), int(sv.get("valueReference")), sv.get("causality", "local"),
                                    sv.get("variability", "continuous"), _num(el.get("min")),
                                    _num(el.get("max")), _start(el.get("start")), type_=TYPES[el.tag]))
    else:
        for el in mv:
            size = 1
            for d in el.findall("Dimension"):
                size *= int(d.get("start"))
            spec["vars"].append(Var(el.get("name"), int(el.get("valueReference")), el.get("causality", "local"),
                                    el.get("variability", "continuous"), _num(el.get("min")), _num(el.get("max")),
                                    _start(el.get("start")), size, TYPES.get(el.tag, "Real")))
    return spec


# --------------------------------------------------------------------------
# The oracle's model of one instance and of the process's handles
# --------------------------------------------------------------------------

class Model:
    """The oracle's view of an instance: its state machine and what decides its calls."""

    def __init__(self, lib, slave, name):
        self.lib, self.slave, self.name = lib, slave, name
        self.state = INSTANTIATED
        self.time, self.stop = 0.0, None
        self.values = {v.vr: v.start for v in lib.spec["vars"] if v.causality in ("parameter", "input")}
        self.states = set()  # live FMU-state handles of the instance

    def snapshot(self):
        return (self.state, self.time, self.stop, dict(self.values))

    def restore(self, snap):
        self.state, self.time, self.stop, values = snap
        self.values = dict(values)

    def internal_step(self):
        return 1 / 60 if self.lib.h_vr is None else self.values[self.lib.h_vr]


class Lib:
    """One loaded FMU binary: its spec, its instances and FMU states (by handle)."""

    def __init__(self, spec, index):
        self.spec, self.index = spec, index
        self.fmi = spec["fmi"]
        self.all = spec["vars"]
        # The Real (Float64) variables, which the Real accessors take; the
        # counts and switches have their own (typed).
        self.vars = [v for v in self.all if v.type == "Real"]
        self.typed = [v for v in self.all if v.type != "Real"]
        self.by_vr = {v.vr: v for v in self.all}
        # The internal step, when the FMU lets it be set (it decides the
        # limit on internal steps per call); else the engine's default.
        self.h_vr = next((v.vr for v in self.vars if v.name == "internalStep"), None)
        self.instances = {}  # handle -> Model
        self.states = {}  # handle -> (owner Model, snapshot)
        self.blobs = []  # (bytes, snapshot) serialized here
        self.lib = None

    def of(self, causality):
        return [v for v in self.vars if v.causality == causality]


def finite(xs):
    return all(math.isfinite(x) for x in xs)


# --------------------------------------------------------------------------
# One seed
# --------------------------------------------------------------------------

NASTY = [0.0, -0.0, 5e-324, 1e-300, -1.0, 1e300, -1e300, 1.7976931348623157e308,
         float("inf"), float("-inf"), float("nan")]


class Fuzzer:
    """Runs one seed's call sequence, checking every call against the oracle."""

    def __init__(self, seed, specs, calls, out):
        self.rng = random.Random(seed)
        self.seed, self.calls, self.out = seed, calls, out
        first = specs[seed % len(specs)]
        chosen = [first]
        if len(specs) > 1 and seed % 3 == 0:
            chosen.append(specs[(seed // 3 + 1 + seed % len(specs)) % len(specs)])
            if chosen[1] is first:
                chosen.pop()
        self.libs = [Lib(s, i) for i, s in enumerate(chosen)]
        self.freed = []  # handles released (instances and states), of any library
        self.stats = {}
        self.count = 0
        self.names = 0
        for lib in self.libs:
            lib.slaves = []

    # -- bookkeeping -------------------------------------------------------

    def note(self, text):
        self.count += 1
        self.out.write("%d %s\n" % (self.count, text))
        self.out.flush()

    def tally(self, fn, status):
        key = "%s %s" % (fn, NAMES.get(status, status))
        self.stats[key] = self.stats.get(key, 0) + 1

    def all_handles(self):
        hs = []
        for lib in self.libs:
            hs += list(lib.instances) + list(lib.states)
        return hs

    def foreign_handle(self, lib, exclude):
        """A handle a call of lib must refuse: small integers, random bits, freed handles, another
        FMU's instances and states, lib's own handles of the wrong kind - none of those in exclude."""
        rng = self.rng
        pool = [0, 1, 0xB, 0x10, rng.getrandbits(64)] + self.freed[-8:]
        for other in self.libs:
            pool += list(other.instances) + list(other.states)
        pool = [h for h in pool if h not in exclude]
        return rng.choice(pool) if pool else 0xB

    # -- the loop ------------------------------------------------------------

    def run(self):
        for lib in self.libs:
            self.new_instance(lib)
        for _ in range(self.calls):
            lib = self.rng.choice(self.libs)
            live = list(lib.instances.values())
            if not live or (len(live) < 3 and self.rng.random() < 0.02):
                self.new_instance(lib)
                continue
            m = self.rng.choice(live)
            self.act(lib, m)
        for lib in self.libs:
            for h in list(lib.instances):
                self.free_instance(lib, h)
        return self.stats

    def act(self, lib, m):
        rng = self.rng
        actions = [
            (6, self.a_lifecycle), (8, self.a_set), (8, self.a_get), (14, self.a_step),
            (4, self.a_state), (3, self.a_serialize), (2, self.a_derivatives),
            (3, self.a_bad_handle), (2, self.a_bad_counts), (2, self.a_unsupported),
            (1, self.a_free), (1, self.a_logging), (1, self.a_typed),
        ]
        total = sum(w for w, _ in actions)
        r = rng.uniform(0, total)
        for w, fn in actions:
            r -= w
            if r <= 0:
                fn(lib, m)
                return
        actions[-1][1](lib, m)

    # -- checking one call -----------------------------------------------------

    def check(self, fn, m, status, expect, values=(), fail_to=None, what=""):
        """Check a call's status against the oracle's class; m is the named live instance or None."""
        self.tally(fn, status)
        self.note("%s%s -> %s (%s)" % (fn, what, NAMES.get(status, status), expect))
        logged = []
        if m is not None:
            logged = [x for x in m.slave.messages[m.mark:] if x[0] != OK]
        if expect == "ok" or (expect == "maybe" and status == OK):
            if status != OK:
                raise Violation("%s%s: expected OK, got %s: %s" % (fn, what, NAMES.get(status, status),
                                                                  " | ".join(t for _, _, t in logged)))
            if not finite(values):
                raise Violation("%s%s: OK with non-finite values %r" % (fn, what, list(values)))
            return True
        if expect == "error" and status != ERROR:
            raise Violation("%s%s: expected Error, got %s" % (fn, what, NAMES.get(status, status)))
        if expect == "maybe" and status != ERROR:
            raise Violation("%s%s: expected OK or Error, got %s" % (fn, what, NAMES.get(status, status)))
        if expect == "discard" and status != DISCARD:
            raise Violation("%s%s: expected Discard, got %s" % (fn, what, NAMES.get(status, status)))
        if m is not None and not logged:
            raise Violation("%s%s: %s without a logged message" % (fn, what, NAMES.get(status, status)))
        if expect == "maybe" and fail_to is not None:
            m.state = fail_to
        return False

    @staticmethod
    def array(lib, fn, index, n, values=None):
        """An array of the type argument ``index`` of ``fn`` points to, n long (at least one element)."""
        t = getattr(lib.lib, fn).argtypes[index]._type_
        a = (t * max(1, n))()
        if values is not None:
            for i, x in enumerate(values):
                a[i] = x
        return a

    def call(self, lib, m, fn, *args):
        """Call fn of lib with args (the handle first); marks where m's messages start."""
        if m is not None:
            m.mark = len(m.slave.messages)
        return getattr(lib.lib, fn)(*args)

    # -- instances ---------------------------------------------------------------

    def new_instance(self, lib):
        rng = self.rng
        self.names += 1
        name = "i%d" % self.names
        if lib.lib is None:
            probe = self.make_slave(lib, name)
            lib.lib = probe.lib
        slave = self.make_slave(lib, name)
        bad = rng.random() < 0.15
        kind = rng.choice(["token", "resources", "name"]) if bad else None
        token = lib.spec["token"] if kind != "token" else rng.choice(["", "{00000000-0000-0000-0000-000000000000}"])
        if lib.fmi == 2:
            where = fmi2.resource_uri(lib.spec["folder"])
            if kind == "resources":
                where = rng.choice(["file:///nonexistent/resources", "http://example.com/x", "file://", "%zz"])
            inst_name = b"" if kind == "name" else name.encode()
            h = lib.lib.fmi2Instantiate(inst_name, fmi2.CO_SIMULATION, token.encode(), where.encode(),
                                        ctypes.byref(slave._callbacks), False, False)
            fn = "fmi2Instantiate"
        else:
            where = fmi3.resource_path(lib.spec["folder"])
            if kind == "resources":
                where = rng.choice(["/nonexistent/resources/", "relative/", ""])
            inst_name = b"" if kind == "name" else name.encode()
            h = lib.lib.fmi3InstantiateCoSimulation(inst_name, token.encode(), where.encode() if where else None,
                                                    False, False, False, False, None, 0, slave._env_id,
                                                    slave._log_callback, None)
            fn = "fmi3InstantiateCoSimulation"
        self.tally(fn, "NULL" if not h else "handle")
        self.note("%s(%s%s) -> %#x" % (fn, name, ", bad " + kind if bad else "", h or 0))
        if bad:
            if h:
                raise Violation("%s with a bad %s returned an instance" % (fn, kind))
            if not [x for x in slave.messages if x[0] != OK]:
                raise Violation("%s with a bad %s returned NULL without a logged message" % (fn, kind))
            return None
        if not h:
            raise Violation("%s failed: %s" % (fn, " | ".join(t for _, _, t in slave.messages)))
        if h in lib.instances or h in lib.states or any(h in o.instances or h in o.states for o in self.libs):
            raise Violation("%s returned %#x, a handle that is live already" % (fn, h))
        setattr(slave, slave.HANDLE, h)
        m = Model(lib, slave, name)
        lib.instances[h] = m
        m.handle = h
        return m

    def make_slave(self, lib, name):
        cls = fmi2.FMU2Slave if lib.fmi == 2 else fmi3.FMU3Slave
        s = cls(lib.spec["folder"], instance_name=name)
        lib.slaves.append(s)  # its callbacks must outlive the library's use of them
        return s

    def free_instance(self, lib, h):
        m = lib.instances.pop(h)
        for s in list(m.states):
            lib.states.pop(s, None)
            self.freed.append(s)
        self.freed.append(h)
        fn = "fmi2FreeInstance" if lib.fmi == 2 else "fmi3FreeInstance"
        self.note("%s(%s)" % (fn, m.name))
        getattr(lib.lib, fn)(h)
        self.tally(fn, "void")

    def a_free(self, lib, m):
        rng = self.rng
        fn = "fmi2FreeInstance" if lib.fmi == 2 else "fmi3FreeInstance"
        if rng.random() < 0.5:
            self.free_instance(lib, m.handle)
            return
        # Something that is not a live instance of lib: nothing may happen
        # to it (an FMU state stays usable, another FMU's instance lives on);
        # the oracle's later calls find out.
        h = self.foreign_handle(lib, lib.instances)
        self.note("%s(%#x, not an instance of this FMU)" % (fn, h))
        getattr(lib.lib, fn)(h)
        self.tally(fn, "void (foreign)")

    # -- values -------------------------------------------------------------------

    def value_for(self, m, v, good=True):
        """A value for v: (value, valid)."""
        rng = self.rng
        if not good:
            choices = [float("nan"), float("inf"), float("-inf")]
            if v.hi is not None:
                choices.append(v.hi * 2 + 1 if v.hi >= 0 else v.hi / 2 + 1)
                choices.append(math.nextafter(v.hi, math.inf))
            if v.lo is not None:
                choices.append(v.lo * 2 - 1 if v.lo <= 0 else v.lo / 2 - 1e-9 * abs(v.lo) - 1e-300)
                choices.append(math.nextafter(v.lo, -math.inf))
            x = rng.choice(choices)
            return x, self.valid(v, x)
        if v.name == "internalStep":
            return v.start * rng.uniform(0.5, 2.0), True
        r = rng.random()
        edge = 0.06 if v.causality == "parameter" else 0.015
        if r < edge and v.lo is not None:
            return v.lo, True
        if r < 2 * edge and v.hi is not None:
            return v.hi, True
        start = v.start if v.start is not None else 0.0
        if v.causality == "parameter":
            x = start * rng.uniform(0.7, 1.4) if start else rng.uniform(0, 1)
        else:
            x = start + rng.uniform(-1.0, 1.0)
        if v.lo is not None:
            x = max(x, v.lo)
        if v.hi is not None:
            x = min(x, v.hi)
        return x, True

    @staticmethod
    def valid(v, x):
        return math.isfinite(x) and (v.lo is None or x >= v.lo) and (v.hi is None or x <= v.hi)

    def pick_vars(self, lib, causalities, k=None):
        pool = [v for v in lib.vars if v.causality in causalities]
        if not pool:
            return []  # an FMU without inputs (WireBeam's bodies are not driven)
        k = k or self.rng.randint(1, min(4, len(pool)))
        return [self.rng.choice(pool) for _ in range(k)]

    # -- getters and setters -------------------------------------------------------

    def set_values(self, lib, m, refs, values, n_values=None):
        if lib.fmi == 2:
            vr = (ctypes.c_uint * len(refs))(*refs)
            vals = (ctypes.c_double * len(values))(*values)
            return self.call(lib, m, "fmi2SetReal", m.handle, vr, len(refs), vals)
        vr = (ctypes.c_uint32 * len(refs))(*refs)
        vals = (ctypes.c_double * max(1, len(values)))(*values)
        return self.call(lib, m, "fmi3SetFloat64", m.handle, vr, len(refs), vals,
                         len(values) if n_values is None else n_values)

    def get_values(self, lib, m, refs, n_values):
        out = (ctypes.c_double * max(1, n_values))()
        if lib.fmi == 2:
            vr = (ctypes.c_uint * len(refs))(*refs)
            st = self.call(lib, m, "fmi2GetReal", m.handle, vr, len(refs), out)
        else:
            vr = (ctypes.c_uint32 * len(refs))(*refs)
            st = self.call(lib, m, "fmi3GetFloat64", m.handle, vr, len(refs), out, n_values)
        return st, list(out)[:n_values]

    def a_set(self, lib, m):
        rng = self.rng
        fn = "fmi2SetReal" if lib.fmi == 2 else "fmi3SetFloat64"
        kind = rng.random()
        if kind < 0.75:
            chosen = self.pick_vars(lib, ("input",) if m.state == STEP or rng.random() < 0.5 else ("parameter",))
            if not chosen:
                return
            good = rng.random() < 0.8
            vals, ok = [], True
            for v in chosen:
                x, valid = self.value_for(m, v, good=good or rng.random() < 0.5)
                vals.append(x)
                ok = ok and valid
                if v.causality == "parameter" and m.state == STEP:
                    ok = False
            expect = "ok" if ok and m.state in WRITABLE else "error"
            refs = [v.vr for v in chosen]
            st = self.set_values(lib, m, refs, vals)
            if self.check(fn, m, st, expect, what="(%s = %r)" % ([v.name for v in chosen], vals)):
                for v, x in zip(chosen, vals):
                    m.values[v.vr] = x
            return
        # Not settable, unknown, or a wrong count.
        outs = lib.of("output") + lib.of("independent") + lib.of("local")
        vr = rng.choice([v.vr for v in outs] + [len(lib.vars) + 7, 2**32 - 1])
        v = lib.by_vr.get(vr)
        n = v.size if v is not None else 1
        st = self.set_values(lib, m, [vr], [0.0] * n)
        self.check(fn, m, st, "error", what="(vr %d)" % vr)
        if lib.fmi == 3:
            arrays = [v for v in lib.of("input") + lib.of("parameter")]
            v = rng.choice(arrays)
            st = self.set_values(lib, m, [v.vr], [v.start or 0.0] * (v.size + 1), n_values=v.size + 1)
            self.check(fn, m, st, "error", what="(%s, %d values for %d)" % (v.name, v.size + 1, v.size))

    def a_get(self, lib, m):
        rng = self.rng
        fn = "fmi2GetReal" if lib.fmi == 2 else "fmi3GetFloat64"
        if rng.random() < 0.85:
            chosen = [rng.choice(lib.vars) for _ in range(rng.randint(1, 5))]
            n = sum(v.size for v in chosen)
            st, vals = self.get_values(lib, m, [v.vr for v in chosen], n)
            expect = "error" if m.state not in READABLE else ("maybe" if m.state == INIT else "ok")
            self.check(fn, m, st, expect, vals, what="(%s)" % [v.name for v in chosen])
            # Time, parameters and inputs read back as the oracle has them:
            # a refused call changed nothing, a restored state restored them.
            at = 0
            for v in chosen:
                if st == OK and v.causality == "independent" and vals[at] != m.time:
                    raise Violation("%s(time) = %r, the oracle's time is %r" % (fn, vals[at], m.time))
                if st == OK and v.vr in m.values and vals[at] != m.values[v.vr]:
                    raise Violation("%s(%s) = %r, the oracle has %r" % (fn, v.name, vals[at], m.values[v.vr]))
                at += v.size
            return
        vr = rng.choice([len(lib.all), len(lib.all) + 100, 2**31, 2**32 - 1] + [v.vr for v in lib.typed])
        st, _ = self.get_values(lib, m, [vr], 1)
        self.check(fn, m, st, "error", what="(vr %d: unknown, or a count or a switch)" % vr)
        if lib.fmi == 3:
            v = rng.choice(lib.vars)
            st, _ = self.get_values(lib, m, [v.vr], v.size + 2)
            self.check(fn, m, st, "error", what="(%s with %d values)" % (v.name, v.size + 2))

    def a_typed(self, lib, m):
        rng = self.rng
        if lib.typed and rng.random() < 0.5:
            return self.a_count_or_switch(lib, m)
        if lib.fmi == 2:
            fn = rng.choice(["fmi2GetInteger", "fmi2GetBoolean", "fmi2GetString",
                             "fmi2SetInteger", "fmi2SetBoolean", "fmi2SetString"])
            n = rng.choice([0, 0, 1])
            vr = (ctypes.c_uint * 1)(0)
            st = self.call(lib, m, fn, m.handle, vr, n, self.array(lib, fn, 3, 2))
            mask = READABLE if "Get" in fn else WRITABLE
        else:
            fn = rng.choice(["fmi3GetInt32", "fmi3GetBoolean", "fmi3GetUInt64", "fmi3GetFloat32",
                             "fmi3SetInt32", "fmi3SetBoolean", "fmi3SetInt8", "fmi3SetFloat32"])
            n = rng.choice([0, 0, 1])
            vr = (ctypes.c_uint32 * 1)(0)
            st = self.call(lib, m, fn, m.handle, vr, n, self.array(lib, fn, 3, 2), n)
            mask = READABLE if "Get" in fn else WRITABLE
        self.check(fn, m, st, "ok" if n == 0 and m.state in mask else "error", what="(n=%d)" % n)

    def a_count_or_switch(self, lib, m):
        """Reads a count or a switch, or sets a switch, through its type's function."""
        rng = self.rng
        v = rng.choice(lib.typed)
        boolean = v.type == "Boolean"
        c_type = (ctypes.c_int if lib.fmi == 2 else ctypes.c_bool) if boolean else ctypes.c_int32
        name = ("Boolean" if boolean else ("Integer" if lib.fmi == 2 else "Int32"))
        vr = (ctypes.c_uint if lib.fmi == 2 else ctypes.c_uint32)(v.vr)
        if boolean and v.causality == "input" and rng.random() < 0.5:
            fn, x = "fmi%dSet%s" % (lib.fmi, name), rng.random() < 0.5
            vals = (c_type * 1)(x)
            args = (m.handle, ctypes.byref(vr), 1, vals) + (() if lib.fmi == 2 else (1,))
            st = self.call(lib, m, fn, *args)
            if self.check(fn, m, st, "ok" if m.state in WRITABLE else "error", what="(%s = %s)" % (v.name, x)):
                m.values[v.vr] = 1.0 if x else 0.0
            return
        fn = "fmi%dGet%s" % (lib.fmi, name)
        vals = (c_type * 1)()
        args = (m.handle, ctypes.byref(vr), 1, vals) + (() if lib.fmi == 2 else (1,))
        st = self.call(lib, m, fn, *args)
        expect = "error" if m.state not in READABLE else ("maybe" if m.state == INIT else "ok")
        self.check(fn, m, st, expect, [float(vals[0])], what="(%s)" % v.name)
        if st == OK and v.vr in m.values and float(vals[0]) != m.values[v.vr]:
            raise Violation("%s(%s) = %r, the oracle has %r" % (fn, v.name, vals[0], m.values[v.vr]))

    # -- the lifecycle ------------------------------------------------------------

    def a_lifecycle(self, lib, m):
        rng = self.rng
        choice = rng.random()
        if m.state == INSTANTIATED and choice < 0.6 or choice < 0.1:
            self.enter_init(lib, m)
        elif m.state == INIT and choice < 0.7 or choice < 0.25:
            fn = "fmi%dExitInitializationMode" % lib.fmi
            st = self.call(lib, m, fn, m.handle)
            if m.state != INIT:
                self.check(fn, m, st, "error")
            elif self.check(fn, m, st, "maybe", fail_to=FAILED):
                m.state = STEP
        elif choice < 0.45:
            fn = "fmi%dTerminate" % lib.fmi
            st = self.call(lib, m, fn, m.handle)
            if self.check(fn, m, st, "ok" if m.state == STEP else "error"):
                m.state = TERMINATED
        else:
            fn = "fmi%dReset" % lib.fmi
            st = self.call(lib, m, fn, m.handle)
            if self.check(fn, m, st, "ok"):
                m.state, m.time, m.stop = INSTANTIATED, 0.0, None
                m.values = {v.vr: v.start for v in lib.all if v.causality in ("parameter", "input")}

    def enter_init(self, lib, m):
        rng = self.rng
        start = rng.choice([0.0, 0.0, rng.uniform(-100, 100), rng.choice(NASTY)])
        stop_defined = rng.random() < 0.4
        stop = start + rng.choice([0.0, 0.5, 5.0, 100.0, -1.0, float("nan")]) if stop_defined else 0.0
        tol_defined = rng.random() < 0.3
        valid = math.isfinite(start) and (not stop_defined or (math.isfinite(stop) and stop >= start))
        what = "(start %r, stop %r)" % (start, stop if stop_defined else None)
        if lib.fmi == 2:
            st = self.call(lib, m, "fmi2SetupExperiment", m.handle, tol_defined, 1e-4, start, stop_defined, stop)
            if not self.check("fmi2SetupExperiment", m, st, "ok" if valid and m.state == INSTANTIATED else "error",
                              what=what):
                return
            m.time, m.stop = start, stop if stop_defined else None
            st = self.call(lib, m, "fmi2EnterInitializationMode", m.handle)
            if self.check("fmi2EnterInitializationMode", m, st, "ok" if m.state == INSTANTIATED else "error"):
                m.state = INIT
            return
        st = self.call(lib, m, "fmi3EnterInitializationMode", m.handle, tol_defined, 1e-4, start, stop_defined, stop)
        if self.check("fmi3EnterInitializationMode", m, st, "ok" if valid and m.state == INSTANTIATED else "error",
                      what=what):
            m.time, m.stop, m.state = start, stop if stop_defined else None, INIT

    # -- stepping -------------------------------------------------------------------

    def step_call(self, lib, m, t, H):
        if lib.fmi == 2:
            return self.call(lib, m, "fmi2DoStep", m.handle, t, H, True), None
        flags = [ctypes.c_bool() for _ in range(3)]
        last = ctypes.c_double(float("nan"))
        st = self.call(lib, m, "fmi3DoStep", m.handle, t, H, True, ctypes.byref(flags[0]), ctypes.byref(flags[1]),
                       ctypes.byref(flags[2]), ctypes.byref(last))
        return st, last.value

    def a_step(self, lib, m):
        rng = self.rng
        fn = "fmi%dDoStep" % lib.fmi
        if m.state == INSTANTIATED:
            self.enter_init(lib, m)
            return
        if m.state == INIT:
            self.a_lifecycle(lib, m)
            return
        r = rng.random()
        t = m.time
        if r < 0.65:
            H = rng.choice([1 / 60, 1 / 60, 0.01, 0.05, 0.1, 1 / 600, rng.uniform(0, 0.2)])
            kind = "normal"
        elif r < 0.75:
            H = rng.choice([5e-324, 1e-300, 1e-15, 1e-12 * m.internal_step()])
            kind = "tiny"
        elif r < 0.85:
            H = rng.choice([0.0, -1 / 60, float("nan"), float("inf"), 1e300])
            kind = "bad"
        else:
            t = rng.choice([t + 1.0, t - 0.5, float("nan"), t + 1e-3 * max(1, abs(t))])
            H = 1 / 60
            kind = "bad time"
        what = "(t=%r, H=%r)" % (t, H)
        h = m.internal_step()
        steps = math.ceil(H / h - GRID_TOLERANCE) if H > 0 and math.isfinite(H) else 0
        legal = (H > 0 and math.isfinite(H) and math.isfinite(t) and abs(t - m.time) <= 1e-9 * max(1, abs(m.time))
                 and (m.stop is None or t + H <= m.stop * (1 + 1e-12) + 1e-12) and steps <= MAX_INTERNAL_STEPS)
        if m.stop is not None and legal and abs((t + H) - (m.stop * (1 + 1e-12) + 1e-12)) < 1e-9:
            return  # too close to the stop time's tolerance to predict
        st, last = self.step_call(lib, m, t, H)
        if m.state != STEP or not legal:
            self.check(fn, m, st, "error", what=what)
            return
        expect = "ok" if kind == "tiny" else "maybe"
        if self.check(fn, m, st, expect, fail_to=FAILED, what=what):
            m.time = t + H
            if lib.fmi == 3 and last != m.time:
                raise Violation("fmi3DoStep: lastSuccessfulTime %r, the oracle's time %r" % (last, m.time))
            # Every output after an OK step must be finite.
            outs = lib.of("output")
            st, vals = self.get_values(lib, m, [v.vr for v in outs], sum(v.size for v in outs))
            self.check("fmi%dGet(all outputs)" % lib.fmi, m, st, "ok", vals)
            if lib.fmi == 2:
                tv = ctypes.c_double()
                st = self.call(lib, m, "fmi2GetRealStatus", m.handle, 2, ctypes.byref(tv))
                self.check("fmi2GetRealStatus", m, st, "ok", [tv.value])
                if tv.value != m.time:
                    raise Violation("fmi2GetRealStatus: last successful time %r, the oracle's %r" % (tv.value, m.time))

    # -- derivatives ------------------------------------------------------------------

    def a_derivatives(self, lib, m):
        rng = self.rng
        ins, outs = lib.of("input"), lib.of("output")
        scalar_outs = [v for v in outs if v.size == 1]
        good = rng.random() < 0.8
        u = [rng.choice(scalar_outs).vr for _ in range(rng.randint(1, 3))]
        if not ins:
            good = False  # with respect to what is no input: refused
            k = [rng.choice(outs + lib.of("parameter")).vr]
        else:
            k = [rng.choice(ins).vr for _ in range(rng.randint(1, 3))]
        if not good:
            k[0] = rng.choice(outs + lib.of("parameter")).vr
        seed = (ctypes.c_double * len(k))(*[rng.uniform(-1, 1) for _ in k])
        res = (ctypes.c_double * len(u))()
        if lib.fmi == 2:
            fn = "fmi2GetDirectionalDerivative"
            st = self.call(lib, m, fn, m.handle, (ctypes.c_uint * len(u))(*u), len(u), (ctypes.c_uint * len(k))(*k),
                           len(k), seed, res)
        else:
            fn = "fmi3GetDirectionalDerivative"
            st = self.call(lib, m, fn, m.handle, (ctypes.c_uint32 * len(u))(*u), len(u),
                           (ctypes.c_uint32 * len(k))(*k), len(k), seed, len(k), res, len(u))
        ok_state = m.state in (STEP, TERMINATED)
        # No output of these FMUs responds at once to an input: directional
        # derivatives are refused (providesDirectionalDerivative false).
        self.check(fn, m, st, "error", list(res), what="(%s, %s)" % (u, k))
        # Input derivatives (FMI 2.0) and output derivatives.
        if lib.fmi == 2 and rng.random() < 0.5:
            v = rng.choice(ins if good else outs)
            order = 1 if good or rng.random() < 0.5 else rng.choice([0, 2, -1])
            x = rng.uniform(-1, 1) if rng.random() < 0.9 else rng.choice(NASTY)
            st = self.call(lib, m, "fmi2SetRealInputDerivatives", m.handle, (ctypes.c_uint * 1)(v.vr), 1,
                           (ctypes.c_int * 1)(order), (ctypes.c_double * 1)(x))
            legal = v.causality == "input" and order == 1 and math.isfinite(x) and m.state in WRITABLE
            self.check("fmi2SetRealInputDerivatives", m, st, "ok" if legal else "error",
                       what="(%s, order %d, %r)" % (v.name, order, x))
            return
        v = rng.choice(outs if good or not ins else ins)
        order = 1 if good else rng.choice([1, 2, 0])
        n = v.size
        res = (ctypes.c_double * n)()
        if lib.fmi == 2:
            fn = "fmi2GetRealOutputDerivatives"
            st = self.call(lib, m, fn, m.handle, (ctypes.c_uint * 1)(v.vr), 1, (ctypes.c_int * 1)(order), res)
        else:
            fn = "fmi3GetOutputDerivatives"
            st = self.call(lib, m, fn, m.handle, (ctypes.c_uint32 * 1)(v.vr), 1, (ctypes.c_int32 * 1)(order), res, n)
        legal = v.causality == "output" and order == 1 and ok_state
        self.check(fn, m, st, "maybe" if legal else "error", list(res), what="(%s, order %d)" % (v.name, order))

    # -- FMU states --------------------------------------------------------------------

    def fn3(self, lib, name2, name3):
        return name2 if lib.fmi == 2 else name3

    def a_state(self, lib, m):
        rng = self.rng
        r = rng.random()
        get = self.fn3(lib, "fmi2GetFMUstate", "fmi3GetFMUState")
        setf = self.fn3(lib, "fmi2SetFMUstate", "fmi3SetFMUState")
        free = self.fn3(lib, "fmi2FreeFMUstate", "fmi3FreeFMUState")
        if r < 0.35 or not m.states:
            reuse = rng.choice(list(m.states)) if m.states and rng.random() < 0.3 else None
            if reuse is None and rng.random() < 0.1:
                bad = self.foreign_handle(lib, m.states | {0})
                box = ctypes.c_void_p(bad)
                st = self.call(lib, m, get, m.handle, ctypes.byref(box))
                self.check(get, m, st, "error", what="(*state = %#x, not one of this instance)" % bad)
                return
            box = ctypes.c_void_p(reuse)
            st = self.call(lib, m, get, m.handle, ctypes.byref(box))
            if self.check(get, m, st, "ok", what="(update)" if reuse else ""):
                h = box.value
                if reuse is not None:
                    if h != reuse:
                        raise Violation("%s updating %#x returned %#x" % (get, reuse, h))
                elif not h or h in self.all_handles():
                    raise Violation("%s returned %#x: NULL or a live handle" % (get, h or 0))
                m.states.add(h)
                lib.states[h] = (m, m.snapshot())
            return
        if r < 0.7:
            if rng.random() < 0.8:
                h = rng.choice(list(m.states))
                st = self.call(lib, m, setf, m.handle, h)
                if self.check(setf, m, st, "ok"):
                    m.restore(lib.states[h][1])
            else:
                h = self.foreign_handle(lib, m.states)
                st = self.call(lib, m, setf, m.handle, h)
                self.check(setf, m, st, "error", what="(%#x, not a state of this instance)" % h)
            return
        if rng.random() < 0.8:
            h = rng.choice(list(m.states))
            box = ctypes.c_void_p(h)
            st = self.call(lib, m, free, m.handle, ctypes.byref(box))
            if self.check(free, m, st, "ok"):
                if box.value:
                    raise Violation("%s left *state = %#x" % (free, box.value))
                m.states.discard(h)
                del lib.states[h]
                self.freed.append(h)
        else:
            h = self.foreign_handle(lib, m.states | {0})
            box = ctypes.c_void_p(h)
            st = self.call(lib, m, free, m.handle, ctypes.byref(box))
            self.check(free, m, st, "error", what="(%#x, not a state of this instance)" % h)

    def serialize(self, lib, m, h):
        size_fn = self.fn3(lib, "fmi2SerializedFMUstateSize", "fmi3SerializedFMUStateSize")
        ser = self.fn3(lib, "fmi2SerializeFMUstate", "fmi3SerializeFMUState")
        size = ctypes.c_size_t()
        st = self.call(lib, m, size_fn, m.handle, h, ctypes.byref(size))
        self.check(size_fn, m, st, "ok")
        buf = self.array(lib, ser, 2, size.value)
        if self.rng.random() < 0.1 and size.value > 0:
            st = self.call(lib, m, ser, m.handle, h, buf, size.value - 1)
            self.check(ser, m, st, "error", what="(buffer one byte short)")
        st = self.call(lib, m, ser, m.handle, h, buf, size.value)
        self.check(ser, m, st, "ok")
        return ctypes.string_at(buf, size.value)

    def deserialize(self, lib, m, blob, expect, what):
        fn = self.fn3(lib, "fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState")
        buf = self.array(lib, fn, 1, len(blob))
        ctypes.memmove(buf, blob, len(blob))
        box = ctypes.c_void_p()
        st = self.call(lib, m, fn, m.handle, buf, len(blob), ctypes.byref(box))
        if self.check(fn, m, st, expect, what=what):
            return box.value
        return None

    def a_serialize(self, lib, m):
        rng = self.rng
        if not m.states:
            self.a_state(lib, m)
            return
        h = rng.choice(list(m.states))
        blob = self.serialize(lib, m, h)
        snap = lib.states[h][1]
        lib.blobs.append((blob, snap))
        r = rng.random()
        if r < 0.4:
            src, snap = rng.choice(lib.blobs)  # possibly another instance's
            nh = self.deserialize(lib, m, src, "ok", "(%d bytes)" % len(src))
            if nh in self.all_handles():
                raise Violation("deserialize returned the live handle %#x" % nh)
            m.states.add(nh)
            lib.states[nh] = (m, snap)
            return
        if r < 0.85:
            bad, how = self.damage(blob)
            self.deserialize(lib, m, bad, "error", "(damaged: %s)" % how)
            self.tally("damaged state", "refused")
            return
        others = [o for o in self.libs if o is not lib and o.blobs and o.spec["token"] != lib.spec["token"]]
        if others:
            src, _ = rng.choice(rng.choice(others).blobs)
            self.deserialize(lib, m, src, "error", "(another FMU's state)")

    def damage(self, blob):
        rng = self.rng
        b = bytearray(blob)
        kind = rng.choice(["bit", "bit", "byte", "truncate", "extend", "zero", "double"])
        if kind == "bit" or kind == "double":
            i = rng.randrange(len(b) * 8)
            b[i // 8] ^= 1 << (i % 8)
            if kind == "double" and len(b) >= 8:
                # Rewrite one aligned float as another finite number.
                j = rng.randrange(len(b) // 8) * 8
                b[j:j + 8] = struct.pack("<d", rng.choice([1.0, -9.81, 1e300, 0.5]))
                if bytes(b) == blob:
                    b[0] ^= 1
        elif kind == "byte":
            i = rng.randrange(len(b))
            b[i] = (b[i] + rng.randint(1, 255)) % 256
        elif kind == "truncate":
            b = b[:rng.randrange(len(b))]
        elif kind == "extend":
            b += bytes(rng.randint(1, 16))
        else:
            i = rng.randrange(len(b))
            n = rng.randint(1, 16)
            if any(b[i:i + n]):
                b[i:i + n] = bytes(len(b[i:i + n]))
            else:
                b[i] ^= 0xFF
        return bytes(b), kind

    # -- wrong handles, counts, functions ------------------------------------------

    def a_bad_handle(self, lib, m):
        """A call naming something that is not a live instance of lib: Error, nothing logged anywhere it could be."""
        rng = self.rng
        h = self.foreign_handle(lib, lib.instances)
        self.tally("foreign or freed handle", "refused")
        fn = rng.choice(["Reset", "Terminate", "DoStep", "GetReal", "GetFMUstate", "ExitInitializationMode"])
        what = "(%#x, not an instance of this FMU)" % h
        if fn == "DoStep":
            if lib.fmi == 2:
                st = lib.lib.fmi2DoStep(h, 0.0, 1 / 60, True)
            else:
                b = ctypes.c_bool()
                d = ctypes.c_double()
                st = lib.lib.fmi3DoStep(h, 0.0, 1 / 60, True, ctypes.byref(b), ctypes.byref(b), ctypes.byref(b),
                                        ctypes.byref(d))
            self.check("fmi%dDoStep" % lib.fmi, None, st, "error", what=what)
            return
        if fn == "GetReal":
            out = (ctypes.c_double * 1)()
            vr = (ctypes.c_uint * 1)(0)
            st = (lib.lib.fmi2GetReal(h, vr, 1, out) if lib.fmi == 2 else lib.lib.fmi3GetFloat64(h, vr, 1, out, 1))
            self.check("fmi%dGetReal/Float64" % lib.fmi, None, st, "error", what=what)
            return
        if fn == "GetFMUstate":
            box = ctypes.c_void_p()
            name = self.fn3(lib, "fmi2GetFMUstate", "fmi3GetFMUState")
            st = getattr(lib.lib, name)(h, ctypes.byref(box))
            self.check(name, None, st, "error", what=what)
            if box.value:
                raise Violation("%s on a foreign handle returned a state" % name)
            return
        name = "fmi%d%s" % (lib.fmi, fn)
        st = getattr(lib.lib, name)(h)
        self.check(name, None, st, "error", what=what)

    def a_bad_counts(self, lib, m):
        rng = self.rng
        huge = rng.choice([2**62, 2**63 - 1, 2**64 - 1, 2**48])  # no array in memory is that long
        which = rng.choice(["get", "set", "null", "logging", "deserialize"])
        vr = (ctypes.c_uint * 1)(0)
        out = (ctypes.c_double * 1)()
        if which == "get":
            fn = self.fn3(lib, "fmi2GetReal", "fmi3GetFloat64")
            st = (self.call(lib, m, fn, m.handle, vr, huge, out) if lib.fmi == 2
                  else self.call(lib, m, fn, m.handle, vr, huge, out, huge))
        elif which == "set":
            fn = self.fn3(lib, "fmi2SetReal", "fmi3SetFloat64")
            st = (self.call(lib, m, fn, m.handle, vr, huge, out) if lib.fmi == 2
                  else self.call(lib, m, fn, m.handle, vr, huge, out, huge))
        elif which == "null":
            fn = self.fn3(lib, "fmi2GetReal", "fmi3GetFloat64")
            st = (self.call(lib, m, fn, m.handle, None, 3, None) if lib.fmi == 2
                  else self.call(lib, m, fn, m.handle, None, 3, None, 3))
            huge = 3
        elif which == "logging":
            fn = self.fn3(lib, "fmi2SetDebugLogging", "fmi3SetDebugLogging")
            st = self.call(lib, m, fn, m.handle, True, huge, None)
        else:
            fn = self.fn3(lib, "fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState")
            box = ctypes.c_void_p()
            buf = self.array(lib, fn, 1, 8)
            st = self.call(lib, m, fn, m.handle, buf, huge, ctypes.byref(box))
        self.check(fn, m, st, "error", what="(n = %d%s)" % (huge, ", NULL arrays" if which == "null" else ""))

    def a_unsupported(self, lib, m):
        rng = self.rng
        if lib.fmi == 2:
            fn = rng.choice(["fmi2EnterEventMode", "fmi2EnterContinuousTimeMode", "fmi2CancelStep",
                             "fmi2SetTime", "fmi2GetStatus", "fmi2GetIntegerStatus", "fmi2GetStringStatus"])
            if fn == "fmi2SetTime":
                st = self.call(lib, m, fn, m.handle, 1.0)
            elif fn.endswith("Status"):
                st = self.call(lib, m, fn, m.handle, 0, self.array(lib, fn, 2, 1))
                self.check(fn, m, st, "discard")
                return
            else:
                st = self.call(lib, m, fn, m.handle)
        else:
            fn = rng.choice(["fmi3EnterEventMode", "fmi3EnterStepMode", "fmi3EnterConfigurationMode",
                             "fmi3ExitConfigurationMode", "fmi3EvaluateDiscreteStates", "fmi3EnterContinuousTimeMode"])
            st = self.call(lib, m, fn, m.handle)
        self.check(fn, m, st, "error")

    def a_logging(self, lib, m):
        rng = self.rng
        fn = self.fn3(lib, "fmi2SetDebugLogging", "fmi3SetDebugLogging")
        cats = rng.sample(lib.spec["categories"], rng.randint(0, min(2, len(lib.spec["categories"]))))
        bad = rng.random() < 0.3
        if bad:
            cats.append("noSuchCategory")
        arr = (ctypes.c_char_p * max(1, len(cats)))(*[c.encode() for c in cats])
        on = rng.random() < 0.3  # logging everything slows the run down
        st = self.call(lib, m, fn, m.handle, on, len(cats), arr)
        self.check(fn, m, st, "error" if bad else "ok", what="(%s, %s)" % (on, cats))


# --------------------------------------------------------------------------
# Running seeds in child processes
# --------------------------------------------------------------------------

def child(seed, specs, calls, wfd, gc_stress):
    """Runs one seed in a freshly forked process; exits 0 (passed) or 3 (oracle violation)."""
    out = os.fdopen(wfd, "w", buffering=1)
    if gc_stress:
        os.environ["GOGC"] = "1"  # the Go runtimes (loaded below) collect at every few KB
    code = 0
    try:
        f = Fuzzer(seed, specs, calls, out)
        stats = f.run()
        out.write("STATS %s\n" % json.dumps(stats))
    except Violation as e:
        out.write("VIOLATION %s\n" % e)
        code = 3
    except Exception as e:  # a fuzzer defect is a failure too, with its trace
        import traceback
        out.write("VIOLATION fuzzer exception: %s\n" % " / ".join(traceback.format_exception_only(type(e), e)))
        for line in traceback.format_exc().splitlines():
            out.write("TRACE %s\n" % line)
        code = 4
    out.flush()
    os._exit(code)


class Running:
    def __init__(self, seed, pid, rfd):
        self.seed, self.pid, self.rfd = seed, pid, rfd
        self.buf = b""
        self.lines = []
        self.calls = 0
        self.last = time.monotonic()
        self.stats = None
        self.violation = None


def run_seeds(specs, seeds, calls, jobs, timeout, verbose, gc_every):
    failures, totals, ncalls, done = [], {}, 0, 0
    running = {}
    pending = list(seeds)
    t0 = time.monotonic()
    while pending or running:
        while pending and len(running) < jobs:
            seed = pending.pop(0)
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                child(seed, specs, calls, w, gc_every and seed % gc_every == 0)
            os.close(w)
            running[r] = Running(seed, pid, r)
        ready, _, _ = select.select(list(running), [], [], 0.5)
        now = time.monotonic()
        for fd in ready:
            run = running[fd]
            data = os.read(fd, 65536)
            run.last = now
            if data:
                run.buf += data
                *lines, run.buf = run.buf.split(b"\n")
                for raw in lines:
                    line = raw.decode(errors="replace")
                    if line.startswith("STATS "):
                        run.stats = json.loads(line[6:])
                    elif line.startswith("VIOLATION ") or line.startswith("TRACE "):
                        run.violation = (run.violation + "\n" if run.violation else "") + line
                    else:
                        run.calls += 1
                        run.lines = (run.lines + [line])[-40:]
                        if verbose:
                            print("seed %d: %s" % (run.seed, line))
                continue
            # EOF: the child has finished (or died).
            os.close(fd)
            del running[fd]
            _, status = os.waitpid(run.pid, 0)
            done += 1
            ncalls += run.calls
            problem = None
            if os.WIFSIGNALED(status):
                problem = "killed by signal %d (%s)" % (os.WTERMSIG(status), signal.Signals(os.WTERMSIG(status)).name)
            elif os.WEXITSTATUS(status) != 0:
                problem = run.violation or "exit status %d" % os.WEXITSTATUS(status)
            elif run.stats is None:
                problem = "ended without a report"
            if problem:
                failures.append((run.seed, problem, run.lines))
            else:
                for k, v in run.stats.items():
                    totals[k] = totals.get(k, 0) + v
        for fd, run in list(running.items()):
            if now - run.last > timeout:
                os.kill(run.pid, signal.SIGKILL)
                os.waitpid(run.pid, 0)
                os.close(fd)
                del running[fd]
                done += 1
                ncalls += run.calls
                failures.append((run.seed, "hang: no call finished for %g s" % timeout, run.lines))
    return failures, totals, ncalls, done, time.monotonic() - t0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fmus", nargs="+", help="FMU archives (.fmu)")
    p.add_argument("--seeds", type=int, default=200, help="number of seeds (default 200)")
    p.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--calls", type=int, default=150, help="calls per seed (default 150)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="processes at once")
    p.add_argument("--timeout", type=float, default=60, help="seconds without progress that count as a hang")
    p.add_argument("--gc-every", type=int, default=10,
                   help="every N-th seed runs its Go runtimes with GOGC=1 (0: none)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every call")
    a = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="cablefmu-fuzz-")
    try:
        specs = []
        for i, path in enumerate(a.fmus):
            folder = fmucommon.unzip(path, os.path.join(tmp, "%d-%s" % (i, os.path.basename(path))))
            specs.append(read_spec(folder))
        failures, totals, ncalls, done, secs = run_seeds(specs, range(a.first, a.first + a.seeds), a.calls,
                                                          a.jobs, a.timeout, a.verbose, a.gc_every)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    errors = sum(v for k, v in totals.items() if k.endswith(" Error"))
    oks = sum(v for k, v in totals.items() if k.endswith(" OK"))
    steps_ok = sum(v for k, v in totals.items() if "DoStep OK" in k)
    steps = sum(v for k, v in totals.items() if "DoStep " in k)
    print("fuzz: %d seeds, %d calls (%d OK, %d Error as predicted), %d FMU(s), %.1f s (%.0f calls/s)" % (
        done, ncalls, oks, errors, len(a.fmus), secs, ncalls / max(secs, 1e-9)))
    print("fuzz: %d of %d steps OK; %d damaged states and %d foreign or freed instance handles refused" % (
        steps_ok, steps, totals.get("damaged state refused", 0), totals.get("foreign or freed handle refused", 0)))
    for seed, problem, lines in failures:
        print("\nFAILED seed %d: %s\n  last calls:\n    %s\n  replay: python3 %s --first %d --seeds 1 -v %s" % (
            seed, problem, "\n    ".join(lines[-15:]), os.path.relpath(__file__), seed, " ".join(a.fmus)))
    if failures:
        print("\nfuzz: %d of %d seeds failed" % (len(failures), done))
        return 1
    # A run where nearly every step fails would not exercise the stepping
    # paths: the oracle's 'maybe' would hide a broken instance.
    if steps and steps_ok < 0.3 * steps:
        print("fuzz: only %d of %d steps succeeded: the sequences do not reach the stepping paths" % (steps_ok, steps))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
