"""The Wine prefix the tests run Windows programs in (out/wine-prefix),
made on first use: wineboot -i, then the stand-in bcryptprimitives.dll
built from bcryptprimitives.c beside this file (Debian's Wine 8.0 lacks
the DLL, from which the Go runtime takes its random numbers; Windows 10
and 11 have the real one, and no FMU ships it)."""

import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PREFIX = os.path.join(REPO, "out", "wine-prefix")
MINGW = "x86_64-w64-mingw32-gcc"


def env(base=None):
    """The environment to run wine with in the prefix."""
    e = dict(os.environ if base is None else base, WINEPREFIX=PREFIX, WINEDEBUG="-all",
             WINEDLLOVERRIDES="mscoree,mshtml=")
    e.pop("DISPLAY", None)
    return e


def make():
    """Make the prefix and put the stand-in DLL into it; raises
    RuntimeError with the reason when that fails."""
    os.makedirs(os.path.dirname(PREFIX), exist_ok=True)
    system32 = os.path.join(PREFIX, "drive_c", "windows", "system32")
    if not os.path.isdir(system32):
        t0 = time.monotonic()
        p = subprocess.run([shutil.which("wineboot") or "wineboot", "-i"], env=env(), stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
        sys.stderr.write("\n  first Wine start (wineboot -i) took %.1f s\n" % (time.monotonic() - t0))
        if not os.path.isdir(system32):
            raise RuntimeError("wineboot made no prefix (exit status %d)" % p.returncode)
    dll = os.path.join(system32, "bcryptprimitives.dll")
    p = subprocess.run([MINGW, "-shared", "-O2", "-Wall", "-o", dll, os.path.join(HERE, "bcryptprimitives.c"),
                        "-ladvapi32"], capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("building the stand-in bcryptprimitives.dll:\n%s" % p.stderr)
