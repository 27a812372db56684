package multibody

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// pointLink is a test distance constraint between points of two bodies
// (the centres of particles).
type pointLink struct {
	a, b       *Body
	ra, rb     geom.Vec3 // body-frame attachment points
	length     float64
	compliance float64
}

func (l *pointLink) Bodies() []*Body { return []*Body{l.a, l.b} }
func (l *pointLink) Rows() int       { return 1 }
func (l *pointLink) Update(h float64, rows []Row) {
	pa, pb := l.a.PointWorld(l.ra), l.b.PointWorld(l.rb)
	d := pb.Sub(pa)
	n := d.Scale(1 / d.Norm())
	ra, rb := pa.Sub(l.a.Pos), pb.Sub(l.b.Pos)
	rows[0].J[0] = Jacobian{Lin: n.Scale(-1), Ang: ra.Cross(n).Scale(-1)}
	rows[0].J[1] = Jacobian{Lin: n, Ang: rb.Cross(n)}
	rows[0].Violation = d.Norm() - l.length
	rows[0].Compliance = l.compliance
	rows[0].Damping = 2.0 / 60
}
func (l *pointLink) Apply(float64, []float64) {}

// net builds a side×side net of particles (or small rigid bodies) joined
// by links to their right and lower neighbours, hung by its top row from
// a kinematic beam, every third link rigid (Σ = 0), a heavy body at one
// corner: closed loops, a 1e4 mass ratio and rigid rows.
func net(side int, rigidBodies bool) *World {
	w := NewWorld(geom.V(0, 0, -9.81))
	top := w.AddBody(NewKinematic("beam", geom.V(0, 0, 0)))
	nodes := make([]*Body, side*side)
	const gap = 0.5
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			m := 1.0
			if x == side-1 && y == side-1 {
				m = 1e4
			}
			pos := geom.V(gap*float64(x), 0.01*float64(x*y), -gap*float64(y+1))
			if rigidBodies {
				nodes[y*side+x] = w.AddBody(NewBody("node", m, BoxInertia(m, 0.1, 0.1, 0.1), pos))
			} else {
				nodes[y*side+x] = w.AddBody(NewParticle("node", m, pos))
			}
		}
	}
	k := 0
	link := func(a, b *Body, ra geom.Vec3) {
		c := 1e-6
		if k%3 == 0 {
			c = 0
		}
		k++
		w.AddConstraint(&pointLink{a: a, b: b, ra: ra, length: b.Pos.Sub(a.Pos.Add(ra)).Norm(), compliance: c})
	}
	for x := 0; x < side; x++ {
		link(top, nodes[x], geom.V(gap*float64(x), 0, 0))
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			if x+1 < side {
				link(nodes[y*side+x], nodes[y*side+x+1], geom.Vec3{})
			}
			if y+1 < side {
				link(nodes[y*side+x], nodes[(y+1)*side+x], geom.Vec3{})
			}
		}
	}
	return w
}

// The sparse LDLᵀ of the whole system finds the dense solver's impulses on
// nets of particles and of rigid bodies, with rigid and compliant rows and
// a 1e4 mass ratio, at every step of a second of their fall and swing.
func TestSparseMatchesDense(t *testing.T) {
	for _, rigidBodies := range []bool{false, true} {
		ws, wd := net(6, rigidBodies), net(6, rigidBodies)
		sp := &Sparse{Timing: &SparseTiming{}}
		ws.Solver = sp
		rng := rand.New(rand.NewSource(7))
		for i, b := range ws.Bodies() {
			if b.Kind == Dynamic {
				v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
				b.Vel, wd.Bodies()[i].Vel = v, v
			}
		}
		matchDense(t, fmt.Sprintf("rigid bodies %v", rigidBodies), ws, wd, 60)
		if sp.fac.Perturbed != 0 {
			t.Errorf("rigid bodies %v: %d pivots perturbed on independent rows", rigidBodies, sp.fac.Perturbed)
		}
		t.Logf("rigid bodies %v: %d unknowns, %d entries in L", rigidBodies, sp.Timing.Unknowns, sp.Timing.Nonzeros)
	}
}

// ballLink is a test ball joint between two particles: three rigid rows.
type ballLink struct{ a, b *Body }

func (l *ballLink) Bodies() []*Body { return []*Body{l.a, l.b} }
func (l *ballLink) Rows() int       { return 3 }
func (l *ballLink) Update(h float64, rows []Row) {
	d := l.b.Pos.Sub(l.a.Pos)
	for i, axis := range []geom.Vec3{geom.V(1, 0, 0), geom.V(0, 1, 0), geom.V(0, 0, 1)} {
		rows[i].J[0] = Jacobian{Lin: axis.Scale(-1)}
		rows[i].J[1] = Jacobian{Lin: axis}
		rows[i].Violation = d.Dot(axis)
		rows[i].Holonomic = true
		rows[i].Damping = 2.0 / 60
	}
}
func (l *ballLink) Apply(float64, []float64) {}

