"""Command line: ``python3 -m cablefmu study run STUDY`` and ``study plot
STUDY`` (STUDY a study file, or a folder holding study.json), ``system pack
FOLDER`` and ``system run PACKAGE.ssp`` (cablefmu.system); every other
verb (export, check, models, schema, run, info) goes to the cablefmu
command, which the package finds as cablefmu.command says."""

import argparse
import os
import sys

from .sim import FMUError
from .study import MAX_RUNS, RUN_TIMEOUT, Study, StudyError, report, run, table


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "system":
        from .system import main as system_main
        return system_main(argv[1:])
    if argv and argv[0] not in ("study", "-h", "--help"):
        from .command import main as command_main
        return command_main(argv)
    p = argparse.ArgumentParser(prog="python3 -m cablefmu", description="Run and plot studies of cablefmu FMUs.",
                                epilog="The other verbs (export, check, models, schema, run, info; --version) go to "
                                       "the cablefmu command: python3 -m cablefmu export --help.")
    sub = p.add_subparsers(dest="command", required=True)
    study = sub.add_parser("study", help="parameter sweeps and load cases")
    verbs = study.add_subparsers(dest="verb", required=True)
    r = verbs.add_parser("run", help="run the study's missing runs and write its result table")
    r.add_argument("study", help="the study file (JSON, or TOML with Python 3.11), or a folder holding study.json")
    r.add_argument("--out", help="output folder (default: out/NAME next to the study file)")
    where = r.add_mutually_exclusive_group()
    where.add_argument("--serial", action="store_true", help="run one run after the other (default: so while "
                       "the runs left are too few to pay for starting more run processes, else one per core)")
    where.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://host:8786")
    r.add_argument("--workers", type=int, help="run on a local Dask cluster of this many worker processes")
    r.add_argument("--series", action="store_true", help="keep each run's time series (OUT/series/ID.csv)")
    r.add_argument("--limit", type=int, help="run at most this many of the missing runs")
    r.add_argument("--max-runs", type=int, help="refuse a study of more runs than this (default: the study's "
                   "max_runs, else %d)" % MAX_RUNS)
    r.add_argument("--run-timeout", type=float, metavar="SECONDS", help="stop a run after this long and record it "
                   "as failed (default: the study's run_timeout, else %g)" % RUN_TIMEOUT)
    r.add_argument("--retry-failed", action="store_true", help="run the failed runs again")
    r.add_argument("--fresh", action="store_true",
                   help="forget the runs in the output folder (only a folder marked as this study file's)")
    r.add_argument("--quiet", action="store_true", help="no progress line")
    pl = verbs.add_parser("plot", help="draw the summary plots of a study's results as PNG")
    pl.add_argument("study", help="the study file, or a folder holding study.json")
    pl.add_argument("--out", help="the study's output folder (default: out/NAME next to the study file)")
    pl.add_argument("--max-runs", type=int, help="as for study run")
    args = p.parse_args(argv)
    try:
        s = Study.from_file(_study_file(args.study))
        out = args.out or os.path.join(s.base, "out", s.name)
        if args.verb == "run":
            path, rows = run(s, out, scheduler=args.scheduler, workers=args.workers, serial=args.serial,
                             series=args.series, limit=args.limit, progress=not args.quiet,
                             retry_failed=args.retry_failed, fresh=args.fresh, max_runs=args.max_runs,
                             run_timeout=args.run_timeout)
            print("wrote %s" % path)
            for line in report(s, rows):
                print(line)
            if any(r.get("status") != "ok" for r in rows):
                # The study went on past them, and the table holds them; a
                # batch script or CI tells such a study from a clean one.
                return 1
        else:
            from .plot import plot
            _, rows = table(out, s, args.max_runs)
            for path in plot(s, rows, out):
                print("wrote %s" % path)
    except StudyError as e:
        print("study: %s" % " ".join(str(e).split()), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nstudy: stopped; the finished runs are kept, run it again to go on", file=sys.stderr)
        return 130
    except (OSError, ValueError, TypeError, KeyError, RuntimeError, ImportError, FMUError) as e:
        print("study: %s: %s" % (type(e).__name__, " ".join(str(e).split())), file=sys.stderr)
        return 2
    return 0


def _study_file(path):
    """The study file a command line names: the file, or study.json (else
    study.toml) in the folder."""
    if not os.path.isdir(path):
        return path
    for name in ("study.json", "study.toml"):
        if os.path.isfile(os.path.join(path, name)):
            return os.path.join(path, name)
    raise StudyError("%s is a folder without study.json or study.toml" % path)


if __name__ == "__main__":
    sys.exit(main())
