"""The study runner refuses what it cannot run safely, before any run, with
one line naming the key: names that are paths, numbers that are not finite,
counts that are not whole, unknown keys (with the nearest valid one), files
that are not FMUs, studies of too many runs or runs of too many steps, Dask
workers that cannot import cablefmu or read the FMU; it deletes only a
folder marked as the study's own; and a run that crashes its process or
hangs becomes a failed row, serially and on Dask.

    HOIST_FMU=out/Hoist.fmu HOISTWIND_FMU=out/HoistWind.fmu /usr/bin/python3 -m unittest discover -s examples/clients/python/tests

These tests need HOISTWIND_FMU, gcc (the C stand-in FMUs) and Debian's
python3-distributed; without them they fail rather than skip.
"""
import contextlib
import csv
import importlib.util
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)  # examples/clients/python: the cablefmu package's folder
sys.path.insert(0, PKG)
from cablefmu import study as studies  # noqa: E402
from cablefmu.__main__ import main  # noqa: E402
from test_cablefmu import crashing_fmu, small_study  # noqa: E402

# A subprocess study that has not ended after this long is taken to hang:
# only a failure detector, far above what the runs take.
HANG = 600


def need_fmu():
    path = os.environ.get("HOISTWIND_FMU")
    if not path or not os.path.isfile(path):
        raise AssertionError("set HOISTWIND_FMU to the built HoistWind FMU (out/HoistWind.fmu)")
    return os.path.abspath(path)


def need_gcc():
    gcc = shutil.which("gcc")
    if gcc is None:
        raise AssertionError("gcc is not on the PATH (the stand-in FMUs are built with it)")
    return gcc


def tiny(fmu, /, **change):
    """A two-run study of the HoistWind FMU, half a second each."""
    spec = {"name": "tiny", "fmu": fmu, "stop_time": 0.5, "step": 0.05, "design": "grid",
            "vary": {"load.mass": {"values": [1000, 2000]}}, "outputs": ["cable.tension"],
            "reductions": {"peak": {"of": "cable.tension", "op": "max"}}}
    spec.update(change)
    return spec


def cli(*argv):
    """main(argv) in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def cli_process(*argv):
    """python3 -m cablefmu ARGV in a child process (a crash there cannot
    take these tests with it): the CompletedProcess."""
    env = dict(os.environ, PYTHONPATH=PKG + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "cablefmu"] + list(argv), env=env, capture_output=True,
                          text=True, timeout=HANG)


def read(path):
    with open(path) as f:
        return f.read()


def results(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Case(unittest.TestCase):
    def setUp(self):
        self.fmu = need_fmu()
        self.tmp = tempfile.mkdtemp(prefix="cablefmu-defects-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def write(self, name, text):
        """A file in the test's folder; its path."""
        path = os.path.join(self.tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def refused(self, spec_or_text, *words, base=None):
        """The study (a dict, or a study file's text) is refused by the
        command line with one line holding every word; the line."""
        text = spec_or_text if isinstance(spec_or_text, str) else json.dumps(spec_or_text)
        path = self.write(os.path.join("s%d" % len(os.listdir(self.tmp)), "study.json"), text)
        code, out, err = cli("study", "run", path, "--serial", "--quiet")
        self.assertEqual(code, 2, (out, err))
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("study: "), err)
        self.assertNotIn("Traceback", err)
        for w in words:
            self.assertIn(w, lines[0])
        self.assertFalse(os.path.exists(os.path.join(os.path.dirname(path), "out")), "a refused study wrote")
        return lines[0]

    def spec_refused(self, spec, *words):
        """Study(spec) is refused with a message holding every word."""
        with self.assertRaises(studies.StudyError) as e:
            studies.Study(spec, self.tmp)
        for w in words:
            self.assertIn(w, str(e.exception))
        self.assertNotIn("\n", str(e.exception))
        return str(e.exception)