// lockedNet is a side×side net of 1 kg knots hung by its top row from a
// kinematic beam, each pair of neighbours joined by a compliant link
// between two 0.1 kg end particles ball-jointed to the knots: the
// structure of a net of wires (hmrwire's BenchmarkWireNet), whose rigid
// joints minimum degree must leave until both their bodies are gone.
func lockedNet(side int) *World {
	w := NewWorld(geom.V(0, 0, -9.81))
	top := w.AddBody(NewKinematic("beam", geom.V(0, 0, 0)))
	knots := make([]*Body, side*side)
	const gap = 0.5
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			knots[y*side+x] = w.AddBody(NewParticle("knot", 1, geom.V(gap*float64(x), 0.01*float64(x*y), -gap*float64(y+1))))
		}
	}
	link := func(a, b *Body) {
		ea, eb := w.AddBody(NewParticle("end", 0.1, a.Pos)), w.AddBody(NewParticle("end", 0.1, b.Pos))
		w.AddConstraint(&ballLink{a: a, b: ea})
		w.AddConstraint(&ballLink{a: b, b: eb})
		w.AddConstraint(&pointLink{a: ea, b: eb, length: eb.Pos.Sub(ea.Pos).Norm(), compliance: 1e-6})
	}
	for x := 0; x < side; x++ {
		ra := geom.V(gap*float64(x), 0, 0)
		w.AddConstraint(&pointLink{a: top, b: knots[x], ra: ra, length: knots[x].Pos.Sub(ra).Norm(), compliance: 1e-6})
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			if x+1 < side {
				link(knots[y*side+x], knots[y*side+x+1])
			}
			if y+1 < side {
				link(knots[y*side+x], knots[(y+1)*side+x])
			}
		}
	}
	return w
}

// Large nets solve as the dense solver does: a net of wires (1,462
// unknowns), ordered by nested dissection and factored by the up-looking
// kernel, and a net of particles (24 × 24, 1,128 unknowns), which minimum
// degree orders in fewer operations and whose L is dense enough for the
// multifrontal kernel.
func TestSparseDissectedNetMatchesDense(t *testing.T) {
	for _, c := range []struct {
		what               string
		ws, wd             *World
		dissected, frontal bool
	}{
		{"net of wires 10×10", lockedNet(10), lockedNet(10), true, false},
		{"net of particles 24×24", net(24, false), net(24, false), false, true},
	} {
		sp := &Sparse{Timing: &SparseTiming{}}
		c.ws.Solver = sp
		matchDense(t, c.what, c.ws, c.wd, 3)
		if sp.dissected != c.dissected || sp.fac.Symbolic().Multifrontal() != c.frontal {
			t.Errorf("%s: dissected %v, multifrontal %v; want %v, %v", c.what, sp.dissected, sp.fac.Symbolic().Multifrontal(), c.dissected, c.frontal)
		}
		t.Logf("%s: %d unknowns, %d entries in L", c.what, sp.Timing.Unknowns, sp.Timing.Nonzeros)
	}
}

// Two rigid rows that say the same thing (a link given twice) make the
// system singular: the perturbed pivot and refinement still hold the
// particle with the right total impulse, or the solve fails with a
// message; it never returns non-finite impulses.
func TestSparseDependentRows(t *testing.T) {
	w := NewWorld(geom.V(0, 0, -9.81))
	top := w.AddBody(NewKinematic("top", geom.V(0, 0, 0)))
	b := w.AddBody(NewParticle("p", 1, geom.V(0, 0, -1)))
	w.AddConstraint(&pointLink{a: top, b: b, length: 1})
	w.AddConstraint(&pointLink{a: top, b: b, length: 1})
	w.Solver = &Sparse{}
	p, err := w.Assemble(1.0 / 60)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Solver.Solve(p)
	if err == nil {
		total := p.Lambda[0] + p.Lambda[1]
		if math.IsNaN(total) || math.Abs(math.Abs(total)-9.81/60) > 1e-6 {
			t.Errorf("dependent rows: impulses %v, total %g, want ±9.81/60 (the particle held)", p.Lambda, total)
		}
		return
	}
	t.Logf("dependent rows refused: %v", err)
}

