package multibody

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/stability"
	"github.com/cablefmu/cablefmu/core/state"
)

// ErrDiverged reports a simulation whose state left the finite range, or
// a range no cable reaches (a model may check its own, as the HMR wire does).
var ErrDiverged = errors.New("simulation diverged")

// DivergenceLimit bounds positions (m) and speeds (m/s, rad/s) that a cable
// simulation can reach; beyond it the state is taken as diverged (and a
// saved state holding more as damaged).
const DivergenceLimit = state.Limit

// World owns bodies and constraints and steps them with SPOOK.
type World struct {
	// Gravity is the gravitational acceleration (m/s²).
	Gravity geom.Vec3
	// Solver solves the Schur complement system each step.
	Solver Solver
	// ExplicitTurning leaves the geometric stiffness of Turning constraints
	// explicit everywhere, as SPOOK has it ([SL08]): light segments under
	// heavy loads then vibrate apart at steps that cannot resolve them. For
	// reproducing the papers; see takeTurnStiffness.
	ExplicitTurning bool
	// Parallel, unless Serial, splits the steps of a world of at least
	// ParallelBodies dynamic bodies in two halves by body slot, run on
	// two goroutines
	// where the processors allow: the bodies' passes, the constraints'
	// Update, TurnStiffness and Apply and the rows' assembly of each half,
	// and the Chain solver's factorization and substitution from the two
	// ends (Gauss–Seidel between groups and the active set are not
	// split). The constraints across the split are taken apart, after the
	// halves. Its constraints must then, in Off, Update, TurnStiffness and
	// Apply, change nothing but their own state and rows and the pulls of
	// their own bodies (Body.AddPull), and read nothing but those, their
	// bodies and what no constraint changes in the same calls. The results
	// are the same on one processor or many, and differ from a world
	// without Parallel only in rounding: a body at the split gets the
	// pulls of the constraints across it after its own. A change takes
	// effect at the next step, which lays the rows out again.
	Parallel Parallelism

	bodies  []*Body
	dynamic []*Body
	// fixedMass holds the bodies whose mass and inertia a state must give
	// as they are (FixMass).
	fixedMass   map[*Body]bool
	constraints []Constraint
	rowStart    []int // first row of each constraint
	rows        []Row
	// prob holds every row's blocks (Row.J, ProblemRow.MinvJ) in its
	// js and minvJs, a constraint's together (Problem.blockStart), and
	// the rows' sums of assemble. entry is scratch of the layout.
	prob  Problem
	entry []int
	// switched holds each constraint as a Switched, or nil; off says where
	// a switched constraint's rows stand (rowsOn, …), offH the step size
	// of the last assembly, for which rowsOff rows hold.
	switched []Switched
	// turning holds the constraints that are Turning, rebounding those
	// that are Rebounding with their first row.
	turning    []Turning
	rebounding []reboundingAt
	off        []rowState
	// overwrites marks the constraints that are Overwriting and say so:
	// their rows are not reset before Update.
	overwrites []bool
	offH       float64
	dirty      bool
	// relaxed counts the rows of the last step that the step could not
	// resolve and that got numerical relaxation (stability.Damping).
	relaxed int
	// turned counts the bodies of the last step whose turning stiffness
	// the step took in (Body.takeTurnStiffness).
	turned int
	// substeps, while on, sums what the substeps of a step exert (Substeps).
	substeps *stepSums
	// halves share out a step's passes (Parallel; all in the first
	// without it), cross lists the constraints between them, with the
	// Turning ones and the assembly's terms. fixed holds the bodies that
	// are not dynamic; impulses lists the blocks acting on each body, the
	// dynamic ones' by slot and then fixed's, from impulseStart, and runs
	// them by constraint, each body's from runStart.
	halves       [2]half
	cross        []int
	crossTurning []Turning
	crossTerms   rowTerms
	fixed        []*Body
	impulseStart []int
	impulses     []impulseRef
	runStart     []int
	runs         []impulseRun
	helper       *helper
	parallel     Parallelism // Parallel as the last layout took it
}

// Reevaluate makes the next step evaluate and assemble every constraint's
// rows, as after a change of layout, keeping the layout and the solver's
// analysis: a state loaded into the world's own bodies and constraints (a
// master restoring the state it saved at a step's start) must not keep the
// rows that the step it throws away left switched off.
func (w *World) Reevaluate() {
	for i := range w.off {
		w.off[i] = rowsOn
	}
}

