package multibody

import (
	"fmt"
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/core/state"
)

// ActiveSet solves a problem with bounded rows through a direct solver that
// takes unbounded rows only (Chain): a row found outside its bounds is
// pinned at the bound and the others are solved again, until every free
// row lies within its bounds and every pinned row presses against its
// bound (complementarity: the residual w = Sλ − B is ≥ 0 at a lower bound,
// ≤ 0 at an upper one). A cable whose joints cannot push more than their
// bending carries has few such rows, and they settle in a few solves.
//
// A row is pinned by a compliance so large that its impulse equals the
// bound to within 1e-12 of the row's scale (Σ = S_ii/pinScale, B = Σ·bound),
// so that the inner solver keeps its structure; the impulse is then set to
// the bound exactly.
type ActiveSet struct {
	// Solver solves the unbounded problems. It is the ActiveSet's own: a
	// solve again within a step substitutes in the factorization the
	// Solver holds from the last, which another user would overwrite.
	Solver Solver
	// MaxSolves bounds the solves of one step (solvesPerRow × the bounded
	// rows, plus 3, if 0); a step that needs more fails with an error.
	MaxSolves int
	// WarmStart starts each solve from the rows pinned at the end of the
	// last one, as long as the problem's layout holds: frictional contacts
	// that slid in the last step mostly slide in this one.
	WarmStart bool
	last      structure

	free    Problem   // the problem as the inner solver sees it
	inf     []float64 // n times −∞, then n times +∞: the free problem's limits
	state   []int8    // per row: 0 free, −1 at Lo, +1 at Hi
	bounded []int     // rows with a finite bound
	diag    []float64 // S_ii of the bounded rows, found when a row is pinned
	dv      []velocityChange
	// residual holds residuals' result, reused, and scale the magnitude
	// of each residual's terms (its rounding is about 1e-16 of it).
	residual, scale []float64
	// What the inner solver last factored: the problem, its values' count
	// and the rows pinned then. A solve of the same values and pins
	// (again after a Rebounding constraint moved only bounds) substitutes
	// in that factor; the inner solver is the ActiveSet's own.
	factored       *Problem
	factoredValues uint64
	factoredState  []int8
}

// blockSolves is how many solves move every row found on the wrong side
// at once; after them, a solve moves only the first such row (Murty's
// least-index rule), which cannot cycle for the positive definite S + Σ.
// Many rows coupled nearly dependently (a wire stuck over the corners of
// a drum, whose stick rows all act on the same two end nodes) made the
// moves of whole sets cycle.
const blockSolves = 8

// pinScale is how much stiffer than the row itself a pinned row's
// compliance holds it at its bound.
const pinScale = 1e-12

// Solve implements Solver.
func (a *ActiveSet) Solve(p *Problem) error {
	if _, ok := a.Solver.(Factorizer); ok {
		if err := a.Factor(p); err != nil {
			return err
		}
		return a.Substitute(p)
	}
	a.prepare(p)
	for solve := 0; solve < a.limit(); solve++ {
		a.pin(p, true)
		if err := a.Solver.Solve(&a.free); err != nil {
			return err
		}
		if !a.settle(p, solve >= blockSolves) {
			return nil
		}
	}
	return fmt.Errorf("bounded rows did not settle in %d solves", a.limit())
}

// Factor implements Factorizer (when Solver is one): factors the problem
// with every row free.
func (a *ActiveSet) Factor(p *Problem) error {
	f, ok := a.Solver.(Factorizer)
	if !ok {
		return fmt.Errorf("active set: %T cannot factor once for several right-hand sides", a.Solver)
	}
	a.prepare(p)
	a.pin(p, true)
	if a.factored == p && p.values != 0 && a.factoredValues == p.values && slices.Equal(a.factoredState, a.state) {
		return nil // the same matrix as factored: only bounds moved
	}
	return a.factor(f, p)
}

// factor has f factor the free problem of p with the current pins, and
// notes what it factored.
func (a *ActiveSet) factor(f Factorizer, p *Problem) error {
	a.factored = nil
	if err := f.Factor(&a.free); err != nil {
		return err
	}
	a.factored, a.factoredValues, a.factoredState = p, p.values, append(a.factoredState[:0], a.state...)
	return nil
}

// Substitute implements Factorizer: solves for p.B, factoring again only
// when the set of pinned rows changes (block Gauss–Seidel calls it once
// per sweep with new right-hand sides).
func (a *ActiveSet) Substitute(p *Problem) error {
	f := a.Solver.(Factorizer)
	for solve := 0; solve < a.limit(); solve++ {
		a.pin(p, false)
		if err := f.Substitute(&a.free); err != nil {
			return err
		}
		if !a.settle(p, solve >= blockSolves) {
			return nil
		}
		a.pin(p, true)
		if err := a.factor(f, p); err != nil {
			return err
		}
	}
	return fmt.Errorf("bounded rows did not settle in %d solves", a.limit())
}

