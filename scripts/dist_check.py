#!/usr/bin/env python3
"""The cablefmu command as a user without Go gets it: copies the commands
built by scripts/dist.sh and the scenario folders into an empty folder
outside the checkout, and with a PATH that holds no go and no C compiler
exports every scenario in FMI 2.0 and 3.0 there; checks that each FMU is
byte for byte the in-tree exporter's (go run ./build export, which
compiles the engines from the tree) and the Windows command's under Wine,
as is what cablefmu run writes;
and leaves the FMUs in OUT for the test suites to run on.

    python3 scripts/dist_check.py [--dist out/dist] [--out out] [--no-wine]

Exit status 0 when every FMU matched, 1 otherwise.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Scenario folder -> model identifier, and whether the in-tree exporter's
# FMU is compared (every example; the test scenarios are exported only).
SCENARIOS = [
    ("examples/massless", "Hoist", True),
    ("examples/massless-controlled", "HoistControlled", True),
    ("examples/rigid-cable", "RigidHoist", True),
    ("examples/mass-spring", "MassSpringHoist", True),
    ("examples/spline", "SplineHoist", True),
    ("examples/hmr-wire", "WireBeam", True),
    ("examples/wire-hoist", "WireHoist", True),
    ("examples/gantry-crane", "GantryCrane", True),
    ("examples/boom-crane", "BoomCrane", True),
    ("examples/studies/payload-sweep/hoist-wind", "HoistWind", False),
    ("scripts/fmutest/plugin-faults", "PluginFaults", False),
    ("scripts/fmutest/rigid-long", "RigidHoistLong", False),
]


def fmu_name(identifier, version):
    return identifier + ("3" if version == 3 else "") + ".fmu"


def run(cmd, **kw):
    """Run cmd; its output goes through a file, not a pipe: Wine's helper
    processes inherit the descriptors and would hold a pipe open."""
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, text=True, **kw)
        out.seek(0)
        text = out.read()
    if p.returncode != 0:
        raise SystemExit("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, text))
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", default=os.path.join(ROOT, "out", "dist"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out"))
    ap.add_argument("--no-wine", action="store_true", help="leave out the Windows command")
    args = ap.parse_args()
    linux = os.path.join(args.dist, "linux64", "cablefmu")
    windows = os.path.join(args.dist, "win64", "cablefmu.exe")
    for path in [linux] + ([] if args.no_wine else [windows]):
        if not os.path.isfile(path):
            raise SystemExit("%s is missing: build the commands with bash scripts/dist.sh" % path)
    os.makedirs(args.out, exist_ok=True)
    failures = []
    with tempfile.TemporaryDirectory(prefix="cablefmu-user-") as home:
        if os.path.realpath(home).startswith(os.path.realpath(ROOT) + os.sep):
            raise SystemExit("the temporary folder %s lies inside the checkout: set TMPDIR elsewhere" % home)
        # The user's folder: the commands and copies of the scenarios.
        bindir = os.path.join(home, "bin")
        os.makedirs(bindir)
        shutil.copy2(linux, bindir)
        if not args.no_wine:
            shutil.copy2(windows, bindir)
        for folder, _, _ in SCENARIOS:
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(home, "scenarios", os.path.basename(folder)),
                            ignore=shutil.ignore_patterns("out", "__pycache__"))
        env = {"PATH": bindir, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8"}
        for tool in ("go", "gcc", "cc", "x86_64-w64-mingw32-gcc"):
            if shutil.which(tool, path=env["PATH"]):
                raise SystemExit("the user's PATH %s holds %s" % (env["PATH"], tool))
        print(run(["cablefmu", "--version"], env=env, cwd=home).strip())
        user = os.path.join(home, "fmus")
        os.makedirs(user)
        took = []
        for folder, ident, _ in SCENARIOS:
            for version in (2, 3):
                name = fmu_name(ident, version)
                t0 = time.perf_counter()
                run(["cablefmu", "export", os.path.join("scenarios", os.path.basename(folder)), "-fmi", str(version),
                     "-o", os.path.join(user, name)], env=env, cwd=home)
                took.append(time.perf_counter() - t0)
                shutil.copy2(os.path.join(user, name), os.path.join(args.out, name))
        print("exported %d FMUs without Go, %.2f s each at most" % (len(took), max(took)))

        # A command built by hand over the engines, not by dist.sh, refuses to
        # export: its engines may come from other sources than its code.
        hand = os.path.join(home, "hand-built")
        run(["go", "build", "-tags", "cablefmu_dist", "-o", hand, "./build"], cwd=ROOT)
        p = subprocess.run([hand, "export", os.path.join("scenarios", "massless"), "-o", "hand.fmu"], cwd=home,
                           capture_output=True, text=True)
        if p.returncode == 0 or "not by scripts/dist.sh" not in p.stderr:
            failures.append("a command built by hand exported: %s" % p.stderr.strip())

        tree = os.path.join(home, "tree")
        os.makedirs(tree)
        for folder, ident, compared in SCENARIOS:
            if not compared:
                continue
            for version in (2, 3):
                name = fmu_name(ident, version)
                run(["go", "run", "./build", "export", "-fmi", str(version), "-o", os.path.join(tree, name), folder],
                    cwd=ROOT)
                if not same(os.path.join(tree, name), os.path.join(user, name)):
                    failures.append("%s: the command's FMU differs from the in-tree exporter's" % name)
        print("compared %d FMUs with the in-tree exporter's" % (2 * sum(c for _, _, c in SCENARIOS)))

        if not args.no_wine:
            wine = shutil.which("wine")
            if wine is None:
                raise SystemExit("wine is not installed (bash scripts/setup.sh --test installs it)")
            sys.path.insert(0, os.path.join(ROOT, "scripts", "wine"))
            import prefix as wineprefix
            try:
                wineprefix.make()
            except RuntimeError as e:
                raise SystemExit(str(e))
            wenv = wineprefix.env({"PATH": os.path.dirname(wine), "HOME": home, "LANG": "C.UTF-8"})
            winout = os.path.join(home, "wine")
            os.makedirs(winout)
            # One server for all the runs, once wineboot's has gone.
            run(["wineserver", "-w"], env=wenv)
            run(["wineserver", "-p"], env=wenv)
            for folder, ident, _ in SCENARIOS:
                for version in (2, 3):
                    name = fmu_name(ident, version)
                    run([wine, os.path.join(bindir, "cablefmu.exe"), "export",
                         os.path.join("scenarios", os.path.basename(folder)), "-fmi", str(version),
                         "-o", os.path.join("wine", name)], env=wenv, cwd=home)
                    if not same(os.path.join(winout, name), os.path.join(user, name)):
                        failures.append("%s: cablefmu.exe under Wine wrote other bytes" % name)
            # cablefmu run of the plugin example: the same numbers from
            # both commands.
            scen = os.path.join("scenarios", "massless-controlled")
            run([wine, os.path.join(bindir, "cablefmu.exe"), "run", scen, "-stop", "5", "-csv",
                 os.path.join("wine", "run.csv")], env=wenv, cwd=home)
            run(["cablefmu", "run", scen, "-stop", "5", "-csv", os.path.join("fmus", "run.csv")], env=env, cwd=home)
            if not same(os.path.join(winout, "run.csv"), os.path.join(user, "run.csv")):
                failures.append("cablefmu.exe run under Wine gave other numbers than cablefmu run")
            run(["wineserver", "-k"], env=wenv)
            print("cablefmu.exe under Wine: %d FMUs and a run compared" % (2 * len(SCENARIOS)))
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


def same(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


if __name__ == "__main__":
    sys.exit(main())