class TestNamesAndFolders(Case):
    def test_name_must_be_plain(self):
        for bad in ("../../x", "/tmp/abs", "a/b", ".hidden", "..", "", "a\\b", "x\n", "a b", 5, None):
            self.spec_refused(tiny(self.fmu, name=bad), "name", "plain")
        for good in ("payload-sweep", "a.b_c-1", "Study2", "_x", "-x"):
            self.assertEqual(studies.Study(tiny(self.fmu, name=good), self.tmp).name, good)

    def test_escaping_name_writes_nothing(self):
        """A name like ../../escaped would have put out/NAME two folders up."""
        self.refused(tiny(self.fmu, name="../../escaped"), "name")
        self.assertEqual(os.listdir(self.tmp), ["s0"])
        self.assertEqual(os.listdir(os.path.join(self.tmp, "s0")), ["study.json"])

    def test_fresh_deletes_only_this_studys_marked_folder(self):
        study = studies.Study(tiny(self.fmu), self.tmp)
        # A folder of runs the runner did not mark is not deleted.
        other = os.path.join(self.tmp, "other")
        keep = self.write(os.path.join("other", "runs", "000000.json"), "precious")
        with self.assertRaises(studies.StudyError) as e:
            studies.run(study, other, serial=True, progress=False, fresh=True)
        self.assertIn("not marked", str(e.exception))
        self.assertEqual(read(keep), "precious")
        # A folder marked as another study's is not deleted either.
        first = os.path.join(self.tmp, "first")
        studies.run(studies.Study(tiny(self.fmu, name="first"), self.tmp), first, serial=True, progress=False)
        self.assertTrue(os.path.isfile(os.path.join(first, studies.MARKER)))
        runs = sorted(os.listdir(os.path.join(first, "runs")))
        self.assertEqual(runs, ["000000.json", "000001.json"])
        with self.assertRaises(studies.StudyError) as e:
            studies.run(study, first, serial=True, progress=False, fresh=True)
        self.assertIn("'first'", str(e.exception))
        self.assertEqual(sorted(os.listdir(os.path.join(first, "runs"))), runs)
        # Its own marked folder is forgotten and run again.
        changed = studies.Study(tiny(self.fmu, name="first", stop_time=0.4), self.tmp)
        with self.assertRaises(studies.StudyError):
            studies.run(changed, first, serial=True, progress=False)
        _, rows = studies.run(changed, first, serial=True, progress=False, fresh=True)
        self.assertEqual([r["status"] for r in rows], ["ok", "ok"])

    def test_study_file_with_byte_order_mark(self):
        """A study file saved with a byte order mark, as Windows editors save UTF-8, reads as without it (it was
        refused with Python's "Unexpected UTF-8 BOM")."""
        text = json.dumps(tiny(self.fmu))
        path = self.write(os.path.join("bom", "study.json"), "\ufeff" + text)
        self.assertEqual(studies.Study.from_file(path).spec, json.loads(text))
        toml = ('name = "tiny"\nfmu = %s\nstop_time = 0.5\nstep = 0.05\ndesign = "grid"\noutputs = ["cable.tension"]\n'
                '[vary."load.mass"]\nvalues = [1000, 2000]\n[reductions.peak]\nof = "cable.tension"\nop = "max"\n'
                % json.dumps(self.fmu))
        path = self.write(os.path.join("bom", "study.toml"), "\ufeff" + toml)
        self.assertEqual(studies.Study.from_file(path).spec["vary"], {"load.mass": {"values": [1000, 2000]}})

    def test_folder_of_other_files_is_refused(self):
        """Not even the study file beside its output is overwritten."""
        path = self.write(os.path.join("here", "study.json"), json.dumps(tiny(self.fmu)))
        before = read(path)
        study = studies.Study.from_file(path)
        with self.assertRaises(studies.StudyError) as e:
            studies.run(study, os.path.dirname(path), serial=True, progress=False)
        self.assertIn("not marked", str(e.exception))
        self.assertEqual(read(path), before)
        self.assertEqual(os.listdir(os.path.dirname(path)), ["study.json"])

    def test_runs_folder_linked_elsewhere_is_refused(self):
        elsewhere = os.path.join(self.tmp, "elsewhere")
        os.makedirs(elsewhere)
        out = os.path.join(self.tmp, "out")
        os.makedirs(out)
        os.symlink(elsewhere, os.path.join(out, "runs"))
        for fresh in (False, True):
            with self.assertRaises(studies.StudyError) as e:
                studies.run(studies.Study(tiny(self.fmu), self.tmp), out, serial=True, progress=False, fresh=fresh)
            self.assertIn("inside", str(e.exception))
        self.assertEqual(os.listdir(elsewhere), [])

    def test_scenario_model_identifier_must_be_plain(self):
        self.write(os.path.join("scen", "scenario.json"), json.dumps({"modelIdentifier": "../../evil"}))
        spec = tiny(self.fmu)
        del spec["fmu"]
        spec["scenario"] = "scen"
        with self.assertRaises(studies.StudyError) as e:
            studies.Study(spec, self.tmp).fmu_path()
        self.assertIn("modelIdentifier", str(e.exception))


class TestFiniteNumbers(Case):
    def test_nan_and_infinities_refused_naming_the_key(self):
        base = json.dumps(tiny(self.fmu))
        for old, new, message in (
                ('[1000, 2000]', '[1000, NaN]', 'vary["load.mass"].values[1]: nan is not a finite number'),
                ('"stop_time": 0.5', '"stop_time": Infinity', "stop_time: inf is not a finite number"),
                ('"step": 0.05', '"step": -Infinity', "step: -inf is not a finite number"),
                ('"op": "max"}', '"op": "time_above", "threshold": NaN}',
                 "reductions.peak.threshold: nan is not a finite number"),
                ('"design": "grid"', '"design": "grid", "fixed": {"load.mass": 1e400}',
                 'fixed["load.mass"]: inf is not a finite number'),
                ('[1000, 2000]', '[1000, 1%s]' % ("0" * 400), 'vary["load.mass"].values[1]: 10000')):
            self.assertIn(old, base)
            self.spec_refused(json.loads(base.replace(old, new)), message)
        self.spec_refused(json.loads(base.replace('[1000, 2000]', '[1000, 1%s]' % ("0" * 400))), "too large")

    def test_uniform_span_must_be_finite(self):
        self.spec_refused(tiny(self.fmu, design="lhs", runs=4, vary={"load.mass": {"uniform": [-1e308, 1e308]}}),
                          'vary["load.mass"].uniform', "finite")

    def test_nan_case_is_refused_not_run_and_dropped(self):
        """A NaN among the values used to run, be saved, and vanish on the
        next read (2 runs, 1 in the table)."""
        path = self.write("study.json", json.dumps(tiny(self.fmu)).replace("[1000, 2000]", "[1000, NaN]"))
        code, out, err = cli("study", "run", path, "--serial", "--quiet")
        self.assertEqual(code, 2, out + err)
        self.assertIn('vary["load.mass"].values[1]: nan is not a finite number', err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "out")))


