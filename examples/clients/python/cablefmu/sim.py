"""Loading FMUs and simulating them: :func:`load`, :func:`simulate`, :class:`Result`."""

import bisect
import hashlib
import math
import os
import re
import shutil
import tempfile
import threading
import time
import warnings
import xml.etree.ElementTree as ET
import zipfile

from . import fmi2, fmi3, fmucommon

__all__ = ["FMU", "FMUError", "Result", "Table", "load", "simulate"]


class FMUError(Exception):
    """A simulation that failed: the FMU refused a call or a step.

    ``log`` holds the messages the FMU logged during the failed call, as
    ``(status, category, text)`` tuples; ``time`` is the simulation time
    (s) of the failure, or None before the first step.
    """

    def __init__(self, message, log=(), time=None):
        super().__init__(message)
        self.log = list(log)
        self.time = time


_lock = threading.Lock()
_loaded = {}  # SHA-256 of the archive -> FMU, once per process


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _cache_root():
    root = os.environ.get("CABLEFMU_CACHE") or os.path.join(
        tempfile.gettempdir(), "cablefmu-%s" % (os.getuid() if hasattr(os, "getuid") else "user"))
    os.makedirs(root, exist_ok=True)
    return root


# The cache keeps the archives unpacked last used, CACHE_KEEP of them
# (CABLEFMU_CACHE_KEEP overrides): each archive built anew (another binary,
# another digest) unpacks into a folder of its own, and a machine that
# rebuilt its FMUs a thousand times held 21 GB of them.  A folder used
# within CACHE_GRACE seconds stays whatever the count: another process may
# be about to load it.
CACHE_KEEP = 32
CACHE_GRACE = 3600
# A cache folder's name: the archive's SHA-256, its first 20 digits (an
# SSP's after "ssp-").
_ENTRY = re.compile(r"(ssp-)?[0-9a-f]{20}")


def _cached(path, name, digest, marker="modelDescription.xml"):
    """Unpack ``path`` into the cache folder ``name`` (fmucommon.unzip),
    mark it used and evict the folders used longest ago beyond the bound."""
    root = _cache_root()
    folder = fmucommon.unzip(path, os.path.join(root, name), digest, marker=marker)
    try:
        os.utime(os.path.join(folder, fmucommon.STAMP))
    except OSError:
        pass
    _evict(root, folder)
    return folder


def _evict(root, keep, now=None):
    """Remove from the cache folder ``root`` its unpacked archives (folders
    named as _cached names them; nothing else is touched) beyond
    the CACHE_KEEP used last (their stamps' times; a folder without one,
    an unpacking cut short, by its own), but ``keep`` and any used within
    CACHE_GRACE seconds of ``now``.  A folder is renamed before it is
    removed, so no process finds it half gone; one that cannot be removed
    (a binary loaded on Windows) stays for another time."""
    try:
        bound = int(os.environ.get("CABLEFMU_CACHE_KEEP", CACHE_KEEP))
    except ValueError:
        bound = CACHE_KEEP
    now = time.time() if now is None else now
    used = []
    for entry in os.scandir(root):
        if entry.name.startswith(".evict-"):
            shutil.rmtree(entry.path, ignore_errors=True)  # one a removal left
            continue
        if not entry.is_dir(follow_symlinks=False) or not _ENTRY.fullmatch(entry.name):
            continue  # not an archive the cache unpacked: CABLEFMU_CACHE may name a folder of other things
        try:
            when = os.stat(os.path.join(entry.path, fmucommon.STAMP)).st_mtime
        except OSError:
            try:
                when = entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue
        used.append((when, entry.name, entry.path))
    used.sort(reverse=True)
    for when, name, folder in used[max(bound, 0):]:
        if os.path.abspath(folder) == os.path.abspath(keep) or now - when < CACHE_GRACE:
            continue
        gone = os.path.join(root, ".evict-%s-%d" % (name, os.getpid()))
        try:
            os.rename(folder, gone)
        except OSError:
            continue
        shutil.rmtree(gone, ignore_errors=True)


