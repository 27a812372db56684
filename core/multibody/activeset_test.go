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

// tether is a test rope from a fixed point to a particle: one row that
// pulls only (Hi = 0), started by a cold active set at start; with meet,
// a second row along x whose bounds meet at zero.
type tether struct {
	anchor, p *Body
	length    float64
	start     int8
	meet      bool
	lambda    []float64
}

func (c *tether) Bodies() []*Body { return []*Body{c.anchor, c.p} }
func (c *tether) Rows() int {
	if c.meet {
		return 2
	}
	return 1
}
func (c *tether) Update(h float64, rows []Row) {
	d, l := c.p.Pos.Sub(c.anchor.Pos).Unit()
	rows[0].J[0] = Jacobian{Lin: d.Scale(-1)}
	rows[0].J[1] = Jacobian{Lin: d}
	rows[0].Violation = l - c.length
	rows[0].Compliance = 1e-8
	rows[0].Hi, rows[0].Start = 0, c.start
	if c.meet {
		rows[1].J[1] = Jacobian{Lin: geom.V(1, 0, 0)}
		rows[1].Holonomic = false
		rows[1].Lo, rows[1].Hi = 0, 0
	}
}
func (c *tether) Apply(_ float64, lambda []float64) { c.lambda = append(c.lambda[:0], lambda...) }

// A cold active set holds a row first where Row.Start says, and a row
// whose bounds meet at them: a slack tether (the particle above its
// length, falling) started at its bound factors once, started free
// twice; a taut one started at the bound wrongly is freed and pulls the
// same impulse as started free; the row with meeting bounds never costs
// a factorization.
func TestActiveSetStart(t *testing.T) {
	const h = 1.0 / 60
	step := func(length float64, start int8, meet bool) (int, float64) {
		w := NewWorld(geom.V(0, 0, -9.81))
		a := w.AddBody(NewStatic("anchor", geom.V(0, 0, 0)))
		p := w.AddBody(NewParticle("p", 2, geom.V(0.3, 0, -1)))
		c := &tether{anchor: a, p: p, length: length, start: start, meet: meet}
		w.AddConstraint(c)
		sp := &Sparse{Timing: &SparseTiming{}}
		w.Solver = &ActiveSet{Solver: sp}
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		return sp.Timing.Factorizations, c.lambda[0]
	}
	l := math.Hypot(0.3, 1)
	for _, meet := range []bool{false, true} {
		if n, lam := step(l+0.5, 1, meet); n != 1 || lam != 0 {
			t.Errorf("slack, started at the bound (meet %v): %d factorizations, impulse %g; want 1 and 0", meet, n, lam)
		}
		if n, lam := step(l+0.5, 0, meet); n != 2 || lam != 0 {
			t.Errorf("slack, started free (meet %v): %d factorizations, impulse %g; want 2 and 0", meet, n, lam)
		}
		n1, pinned := step(l, 1, meet)
		n0, free := step(l, 0, meet)
		if n1 != 2 || n0 != 1 || !(free < 0) || math.Abs(pinned-free) > 1e-12*math.Abs(free) {
			t.Errorf("taut (meet %v): started at the bound %d factorizations, impulse %g; started free %d, %g; want 2 and 1, the same pull",
				meet, n1, pinned, n0, free)
		}
	}
}

// offLink is a link that is switched off (Switched) from the first step:
// its rows are pinned at [0, 0].
type offLink struct{ link }

func (l *offLink) Off(float64) bool { return true }
func (l *offLink) Update(h float64, rows []Row) {
	l.link.Update(h, rows)
	SwitchOff(rows)
}

// The world marks a switched-off constraint's rows as pinned at [0, 0]
// (Problem.pinned) for block Gauss–Seidel to pass over; an active set
// over Gauss–Seidel solves the unbounded free problem, where the marks do
// not hold: it must not hand them on, or the inner solver skips rows that
// are free there.
func TestActiveSetFreeProblemHasNoPinnedMarks(t *testing.T) {
	w := NewWorld(geom.V(0, 0, -9.81))
	top := w.AddBody(NewStatic("top", geom.V(0, 0, 10)))
	a := w.AddBody(NewBody("a", 1, BoxInertia(1, 0.2, 0.2, 2), geom.V(0, 0, 9)))
	b := w.AddBody(NewBody("b", 1, BoxInertia(1, 0.2, 0.2, 2), geom.V(0, 0, 7)))
	w.AddConstraint(&link{a: top, b: a, s: 0, compliance: 1e-8})
	w.AddConstraint(&offLink{link{a: a, b: b, s: 1, compliance: 1e-8}})
	as := &ActiveSet{Solver: &GaussSeidel{Sizes: []int{1, 1}, Iterations: 5}}
	w.Solver = as
	for i := 0; i < 3; i++ {
		if err := w.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.prob.pinned) != 2 || !w.prob.pinned[1] {
		t.Fatalf("the world's marks %v: the switched-off link is not marked, the test tests nothing", w.prob.pinned)
	}
	if as.free.pinned != nil {
		t.Errorf("the active set's free problem carries the world's pinned marks %v", as.free.pinned)
	}
}
