package rigidcable

import (
	"fmt"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// A joint's Update sets every field of its rows (multibody.Overwriting):
// rows that held anything come out as rows Reset before Update do, bit for
// bit, for every kind of joint, straight and bent, drifting, pushed,
// pulled, and a sheave's rope within its slack store and beyond it.
func TestJointOverwritesRows(t *testing.T) {
	const h = 0.01
	x := geom.V(1, 0, 0)
	makers := map[string]func(a, b *multibody.Body) *Joint{
		"swing": func(a, b *multibody.Body) *Joint {
			return NewJoint(a, geom.V(0.5, 0, 0), x, b, geom.V(-0.5, 0, 0), x, TwistSwing)
		},
		"aligned": func(a, b *multibody.Body) *Joint {
			return NewJoint(a, geom.V(0.5, 0, 0), x, b, geom.V(-0.5, 0, 0), x, TwistAligned)
		},
		"sheave": func(a, b *multibody.Body) *Joint {
			return NewSheaveJoint(a, geom.V(0.5, 0, 0), x, b, geom.V(-0.5, 0, 0), x, TwistSwing)
		},
		"swivel": func(a, b *multibody.Body) *Joint {
			return NewSwivelJoint(a, geom.V(0.5, 0, 0), x, b, geom.V(-0.5, 0, 0), x, TwistAligned)
		},
		"ball": func(a, b *multibody.Body) *Joint {
			return NewBallJoint(a, geom.V(0.5, 0, 0), x, b, geom.V(-0.5, 0, 0), x)
		},
	}
	for name, newJoint := range makers {
		for _, bend := range []float64{0, 0.3, 2.5} {
			for _, force := range []float64{-1e6, 0, 1e4} {
				for _, gap := range []float64{-0.01, 0, 0.5, 2.5} {
					a := multibody.NewBody("a", 1, geom.V(1, 1, 1), geom.Vec3{})
					b := multibody.NewBody("b", 1, geom.V(1, 1, 1), geom.V(1+gap, 0, 0))
					j := newJoint(a, b)
					j.Stretch, j.Bend, j.Twist = 1e8, 1e3, 1e2
					j.Length, j.Link, j.Damping = 1, 1, 1e-3
					b.Rot = geom.AxisAngle(geom.V(0, 0.6, 0.8), bend)
					w := multibody.NewWorld(geom.Vec3{})
					w.AddBody(a)
					w.AddBody(b)
					w.AddConstraint(j)
					if _, err := w.Assemble(h); err != nil { // the bodies' frames
						t.Fatal(err)
					}
					j.force, j.rateA = force, geom.V(0.1, 0.2, 0)
					j.ratesSet()
					fresh, dirty := *j, *j
					n := j.Rows()
					freshRows, dirtyRows := make([]multibody.Row, n), make([]multibody.Row, n)
					for r := range n {
						freshRows[r].J, dirtyRows[r].J = make([]multibody.Jacobian, 2), make([]multibody.Jacobian, 2)
						freshRows[r].Reset()
						d := &dirtyRows[r]
						for k := range d.J {
							d.J[k] = multibody.Jacobian{Lin: geom.V(7, 7, 7), Ang: geom.V(7, 7, 7)}
						}
						d.Violation, d.Compliance, d.Damping, d.Geometric = 7, 7, 7, 7
						d.Speed, d.SpeedBefore, d.Slip, d.Lo, d.Hi = 7, 7, 7, 7, 7
						d.Holonomic, d.Start, d.Gap = false, 1, true
					}
					fresh.Update(h, freshRows)
					dirty.Update(h, dirtyRows)
					// Printed, so that −0 and +0 differ.
					if got, want := fmt.Sprint(dirtyRows), fmt.Sprint(freshRows); got != want {
						t.Errorf("%s joint bent %g, force %g, gap %g: rows\n%s\nwant\n%s", name, bend, force, gap, got, want)
					}
				}
			}
		}
	}
}
