package multibody

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Dense solves the Schur complement system by dense Cholesky factorization
// (LAPACK dpotrf through gonum), handling bounded rows by principal
// pivoting: after each solve of the free rows, the first row (least index)
// that is out of bounds is clamped, or the first clamped row whose residual
// points back inside is released, until none is left. The least-index
// rule (Murty's, proven finite for one-sided bounds and a positive definite
// S) settles the small two-sided problems met here; should the pivoting
// exceed its budget, projected Gauss–Seidel finishes from where it is.
// Meant for small systems: a few cables, hooks and loads.
type Dense struct {
	s, a, rhs []float64
	state     []bound
}

type bound int8

const (
	free bound = iota
	atLo
	atHi
)

// Solve implements Solver.
func (d *Dense) Solve(p *Problem) error {
	n := len(p.Rows)
	d.s = grow(d.s, n*n)
	d.a = grow(d.a, n*n)
	d.rhs = grow(d.rhs, n)
	if cap(d.state) < n {
		d.state = make([]bound, n)
	}
	d.state = d.state[:n]
	p.Schur(d.s)
	return d.solveSchur(p)
}

// solveSchur solves p with its Schur complement in d.s.
func (d *Dense) solveSchur(p *Problem) error {
	n := len(p.Rows)
	for i := range d.state {
		d.state[i] = free
		p.Lambda[i] = 0
		if p.Lo[i] == p.Hi[i] {
			// A row pinned to one value (a switched-off contact) takes no
			// part in the pivoting.
			d.state[i], p.Lambda[i] = atLo, p.Lo[i]
		}
	}
	for iter := 0; iter < 4*n*n+16; iter++ {
		if err := d.solveFree(p); err != nil {
			return err
		}
		if !d.pivot(p) {
			return nil
		}
	}
	return d.projectedGaussSeidel(p)
}

// solveFree solves S_ff λ_f = B_f − S_fc λ_c for the free rows.
func (d *Dense) solveFree(p *Problem) error {
	n := len(p.Rows)
	idx := make([]int, 0, 8)
	for i, st := range d.state {
		if st == free {
			idx = append(idx, i)
		}
	}
	m := len(idx)
	if m == 0 {
		return nil
	}
	for r, i := range idx {
		b := p.B[i]
		for j := 0; j < n; j++ {
			if d.state[j] != free {
				b -= d.s[i*n+j] * p.Lambda[j]
			}
		}
		d.rhs[r] = b
		for c, j := range idx {
			d.a[r*m+c] = d.s[i*n+j]
		}
	}
	a := blas64.Symmetric{N: m, Stride: m, Data: d.a[:m*m], Uplo: blas.Upper}
	t, ok := lapack64.Potrf(a)
	if ok {
		// Rows dependent to within rounding (two contact points of a
		// capsule a hair apart on a light box) factor, but into impulses
		// of opposite signs that cancel, hundreds of times their bounds,
		// on which the pivoting cycled: a pivot below what the
		// regularization adds is taken as the dependence it is. (Random
		// problems dependent to within 1e-10 have exact solutions of
		// impulses up to 1e17 times their right-hand sides', which the
		// regularization replaces by finite ones that leave a residual.)
		for r, i := range idx {
			if pv := t.Data[r*m+r]; pv*pv < 1e-10*d.s[i*n+i] {
				ok = false
				break
			}
		}
	}
	if !ok {
		// Rigid rows that are dependent (ε = 0, redundant constraints) make S
		// singular: regularize by a tiny compliance, as SPOOK would with ε > 0,
		// each row by 1e-10 of its own diagonal. (Of the largest for all, one
		// soft row, Σ of 7e12 for a rope of EI = 1e-9 N·m², softened the
		// rigid rows beside it by 700, and a row of infinite compliance made
		// every row infinitely soft: no impulses at all, a load in free
		// fall.) A row of infinite diagonal takes no impulse and needs none;
		// nor does a row of zero diagonal, which acts on no dynamic body
		// (its row and column of S are zero): it holds none, where a share
		// of another's diagonal made its right-hand side an impulse of
		// 1e8 N·s and more.
		for r, i := range idx {
			for c, j := range idx {
				d.a[r*m+c] = d.s[i*n+j]
			}
			switch scale := d.a[r*m+r]; {
			case scale == 0:
				d.a[r*m+r], d.rhs[r] = 1, 0
			case scale < math.Inf(1):
				d.a[r*m+r] += 1e-10 * scale
			}
		}
		t, ok = lapack64.Potrf(a)
		if !ok {
			return fmt.Errorf("Schur complement of %d rows is not positive definite", m)
		}
	}
	b := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: d.rhs[:m]}
	lapack64.Potrs(t, b)
	for r, i := range idx {
		p.Lambda[i] = d.rhs[r]
	}
	return nil
}

