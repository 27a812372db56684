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

// Bodies spinning about axes tilted from the rope's by 1.3–1.35 rad at
// 100–10⁴ rad/s (body b; body a still or turning about the rope's axis),
// the joint bent by up
// to 2.6 rad (below the fold, where the twist is held): the twist turns up
// to 6.4 times as fast as the bodies in places, so that a step's change,
// estimated from its rate at one end of the step, was off by whole turns
// (15 turns in 60 steps at 1.3 rad and 120 rad/s), and substeps even in
// time rather than in angle missed turns at 3000 rad/s. Every twist
// definition counts it within 1e-6 rad of the raw angle followed in 2000
// substeps a step along the step's turns (each body through the
// integrator's angle 2 atan(|ω|h/2) at a steady rate), over 60 steps.
func TestTwistCountsTiltedSpins(t *testing.T) {
	const h, steps, fine = 1.0 / 60, 60, 2000
	tilted := func(tilt, spin float64) geom.Vec3 { return geom.V(math.Cos(tilt), math.Sin(tilt), 0).Scale(spin) }
	for _, def := range []TwistDefinition{TwistSwing, TwistAligned, TwistPerpendicular} {
		for _, c := range []struct {
			tilt, spin, other float64
		}{{1.3, 120, 0}, {1.3, 117, 0}, {1.35, 100, 0}, {1.35, 150, 0}, {1.3, 3000, 0}, {1.3, 1e4, 0}, {1.3, 500, -300}, {1.3, 1e4, -1e4}} {
			w := multibody.NewWorld(geom.Vec3{})
			a := w.AddBody(multibody.NewKinematic("a", geom.Vec3{}))
			b := w.AddBody(multibody.NewKinematic("b", geom.V(1, 0, 0)))
			a.AngVel, b.AngVel = tilted(0, c.other), tilted(c.tilt, c.spin)
			j := NewJoint(a, geom.V(0.5, 0, 0), axis, b, geom.V(-0.5, 0, 0), axis, def)
			j.Stretch, j.Bend, j.Twist, j.Length, j.Link = 1e6, 1e3, 1e3, 0.5, 1
			w.AddConstraint(j)
			want := 0.0
			for k := 0; k < steps; k++ {
				fromA, fromB := a.Rot, b.Rot
				if err := w.Step(h); err != nil {
					t.Fatalf("%v %+v, step %d: %v", def, c, k, err)
				}
				if theta := j.BendAngle(); theta > twistFold {
					t.Fatalf("%v %+v, step %d: bent by %.3f rad, beyond the fold", def, c, k, theta)
				}
				// The step's update measured the bodies as k steps left
				// them; want is the twist there.
				if got := j.TwistAngle(); math.Abs(got-want) > 1e-6 {
					t.Fatalf("%v %+v: twist %.6f rad after %d steps, want %.6f", def, c, got, k, want)
				}
				// This step's turns, finely.
				ua, pa := turnOf(a.AngVel, h)
				ub, pb := turnOf(b.AngVel, h)
				last, _ := j.rawTwistAt(fromA, fromB)
				for i := 1; i <= fine; i++ {
					s := float64(i) / fine
					psi, ok := j.rawTwistAt(geom.AxisAngle(ua, s*pa).Mul(fromA), geom.AxisAngle(ub, s*pb).Mul(fromB))
					if !ok {
						t.Fatalf("%v %+v: no twist angle on the path", def, c)
					}
					want += remainder2Pi(psi - last)
					last = psi
				}
			}
		}
	}
}
