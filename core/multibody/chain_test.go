package multibody

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Pivots whose reciprocal leaves the normal range (a subnormal 4e-309,
// 5e-324, a huge 1e308) factor as √d with 1/√d, in the generic and the
// fixed-size Cholesky alike, and the factor reproduces the matrix.
func TestCholeskyExtremePivots(t *testing.T) {
	for _, d := range []float64{4e-309, 5e-324, 1e308, 2.5} {
		inv := make([]float64, 1)
		a := []float64{d}
		if !cholesky(a, 1, inv) {
			t.Fatalf("d = %g: refused", d)
		}
		if want := math.Sqrt(d); a[0] != want || math.Abs(inv[0]*want-1) > 1e-15 {
			t.Errorf("d = %g: L = %g, 1/L = %g; want %g, %g", d, a[0], inv[0], want, 1/want)
		}
		if d/2 == 0 {
			continue // the 6×6 case below needs d/2
		}
		var b block6
		var inv6 [6]float64
		for i := 0; i < 6; i++ {
			b[i*6+i] = d
		}
		b[6] = d / 2 // a(1,0): L(1,0) = √d/2, L(1,1) = √(3d/4)
		if !cholesky6(&b, &inv6) {
			t.Fatalf("d = %g: cholesky6 refused", d)
		}
		for i, want := range []float64{math.Sqrt(d), math.Sqrt(d) / 2, math.Sqrt(0.75 * d)} {
			got := [3]float64{b[0], b[6], b[7]}[i]
			if math.IsInf(got, 0) || math.IsNaN(got) || math.Abs(got-want) > 1e-14*want {
				t.Errorf("d = %g: cholesky6 entry %d = %g, want %g", d, i, got, want)
			}
		}
	}
}

// jointLink is a cable joint's shape of constraint: six rows on two
// bodies, rows 3–5 angular (but with linear set), Jacobians drawn from a
// seeded source. With rows set it has that many rows instead.
type jointLink struct {
	a, b   *Body
	seed   int64
	linear bool
	rows   int
	// negative gives the rows a negative compliance: a block that is not
	// positive definite.
	negative bool
}

func (l *jointLink) Bodies() []*Body { return []*Body{l.a, l.b} }
func (l *jointLink) Rows() int {
	if l.rows > 0 {
		return l.rows
	}
	return 6
}
func (l *jointLink) Update(h float64, rows []Row) {
	rng := rand.New(rand.NewSource(l.seed))
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	for r := range rows {
		for k := range 2 {
			if r < 3 || l.linear {
				rows[r].J[k].Lin = rv()
			}
			rows[r].J[k].Ang = rv()
		}
		rows[r].Violation = 0.01 * rng.NormFloat64()
		rows[r].Compliance = 1e-6
		if l.negative {
			rows[r].Compliance = -1
		}
	}
}
func (l *jointLink) Apply(float64, []float64) {}

// A problem made otherwise than by a World, its rows' blocks in slices of
// their own (no Problem.js), solves as the World's problem does, bit for
// bit: the chain gathers its joints' blocks into arrays of its own.
func TestChainGathersBlocks(t *testing.T) {
	w := NewWorld(geom.V(0, 0, -9.81))
	var bodies []*Body
	for i := range 6 {
		bodies = append(bodies, w.AddBody(NewBody("b", 1+float64(i), geom.V(0.1, 0.2, 0.3), geom.V(float64(i), 0, 0))))
	}
	for i := range 5 {
		w.AddConstraint(&jointLink{a: bodies[i], b: bodies[i+1], seed: int64(i)})
	}
	p, err := w.Assemble(1.0 / 60)
	if err != nil {
		t.Fatal(err)
	}
	inPlace := &Chain{}
	if err := inPlace.Solve(p); err != nil {
		t.Fatal(err)
	}
	if inPlace.gathers {
		t.Fatal("the chain gathered the blocks of the world's problem")
	}
	q := *p
	q.js, q.minvJs, q.blockStart = nil, nil, nil
	q.Rows = make([]ProblemRow, len(p.Rows))
	for i, r := range p.Rows {
		q.Rows[i] = ProblemRow{Bodies: r.Bodies, J: slices.Clone(r.J), MinvJ: slices.Clone(r.MinvJ)}
	}
	q.Lambda = make([]float64, len(p.Lambda))
	c := &Chain{}
	if err := c.Solve(&q); err != nil {
		t.Fatal(err)
	}
	if !c.gathers {
		t.Fatal("the chain did not gather the blocks")
	}
	for i := range p.Lambda {
		if math.Float64bits(q.Lambda[i]) != math.Float64bits(p.Lambda[i]) {
			t.Fatalf("row %d: λ = %v gathered, %v in place", i, q.Lambda[i], p.Lambda[i])
		}
	}
}

// The chain factored from both ends solves as the dense solver does, to
// 1e-9 of the largest impulse: cable joints' blocks (rows 3–5 angular),
// blocks whose rows 3–5 are not angular where the two factorizations meet
// and below it (the general coupling from the bottom), and a chain whose
// first block has four rows (a sheave's), and one whose last has five (a
// swivel's), where the bottom's kernels do not reach: factored from the
// top alone.
func TestChainFromBothEnds(t *testing.T) {
	for _, c := range []struct {
		name         string
		n            int
		linear       []int // joints whose rows 3–5 have linear parts
		first, final int   // rows of the first and the last joint, 0 for 6
		twisted      bool
	}{
		{"cable", 9, nil, 0, 0, true},
		{"even", 10, nil, 0, 0, true},
		{"linear tails", 9, []int{3, 4, 5, 7, 8}, 0, 0, true},
		{"sheave first", 9, nil, 4, 0, true},
		{"two joints", 2, nil, 0, 0, true},
		{"swivel last", 9, nil, 0, 5, false},
		{"one joint", 1, nil, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			build := func() *World {
				w := NewWorld(geom.V(0, 0, -9.81))
				var bodies []*Body
				for i := range c.n + 1 {
					bodies = append(bodies, w.AddBody(NewBody("b", 1+float64(i%3), geom.V(0.1, 0.2, 0.3), geom.V(float64(i), 0, 0))))
				}
				for i := range c.n {
					l := &jointLink{a: bodies[i], b: bodies[i+1], seed: int64(10 + i), linear: slices.Contains(c.linear, i)}
					switch i {
					case 0:
						l.rows = c.first
					case c.n - 1:
						l.rows = c.final
					}
					w.AddConstraint(l)
				}
				return w
			}
			p, err := build().Assemble(1.0 / 60)
			if err != nil {
				t.Fatal(err)
			}
			chain := &Chain{}
			if err := chain.Solve(p); err != nil {
				t.Fatal(err)
			}
			if twisted := chain.middle < len(chain.six)-1; twisted != c.twisted {
				t.Fatalf("middle %d of %d blocks: factored from both ends %v, want %v", chain.middle, len(chain.six), twisted, c.twisted)
			}
			q, err := build().Assemble(1.0 / 60)
			if err != nil {
				t.Fatal(err)
			}
			if err := (&Dense{}).Solve(q); err != nil {
				t.Fatal(err)
			}
			scale := 0.0
			for _, l := range q.Lambda {
				scale = max(scale, math.Abs(l))
			}
			for i := range q.Lambda {
				if d := math.Abs(p.Lambda[i] - q.Lambda[i]); !(d <= 1e-9*scale) {
					t.Errorf("row %d: λ = %.12g, dense %.12g", i, p.Lambda[i], q.Lambda[i])
				}
			}
		})
	}
}
