"""The MassSpringHoist FMU (mass-spring cable) from outside Go, through ctypes, in FMI 2.0 and 3.0.

Run with MASSSPRINGHOIST_FMU=out/MassSpringHoist.fmu MASSSPRINGHOIST3_FMU=out/MassSpringHoist3.fmu (built by
'go run ./build -o out/MassSpringHoist.fmu examples/mass-spring-hoist' and
'go run ./build -fmi 3 -o out/MassSpringHoist3.fmu examples/mass-spring-hoist').
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
    TMP, folders = fmutestlib.unpack_standards("massspring-test-", "examples/mass-spring-hoist", "MassSpringHoist")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def drive(t):
    """The trolley sways, the winch pays out and in."""
    return ["hoist.vx", "winch.speed"], [0.4 * math.sin(t), 0.2 * math.cos(0.5 * t)]


class Checks(fmutestlib.CableHoistChecks):
    FOLDERS = FOLDERS
    INSTANCE = "ms"
    EXTRA_OUTPUTS = ["cable.iterations"]
    FZ_TOLERANCE = 1e-3
    DRIVE = drive


class TestFMI2(Checks, unittest.TestCase):
    VERSION = 2
    FMI = fmi2


class TestFMI3(Checks, unittest.TestCase):
    VERSION = 3
    FMI = fmi3


if __name__ == "__main__":
    unittest.main()
