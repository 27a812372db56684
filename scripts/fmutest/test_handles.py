"""Instance and FMU-state handles: never invalid pointers, never another FMU's.

Run from the repository root with the four FMUs built (see test_fmi2.py):

    HOIST_FMU=out/Hoist.fmu RIGIDHOIST_FMU=out/RigidHoist.fmu HOIST3_FMU=out/Hoist3.fmu \
        RIGIDHOIST3_FMU=out/RigidHoist3.fmu python3 -m unittest scripts/fmutest/test_handles.py -v

Two FMUs loaded in one process each run their own Go runtime; a handle of
one must never be taken by the other, and a freed or wrong-kind handle must
be refused with fmi2Error/fmi3Error and, where an instance can say so, a
message.  The stress test runs instantiate/state/free cycles in a child
process whose Go runtimes collect garbage at every few kilobytes allocated
(GOGC=1) and stop the world to do it, so that stacks are scanned and
copied constantly: a handle held as an invalid pointer would abort it.
"""

import ctypes
import os
import subprocess
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fmutestlib import BINDING_DIR, INPUTS  # noqa: E402
import fmutestlib  # noqa: E402
from cablefmu import fmi2  # noqa: E402
from cablefmu import fmi3  # noqa: E402

REST = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0]
TMP = None
FOLDERS = {}


def setUpModule():
    global TMP
    TMP, folders = fmutestlib.unpack_examples("handles-fmutest-")
    FOLDERS.update(folders)


def tearDownModule():
    fmutestlib.remove_tmp(TMP)


def ready2(env, name):
    s = fmi2.FMU2Slave(FOLDERS[env], instance_name=name)
    s.instantiate()
    s.setup_experiment(start_time=0.0)
    s.enter_initialization_mode()
    s.set_real(INPUTS, REST)
    s.exit_initialization_mode()
    return s


def ready3(env, name):
    s = fmi3.FMU3Slave(FOLDERS[env], instance_name=name)
    s.instantiate_co_simulation()
    s.enter_initialization_mode(start_time=0.0)
    s.set_float64(INPUTS, REST)
    s.exit_initialization_mode()
    return s


def logged(slave):
    return " | ".join(m[-1] for m in slave.messages)


