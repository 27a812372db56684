package multibody

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/sparse"
)

// Sparse solves a step's rows by a sparse LDLᵀ factorization of the whole
// system of [SLNB11] eq. 7 rather than of its Schur complement: with the
// velocity change Δv = M⁻¹Gᵀλ and μ = −λ,
//
//	[ M   Gᵀ ] [ Δv ]   [ 0 ]
//	[ G  −Σ  ] [ μ  ] = [ B ],
//
// whose second row is (G M⁻¹ Gᵀ + Σ) λ = B. The matrix has a block per
// dynamic body the rows act on (3×3 m·I for a particle, m·I and the world
// inertia for a rigid body) and a scalar per row; a row couples only to its
// bodies, so a net of segments, whose Schur complement couples every two
// rows sharing a body, stays as sparse as the net itself ([SLNB11] §II-A,
// Fig. 8). A body few rows act on (a wire's node: see condensed) is
// eliminated in assembly instead, its rows' block taking −G M⁻¹ Gᵀ, as
// minimum degree would eliminate it first. Rows acting on different parts
// of a body, its translation and its turning, or with a zero block on it,
// do not couple through it (see parts). The ordering (minimum degree on
// the graph of the bodies kept and the rows, a rigid row acting on a kept
// body after that body, whatever rows it is coupled to; from 1,000
// unknowns also nested dissection, kept where it factors in fewer
// operations, as it does for nets) and the symbolic analysis are redone
// only when the rows' coupling to the bodies and their parts (not merely
// the problem's layout) or the set of rigid rows changes, and not when
// that comes back to one of the last few analyses, which are kept; each
// step factors the new values. A factorization again within the step with only
// compliances changed (an active set pinning or freeing rows) writes those
// alone and recomputes L from the first unknown they touch on
// (sparse.Factor.Refactor).
//
// A pivot that comes out below 1e-13 of its node's scale, or of the wrong
// sign (rows that depend on each other, a rigid row on no dynamic body), is
// replaced by that threshold and the solution refined against the true
// matrix; if the refinement neither brings the residual down nor settles
// (rows that disagree), the solve fails. Rows must be unbounded: wrap
// Sparse in an ActiveSet for bounds.
type Sparse struct {
	// Timing, when set, accumulates the time of each phase.
	Timing *SparseTiming

	layout    structure
	dissected bool   // the order is a nested dissection
	rigid     []bool // rows with Σ = 0 when the ordering was made
	bodyStart []int  // per ByBody entry: its first unknown, −1 if condensed
	bodyDofs  []int  // per ByBody entry: 3 (particle) to 6 (see turnable)
	bodyNode  []int  // the ByBody entries kept as unknowns, in order
	// onKept marks the rows acting on a body kept as unknowns (a
	// nonzero block on it).
	onKept []bool
	// parts holds the parts (see parts) of every block at the analysis,
	// entry by entry of ByBody; both marks the entries with a block on
	// both parts (assembleCondensed's two ways).
	parts []uint8
	both  []bool
	// gatherJ and gatherM hold a condensed body's blocks (assembly), and
	// gatherLin and gatherMinvLin a condensed particle's linear ones.
	gatherJ, gatherM         []Jacobian
	gatherLin, gatherMinvLin []geom.Vec3
	// Storage kept from one setup to the next: analyses come whenever a
	// wire's rows change, and allocating them anew cost most of their time.
	builder, blockBuilder sparse.Builder
	blockMat              *sparse.Matrix
	graph                 sparse.Graph
	orderer               sparse.Orderer
	syms                  [2]*sparse.Symbolic
	node, size, perm      []int
	wait, lead            []bool
	rows                  int // unknown of row 0
	mat                   *sparse.Matrix
	fac                   *sparse.Factor
	pivot                 sparse.Pivot
	// pos holds, per ByBody entry kept as unknowns and block, the
	// positions in mat.Val of the entries (row, dof) and (dof, row), dof by
	// dof (−1 where the block does not act on the dof's part); posStart
	// indexes it per entry. A condensed entry ei's pairs of blocks are
	// pairs[pairStart[ei]:pairStart[ei+1]].
	pos       []int
	posStart  []int
	pairs     []blockPair
	pairStart []int
	diag      []int // position of each unknown's diagonal
	rhs, x    []float64
	res, dx   []float64
	// pattern is the coupling the analysis was made for (Problem.pattern).
	pattern []int
	// key is all that the analysis was made from (see keyOf); kept holds
	// earlier analyses, the last used first, and probe is the key of the
	// problem at hand. A wire whose slack falls take their bends back and
	// leave them out again returns to a coupling it had a few analyses
	// before about every other time.
	key, probe []int
	kept       []*analysis
	// The assembly the factor holds: the problem's values count (see
	// Problem.values; 0 for none), each row's diagonal before its
	// compliance and the compliances. An active set that pins or frees
	// rows changes only compliances, which refactor puts in.
	values   uint64
	rowDiag  []float64
	sigma    []float64
	changed  []int
	isChange []bool
}

