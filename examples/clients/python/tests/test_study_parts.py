"""The study's parts without an FMU: designs, input profiles, reductions."""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # examples/clients/python, the package's folder
from cablefmu import study as st  # noqa: E402


def spec(**kw):
    s = {"fmu": "x.fmu", "stop_time": 1, "reductions": {}}
    s.update(kw)
    return st.Study(s)


class TestDesigns(unittest.TestCase):
    def test_grid_is_every_combination_in_order(self):
        s = spec(vary={"a": {"values": [1, 2]}, "b": {"range": [0, 1, 3]}})
        self.assertEqual(s.cases(), [{"a": 1.0, "b": 0.0}, {"a": 1.0, "b": 0.5}, {"a": 1.0, "b": 1.0},
                                     {"a": 2.0, "b": 0.0}, {"a": 2.0, "b": 0.5}, {"a": 2.0, "b": 1.0}])

    def test_latin_hypercube_fills_every_stratum_once(self):
        s = spec(design="lhs", runs=20, seed=3, vary={"a": {"uniform": [0, 10]}, "b": {"uniform": [-1, 1]}})
        cases = s.cases()
        self.assertEqual(len(cases), 20)
        for name, lo, hi in (("a", 0, 10), ("b", -1, 1)):
            strata = sorted(int((c[name] - lo) / (hi - lo) * 20) for c in cases)
            self.assertEqual(strata, list(range(20)), name)
        self.assertEqual(cases, s.cases(), "the same seed, the same cases")

    def test_random_design_within_bounds_and_seeded(self):
        s = spec(design="random", runs=50, seed=1, vary={"a": {"uniform": [2, 3]}, "w": {"values": [0, 15]}})
        cases = s.cases()
        self.assertTrue(all(2 <= c["a"] <= 3 and c["w"] in (0.0, 15.0) for c in cases))
        other = spec(design="random", runs=50, seed=2, vary={"a": {"uniform": [2, 3]}, "w": {"values": [0, 15]}})
        self.assertNotEqual(cases, other.cases())

    def test_bad_designs_refused(self):
        for bad in ({"design": "grid", "vary": {"a": {"uniform": [0, 1]}}},
                    {"design": "lhs", "vary": {"a": {"uniform": [0, 1]}}},
                    {"design": "sobol", "runs": 3, "vary": {"a": {"uniform": [0, 1]}}},
                    {"vary": {"a": [1, 2]}}):
            with self.assertRaises(st.StudyError):
                spec(**bad).cases()


class TestProfiles(unittest.TestCase):
    def test_trapezoid_reaches_its_distance_at_rest(self):
        for a, v in ((0.5, 1.0), (0.2, 1.0), (1.0, 0.5)):  # 0.2 m/s²: no cruise, a triangle
            m = st.Trapezoid(1.0, 10.0, v, a)
            self.assertAlmostEqual(m.position(m.end), 10.0, places=12)
            self.assertEqual(m.velocity(m.end + 1), 0.0)
            peak = max(m.velocity(1.0 + k * 0.001) for k in range(int((m.end - 1) / 0.001)))
            self.assertLessEqual(peak, v + 1e-12)
            # The position is the integral of the velocity.
            h, x = 1e-3, 0.0
            t = 0.0
            while t < m.end + 1:
                x += h * 0.5 * (m.velocity(t) + m.velocity(t + h))
                t += h
            self.assertAlmostEqual(x, 10.0, delta=1e-3)

    def test_table_and_constant_and_variables(self):
        sig, _ = st._inputs({"inputs": {"w": {"profile": "table", "time": [0, 10], "values": [0, 20], "scale": "$k"},
                                        "c": {"profile": "constant", "value": "$k"}}}, {"k": 0.5}, ".")
        self.assertAlmostEqual(sig["w"](5), 5.0)
        self.assertEqual(sig["c"], 0.5)
        with self.assertRaises(st.StudyError):
            st._inputs({"inputs": {"c": {"profile": "constant", "value": "$nope"}}}, {}, ".")


