package hmrwire

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// rotationVector returns θ n, the turn from a into c.
func rotationVector(a, c geom.Vec3) geom.Vec3 {
	cross := a.Cross(c)
	sin := cross.Norm()
	if sin == 0 {
		return geom.Vec3{}
	}
	return cross.Scale(math.Atan2(sin, a.Dot(c)) / sin)
}

// TestBendJacobian checks the bend's rows against finite differences of
// the turn's rotation vector on the rows' axes, for free legs through
// mass and eye nodes and for a clamp, at turns from 0.01 to 3 rad.
func TestBendJacobian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rnd := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	for _, turn := range []float64{0.01, 0.3, 1.5, 3} {
		for _, clamped := range []bool{false, true} {
			// prev is an eye on a turning body, mid a particle, next a
			// particle; a clamp replaces prev by the body's direction.
			body := multibody.NewBody("block", 10, geom.V(1, 1, 1), geom.V(0, 0, 1))
			body.Rot = geom.AxisAngle(geom.V(1, 2, 3).Scale(1/math.Sqrt(14)), 0.4)
			body.Vel, body.AngVel = rnd(1), rnd(1)
			mid := &node{kind: MassNode, body: multibody.NewParticle("w", 1, geom.V(0, 0, 0))}
			mid.body.Vel = rnd(1)
			dir := geom.V(math.Cos(turn), math.Sin(turn), 0.1)
			next := &node{kind: MassNode, body: multibody.NewParticle("w", 1, dir.Scale(0.7))}
			next.body.Vel = rnd(1)
			b := bend{mid: mid, next: next}
			if clamped {
				b.clamp, b.clampLocal = body, body.Rot.Conj().Rotate(geom.V(1, 0, 0))
				b.at = [3]int{0, 1, 2}
			} else {
				prev := &node{kind: EyeNode, body: body, local: body.Rot.Conj().Rotate(geom.V(-0.5, 0, -1))}
				b.prev, b.before = prev, &node{rest: 1}
				b.at = [3]int{0, 1, 2}
			}
			mid.rest = 0.7
			bodies := []*multibody.Body{body, mid.body, next.body}
			dirs := func() (geom.Vec3, geom.Vec3) {
				var a geom.Vec3
				if clamped {
					a = body.Rot.Rotate(b.clampLocal)
				} else {
					a, _ = mid.position().Sub(b.prev.position()).Unit()
				}
				c, _ := next.position().Sub(mid.position()).Unit()
				return a, c
			}
			rows := make([]multibody.Row, bendRows)
			for k := range rows {
				rows[k].J = make([]multibody.Jacobian, 3)
				rows[k].Reset()
			}
			b.update(rows, 2, 0)
			a0, c0 := dirs()
			f0 := rotationVector(a0, c0)
			if g := rows[0].Violation; math.Abs(g-f0.Norm()) > 1e-12 && turn > 0.1 {
				t.Errorf("turn %g, clamped %v: violation %g, turn %g", turn, clamped, g, f0.Norm())
			}
			// Central differences: every body moved by ±ε along its
			// velocities.
			const eps = 1e-6
			type pose struct {
				pos geom.Vec3
				rot geom.Quat
			}
			var start []pose
			for _, bd := range bodies {
				start = append(start, pose{bd.Pos, bd.Rot})
			}
			at := func(s float64) geom.Vec3 {
				for i, bd := range bodies {
					bd.Pos, bd.Rot = start[i].pos.AddScaled(s, bd.Vel), start[i].rot
					if w := bd.AngVel.Norm(); w > 0 {
						bd.Rot = geom.AxisAngle(bd.AngVel.Scale(1/w), w*s).Mul(start[i].rot)
					}
				}
				return rotationVector(dirs())
			}
			df := at(eps).Sub(at(-eps)).Scale(1 / (2 * eps))
			// The rows' axes: n and across it for a turn, else any two.
			axes := rowAxes(a0, c0)
			for k := range bendRows {
				jv := 0.0
				for i, bd := range bodies {
					jv += rows[k].J[i].Lin.Dot(bd.Vel) + rows[k].J[i].Ang.Dot(bd.AngVel)
				}
				want := axes[k].Dot(df)
				if math.Abs(jv-want) > 1e-7*(1+math.Abs(want)) {
					t.Errorf("turn %g rad, clamped %v, row %d: J v = %.9g, finite difference %.9g", turn, clamped, k, jv, want)
				}
			}
		}
	}
}

// rowAxes returns the axes of a bend's rows for directions a and c (see
// bend.update).
func rowAxes(a, c geom.Vec3) [bendRows]geom.Vec3 {
	cross := a.Cross(c)
	n, _ := cross.Unit()
	e, _ := c.Sub(a).Unit()
	return [bendRows]geom.Vec3{n, e}
}
