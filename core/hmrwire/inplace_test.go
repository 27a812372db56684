package hmrwire

import (
	"math"
	"slices"
	"testing"

	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/state"
)

// A master iterating a communication step restores the state it saved at
// the step's start into the same crane, whose layout has not changed: the
// state loads into the crane's own objects (sameLayout), and the crane
// continues bitwise as the run that was not interrupted, after one
// restore and after many (a step taken, undone and taken again), as a
// crane rebuilt from the state (a new one, laid out anew) does.
func TestRestoreInPlaceBitwise(t *testing.T) {
	spec := exampleCrane()
	const h = 1.0 / 60
	drive := func(ho *Hoist, k int) { ho.Drum.Speed = -0.8 * math.Min(float64(k)*h, 1) }
	snapshot := func(ho *Hoist) []float64 {
		out := []float64{ho.Drum.Angle(), ho.Hook().X, ho.Hook().Y, ho.Hook().Z}
		for _, p := range ho.Wire.Points() {
			out = append(out, p.X, p.Y, p.Z)
		}
		return append(out, ho.Wire.Tensions()...)
	}
	ho := newCrane(t, spec)
	for k := 0; k < 120; k++ {
		drive(ho, k)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	saved := ho.Sys.SaveState(nil)
	var want [][]float64
	for k := 120; k < 180; k++ {
		drive(ho, k)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
		want = append(want, snapshot(ho))
	}
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	laidOut := func(ho *Hoist) bool {
		im := &image{}
		if _, err := state.Load(saved, ho.Sys.walker(im)); err != nil {
			t.Fatal(err)
		}
		return ho.Sys.sameLayout(im)
	}
	// The same crane, a step after the save: its layout is the saved one.
	ho = newCrane(t, spec)
	for k := 0; k < 120; k++ {
		drive(ho, k)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	for try := 0; try < 3; try++ { // a step taken and undone, three times
		drive(ho, 120)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
		if !laidOut(ho) {
			t.Fatal("one step after the save the layout changed: the test shows nothing")
		}
		if _, err := ho.Sys.LoadState(saved); err != nil {
			t.Fatal(err)
		}
	}
	for k := 120; k < 180; k++ {
		drive(ho, k)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
		if got := snapshot(ho); !same(got, want[k-120]) {
			t.Fatalf("restored in place: step %d after the restore differs", k-120)
		}
	}
	// A new crane, laid out as at its start: rebuilt from the state.
	fresh := newCrane(t, spec)
	if laidOut(fresh) {
		t.Log("the new crane's layout is the saved one: both restores load in place")
	}
	if _, err := fresh.Sys.LoadState(saved); err != nil {
		t.Fatal(err)
	}
	for k := 120; k < 180; k++ {
		drive(fresh, k)
		if err := fresh.Step(h); err != nil {
			t.Fatal(err)
		}
		if got := snapshot(fresh); !same(got, want[k-120]) {
			t.Fatalf("rebuilt: step %d after the restore differs", k-120)
		}
	}
}

// A master iterating every step: from mid-run on, each step is taken,
// thrown away by restoring the state saved before it, and taken again,
// while the crane pays its load down onto the ground (ground contacts
// switching on and off), with and without the wire's twist. Every step is
// bitwise the uninterrupted run's, whether the restore loaded in place or
// rebuilt the layout; both kinds occur.
func TestRestoreEveryStepBitwise(t *testing.T) {
	const h = 1.0 / 60
	for _, twist := range []bool{false, true} {
		build := func() (*Hoist, func(k int) error) {
			spec := craneSpec(4, 45)
			spec.Resolution.MaxMassNodes = 60
			if twist {
				spec.Twist = true
				spec.Rope.TorsionalStiffness, spec.Rope.TorqueFactor = 20, material.TorqueFactorSixStrand
			}
			ho := newCrane(t, spec)
			return ho, func(k int) error {
				ho.Drum.Speed = 3 * math.Min(float64(k)/60, 1)
				if k > 1500 {
					ho.Drum.Speed = 0
				}
				return ho.Step(h)
			}
		}
		snapshot := func(ho *Hoist) []float64 {
			out := ho.Sys.SaveState(nil)
			for _, p := range ho.Wire.Points() {
				out = append(out, p.X, p.Y, p.Z)
			}
			return append(append(out, ho.Wire.Tensions()...), ho.Drum.Angle(), ho.GroundForce())
		}
		const n, from = 1800, 900
		ref, step := build()
		want := make([][]float64, n)
		for k := 0; k < n; k++ {
			if err := step(k); err != nil {
				t.Fatal(err)
			}
			want[k] = snapshot(ref)
		}
		ho, step := build()
		inPlace, rebuilt := 0, 0
		for k := 0; k < n; k++ {
			if k >= from {
				saved := ho.Sys.SaveState(nil)
				if err := step(k); err != nil {
					t.Fatal(err)
				}
				im := &image{}
				if _, err := state.Load(saved, ho.Sys.walker(im)); err != nil {
					t.Fatal(err)
				}
				if ho.Sys.sameLayout(im) {
					inPlace++
				} else {
					rebuilt++
				}
				if _, err := ho.Sys.LoadState(saved); err != nil {
					t.Fatalf("twist %v, step %d: %v", twist, k, err)
				}
			}
			if err := step(k); err != nil {
				t.Fatal(err)
			}
			if got := snapshot(ho); !slices.EqualFunc(got, want[k], func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Fatalf("twist %v: step %d differs from the uninterrupted run (%d restores in place, %d rebuilt so far)", twist, k, inPlace, rebuilt)
			}
		}
		t.Logf("twist %v: %d restores in place, %d rebuilt, ground force at the end %.0f N", twist, inPlace, rebuilt, ho.GroundForce())
		if inPlace == 0 || rebuilt == 0 {
			t.Errorf("twist %v: %d restores in place and %d rebuilt: the test shows less than it says", twist, inPlace, rebuilt)
		}
		if ho.GroundForce() <= 0 {
			t.Errorf("twist %v: the load never reached the ground", twist)
		}
	}
}