class TestStudySize(Case):
    def test_runs_counted_without_making_them(self):
        s = studies.Study(tiny(self.fmu, vary={"load.mass": {"range": [1000, 2000, 1e15]},
                                               "wind": {"values": [0, 15]}}), self.tmp)
        self.assertEqual(s.count(), 2 * 10 ** 15)
        self.assertEqual(studies.Study(tiny(self.fmu, design="lhs", runs=10 ** 12,
                                            vary={"load.mass": {"uniform": [1, 2]}}), self.tmp).count(), 10 ** 12)
        self.assertEqual(studies.Study(tiny(self.fmu, vary={}), self.tmp).count(), 1)

    def test_too_many_runs_refused_with_the_number(self):
        six = tiny(self.fmu, vary={"load.mass": {"range": [1000, 2000, 6]}})
        with self.assertRaises(studies.StudyError) as e:
            studies.run(studies.Study(six, self.tmp), os.path.join(self.tmp, "six"), serial=True, progress=False,
                        max_runs=5)
        self.assertIn("6 runs, more than its limit of 5", str(e.exception))
        huge = tiny(self.fmu, vary={"load.mass": {"range": [1000, 2000, 1e9]}})
        with self.assertRaises(studies.StudyError) as e:
            studies.run(studies.Study(huge, self.tmp), os.path.join(self.tmp, "huge"), serial=True, progress=False)
        self.assertIn("1000000000 runs", str(e.exception))
        self.assertIn(str(studies.MAX_RUNS), str(e.exception))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "huge")))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "six")))
        # The study file's max_runs, and the command line's over it.
        line = self.refused(dict(six, max_runs=5), "6 runs", "limit of 5")
        self.assertIn("--max-runs", line)
        path = self.write("six.json", json.dumps(dict(six, max_runs=5)))
        code, out, err = cli("study", "run", path, "--serial", "--quiet", "--max-runs", "6")
        self.assertEqual(code, 0, err)
        self.assertIn("6 runs: 6 ok, 0 failed", out)
        code, out, err = cli("study", "run", path, "--serial", "--quiet", "--max-runs", "0")
        self.assertEqual(code, 2)
        self.assertIn("--max-runs 0", err)
        self.spec_refused(dict(six, max_runs=2.5), "max_runs", "whole number")


class TestRunLimits(Case):
    def test_steps_of_a_run_bounded_up_front(self):
        fmu = studies.Study(tiny(self.fmu), self.tmp).load(self.fmu)
        for change, number in (({"step": 1e-300}, "5e+299 steps"), ({"stop_time": 1e12}, "2e+13 steps")):
            s = studies.Study(tiny(self.fmu, **change), self.tmp)
            with self.assertRaises(studies.StudyError) as e:
                s.validate(fmu)
            self.assertIn("stop_time/step: " + number, str(e.exception))
            self.assertIn(str(studies.MAX_STEPS), str(e.exception))
        studies.Study(tiny(self.fmu, stop_time=1e5, step=0.01), self.tmp).validate(fmu)  # exactly 1e7 steps
        for key, bad in (("step", 0), ("step", -1), ("stop_time", 0), ("stop_time", "10"), ("step", True)):
            self.spec_refused(tiny(self.fmu, **{key: bad}), key, "positive number")
        self.refused(tiny(self.fmu, step=1e-300), "stop_time/step")

    def test_hanging_run_stopped_serially(self):
        """A run whose FMU never returns from a step is stopped after the
        run timeout and recorded as failed; the study goes on."""
        fmu = crashing_fmu(self.fmu, os.path.join(self.tmp, "hang"), need_gcc(), crash_mass=13000.0, hang=True)
        path = self.write("study.json", json.dumps(stand_in_study(fmu, "hang")))
        p = cli_process("study", "run", path, "--serial", "--quiet", "--run-timeout", "5")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("3 runs: 2 ok, 1 failed", p.stdout)
        rows = results(os.path.join(self.tmp, "out", "hang", "results.csv"))
        self.assertEqual([r["status"] for r in rows], ["ok", "failed", "ok"], rows)
        self.assertIn("timed out: no result after 5 s", rows[1]["error"])
        self.assertEqual(rows[1]["load.mass"], "13000.0")

    def test_hanging_run_stopped_on_dask(self):
        """On a LocalCluster, the run timeout given to run() over the study
        file's: the worker goes on with the other runs."""
        from distributed import Client, LocalCluster
        fmu = crashing_fmu(self.fmu, os.path.join(self.tmp, "hang"), need_gcc(), crash_mass=13000.0, hang=True)
        spec = dict(stand_in_study(fmu, "hang"), run_timeout=3600)
        spec["vary"] = {"load.mass": {"values": [13000.0, 1000.0, 2000.0, 3000.0]}}
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            _, rows = studies.run(studies.Study(spec, self.tmp), os.path.join(self.tmp, "out"), client=client,
                                  progress=False, run_timeout=5)
        self.assertEqual([r["status"] for r in rows], ["failed", "ok", "ok", "ok"], [r["error"] for r in rows])
        self.assertIn("timed out: no result after 5 s", rows[0]["error"])
        self.assertTrue(math.isnan(rows[0]["final_x"]))

    def test_run_timeout_of_the_study_file(self):
        """The study file's run_timeout: checked, and used."""
        self.spec_refused(tiny(self.fmu, run_timeout=-5), "run_timeout", "positive number")
        self.spec_refused(tiny(self.fmu, run_timeout="5"), "run_timeout", "positive number")
        fmu = crashing_fmu(self.fmu, os.path.join(self.tmp, "hang"), need_gcc(), crash_mass=13000.0, hang=True)
        path = self.write("study.json", json.dumps(dict(stand_in_study(fmu, "hang"), run_timeout=5)))
        p = cli_process("study", "run", path, "--serial", "--quiet")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        rows = results(os.path.join(self.tmp, "out", "hang", "results.csv"))
        self.assertEqual([r["status"] for r in rows], ["ok", "failed", "ok"], rows)
        self.assertIn("timed out: no result after 5 s", rows[1]["error"])

    def test_run_timeout_must_be_positive(self):
        s = studies.Study(tiny(self.fmu), self.tmp)
        for bad in (0, -1, float("nan"), float("inf"), "5"):
            with self.assertRaises(studies.StudyError) as e:
                studies.run(s, os.path.join(self.tmp, "out"), serial=True, progress=False, run_timeout=bad)
            self.assertIn("--run-timeout", str(e.exception))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "out")))
        path = self.write("ok.json", json.dumps(tiny(self.fmu)))
        code, out, err = cli("study", "run", path, "--serial", "--quiet", "--run-timeout", "-1")
        self.assertEqual((code, err.strip()), (2, "study: --run-timeout -1.0: want a positive number of seconds"))


