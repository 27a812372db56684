package massless

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// The twist row Aᵀω (eqs. 18–20) matches the finite-difference rate of the
// twist angle for random orientations and angular velocities, to 1e-6.
func TestTwistJacobianMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 50; trial++ {
		b := multibody.NewBody("b", 1, geom.V(1, 1, 1), geom.Vec3{})
		axis, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		b.Rot = geom.AxisAngle(axis, rng.Float64()*2)
		e := newTwistEnd(b, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()))
		dir, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		b.Rot = geom.AxisAngle(dir, rng.Float64()*2.5).Mul(b.Rot) // up to ~140° from rest
		psi0, a := e.angle()
		omega := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		const dt = 1e-7
		b.Rot = b.Rot.Integrate(omega, dt)
		psi1, _ := e.angle()
		if fd, row := (psi1-psi0)/dt, a.Dot(omega); math.Abs(fd-row) > 1e-6*(1+math.Abs(row)) {
			t.Errorf("trial %d: finite difference %.9f rad/s, row gives %.9f", trial, fd, row)
		}
	}
}

// Swinging an end body about any axis perpendicular to its cable axis, up
// to 170°, is no twist; a twist of α about the axis reads α also when the
// body is swung by 120°.
func TestSwingIsNotTwist(t *testing.T) {
	b := multibody.NewBody("b", 1, geom.V(1, 1, 1), geom.Vec3{})
	e := newTwistEnd(b, geom.V(0, 0, 1))
	for _, swingAxis := range []geom.Vec3{geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0.6, 0.8, 0)} {
		for deg := 0.0; deg <= 170; deg += 5 {
			b.Rot = geom.AxisAngle(swingAxis, deg*math.Pi/180)
			if psi, _ := e.angle(); math.Abs(psi) > 1e-9 {
				t.Fatalf("swing %g° about %v reads as twist %.3g rad", deg, swingAxis, psi)
			}
		}
	}
	const alpha = 0.7
	b.Rot = geom.AxisAngle(geom.V(1, 0, 0), 120*math.Pi/180).Mul(geom.AxisAngle(geom.V(0, 0, 1), alpha))
	e.psi, e.unwound = 0, 0
	if psi, _ := e.angle(); math.Abs(psi-alpha) > 1e-9 {
		t.Errorf("twist %.3f rad under a 120° swing reads %.6f rad", alpha, psi)
	}
}
