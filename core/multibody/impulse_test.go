package multibody

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// TestApplyImpulse: an impulse j at the lever r of a turned box changes
// its momentum by j and its angular momentum about the centre, R I₀ Rᵀ ω,
// by r × j (to 1e-12), and its point's velocity there by PointResponse's
// K j; a particle only translates; static and kinematic bodies do not
// move and respond with K = 0.
func TestApplyImpulse(t *testing.T) {
	r, j := geom.V(0.3, -0.4, 0.2), geom.V(2, 1, -3)
	box := NewBody("box", 12, BoxInertia(12, 0.8, 0.5, 0.3), geom.V(1, 2, 3))
	box.Rot = geom.AxisAngle(geom.V(1, 2, 3).Scale(1/math.Sqrt(14)), 0.7)
	box.Vel, box.AngVel = geom.V(0.1, 0.2, -0.3), geom.V(0.5, -0.2, 0.4)
	angular := func(b *Body) geom.Vec3 { // R I₀ Rᵀ ω
		w := b.Rot.Conj().Rotate(b.AngVel)
		return b.Rot.Rotate(geom.V(b.Inertia.X*w.X, b.Inertia.Y*w.Y, b.Inertia.Z*w.Z))
	}
	point := func(b *Body) geom.Vec3 { return b.Vel.Add(b.AngVel.Cross(r)) }
	p0, l0, v0 := box.Vel.Scale(box.Mass), angular(box), point(box)
	k := box.PointResponse(r)
	box.ApplyImpulse(r, j)
	if d := box.Vel.Scale(box.Mass).Sub(p0).Sub(j).Norm(); d > 1e-12 {
		t.Errorf("momentum changed by %.3g off the impulse", d)
	}
	if d := angular(box).Sub(l0).Sub(r.Cross(j)).Norm(); d > 1e-12 {
		t.Errorf("angular momentum changed by %.3g off r × j", d)
	}
	if d := point(box).Sub(v0).Sub(k.MulVec(j)).Norm(); d > 1e-12 {
		t.Errorf("the point's velocity changed by %.3g off K j", d)
	}
	ball := NewParticle("ball", 2, geom.Vec3{})
	ball.ApplyImpulse(r, j)
	if ball.Vel != j.Scale(0.5) || ball.AngVel != (geom.Vec3{}) {
		t.Errorf("particle: v = %v, ω = %v; want %v and none", ball.Vel, ball.AngVel, j.Scale(0.5))
	}
	for _, b := range []*Body{NewStatic("anchor", geom.Vec3{}), NewKinematic("tip", geom.Vec3{})} {
		b.ApplyImpulse(r, j)
		if b.Vel != (geom.Vec3{}) || b.AngVel != (geom.Vec3{}) || b.PointResponse(r) != (geom.Mat3{}) {
			t.Errorf("%s moved or responds: v = %v, ω = %v", b.Name, b.Vel, b.AngVel)
		}
	}
}