// A body with a zero principal moment, which the bodies take as one that
// cannot turn about that axis (an inverse inertia of rank 2 or 1), solves
// as the dense solver does: its angular unknowns are taken along the axes
// it can turn about. (The 3×3 world inertia block cannot be formed.)
func TestSparseZeroPrincipalMoment(t *testing.T) {
	for _, inertia := range []geom.Vec3{geom.V(0.5, 0, 0.8), geom.V(0, 0, 0.8), geom.V(0.5, 0.6, 0.8)} {
		build := func() *World {
			w := NewWorld(geom.V(0, 0, -9.81))
			top := w.AddBody(NewKinematic("top", geom.Vec3{}))
			b := w.AddBody(NewBody("rod", 10, inertia, geom.V(0.3, 0.2, -1)))
			b.Rot = geom.Quat{W: 0.9, X: 0.3, Y: -0.2, Z: 0.25}.Normalize()
			b.AngVel = geom.V(0.4, -1.1, 0.7)
			for _, c := range []struct {
				at, ra geom.Vec3
				sigma  float64
			}{{geom.V(-0.5, 0, 0), geom.V(-0.2, 0.1, 0.3), 0}, {geom.V(0.5, 0.3, 0), geom.V(0.25, -0.1, 0.2), 1e-5}} {
				pa := b.PointWorld(c.ra)
				w.AddConstraint(&pointLink{a: b, b: top, ra: c.ra, rb: c.at, length: c.at.Sub(pa).Norm(), compliance: c.sigma})
			}
			return w
		}
		ws, wd := build(), build()
		ws.Solver = &Sparse{}
		matchDense(t, fmt.Sprintf("inertia %v", inertia), ws, wd, 60)
	}
}