// rowState says whether a constraint's rows need evaluating and assembling.
type rowState int8

const (
	rowsOn        rowState = iota // evaluated by Update
	rowsSwitching                 // off, evaluated by Update, not yet assembled
	rowsSwitched                  // off, assembled: applied (zeros) once more
	rowsOff                       // off, left as the last assembly made them, not applied
	// rowsHeld: off, left as the last assembly made them, but holding the
	// sums of a step taken in substeps (Substeps' ApplyStep): the next
	// step that keeps them off applies their zeros once more.
	rowsHeld
)

// Relaxed returns how many compliant rows of the last step vibrate faster
// than the step resolves and were given the numerical relaxation time
// stability.Relaxation·h on top of their own damping.
func (w *World) Relaxed() int { return w.relaxed }

// Turned returns how many bodies of the last step turn faster under their
// constraints' geometric stiffness than the step resolves, and had it
// taken into the step (see Turning and World.update).
func (w *World) Turned() int { return w.turned }

// NewWorld returns an empty world with the dense direct solver.
func NewWorld(gravity geom.Vec3) *World {
	return &World{Gravity: gravity, Solver: &Dense{}, dirty: true}
}

// AddBody adds b and returns it.
func (w *World) AddBody(b *Body) *Body {
	b.slot = -1
	if b.Kind == Dynamic {
		b.slot = len(w.dynamic)
		w.dynamic = append(w.dynamic, b)
	}
	w.bodies = append(w.bodies, b)
	w.dirty = true
	return b
}

// AddConstraint adds c; its bodies must be in the world.
func (w *World) AddConstraint(c Constraint) {
	w.constraints = append(w.constraints, c)
	w.dirty = true
}

// Bodies returns the world's bodies in insertion order.
func (w *World) Bodies() []*Body { return w.bodies }

// Constraints returns the world's constraints in insertion order.
func (w *World) Constraints() []Constraint { return w.constraints }

// Remove takes out of the world the bodies for which dropBody and the
// constraints for which dropConstraint report true (either may be nil);
// the others keep their order. A model that changes its resolution (the
// HMR wire's nodes and segments) removes and adds as it goes; the rows
// are laid out again at the next step.
func (w *World) Remove(dropBody func(*Body) bool, dropConstraint func(Constraint) bool) {
	if dropBody != nil {
		w.bodies = slices.DeleteFunc(w.bodies, dropBody)
		w.dynamic = w.dynamic[:0]
		for _, b := range w.bodies {
			b.slot = -1
			if b.Kind == Dynamic {
				b.slot = len(w.dynamic)
				w.dynamic = append(w.dynamic, b)
			}
		}
	}
	if dropConstraint != nil {
		w.constraints = slices.DeleteFunc(w.constraints, dropConstraint)
	}
	w.dirty = true
}

// layout sizes the row buffers after bodies or constraints changed.
func (w *World) layout() error {
	n := 0
	w.rowStart = w.rowStart[:0]
	for _, c := range w.constraints {
		for _, b := range c.Bodies() {
			if b.Kind == Dynamic && (b.slot < 0 || b.slot >= len(w.dynamic) || w.dynamic[b.slot] != b) {
				return fmt.Errorf("constraint uses body %q that is not in the world", b.Name)
			}
		}
		w.rowStart = append(w.rowStart, n)
		n += c.Rows()
	}
	// The arrays of the last layout are reused: a wire changes its rows
	// many times a second, and each new set of arrays is garbage soon.
	w.rows = reuse(w.rows, n)
	w.prob.resize(n, len(w.dynamic))
	w.switched, w.off = reuse(w.switched, len(w.constraints)), reuse(w.off, len(w.constraints))
	w.turning, w.rebounding = w.turning[:0], w.rebounding[:0]
	w.overwrites = reuse(w.overwrites, len(w.constraints))
	for i, c := range w.constraints {
		w.switched[i], _ = c.(Switched)
		if o, ok := c.(Overwriting); ok {
			w.overwrites[i] = o.OverwritesRows()
		}
		if t, ok := c.(Turning); ok {
			w.turning = append(w.turning, t)
		}
		if r, ok := c.(Rebounding); ok {
			w.rebounding = append(w.rebounding, reboundingAt{r, i, w.rowStart[i], w.rowStart[i] + c.Rows()})
		}
	}
	// All rows' blocks in two arrays, in row order: every phase of a step
	// walks them in that order.
	blocks := 0
	for _, c := range w.constraints {
		blocks += c.Rows() * len(c.Bodies())
	}
	p := &w.prob
	p.js, p.minvJs = reuse(p.js, blocks), reuse(p.minvJs, blocks)
	js, minvJs := p.js, p.minvJs
	p.blockStart = p.blockStart[:0]
	first := 0
	for i, c := range w.constraints {
		nb := len(c.Bodies())
		p.blockStart = append(p.blockStart, first)
		first += c.Rows() * nb
		for r := 0; r < c.Rows(); r++ {
			row := &w.rows[w.rowStart[i]+r]
			row.J, js = js[:nb:nb], js[nb:]
			pr := &w.prob.Rows[w.rowStart[i]+r]
			pr.Bodies = c.Bodies()
			pr.J = row.J
			pr.MinvJ, minvJs = minvJs[:nb:nb], minvJs[nb:]
		}
	}
	p.blockStart = append(p.blockStart, first)
	w.prob.Groups = append(append(w.prob.Groups[:0], w.rowStart...), n)
	w.prob.pinned = reuse(w.prob.pinned, len(w.constraints))
	w.entry = reuse(w.entry, len(w.dynamic))
	w.prob.index(w.entry)
	w.prob.Layout++
	if err := w.layoutHalves(); err != nil {
		return err
	}
	w.dirty = false
	return nil
}