class FMU:
    """An FMU unpacked once per process (and reused by later processes on
    the machine while the archive is the same): every instance loads the
    same binary from the same path, so the process holds one Go runtime.

    Attributes: ``path`` (the archive), ``sha256`` (its digest), ``folder``
    (where it is unpacked), ``version`` (2 or 3), ``md`` (the model
    description), ``name``.
    """

    def __init__(self, path, digest=None):
        self.path = os.path.abspath(path)
        if not zipfile.is_zipfile(self.path):
            raise FMUError("%s: not an FMU (a zip archive)" % path)
        digest = digest or _sha256(self.path)  # load has it: an archive is hashed once
        self.sha256 = digest
        self.folder = _cached(self.path, digest[:20], digest)
        root = ET.parse(os.path.join(self.folder, "modelDescription.xml")).getroot()
        version = root.get("fmiVersion", "")
        if version.startswith("2."):
            self.version, self._binding = 2, fmi2
        elif version.startswith("3."):
            self.version, self._binding = 3, fmi3
        else:
            raise FMUError("%s: fmiVersion %r: want 2.0 or 3.0" % (path, version))
        self.md = self._binding.read_model_description(self.folder)
        self.name = self.md.model_name
        self._count = 0

    def variables(self, causality=None):
        """The scalar variables' names, of one causality if given."""
        out = []
        for v in self.md.variables.values():
            if getattr(v, "is_array", False):
                continue
            if causality is None or v.causality == causality:
                out.append(v.name)
        return out

    def default_step(self):
        """The FMU's default communication step (s): its default
        experiment's step size, else its internal step parameter internalStep."""
        step = self.md.default_experiment.get("stepSize")
        if step:
            return step
        h = self.md.variables.get("internalStep")
        return h.start if h is not None and h.start else 1.0 / 60

    def instance(self, name=None):
        """A new instance (see :class:`Instance`)."""
        with _lock:
            self._count += 1
            n = self._count
        return Instance(self, name or "cablefmu-%d" % n)

    def __repr__(self):
        return "FMU(%r, FMI %d.0)" % (self.name, self.version)


_seen = {}  # (path, size, mtime) -> SHA-256: an unchanged file is not hashed again