def stand_in_study(fmu, name):
    return {"name": name, "fmu": fmu, "stop_time": 0.1, "step": 0.02, "design": "grid",
            "vary": {"load.mass": {"values": [1000.0, 13000.0, 2000.0]}},
            "outputs": ["load.x"], "reductions": {"final_x": {"of": "load.x", "op": "final"}}}


class TestSerialCrash(Case):
    def test_crashing_fmu_is_a_failed_row_serially(self):
        """An FMU that aborts its process fails its run, not the study; the
        same study started again has nothing left to run."""
        fmu = crashing_fmu(self.fmu, os.path.join(self.tmp, "crash"), need_gcc(), crash_mass=13000.0)
        path = self.write("study.json", json.dumps(stand_in_study(fmu, "crash")))
        for _ in range(2):
            p = cli_process("study", "run", path, "--serial", "--quiet")
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn("3 runs: 2 ok, 1 failed", p.stdout)
        rows = results(os.path.join(self.tmp, "out", "crash", "results.csv"))
        self.assertEqual([r["status"] for r in rows], ["ok", "failed", "ok"], rows)
        self.assertIn("crashed: the run's process ended by signal SIGABRT", rows[1]["error"])
        self.assertEqual([rows[0]["final_x"], rows[2]["final_x"]], ["0.0", "0.0"])

    def test_serial_rows_are_the_in_process_rows_bitwise(self):
        """Runs in the run process give the rows run_case gives here."""
        spec = small_study(self.fmu, runs=4)
        s = studies.Study(spec, self.tmp)
        _, rows = studies.run(s, os.path.join(self.tmp, "out"), serial=True, progress=False)
        here = [studies.run_case(spec, s.base, self.fmu, k, c) for k, c in enumerate(s.cases())]
        self.assertTrue(all(r["status"] == "ok" for r in here), here)
        self.assertEqual(json.dumps(rows), json.dumps(here))


class TestSideBySide(Case):
    """Runs on a run process per core (the default mode's choice for a
    study whose runs pay for it, made to here): a run that crashes its
    process or hangs is a failed row there too, the others finish."""

    def side_by_side(self):
        for p in (mock.patch.object(studies, "LOCAL_START", 0.0), mock.patch.object(studies, "LOCAL_TASK", 0.0),
                  mock.patch("os.cpu_count", return_value=2)):
            p.start()
            self.addCleanup(p.stop)

    def test_crashing_and_hanging_runs_are_failed_rows(self):
        self.side_by_side()
        for hang in (False, True):
            fmu = crashing_fmu(self.fmu, os.path.join(self.tmp, "hang" if hang else "crash"), need_gcc(),
                               crash_mass=13000.0, hang=hang)
            spec = stand_in_study(fmu, "side")
            spec["vary"] = {"load.mass": {"values": [1000.0, 13000.0, 2000.0, 3000.0, 4000.0]}}
            with mock.patch.object(studies, "_local_rows", side_effect=studies._local_rows) as local:
                _, rows = studies.run(studies.Study(spec, self.tmp), os.path.join(self.tmp, "out-%s" % hang),
                                      progress=False, run_timeout=3)
            self.assertEqual(local.call_count, 1, "not side by side")
            self.assertEqual([r["status"] for r in rows], ["ok", "failed", "ok", "ok", "ok"],
                             [r["error"] for r in rows])
            self.assertIn("timed out: no result after 3 s" if hang else "crashed: the run's process ended by "
                          "signal SIGABRT", rows[1]["error"])


