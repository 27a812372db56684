"""Studies: many simulations of one FMU over varied parameters and input
profiles, each reduced to a row of numbers, run serially or on Dask.

A study file (JSON, or TOML where the standard library reads it) says:

- ``fmu`` (an .fmu archive) or ``scenario`` (a scenario folder, built with
  ``go run ./build`` from the repository it lies in), paths relative to the
  study file; ``stop_time`` and ``step`` (s);
- ``vary``: each varied name with ``values`` (a list), ``range``
  ([from, to, count], evenly) or ``uniform`` ([low, high]); names that are
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
  ``{"hoist": [x, z], "load": [x, z]}`` naming the variables of a sway
  angle (degrees from the vertical) called ``sway``;
- ``reductions``: name -> ``{"of": SIGNAL, "op": OP}`` with OP one of
  ``max``, ``min``, ``max_abs``, ``rms``, ``final``, ``time_above``
  (with ``threshold``) and ``daf`` (the peak over the value at the start:
  the dynamic amplification factor, the FMU starting in static
  equilibrium); ``after`` (a time in s, or a move's ``NAME.end``) limits a
  reduction to the time after it;
- ``report``: optional ``{"worst": REDUCTION, "above": {REDUCTION: limit},
  "by": [names]}`` for the summary printed after a run: the worst run, and
  the combinations of the ``by`` names (default: all varied) where a run
  exceeds the limit.

Each run's row is written to ``OUT/runs/ID.json`` as it finishes, so a
study stopped and started again runs only what is missing; the table
``OUT/results.csv`` (Parquet where pyarrow is installed) is assembled from
those rows in the order of the runs, so that the same study gives the same
table whoever ran it.
"""

import csv
import itertools
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

from .sim import FMUError, Table, load, simulate

__all__ = ["Study", "run_case", "run"]


class StudyError(Exception):
    """A study file that cannot be run, with the reason."""


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
        return tomllib.loads(data.decode())
    return json.loads(data.decode())