// reuse returns s resized to n zero elements, in its own array when that
// is large enough.
func reuse[T any](s []T, n int) []T {
	s = grow(s, n)
	clear(s)
	return s
}

// Step advances the world by h seconds.
func (w *World) Step(h float64) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("step size %g s: must be positive and finite", h)
	}
	hp := w.helper
	if hp == nil || w.dirty || len(w.halves[1].bodies) == 0 || w.Parallel != ParallelMeasured {
		if hp != nil {
			hp.alone = false
		}
		return w.step(h)
	}
	hp.plan()
	start := time.Now()
	err := w.step(h)
	hp.took(time.Since(start))
	return err
}

// step is Step once h is checked.
func (w *World) step(h float64) error {
	if _, err := w.Assemble(h); err != nil {
		return err
	}
	if len(w.rows) > 0 {
		if err := w.solve(h); err != nil {
			if bad := w.nonFiniteRow(); bad != "" {
				return fmt.Errorf("constraint solve: %s: %w", bad, ErrDiverged)
			}
			return fmt.Errorf("constraint solve: %w", err)
		}
	}
	w.integrate(h)
	if w.substeps != nil && w.substeps.on {
		w.substeps.add(w, h)
	}
	if w.halves[0].bad || w.halves[1].bad {
		return w.check()
	}
	return nil
}

// MaxRebounds bounds the solves of one step that Rebounding constraints
// ask for after the first.
const MaxRebounds = 16

// solve solves the step's problem, again as long as a Rebounding
// constraint moves its bounds (at most MaxRebounds times; the last
// solution stands, within the bounds it was solved for).
func (w *World) solve(h float64) error {
	p := &w.prob
	for again := 0; ; again++ {
		if err := w.Solver.Solve(p); err != nil {
			return err
		}
		if again == MaxRebounds {
			return nil
		}
		moved := false
		pinned := p.pinned
		for i := range w.rebounding {
			r := &w.rebounding[i] // not a copy: five words
			if pinned[r.index] {
				continue // off, most contacts most steps
			}
			if r.Rebound(h, p.Lambda[r.start:r.end], p.Lo[r.start:r.end], p.Hi[r.start:r.end]) {
				moved = true
			}
		}
		if !moved {
			return nil
		}
	}
}

// Assemble evaluates the constraints and builds the step's Schur
// complement data for a step of h seconds without solving it: the first
// half of Step, exposed so that solvers can be measured on their own.
func (w *World) Assemble(h float64) (*Problem, error) {
	if err := w.update(h); err != nil {
		return nil, err
	}
	w.assemble(h)
	return &w.prob, nil
}

// predict sets the bodies' unconstrained prediction v + h M⁻¹ f, the
// gyroscopic term implicit.
func (w *World) predict(bodies []*Body, h float64) {
	for _, b := range bodies {
		f := b.Force.AddScaled(b.Mass, w.Gravity)
		b.predVel = b.Vel.AddScaled(h*b.invMass, f)
		b.predAng = b.AngVel.Add(b.invI.MulVec(b.Torque.Scale(h).Add(b.gyroscopicImpulse(h))))
	}
}

