package hmrwire

import (
	"testing"
)

// A step that the system takes in substeps (a box unwinding from a wire
// turns at up to 30 rad/s, so most of its steps of 1/60 s are cut, while
// contact nodes go and the slack wire refines between substeps) is one
// step for what the system reports: the box's constraint force is the
// step's mean, which balances its momentum over the whole step, m Δv =
// (F + m g) h, within 1e-9 of m g h. (The last substep's force, which the
// system reported before, was off by up to 2.5 times the box's weight.)
func TestSubstepsReportTheWholeStep(t *testing.T) {
	const h = 1.0 / 60
	sc := newUnwindScene(t, 0.5, 0.2)
	sys, box := sc.sys, sc.box
	g := sys.World.Gravity
	cut, worst := 0, 0.0
	for k := 0; k < 300; k++ {
		v0, before := box.Vel, sys.Substeps
		if err := sys.Step(h); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		if sys.Substeps-before > 1 {
			cut++
		}
		gap := box.Vel.Sub(v0).Scale(sc.mBox / h).Sub(box.ConstraintForce.AddScaled(sc.mBox, g)).Norm()
		worst = max(worst, gap/(sc.mBox*g.Norm()))
	}
	t.Logf("%d of 300 steps in substeps; momentum balance off by at most %.2g of the weight", cut, worst)
	if cut < 30 {
		t.Errorf("only %d of 300 steps in substeps: the test does not exercise them", cut)
	}
	if worst > 1e-9 {
		t.Errorf("the box's constraint force misses its momentum change by %.3g of its weight, want at most 1e-9", worst)
	}
}

// The values of AddMean are, after a step the system cut, the means over
// its substeps of what they read after each (the box unwinding's wire
// tension at its support: its last substep's differs), after a step not
// cut what they read; and they are part of the state: a system built
// alike and loaded with a state saved after a cut step reports the same.
func TestStepMeansAreTheSubstepsMeans(t *testing.T) {
	const h = 1.0 / 60
	sc := newUnwindScene(t, 0.5, 0.2)
	sys, w := sc.sys, sc.w
	read := func(dst []float64) []float64 { return append(dst, w.FirstTension()) }
	mean := sys.AddMean(read)
	var seen []float64 // the values after each substep
	sys.AddMean(func(dst []float64) []float64 {
		seen = append(seen, w.FirstTension())
		return append(dst, 0)
	})
	differs := 0
	for k := 0; k < 120; k++ {
		seen = seen[:0]
		before := sys.Substeps
		if err := sys.Step(h); err != nil {
			t.Fatal(err)
		}
		n := sys.Substeps - before
		got := mean.Values(nil)[0]
		want := w.FirstTension()
		if n > 1 {
			want = 0
			for _, v := range seen {
				want += v
			}
			want /= float64(n)
			if got != w.FirstTension() {
				differs++
			}
		}
		if got != want {
			t.Fatalf("step %d in %d substeps: %g N, want %g", k, n, got, want)
		}
		if n > 1 && k > 60 {
			saved := sys.SaveState(nil)
			other := newUnwindScene(t, 0.5, 0.2)
			om := other.sys.AddMean(func(dst []float64) []float64 { return append(dst, other.w.FirstTension()) })
			other.sys.AddMean(func(dst []float64) []float64 { return append(dst, 0) })
			if err := other.sys.LoadStateAll(saved); err != nil {
				t.Fatal(err)
			}
			if o := om.Values(nil)[0]; o != got {
				t.Fatalf("restored after step %d: %g N, want %g", k, o, got)
			}
			if differs == 0 {
				t.Error("no cut step's mean differed from its last substep's value: the test shows nothing")
			}
			return
		}
	}
	t.Fatalf("no cut step after 1 s (%d differed from their last substep)", differs)
}