class Study:
    """A study read from a file (see the module's doc)."""

    def __init__(self, spec, base="."):
        self.spec = spec
        self.base = os.path.abspath(base)
        for key in ("stop_time", "reductions"):
            if key not in spec:
                raise StudyError("study: %r is missing" % key)
        if "fmu" not in spec and "scenario" not in spec:
            raise StudyError("study: name an 'fmu' or a 'scenario' folder")
        self.name = spec.get("name", "study")

    @classmethod
    def from_file(cls, path):
        try:
            spec = _read(path)
        except (OSError, ValueError) as e:
            raise StudyError("%s: %s" % (path, e))
        return cls(spec, os.path.dirname(os.path.abspath(path)))

    def fmu_path(self, build_dir=None):
        """The FMU's path; a scenario folder is built first if its FMU is
        missing or older than the scenario."""
        if "fmu" in self.spec:
            path = os.path.join(self.base, self.spec["fmu"])
            if not os.path.isfile(path):
                raise StudyError("study: FMU %s not found" % path)
            return path
        folder = os.path.join(self.base, self.spec["scenario"])
        if not os.path.isfile(os.path.join(folder, "scenario.json")):
            raise StudyError("study: scenario folder %s has no scenario.json" % folder)
        with open(os.path.join(folder, "scenario.json")) as f:
            ident = json.load(f).get("modelIdentifier", "Study")
        out = os.path.join(build_dir or os.path.join(self.base, "out"), ident + ".fmu")
        newest = max(os.path.getmtime(os.path.join(d, n)) for d, _, names in os.walk(folder) for n in names)
        if os.path.isfile(out) and os.path.getmtime(out) >= newest:
            return out
        repo = folder
        while not os.path.isfile(os.path.join(repo, "go.mod")):
            parent = os.path.dirname(repo)
            if parent == repo:
                raise StudyError("study: %s lies in no Go module to build it with; name a built 'fmu'" % folder)
            repo = parent
        os.makedirs(os.path.dirname(out), exist_ok=True)
        proc = subprocess.run(["go", "run", "./build", "-o", out, folder], cwd=repo, capture_output=True, text=True)
        if proc.returncode != 0:
            raise StudyError("building %s failed:\n%s" % (folder, proc.stderr[-2000:]))
        return out

    def validate(self, fmu):
        """Check the study against its FMU before any run: every name, op
        and profile; raises StudyError with the first problem found."""
        sp = self.spec
        md = fmu.md.variables

        def causality(name):
            v = md.get(name)
            return v.causality if v is not None else None

        for key in ("stop_time", "step"):
            if key in sp and not (isinstance(sp[key], (int, float)) and not isinstance(sp[key], bool)
                                  and sp[key] > 0 and math.isfinite(sp[key])):
                raise StudyError("%s %r: must be a positive number (s)" % (key, sp[key]))
        for key, kind in (("vary", dict), ("fixed", dict), ("inputs", dict), ("reductions", dict),
                          ("outputs", list), ("report", dict)):
            if key in sp and not isinstance(sp[key], kind):
                raise StudyError("%s: must be a%s %s" % (key, "n" if kind is list else "", "list" if kind is list else "table"))
        for name, value in sp.get("fixed", {}).items():
            if causality(name) != "parameter":
                raise StudyError("fixed %s: not a parameter of %s" % (name, fmu.name))
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise StudyError("fixed %s = %r: must be a number" % (name, value))
        profiles = sp.get("inputs", {})
        used = set()
        for name, p in profiles.items():
            if not isinstance(p, dict):
                raise StudyError("input %s: a profile is a table, got %r" % (name, p))
            if causality(name) != "input":
                raise StudyError("input %s: not an input of %s" % (name, fmu.name))
            if p.get("velocity") is not None and causality(p["velocity"]) != "input":
                raise StudyError("input %s: velocity %s is not an input of %s" % (name, p["velocity"], fmu.name))
            for v in p.values():
                if isinstance(v, str) and v.startswith("$"):
                    used.add(v[1:])
        names = set(sp.get("vary", {}))
        for name in sorted(used - names):
            raise StudyError("an input profile uses $%s, which is not varied" % name)
        for name, v in sp.get("vary", {}).items():
            if causality(name) != "parameter" and name not in used:
                raise StudyError("vary %s: neither a parameter of %s nor used by an input profile as $%s"
                                 % (name, fmu.name, name))
            if not isinstance(v, dict):
                raise StudyError("vary %s: give {values: [...]}, {range: [from, to, count]} or {uniform: [low, high]}" % name)
            if "values" in v and not (isinstance(v["values"], list) and v["values"] and all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in v["values"])):
                raise StudyError("vary %s: values must be a list of numbers" % name)
            if "range" in v and not (isinstance(v["range"], list) and len(v["range"]) == 3
                                     and int(v["range"][2]) >= 1):
                raise StudyError("vary %s: range is [from, to, count]" % name)
            if "uniform" in v and not (isinstance(v["uniform"], list) and len(v["uniform"]) == 2):
                raise StudyError("vary %s: uniform is [low, high]" % name)
        signals = set(sp.get("outputs", [])) | set(profiles) | {
            p["velocity"] for p in profiles.values() if p.get("velocity")}
        for name in sp.get("outputs", []):
            if name not in md:
                raise StudyError("outputs: %s has no variable %s" % (fmu.name, name))
        if "sway" in sp:
            sw = sp["sway"]
            if not (isinstance(sw, dict) and len(sw.get("hoist", [])) == 2 and len(sw.get("load", [])) == 2):
                raise StudyError('sway: give {"hoist": [x, z], "load": [x, z]}')
            for name in sw["hoist"] + sw["load"]:
                if name not in signals:
                    raise StudyError("sway: %s is neither a kept output nor an input profile" % name)
            signals.add("sway")
        ops = ("max", "min", "max_abs", "rms", "final", "time_above", "daf")
        for name, r in sp["reductions"].items():
            if not isinstance(r, dict):
                raise StudyError("reduction %s: give {of: SIGNAL, op: OP}" % name)
            if r.get("op") not in ops:
                raise StudyError("reduction %s: op %r: want one of %s" % (name, r.get("op"), ", ".join(ops)))
            if r.get("of") not in signals:
                raise StudyError("reduction %s: %r is no kept output, input profile or sway" % (name, r.get("of")))
            if r["op"] == "time_above" and not isinstance(r.get("threshold"), (int, float)):
                raise StudyError("reduction %s: time_above needs a numeric threshold" % name)
        rep = sp.get("report", {})
        for name in [rep.get("worst")] + list(rep.get("above", {})):
            if name is not None and name not in sp["reductions"]:
                raise StudyError("report: %s is no reduction" % name)
        for name in rep.get("by", []):
            if name not in sp.get("vary", {}):
                raise StudyError("report by: %s is not varied" % name)

    def fingerprint(self, fmu):
        """What a run's row depends on: the study without its report, and
        the FMU's SHA-256 (the same study of another FMU is another study)."""
        spec = {k: v for k, v in self.spec.items() if k != "report"}
        return {"study": spec, "fmu": fmu.sha256}

    def cases(self):
        """The runs' case variables, in run order."""
        vary = self.spec.get("vary", {})
        design = self.spec.get("design", "grid")
        names = list(vary)
        for n in names:
            v = vary[n]
            if not isinstance(v, dict) or not ({"values", "range", "uniform"} & set(v)):
                raise StudyError("vary %s: give values, range or uniform" % n)
        if design == "grid":
            axes = []
            for n in names:
                v = vary[n]
                if "values" in v:
                    axes.append([float(x) for x in v["values"]])
                elif "range" in v:
                    lo, hi, count = v["range"]
                    count = int(count)
                    axes.append([_clean(lo * (1 - k / (count - 1)) + hi * k / (count - 1)) if count > 1 else lo
                                 for k in range(count)])
                else:
                    raise StudyError("vary %s: a grid takes values or range, not uniform" % n)
            return [dict(zip(names, combo)) for combo in itertools.product(*axes)]
        if design not in ("random", "lhs"):
            raise StudyError("design %r: want grid, random or lhs" % design)
        runs = int(self.spec.get("runs", 0))
        if runs < 1:
            raise StudyError("design %s: give the number of runs" % design)
        rng = random.Random(self.spec.get("seed", 0))
        cols = {}
        for n in names:
            v = vary[n]
            if "values" in v:
                cols[n] = [rng.choice([float(x) for x in v["values"]]) for _ in range(runs)]
                continue
            lo, hi = (v["uniform"] if "uniform" in v else v["range"][:2])
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
        return self.sign * self._position(t)

    def velocity(self, t):
        return self.sign * self._velocity(t)

    def _position(self, t):
        if t < self.t0:
            return 0.0
        if t < self.t1:
            return 0.5 * self.a * (t - self.t0) ** 2
        if t < self.t2:
            return self.d_acc + self.v * (t - self.t1)
        if t < self.end:
            tau = t - self.t2
            return self.distance - self.d_acc + self.v * tau - 0.5 * self.a * tau * tau
        return self.distance

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


