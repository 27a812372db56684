package rigidcable

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Two bodies turning about their common axis in opposite senses at 300
// rad/s turn 4.76 rad against each other every step of 1/60 s (each by
// 2 atan(2.5), as the integrator turns them), more than half a turn: every
// twist definition, and a sheave's, counts the twist within 1e-9 rad of
// the sum of those turns over 20 steps, where the raw angle alone counts
// 4.76 − 2π = −1.52 rad a step.
func TestTwistCountsFastSpins(t *testing.T) {
	const h, spin, steps = 1.0 / 60, 300.0, 20
	perStep := 2 * (2 * math.Atan(spin*h/2))
	kinds := []struct {
		name  string
		joint func(a, b *multibody.Body) *Joint
	}{
		{"swing", func(a, b *multibody.Body) *Joint {
			return NewJoint(a, geom.V(0.5, 0, 0), axis, b, geom.V(-0.5, 0, 0), axis, TwistSwing)
		}},
		{"aligned", func(a, b *multibody.Body) *Joint {
			return NewJoint(a, geom.V(0.5, 0, 0), axis, b, geom.V(-0.5, 0, 0), axis, TwistAligned)
		}},
		{"perpendicular", func(a, b *multibody.Body) *Joint {
			return NewJoint(a, geom.V(0.5, 0, 0), axis, b, geom.V(-0.5, 0, 0), axis, TwistPerpendicular)
		}},
		{"sheave", func(a, b *multibody.Body) *Joint {
			return NewSheaveJoint(a, geom.V(0.5, 0, 0), axis, b, geom.V(-0.5, 0, 0), axis, TwistSwing)
		}},
	}
	for _, kind := range kinds {
		w := multibody.NewWorld(geom.Vec3{})
		a := w.AddBody(multibody.NewKinematic("a", geom.Vec3{}))
		b := w.AddBody(multibody.NewKinematic("b", geom.V(1, 0, 0)))
		a.AngVel, b.AngVel = geom.V(-spin, 0, 0), geom.V(spin, 0, 0)
		j := kind.joint(a, b)
		j.Stretch, j.Bend, j.Twist, j.Length, j.Link = 1e6, 1e3, 1e3, 0.5, 1
		w.AddConstraint(j)
		for k := 0; k < steps; k++ {
			if err := w.Step(h); err != nil {
				t.Fatalf("%s, step %d: %v", kind.name, k, err)
			}
			// The step's update measured the bodies as k steps left them.
			if got, want := j.TwistAngle(), float64(k)*perStep; math.Abs(got-want) > 1e-9 {
				t.Fatalf("%s: twist %.6f rad after %d steps, want %.6f (%.4f rad a step)", kind.name, got, k, want, perStep)
			}
		}
	}
}
