package massless_test

import (
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
