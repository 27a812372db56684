"""cablefmu: run cablefmu's co-simulation FMUs (FMI 2.0 and 3.0) from Python, and
studies of them (parameter sweeps and load cases) locally or on a Dask cluster.

    import cablefmu
    cablefmu.export("examples/massless", "out/Hoist.fmu")  # the cablefmu command, no Go
    fmu = cablefmu.load("out/Hoist.fmu")
    r = cablefmu.simulate(fmu, inputs={"suspension.x": lambda t: min(t, 2.0)}, stop_time=30)
    print(max(r["cable.tension"]))

The core needs the standard library only; NumPy/pandas are used when
installed (Result.to_numpy, Result.to_pandas), Dask for studies
(cablefmu.study), Matplotlib for their plots. Systems of FMUs from SSP
packages run with cablefmu.system. The ctypes bindings are the modules
cablefmu.fmi2 and cablefmu.fmi3.
"""

from .command import CommandError, export
from .sim import FMU, MAX_STEPS, FMUError, Result, Table, load, simulate

__all__ = ["CommandError", "FMU", "FMUError", "MAX_STEPS", "Result", "Table", "export", "load", "simulate"]
__version__ = "0.1.0"
