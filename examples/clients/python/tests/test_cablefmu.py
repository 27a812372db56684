"""Tests of the cablefmu package: simulate against the Hoist's reference
result, and studies run serially and on a Dask LocalCluster (bitwise the
same table, a failed run recorded, a stopped study resumed, a killed worker
losing no run, a run that crashes its process recorded as failed).

    HOIST_FMU=out/Hoist.fmu HOIST3_FMU=out/Hoist3.fmu HOISTWIND_FMU=out/HoistWind.fmu /usr/bin/python3 -m unittest discover -s examples/clients/python/tests

The Dask tests need Debian's python3-distributed (``/usr/bin/python3`` sees
it); where it is missing they fail under CI=true and are skipped otherwise.
"""
import copy
import csv
import decimal
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)  # examples/clients/python: the cablefmu package's folder
REPO = os.path.abspath(os.path.join(PKG, "..", "..", ".."))
sys.path.insert(0, PKG)
import cablefmu  # noqa: E402
from cablefmu import study as studies  # noqa: E402

IN_CI = os.environ.get("CI", "").strip().lower() == "true"
# Waiting for a point in a study that has not come after this long is taken
# to hang: only a failure detector, far above what the runs take.
HANG = 600


def fmu_path(env):
    path = os.environ.get(env)
    if not path or not os.path.isfile(path):
        raise unittest.SkipTest("set %s to the built FMU" % env) if not IN_CI else AssertionError("%s not set" % env)
    return path


def have_dask():
    try:
        import distributed  # noqa: F401
        return True
    except ImportError:
        if IN_CI:
            raise AssertionError("CI=true but distributed is not importable by %s" % sys.executable)
        return False


class TestCache(unittest.TestCase):
    """The unpacked-archive cache keeps the CABLEFMU_CACHE_KEEP folders used
    last, and never one used within CACHE_GRACE seconds nor the one just
    unpacked; a folder left without its stamp (an unpacking cut short) goes
    by its own time."""

    def test_evicts_the_least_recently_used(self):
        from cablefmu import fmucommon, sim
        root = tempfile.mkdtemp(prefix="cablefmu-cache-test-")
        self.addCleanup(shutil.rmtree, root, True)
        now = time.time()
        # Cache folders are named by 20 hex digits of the archive's digest
        # ("ssp-" before an SSP's); "notes" is somebody else's folder.
        names = {"a": "a" * 20, "b": "b" * 20, "c": "ssp-" + "c" * 20, "d": "d" * 20, "e": "e" * 20, "f": "f" * 20,
                 "kept": "0" * 20, "notes": "notes"}
        ages = {"a": 9000, "b": 8000, "c": 7000, "d": 6000, "e": 100, "f": 50, "kept": 99999, "notes": 99999}
        for key, age in ages.items():
            name = names[key]
            folder = os.path.join(root, name)
            os.makedirs(os.path.join(folder, "binaries"))
            stamp = os.path.join(folder, fmucommon.STAMP)
            if key != "d":
                with open(stamp, "w") as f:
                    f.write("0" * 64)
                os.utime(stamp, (now - age, now - age))
            else:
                os.utime(folder, (now - age, now - age))  # no stamp: its own time
        left = lambda: sorted(k for k, name in names.items() if os.path.isdir(os.path.join(root, name)))  # noqa: E731
        with mock.patch.dict(os.environ, {"CABLEFMU_CACHE_KEEP": "3"}):
            sim._evict(root, os.path.join(root, names["kept"]), now=now)
        # Kept: the three used last (f, e, then d by its own time), the one
        # just unpacked and the folder that is not the cache's; gone: a, b,
        # c, beyond the bound and the grace.
        self.assertEqual(left(), ["d", "e", "f", "kept", "notes"])
        with mock.patch.dict(os.environ, {"CABLEFMU_CACHE_KEEP": "0"}):
            sim._evict(root, os.path.join(root, names["kept"]), now=now)
        # Within the grace period (an hour) e and f stay even at a bound of 0.
        self.assertEqual(left(), ["e", "f", "kept", "notes"])