// update lays out the rows if bodies or constraints changed, refreshes the
// inertia of the dynamic bodies and lets every constraint evaluate its
// rows at the current state.
func (w *World) update(h float64) error {
	if w.dirty || w.Parallel != w.parallel {
		if err := w.layout(); err != nil {
			return err
		}
	}
	for _, b := range w.fixed {
		b.rot = b.Rot.Matrix() // for Body.ToWorld
	}
	w.run(passUpdate, h)
	w.updateConstraints(w.cross, h)
	if w.turns() {
		for _, t := range w.crossTurning {
			t.TurnStiffness()
		}
	}
	w.run(passInertia, h)
	w.turned = w.halves[0].turned + w.halves[1].turned
	return nil
}

// updateConstraints lets the listed constraints evaluate their rows at
// the current state, but for those switched off that stay off.
func (w *World) updateConstraints(list []int, h float64) {
	// Locals, cut to the constraints' number: the calls through the
	// interfaces would make the compiler reload the fields at every
	// constraint.
	constraints := w.constraints
	n := len(constraints)
	switched, off, overwrites := w.switched[:n], w.off[:n], w.overwrites[:n]
	groups, allRows, offH := w.prob.Groups[:n+1], w.rows, w.offH // groups: the constraints' rows, as laid out
	for _, i := range list {
		c := constraints[i]
		if s := switched[i]; s != nil && s.Off(h) {
			if st := off[i]; st >= rowsSwitched && h == offH {
				off[i] = rowsOff
				if st == rowsHeld {
					off[i] = rowsSwitched
				}
				continue // the same rows as in the last step
			}
			off[i] = rowsSwitching
		} else {
			off[i] = rowsOn
		}
		rows := allRows[groups[i]:groups[i+1]]
		if !overwrites[i] {
			resetRows(rows)
		}
		c.Update(h, rows)
	}
}

// takeTurnStiffness sums the geometric stiffness K of the Turning
// constraints on every dynamic body and, for a body whose turning
// vibration under it the step cannot resolve (stability.TurnUnresolved),
// takes it into the step as the change of the constraint torques over the
// step: the body turns with the inertia I + s h²K (s = stability.TurnShare,
// the least share that brings its fastest turning to ωh =
// stability.TurnLimit), so that within the step a turn meets the
// resistance that its lever arms will meet at its end, instead of a step
// late. The resistance is to a change of the turning rate, not to the rate
// itself: backward Euler's full term, (I + h²K) ω₊ = I ω + …, would also
// brake a body that turns with the rope's line (a swinging rope loses 80 %
// of its swing energy in 120 s at h = 1/60 s); its damping is given
// instead to the relative turning, in the rows that carry the geometric
// stiffness between the bodies (stability.TurnDamping).
// Bodies the step resolves keep their inertia, and the stiffness acts a
// step late as SPOOK has it. The constraints' pulls are summed in the
// update's pass (passUpdate); this is the bodies' part, for half s, which
// then sets every body's inverse inertia.
func (w *World) takeTurnStiffness(s *half, h float64) {
	turn := w.turns()
	s.turned = 0
	for _, b := range s.bodies {
		if turn {
			b.takeTurnStiffness(h)
			if b.turning {
				s.turned++
			}
		}
		if !b.turning { // a turning body has its stiffened inertia's inverse
			b.refreshInverseInertia()
		}
	}
}

// assemble fills the Schur complement data: Σ, the right-hand side and the
// bounds of every row (package doc; [SLNB11] eqs. 8–11). A compliant row's
// relaxation time is its own damping, raised to stability.Relaxation·h
// only where the row vibrates faster than h resolves
// (stability.UnresolvedCompliant, judged by its stiffness 1/ε plus its
// geometric stiffness and by its diagonal J M⁻¹ Jᵀ) and to stability.ReleaseDamping where such a row
// releases (Row.Releases), and to stability.TurnDamping where it carries
// geometric stiffness between bodies whose turning the step took in, all
// of them (a row of infinite compliance is then that damping's damper
// alone, stability.TurnDamper). The rows of a switched constraint that
// stays off keep what the step that switched it off assembled.
func (w *World) assemble(h float64) {
	w.prob.values++
	// Rows kept off hold for h: update evaluates them again for any other.
	w.offH = h
	w.run(passAssemble, h)
	w.crossTerms.start(h)
	w.assembleConstraints(w.cross, &w.crossTerms)
	w.relaxed = w.halves[0].terms.relaxed + w.halves[1].terms.relaxed + w.crossTerms.relaxed
}

