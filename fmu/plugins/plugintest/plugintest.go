// Package plugintest holds what the model plugins' tests share: an
// example scenario instantiated through the built-in registry and
// initialized, its variables by name, scenarios edited into refusals, and
// the checks every cable model with the Hoist ports passes (a trolley
// move's swing against the hanging chain, the winch with a state rolled
// back).
package plugintest

import (
	"encoding/json"
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

// Logger logs an instance's messages to the test.
type Logger struct{ TB testing.TB }

// Log implements fmu.Logger.
func (l Logger) Log(s fmu.Status, cat, msg string) { l.TB.Logf("%v %s: %s", s, cat, msg) }

// ScenarioDir writes the scenario sc (as read from a scenario file and
// edited) into a fresh folder and returns its path.
func ScenarioDir(t testing.TB, sc map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	data, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// New instantiates the scenario in dir, sets the given parameters and
// initializes it; it returns the instance and the value references by
// variable name.
func New(t testing.TB, dir string, params map[string]float64) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	return NewLogged(t, dir, params, Logger{t})
}

// NewLogged is New with the instance's messages going to logger.
func NewLogged(t testing.TB, dir string, params map[string]float64, logger fmu.Logger) (*fmu.Instance, map[string]uint32) {
	t.Helper()
	in, vr, st := Start(t, dir, params, logger)
	if st != fmu.OK {
		t.Fatalf("initialization: %v", st)
	}
	return in, vr
}

// Start is NewLogged returning the status of the initialization, which
// may be refused, instead of failing the test on it.
func Start(t testing.TB, dir string, params map[string]float64, logger fmu.Logger) (*fmu.Instance, map[string]uint32, fmu.Status) {
	t.Helper()
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: filepath.Base(dir), GUID: sc.GUID(), ResourceLocation: dir,
		Logger: logger, Registry: reg})
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
		if _, ok := vr[name]; !ok {
			t.Fatalf("the model has no variable %q", name)
		}
		if st := in.Write([]uint32{vr[name]}, []float64{x}); st != fmu.OK {
			t.Fatalf("SetReal(%s = %g): %v", name, x, st)
		}
	}
	if st := in.EnterInitializationMode(); st != fmu.OK {
		return in, vr, st
	}
	return in, vr, in.ExitInitializationMode()
}

// Get returns the real variable vr.
func Get(t testing.TB, in *fmu.Instance, vr uint32) float64 {
	t.Helper()
	out := []float64{0}
	if st := in.Read([]uint32{vr}, out); st != fmu.OK {
		t.Fatalf("GetReal(%d): %v", vr, st)
	}
	return out[0]
}

// Set sets the real variable vr to x.
func Set(t testing.TB, in *fmu.Instance, vr uint32, x float64) {
	t.Helper()
	if st := in.Write([]uint32{vr}, []float64{x}); st != fmu.OK {
		t.Fatalf("SetReal(%d = %g): %v", vr, x, st)
	}
}

// Edited writes the scenario in dir, with the first occurrence of each
// old text replaced by its new one (oldNew in pairs), into a temporary
// folder and returns it; a text not in the scenario fails the test.
func Edited(t testing.TB, dir string, oldNew ...string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, fmu.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	sc := string(raw)
	for i := 0; i+1 < len(oldNew); i += 2 {
		if !strings.Contains(sc, oldNew[i]) {
			t.Fatalf("%s: not in the scenario", oldNew[i])
		}
		sc = strings.Replace(sc, oldNew[i], oldNew[i+1], 1)
	}
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, fmu.ScenarioFile), []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// Refused checks that the exporter refuses the scenario in dir with each
// edit (old, new) made, each error logged.
func Refused(t *testing.T, dir string, edits [][2]string) {
	t.Helper()
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		parsed, err := fmu.ReadScenario(Edited(t, dir, e[0], e[1]))
		if err == nil {
			_, err = reg.Configure(parsed)
		}
		if err == nil {
			t.Errorf("%s: accepted", e[1])
		} else {
			t.Logf("%s: %v", e[1], err)
		}
	}
}

