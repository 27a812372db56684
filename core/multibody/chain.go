package multibody

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Chain solves the Schur complement of a chain of constraints — constraint
// k shares bodies only with constraints k−1 and k+1, as the joints of a
// cable added in order do — by block factorization of the
// block-tridiagonal matrix ([SL08] eqs. 29–32):
//
//	Ď₁ = A₁,  Ďₖ = Lₖ Lₖᵀ,  Wₖ = Lₖ⁻¹ Bₖ,  Ďₖ₊₁ = Aₖ₊₁ − Wₖᵀ Wₖ,
//
// with Aₖ the diagonal blocks and Bₖ the blocks coupling k to k+1. This is
// [SL08]'s Gₖ = Ďₖ⁻¹ Bₖ = Lₖ⁻ᵀ Wₖ, Bₖᵀ Gₖ = Wₖᵀ Wₖ, with one triangular
// solve less per block. Cost and memory are linear in the number of
// constraints. Rows must be unbounded; bounded rows (contacts) belong in a
// group solved by Dense.
type Chain struct {
	layout  int
	starts  []int // row offset of each block
	sizes   []int
	a, b, w [][]float64 // per block: A (m×m, then Ď's Cholesky factor L), B and W (m_k × m_{k+1})
	ab      []float64   // backing array of all A and B, cleared at once
	inv     []float64   // per row: 1 / the diagonal of Ď's Cholesky factor
	// pairs lists, per dynamic body slot, where J_x·M⁻¹J_y of each pair
	// x ≤ y of the body's row blocks (in ByBody order) goes in ab: the
	// symbolic part of the assembly, done once per layout.
	pairs    [][]int32
	notChain bool
	minvJ    []Jacobian // scratch: one body's M⁻¹Jᵀ blocks
	angular  []bool     // scratch: which of them have J.Lin = 0
	z        []float64
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
	blockOfRow := make([]int, len(p.Rows))
	c.a, c.b, c.w = make([][]float64, nb), make([][]float64, nb), make([][]float64, nb)
	size := 0
	for k := 0; k < nb; k++ {
		c.starts[k], c.sizes[k] = p.Groups[k], p.Groups[k+1]-p.Groups[k]
		for r := p.Groups[k]; r < p.Groups[k+1]; r++ {
			blockOfRow[r] = k
		}
		m := c.sizes[k]
		size += m * m
		if k+1 < nb {
			size += m * (p.Groups[k+2] - p.Groups[k+1])
		}
	}
	c.ab = make([]float64, size)
	off := make([]int, 2*nb) // offsets of Aₖ and Bₖ in ab
	at := 0
	for k := 0; k < nb; k++ {
		m := c.sizes[k]
		c.a[k], off[2*k] = c.ab[at:at+m*m:at+m*m], at
		at += m * m
		if k+1 < nb {
			next := c.sizes[k+1]
			c.b[k], off[2*k+1] = c.ab[at:at+m*next:at+m*next], at
			at += m * next
			c.w[k] = make([]float64, m*next)
		}
	}
	c.inv = make([]float64, len(p.Rows))
	// ByBody lists rows in ascending order, so for y after x the block of
	// y is x's or the next: each unordered pair goes once, into A's lower
	// triangle or into B.
	c.pairs, c.notChain = make([][]int32, len(p.ByBody)), false
	most := 0
	for slot, blocks := range p.ByBody {
		most = max(most, len(blocks))
		dst := make([]int32, 0, len(blocks)*(len(blocks)+1)/2)
		for ix, x := range blocks {
			kx := blockOfRow[x.Row]
			for _, y := range blocks[ix:] {
				ky := blockOfRow[y.Row]
				switch ky - kx {
				case 0:
					i, j := y.Row-c.starts[kx], x.Row-c.starts[kx] // i ≥ j
					dst = append(dst, int32(off[2*kx]+i*c.sizes[kx]+j))
				case 1:
					dst = append(dst, int32(off[2*kx+1]+(x.Row-c.starts[kx])*c.sizes[ky]+y.Row-c.starts[ky]))
				default:
					c.notChain = true
				}
			}
		}
		c.pairs[slot] = dst
	}
	c.minvJ, c.angular = make([]Jacobian, most), make([]bool, most)
	c.z = make([]float64, len(p.Rows))
}

