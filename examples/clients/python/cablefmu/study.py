"""Studies: many simulations of one FMU over varied parameters and input
profiles, each reduced to a row of numbers, run serially, on this
machine's cores or on Dask (see run for how the default is chosen).

A study file (JSON, or TOML where the standard library reads it) says:

- ``name``: the study's name (letters, digits, ``_``, ``-`` and ``.``, not
  first), its output folder ``out/NAME`` beside the study file;
  ``description``: free text;
- ``fmu`` (an .fmu archive) or ``scenario`` (a scenario folder anywhere,
  exported with the cablefmu command for this machine's platform into
  ``out/fmus/KEY/`` beside the study file, KEY naming the files exported
  and the command, so again when either changed), paths relative to the
  study file; ``stop_time`` and ``step`` (s; at most ``MAX_STEPS`` steps a
  run);
- ``vary``: each varied name with ``values`` (a list), ``range``
  ([from, to, count], evenly) or ``uniform`` ([low, high]), and
  optionally its ``unit`` (a parameter's is the FMU's), which the report
  and the plots give; names that are
  the FMU's parameters are set as parameters, the others are case
  variables the input profiles refer to as ``"$name"``; ``design``:
  ``grid`` (every combination of values and ranges), ``random`` or ``lhs``
  (Latin hypercube) with ``runs`` and ``seed``; ``fixed``: parameters set
  in every run;
- ``inputs``: input name -> profile: ``{"profile": "constant", "value"}``,
  ``{"profile": "table", "time": [...], "values": [...]}`` or ``"file"``
  (a CSV of time, value), ``{"profile": "trapezoid", "start", "distance",
  "speed", "acceleration", "velocity": NAME}`` (a rest-to-rest move: the
  input gets the position, NAME the velocity, and the move's end time is
  ``NAME.end`` for the reductions; a negative distance moves back);
  ``{"profile": "speed", …}`` the same move's speed alone (a winch paying
  out ``distance`` of rope, hauling in a negative one);
- ``outputs``: the outputs to keep; ``sway``: optional
  ``{"suspension": [x, z], "load": [x, z]}`` naming the variables of a sway
  angle (degrees from the vertical) called ``sway``;
- ``reductions``: name -> ``{"of": SIGNAL, "op": OP}`` with OP one of
  ``max``, ``min``, ``max_abs``, ``rms``, ``final``, ``time_above``
  (with ``threshold``) and ``daf`` (the peak over the value at the start:
  the dynamic amplification factor, the FMU starting in static
  equilibrium); ``after`` (a time in s, or a move's ``NAME.end``) limits a
  reduction to the time after it;
- ``report``: optional ``{"worst": REDUCTION, "above": {REDUCTION: limit},
  "below": {REDUCTION: limit}, "by": [names]}`` for the summary printed
  after a run: the worst run (the largest value, the smallest of a ``min``
  reduction), and the combinations of the ``by`` names (default: all
  varied) where a run goes above or below the limit; runs whose reduction
  has no value (a window ``after`` a move that ended past ``stop_time``)
  are counted apart, never as within the limit;
- ``max_runs``: the most runs the study may have (default ``MAX_RUNS``);
  ``run_timeout``: the wall-clock seconds a run may take before it is
  stopped and recorded as failed (default ``RUN_TIMEOUT``).

The file is checked before anything runs: an unknown key (at any level), a
value of the wrong type, a number that is not finite or a count that is not
a whole number is refused with the key's place in the file.

Each run's row is written to ``OUT/runs/ID.json`` as it finishes, so a
study stopped and started again runs only what is missing; the table
``OUT/results.csv`` (Parquet where pyarrow is installed) is assembled from
those rows in the order of the runs, so that the same study gives the same
table whoever ran it. The runner writes only into a new or empty folder or
one it marked as a study's (``OUT/.cablefmu-study.json``, naming the study
file), and ``fresh`` forgets the runs only of a folder marked as this study
file's: two study files never share an output folder (two files without
``name`` are both ``out/study``: give them names, or ``--out``). The keys
that change no run's row (``report``, ``description``, ``max_runs`` and
``run_timeout``) may be edited without starting afresh.

Each run is simulated in a separate process (a child of this process, or
of the Dask worker), reused from run to run: a run that crashes that process
or takes longer than its timeout becomes a failed row, and the next run gets
a new process.
"""

import builtins
import csv
import difflib
import itertools
import json
import math
import os
import pickle
import queue
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import types
import zipfile

from . import command
from .sim import MAX_STEPS, FMUError, Table, _sha256, _signal, _simulate, load

__all__ = ["Study", "run_case", "run", "MAX_RUNS", "MAX_STEPS", "RUN_TIMEOUT"]

#: The most runs a study may have unless --max-runs (or ``max_runs``) says otherwise.
MAX_RUNS = 100000
#: The wall-clock seconds a run may take unless --run-timeout (or ``run_timeout``) says otherwise.
RUN_TIMEOUT = 3600.0
#: The file that marks a folder as a study's output folder (it holds the study's fingerprint and file).
MARKER = ".cablefmu-study.json"
#: The keys of a study file that change no run's row (left out of its fingerprint).
NOT_RESULTS = ("report", "description", "max_runs", "run_timeout")
#: How often a run whose result a lost Dask worker held is submitted again before it is a failed row.
LOST_RUNS_RESUBMITTED = 3
#: The seconds it takes to start the run processes for the further cores, load the FMU in them and
#: close them (0.1 s on an idle 2-core machine, twice that on a busy one): with LOCAL_TASK, what
#: decides whether a study asked for no mode runs serially (see run).
LOCAL_START = 0.15
#: The seconds a run costs in run processes side by side besides its simulation (its row's way
#: back and saving, the other processes' share of the cores: 1.6-2.1 ms on 2 cores).
LOCAL_TASK = 0.002

OPS = ("max", "min", "max_abs", "rms", "final", "time_above", "daf")
DESIGNS = ("grid", "random", "lhs")
KEYS = ("name", "description", "fmu", "scenario", "ssp", "coupling", "order", "parameter_sets", "stop_time", "step",
        "vary", "design", "runs", "seed", "fixed", "inputs", "outputs", "sway", "reductions", "report", "max_runs",
        "run_timeout")
PROFILE_KEYS = {"constant": ("profile", "value"),
                "table": ("profile", "time", "values", "file", "scale"),
                "trapezoid": ("profile", "start", "distance", "speed", "acceleration", "velocity", "from"),
                "speed": ("profile", "start", "distance", "speed", "acceleration")}
MOVE_KEYS = ("start", "distance", "speed", "acceleration")
PLAIN_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\Z")


class StudyError(Exception):
    """A study file that cannot be run, with the reason."""


