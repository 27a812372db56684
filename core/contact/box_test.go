package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// A 1 kg ball (a capsule of no length, r = 5 cm) dropped from 1 m onto a
// 2 × 2 × 1 m box of 100 kg resting on the ground comes to rest on the
// box's top: its centre within 1 mm of r above it, the box pushed down
// by the ball's weight (the ground carries both within 1 %), the ball
// never inside the box by more than 1 mm.
func TestBallRestsOnBox(t *testing.T) {
	const r = 0.05
	w, box, ground := boxOnGround(t, 0.5, 0.25)
	top := box.Pos.Z + 0.25
	ball := w.AddBody(multibody.NewParticle("ball", 1, geom.V(0.3, -0.2, top+1)))
	ct := NewBoxContact(&Box{Body: box, Half: geom.V(0.5, 0.5, 0.25), Friction: 0.5}, Capsule{Body: ball, Radius: r})
	w.AddConstraint(ct)
	deepest := 0.0
	run(t, w, 3, func() {
		deepest = math.Max(deepest, r-boxDistance(box.Rot.Conj().Rotate(ball.Pos.Sub(box.Pos)), geom.V(0.5, 0.5, 0.25)))
	})
	if d := math.Abs(ball.Pos.Z - (box.Pos.Z + 0.25 + r)); d > 1e-3 {
		t.Errorf("ball centre %.4f m off r above the box's top, want within 1 mm", d)
	}
	if deepest > 1e-3 {
		t.Errorf("ball %.4f m inside the box, want at most 1 mm", deepest)
	}
	total := 0.0
	for _, c := range ground {
		total += c.Force(h)
	}
	if want := 101 * 9.81; math.Abs(total/want-1) > 0.01 {
		t.Errorf("the ground carries %.2f N, want the box's and the ball's weight %.2f N within 1 %%", total, want)
	}
	if f := ct.Force(h); math.Abs(f/9.81-1) > 0.01 {
		t.Errorf("the box carries the ball with %.3f N, want 9.81 N within 1 %%", f)
	}
}

// A 1 kg particle resting on a static box whose top starts moving at
// 1 m/s (a kinematic box) is dragged along by friction at μg: after 0.1 s
// its speed is 0.1 μg within 3 % (μ = 0.5; symplectic Euler's step adds
// its h), and from 0.3 s on it moves with the box within 1 mm/s.
func TestFrictionDragsParticleOnBox(t *testing.T) {
	const r, mu = 0.05, 0.5
	w := multibody.NewWorld(geom.V(0, 0, -9.81))
	box := w.AddBody(multibody.NewKinematic("box", geom.V(0, 0, -0.5)))
	p := w.AddBody(multibody.NewParticle("p", 1, geom.V(0, 0, r)))
	ct := NewBoxContact(&Box{Body: box, Half: geom.V(5, 5, 0.5), Friction: mu}, Capsule{Body: p, Radius: r})
	ct.Damping = 2 * h
	w.AddConstraint(ct)
	run(t, w, 0.5, nil)
	box.Vel = geom.V(1, 0, 0)
	run(t, w, 0.1, nil)
	if want := 0.1 * mu * 9.81; math.Abs(p.Vel.X/want-1) > 0.03 {
		t.Errorf("dragged to %.4f m/s in 0.1 s, want μg·0.1 s = %.4f m/s within 3 %%", p.Vel.X, want)
	}
	run(t, w, 0.2, nil)
	if d := math.Abs(p.Vel.X - 1); d > 1e-3 {
		t.Errorf("moving at %.4f m/s after 0.3 s, want the box's 1 m/s within 1 mm/s", p.Vel.X)
	}
}

// boxDistance returns the signed distance (m) of point q (box frame) from
// a box of half extents half centred there: Euclidean outside, the least
// depth (negative) inside.
func boxDistance(q, half geom.Vec3) float64 {
	d := geom.V(math.Abs(q.X)-half.X, math.Abs(q.Y)-half.Y, math.Abs(q.Z)-half.Z)
	if out := geom.V(max(d.X, 0), max(d.Y, 0), max(d.Z, 0)); out != (geom.Vec3{}) {
		return out.Norm()
	}
	return max(d.X, d.Y, d.Z)
}