def load(path):
    """The FMU at ``path`` (an .fmu archive), unpacked once per process: a
    second call with the same archive, at this path or another, returns the
    same FMU."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _lock:
        digest = _seen.get(key)
    if digest is None:
        digest = _sha256(path)
    with _lock:
        _seen[key] = digest
        fmu = _loaded.get(digest)
        if fmu is None:
            fmu = FMU(path, digest)
            _loaded[digest] = fmu
        return fmu


class Instance:
    """One co-simulation instance, the same calls in FMI 2.0 and 3.0."""

    def __init__(self, fmu, name):
        self.fmu = fmu
        b = fmu._binding
        try:
            if fmu.version == 2:
                self.s = b.FMU2Slave(fmu.folder, name, model_description=fmu.md)
                self.s.instantiate()
            else:
                self.s = b.FMU3Slave(fmu.folder, instance_name=name, model_description=fmu.md)
                self.s.instantiate_co_simulation()
        except fmucommon.FMIError as e:
            raise FMUError(str(e), e.messages) from e

    def initialize(self, parameters=None, inputs=None, start_time=0.0):
        """Set parameters (and inputs at the start), then initialize."""
        try:
            if self.fmu.version == 2:
                self.s.setup_experiment(start_time=start_time)
                if parameters:
                    self.set(list(parameters), list(parameters.values()))
                self.s.enter_initialization_mode()
                if inputs:
                    self.set(list(inputs), list(inputs.values()))
                self.s.exit_initialization_mode()
            else:
                if parameters:
                    self.set(list(parameters), list(parameters.values()))
                self.s.enter_initialization_mode(start_time=start_time)
                if inputs:
                    self.set(list(inputs), list(inputs.values()))
                self.s.exit_initialization_mode()
        except fmucommon.FMIError as e:
            raise FMUError(str(e), e.messages) from e

    def set(self, names, values):
        """Sets variables of any type to numbers (a Boolean is 0 or 1)."""
        self.s.set_values(names, values)

    def get(self, names):
        """Variables of any type as numbers (a Boolean as 0 or 1)."""
        return self.s.get_values(names)

    def setter(self, names):
        """A function ``set(values)`` doing ``set(names, values)``, the
        names resolved and the ctypes arrays built once: for every step."""
        return self.s.values_setter(names)

    def getter(self, names):
        """A function ``get()`` returning ``get(names)`` (see :meth:`setter`)."""
        return self.s.values_getter(names)

    def step(self, t, h):
        self.s.do_step(t, h)

    def free(self):
        try:
            self.s.free()
        except fmucommon.FMIError:
            pass


class Table:
    """An input signal from samples: linear between them, held before the
    first and after the last; a time within rounding of a sample's is the
    sample's (``snap``). ``Table(times, values)``."""

    def __init__(self, times, values):
        times, values = [float(t) for t in times], [float(v) for v in values]
        if not times or len(times) != len(values):
            raise ValueError("Table: %d times for %d values" % (len(times), len(values)))
        if any(b < a for a, b in zip(times, times[1:])):
            raise ValueError("Table: times must not decrease")
        self.times, self.values = times, values

    def snap(self, t):
        """The sample time within rounding of ``t`` (1e-9 of it), else ``t``: communication points, added up or
        multiplied out, fall a hair before or after the samples meant for them (3 * 0.3 < 0.9)."""
        ts = self.times
        i = bisect.bisect_left(ts, t)
        tol = 1e-9 * max(1.0, abs(t))
        if i < len(ts) and ts[i] - t <= tol:
            return ts[i]
        if i > 0 and t - ts[i - 1] <= tol:
            return ts[i - 1]
        return t

    def __call__(self, t):
        ts, vs = self.times, self.values
        t = self.snap(t)
        if t <= ts[0]:
            return vs[0]
        if t >= ts[-1]:
            return vs[-1]
        k = bisect.bisect_right(ts, t)
        t0, t1 = ts[k - 1], ts[k]
        if t1 == t0:
            return vs[k]
        return vs[k - 1] + (vs[k] - vs[k - 1]) * (t - t0) / (t1 - t0)

    def before(self, t):
        """The value at ``t`` approached from before: at a jump (samples of the same time) the value before it."""
        ts, vs = self.times, self.values
        t = self.snap(t)
        i = bisect.bisect_left(ts, t)
        if i < len(ts) and ts[i] == t:
            return vs[i]
        return self(t)

    def step_slope(self, t, dt):
        """The slope over a step of ``dt`` from ``t``, as ``cablefmu run`` gives it: the mean over the step up to
        the value just before its end, or 0 (held) where the table jumps (samples of one time) within the step,
        which the mean would spread over it (a snatch at 0.25 s steps peaked at 10 kN against 54 kN)."""
        ts, vs = self.times, self.values
        t, end = self.snap(t), self.snap(t + dt)
        mean = (self.before(end) - self(t)) / dt
        i = max(1, bisect.bisect_right(ts, t))
        while i < len(ts) and ts[i - 1] < end:
            a, b = ts[i - 1], ts[i]
            d = vs[i] - vs[i - 1]
            if a == b and d != 0:
                return 0.0
            i += 1
        return mean



def _signal(name, spec):
    """The input ``name``'s signal from its spec (see :func:`simulate`); a table's error names the input."""
    try:
        return _signal_of(name, spec)
    except ValueError as e:
        if str(e).startswith("input %s:" % name):
            raise
        raise ValueError("input %s: %s" % (name, e)) from None


