package multibody

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// link is a test ball joint between the bottom of body a and the top of
// body b (boxes of height 2s), with the vertical row limited to pulling:
// its impulse is ≤ push (N·s; 0 for a rope).
type link struct {
	a, b       *Body
	s          float64
	compliance float64
	push       float64
}

func (l *link) Bodies() []*Body { return []*Body{l.a, l.b} }
func (l *link) Rows() int       { return 3 }
func (l *link) Update(h float64, rows []Row) {
	ra, rb := l.a.Rot.Rotate(geom.V(0, 0, -l.s)), l.b.Rot.Rotate(geom.V(0, 0, l.s))
	gap := l.a.Pos.Add(ra).Sub(l.b.Pos.Add(rb))
	for k, e := range [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		rows[k].J[0] = Jacobian{Lin: e, Ang: ra.Cross(e)}
		rows[k].J[1] = Jacobian{Lin: e.Scale(-1), Ang: rb.Cross(e).Scale(-1)}
		rows[k].Violation = gap.Dot(e)
		rows[k].Compliance = l.compliance
		rows[k].Damping = 1e-3
	}
	rows[2].Hi = l.push
}
func (l *link) Apply(float64, []float64) {}

// A chain of boxes thrown together along its axis (random velocities, the
// links pulling only, or pushing up to 20 N): the active-set solve over
// the chain solver (factored anew only when the pinned rows change) or
// over the dense solver (solved anew) finds the same impulses as the dense
// solver with its pivoting, to 1e-8 of the largest, in every step of a
// second, and some rows sit on their bound.
func TestActiveSetMatchesDense(t *testing.T) {
	for _, push := range []float64{0, 20} {
		activeSetMatchesDense(t, push, &Chain{})
		activeSetMatchesDense(t, push, &Dense{})
		activeSetMatchesDense(t, push, &Sparse{})
	}
}

func activeSetMatchesDense(t *testing.T, push float64, inner Solver) {
	const n, h, s = 8, 1.0 / 60, 0.25
	rng := rand.New(rand.NewSource(3))
	build := func() *World {
		w := NewWorld(geom.V(0, 0, -9.81))
		top := w.AddBody(NewKinematic("top", geom.V(0, 0, 0)))
		prev := top
		for i := 0; i < n; i++ {
			m := 1.0
			if i == n-1 {
				m = 100
			}
			b := w.AddBody(NewBody("box", m, BoxInertia(m, 0.1, 0.1, 2*s), geom.V(0, 0, -s-2*s*float64(i))))
			off := s
			if prev == top {
				off = 0
			}
			w.AddConstraint(&link{a: prev, b: b, s: off, compliance: 1e-7, push: push * h})
			prev = b
		}
		return w
	}
	wa, wd := build(), build()
	wa.Solver = &ActiveSet{Solver: inner}
	// Throw both alike: the chain flies up and comes down on the links.
	for i, b := range wa.Bodies() {
		if b.Kind == Dynamic {
			v := geom.V(rng.NormFloat64(), rng.NormFloat64(), 3+rng.NormFloat64())
			b.Vel, wd.Bodies()[i].Vel = v, v
		}
	}
	pinned := 0
	for step := 0; step < 60; step++ {
		pa, err := wa.Assemble(h)
		if err != nil {
			t.Fatal(err)
		}
		pd, err := wd.Assemble(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := wa.Solver.Solve(pa); err != nil {
			t.Fatalf("step %d: active set: %v", step, err)
		}
		if err := wd.Solver.Solve(pd); err != nil {
			t.Fatalf("step %d: dense: %v", step, err)
		}
		scale := 0.0
		for _, l := range pd.Lambda {
			scale = math.Max(scale, math.Abs(l))
		}
		for i := range pa.Lambda {
			if math.Abs(pa.Lambda[i]-pd.Lambda[i]) > 1e-8*scale {
				t.Fatalf("push %g N, step %d row %d: active set λ = %.12g, dense %.12g (scale %.3g)", push, step, i, pa.Lambda[i], pd.Lambda[i], scale)
			}
			if pa.Lambda[i] == pa.Hi[i] {
				pinned++
			}
		}
		// Go on from the dense solution in both worlds.
		copy(pa.Lambda, pd.Lambda)
		for _, w := range []*World{wa, wd} {
			w.integrate(h)
		}
	}
	if pinned == 0 {
		t.Errorf("push %g N: no row ever sat on its bound: the test did not exercise the active set", push)
	}
	t.Logf("push %g N, %T inside: %d row-steps on the bound", push, inner, pinned)
}

// One solver given the problems of two worlds in turn (whose Layouts both
// count from 1) redoes its set-up for each: the worlds move exactly as
// with a solver each.
func TestSolverSharedBetweenWorlds(t *testing.T) {
	const h, s = 1.0 / 60, 0.25
	build := func(n int) *World {
		w := NewWorld(geom.V(0, 0, -9.81))
		prev := w.AddBody(NewKinematic("top", geom.V(0, 0, 0)))
		for i := 0; i < n; i++ {
			b := w.AddBody(NewBody("box", 1, BoxInertia(1, 0.1, 0.1, 2*s), geom.V(0.1*float64(i), 0, -s-2*s*float64(i))))
			w.AddConstraint(&link{a: prev, b: b, s: s, compliance: 1e-7, push: 0})
			prev = b
		}
		return w
	}
	for _, solver := range []func() Solver{
		func() Solver { return &ActiveSet{Solver: &Chain{}} },
		func() Solver { return &ActiveSet{Solver: &Banded{}} },
		func() Solver { return &ActiveSet{Solver: &Sparse{}} },
	} {
		shared := solver()
		a, b := build(3), build(5)
		a.Solver, b.Solver = shared, shared
		ownA, ownB := build(3), build(5)
		ownA.Solver, ownB.Solver = solver(), solver()
		for step := 0; step < 30; step++ {
			for _, w := range []*World{a, b, ownA, ownB} {
				if err := w.Step(h); err != nil {
					t.Fatalf("%T shared, step %d: %v", shared, step, err)
				}
			}
		}
		for _, pair := range [][2]*World{{a, ownA}, {b, ownB}} {
			for i, body := range pair[0].Bodies() {
				if own := pair[1].Bodies()[i].Pos; body.Pos != own {
					t.Errorf("%T shared: a %d-body world's body %d at %v, with its own solver at %v", shared, len(pair[0].Bodies()), i, body.Pos, own)
				}
			}
		}
	}
}
