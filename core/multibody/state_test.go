package multibody

import (
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// A world saved, stepped, restored and stepped again repeats its motion
// bitwise.
func TestSaveLoadStateRepeatsBitwise(t *testing.T) {
	w := NewWorld(geom.V(0, 0, -9.81))
	b := w.AddBody(NewBody("bob", 3, BoxInertia(3, 0.1, 0.2, 0.3), geom.V(0.5, 0, -1)))
	b.AngVel = geom.V(0.3, 1, -2)
	w.AddConstraint(&rod{body: b, length: 1.2, compliance: 1e-6, hi: 1e9})
	run := func() geom.Vec3 {
		for i := 0; i < 50; i++ {
			if err := w.Step(0.01); err != nil {
				t.Fatal(err)
			}
		}
		return b.Pos
	}
	run()
	saved := w.SaveState(nil)
	first := run()
	if rest, err := w.LoadState(saved); err != nil || len(rest) != 0 {
		t.Fatalf("LoadState: %v, %d floats left", err, len(rest))
	}
	if again := run(); again != first {
		t.Errorf("restored run ends at %v, the original at %v", again, first)
	}
	if _, err := w.LoadState(saved[:10]); err == nil {
		t.Error("a truncated state was accepted")
	}
}
