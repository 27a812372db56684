package hmrwire

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestTransitionsConserve drives thousands of random coarsenings (eqs.
// 27–30) and refinements (eqs. 31–34 with the momentum-keeping velocity)
// of a free wire whose nodes move at random (their velocities random, their
// positions jittered by 2 cm between transitions): each keeps the wire's mass,
// rest length and linear momentum to 1e-12 relative and never adds
// energy: kinetic for a flexible wire, kinetic and bending for one that
// bends (a 20 mm rope of 50 N·m² laid in a wave).
func TestTransitionsConserve(t *testing.T) {
	for _, ei := range []float64{0, 50} {
		t.Run(fmt.Sprintf("EI=%g", ei), func(t *testing.T) { transitionsConserve(t, ei) })
	}
}

func transitionsConserve(t *testing.T, ei float64) {
	sys := NewSystem(geom.V(0, 0, -g0))
	var route []RoutePoint
	route = append(route, RoutePoint{Kind: End, Point: geom.V(0, 0, 0)})
	for k := 1; k < 20; k++ {
		route = append(route, RoutePoint{Kind: Via, Point: geom.V(float64(k), 0.3*math.Sin(float64(k)), 0)})
	}
	route = append(route, RoutePoint{Kind: End, Point: geom.V(20, 0, 0)})
	rope := testRope(1e7, 1.5, 0.01)
	if ei > 0 {
		rope.Flexible, rope.BendingStiffness = false, ei
	}
	w, err := sys.AddWire(WireSpec{Name: "w", Rope: rope,
		Resolution: Resolution{Adaptive: true, MaxMassNodes: 64, MinSegment: 1e-3}, Route: route})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for _, n := range w.nodes {
		n.body.Vel = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	}
	mass, rest := w.Mass(), w.RestLength()
	merges, splits := 0, 0
	for it := 0; it < 5000; it++ {
		// The nodes move: the wire stays bent however it is merged.
		for _, n := range w.nodes {
			n.body.Pos = n.body.Pos.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.02))
		}
		p0, e0 := w.Momentum(), w.KineticEnergy()+w.BendingEnergy()
		scale := 0.0 // Σ m|v|: the momentum's rounding scale
		for _, n := range w.nodes {
			scale += n.body.Mass * n.body.Vel.Norm()
		}
		count, _, _ := w.Counts()
		if count > 2 && (rng.Intn(2) == 0 || count >= 60) {
			i := 1 + rng.Intn(count-2) // an interior mass node
			w.merge(i)
			merges++
		} else {
			i := rng.Intn(len(w.nodes) - 1)
			if !w.split(i, 1) { // h = 1 s: no tension, always stable
				continue
			}
			splits++
		}
		if d := math.Abs(w.Mass()-mass) / mass; d > 1e-12 {
			t.Fatalf("transition %d: mass off by %.3g relative", it, d)
		}
		if d := math.Abs(w.RestLength()-rest) / rest; d > 1e-12 {
			t.Fatalf("transition %d: rest length off by %.3g relative", it, d)
		}
		if d := w.Momentum().Sub(p0).Norm() / scale; d > 1e-12 {
			t.Fatalf("transition %d: momentum off by %.3g relative", it, d)
		}
		if e := w.KineticEnergy() + w.BendingEnergy(); e > e0*(1+1e-12) {
			t.Fatalf("transition %d: energy grew from %.6g J to %.6g J (bending %.6g J)", it, e0, e, w.BendingEnergy())
		}
	}
	t.Logf("%d merges, %d splits", merges, splits)
	if merges < 1000 || splits < 1000 {
		t.Errorf("only %d merges and %d splits", merges, splits)
	}
	if ei == 0 {
		return
	}
	// At rest a split has no kinetic energy to take: on the bent wire
	// none may happen where the segment's ends bend.
	for _, n := range w.nodes {
		n.body.Vel = geom.Vec3{}
		n.body.Pos = n.body.Pos.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.02))
	}
	e0, refused := w.BendingEnergy(), 0
	for i := 0; i < len(w.nodes)-1; i++ {
		if theta, _ := w.turn(i); theta > 1e-6 && !w.split(i, 1) {
			refused++
		}
	}
	if e := w.BendingEnergy(); e > e0*(1+1e-12) {
		t.Errorf("splits at rest raised the bending energy from %.6g J to %.6g J", e0, e)
	}
	if refused == 0 {
		t.Error("no split of a bent wire at rest was refused")
	}
}

