"""Runs per second of the payload-sweep example study (110 runs of the
HoistWind FMU): serially, in local worker processes (the default: a Dask
LocalCluster the study starts) and on a LocalCluster started beforehand and
reached by its scheduler's address (as a remote cluster would be), with the
overhead per run of Dask against the simulation time of a run.

    /usr/bin/python3 scripts/bench_studies.py [--workers 2] [--stop SECONDS]
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "examples", "clients", "python"))
from cablefmu import study as studies  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--stop", type=float, help="stop time of each run (s; default the study's 40)")
    args = p.parse_args()
    s = studies.Study.from_file(os.path.join(REPO, "examples", "studies", "payload-sweep", "study.json"))
    if args.stop:
        s.spec["stop_time"] = args.stop
    tmp = tempfile.mkdtemp(prefix="bench-studies-")
    try:
        studies.run(s, os.path.join(tmp, "warm"), serial=True, progress=False, limit=2)  # build, unpack, warm
        runs = len(s.cases())
        rows = []

        def timed(name, **kw):
            t0 = time.perf_counter()
            studies.run(s, os.path.join(tmp, name), progress=False, **kw)
            wall = time.perf_counter() - t0
            rows.append((name, wall, runs / wall))
            return wall

        serial = timed("serial", serial=True)
        timed("local processes", workers=args.workers)
        from distributed import LocalCluster
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None) as c:
            timed("LocalCluster by address", scheduler=c.scheduler_address)
        per_run = serial / runs
        print("%d runs of %s, %d workers on %d cores" % (runs, s.name, args.workers, os.cpu_count()))
        print("%-26s %10s %10s %8s %26s" % ("mode", "wall (s)", "runs/s", "speedup", "Dask overhead per run (ms)"))
        for name, wall, rate in rows:
            over = "" if name == "serial" else "%.1f" % (1e3 * (wall * args.workers / runs - per_run))
            print("%-26s %10.2f %10.1f %8.2f %26s" % (name, wall, rate, serial / wall, over))
        print("simulation time of a run: %.1f ms" % (1e3 * per_run))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