class TestHandles(unittest.TestCase):

    def test_handles_are_heap_addresses(self):
        # Not small integers (a cgo.Handle is 1, 2, 3, ...): no Go stack
        # slot can hold them as junk pointers, and two runtimes never agree.
        a, b = ready2("HOIST_FMU", "a"), ready2("RIGIDHOIST_FMU", "b")
        try:
            state = a.get_fmu_state()
            for h in (a.component, b.component, state):
                self.assertGreater(h, 1 << 16, "handle %#x looks like a counter, not an address" % h)
            self.assertNotEqual(a.component, b.component)
        finally:
            a.free()
            b.free()

    def test_foreign_instance_refused(self):
        hoist, rigid = ready2("HOIST_FMU", "hoist"), ready2("RIGIDHOIST_FMU", "rigid")
        try:
            vr = (fmi2.fmi2ValueReference * 1)(hoist.vr("suspension.x"))
            val = (fmi2.fmi2Real * 1)(0.0)
            st = rigid.lib.fmi2GetReal(hoist.component, vr, 1, val)
            self.assertEqual(st, fmi2.ERROR, "RigidHoist's fmi2GetReal took a Hoist instance")
            st = rigid.lib.fmi2DoStep(hoist.component, 0.0, 0.01, 1)
            self.assertEqual(st, fmi2.ERROR, "RigidHoist's fmi2DoStep took a Hoist instance")
            rigid.lib.fmi2FreeInstance(hoist.component)  # not RigidHoist's: frees nothing
            hoist.do_step(0.0, 0.01)  # the Hoist instance lives on
            rigid.do_step(0.0, 0.01)
        finally:
            hoist.free()
            rigid.free()

    def test_foreign_state_refused(self):
        for env, other, ready in (("HOIST_FMU", "RIGIDHOIST_FMU", ready2), ("HOIST3_FMU", "RIGIDHOIST3_FMU", ready3)):
            with self.subTest(fmi=env):
                hoist, rigid = ready(env, "hoist"), ready(other, "rigid")
                try:
                    foreign = hoist.get_fmu_state()
                    with self.assertRaises(hoist.ERROR) as cm:
                        rigid.set_fmu_state(foreign)
                    self.assertEqual(cm.exception.status, fmi2.ERROR)
                    self.assertIn("not a live FMU state of this FMU", logged(rigid))
                    hoist.set_fmu_state(foreign)  # still the Hoist's state
                finally:
                    hoist.free()
                    rigid.free()

    def test_state_of_another_instance_freed_or_of_wrong_kind(self):
        a, b = ready2("HOIST_FMU", "a"), ready2("HOIST_FMU", "b")
        try:
            sa = a.get_fmu_state()
            with self.assertRaises(fmi2.FMIError):
                b.set_fmu_state(sa)
            self.assertIn('FMU state of instance "a"', logged(b))
            b.clear_messages()
            with self.assertRaises(fmi2.FMIError):
                b.set_fmu_state(b.component)
            self.assertIn("is an instance, not an FMU state", logged(b))
            # An FMU state handed to fmi2FreeInstance is not freed.
            a.lib.fmi2FreeInstance(sa)
            a.set_fmu_state(sa)
            a.free_fmu_state(sa)
            a.clear_messages()
            with self.assertRaises(fmi2.FMIError):
                a.set_fmu_state(sa)
            self.assertIn("not a live FMU state", logged(a))
            with self.assertRaises(fmi2.FMIError):
                a.free_fmu_state(sa)
            a.do_step(0.0, 0.01)  # refusals leave the instance usable
        finally:
            a.free()
            b.free()

    def test_absurd_counts_are_caller_errors(self):
        a = ready2("HOIST_FMU", "a")
        try:
            vr = (fmi2.fmi2ValueReference * 1)(a.vr("suspension.x"))
            val = (fmi2.fmi2Real * 1)(0.0)
            for name in ("fmi2GetReal", "fmi2SetReal"):
                a.clear_messages()
                self.assertEqual(a.call(name, vr, 1 << 62, val), fmi2.ERROR, name)
                text = logged(a)
                self.assertNotIn("internal error", text)
                self.assertNotIn("goroutine", text)
            a.do_step(0.0, 0.01)  # not failed
            a.clear_messages()
            self.assertEqual(a.call("fmi2SetDebugLogging", 1, 1 << 62, None), fmi2.ERROR)
            cats = (fmi2.fmi2String * 1)(b"logEvents")
            self.assertEqual(a.call("fmi2SetDebugLogging", 1, (1 << 64) - 1, cats), fmi2.ERROR)
            self.assertNotIn("internal error", logged(a))
            data = (fmi2.fmi2Byte * 8)()
            state = fmi2.fmi2FMUstate()
            self.assertEqual(a.call("fmi2DeSerializeFMUstate", data, 1 << 62, ctypes.byref(state)), fmi2.ERROR)
            a.do_step(0.01, 0.01)
        finally:
            a.free()

    def test_cycles_under_constant_garbage_collection(self):
        script = textwrap.dedent("""
            import sys
            sys.path.insert(0, %(binding)r)
            from cablefmu import fmi2, fmi3
            folders = %(folders)r
            inputs = %(inputs)r
            rest = [0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0]
            import threading
            cycles = int(sys.argv[1])
            failures = []

            def cycle(first, count):
                for i in range(first, first + count):
                    env = ("HOIST_FMU", "RIGIDHOIST_FMU")[i %% 2]
                    s = fmi2.FMU2Slave(folders[env], instance_name="c%%d" %% i)
                    s.instantiate()
                    s.setup_experiment(start_time=0.0)
                    s.enter_initialization_mode()
                    s.set_real(inputs, rest)
                    s.exit_initialization_mode()
                    st = s.get_fmu_state()
                    s.do_step(0.0, 1.0 / 60)
                    s.set_fmu_state(st)
                    s.deserialize_fmu_state(s.serialize_fmu_state(st))
                    if i %% 3:
                        s.free_fmu_state(st)  # else freed with the instance
                    s.free()
                    if i %% 10 == 0:
                        env3 = ("HOIST3_FMU", "RIGIDHOIST3_FMU")[i %% 20 // 10]
                        t = fmi3.FMU3Slave(folders[env3], instance_name="d%%d" %% i)
                        t.instantiate_co_simulation()
                        t.enter_initialization_mode(start_time=0.0)
                        t.set_float64(inputs, rest)
                        t.exit_initialization_mode()
                        st3 = t.get_fmu_state()
                        t.do_step(0.0, 1.0 / 60)
                        t.set_fmu_state(st3)
                        t.free()

            def run(first, count):
                try:
                    cycle(first, count)
                except Exception as e:
                    failures.append(repr(e))

            # Four threads at once: the importer's environment values are small
            # integers here (the binding numbers its instances), which must never
            # reach a pointer-typed Go variable either.
            quarter = cycles // 4
            threads = [threading.Thread(target=run, args=(k * quarter, quarter)) for k in range(4)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            if failures:
                print("FAILED", failures[:3])
                sys.exit(3)
            print("OK", 4 * quarter)
        """) % {"binding": BINDING_DIR, "folders": FOLDERS, "inputs": INPUTS}
        cycles = int(os.environ.get("HANDLE_STRESS_CYCLES", "2000"))
        env = dict(os.environ, GOGC="1", GODEBUG="gcstoptheworld=1,invalidptr=1")
        proc = subprocess.run([sys.executable, "-c", script, str(cycles)], capture_output=True, text=True,
                              timeout=600, env=env)
        self.assertEqual(proc.returncode, 0, "%d cycles in 4 threads under GOGC=1, gcstoptheworld: exit code %d\nstdout:\n%s\n"
                         "stderr:\n%s" % (cycles, proc.returncode, proc.stdout[-2000:], proc.stderr[-4000:]))
        self.assertIn("OK %d" % (cycles // 4 * 4), proc.stdout)


if __name__ == "__main__":
    unittest.main()