// assembleConstraints is World.assemble's part for the listed
// constraints, with the step's terms t.
func (w *World) assembleConstraints(list []int, t *rowTerms) {
	p := &w.prob
	for _, ci := range list {
		state := w.off[ci]
		switch state {
		case rowsOff, rowsSwitched:
			continue // Σ, B and bounds as the step that switched them off left them
		case rowsSwitching:
			w.off[ci] = rowsSwitched
		}
		first, end := p.Groups[ci], p.Groups[ci+1]
		rows := w.rows[first:end]
		n := len(rows)
		// Body by body, then row by row: a constraint's rows act on the
		// same bodies (layout), so each body's kind, inverse inertia and
		// velocities are read once for all its rows instead of once a row.
		// Each row's sums still add the bodies' terms in body order.
		sums := p.sums[first:end]
		if len(sums) == 6 {
			// A joint's: stored in place, where clear calls memclr.
			*(*[6]rowSums)(sums) = [6]rowSums{}
		} else {
			clear(sums)
		}
		blocks := p.js[p.blockStart[ci]:p.blockStart[ci+1]]
		minvs := p.minvJs[p.blockStart[ci]:p.blockStart[ci+1]][:len(blocks)]
		// turning: every dynamic body of the rows had its turning taken
		// into the step (and there is one).
		turning, dynamic := true, false
		if n > 0 {
			bodies := p.Rows[first].Bodies
			nb := len(bodies)
			for k, b := range bodies {
				switch b.Kind {
				case Dynamic:
					turning, dynamic = turning && b.turning, true
					assembleTermsVec(b, sums, blocks, minvs, k, nb)
				case Kinematic:
					for i := range sums {
						j, s := &blocks[i*nb+k], &sums[i]
						kv := j.Lin.Dot(b.Vel) + j.Ang.Dot(b.AngVel)
						s.gv += kv
						s.gpred += kv
						s.jump += j.Lin.Dot(b.lastVel) + j.Ang.Dot(b.lastAngVel) - kv
						minvs[i*nb+k] = Jacobian{}
					}
				default:
					for i := range sums {
						minvs[i*nb+k] = Jacobian{}
					}
				}
			}
		}
		t.assemble(p, first, rows, turning && dynamic)
		// Rows switched off are pinned for as long as they stay off
		// (Problem.pinned; Rebound leaves them as they are).
		p.pinned[ci] = state == rowsSwitching && pinned(p.Lo[first:end], p.Hi[first:end])
	}
}

// rowTerms holds the step's constants of World.assemble, divided once (the
// same values as in the expressions of every row), and the last quotients
// of the rows: rows mostly share their compliance, damping and slip with
// the row before, and divisions are a good part of a row's cost, so the
// last are kept (same operands, same results). A struct used through a
// pointer, in memory: as locals of the row loop they were moved between
// registers and spilled more often than they were used.
type rowTerms struct {
	h, bias, sigmaScale      float64 // −4/h and 4/h²
	release                  float64 // stability.ReleaseRelaxation·h
	lastDamping, lastUpsilon float64 // Υ = 1/(1 + 4γ/h)
	lastOwn, relaxedOwn      float64 // a row's own γ, relaxed (stability.Damping)
	lastSlip, slipRate       float64 // ξ/h
	relaxed                  int     // rows given numerical relaxation
}

// start sets t for a step of h seconds.
func (t *rowTerms) start(h float64) {
	*t = rowTerms{
		h: h, bias: -4 / h, sigmaScale: 4 / (h * h), release: stability.ReleaseDamping(0, h),
		lastDamping: math.NaN(), lastOwn: math.NaN(),
		// lastSlip, slipRate: 0/h = 0
	}
}