def _signal_of(name, spec):
    """:func:`_signal`'s reading of the spec.

    A sequence is a ``(times, values)`` pair or a list of ``(t, value)``
    rows. Two samples are two pairs of two numbers either way: written as
    Python writes each form, a tuple of two lists is ``(times, values)`` and
    a list of two tuples two rows; other spellings of that case are
    refused rather than guessed (two rows read as a pair were a wrong
    profile, without an error)."""
    if callable(spec):
        return spec
    if isinstance(spec, bool):
        raise TypeError("input %s: a Boolean %r for a number: give the value (1.0 for 1)" % (name, spec))
    if isinstance(spec, (int, float)):
        value = float(spec)
        return lambda t: value
    if isinstance(spec, dict) and "time" in spec:
        return Table(spec["time"], spec["values"])
    if isinstance(spec, (tuple, list)) and spec and all(isinstance(x, (tuple, list)) for x in spec):
        rows = all(len(x) == 2 for x in spec)
        if len(spec) == 2 and not rows:
            return Table(spec[0], spec[1])
        if len(spec) == 2:
            if isinstance(spec, tuple) and all(isinstance(x, list) for x in spec):
                return Table(spec[0], spec[1])
            if not (isinstance(spec, list) and all(isinstance(x, tuple) for x in spec)):
                raise ValueError("input %s: %r reads as (times, values) or as two (t, value) rows; write "
                                 "([t0, t1], [v0, v1]), [(t0, v0), (t1, v1)] or {'time': [t0, t1], 'values': [v0, v1]}"
                                 % (name, spec))
        if rows:
            return Table([r[0] for r in spec], [r[1] for r in spec])
    raise TypeError("input %s: want a number, a callable of t, a (times, values) pair, a list of (t, value) rows or "
                    "{'time': [...], 'values': [...]}, got %r" % (name, type(spec).__name__))


class Result(dict):
    """A simulation's columns: ``result["time"]`` and one list per output,
    one row per communication point (the start included); ``units`` maps a
    column to its unit (the FMU's, s for time); ``warnings`` lists the
    FMU's warnings of the run, also issued as ``RuntimeWarning``. ``to_numpy()`` gives a
    NumPy structured array and ``to_pandas()`` a DataFrame where those
    packages are installed."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.units = {"time": "s"}
        # The FMU's warnings of the run (also issued as RuntimeWarning).
        self.warnings = []

    def names(self):
        return list(self)

    def rows(self):
        cols = list(self.values())
        return [list(r) for r in zip(*cols)]

    def to_numpy(self):
        import numpy as np
        dtype = [(n, "f8") for n in self]
        arr = np.empty(len(self["time"]), dtype=dtype)
        for n, col in self.items():
            arr[n] = col
        return arr

    def to_pandas(self):
        import pandas as pd
        return pd.DataFrame({n: list(c) for n, c in self.items()})

    def header(self):
        """The CSV header: each column's name with its unit, "cable.tension (N)"."""
        return [_headed(n, self.units.get(n)) for n in self]

    def write_csv(self, path):
        import csv
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(self.header())
            for r in self.rows():
                w.writerow([repr(x) for x in r])


def _headed(name, unit):
    """A CSV column's header: the name, with the unit where there is one."""
    return "%s (%s)" % (name, unit) if unit else name


def column_name(header):
    """The column's name of a CSV header "cable.tension (N)"."""
    name, sep, unit = header.rpartition(" (")
    return name if sep and unit.endswith(")") else header


#: The most communication steps a run may have ((stop_time − start_time)/step): a run's result is kept in memory, and
#: 1e9 s at 1 ms grew it until the machine ran out.
MAX_STEPS = 10 ** 7


def check_steps(start_time, stop_time, step):
    """Raise ValueError where a run from ``start_time`` to ``stop_time`` (s) at ``step`` (s) takes more than
    :data:`MAX_STEPS` communication steps."""
    steps = (stop_time - start_time) / step
    if not steps <= MAX_STEPS:
        raise ValueError("(stop_time − start_time)/step: %.6g steps (from %g s to %g s at %g s), more than %d: "
                         "shorten the run or lengthen the step" % (steps, start_time, stop_time, step, MAX_STEPS))