// prepare copies p into the free problem and finds its bounded rows, all
// free to start with.
func (a *ActiveSet) prepare(p *Problem) {
	n := len(p.Rows)
	if len(a.inf) != 2*n {
		a.inf = make([]float64, 2*n)
		for i := range a.inf {
			a.inf[i] = math.Inf(1)
			if i < n {
				a.inf[i] = math.Inf(-1)
			}
		}
	}
	sigma, b := a.free.Sigma, a.free.B
	a.free = *p
	// The free problem's rows are unbounded: p's marks of rows pinned
	// at [0, 0] (Problem.pinned) do not hold for it, and a Gauss–Seidel
	// inside would pass those rows over.
	a.free.Lo, a.free.Hi, a.free.free, a.free.pinned = a.inf[:n], a.inf[n:], true, nil
	// B is copied by pin, which every use of the free problem begins with.
	a.free.Sigma, a.free.B = append(sigma[:0], p.Sigma...), slices.Grow(b[:0], len(p.B))[:len(p.B)]
	a.bounded = a.bounded[:0]
	a.diag = a.diag[:0]
	// Locals of one length: no bounds checks, and no reloads of p's
	// fields, which the appends could have written as far as the compiler
	// knows.
	lo, hi := p.Lo[:n], p.Hi[:n]
	for i, l := range lo {
		if !math.IsInf(l, -1) || !math.IsInf(hi[i], 1) {
			a.bounded = append(a.bounded, i)
			a.diag = append(a.diag, 0)
		}
	}
	if a.WarmStart && a.last == p.structure() && len(a.state) == n {
		for k, i := range a.bounded {
			switch {
			case a.state[i] < 0 && math.IsInf(p.Lo[i], -1), a.state[i] > 0 && math.IsInf(p.Hi[i], 1):
				a.state[i] = 0
			case a.state[i] != 0:
				a.diag[k] = p.rowDiagonal(i) + p.Sigma[i]
			}
		}
		for i := range a.state { // rows no longer bounded
			if a.state[i] != 0 && math.IsInf(p.Lo[i], -1) && math.IsInf(p.Hi[i], 1) {
				a.state[i] = 0
			}
		}
		return
	}
	a.last = p.structure()
	if cap(a.state) < n {
		a.state = make([]int8, n)
	}
	a.state = a.state[:n]
	clear(a.state)
	// A cold start holds each bounded row where its constraint expects it
	// (Row.Start), and a row whose bounds meet at them: that row has one
	// impulse only, and a solve with it free would be one too many.
	for k, i := range a.bounded {
		st := int8(0)
		if len(p.Start) == n {
			st = p.Start[i]
		}
		switch {
		case p.Lo[i] == p.Hi[i]:
			st = -1
		case st < 0 && math.IsInf(p.Lo[i], -1), st > 0 && math.IsInf(p.Hi[i], 1):
			st = 0
		}
		if st != 0 {
			a.state[i] = st
			a.diag[k] = p.rowDiagonal(i) + p.Sigma[i]
		}
	}
}

// solvesPerRow is the default budget of solves per bounded row. Murty's
// rule settles in finitely many solves, but where rows act nearly
// dependently it visits their pins much as a binary counter does, and
// the count grows far faster than the rows: a wire wound five turns on a
// box and gripping it by friction (μ = 0.2 … 0.8, boxes of 0.3 to 0.8 m)
// took up to 13.4 solves a row, 241 for 18 rows, where 2 a row were
// budgeted and the step failed; eight turns take 21 to 60 a row and
// twelve up to 680, and still fail. The budget bounds the work of such a
// step, which then fails with an error; what would settle them is a
// pivoting that does not grow so, or fewer nearly dependent stick rows.
// A crane's wire on the ground and its sheaves (218 bounded rows)
// settles within 0.4 a row.
const solvesPerRow = 16

// limit returns the budget of solves of one step (see MaxSolves).
func (a *ActiveSet) limit() int {
	if a.MaxSolves > 0 {
		return a.MaxSolves
	}
	return 3 + solvesPerRow*len(a.bounded)
}

