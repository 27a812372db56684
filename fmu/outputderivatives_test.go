package fmu_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// First output derivatives: for the load's position they are its velocity
// (to rounding, 1e-9), and extrapolating the outputs over the next
// communication step with them — what a master does between communication
// points — beats holding them: after 0.05 s the swinging load's position
// error drops at least fivefold, its velocity's at least twofold. (The
// crane force carries the lightly damped 8.9 Hz bounce of the load on the
// rope, which a first derivative over 0.05 s cannot follow; it is only
// logged.)
func TestOutputDerivativesExtrapolate(t *testing.T) {
	in := instantiate(t, "massless")
	initialize(t, in)
	vr := vrOf(in)
	drive(t, in, 0, 40) // trolley accelerating, load swinging
	names := []string{"load.x", "load.vx", "suspension.fx"}
	refs := make([]uint32, len(names))
	for i, n := range names {
		refs[i] = vr[n]
	}
	now := make([]float64, len(names))
	rates := make([]float64, len(names))
	if st := in.GetReal(refs, now); st != fmu.OK {
		t.Fatal(st)
	}
	if st := in.OutputDerivatives("test", refs, []int32{1, 1, 1}, rates); st != fmu.OK {
		t.Fatal(st)
	}
	if v := get(t, in, vr["load.vx"]); math.Abs(rates[0]-v) > 1e-9*math.Abs(v) {
		t.Errorf("d(load.x)/dt = %.12g, load.vx = %.12g: want equal within 1e-9", rates[0], v)
	}
	later := drive(t, in, 2, 1) // one more step of 0.05 s with the same inputs pattern
	for i, gain := range []float64{5, 2, 0} {
		held := math.Abs(later[refs[i]] - now[i])
		extrapolated := math.Abs(later[refs[i]] - (now[i] + 0.05*rates[i]))
		t.Logf("%s after 0.05 s: error %.3g holding, %.3g extrapolating", names[i], held, extrapolated)
		if gain > 0 && !(extrapolated < held/gain) {
			t.Errorf("%s: extrapolation error %.3g, holding %.3g: want a %.0f-fold drop", names[i], extrapolated, held, gain)
		}
	}
	if st := in.OutputDerivatives("test", refs[:1], []int32{2}, rates[:1]); st != fmu.Error {
		t.Errorf("second derivatives: %v, want Error", st)
	}
}