class TestClearErrors(Case):
    def test_infinite_count_is_one_line(self):
        text = json.dumps(tiny(self.fmu, vary={"load.mass": {"range": [1000, 2000, 3]}})).replace(
            "[1000, 2000, 3]", "[1000, 2000, 1e400]")
        self.refused(text, 'vary["load.mass"].range[2]: inf is not a finite number')

    def test_file_that_is_not_an_fmu(self):
        notzip = self.write("notzip.fmu", "hello\n")
        line = self.refused(tiny(notzip), "fmu: ", "notzip.fmu is not an FMU (not a zip archive)")
        self.assertNotIn("Error", line)
        empty = os.path.join(self.tmp, "empty.fmu")
        with zipfile.ZipFile(empty, "w") as z:
            z.writestr("readme.txt", "no model description")
        self.refused(tiny(empty), "fmu: ", "empty.fmu is not a usable FMU")

    def test_wrong_types_named(self):
        fmu = self.fmu
        self.refused("[1, 2]", "holds a list, not a table of keys")
        self.refused('"study"', "holds a string")
        for change, words in (
                ({"stop_time": "10"}, ('stop_time "10"', "positive number")),
                ({"vary": [1000, 2000]}, ("vary: want a table, got a list",)),
                ({"vary": {"load.mass": [1000, 2000]}}, ('vary["load.mass"]: give {values',)),
                ({"vary": {"load.mass": {"values": ["a"]}}}, ('vary["load.mass"].values: want a list of one or more numbers',)),
                ({"vary": {"load.mass": {"values": []}}}, ('vary["load.mass"].values: want a list of one or more numbers',)),
                ({"design": "lhs", "runs": 4, "vary": {"load.mass": {"range": [1000, 2000, 3]}}},
                 ('vary["load.mass"].range: an lhs design draws its values: give uniform [1000, 2000]',)),
                ({"fixed": {"load.mass": 1500}}, ("fixed load.mass: also varied",)),
                ({"vary": {"load.mass": {"range": [1, 2]}}}, ('vary["load.mass"].range: want [from, to, count]',)),
                ({"name": 5}, ("name 5", "plain name")),
                ({"fmu": 5}, ("fmu: want a string, got 5",)),
                ({"outputs": "cable.tension"}, ('outputs: want a list of names, got "cable.tension"',)),
                ({"reductions": []}, ("reductions: want a table, got a list",)),
                ({"reductions": {"peak": "max"}}, ("reductions.peak: give {of",)),
                ({"design": 5}, ("design 5: want one of grid, random, lhs",)),
                ({"inputs": {"suspension.x": 3}}, ('inputs["suspension.x"]: a profile is a table',)),
                ({"inputs": {"suspension.x": {"profile": "constant", "value": "fast"}}},
                 ('inputs["suspension.x"].value: want a number or "$name"',)),
                ({"fixed": {"load.mass": "heavy"}}, ('fixed["load.mass"]: want a number, got "heavy"',)),
                ({"sway": ["suspension.x"]}, ("sway: want a table, got a list",)),
                ({"report": {"by": "load.mass"}}, ('report.by: want a list of names, got "load.mass"',)),
                ({"report": {"above": {"peak": "high"}}}, ('report.above.peak: want a number, got "high"',)),
                ({"seed": "seven"}, ('seed: want a whole number, got "seven"',)),
                # A window after the runs' end, and a varied parameter in
                # a unit of the study's own (its values go to the FMU in
                # kg: the report said "17991 t").
                ({"reductions": {"peak": {"of": "cable.tension", "op": "max", "after": 0.5}}},
                 ("reductions.peak.after: 0.5 s: a run ends at stop_time 0.5 s, with nothing after it",)),
                ({"vary": {"load.mass": {"unit": "t", "values": [1, 2]}}},
                 ("vary load.mass: unit 't', but", "takes load.mass in kg: leave the unit out"))):
            self.refused(tiny(fmu, **change), *words)


class TestUnknownKeys(Case):
    def test_unknown_keys_refused_with_the_nearest(self):
        move = {"profile": "trapezoid", "start": 1, "distance": 3, "speed": 0.5, "acceleration": 0.5}
        for spec, words in (
                (dict(tiny(self.fmu), desing="lhs"), ("unknown key 'desing' (did you mean 'design'?)",)),
                (dict(tiny(self.fmu), stoptime=3), ("unknown key 'stoptime' (did you mean 'stop_time'?)",)),
                (tiny(self.fmu, vary={"load.mass": {"valuse": [1, 2]}}),
                 ('vary["load.mass"]: unknown key \'valuse\' (did you mean \'values\'?)',)),
                (tiny(self.fmu, inputs={"suspension.x": dict(move, acceleraton=1)}),
                 ('inputs["suspension.x"]: unknown key \'acceleraton\' (did you mean \'acceleration\'?)',)),
                (tiny(self.fmu, inputs={"winch.speed": dict(move, profile="speed", velocity="suspension.vx")}),
                 ('inputs["winch.speed"]: unknown key \'velocity\'',)),
                (tiny(self.fmu, reductions={"peak": {"of": "cable.tension", "op": "max", "thresold": 3}}),
                 ("reductions.peak: unknown key 'thresold' (did you mean 'threshold'?)",)),
                (tiny(self.fmu, report={"worts": "peak"}), ("report: unknown key 'worts' (did you mean 'worst'?)",)),
                (tiny(self.fmu, sway={"suspenson": ["a", "b"], "load": ["c", "d"]}),
                 ("sway: unknown key 'suspenson' (did you mean 'suspension'?)",))):
            self.spec_refused(spec, *words)
        self.refused(dict(tiny(self.fmu), desing="lhs"), "desing", "design")

    def test_unknown_names_get_the_nearest_too(self):
        fmu = studies.Study(tiny(self.fmu), self.tmp).load(self.fmu)
        s = studies.Study(tiny(self.fmu, fixed={"load.mas": 1000}), self.tmp)
        with self.assertRaises(studies.StudyError) as e:
            s.validate(fmu)
        self.assertIn("did you mean 'load.mass'?", str(e.exception))