// SparseTiming splits a sparse solve's time for benchmarks.
type SparseTiming struct {
	Ordering, Analysis, Assembly, Factorization, Substitution time.Duration
	// Nonzeros of L at the last analysis, and unknowns.
	Nonzeros, Unknowns int
	// Factorizations and Substitutions count the numeric factorizations
	// and the solves with a factor (an active set makes several a step);
	// Analyses the orderings and symbolic analyses, Reused the kept
	// analyses taken up instead.
	Factorizations, Substitutions, Analyses, Reused int
}

// pivotEps is the smallest pivot, relative to its node's scale, taken as
// it is.
const pivotEps = 1e-13

// refinements bounds the iterative refinement after perturbed pivots.
const refinements = 4

// Solve implements Solver.
func (s *Sparse) Solve(p *Problem) error {
	if err := s.Factor(p); err != nil {
		return err
	}
	return s.Substitute(p)
}

// Factor implements Factorizer.
func (s *Sparse) Factor(p *Problem) error {
	if err := unbounded(p, "sparse"); err != nil {
		return err
	}
	t0 := time.Now()
	if s.layout != p.structure() && s.mat != nil && p.hasPattern(s.pattern) {
		// Rows rebuilt with the same coupling (a wire's contact node
		// moved to another edge of the same sheave): the analysis,
		// a function of the pattern alone, holds. The assembly does
		// not: the values' count is another layout's (another world's,
		// should two share the solver).
		s.layout = p.structure()
		s.values = 0
	}
	if s.layout != p.structure() || s.mat == nil || s.rigidChanged(p) || s.turningChanged(p) {
		if err := s.setup(p); err != nil {
			return err
		}
		t0 = time.Now() // setup times itself (ordering, analysis)
	} else if p.values != 0 && p.values == s.values {
		return s.refactor(p, t0)
	}
	if err := s.assemble(p); errors.Is(err, errPartsChanged) {
		if err := s.setup(p); err != nil {
			return err
		}
		if err := s.assemble(p); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	t0 = s.clock(&s.timing().Assembly, t0)
	if err := s.fac.Factor(s.mat, s.pivot); err != nil {
		s.values = 0
		return err
	}
	s.values = p.values
	s.clock(&s.timing().Factorization, t0)
	s.timing().Factorizations++
	return nil
}

// refactor factors the matrix of the last assembly again with p's
// compliances, p's other values being the same: only the changed rows'
// diagonals and the pivot scales of them and their neighbours are
// written, and L is recomputed from the first of those on
// (sparse.Factor.Refactor), which gives the factor a full assembly and
// factorization would, to the bit.
func (s *Sparse) refactor(p *Problem, t0 time.Time) error {
	val := s.mat.Val
	changed := s.changed[:0]
	mark := func(k int) {
		if !s.isChange[k] {
			s.isChange[k] = true
			changed = append(changed, k)
		}
	}
	for i, sg := range p.Sigma {
		if sg == s.sigma[i] {
			continue
		}
		k := s.rows + i
		val[s.diag[k]] = s.rowDiag[i] - sg
		mark(k)
		for q := s.mat.Col[k]; q < s.mat.Col[k+1]; q++ {
			mark(s.mat.Row[q]) // its pivot scale sees the diagonal
		}
	}
	s.sigma = append(s.sigma[:0], p.Sigma...)
	for _, k := range changed {
		s.isChange[k] = false
		s.pivot.Scale[k] = s.scale(k)
	}
	s.changed = changed
	t0 = s.clock(&s.timing().Assembly, t0)
	if err := s.fac.Refactor(s.mat, s.pivot, changed); err != nil {
		s.values = 0
		return err
	}
	s.clock(&s.timing().Factorization, t0)
	s.timing().Factorizations++
	return nil
}

// scale returns unknown k's pivot scale, |a_kk| + Σ_j a_kj²/|a_jj|: the
// size its pivot has without cancellation (a zero diagonal adds nothing).
func (s *Sparse) scale(k int) float64 {
	val := s.mat.Val
	v := math.Abs(val[s.diag[k]])
	// The column as subslices of one length: no bounds checks on them.
	rows := s.mat.Row[s.mat.Col[k]:s.mat.Col[k+1]]
	vals := val[s.mat.Col[k]:s.mat.Col[k+1]]
	vals = vals[:len(rows)]
	for q, j := range rows {
		if d := math.Abs(val[s.diag[j]]); j != k && d > 0 {
			v += vals[q] * vals[q] * (1 / d)
		}
	}
	return v
}

// Substitute implements Factorizer.
func (s *Sparse) Substitute(p *Problem) error {
	t0 := time.Now()
	defer s.clock(&s.timing().Substitution, t0)
	s.timing().Substitutions++
	clear(s.rhs[:s.rows])
	copy(s.rhs[s.rows:], p.B)
	copy(s.x, s.rhs)
	s.fac.Solve(s.x)
	if s.fac.Perturbed > 0 {
		if err := s.refine(); err != nil {
			return err
		}
	}
	// The rows' part of x cut to Lambda's length: the loop checks no
	// bounds and reloads no fields past its stores.
	lambda := p.Lambda
	for i, x := range s.x[s.rows:][:len(lambda)] {
		lambda[i] = -x
	}
	return nil
}

// refine corrects x for the perturbed pivots: x += A⁻¹(rhs − A x) with
// the perturbed factor, until the residual is below refineResidual of the
// largest right-hand side, or the correction below refineSettled of x:
// rows that depend on each other and agree settle at the rounding of
// their terms (two identical rigid rows on a load 1e4 to 1e7 times a
// segment's mass: residuals of 1e-12 to 4e-9, corrections of 3e-11 to
// 3e-10 of x), while rows that disagree, by however little, are
// corrected by a growing share of x at every step (0.5, 0.33, 0.25, …:
// impulses that grow without end against each other) and are refused.
func (s *Sparse) refine() error {
	scale := 0.0
	for _, v := range s.rhs {
		scale = math.Max(scale, math.Abs(v))
	}
	for it := 0; ; it++ {
		s.mat.MulVec(s.res, s.x)
		worst := 0.0
		for i := range s.res {
			s.res[i] = s.rhs[i] - s.res[i]
			if math.IsNaN(s.res[i]) && s.x[i] == 0 && math.IsInf(s.mat.Val[s.diag[i]], -1) {
				// A row of infinite compliance (−Σ = −∞ on the
				// diagonal) holds λ = 0 exactly: its equation, divided
				// by Σ, is met, where its product gave ∞·0.
				s.res[i] = 0
			}
			worst = math.Max(worst, math.Abs(s.res[i]))
		}
		if worst <= refineResidual*scale {
			return nil
		}
		if it == refinements {
			return fmt.Errorf("sparse solve: %d pivots were perturbed (rows depend on each other and disagree, or a rigid row acts on no dynamic body) and refinement leaves a residual of %.3g of the right-hand side", s.fac.Perturbed, worst/scale)
		}
		copy(s.dx, s.res)
		s.fac.Solve(s.dx)
		step, size := 0.0, 0.0
		for i := range s.x {
			s.x[i] += s.dx[i]
			step, size = math.Max(step, math.Abs(s.dx[i])), math.Max(size, math.Abs(s.x[i]))
		}
		if step <= refineSettled*size {
			return nil
		}
	}
}

// refineResidual and refineSettled are refine's limits: the residual
// against the largest right-hand side, and the correction against x.
const (
	refineResidual = 1e-12
	refineSettled  = 1e-8
)

func (s *Sparse) timing() *SparseTiming {
	if s.Timing == nil {
		return &SparseTiming{}
	}
	return s.Timing
}

func (s *Sparse) clock(d *time.Duration, t0 time.Time) time.Time {
	if s.Timing == nil {
		return t0
	}
	now := time.Now()
	*d += now.Sub(t0)
	return now
}

// rigidChanged reports whether the set of rows with Σ = 0 differs from the
// one the ordering was made for.
func (s *Sparse) rigidChanged(p *Problem) bool {
	for i, sg := range p.Sigma {
		if (sg == 0) != s.rigid[i] {
			return true
		}
	}
	return false
}

// turningChanged reports whether a body's number of axes it can turn
// about differs from the layout's.
func (s *Sparse) turningChanged(p *Problem) bool {
	for ei, e := range p.ByBody {
		if 3+turnable(p.Rows[e.Blocks[0].Row].Bodies[e.Blocks[0].K]) != s.bodyDofs[ei] {
			return true
		}
	}
	return false
}

// analysis is what setup makes of a problem's coupling: the fields of
// the same names in Sparse.
type analysis struct {
	key, pattern                   []int
	bodyStart, bodyDofs, bodyNode  []int
	onKept, rigid, both            []bool
	parts                          []uint8
	rows                           int
	mat                            *sparse.Matrix
	pos, posStart, pairStart, diag []int
	pairs                          []blockPair
	dissected                      bool
	fac                            *sparse.Factor
	syms                           [2]*sparse.Symbolic
	sign                           []int8
}

// keptAnalyses is how many analyses Sparse keeps besides the one in use,
// and keptBytes the storage they may hold in all: a net whose analysis is
// large keeps few (the example crane's slack wire, 0.1–1 MB each, keeps
// eight).
const (
	keptAnalyses = 8
	keptBytes    = 16 << 20
)

// bytes returns the storage the analysis holds (bytes, by capacity).
func (a *analysis) bytes() int {
	n := len(a.sign) + len(a.onKept) + len(a.rigid) + len(a.parts) + len(a.both)
	for _, v := range [][]int{a.key, a.pattern, a.bodyStart, a.bodyDofs, a.bodyNode, a.pos, a.posStart, a.pairStart, a.diag} {
		n += 8 * cap(v)
	}
	n += 4 * 8 * cap(a.pairs)
	if m := a.mat; m != nil {
		n += 8 * (cap(m.Col) + cap(m.Row) + cap(m.Val))
	}
	for _, sym := range a.syms {
		if sym != nil {
			n += sym.Bytes()
		}
	}
	if a.fac != nil {
		n += a.fac.Bytes()
	}
	return n
}

// keep puts the analysis cur first among the kept ones and drops those
// past keptAnalyses or keptBytes, returning the first dropped (its
// storage for a new analysis), or nil.
func (s *Sparse) keep(cur *analysis) *analysis {
	s.kept = slices.Insert(s.kept, 0, cur)
	total := 0
	for i, a := range s.kept {
		if total += a.bytes(); i == keptAnalyses || total > keptBytes {
			dropped := s.kept[i]
			clear(s.kept[i:])
			s.kept = s.kept[:i]
			return dropped
		}
	}
	return nil
}

// stash returns the analysis in use; adopt puts a in use. (The fields
// listed are the ones setup writes from the problem's coupling alone.)
func (s *Sparse) stash() *analysis {
	return &analysis{key: s.key, pattern: s.pattern, bodyStart: s.bodyStart, bodyDofs: s.bodyDofs, bodyNode: s.bodyNode,
		onKept: s.onKept, rigid: s.rigid, parts: s.parts, both: s.both, rows: s.rows, mat: s.mat, pos: s.pos, posStart: s.posStart,
		pairs: s.pairs, pairStart: s.pairStart, diag: s.diag, dissected: s.dissected, fac: s.fac, syms: s.syms, sign: s.pivot.Sign}
}

func (s *Sparse) adopt(a *analysis) {
	s.key, s.pattern, s.bodyStart, s.bodyDofs, s.bodyNode = a.key, a.pattern, a.bodyStart, a.bodyDofs, a.bodyNode
	s.onKept, s.rigid, s.parts, s.both, s.rows, s.mat, s.pos, s.posStart = a.onKept, a.rigid, a.parts, a.both, a.rows, a.mat, a.pos, a.posStart
	s.pairs, s.pairStart = a.pairs, a.pairStart
	s.diag, s.dissected, s.fac, s.syms, s.pivot.Sign = a.diag, a.dissected, a.fac, a.syms, a.sign
}

// keyOf appends to dst all that setup's analysis of p depends on: the
// coupling (Problem.pattern), each body's unknowns and the parts its
// blocks act on, and which rows are rigid.
func keyOf(p *Problem, dst []int) []int {
	dst = p.pattern(dst)
	for _, e := range p.ByBody {
		dofs := 3 + turnable(p.Rows[e.Blocks[0].Row].Bodies[e.Blocks[0].K])
		dst = append(dst, dofs)
		for _, rb := range e.Blocks {
			dst = append(dst, int(parts(&p.Rows[rb.Row].J[rb.K], dofs)))
		}
	}
	for _, sg := range p.Sigma {
		rigid := 0
		if sg == 0 {
			rigid = 1
		}
		dst = append(dst, rigid)
	}
	return dst
}

// setup lays out the unknowns, orders them and analyzes the structure,
// or takes up a kept analysis made from the same (see key): the same
// function of the same inputs.
func (s *Sparse) setup(p *Problem) error {
	t0 := time.Now()
	s.probe = keyOf(p, s.probe[:0])
	var cur *analysis
	if len(s.pattern) > 0 { // an analysis done
		cur = s.stash()
	}
	s.values = 0 // no assembly for the analysis taken up
	for i, a := range s.kept {
		if !slices.Equal(a.key, s.probe) {
			continue
		}
		s.kept = slices.Delete(s.kept, i, i+1)
		if cur != nil {
			s.keep(cur)
		}
		s.adopt(a)
		s.scratch()
		s.layout = p.structure()
		if s.Timing != nil {
			s.Timing.Nonzeros, s.Timing.Unknowns = s.fac.Symbolic().Nonzeros(), s.mat.N
			s.Timing.Reused++
		}
		s.clock(&s.timing().Analysis, t0)
		return nil
	}
	// Analyzed anew in the storage of the analysis kept longest, or new.
	store := &analysis{}
	if cur != nil {
		if dropped := s.keep(cur); dropped != nil {
			store = dropped
		}
	}
	s.adopt(store)
	s.key = append(s.key[:0], s.probe...)
	return s.analyzeLayout(p, t0)
}

// scratch sizes the solver's working vectors for the analysis in use.
func (s *Sparse) scratch() {
	n := s.mat.N
	s.pivot.Scale, s.pivot.Eps = grow(s.pivot.Scale, n), pivotEps
	s.rhs, s.x, s.res, s.dx = grow(s.rhs, n), grow(s.x, n), grow(s.res, n), grow(s.dx, n)
	s.isChange = grow(s.isChange, n)
	clear(s.isChange)
}

// analyzeLayout is setup's analysis anew.
func (s *Sparse) analyzeLayout(p *Problem, t0 time.Time) error {
	s.pattern = s.pattern[:0] // none until the analysis is done
	nr := len(p.Rows)
	s.bodyStart, s.bodyDofs, s.bodyNode = s.bodyStart[:0], s.bodyDofs[:0], s.bodyNode[:0]
	s.onKept = slices.Grow(s.onKept[:0], nr)[:nr]
	clear(s.onKept)
	n := 0
	s.parts, s.both = s.parts[:0], s.both[:0]
	for ei, e := range p.ByBody {
		dofs := 3 + turnable(p.Rows[e.Blocks[0].Row].Bodies[e.Blocks[0].K])
		s.bodyDofs = append(s.bodyDofs, dofs)
		acting := 0 // blocks that act on the body (see parts)
		both := false
		for _, rb := range e.Blocks {
			pt := parts(&p.Rows[rb.Row].J[rb.K], dofs)
			s.parts = append(s.parts, pt)
			if pt != 0 {
				acting++
			}
			both = both || pt == linPart|angPart
		}
		s.both = append(s.both, both)
		if condensed(acting, dofs) {
			s.bodyStart = append(s.bodyStart, -1)
			continue
		}
		for k, rb := range e.Blocks {
			if s.parts[len(s.parts)-len(e.Blocks)+k] != 0 {
				s.onKept[rb.Row] = true
			}
		}
		s.bodyStart = append(s.bodyStart, n)
		s.bodyNode = append(s.bodyNode, ei)
		n += dofs
	}
	s.rows = n
	n += nr
	// The scalar structure: each kept body's inertia block and its rows'
	// couplings to its unknowns; the rows of a condensed body coupled to
	// each other.
	b := &s.builder
	b.Reset(n)
	part := s.parts
	for ei, e := range p.ByBody {
		pe := part[:len(e.Blocks)]
		part = part[len(e.Blocks):]
		if s.bodyStart[ei] < 0 {
			for ia, a := range e.Blocks {
				for ic, c := range e.Blocks[:ia] {
					if a.Row != c.Row && pe[ia]&pe[ic] != 0 {
						b.Couple(s.rows+a.Row, s.rows+c.Row)
					}
				}
			}
			continue
		}
		if s.bodyDofs[ei] == 6 {
			st := s.bodyStart[ei] + 3
			for i := 0; i < 3; i++ {
				for j := 0; j < i; j++ {
					b.Couple(st+i, st+j)
				}
			}
		}
		for k, rb := range e.Blocks {
			for d := 0; d < s.bodyDofs[ei]; d++ {
				if pe[k]&dofPart(d) != 0 {
					b.Couple(s.rows+rb.Row, s.bodyStart[ei]+d)
				}
			}
		}
	}
	s.mat = b.Build(s.mat)
	// Positions of the entries assembly writes, −1 where the parts of
	// the blocks do not meet.
	s.pos, s.posStart = s.pos[:0], s.posStart[:0]
	s.pairs, s.pairStart = s.pairs[:0], s.pairStart[:0]
	part = s.parts
	for ei, e := range p.ByBody {
		pe := part[:len(e.Blocks)]
		part = part[len(e.Blocks):]
		s.posStart = append(s.posStart, len(s.pos))
		s.pairStart = append(s.pairStart, len(s.pairs))
		if s.bodyStart[ei] < 0 {
			for ia, a := range e.Blocks {
				for ic := ia; ic < len(e.Blocks); ic++ {
					if pe[ia]&pe[ic] == 0 {
						continue
					}
					c := e.Blocks[ic]
					s.pairs = append(s.pairs, blockPair{a: ia, c: ic,
						ac: s.mat.Index(s.rows+a.Row, s.rows+c.Row), ca: s.mat.Index(s.rows+c.Row, s.rows+a.Row)})
				}
			}
			continue
		}
		for k, rb := range e.Blocks {
			for d := 0; d < s.bodyDofs[ei]; d++ {
				if pe[k]&dofPart(d) == 0 {
					s.pos = append(s.pos, -1, -1)
					continue
				}
				u := s.bodyStart[ei] + d
				s.pos = append(s.pos, s.mat.Index(s.rows+rb.Row, u), s.mat.Index(u, s.rows+rb.Row))
			}
		}
	}
	s.pairStart = append(s.pairStart, len(s.pairs))
	s.diag = grow(s.diag, n)
	for i := range s.diag {
		s.diag[i] = s.mat.Index(i, i)
	}
	t0 = s.clock(&s.timing().Analysis, t0)
	// The graph of kept bodies and rows, ordered; rigid rows on kept
	// bodies alone (a zero diagonal) wait for their bodies.
	nb := len(s.bodyNode)
	node := grow(s.node, len(p.ByBody)) // graph node of a kept body
	s.node = node
	for k, ei := range s.bodyNode {
		node[ei] = k
	}
	blocks := &s.blockBuilder
	blocks.Reset(nb + nr)
	part = s.parts
	for ei, e := range p.ByBody {
		pe := part[:len(e.Blocks)]
		part = part[len(e.Blocks):]
		for ia, a := range e.Blocks {
			if s.bodyStart[ei] >= 0 {
				blocks.Couple(node[ei], nb+a.Row)
				continue
			}
			for ic, c := range e.Blocks[:ia] {
				if a.Row != c.Row && pe[ia]&pe[ic] != 0 {
					blocks.Couple(nb+a.Row, nb+c.Row)
				}
			}
		}
	}
	s.blockMat = blocks.Build(s.blockMat)
	s.graph = s.blockMat.GraphIn(s.graph)
	graph := s.graph
	s.rigid = slices.Grow(s.rigid[:0], nr)[:nr]
	s.size, s.wait, s.lead = grow(s.size, nb+nr), grow(s.wait, nb+nr), grow(s.lead, nb+nr)
	// Rigid rows wait for the bodies they act on, not for the rows they
	// are coupled to through condensed bodies.
	nodes := sparse.Nodes{Size: s.size, Wait: s.wait, Lead: s.lead}
	for i := range nodes.Size {
		nodes.Size[i], nodes.Wait[i], nodes.Lead[i] = 1, false, i < nb
		if i < nb {
			nodes.Size[i] = s.bodyDofs[s.bodyNode[i]]
		}
	}
	for i, sg := range p.Sigma {
		// A rigid row acting on a kept body waits for it: its pivot
		// before that body's elimination can be zero (two rigid rows
		// alike on a condensed particle). A rigid row on condensed
		// bodies alone has its pivot from their masses.
		s.rigid[i] = sg == 0
		nodes.Wait[nb+i] = sg == 0 && s.onKept[i]
	}
	sym, err := s.analyze(graph, nodes, 0, &t0)
	if err != nil {
		return err
	}
	s.dissected = false
	if n >= dissectFrom {
		// A large net factors cheaper in nested dissection; a chain or a
		// tree does not, and keeps minimum degree.
		stage, err := sparse.Dissect(graph, nodes, dissectLeaf)
		if err != nil {
			return fmt.Errorf("sparse solve: %w", err)
		}
		nodes.Stage = stage
		nd, err := s.analyze(graph, nodes, 1, &t0)
		if err != nil {
			return err
		}
		if nd.Operations() < sym.Operations() {
			sym = nd
		}
		s.dissected = sym == nd
	}
	if s.fac == nil {
		s.fac = &sparse.Factor{}
	}
	s.fac.Reset(sym)
	s.pivot.Sign = grow(s.pivot.Sign, n)
	for i := range s.pivot.Sign {
		s.pivot.Sign[i] = 1
		if i >= s.rows {
			s.pivot.Sign[i] = -1
		}
	}
	s.scratch()
	s.layout = p.structure()
	s.pattern = p.pattern(s.pattern[:0])
	if s.Timing != nil {
		s.Timing.Nonzeros, s.Timing.Unknowns = sym.Nonzeros(), n
		s.Timing.Analyses++
	}
	s.clock(&s.timing().Analysis, t0)
	return nil
}

// condensed reports whether a body of dofs unknowns that blocks rows act
// on (their blocks on it not zero) is eliminated in assembly (its rows
// coupled through G M⁻¹ Gᵀ) rather than kept as unknowns. Minimum degree eliminates a body with few rows
// early, and the clique of its rows forms anyway; condensed, its mass
// costs no columns of L, and ordering and analysis see a smaller graph.
// The limits are measured: a wire's node on the ground (nine or ten rows:
// stretch, bends, the contacts of both its segments) factors in half the
// operations condensed, while a knot of a net with four ball joints
// (twelve rows) fills twice as much, and a rigid body's full inertia
// block is cheap to keep.
func condensed(blocks, dofs int) bool {
	if dofs == 6 {
		return blocks <= 2*dofs+1
	}
	return blocks <= 3*dofs+1
}

// Nested dissection is tried from dissectFrom unknowns, down to parts of
// dissectLeaf unknowns, which minimum degree orders.
const (
	dissectFrom = 1000
	dissectLeaf = 64
)

// analyze orders the graph of bodies and rows under nodes' constraints and
// analyzes the scalar matrix in that order, the body's unknowns together,
// into the storage of analysis slot (0 or 1: the two orders compared).
func (s *Sparse) analyze(graph sparse.Graph, nodes sparse.Nodes, slot int, t0 *time.Time) (*sparse.Symbolic, error) {
	order, err := s.orderer.Order(graph, nodes)
	if err != nil {
		return nil, fmt.Errorf("sparse solve: %w", err)
	}
	nb := len(s.bodyNode)
	perm := s.perm[:0]
	defer func() { s.perm = perm }()
	for _, node := range order {
		if node < nb {
			ei := s.bodyNode[node]
			for d := 0; d < s.bodyDofs[ei]; d++ {
				perm = append(perm, s.bodyStart[ei]+d)
			}
		} else {
			perm = append(perm, s.rows+node-nb)
		}
	}
	*t0 = s.clock(&s.timing().Ordering, *t0)
	sym, err := sparse.AnalyzeIn(s.syms[slot], s.mat, perm)
	if err != nil {
		return nil, fmt.Errorf("sparse solve: %w", err)
	}
	s.syms[slot] = sym
	*t0 = s.clock(&s.timing().Analysis, *t0)
	return sym, nil
}

// assemble writes the step's values: the bodies' mass and inertia, the
// rows' Jacobians and −Σ, and each unknown's pivot scale.
func (s *Sparse) assemble(p *Problem) error {
	val := s.mat.Val
	clear(val)
	part := s.parts
	for ei, e := range p.ByBody {
		pe := part[:len(e.Blocks)]
		part = part[len(e.Blocks):]
		if s.bodyStart[ei] < 0 {
			if !s.assembleCondensed(p, e, s.bodyDofs[ei], pe, s.both[ei], s.pairs[s.pairStart[ei]:s.pairStart[ei+1]]) {
				return errPartsChanged
			}
			continue
		}
		b := p.Rows[e.Blocks[0].Row].Bodies[e.Blocks[0].K]
		st := s.bodyStart[ei]
		for d := 0; d < 3; d++ {
			val[s.diag[st+d]] = b.Mass
		}
		// The angular unknowns: ω itself under the world inertia for a
		// rigid body, else ω along the principal axes it can turn about,
		// each with its moment.
		axes := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
		switch dofs := s.bodyDofs[ei]; {
		case dofs == 6:
			inertia, ok := b.invI.Inverse()
			if !ok {
				return fmt.Errorf("sparse solve: body %q has an inertia that cannot be inverted", b.Name)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					val[s.mat.Index(st+3+i, st+3+j)] = inertia[i][j]
				}
			}
		case dofs > 3:
			mu, vec := turningAxes(b)
			for k := 0; k < dofs-3; k++ {
				axes[k] = vec[k]
				val[s.diag[st+3+k]] = 1 / mu[k]
			}
		}
		q := s.posStart[ei]
		for k, rb := range e.Blocks {
			j := &p.Rows[rb.Row].J[rb.K]
			if parts(j, s.bodyDofs[ei]) != pe[k] {
				return errPartsChanged
			}
			g := [6]float64{j.Lin.X, j.Lin.Y, j.Lin.Z, j.Ang.Dot(axes[0]), j.Ang.Dot(axes[1]), j.Ang.Dot(axes[2])}
			for d := 0; d < s.bodyDofs[ei]; d++ {
				if s.pos[q] >= 0 {
					val[s.pos[q]] += g[d]
					val[s.pos[q+1]] += g[d]
				}
				q += 2
			}
		}
	}
	s.rowDiag, s.sigma = grow(s.rowDiag, len(p.Sigma)), append(s.sigma[:0], p.Sigma...)
	// Locals of one length: the loop checks no bounds but val's, and
	// reloads no fields past its stores.
	sigma := p.Sigma
	rowDiag, diag := s.rowDiag[:len(sigma)], s.diag[s.rows:][:len(sigma)]
	for i, sg := range sigma {
		q := diag[i]
		rowDiag[i] = val[q]
		val[q] -= sg // after the condensed bodies' terms
	}
	s.scales()
	return nil
}

