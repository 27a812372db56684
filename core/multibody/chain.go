package multibody

import (
	"fmt"
	"math"
	"slices"
	"time"
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
// solve less per block. Each block is assembled from its rows' Jacobians
// just before it is factored, while the rows are in cache. Cost and memory
// are linear in the number of constraints. The rows of a constraint must
// act on the same bodies (as a World's do), and rows must be unbounded;
// bounded rows (contacts) belong in a group solved by Dense.
//
// A chain that ends in a run of cable joints is factored from both ends
// at once, in turn, towards a middle block m (twistMiddle): below it from
// the bottom, Ďₙ = Aₙ, Ďₖ = Lₖ Lₖᵀ, Vₖ = Lₖ⁻¹ Bₖ₋₁ᵀ, Ďₖ₋₁ = Aₖ₋₁ − Vₖᵀ Vₖ,
// and Ďₘ = Aₘ − Wₘ₋₁ᵀ Wₘ₋₁ − Vₘ₊₁ᵀ Vₘ₊₁. That is the Cholesky factorization
// in the order top, bottom, middle: as exact, with the same operations,
// but each block waits for its neighbour's factor, and two chains of such
// waits, taken in turn, let the processor work on one while the other
// waits (3 % less time for a RigidHoist step of 100 or 1000 segments).
// Bₖ₋₁ᵀ comes from block k's J and block k−1's M⁻¹J, the
// roles of the shared body's two blocks turned round; the coupling block
// of the pair holds Vₖ in place of Wₖ₋₁.
type Chain struct {
	layout structure
	starts []int // row offset of each block
	sizes  []int
	a, w   [][]float64 // per block: A (m×m, then Ď's Cholesky factor L) and W (B, then Lₖ⁻¹ Bₖ; m_k × m_{k+1})
	inv    []float64   // per row: 1 / the diagonal of Ď's Cholesky factor
	// own lists, per block, the indices (in its rows' Bodies) of the
	// dynamic bodies; shared the pairs of indices, in block k and k+1, of
	// the dynamic bodies the two blocks share: the coupling pattern, found
	// once per layout.
	own      [][]int
	shared   [][][2]int
	notChain error
	// six holds each block's part in the fixed-size kernels (chain6.go);
	// gathers says one has blocks to gather (block6Use.gather).
	six     []block6Use
	gathers bool
	// middle is the block where the factorization from the top meets
	// the one from the bottom: the last block where the chain is
	// factored from the top alone (see twistMiddle).
	middle int
	// split holds what the two ends' halves of a split solve (Problem's
	// helper) hand on to the middle.
	split chainSplit
	// Timing, when set, accumulates the time spent in each phase.
	Timing *ChainTiming
}

// block6Use is what the fixed-size kernels take of one block, found at
// setup: the loops over the blocks read one record a block where they
// read several slices, each with its bounds check, and turned slices into
// arrays, each with its length check.
type block6Use struct {
	// a is the block's A (then L) where it has six rows, inv then its
	// 1/Lᵢᵢ; w its W where it and the next block have six rows. Else nil.
	a, w *block6
	inv  *[6]float64
	// start is the block's first row (starts).
	start int
	// joint6 marks the blocks of six rows on two dynamic bodies (a cable's
	// joints), link6 those that share only their second body with the next
	// block, its first: fixed-size kernels assemble them.
	joint6, link6 bool
	// tail marks, this step, a joint6 block whose rows 3–5 are angular
	// (angularTail), found once per block.
	tail bool
	// js and ms hold a joint6 block's J and M⁻¹J blocks, row r's on body
	// k at 2r+k, and sums its rows' sums, of which the kernels take
	// J M⁻¹ Jᵀ: the problem's own (Problem.js, Problem.sums), of which its
	// rows' blocks are views, or, for a problem made otherwise, arrays of
	// the chain's that gather fills from the rows (gather set).
	js, ms *[12]Jacobian
	sums   *[6]rowSums
	gather bool
}

// ChainTiming splits a chain solve's time for benchmarks: the blocks'
// assembly and factorization (done block by block, together), and the
// substitution.
type ChainTiming struct {
	Factorization, Substitution time.Duration
}

// Solve implements Solver.
func (c *Chain) Solve(p *Problem) error {
	if err := c.Factor(p); err != nil {
		return err
	}
	return c.Substitute(p)
}

// Factor implements Factorizer: assembles and factors S.
func (c *Chain) Factor(p *Problem) error {
	if c.layout != p.structure() || c.starts == nil {
		c.setup(p)
	}
	if c.notChain != nil {
		return c.notChain
	}
	if err := unbounded(p, "chain"); err != nil {
		return err
	}
	t0 := c.clock(-1, time.Time{})
	if err := c.factor(p); err != nil {
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
	if p.free {
		return nil
	}
	for i := range p.Rows {
		if !math.IsInf(p.Lo[i], -1) || !math.IsInf(p.Hi[i], 1) {
			return fmt.Errorf("row %d has bounds [%g, %g]: the %s solver takes unbounded rows only (wrap it in an ActiveSet)", i, p.Lo[i], p.Hi[i], solver)
		}
	}
	return nil
}

// clock adds the time since t0 to phase 1 or 2 of Timing (none for −1)
// when timing is on, and returns the time now.
func (c *Chain) clock(phase int, t0 time.Time) time.Time {
	if c.Timing == nil {
		return t0
	}
	now := time.Now()
	switch phase {
	case 1:
		c.Timing.Factorization += now.Sub(t0)
	case 2:
		c.Timing.Substitution += now.Sub(t0)
	}
	return now
}

func (c *Chain) setup(p *Problem) {
	nb := len(p.Groups) - 1
	c.layout = p.structure()
	c.starts, c.sizes = make([]int, nb), make([]int, nb)
	c.a, c.w = make([][]float64, nb), make([][]float64, nb)
	c.own, c.shared = make([][]int, nb), make([][][2]int, nb)
	c.notChain = nil
	for k := 0; k < nb; k++ {
		c.starts[k], c.sizes[k] = p.Groups[k], p.Groups[k+1]-p.Groups[k]
		m := c.sizes[k]
		c.a[k] = make([]float64, m*m)
		if k+1 < nb {
			c.w[k] = make([]float64, m*(p.Groups[k+2]-p.Groups[k+1]))
		}
		if m == 0 {
			continue
		}
		bodies := p.Rows[c.starts[k]].Bodies
		for r := c.starts[k] + 1; r < c.starts[k]+m; r++ {
			if !slices.Equal(p.Rows[r].Bodies, bodies) {
				c.notChain = fmt.Errorf("chain block %d: rows %d and %d act on different bodies", k, c.starts[k], r)
			}
		}
		for i, b := range bodies {
			if b.Kind == Dynamic {
				c.own[k] = append(c.own[k], i)
			}
		}
	}
	// Which blocks each dynamic body couples: only neighbours may share one.
	seen := make(map[*Body]int) // body → the last block it was found in
	for k := 0; k < nb; k++ {
		if c.sizes[k] == 0 {
			continue
		}
		bodies := p.Rows[c.starts[k]].Bodies
		for _, i := range c.own[k] {
			b := bodies[i]
			last, ok := seen[b]
			switch {
			case !ok || last == k:
			case last == k-1 && c.sizes[k-1] > 0:
				prev := p.Rows[c.starts[k-1]].Bodies
				for pi, pb := range prev {
					if pb == b {
						c.shared[k-1] = append(c.shared[k-1], [2]int{pi, i})
					}
				}
			default:
				c.notChain = fmt.Errorf("constraints do not form a chain: body %q couples constraints %d and %d, which are not neighbours in insertion order", b.Name, last, k)
			}
			seen[b] = k
		}
	}
	c.inv = make([]float64, len(p.Rows))
	c.six, c.gathers = make([]block6Use, nb), false
	for k := range c.six {
		b, m, s := &c.six[k], c.sizes[k], c.starts[k]
		b.start = s
		if m != 6 {
			continue
		}
		b.a, b.inv = (*block6)(c.a[k]), (*[6]float64)(c.inv[s:s+6])
		if k+1 < nb && c.sizes[k+1] == 6 {
			b.w = (*block6)(c.w[k])
		}
		b.joint6 = len(c.own[k]) == 2 && len(p.Rows[s].Bodies) == 2
		if b.joint6 {
			b.js, b.ms, b.sums, b.gather = jointBlocks(p, k, s)
			c.gathers = c.gathers || b.gather
		}
	}
	for k := 0; k+1 < nb; k++ {
		c.six[k].link6 = c.six[k].joint6 && c.six[k+1].joint6 && len(c.shared[k]) == 1 && c.shared[k][0] == [2]int{1, 0}
	}
	c.middle = twistMiddle(c.six)
}

// twistMiddle returns the block at which a chain of blocks six is
// factored from both ends (Chain): the middle one, or the first of the
// run of joint6 blocks, each link6 to the next, that ends the chain where
// that run is shorter (the kernels from the bottom take only those); the
// last block (or −1 for none) where there is no such run.
func twistMiddle(six []block6Use) int {
	last := len(six) - 1
	if last < 0 || !six[last].joint6 {
		return last
	}
	first := last
	for first > 0 && six[first-1].link6 {
		first--
	}
	return max(first, last/2)
}

// jointBlocks returns the J and M⁻¹J blocks and the sums of the six rows
// from s, those of constraint k (block6Use.js): p's own arrays where the
// rows' blocks are views of them, as a World lays them out, else new
// arrays to gather into.
func jointBlocks(p *Problem, k, s int) (js, ms *[12]Jacobian, sums *[6]rowSums, gather bool) {
	if len(p.blockStart) == len(p.Groups) && p.blockStart[k+1]-p.blockStart[k] == 12 && len(p.sums) == len(p.Rows) {
		first := p.blockStart[k]
		js, ms = (*[12]Jacobian)(p.js[first:first+12]), (*[12]Jacobian)(p.minvJs[first:first+12])
		views := true
		for r := range 6 {
			row := &p.Rows[s+r]
			for i := range 2 {
				views = views && &row.J[i] == &js[2*r+i] && &row.MinvJ[i] == &ms[2*r+i]
			}
		}
		if views {
			return js, ms, (*[6]rowSums)(p.sums[s : s+6]), false
		}
	}
	return new([12]Jacobian), new([12]Jacobian), new([6]rowSums), true
}

// gather copies the blocks of the rows of the joint6 blocks that have no
// arrays of the problem's into the chain's (jointBlocks), and sums their
// J M⁻¹ Jᵀ, the only sum the kernels take.
func (c *Chain) gather(p *Problem) {
	if !c.gathers {
		return
	}
	for k := range c.six {
		b := &c.six[k]
		if !b.gather {
			continue
		}
		for r := range 6 {
			row := &p.Rows[b.start+r]
			b.js[2*r], b.js[2*r+1] = row.J[0], row.J[1]
			b.ms[2*r], b.ms[2*r+1] = row.MinvJ[0], row.MinvJ[1]
			b.sums[r].d = 0 + row.J[0].Dot(row.MinvJ[0]) + row.J[1].Dot(row.MinvJ[1])
		}
	}
}

// assemble writes block k's lower triangle of Aₖ = Σ J M⁻¹ Jᵀ + Σ and, for
// k below the last, Bₖ into Wₖ, from the rows' Jacobians: Aₖ's entry (i, j)
// sums Jⱼ·M⁻¹Jᵢ over the block's dynamic bodies, Bₖ's over the bodies
// shared with block k+1.
func (c *Chain) assemble(p *Problem, k int) {
	c.assembleA(p, k)
	if k+1 < len(c.six) {
		c.assembleB(p, k)
	}
}

// assembleA is assemble's Aₖ.
func (c *Chain) assembleA(p *Problem, k int) {
	b := &c.six[k]
	if !b.joint6 {
		c.assembleDiagonal(p, k)
		return
	}
	if !c.tailFound(k) {
		b.tail = angularTail(b.js)
	}
	c.assembleJoint(p, k)
}

// assembleJoint is assembleA's Aₖ for a joint6 block whose tail is found.
func (c *Chain) assembleJoint(p *Problem, k int) {
	b := &c.six[k]
	s := b.start
	if b.tail {
		assembleJoint6Tail(b.a, b.sums, (*[6]float64)(p.Sigma[s:s+6]), b.js, b.ms)
	} else {
		assembleJoint6(b.a, b.sums, (*[6]float64)(p.Sigma[s:s+6]), b.js, b.ms, 6)
	}
}

// tailFound reports whether the coupling before joint6 block k found its
// tail (assembleB); else it is found with the block (angularTail).
func (c *Chain) tailFound(k int) bool { return k > 0 && c.six[k-1].link6 }

// assembleB is assemble's Bₖ, for k below the last. It finds the tail of
// block k+1 where the joint kernels couple the two.
func (c *Chain) assembleB(p *Problem, k int) {
	b := &c.six[k]
	if !b.link6 {
		c.assembleCoupling(p, k)
		return
	}
	after := &c.six[k+1]
	after.tail = angularTail(after.js)
	if b.tail && after.tail {
		coupleJoint6Tail(b.w, b.js, after.ms)
		return
	}
	c.coupleJoints(k)
}

// coupleJoints is assembleB's Bₖ for link6 blocks k and k+1 whose tails
// are found and not both angular.
func (c *Chain) coupleJoints(k int) {
	b, after := &c.six[k], &c.six[k+1]
	coupleJoint6(b.w, b.js, after.ms, linearRows(b.tail), linearRows(after.tail), 1, 0)
}

// linearRows returns the rows of a joint6 block from which on its rows
// are angular: 3 for a cable joint's (tail, angularTail), else 6.
func linearRows(tail bool) int {
	if tail {
		return 3
	}
	return 6
}

// assembleDiagonal is assemble's Aₖ for any block.
func (c *Chain) assembleDiagonal(p *Problem, k int) {
	m, s := c.sizes[k], c.starts[k]
	a, rows := c.a[k], p.Rows[s:s+m]
	for i := range rows {
		mi := rows[i].MinvJ
		for j := 0; j <= i; j++ {
			jj := rows[j].J
			sum := 0.0
			for _, K := range c.own[k] {
				sum += jj[K].Lin.Dot(mi[K].Lin) + jj[K].Ang.Dot(mi[K].Ang)
			}
			a[i*m+j] = sum
		}
		a[i*m+i] += p.Sigma[s+i]
	}
}

// assembleCoupling is assemble's Bₖ for any block but the last.
func (c *Chain) assembleCoupling(p *Problem, k int) {
	m, s := c.sizes[k], c.starts[k]
	rows := p.Rows[s : s+m]
	w, n := c.w[k], c.sizes[k+1]
	next := p.Rows[c.starts[k+1] : c.starts[k+1]+n]
	if shared := c.shared[k]; len(shared) == 1 {
		// One body in common (a sheave's joint and the cable's first):
		// the sums' one term each, as the loop below adds it to zero.
		a, b := shared[0][0], shared[0][1]
		for i := range rows {
			x := &rows[i].J[a]
			wi := w[i*n : i*n+n]
			for j := range wi {
				y := &next[j].MinvJ[b]
				wi[j] = 0 + (x.Lin.Dot(y.Lin) + x.Ang.Dot(y.Ang))
			}
		}
		return
	}
	for i := range rows {
		ji := rows[i].J
		for j := range next {
			mj := next[j].MinvJ
			sum := 0.0
			for _, pair := range c.shared[k] {
				x, y := &ji[pair[0]], &mj[pair[1]]
				sum += x.Lin.Dot(y.Lin) + x.Ang.Dot(y.Ang)
			}
			w[i*n+j] = sum
		}
	}
}

// factor assembles each block and overwrites Aₖ with the Cholesky factor
// of its Ďₖ and the coupling blocks with W or V (Chain): the blocks above
// the middle from the top and those below it from the bottom, one of each
// in turn, then the middle.
func (c *Chain) factor(p *Problem) error {
	c.gather(p)
	six, m := c.six, c.middle
	last := len(six) - 1
	if last < 0 {
		return nil
	}
	if p.helper != nil {
		if err := c.factorEnds(p); err != nil {
			return err
		}
		return c.factorMiddle(p)
	}
	for i := 0; i < m || last-i > m; i++ {
		if i < m {
			if err := c.factorTop(p, i); err != nil {
				return err
			}
		}
		if k := last - i; k > m && !c.factorBottom6(p, k) {
			return c.notPositive(k)
		}
	}
	return c.factorMiddle(p)
}

// factorMiddle is factor's last step, the middle block's.
func (c *Chain) factorMiddle(p *Problem) error {
	six, m := c.six, c.middle
	if m == len(six)-1 {
		return c.factorTop(p, m)
	}
	// The middle: Ďₘ = Aₘ − Wₘ₋₁ᵀ Wₘ₋₁ − Vₘ₊₁ᵀ Vₘ₊₁.
	b := &six[m]
	c.schur6(p, m)
	gram6(b.a, b.w)
	if !cholesky6(b.a, b.inv) {
		return c.notPositive(m)
	}
	return nil
}

// factorTop is factor's step for block k from the top: Lₖ and, for k below
// the last, Wₖ.
func (c *Chain) factorTop(p *Problem, k int) error {
	six := c.six
	if six[k].a != nil {
		if !c.factor6(p, k) {
			return c.notPositive(k)
		}
		return nil
	}
	c.assemble(p, k)
	a, m := c.a[k], c.sizes[k]
	inv := c.inv[c.starts[k] : c.starts[k]+m]
	if k > 0 {
		gramRows(a, m, c.w[k-1], c.sizes[k-1])
	}
	// A sheave's joint (four rows) before a cable's has kernels of
	// its own.
	four := m == 4 && k+1 < len(six) && c.sizes[k+1] == 6
	if four && !cholesky4((*[16]float64)(a), (*[4]float64)(inv)) || !four && !cholesky(a, m, inv) {
		return c.notPositive(k)
	}
	switch {
	case four:
		forwardRows4x6((*[16]float64)(a), (*[4]float64)(inv), (*[24]float64)(c.w[k]))
	case k+1 < len(six):
		forwardRows(a, inv, m, c.w[k], c.sizes[k+1]) // Wₖ = Lₖ⁻¹ Bₖ
	}
	return nil
}

// factorBottom6 is factor's step for block k below the middle, from the
// bottom: Ďₖ = Aₖ − Vₖ₊₁ᵀ Vₖ₊₁ (Aₖ alone for the last block), its factor
// Lₖ, and Vₖ = Lₖ⁻¹ Bₖ₋₁ᵀ into the pair's coupling block, that of block
// k−1 (block6Use.w); it reports whether Ďₖ was positive definite. The
// blocks there are joint6 blocks, each link6 to the next (Chain.setup):
// factor6's kernels with the roles of the two bodies turned round.
func (c *Chain) factorBottom6(p *Problem, k int) bool {
	six := c.six
	b := &six[k]
	switch {
	case k+1 == len(six):
		b.tail = angularTail(b.js)
		c.assembleJoint(p, k)
	case b.tail: // found by the coupling of the block after
		s := b.start
		assembleGram6TailVec(b.a, b.sums, (*[6]float64)(p.Sigma[s:s+6]), b.js, b.ms, b.w)
	default:
		c.assembleJoint(p, k)
		gram6(b.a, b.w)
	}
	if !cholesky6(b.a, b.inv) {
		return false
	}
	before := &six[k-1]
	if !c.split.middleTail || k-1 != c.middle {
		before.tail = angularTail(before.js)
	}
	if b.tail && before.tail {
		coupleBackward6TailVec(before.w, b.a, b.inv, b.js, before.ms)
		return true
	}
	coupleJoint6(before.w, b.js, before.ms, linearRows(b.tail), linearRows(before.tail), 0, 1)
	forwardRows6(b.a, b.inv, before.w)
	return true
}

// gramRows subtracts Wᵀ W from the lower triangle of the m×m block a (Ďₖ
// = Aₖ − Wₖ₋₁ᵀ Wₖ₋₁), W the mp×m block w.
func gramRows(a []float64, m int, w []float64, mp int) {
	for i := 0; i < m; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for r := 0; r < mp; r++ {
				s += w[r*m+i] * w[r*m+j]
			}
			a[i*m+j] -= s
		}
	}
}

