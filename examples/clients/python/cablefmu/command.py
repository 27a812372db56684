"""The cablefmu command from Python: :func:`export` a scenario folder as an
FMU, with no Go toolchain.

The command (built by ``bash scripts/dist.sh``) carries the engine
libraries of Linux and Windows and exports in a fraction of a second. It is
found, in this order: the ``CABLEFMU`` environment variable (the command's
path); the copy shipped in this package for the platform
(``cablefmu/bin/linux64/cablefmu``, ``cablefmu/bin/win64/cablefmu.exe``);
the first ``cablefmu`` executable on the PATH that is not a Python script
(this package's entry point has the same name). Where that finds the
entry point all the same (pip's launcher on Windows is a program), the
entry point, called back, says so instead of calling itself again.
"""

import os
import platform
import subprocess
import sys
import threading

__all__ = ["CommandError", "command", "export", "version", "identity", "host_platform"]

#: Set in the environment of the command the package runs: the package's
#: own entry point, run with it, knows it was found in the command's place.
FORWARDED = "CABLEFMU_FORWARDED"


class CommandError(Exception):
    """The cablefmu command is missing or refused a request; the message is
    the command's own (one line per fault, naming the place)."""


def host_platform():
    """The FMU platform name of this machine: linux64 or win64 (None where
    the engines do not run)."""
    machine = platform.machine().lower()
    if machine not in ("x86_64", "amd64"):
        return None
    if sys.platform.startswith("linux"):
        return "linux64"
    if sys.platform in ("win32", "cygwin"):
        return "win64"
    return None


def _python_script(path):
    """Whether path is a Python script (as pip writes this package's entry
    point on Linux), not the command or a wrapper of it."""
    try:
        with open(path, "rb") as f:
            head = f.readline(200)
    except OSError:
        return True
    return head.startswith(b"#!") and b"python" in head


def command():
    """The path of the cablefmu command; CommandError when there is none."""
    env = os.environ.get("CABLEFMU")
    if env:
        if not os.path.isfile(env):
            raise CommandError("CABLEFMU names %s, which is not a file" % env)
        return env
    plat = host_platform()
    exe = "cablefmu.exe" if plat == "win64" else "cablefmu"
    if plat:
        shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", plat, exe)
        if os.path.isfile(shipped):
            if plat == "linux64" and not os.access(shipped, os.X_OK):
                try:  # an installer that dropped the executable bit
                    os.chmod(shipped, os.stat(shipped).st_mode | 0o111)
                except OSError as e:
                    raise CommandError("%s is not executable and cannot be made so: %s" % (shipped, e))
            return shipped
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, exe)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK) and not _python_script(candidate):
            return candidate
    raise CommandError("the cablefmu command is not installed: build it with bash scripts/dist.sh (it is then shipped "
                       "in this package), put it on the PATH, or name it in the environment variable CABLEFMU")


def _env():
    return dict(os.environ, **{FORWARDED: "1"})


def _run(args):
    exe = command()
    try:
        proc = subprocess.run([exe] + list(args), capture_output=True, text=True, env=_env())
    except OSError as e:
        raise CommandError("running %s: %s" % (exe, e))
    if proc.returncode != 0:
        raise CommandError(" ".join(proc.stderr.strip().split("\n")) or "exit status %d" % proc.returncode)
    return proc.stdout


_versions = {}  # (path, size, mtime) -> version line
_digests = {}  # (path, size, mtime) -> SHA-256 of the file
_lock = threading.Lock()


def version():
    """The command's version line, which names its engines: an FMU built
    by another line may hold other binaries."""
    path = command()
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _lock:
        if key in _versions:
            return _versions[key]
    line = _run(["--version"]).strip()
    with _lock:
        _versions[key] = line
    return line


def identity():
    """What an FMU exported by the command depends on besides the scenario:
    its version line (its engines) and a hash of the command file itself
    (its exporter's code)."""
    import hashlib
    path = command()
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _lock:
        digest = _digests.get(key)
    if digest is None:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        digest = h.hexdigest()
        with _lock:
            _digests[key] = digest
    return "%s\n%s" % (version(), digest)


def export(scenario_dir, path, fmi=2, platforms=None):
    """Export the scenario folder as an FMU at path (FMI 2 or 3) for the
    platforms (a list such as ["linux64"]; default every one the command
    carries); returns path. Raises CommandError with the command's message
    when the scenario is refused."""
    if fmi not in (2, 3):
        raise ValueError("fmi %r: want 2 or 3" % (fmi,))
    if isinstance(platforms, str):
        platforms = [p for p in platforms.split(",") if p.strip()]
    args = ["export", os.fspath(scenario_dir), "-fmi", str(fmi), "-o", os.fspath(path)]
    if platforms:
        args += ["-platforms", ",".join(platforms)]
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    _run(args)
    return path


def main(argv):
    """Hand a command line to the cablefmu command (the package's entry
    point does for every verb but study); returns its exit status."""
    if os.environ.get(FORWARDED):
        print("cablefmu: the cablefmu found in the command's place is this Python package's entry point, not the "
              "command: build the command with bash scripts/dist.sh, or name it in the environment variable CABLEFMU", file=sys.stderr)
        return 2
    try:
        exe = command()
    except CommandError as e:
        print("cablefmu: %s" % e, file=sys.stderr)
        return 2
    return subprocess.call([exe] + list(argv), env=_env())
