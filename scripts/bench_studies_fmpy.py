"""Runs per second of the payload-sweep example study written with FMPy and
FMPy's own Dask pattern, on the same HoistWind FMU: what a study costs done
the field's way, beside cablefmu's modes (scripts/bench_studies.py prints
both in one table).

FMPy's pattern is its parameter-variation example
(src/fmpy/examples/parameter_variation.py): the runs go into the chunks of
a dask.bag computed on Dask's multiprocessing scheduler; each chunk makes
one FMU2Slave, and each run resets it, sets the parameters, initializes
and steps with setReal/doStep/getReal. The runs here are the study's own:
its cases, input profiles and reductions come from cablefmu.study, and the
communication points are cablefmu's, so the rows can be checked against
the cablefmu study's table (they are equal bit for bit).

FMPy is no dependency of cablefmu, nor of its tests: get its source and
name its folder with --fmpy (or put it on PYTHONPATH):

    git clone https://github.com/CATIA-Systems/FMPy /tmp/fmpy
    /usr/bin/python3 scripts/bench_studies_fmpy.py --fmpy /tmp/fmpy

It imports lxml, numpy and attrs (Debian: python3-lxml python3-numpy
python3-attr) and dask.bag (python3-dask).
"""
import argparse
import contextlib
import io
import os
import shutil
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(REPO, "examples", "clients", "python")
STUDY = os.path.join(REPO, "examples", "studies", "payload-sweep", "study.json")
if PKG not in sys.path:
    sys.path.insert(0, PKG)

HOW = ("FMPy is not found; it is no dependency of cablefmu. Get its source and name its folder:\n"
       "    git clone https://github.com/CATIA-Systems/FMPy /tmp/fmpy\n"
       "    /usr/bin/python3 scripts/bench_studies_fmpy.py --fmpy /tmp/fmpy\n"
       "(or PYTHONPATH=/tmp/fmpy/src). FMPy imports lxml, numpy and attrs: "
       "apt-get install python3-lxml python3-numpy python3-attr")


class Missing(Exception):
    """FMPy, or what it imports, cannot be imported: the text says how to get it."""


def use_fmpy(path=None):
    """Make FMPy importable here and in Dask's worker processes, from path
    (its source tree, or the folder holding the fmpy package) or as
    installed; returns the folder it is imported from. Raises Missing."""
    if path:
        path = os.path.abspath(path)
        for folder in (os.path.join(path, "src"), path):
            if os.path.isfile(os.path.join(folder, "fmpy", "__init__.py")):
                break
        else:
            raise Missing("--fmpy %s: no fmpy package there (nor in its src folder)\n%s" % (path, HOW))
        sys.path.insert(0, folder)
    try:
        # FMPy says on import that its logger proxy (a binary of its own
        # builds, absent from the source) is missing: not needed here.
        with contextlib.redirect_stdout(io.StringIO()):
            import fmpy  # noqa: F401
            import fmpy.fmi2  # noqa: F401
            from dask import bag  # noqa: F401
    except ImportError as e:
        raise Missing("%s: %s\n%s" % (type(e).__name__, e, HOW))
    folder = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["fmpy"].__file__)))
    # Dask's worker processes are started afresh: they find FMPy, cablefmu
    # and this script by the same path.
    here = os.path.dirname(os.path.abspath(__file__))
    extra = [folder, PKG, here]
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(extra + ([old] if old else []))
    return folder