// factor6 is factor's step for a block of six rows, which the fixed-size
// kernels factor, and reports whether Ďₖ was positive definite. A
// neighbour of another size (a sheave's joint) has its part in the
// general form: Wₖ₋₁ᵀ Wₖ₋₁ by gramRows, Bₖ and Wₖ by assembleCoupling and
// forwardRows. Between two cable joints' blocks (angular tails, link6) the
// kernels that follow one another on the same block are fused
// (assembleGram6Tail, coupleForward6Tail): the same operations, each
// entry stored once. Bₖ is made after Lₖ here, from the rows alone.
func (c *Chain) factor6(p *Problem, k int) bool {
	six := c.six
	b := &six[k]
	c.schur6(p, k)
	if !cholesky6(b.a, b.inv) {
		return false
	}
	if k+1 == len(six) {
		return true
	}
	// Wₖ = Lₖ⁻¹ Bₖ.
	if b.w == nil { // block k+1 has other than six rows
		c.assembleCoupling(p, k)
		forwardRows(b.a[:], b.inv[:], 6, c.w[k], c.sizes[k+1])
		return true
	}
	if b.link6 {
		after := &six[k+1]
		if !c.split.middleTail || k+1 != c.middle {
			after.tail = angularTail(after.js)
		}
		if b.tail && after.tail {
			coupleForward6TailVec(b.w, b.a, b.inv, b.js, after.ms)
			return true
		}
		c.coupleJoints(k)
	} else {
		c.assembleCoupling(p, k)
	}
	forwardRows6(b.a, b.inv, b.w)
	return true
}

