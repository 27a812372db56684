package rigidcable

import (
	"fmt"
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/stability"
)

// hoistRig is the trolley-jerk scenario: a 10 m, 20 mm steel wire rope
// (material defaults) of n segments from a kinematic hoist over a sheave
// joint down to a box load of ratio times a segment's mass, clamped to the
// middle of the box's top face; g = 9.81 m/s².
type hoistRig struct {
	world *multibody.World
	cable *Cable
	hoist *multibody.Body
	load  *multibody.Body
	size  geom.Vec3
}

const rigLength = 10.0

func newHoistRig(t testing.TB, rope material.Rope, n int, ratio float64, hook EndKind) *hoistRig {
	t.Helper()
	w := multibody.NewWorld(geom.V(0, 0, -9.81))
	w.Solver = &multibody.Chain{}
	top := geom.V(0, 0, 20)
	c, err := NewStraight(top, top.Sub(geom.V(0, 0, rigLength)), Options{Section: FromRope(rope), Segments: n, Damping: rope.DampingTime})
	if err != nil {
		t.Fatal(err)
	}
	mass := ratio * c.Segments[0].Mass
	side := math.Cbrt(mass / 2000) // a box of twice water's density
	size := geom.V(side, side, side)
	hoist := w.AddBody(multibody.NewKinematic("hoist", top))
	load := w.AddBody(multibody.NewBody("load", mass, multibody.BoxInertia(mass, side, side, side), top.Sub(geom.V(0, 0, rigLength+side/2))))
	c.AttachStart(hoist, geom.Vec3{}, geom.V(0, 0, -1), Sheave)
	c.AttachEnd(load, geom.V(0, 0, side/2), geom.V(0, 0, -1), hook)
	c.Prestretch(w.Gravity)
	c.AddTo(w)
	return &hoistRig{world: w, cable: c, hoist: hoist, load: load, size: size}
}

// gap returns joint k's opening (m).
func (r *hoistRig) gap(k int) float64 {
	j := r.cable.Joints[k]
	a, b := j.bodies[0], j.bodies[1]
	return a.PointWorld(j.pointA).Sub(b.PointWorld(j.pointB)).Norm()
}

// jerkResult is what the trolley-jerk run measured.
type jerkResult struct {
	transient   float64 // largest joint-gap change before 5 s, fraction of l
	settled     float64 // largest joint-gap change from 5 s on, fraction of l
	period      float64 // swing period after the stop, s
	energyDrift float64 // swing energy of the last period over the first, less 1
	stiffened   int     // joints stiffened at the end
	relaxed     int     // rows given numerical relaxation at the end
}

// jerk moves the hoist at 1 m/s along x for 2 s (a jump from rest and
// back) and lets the load swing until seconds (h = 1/60 s).
func (r *hoistRig) jerk(seconds float64) (jerkResult, error) {
	const h = 1.0 / 60
	var res jerkResult
	static := make([]float64, len(r.cable.Joints))
	for k := range static {
		static[k] = r.gap(k)
	}
	var crossings []float64
	var swingE []float64 // energy at each upward crossing
	prevX := 0.0
	for i := 0; i < int(math.Round(seconds/h)); i++ {
		tm := float64(i+1) * h
		if tm <= 2 {
			r.hoist.Vel = geom.V(1, 0, 0)
		} else {
			r.hoist.Vel = geom.Vec3{}
		}
		if err := r.world.Step(h); err != nil {
			return res, fmt.Errorf("t = %.2f s: %w", tm, err)
		}
		for k := range static {
			d := math.Abs(r.gap(k)-static[k]) / r.cable.SegmentLength
			if tm < 5 {
				res.transient = math.Max(res.transient, d)
			} else {
				res.settled = math.Max(res.settled, d)
			}
		}
		if tm > 3 {
			x := r.load.Pos.X - r.hoist.Pos.X
			if prevX < 0 && x >= 0 {
				crossings = append(crossings, tm-h*x/(x-prevX))
				v := r.load.Vel.Sub(r.hoist.Vel)
				swingE = append(swingE, 0.5*r.load.Mass*v.Dot(v))
			}
			prevX = x
		}
	}
	if n := len(crossings); n >= 3 {
		res.period = (crossings[n-1] - crossings[0]) / float64(n-1)
		res.energyDrift = swingE[n-1]/swingE[0] - 1
	}
	for _, j := range r.cable.Joints {
		if j.Stiffened() {
			res.stiffened++
		}
	}
	res.relaxed = r.world.Relaxed()
	return res, nil
}

func TestJerkGridExplore(t *testing.T) {
	for _, n := range []int{10, 20, 50, 100} {
		for _, r := range []float64{10, 1e2, 1e3, 1e4, 1e5} {
			rig := newHoistRig(t, material.DefaultSteelRope(), n, r, Clamped)
			res, err := rig.jerk(30)
			t.Logf("N=%3d r=%6g: %+v err=%v", n, r, res, err)
		}
	}
}

func TestJerkRelaxExplore(t *testing.T) {
	for _, rel := range []float64{0.05, 0.1} {
		stability.Relaxation = rel
		bad := 0
		for _, n := range []int{10, 20, 50, 100} {
			for _, r := range []float64{10, 1e2, 1e3, 1e4, 1e5} {
				rig := newHoistRig(t, material.DefaultSteelRope(), n, r, Clamped)
				res, err := rig.jerk(30)
				if err != nil || res.settled > 0.01 {
					bad++
					t.Logf("rel %g N=%3d r=%6g: %+v err=%v", rel, n, r, res, err)
				}
			}
		}
		t.Logf("rel %g: %d bad", rel, bad)
	}
}

func TestJerkOneExplore(t *testing.T) {
	stability.Relaxation = 0.25
	for _, hook := range []EndKind{Clamped, Swivel, Pinned} {
		for _, stiff := range []bool{true, false} {
			rig := newHoistRig(t, material.DefaultSteelRope(), 20, 100, hook)
			for _, j := range rig.cable.Joints {
				j.Stiffen = stiff
			}
			res, err := rig.jerk(30)
			t.Logf("hook %d stiff %v: %+v err=%v", hook, stiff, res, err)
		}
	}
}
