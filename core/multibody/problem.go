package multibody

// Solver solves the bounded Schur complement system of one step.
type Solver interface {
	// Solve finds p.Lambda with (G M⁻¹ Gᵀ + Σ) λ = B, each λᵢ in [Loᵢ, Hiᵢ]
	// and complementary to its residual where it sits on a bound.
	Solve(p *Problem) error
}

// Factorizer is a Solver that can factor S once and then solve for
// several right-hand sides, as block Gauss–Seidel needs within a step.
type Factorizer interface {
	Solver
	Factor(p *Problem) error
	Substitute(p *Problem) error
}

// Problem is the data of one step's constraint solve. Solvers read the
// structure (which rows share which bodies) and the numbers; they write
// only Lambda.
type Problem struct {
	Rows             []ProblemRow
	Sigma, B, Lo, Hi []float64
	Lambda           []float64
	// Start holds each row's Row.Start.
	Start []int8
	// ByBody lists each dynamic body that rows of the problem act on, with
	// the (row, block) pairs acting on it: the coupling pattern of
	// G M⁻¹ Gᵀ. Only those bodies: a group of a few rows in a large world
	// keeps a short list.
	ByBody []BodyRows
	// Slots is the number of the world's dynamic bodies, whose slots
	// (Body's index among them) run from 0 to Slots − 1.
	Slots int
	// Groups holds the first row of each constraint, in the order they
	// were added, and then the number of rows: constraint k owns rows
	// Groups[k] to Groups[k+1]−1.
	Groups []int
	// Layout changes whenever rows or their coupling pattern change, so
	// that solvers know when to redo their symbolic work.
	Layout int
	// pinned marks, per constraint (as Groups), those whose rows a World
	// knows to be bounded to [0, 0] (a switched-off contact's, checked
	// when assembled, which Rebound leaves as they are): block
	// Gauss–Seidel passes their groups over without reading the bounds,
	// and the world asks them for no Rebound. False, or nil, says nothing.
	pinned []bool
	// free marks a problem whose rows are all unbounded by construction
	// (an ActiveSet's free problem): the direct solvers need not check
	// its bounds, a pass over every row each step.
	free bool
	// js and minvJs hold the rows' blocks (ProblemRow.J, MinvJ) where a
	// World laid them out: a constraint's together, row by row, each row's
	// in body order. blockStart holds each constraint's first block in
	// them (as Groups) and then one past the last. Nil in a problem made
	// otherwise. The chain's kernels take a joint's blocks from them as
	// arrays (Chain.setup), where through the rows each block took a slice
	// header and a bounds check.
	js, minvJs []Jacobian
	blockStart []int
	// sums holds each row's sums over its bodies as a World's assembly
	// left them (rowSums); nil in a problem made otherwise. The chain's
	// diagonal blocks take their diagonal from them (J M⁻¹ Jᵀ, rowSums.d)
	// rather than sum it again.
	sums []rowSums
	// helper, where not nil, runs the second half of a solver's work that
	// splits in two (World.Parallel, Chain) while the solver runs the
	// first.
	helper *helper
	// values counts the assemblies of the rows' numbers (Jacobians,
	// compliances) by the world: solves within one step that move only
	// bounds (Rebounding constraints) see the same count, and an active
	// set keeps its factorization. Zero: not counted.
	values uint64
}

// ProblemRow is one row's Jacobian and M⁻¹-weighted Jacobian per body.
type ProblemRow struct {
	Bodies   []*Body
	J, MinvJ []Jacobian
}

// RowBlock names block K of row Row.
type RowBlock struct{ Row, K int }

// BodyRows lists the row blocks acting on the dynamic body of slot Slot.
type BodyRows struct {
	Slot   int
	Blocks []RowBlock
}

// structure identifies a problem's structure for the solvers that keep
// work done on it: its Layout, and its rows' storage, since Layout counts
// from 1 in every World and a solver may be given problems of several.
type structure struct {
	layout int
	rows   *ProblemRow
	n      int
}

func (p *Problem) structure() structure {
	s := structure{layout: p.Layout, n: len(p.Rows)}
	if len(p.Rows) > 0 {
		s.rows = &p.Rows[0]
	}
	return s
}

