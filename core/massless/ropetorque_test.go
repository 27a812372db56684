package massless

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// twoFalls is a 20 t box hanging level from a fixed crane on two ropes of
// spacing s and length H, each with the twist constraint and the rope's
// torque k·d·T.
type twoFalls struct {
	world *multibody.World
	load  *multibody.Body
	rope  material.Rope
}

func newTwoFalls(t *testing.T, s, H, k, gj float64) *twoFalls {
	t.Helper()
	const mass = 20000.0
	rope := material.DefaultSteelRope()
	rope.TorqueFactor, rope.TorsionalStiffness = k, gj
	if err := rope.Validate(); err != nil {
		t.Fatal(err)
	}
	w := multibody.NewWorld(geom.V(0, 0, -gravity))
	crane := w.AddBody(multibody.NewKinematic("crane", geom.V(0, 0, H)))
	stretch := mass * gravity / 2 / rope.AxialStiffness() * H
	load := w.AddBody(multibody.NewBody("load", mass, multibody.BoxInertia(mass, 2, 2, 2), geom.V(0, 0, -stretch)))
	for _, x := range []float64{-s / 2, s / 2} {
		route := []Node{{crane, geom.V(x, 0, 0)}, {load, geom.V(x, 0, 0)}}
		st, err := NewStretch(route, H, rope)
		if err != nil {
			t.Fatal(err)
		}
		w.AddConstraint(st)
		tw, err := NewTwist(route, rope, func() float64 { return st.FreeLength })
		if err != nil {
			t.Fatal(err)
		}
		tw.Torque = func() float64 { return rope.Torque(st.Tension()) }
		w.AddConstraint(tw)
	}
	return &twoFalls{world: w, load: load, rope: rope}
}

// settle runs until the block stands still: a viscous damper on its yaw
// (no torque at rest, so the equilibrium is the undamped one's) calms the
// swing; it returns the yaw (rad, counting whole turns).
func (f *twoFalls) settle(t *testing.T, seconds float64) float64 {
	t.Helper()
	const h = 1.0 / 60
	yaw := 0.0 // the body's x axis turned about z, unwrapped over the steps
	for k := 0; k < int(seconds/h); k++ {
		f.load.Torque = geom.V(0, 0, -1.5e4*f.load.AngVel.Z)
		if err := f.world.Step(h); err != nil {
			t.Fatalf("t = %.2f s: %v", float64(k)*h, err)
		}
		ax := f.load.Rot.Rotate(geom.V(1, 0, 0))
		yaw += remainder2Pi(math.Atan2(ax.Y, ax.X) - yaw)
	}
	return yaw
}

// A 20 t block on two falls of a six-strand rope (k = 0.089, 20 mm, GJ =
// 18 N·m², about what such a rope's own turn under load gives) 1 m apart
// turns under the ropes' torque to the angle where the falls' restoring
// moment balances it: within 5 % of the closed form (closedform.BlockYaw) for H = 10
// to 60 m. A rotation-resistant rope (k = 0.0076) turns it less, by the
// ratio of the torque factors within 5 % at 30 m (small angles). At 0.5 m
// spacing the falls cable above H = s²/(4kd) = 35 m: at 45 m the block
// turns past 90° (and on: the massless falls pass through each other,
// where a wire's would wrap).
func TestRopeTorqueTurnsTheBlock(t *testing.T) {
	const s, gj, W = 1.0, 18.0, 20000 * gravity
	d := material.DefaultSteelRope().Diameter
	for _, H := range []float64{10, 20, 30, 45, 60} {
		f := newTwoFalls(t, s, H, material.TorqueFactorSixStrand, gj)
		got := f.settle(t, 240)
		want := closedform.BlockYaw(W, s, H, material.TorqueFactorSixStrand, d, gj)
		t.Logf("H = %2g m: block turned %.3f°, closed form %.3f°", H, got*180/math.Pi, want*180/math.Pi)
		if math.Abs(got/want-1) > 0.05 {
			t.Errorf("H = %g m: block turned %.4f rad, want %.4f rad within 5 %%", H, got, want)
		}
	}
	six := newTwoFalls(t, s, 30, material.TorqueFactorSixStrand, gj).settle(t, 240)
	rr := newTwoFalls(t, s, 30, material.TorqueFactorRotationResistant, gj).settle(t, 240)
	ratio := material.TorqueFactorRotationResistant / material.TorqueFactorSixStrand
	t.Logf("H = 30 m: rotation-resistant %.3f°, six-strand %.3f°, ratio %.4f (torque factors %.4f)", rr*180/math.Pi, six*180/math.Pi, rr/six, ratio)
	if math.Abs(rr/six/ratio-1) > 0.05 {
		t.Errorf("rotation-resistant rope turned the block %.4f of the six-strand rope's angle, want %.4f within 5 %%", rr/six, ratio)
	}
	critical := 0.5 * 0.5 / (4 * material.TorqueFactorSixStrand * d)
	cabled := newTwoFalls(t, 0.5, 45, material.TorqueFactorSixStrand, gj).settle(t, 900)
	t.Logf("s = 0.5 m, falls cable above %.1f m: at 45 m the block turned %.1f°", critical, math.Abs(cabled)*180/math.Pi)
	if !(critical < 45 && math.Abs(cabled) > math.Pi/2) {
		t.Errorf("s = 0.5 m at 45 m (above the %.1f m where the falls cable): the block turned %.1f°, want past 90°", critical, math.Abs(cabled)*180/math.Pi)
	}
}