class TestReductions(unittest.TestCase):
    series = {"time": [0, 1, 2, 3, 4], "x": [2.0, 3.0, -4.0, 1.0, 2.5]}

    def red(self, **r):
        return st._reduce("r", r, self.series, {"move.end": 2.0}, 1.0)

    def test_ops(self):
        self.assertEqual(self.red(of="x", op="max"), 3.0)
        self.assertEqual(self.red(of="x", op="min"), -4.0)
        self.assertEqual(self.red(of="x", op="max_abs"), 4.0)
        self.assertEqual(self.red(of="x", op="final"), 2.5)
        # Over time by the trapezoid rule on x²: (6.5 + 12.5 + 8.5 + 3.625)/4.
        self.assertAlmostEqual(self.red(of="x", op="rms"), math.sqrt(31.125 / 4))
        # Linear between samples: above 2 from 0.0 to 1.0 (but at 0 itself), 1.0 → 1.14 and 3.8 → 4.
        self.assertAlmostEqual(self.red(of="x", op="time_above", threshold=2.0), 1.0 + 1 / 7 + 1 / 3)
        self.assertEqual(self.red(of="x", op="daf"), 2.0)  # its magnitude's peak 4 over the start's 2
        self.assertEqual(self.red(of="x", op="max_abs", after="move.end"), 4.0)
        self.assertEqual(self.red(of="x", op="max", after=3), 2.5)
        with self.assertRaises(st.StudyError):
            self.red(of="y", op="max")
        # A ramp 0 → 10 over 10 s sampled every 0.3 s and at its end: above 5
        # for 5 s (the crossing inside a step, the last step 0.1 s), its RMS
        # 10/√3.
        ts = [0.3 * k for k in range(34)] + [10.0]
        ramp = {"time": ts, "x": list(ts), "f": [-t - 1 for t in ts]}
        self.assertAlmostEqual(st._reduce("r", {"of": "x", "op": "time_above", "threshold": 5}, ramp, {}, 0.3), 5.0)
        self.assertAlmostEqual(st._reduce("r", {"of": "x", "op": "rms"}, ramp, {}, 0.3), 10 / math.sqrt(3), delta=0.01)
        # The DAF of a negative force: its magnitude's peak over the start's.
        self.assertAlmostEqual(st._reduce("r", {"of": "f", "op": "daf"}, ramp, {}, 0.3), 11.0)
        with self.assertRaises(st.StudyError):
            self.red(of="x", op="median")


if __name__ == "__main__":
    unittest.main()


class TestModeChoice(unittest.TestCase):
    """The rule that picks serial or run processes side by side when no
    mode is asked for, on made-up run times (no run is timed here)."""

    def choose(self, took, left, cores=2):
        return st._choose(took, left, cores, start=0.15, task=0.002)

    def test_short_study_stays_serial(self):
        # 22 ms runs, 10 left: 0.22 s serially against 0.15 + 0.12 s side by side.
        self.assertIs(self.choose([0.06, 0.022], 10)[0], False)
        # Even the first run's time, which holds the FMU's loading, says serial: decided at once.
        self.assertIs(self.choose([0.06], 3)[0], False)

    def test_long_study_goes_side_by_side(self):
        # The payload sweep: 108 runs of 22 ms left, 2.4 s serially against 1.4 s.
        self.assertIs(self.choose([0.06, 0.022], 108)[0], True)
        self.assertIs(self.choose([0.3, 0.2], 1000, cores=1)[0], False, "one core: nothing to win")

    def test_second_run_decides_when_the_first_is_short(self):
        self.assertIsNone(self.choose([0.06], 108))  # maybe mostly loading the FMU
        self.assertIs(self.choose([0.06, 0.001], 108)[0], False)
        self.assertIs(self.choose([0.5], 100)[0], True, "a run longer than the start decides alone")

    def test_break_even(self):
        # Serial time left = per run × left; side by side = start + left × (per run + task) / cores.
        self.assertIs(self.choose([0.02, 0.02], 10)[0], False)  # 0.20 s here, 0.15 + 0.11 s so
        self.assertIs(self.choose([0.02, 0.02], 30)[0], True)  # 0.60 s here, 0.15 + 0.33 s so


