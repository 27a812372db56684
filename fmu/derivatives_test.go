package fmu_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// With the trolley accelerating at 1 m/s², communication steps of 0.5 s
// that hold the velocity input miss the motion between communication
// points; giving its derivative with fmi2SetRealInputDerivatives lets the
// FMU follow it. Against a reference with communication steps of one
// internal step, the load's position error after 3 s drops at least
// tenfold with the derivatives.
func TestInputDerivativesImproveCoarseSteps(t *testing.T) {
	const a, tEnd = 1.0, 3.0
	run := func(H float64, derivatives bool) float64 {
		in := instantiate(t, "massless")
		initialize(t, in)
		vr := vrOf(in)
		n := int(math.Round(tEnd / H))
		for k := 0; k < n; k++ {
			tc := float64(k) * H
			if st := in.SetReal([]uint32{vr["suspension.x"], vr["suspension.vx"]}, []float64{a * tc * tc / 2, a * tc}); st != fmu.OK {
				t.Fatal(st)
			}
			if derivatives {
				if st := in.SetRealInputDerivatives([]uint32{vr["suspension.vx"]}, []int32{1}, []float64{a}); st != fmu.OK {
					t.Fatal(st)
				}
			}
			if st := in.DoStep(tc, H); st != fmu.OK {
				t.Fatal(st)
			}
		}
		return get(t, in, vr["load.x"])
	}
	ref := run(1.0/60, false)
	held := math.Abs(run(0.5, false) - ref)
	extrapolated := math.Abs(run(0.5, true) - ref)
	t.Logf("load.x error at %g s with 0.5 s steps: %.4g m holding the input, %.4g m with its derivative (reference %.4f m)", tEnd, held, extrapolated, ref)
	if !(extrapolated < held/10) {
		t.Errorf("error with derivatives %.3g m, without %.3g m: want at least a tenfold drop", extrapolated, held)
	}
}
