package hmrwire

import (
	"math"
	"slices"
	"testing"

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
		if _, err := state.Load(saved, walker{im, ho.Sys.winches()}); err != nil {
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