// pin writes the free problem's right-hand side (and, with sigma, its
// compliances) for the current pins: a pinned row gets Σ = S_ii/pinScale
// and B = Σ·bound, a free row its own. The right-hand side comes from p
// every time: block Gauss–Seidel changes it between sweeps.
func (a *ActiveSet) pin(p *Problem, sigma bool) {
	copy(a.free.B, p.B)
	for k, i := range a.bounded {
		if sigma {
			a.free.Sigma[i] = p.Sigma[i]
		}
		if a.state[i] == 0 {
			continue
		}
		bound := p.Lo[i]
		if a.state[i] > 0 {
			bound = p.Hi[i]
		}
		if sigma {
			a.free.Sigma[i] = a.diag[k] / pinScale
		}
		a.free.B[i] = a.free.Sigma[i] * bound
	}
}

// settle sets the pinned rows' impulses to their bounds exactly and moves
// rows between free and pinned (update; only the first with single); it
// reports whether any moved.
func (a *ActiveSet) settle(p *Problem, single bool) bool {
	for _, i := range a.bounded {
		switch a.state[i] {
		case -1:
			p.Lambda[i] = p.Lo[i]
		case 1:
			p.Lambda[i] = p.Hi[i]
		}
	}
	return a.update(p, single)
}

// update moves rows between free and pinned after a solve of p (whose
// Lambda holds the solution with pinned rows at their bounds): free rows
// outside their bounds get pinned, pinned rows whose residual pulls them
// off their bound get freed. It reports whether anything moved; with
// single, only the first row that should move does.
func (a *ActiveSet) update(p *Problem, single bool) bool {
	moved := false
	// The residuals and the impulses' floor, found when a row first needs
	// them (the same rows need both): a step whose bounded rows are all
	// free and within their bounds finds neither.
	var w []float64
	var floor float64
	for k, i := range a.bounded {
		if moved && single {
			break
		}
		l := p.Lambda[i]
		switch a.state[i] {
		case 0:
			// Past a bound by more than rounding: a row whose impulse
			// sits at its bound (a slack segment, a contact without
			// load) comes out a few ulps beyond it as often as not, and
			// pinning it for that made a wire lying still on the ground
			// flip such rows back and forth without end.
			// (past is positive exactly where l is beyond a bound: two
			// floats that compare unequal, infinities included, have a
			// nonzero difference.)
			var past float64
			side := int8(-1)
			if l < p.Lo[i] {
				past = p.Lo[i] - l
			} else if l > p.Hi[i] {
				past, side = l-p.Hi[i], 1
			}
			if !(past > 0) {
				break
			}
			if w == nil {
				w, floor = a.residuals(p), impulseFloor(p.Lambda)
			}
			if past <= max(a.rounding(p, i, l, a.scale[k]), floor) {
				break
			}
			a.state[i], moved = side, true
			if a.diag[k] == 0 {
				a.diag[k] = p.rowDiagonal(i) + p.Sigma[i]
			}
		default:
			if p.Lo[i] == p.Hi[i] {
				// Bounds that meet (friction under a zero normal
				// force) leave one impulse whatever the residual's
				// sign: freeing the row would pin it again.
				continue
			}
			if w == nil {
				w, floor = a.residuals(p), impulseFloor(p.Lambda)
			}
			// Rounding in w is relative to its terms: the pinned
			// impulse's S_ii·λ, or, at a zero bound (a slack wire), the
			// right-hand side.
			tol := max(1e-9*max(a.diag[k]*math.Abs(l), a.scale[k]), floor*a.diag[k], math.SmallestNonzeroFloat64)
			if (a.state[i] < 0 && w[k] < -tol) || (a.state[i] > 0 && w[k] > tol) {
				a.state[i], moved = 0, true
			}
		}
	}
	return moved
}

// impulseFloor returns the floor that a problem's impulses set under
// every row's rounding, 1e-12 of the largest: a row that carries nothing
// (a slack segment of a wire lying still) sits at its bound to within
// 1e-21 N·s either way, and its residual's own terms are no larger.
func impulseFloor(lambda []float64) float64 {
	// max(floor, |l|) written out: |l| is never −0, so of what the
	// builtin's form takes care of (NaN, −0 below +0, at two MINSD and
	// three sign flips an impulse) only a NaN needs a test, which then
	// stays the floor as it would with max.
	floor := 0.0
	for _, l := range lambda {
		if a := math.Abs(l); a > floor || a != a {
			floor = a
		}
	}
	return floor * 1e-12
}

// rounding returns the rounding (N·s) of row i's impulse l in a solve of
// p: 1e-9 of the larger of l and the impulse that the terms of its
// residual (of magnitude scale: its right-hand side, its coupling to the
// other rows' impulses) would give on the row's diagonal.
func (a *ActiveSet) rounding(p *Problem, i int, l, scale float64) float64 {
	d := p.rowDiagonal(i) + p.Sigma[i]
	r := math.Abs(l)
	if d > 0 {
		r = max(r, scale/d)
	}
	return 1e-9 * r
}

