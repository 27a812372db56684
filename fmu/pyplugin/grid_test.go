package pyplugin_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

type nolog struct{}

func (nolog) Log(fmu.Status, string, string) {}

// instWithPlugin initializes an instance of the test scenario with the
// plugin file p.py holding code, with a generous operations budget (see
// withPlugin).
func instWithPlugin(t *testing.T, code string) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	relaxed := withLimits(generous)
	dir := writeScenario(t, map[string]string{"scenario.json": relaxed, "p.py": code})
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "x", GUID: sc.GUID(), ResourceLocation: "file://" + dir, Logger: nolog{}, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	vr := map[string]uint32{}
	for i, v := range in.Variables() {
		vr[v.Name] = uint32(i)
	}
	in.SetupExperiment(false, 0, 0, false, 0)
	in.EnterInitializationMode()
	if st := in.ExitInitializationMode(); st != fmu.OK {
		t.Fatal(st)
	}
	return in, vr
}

// An output a plugin sets in communication_point is what the master
// reads at that point, between grid points too (not interpolated).
func TestPluginPointOutputBetweenGridPoints(t *testing.T) {
	in, vr := instWithPlugin(t, "stamp = output('stamp', unit='s')\ndef communication_point(sim):\n    stamp.value = sim.time\n")
	tm := 0.0
	for k := 0; k < 10; k++ {
		H := 0.004
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatal(st)
		}
		tm += H
		out := []float64{0}
		in.GetReal([]uint32{vr["p.stamp"]}, out)
		if math.Abs(out[0]-tm) > 1e-12 {
			t.Errorf("t = %.3f: p.stamp = %.6f, the plugin set %.6f", tm, out[0], tm)
		}
	}
}

// A force applied in communication_point acts in the first internal step
// after it; with several communication points before one grid step the
// last one's applies (they do not add up), so the result does not depend
// on how the master cuts its steps.
func TestPointForcesDoNotAddUp(t *testing.T) {
	code := "def communication_point(sim):\n    sim.body('load').apply_force(1000.0, 0.0, 0.0)\n"
	run := func(H float64, n int) float64 {
		in, vr := instWithPlugin(t, code)
		tm := 0.0
		for k := 0; k < n; k++ {
			if st := in.DoStep(tm, H); st != fmu.OK {
				t.Fatal(st)
			}
			tm += H
		}
		out := []float64{0}
		in.GetReal([]uint32{vr["load.vx"]}, out)
		return out[0]
	}
	a, b := run(0.01, 10), run(0.001, 100)
	if math.Abs(a-b) > 1e-6*math.Abs(a) {
		t.Errorf("load.vx at 0.1 s: %.6g m/s with 10 ms steps, %.6g m/s with 1 ms steps", a, b)
	}
}

// The controlled hoist example, a state taken between grid points and
// restored into a fresh instance: it continues bitwise.
func TestControlledStateBetweenGridPoints(t *testing.T) {
	dir, _ := filepath.Abs("../../examples/massless-controlled")
	mk := func() (*fmu.Instance, map[string]uint32) {
		sc, err := fmu.ReadScenario(dir)
		if err != nil {
			t.Fatal(err)
		}
		reg, _ := plugins.Builtin()
		in, err := fmu.Instantiate(fmu.Config{InstanceName: "x", GUID: sc.GUID(), ResourceLocation: dir, Logger: nolog{}, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		vr := map[string]uint32{}
		for i, v := range in.Variables() {
			vr[v.Name] = uint32(i)
		}
		in.SetupExperiment(false, 0, 0.5, false, 0)
		in.EnterInitializationMode()
		if st := in.ExitInitializationMode(); st != fmu.OK {
			t.Fatal(st)
		}
		return in, vr
	}
	a, vr := mk()
	tm := 0.5
	names := []string{"load.z", "cable.tension", "controller.reference", "controller.error", "wind.force"}
	step := func(in *fmu.Instance) []float64 {
		in.SetReal([]uint32{vr["wind.speed"]}, []float64{5 * math.Sin(tm)})
		if st := in.DoStep(tm, 0.023); st != fmu.OK {
			t.Fatal(st)
		}
		tm += 0.023
		var out []float64
		for _, n := range names {
			x := []float64{0}
			in.GetReal([]uint32{vr[n]}, x)
			out = append(out, x[0])
		}
		return out
	}
	for k := 0; k < 70; k++ {
		step(a)
	}
	s, st := a.GetState(nil)
	if st != fmu.OK {
		t.Fatal(st)
	}
	data, t0 := s.Serialize(), tm
	var want [][]float64
	for k := 0; k < 60; k++ {
		want = append(want, step(a))
	}
	b, _ := mk()
	sb, err := b.Deserialize(data)
	if err != nil {
		t.Fatal(err)
	}
	if st := b.SetState(sb); st != fmu.OK {
		t.Fatal(st)
	}
	tm = t0
	for k := 0; k < 60; k++ {
		got := step(b)
		for i := range got {
			if got[i] != want[k][i] {
				t.Fatalf("step %d %s: %.17g vs %.17g", k, names[i], got[i], want[k][i])
			}
		}
	}
}