// scales sets every unknown's pivot scale (see scale), with 1/|a_jj| (0
// for a zero one) worked out once per unknown.
func (s *Sparse) scales() {
	val, diag := s.mat.Val, s.diag[:s.mat.N]
	inv := s.res[:len(diag)] // free until a refinement
	for k, q := range diag {
		inv[k] = 0
		if d := math.Abs(val[q]); d > 0 {
			inv[k] = 1 / d
		}
	}
	col, row := s.mat.Col, s.mat.Row
	scale := s.pivot.Scale[:len(diag)]
	for k, dq := range diag {
		v := math.Abs(val[dq])
		// The column's entries above the diagonal, then below it (rows
		// ascend): unsigned q needs no bounds checks on rows and vals.
		rows := row[:col[k+1]]
		vals := val[:len(rows)]
		above, aVals := rows[:dq], vals[:dq]
		for q := uint(col[k]); q < uint(len(above)); q++ {
			v += aVals[q] * aVals[q] * inv[above[q]]
		}
		for q := uint(dq) + 1; q < uint(len(rows)); q++ {
			v += vals[q] * vals[q] * inv[rows[q]]
		}
		scale[k] = v
	}
}

// blockPair is a pair of blocks (a, c) on a condensed body whose parts
// meet, c from a on: their indices in the body's entry of ByBody, and the
// positions in mat.Val of the entries (a's row, c's row) and (c's row, a's
// row).
type blockPair struct{ a, c, ac, ca int }

