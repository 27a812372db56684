"""The FMUs' Windows binaries, run under Wine, against their Linux binaries.

The C masters (examples/clients/c/fmi2_master.c for FMI 2.0, fmi3_master.c for 3.0)
are built twice, with gcc and with mingw-w64, and run on the same unpacked
multi-platform FMU (Hoist and RigidHoist, both standards): on Linux, and the
.exe under Wine on the FMU's win64 / x86_64-windows DLL. Each run checks the
lifecycle, a wrong GUID/token and a zero step size refused with a message,
unloading and loading the library again, two instances on two threads; and
writes a 30 s trolley move, whose outputs on Windows must equal the Linux
run's within 1e-9 relative (they are expected to be bitwise equal: the same
Go code compiled for x86-64 without fused multiply-add and without the C
library's mathematics; only the masters' own cos and sin of the trolley
profile come from two C libraries).

The FMU folder's path holds a space, so the resource URI the FMI 2.0 master
passes (file:///Z:/.../with%20space/resources) is percent-encoded, and the
FMI 3.0 master passes a Windows path.

Wine runs in its own prefix (out/wine-prefix), made on the first run.
Debian's Wine 8.0 lacks bcryptprimitives.dll, which the Go runtime loads at
start; the prefix gets the stand-in built from scripts/wine/
bcryptprimitives.c (Windows 10 and 11 have the real one; the FMU does not
ship it). Without mingw-w64 or Wine the tests are skipped with the reason,
except under CI=true, where the setup script has installed both.
"""

import csv
import math
import os
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fmutestlib import REPO  # noqa: E402
import fmutestlib  # noqa: E402
from cablefmu import fmi2  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "scripts", "wine"))
import prefix as wineprefix  # noqa: E402

MINGW = "x86_64-w64-mingw32-gcc"
CLIENTS = os.path.join(REPO, "examples", "clients", "c")
RELATIVE = 1e-9

TMP = None
TOOLS = {}


def setUpModule():
    global TMP
    TMP = fmutestlib.make_tmp("platforms-fmutest-")


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def wine_env():
    return wineprefix.env()


def tools():
    """The compilers and Wine, the masters built, the prefix made (once:
    TOOLS is filled only when all of it succeeded)."""
    if TOOLS:
        return TOOLS
    missing = [t for t in ("gcc", MINGW) if not shutil.which(t)]
    wine = shutil.which("wine") or shutil.which("wine64")
    if not wine:
        missing.append("wine")
    if missing:
        return {"skip": "not installed: %s (bash scripts/setup.sh --test installs them)" % ", ".join(missing)}
    found = {"wine": wine}
    build = os.path.join(TMP, "masters")
    os.makedirs(build, exist_ok=True)
    for name in ("fmi2_master", "fmi3_master"):
        src = os.path.join(CLIENTS, name + ".c")
        for cc, exe, libs in (("gcc", name, ["-ldl", "-lpthread", "-lm"]), (MINGW, name + ".exe", [])):
            out = os.path.join(build, exe)
            p = subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-o", out, src] + libs,
                               capture_output=True, text=True, timeout=300)
            if p.returncode != 0 or p.stderr.strip():
                raise AssertionError("%s %s:\n%s" % (cc, src, p.stderr))
            found[exe] = out
    try:
        wineprefix.make()
    except RuntimeError as e:
        raise AssertionError(str(e))
    TOOLS.update(found)
    return TOOLS


def read_trace(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in r] for r in rows[1:]]


class WindowsUnderWine(unittest.TestCase):

    def setUp(self):
        t = tools()
        if "skip" in t:
            if os.environ.get("CI"):
                self.fail("CI=true but " + t["skip"])
            self.skipTest(t["skip"])

    def compare(self, fmu_env, master):
        path = os.environ.get(fmu_env)
        if not path:
            self.skipTest("%s not set (scripts/test.sh builds the FMUs)" % fmu_env)
        name = os.path.splitext(os.path.basename(path))[0]
        # Relative paths from TMP: Wine maps the current folder to Z:\...
        folder = name + " unpacked"
        fmi2.unzip(path, os.path.join(TMP, folder))
        t = tools()
        runs = {}
        for platform, cmd, env in (
                ("linux", [t[master]], None),
                ("windows", [t["wine"], t[master + ".exe"]], wine_env())):
            trace = "%s-%s.csv" % (name, platform)
            t0 = time.monotonic()
            p = subprocess.run(cmd + [folder, "2", "--trace", trace], env=env, cwd=TMP, capture_output=True,
                               text=True, timeout=600)
            took = time.monotonic() - t0
            self.assertEqual(p.returncode, 0, "%s %s: exit code %d\nstdout:\n%s\nstderr:\n%s"
                             % (name, platform, p.returncode, p.stdout[-4000:], p.stderr[-4000:]))
            self.assertIn("PASS", p.stdout)
            for want in ("is refused with a message", "returned fmi", "two instances on two threads",
                         "reloading after unloading", "trolley moved 4 m in 30 s"):
                self.assertIn(want, p.stdout, "%s %s" % (name, platform))
            runs[platform] = read_trace(os.path.join(TMP, trace))
            sys.stderr.write("\n  %s on %s: %.1f s" % (name, platform, took))
        (h1, linux), (h2, windows) = runs["linux"], runs["windows"]
        self.assertEqual(h1, h2)
        self.assertEqual(len(linux), 3000)
        self.assertEqual(len(windows), len(linux))
        for rows, platform in ((linux, "Linux"), (windows, "Windows")):
            bad = [r for r in rows if not all(math.isfinite(x) for x in r)]
            self.assertFalse(bad, "%s on %s: non-finite outputs, first at t = %s" % (name, platform, bad[:1]))
        differing = 0
        for c, col in enumerate(h1):
            scale = max(abs(r[c]) for r in linux) or 1.0
            worst = max(abs(a[c] - b[c]) for a, b in zip(linux, windows))
            differing += sum(a[c] != b[c] for a, b in zip(linux, windows))
            self.assertLessEqual(worst, RELATIVE * scale, "%s: %s differs by %g on Windows" % (name, col, worst))
        sys.stderr.write("\n  %s: Windows and Linux traces %s\n" % (
            name, "bitwise equal" if differing == 0 else "differ in %d values, within %g" % (differing, RELATIVE)))

    def test_hoist_fmi2(self):
        self.compare("HOIST_FMU", "fmi2_master")

    def test_rigidhoist_fmi2(self):
        self.compare("RIGIDHOIST_FMU", "fmi2_master")

    def test_hoist_fmi3(self):
        self.compare("HOIST3_FMU", "fmi3_master")

    def test_rigidhoist_fmi3(self):
        self.compare("RIGIDHOIST3_FMU", "fmi3_master")


if __name__ == "__main__":
    unittest.main()
