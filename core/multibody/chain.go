package multibody

import (
	"errors"
	"fmt"
	"math"
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
}

// errNotChain is returned for coupling outside the block tridiagonal.
var errNotChain = errors.New("constraints do not form a chain: a body couples constraints that are not neighbours in insertion order")

// Solve implements Solver.
func (c *Chain) Solve(p *Problem) error {
	if c.layout != p.Layout || c.starts == nil {
		c.setup(p)
	}
	for i := range p.Rows {
		if !math.IsInf(p.Lo[i], -1) || !math.IsInf(p.Hi[i], 1) {
			return fmt.Errorf("row %d has bounds [%g, %g]: the chain solver takes unbounded rows only", i, p.Lo[i], p.Hi[i])
		}
	}
	if err := c.assemble(p); err != nil {
		return err
	}
	if err := c.factor(); err != nil {
		return err
	}
	c.substitute(p)
	return nil
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

// assemble builds Aₖ = Σ J M⁻¹ Jᵀ + Σ and Bₖ from the rows' Jacobians.
func (c *Chain) assemble(p *Problem) error {
	for k := range c.a {
		clear(c.a[k])
		clear(c.b[k])
	}
	for _, blocks := range p.ByBody {
		for _, x := range blocks {
			kx := c.blockOfRow[x.Row]
			jx := p.Rows[x.Row].J[x.K]
			for _, y := range blocks {
				ky := c.blockOfRow[y.Row]
				v := jx.Dot(p.Rows[y.Row].MinvJ[y.K])
				switch ky - kx {
				case 0:
					c.a[kx][(x.Row-c.starts[kx])*c.sizes[kx]+y.Row-c.starts[kx]] += v
				case 1:
					c.b[kx][(x.Row-c.starts[kx])*c.sizes[ky]+y.Row-c.starts[ky]] += v
				case -1:
					// the transpose of a B entry, added when x and y swap
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
			// Gₖ = Ďₖ⁻¹ Bₖ, column by column.
			mn := c.sizes[k+1]
			copy(c.g[k], c.b[k])
			for col := 0; col < mn; col++ {
				choleskySolveStrided(c.a[k], m, c.g[k][col:], mn)
			}
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
		choleskySolveStrided(c.a[k], m, z[s:], 1)
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

// choleskySolveStrided solves L Lᵀ x = b in place for the vector b whose
// elements are stride apart.
func choleskySolveStrided(l []float64, m int, b []float64, stride int) {
	for i := 0; i < m; i++ {
		s := b[i*stride]
		for k := 0; k < i; k++ {
			s -= l[i*m+k] * b[k*stride]
		}
		b[i*stride] = s / l[i*m+i]
	}
	for i := m - 1; i >= 0; i-- {
		s := b[i*stride]
		for k := i + 1; k < m; k++ {
			s -= l[k*m+i] * b[k*stride]
		}
		b[i*stride] = s / l[i*m+i]
	}
}