// assemble is World.assemble's part for a constraint's rows, p's from
// first: from their sums it writes Σ, the right-hand side and the
// bounds. turning says every dynamic body of theirs had its turning
// taken into the step (and there is one). The problem's parts are cut
// here rather than passed (eight slices are more arguments than go in
// registers), each once, to the rows' length: the loop needs no bounds
// checks.
func (t *rowTerms) assemble(p *Problem, first int, rows []Row, turning bool) {
	h, end := t.h, first+len(rows)
	sums := p.sums[first:end]
	sigmas, bs, los, his, starts := p.Sigma[first:end], p.B[first:end], p.Lo[first:end], p.Hi[first:end], p.Start[first:end]
	for i := range rows {
		row := &rows[i]
		gv, gpred, d, jump := sums[i].gv, sums[i].gpred, sums[i].d, sums[i].jump
		if row.Slip != t.lastSlip {
			t.lastSlip, t.slipRate = row.Slip, row.Slip/h
		}
		upsilon, sigma, gapDamping := 0.0, t.slipRate, 0.0
		if row.Holonomic {
			damping := row.Damping
			unresolved := true // a rigid row vibrates infinitely fast
			if c := row.Compliance; c > 0 {
				if unresolved = stability.UnresolvedCompliant(c, row.Geometric, d, h); unresolved {
					// Relaxation·h > 0 raises ±0, equal as keys, alike.
					if damping != t.lastOwn {
						t.lastOwn, t.relaxedOwn = damping, stability.Damping(damping, h, true)
					}
					damping = t.relaxedOwn
					t.relaxed++
					if row.Releases && !row.Gap {
						damping = max(damping, t.release)
					}
				}
				if turning && row.Geometric > 0 {
					// The turning the step took in is damped relative
					// to the neighbours (see takeTurnStiffness); not
					// between a turned segment and a body whose
					// turning the step resolves (a load), whose
					// motion, such as a rocking load, is resolved.
					if math.IsInf(c, 1) {
						// No stiffness of its own (a perfectly
						// flexible rope's bend): the row is the
						// damper alone (stability.TurnDamper), the
						// limit of both forms below as ε grows (γ =
						// b ε): Σ = 1/(h b) and the right-hand side
						// the prescribed rate's alone, where the forms
						// themselves give ∞·0 and ∞/∞.
						sigmas[i] = sigma + 1/(h*stability.TurnDamper(h, row.Geometric))
						bs[i] = row.Speed - gpred
						los[i], his[i], starts[i] = row.Lo, row.Hi, row.Start
						continue
					}
					damping = stability.TurnDamping(damping, h, row.Geometric, c)
				}
			}
			// A kinematic body whose velocity changed since the last step
			// (a crane jerked into motion) opens the row at the new
			// relative speed. A row the step resolves carries that speed
			// into its spring and damper, as the rope does; a row stiffer
			// than the step resolves would, in the rope, take it up within
			// a small fraction of the step (its own vibration, of amplitude
			// v/ω, is below what the step shows), while the relaxed row
			// would keep Υ of it and open by about Υ v h (14 mm at 1 m/s):
			// it sees the jump as already taken up.
			if unresolved {
				gv += jump
			}
			if damping != t.lastDamping {
				t.lastDamping, t.lastUpsilon = damping, h/(h+4*damping) // Υ = 1/(1 + 4γ/h), one division
			}
			upsilon = t.lastUpsilon
			sigma += t.sigmaScale * row.Compliance * upsilon
			gapDamping = damping
		}
		sigmas[i] = sigma
		bs[i] = t.bias*upsilon*row.Violation + upsilon*(gv-row.SpeedBefore) + row.Speed - gpred
		if row.Gap && row.Holonomic {
			// From the gap's end (Row.Gap), with the row's damping
			// (relaxed where the step does not resolve the row).
			sigmas[i] = t.slipRate + row.Compliance/(h*(h+gapDamping))
			bs[i] = -row.Violation/(h+gapDamping) + row.Speed - gpred
		}
		los[i] = row.Lo
		his[i] = row.Hi
		starts[i] = row.Start
	}
}

// rowSums are a row's sums over its bodies in assemble: G v, G ṽ (the
// predicted velocities), J M⁻¹ Jᵀ, and the kinematic bodies' change of
// velocity since the last step.
type rowSums struct{ gv, gpred, d, jump float64 }

