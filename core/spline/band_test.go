package spline

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The banded LU with partial pivoting solves banded systems, indefinite
// ones with zero diagonals among them (the Lagrange multipliers' rows),
// as gonum's dense LU does, to 1e-10, in one go and in stages; a
// singular one is refused.
func TestBandSolvesAsDense(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for trial := 0; trial < 50; trial++ {
		n, kl, ku := 5+rng.Intn(40), 1+rng.Intn(6), 1+rng.Intn(6)
		b := newBand(n, kl, ku)
		dense := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := max(0, i-kl); j <= min(n-1, i+ku); j++ {
				v := rng.NormFloat64()
				if i == j && trial%3 == 0 && i%4 == 3 {
					v = 0 // a zero pivot candidate
				}
				b.add(i, j, v)
				dense.Set(i, j, v)
			}
		}
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = rng.NormFloat64()
		}
		var want mat.VecDense
		if err := want.SolveVec(dense, mat.NewVecDense(n, append([]float64(nil), rhs...))); err != nil {
			continue // singular by chance
		}
		if err := b.factor(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		x := append([]float64(nil), rhs...)
		b.solve(x)
		// In stages as the rows come (a frontal assembly), rows below the
		// window not yet written, the right-hand side eliminated along:
		// bitwise the same solution.
		staged := newBand(n, kl, ku)
		y := append([]float64(nil), rhs...)
		staged.begin(y)
		filled := 0
		stages := rand.New(rand.NewSource(int64(trial)))
		for to := 0; ; to += 1 + stages.Intn(5) {
			to = min(to, n)
			for ; filled < min(n, to+kl); filled++ {
				for j := max(0, filled-kl); j <= min(n-1, filled+ku); j++ {
					staged.add(filled, j, dense.At(filled, j))
				}
			}
			if err := staged.eliminate(to); err != nil {
				t.Fatalf("trial %d: staged: %v", trial, err)
			}
			if to == n {
				break
			}
		}
		staged.back(y)
		for i := range x {
			if y[i] != x[i] {
				t.Fatalf("trial %d: staged x[%d] = %g, in one go %g", trial, i, y[i], x[i])
			}
		}
		scale := mat.Norm(&want, math.Inf(1))
		for i := range x {
			if math.Abs(x[i]-want.AtVec(i)) > 1e-10*scale {
				t.Errorf("trial %d (n %d, bands %d/%d): x[%d] = %g, dense LU %g", trial, n, kl, ku, i, x[i], want.AtVec(i))
				break
			}
		}
	}
	s := newBand(3, 1, 1)
	s.add(0, 0, 1)
	s.add(1, 1, 1)
	if err := s.factor(); err == nil {
		t.Error("a singular matrix was factored")
	}
}

// factor computes P A = L U in place in one go: the reference the
// staged elimination is tested against.
func (b *band) factor() error {
	b.begin(nil)
	return b.eliminate(b.n)
}

// solve overwrites x (the right-hand side) with the solution; the matrix
// must have been factored.
func (b *band) solve(x []float64) {
	n, kl, w := b.n, b.kl, b.w
	for k := 0; k < n; k++ {
		if p := b.piv[k]; p != k {
			x[k], x[p] = x[p], x[k]
		}
		for i := k + 1; i <= min(k+kl, n-1); i++ {
			x[i] -= b.a[i*w+k-i+kl] * x[k]
		}
	}
	b.back(x)
}
