package rigidcable

import (
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