// assembleCondensed subtracts a condensed body's G M⁻¹ Gᵀ from its rows'
// block (the row unknowns are −λ), pairs its pairs of blocks (setup);
// both says whether a block acts on both parts (see parts) of the body at
// the analysis, which the blocks' parts, checked, still are.
func (s *Sparse) assembleCondensed(p *Problem, e BodyRows, dofs int, pe []uint8, both bool, pairs []blockPair) bool {
	val := s.mat.Val
	if !both {
		// No block acts on both the body's translation and its turning
		// (a wire's node: its stretch, bend and contact rows on the one,
		// its twist rows on the other; a particle has no turning). The
		// pairs meet in one part (setup), the other part's products are
		// zeros, and each block's part is gathered alone: M⁻¹ keeps a
		// zero half zero.
		n := len(e.Blocks)
		jl, ml := slices.Grow(s.gatherLin[:0], n)[:n], slices.Grow(s.gatherMinvLin[:0], n)[:n]
		s.gatherLin, s.gatherMinvLin = jl, ml
		pe = pe[:n]
		for k, b := range e.Blocks {
			r := &p.Rows[b.Row]
			jb := &r.J[b.K]
			if parts(jb, dofs) != pe[k] {
				return false
			}
			if pe[k] == angPart {
				jl[k], ml[k] = jb.Ang, r.MinvJ[b.K].Ang
			} else {
				jl[k], ml[k] = jb.Lin, r.MinvJ[b.K].Lin
			}
		}
		for _, pr := range pairs {
			ja, mc := jl[pr.a], ml[pr.c]
			v := ja.X*mc.X + ja.Y*mc.Y + ja.Z*mc.Z
			val[pr.ac] -= v
			if pr.a != pr.c {
				// Both triangles; the diagonal twice where a row has
				// two blocks on the body.
				val[pr.ca] -= v
			}
		}
		return true
	}
	// The blocks gathered: the pairs read each many times.
	j, m := s.gatherJ[:0], s.gatherM[:0]
	for k, b := range e.Blocks {
		j = append(j, p.Rows[b.Row].J[b.K])
		m = append(m, p.Rows[b.Row].MinvJ[b.K])
		if parts(&j[k], dofs) != pe[k] {
			return false
		}
	}
	s.gatherJ, s.gatherM = j, m
	for _, pr := range pairs {
		ja, mc := &j[pr.a], &m[pr.c]
		v := ja.Lin.X*mc.Lin.X + ja.Lin.Y*mc.Lin.Y + ja.Lin.Z*mc.Lin.Z
		v += ja.Ang.X*mc.Ang.X + ja.Ang.Y*mc.Ang.Y + ja.Ang.Z*mc.Ang.Z
		val[pr.ac] -= v
		if pr.a != pr.c {
			val[pr.ca] -= v
		}
	}
	return true
}

