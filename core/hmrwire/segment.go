package hmrwire

import (
	"fmt"
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// segment is the N-body wire constraint of one massless segment
// ([SLNB11] §II-B): the nodes from one mass node to the next, through
// eye and contact nodes on other bodies, keep their total length
//
//	g = Σ_k ‖p_{k+1} − p_k‖ − L   (eq. 12)
//
// with the stretch compliance L/EA and the rope's damping time; it cannot
// push (λ ≤ 0: the wire goes slack). Its Jacobian has one block per body
// that carries a node (eqs. 13–17), the blocks of nodes on one body summed.
//
// Friction along the wire (§II-C2) acts where the wire runs over a
// frictional geometry: each run of consecutive contact nodes on one
// geometry gets a stick row. It holds the rest length σ of wire between
// the segment's first node and the run's first node, g_f = S₁ − (σ/L)·S
// with S₁ the length up to that node and S the whole; its impulse β is
// the difference of the tensions before and after the run. While the wire
// slides over the run's corners, each corner turning it by Δ passes the
// tension on in the ratio q = (1 + μ tan(Δ/2))/(1 − μ tan(Δ/2)) (Coulomb
// at the corner, its normal along the turn's bisector), so the
// run passes at most the ratio Q = Π q: |β| ≤ c·T_m·h with T_m the mean
// of the tensions before and after the run and c = 2(Q − 1)/(Q + 1)
// (T_high = Q·T_low written symmetrically), the tensions from the same
// solve (Rebound). Of the forms of that bound, this one's fixed point is
// an attracting one whichever side of the run pulls (the bound (Q−1)·T_low
// fed back with a gain of Q − 1 when the high side was pulled); a secant
// step per row finds it in a few solves. The paper
// instead reduced each node's slide by 1 − μ after the solve (eq. 22) and
// needed μ = 1 for stick at 30°. One row per run rather than per node:
// the nodes of a run sit on one body, their rows would all act on the
// same two mass nodes, and an active set over such nearly dependent rows
// cycles; the run's interior tensions follow the ratios geometrically.
//
// With the wire stuck, its stretch energy is that of the segment row,
// EA/(2L)·g², plus Σ EA/(2ℓ)(g_f − g_{f−1})² over the spans ℓ between
// stick points: the stick rows are springs of the wire's own stiffness.
// Each gets the compliance of its two spans in parallel, ℓ_f ℓ_{f+1}/
// ((ℓ_f + ℓ_{f+1}) EA), leaving out their coupling (a share of the
// stretch, itself of order T/EA, placed on the wrong span).
type segment struct {
	wire  *Wire
	nodes []*node
	// bodies lists each body carrying a node once; at gives each node's.
	bodies []*multibody.Body
	at     []int
	// drumAt and axleAt are the indices in bodies of the winch's drum
	// and its axle's body on the wire's first segment, or −1.
	drumAt, axleAt int
	// fric lists the runs of frictional contact nodes on one geometry,
	// by the indices in nodes of their first and last node.
	fric []run
	// bends are the rope's bending rows the segment carries (after its
	// stretch and stick rows): at its first mass node unless that is the
	// wire's first end, and at a clamped end of the wire; braces counts
	// those braced (their rows come last, see braceRows).
	bends  []bend
	braces int
	// rows is the segment's number of rows (see Rows).
	rows int
	// twistJ is the twist row's Jacobian of this step, in bodies' order
	// (a wire that twists; see twist.go).
	twistJ []multibody.Jacobian
	// Evaluated by Update: positions, sub-segment unit vectors and
	// lengths, the total length.
	pos    []geom.Vec3
	dir    []geom.Vec3
	length []float64
	total  float64
	// lambda holds the impulses of the last solve (N·s).
	lambda []float64
	// The last bound of each stick row tried in this step's solves and
	// the bound its solution implied (N·s), for the secant steps of
	// Rebound; tried counts them.
	lastBound, lastImplied []float64
	tried                  int
	// below and above bracket each stick row's fixed-point bound in this
	// step's solves (N·s).
	below, above []float64
	next         []float64 // Rebound's new bounds, reused
	// vecBuf and numBuf are the arrays pos, dir and the numbers are cut
	// from, kept for the segment's next use (see newSegment).
	vecBuf []geom.Vec3
	numBuf []float64
}

// minStickSpan (m) is the shortest span (the two spans around a stick
// point in parallel) a stick row holds compliantly; a shorter one is held
// rigidly. The row of a run whose held point sat 1e-15 m from the
// segment's first node (a slack wire snapping taut over a sheave) had a
// compliance 1e-16 of its neighbours', and the solver, eliminating it as
// compliant before its bodies, lost their pivots to cancellation.
const minStickSpan = 1e-6

// run is a run of frictional contact nodes on one geometry: nodes first
// to last of a segment.
type run struct{ first, last int }

// rigidDamping is the SPOOK relaxation time of the rigid rows (end locks,
// stick), in steps: an ideal constraint has no material damping, and its
// drift is corrected over about two steps ([SL07] §4).
const rigidDamping = 2

// newSegment builds the constraint of the segment that starts at node
// index first of w (a mass node) and ends at the next mass node.
//
// A wire makes its segments anew whenever its nodes change, many times a
// second: a segment the last rebuild took out of the world (Wire.spare)
// is made again in its storage, every field set as in a new one, so that
// the collector is not kept busy with them.
func newSegment(w *Wire, first int) *segment {
	var s *segment
	if k := len(w.spare) - 1; k >= 0 {
		s = w.spare[k]
		w.spare[k], w.spare = nil, w.spare[:k]
		*s = segment{wire: w, nodes: s.nodes[:0], at: s.at[:0], bodies: s.bodies[:0], fric: s.fric[:0],
			bends: s.bends[:0], twistJ: s.twistJ[:0], vecBuf: s.vecBuf, numBuf: s.numBuf}
	} else {
		s = &segment{wire: w}
	}
	last := first + 1
	for w.nodes[last].kind != MassNode {
		last++
	}
	// Sized once: the lists would grow in several steps each.
	m := last - first + 1
	s.nodes = append(slices.Grow(s.nodes, m), w.nodes[first:last+1]...) // its own: w.nodes changes
	s.at, s.bodies = slices.Grow(s.at, m), slices.Grow(s.bodies, m+2)
	for k, n := range s.nodes {
		s.at = append(s.at, s.bodyIndex(n.body))
		if n.kind != ContactNode || n.geo.Friction == 0 {
			continue
		}
		if f := len(s.fric) - 1; f >= 0 && s.fric[f].last == k-1 && s.nodes[k-1].geo == n.geo {
			s.fric[f].last = k
		} else {
			s.fric = append(s.fric, run{k, k})
		}
	}
	s.addBends(w, first, last)
	if w.twist {
		// The locked ends whose twist the segment holds act on their
		// bodies: in the list before the rows are sized.
		if l := w.nodes[0].lock; first == 0 && l != nil && !w.swivelFirst {
			s.bodyIndex(l.body)
		}
		if l := w.nodes[last].lock; last == len(w.nodes)-1 && l != nil && !w.swivelLast {
			s.bodyIndex(l.body)
		}
	}
	// The braced bends' rows, after all others (see braceRows).
	at := s.countRows()
	for k := range s.bends {
		if b := &s.bends[k]; b.mid.braced && b.prev != nil && b.next != nil {
			b.braceAt = at
			at += braceRows
			s.braces++
		}
	}
	s.rows = s.countRows()
	s.drumAt, s.axleAt = -1, -1
	if wi := w.Winch; wi != nil && wi.Drum != nil && first == 0 {
		// The drum's spin sets the rest length (see Winch).
		s.drumAt, s.axleAt = s.bodyIndex(wi.Drum.Body), s.bodyIndex(wi.Drum.axle)
	}
	// Two arrays cut into the working slices, zero as new ones.
	if w.twist {
		s.twistJ = append(s.twistJ[:0], make([]multibody.Jacobian, len(s.bodies))...)
	}
	nf := len(s.fric)
	s.vecBuf = zeroed(s.vecBuf, 2*m-1)
	vecs := s.vecBuf
	s.pos, s.dir = vecs[:m:m], vecs[m:]
	s.numBuf = zeroed(s.numBuf, m-1+s.Rows()+5*nf)
	nums := s.numBuf
	cut := func(k int) []float64 {
		out := nums[:k:k]
		nums = nums[k:]
		return out
	}
	s.length, s.lambda = cut(m-1), cut(s.Rows())
	s.lastBound, s.lastImplied, s.next = cut(nf), cut(nf), cut(nf)
	s.below, s.above = cut(nf), cut(nf)
	return s
}

// retire clears what a segment taken out of the world points to in the
// storage it keeps for its next use (see newSegment): the nodes, bodies
// and bends of its last life are not kept alive by it.
func (s *segment) retire() {
	clear(s.nodes[:cap(s.nodes)])
	clear(s.bodies[:cap(s.bodies)])
	clear(s.bends[:cap(s.bends)])
}

// zeroed returns n zeros in buf's storage if it holds them.
func zeroed[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// bodyIndex returns b's index in s.bodies, adding it if it is not there.
func (s *segment) bodyIndex(b *multibody.Body) int {
	for j, c := range s.bodies {
		if c == b {
			return j
		}
	}
	s.bodies = append(s.bodies, b)
	return len(s.bodies) - 1
}

// rest returns the segment's rest length L (m).
func (s *segment) rest() float64 { return s.nodes[0].rest }

// A wire its step cannot hold runs away within steps, in one of two
// ways: its light nodes are flung (a wire of fixed resolution, its 1 kg
// nodes carrying 2–11 times their critical tension, eq. 25, as a 100 kg
// load pulled it off a sheave, flung the load 60 km), or it stretches as
// a whole while its loads are thrown about (the stability chart's uniform
// chains: 17 km within 60 s). Neither gave an error until positions passed
// the world's divergence limit (1e7 m). runaway reports both, by limits
// that no hoisting rope reaches. The mass nodes' limit is material.RunawaySpeed (m/s) against the wire's
// mean motion (its mass nodes' momentum over their mass: a wire carried
// along as a whole, however fast, is not running away); a free end thrown
// at a geometry at 31 m/s (TestFreeEndThrownAtGeometries) stays far below.
// The wire's: maxStretch times its rest length at a stress beyond
// material.RunawayStress. Both: an elastic cord hangs at several times its
// rest length at a small stress. A short wire that stops on a geometry can
// be twice its length for a step and recover: of 200 steel wires of 4–24
// cm (EA 3e7 N) thrown at a box at up to 31 m/s, 14 are stopped so (7 of
// them would have recovered, 7 stayed at 1.2–12 times their length), soft
// ones (EA 1e5 N) never.
const maxStretch = 2

// runaway returns an error wrapping multibody.ErrDiverged if a mass node
// of w moves faster than material.RunawaySpeed, or if w's length at the
// last update (its segments' lengths through their nodes) is more than
// maxStretch times its rest length at a stress beyond
// material.RunawayStress (or either is not finite).
func (w *Wire) runaway() error {
	// What to change where the wire is of fixed resolution (eq. 25).
	const unstable = "a wire of fixed resolution whose nodes carry more than their critical tension l·m/(4h²) (SLNB11 eq. 25) is unstable at its step: give it adaptive resolution or a shorter step"
	// The mass nodes' speeds relative to the wire's mean motion (mass
	// weighted): a wire carried along fast as a whole is not running away.
	var momentum geom.Vec3
	mass := 0.0
	for _, n := range w.nodes {
		if n.kind == MassNode {
			momentum = momentum.AddScaled(n.body.Mass, n.body.Vel)
			mass += n.body.Mass
		}
	}
	mean := momentum.Scale(1 / mass)
	k := 0
	for _, n := range w.nodes {
		if n.kind != MassNode {
			continue
		}
		k++
		v := n.body.Vel.Sub(mean)
		if !(v.X*v.X+v.Y*v.Y+v.Z*v.Z <= material.RunawaySpeed*material.RunawaySpeed) {
			err := fmt.Errorf("mass node %d of %d at %.4g m moving at %.0f m/s against the wire's mean motion, faster than any hoisting rope's nodes", k, len(w.segs)+1, n.body.Pos, v.Norm())
			if !w.Resolution.Adaptive {
				err = fmt.Errorf("%w; %s", err, unstable)
			}
			return fmt.Errorf("%w: %w", err, multibody.ErrDiverged)
		}
	}
	length, rest := 0.0, 0.0
	for _, s := range w.segs {
		length += s.total
		rest += s.rest()
	}
	stress := (length/rest - 1) * w.ea / w.Rope.Area()
	if rest > 0 && !(length <= maxStretch*rest || stress <= material.RunawayStress) {
		err := fmt.Errorf("%.4g m long at the step's start, %.3g times its rest length of %.4g m, at a stress of %.3g GPa that no rope holds", length, length/rest, rest, stress/1e9)
		if w.Winch != nil {
			err = fmt.Errorf("%w (a winch hauling with no force limit against a load that cannot follow stretches a wire so)", err)
		}
		if !w.Resolution.Adaptive {
			err = fmt.Errorf("%w; %s", err, unstable)
		}
		return fmt.Errorf("%w: %w", err, multibody.ErrDiverged)
	}
	return nil
}

// Bodies implements multibody.Constraint.
func (s *segment) Bodies() []*multibody.Body { return s.bodies }

// Rows implements multibody.Constraint: the count newSegment worked out
// (countRows), which holds for the segment's life (the wire makes its
// segments anew whenever its nodes change).
func (s *segment) Rows() int { return s.rows }

// countRows returns the segment's rows: stretch, stick, bend, twist and
// brace rows.
func (s *segment) countRows() int {
	w := s.wire
	first, last := -1, -1
	if s.nodes[0] == w.nodes[0] {
		first = 0
	}
	if s.nodes[len(s.nodes)-1] == w.nodes[len(w.nodes)-1] {
		last = len(w.nodes) - 1
	}
	return 1 + len(s.fric) + bendRows*len(s.bends) + w.twistRows(first, last) + braceRows*s.braces
}

// addBends adds the bends the segment from node first to node last of w
// carries (see bends) if the wire bends.
func (s *segment) addBends(w *Wire, first, last int) {
	if !(w.ei > 0) {
		return
	}
	if first > 0 && !w.nodes[first].unbent {
		b := bend{prev: w.nodes[first-1], mid: w.nodes[first], next: w.nodes[first+1], before: w.nodes[w.massBefore(first)]}
		b.at = [3]int{s.bodyIndex(b.prev.body), s.bodyIndex(b.mid.body), s.bodyIndex(b.next.body)}
		s.bends = append(s.bends, b)
	}
	if c := w.clampFirst; c != nil && first == 0 {
		b := bend{mid: w.nodes[0], next: w.nodes[1], clamp: w.nodes[0].lock.body, clampLocal: *c}
		b.at = [3]int{s.bodyIndex(b.clamp), s.bodyIndex(b.mid.body), s.bodyIndex(b.next.body)}
		s.bends = append(s.bends, b)
	}
	if c := w.clampLast; c != nil && last == len(w.nodes)-1 {
		b := bend{prev: w.nodes[last-1], mid: w.nodes[last], before: w.nodes[first], clamp: w.nodes[last].lock.body, clampLocal: *c}
		b.at = [3]int{s.bodyIndex(b.prev.body), s.bodyIndex(b.mid.body), s.bodyIndex(b.clamp)}
		s.bends = append(s.bends, b)
	}
}

// bendAt returns the index of the first row of the segment's bend k.
func (s *segment) bendAt(k int) int { return 1 + len(s.fric) + bendRows*k }

// measure evaluates the positions, directions and lengths at the start of
// the step.
func (s *segment) measure() {
	// The slices and the sum held in locals, cut to one length: the
	// stores through s made every pass reload them.
	pos := s.pos[:len(s.nodes)]
	for k, n := range s.nodes {
		pos[k] = n.position()
	}
	dir, length := s.dir[:len(pos)-1], s.length[:len(pos)-1]
	total := 0.0
	for k := range dir {
		dir[k], length[k] = pos[k+1].Sub(pos[k]).Unit()
		total += length[k]
	}
	s.total = total
}

// addBlock adds the rate coefficient c (the derivative of a length by the
// position of node k) to node k's body's block: Lin += c, Ang += d × c with
// d the node's lever arm (eq. 15).
func (s *segment) addBlock(row *multibody.Row, k int, c geom.Vec3) {
	j := &row.J[s.at[k]]
	j.Lin = j.Lin.Add(c)
	// A mass node sits on its particle's centre: no lever arm.
	if n := s.nodes[k]; n.kind != MassNode {
		j.Ang = j.Ang.Add(s.pos[k].Sub(n.body.Pos).Cross(c))
	}
}

// coefficient returns ∂(l_0 + … + l_{last−1})/∂p_k for 0 ≤ k ≤ last: the
// rate coefficient of node k in the length up to node last (eqs. 15–17).
func (s *segment) coefficient(k, last int) geom.Vec3 {
	var c geom.Vec3
	if k > 0 && k <= last {
		c = c.Add(s.dir[k-1])
	}
	if k < last {
		c = c.Sub(s.dir[k])
	}
	return c
}

// Update implements multibody.Constraint.
func (s *segment) Update(h float64, rows []multibody.Row) {
	s.measure()
	w := s.wire
	last := len(s.nodes) - 1
	row := &rows[0]
	// addBlock written out: it is above the inliner's budget, and this
	// loop takes every node of every segment.
	at, pos := s.at[:len(s.nodes)], s.pos[:len(s.nodes)]
	for k, n := range s.nodes {
		c := s.coefficient(k, last)
		j := &row.J[at[k]]
		j.Lin = j.Lin.Add(c)
		if n.kind != MassNode {
			j.Ang = j.Ang.Add(pos[k].Sub(n.body.Pos).Cross(c))
		}
	}
	L := s.rest()
	row.Violation = s.total - L
	row.Compliance = L / w.ea
	row.Damping = w.Rope.DampingTime
	row.Gap = row.Violation < 0 // slack: taut again where the gap closes
	// A flexible wire pulls, never pushes; one that bends pushes up to its
	// segment's Euler load (see push).
	push := s.push()
	row.Hi = push * h
	if s.slack() && (push == 0 || s.lambda[0] >= push*s.wire.sys.lastH*(1-1e-9)) {
		row.Start = 1 // at the bound in the last solve: likely there again
	}
	for f, r := range s.fric {
		n := s.nodes[r.first]
		row := &rows[1+f]
		alpha := n.sigma / L
		s1 := 0.0
		for i := 0; i < r.first; i++ {
			s1 += s.length[i]
		}
		for i := range s.nodes {
			c := s.coefficient(i, last).Scale(-alpha)
			if i <= r.first {
				c = c.Add(s.coefficient(i, r.first))
			}
			s.addBlock(row, i, c)
		}
		row.Violation = s1 - alpha*s.total
		before, after := n.sigma, L-n.sigma
		if f > 0 {
			before -= s.nodes[s.fric[f-1].first].sigma
		}
		if f+1 < len(s.fric) {
			after = s.nodes[s.fric[f+1].first].sigma - n.sigma
		}
		if span := before * after / (before + after); span > minStickSpan {
			row.Compliance = span / w.ea
		}
		row.Damping = w.Rope.DampingTime
		if n.bound == 0 {
			// A run just formed (its first node new, or the run's
			// first node moved to a new one) starts from the bound its
			// tensions imply, as Rebound would give it after a solve at
			// zero: a zero bound is the fixed point of a slack wire
			// only, and cost the step a solve more.
			n.bound = s.runBound(r, h)
		}
		row.Lo, row.Hi = -n.bound, n.bound
	}
	for k := range s.bends {
		s.bends[k].update(rows[s.bendAt(k):], w.ei, w.Rope.DampingTime)
	}
	if w.twist {
		s.twistUpdate(h, rows[s.twistAt():])
	}
	for k := range s.bends {
		if b := &s.bends[k]; b.braceAt > 0 {
			b.brace(rows[b.braceAt:], h, w.ei, s.bodies)
		}
	}
	if w.Winch != nil && s.nodes[0] == w.nodes[0] {
		s.winchRows(h, rows)
	}
	s.tried = 0
}

// push returns the largest compression (N) the segment carries: none on
// a flexible wire, nor on the segment a winch spools (its rest length
// grows by the wire coming off the drum, not by rope pressed together);
// on the others of a wire that bends, the Euler load π²EI/L² of a column
// of its rest length L pinned at both ends. Straight between its mass
// nodes, a segment whose ends come closer than its length has buckled
// between them; the buckled column carries about its Euler load while it
// shortens (the elastica's post-buckling branch is flat), and stores that
// work. Free to shorten, a slack segment of a bending wire folded for
// nothing, and each time it snapped taut again its bends, turning fast,
// gained energy: a wire of three nodes let go in an L gained 150 % of its
// energy in 0.4 s. (Neither a stop at half the rest length nor a soft
// spring in compression kept it; nor did a segment that pushes without
// bound, whose nodes, held by friction on the ground, it kicked into the
// ground at 5 m/s. The spooled segment's push shoved the paid-out wire
// along the ground, buckling it segment by segment, and its bounds
// flipped 40,000 times in an active set that did not settle.)
func (s *segment) push() float64 {
	w := s.wire
	if !(w.ei > 0) || w.Winch != nil && s.nodes[0] == w.nodes[0] {
		return 0
	}
	L := s.rest()
	return math.Pi * math.Pi * w.ei / (L * L)
}

// slack reports whether every sub-segment was slack (no tension) in the
// last solve.
func (s *segment) slack() bool {
	for _, n := range s.nodes[:len(s.nodes)-1] {
		if n.tension > 0 {
			return false
		}
	}
	return true
}

// tensions writes the tension (N) of every sub-segment for the impulses
// lambda into the nodes that start them: the segment row's −λ/h plus the
// share of each stick row's β (type segment), and within a run of
// frictional nodes the tensions before and after it in geometric steps.
func (s *segment) tensions(h float64, lambda []float64) {
	L := s.rest()
	// Sub-segment i's impulse l is the segment row's plus, run by run,
	// the stick row's share λ(1 − α) before the run's first node and
	// −λα from it on: summed in the nodes in that order, each run's
	// shares worked out once (rather than for every node), then taken
	// to the tension −l/h.
	subs := s.nodes[:len(s.nodes)-1]
	if len(s.fric) == 0 {
		// The segment row's alone (most segments): one pass.
		for _, n := range subs {
			n.tension = -lambda[0] / h
		}
		return
	}
	for _, n := range subs {
		n.tension = lambda[0]
	}
	for f, r := range s.fric {
		alpha := s.nodes[r.first].sigma / L
		before, from := lambda[1+f]*(1-alpha), lambda[1+f]*alpha
		for _, n := range subs[:r.first] {
			n.tension += before
		}
		for _, n := range subs[r.first:] {
			n.tension -= from
		}
	}
	for _, n := range subs {
		n.tension = -n.tension / h
	}
	for _, r := range s.fric {
		ta, tb := s.nodes[r.first-1].tension, s.nodes[r.last].tension
		steps := float64(r.last - r.first + 1)
		if ta > 0 && tb > 0 { // geometric: the same ratio at each corner
			q, t := math.Pow(tb/ta, 1/steps), ta
			for i := r.first; i < r.last; i++ {
				t *= q
				s.nodes[i].tension = t
			}
			continue
		}
		for i := r.first; i < r.last; i++ {
			s.nodes[i].tension = ta + (tb-ta)*float64(i-r.first+1)/steps
		}
	}
}

// capstanRatio returns the ratio q > 1 of the tensions on either side of
// a corner that turns a wire sliding over it by the angle Δ whose cosine
// is cosTurn, at friction μ. The corner's normal is the bisector of the
// turn (eq. 20 takes the edge's normal n·f): the normal force is
// (T₁ + T₂) sin(Δ/2) and the tangential one (T₂ − T₁) cos(Δ/2), so at
// Coulomb's bound q = (1 + μ tan(Δ/2))/(1 − μ tan(Δ/2)); the product
// over a polygon's corners tends to the capstan's e^{μθ} as the polygon
// gets finer. +Inf where friction holds the wire at any tension
// (μ tan(Δ/2) ≥ 1).
func capstanRatio(mu, cosTurn float64) float64 {
	c := max(-1, min(1, cosTurn))
	t := mu * math.Sqrt((1-c)/(1+c)) // μ tan(Δ/2)
	if !(t < 1) {
		return math.Inf(1)
	}
	return (1 + t) / (1 - t)
}

// runBound returns the bound (N·s) of run r's stick row implied by the
// tensions in the nodes and the directions of the last Update.
func (s *segment) runBound(r run, h float64) float64 {
	mu := s.nodes[r.first].geo.Friction
	q := 1.0
	// The cosines as they are: capstanRatio clamps them to [−1, 1], and
	// a second clamp gives the same values.
	dir := s.dir[:r.last+1]
	for k := r.first; k <= r.last; k++ {
		q *= capstanRatio(mu, dir[k-1].Dot(dir[k]))
	}
	c := 2.0 // Q = ∞: the wire holds at any ratio of tensions
	if !math.IsInf(q, 1) {
		c = 2 * (q - 1) / (q + 1)
	}
	ta, tb := max(s.nodes[r.first-1].tension, 0), max(s.nodes[r.last].tension, 0)
	return c * (ta + tb) / 2 * h
}

// Rebound implements multibody.Rebounding: each stick row's bound follows
// the tensions of the solve towards the fixed point bound = implied(bound).
// The solves that reach a bound bracket it (a bound that implied more lies
// below it, one that implied less above it); within the bracket a secant step finds it in a
// few solves, and where the secant leaves it (the implied bound follows
// the bound almost one to one: the span past the run pushes whatever the
// bound, and only a slack wire, bound 0, is consistent) the bracket is
// halved, or, with nothing below it, the bound goes to 0. The bounds
// change only if one moved where the row's impulse reaches it, so that a
// solve that stands was solved with the bounds the nodes keep.
func (s *segment) Rebound(h float64, lambda, lo, hi []float64) bool {
	if len(s.fric) == 0 {
		return false
	}
	s.tensions(h, lambda)
	moved := false
	next := s.next
	for f, r := range s.fric {
		cur, implied := hi[1+f], s.runBound(r, h)
		if s.tried == 0 {
			s.below[f], s.above[f] = 0, math.Inf(1)
		}
		// Only a solve whose impulse reached the bound says on which
		// side of it the fixed point lies; the implied bound moves with
		// the other rows' bounds, so a side that a newer solve
		// contradicts is dropped.
		if math.Abs(lambda[1+f]) >= cur*(1-1e-9) {
			switch {
			case implied > cur:
				s.below[f] = max(s.below[f], cur)
				if s.above[f] <= cur {
					s.above[f] = math.Inf(1)
				}
			case implied < cur:
				s.above[f] = min(s.above[f], cur)
				if s.below[f] >= cur {
					s.below[f] = 0
				}
			}
		}
		next[f] = implied
		if s.tried > 0 && cur != s.lastBound[f] {
			// implied ≈ A + K·bound near the fixed point bound = implied.
			if k := (implied - s.lastImplied[f]) / (cur - s.lastBound[f]); k < 1 {
				next[f] = (implied - k*cur) / (1 - k)
			}
		}
		if low, high := s.below[f], s.above[f]; !(next[f] > low && next[f] < high) {
			switch {
			case math.IsInf(high, 1):
				next[f] = max(implied, low)
			case low == 0 && high > 0 && next[f] <= 0:
				next[f] = 0
			default:
				next[f] = (low + high) / 2
			}
		}
		s.lastBound[f], s.lastImplied[f] = cur, implied
		if changed(next[f], cur, lambda[1+f]) || changed(-next[f], lo[1+f], lambda[1+f]) {
			moved = true
		}
	}
	s.tried++
	if !moved {
		return false
	}
	for f, r := range s.fric {
		n := s.nodes[r.first]
		n.bound = next[f]
		lo[1+f], hi[1+f] = -n.bound, n.bound
	}
	return true
}

// changed reports whether a bound moved from old to bound where the
// impulse b reaches one of them (at the old bound, or past the new one).
func changed(bound, old, b float64) bool {
	if bound == old || !math.IsInf(bound, 0) && !math.IsInf(old, 0) &&
		math.Abs(bound-old) <= 1e-6*max(math.Abs(bound), math.Abs(old)) {
		return false
	}
	atOld := !math.IsInf(old, 0) && (old >= 0 && b >= old*(1-1e-9) || old <= 0 && b <= old*(1-1e-9))
	past := bound >= 0 && b > bound || bound <= 0 && b < bound
	return atOld || past
}

// Apply implements multibody.Constraint.
func (s *segment) Apply(h float64, lambda []float64) {
	copy(s.lambda, lambda)
	s.tensions(h, lambda)
	for k := range s.bends { // by index: a bend is twelve words
		s.bends[k].mid.moment = bendMoment(h, lambda[s.bendAt(k):])
	}
	if s.wire.twist {
		s.twistApply(h, lambda[s.twistAt():])
	}
	for f, r := range s.fric {
		n := s.nodes[r.first]
		// At a bound it was solved with: the wire slid through.
		n.sliding = math.Abs(lambda[1+f]) >= n.bound*(1-1e-9)
	}
}

// Tension returns the segment row's tension of the last step (N).
func (s *segment) Tension(h float64) float64 { return -s.lambda[0] / h }

// State implements state.Stater: the impulses of the last solve.
func (s *segment) State(c *state.Codec) { c.Floats("segment impulse", s.lambda) }
