package multibody

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Chain solves the Schur complement of a chain of constraints — constraint
// k shares bodies only with constraints k−1 and k+1, as the joints of a
// cable added in order do — by block LDLᵀ factorization of the
// block-tridiagonal matrix ([SL08] eqs. 29–32):
//
//	Ď₁ = A₁,  Gₖ = Ďₖ⁻¹ Bₖ,  Ďₖ₊₁ = Aₖ₊₁ − Bₖᵀ Gₖ,
//
// with Aₖ the diagonal blocks and Bₖ the blocks coupling k to k+1. Cost
// and memory are linear in the number of constraints. Rows must be
// unbounded; bounded rows (contacts) belong in a group solved by Dense.
type Chain struct {
	layout     int
	starts     []int // row offset of each block
	sizes      []int
	blockOfRow []int
	a, b, g    [][]float64 // per block: A (m×m, then Ď's Cholesky factor), B and G (m_k × m_{k+1})
	z          []float64
	// Timing, when set, accumulates the time spent in each phase.
	Timing *ChainTiming
}

// ChainTiming splits a chain solve's time for benchmarks.
type ChainTiming struct {
	Assembly, Factorization, Substitution time.Duration
}

// errNotChain is returned for coupling outside the block tridiagonal.
var errNotChain = errors.New("constraints do not form a chain: a body couples constraints that are not neighbours in insertion order")

// Solve implements Solver.
func (c *Chain) Solve(p *Problem) error {
	if err := c.Factor(p); err != nil {
		return err
	}
	return c.Substitute(p)
}

// Factor implements Factorizer: assembles and factors S.
func (c *Chain) Factor(p *Problem) error {
	if c.layout != p.Layout || c.starts == nil {
		c.setup(p)
	}
	if err := unbounded(p, "chain"); err != nil {
		return err
	}
	t0 := c.clock(-1, time.Time{})
	if err := c.assemble(p); err != nil {
		return err
	}
	t0 = c.clock(0, t0)
	if err := c.factor(); err != nil {
		return err
	}
	c.clock(1, t0)
	return nil
}

// Substitute implements Factorizer: solves for p.B with the factors.
func (c *Chain) Substitute(p *Problem) error {
	t0 := c.clock(-1, time.Time{})
	c.substitute(p)
	c.clock(2, t0)
	return nil
}

// unbounded rejects bounded rows for the direct solvers that cannot take
// them.
func unbounded(p *Problem, solver string) error {
	for i := range p.Rows {
		if !math.IsInf(p.Lo[i], -1) || !math.IsInf(p.Hi[i], 1) {
			return fmt.Errorf("row %d has bounds [%g, %g]: the %s solver takes unbounded rows only (wrap it in an ActiveSet)", i, p.Lo[i], p.Hi[i], solver)
		}
	}
	return nil
}

// clock adds the time since t0 to phase 0, 1 or 2 of Timing (none for −1)
// when timing is on, and returns the time now.
func (c *Chain) clock(phase int, t0 time.Time) time.Time {
	if c.Timing == nil {
		return t0
	}
	now := time.Now()
	switch phase {
	case 0:
		c.Timing.Assembly += now.Sub(t0)
	case 1:
		c.Timing.Factorization += now.Sub(t0)
	case 2:
		c.Timing.Substitution += now.Sub(t0)
	}
	return now
}

func (c *Chain) setup(p *Problem) {
	nb := len(p.Groups) - 1
	c.layout = p.Layout
	c.starts, c.sizes = make([]int, nb), make([]int, nb)
	c.blockOfRow = make([]int, len(p.Rows))
	c.a, c.b, c.g = make([][]float64, nb), make([][]float64, nb), make([][]float64, nb)
	for k := 0; k < nb; k++ {
		c.starts[k], c.sizes[k] = p.Groups[k], p.Groups[k+1]-p.Groups[k]
		for r := p.Groups[k]; r < p.Groups[k+1]; r++ {
			c.blockOfRow[r] = k
		}
		m := c.sizes[k]
		c.a[k] = make([]float64, m*m)
		if k+1 < nb {
			next := p.Groups[k+2] - p.Groups[k+1]
			c.b[k] = make([]float64, m*next)
			c.g[k] = make([]float64, m*next)
		}
	}
	c.z = make([]float64, len(p.Rows))
}