// pattern appends p's coupling of rows to bodies to dst: the number of
// rows and of ByBody entries, then per entry its number of blocks and
// each block's row and body index. Rows rebuilt with the same coupling (a
// wire's contact node moved to another edge of the same sheave) keep the
// sparse solver's ordering and analysis.
func (p *Problem) pattern(dst []int) []int {
	dst = append(dst, len(p.Rows), len(p.ByBody))
	for _, e := range p.ByBody {
		dst = append(dst, len(e.Blocks))
		for _, b := range e.Blocks {
			dst = append(dst, b.Row, b.K)
		}
	}
	return dst
}

// hasPattern reports whether p's coupling is q (pattern).
func (p *Problem) hasPattern(q []int) bool {
	if len(q) < 2 || q[0] != len(p.Rows) || q[1] != len(p.ByBody) {
		return false
	}
	q = q[2:]
	for _, e := range p.ByBody {
		if len(q) < 1+2*len(e.Blocks) || q[0] != len(e.Blocks) {
			return false
		}
		q = q[1:]
		for _, b := range e.Blocks {
			if q[0] != b.Row || q[1] != b.K {
				return false
			}
			q = q[2:]
		}
	}
	return len(q) == 0
}

func (p *Problem) resize(rows, dynamic int) {
	p.Rows = reuse(p.Rows, rows)
	p.Sigma = reuse(p.Sigma, rows)
	p.B = reuse(p.B, rows)
	p.Lo = reuse(p.Lo, rows)
	p.Hi = reuse(p.Hi, rows)
	p.Start = reuse(p.Start, rows)
	p.Lambda = reuse(p.Lambda, rows)
	p.sums = reuse(p.sums, rows)
	p.Slots = dynamic
}

// index lists the rows' blocks by body (ByBody). entry is scratch of
// Slots zeros, left zero.
func (p *Problem) index(entry []int) {
	defer func() {
		for _, e := range p.ByBody {
			entry[e.Slot] = 0
		}
	}()
	p.ByBody = p.ByBody[:0]
	for r, row := range p.Rows {
		for k, b := range row.Bodies {
			if b.Kind != Dynamic {
				continue
			}
			if entry[b.slot] == 0 {
				// An entry's block list of the last index is reused.
				if len(p.ByBody) < cap(p.ByBody) {
					p.ByBody = p.ByBody[:len(p.ByBody)+1]
					e := &p.ByBody[len(p.ByBody)-1]
					e.Slot, e.Blocks = b.slot, e.Blocks[:0]
				} else {
					p.ByBody = append(p.ByBody, BodyRows{Slot: b.slot})
				}
				entry[b.slot] = len(p.ByBody)
			}
			e := &p.ByBody[entry[b.slot]-1]
			e.Blocks = append(e.Blocks, RowBlock{r, k})
		}
	}
}

// Schur writes S = G M⁻¹ Gᵀ + Σ into the n×n row-major s (n = len(p.Rows)).
func (p *Problem) Schur(s []float64) {
	n := len(p.Rows)
	for i := range s[:n*n] {
		s[i] = 0
	}
	for _, e := range p.ByBody {
		for _, a := range e.Blocks {
			ja := p.Rows[a.Row].J[a.K]
			for _, c := range e.Blocks {
				s[a.Row*n+c.Row] += ja.Dot(p.Rows[c.Row].MinvJ[c.K])
			}
		}
	}
	for i := 0; i < n; i++ {
		s[i*n+i] += p.Sigma[i]
	}
}

// velocityChange is a dynamic body's accumulated M⁻¹Gᵀλ, linear then
// angular: what impulses of some rows do to its velocity.
type velocityChange [2][3]float64

// add adds the velocity change of impulse l through a row's M⁻¹-weighted
// Jacobian block m.
func (d *velocityChange) add(l float64, m *Jacobian) {
	d[0][0] += l * m.Lin.X
	d[0][1] += l * m.Lin.Y
	d[0][2] += l * m.Lin.Z
	d[1][0] += l * m.Ang.X
	d[1][1] += l * m.Ang.Y
	d[1][2] += l * m.Ang.Z
}

// rate returns the row rate J·Δv of a Jacobian block j for the change.
func (d *velocityChange) rate(j *Jacobian) float64 {
	return j.Lin.X*d[0][0] + j.Lin.Y*d[0][1] + j.Lin.Z*d[0][2] + j.Ang.X*d[1][0] + j.Ang.Y*d[1][1] + j.Ang.Z*d[1][2]
}