def run_case(spec, base, fmu_path, run_id, case, keep_series=False):
    """Simulate one case and return its row (a dict): ``run``, the case
    variables, the reductions, ``status`` ("ok" or "failed") and ``error``
    (with the FMU's last log messages)."""
    row = {"run": run_id}
    row.update(case)
    try:
        fmu = load(fmu_path)
        params = dict(spec.get("fixed", {}))
        for n, v in case.items():
            if n in fmu.md.variables and fmu.md.variables[n].causality == "parameter":
                params[n] = v
        step = float(spec.get("step") or fmu.default_step())
        signals, times = _inputs(spec, case, base, step)
        outputs = list(spec.get("outputs") or [])
        result = simulate(fmu, inputs=signals, parameters=params, stop_time=float(spec["stop_time"]),
                          step=step, outputs=outputs)
        series = dict(result)
        for name, sig in signals.items():  # the inputs as they were applied
            f = sig if callable(sig) else (lambda t, v=sig: v)
            series[name] = [f(t) for t in result["time"]]
        if "sway" in spec:
            hx, hz = spec["sway"]["hoist"]
            lx, lz = spec["sway"]["load"]
            series["sway"] = [math.degrees(math.atan2(a - b, c - d)) for a, b, c, d in
                              zip(series[lx], series[hx], series[hz], series[lz])]
        for name, r in spec["reductions"].items():
            row[name] = _reduce(name, r, series, times, step)
        row["status"], row["error"] = "ok", ""
        if keep_series:
            row["_series"] = series
    except Exception as e:  # a run's failure, whatever it is, is its row's
        log = getattr(e, "log", [])
        tail = " | ".join(text for _, _, text in log[-3:])
        row["status"], row["error"] = "failed", ("%s: %s" % (type(e).__name__, e)) + (" [log: %s]" % tail if tail else "")
        for name in spec["reductions"]:
            row[name] = float("nan")
    return row


def _task(args):
    spec, base, fmu_path, run_id, case, keep = args
    return run_case(spec, base, fmu_path, run_id, case, keep)