// assemble builds the lower triangle of Aₖ = Σ J M⁻¹ Jᵀ + Σ and Bₖ from
// the rows' Jacobians.
func (c *Chain) assemble(p *Problem) error {
	for k := range c.a {
		clear(c.a[k])
		clear(c.b[k])
	}
	for _, blocks := range p.ByBody {
		// ByBody lists rows in ascending order, so for y after x the block
		// of y is x's or the next: each unordered pair is visited once,
		// into A's lower triangle or into B.
		for ix, x := range blocks {
			kx := c.blockOfRow[x.Row]
			jx := p.Rows[x.Row].J[x.K]
			for _, y := range blocks[ix:] {
				ky := c.blockOfRow[y.Row]
				v := jx.Dot(p.Rows[y.Row].MinvJ[y.K])
				switch ky - kx {
				case 0:
					i, j := y.Row-c.starts[kx], x.Row-c.starts[kx] // i ≥ j
					c.a[kx][i*c.sizes[kx]+j] += v
				case 1:
					c.b[kx][(x.Row-c.starts[kx])*c.sizes[ky]+y.Row-c.starts[ky]] += v
				default:
					return errNotChain
				}
			}
		}
	}
	for k, a := range c.a {
		m := c.sizes[k]
		for i := 0; i < m; i++ {
			a[i*m+i] += p.Sigma[c.starts[k]+i]
		}
	}
	return nil
}

// factor overwrites each Aₖ with the Cholesky factor of Ďₖ and fills Gₖ.
func (c *Chain) factor() error {
	for k := range c.a {
		m := c.sizes[k]
		if k > 0 {
			// Ďₖ = Aₖ − Bₖ₋₁ᵀ Gₖ₋₁
			mp := c.sizes[k-1]
			bp, gp := c.b[k-1], c.g[k-1]
			for i := 0; i < m; i++ {
				for j := 0; j <= i; j++ {
					s := 0.0
					for r := 0; r < mp; r++ {
						s += bp[r*m+i] * gp[r*m+j]
					}
					c.a[k][i*m+j] -= s
				}
			}
		}
		if !cholesky(c.a[k], m) {
			return fmt.Errorf("chain block %d (rows %d–%d) is not positive definite", k, c.starts[k], c.starts[k]+m-1)
		}
		if k+1 < len(c.a) {
			// Gₖ = Ďₖ⁻¹ Bₖ
			copy(c.g[k], c.b[k])
			choleskySolveRows(c.a[k], m, c.g[k], c.sizes[k+1])
		}
	}
	return nil
}

// substitute solves with the factors: forward yₖ₊₁ = bₖ₊₁ − Bₖᵀ zₖ,
// zₖ = Ďₖ⁻¹ yₖ, then back xₖ = zₖ − Gₖ xₖ₊₁.
func (c *Chain) substitute(p *Problem) {
	z := c.z
	copy(z, p.B)
	for k := range c.a {
		m, s := c.sizes[k], c.starts[k]
		if k > 0 {
			mp, sp := c.sizes[k-1], c.starts[k-1]
			for i := 0; i < m; i++ {
				for r := 0; r < mp; r++ {
					z[s+i] -= c.b[k-1][r*m+i] * z[sp+r]
				}
			}
		}
		choleskySolveRows(c.a[k], m, z[s:s+m], 1)
	}
	for k := len(c.a) - 2; k >= 0; k-- {
		m, s := c.sizes[k], c.starts[k]
		mn, sn := c.sizes[k+1], c.starts[k+1]
		for i := 0; i < m; i++ {
			for j := 0; j < mn; j++ {
				z[s+i] -= c.g[k][i*mn+j] * z[sn+j]
			}
		}
	}
	copy(p.Lambda, z)
}

// cholesky factors the symmetric positive definite m×m matrix a (lower
// triangle used) in place into L with a = L Lᵀ.
func cholesky(a []float64, m int) bool {
	for j := 0; j < m; j++ {
		d := a[j*m+j]
		for k := 0; k < j; k++ {
			d -= a[j*m+k] * a[j*m+k]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*m+j] = d
		for i := j + 1; i < m; i++ {
			s := a[i*m+j]
			for k := 0; k < j; k++ {
				s -= a[i*m+k] * a[j*m+k]
			}
			a[i*m+j] = s / d
		}
	}
	return true
}

// choleskySolveRows solves L Lᵀ X = B in place for the m×n row-major B:
// row operations over contiguous rows, all columns at once.
func choleskySolveRows(l []float64, m int, b []float64, n int) {
	for i := 0; i < m; i++ {
		bi := b[i*n : i*n+n]
		for k := 0; k < i; k++ {
			f := l[i*m+k]
			bk := b[k*n : k*n+n]
			for c := range bi {
				bi[c] -= f * bk[c]
			}
		}
		inv := 1 / l[i*m+i]
		for c := range bi {
			bi[c] *= inv
		}
	}
	for i := m - 1; i >= 0; i-- {
		bi := b[i*n : i*n+n]
		for k := i + 1; k < m; k++ {
			f := l[k*m+i]
			bk := b[k*n : k*n+n]
			for c := range bi {
				bi[c] -= f * bk[c]
			}
		}
		inv := 1 / l[i*m+i]
		for c := range bi {
			bi[c] *= inv
		}
	}
}