// The parts of a Jacobian block that act on a body: its linear half on
// the body's translation, its angular half on its turning. The mass
// matrix does not couple the two, so rows that act on different parts of
// a body (a wire's stretch and its twist at a node), or a row whose block
// on it is zero, do not couple through it, and the structure leaves their
// products out. A block that acts on other parts than at the analysis
// makes the solver analyze again, also where it acts on fewer: the
// structure is then what a fresh analysis of the same rows gives, so a
// state restored into a new solver continues bitwise.
const (
	linPart uint8 = 1
	angPart uint8 = 2
)

// parts returns the parts block j acts on, on a body of dofs unknowns (a
// particle has no angular part); none for a zero block (a wire's bend row
// on a segment's bodies away from the bend).
func parts(j *Jacobian, dofs int) uint8 {
	var m uint8
	if !isZero(&j.Lin) {
		m |= linPart
	}
	if dofs > 3 && !isZero(&j.Ang) {
		m |= angPart
	}
	return m
}

// isZero reports whether v is zero (−0 is, NaN is not), as v ==
// geom.Vec3{} does; written out, each component is compared with a zero
// held in a register rather than loaded from memory.
func isZero(v *geom.Vec3) bool { return v.X == 0 && v.Y == 0 && v.Z == 0 }

// dofPart returns the part unknown d of a body's block is: its first
// three the translation.
func dofPart(d int) uint8 {
	if d < 3 {
		return linPart
	}
	return angPart
}