// schur6 writes factor6's Ďₖ = Aₖ − Wₖ₋₁ᵀ Wₖ₋₁ (Aₖ alone for the first
// block) into block k's A; a tail found by the coupling before is one of
// a joint's behind another's.
func (c *Chain) schur6(p *Problem, k int) {
	six := c.six
	b := &six[k]
	if c.tailFound(k) && b.tail {
		s := b.start
		assembleGram6TailVec(b.a, b.sums, (*[6]float64)(p.Sigma[s:s+6]), b.js, b.ms, six[k-1].w)
		return
	}
	c.assembleA(p, k) // finds the tail
	switch {
	case k == 0:
	case six[k-1].w != nil:
		gram6(b.a, six[k-1].w)
	case c.sizes[k-1] == 4:
		gram4x6(b.a, (*[24]float64)(c.w[k-1]))
	default:
		gramRows(b.a[:], 6, c.w[k-1], c.sizes[k-1])
	}
}

func (c *Chain) notPositive(k int) error {
	return fmt.Errorf("chain block %d (rows %d–%d) is not positive definite", k, c.starts[k], c.starts[k]+c.sizes[k]-1)
}

// substitute solves with the factors: forward uₖ = Lₖ⁻¹ (bₖ − Wₖ₋₁ᵀ uₖ₋₁)
// from the top to the middle and uₖ = Lₖ⁻¹ (bₖ − Vₖ₊₁ᵀ uₖ₊₁) from the
// bottom to it, the two in turn, then back xₖ = Lₖ⁻ᵀ (uₖ − Wₖ xₖ₊₁) from
// the middle up and xₖ = Lₖ⁻ᵀ (uₖ − Vₖ xₖ₋₁) from it down, in turn again.
// A block of six rows whose neighbour solved before it has six too (most
// of a cable's) is solved in the loop itself, with the fixed-size kernels
// on its record alone, the subtraction and the triangular solve in one
// (subtractForward6, subtractBackward6); the others by forwardBlock and
// backwardBlock, in the general form.
func (c *Chain) substitute(p *Problem) {
	z := p.Lambda // solved in place
	copy(z, p.B)
	six, m := c.six, c.middle
	last := len(six) - 1
	if last < 0 {
		return
	}
	if p.helper != nil {
		c.substituteEnds(p)
		return
	}
	// zp: the top's block before, where it has six rows; zb: the bottom's
	// block after.
	var zp, zb *[6]float64
	for i := 0; i < m || last-i > m; i++ {
		if i < m {
			zp = c.forwardTop(z, i, zp)
		}
		if k := last - i; k > m {
			zb = c.forwardBottom(z, k, zb)
		}
	}
	zb = c.substituteMiddle(z, zp, zb)
	// zn: the top's block after; zb now the bottom's block before.
	zn := zb
	for i := 1; m-i >= 0 || m+i <= last; i++ {
		if k := m - i; k >= 0 {
			zn = c.backwardTop(z, k, zn)
		}
		if k := m + i; k <= last {
			zb = c.backwardBottom(z, k, zb)
		}
	}
}

