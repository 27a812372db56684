"""Tests of the package with the cablefmu command and no Go: export, a
study's scenario anywhere on disk exported once for this platform (again
only when its files or the command's engines change), ``study run DIR``,
and ``cablefmu run`` against the FMU driven from Python.

    HOIST_FMU=out/Hoist.fmu /usr/bin/python3 -m unittest discover -s examples/clients/python/tests

The command is the one scripts/dist.sh ships in the package (or CABLEFMU,
or the PATH's).
"""
import csv
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)
REPO = os.path.abspath(os.path.join(PKG, "..", "..", ".."))
sys.path.insert(0, PKG)
import cablefmu  # noqa: E402
from cablefmu import command, study as studies  # noqa: E402

IN_CI = os.environ.get("CI", "").strip().lower() == "true"


def need_command():
    try:
        return command.command()
    except command.CommandError as e:
        if IN_CI:
            raise AssertionError(str(e))
        raise unittest.SkipTest(str(e))


def binaries(path):
    with zipfile.ZipFile(path) as z:
        return sorted(n for n in z.namelist() if n.startswith("binaries/"))


class TestExport(unittest.TestCase):
    def setUp(self):
        need_command()
        self.tmp = tempfile.mkdtemp(prefix="cablefmu-export-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_export_is_the_command_s_bytes(self):
        """cablefmu.export writes the FMU the command writes (HOIST_FMU, made
        by the command in the test suite), and with platforms only theirs."""
        out = cablefmu.export(os.path.join(REPO, "examples", "massless"), os.path.join(self.tmp, "Hoist.fmu"))
        ref = os.environ.get("HOIST_FMU")
        if ref:
            with open(out, "rb") as a, open(ref, "rb") as b:
                self.assertEqual(a.read(), b.read(), "cablefmu.export differs from %s" % ref)
        self.assertEqual(binaries(out), ["binaries/linux64/Hoist.so", "binaries/win64/Hoist.dll"])
        out3 = cablefmu.export(os.path.join(REPO, "examples", "massless"), os.path.join(self.tmp, "Hoist3.fmu"), fmi=3,
                               platforms=["linux64"])
        self.assertEqual(binaries(out3), ["binaries/x86_64-linux/Hoist.so"])

    def test_refusal_is_one_line_at_the_place(self):
        scen = os.path.join(self.tmp, "typo")
        shutil.copytree(os.path.join(REPO, "examples", "massless"), scen)
        path = os.path.join(scen, "scenario.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('"length0"', '"lenght0"', 1))
        with self.assertRaises(cablefmu.CommandError) as cm:
            cablefmu.export(scen, os.path.join(self.tmp, "x.fmu"))
        msg = str(cm.exception)
        self.assertNotIn("\n", msg)
        self.assertRegex(msg, r'scenario\.json:\d+:\d+: .*unknown key "cables\[0\]\.lenght0" \(did you mean "length0"\?\)')

    def test_missing_command_says_how_to_get_it(self):
        with mock.patch.dict(os.environ, {"CABLEFMU": "", "PATH": self.tmp}), \
                mock.patch.object(command, "__file__", os.path.join(self.tmp, "command.py")):
            with self.assertRaises(cablefmu.CommandError) as cm:
                command.command()
        self.assertIn("scripts/dist.sh", str(cm.exception))


class TestEntryPointInTheCommandsPlace(unittest.TestCase):
    def test_no_recursion(self):
        """A cablefmu on the PATH that runs this package's entry point (as
        pip's launcher on Windows does) is found in the command's place; the
        entry point, called back, says so instead of calling itself."""
        tmp = tempfile.mkdtemp(prefix="cablefmu-launcher-")
        self.addCleanup(shutil.rmtree, tmp, True)
        launcher = os.path.join(tmp, "cablefmu")
        with open(launcher, "w") as f:
            f.write('#!/bin/sh\nPYTHONPATH=%s exec %s -m cablefmu "$@"\n' % (PKG, sys.executable))
        os.chmod(launcher, 0o755)
        with mock.patch.dict(os.environ, {"CABLEFMU": "", "PATH": tmp + os.pathsep + os.environ.get("PATH", "")}), \
                mock.patch.object(command, "__file__", os.path.join(tmp, "command.py")):
            self.assertEqual(command.command(), launcher)
            with self.assertRaises(cablefmu.CommandError) as cm:
                command.version()
        self.assertIn("is this Python package's entry point, not the command", str(cm.exception))


STUDY = {
    "name": "outside",
    "scenario": "hoist-wind",
    "stop_time": 2,
    "step": 0.05,
    "vary": {"load.mass": {"values": [1000, 2000]}},
    "inputs": {"wind.speed": {"profile": "constant", "value": 5}},
    "outputs": ["cable.tension"],
    "reductions": {"peak": {"of": "cable.tension", "op": "max"}},
}


class TestStudyScenarioAnywhere(unittest.TestCase):
    """A study whose scenario lies outside the repository is exported once
    by the command, for this platform, and again only when the scenario or
    the command's engines change."""

    def setUp(self):
        self.cmd = need_command()
        self.tmp = tempfile.mkdtemp(prefix="cablefmu-outside-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        shutil.copytree(os.path.join(REPO, "examples", "studies", "payload-sweep", "hoist-wind"),
                        os.path.join(self.tmp, "hoist-wind"))
        self.study_file = os.path.join(self.tmp, "study.json")
        with open(self.study_file, "w") as f:
            json.dump(STUDY, f)

    def run_study(self, out):
        s = studies.Study.from_file(self.study_file)
        path, rows = studies.run(s, os.path.join(self.tmp, out), serial=True, progress=False)
        self.assertEqual([r["status"] for r in rows], ["ok", "ok"], rows)
        return rows

    def fmus(self):
        """The study's exported FMUs: out/fmus/KEY/HoistWind.fmu."""
        root = os.path.join(self.tmp, "out", "fmus")
        return sorted(os.path.join(root, k, "HoistWind.fmu") for k in os.listdir(root)) if os.path.isdir(root) else []

    def test_exported_once_and_again_on_change(self):
        rows = self.run_study("a")
        first = self.fmus()
        self.assertEqual(len(first), 1)
        self.assertEqual(binaries(first[0]), ["binaries/linux64/HoistWind.so"])
        stamp = os.stat(first[0]).st_mtime_ns
        self.assertEqual(self.run_study("b"), rows)
        self.assertEqual(self.fmus(), first)
        self.assertEqual(os.stat(first[0]).st_mtime_ns, stamp, "the FMU was exported again with nothing changed")
        # A changed plugin: exported again, beside the first.
        wind = os.path.join(self.tmp, "hoist-wind", "wind.py")
        with open(wind, "a") as f:
            f.write("\n# edited\n")
        self.run_study("c")
        second = self.fmus()
        self.assertEqual(len(second), 2, "an edited plugin did not export the FMU again")
        # Another command (its version line or its own bytes): exported again.
        other = os.path.join(self.tmp, "other-cablefmu")
        with open(other, "w") as f:
            f.write('#!/bin/sh\nif [ "$1" = --version ]; then echo "cablefmu 0.1.0 (other engines)"; exit 0; fi\n'
                    'exec "%s" "$@"\n' % self.cmd)
        os.chmod(other, os.stat(other).st_mode | stat.S_IXUSR)
        with mock.patch.dict(os.environ, {"CABLEFMU": other}):
            self.run_study("d")
        self.assertEqual(len(self.fmus()), 3, "another command did not export the FMU again")

    def test_plugin_behind_a_link_and_outputs_beside(self):
        """The key follows what the export reads: a plugin in a linked folder
        edited exports again; the study's own outputs beside the scenario
        (scenario ".") do not."""
        scen = os.path.join(self.tmp, "hoist-wind")
        shared = os.path.join(self.tmp, "shared")
        os.makedirs(shared)
        os.replace(os.path.join(scen, "wind.py"), os.path.join(shared, "wind.py"))
        os.symlink(shared, os.path.join(scen, "lib"))
        path = os.path.join(scen, "scenario.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('"file": "wind.py"', '"file": "lib/wind.py"'))
        spec = dict(STUDY, scenario=".")
        with open(os.path.join(scen, "study.json"), "w") as f:
            json.dump(spec, f)
        s = studies.Study.from_file(os.path.join(scen, "study.json"))
        first = s.fmu_path()
        with open(os.path.join(scen, "out", "unrelated.csv"), "w") as f:
            f.write("a,b\n")
        self.assertEqual(s.fmu_path(), first, "a file under the study's out/ changed the FMU's key")
        with open(os.path.join(shared, "wind.py"), "a") as f:
            f.write("\n# edited\n")
        self.assertNotEqual(s.fmu_path(), first, "a plugin edited behind a link kept the old FMU")

    def test_studies_exporting_at_once(self):
        """Four processes asking for the same study's FMU at once all get it,
        whole."""
        code = ("import sys; sys.path.insert(0, %r); from cablefmu import study; "
                "print(study.Study.from_file(%r).fmu_path())" % (PKG, self.study_file))
        procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(4)]
        paths = set()
        for p in procs:
            out, err = p.communicate(timeout=300)
            self.assertEqual(p.returncode, 0, err)
            paths.add(out.strip())
        self.assertEqual(len(paths), 1)
        self.assertEqual(binaries(paths.pop()), ["binaries/linux64/HoistWind.so"])
        self.assertFalse([n for n in os.listdir(os.path.dirname(self.fmus()[0])) if n.endswith(".tmp")])

    def test_series_headed_with_units(self):
        """A study's kept series name each column with its unit, the inputs
        as applied too."""
        s = studies.Study.from_file(self.study_file)
        studies.run(s, os.path.join(self.tmp, "series"), serial=True, series=True, progress=False)
        with open(os.path.join(self.tmp, "series", "series", "000000.csv"), newline="") as f:
            header = next(csv.reader(f))
        self.assertEqual(header, ["time (s)", "cable.tension (N)", "wind.speed (m/s)"])

    def test_study_run_takes_a_folder(self):
        env = dict(os.environ, PYTHONPATH=PKG)
        p = subprocess.run([sys.executable, "-m", "cablefmu", "study", "run", self.tmp, "--serial", "--quiet"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("2 runs: 2 ok, 0 failed", p.stdout)
        p = subprocess.run([sys.executable, "-m", "cablefmu", "study", "run", os.path.join(self.tmp, "hoist-wind"),
                            "--serial"], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 2)
        self.assertIn("is a folder without study.json or study.toml", p.stderr)

    def test_other_verbs_go_to_the_command(self):
        env = dict(os.environ, PYTHONPATH=PKG)
        p = subprocess.run([sys.executable, "-m", "cablefmu", "models"], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("rigid-cable", p.stdout)


class TestRunMatchesTheFMU(unittest.TestCase):
    def test_same_outputs_at_the_same_times(self):
        """cablefmu run of the Hoist example with a table of inputs gives, at
        every communication point, the outputs simulate() reads from the FMU
        (HOIST_FMU) driven with the same table: the same numbers."""
        cmd = need_command()
        ref = os.environ.get("HOIST_FMU")
        if not ref:
            if IN_CI:
                raise AssertionError("HOIST_FMU not set")
            raise unittest.SkipTest("set HOIST_FMU")
        tmp = tempfile.mkdtemp(prefix="cablefmu-run-")
        self.addCleanup(shutil.rmtree, tmp, True)
        # The trolley move of hoist_cosim.py, sampled, and a winch cycle.
        sys.path.insert(0, PKG)
        import hoist_cosim as cosim
        profile = cosim.TrapezoidProfile()
        times = [0.1 * k for k in range(201)]
        table = {"suspension.x": [profile(t)[0] for t in times], "suspension.vx": [profile(t)[1] for t in times],
                 "winch.speed": [cosim.winch_speed(t) for t in times]}
        path = os.path.join(tmp, "inputs.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["time"] + list(table))
            for k, t in enumerate(times):
                w.writerow([repr(t)] + [repr(table[n][k]) for n in table])
        out = os.path.join(tmp, "run.csv")
        p = subprocess.run([cmd, "run", os.path.join(REPO, "examples", "massless"), "-stop", "20", "-step", "0.05",
                            "-inputs", path, "-csv", out], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            rows = list(csv.reader(f))
        header = [h.rsplit(" (", 1)[0] for h in rows[0]]  # "cable.tension (N)"
        rows = [[float(x) for x in r] for r in rows[1:]]
        inputs = {n: cablefmu.Table(times, v) for n, v in table.items()}
        r = cablefmu.simulate(ref, inputs=inputs, stop_time=20, step=0.05)
        self.assertEqual(len(rows), len(r["time"]))
        outputs = [n for n in r if n != "time"]
        for n in ["time"] + outputs:
            col = [row[header.index(n)] for row in rows]
            self.assertEqual(col, r[n], "%s differs between cablefmu run and the FMU" % n)


if __name__ == "__main__":
    unittest.main()
