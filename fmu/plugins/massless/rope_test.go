package massless_test

import (
	"github.com/cablefmu/cablefmu/fmu"
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// winchStop runs the Hoist scenario through the FMU with the master
// stepping at comm seconds and the internal step h (s): the winch speeds
// up smoothly to v (m/s) over 1 s (a half cosine, too slow to excite the
// bounce), pays out steadily for 1 s, and stops dead. It returns the free
// length then (m) and the tension sampled every comm seconds for 3 s
// after the stop.
func winchStop(t *testing.T, comm, h, v float64) (length float64, trace []float64) {
	r := newRig(t, hoistScenario, false).start(map[string]float64{"internalStep": h})
	n := int(math.Round(1 / comm))
	for k := 0; k < 2*n; k++ {
		r.set("winch.speed", v*0.5*(1-math.Cos(math.Pi*math.Min(float64(k)/float64(n), 1))))
		r.step(comm)
	}
	r.set("winch.speed", 0)
	length = r.get("cable.length")
	for k := 0; k < int(math.Round(3/comm)); k++ {
		r.step(comm)
		trace = append(trace, r.get("cable.tension"))
	}
	return length, trace
}

// ea is the axial stiffness of the scenario's 20 mm rope at E = 100 GPa (N).
const ea = 1e11 * math.Pi * 0.01 * 0.01

// A winch stopping dead from 0.5 m/s under 1000 kg on 10.75 m of 20 mm
// rope (k = EA/L = 2.92 MN/m, material damping τ = 1 ms):
//   - peak tension Mg + the first maximum of k(x + τẋ) after the stop
//     (closedform.StopPeak: 0.961 v√(kM)) within 10 % at the default
//     h = 1/60 s (measured −2.9 %: SPOOK softens the 8.6 Hz bounce at
//     ωh = 0.93) and within 1 % at h = 1 ms (−0.2 %);
//   - the same peak within 2 % whether the master steps at 1/60 s or 1 ms
//     (the internal steps keep their grid: the master at 1 ms sees the
//     grid's values and the interpolation between them);
//   - then the rope goes slack (v√(kM) = 27 kN exceeds Mg): the tension
//     falls to zero, never below.
func TestWinchStopPeak(t *testing.T) {
	const v = 0.5
	plugintest.StopPeaks(t, func(run plugintest.AxialRun) ([]float64, float64) {
		length, trace := winchStop(t, run.Comm, run.H, v)
		dyn, err := closedform.StopPeak(ea/length, mass, 1e-3, v)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: undamped Mg + v√(kM) = %.0f N", run.Name, mass*g+v*math.Sqrt(ea/length*mass))
		return trace, mass*g + dyn
	})
}

// A winch stopping dead from 0.1 m/s (v√(kM) = 5.6 kN, below Mg: the rope
// stays taut) sets off the axial bounce of 1000 kg on 10.1 m of rope:
//   - frequency √(k/M)(1 − ζ²)^½ (the massless cable neglects the rope's
//     mass) within 10 % at h = 1/60 s (SPOOK's own dispersion at
//     ωh = 0.93 is −8 %) whatever the communication step, and within 1 %
//     at h = 1 ms;
//   - damping ratio the material's ζ = ωτ/2 within 0.05 (0.005 at 1 ms).
func TestBounceFrequencyAndDamping(t *testing.T) {
	const v, tau = 0.1, 1e-3
	plugintest.Bounces(t, func(run plugintest.AxialRun) ([]float64, float64, float64, float64) {
		length, trace := winchStop(t, run.Comm, run.H, v)
		return trace, mass * g, math.Sqrt(ea / length / mass), tau
	})
}

// A winch paying out at 0.5 m/s from the start and stopping dead at 2 s
// under 1000 kg (as in TestWinchStopPeak), read by masters that set the
// same inputs at the same times and step at 1 ms to 0.5 s, multiples of
// the internal step h = 1/60 s and not (0.04 s, 1.5h, 2.5h, 0.6h): the
// tension sampled at their communication points misses the 8.6 Hz
// bounce's peak at the coarse steps, while cable.tensionPeak, the largest
// tension over each communication step, is exactly the largest of the
// grid's tensions within the step and the interpolated ones at its ends
// (read from a master stepping at h: within 1e-9 of the peak, the
// interpolation's rounding), so that every master
// reads the same peak; it is never below the tension at its point, and a
// state saved and restored keeps it.
func TestTensionPeakAtAnyStep(t *testing.T) {
	sc := edit(t, hoistScenario, `"cable.tension", "cable.length",`, `"cable.tension", "cable.tensionPeak", "cable.length",`)
	const h, stop = 1.0 / 60, 3.0
	type point struct{ t, tension, peak float64 }
	run := func(comm float64) (pts []point) {
		r := newRig(t, sc, false).start(nil)
		r.set("winch.speed", 0.5) // from the start, the same for every master
		stopped := false
		for k := 1; float64(k)*comm <= stop+1e-9; k++ {
			r.step(comm)
			if !stopped && r.time >= 2-1e-9 {
				r.set("winch.speed", 0)
				stopped = true
			}
			pts = append(pts, point{r.time, r.get("cable.tension"), r.get("cable.tensionPeak")})
			if p := pts[len(pts)-1]; p.peak < p.tension {
				t.Fatalf("step %g s, t = %.3f s: cable.tensionPeak %.1f N below the tension %.1f N", comm, p.t, p.peak, p.tension)
			}
			if k == 50 {
				s, st := r.in.GetState(nil)
				if st != fmu.OK {
					t.Fatal("GetState failed")
				}
				r.step(comm)
				if st := r.in.SetState(s); st != fmu.OK {
					t.Fatal("SetState failed")
				}
				r.time -= comm
				if q := r.get("cable.tensionPeak"); q != pts[len(pts)-1].peak {
					t.Errorf("step %g s: restored cable.tensionPeak %.3f N, saved %.3f N", comm, q, pts[len(pts)-1].peak)
				}
			}
		}
		return pts
	}
	grid := run(h)                  // every grid point's tension
	at := func(x float64) float64 { // the tension interpolated between grid points
		k := int(math.Floor(x/h + 1e-9))
		if k == 0 || k >= len(grid) {
			return grid[max(0, min(k, len(grid))-1)].tension
		}
		a, b := grid[k-1], grid[k]
		if math.Abs(x-b.t) < 1e-9 {
			return b.tension
		}
		return b.tension + (a.tension-b.tension)*(b.t-x)/h
	}
	want := 0.0
	for _, p := range grid {
		want = max(want, p.tension)
	}
	for _, comm := range []float64{1e-3, 0.01, 0.04, 1.5 * h, 2.5 * h, 0.6 * h, 0.1, 0.25, 0.5} {
		pts := run(comm)
		sampled, peak, worst := 0.0, 0.0, 0.0
		t0 := 0.0
		for _, p := range pts {
			expect := max(at(t0), at(p.t))
			for _, g := range grid {
				if g.t > t0+1e-9 && g.t <= p.t+1e-9 {
					expect = max(expect, g.tension)
				}
			}
			if t0 >= h { // the first step's start is the initialization's
				worst = max(worst, math.Abs(p.peak-expect)/want)
			}
			sampled, peak, t0 = max(sampled, p.tension), max(peak, p.peak), p.t
		}
		t.Logf("step %.4g s: tension sampled peaks at %.0f N (%+.1f %%), cable.tensionPeak at %.0f N (%+.2f %%) against the grid's %.0f N; each step's peak within %.1e of the grid's",
			comm, sampled, 100*(sampled/want-1), peak, 100*(peak/want-1), want, worst)
		if worst > 1e-9 || math.Abs(peak/want-1) > 1e-9 {
			t.Errorf("step %g s: cable.tensionPeak peaks at %.0f N, the grid at %.0f N, and a step's peak is %.1e off its grid's: want both within 1e-9 of the peak", comm, peak, want, worst)
		}
	}
}