def _write_json(path, obj):
    tmp = path + ".tmp-%d" % os.getpid()
    with open(tmp, "w") as f:
        json.dump(obj, f, allow_nan=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _save(out, row):
    series = row.pop("_series", None)
    if series is not None:
        os.makedirs(os.path.join(out, "series"), exist_ok=True)
        path = os.path.join(out, "series", "%06d.csv" % row["run"])
        names = list(series)
        with open(path + ".tmp", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(names)
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


def run(study, out, client=None, scheduler=None, workers=None, serial=False, series=False, limit=None,
        progress=True, stream=None, retry_failed=False, fresh=False):
    """Run the study's missing runs and write the result table; returns
    ``(path of the table, rows)``.

    ``serial``: in this process. Otherwise on Dask: ``client`` (a
    ``distributed.Client``), or ``scheduler`` (an address such as
    ``tcp://host:8786``), or a local cluster of ``workers`` processes (all
    cores by default). ``series``: keep each run's time series as
    ``OUT/series/ID.csv``. ``limit``: run at most this many of the missing
    runs (a study may be run in parts). ``retry_failed``: run the failed
    runs again. ``fresh``: forget the runs in OUT. A folder of runs of
    another study (the study file or the FMU changed) is refused unless
    ``fresh``.
    """
    stream = stream or sys.stderr
    fmu_path = study.fmu_path()  # built once next to the study, whatever the output folder
    fmu = load(fmu_path)
    study.validate(fmu)
    cases = study.cases()
    runs_dir = os.path.join(out, "runs")
    if fresh and os.path.isdir(runs_dir):
        shutil.rmtree(runs_dir)
    os.makedirs(runs_dir, exist_ok=True)
    stamp = os.path.join(out, "study.json")
    mark = json.loads(json.dumps(study.fingerprint(fmu)))
    if os.path.isfile(stamp):
        with open(stamp) as f:
            try:
                had = json.load(f)
            except ValueError:
                had = None
        if had != mark and os.listdir(runs_dir):
            raise StudyError("%s holds the runs of another study (the study file or its FMU changed since): "
                             "write to another folder, or start afresh (--fresh)" % out)
    _write_json(stamp, mark)
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
    if serial or not todo:
        for a in args:
            _save(out, _task(a))
            done += 1
            started += 1
            if progress:
                _progress(done, total, started, t0, stream)
    else:
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
                cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                       processes=True, dashboard_address=None)
                client = own = Client(cluster)
        try:
            futures = client.map(_task, args, pure=False, retries=3)
            which = {f.key: a for f, a in zip(futures, args)}
            for fut in as_completed(futures):
                if fut.status == "finished":
                    row = fut.result()
                else:  # the task itself failed again and again (a worker it kills, say)
                    a = which[fut.key]
                    row = _failed(a[3], a[4], study.spec, "%s: %s" % (type(fut.exception()).__name__, fut.exception()))
                _save(out, row)
                done += 1
                started += 1
                if progress:
                    _progress(done, total, started, t0, stream)
        finally:
            if own is not None:
                cluster = own.cluster
                own.close()
                if cluster is not None:
                    cluster.close()
    if progress:
        stream.write("\n")
    return table(out, study)


def table(out, study):
    """Assemble OUT/results.csv (or .parquet) from the finished runs."""
    cases = study.cases()
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
    if "worst" in spec and ok:
        key = spec["worst"]
        finite = [r for r in ok if isinstance(r.get(key), float) and math.isfinite(r[key])] or ok
        w = max(finite, key=lambda r: (r[key], -r["run"]))
        lines.append("worst %s = %.4g at %s" % (key, w[key], ", ".join("%s = %g" % (n, w[n]) for n in names)))
    by = spec.get("by") or names
    for key, limit in spec.get("above", {}).items():
        hits = [r for r in ok if r[key] > limit]
        # The combinations of the ``by`` names where any run exceeds the
        # limit, with the largest value among their runs.
        worst = {}
        for r in hits:
            k = tuple(r[n] for n in by)
            worst[k] = max(worst.get(k, -math.inf), r[key])
        lines.append("%d of %d runs with %s above %g, at %d combinations of %s:" % (
            len(hits), len(ok), key, limit, len(worst), ", ".join(by)))
        for k in sorted(worst):
            lines.append("  " + ", ".join("%s = %g" % (n, v) for n, v in zip(by, k)) + ": up to %.3g" % worst[k])
    return lines