def simulate_chunk(chunk, fmu_args, spec, base, vrs, params, inputs, outputs):
    """One chunk of runs in one FMU2Slave, reset between runs, as FMPy's
    parameter-variation example does; returns (run, row) pairs."""
    import math
    with contextlib.redirect_stdout(io.StringIO()):
        import fmpy
        from fmpy.fmi2 import FMU2Slave
    from cablefmu import study as studies

    param_vrs = [vrs[n] for n in params]
    input_vrs = [vrs[n] for n in inputs]
    output_vrs = [vrs[n] for n in outputs]
    stop, step = float(spec["stop_time"]), float(spec["step"])
    steps = int(math.ceil(stop / step - 1e-9))
    fmu = FMU2Slave(**fmu_args)
    fmu.instantiate()
    rows = []
    for k, case in chunk:
        signals, times = studies._inputs(spec, case, base, step)
        funcs = [signals[n] if callable(signals[n]) else (lambda t, v=signals[n]: v) for n in inputs]
        fmu.reset()
        fmu.setupExperiment(startTime=0.0)
        fmu.setReal(param_vrs, [case[n] for n in params])
        fmu.enterInitializationMode()
        fmu.setReal(input_vrs, [f(0.0) for f in funcs])
        fmu.exitInitializationMode()
        ts, got, applied = [0.0], [fmu.getReal(output_vrs)], []
        t = 0.0
        for n in range(steps):
            values = [f(t) for f in funcs]
            fmu.setReal(input_vrs, values)
            applied.append(values)
            fmu.doStep(currentCommunicationPoint=t, communicationStepSize=min(step, stop - t))
            t = (n + 1) * step if n + 1 < steps else stop
            ts.append(t)
            got.append(fmu.getReal(output_vrs))
        applied.append([f(t) for f in funcs])
        series = {"time": ts}
        for i, name in enumerate(outputs):
            series[name] = [g[i] for g in got]
        for i, name in enumerate(inputs):
            series[name] = [a[i] for a in applied]
        if "sway" in spec:
            hx, hz = spec["sway"]["suspension"]
            lx, lz = spec["sway"]["load"]
            series["sway"] = [math.degrees(math.atan2(a - b, c - d)) for a, b, c, d in
                              zip(series[lx], series[hx], series[hz], series[lz])]
        row = {"run": k}
        row.update(case)
        for name, r in spec["reductions"].items():
            row[name] = studies._reduce(name, r, series, times, step)
        row["status"], row["error"] = "ok", ""
        rows.append((k, row))
    fmu.terminate()
    # As the example: free the instance by the C function, then unload the
    # library (a Go runtime stays: its dlclose does nothing).
    fmu.fmi2FreeInstance(fmu.component)
    fmpy.freeLibrary(fmu.dll._handle)
    return rows


def run(study, fmu_path, workers=2, chunks=10):
    """The study's runs with FMPy on Dask's multiprocessing scheduler:
    ``(wall seconds, rows in run order)``, from reading the FMU to the last
    row (the worker processes' start included)."""
    with contextlib.redirect_stdout(io.StringIO()):
        import fmpy
        from dask import bag
    from cablefmu import study as studies
    spec = study.spec
    t0 = time.perf_counter()
    md = fmpy.read_model_description(fmu_path)
    unzipdir = fmpy.extract(fmu_path)
    try:
        vrs = {v.name: v.valueReference for v in md.modelVariables}
        causality = {v.name: v.causality for v in md.modelVariables}
        cases = study.cases()
        params = [n for n in spec.get("vary", {}) if causality.get(n) == "parameter"]
        inputs = list(studies._inputs(spec, cases[0], study.base, spec["step"])[0])
        outputs = list(spec["outputs"])
        fmu_args = {"guid": md.guid, "modelIdentifier": md.coSimulation.modelIdentifier, "unzipDirectory": unzipdir}
        b = bag.from_sequence(list(enumerate(cases)), npartitions=chunks)
        pairs = b.map_partitions(simulate_chunk, fmu_args, spec, study.base, vrs, params, inputs, outputs).compute(
            scheduler="processes", num_workers=workers)
    finally:
        shutil.rmtree(unzipdir, ignore_errors=True)
    rows = [r for _, r in sorted(pairs, key=lambda p: p[0])]
    return time.perf_counter() - t0, rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fmpy", help="FMPy's source tree (or the folder holding the fmpy package); "
                   "default: FMPy as importable (PYTHONPATH)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                   help="Dask worker processes (default: the cores)")
    p.add_argument("--chunks", type=int, default=10, help="chunks of runs, as the example's n_chunks (default 10)")
    p.add_argument("--repeat", type=int, default=3, help="runs of the whole study; the best is shown (default 3)")
    p.add_argument("--stop", type=float, help="stop time of each run (s; default the study's)")
    args = p.parse_args()
    try:
        folder = use_fmpy(args.fmpy)
    except Missing as e:
        print(e, file=sys.stderr)
        return 2
    from cablefmu import study as studies
    s = studies.Study.from_file(STUDY)
    if args.stop:
        s.spec["stop_time"] = args.stop
    fmu_path = s.fmu_path()
    best = min(run(s, fmu_path, args.workers, args.chunks)[0] for _ in range(args.repeat))
    n = len(s.cases())
    print("%d runs of %s with FMPy (%s) on dask.bag, %d chunks, %d workers on %d cores: best of %d %.2f s, "
          "%.1f runs/s" % (n, s.name, folder, args.chunks, args.workers, os.cpu_count(), args.repeat, best, n / best))
    return 0


if __name__ == "__main__":
    sys.exit(main())
