package sparse

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomMatrix builds an n×n symmetric structure with about deg random
// neighbours per node and values that make it symmetric positive definite
// (diagonally dominant) or, with rows > 0, quasi-definite: the last rows
// nodes get negative diagonals and couple only to the first n − rows.
func randomMatrix(rng *rand.Rand, n, deg, rows int) (*Matrix, []int8) {
	b := NewBuilder(n)
	vars := n - rows
	for i := 0; i < n; i++ {
		for d := 0; d < deg; d++ {
			j := rng.IntN(vars)
			if i >= vars || j != i {
				b.Couple(i, j)
			}
		}
	}
	m := b.Matrix()
	sign := make([]int8, n)
	rowSum := make([]float64, n)
	for j := 0; j < n; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			if i := m.Row[q]; i < j {
				v := rng.Float64()*2 - 1
				m.Val[q] = v
				m.Val[m.Index(j, i)] = v
				rowSum[i] += math.Abs(v)
				rowSum[j] += math.Abs(v)
			}
		}
	}
	for i := 0; i < n; i++ {
		sign[i] = 1
		d := rowSum[i] + 1
		if i >= vars {
			sign[i], d = -1, -(0.1 + rng.Float64())
		}
		m.Val[m.Index(i, i)] = d
	}
	return m, sign
}

func dense(m *Matrix) *mat.Dense {
	a := mat.NewDense(m.N, m.N, nil)
	for j := 0; j < m.N; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			a.Set(m.Row[q], j, m.Val[q])
		}
	}
	return a
}

// LDLᵀ with the minimum degree order solves as gonum's dense LU does, for
// positive definite and quasi-definite matrices, with the expected
// inertia.
func TestFactorSolvesAsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(120)
		rows := 0
		if trial%2 == 1 {
			rows = rng.IntN(n / 2)
		}
		m, sign := randomMatrix(rng, n, 1+rng.IntN(4), rows)
		perm, err := Order(m.Graph(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		sym, err := Analyze(m, perm)
		if err != nil {
			t.Fatal(err)
		}
		f := NewFactor(sym)
		// With the expected signs, no pivot of these well-conditioned
		// matrices is perturbed.
		piv := Pivot{}
		if trial%4 == 1 {
			piv = Pivot{Sign: sign, Scale: make([]float64, n), Eps: 1e-13}
			for i := range piv.Scale {
				piv.Scale[i] = 1
			}
		}
		if err := f.Factor(m, piv); err != nil {
			t.Fatal(err)
		}
		if f.Perturbed != 0 {
			t.Errorf("trial %d: %d pivots perturbed", trial, f.Perturbed)
		}
		if pos, neg := f.Inertia(); pos != n-rows || neg != rows {
			t.Errorf("trial %d: inertia (%d, %d), want (%d, %d)", trial, pos, neg, n-rows, rows)
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.Float64()*2 - 1
		}
		var want mat.VecDense
		if err := want.SolveVec(dense(m), mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		f.Solve(b)
		for i := range b {
			if d := math.Abs(b[i] - want.AtVec(i)); d > 1e-10*(1+math.Abs(want.AtVec(i))) {
				t.Fatalf("trial %d (n = %d): x[%d] = %g, dense %g", trial, n, i, b[i], want.AtVec(i))
			}
		}
	}
}

// The elimination tree's column counts are the fill a dense elimination
// in the same order produces.
func TestAnalysisCountsTheFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(60)
		m, _ := randomMatrix(rng, n, 1+rng.IntN(3), 0)
		perm := rng.Perm(n)
		sym, err := Analyze(m, perm)
		if err != nil {
			t.Fatal(err)
		}
		// Symbolic elimination on a dense boolean matrix.
		nz := make([][]bool, n)
		for k := range nz {
			nz[k] = make([]bool, n)
		}
		for j := 0; j < n; j++ {
			for q := m.Col[j]; q < m.Col[j+1]; q++ {
				nz[sym.iperm[m.Row[q]]][sym.iperm[j]] = true
			}
		}
		count := 0
		for k := 0; k < n; k++ {
			for i := k + 1; i < n; i++ {
				if !nz[i][k] {
					continue
				}
				count++
				for j := k + 1; j < n; j++ {
					if nz[j][k] {
						nz[i][j], nz[j][i] = true, true
					}
				}
			}
		}
		if got := sym.Nonzeros(); got != count {
			t.Fatalf("trial %d: analysis counts %d entries of L, elimination %d", trial, got, count)
		}
	}
}

// grid is the 5-point Laplacian of a side×side grid plus the identity.
func grid(side int) *Matrix {
	n := side * side
	b := NewBuilder(n)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			i := y*side + x
			if x+1 < side {
				b.Couple(i, i+1)
			}
			if y+1 < side {
				b.Couple(i, i+side)
			}
		}
	}
	m := b.Matrix()
	for j := 0; j < n; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			m.Val[q] = -1
			if m.Row[q] == j {
				m.Val[q] = 5
			}
		}
	}
	return m
}

