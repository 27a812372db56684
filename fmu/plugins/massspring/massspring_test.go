package massspring_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

const example = "../../../examples/mass-spring"

// hoist is the example: 12.33 t on 10 m of 20 mm steel rope.
var hoist = plugintest.Hoist{Dir: example, Mass: 12330, Length: 10, Diameter: 0.02, Density: 7850, E: 1e11}

// At rest the crane carries the load and the cable, suspension.fz =
// −(M + m_cable) g within 0.1 %, at the start and after 2 s; the cable has
// N+1 points, the load's is the last, below the sheave by the rope's
// length and stretch.
func TestCarriesLoadAndCable(t *testing.T) {
	in, vr, stretch := plugintest.CarriesLoadAndCable(t, hoist, 1e-3, nil)
	const length = 10.0
	if z, w := plugintest.Get(t, in, vr["cable.node[21].z"]), 14-length-stretch; math.Abs(z-w) > 1e-3*stretch+1e-6 {
		t.Errorf("the last point at z = %.6f m, want %.6f (the sheave less the stretched rope)", z, w)
	}
	if z, lz := plugintest.Get(t, in, vr["cable.node[21].z"]), plugintest.Get(t, in, vr["load.z"]); z != lz {
		t.Errorf("load.z %g differs from the last point's %g", lz, z)
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
		{`"solver": "direct"`, `"solver": "gauss"`},
		{`"segments": 20`, `"segments": 1`},
		{`"mass": 12330`, `"mass": -1`},
		{`"length0": 10`, `"length0": 0.5`},
		{`"solver": "direct"`, `"solver": "cg", "cgTolerance": 2`},
		{`"solver": "direct"`, `"perMass": {"kL": 0, "kD": 1, "kB": 1}`},
		{`"solver": "direct"`, `"rebuilds": -1`},
		{`"density": 7850`, `"density": 0`},
	})
}

// A light load swung under a long rope is carried throughout: no slack
// or taut events (plugintest.SwingWithoutSlackEvents).
func TestSwingWithoutSlackEvents(t *testing.T) { plugintest.SwingWithoutSlackEvents(t, example) }
