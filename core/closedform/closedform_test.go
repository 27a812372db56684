package closedform

import (
	"math"
	"testing"
)

// The undamped peak is v√(km); a damped one lies between that and the
// maximum found by sampling the solution finely, which it must equal.
func TestStopPeak(t *testing.T) {
	const k, m, v = 2.92e6, 1000.0, 0.5
	p, err := StopPeak(k, m, 0, v)
	if err != nil || math.Abs(p/(v*math.Sqrt(k*m))-1) > 1e-12 {
		t.Errorf("undamped peak %g (%v), want v√(km) = %g", p, err, v*math.Sqrt(k*m))
	}
	for _, tau := range []float64{1e-3, 5e-3, 0.02} {
		p, err := StopPeak(k, m, tau, v)
		if err != nil {
			t.Fatal(err)
		}
		w := math.Sqrt(k / m)
		z := w * tau / 2
		wd := w * math.Sqrt(1-z*z)
		best := 0.0
		for i := 0; i < 400000; i++ {
			s := float64(i) * 1e-7
			x := v / wd * math.Exp(-z*w*s) * math.Sin(wd*s)
			xd := v * math.Exp(-z*w*s) * (math.Cos(wd*s) - z*w/wd*math.Sin(wd*s))
			best = math.Max(best, k*(x+tau*xd))
		}
		if math.Abs(p/best-1) > 1e-6 {
			t.Errorf("τ = %g s: peak %g N, sampled solution %g N", tau, p, best)
		}
	}
	if _, err := StopPeak(k, m, 1, v); err == nil {
		t.Error("an over-damped rope gave a peak")
	}
}

// 1000 kg on 10 m of 20 mm steel rope (EA = 31.4 MN, 2.47 kg/m): 8.884 Hz
// with the rope's mass; without it √(EA/(l m)).
func TestBounce(t *testing.T) {
	ea, mu := 1e11*math.Pi*1e-4, 7850*math.Pi*1e-4
	if f := Bounce(ea, 10, mu, 1000) / (2 * math.Pi); math.Abs(f-8.884) > 0.001 {
		t.Errorf("bounce %g Hz, want 8.884 Hz", f)
	}
	if w := Bounce(ea, 10, 0, 1000); math.Abs(w-math.Sqrt(ea/1e4)) > 1e-12 {
		t.Errorf("massless rope: %g rad/s, want √(EA/(l m)) = %g", w, math.Sqrt(ea/1e4))
	}
}
