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

// The heavy elastica's tip sinks by w l⁴/(8 EI) for small deflection
// (within 0.1 % at δ = 0.1 % of l, the deflection's own nonlinearity
// being of order δ²/l²), keeps its length, and a floppy rod hangs close
// to the vertical; one floppier than shooting can resolve is refused.
func TestHeavyCantilever(t *testing.T) {
	const ei, l = 2.0, 1.0
	w := 8 * ei * 1e-3 * l / (l * l * l * l) // tip 1 mm down
	shape, err := HeavyCantilever(ei, w, l, 400)
	if err != nil {
		t.Fatal(err)
	}
	tip := shape[len(shape)-1]
	if want := w * l * l * l * l / (8 * ei); math.Abs(-tip[1]/want-1) > 1e-3 {
		t.Errorf("small deflection: tip at %.6g m down, want %.6g", -tip[1], want)
	}
	if _, err := HeavyCantilever(ei, 2e3*ei, l, 2000); err == nil {
		t.Error("a rod with √(w l³/EI) = 45 was not refused")
	}
	floppy, err := HeavyCantilever(ei, 300*ei, l, 2000)
	if err != nil {
		t.Fatal(err)
	}
	length := 0.0
	for k := 1; k < len(floppy); k++ {
		length += math.Hypot(floppy[k][0]-floppy[k-1][0], floppy[k][1]-floppy[k-1][1])
	}
	end := floppy[len(floppy)-1]
	if math.Abs(length-l) > 1e-6 || end[1] > -0.8*l || end[0] > 0.3*l {
		t.Errorf("floppy rod: chords %.9g m long, tip at (%.3f, %.3f) m; want the length %g within 1e-6 and the tip hanging below the clamp", length, end[0], end[1], l)
	}
}

// Hanging modes: without a load the zeros of J₀; with a load much
// heavier than the chain the first mode is the pendulum √(g/l) (its
// correction for the chain's mass μl/m = 1e-4 below 1e-4) and the next
// ones the chain's strings between the load and the top.
func TestHangingModes(t *testing.T) {
	const l, mu, g = 10.0, 2.0, 9.81
	free, err := HangingModes(l, mu, 0, g, 3)
	if err != nil {
		t.Fatal(err)
	}
	for k, j := range []float64{2.404825557695773, 5.520078110286311, 8.653727912911013} {
		if want := j / 2 * math.Sqrt(g/l); math.Abs(free[k]/want-1) > 1e-12 {
			t.Errorf("free chain mode %d: %.12g rad/s, want %.12g", k+1, free[k], want)
		}
	}
	loaded, err := HangingModes(l, mu, 2e5, g, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Sqrt(g / l); math.Abs(loaded[0]/want-1) > 1e-4 {
		t.Errorf("loaded chain: pendulum mode %.9g rad/s, want %.9g within 1e-4", loaded[0], want)
	}
	// The string between the load and the top, at tension m g: π/l √(m g/μ).
	if want := math.Pi / l * math.Sqrt(2e5*g/mu); math.Abs(loaded[1]/want-1) > 1e-3 {
		t.Errorf("loaded chain: first string mode %.6g rad/s, want %.6g within 0.1 %%", loaded[1], want)
	}
}

// BlockYaw: for small angles and ropes without twist stiffness the block
// turns to asin(4 k d H/s²); the ropes' twist stiffness turns it less;
// above H = s²/(4kd) the falls cable (π/2 flags it).
func TestBlockYaw(t *testing.T) {
	const W, s, k, d = 2e5, 1.0, 0.089, 0.02
	for _, H := range []float64{5, 10, 20} {
		got, want := BlockYaw(W, s, H, k, d, 0), math.Asin(4*k*d*H/(s*s))
		if math.Abs(got/want-1) > 0.01 {
			t.Errorf("H = %g m: %.5f rad, want asin(4kdH/s²) = %.5f within 1 %%", H, got, want)
		}
		if stiff := BlockYaw(W, s, H, k, d, 1e4); !(stiff < got) {
			t.Errorf("H = %g m: with the ropes' GJ the block turned %.5f rad, not less than %.5f", H, stiff, got)
		}
	}
	if got := BlockYaw(W, 0.5, 40, k, d, 0); got != math.Pi/2 {
		t.Errorf("above s²/(4kd) = 35 m: %.4f rad, want π/2 (the falls cable)", got)
	}
}
