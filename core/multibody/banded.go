package multibody

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Banded solves the same chains as Chain, but stores the block-tridiagonal
// Schur complement as a symmetric band matrix and factors it with LAPACK's
// banded Cholesky (dpbtrf/dpbtrs through gonum). It exists to measure
// gonum's kernel against the block LDLᵀ of Chain; both are O(N).
type Banded struct {
	chain Chain
	kd    int
	band  []float64
	rhs   []float64
}

// Solve implements Solver.
func (s *Banded) Solve(p *Problem) error {
	c := &s.chain
	if c.layout != p.structure() || c.starts == nil {
		c.setup(p)
		s.kd = 0
		for k := 0; k+1 < len(c.sizes); k++ {
			s.kd = max(s.kd, c.sizes[k]+c.sizes[k+1]-1)
		}
		if len(c.sizes) == 1 {
			s.kd = c.sizes[0] - 1
		}
		s.band = make([]float64, len(p.Rows)*(s.kd+1))
		s.rhs = make([]float64, len(p.Rows))
	}
	if err := unbounded(p, "banded"); err != nil {
		return err
	}
	if c.notChain != nil {
		return c.notChain
	}
	// Upper band storage: row i holds S[i][i … i+kd].
	ld := s.kd + 1
	clear(s.band)
	for k, a := range c.a {
		c.assemble(p, k)
		m, st := c.sizes[k], c.starts[k]
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				s.band[(st+i)*ld+j-i] = a[j*m+i] // Chain assembles the lower triangle
			}
		}
		if k+1 < len(c.a) {
			mn, sn := c.sizes[k+1], c.starts[k+1]
			for i := 0; i < m; i++ {
				for j := 0; j < mn; j++ {
					s.band[(st+i)*ld+(sn+j)-(st+i)] = c.w[k][i*mn+j] // Bₖ: not factored here
				}
			}
		}
	}
	n := len(p.Rows)
	t, ok := lapack64.Pbtrf(blas64.SymmetricBand{Uplo: blas.Upper, N: n, K: s.kd, Stride: ld, Data: s.band})
	if !ok {
		return fmt.Errorf("banded Schur complement of %d rows is not positive definite", n)
	}
	copy(s.rhs, p.B)
	lapack64.Pbtrs(t, blas64.General{Rows: n, Cols: 1, Stride: 1, Data: s.rhs})
	copy(p.Lambda, s.rhs)
	return nil
}