def _time(name, x):
    """``x`` as a float for the time argument ``name`` (s): anything that converts to one (a Decimal, a NumPy
    scalar or 0-d array), but not a Boolean or a string, which float() would read."""
    if isinstance(x, (bool, str, bytes)):
        raise TypeError("%s %r: want a number of seconds" % (name, x))
    try:
        return float(x)
    except (TypeError, ValueError):
        raise TypeError("%s %r: want a number of seconds" % (name, x)) from None


def simulate(fmu, inputs=None, parameters=None, stop_time=10.0, step=None, outputs=None, start_time=0.0,
             instance_name=None, derivatives=None):
    """Simulate an FMU and return its outputs as a :class:`Result`.

    ``fmu``: an :class:`FMU` or the path of an .fmu archive (loaded once per
    process). ``inputs``: name -> a number, a callable of the time (s), a
    ``(times, values)`` pair, a list of ``(t, value)`` rows or
    ``{"time": [...], "values": [...]}`` (linear between samples); each
    communication step starts with the inputs at its start. ``parameters``: name -> value, set before initialization.
    ``step``: the communication step (s; default the FMU's). ``outputs``:
    the names to record (default every scalar output). ``derivatives``:
    input name -> a callable of the step's start time giving the input's
    first derivative over the step, passed to an FMI 2.0 FMU that can
    interpolate inputs (a velocity input's acceleration); an input given as
    a table (but a position) passes its mean slope over each step there
    unless given, and an FMI 3.0 FMU, which takes none, is warned of. Raises
    :class:`FMUError` with the FMU's log when a call fails.
    """
    return _simulate(fmu, inputs, parameters, stop_time, step, outputs, start_time, instance_name, derivatives)[0]