// A rod of 1 m (2 kg, r = 2 cm) dropped flat across an edge of a static
// box from 20 cm, its middle 5 cm inside the edge, comes to rest on its
// end and the edge, carried with its weight (within 1 %); its middle 5 cm
// beyond the edge, it tips over the edge and falls off. Neither goes more
// than 1 mm into the box (the axis sampled at 101 points each step).
func TestRodAcrossBoxEdge(t *testing.T) {
	const r, l, m = 0.02, 1.0, 2.0
	for _, middle := range []float64{0.45, 0.55} {
		w := multibody.NewWorld(geom.V(0, 0, -9.81))
		box := w.AddBody(multibody.NewStatic("box", geom.V(0, 0, -0.5)))
		rod := w.AddBody(multibody.NewBody("rod", m, multibody.BoxInertia(m, l, 2*r, 2*r), geom.V(middle, 0, r+0.2)))
		half := geom.V(0.5, 0.5, 0.5)
		ct := NewBoxContact(&Box{Body: box, Half: half, Friction: 0.3}, Capsule{Body: rod, A: geom.V(-l/2, 0, 0), B: geom.V(l/2, 0, 0), Radius: r})
		w.AddConstraint(ct)
		deepest, carried := math.Inf(-1), 0.0
		run(t, w, 2, func() {
			carried = math.Max(carried, ct.Force(h))
			for i := 0; i <= 100; i++ {
				x := rod.PointWorld(geom.V(l*(float64(i)/100-0.5), 0, 0))
				deepest = math.Max(deepest, r-boxDistance(x.Sub(box.Pos), half))
			}
		})
		t.Logf("middle at x = %.2f m (edge at 0.5 m): the rod ends at z = %.3f m, at most %.2f mm inside the box, carried by %.2f N at the end", middle, rod.Pos.Z, 1e3*deepest, ct.Force(h))
		if deepest > 1e-3 {
			t.Errorf("middle at %.2f m: the rod went %.2f mm into the box, want at most 1 mm", middle, 1e3*deepest)
		}
		if !(carried > 0) {
			t.Errorf("middle at %.2f m: the box never carried the rod", middle)
		}
		switch {
		case middle < 0.5 && (math.Abs(rod.Pos.Z-r) > 1e-3 || math.Abs(ct.Force(h)/(m*9.81)-1) > 0.01):
			t.Errorf("middle at %.2f m: the rod at z = %.4f m carried by %.2f N, want at rest on the box (z = %g m) with its weight %.2f N within 1 %%", middle, rod.Pos.Z, ct.Force(h), r, m*9.81)
		case middle > 0.5 && rod.Pos.Z > -0.5:
			t.Errorf("middle at %.2f m: the rod at z = %.2f m after 2 s, want it fallen off the box", middle, rod.Pos.Z)
		}
	}
}

// clear, the bound far tries after its spheres, finds a capsule clear of
// the box only where near finds every point out of reach, at orientations
// of any norm, on the box's scale and far larger ones.
func TestClearBoundsNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vec := func(s float64) geom.Vec3 {
		return geom.V(s*rng.NormFloat64(), s*rng.NormFloat64(), s*rng.NormFloat64())
	}
	quat := func(unit bool) geom.Quat {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if unit {
			return q.Normalize()
		}
		return q
	}
	found := 0
	for trial := 0; trial < 100000; trial++ {
		scale := math.Pow(10, float64(rng.IntN(7)-2))
		bb := multibody.NewBody("box", 1, geom.V(1, 1, 1), vec(scale))
		cb := multibody.NewBody("capsule", 1, geom.V(1, 1, 1), geom.Vec3{})
		unit := trial%2 == 0
		bb.Rot, cb.Rot = quat(unit), quat(unit)
		bb.Vel, bb.AngVel = vec(scale*rng.Float64()), vec(rng.Float64())
		cb.Vel, cb.AngVel = vec(scale*rng.Float64()), vec(rng.Float64())
		half := geom.V(scale*rng.Float64(), scale*rng.Float64(), scale*rng.Float64())
		end := vec(scale * rng.Float64())
		c := NewBoxContact(&Box{Body: bb, Half: half}, Capsule{Body: cb, A: end.Scale(-1), B: end, Radius: scale * rng.Float64() / 10})
		// The capsule's centre about as far from the box as its reach.
		cb.Pos = bb.Pos.Add(vec(1).Scale((half.Norm() + c.arm*(0.5+2*rng.Float64())) / math.Sqrt(3)))
		step := h * rng.Float64()
		if !c.clear(step) {
			continue
		}
		found++
		for k, pt := range c.near(step) {
			if pt.on {
				t.Fatalf("trial %d: clear, but near finds point %d within reach", trial, k)
			}
		}
		if unit && !c.far(step) {
			t.Fatalf("trial %d: clear, but not far", trial)
		}
	}
	if found < 1000 {
		t.Errorf("clear held %d times in 100000 trials: not exercised", found)
	}
}