class TestUnits(unittest.TestCase):
    def test_report_and_plots_name_units(self):
        """The report's figures carry units: a varied name's own (vary unit) or
        its parameter's, a reduction's op's (daf 1, time_above s) or its
        signal's (sway deg); a unit that is not a string is refused."""
        s = spec(vary={"load.mass": {"values": [1, 2]}, "acceleration": {"unit": "m/s2", "values": [0.5]}},
                 reductions={"peak": {"of": "sway", "op": "max_abs"}, "daf": {"of": "cable.tension", "op": "daf"},
                             "slow": {"of": "sway", "op": "time_above", "threshold": 2}},
                 report={"worst": "peak", "above": {"peak": 2}, "by": ["load.mass", "acceleration"]})
        st._check(s.spec)
        s.units = lambda: {"load.mass": "kg", "acceleration": "m/s2", "peak": "deg", "daf": "1", "slow": "s"}
        rows = [{"run": 0, "load.mass": 1.0, "acceleration": 0.5, "peak": 3.0, "daf": 1.01, "slow": 4.0,
                 "status": "ok", "error": ""}]
        lines = st.report(s, rows)
        self.assertIn("worst peak = 3 deg at load.mass = 1 kg, acceleration = 0.5 m/s2", lines)
        self.assertIn("1 of 1 runs with peak above 2 deg, at 1 combinations of load.mass, acceleration:", lines)
        self.assertIn("  load.mass = 1 kg, acceleration = 0.5 m/s2: up to 3 deg", lines)
        with self.assertRaises(st.StudyError) as e:
            st._check(dict(s.spec, vary={"a": {"unit": 5, "values": [1]}}))
        self.assertIn('vary.a.unit: want a unit such as "m/s2", got 5', str(e.exception))

    def test_report_worst_below_and_runs_without_a_value(self):
        """The worst of a min reduction is its smallest value; "below" counts
        the runs under a limit; runs whose reduction has no value (a window
        after a move that ended past stop_time) are counted apart, never as
        within a limit (they were: "3 of 6 above" read as 3 below)."""
        s = spec(vary={"load.mass": {"values": [1, 2, 3]}},
                 reductions={"fz": {"of": "cable.tension", "op": "min"}, "res": {"of": "sway", "op": "rms", "after": 0.5}},
                 report={"worst": "fz", "below": {"fz": -2.5}, "above": {"res": 0.5}})
        st._check(s.spec)
        s.units = lambda: {"load.mass": "kg", "fz": "N", "res": "deg"}
        nan = float("nan")
        rows = [{"run": k, "load.mass": float(k + 1), "fz": -float(k + 1), "res": r, "status": "ok", "error": ""}
                for k, r in enumerate([0.2, nan, 0.9])]
        lines = st.report(s, rows)
        self.assertIn("worst fz = -3 N at load.mass = 3 kg", lines)
        self.assertIn("1 of 3 runs with fz below -2.5 N, at 1 combinations of load.mass:", lines)
        self.assertIn("  load.mass = 3 kg: down to -3 N", lines)
        self.assertIn("1 of 3 runs have no value of res (nothing in its window): left out below", lines)
        self.assertIn("1 of 2 runs with res above 0.5 deg, at 1 combinations of load.mass:", lines)

    def test_units_from_the_study_alone(self):
        """Without its FMU a study's units are those it states and its ops'."""
        s = spec(vary={"acceleration": {"unit": "m/s2", "values": [0.5]}, "load.mass": {"values": [1]}},
                 reductions={"daf": {"of": "cable.tension", "op": "daf"}, "peak": {"of": "sway", "op": "max"}})
        self.assertEqual(s.units(), {"acceleration": "m/s2", "load.mass": "", "daf": "1", "peak": "deg"})
