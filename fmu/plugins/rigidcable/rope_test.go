package rigidcable_test

import (
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
	"github.com/cablefmu/cablefmu/fmu/plugins/rigidcable"
)

// The RigidHoist example's rope: 20 mm steel at E = 100 GPa, and a
// 1000 kg load for the axial tests (the example's 12.3 t load bounces
// too slowly to tell the step's effect).
const (
	ropeEA   = 1e11 * math.Pi * 0.01 * 0.01 // N
	ropeMu   = 7850 * math.Pi * 0.01 * 0.01 // kg/m
	lightM   = 1000.0                       // kg
	gravity  = 9.81
	dampTime = 1e-3 // the rope's default material damping time, s
)

// rigidWinchStop is the massless Hoist's winch-stop run on the rigid-body
// cable: with the master stepping at comm seconds, the winch speeds up
// over 1 s along a half cosine to v (m/s), pays out for 1 s and stops
// dead; h (s) is the internal step. It returns the free length then (m)
// and the tension at the suspension point every comm seconds for 3 s
// after the stop.
func rigidWinchStop(t *testing.T, comm, h, v float64) (length float64, trace []float64) {
	in, vr := plugintest.New(t, rigidHoist, map[string]float64{"load.mass": lightM, "internalStep": h})
	tm := 0.0
	step := func() {
		t.Helper()
		if st := in.DoStep(tm, comm); st != fmu.OK {
			t.Fatalf("DoStep(%g, %g): %v", tm, comm, st)
		}
		tm += comm
	}
	n := int(math.Round(1 / comm))
	for k := 0; k < 2*n; k++ {
		speed := v * 0.5 * (1 - math.Cos(math.Pi*math.Min(float64(k)/float64(n), 1)))
		if st := in.SetReal([]uint32{vr["winch.speed"]}, []float64{speed}); st != fmu.OK {
			t.Fatalf("SetReal(winch.speed): %v", st)
		}
		step()
	}
	if st := in.SetReal([]uint32{vr["winch.speed"]}, []float64{0}); st != fmu.OK {
		t.Fatalf("SetReal(winch.speed): %v", st)
	}
	length = plugintest.Get(t, in, vr["cable.length"])
	for k := 0; k < int(math.Round(3/comm)); k++ {
		step()
		trace = append(trace, plugintest.Get(t, in, vr["cable.tension"]))
	}
	return length, trace
}

// A winch stopping dead from 0.5 m/s under 1000 kg on 10.75 m of the
// rigid-body cable (20 segments): peak tension at the sheave (M + m_c)g +
// the first maximum of k(x + τẋ) (closedform.StopPeak with the rope's
// mass lumped as M + m_c/3, k = EA/L) within 10 % at the default
// h = 1/60 s (measured −2.5 %) and 1 % at h = 1 ms (+0.2 %), and the same
// within 2 % whether the master steps at 1/60 s or 1 ms. Then the rope
// goes slack at the sheave: the tension there falls to zero, never below
// (it pushed with 12 kN before the sheave let slack rope through).
func TestRigidWinchStopPeak(t *testing.T) {
	const v = 0.5
	plugintest.StopPeaks(t, func(run plugintest.AxialRun) ([]float64, float64) {
		length, trace := rigidWinchStop(t, run.Comm, run.H, v)
		mc := ropeMu * length
		dyn, err := closedform.StopPeak(ropeEA/length, lightM+mc/3, dampTime, v)
		if err != nil {
			t.Fatal(err)
		}
		return trace, (lightM+mc)*gravity + dyn
	})
}

// A winch stopping dead from 0.1 m/s (the rope stays taut) sets off the
// axial bounce of 1000 kg on 10.1 m of the rigid-body cable, whose
// segments carry the rope's mass: frequency (β/L)√(EA/μ), β tan β =
// m_c/M (closedform.Bounce, 8.8 Hz), within 10 % at h = 1/60 s (SPOOK's
// dispersion at ωh = 0.93 is −8 %) whatever the communication step, and
// 1 % at h = 1 ms; damping ratio the material's ωτ/2 within 0.05 (0.005
// at 1 ms).
func TestRigidBounceFrequencyAndDamping(t *testing.T) {
	const v = 0.1
	plugintest.Bounces(t, func(run plugintest.AxialRun) ([]float64, float64, float64, float64) {
		length, trace := rigidWinchStop(t, run.Comm, run.H, v)
		return trace, (lightM + ropeMu*length) * gravity, closedform.Bounce(ropeEA, length, ropeMu, lightM), dampTime
	})
}

// The removed scenario key physicalBending is refused with the reason.
func TestPhysicalBendingRefused(t *testing.T) {
	sc, err := fmu.ParseScenario(exampleWithCable(t, "physicalBending", true))
	if err != nil {
		t.Fatal(err)
	}
	_, err = rigidcable.Model.Configure(sc)
	if err == nil || !strings.Contains(err.Error(), "physicalBending: no longer a setting") {
		t.Fatalf("scenario with physicalBending: %v, want it refused with the reason", err)
	}
}
