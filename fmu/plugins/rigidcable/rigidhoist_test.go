package rigidcable_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

const rigidHoist = "../../../examples/rigid-cable"

// At rest the crane carries the load and the cable: suspension.fz = −(M + m_cable)
// g within 0.5 %, at the start and after 2 s; the cable has N+1 nodes
// from the suspension point down.
func TestRigidHoistCarriesLoadAndCable(t *testing.T) {
	in, vr, _ := plugintest.CarriesLoadAndCable(t, plugintest.Hoist{Dir: rigidHoist, Mass: 12330, Length: 10, Diameter: 0.02, Density: 7850, E: 1e11}, 0.005, nil)
	if _, ok := vr["cable.node[21].z"]; !ok {
		t.Fatal("no cable.node[21].z port")
	}
	// Node 1 is the top end of segment 1, below the sheave by the stretch
	// of half a segment under the full weight (about 1 mm).
	if z := plugintest.Get(t, in, vr["cable.node[1].z"]); z > 14 || z < 14-0.01 {
		t.Errorf("node 1 at z = %.6f m, want within 1 cm below the suspension point at 14 m", z)
	}
}

// A step the model cannot take (the suspension point sent 100 km away in
// one communication step: the rope diverges) fails the instance with the
// reason:
// Error, outputs those of the last good communication point (finite),
// further steps refused until Reset, after which it runs again.
func TestFailedStepKeepsOutputsAndResets(t *testing.T) {
	in, vr := plugintest.New(t, rigidHoist, nil)
	const H = 1.0 / 60
	tm := 0.0
	step := func() fmu.Status {
		st := in.DoStep(tm, H)
		if st == fmu.OK {
			tm += H
		}
		return st
	}
	for tm < 11 {
		if st := step(); st != fmu.OK {
			t.Fatalf("t = %.2f s: %v", tm, st)
		}
	}
	if st := in.SetReal([]uint32{vr["suspension.x"]}, []float64{1e5}); st != fmu.OK {
		t.Fatal(st)
	}
	st := fmu.OK
	for tm < 12 && st == fmu.OK {
		st = step()
	}
	if st != fmu.Error {
		t.Fatalf("the suspension point sent 100 km away: %v at t = %.2f s, want Error", st, tm)
	}
	for name, i := range vr {
		if x := plugintest.Get(t, in, i); math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("%s = %g after the failed step", name, x)
		}
	}
	if st := in.DoStep(tm, H); st != fmu.Error {
		t.Errorf("DoStep after the failed step: %v, want Error", st)
	}
	if st := in.Reset(); st != fmu.OK {
		t.Fatal(st)
	}
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode(), in.DoStep(0, H)} {
		if st != fmu.OK {
			t.Fatalf("after Reset: %v", st)
		}
	}
}