class TestCounts(Case):
    def test_counts_must_be_whole(self):
        self.spec_refused(tiny(self.fmu, vary={"load.mass": {"range": [1000, 2000, 2.5]}}),
                          'vary["load.mass"].range[2]: want a whole number of values, 1 or more, got 2.5')
        self.spec_refused(tiny(self.fmu, vary={"load.mass": {"range": [1000, 2000, 0]}}), "range[2]", "got 0")
        for bad in (2.5, 0, -3, "10", True):
            self.spec_refused(tiny(self.fmu, design="lhs", runs=bad, vary={"load.mass": {"uniform": [1, 2]}}),
                              "runs: want a whole number of runs")
        self.assertEqual(len(studies.Study(tiny(self.fmu, design="lhs", runs=3.0,
                                                vary={"load.mass": {"uniform": [1, 2]}})).cases()), 3)

    def test_limit_must_not_be_negative(self):
        s = studies.Study(tiny(self.fmu), self.tmp)
        for bad in (-1, 2.5, "3"):
            with self.assertRaises(studies.StudyError) as e:
                studies.run(s, os.path.join(self.tmp, "out"), serial=True, progress=False, limit=bad)
            self.assertIn("--limit", str(e.exception))
        with self.assertRaises(studies.StudyError):
            studies.run(s, os.path.join(self.tmp, "out"), progress=False, workers=0)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "out")))
        path = self.write("ok.json", json.dumps(tiny(self.fmu)))
        code, out, err = cli("study", "run", path, "--serial", "--quiet", "--limit", "-1")
        self.assertEqual(code, 2)
        self.assertEqual(err.strip(), "study: --limit -1: want a whole number, 0 or more")
        _, rows = studies.run(s, os.path.join(self.tmp, "zero"), serial=True, progress=False, limit=0)
        self.assertEqual(rows, [])


class TestWorkerCheck(Case):
    def test_workers_without_cablefmu_refused_at_once(self):
        """A LocalCluster whose workers cannot import cablefmu (a preload
        takes its folder off their sys.path): the study is refused before
        any run, saying what to install; the probe, pickled by value, runs
        there and also names an FMU path the workers cannot read."""
        from distributed import Client, LocalCluster
        hide = self.write("hide_cablefmu.py", "import os, sys\n"
                          "sys.path[:] = [p for p in sys.path\n"
                          "               if not os.path.isdir(os.path.join(p or '.', 'cablefmu'))]\n")
        out = os.path.join(self.tmp, "out")
        missing = os.path.join(self.tmp, "nowhere", "Missing.fmu")
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          preload=[hide]) as cluster, Client(cluster) as client:
            found = client.run(importlib.util.find_spec, "cablefmu")
            self.assertEqual(len(found), 2)
            self.assertEqual(list(found.values()), [None, None], "the workers still find cablefmu")
            with self.assertRaises(studies.StudyError) as e:
                studies.run(studies.Study(tiny(self.fmu), self.tmp), out, client=client, progress=False)
            probe = client.run(studies._by_value(studies._probe), [self.fmu, missing])
        message = str(e.exception)
        self.assertIn("2 of 2 Dask workers cannot import cablefmu", message)
        self.assertIn("ModuleNotFoundError", message)
        self.assertIn("pip install ./examples/clients/python", message)
        self.assertIn("PYTHONPATH", message)
        self.assertNotIn("\n", message)
        self.assertEqual(os.listdir(os.path.join(out, "runs")), [], "a run was started")
        for problems in probe.values():
            self.assertEqual([p[0] for p in problems], ["import", "read"], problems)
            self.assertEqual(problems[1][1:], (missing, "No such file or directory"))

    def test_workers_checked_then_the_study_runs(self):
        """Workers that import cablefmu and read the FMU pass the check."""
        from distributed import Client, LocalCluster
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            self.assertEqual(list(client.run(studies._by_value(studies._probe), [self.fmu]).values()), [[]])
            _, rows = studies.run(studies.Study(tiny(self.fmu), self.tmp), os.path.join(self.tmp, "out"),
                                  client=client, progress=False)
        self.assertEqual([r["status"] for r in rows], ["ok", "ok"], rows)