// Hoist is an example of a cable model with the Hoist ports: a load Mass
// (kg) hanging from the sheave on Length (m) of solid rope of Diameter
// (m), Density (kg/m³) and Young's modulus E (Pa).
type Hoist struct {
	Dir                                string
	Mass, Length, Diameter, Density, E float64
}

// TrolleyMoveSwing checks that a trolley move of 2 m in 4 s (a smooth
// ramp of speed up and down) sets the load swinging at the first mode of
// the hanging chain with the load at its end (closedform.HangingModes:
// the pendulum with the rope's mass, of the stretched rope; lowered by
// θ₀²/16 for the swing's amplitude θ₀) within 0.1 %, the same within
// 0.1 % however the master cuts its communication steps (1/60 s, 0.1 s
// and 0.25 s).
func TrolleyMoveSwing(t *testing.T, h Hoist) {
	const g = 9.81
	area := math.Pi * h.Diameter * h.Diameter / 4
	rho := h.Density * area
	stretch := (h.Mass*g*h.Length + rho*g*h.Length*h.Length/2) / (h.E * area)
	modes, err := closedform.HangingModes(h.Length+stretch, rho, h.Mass, g, 1)
	if err != nil {
		t.Fatal(err)
	}
	var first []float64
	for _, comm := range []float64{1.0 / 60, 0.1, 0.25} {
		in, vr := New(t, h.Dir, nil)
		var trace []float64
		tm := 0.0
		for tm < 64-1e-9 {
			x, v := 2.0, 0.0
			if tm < 4 {
				x, v = 0.5*(tm-2/math.Pi*math.Sin(math.Pi*tm/2)), 0.5*(1-math.Cos(math.Pi*tm/2))
			}
			Set(t, in, vr["suspension.x"], x)
			Set(t, in, vr["suspension.vx"], v)
			if st := in.DoStep(tm, comm); st != fmu.OK {
				t.Fatalf("t = %.2f: %v", tm, st)
			}
			tm += comm
			if tm > 8 {
				trace = append(trace, Get(t, in, vr["load.x"])-2)
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
		theta := math.Asin(amp / h.Length)
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

// WinchAndStateRollback checks that the winch paying out at 0.5 m/s
// lengthens cable.length by v t (1e-9 m after 2 s), and that a state saved
// midway, restored in the same instance and serialized into a fresh one,
// continues bitwise in every variable.
func WinchAndStateRollback(t *testing.T, dir string) {
	in, vr := New(t, dir, nil)
	const h = 1.0 / 60
	Set(t, in, vr["winch.speed"], 0.5)
	l0 := Get(t, in, vr["cable.length"])
	tm := 0.0
	run := func(in *fmu.Instance, steps int) []float64 {
		for k := 0; k < steps; k++ {
			Set(t, in, vr["suspension.vx"], 0.3*math.Sin(tm))
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
		if st := in.Read(all, out); st != fmu.OK {
			t.Fatal(st)
		}
		return out
	}
	run(in, 120)
	if l := Get(t, in, vr["cable.length"]); math.Abs(l-l0-1) > 1e-9 {
		t.Errorf("cable.length %.12g m after 2 s at 0.5 m/s from %.12g, want 1 m more", l, l0)
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
	fresh, _ := New(t, dir, nil)
	restored, err := fresh.Deserialize(snap.Serialize())
	if err != nil {
		t.Fatal(err)
	}
	if st := fresh.SetState(restored); st != fmu.OK {
		t.Fatal(st)
	}
	Set(t, fresh, vr["winch.speed"], 0.5)
	tm = t0
	c := run(fresh, 90)
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) || math.Float64bits(a[i]) != math.Float64bits(c[i]) {
			t.Errorf("%s: %v, restored %v, in a fresh instance %v", in.Variables()[i].Name, a[i], b[i], c[i])
		}
	}
}

// CarriesLoadAndCable checks that at rest the crane carries the load and
// the rope, suspension.fz = −(M + ρAL) g within tol (relative), at the start
// and after 2 s of communication steps of 1/60 s with the inputs in set
// held; it returns the instance for the model's own checks, and the
// rope's static stretch (m) under the load and its own weight.
func CarriesLoadAndCable(t *testing.T, h Hoist, tol float64, set map[string]float64) (in *fmu.Instance, vr map[string]uint32, stretch float64) {
	t.Helper()
	const g = 9.81
	in, vr = New(t, h.Dir, nil)
	area := math.Pi * h.Diameter * h.Diameter / 4
	rho := h.Density * area
	want := -(h.Mass + rho*h.Length) * g
	check := func(when string) {
		t.Helper()
		if fz := Get(t, in, vr["suspension.fz"]); math.Abs(fz/want-1) > tol {
			t.Errorf("%s: suspension.fz %.3f N, want −(M + m_cable) g = %.3f N within %g", when, fz, want, tol)
		}
	}
	check("at the start")
	for name, x := range set {
		Set(t, in, vr[name], x)
	}
	for k := 0; k < 120; k++ {
		if st := in.DoStep(float64(k)/60, 1.0/60); st != fmu.OK {
			t.Fatalf("step %d: %v", k, st)
		}
	}
	check("after 2 s")
	return in, vr, (h.Mass*g*h.Length + rho*g*h.Length*h.Length/2) / (h.E * area)
}

// AxialRun is one way to step a winch stopping dead: the default internal
// step 1/60 s with the master stepping at 1/60 s and at 1 ms (the
// internal steps keep their grid, so the two agree), and an internal
// step of 1 ms that resolves the bounce.
type AxialRun struct {
	Name     string
	Comm, H  float64 // s
	Resolved bool
}

// AxialRuns are the runs of the axial tests, in that order.
var AxialRuns = []AxialRun{
	{"h = 1/60 s, communication step 1/60 s", 1.0 / 60, 1.0 / 60, false},
	{"h = 1/60 s, communication step 1 ms", 0.001, 1.0 / 60, false},
	{"h = 1 ms, communication step 1 ms", 0.001, 0.001, true},
}

// Bounces checks the axial bounce after a winch stops dead, in each of
// AxialRuns: stop(run) steps it and returns the trace (the tension or the
// load's height, oscillating about static), the closed form's angular
// frequency ω (rad/s) and the rope's damping time τ (s). The frequency
// ω(1 − ζ²)^½ within 10 % at h = 1/60 s (SPOOK's own dispersion at
// ωh = 0.93 is −8 %) and 1 % where the step resolves the bounce; the
// damping ratio the material's ζ = ωτ/2 within 0.05 (0.005 resolved).
func Bounces(t *testing.T, comm func(run AxialRun) (trace []float64, static, omega, tau float64)) {
	t.Helper()
	for _, run := range AxialRuns {
		trace, static, omega, tau := comm(run)
		zetaWant := omega * tau / 2
		want := omega * math.Sqrt(1-zetaWant*zetaWant) / (2 * math.Pi)
		freq, zeta, err := oscillation.Measure(trace, static, run.Comm)
		if err != nil {
			t.Fatalf("%s: %v", run.Name, err)
		}
		t.Logf("%s: bounce %.3f Hz (%.3f Hz, %+.1f %%), damping ratio %.4f (ωτ/2 = %.4f)",
			run.Name, freq, want, 100*(freq/want-1), zeta, zetaWant)
		tol, ztol := 0.10, 0.05
		if run.Resolved {
			tol, ztol = 0.01, 0.005
		}
		if math.Abs(freq/want-1) > tol {
			t.Errorf("%s: bounce %.3f Hz, want %.3f Hz within %.0f %%", run.Name, freq, want, 100*tol)
		}
		if math.Abs(zeta-zetaWant) > ztol {
			t.Errorf("%s: damping ratio %.4f, want the material's %.4f within %g", run.Name, zeta, zetaWant, ztol)
		}
	}
}

// StopPeaks checks the tension at the sheave after a winch stops dead, in
// each of AxialRuns: stop(run) steps it and returns the tension trace from
// the stop on and the closed form's peak (N). The peak within 10 % of the
// closed form at h = 1/60 s and 1 % where the step resolves the bounce,
// then the rope slack (the tension falls to zero, never below), and the
// peak within 2 % whether the master steps at 1/60 s or 1 ms.
func StopPeaks(t *testing.T, stop func(run AxialRun) (trace []float64, want float64)) {
	t.Helper()
	var peaks []float64
	for _, run := range AxialRuns {
		trace, want := stop(run)
		peak, low := 0.0, math.Inf(1)
		for _, x := range trace {
			peak, low = math.Max(peak, x), math.Min(low, x)
		}
		t.Logf("%s: peak %.0f N (closed form %.0f N, %+.1f %%), lowest tension at the sheave after it %.0f N",
			run.Name, peak, want, 100*(peak/want-1), low)
		tol := 0.10
		if run.Resolved {
			tol = 0.01
		}
		if math.Abs(peak/want-1) > tol {
			t.Errorf("%s: peak tension %.0f N, want %.0f N within %.0f %%", run.Name, peak, want, 100*tol)
		}
		if low != 0 {
			t.Errorf("%s: lowest tension at the sheave after the peak %g N, want 0 (slack)", run.Name, low)
		}
		peaks = append(peaks, peak)
	}
	diff := peaks[1]/peaks[0] - 1
	t.Logf("peak tension at 1 ms against 1/60 s communication steps (h = 1/60 s): %+.2f %%", 100*diff)
	if math.Abs(diff) > 0.02 {
		t.Errorf("peak tension at 1/60 s and 1 ms communication steps differs by %.1f %%, want within 2 %%", 100*diff)
	}
}

// eventLog keeps the messages of the logEvents category.
type eventLog struct {
	tb     testing.TB
	events []string
}

func (l *eventLog) Log(s fmu.Status, cat, msg string) {
	if cat == "logEvents" {
		l.events = append(l.events, msg)
		return
	}
	if s != fmu.OK {
		l.tb.Logf("%v %s: %s", s, cat, msg)
	}
}

// SwingWithoutSlackEvents drives the hoist family's example in dir with
// a light load on a long rope (30 kg under 50 m of the example's rope,
// which weighs four times the load), the trolley accelerating to 2 m/s at
// 1 m/s², running and stopping alike, the load swinging up to some 10 m
// aside, 20 s at 1/60 s: the rope carries the load throughout, and no
// event may say it went slack or taut.
func SwingWithoutSlackEvents(t *testing.T, dir string) {
	t.Helper()
	dir = Edited(t, dir, `"position": [0, 0, 14]`, `"position": [0, 0, 60]`, `"mass": 12330`, `"mass": 30`, `"length0": 10`, `"length0": 50`)
	log := &eventLog{tb: t}
	in, vr := NewLogged(t, dir, nil, log)
	if st := in.SetDebugLogging(true, []string{"logEvents"}); st != fmu.OK {
		t.Fatalf("SetDebugLogging: %v", st)
	}
	const h = 1.0 / 60
	x, v := 0.0, 0.0
	for k := 0; k < int(math.Round(20/h)); k++ {
		tt := float64(k) * h
		a := 0.0
		switch {
		case tt >= 1 && tt < 3:
			a = 1
		case tt >= 4 && tt < 6:
			a = -1
		}
		v0 := v
		v = max(0, v+a*h)
		x += (v0 + v) / 2 * h
		Set(t, in, vr["suspension.x"], x)
		Set(t, in, vr["suspension.vx"], v)
		if st := in.DoStep(tt, h); st != fmu.OK {
			t.Fatalf("t = %.2f s: %v", tt, st)
		}
	}
	swing := Get(t, in, vr["load.x"]) - x
	var wrong []string
	for _, e := range log.events {
		if strings.Contains(e, "slack") || strings.Contains(e, "taut") {
			wrong = append(wrong, e)
		}
	}
	t.Logf("30 kg under 50 m swung by the trolley (%.2f m aside at the end): %d slack or taut events", swing, len(wrong))
	if len(wrong) > 0 {
		t.Errorf("the rope carried its load throughout, yet %d events said it went slack or taut: %q", len(wrong), wrong)
	}
}