// forwardBottom is substitute's forward step for block k below the
// middle, from the bottom, zb the block after's z (nil for the last), and
// returns block k's z. The blocks there have six rows (Chain.setup).
func (c *Chain) forwardBottom(z []float64, k int, zb *[6]float64) *[6]float64 {
	b := &c.six[k]
	zk := (*[6]float64)(z[b.start:])
	if k == len(c.six)-1 {
		forward6(b.a, b.inv, zk)
	} else {
		subtractForward6Vec(b.a, b.inv, zk, b.w, zb)
	}
	return zk
}

// backwardBottom is substitute's backward step for block k below the
// middle, towards the bottom, zb the block before's z, and returns block
// k's z.
func (c *Chain) backwardBottom(z []float64, k int, zb *[6]float64) *[6]float64 {
	b := &c.six[k]
	zk := (*[6]float64)(z[b.start:])
	subtractBackward6Vec(b.a, b.inv, zk, c.six[k-1].w, zb)
	return zk
}

// substituteMiddle is substitute's step at the middle block, between the
// forward passes, which left zp above it and zb below it, and the backward
// ones: it returns the middle's z, where both backward passes start.
func (c *Chain) substituteMiddle(z []float64, zp, zb *[6]float64) *[6]float64 {
	m := c.middle
	if m == len(c.six)-1 {
		c.forwardTop(z, m, zp)
		return c.backwardTop(z, m, nil)
	}
	b := &c.six[m]
	zm := (*[6]float64)(z[b.start:])
	subtractTransposed6(zm, b.w, zb)
	c.forwardTop(z, m, zp)
	backward6(b.a, b.inv, zm)
	return zm
}

