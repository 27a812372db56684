package splinecable_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/oscillation"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

type logger struct{ t *testing.T }

func (l logger) Log(s fmu.Status, cat, msg string) { l.t.Logf("%v %s: %s", s, cat, msg) }

const example = "../../../examples/spline-hoist"

// newHoist instantiates the scenario in dir with the given parameter
// values and initializes it.
func newHoist(t *testing.T, dir string, params map[string]float64) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	dir, _ = filepath.Abs(dir)
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "spline", GUID: sc.GUID(), ResourceLocation: dir, Logger: logger{t}, Registry: reg})
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

func set(t *testing.T, in *fmu.Instance, vr uint32, x float64) {
	t.Helper()
	if st := in.SetReal([]uint32{vr}, []float64{x}); st != fmu.OK {
		t.Fatalf("SetReal(%d = %g): %v", vr, x, st)
	}
}

// At rest the crane carries the load and the cable, hoist.fz =
// −(M + m_cable) g within 1e-6, at the start and after 2 s; the sampled
// centreline ends at the load, below the sheave by the rope's length and
// stretch; with the smallest budget the hanging cable stays dynamic (its
// one held point leaves the static system singular).
func TestCarriesLoadAndCable(t *testing.T) {
	in, vr := newHoist(t, example, nil)
	const mass, length = 12330.0, 10.0
	rho := 7850 * math.Pi * 0.01 * 0.01
	want := -(mass + rho*length) * 9.81
	check := func(when string) {
		if fz := get(t, in, vr["hoist.fz"]); math.Abs(fz/want-1) > 1e-6 {
			t.Errorf("%s: hoist.fz %.3f N, want −(M + m_cable) g = %.3f N", when, fz, want)
		}
	}
	check("at the start")
	set(t, in, vr["cable.budget"], 1)
	for k := 0; k < 120; k++ {
		if st := in.DoStep(float64(k)/60, 1.0/60); st != fmu.OK {
			t.Fatalf("step %d: %v", k, st)
		}
	}
	check("after 2 s")
	if st := get(t, in, vr["cable.static"]); st != 0 {
		t.Errorf("cable.static %g: a cable held at one point must stay dynamic", st)
	}
	stretch := (mass*9.81*length + rho*9.81*length*length/2) / (1e11 * math.Pi * 0.01 * 0.01)
	if z, w := get(t, in, vr["cable.node[21].z"]), 14-length-stretch; math.Abs(z-w) > 1e-6 {
		t.Errorf("the last sample at z = %.6f m, want %.6f (the sheave less the stretched rope)", z, w)
	}
	if z, lz := get(t, in, vr["cable.node[21].z"]), get(t, in, vr["load.z"]); math.Abs(z-lz) > 1e-9 {
		t.Errorf("load.z %g differs from the cable's end %g", lz, z)
	}
}

// A trolley move of 2 m in 4 s (a smooth ramp of speed up and down) sets
// the load swinging at the first mode of the hanging chain with the load
// at its end (closedform.HangingModes: the pendulum with the rope's mass;
// lowered by θ₀²/16 for the swing's amplitude θ₀ of some 6°) within
// 0.1 %, the same however the master cuts its communication
// steps (1/60 s, 0.1 s and 0.25 s: the internal steps keep their grid).
func TestTrolleyMoveSwing(t *testing.T) {
	const mass, length, g = 12330.0, 10.0, 9.81
	rho := 7850 * math.Pi * 0.01 * 0.01
	// The pendulum of the stretched rope: 12.3 t stretch 10 m by 3.9 cm.
	stretch := (mass*g*length + rho*g*length*length/2) / (1e11 * math.Pi * 0.01 * 0.01)
	modes, err := closedform.HangingModes(length+stretch, rho, mass, g, 1)
	if err != nil {
		t.Fatal(err)
	}
	var first []float64
	for _, comm := range []float64{1.0 / 60, 0.1, 0.25} {
		in, vr := newHoist(t, example, nil)
		var trace []float64
		tm := 0.0
		for tm < 64-1e-9 {
			v := 0.0
			if tm < 4 {
				v = 0.5 * (1 - math.Cos(math.Pi*tm/2)) // 2 m in 4 s
			}
			x := 0.0
			if tm < 4 {
				x = 0.5 * (tm - 2/math.Pi*math.Sin(math.Pi*tm/2))
			} else {
				x = 2
			}
			set(t, in, vr["hoist.x"], x)
			set(t, in, vr["hoist.vx"], v)
			if st := in.DoStep(tm, comm); st != fmu.OK {
				t.Fatalf("t = %.2f: %v", tm, st)
			}
			tm += comm
			if tm > 8 {
				trace = append(trace, get(t, in, vr["load.x"])-2)
			}
		}
		f, _, err := oscillation.Measure(trace, 0, comm)
		if err != nil {
			t.Fatal(err)
		}
		amp := 0.0
		for _, x := range trace {
			amp = max(amp, math.Abs(x))
		}
		// The small swing's frequency, lowered by θ₀²/16 at amplitude θ₀.
		theta := math.Asin(amp / length)
		want := modes[0] * (1 - theta*theta/16)
		w := 2 * math.Pi * f
		t.Logf("communication step %.3f s: swing %.5f rad/s at %.1f°, closed form %.5f (%+.3f %%)", comm, w, theta*180/math.Pi, want, 100*(w/want-1))
		if math.Abs(w/want-1) > 0.001 {
			t.Errorf("communication step %.3f s: swing %.5f rad/s, want %.5f within 0.1 %%", comm, w, want)
		}
		if comm == 1.0/60 {
			first = append(first, w)
		} else if math.Abs(w/first[0]-1) > 1e-3 {
			t.Errorf("communication step %.3f s: swing %.6f rad/s, %.6f with 1/60 s", comm, w, first[0])
		}
	}
}

