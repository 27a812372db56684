"""Runs per second of the payload-sweep example study (110 runs of the
HoistWind FMU) in each of cablefmu's modes, beside the same study written
with FMPy and FMPy's own Dask pattern (scripts/bench_studies_fmpy.py):
serially; by default (the study picks by its size: serial, or a run
process per core side by side); on a local Dask cluster the study starts
(--workers); on a LocalCluster started beforehand and reached by its
scheduler's address (as a remote cluster would be); with FMPy on
dask.bag. Each mode runs the whole study --repeat times, the modes taking
turns, and the best is shown: the machine may be busy with other work.

    /usr/bin/python3 scripts/bench_studies.py [--workers 2] [--stop SECONDS] [--repeat 3] [--fmpy PATH]

FMPy is not needed: without it (--fmpy or PYTHONPATH) its row says how to
get it.
"""
import argparse
import io
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "examples", "clients", "python"))
sys.path.insert(0, HERE)
import bench_studies_fmpy as fmpy_study  # noqa: E402
from cablefmu import study as studies  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="worker processes of the Dask modes (default: the cores, as the default mode takes)")
    p.add_argument("--stop", type=float, help="stop time of each run (s; default the study's 60)")
    p.add_argument("--repeat", type=int, default=3, help="runs of the whole study in each mode (default 3)")
    p.add_argument("--fmpy", help="FMPy's source tree for the FMPy row (default: FMPy as importable)")
    args = p.parse_args()
    s = studies.Study.from_file(fmpy_study.STUDY)
    if args.stop:
        s.spec["stop_time"] = args.stop
    try:
        fmpy_folder, why_not = fmpy_study.use_fmpy(args.fmpy), None
    except fmpy_study.Missing as e:
        fmpy_folder, why_not = None, "%s (scripts/bench_studies_fmpy.py says how to get it)" % str(e).splitlines()[0]
    tmp = tempfile.mkdtemp(prefix="bench-studies-")
    try:
        studies.run(s, os.path.join(tmp, "warm"), serial=True, progress=False, limit=2)  # build, unpack, warm
        fmu_path = s.fmu_path()
        runs = len(s.cases())
        walls, rows, picked = {}, {}, set()

        def timed(name, **kw):
            out = os.path.join(tmp, name)
            shutil.rmtree(out, ignore_errors=True)
            said = io.StringIO()
            t0 = time.perf_counter()
            _, rows[name] = studies.run(s, out, progress=True, stream=said, **kw)
            walls.setdefault(name, []).append(time.perf_counter() - t0)
            for line in said.getvalue().split("\n"):
                if line.startswith("serial:"):
                    picked.add("serial")
                elif "side by side:" in line:
                    picked.add("side by side")

        from distributed import LocalCluster
        modes = ["serial", "default (%s)", "local Dask cluster", "Dask cluster by address", "FMPy + dask.bag"]
        for _ in range(args.repeat):
            timed(modes[0], serial=True)
            timed(modes[1])
            timed(modes[2], workers=args.workers)
            with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as c:
                timed(modes[3], scheduler=c.scheduler_address)
            if fmpy_folder:
                wall, rows[modes[4]] = fmpy_study.run(s, fmu_path, args.workers)
                walls.setdefault(modes[4], []).append(wall)
        serial = min(walls[modes[0]])
        print("%d runs of %s (stop_time %g s), %d workers on %d cores; best of %d, the modes taking turns"
              % (runs, s.name, s.spec["stop_time"], args.workers, os.cpu_count(), args.repeat))
        print("%-32s %10s %10s %10s" % ("mode", "wall (s)", "runs/s", "vs serial"))
        for name in modes:
            label = name % "/".join(sorted(picked)) if "%s" in name else name
            if name not in walls:
                print("%-32s %s" % (label, "not run: " + why_not))
                continue
            wall = min(walls[name])
            print("%-32s %10.2f %10.1f %10.2f" % (label, wall, runs / wall, serial / wall))
        print("a run serially: %.1f ms, the study's overheads included" % (1e3 * serial / runs))
        if modes[4] in rows:
            keys = [k for k in rows[modes[0]][0] if k != "error"]
            same = [[r[k] for k in keys] for r in rows[modes[4]]] == [[r[k] for k in keys] for r in rows[modes[0]]]
            version = getattr(sys.modules.get("fmpy"), "__version__", "?")
            print("FMPy %s's rows %s cablefmu's" % (version, "equal" if same else "DIFFER from"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