// assemble builds the lower triangle of Aₖ = Σ J M⁻¹ Jᵀ + Σ and Bₖ from
// the rows' Jacobians.
func (c *Chain) assemble(p *Problem) error {
	if c.notChain {
		return errNotChain
	}
	ab := c.ab
	clear(ab)
	for slot, blocks := range p.ByBody {
		mj, ang := c.minvJ[:len(blocks)], c.angular[:len(blocks)]
		for i, y := range blocks {
			mj[i] = p.Rows[y.Row].MinvJ[y.K]
			ang[i] = p.Rows[y.Row].J[y.K].Lin == geom.Vec3{}
		}
		dst := c.pairs[slot]
		for ix, x := range blocks {
			// An angular row (bend, twist) has J.Lin = 0 and so M⁻¹J.Lin
			// = 0: leaving out the linear part only can turn a −0 into +0,
			// which the sum, starting from +0, does not see.
			jx := &p.Rows[x.Row].J[x.K]
			lin, rot := jx.Lin, jx.Ang
			d := dst[:len(mj)-ix]
			dst = dst[len(d):]
			if ang[ix] {
				for iy, to := range d {
					ab[to] += rot.Dot(mj[ix+iy].Ang)
				}
				continue
			}
			for iy, to := range d {
				my := &mj[ix+iy]
				if ang[ix+iy] {
					ab[to] += rot.Dot(my.Ang)
				} else {
					ab[to] += lin.Dot(my.Lin) + rot.Dot(my.Ang)
				}
			}
		}
	}
	for k, a := range c.a {
		m := c.sizes[k]
		sigma := p.Sigma[c.starts[k] : c.starts[k]+m]
		for i, s := range sigma {
			a[i*m+i] += s
		}
	}
	return nil
}

// factor overwrites each Aₖ with the Cholesky factor Lₖ of Ďₖ and fills
// Wₖ.
func (c *Chain) factor() error {
	for k, a := range c.a {
		m := c.sizes[k]
		inv := c.inv[c.starts[k] : c.starts[k]+m]
		last := k+1 == len(c.a)
		if m == 6 && (k == 0 || c.sizes[k-1] == 6) && (last || c.sizes[k+1] == 6) {
			if k > 0 {
				gram6((*block6)(a), (*block6)(c.w[k-1]))
			}
			if !cholesky6((*block6)(a), (*[6]float64)(inv)) {
				return c.notPositive(k)
			}
			if !last {
				copy(c.w[k], c.b[k])
				forwardRows6((*block6)(a), (*[6]float64)(inv), (*block6)(c.w[k]))
			}
			continue
		}
		if k > 0 {
			// Ďₖ = Aₖ − Wₖ₋₁ᵀ Wₖ₋₁, lower triangle.
			mp, wp := c.sizes[k-1], c.w[k-1]
			for i := 0; i < m; i++ {
				for j := 0; j <= i; j++ {
					s := 0.0
					for r := 0; r < mp; r++ {
						s += wp[r*m+i] * wp[r*m+j]
					}
					a[i*m+j] -= s
				}
			}
		}
		if !cholesky(a, m, inv) {
			return c.notPositive(k)
		}
		if !last {
			// Wₖ = Lₖ⁻¹ Bₖ
			copy(c.w[k], c.b[k])
			forwardRows(a, inv, m, c.w[k], c.sizes[k+1])
		}
	}
	return nil
}

func (c *Chain) notPositive(k int) error {
	return fmt.Errorf("chain block %d (rows %d–%d) is not positive definite", k, c.starts[k], c.starts[k]+c.sizes[k]-1)
}

