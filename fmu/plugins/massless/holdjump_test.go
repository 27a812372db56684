package massless_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/oscillation"
)

// TestJumpAfterHold: a master holds the suspension point for a second and
// then raises it by position alone, by a third of the rope's static
// stretch (20 t on 50 m of 20 mm rope: the bounce √(EA/(LM)) resolved,
// ωh = 0.09): the point stands at its new height after the path's lag,
// and the load bounces about its new rest at the closed form's frequency
// within 0.3 % (the SPOOK step's own error is 0.09 %), the first bounce
// about the same mean as the later ones within 2 mm. The path once took
// the second of holding for a motion, let the point drift on at the
// mean speed of it until a sample was due a second later: the bounce ran
// 2.7 % slow and its first swing was 60 % too large.
func TestJumpAfterHold(t *testing.T) {
	const (
		h    = 1.0 / 60
		l    = 50.0
		load = 20000.0
		ea   = 1e11 * math.Pi * 0.02 * 0.02 / 4
	)
	sc := edit(t, hoistScenario, `"length0": 10`, `"length0": 50`, `"mass": 1000`, `"mass": 20000`, `"position": [0, 0, 20]`, `"position": [0, 0, 60]`)
	r := newRig(t, sc, false).start(nil)
	for k := 0; k < 60; k++ {
		r.step(h)
	}
	stretch := load * g * l / ea
	r.set("suspension.z", 60+stretch/3)
	want := closedform.Bounce(ea, l, 0, load)
	var trace []float64
	for r.time < 1+10*2*math.Pi/want {
		r.step(h)
		trace = append(trace, r.get("load.z"))
	}
	mean := 0.0
	for _, z := range trace[len(trace)/2:] {
		mean += z
	}
	mean /= float64(len(trace) - len(trace)/2)
	f, _, err := oscillation.Measure(trace, mean, h)
	if err != nil {
		t.Fatal(err)
	}
	period := int(math.Round(2 * math.Pi / want / h))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, z := range trace[:period] {
		lo, hi = min(lo, z), max(hi, z)
	}
	t.Logf("bounce %.5f Hz, closed form %.5f Hz (%+.3f %%); the first bounce between %.4f and %.4f m (mid %.4f), later about %.4f m",
		f, want/(2*math.Pi), 100*(2*math.Pi*f/want-1), lo, hi, (lo+hi)/2, mean)
	if d := 2*math.Pi*f/want - 1; math.Abs(d) > 0.003 {
		t.Errorf("bounce %+.2f %% off the closed form", 100*d)
	}
	if d := (lo+hi)/2 - mean; math.Abs(d) > 0.002 {
		t.Errorf("the first bounce swings about %.4f m, the later ones about %.4f m", (lo+hi)/2, mean)
	}
}