// forwardTop is substitute's forward step for block k from the top, zp
// the block before's z where it has six rows, and returns block k's z
// where it has six rows.
func (c *Chain) forwardTop(z []float64, k int, zp *[6]float64) *[6]float64 {
	six := c.six
	b := &six[k]
	if b.a == nil || k > 0 && six[k-1].w == nil {
		return c.forwardBlock(z, k)
	}
	zk := (*[6]float64)(z[b.start:])
	if k > 0 {
		subtractForward6Vec(b.a, b.inv, zk, six[k-1].w, zp)
	} else {
		forward6(b.a, b.inv, zk)
	}
	return zk
}

// backwardTop is substitute's backward step for block k above the middle
// or the last block of a chain factored from the top alone, zn the block
// after's z where it has six rows, and returns block k's z where it has
// six rows.
func (c *Chain) backwardTop(z []float64, k int, zn *[6]float64) *[6]float64 {
	six := c.six
	b := &six[k]
	if b.a == nil || k+1 < len(six) && b.w == nil {
		return c.backwardBlock(z, k)
	}
	zk := (*[6]float64)(z[b.start:])
	if b.w != nil {
		subtractBackward6Vec(b.a, b.inv, zk, b.w, zn)
	} else {
		backward6(b.a, b.inv, zk)
	}
	return zk
}

