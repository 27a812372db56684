package oscillation

import (
	"math"
	"testing"
)

// A sampled e^(−ζωt) cos(ω_d t) about a mean of 5, at 1 ms and at 1/60 s
// (7 samples a period): frequency ω_d/2π within 0.1 % and ζ within 0.002
// (measured 0.014 % and 0.0004 at 1/60 s, where the sampled peaks fall
// between the true ones); too short a trace is refused.
func TestMeasure(t *testing.T) {
	const f, zeta = 8.5, 0.03
	w := 2 * math.Pi * f / math.Sqrt(1-zeta*zeta)
	for _, dt := range []float64{1e-3, 1.0 / 60} {
		var trace []float64
		for k := 0; k < int(3/dt); k++ {
			s := float64(k) * dt
			trace = append(trace, 5+math.Exp(-zeta*w*s)*math.Cos(w*math.Sqrt(1-zeta*zeta)*s))
		}
		gotF, gotZ, err := Measure(trace, 5, dt)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("dt = %g s: %.5f Hz (%+.4f %%), ζ = %.5f", dt, gotF, 100*(gotF/f-1), gotZ)
		if math.Abs(gotF/f-1) > 1e-3 || math.Abs(gotZ-zeta) > 2e-3 {
			t.Errorf("dt = %g s: %.5f Hz, ζ = %.5f; want %g Hz, %g", dt, gotF, gotZ, f, zeta)
		}
	}
	if _, _, err := Measure([]float64{0, 1, -1, 1}, 0, 0.1); err == nil {
		t.Error("a trace with two crossings was measured")
	}
}
