package sparse

import (
	"errors"
	"fmt"
	"math"
)

// Symbolic is the analysis of a matrix structure under an ordering: the
// elimination tree and the column counts of L. It holds while the
// structure stays the same; new values need only Factor.
type Symbolic struct {
	n     int
	perm  []int // perm[k]: the node eliminated k-th
	iperm []int // iperm[perm[k]] = k
	// parent is the elimination tree of P A Pᵀ (−1 at a root); colStart
	// the start of each column of L in the factor's arrays.
	parent   []int
	colStart []int
}

// Analyze computes the symbolic factorization of a's structure in the
// order perm (from Order, or nil for the natural order).
func Analyze(a *Matrix, perm []int) (*Symbolic, error) {
	n := a.N
	if perm == nil {
		perm = make([]int, n)
		for i := range perm {
			perm[i] = i
		}
	}
	if len(perm) != n {
		return nil, fmt.Errorf("analyze: an ordering of %d nodes for a %d×%d matrix", len(perm), n, n)
	}
	s := &Symbolic{n: n, perm: perm, iperm: make([]int, n), parent: make([]int, n), colStart: make([]int, n+1)}
	for i := range s.iperm {
		s.iperm[i] = -1
	}
	for k, i := range perm {
		if i < 0 || i >= n || s.iperm[i] >= 0 {
			return nil, fmt.Errorf("analyze: the ordering is not a permutation (node %d)", i)
		}
		s.iperm[i] = k
	}
	// Row k of L is the set of nodes reached from the entries of row k of
	// P A Pᵀ left of the diagonal by walking up the elimination tree
	// until node k, whose tree it joins (Liu).
	flag := make([]int, n)
	count := make([]int, n)
	for k := 0; k < n; k++ {
		s.parent[k], flag[k] = -1, k
		col := perm[k]
		for q := a.Col[col]; q < a.Col[col+1]; q++ {
			for i := s.iperm[a.Row[q]]; i < k && flag[i] != k; i = s.parent[i] {
				if s.parent[i] < 0 {
					s.parent[i] = k
				}
				count[i]++
				flag[i] = k
			}
		}
	}
	for k := 0; k < n; k++ {
		s.colStart[k+1] = s.colStart[k] + count[k]
	}
	return s, nil
}

// Nonzeros returns the number of entries of L below its diagonal.
func (s *Symbolic) Nonzeros() int { return s.colStart[s.n] }

// Factor is the numeric LDLᵀ factorization P A Pᵀ = L D Lᵀ of a matrix,
// L unit lower triangular in compressed columns.
type Factor struct {
	sym *Symbolic
	// rowIdx and val are L's entries below the diagonal, by column; d its
	// diagonal D.
	rowIdx []int
	val    []float64
	d      []float64
	// Perturbed counts the pivots of the last factorization that were
	// below the threshold and were replaced (see Options.Pivot).
	Perturbed int
	// scratch
	y, x          []float64
	pattern, flag []int
	fill          []int
}

// Pivot says how Factor treats a pivot d_k too small to divide by. With
// Sign (per node, not per position) the expected sign of each pivot, a
// pivot of the wrong sign or of magnitude below Eps·Scale[node] is set to
// Sign·Eps·Scale[node] and counted in Factor.Perturbed: static pivoting,
// whose solution is that of a nearby matrix, which iterative refinement
// against the true matrix corrects. With Sign nil a zero pivot is an
// error.
type Pivot struct {
	Sign  []int8
	Scale []float64
	Eps   float64
}

// ErrSingular reports a zero pivot.
var ErrSingular = errors.New("matrix is singular")

// NewFactor allocates a factorization for the analysis s.
func NewFactor(s *Symbolic) *Factor {
	nnz := s.Nonzeros()
	return &Factor{sym: s, rowIdx: make([]int, nnz), val: make([]float64, nnz), d: make([]float64, s.n),
		y: make([]float64, s.n), x: make([]float64, s.n), pattern: make([]int, s.n), flag: make([]int, s.n), fill: make([]int, s.n)}
}

// Factor computes L and D for a's values (a's structure must be the one
// analyzed), row by row (up-looking): row k of L solves
// L₁₁ D₁₁ yᵀ = A₁₂ on the pattern the elimination tree gives, and
// d_k = a_kk − Σ_j l_kj y_j.
func (f *Factor) Factor(a *Matrix, piv Pivot) error {
	s := f.sym
	n := s.n
	if a.N != n {
		return fmt.Errorf("factor: a %d×%d matrix for an analysis of %d", a.N, a.N, n)
	}
	f.Perturbed = 0
	y, pattern, flag, fill := f.y, f.pattern, f.flag, f.fill
	for k := 0; k < n; k++ {
		// Scatter row k of P A Pᵀ (left of and on the diagonal) into y
		// and find the pattern of row k of L in topological order.
		y[k], flag[k], fill[k] = 0, k, 0
		top := n
		col := s.perm[k]
		for q := a.Col[col]; q < a.Col[col+1]; q++ {
			i := s.iperm[a.Row[q]]
			if i > k {
				continue
			}
			y[i] += a.Val[q]
			m := 0
			for ; flag[i] != k; i = s.parent[i] {
				pattern[m] = i
				m++
				flag[i] = k
			}
			for m > 0 {
				top--
				m--
				pattern[top] = pattern[m]
			}
		}
		dk := y[k]
		y[k] = 0
		for t := top; t < n; t++ {
			i := pattern[t]
			yi := y[i]
			y[i] = 0
			start := s.colStart[i]
			for q := start; q < start+fill[i]; q++ {
				y[f.rowIdx[q]] -= f.val[q] * yi
			}
			lki := yi / f.d[i]
			dk -= lki * yi
			q := start + fill[i]
			f.rowIdx[q], f.val[q] = k, lki
			fill[i]++
		}
		switch {
		case piv.Sign != nil:
			sign := float64(piv.Sign[col])
			least := max(piv.Eps*piv.Scale[col], math.SmallestNonzeroFloat64)
			if !(dk*sign >= least) {
				dk = sign * least
				f.Perturbed++
			}
		case dk == 0 || math.IsNaN(dk):
			return fmt.Errorf("factor: pivot %d (node %d): %w", k, col, ErrSingular)
		}
		f.d[k] = dk
	}
	return nil
}

// Solve overwrites b with the solution x of A x = b.
func (f *Factor) Solve(b []float64) {
	s := f.sym
	x := f.x
	for k, i := range s.perm {
		x[k] = b[i]
	}
	for j := 0; j < s.n; j++ { // L x = b
		xj := x[j]
		for q := s.colStart[j]; q < s.colStart[j+1]; q++ {
			x[f.rowIdx[q]] -= f.val[q] * xj
		}
	}
	for j := range x[:s.n] {
		x[j] /= f.d[j]
	}
	for j := s.n - 1; j >= 0; j-- { // Lᵀ x = y
		xj := x[j]
		for q := s.colStart[j]; q < s.colStart[j+1]; q++ {
			xj -= f.val[q] * x[f.rowIdx[q]]
		}
		x[j] = xj
	}
	for k, i := range s.perm {
		b[i] = x[k]
	}
}

// Inertia returns the numbers of positive and negative pivots.
func (f *Factor) Inertia() (pos, neg int) {
	for _, d := range f.d {
		if d > 0 {
			pos++
		} else if d < 0 {
			neg++
		}
	}
	return pos, neg
}