// forwardBlock is substitute's forward step for block k, and returns its
// z where it has six rows.
func (c *Chain) forwardBlock(z []float64, k int) *[6]float64 {
	m, s := c.sizes[k], c.starts[k]
	zk := z[s : s+m]
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
	if m != 6 {
		forward(c.a[k], c.inv[s:s+m], zk)
		return nil
	}
	forward6((*block6)(c.a[k]), (*[6]float64)(c.inv[s:s+m]), (*[6]float64)(zk))
	return (*[6]float64)(zk)
}

// backwardBlock is substitute's backward step for block k, and returns
// its z where it has six rows.
func (c *Chain) backwardBlock(z []float64, k int) *[6]float64 {
	m, s := c.sizes[k], c.starts[k]
	zk := z[s : s+m]
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
	if m != 6 {
		backward(c.a[k], c.inv[s:s+m], zk)
		return nil
	}
	backward6((*block6)(c.a[k]), (*[6]float64)(c.inv[s:s+m]), (*[6]float64)(zk))
	return (*[6]float64)(zk)
}

// cholesky factors the symmetric positive definite m×m matrix a (lower
// triangle used) in place into L with a = L Lᵀ, and writes 1/Lⱼⱼ into
// inv[j] for the solves. Right-looking: column j's pivot d updates the
// columns to its right with its entries over d, and is scaled by 1/√d
// only after; the next pivot waits for a division, not for a square root
// and a division (a chain's blocks are factored one after another, each
// waiting for the last, so the pivots' chain of operations is the
// factorization's time).
func cholesky(a []float64, m int, inv []float64) bool { return choleskyFrom(a, m, inv, 0) }

