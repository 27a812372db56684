package rigidbodycable_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

type logger struct{ t *testing.T }

func (l logger) Log(s fmu.Status, cat, msg string) { l.t.Logf("%v %s: %s", s, cat, msg) }

func newRigidHoist(t *testing.T) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	return newRigidHoistWith(t, nil)
}

// newRigidHoistWith instantiates the RigidHoist example with the given
// parameter values and initializes it.
func newRigidHoistWith(t *testing.T, params map[string]float64) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	dir, _ := filepath.Abs("../../../examples/rigid-hoist")
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "rigid", GUID: sc.GUID(), ResourceLocation: dir, Logger: logger{t}, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	vr := map[string]uint32{}
	for i, v := range in.Variables() {
		vr[v.Name] = uint32(i)
	}
	if st := in.SetupExperiment(false, 0, 0, false, 0); st != fmu.OK {
		t.Fatalf("SetupExperiment: %v", st)
	}
	for name, x := range params {
		if st := in.SetReal([]uint32{vr[name]}, []float64{x}); st != fmu.OK {
			t.Fatalf("SetReal(%s = %g): %v", name, x, st)
		}
	}
	for _, st := range []fmu.Status{in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			t.Fatalf("initialization: %v", st)
		}
	}
	return in, vr
}

func get(t *testing.T, in *fmu.Instance, vr uint32) float64 {
	t.Helper()
	out := []float64{0}
	if st := in.GetReal([]uint32{vr}, out); st != fmu.OK {
		t.Fatalf("GetReal(%d): %v", vr, st)
	}
	return out[0]
}

// At rest the crane carries the load and the cable: hoist.fz = −(M + m_cable)
// g within 0.5 %, at the start and after 2 s; the cable has N+1 nodes
// from the suspension point down.
func TestRigidHoistCarriesLoadAndCable(t *testing.T) {
	in, vr := newRigidHoist(t)
	const mass, segments = 12330.0, 20
	cableMass := 7850 * math.Pi * 0.01 * 0.01 * 10
	want := -(mass + cableMass) * 9.81
	check := func(when string) {
		if fz := get(t, in, vr["hoist.fz"]); math.Abs(fz/want-1) > 0.005 {
			t.Errorf("%s: hoist.fz %.1f N, want −(M + m_cable) g = %.1f N within 0.5 %%", when, fz, want)
		}
	}
	check("at the start")
	for k := 0; k < 120; k++ {
		if st := in.DoStep(float64(k)/60, 1.0/60); st != fmu.OK {
			t.Fatalf("step %d: %v", k, st)
		}
	}
	check("after 2 s")
	if _, ok := vr["cable.node[21].z"]; !ok {
		t.Fatal("no cable.node[21].z port")
	}
	// Node 1 is the top end of segment 1, below the sheave by the stretch
	// of half a segment under the full weight (about 1 mm).
	if z := get(t, in, vr["cable.node[1].z"]); z > 14 || z < 14-0.01 {
		t.Errorf("node 1 at z = %.6f m, want within 1 cm below the suspension point at 14 m", z)
	}
}

// A step the model cannot take (10 m of rope paid out onto the grounded
// load fold back on themselves; see TestFoldedRopeStopsWithTheReason)
// fails the instance with the reason:
// Error, outputs those of the last good communication point (finite),
// further steps refused until Reset, after which it runs again.
func TestFailedStepKeepsOutputsAndResets(t *testing.T) {
	in, vr := newRigidHoist(t)
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
	if st := in.SetReal([]uint32{vr["winch.speed"]}, []float64{0.5}); st != fmu.OK {
		t.Fatal(st)
	}
	st := fmu.OK
	for tm < 31 && st == fmu.OK {
		st = step()
	}
	if st != fmu.Error {
		t.Fatalf("paying out 10 m onto the grounded load: %v at t = %.2f s, want Error", st, tm)
	}
	for name, i := range vr {
		if x := get(t, in, i); math.IsNaN(x) || math.IsInf(x, 0) {
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