class TestFolderOwners(Case):
    """An output folder belongs to one study file: another file's runs are
    never deleted, an edit that changes no row resumes, and a folder of
    the previous runner (its study.json) resumes."""

    def unnamed(self, name, **change):
        spec = tiny(self.fmu, **change)
        del spec["name"]
        return self.write(os.path.join("studies", name), json.dumps(spec))

    def stamps(self, folder):
        runs = os.path.join(folder, "runs")
        return {n: (os.path.getmtime(os.path.join(runs, n)), read(os.path.join(runs, n))) for n in os.listdir(runs)}

    def test_fresh_never_deletes_another_study_files_runs(self):
        """Two study files without a name both write to out/study: the
        second is refused, --fresh or not, naming the first file."""
        a = self.unnamed("a.json")
        b = self.unnamed("b.json", stop_time=0.4)
        code, out, err = cli("study", "run", a, "--serial", "--quiet")
        self.assertEqual(code, 0, out + err)
        folder = os.path.join(self.tmp, "studies", "out", "study")
        before = self.stamps(folder)
        self.assertEqual(sorted(before), ["000000.json", "000001.json"])
        for fresh in ((), ("--fresh",)):
            code, out, err = cli("study", "run", b, "--serial", "--quiet", *fresh)
            self.assertEqual(code, 2, out + err)
            lines = err.strip().splitlines()
            self.assertEqual(len(lines), 1, err)
            self.assertIn("the output folder of the study file %s" % os.path.realpath(a), lines[0])
            self.assertIn("not of %s" % os.path.realpath(b), lines[0])
            self.assertIn("give this study a name", lines[0])
            self.assertIn("--out", lines[0])
            self.assertEqual(self.stamps(folder), before, "b.json %s touched a.json's runs" % " ".join(fresh))
        # The same file's study, even unchanged: another file is another owner.
        same = self.write(os.path.join("studies", "copy.json"), read(a))
        code, out, err = cli("study", "run", same, "--serial", "--quiet", "--fresh")
        self.assertEqual(code, 2, out + err)
        self.assertEqual(self.stamps(folder), before)
        # b.json elsewhere (--out) runs; a.json resumes its own folder.
        code, out, err = cli("study", "run", b, "--serial", "--quiet", "--out", os.path.join(self.tmp, "b-out"))
        self.assertEqual(code, 0, out + err)
        code, out, err = cli("study", "run", a, "--serial", "--quiet")
        self.assertEqual((code, err), (0, ""), out + err)
        self.assertEqual(self.stamps(folder), before, "a.json ran its runs again")

    def test_changed_study_file_may_start_afresh(self):
        a = self.unnamed("a.json")
        self.assertEqual(cli("study", "run", a, "--serial", "--quiet")[0], 0)
        folder = os.path.join(self.tmp, "studies", "out", "study")
        with open(os.path.join(folder, studies.MARKER)) as f:
            self.assertEqual(json.load(f)["file"], os.path.realpath(a))
        self.unnamed("a.json", stop_time=0.4)
        code, out, err = cli("study", "run", a, "--serial", "--quiet")
        self.assertEqual(code, 2, out + err)
        self.assertIn("an earlier version of this study", err)
        self.assertIn("--fresh", err)
        code, out, err = cli("study", "run", a, "--serial", "--quiet", "--fresh")
        self.assertEqual(code, 0, out + err)
        self.assertIn("2 runs: 2 ok, 0 failed", out)
        # Through a link to it, the file is the same.
        link = os.path.join(self.tmp, "link.json")
        os.symlink(a, link)
        code, out, err = cli("study", "run", link, "--serial", "--quiet", "--fresh", "--out", folder)
        self.assertEqual(code, 0, out + err)

    def test_study_without_file_keeps_the_names_rule(self):
        """A Study made in Python has no file: a given name says whose the
        folder is; without names only the same study's runs are taken."""
        out = os.path.join(self.tmp, "out")
        studies.run(studies.Study.from_file(self.write("first.json", json.dumps(tiny(self.fmu, name="first")))),
                    out, serial=True, progress=False)
        changed = studies.Study(tiny(self.fmu, name="first", stop_time=0.4), self.tmp)
        _, rows = studies.run(changed, out, serial=True, progress=False, fresh=True)
        self.assertEqual([r["status"] for r in rows], ["ok", "ok"])
        with open(os.path.join(out, studies.MARKER)) as f:
            self.assertEqual(json.load(f)["file"], os.path.realpath(os.path.join(self.tmp, "first.json")))
        spec = tiny(self.fmu)
        del spec["name"]
        unnamed = os.path.join(self.tmp, "unnamed")
        studies.run(studies.Study(spec, self.tmp), unnamed, serial=True, progress=False)
        studies.run(studies.Study(dict(spec, description="the same runs"), self.tmp), unnamed, serial=True,
                    progress=False, fresh=True)
        before = self.stamps(unnamed)
        with self.assertRaises(studies.StudyError) as e:
            studies.run(studies.Study(dict(spec, stop_time=0.4), self.tmp), unnamed, serial=True, progress=False,
                        fresh=True)
        self.assertIn("another study", str(e.exception))
        self.assertEqual(self.stamps(unnamed), before)

    def test_edits_that_change_no_row_resume(self):
        a = self.write("a.json", json.dumps(tiny(self.fmu, description="first")))
        self.assertEqual(cli("study", "run", a, "--serial", "--quiet")[0], 0)
        folder = os.path.join(self.tmp, "out", "tiny")
        before = self.stamps(folder)
        self.write("a.json", json.dumps(tiny(self.fmu, description="second", max_runs=10, run_timeout=60,
                                             report={"worst": "peak"})))
        code, out, err = cli("study", "run", a, "--serial", "--quiet")
        self.assertEqual((code, err), (0, ""), out + err)
        self.assertEqual(self.stamps(folder), before)

    def test_folder_of_the_previous_runner_resumes(self):
        """The previous runner marked its folder with study.json, its
        fingerprint keeping description, max_runs and run_timeout."""
        for name, change in (("named", {"description": "hoist sweep", "max_runs": 10, "run_timeout": 60}),
                             ("unnamed", {"description": "hoist sweep"})):
            spec = tiny(self.fmu, **change)
            if name == "unnamed":
                del spec["name"]
            path = self.write(os.path.join(name, "study.json"), json.dumps(spec))
            study = studies.Study.from_file(path)
            folder = os.path.join(self.tmp, name, "out", study.name)
            studies.run(study, folder, serial=True, progress=False)
            os.remove(os.path.join(folder, studies.MARKER))
            fmu = study.load(study.fmu_path())
            old = {"study": {k: v for k, v in spec.items() if k != "report"}, "fmu": fmu.sha256}
            with open(os.path.join(folder, "study.json"), "w") as f:
                json.dump(old, f)
            before = self.stamps(folder)
            code, out, err = cli("study", "run", path, "--serial", "--quiet")
            self.assertEqual((code, err), (0, ""), "%s: %s" % (name, out + err))
            self.assertIn("2 runs: 2 ok, 0 failed", out)
            self.assertEqual(self.stamps(folder), before, "%s: the runs ran again" % name)
            # A changed description too: still the same runs.
            self.write(os.path.join(name, "study.json"), json.dumps(dict(spec, description="edited")))
            code, out, err = cli("study", "run", path, "--serial", "--quiet")
            self.assertEqual((code, err), (0, ""), "%s: %s" % (name, out + err))
            self.assertEqual(self.stamps(folder), before)


