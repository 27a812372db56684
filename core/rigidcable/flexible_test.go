package rigidcable

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
)

// A perfectly flexible rope (material.Rope.Flexible, EI = 0) is the limit
// of a rope whose bending stiffness falls to nothing: its bend rows, of
// infinite compliance, keep only the damping of the turning the step
// takes in (stability.TurnDamper), as a rope of EI = 1e-12 N·m² keeps it
// with its compliance of 5e11 rad/(N·m). The trolley jerk (1 m/s for 2 s,
// then stopped) under a load of 1e4 segments, whose segments all turn
// faster than 1/60 s resolves: over 30 s the two loads' paths agree within
// 1e-8 m, hinged or clamped at the load (measured: 1e-13 m hinged, 6e-10 m
// clamped, where the clamp's boundary layer √(EI/T) remains). A damper ten
// times the limit's moved the path by 6e-6 m; without it the flexible
// rope's load flew off by 67 m (hinged) and 41 m (clamped), and before it
// the first step failed ("not positive definite").
func TestFlexibleRopeIsBendingsLimit(t *testing.T) {
	const h, seconds, tol = 1.0 / 60, 30.0, 1e-8
	path := func(rope material.Rope, hook EndKind) ([]geom.Vec3, int) {
		rig := newHoistRig(t, rope, 20, 1e4, hook)
		var p []geom.Vec3
		turned := 0
		for i := range int(seconds / h) {
			rig.hoist.Vel = geom.Vec3{}
			if float64(i+1)*h <= 2 {
				rig.hoist.Vel = geom.V(1, 0, 0)
			}
			if err := rig.world.Step(h); err != nil {
				t.Fatalf("flexible %v, EI %g N·m², hook %d, t = %.3f s: %v", rope.Flexible, rope.BendingStiffness, hook, float64(i+1)*h, err)
			}
			p = append(p, rig.load.Pos)
			turned = max(turned, rig.world.Turned())
		}
		return p, turned
	}
	for _, hook := range []EndKind{Pinned, Clamped} {
		name := map[EndKind]string{Pinned: "hinged", Clamped: "clamped"}[hook]
		flexible, soft := material.DefaultSteelRope(), material.DefaultSteelRope()
		flexible.Flexible, soft.BendingStiffness = true, 1e-12
		a, turned := path(flexible, hook)
		b, _ := path(soft, hook)
		worst := 0.0
		for i := range a {
			worst = math.Max(worst, a[i].Sub(b[i]).Norm())
		}
		t.Logf("%s: the load's paths under a flexible rope and one of EI = 1e-12 N·m² %.3g m apart at most over %g s (bodies turned in: %d of 21)", name, worst, seconds, turned)
		if !(worst <= tol) {
			t.Errorf("%s: the load's paths under a flexible rope and one of EI = 1e-12 N·m² %.3g m apart, want within %g m", name, worst, tol)
		}
		if turned == 0 {
			t.Errorf("%s: no segment's turning taken in: the test does not reach the turn damping", name)
		}
	}
}