// residuals returns w = (G M⁻¹ Gᵀ + Σ)λ − B for the bounded rows, in the
// order of a.bounded, and sets a.scale to the magnitudes of their terms.
func (a *ActiveSet) residuals(p *Problem) []float64 {
	if len(a.dv) != p.Slots {
		a.dv = make([]velocityChange, p.Slots)
	}
	lambda, rows := p.Lambda, p.Rows
	for _, e := range p.ByBody {
		// velocityChange.add written out on locals: the sums stay in
		// registers, where the array's were loaded and stored at every
		// block.
		var lx, ly, lz, ax, ay, az float64
		for _, rb := range e.Blocks {
			l, m := lambda[rb.Row], &rows[rb.Row].MinvJ[rb.K]
			lx += l * m.Lin.X
			ly += l * m.Lin.Y
			lz += l * m.Lin.Z
			ax += l * m.Ang.X
			ay += l * m.Ang.Y
			az += l * m.Ang.Z
		}
		a.dv[e.Slot] = velocityChange{{lx, ly, lz}, {ax, ay, az}}
	}
	w, scale := a.residual[:0], a.scale[:0]
	for _, i := range a.bounded {
		row := &p.Rows[i]
		s := p.Sigma[i]*p.Lambda[i] - p.B[i]
		m := math.Abs(p.Sigma[i]*p.Lambda[i]) + math.Abs(p.B[i])
		for kb, b := range row.Bodies {
			if b.Kind != Dynamic {
				continue
			}
			r := a.dv[b.slot].rate(&row.J[kb])
			s += r
			m += math.Abs(r)
		}
		w, scale = append(w, s), append(scale, m)
	}
	a.residual, a.scale = w, scale
	return w
}

// rowDiagonal returns J_i M⁻¹ J_iᵀ of row i.
func (p *Problem) rowDiagonal(i int) float64 {
	row := &p.Rows[i]
	d := 0.0
	for k, b := range row.Bodies {
		if b.Kind == Dynamic {
			d += row.J[k].Dot(row.MinvJ[k])
		}
	}
	return d
}

// Warm returns the state (state.Stater) of the rows a warm-started
// ActiveSet will start the next solve of w from: a world saved and
// restored (its constraints rebuilt, its rows laid out again) then
// continues bitwise identically. Without WarmStart, or when w's rows
// change before the next solve, the next solve starts cold and only that
// is saved. Loaded, w's bodies and constraints are those it had when it
// was saved.
func (a *ActiveSet) Warm(w *World) state.Stater { return warm{a, w} }

type warm struct {
	a *ActiveSet
	w *World
}

// maxWarmRows bounds the rows a saved warm start may name.
const maxWarmRows = 1 << 26

// State walks the row count, −1 for a cold start, then each row's state:
// −1 pinned at its lower bound, 0 free, 1 at its upper bound.
func (ws warm) State(c *state.Codec) {
	a, w := ws.a, ws.w
	n := -1.0
	if c.Saving() && a.WarmStart && !w.dirty && a.last == w.prob.structure() && len(a.state) == len(w.prob.Rows) {
		n = float64(len(a.state))
	}
	n = c.Range("active set rows", "", -1, maxWarmRows, &n)
	c.Check(n == math.Trunc(n), "active set rows %g: not a whole number", n)
	if c.Loading() && n < 0 {
		c.Then(func() error { a.last = structure{}; return nil })
	}
	if n < 0 {
		return
	}
	if !c.Saving() && w.dirty {
		// The rows are the restored world's: lay them out (no state).
		if err := w.layout(); err != nil {
			c.Check(false, "laying out the world's rows: %v", err)
			return
		}
	}
	c.Check(n == float64(len(w.prob.Rows)), "active set of %g rows for a world of %d rows", n, len(w.prob.Rows))
	rows := int(n)
	if c.Loading() {
		a.state = slices.Grow(a.state[:0], rows)[:rows]
	}
	for i := 0; i < rows && i < len(w.prob.Rows); i++ {
		x := 0.0
		if c.Saving() {
			x = float64(a.state[i])
		}
		v := c.Range("active set row state", "", -1, 1, &x)
		if v != math.Trunc(v) {
			c.Refuse("active set row %d has state %g, want −1, 0 or 1", i, v)
		}
		if c.Loading() {
			a.state[i] = int8(v)
		}
	}
	if c.Loading() {
		c.Then(func() error { a.last = w.prob.structure(); return nil })
	}
}