class FakeFuture:
    """A Dask future whose fate the test sets: "finished", "error",
    "lost" (its result gone with a worker: exception() is None),
    "cancelled", or "finished-then-cancelled" (cancelled while its result
    is fetched)."""

    def __init__(self, key, fate, row):
        self.key, self.fate, self.row = key, fate, row
        self.reads = 0

    @property
    def status(self):
        self.reads += 1
        if self.fate == "finished-then-cancelled":
            return "finished" if self.reads == 1 else "cancelled"
        return self.fate

    def result(self):
        if self.fate == "error":
            raise RuntimeError("the task failed")
        if self.fate in ("cancelled", "finished-then-cancelled"):
            raise FakeCancelled(self.key)
        return self.row

    def exception(self):
        return RuntimeError("the task failed") if self.fate == "error" else None

    def cancel(self):
        pass


class FakeCancelled(Exception):
    pass


class FakeClient:
    """Runs each task here (run_case, the row the run process gives) with
    the fates planned for its run, one a submission, then "finished"."""

    def __init__(self, plan):
        self.plan = {k: list(v) for k, v in plan.items()}
        self.submitted = []

    def run(self, f, *args):
        return {"tcp://fake:1": []}

    def submit(self, f, args, pure=True, retries=0):
        *args, timeout = args
        run_id = args[3]
        self.submitted.append(run_id)
        fates = self.plan.get(run_id) or ["finished"]
        fate = fates.pop(0)
        return FakeFuture("_task-%d" % len(self.submitted), fate, studies.run_case(*args))

    def map(self, f, seq, pure=True, retries=0):
        return [self.submit(f, a, pure, retries) for a in seq]


class FakeAsCompleted:
    def __init__(self, futures):
        self.queue = list(futures)

    def __iter__(self):
        while self.queue:
            yield self.queue.pop(0)

    def add(self, future):
        self.queue.append(future)


class TestDaskResults(Case):
    """The runner's loop over finished Dask futures, with futures whose
    status the test sets: a run is failed only when its task failed."""

    def run_fake(self, plan):
        import distributed
        spec = tiny(self.fmu, vary={"load.mass": {"values": [1000, 2000, 3000, 4000, 5000]}})
        study = studies.Study(spec, self.tmp)
        client = FakeClient(plan)
        with mock.patch.object(distributed, "as_completed", FakeAsCompleted):
            _, rows = studies.run(study, os.path.join(self.tmp, "dask"), client=client, progress=False)
        _, serial = studies.run(study, os.path.join(self.tmp, "serial"), serial=True, progress=False)
        return rows, serial, client

    def test_lost_or_cancelled_runs_are_run_again(self):
        rows, serial, client = self.run_fake({0: ["lost"], 1: ["cancelled"], 2: ["finished-then-cancelled"],
                                              4: ["lost", "cancelled"]})
        self.assertEqual([r["status"] for r in rows], ["ok"] * 5, [r["error"] for r in rows])
        self.assertEqual(json.dumps(rows), json.dumps(serial), "the runs run again differ from a serial study")
        self.assertEqual(sorted(client.submitted), [0, 0, 1, 1, 2, 2, 3, 4, 4, 4])

    def test_failed_only_when_the_task_failed(self):
        rows, serial, client = self.run_fake({1: ["error"], 3: ["lost"] * 10})
        self.assertEqual([r["status"] for r in rows], ["ok", "failed", "ok", "failed", "ok"])
        self.assertEqual(rows[1]["error"], "RuntimeError: the task failed")
        self.assertEqual(rows[3]["error"],
                         "lost: the run's result was lost with a Dask worker 4 times (its future lost)")
        self.assertTrue(math.isnan(rows[3]["peak"]))
        self.assertEqual(client.submitted.count(3), 1 + studies.LOST_RUNS_RESUBMITTED)
        self.assertEqual(client.submitted.count(1), 1, "a failed task is not submitted again")
        for k in (0, 2, 4):
            self.assertEqual(json.dumps(rows[k]), json.dumps(serial[k]))


if __name__ == "__main__":
    unittest.main()
