"""A long rope's RigidHoist step split between two processors, from outside Go, through ctypes, in FMI 2.0 and 3.0.

From 200 segments on the RigidHoist's step runs in two halves of the rope, the second on a goroutine of its own
(core/multibody, World.Parallel). Here a 300-segment rope (scripts/fmutest/rigid-long) swings, is set down and has
2 m of slack paid out onto the ground and the load, in processes whose Go runtime has one processor
(GOMAXPROCS=1: the halves one after the other) and two: every output of every step must be the same to the bit.
Each process also frees its instance and runs a second one in the same library (the first one's helper goroutine
must not hold up the second, nor the process's exit).

Run with RIGIDHOISTLONG_FMU and RIGIDHOISTLONG3_FMU set to the builds of scripts/fmutest/rigid-long
('go run ./build export -o out/RigidHoistLong.fmu scripts/fmutest/rigid-long', with -fmi 3 for RigidHoistLong3.fmu).
"""
import hashlib
import json
import math
import os
import subprocess
import sys
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fmutestlib  # noqa: E402  (puts the cablefmu package on the path)

TMP = None
FOLDERS = {}

# The run each process makes, twice (two instances one after the other), printing per instance the SHA-256 of the
# outputs' bits over every step and the load's height at the end.
SCRIPT = textwrap.dedent("""
    import hashlib, json, struct, sys
    sys.path.insert(0, %(binding)r)
    sys.path.insert(0, %(here)r)
    import fmutestlib
    results = []
    for run in range(2):
        s = fmutestlib.Slave(%(version)d, %(folder)r, "long%%d" %% run)
        s.initialize(None)
        outputs = [n for n, v in s.s.md.variables.items() if v.causality == "output"]
        digest = hashlib.sha256()
        t, h = 0.0, 1.0 / 60
        for k in range(720):
            # The trolley at 0.5 m/s for 2 s, then the winch pays out at 0.5 m/s: the load lands after some 3 m and
            # 2 m more pile up.
            v, w = (0.5, 0.0) if k < 120 else (0.0, 0.5)
            s.set(["suspension.x", "suspension.vx", "winch.speed"], [0.5 * min(t, 2.0), v, w])
            t = s.step(t, h)
            values = s.get(outputs)
            digest.update(struct.pack("<%%dd" %% len(values), *values))
        results.append({"digest": digest.hexdigest(), "load.z": s.get(["load.z"])[0], "values": len(values)})
        s.free()
    print(json.dumps(results))
""")


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_standards("rigidhoistlong-test-", "scripts/fmutest/rigid-long", "RigidHoistLong")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def run(version, procs):
    """The runs of SCRIPT in a process whose Go runtime has ``procs`` processors."""
    script = SCRIPT % {"binding": fmutestlib.BINDING_DIR, "here": HERE, "version": version,
                       "folder": FOLDERS[version]}
    env = dict(os.environ, GOMAXPROCS=str(procs))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    if proc.returncode != 0:
        raise AssertionError("FMI %d with GOMAXPROCS=%d: exit code %d\nstdout:\n%s\nstderr:\n%s"
                             % (version, procs, proc.returncode, proc.stdout, proc.stderr[-3000:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


class SplitStep(unittest.TestCase):
    def check(self, version):
        one, two = run(version, 1), run(version, 2)
        for name, runs in (("one processor", one), ("two processors", two)):
            for k, r in enumerate(runs):
                self.assertGreater(r["values"], 900, "the 300-segment rope's node outputs among the values")
                # Landed: the load's centre half its 1 m height above the ground, within 1 cm.
                self.assertTrue(math.isfinite(r["load.z"]) and abs(r["load.z"] - 0.5) < 0.01,
                                "%s, instance %d: the load at z = %r m, want it resting on the ground at 0.5 m"
                                % (name, k, r["load.z"]))
        for k in range(2):
            self.assertEqual(one[k]["digest"], two[k]["digest"],
                             "instance %d: the outputs over 12 s differ between one processor and two" % k)
        self.assertEqual(one[0]["digest"], one[1]["digest"], "a second instance in the same library runs the same")

    def test_fmi2_same_bits_on_one_processor_and_two(self):
        self.check(2)

    def test_fmi3_same_bits_on_one_processor_and_two(self):
        self.check(3)


if __name__ == "__main__":
    unittest.main()