// matchDense steps the twin worlds ws (solved by Sparse) and wd (by the
// dense solver) at 1/60 s, both moved by the dense impulses, and fails
// where their impulses differ by more than 1e-9 of the largest.
func matchDense(t *testing.T, what string, ws, wd *World, steps int) {
	t.Helper()
	const h = 1.0 / 60
	for step := 0; step < steps; step++ {
		ps, err := ws.Assemble(h)
		if err != nil {
			t.Fatal(err)
		}
		pd, err := wd.Assemble(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := ws.Solver.Solve(ps); err != nil {
			t.Fatalf("%s, step %d: sparse: %v", what, step, err)
		}
		if err := wd.Solver.Solve(pd); err != nil {
			t.Fatalf("%s, step %d: dense: %v", what, step, err)
		}
		scale := 0.0
		for _, l := range pd.Lambda {
			scale = math.Max(scale, math.Abs(l))
		}
		for i := range ps.Lambda {
			if math.Abs(ps.Lambda[i]-pd.Lambda[i]) > 1e-9*scale {
				t.Fatalf("%s, step %d row %d: sparse λ = %.12g, dense %.12g (scale %.3g)", what, step, i, ps.Lambda[i], pd.Lambda[i], scale)
			}
		}
		copy(ps.Lambda, pd.Lambda)
		for _, w := range []*World{ws, wd} {
			w.integrate(h)
		}
	}
}

// turnLink is a test torsion spring about x between two rigid bodies: an
// angular row only.
type turnLink struct{ a, b *Body }

func (l *turnLink) Bodies() []*Body { return []*Body{l.a, l.b} }
func (l *turnLink) Rows() int       { return 1 }
func (l *turnLink) Update(h float64, rows []Row) {
	x := geom.V(1, 0, 0)
	rows[0].J[0] = Jacobian{Ang: x.Scale(-1)}
	rows[0].J[1] = Jacobian{Ang: x}
	rows[0].Compliance = 1e-3
	rows[0].Damping = 2.0 / 60
}
func (l *turnLink) Apply(float64, []float64) {}

// A chain of small boxes hung from a beam by links between points on
// their axes, neighbours joined by torsion springs: at rest, hanging
// plumb, the links act on the boxes' translation only (their lever arms
// lie along them) and the springs on their turning only, so the analysis
// leaves the two apart. Kicked sideways, the links come to act on the
// turning too: the solver analyzes again, and it finds the dense solver's
// impulses at every step before and after.
func TestSparseRowsComingToActOnTurning(t *testing.T) {
	chain := func() *World {
		w := NewWorld(geom.V(0, 0, -9.81))
		prev := w.AddBody(NewKinematic("beam", geom.V(0, 0, 0)))
		arm := geom.V(0, 0, 0.1) // from a box's centre to its top
		var last *Body
		for i := 0; i < 8; i++ {
			b := w.AddBody(NewBody("box", 10, BoxInertia(10, 0.1, 0.1, 0.2), geom.V(0, 0, -0.5*float64(i+1))))
			ra := arm.Scale(-1)
			if i == 0 {
				ra = geom.Vec3{}
			}
			w.AddConstraint(&pointLink{a: prev, b: b, ra: ra, rb: arm, length: 0.3, compliance: 1e-7})
			if last != nil {
				w.AddConstraint(&turnLink{a: last, b: b})
			}
			prev, last = b, b
		}
		return w
	}
	ws, wd := chain(), chain()
	sp := &Sparse{Timing: &SparseTiming{}}
	ws.Solver = sp
	matchDense(t, "plumb", ws, wd, 20)
	before := sp.Timing.Analyses
	for _, w := range []*World{ws, wd} {
		for _, b := range w.Bodies() {
			if b.Kind == Dynamic {
				b.Vel = geom.V(0.3, 0.2, 0)
			}
		}
	}
	matchDense(t, "kicked", ws, wd, 60)
	if sp.Timing.Analyses == before {
		t.Errorf("the links came to act on the boxes' turning and the solver did not analyze again")
	}
}

// A kept analysis taken up again (the coupling of a few analyses before)
// solves as a fresh one does, to the bit: a net whose last two links come
// and go in turn, every two steps, one solver keeping its analyses, the
// other made anew each step.
func TestSparseKeptAnalysisBitwise(t *testing.T) {
	for _, rigidBodies := range []bool{false, true} {
		wk, wf := net(5, rigidBodies), net(5, rigidBodies)
		kept := &Sparse{Timing: &SparseTiming{}}
		wk.Solver = kept
		links := func(w *World) [2]Constraint {
			c := w.Constraints()
			return [2]Constraint{c[len(c)-1], c[len(c)-2]}
		}
		lk, lf := links(wk), links(wf)
		const h = 1.0 / 60
		for step := 0; step < 40; step++ {
			// Without the last link, without the one before, with both:
			// the solver meets each coupling again after two others.
			for _, c := range []struct {
				w     *World
				links [2]Constraint
			}{{wk, lk}, {wf, lf}} {
				drop := func(x Constraint) func(Constraint) bool { return func(y Constraint) bool { return y == x } }
				switch step % 6 {
				case 0:
					c.w.Remove(nil, drop(c.links[0]))
				case 2:
					c.w.AddConstraint(c.links[0])
					c.w.Remove(nil, drop(c.links[1]))
				case 4:
					c.w.AddConstraint(c.links[1])
				}
			}
			wf.Solver = &Sparse{}
			for _, w := range []*World{wk, wf} {
				if err := w.Step(h); err != nil {
					t.Fatalf("rigid bodies %v, step %d: %v", rigidBodies, step, err)
				}
			}
			for i, b := range wk.Bodies() {
				if f := wf.Bodies()[i]; b.Pos != f.Pos || b.Vel != f.Vel || b.AngVel != f.AngVel {
					t.Fatalf("rigid bodies %v, step %d: body %d at %v moving %v, %v; with fresh analyses at %v moving %v, %v",
						rigidBodies, step, i, b.Pos, b.Vel, b.AngVel, f.Pos, f.Vel, f.AngVel)
				}
			}
		}
		// Analyzed at the first three couplings, then taken up at each
		// change.
		if tm := kept.Timing; tm.Analyses != 3 || tm.Reused != 17 {
			t.Errorf("rigid bodies %v: %d analyses and %d taken up again, want 3 and 17", rigidBodies, tm.Analyses, tm.Reused)
		}
		total := 0
		for _, a := range kept.kept {
			total += a.bytes()
		}
		if len(kept.kept) != 2 || total > keptBytes || total < 1000 {
			t.Errorf("rigid bodies %v: %d analyses kept in %d bytes, want the 2 not in use within %d", rigidBodies, len(kept.kept), total, keptBytes)
		}
	}
}

// A solver stepping two worlds of the same coupling in turn solves each as
// a solver of its own does: the analysis holds for both, the assembly of
// the one is not taken for the other's.
func TestSparseSharedBetweenWorlds(t *testing.T) {
	shared := &Sparse{}
	var worlds, own [2]*World
	for i := range worlds {
		worlds[i], own[i] = net(3, false), net(3, false)
		worlds[i].Solver, own[i].Solver = shared, &Sparse{}
		for _, w := range []*World{worlds[i], own[i]} {
			for _, b := range w.Bodies() {
				if b.Kind == Dynamic {
					b.Vel = geom.V(float64(i), 0, 1-float64(i))
				}
			}
		}
	}
	const h = 1.0 / 60
	for step := 0; step < 20; step++ {
		for i := range worlds {
			for _, w := range []*World{worlds[i], own[i]} {
				if err := w.Step(h); err != nil {
					t.Fatalf("world %d, step %d: %v", i, step, err)
				}
			}
			for k, b := range worlds[i].Bodies() {
				if o := own[i].Bodies()[k]; b.Pos != o.Pos || b.Vel != o.Vel {
					t.Fatalf("world %d, step %d: body %d at %v moving %v with the shared solver, %v moving %v with its own",
						i, step, k, b.Pos, b.Vel, o.Pos, o.Vel)
				}
			}
		}
	}
}
