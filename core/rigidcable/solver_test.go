package rigidcable

import (
	"fmt"
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// hangingCable is the Table II setup of [SL08] §VII-B: a cable of nJoints
// segment joints hanging from a kinematic anchor by a ball joint, its last
// segment ratio times heavier than the others (1 kg each), g = 10 m/s².
type hangingCable struct {
	world  *multibody.World
	cable  *Cable
	anchor *multibody.Body
	heavy  *multibody.Body
}

func newHangingCable(t testing.TB, sec material.Rope, nJoints int, ratio float64, def TwistDefinition, solver multibody.Solver) *hangingCable {
	t.Helper()
	const length = 10.0
	n := nJoints + 1
	w := multibody.NewWorld(geom.V(0, 0, -10))
	w.Solver = solver
	top := geom.V(0, 0, length)
	l := length / float64(n)
	sec.Density = 1 / (sec.Area() * l) // light segments of 1 kg
	c, err := NewStraight(top, geom.Vec3{}, Options{Rope: damped(sec, 2.0/60), Segments: n, Twist: def})
	if err != nil {
		t.Fatal(err)
	}
	heavy := c.Segments[n-1]
	heavy.Mass *= ratio
	heavy.Inertia = heavy.Inertia.Scale(ratio)
	anchor := w.AddBody(multibody.NewKinematic("anchor", top))
	c.AttachStart(anchor, geom.Vec3{}, axis, Pinned)
	c.Prestretch(w.Gravity)
	c.AddTo(w)
	return &hangingCable{world: w, cable: c, anchor: anchor, heavy: heavy}
}

// The chain and banded solvers give the dense solver's motion (positions
// within 1e-9 m after 2 s of a swinging, twisting cable).
func TestChainSolversMatchDense(t *testing.T) {
	sec := PaperSquare(2e9, 0.3, 1e-2, 0)
	dense := newHangingCable(t, sec, 11, 10, TwistPerpendicular, &multibody.Dense{})
	others := map[string]*hangingCable{
		"chain":  newHangingCable(t, sec, 11, 10, TwistPerpendicular, &multibody.ActiveSet{Solver: &multibody.Chain{}}),
		"banded": newHangingCable(t, sec, 11, 10, TwistPerpendicular, &multibody.ActiveSet{Solver: &multibody.Banded{}}),
	}
	all := []*hangingCable{dense, others["chain"], others["banded"]}
	for _, s := range all {
		s.anchor.Vel = geom.V(3, 0, 0)
		s.heavy.AngVel = geom.V(0, 0, 2)
	}
	for i := 0; i < 120; i++ {
		for _, s := range all {
			if err := s.world.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, o := range others {
		worst := 0.0
		for i := range dense.cable.Segments {
			worst = math.Max(worst, dense.cable.Segments[i].Pos.Sub(o.cable.Segments[i].Pos).Norm())
		}
		if worst > 1e-9 {
			t.Errorf("%s and dense solutions differ by %.3g m, want below 1e-9 m", name, worst)
		}
	}
}

// twinRows holds a body's y by two identical rigid rows: dependent rows,
// which make the Schur complement singular.
type twinRows struct{ b *multibody.Body }

func (c *twinRows) Bodies() []*multibody.Body         { return []*multibody.Body{c.b} }
func (c *twinRows) Rows() int                         { return 2 }
func (c *twinRows) Apply(h float64, lambda []float64) {}
func (c *twinRows) Update(h float64, rows []multibody.Row) {
	for i := range rows {
		rows[i].J[0].Lin = geom.V(0, 1, 0)
		rows[i].SetHolonomic(0, 0, 0, 0, 0, 0)
	}
}

// The sparse solver solves dependent rows on a load 1e4 times a segment's
// mass as the dense solver does (the load within 1e-6 m after the trolley
// jerk's 2 s), a flexible rope's infinite rows beside them too, and on a
// rope of 600 segments under a load 3e6 times one's: its refinement's
// residual settles at 1.3e-12 to 3.3e-12 of the right-hand side in the
// first, at 1.2e-9 in the last, the rounding of the load's large terms,
// where a limit on the residual alone (1e-12, or 1e-9) refused them.
func TestSparseSolvesDependentRowsUnderHeavyLoad(t *testing.T) {
	jerk := func(rig *hoistRig, steps int) error {
		rig.world.AddConstraint(&twinRows{rig.load})
		for i := range steps {
			rig.hoist.Vel = geom.Vec3{}
			if i < 60 {
				rig.hoist.Vel = geom.V(1, 0, 0)
			}
			if err := rig.world.Step(1.0 / 60); err != nil {
				return fmt.Errorf("step %d: %w", i, err)
			}
		}
		return nil
	}
	for _, flexible := range []bool{false, true} {
		rope := material.DefaultSteelRope()
		rope.Flexible = flexible
		var loads []geom.Vec3
		for _, solver := range []multibody.Solver{&multibody.Dense{}, &multibody.ActiveSet{Solver: &multibody.Sparse{}}} {
			rig := newHoistRig(t, rope, 20, 1e4, Pinned)
			rig.world.Solver = solver
			if err := jerk(rig, 120); err != nil {
				t.Fatalf("flexible %v, %T: %v", flexible, solver, err)
			}
			loads = append(loads, rig.load.Pos)
		}
		if d := loads[1].Sub(loads[0]).Norm(); d > 1e-6 {
			t.Errorf("flexible %v: the load %.3g m apart under the dense and sparse solvers, want within 1e-6 m", flexible, d)
		}
	}
	rig := newHoistRig(t, material.DefaultSteelRope(), 600, 3e6, Pinned)
	rig.world.Solver = &multibody.ActiveSet{Solver: &multibody.Sparse{}}
	if err := jerk(rig, 5); err != nil {
		t.Errorf("600 segments, load of 3e6 segments' mass: %v", err)
	}
}
