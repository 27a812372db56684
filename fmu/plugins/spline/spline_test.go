package spline_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

const example = "../../../examples/spline"

// hoist is the example: 12.33 t on 10 m of 20 mm steel rope.
var hoist = plugintest.Hoist{Dir: example, Mass: 12330, Length: 10, Diameter: 0.02, Density: 7850, E: 1e11}

// At rest the crane carries the load and the cable, suspension.fz =
// −(M + m_cable) g within 1e-6, at the start and after 2 s; the sampled
// centreline ends at the load, below the sheave by the rope's length and
// stretch; with the smallest budget the hanging cable stays dynamic (its
// one held point leaves the static system singular).
func TestCarriesLoadAndCable(t *testing.T) {
	in, vr, stretch := plugintest.CarriesLoadAndCable(t, hoist, 1e-6, map[string]float64{"cable.budget": 1})
	const length = 10.0
	if st := plugintest.Get(t, in, vr["cable.static"]); st != 0 {
		t.Errorf("cable.static %g: a cable held at one point must stay dynamic", st)
	}
	if z, w := plugintest.Get(t, in, vr["cable.node[21].z"]), 14-length-stretch; math.Abs(z-w) > 1e-6 {
		t.Errorf("the last sample at z = %.6f m, want %.6f (the sheave less the stretched rope)", z, w)
	}
	if z, lz := plugintest.Get(t, in, vr["cable.node[21].z"]), plugintest.Get(t, in, vr["load.z"]); math.Abs(z-lz) > 1e-9 {
		t.Errorf("load.z %g differs from the cable's end %g", lz, z)
	}
}

// The trolley move's swing (plugintest.TrolleyMoveSwing): the hanging
// chain's first mode within 0.1 %, whatever the communication steps.
func TestTrolleyMoveSwing(t *testing.T) { plugintest.TrolleyMoveSwing(t, hoist) }

// The winch pays out v t exactly, and a state rolled back continues
// bitwise (plugintest.WinchAndStateRollback).
func TestWinchAndStateRollback(t *testing.T) { plugintest.WinchAndStateRollback(t, example) }

// Scenarios the model cannot run are refused by the exporter, each
// entry named.
func TestConfigRefusals(t *testing.T) {
	plugintest.Refused(t, example, [][2]string{
		{`"controls": 12`, `"controls": 3`},
		{`"mass": 12330`, `"mass": -1`},
		{`"length0": 10`, `"length0": 0.5`},
		{`"outputNodes": 21`, `"outputNodes": 1`},
		{`"controls": 12`, `"controls": 12, "ceiling": -1`},
		{`"density": 7850`, `"density": 0`},
	})
}

// With the start clamped (config clampStart), the hoist's budget input
// drives Algorithm 2: a budget below a step's cost switches the spline to
// its static system (cable.static 1), one at 1.08 times the cost keeps it
// there (hysteresis), twice the cost switches it back; the crane still
// carries the load and the cable within 0.1 % in the static system.
func TestBudgetSwitchesWithClampedStart(t *testing.T) {
	dir := plugintest.Edited(t, example, `"controls": 12,`, `"controls": 12, "clampStart": true,`)
	in, vr := plugintest.New(t, dir, nil)
	cost := plugintest.Get(t, in, vr["cable.cost"])
	tm := 0.0
	for _, ph := range []struct {
		budget float64
		static float64
	}{{2 * cost, 0}, {cost, 1}, {1.08 * cost, 1}, {2 * cost, 0}, {1.08 * cost, 0}} {
		plugintest.Set(t, in, vr["cable.budget"], ph.budget)
		for k := 0; k < 30; k++ {
			if st := in.DoStep(tm, 1.0/60); st != fmu.OK {
				t.Fatalf("t = %.2f: %v", tm, st)
			}
			tm += 1.0 / 60
		}
		if st := plugintest.Get(t, in, vr["cable.static"]); st != ph.static {
			t.Errorf("budget %.2f × the cost: cable.static %g, want %g", ph.budget/cost, st, ph.static)
		}
		want := -(12330 + 7850*math.Pi*0.01*0.01*10) * 9.81
		if fz := plugintest.Get(t, in, vr["suspension.fz"]); math.Abs(fz/want-1) > 1e-3 {
			t.Errorf("budget %.2f × the cost: suspension.fz %.1f N, want %.1f", ph.budget/cost, fz, want)
		}
	}
}

// A light load swung under a long rope is carried throughout: no slack
// or taut events (plugintest.SwingWithoutSlackEvents); judged by the
// strain's tension at the rope's end, the spline read it slack for a
// second at a time.
func TestSwingWithoutSlackEvents(t *testing.T) { plugintest.SwingWithoutSlackEvents(t, example) }