class TestSimulate(unittest.TestCase):
    def test_reference_result(self):
        """The trolley move of hoist_cosim.py through simulate(): every column of
        examples/massless/Hoist_ref.csv (sampled every 0.1 s) within 1e-6 of its scale."""
        import hoist_cosim as cosim  # beside the package
        profile, h = cosim.TrapezoidProfile(), 0.01
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        r = cablefmu.simulate(
            fmu, stop_time=30.0, step=h,
            inputs={"suspension.x": lambda t: profile(t)[0], "suspension.vx": lambda t: profile(t)[1],
                    "suspension.z": cosim.suspension_start(fmu.md)[2], "winch.speed": lambda t: cosim.winch_speed(t + 0.5 * h)},
            derivatives={"suspension.vx": lambda t: profile(t + 0.5 * h)[2]},
            outputs=["load.x", "load.y", "load.z", "load.vx", "load.vz", "cable.tension", "cable.length",
                     "suspension.fx", "suspension.fz"])
        with open(os.path.join(REPO, "examples", "massless", "Hoist_ref.csv"), newline="") as f:
            rows = list(csv.reader(f))
        head = [h.rsplit(" (", 1)[0] for h in rows[0]]  # "cable.tension (N)": the port's name and unit
        ref = [[float(x) for x in row] for row in rows[1:] if row]
        got = {n: r[n][::10] for n in r}
        self.assertEqual(len(got["time"]), len(ref))
        for name in r:
            if name == "time":
                continue
            c = head.index(name)
            scale = max(abs(row[c]) for row in ref) or 1.0
            worst = max(abs(g - row[c]) for g, row in zip(got[name], ref))
            self.assertLessEqual(worst, 1e-6 * scale, "%s off the reference by %.3g" % (name, worst))

    def test_table_slopes_passed(self):
        """A winch ramp given as a table reaches the FMU with its slopes (FMI 2.0 input derivatives), as
        ``cablefmu run`` gives them: hoisting at 0.5 m/s after a 1 s ramp peaks at most 1 % above the closed form
        Mg + 2Ma at 0.1 s steps; the same ramp as a callable is held over each step, a staircase that rings the
        rope (+54 %)."""
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        times, speeds = [0, 2, 3, 7, 8], [0, 0, -0.5, -0.5, 0]
        want = 1000 * 9.81 + 2 * 1000 * 0.5
        r = cablefmu.simulate(fmu, inputs={"winch.speed": (times, speeds)}, stop_time=12, step=0.1, outputs=["cable.tension"])
        peak = max(r["cable.tension"])
        self.assertTrue(0.94 < peak / want < 1.01, "peak %.0f N, closed form %.0f N" % (peak, want))
        table = cablefmu.Table(times, speeds)
        held = cablefmu.simulate(fmu, inputs={"winch.speed": lambda t: table(t)}, stop_time=12, step=0.1,
                                 outputs=["cable.tension"])
        self.assertGreater(max(held["cable.tension"]), 1.3 * want, "the held staircase rings the rope")

    def test_table_slopes_over_the_step_not_positions(self):
        """A table's slope is its mean over the step (a ramp ending between points is not carried past its end)
        and none is passed for a position: a 3 m lift by positions alone at 0.25 s steps is the FMU's own smooth path
        (with the positions' slopes, which jump at every row, the rope went slack); an FMI 3.0 FMU, which takes no
        derivatives, is warned of once."""
        import warnings
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        def z(t):
            if t <= 1:
                return 0.5 * t * t
            if t <= 3:
                return 0.5 + (t - 1)
            if t <= 4:
                return 2.5 + (t - 3) - 0.5 * (t - 3) ** 2
            return 3.0
        times = [0.05 * k for k in range(161)]
        lift = {"suspension.z": (times, [20 + z(t) for t in times])}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the FMU's positions-alone warning
            r = cablefmu.simulate(fmu, inputs=lift, stop_time=8, step=0.25, outputs=["cable.tension"])
        self.assertGreater(min(r["cable.tension"]), 4000.0)
        self.assertLess(max(r["cable.tension"]), 12000.0)
        ramp = {"winch.speed": ([0, 1.0, 1.25, 5.0, 5.25], [0, 0, -0.5, -0.5, 0])}
        r = cablefmu.simulate(fmu, inputs=ramp, stop_time=4, step=0.1, outputs=["cable.tension"])
        steady = [x for t, x in zip(r["time"], r["cable.tension"]) if 1.3 <= t <= 4]
        self.assertTrue(7000 < min(steady) and max(steady) < 12000, (min(steady), max(steady)))
        # A jump is held over the step and set at the next point, not spread over the step: the snatch from rest
        # to 1 m/s peaks at the 1 ms reference's 54.4 kN at 0.25 s steps (10 kN spread) and the rope goes slack.
        snatch = {"winch.speed": ([0, 1.05, 1.05, 5], [0, 0, 1, 1])}
        r = cablefmu.simulate(fmu, inputs=snatch, stop_time=4, step=0.25, outputs=["cable.tension"])
        self.assertGreater(max(r["cable.tension"]), 54000.0)
        self.assertEqual(min(r["cable.tension"]), 0.0)
        # A jump at 0.7 s, where the points of 0.1 s steps fall a hair after it: the ramp before it is followed to
        # its end, and the rope paid out is the table's 0.35 m.
        jump = {"winch.speed": ([0, 0.7, 0.7, 3], [0, 1, 0, 0])}
        r = cablefmu.simulate(fmu, inputs=jump, stop_time=3, step=0.1, outputs=["cable.length"])
        self.assertAlmostEqual(r["cable.length"][-1], 10.35, delta=1e-6)
        fmu3 = cablefmu.load(fmu_path("HOIST3_FMU"))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cablefmu.simulate(fmu3, inputs=ramp, stop_time=1, step=0.1, outputs=["cable.tension"])
        said = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
        self.assertEqual(len(said), 1, said)
        self.assertIn("takes no input derivatives: the tables of winch.speed are held over each communication step", said[0])

    def test_positions_alone_warn(self):
        """Driven by its position alone, the FMU warns that it takes the velocity from the samples:
        simulate passes the warning on (RuntimeWarning, Result.warnings); with the velocity too, none."""
        import warnings
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        move = {"suspension.x": lambda t: min(t, 2.0)}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = cablefmu.simulate(fmu, inputs=move, stop_time=1.0, outputs=["load.x"])
        self.assertEqual(len(r.warnings), 1, r.warnings)
        self.assertIn("position inputs while its velocity inputs (suspension.vx) stay", r.warnings[0])
        said = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
        self.assertEqual(said, ["%s: %s" % (fmu.name, r.warnings[0])])
        move = {"suspension.x": lambda t: min(t, 0.5), "suspension.vx": lambda t: 1.0 if t < 0.5 else 0.0}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = cablefmu.simulate(fmu, inputs=move, stop_time=1.0, outputs=["load.x"])
        self.assertEqual(r.warnings, [])
        self.assertEqual([w for w in caught if issubclass(w.category, RuntimeWarning)], [])

    def test_tables_frames_and_errors(self):
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        self.assertIs(cablefmu.load(fmu.path), fmu, "loaded once per process")
        r = cablefmu.simulate(fmu, stop_time=1.0, step=0.1, inputs={"suspension.x": ([0, 1], [0, 0.5]), "suspension.vx": 0.5},
                              outputs=["load.x", "cable.tension"])
        self.assertEqual(len(r["time"]), 11)
        self.assertAlmostEqual(r["time"][-1], 1.0)
        self.assertEqual(r.header(), ["time (s)", "load.x (m)", "cable.tension (N)"])
        try:
            import numpy  # noqa: F401
            arr = r.to_numpy()
            self.assertEqual(arr.dtype.names, ("time", "load.x", "cable.tension"))
            self.assertEqual(list(r.to_pandas().columns), ["time", "load.x", "cable.tension"])
        except ImportError:
            pass
        with self.assertRaises(cablefmu.FMUError) as e:
            cablefmu.simulate(fmu, parameters={"load.mass": -1.0}, stop_time=1.0)
        self.assertTrue(any("load.mass" in text for _, _, text in e.exception.log), e.exception.log)
        with self.assertRaises(cablefmu.FMUError):
            cablefmu.simulate(fmu, inputs={"no.such": 1.0}, stop_time=1.0)

    def test_input_forms_and_refusals(self):
        """A profile given as (times, values), as (t, value) rows or as a
        dict is the same profile; two samples written as neither Python form
        (a list of two lists) are refused, not guessed: two rows read as
        (times, values) drove the point at 5 m/s. A Boolean for a Real
        parameter or input, step 0 and an infinite stop time are refused."""
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        run = lambda spec: cablefmu.simulate(fmu, stop_time=2.0, step=0.1, inputs={"suspension.vx": spec},
                                             outputs=["load.x"])["load.x"]
        want = run(([0, 1], [0, 0.5]))
        for spec in ([(0, 0), (1, 0.5)], {"time": [0, 1], "values": [0, 0.5]}):
            self.assertEqual(run(spec), want, spec)
        three = run(([0, 1, 2], [0, 0.5, 0.5]))
        self.assertEqual(run([(0, 0), (1, 0.5), (2, 0.5)]), three)
        self.assertEqual(run([[0, 0], [1, 0.5], [2, 0.5]]), three)
        for spec in ([[0, 0], [1, 0.5]], ((0, 0), (1, 0.5))):
            with self.assertRaises(ValueError) as e:
                run(spec)
            self.assertIn("reads as (times, values) or as two (t, value) rows", str(e.exception))
        with self.assertRaises(ValueError) as e:
            run(([0, 1, 0.5], [0, 1, 2]))
        self.assertEqual(str(e.exception), "input suspension.vx: Table: times must not decrease")
        with self.assertRaises(TypeError):
            run(True)
        with self.assertRaises(TypeError) as e:
            cablefmu.simulate(fmu, parameters={"load.mass": True}, stop_time=1.0)
        self.assertIn("a Boolean True for Hoist's Real load.mass", str(e.exception))
        for kw in ({"step": 0}, {"stop_time": float("inf")}):
            with self.assertRaises(ValueError, msg=kw):
                cablefmu.simulate(fmu, **dict({"stop_time": 1.0}, **kw))
        # More than MAX_STEPS steps is refused before the run (1e9 s at 1 ms grew the result until the machine ran
        # out); a step or time that is not a number, and outputs given as one name, are refused, not read.
        with self.assertRaises(ValueError) as e:
            cablefmu.simulate(fmu, stop_time=1e9, step=1e-3)
        self.assertIn("more than %d" % cablefmu.MAX_STEPS, str(e.exception))
        for kw in ({"step": "0.5"}, {"step": True}, {"stop_time": "2"}, {"stop_time": None}, {"outputs": "load.x"}):
            with self.assertRaises(TypeError, msg=kw):
                cablefmu.simulate(fmu, **dict({"stop_time": 1.0}, **kw))
        # What converts to a number is one: a Decimal, or anything with __float__ (a NumPy scalar, a 0-d array).
        class Seconds:
            def __float__(self):
                return 0.5

        r = cablefmu.simulate(fmu, stop_time=decimal.Decimal("0.5"), step=Seconds(), outputs=["load.x"])
        self.assertEqual(r["time"], [0.0, 0.5])

    def test_each_input_evaluated_once_a_communication_point(self):
        """An input is evaluated once at each step's start (the first one's
        value also initializes), never again for the same time."""
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        seen = []

        def x(t):
            seen.append(t)
            return 0.1 * t

        r = cablefmu.simulate(fmu, stop_time=1.0, step=0.1, inputs={"suspension.x": x, "suspension.vx": 0.1},
                              outputs=["suspension.x"])
        self.assertEqual(seen, r["time"][:-1])
        self.assertEqual(r["suspension.x"][1:], [0.1 * t for t in r["time"][:-1]], "the FMU holds what was set")
        _, applied = cablefmu.sim._simulate(fmu, stop_time=1.0, step=0.1, inputs={"suspension.x": x},
                                            keep_inputs=True)
        self.assertEqual(applied["suspension.x"], [0.1 * t for t in r["time"]], "one value per communication point")

    def test_prepared_calls(self):
        """The setters and getters made once per simulation behave as set and
        get: the same values, a wrong count refused, a refused value an
        FMIError with the FMU's message, and no call on a freed instance."""
        fmu = cablefmu.load(fmu_path("HOIST_FMU"))
        inst = fmu.instance()
        try:
            inst.initialize()
            names = ["suspension.x", "load.mass"]
            get = inst.getter(names)
            self.assertEqual(get(), inst.get(names))
            inst.setter(["suspension.x"])([0.25])
            self.assertEqual(get()[0], 0.25)
            with self.assertRaises(ValueError):
                inst.setter(["suspension.x"])([1.0, 2.0])
            with self.assertRaises(cablefmu.fmi2.FMIError) as e:
                inst.setter(["suspension.x"])([float("nan")])
            self.assertIn("suspension.x", str(e.exception))
            self.assertTrue(e.exception.messages, "the call's log is kept")
        finally:
            inst.free()
        with self.assertRaises(cablefmu.fmi2.FMIError) as e:
            get()
        self.assertIn("not instantiated", str(e.exception))