// TestMergeIntoFastenedEnd: a merge next to a wire's end fastened to a
// body (giveEnd) is inelastic with the body too: after it the end moves
// with the body's point at the lock (to 1e-12 of the speeds), whether
// the body is a static anchor, a turning 100 kg block (the lock 0.4 m off
// its centre) or a 0.01 kg block lighter than the merged mass; the mass
// is kept to 1e-12 relative, the momentum of the wire and a block to
// 1e-12, and the kinetic energy of the two never grows; the block's
// constraint loads of the step carry the impulses (reportMerges).
func TestMergeIntoFastenedEnd(t *testing.T) {
	for _, c := range []struct {
		name  string
		block float64 // kg; 0: a static anchor
	}{{"static anchor", 0}, {"block", 100}, {"light block", 0.01}} {
		t.Run(c.name, func(t *testing.T) {
			sys := NewSystem(geom.V(0, 0, -g0))
			var body *multibody.Body
			if c.block == 0 {
				body = sys.World.AddBody(multibody.NewStatic("anchor", geom.V(10, 0, 0)))
			} else {
				body = sys.World.AddBody(multibody.NewBody("block", c.block, multibody.BoxInertia(c.block, 0.8, 0.5, 0.3), geom.V(10, 0, -0.4)))
				body.Vel, body.AngVel = geom.V(0.3, -0.2, 0.5), geom.V(0.4, 0.1, -0.3)
				body.Rot = geom.AxisAngle(geom.V(1, 2, 3).Scale(1/math.Sqrt(14)), 0.7)
			}
			route := []RoutePoint{{Kind: End, Point: geom.Vec3{}}}
			for k := 1; k < 10; k++ {
				route = append(route, RoutePoint{Kind: Via, Point: geom.V(float64(k), 0.2*math.Sin(float64(k)), 0)})
			}
			route = append(route, RoutePoint{Kind: End, Point: geom.V(10, 0, 0), Body: body})
			w, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e7, 1.5, 0.01),
				Resolution: Resolution{Adaptive: true, MaxMassNodes: 64, MinSegment: 1e-3}, Route: route})
			if err != nil {
				t.Fatal(err)
			}
			end := w.nodes[len(w.nodes)-1]
			lk := end.lock
			if lk == nil {
				t.Fatal("the wire's end is not fastened")
			}
			rng := rand.New(rand.NewSource(2))
			for _, n := range w.nodes {
				n.body.Vel = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			}
			mass, merges := w.Mass(), 0
			var impulse geom.Vec3
			for {
				count, _, _ := w.Counts()
				if count < 3 {
					break
				}
				p0 := w.Momentum().Add(body.Vel.Scale(body.Mass))
				e0 := w.KineticEnergy() + body.KineticEnergy()
				scale := body.Mass * body.Vel.Norm()
				for _, n := range w.nodes {
					scale += n.body.Mass * n.body.Vel.Norm()
				}
				before := lk.impulse
				w.merge(len(w.nodes) - 2) // the mass node next to the end
				merges++
				impulse = impulse.Add(lk.impulse.Sub(before))
				vLock := body.Vel.Add(body.AngVel.Cross(body.Rot.Rotate(lk.local)))
				if d := end.body.Vel.Sub(vLock).Norm(); d > 1e-12*scale/end.body.Mass {
					t.Fatalf("merge %d: the end moves at %.3g m/s against the body's point at the lock", merges, d)
				}
				if d := math.Abs(w.Mass()-mass) / mass; d > 1e-12 {
					t.Fatalf("merge %d: mass off by %.3g relative", merges, d)
				}
				if c.block > 0 {
					if d := w.Momentum().Add(body.Vel.Scale(body.Mass)).Sub(p0).Norm() / scale; d > 1e-12 {
						t.Fatalf("merge %d: momentum off by %.3g relative", merges, d)
					}
				}
				if e := w.KineticEnergy() + body.KineticEnergy(); e > e0*(1+1e-12) {
					t.Fatalf("merge %d: kinetic energy grew from %.6g J to %.6g J", merges, e0, e)
				}
			}
			if merges < 8 {
				t.Fatalf("only %d merges", merges)
			}
			// The step's constraint loads carry the merges' impulses.
			const h = 0.01
			body.ConstraintForce = geom.V(1, 2, 3)
			w.reportMerges(h)
			if got, want := body.ConstraintForce, geom.V(1, 2, 3).AddScaled(1/h, impulse); got.Sub(want).Norm() > 1e-9*want.Norm() {
				t.Errorf("constraint force %v after the merges, want %v", got, want)
			}
			if lk.impulse != (geom.Vec3{}) {
				t.Errorf("the lock keeps an impulse %v after reporting it", lk.impulse)
			}
		})
	}
}