// Minimum degree keeps a chain's factor free of fill and cuts a grid's
// well below the banded fill of the natural order (side³ entries): a net
// of cable segments factors in near-linear cost.
func TestOrderKeepsFillLow(t *testing.T) {
	chain := NewBuilder(1000)
	for i := 0; i+1 < 1000; i++ {
		chain.Couple(i, i+1)
	}
	perm, err := Order(chain.Matrix().Graph(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := Analyze(chain.Matrix(), perm)
	if sym.Nonzeros() != 999 {
		t.Errorf("chain of 1000: %d entries in L, want 999", sym.Nonzeros())
	}
	for _, side := range []int{10, 30, 60} {
		m := grid(side)
		natural, _ := Analyze(m, nil)
		perm, err := Order(m.Graph(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		md, _ := Analyze(m, perm)
		n := float64(side * side)
		t.Logf("grid %d×%d: natural order %d entries, minimum degree %d (%.1f per node, n log n = %.0f)", side, side, natural.Nonzeros(), md.Nonzeros(), float64(md.Nonzeros())/n, n*math.Log2(n))
		if side >= 30 && float64(md.Nonzeros()) > 0.5*float64(natural.Nonzeros()) {
			t.Errorf("grid %d×%d: minimum degree leaves %d entries, natural order %d", side, side, md.Nonzeros(), natural.Nonzeros())
		}
		if float64(md.Nonzeros()) > 2*n*math.Log2(n) {
			t.Errorf("grid %d×%d: %d entries, more than 2 n log₂ n", side, side, md.Nonzeros())
		}
	}
}

// Waiting nodes come after their neighbours: a zero diagonal (a rigid
// constraint row) then gets the nonzero Schur complement as its pivot.
func TestWaitingRowsFactorWithZeroDiagonal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 20; trial++ {
		n := 10 + rng.IntN(80)
		rows := 1 + rng.IntN(n/4)
		m, _ := randomMatrix(rng, n, 2, rows)
		wait := make([]bool, n)
		for i := n - rows; i < n; i++ {
			m.Val[m.Index(i, i)] = 0
			wait[i] = true
		}
		perm, err := Order(m.Graph(), nil, wait)
		if err != nil {
			t.Fatal(err)
		}
		pos := make([]int, n)
		for k, i := range perm {
			pos[i] = k
		}
		g := m.Graph()
		for r := n - rows; r < n; r++ {
			for _, j := range g.Adj[g.Start[r]:g.Start[r+1]] {
				if !wait[j] && pos[j] > pos[r] {
					t.Fatalf("row %d eliminated before its neighbour %d", r, j)
				}
			}
		}
		sym, _ := Analyze(m, perm)
		f := NewFactor(sym)
		err = f.Factor(m, Pivot{})
		// Random rows may be dependent; independent ones must factor.
		if err != nil {
			continue
		}
		if _, neg := f.Inertia(); neg != rows {
			t.Errorf("trial %d: %d negative pivots, want %d", trial, neg, rows)
		}
	}
	// Without waiting, the natural order meets the zero pivot first.
	b := NewBuilder(2)
	b.Couple(0, 1)
	m := b.Matrix()
	m.Val[m.Index(0, 1)], m.Val[m.Index(1, 0)], m.Val[m.Index(1, 1)] = 1, 1, 2
	sym, _ := Analyze(m, []int{0, 1})
	if err := NewFactor(sym).Factor(m, Pivot{}); err == nil {
		t.Error("a zero first pivot factored")
	}
	perm, _ := Order(m.Graph(), nil, []bool{true, false})
	if perm[0] != 1 {
		t.Errorf("waiting node 0 ordered %v", perm)
	}
}

// TestOrderRefusesBrokenGraphs: no nodes orders to nothing; lists that do
// not hold together are refused, not a panic.
func TestOrderRefusesBrokenGraphs(t *testing.T) {
	for _, g := range []Graph{{}, {Start: []int{0}}} {
		if perm, err := Order(g, nil, nil); err != nil || len(perm) != 0 {
			t.Errorf("empty graph %+v: %v, %v", g, perm, err)
		}
	}
	for name, g := range map[string]Graph{
		"neighbour out of range": {Start: []int{0, 1, 2}, Adj: []int{1, 2}},
		"negative neighbour":     {Start: []int{0, 1, 2}, Adj: []int{-1, 0}},
		"self loop":              {Start: []int{0, 1, 2}, Adj: []int{0, 0}},
		"lists past the end":     {Start: []int{0, 1, 3}, Adj: []int{1, 0}},
		"list ends before start": {Start: []int{0, 2, 1, 2}, Adj: []int{1, 2}},
		"lists not from 0":       {Start: []int{1, 2, 2}, Adj: []int{1, 0}},
	} {
		if _, err := Order(g, nil, nil); err == nil {
			t.Errorf("%s: %+v accepted", name, g)
		}
	}
}
