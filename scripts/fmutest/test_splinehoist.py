"""The SplineHoist FMU (quasi-dynamic spline cable) from outside Go, through ctypes, in FMI 2.0 and 3.0.

Run with SPLINEHOIST_FMU=out/SplineHoist.fmu SPLINEHOIST3_FMU=out/SplineHoist3.fmu (built by
'go run ./build -o out/SplineHoist.fmu examples/spline-hoist' and
'go run ./build -fmi 3 -o out/SplineHoist3.fmu examples/spline-hoist').
The checks are those of every cable model with the Hoist ports (fmutestlib.CableHoistChecks); the FMI 3.0
build also runs the common FMU tests of test_fmi3.py.
"""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fmutestlib  # noqa: E402  (puts the cablefmu package on the path)
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

TMP = None
FOLDERS = {}


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("spline-test-", "examples/spline-hoist", "SplineHoist")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def drive(t):
    """The trolley sways, the winch pays out and in, the budget swings (Algorithm 2 has nothing to switch on a
    rope held at one point: it stays dynamic)."""
    return (["hoist.vx", "winch.speed", "cable.budget"],
            [0.4 * math.sin(t), 0.2 * math.cos(0.5 * t), 1e6 * (1 + math.sin(t))])


class Checks(fmutestlib.CableHoistChecks):
    FOLDERS = FOLDERS
    INSTANCE = "spline"
    EXTRA_OUTPUTS = ["cable.static", "cable.cost"]
    FZ_TOLERANCE = 1e-6
    DRIVE = drive


class TestFMI2(Checks, unittest.TestCase):
    VERSION = 2
    FMI = fmi2


class TestFMI3(Checks, unittest.TestCase):
    VERSION = 3
    FMI = fmi3


if __name__ == "__main__":
    unittest.main()