// assembleTerms adds dynamic body b's terms to the sums of a constraint's
// rows, whose blocks (nb a row, b's at k) are blocks, and writes b's M⁻¹J
// into minvs.
func assembleTerms(b *Body, sums []rowSums, blocks, minvs []Jacobian, k, nb int) {
	in, invMass := &b.invI, b.invMass
	// Row i's blocks from blocks[i*nb:]: block k of the row is [k].
	blocks, minvs = blocks[:len(sums)*nb], minvs[:len(sums)*nb]
	for i := range sums {
		j, m, s := &blocks[i*nb+k], &minvs[i*nb+k], &sums[i]
		if j.Ang == (geom.Vec3{}) {
			// A linear block (a wire's stretch, a contact on a node):
			// I⁻¹J's angular part and the angular terms are zeros, left
			// out.
			lin := j.Lin.Scale(invMass)
			s.gv += j.Lin.Dot(b.Vel)
			s.gpred += j.Lin.Dot(b.predVel)
			s.d += j.Lin.Dot(lin)
			m.Lin, m.Ang = lin, geom.Vec3{}
			continue
		}
		// I⁻¹J written out: Mat3.MulVec is above the inliner's budget,
		// and the calls cost 3 % of a long cable's step.
		ang := geom.Vec3{
			X: in[0][0]*j.Ang.X + in[0][1]*j.Ang.Y + in[0][2]*j.Ang.Z,
			Y: in[1][0]*j.Ang.X + in[1][1]*j.Ang.Y + in[1][2]*j.Ang.Z,
			Z: in[2][0]*j.Ang.X + in[2][1]*j.Ang.Y + in[2][2]*j.Ang.Z,
		}
		if j.Lin == (geom.Vec3{}) {
			// An angular block (bend, twist): its linear terms are zeros,
			// which sums that start from +0 and stay finite do not see.
			s.gv += j.Ang.Dot(b.AngVel)
			s.gpred += j.Ang.Dot(b.predAng)
			s.d += j.Ang.Dot(ang)
			m.Lin, m.Ang = geom.Vec3{}, ang
			continue
		}
		s.gv += j.Lin.Dot(b.Vel) + j.Ang.Dot(b.AngVel)
		s.gpred += j.Lin.Dot(b.predVel) + j.Ang.Dot(b.predAng)
		// M⁻¹J by its parts: a whole Jacobian made in a temporary and
		// copied stalls the copy on store forwarding.
		lin := j.Lin.Scale(invMass)
		s.d += j.Lin.Dot(lin) + j.Ang.Dot(ang) // J·M⁻¹J
		m.Lin, m.Ang = lin, ang
	}
}

// integrate applies the impulses and moves the bodies (symplectic Euler),
// and hands every constraint its impulses (Constraint.Apply). The rows'
// impulses are summed per body, in row order, as the constraint force
// and torque the body reports; a dynamic body's velocities then change by
// M⁻¹ of the sum, h·f/m and I⁻¹·h·τ, with the inverse inertia the step
// assembled with (the rows' M⁻¹J, summed row by row, is the same to
// rounding, at twice the operations on a cable's joints). The dynamic
// bodies are their halves' (passIntegrate), which also check their range.
func (w *World) integrate(h float64) {
	p := &w.prob
	lambda := p.Lambda[:len(p.Rows)]
	for i, b := range w.fixed {
		k := len(w.dynamic) + i
		sumImpulses(b, w.runs[w.runStart[k]:w.runStart[k+1]], w.impulses, lambda, p.js, w.off, 1/h)
		if b.Kind == Static {
			continue
		}
		b.Pos = b.Pos.AddScaled(h, b.Vel)
		b.Rot = b.Rot.Integrate(b.AngVel, h)
		b.lastVel, b.lastAngVel = b.Vel, b.AngVel
	}
	w.run(passIntegrate, h)
	w.applyConstraints(w.cross, h)
}

// applyConstraints hands the listed constraints their impulses, but for
// those kept off, whose rows carry no impulse, as in the step that
// switched them off, which applied that (Switched).
func (w *World) applyConstraints(list []int, h float64) {
	groups, lambda, off := w.prob.Groups, w.prob.Lambda, w.off
	for _, ci := range list {
		if off[ci] != rowsOff {
			w.constraints[ci].Apply(h, lambda[groups[ci]:groups[ci+1]])
		}
	}
}

