package multibody

import (
	"errors"
	"math"
	"slices"
	"strings"
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

// A body state holding a number no step leaves (not finite, a position or
// speed beyond DivergenceLimit, a non-positive mass, a non-unit
// orientation) is refused naming the body and the quantity, and the world
// is unchanged.
func TestLoadStateRefusesDamagedBodies(t *testing.T) {
	w := NewWorld(geom.V(0, 0, -9.81))
	b := w.AddBody(NewBody("bob", 3, BoxInertia(3, 0.1, 0.2, 0.3), geom.V(0.5, 0, -1)))
	w.AddConstraint(&rod{body: b, length: 1.2, compliance: 1e-6, hi: 1e9})
	if err := w.Step(0.01); err != nil {
		t.Fatal(err)
	}
	saved := w.SaveState(nil)
	cases := []struct {
		at   int
		x    float64
		want string
	}{
		{0, 0, "mass"},
		{0, -3, "mass"},
		{2, -1, "inertia"},
		{7, 2, "orientation"},
		{4, 1e300, "position"},
		{6, -2 * DivergenceLimit, "position"},
		{12, 1e10, "velocity"},
		{15, 1e300, "angular velocity"},
		{30, 1e300, "velocity"},
		{20, math.Inf(1), "+Inf"},
	}
	for _, c := range cases {
		bad := append([]float64(nil), saved...)
		bad[c.at] = c.x
		_, err := w.LoadState(bad)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bob") || !errors.Is(err, ErrBadState) {
			t.Errorf("number %d = %g: %v, want a refusal naming bob's %s", c.at, c.x, err, c.want)
		}
		if got := w.SaveState(nil); !slices.Equal(got, saved) {
			t.Fatalf("number %d = %g: the refused state changed the world", c.at, c.x)
		}
	}
}
