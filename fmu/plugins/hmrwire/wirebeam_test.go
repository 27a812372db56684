package hmrwire_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

type logger struct{ t *testing.T }

func (l logger) Log(s fmu.Status, cat, msg string) { l.t.Logf("%v %s: %s", s, cat, msg) }

// newWireBeam instantiates the WireBeam example with parameter values
// and initializes it.
func newWireBeam(t *testing.T, params map[string]float64) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	dir, _ := filepath.Abs("../../../examples/wire-beam")
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "beam", GUID: sc.GUID(), ResourceLocation: dir, Logger: logger{t}, Registry: reg})
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

// The WireBeam example through the FMU runtime: the Atwood acceleration
// a = g(1 − r)/(1 + r) and tension 2r·m₂g/(1 + r) with r = m₁/m₂ = 0.5
// within 2 %, the beam pressed by √2 times the tension at each edge
// (down by 2T), two contact nodes, and the wire's sampled shape from one
// box over the beam to the other.
func TestWireBeamAtwood(t *testing.T) {
	in, vr := newWireBeam(t, nil)
	const g, m1, m2, H = 9.81, 10.0, 20.0, 1.0 / 60
	r := m1 / m2
	tm := 0.0
	for ; tm < 0.5-1e-9; tm += H {
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatalf("t = %.3f s: %v", tm, st)
		}
	}
	v0 := get(t, in, vr["m1.vz"])
	for ; tm < 1-1e-9; tm += H {
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatalf("t = %.3f s: %v", tm, st)
		}
	}
	a := (get(t, in, vr["m1.vz"]) - v0) / 0.5
	wantA := g * (1 - r) / (1 + r)
	T := get(t, in, vr["wire.tension"])
	wantT := 2 * r * m2 * g / (1 + r)
	fz := get(t, in, vr["beam.fz"])
	t.Logf("a = %.4f m/s² (%.4f), T = %.3f N (%.3f), beam fz = %.3f N, %g mass and %g contact nodes",
		a, wantA, T, wantT, fz, get(t, in, vr["wire.massNodes"]), get(t, in, vr["wire.contactNodes"]))
	if math.Abs(a/wantA-1) > 0.02 {
		t.Errorf("m1 rises at %.4f m/s², want g(1−r)/(1+r) = %.4f within 2 %%", a, wantA)
	}
	if math.Abs(T/wantT-1) > 0.02 {
		t.Errorf("tension %.3f N, want 2r·m₂g/(1+r) = %.3f within 2 %%", T, wantT)
	}
	if math.Abs(fz/(-2*T)-1) > 0.02 {
		t.Errorf("beam pressed down by %.3f N, want 2T = %.3f (√2 T at each edge)", -fz, 2*T)
	}
	if n := get(t, in, vr["wire.contactNodes"]); n != 2 {
		t.Errorf("%g contact nodes, want the beam's two top edges", n)
	}
	// The samples run from m1's hook over the beam (top at z = 0.1) to
	// m2's, at equal rest arc length.
	top := math.Inf(-1)
	for k := 1; k <= 21; k++ {
		top = math.Max(top, get(t, in, vr[fmt.Sprintf("wire.node[%d].z", k)]))
	}
	if math.Abs(top-0.1) > 1e-3 {
		t.Errorf("the wire's highest sample at z = %.4f m, want on the beam's top at 0.1 m", top)
	}
	x1, z1 := get(t, in, vr["wire.node[1].x"]), get(t, in, vr["wire.node[1].z"])
	if math.Abs(x1+0.1) > 1e-3 || math.Abs(z1-(get(t, in, vr["m1.z"])+0.15)) > 1e-3 {
		t.Errorf("first sample at x = %.4f, z = %.4f m: not m1's hook", x1, z1)
	}
}