// substitute solves with the factors: forward uₖ = Lₖ⁻¹ (bₖ − Wₖ₋₁ᵀ uₖ₋₁),
// then back xₖ = Lₖ⁻ᵀ (uₖ − Wₖ xₖ₊₁).
func (c *Chain) substitute(p *Problem) {
	z := c.z
	copy(z, p.B)
	for k, a := range c.a {
		m, s := c.sizes[k], c.starts[k]
		zk, inv := z[s:s+m], c.inv[s:s+m]
		if k > 0 {
			mp, sp := c.sizes[k-1], c.starts[k-1]
			w, zp := c.w[k-1], z[sp:sp+mp]
			if m == 6 && mp == 6 {
				subtractTransposed6((*[6]float64)(zk), (*block6)(w), (*[6]float64)(zp))
			} else {
				for i := range zk {
					for r, zr := range zp {
						zk[i] -= w[r*m+i] * zr
					}
				}
			}
		}
		if m == 6 {
			forward6((*block6)(a), (*[6]float64)(inv), (*[6]float64)(zk))
		} else {
			forward(a, inv, zk)
		}
	}
	for k := len(c.a) - 1; k >= 0; k-- {
		m, s := c.sizes[k], c.starts[k]
		zk, inv := z[s:s+m], c.inv[s:s+m]
		if k+1 < len(c.a) {
			mn, sn := c.sizes[k+1], c.starts[k+1]
			w, zn := c.w[k], z[sn:sn+mn]
			if m == 6 && mn == 6 {
				subtract6((*[6]float64)(zk), (*block6)(w), (*[6]float64)(zn))
			} else {
				for i := range zk {
					wi := w[i*mn : i*mn+mn]
					for j, zj := range zn {
						zk[i] -= wi[j] * zj
					}
				}
			}
		}
		if m == 6 {
			backward6((*block6)(c.a[k]), (*[6]float64)(inv), (*[6]float64)(zk))
		} else {
			backward(c.a[k], inv, zk)
		}
	}
	copy(p.Lambda, z)
}

// cholesky factors the symmetric positive definite m×m matrix a (lower
// triangle used) in place into L with a = L Lᵀ, and writes 1/Lⱼⱼ into
// inv[j] for the solves.
func cholesky(a []float64, m int, inv []float64) bool {
	for j := 0; j < m; j++ {
		aj := a[j*m : j*m+j+1]
		d := aj[j]
		for _, x := range aj[:j] {
			d -= x * x
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		aj[j] = d
		inv[j] = 1 / d
		for i := j + 1; i < m; i++ {
			ai := a[i*m : i*m+j+1]
			s := ai[j]
			for k, x := range aj[:j] {
				s -= ai[k] * x
			}
			ai[j] = s / d
		}
	}
	return true
}

// forwardRows solves L X = B in place for the m×n row-major B: row
// operations over contiguous rows, all columns at once. inv holds 1/Lᵢᵢ.
func forwardRows(l, inv []float64, m int, b []float64, n int) {
	for i := 0; i < m; i++ {
		bi := b[i*n : i*n+n]
		for k := 0; k < i; k++ {
			f := l[i*m+k]
			bk := b[k*n : k*n+n]
			for c := range bi {
				bi[c] -= f * bk[c]
			}
		}
		for c := range bi {
			bi[c] *= inv[i]
		}
	}
}

// forward solves L y = x in place; inv holds 1/Lᵢᵢ.
func forward(l, inv, x []float64) {
	m := len(x)
	for i := range x {
		s := x[i]
		for k, f := range l[i*m : i*m+i] {
			s -= f * x[k]
		}
		x[i] = s * inv[i]
	}
}

// backward solves Lᵀ y = x in place; inv holds 1/Lᵢᵢ.
func backward(l, inv, x []float64) {
	m := len(x)
	for i := m - 1; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < m; k++ {
			s -= l[k*m+i] * x[k]
		}
		x[i] = s * inv[i]
	}
}
