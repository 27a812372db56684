package pyplugin_test

import (
	"math"
	"sync"
	"testing"
)

const exampleDir = "../../examples/hoist-controlled"

// The example's controller lifts the load 5 m along its profile within
// 3 cm and keeps the tension under its 12 kN limit.
func TestControllerFollowsProfileUnderLimit(t *testing.T) {
	cfg, err := configureDir(t, exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	z0 := r.get(t, "load.z")
	limit := r.get(t, "controller.tension_limit")
	var worstErr, maxT float64
	for r.t < 20 {
		if err := r.step(); err != nil {
			t.Fatalf("t = %g s: %v", r.t, err)
		}
		worstErr = math.Max(worstErr, math.Abs(r.get(t, "controller.error")))
		maxT = math.Max(maxT, r.get(t, "cable.tension"))
	}
	lifted := r.get(t, "load.z") - z0
	t.Logf("lifted %.4f m, worst tracking error %.4f m, max tension %.0f N (limit %.0f N)", lifted, worstErr, maxT, limit)
	if worstErr > 0.03 {
		t.Errorf("tracking error %.4f m, want within 3 cm", worstErr)
	}
	if maxT >= limit {
		t.Errorf("tension reached %.0f N, limit %.0f N", maxT, limit)
	}
	if math.Abs(lifted-5) > 0.01 {
		t.Errorf("lifted %.4f m, want 5 m within 1 cm", lifted)
	}
}

// With a load of 1100 kg, lifting at the profile's acceleration would need
// 11.7 kN plus the rope's bounce (the unprotected lift peaks above 12 kN,
// twice M a over the mean at each step of the acceleration): the controller
// watches the filtered tension and holds the hoisting
// back, the tension stays under 12 kN, and the lift completes late.
func TestControllerHoldsHeavyLoadUnderLimit(t *testing.T) {
	cfg, err := configureDir(t, exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, map[string]float64{"load.mass": 1100, "controller.acceleration": 0.8})
	z0 := r.get(t, "load.z")
	limit := r.get(t, "controller.tension_limit")
	var maxT, held float64
	for r.t < 20 {
		if err := r.step(); err != nil {
			t.Fatalf("t = %g s: %v", r.t, err)
		}
		maxT = math.Max(maxT, r.get(t, "cable.tension"))
		held += r.h * r.get(t, "controller.overload")
	}
	lifted := r.get(t, "load.z") - z0
	t.Logf("max tension %.0f N (limit %.0f N), held back %.2f s, lifted %.4f m", maxT, limit, held, lifted)
	if maxT >= limit {
		t.Errorf("tension reached %.0f N, limit %.0f N", maxT, limit)
	}
	if held == 0 {
		t.Errorf("the tension limit never acted: the test does not test it")
	}
	// The same lift without the protection overshoots the limit.
	free := start(t, cfg, map[string]float64{"load.mass": 1100, "controller.acceleration": 0.8, "controller.tension_limit": 1e7})
	var freeT float64
	for free.t < 20 {
		if err := free.step(); err != nil {
			t.Fatalf("t = %g s: %v", free.t, err)
		}
		freeT = math.Max(freeT, free.get(t, "cable.tension"))
	}
	t.Logf("without the protection: max tension %.0f N", freeT)
	if freeT <= limit {
		t.Errorf("the unprotected lift stays under %.0f N too (%.0f N): the test does not test the protection", limit, freeT)
	}
	if math.Abs(lifted-5) > 0.01 {
		t.Errorf("lifted %.4f m by t = 20 s, want 5 m within 1 cm", lifted)
	}
}

// Instances run on different goroutines at once and give the results of
// running alone (run with -race to check for shared state).
func TestConcurrentInstancesMatchSoloRuns(t *testing.T) {
	cfg, err := configureDir(t, exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	trace := func(lift float64) []float64 {
		r := start(t, cfg, map[string]float64{"controller.lift": lift})
		var out []float64
		for i := 0; i < 300; i++ {
			r.values[r.vr(t, "wind.speed")] = float64(i%50) * 0.2
			if err := r.step(); err != nil {
				t.Error(err)
				return nil
			}
			out = append(out, r.values...)
		}
		return out
	}
	lifts := []float64{2, 3, 4, 5}
	solo := make([][]float64, len(lifts))
	for i, l := range lifts {
		solo[i] = trace(l)
	}
	got := make([][]float64, len(lifts))
	var wg sync.WaitGroup
	for i, l := range lifts {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = trace(l) }()
	}
	wg.Wait()
	for i := range lifts {
		if len(got[i]) != len(solo[i]) {
			t.Fatalf("instance %d: %d values concurrently, %d alone", i, len(got[i]), len(solo[i]))
		}
		for k := range solo[i] {
			if math.Float64bits(solo[i][k]) != math.Float64bits(got[i][k]) {
				t.Fatalf("instance %d value %d: %v concurrently, %v alone", i, k, got[i][k], solo[i][k])
			}
		}
	}
}