// errPartsChanged reports a block that acts on other parts of its body
// than at the analysis (see parts): the analysis must be redone.
var errPartsChanged = errors.New("sparse solve: a row acts on other parts of a body than at the analysis")

// turnable returns the number of axes b can turn about: 0 for a
// particle, 3 for a rigid body, 1 or 2 where principal moments are zero,
// which the bodies take as no turning about those axes (their inverse
// inertia is zero there, and the turning stiffness leaves them plain).
func turnable(b *Body) int {
	// b.invI == geom.Mat3{} row by row: the whole matrix's comparison
	// is a call. The moments counted one by one, without an array.
	for _, r := range &b.invI {
		if r[0] != 0 || r[1] != 0 || r[2] != 0 {
			n := 0
			if b.Inertia.X != 0 {
				n++
			}
			if b.Inertia.Y != 0 {
				n++
			}
			if b.Inertia.Z != 0 {
				n++
			}
			return n
		}
	}
	return 0
}

// turningAxes returns, for a body that cannot turn about every axis, the
// inverse moments 1/I_k of the principal axes it can turn about and those
// axes (world frame): its inverse inertia is Σ_k (1/I_k) a_k a_kᵀ.
func turningAxes(b *Body) ([3]float64, [3]geom.Vec3) {
	var mu [3]float64
	var axes [3]geom.Vec3
	k := 0
	for i, m := range [3]float64{b.Inertia.X, b.Inertia.Y, b.Inertia.Z} {
		if m != 0 {
			mu[k] = 1 / m
			axes[k] = geom.V(b.rot[0][i], b.rot[1][i], b.rot[2][i])
			k++
		}
	}
	return mu, axes
}