def _simulate(fmu, inputs=None, parameters=None, stop_time=10.0, step=None, outputs=None, start_time=0.0,
              instance_name=None, derivatives=None, keep_inputs=False):
    """:func:`simulate`, returning ``(result, applied)``: with
    ``keep_inputs``, ``applied`` holds each input's values at the
    communication points as the result's columns do (those set at the start
    of each step, and the value at the end), else None. Each input is
    evaluated once per communication point: a study records what was
    applied instead of evaluating its profiles again."""
    if not isinstance(fmu, FMU):
        fmu = load(fmu)
    h = _time("step", step) if step is not None else fmu.default_step()
    stop_time, start_time = _time("stop_time", stop_time), _time("start_time", start_time)
    if not (h > 0 and math.isfinite(h)):
        raise ValueError("step %r: must be positive and finite" % step)
    if not (math.isfinite(stop_time) and math.isfinite(start_time)):
        raise ValueError("start_time %r and stop_time %r: must be finite" % (start_time, stop_time))
    if not (stop_time > start_time):
        raise ValueError("stop_time %r must exceed start_time %r" % (stop_time, start_time))
    check_steps(start_time, stop_time, h)
    if isinstance(outputs, str):
        raise TypeError("outputs %r: want a list of names" % outputs)
    signals = {n: _signal(n, s) for n, s in (inputs or {}).items()}
    known = set(fmu.md.variables)
    for n in list(signals) + list(parameters or {}):
        if n not in known:
            raise FMUError("%s has no variable %r" % (fmu.name, n))
    for n, v in (parameters or {}).items():
        if isinstance(v, bool) and fmu.md.variables[n].type.startswith(("Real", "Float")):
            # A Boolean true for a mass was 1 kg.
            raise TypeError("parameter %s: a Boolean %r for %s's Real %s: give the value" % (n, v, fmu.name, n))
    derivs = dict(derivatives or {})
    interpolates = fmu.version == 2 and fmu.md.can_interpolate_inputs
    if derivs and not interpolates:
        raise FMUError("%s cannot take input derivatives (FMI %d.0, canInterpolateInputs %s)"
                       % (fmu.name, fmu.version, getattr(fmu.md, "can_interpolate_inputs", False)))
    # A table's Real inputs but positions give their mean slopes over each
    # step, as ``cablefmu run`` does: held over the step, a ramp sampled at
    # 0.1 s was a staircase whose jumps rang the rope (+54 % tension). A
    # position's slope jumps at every row; the FMU's own path through the
    # positions is smoother.
    sloped = [n for n, sig in signals.items()
              if isinstance(sig, Table) and n not in derivs and fmu.md.variables[n].type in ("Real", "Float64")
              and getattr(fmu.md.variables[n], "unit", None) != "m"]
    if sloped and not interpolates:
        warnings.warn("%s (FMI %d.0) takes no input derivatives: the tables of %s are held over each communication "
                      "step, a ramp a staircase of jumps" % (fmu.name, fmu.version, ", ".join(sloped)),
                      RuntimeWarning, stacklevel=3)
        sloped = []
    names = list(outputs) if outputs else fmu.variables("output")
    for n in names:
        if n not in known:
            raise FMUError("%s has no variable %r" % (fmu.name, n))
    inst = fmu.instance(instance_name)
    result = Result(time=[])
    for n in names:
        result[n] = []
        result.units[n] = getattr(fmu.md.variables[n], "unit", None) or "1"
    in_names, in_funcs = list(signals), list(signals.values())
    d_names, d_funcs = list(derivs) + sloped, list(derivs.values()) + [signals[n] for n in sloped]
    n_given = len(derivs)  # d_funcs[:n_given] give derivatives, the others are tables (Table.step_slope)
    applied = {n: [] for n in in_names} if keep_inputs else None
    t = float(start_time)
    try:
        # The FMU's warnings (driven by positions alone, it says once that
        # it takes the velocity from the samples) are passed on below.
        inst.s.set_debug_logging(True, ["logStatusWarning"])
        values = [s(t) for s in in_funcs]
        inst.initialize(parameters, dict(zip(in_names, values)), start_time=t)
        # What is called every step is made here once: the names resolved
        # to value references, the ctypes arrays built, the columns found.
        set_inputs = inst.setter(in_names) if in_names else None
        set_derivs = inst.s.real_input_derivatives_setter(d_names, 1) if d_names else None
        get_outputs = inst.getter(names)
        do_step = inst.s.do_step
        times = result["time"]
        rows = []  # the outputs of each communication point, made columns at the end
        kept = [applied[n] for n in in_names] if keep_inputs else None

        def record(at):
            times.append(at)
            rows.append(get_outputs())

        record(t)
        k = 0
        steps = int(math.ceil((stop_time - start_time) / h - 1e-9))
        while k < steps:
            if k:  # the first step's inputs are the initialization's
                values = [s(t) for s in in_funcs]
            if set_inputs is not None:
                set_inputs(values)
                if kept is not None:
                    for col, v in zip(kept, values):
                        col.append(v)
            dt = min(h, stop_time - t)
            if set_derivs is not None:
                # A table's slope over the step (Table.step_slope), not the
                # one where the step starts: a row between communication
                # points carried the ramp past its end until the next point.
                set_derivs([d(t) if i < n_given else d.step_slope(t, dt) for i, d in enumerate(d_funcs)])
            try:
                do_step(t, dt)
            except fmucommon.FMIError as e:
                raise FMUError("%s: step at t = %.6g s failed: %s" % (fmu.name, t, e), e.messages, t) from e
            k += 1
            t = start_time + k * h if k < steps else stop_time
            record(t)
        if kept is not None:  # the end: no step follows, the inputs are not set
            for col, s in zip(kept, in_funcs):
                col.append(s(t))
    except fmucommon.FMIError as e:
        raise FMUError("%s: %s" % (fmu.name, e), e.messages, t) from e
    finally:
        said = [text for status, _, text in inst.s.messages if status == fmucommon.WARNING]
        inst.free()
    for n, col in zip(names, zip(*rows)):
        result[n] = list(col)
    result.warnings = said
    for text in said:
        warnings.warn("%s: %s" % (fmu.name, text), RuntimeWarning, stacklevel=3)
    return result, applied