// choleskyFrom is cholesky from column j on, the columns before it
// factored: where a fixed-size kernel (cholesky4) meets a pivot whose
// reciprocal is not normal.
func choleskyFrom(a []float64, m int, inv []float64, j int) bool {
	for ; j < m; j++ {
		d := a[j*m+j]
		if !(d > 0) {
			return false
		}
		r := 1 / d
		s := math.Sqrt(r)
		if !(r <= math.MaxFloat64 && r >= minNormal) {
			// d so small or large that 1/d leaves the normal range: the
			// column is scaled first, as a textbook Cholesky does.
			choleskyColumn(a, m, j, d, inv)
			continue
		}
		inv[j] = s
		a[j*m+j] = d * s // √d
		for i := j + 1; i < m; i++ {
			ai := a[i*m : i*m+i+1]
			f := ai[j] * r
			for k := j + 1; k <= i; k++ {
				ai[k] -= f * a[k*m+j]
			}
		}
		for i := j + 1; i < m; i++ {
			a[i*m+j] *= s
		}
	}
	return true
}

// minNormal is the smallest normal float64.
const minNormal = 0x1p-1022

// choleskyColumn is cholesky's step for column j with pivot d where 1/d
// is not a normal number: the column is scaled by 1/√d, then it updates
// the columns to its right.
func choleskyColumn(a []float64, m, j int, d float64, inv []float64) {
	sq := math.Sqrt(d)
	s := 1 / sq
	inv[j] = s
	a[j*m+j] = sq
	for i := j + 1; i < m; i++ {
		a[i*m+j] *= s
	}
	for i := j + 1; i < m; i++ {
		f := a[i*m+j]
		for k := j + 1; k <= i; k++ {
			a[i*m+k] -= f * a[k*m+j]
		}
	}
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