// pivot switches the least-index row that breaks its bound or its
// complementarity condition and reports whether it found one.
func (d *Dense) pivot(p *Problem) bool {
	n := len(p.Rows)
	for i := 0; i < n; i++ {
		switch d.state[i] {
		case free:
			if p.Lambda[i] > p.Hi[i] {
				p.Lambda[i], d.state[i] = p.Hi[i], atHi
				return true
			}
			if p.Lambda[i] < p.Lo[i] {
				p.Lambda[i], d.state[i] = p.Lo[i], atLo
				return true
			}
		default:
			if p.Lo[i] == p.Hi[i] {
				continue
			}
			// Released only where the residual points back inside by
			// more than rounding: a row held at a bound of a singular S
			// (a box's four corners on the ground) whose residual was
			// −6e-11 of terms of 20 went free, came out beyond its bound
			// and was clamped again, for ever.
			r, scale := d.residualAndScale(p, i)
			if tol := releaseTolerance * scale; (d.state[i] == atLo && r < -tol) || (d.state[i] == atHi && r > tol) {
				d.state[i] = free
				return true
			}
		}
	}
	return false
}

// releaseTolerance is the share of a row's terms (residualAndScale) by
// which its residual must point back inside its bounds for pivot to
// release it: that of the regularization of a singular S (1e-10 of a
// diagonal), above rounding (the cycling row's residual was 3e-12 of its
// terms).
const releaseTolerance = 1e-10

// residualAndScale returns (S λ − B)ᵢ and the sum of its terms'
// magnitudes, |Bᵢ| + Σⱼ |Sᵢⱼ λⱼ|.
func (d *Dense) residualAndScale(p *Problem, i int) (r, scale float64) {
	n := len(p.Rows)
	r, scale = -p.B[i], math.Abs(p.B[i])
	for j := 0; j < n; j++ {
		t := d.s[i*n+j] * p.Lambda[j]
		r += t
		scale += math.Abs(t)
	}
	return r, scale
}

// residual returns (S λ − B)ᵢ.
func (d *Dense) residual(p *Problem, i int) float64 {
	n := len(p.Rows)
	r := -p.B[i]
	for j := 0; j < n; j++ {
		r += d.s[i*n+j] * p.Lambda[j]
	}
	return r
}

// pgsSweeps bounds the sweeps of projectedGaussSeidel.
const pgsSweeps = 10000

// projectedGaussSeidel sweeps λᵢ ← clamp(λᵢ − rᵢ/Sᵢᵢ) until the update is
// below 1e-9 of λ's size; it converges for positive definite S.
func (d *Dense) projectedGaussSeidel(p *Problem) error {
	n := len(p.Rows)
	for sweep := 0; sweep < pgsSweeps; sweep++ {
		change, size := 0.0, 0.0
		for i := 0; i < n; i++ {
			sii := d.s[i*n+i]
			if sii <= 0 {
				return fmt.Errorf("bounded rows: row %d has no stiffness", i)
			}
			old := p.Lambda[i]
			var l float64
			if sii < math.Inf(1) {
				l = min(max(old-d.residual(p, i)/sii, p.Lo[i]), p.Hi[i])
			} else {
				// A row of infinite compliance: the update's limit
				// (its residual holds ∞·λ), no impulse within bounds.
				l = min(max(0, p.Lo[i]), p.Hi[i])
			}
			p.Lambda[i] = l
			change = max(change, math.Abs(l-old))
			size = max(size, math.Abs(l))
		}
		if change <= 1e-9*size {
			return nil
		}
	}
	worst := 0.0 // the rows' worst velocity residual, as a share of its terms
	for i := 0; i < n; i++ {
		if p.Lo[i] == p.Hi[i] {
			continue // pinned (a switched-off contact): no residual to meet
		}
		r, scale := d.residualAndScale(p, i)
		switch l := p.Lambda[i]; {
		case l <= p.Lo[i]:
			r = max(0, -r)
		case l >= p.Hi[i]:
			r = max(0, r)
		}
		if scale > 0 {
			worst = max(worst, math.Abs(r)/scale)
		}
	}
	return fmt.Errorf("bounded rows: %d rows, pivoting and %d sweeps of projected Gauss-Seidel did not converge (a residual of %.2g of a row's terms is left)", n, pgsSweeps, worst)
}

// grow returns s resized to n elements, in its own array when that is
// large enough (its elements are not cleared).
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