func (w *World) check() error {
	for _, b := range w.dynamic {
		if !finiteWithin(b.Pos) || !finiteWithin(b.Vel) || !finiteWithin(b.AngVel) {
			if bad := w.nonFiniteRow(); bad != "" {
				return fmt.Errorf("body %q at %v moving at %v m/s, as %s: %w", b.Name, b.Pos, b.Vel, bad, ErrDiverged)
			}
			return fmt.Errorf("body %q at %v moving at %v m/s: %w", b.Name, b.Pos, b.Vel, ErrDiverged)
		}
	}
	return nil
}

// nonFiniteRow describes the first row of the last assembly whose Σ or
// right-hand side is not finite (a constraint whose geometry degenerated,
// a direction of zero length normalized), naming its constraint and
// bodies, or returns "" where there is none. It is looked for only once
// a step has failed, to name the cause rather than its consequence (a
// solve's residual of NaN, a body at NaN).
func (w *World) nonFiniteRow() string {
	p := &w.prob
	for ci, c := range w.constraints {
		if ci+1 >= len(p.Groups) {
			break
		}
		for i := p.Groups[ci]; i < p.Groups[ci+1] && i < len(p.B); i++ {
			if finite := !math.IsNaN(p.Sigma[i]) && !math.IsInf(p.B[i], 0) && !math.IsNaN(p.B[i]); finite {
				continue
			}
			names := make([]string, 0, 2)
			for _, b := range c.Bodies() {
				names = append(names, fmt.Sprintf("%q", b.Name))
			}
			return fmt.Sprintf("row %d of the %T on %s is not finite (Σ = %g, right-hand side %g m/s): its geometry degenerated", i-p.Groups[ci], c, strings.Join(names, " and "), p.Sigma[i], p.B[i])
		}
	}
	return ""
}

// finiteWithin reports whether v's components are within
// ±DivergenceLimit, and so finite: NaN fails the comparison.
func finiteWithin(v geom.Vec3) bool {
	return math.Abs(v.X) < DivergenceLimit && math.Abs(v.Y) < DivergenceLimit && math.Abs(v.Z) < DivergenceLimit
}

func hadamard(a, b geom.Vec3) geom.Vec3 { return geom.Vec3{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z} }

// KineticEnergy returns the total kinetic energy of the dynamic bodies (J).
func (w *World) KineticEnergy() float64 {
	e := 0.0
	for _, b := range w.dynamic {
		e += b.KineticEnergy()
	}
	return e
}

// GravityEnergy returns −Σ m g·x of the dynamic bodies (J).
func (w *World) GravityEnergy() float64 {
	e := 0.0
	for _, b := range w.dynamic {
		e -= b.Mass * w.Gravity.Dot(b.Pos)
	}
	return e
}

// ElasticEnergy returns the energy stored in regularized constraints (J).
func (w *World) ElasticEnergy() float64 {
	e := 0.0
	for _, c := range w.constraints {
		if s, ok := c.(Energy); ok {
			e += s.PotentialEnergy()
		}
	}
	return e
}

// Primer is implemented by constraints that report forces: Prime hands
// them the impulses of a static evaluation without advancing their state.
type Primer interface {
	Prime(h float64, lambda []float64)
}

// Prime evaluates the constraint forces of the current configuration
// without moving anything: each compliant row carries the force of its
// potential, −g/ε (within its bounds), rigid rows carry none. It sets
// every body's ConstraintForce and hands the impulses to Primers, so that
// a world built in static equilibrium reports its loads before the first
// step.
func (w *World) Prime(h float64) error {
	if err := w.update(h); err != nil {
		return err
	}
	for _, b := range w.bodies {
		b.ConstraintForce, b.ConstraintTorque = geom.Vec3{}, geom.Vec3{}
	}
	for i, c := range w.constraints {
		rows := w.rows[w.rowStart[i] : w.rowStart[i]+c.Rows()]
		lambda := w.prob.Lambda[w.rowStart[i] : w.rowStart[i]+c.Rows()]
		for r := range rows {
			row := &rows[r]
			lambda[r] = 0
			if row.Holonomic && row.Compliance > 0 {
				lambda[r] = min(max(-h*row.Violation/row.Compliance, row.Lo), row.Hi)
			}
			for k, b := range c.Bodies() {
				b.ConstraintForce = b.ConstraintForce.AddScaled(lambda[r]/h, row.J[k].Lin)
				b.ConstraintTorque = b.ConstraintTorque.AddScaled(lambda[r]/h, row.J[k].Ang)
			}
		}
		if p, ok := c.(Primer); ok {
			p.Prime(h, lambda)
		}
	}
	return nil
}