def small_study(fmu, runs=50):
    """A 50-run random study of the HoistWind FMU, 12 s each."""
    return {
        "name": "small", "fmu": fmu, "stop_time": 12, "step": 0.02, "design": "lhs", "runs": runs, "seed": 7,
        "vary": {"load.mass": {"uniform": [1000, 20000]}, "acceleration": {"uniform": [0.2, 1.0]},
                 "wind": {"values": [0, 15]}},
        "inputs": {"suspension.x": {"profile": "trapezoid", "start": 1, "distance": 3, "speed": 0.5,
                               "acceleration": "$acceleration", "velocity": "suspension.vx"},
                   "wind.speed": {"profile": "constant", "value": "$wind"}},
        "outputs": ["cable.tension", "load.x", "load.z", "suspension.x", "suspension.z"],
        "sway": {"suspension": ["suspension.x", "suspension.z"], "load": ["load.x", "load.z"]},
        "reductions": {"daf": {"of": "cable.tension", "op": "daf"},
                       "sway_after_stop": {"of": "sway", "op": "max_abs", "after": "suspension.x.end"},
                       "final_x": {"of": "load.x", "op": "final"}},
    }


def read(path):
    with open(path, "rb") as f:
        return f.read()


class TestStudies(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fmu = os.path.abspath(fmu_path("HOISTWIND_FMU"))
        cls.tmp = tempfile.mkdtemp(prefix="cablefmu-study-")
        cls.serial_out = os.path.join(cls.tmp, "serial")
        cls.study = studies.Study(small_study(cls.fmu), cls.tmp)
        cls.serial_table, cls.serial_rows = studies.run(cls.study, cls.serial_out, serial=True, progress=False)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_serial_study(self):
        self.assertEqual(len(self.serial_rows), 50)
        self.assertTrue(all(r["status"] == "ok" for r in self.serial_rows), [r["error"] for r in self.serial_rows])
        for r in self.serial_rows:
            self.assertGreater(r["daf"], 1.0)
            self.assertAlmostEqual(r["final_x"], 3.0, delta=0.5)

    def test_local_cluster_gives_the_serial_table_bitwise(self):
        if not have_dask():
            self.skipTest("distributed not importable by %s" % sys.executable)
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            out = os.path.join(self.tmp, "cluster")
            path, rows = studies.run(self.study, out, client=client, progress=False)
        self.assertEqual(read(path), read(self.serial_table), "the cluster's table differs from the serial one")

    def test_mode_chosen_by_size(self):
        """Asked for no mode, a small study runs serially; one whose runs left
        outweigh starting more run processes (made free here) goes on on a run
        process per core after its first run; --serial and --workers are
        obeyed whatever the size. Every mode writes the serial table."""
        small = studies.Study(dict(small_study(self.fmu, runs=2), stop_time=2), self.tmp)
        s = studies.Study(small_study(self.fmu, runs=4), self.tmp)
        reference, _ = studies.run(s, os.path.join(self.tmp, "mode-serial"), serial=True, progress=False)
        not_serial = [mock.patch.object(studies, f, side_effect=AssertionError("not serially: %s" % f))
                      for f in ("_local_rows", "_dask_rows")]
        for p in not_serial:
            p.start()
        try:
            # The second run would have to take longer than 0.3 s (LOCAL_START x 2) to go side by side.
            studies.run(small, os.path.join(self.tmp, "mode-auto-small"), progress=False)
            with mock.patch.object(studies, "LOCAL_START", 0.0), mock.patch.object(studies, "LOCAL_TASK", 0.0):
                path, _ = studies.run(s, os.path.join(self.tmp, "mode-serial-asked"), serial=True, progress=False)
        finally:
            for p in not_serial:
                p.stop()
        self.assertEqual(read(path), read(reference))
        free = [mock.patch.object(studies, "LOCAL_START", 0.0), mock.patch.object(studies, "LOCAL_TASK", 0.0),
                mock.patch("os.cpu_count", return_value=2)]
        for p in free:
            p.start()
            self.addCleanup(p.stop)
        with mock.patch.object(studies, "_local_rows", side_effect=studies._local_rows) as local:
            path, _ = studies.run(s, os.path.join(self.tmp, "mode-auto-large"), progress=False)
        self.assertEqual(local.call_count, 1)
        self.assertEqual(len(local.call_args[0][1]), 3, "the runs left after the first, side by side")
        self.assertEqual(read(path), read(reference))
        if not have_dask():
            self.skipTest("distributed not importable by %s" % sys.executable)
        with mock.patch.object(studies, "_dask_rows", side_effect=studies._dask_rows) as dask_rows:
            path, _ = studies.run(s, os.path.join(self.tmp, "mode-workers"), progress=False, workers=1)
        self.assertEqual(dask_rows.call_count, 1)
        self.assertEqual(len(dask_rows.call_args[0][2]), 4, "--workers: every run on Dask")
        self.assertEqual(read(path), read(reference))

    def test_failed_run_recorded(self):
        spec = small_study(self.fmu, runs=6)
        spec["design"] = "grid"
        spec["vary"] = {"load.mass": {"values": [1000, -5, 3000]}, "acceleration": {"values": [0.5, 1.0]},
                        "wind": {"values": [0]}}
        s = studies.Study(spec, self.tmp)
        _, rows = studies.run(s, os.path.join(self.tmp, "failing"), serial=True, progress=False)
        failed = [r for r in rows if r["status"] == "failed"]
        self.assertEqual([r["load.mass"] for r in failed], [-5.0, -5.0])
        self.assertIn("load.mass", failed[0]["error"])
        self.assertTrue(all(math.isnan(r["daf"]) for r in failed))
        self.assertEqual(sum(r["status"] == "ok" for r in rows), 4)

    def test_stopped_study_resumes(self):
        out = os.path.join(self.tmp, "resumed")
        studies.run(self.study, out, serial=True, limit=25, progress=False)
        first = set(os.listdir(os.path.join(out, "runs")))
        self.assertEqual(len(first), 25)
        stamps = {n: os.path.getmtime(os.path.join(out, "runs", n)) for n in first}
        path, rows = studies.run(self.study, out, serial=True, progress=False)
        self.assertEqual(len(rows), 50)
        for n, m in stamps.items():
            self.assertEqual(os.path.getmtime(os.path.join(out, "runs", n)), m, "run %s ran again" % n)
        self.assertEqual(read(path), read(self.serial_table))

    def test_study_checked_before_any_run(self):
        bad = [({"inputs": {"suspension.xx": {"profile": "constant", "value": 1}}}, "not an input"),
               ({"inputs": {"wind.speed": {"profile": "constant", "value": "$windd"}}}, "not varied"),
               ({"vary": {"load.mas": {"values": [1000]}}}, "neither a parameter"),
               ({"reductions": {"p": {"of": "cable.tension", "op": "peak"}}}, "op 'peak'"),
               ({"reductions": {"p": {"of": "cable.tension", "op": "time_above"}}}, "threshold"),
               ({"fixed": {"no.such": 1}}, "not a parameter"),
               ({"step": -1}, "positive number"),
               # A move that starts after the run ends gave "ok" rows of the static tension.
               ({"inputs": {"suspension.x": {"profile": "trapezoid", "start": 12, "distance": 3, "speed": 0.5,
                                             "acceleration": 0.5}}}, "not before stop_time 12 s")]
        for change, message in bad:
            spec = small_study(self.fmu, runs=2)
            for k, v in change.items():
                if isinstance(v, dict) and isinstance(spec.get(k), dict) and k != "reductions" and k != "fixed":
                    spec[k] = dict(spec[k], **v)
                else:
                    spec[k] = v
            out = os.path.join(self.tmp, "bad")
            with self.assertRaises(studies.StudyError) as e:
                studies.run(studies.Study(spec, self.tmp), out, serial=True, progress=False, fresh=True)
            self.assertIn(message, str(e.exception))
            self.assertFalse(os.listdir(os.path.join(out, "runs")) if os.path.isdir(os.path.join(out, "runs")) else [],
                             "a refused study ran")

    def test_changed_study_and_damaged_runs(self):
        out = os.path.join(self.tmp, "changed")
        studies.run(self.study, out, serial=True, limit=5, progress=False)
        # A damaged run file is run again; a foreign file is left alone.
        with open(os.path.join(out, "runs", "000001.json"), "w") as f:
            f.write("{")
        with open(os.path.join(out, "runs", "notes.json"), "w") as f:
            f.write("notes")
        path, rows = studies.run(self.study, out, serial=True, progress=False)
        self.assertEqual(read(path), read(self.serial_table))
        # The same folder for a changed study is refused, afresh it runs.
        spec = small_study(self.fmu)
        spec["stop_time"] = 11
        with self.assertRaises(studies.StudyError):
            studies.run(studies.Study(spec, self.tmp), out, serial=True, progress=False)
        _, rows = studies.run(studies.Study(spec, self.tmp), out, serial=True, progress=False, fresh=True)
        self.assertEqual(len(rows), 50)

    def test_killed_worker_loses_no_run(self):
        """A worker killed while it runs a run and holds finished results
        the study has not yet taken: those runs are computed again, none is
        failed or lost, and the table is the serial one. The kill comes at
        a point the test waits for (the fifth row saved, the worker holding
        a result not yet taken), not after a time."""
        if not have_dask():
            self.skipTest("distributed not importable by %s" % sys.executable)
        from distributed import Client, LocalCluster
        spec = small_study(self.fmu)
        spec["stop_time"] = 30  # long enough runs to be killed among
        s = studies.Study(spec, self.tmp)
        out = os.path.join(self.tmp, "killed")
        shutil.rmtree(out, ignore_errors=True)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            pids = client.run(os.getpid)
            victim = sorted(pids)[0]
            saved, killed = [], []
            save = studies._save

            def held():
                """The finished results the victim holds."""
                keys = [k for k, where in client.who_has().items() if victim in where]
                return [k for k in keys if k in client.futures and client.futures[k].status == "finished"]

            def save_then_kill(folder, row):
                save(folder, row)
                saved.append(row["run"])
                if len(saved) != 5:
                    return
                # The result being saved and one more, not yet taken.
                deadline = time.monotonic() + HANG
                while len(held()) < 2 and time.monotonic() < deadline:
                    time.sleep(0.02)
                os.kill(pids[victim], signal.SIGKILL)
                killed.append(len(saved))
                while victim in client.scheduler_info()["workers"] and time.monotonic() < deadline:
                    time.sleep(0.02)

            with mock.patch.object(studies, "_save", save_then_kill):
                _, rows = studies.run(s, out, client=client, progress=False)
        self.assertEqual(killed, [5], "a worker was killed during the study, after 5 runs")
        self.assertEqual(len(rows), 50)
        self.assertTrue(all(r["status"] == "ok" for r in rows), [r["error"] for r in rows if r["status"] != "ok"])
        self.assertEqual(sorted(saved), list(range(50)), "a run was lost or saved twice")
        _, serial = studies.run(s, os.path.join(self.tmp, "killed-serial"), serial=True, progress=False)
        self.assertEqual(json.dumps(rows), json.dumps(serial), "the rescheduled runs differ from a serial study")

    def test_run_that_crashes_its_process_is_a_failed_row(self):
        """A run whose FMU crashes its process (abort in a C stand-in) on a
        Dask worker becomes a failed row naming the signal, the worker
        keeps running; the other runs finish."""
        if not have_dask():
            self.skipTest("distributed not importable by %s" % sys.executable)
        gcc = shutil.which("gcc")
        if gcc is None:
            if IN_CI:
                raise AssertionError("CI=true but gcc is not on the PATH")
            self.skipTest("gcc not on the PATH")
        fmu = crashing_fmu(self.fmu, os.path.join(self.tmp, "crash"), gcc, crash_mass=13000.0)
        spec = {"name": "crash", "fmu": fmu, "stop_time": 0.1, "step": 0.02, "design": "grid",
                "vary": {"load.mass": {"values": [1000.0, 13000.0, 2000.0]}},
                "outputs": ["load.x"], "reductions": {"final_x": {"of": "load.x", "op": "final"}}}
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            _, rows = studies.run(studies.Study(spec, self.tmp), os.path.join(self.tmp, "crash-out"), client=client,
                                  progress=False)
        self.assertEqual([r["status"] for r in rows], ["ok", "failed", "ok"], [r["error"] for r in rows])
        self.assertEqual(rows[1]["load.mass"], 13000.0)
        self.assertIn("crashed", rows[1]["error"])
        self.assertIn("SIGABRT", rows[1]["error"])
        self.assertTrue(math.isnan(rows[1]["final_x"]))
        self.assertEqual([rows[0]["final_x"], rows[2]["final_x"]], [0.0, 0.0])


def crashing_fmu(fmu, folder, gcc, crash_mass, hang=False):
    """A copy of FMU (its model description) whose binary is a C stand-in:
    every function succeeds and outputs zeros, and a step aborts the
    process (SIGABRT: a native crash) when a parameter was set to
    crash_mass, or with hang never returns."""
    import zipfile
    from cablefmu import fmi2
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(fmu) as z:
        z.extractall(folder)
    lib = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(folder, "binaries", "linux64")) for f in fs]
    assert len(lib) == 1, lib
    special = {
        "fmi2GetTypesPlatform": 'const char *fmi2GetTypesPlatform(void) { return "default"; }',
        "fmi2GetVersion": 'const char *fmi2GetVersion(void) { return "2.0"; }',
        "fmi2Instantiate": "void *fmi2Instantiate() { crash = 0; return &crash; }",
        "fmi2FreeInstance": "void fmi2FreeInstance() {}",
        "fmi2SetReal": ("int fmi2SetReal(void *c, const unsigned *vr, size_t n, const double *v) {\n"
                        "\tfor (size_t i = 0; i < n; i++) if (v[i] == %r) crash = 1;\n\treturn 0;\n}" % crash_mass),
        "fmi2GetReal": ("int fmi2GetReal(void *c, const unsigned *vr, size_t n, double *v) {\n"
                        "\tmemset(v, 0, n * sizeof *v);\n\treturn 0;\n}"),
        "fmi2GetInteger": ("int fmi2GetInteger(void *c, const unsigned *vr, size_t n, int *v) {\n"
                           "\tmemset(v, 0, n * sizeof *v);\n\treturn 0;\n}"),
        "fmi2GetBoolean": ("int fmi2GetBoolean(void *c, const unsigned *vr, size_t n, int *v) {\n"
                           "\tmemset(v, 0, n * sizeof *v);\n\treturn 0;\n}"),
        "fmi2DoStep": "int fmi2DoStep() {\n\tif (crash) %s\n\treturn 0;\n}" % (
            "for (;;) pause();" if hang else "abort();"),
    }
    src = ["#include <stdlib.h>", "#include <string.h>", "#include <unistd.h>", "static int crash;"]
    src += [special.get(name, "int %s() { return 0; }" % name) for name in fmi2.FUNCTION_NAMES]
    c = os.path.join(folder, "stand_in.c")
    with open(c, "w") as f:
        f.write("\n".join(src) + "\n")
    subprocess.run([gcc, "-shared", "-fPIC", "-o", lib[0], c], check=True)
    os.remove(c)
    out = folder + ".fmu"
    with zipfile.ZipFile(out, "w") as z:
        for d, _, fs in os.walk(folder):
            for f in fs:
                z.write(os.path.join(d, f), os.path.relpath(os.path.join(d, f), folder))
    return out


if __name__ == "__main__":
    unittest.main()