// The winch pays out at 0.5 m/s: cable.length grows by v t exactly, and
// a state saved midway, restored in the same instance and serialized into
// a fresh one, continues bitwise.
func TestWinchAndStateRollback(t *testing.T) {
	in, vr := newHoist(t, example, nil)
	const h = 1.0 / 60
	set(t, in, vr["winch.speed"], 0.5)
	tm := 0.0
	run := func(in *fmu.Instance, steps int) []float64 {
		for k := 0; k < steps; k++ {
			set(t, in, vr["hoist.vx"], 0.3*math.Sin(tm))
			if st := in.DoStep(tm, h); st != fmu.OK {
				t.Fatalf("t = %.2f: %v", tm, st)
			}
			tm += h
		}
		out := make([]float64, len(in.Variables()))
		all := make([]uint32, len(out))
		for i := range all {
			all[i] = uint32(i)
		}
		if st := in.GetReal(all, out); st != fmu.OK {
			t.Fatal(st)
		}
		return out
	}
	run(in, 120)
	if l := get(t, in, vr["cable.length"]); math.Abs(l-11) > 1e-9 {
		t.Errorf("cable.length %.12g m after 2 s at 0.5 m/s, want 11", l)
	}
	snap, st := in.GetState(nil)
	if st != fmu.OK {
		t.Fatal(st)
	}
	t0 := tm
	a := run(in, 90)
	if st := in.SetState(snap); st != fmu.OK {
		t.Fatal(st)
	}
	tm = t0
	b := run(in, 90)
	data := snap.Serialize()
	fresh, _ := newHoist(t, example, nil)
	restored, err := fresh.Deserialize(data)
	if err != nil {
		t.Fatal(err)
	}
	if st := fresh.SetState(restored); st != fmu.OK {
		t.Fatal(st)
	}
	set(t, fresh, vr["winch.speed"], 0.5)
	tm = t0
	c := run(fresh, 90)
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) || math.Float64bits(a[i]) != math.Float64bits(c[i]) {
			t.Errorf("%s: %v, restored %v, in a fresh instance %v", in.Variables()[i].Name, a[i], b[i], c[i])
		}
	}
}

// Scenarios the model cannot run are refused by the exporter, each
// entry named.
func TestConfigRefusals(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(example, "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ edit, want string }{
		{`"controls": 12`, `"controls": 3`},
		{`"mass": 12330`, `"mass": -1`},
		{`"length0": 10`, `"length0": 0.5`},
		{`"outputNodes": 21`, `"outputNodes": 1`},
		{`"controls": 12`, `"controls": 12, "ceiling": -1`},
		{`"density": 7850`, `"density": 0`},
	}
	for _, c := range cases {
		sc := strings.Replace(string(raw), c.edit, c.want, 1)
		if sc == string(raw) {
			t.Fatalf("%s: not in the scenario", c.edit)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "scenario.json"), []byte(sc), 0o644); err != nil {
			t.Fatal(err)
		}
		parsed, err := fmu.ReadScenario(dir)
		if err == nil {
			reg, e := plugins.Builtin()
			if e != nil {
				t.Fatal(e)
			}
			_, err = reg.Configure(parsed)
		}
		if err == nil {
			t.Errorf("%s: accepted", c.want)
		} else {
			t.Logf("%s: %v", c.want, err)
		}
	}
}

// With the start clamped (config clampStart), the hoist's budget input
// drives Algorithm 2: a budget below a step's cost switches the spline to
// its static system (cable.static 1), one at 1.08 times the cost keeps it
// there (hysteresis), twice the cost switches it back; the crane still
// carries the load and the cable within 0.1 % in the static system.
func TestBudgetSwitchesWithClampedStart(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(example, "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	sc := strings.Replace(string(raw), `"controls": 12,`, `"controls": 12, "clampStart": true,`, 1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scenario.json"), []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	in, vr := newHoist(t, dir, nil)
	cost := get(t, in, vr["cable.cost"])
	tm := 0.0
	for _, ph := range []struct {
		budget float64
		static float64
	}{{2 * cost, 0}, {cost, 1}, {1.08 * cost, 1}, {2 * cost, 0}, {1.08 * cost, 0}} {
		set(t, in, vr["cable.budget"], ph.budget)
		for k := 0; k < 30; k++ {
			if st := in.DoStep(tm, 1.0/60); st != fmu.OK {
				t.Fatalf("t = %.2f: %v", tm, st)
			}
			tm += 1.0 / 60
		}
		if st := get(t, in, vr["cable.static"]); st != ph.static {
			t.Errorf("budget %.2f × the cost: cable.static %g, want %g", ph.budget/cost, st, ph.static)
		}
		want := -(12330 + 7850*math.Pi*0.01*0.01*10) * 9.81
		if fz := get(t, in, vr["hoist.fz"]); math.Abs(fz/want-1) > 1e-3 {
			t.Errorf("budget %.2f × the cost: hoist.fz %.1f N, want %.1f", ph.budget/cost, fz, want)
		}
	}
}