def _build_key(folder, identity):
    """What a scenario folder's FMU depends on: the files the export reads
    (scenario.json, the plugins it names, everything under resources/,
    symbolic links followed as the export follows them; names and bytes)
    and the command's identity (command.identity: its engines and its own
    code)."""
    import hashlib
    h = hashlib.sha256(identity.encode() + b"\0")

    def add(rel):
        h.update(rel.encode() + b"\0")
        try:
            with open(os.path.join(folder, rel), "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
        except OSError as e:  # the export says what is missing
            h.update(("unreadable: %s" % e.strerror).encode())

    add("scenario.json")
    try:
        with open(os.path.join(folder, "scenario.json"), "rb") as f:
            plugins = json.loads(f.read().decode("utf-8-sig")).get("plugins") or []
        files = sorted({p["file"] for p in plugins if isinstance(p, dict) and isinstance(p.get("file"), str)})
    except (OSError, ValueError, AttributeError, TypeError):
        files = []
    for rel in files:
        add(rel)
    resources = os.path.join(folder, "resources")
    seen = set()
    for d, dirs, names in os.walk(resources, followlinks=True):
        real = os.path.realpath(d)
        if real in seen:  # a link back up the tree
            dirs[:] = []
            continue
        seen.add(real)
        dirs.sort()
        for n in sorted(names):
            add(os.path.relpath(os.path.join(d, n), folder).replace(os.sep, "/"))
    return h.hexdigest()


def _cores():
    """The cores this process may run on (its affinity, where the system
    says), for the run processes side by side."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _read(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".toml"):
        try:
            import tomllib
        except ImportError:
            try:
                import tomli as tomllib
            except ImportError:
                raise StudyError("%s: TOML needs Python 3.11 (tomllib) or tomli; write the study as JSON" % path)
        return tomllib.loads(data.decode("utf-8-sig"))
    # A byte order mark, as Windows editors save UTF-8, is neither JSON nor TOML.
    return json.loads(data.decode("utf-8-sig"))


# --------------------------------------------------------------------------
# Checking a study file without its FMU
# --------------------------------------------------------------------------

def _key(*parts):
    """A place in the study file: vary["load.mass"].range[2]."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += "[%d]" % p
        elif re.match(r"[A-Za-z_][A-Za-z0-9_]*\Z", str(p)):
            out += ("." if out else "") + str(p)
        else:
            out += "[%s]" % json.dumps(str(p))
    return out


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _whole(x):
    return _number(x) and float(x).is_integer()


def _kind(x):
    return {dict: "a table", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(x), "a number" if _number(x) else type(x).__name__)


def _finite(x, path):
    """Refuse NaN, ±Inf and integers too large for a float anywhere in x."""
    if isinstance(x, bool):
        return
    if isinstance(x, float) and not math.isfinite(x):
        raise StudyError("%s: %r is not a finite number" % (_key(*path), x))
    if isinstance(x, int):
        try:
            float(x)
        except OverflowError:
            raise StudyError("%s: %.20s… is too large a number" % (_key(*path), x))
    elif isinstance(x, dict):
        for k, v in x.items():
            _finite(v, path + (k,))
    elif isinstance(x, list):
        for k, v in enumerate(x):
            _finite(v, path + (k,))


def _known(table, keys, *path):
    """Refuse the keys of table not among keys, naming the nearest valid one."""
    for k in table:
        if k not in keys:
            near = difflib.get_close_matches(str(k), keys, n=1)
            hint = "did you mean %r?" % near[0] if near else "want one of " + ", ".join(keys)
            raise StudyError("%sunknown key %r (%s)" % (_key(*path) + ": " if path else "", k, hint))


def _shown(x):
    """x as the study file spells it; a table or a list with its kind first
    ("a list [1, 2]"), or its kind alone where it is too long to show."""
    if isinstance(x, (dict, list)):
        try:
            text = json.dumps(x)
        except (TypeError, ValueError):
            return _kind(x)
        return "%s %s" % (_kind(x), text) if len(text) <= 60 else _kind(x)
    try:
        return json.dumps(x)
    except (TypeError, ValueError):
        return _kind(x)


def _want(ok, what, x, *path):
    if not ok:
        raise StudyError("%s: want %s, got %s" % (_key(*path), what, _shown(x)))


def _table(spec, key, *path):
    x = spec[key]
    _want(isinstance(x, dict), "a table", x, *path, key)
    return x


def _number_or_variable(x, *path):
    _want(_number(x) or (isinstance(x, str) and len(x) > 1 and x.startswith("$")),
          'a number or "$name" (a varied name)', x, *path)


def _check(spec):
    """Check a study's structure, types and numbers (no FMU needed);
    raises StudyError naming the first bad key."""
    if not isinstance(spec, dict):
        raise StudyError("the study file holds %s, not a table of keys (name, fmu, stop_time, reductions, …)"
                         % _kind(spec))
    _finite(spec, ())
    _known(spec, KEYS)
    for key in ("stop_time", "reductions"):
        if key not in spec:
            raise StudyError("%r is missing" % key)
    named = [k for k in ("fmu", "scenario", "ssp") if k in spec]
    if len(named) != 1:
        raise StudyError("name an 'fmu', a 'scenario' folder or an 'ssp' package" + (", not %s" % " and ".join(named)
                                                                                      if named else ""))
    for key in ("fmu", "scenario", "ssp", "description"):
        if key in spec:
            _want(isinstance(spec[key], str) and (spec[key] or key == "description"), "a string", spec[key], key)
    for key, allowed in (("coupling", ("explicit", "implicit")), ("order", ("gauss-seidel", "jacobi"))):
        if key in spec:
            if "ssp" not in spec:
                raise StudyError("%s: only a study of an 'ssp' package couples FMUs" % key)
            if spec[key] not in allowed:
                raise StudyError("%s %s: want %s" % (key, json.dumps(spec[key]), " or ".join(allowed)))
    if "parameter_sets" in spec:
        if "ssp" not in spec:
            raise StudyError("parameter_sets: only a study of an 'ssp' package has parameter sets")
        _want(isinstance(spec["parameter_sets"], list) and all(isinstance(x, str) and x for x in spec["parameter_sets"]),
              "a list of .ssv paths in the package", spec["parameter_sets"], "parameter_sets")
    if "name" in spec:
        name = spec["name"]
        if not (isinstance(name, str) and PLAIN_NAME.match(name)):
            raise StudyError("name %s: want a plain name of letters, digits, _, - and . (not first), "
                             "no path" % json.dumps(name))
    for key in ("stop_time", "step", "run_timeout"):
        if key in spec and not (_number(spec[key]) and spec[key] > 0):
            raise StudyError("%s %s: must be a positive number (s)" % (key, json.dumps(spec[key])))
    if "max_runs" in spec:
        _want(_whole(spec["max_runs"]) and spec["max_runs"] >= 1, "a whole number of runs, 1 or more",
              spec["max_runs"], "max_runs")
    design = spec.get("design", "grid")
    if design not in DESIGNS:
        raise StudyError("design %s: want one of %s" % (json.dumps(design), ", ".join(DESIGNS)))
    if design != "grid" and "runs" not in spec:
        raise StudyError("runs: design %s needs the number of runs" % design)
    if "runs" in spec:  # a grid's runs are its combinations
        _want(_whole(spec["runs"]) and spec["runs"] >= 1, "a whole number of runs, 1 or more", spec["runs"], "runs")
    if "seed" in spec:
        _want(_whole(spec["seed"]), "a whole number", spec["seed"], "seed")
    if "vary" in spec:
        for name, v in _table(spec, "vary").items():
            where = ("vary", name)
            if not isinstance(v, dict):
                raise StudyError("%s: give {values: [...]}, {range: [from, to, count]} or {uniform: [low, high]}"
                                 % _key(*where))
            _known(v, ("values", "range", "uniform", "unit"), *where)
            if "unit" in v:
                _want(isinstance(v["unit"], str), "a unit such as \"m/s2\"", v["unit"], *where, "unit")
            if len(set(v) - {"unit"}) != 1:
                raise StudyError("%s: give one of values, range or uniform" % _key(*where))
            if "values" in v:
                x = v["values"]
                _want(isinstance(x, list) and x and all(_number(a) for a in x), "a list of one or more numbers", x,
                      *where, "values")
            elif "range" in v:
                x = v["range"]
                _want(isinstance(x, list) and len(x) == 3 and all(_number(a) for a in x), "[from, to, count]",
                      x, *where, "range")
                _want(_whole(x[2]) and x[2] >= 1, "a whole number of values, 1 or more", x[2], *where, "range", 2)
            else:
                x = v["uniform"]
                _want(isinstance(x, list) and len(x) == 2 and all(_number(a) for a in x), "[low, high]",
                      x, *where, "uniform")
                if design == "grid":
                    raise StudyError("%s: a grid takes values or range, not uniform" % _key(*where))
                if not math.isfinite(x[1] - x[0]):
                    raise StudyError("%s: the span from %g to %g is not a finite number" % (_key(*where, "uniform"),
                                                                                         x[0], x[1]))
            if "range" in v and design != "grid":
                # Its count would go unused: a sampled design draws from
                # the span.
                raise StudyError("%s: %s %s design draws its values: give uniform [%g, %g] (a range's count is a grid's)"
                                 % (_key(*where, "range"), "an" if design == "lhs" else "a", design, v["range"][0],
                                    v["range"][1]))
    if "fixed" in spec:
        for name, x in _table(spec, "fixed").items():
            _want(_number(x), "a number", x, "fixed", name)
            if name in spec.get("vary", {}):
                raise StudyError("fixed %s: also varied: give it in one of fixed and vary" % name)
    if "inputs" in spec:
        for name, p in _table(spec, "inputs").items():
            where = ("inputs", name)
            if not isinstance(p, dict):
                raise StudyError("%s: a profile is a table {profile: …}, got %s" % (_key(*where), _kind(p)))
            kind = p.get("profile")
            if kind not in PROFILE_KEYS:
                raise StudyError("%s: profile %s: want one of %s" % (_key(*where), json.dumps(kind),
                                                                     ", ".join(PROFILE_KEYS)))
            _known(p, PROFILE_KEYS[kind], *where)
            if kind == "constant":
                if "value" not in p:
                    raise StudyError("%s: a constant profile needs its value" % _key(*where))
                _number_or_variable(p["value"], *where, "value")
            elif kind == "table":
                if ("file" in p) == ("time" in p or "values" in p):
                    raise StudyError("%s: a table profile takes time and values, or a file" % _key(*where))
                if "file" in p:
                    _want(isinstance(p["file"], str) and p["file"], "the path of a CSV file", p["file"],
                          *where, "file")
                else:
                    for key in ("time", "values"):
                        _want(isinstance(p.get(key), list) and p[key] and all(_number(a) for a in p[key]),
                              "a list of numbers", p.get(key), *where, key)
                    if len(p["time"]) != len(p["values"]):
                        raise StudyError("%s: %d times for %d values" % (_key(*where), len(p["time"]),
                                                                         len(p["values"])))
                    if any(b < a for a, b in zip(p["time"], p["time"][1:])):
                        raise StudyError("%s: times must not decrease" % _key(*where, "time"))
                if "scale" in p:
                    _number_or_variable(p["scale"], *where, "scale")
            else:
                for key in MOVE_KEYS:
                    if key not in p:
                        raise StudyError("%s: a %s profile needs %s" % (_key(*where), kind, ", ".join(MOVE_KEYS)))
                    _number_or_variable(p[key], *where, key)
                if _number(p["start"]) and _number(spec.get("stop_time")) and p["start"] >= spec["stop_time"]:
                    raise StudyError("%s: %g s: not before stop_time %g s, the run would not see the move"
                                     % (_key(*where, "start"), p["start"], spec["stop_time"]))
                if "from" in p:
                    _number_or_variable(p["from"], *where, "from")
                if "velocity" in p:
                    _want(isinstance(p["velocity"], str) and p["velocity"], "an input's name", p["velocity"],
                          *where, "velocity")
    if "outputs" in spec:
        x = spec["outputs"]
        _want(isinstance(x, list) and all(isinstance(a, str) for a in x), "a list of names", x, "outputs")
    if "sway" in spec:
        sw = _table(spec, "sway")
        _known(sw, ("suspension", "load"), "sway")
        for key in ("suspension", "load"):
            _want(isinstance(sw.get(key), list) and len(sw[key]) == 2 and all(isinstance(a, str) for a in sw[key]),
                  "[x, z], two names", sw.get(key), "sway", key)
    for name, r in _table(spec, "reductions").items():
        where = ("reductions", name)
        if not isinstance(r, dict):
            raise StudyError("%s: give {of: SIGNAL, op: OP}" % _key(*where))
        _known(r, ("of", "op", "threshold", "after"), *where)
        if r.get("op") not in OPS:
            raise StudyError("%s: op %r: want one of %s" % (_key(*where), r.get("op"), ", ".join(OPS)))
        _want(isinstance(r.get("of"), str), "a signal's name", r.get("of"), *where, "of")
        if r["op"] == "time_above" and not _number(r.get("threshold")):
            raise StudyError("%s: time_above needs a numeric threshold" % _key(*where))
        if "threshold" in r:
            _want(_number(r["threshold"]), "a number", r["threshold"], *where, "threshold")
        if "after" in r:
            _want(_number(r["after"]) or isinstance(r["after"], str), "a time (s) or a move's NAME.end",
                  r["after"], *where, "after")
            if _number(r["after"]) and _number(spec.get("stop_time")) and r["after"] >= spec["stop_time"]:
                raise StudyError("%s: %g s: a run ends at stop_time %g s, with nothing after it"
                                 % (_key(*where, "after"), r["after"], spec["stop_time"]))
    if "report" in spec:
        rep = _table(spec, "report")
        _known(rep, ("worst", "above", "below", "by"), "report")
        if "worst" in rep:
            _want(isinstance(rep["worst"], str), "a reduction's name", rep["worst"], "report", "worst")
        for side in ("above", "below"):
            if side in rep:
                for name, x in _table(rep, side, "report").items():
                    _want(_number(x), "a number", x, "report", side, name)
        if "by" in rep:
            _want(isinstance(rep["by"], list) and all(isinstance(a, str) for a in rep["by"]), "a list of names",
                  rep["by"], "report", "by")


def _near(name, names):
    near = difflib.get_close_matches(name, list(names), n=1)
    return " (did you mean %r?)" % near[0] if near else ""


class Study:
    """A study read from a file (see the module's doc); its structure is
    checked at once (StudyError)."""

    def __init__(self, spec, base=".", path=None):
        _check(spec)
        self.spec = spec
        self.base = os.path.abspath(base)
        self.name = spec.get("name", "study")
        #: The study file (its real path), None for a study not read from one.
        self.path = os.path.realpath(path) if path is not None else None

    @classmethod
    def from_file(cls, path):
        try:
            spec = _read(path)
        except (OSError, ValueError) as e:
            raise StudyError("%s: %s" % (path, e))
        return cls(spec, os.path.dirname(os.path.abspath(path)), path)

    def fmu_path(self, build_dir=None):
        """The FMU's path; a scenario folder is exported first (by the
        cablefmu command, for this machine's platform) when its FMU is
        missing or was exported from other files or other engines."""
        for key in ("fmu", "ssp"):
            if key in self.spec:
                path = os.path.join(self.base, self.spec[key])
                if not os.path.isfile(path):
                    raise StudyError("%s: %s not found" % (key, path))
                return path
        folder = os.path.join(self.base, self.spec["scenario"])
        if not os.path.isfile(os.path.join(folder, "scenario.json")):
            raise StudyError("scenario: folder %s has no scenario.json" % folder)
        try:
            with open(os.path.join(folder, "scenario.json")) as f:
                ident = json.load(f).get("modelIdentifier", "Study")
        except (OSError, ValueError, AttributeError) as e:
            raise StudyError("scenario: %s: %s" % (os.path.join(folder, "scenario.json"), e))
        if not (isinstance(ident, str) and PLAIN_NAME.match(ident)):
            raise StudyError("scenario: modelIdentifier %s in %s: want a plain name (letters, digits, _, - and .), "
                             "no path" % (json.dumps(ident), os.path.join(folder, "scenario.json")))
        # The FMU is named by what it is exported from (the files the export
        # reads, the command's identity), for this machine's platform only:
        # exported again when either changed, and never shared by two
        # scenarios or replaced under a study that runs it.
        try:
            key = _build_key(folder, command.identity())
        except command.CommandError as e:
            raise StudyError("scenario: %s" % e)
        out = os.path.join(build_dir or os.path.join(self.base, "out"), "fmus", key[:16], ident + ".fmu")
        if os.path.isfile(out):
            return out
        plat = command.host_platform()
        tmp = "%s.%d.%s.tmp" % (out, os.getpid(), threading.get_ident())  # studies may export at once
        try:
            command.export(folder, tmp, platforms=[plat] if plat else None)
            os.replace(tmp, out)  # the same bytes whoever was first
        except command.CommandError as e:
            raise StudyError("scenario: %s" % e)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        return out

    def units(self):
        """The units of the varied names and the reductions, name -> unit
        ("" where none is known): a vary entry's ``unit``, else its
        parameter's; a reduction's op's (daf 1, time_above s), else its
        signal's (an output's or an input's, the sway's deg)."""
        try:
            md = self.load(self.fmu_path()).md.variables
        except (StudyError, OSError):
            md = {}

        def of(name):
            v = md.get(name)
            return getattr(v, "unit", None) or ""

        units = {}
        for name, v in self.spec.get("vary", {}).items():
            units[name] = v.get("unit") or of(name)
        for name, r in self.spec["reductions"].items():
            op, signal = r.get("op"), r.get("of")
            units[name] = {"daf": "1", "time_above": "s"}.get(op) or ("deg" if signal == "sway" else of(signal))
        return units

    def load(self, path):
        """The FMU at path (see fmu_path), StudyError when it is not one."""
        if "ssp" in self.spec:
            return _SystemFMU(path, self.spec.get("parameter_sets", []))
        key = "fmu" if "fmu" in self.spec else "scenario"
        if not zipfile.is_zipfile(path):
            raise StudyError("%s: %s is not an FMU (not a zip archive)" % (key, path))
        try:
            return load(path)
        except Exception as e:  # a zip without a model description, a bad one
            raise StudyError("%s: %s is not a usable FMU: %s: %s" % (key, path, type(e).__name__,
                                                                     str(e).splitlines()[0] if str(e) else ""))

    def files(self):
        """The files a run reads besides the FMU (table profiles' CSVs)."""
        return [os.path.join(self.base, p["file"]) for p in self.spec.get("inputs", {}).values()
                if p.get("profile") == "table" and "file" in p]

    def validate(self, fmu):
        """Check the study against its FMU before any run: every name, and
        the steps of a run; raises StudyError with the first problem found."""
        sp = self.spec
        md = fmu.md.variables

        def causality(name):
            v = md.get(name)
            return v.causality if v is not None else None

        def of(kind):
            return [n for n, v in md.items() if v.causality == kind]

        step = sp.get("step") or fmu.default_step()
        if not (_number(step) and step > 0 and math.isfinite(step)):
            raise StudyError("step: %s's default step %r is not a positive number: give step" % (fmu.name, step))
        steps = sp["stop_time"] / step
        if not steps <= MAX_STEPS:
            raise StudyError("stop_time/step: %.6g steps a run (stop_time %g s, step %g s), more than %d: "
                             "shorten stop_time or lengthen step" % (steps, sp["stop_time"], step, MAX_STEPS))
        for name in sp.get("fixed", {}):
            if causality(name) != "parameter":
                raise StudyError("fixed %s: not a parameter of %s%s" % (name, fmu.name, _near(name, of("parameter"))))
        profiles = sp.get("inputs", {})
        used = set()
        for name, p in profiles.items():
            if causality(name) != "input":
                raise StudyError("input %s: not an input of %s%s" % (name, fmu.name, _near(name, of("input"))))
            if p.get("velocity") is not None and causality(p["velocity"]) != "input":
                raise StudyError("input %s: velocity %s is not an input of %s%s"
                                 % (name, p["velocity"], fmu.name, _near(p["velocity"], of("input"))))
            for v in p.values():
                if isinstance(v, str) and v.startswith("$"):
                    used.add(v[1:])
        names = set(sp.get("vary", {}))
        for name in sorted(used - names):
            raise StudyError("an input profile uses $%s, which is not varied%s" % (name, _near(name, names)))
        for name, v in sp.get("vary", {}).items():
            if causality(name) != "parameter" and name not in used:
                raise StudyError("vary %s: neither a parameter of %s nor used by an input profile as $%s%s"
                                 % (name, fmu.name, name, _near(name, of("parameter"))))
            own = getattr(md.get(name), "unit", None) or ""
            if causality(name) == "parameter" and "unit" in v and v["unit"] != own:
                # The values go to the FMU as they are: a unit of the
                # study's own would only mislabel them.
                raise StudyError("vary %s: unit %r, but %s takes %s in %s: leave the unit out (a parameter's is the FMU's)"
                                 % (name, v["unit"], fmu.name, name, own or "no unit"))
        signals = set(sp.get("outputs", [])) | set(profiles) | {
            p["velocity"] for p in profiles.values() if p.get("velocity")}
        for name in sp.get("outputs", []):
            if name not in md:
                raise StudyError("outputs: %s has no variable %s%s" % (fmu.name, name, _near(name, md)))
        if "sway" in sp:
            sw = sp["sway"]
            for name in sw["suspension"] + sw["load"]:
                if name not in signals:
                    raise StudyError("sway: %s is neither a kept output nor an input profile" % name)
            signals.add("sway")
        ends = {n + ".end" for n, p in profiles.items() if p.get("profile") in ("trapezoid", "speed")}
        for name, r in sp["reductions"].items():
            if r["of"] not in signals:
                raise StudyError("reduction %s: %r is no kept output, input profile or sway%s"
                                 % (name, r["of"], _near(r["of"], signals)))
            if isinstance(r.get("after"), str) and r["after"] not in ends:
                raise StudyError("reduction %s: after %r: no move ends there (%s)" % (
                    name, r["after"], "want a time (s) or one of " + ", ".join(sorted(ends)) if ends
                    else "no input profile is a move: give a time (s)"))
        rep = sp.get("report", {})
        for name in [rep.get("worst")] + list(rep.get("above", {})) + list(rep.get("below", {})):
            if name is not None and name not in sp["reductions"]:
                raise StudyError("report: %s is no reduction%s" % (name, _near(name, sp["reductions"])))
        for name in rep.get("by", []):
            if name not in sp.get("vary", {}):
                raise StudyError("report by: %s is not varied%s" % (name, _near(name, sp.get("vary", {}))))

    def fingerprint(self, fmu):
        """What a run's row depends on: the study without its report,
        description and limits, and the FMU's SHA-256 (the same study of
        another FMU is another study)."""
        return _results({"study": self.spec, "fmu": fmu.sha256})

    def count(self):
        """The number of runs, without making them."""
        if self.spec.get("design", "grid") != "grid":
            return int(self.spec["runs"])
        n = 1
        for v in self.spec.get("vary", {}).values():
            n *= len(v["values"]) if "values" in v else int(v["range"][2])
        return n

    def cases(self, max_runs=None):
        """The runs' case variables, in run order (StudyError when there
        are more than max_runs, default the study's max_runs or MAX_RUNS)."""
        limit = max_runs or self.spec.get("max_runs") or MAX_RUNS
        if self.count() > limit:
            raise StudyError("the study has %d runs, more than its limit of %d (--max-runs, or max_runs in the "
                             "study file)" % (self.count(), limit))
        vary = self.spec.get("vary", {})
        design = self.spec.get("design", "grid")
        names = list(vary)
        if design == "grid":
            axes = []
            for n in names:
                v = vary[n]
                if "values" in v:
                    axes.append([float(x) for x in v["values"]])
                else:
                    lo, hi, count = v["range"]
                    count = int(count)
                    axes.append([_clean(lo * (1 - k / (count - 1)) + hi * k / (count - 1)) if count > 1 else lo
                                 for k in range(count)])
            return [dict(zip(names, combo)) for combo in itertools.product(*axes)]
        runs = int(self.spec["runs"])
        rng = random.Random(int(self.spec.get("seed", 0)))
        cols = {}
        for n in names:
            v = vary[n]
            if "values" in v:
                cols[n] = [rng.choice([float(x) for x in v["values"]]) for _ in range(runs)]
                continue
            lo, hi = v["uniform"]
            if design == "random":
                cols[n] = [lo + (hi - lo) * rng.random() for _ in range(runs)]
            else:  # one sample in each of the runs strata, strata shuffled
                strata = list(range(runs))
                rng.shuffle(strata)
                cols[n] = [lo + (hi - lo) * (s + rng.random()) / runs for s in strata]
        return [{n: cols[n][k] for n in names} for k in range(runs)]


def _clean(x):
    """x to 12 significant digits: a range's 0.6, not 0.6000000000000001."""
    return float("%.12g" % x)


def _value(x, case, where):
    if isinstance(x, str) and x.startswith("$"):
        name = x[1:]
        if name not in case:
            raise StudyError("%s: $%s is not varied" % (where, name))
        return float(case[name])
    return float(x)


class Trapezoid:
    """A rest-to-rest move over ``distance`` (m; negative moves back) from
    ``start`` (s) at most ``speed`` (m/s) with ``acceleration`` (m/s²):
    position and velocity."""

    def __init__(self, start, distance, speed, acceleration):
        if not (distance != 0 and speed > 0 and acceleration > 0) or any(
                math.isinf(x) or math.isnan(x) for x in (start, distance, speed, acceleration)):
            raise StudyError("trapezoid: distance must be nonzero, speed and acceleration positive, all finite")
        self.sign = 1.0 if distance > 0 else -1.0
        distance = abs(distance)
        self.t0, self.a = start, acceleration
        t_acc = speed / acceleration
        if acceleration * t_acc * t_acc > distance:  # no cruise: a triangle
            t_acc = math.sqrt(distance / acceleration)
            speed = acceleration * t_acc
        self.v, self.d_acc = speed, 0.5 * acceleration * t_acc * t_acc
        self.distance = distance
        self.t1 = start + t_acc
        self.t2 = self.t1 + (distance - 2 * self.d_acc) / speed
        self.end = self.t2 + t_acc

    def position(self, t):
        # One call, no helper: a run evaluates it three times a step.
        if t < self.t0:
            x = 0.0
        elif t < self.t1:
            x = 0.5 * self.a * (t - self.t0) ** 2
        elif t < self.t2:
            x = self.d_acc + self.v * (t - self.t1)
        elif t < self.end:
            tau = t - self.t2
            x = self.distance - self.d_acc + self.v * tau - 0.5 * self.a * tau * tau
        else:
            x = self.distance
        return self.sign * x

    def velocity(self, t):
        return self.sign * self._velocity(t)

    def _velocity(self, t):
        if t < self.t0 or t >= self.end:
            return 0.0
        if t < self.t1:
            return self.a * (t - self.t0)
        if t < self.t2:
            return self.v
        return self.v - self.a * (t - self.t2)


def _inputs(spec, case, base, step=None):
    """The input signals of a case and the named times (moves' ends). With
    the step (s), a move's velocity input is its mean over the step from
    each time on, (x(t + h) − x(t))/h: the FMU moves a driven point with the
    velocity over the step and places it at the position at the next, so
    that the velocity at the step's start would run it off the position
    (the peak tension depended on the step)."""
    signals, times = {}, {}
    for name, p in spec.get("inputs", {}).items():
        kind = p.get("profile")
        where = "input %s" % name
        if kind == "constant":
            signals[name] = _value(p["value"], case, where)
        elif kind == "table":
            if "file" in p:
                with open(os.path.join(base, p["file"]), newline="") as f:
                    rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
                try:
                    float(rows[0][0])
                except ValueError:
                    rows = rows[1:]  # a header
                ts, vs = [float(r[0]) for r in rows], [float(r[1]) for r in rows]
            else:
                ts, vs = p["time"], p["values"]
            scale = _value(p.get("scale", 1.0), case, where)
            signals[name] = Table(ts, [scale * v for v in vs])
        elif kind in ("trapezoid", "speed"):
            move = Trapezoid(*(_value(p[k], case, where) for k in ("start", "distance", "speed", "acceleration")))
            stop = spec.get("stop_time")
            if _number(stop) and move.t0 >= stop:
                # Not a run at rest: its peaks read as no dynamic amplification.
                raise StudyError("%s: the move starts at %g s, not before stop_time %g s: the run would not see it"
                                 % (where, move.t0, stop))
            if step:
                def mean(t, m=move, h=step):
                    return (m.position(t + h) - m.position(t)) / h
            else:
                mean = move.velocity
            if kind == "speed":  # a winch paying out (negative distance: in)
                signals[name] = mean
            else:
                offset = _value(p.get("from", 0.0), case, where)
                signals[name] = lambda t, m=move, o=offset: o + m.position(t)
                if "velocity" in p:
                    signals[p["velocity"]] = mean
            times[name + ".end"] = move.end
        else:
            raise StudyError("%s: profile %r: want constant, table, trapezoid or speed" % (where, kind))
    return signals, times


def _reduce(name, r, series, times, step):
    of, op = r.get("of"), r.get("op")
    if of not in series:
        raise StudyError("reduction %s: %r is no kept output, input or sway" % (name, of))
    ts, xs = series["time"], series[of]
    after = r.get("after")
    if after is not None:
        at = times.get(after) if isinstance(after, str) else float(after)
        if at is None:
            raise StudyError("reduction %s: after %r: no such move" % (name, after))
        pairs = [(t, x) for t, x in zip(ts, xs) if t >= at - 1e-9]
        ts, xs = [p[0] for p in pairs], [p[1] for p in pairs]
    if not xs:
        return float("nan")
    if op == "max":
        return max(xs)
    if op == "min":
        return min(xs)
    if op == "max_abs":
        return max(abs(x) for x in xs)
    if op == "final":
        return xs[-1]
    if op == "rms":  # over time: the trapezoid rule on x²
        if len(xs) < 2:
            return abs(xs[0])
        area = sum(0.5 * (a * a + b * b) * (t1 - t0) for a, b, t0, t1 in zip(xs, xs[1:], ts, ts[1:]))
        return math.sqrt(area / (ts[-1] - ts[0]))
    if op == "time_above":  # the signal linear between samples
        limit = float(r["threshold"])
        total = 0.0
        for a, b, t0, t1 in zip(xs, xs[1:], ts, ts[1:]):
            if a > limit and b > limit:
                total += t1 - t0
            elif (a > limit) != (b > limit):
                total += (max(a, b) - limit) / abs(b - a) * (t1 - t0)
        return total
    if op == "daf":  # the largest magnitude over the start's (a force may be negative)
        static = abs(series[of][0])
        return max(abs(x) for x in xs) / static if static else float("nan")
    raise StudyError("reduction %s: op %r: want max, min, max_abs, rms, final, time_above or daf" % (name, op))


class _SystemVariable:
    """A variable of a system as a study sees it: a system input, or a component's parameter or output named
    ``component.variable``."""

    def __init__(self, causality, unit):
        self.causality, self.unit = causality, unit


class _SystemFMU:
    """An SSP package as a study's FMU: its variables (the system's inputs; its components' parameters and outputs
    as ``component.variable``), its identity (the package's SHA-256) and how a run simulates it."""

    def __init__(self, path, parameter_sets):
        from . import system  # the systems' module loads FMUs as this one does
        self._system = system
        try:
            self.sys = system.load_ssp(path, parameter_sets=parameter_sets)
        except (system.SystemError, FMUError, OSError) as e:
            raise StudyError("ssp: %s: %s" % (path, " ".join(str(e).split()))) from None
        self.name = self.sys.name
        self.sha256 = _sha256(path)
        variables = {n: _SystemVariable("input", c.unit) for n, c in self.sys.inputs.items()}
        for comp in self.sys.components:
            for n, v in comp.fmu.md.variables.items():
                if v.causality in ("parameter", "output"):
                    variables["%s.%s" % (comp.name, n)] = _SystemVariable(v.causality, getattr(v, "unit", None))
        self.md = types.SimpleNamespace(variables=variables)

    def default_step(self):
        return min(c.fmu.default_step() for c in self.sys.components)

    def simulate(self, inputs, parameters, stop_time, step, outputs, order, coupling):
        """One run: the result and the system's inputs as applied at its communication points."""
        for name, value in parameters.items():
            comp, _, var = name.partition(".")
            self.sys.component(comp).parameters[var] = value
        result = self._system.run(self.sys, stop_time=stop_time, step=step, order=order, coupling=coupling,
                                  inputs=inputs, outputs=outputs or None)
        applied = {}
        for name, spec in inputs.items():
            sig = _signal(name, spec)
            applied[name] = [sig(t) for t in result["time"]]
        return result, applied


def run_case(spec, base, fmu_path, run_id, case, keep_series=False):
    """Simulate one case and return its row (a dict): ``run``, the case
    variables, the reductions, ``status`` ("ok" or "failed") and ``error``
    (with the FMU's last log messages)."""
    row = {"run": run_id}
    row.update(case)
    try:
        fmu = _SystemFMU(fmu_path, spec.get("parameter_sets", [])) if "ssp" in spec else load(fmu_path)
        params = dict(spec.get("fixed", {}))
        for n, v in case.items():
            if n in fmu.md.variables and fmu.md.variables[n].causality == "parameter":
                params[n] = v
        step = float(spec.get("step") or fmu.default_step())
        signals, times = _inputs(spec, case, base, step)
        outputs = list(spec.get("outputs") or [])
        if "ssp" in spec:
            result, applied = fmu.simulate(signals, params, float(spec["stop_time"]), step, outputs,
                                           spec.get("order", "gauss-seidel"), spec.get("coupling", "explicit"))
        else:
            result, applied = _simulate(fmu, inputs=signals, parameters=params, stop_time=float(spec["stop_time"]),
                                        step=step, outputs=outputs, keep_inputs=True)
        series = dict(result)
        series.update(applied)  # the inputs as they were applied
        units = dict(result.units)
        for name in applied:
            units[name] = getattr(fmu.md.variables.get(name), "unit", None) or "1"
        if "sway" in spec:
            hx, hz = spec["sway"]["suspension"]
            lx, lz = spec["sway"]["load"]
            series["sway"] = [math.degrees(math.atan2(a - b, c - d)) for a, b, c, d in
                              zip(series[lx], series[hx], series[hz], series[lz])]
            units["sway"] = "deg"
        for name, r in spec["reductions"].items():
            row[name] = _reduce(name, r, series, times, step)
        row["status"], row["error"] = "ok", ""
        if keep_series:
            row["_series"], row["_units"] = series, units
    except Exception as e:  # a run's failure, whatever it is, is its row's
        log = getattr(e, "log", [])
        tail = " | ".join(text for _, _, text in log[-3:])
        row["status"], row["error"] = "failed", ("%s: %s" % (type(e).__name__, e)) + (" [log: %s]" % tail if tail else "")
        for name in spec["reductions"]:
            row[name] = float("nan")
    return row


# --------------------------------------------------------------------------
# The run process: each run simulated in a child process
# --------------------------------------------------------------------------

def _send(f, obj):
    data = pickle.dumps(obj, protocol=4)
    f.write(struct.pack(">Q", len(data)))
    f.write(data)
    f.flush()


def _receive(f):
    """The next object on f, None at its end."""
    head = f.read(8)
    if len(head) < 8:
        return None
    n, = struct.unpack(">Q", head)
    data = f.read(n)
    if len(data) < n:
        return None
    return pickle.loads(data)


def _orphaned(parent):
    """End this process once its parent is gone (killed, say, while a run
    hangs in the FMU and reads nothing)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(3)


def _serve(parent=None):
    """The run process's loop: read a run's arguments, answer its row, until
    the parent closes the pipe or ends. Only the answers go to the original
    stdout; what the FMU or Python print goes to stderr."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the study and this process
    if parent is not None:
        threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    requests = sys.stdin.buffer
    try:
        _send(answers, "ready")
        while True:
            args = _receive(requests)
            if args is None:
                return
            _send(answers, run_case(*args))
    except BrokenPipeError:  # the parent is gone
        pass


class _RunProcess:
    """One child process running cases (see _serve)."""

    START = 300.0  # s a new process may take to import cablefmu

    def __init__(self):
        folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the one holding cablefmu
        code = ("import sys; sys.path.insert(0, sys.argv[1]); "
                "from cablefmu.study import _serve; _serve(int(sys.argv[2]))")
        self.proc = subprocess.Popen([sys.executable, "-c", code, folder, str(os.getpid())], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.answers = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        try:
            hello = self.answers.get(timeout=self.START)
        except queue.Empty:
            hello = None
        if hello != "ready":
            why = self.stop()
            raise StudyError("the process for the runs (%s) did not start: %s" % (sys.executable, why))

    def _read(self):
        while True:
            try:
                msg = _receive(self.proc.stdout)
            except Exception:  # a cut or garbled answer: the process is taken as dead
                msg = None
            self.answers.put(msg)
            if msg is None:
                return

    def ask(self, args, timeout):
        """The row of a run: ("row", row), or ("timeout", None) after
        timeout s (the process stopped), or ("died", why)."""
        if not self.send(args):
            return "died", self.stop()
        return self.answer(timeout)

    def send(self, args):
        """Hand the process a run; False when it is gone."""
        try:
            _send(self.proc.stdin, args)
            return True
        except OSError:
            return False

    def answer(self, timeout):
        """The answer to the run sent, as ask gives it."""
        try:
            answer = self.answers.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            return "timeout", None
        if answer is None:
            return "died", self.stop()
        return "row", answer

    def stop(self):
        """End the process (killed unless it ended) and say how it ended."""
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait()
        self.reader.join()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        if code < 0:
            try:
                return "ended by signal %s" % signal.Signals(-code).name
            except ValueError:
                return "ended by signal %d" % -code
        return "exited with status %d" % code

    def close(self):
        """End the process after its run: its input closed, it leaves."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
        self.stop()


class _Runner:
    """Runs cases one after another in a run process, started when needed
    and replaced when a run crashed it or took longer than its timeout."""

    def __init__(self):
        self.proc = None
        self.sent = False

    def start(self):
        """Start the run process now (else the first run does)."""
        if self.proc is None:
            self.proc = _RunProcess()

    def run(self, args, timeout):
        """The row of a run (a failed row when it crashed the process or
        timed out)."""
        self.send(args)
        return self.receive(args, timeout)

    def send(self, args):
        """Start a run; receive gives its row. The caller may do other
        work (save the row before) while the run goes on."""
        if self.proc is None:
            self.proc = _RunProcess()
        self.sent = self.proc.send(args)

    def receive(self, args, timeout):
        """The row of the run sent, waiting at most timeout s."""
        spec, run_id, case = args[0], args[3], args[4]
        what, answer = self.proc.answer(timeout) if self.sent else ("died", self.proc.stop())
        if what == "row":
            return answer
        self.proc = None
        if what == "timeout":
            return _failed(run_id, case, spec, "timed out: no result after %g s (the run timeout, --run-timeout); "
                                               "the run was stopped" % timeout)
        return _failed(run_id, case, spec, "crashed: the run's process %s (the FMU crashed it)" % answer)

    def close(self, kill=False):
        """End the run process: after its run, or at once with kill."""
        if self.proc is not None:
            if kill:
                self.proc.stop()
            else:
                self.proc.close()
            self.proc = None


_pool = []  # the idle runners of this process (a Dask worker's)
_pool_lock = threading.Lock()
_closing = False  # the pool's runners are closed when the process exits


def _close_pool():
    with _pool_lock:
        runners = list(_pool)
        del _pool[:]
    for r in runners:
        r.close()


def _task(args):
    """A Dask task: a run in one of this worker's run processes."""
    *args, timeout = args
    global _closing
    with _pool_lock:
        if not _closing:
            import atexit
            atexit.register(_close_pool)
            _closing = True
        runner = _pool.pop() if _pool else _Runner()
    try:
        return runner.run(tuple(args), timeout)
    finally:
        with _pool_lock:
            _pool.append(runner)


def _probe(paths):
    """Run on every Dask worker before a study (pickled by value, so that it
    runs where cablefmu does not import): what the worker lacks, as
    ("import", why) and ("read", path, why)."""
    import importlib
    problems = []
    try:
        importlib.import_module("cablefmu.study")
    except Exception as e:
        problems.append(("import", "%s: %s" % (type(e).__name__, e)))
    for path in paths:
        try:
            with open(path, "rb") as f:
                f.read(1)
        except OSError as e:
            problems.append(("read", path, e.strerror or str(e)))
    return problems


def _by_value(f):
    """A copy of f, a function using only builtins and its own imports, that
    Dask pickles by value (its module is __main__, where pickle does not find
    it by name) rather than by a reference to cablefmu."""
    g = types.FunctionType(f.__code__, {"__builtins__": builtins, "__name__": "__main__"}, f.__name__, f.__defaults__)
    g.__qualname__ = g.__name__ = "cablefmu_probe"
    return g


def _check_workers(client, paths):
    """Refuse a cluster whose workers cannot import cablefmu or read the
    study's files, with one message saying what to install or mount."""
    try:
        answers = client.run(_by_value(_probe), list(paths))
    except Exception as e:
        raise StudyError("checking the Dask workers failed: %s: %s" % (type(e).__name__, str(e).splitlines()[0]))
    total = len(answers)
    cannot_import, cannot_read = {}, {}
    for addr, problems in sorted(answers.items()):
        for p in problems:
            if p[0] == "import":
                cannot_import[addr] = p[1]
            else:
                cannot_read.setdefault((p[1], p[2]), []).append(addr)
    parts = []
    if cannot_import:
        addr, why = next(iter(cannot_import.items()))
        parts.append("%d of %d Dask workers cannot import cablefmu (%s: %s): install it there "
                     "(pip install ./examples/clients/python) or start dask-worker with PYTHONPATH naming the "
                     "folder that holds cablefmu" % (len(cannot_import), total, addr, why))
    for (path, why), addrs in cannot_read.items():
        parts.append("%d of %d Dask workers cannot read %s (%s): mount it there at the same path" % (
            len(addrs), total, path, why))
    if parts:
        raise StudyError("; ".join(parts))


# --------------------------------------------------------------------------
# Rows and the output folder
# --------------------------------------------------------------------------

def _write_json(path, obj):
    tmp = path + ".tmp-%d" % os.getpid()
    with open(tmp, "w") as f:
        json.dump(obj, f, allow_nan=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _save(out, row):
    series, units = row.pop("_series", None), row.pop("_units", {})
    if series is not None:
        os.makedirs(os.path.join(out, "series"), exist_ok=True)
        path = os.path.join(out, "series", "%06d.csv" % row["run"])
        names = list(series)
        with open(path + ".tmp", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["%s (%s)" % (n, units[n]) if units.get(n) else n for n in names])
            for k in range(len(series["time"])):
                w.writerow([repr(series[n][k]) for n in names])
        os.replace(path + ".tmp", path)
    _write_json(os.path.join(out, "runs", "%06d.json" % row["run"]), row)


def _runs(out, cases):
    """The finished runs' rows by run, read from OUT/runs: files that are
    not a run's (damaged, cut, another case's) are moved aside and run
    again."""
    rows = {}
    folder = os.path.join(out, "runs")
    for name in sorted(os.listdir(folder)):
        if len(name) != 11 or not name.endswith(".json") or not name[:6].isdigit():
            continue
        path = os.path.join(folder, name)
        k = int(name[:6])
        try:
            with open(path) as f:
                row = json.load(f)
            ok = (isinstance(row, dict) and row.get("run") == k and k < len(cases)
                  and all(row.get(n) == v for n, v in cases[k].items()))
        except (OSError, ValueError):
            ok = False
        if ok:
            rows[k] = row
        else:
            os.replace(path, path + ".bad")
    return rows


def _owner(out):
    """The marker of the study whose output folder OUT is (its marker, or
    the study.json of an older runner): {"study", "fmu"} and, written by
    this runner, "file" (the study file, or None); None if unmarked."""
    for name in (MARKER, "study.json"):
        try:
            with open(os.path.join(out, name)) as f:
                mark = json.load(f)
        except (OSError, ValueError):
            continue
        if (isinstance(mark, dict) and {"study", "fmu"} <= set(mark) <= {"study", "fmu", "file"}
                and isinstance(mark["study"], dict) and isinstance(mark.get("file"), (str, type(None)))):
            return mark
    return None


def _results(mark):
    """What of a marker the runs' rows depend on: the study without the
    keys that change no row (an older runner kept some of them), its FMU."""
    return {"study": {k: v for k, v in mark["study"].items() if k not in NOT_RESULTS}, "fmu": mark["fmu"]}


def _whose(owner, study):
    """Whether the folder marked by owner is the study's: "same" (its study
    file, or where a side has no file recorded the same given name),
    "file" (another study file), "name" (another given name) or "unknown"
    (no file and no name on a side to tell)."""
    theirs, mine = owner.get("file"), study.path
    if theirs is not None and mine is not None:
        return "same" if theirs == mine else "file"
    named, name = owner["study"].get("name"), study.spec.get("name")
    if named is not None and name is not None:
        return "same" if named == name else "name"
    return "unknown"


def _prepare(out, study, mark, fresh):
    """Make OUT the study's output folder: refuse a folder of other files
    or of another study file, forget this study's runs if fresh, mark it.
    mark: the study's fingerprint ({"study", "fmu"}); the marker written
    adds the study file."""
    for sub in ("runs", "series"):
        path = os.path.join(out, sub)
        if os.path.islink(path) or (os.path.exists(path) and not os.path.isdir(path)):
            raise StudyError("%s is not a folder inside %s: a study's outputs stay inside its output folder"
                             % (path, out))
    owner = _owner(out)
    if owner is None and os.path.isdir(out) and os.listdir(out):
        raise StudyError("%s holds files and is not marked as a study's output folder (no %s): "
                         "name a new or empty folder (--out)" % (out, MARKER))
    runs_dir = os.path.join(out, "runs")
    mark = dict(mark, file=study.path)
    if owner is not None:
        same = _results(owner) == _results(mark)
        whose = _whose(owner, study)
        if whose == "file":
            raise StudyError("%s is the output folder of the study file %s, not of %s: give this study a name "
                             "(its output folder is then out/NAME) or name another folder (--out)"
                             % (out, owner["file"], study.path))
        if whose == "name":
            raise StudyError("%s is the output folder of study %r, not %r: name another folder (--out)"
                             % (out, owner["study"]["name"], study.name))
        if whose == "unknown" and not same:
            raise StudyError("%s holds the runs of another study (%s, its study file not recorded), not of %s: "
                             "give this study a name or name another folder (--out)"
                             % (out, _called(owner["study"].get("name"), owner.get("file")),
                                _called(study.spec.get("name"), study.path)))
        if fresh:
            for sub in ("runs", "series"):
                if os.path.isdir(os.path.join(out, sub)):
                    shutil.rmtree(os.path.join(out, sub))
        elif not same and os.path.isdir(runs_dir) and os.listdir(runs_dir):
            raise StudyError("%s holds the runs of an earlier version of this study (the study file or its FMU "
                             "changed since): write to another folder, or start afresh (--fresh)" % out)
        if mark["file"] is None:
            mark["file"] = owner.get("file")  # a study not read from a file keeps the folder its file's
    os.makedirs(out, exist_ok=True)
    _write_json(os.path.join(out, MARKER), mark)
    os.makedirs(runs_dir, exist_ok=True)


def _called(name, path):
    """A study as a message names it: its file, else its name."""
    if path is not None:
        return "study file %s" % path
    return "study %r" % name if name is not None else "a study without name"


def _progress(done, total, started, t0, stream):
    rate = started and started / max(time.perf_counter() - t0, 1e-9)
    left = (total - done) / rate if rate else float("nan")
    stream.write("\r%d/%d runs, %.1f runs/s, %s left   " % (
        done, total, rate or 0.0, "%.0f s" % left if math.isfinite(left) else "?"))
    stream.flush()


def _failed(run_id, case, spec, why):
    row = {"run": run_id}
    row.update(case)
    for name in spec["reductions"]:
        row[name] = float("nan")
    row["status"], row["error"] = "failed", why
    return row


def _option(name, value, least=None):
    """An option's value checked: a whole number of at least least, or
    (least None) a positive number of seconds."""
    if least is None:
        if not (_number(value) and math.isfinite(value) and value > 0):
            raise StudyError("%s %s: want a positive number of seconds" % (name, _shown(value)))
        return float(value)
    if not (_whole(value) and value >= least):
        raise StudyError("%s %s: want a whole number, %d or more" % (name, _shown(value), least))
    return int(value)


def run(study, out, client=None, scheduler=None, workers=None, serial=False, series=False, limit=None,
        progress=True, stream=None, retry_failed=False, fresh=False, max_runs=None, run_timeout=None):
    """Run the study's missing runs and write the result table; returns
    ``(path of the table, rows)``.

    ``serial``: one run after the other, from this process. On Dask:
    ``client`` (a ``distributed.Client``), or ``scheduler`` (an address
    such as ``tcp://host:8786``), or a local cluster of ``workers``
    processes; the workers are checked first (they must import cablefmu and
    read the FMU). Given none of these, the study chooses by its size: its
    runs go serially, timed, and once the first run (or, when that is
    short, the second) shows that the runs left would take longer so than
    on run processes side by side, one per core, with their start
    (LOCAL_START) and their overhead per run (LOCAL_TASK), those take them;
    else the study stays serial. Those run processes are driven by threads
    of this process, not by Dask: a local Dask cluster's start (1-3 s) and
    its overhead per run (10 ms on 2 cores) cost more than most studies on
    one machine win back. The rows are the same in every mode. Each run is
    simulated in a run process (see the module's doc).

    ``series``: keep each run's time series as ``OUT/series/ID.csv``.
    ``limit``: run at most this many of the missing runs (a study may be
    run in parts). ``retry_failed``: run the failed runs again. ``fresh``:
    forget the runs in OUT, a folder marked as this study file's (a folder
    of another study file is refused, fresh or not). A folder of runs of an earlier version of the study (the
    study file or the FMU changed, beyond the keys that change no row) is
    refused unless ``fresh``. ``max_runs``: the most runs the study may
    have (default: the study's ``max_runs``, else MAX_RUNS).
    ``run_timeout``: the seconds a run may take before it is stopped and
    recorded as failed (default: the study's ``run_timeout``, else
    RUN_TIMEOUT). On Dask a run is failed when its task failed; a run whose
    result a lost worker held is run again.
    """
    stream = stream or sys.stderr
    if limit is not None:
        limit = _option("--limit", limit, 0)
    if workers is not None:
        workers = _option("--workers", workers, 1)
    max_runs = _option("--max-runs", max_runs if max_runs is not None else study.spec.get("max_runs", MAX_RUNS), 1)
    run_timeout = _option("--run-timeout", run_timeout if run_timeout is not None else
                          study.spec.get("run_timeout", RUN_TIMEOUT))
    fmu_path = study.fmu_path()  # built once next to the study, whatever the output folder
    fmu = study.load(fmu_path)
    study.validate(fmu)
    n = study.count()
    if n > max_runs:
        raise StudyError("the study has %d runs, more than its limit of %d (--max-runs, or max_runs in the "
                         "study file)" % (n, max_runs))
    cases = study.cases(max_runs)
    _prepare(out, study, json.loads(json.dumps(study.fingerprint(fmu))), fresh)
    have = _runs(out, cases)
    if retry_failed:
        for k in [k for k, r in have.items() if r.get("status") != "ok"]:
            del have[k]
    todo = [(k, c) for k, c in enumerate(cases) if k not in have]
    if limit is not None:
        todo = todo[:limit]
    total, done = len(cases), len(have)
    t0 = time.perf_counter()
    started = 0
    args = [(study.spec, study.base, fmu_path, k, c, series) for k, c in todo]
    if progress:
        _progress(done, total, 0, t0, stream)

    def finished(row):
        """Save a run's row and count it, in whichever mode it ran."""
        nonlocal done, started
        _save(out, row)
        done += 1
        started += 1
        if progress:
            _progress(done, total, started, t0, stream)

    auto = not serial and client is None and not scheduler and workers is None
    if serial or auto or not todo:
        runner = _Runner()
        try:
            if auto and todo:
                runner.start()  # not timed: the runs are
            took = []  # seconds of each run here, while the mode is open
            side_by_side = False
            a = args.pop(0) if args else None
            if a is not None:
                runner.send(a)
                sent = time.perf_counter()
            while a is not None:
                row = runner.receive(a, run_timeout)
                a = None
                if auto and args:
                    took.append(time.perf_counter() - sent)
                    choice = _choose(took, len(args), _cores())
                    if choice is not None:
                        auto, side_by_side = False, choice[0]
                        if progress:
                            stream.write("\n%s\n" % choice[1])
                if args and not side_by_side:
                    a = args.pop(0)
                    runner.send(a)  # the next run goes on while this row is saved
                    sent = time.perf_counter()
                finished(row)
            if side_by_side:  # the runs left, on a run process per core (this one's too)
                rows = _local_rows(runner, args, _cores(), run_timeout)
                try:
                    for row in rows:
                        finished(row)
                finally:
                    rows.close()
                args = []
        except BaseException:  # stopped (Ctrl-C, say): the run in progress too
            runner.close(kill=True)
            raise
        runner.close()
    if args:  # on Dask, asked for
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise StudyError("running on Dask needs distributed (Debian: python3-distributed, for /usr/bin/python3); "
                             "or run with --serial")
        own = None
        if client is None:
            if scheduler:
                client = own = Client(scheduler)
            else:
                cluster = LocalCluster(n_workers=workers or _cores(), threads_per_worker=1,
                                       processes=True, dashboard_address=None)
                client = own = Client(cluster)
        try:
            _check_workers(client, [fmu_path] + study.files())
            for row in _dask_rows(client, as_completed, args, run_timeout, study.spec):
                finished(row)
        finally:
            if own is not None:
                cluster = own.cluster
                own.close()
                if cluster is not None:
                    cluster.close()
    if progress:
        stream.write("\n")
    return table(out, study, max_runs)


def _choose(took, left, cores, start=None, task=None):
    """Whether run processes side by side, one per core, should take the
    runs left: None while undecided, else (True or False, a line saying
    why). took: the seconds of the runs made here so far. The serial time
    left is estimated as the time of a run times the runs left, the time
    side by side as their start (LOCAL_START) plus the runs left times (a
    run + its overhead, LOCAL_TASK) over the cores; the runs go side by
    side when that is less. The first run also loads the FMU in the run
    process, so it decides alone only a study that stays serial even so,
    or one of runs longer than the start; otherwise the second run's time
    decides."""
    start = LOCAL_START if start is None else start
    task = LOCAL_TASK if task is None else task
    if cores < 2:
        return False, "serial: one core"
    per_run = sum(took[1:]) / len(took[1:]) if len(took) > 1 else took[0]
    here = per_run * left
    there = start + left * (per_run + task) / cores
    if len(took) == 1 and here > there and per_run < start:
        return None  # the first run's time may be mostly the FMU's loading: see the second
    if here > there:
        return True, ("%d run processes side by side: about %.1f s for the %d runs left, against %.1f s serially"
                      % (cores, there, left, here))
    return False, ("serial: about %.1f s for the %d runs left, against %.1f s on %d run processes side by side "
                   "with their start" % (here, left, there, cores))


def _local_rows(first, args, n, run_timeout):
    """The rows of the runs args, as they finish, from n run processes
    side by side (first, a runner whose process has started, and n - 1
    more), each driven by a thread of this process. A run that crashes its
    process or times out is a failed row, as serially. Stopped (Ctrl-C,
    say), the runs in progress are stopped too."""
    todo = queue.Queue()
    for a in args:
        todo.put(a)
    answers = queue.Queue()
    stop = threading.Event()
    runners = [first] + [_Runner() for _ in range(min(n, len(args)) - 1)]

    def work(runner):
        try:
            while not stop.is_set():
                try:
                    a = todo.get_nowait()
                except queue.Empty:
                    return
                answers.put(("row", runner.run(a, run_timeout)))
        except BaseException as e:  # its run process did not start, say
            answers.put(("error", e))

    threads = [threading.Thread(target=work, args=(r,), daemon=True) for r in runners]
    for t in threads:
        t.start()
    ended = False
    try:
        for _ in range(len(args)):
            what, x = answers.get()
            if what == "error":
                raise x
            yield x
        ended = True
    finally:
        stop.set()
        for t in threads:
            while t.is_alive():
                if not ended:  # stopped: end the runs in progress (their threads get crashed rows and leave)
                    for r in runners:
                        proc = r.proc
                        if proc is not None and proc.proc.poll() is None:
                            proc.stop()
                t.join(0.1)
        for r in runners[1:]:  # first is the caller's
            r.close()


def _dask_rows(client, as_completed, args, run_timeout, spec):
    """The rows of the runs args on Dask, as they finish. A run is failed
    only when its task failed ("error": a worker it killed again and again,
    say). A run whose result was lost (a killed worker held it) or whose
    future was cancelled is submitted again, at most LOST_RUNS_RESUBMITTED
    times, then it is a failed row: no run is lost or failed for want of
    its result."""
    futures = client.map(_task, [a + (run_timeout,) for a in args], pure=False, retries=3)
    which = {f.key: (a, 0) for f, a in zip(futures, args)}
    pending = as_completed(futures)
    del futures  # the futures resubmitted go, the others are held by pending until they finish
    for fut in pending:
        a, resubmitted = which.pop(fut.key)
        row = None
        status = fut.status
        if status == "finished":
            try:
                row = fut.result()
            except Exception:  # its result lost and then cancelled, or its task failed on computing it again
                status = fut.status
        if status == "error":
            e = fut.exception()
            row = _failed(a[3], a[4], spec, "%s: %s" % (type(e).__name__, e))
        elif row is None:  # "lost" or "cancelled": its result is gone
            try:
                fut.cancel()  # not computed twice
            except Exception:
                pass
            if resubmitted >= LOST_RUNS_RESUBMITTED:
                row = _failed(a[3], a[4], spec, "lost: the run's result was lost with a Dask worker %d times "
                                                "(its future %s)" % (resubmitted + 1, status))
            else:
                again = client.submit(_task, a + (run_timeout,), pure=False, retries=3)
                which[again.key] = (a, resubmitted + 1)
                pending.add(again)
                continue
        yield row


def table(out, study, max_runs=None):
    """Assemble OUT/results.csv (or .parquet) from the finished runs."""
    cases = study.cases(None if max_runs is None else _option("--max-runs", max_runs, 1))
    if not os.path.isdir(os.path.join(out, "runs")):
        raise StudyError("%s holds no runs of the study: run it first" % out)
    rows = [r for _, r in sorted(_runs(out, cases).items())]
    columns = ["run"] + list(study.spec.get("vary", {})) + list(study.spec["reductions"]) + ["status", "error"]
    try:
        import pyarrow  # noqa: F401
        import pandas as pd
        path = os.path.join(out, "results.parquet")
        pd.DataFrame([{c: r.get(c) for c in columns} for r in rows], columns=columns).to_parquet(path)
        return path, rows
    except ImportError:
        pass
    path = os.path.join(out, "results.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([repr(r.get(c)) if isinstance(r.get(c), float) else r.get(c) for c in columns])
    os.replace(path + ".tmp", path)
    return path, rows


def report(study, rows):
    """The summary lines of the study's ``report`` section."""
    spec = study.spec.get("report", {})
    ok = [r for r in rows if r.get("status") == "ok"]
    failed = [r for r in rows if r.get("status") != "ok"]
    lines = ["%d runs: %d ok, %d failed" % (len(rows), len(ok), len(failed))]
    for r in failed[:5]:
        lines.append("  run %d failed: %s" % (r["run"], r["error"][:200]))
    names = list(study.spec.get("vary", {}))
    units = study.units() if ok else {}

    def quantity(name, x, fmt="%g"):
        unit = units.get(name, "")
        return (fmt % x) + (" " + unit if unit and unit != "1" else "")

    def valued(key):
        # The ok runs with a value of the reduction, and a line for those
        # without one (a window after a move that ended past stop_time).
        has = [r for r in ok if isinstance(r.get(key), float) and math.isfinite(r[key])]
        if len(has) < len(ok):
            lines.append("%d of %d runs have no value of %s (nothing in its window): left out below"
                         % (len(ok) - len(has), len(ok), key))
        return has

    reductions = study.spec.get("reductions", {})
    if "worst" in spec and ok:
        key = spec["worst"]
        has = valued(key)
        if has:
            # The worst of a minimum is the smallest (the deepest load
            # swing down, the most negative force), of the others the
            # largest; the first run of equal ones.
            sign = -1 if reductions.get(key, {}).get("op") == "min" else 1
            w = max(has, key=lambda r: (sign * r[key], -r["run"]))
            lines.append("worst %s = %s at %s" % (key, quantity(key, w[key], "%.4g"),
                                                ", ".join("%s = %s" % (n, quantity(n, w[n])) for n in names)))
    by = spec.get("by") or names
    for side in ("above", "below"):
        sign = 1 if side == "above" else -1
        for key, limit in spec.get(side, {}).items():
            has = valued(key)
            hits = [r for r in has if sign * r[key] > sign * limit]
            # The combinations of the ``by`` names where any run passes
            # the limit, with the furthest value among their runs.
            worst = {}
            for r in hits:
                k = tuple(r[n] for n in by)
                worst[k] = r[key] if k not in worst else sign * max(sign * worst[k], sign * r[key])
            lines.append("%d of %d runs with %s %s %s, at %d combinations of %s:" % (
                len(hits), len(has), key, side, quantity(key, limit), len(worst), ", ".join(by)))
            for k in sorted(worst):
                lines.append("  " + ", ".join("%s = %s" % (n, quantity(n, v)) for n, v in zip(by, k))
                             + ": %s %s" % ("up to" if side == "above" else "down to", quantity(key, worst[k], "%.3g")))
    return lines
