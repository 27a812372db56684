package hmrwire

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/stability"
)

// bend is the rope's bending stiffness at one mass node: two compliant
// angular rows on the turn from the wire's direction a into the node to
// its direction b out of it, the turn's rotation vector θ n (n = a×b/|a×b|)
// split on two axes across the wire. A discrete rod's bending energy at a
// node is EI θ²/(2ℓ̄) with ℓ̄ the node's share of the wire, half of each
// segment beside it (the rest lengths), so each row has the compliance
// ℓ̄/EI (rad/(N·m)) and the rope's damping time. Where resolution merges
// or splits nodes the segments' rest lengths change and ℓ̄ with them: the
// curvature θ/ℓ̄ a bend holds at a given moment does not depend on the
// resolution. Its impulses are the bending moment times the step.
//
// A clamped end (RoutePoint.Clamped) bends the same way against a
// direction fixed on its body, with ℓ̄ half its segment's rest length:
// node springs at x_k carrying ℓ̄_k sum the cantilever's ∫(L − x)² dx by
// the trapezoid rule, O(ℓ²) from the closed form.
//
// The rows are linear in the velocities, their axes and lever arms taken
// at the start of the step; the moment's turning of them is explicit, as
// the tension's is, and counts in the node's stability (see load); where
// the step cannot resolve it, the bend's legs are braced (see braceRows).
type bend struct {
	// prev, mid and next are the nodes before, at and after the bend; a
	// clamp has no prev (first end) or no next (last end).
	prev, mid, next *node
	// before is the mass node that starts the segment ending at mid, the
	// rest lengths of its segment and mid's setting ℓ̄; nil at a clamped
	// first end.
	before *node
	// clamp is a clamped end's body and the wire's direction there in
	// the body's frame (from the first end along the wire, or onward past
	// the last end).
	clamp      *multibody.Body
	clampLocal geom.Vec3
	// at gives the index in the segment's bodies of prev, mid and next,
	// or of the clamp's body in place of the absent one.
	at [3]int
	// braceAt is the index in the segment's rows of the bend's first
	// brace row, zero where it has none (see braceRows).
	braceAt int
}

// bendRows is the number of rows of a bend.
const bendRows = 2

// minLeg is the shortest leg of a bend, as a share of its ℓ̄, whose
// direction the rows take: a contact node appearing at a mass node, or a
// mass node released at a contact node's place, leaves a leg of a few
// nanometres whose direction is noise and whose Jacobian 1/l reached
// 1e15 (a dropped load's slack wire at the hook sheaves), leaving the
// solve no pivots. Such a node bends freely in that step: a wire at a
// contact node is bent by the geometry, not by its stiffness.
const minLeg = 1e-3

// arm returns the bend's share ℓ̄ (m) of the wire: half the rest lengths
// of the segments beside it.
func (b *bend) arm() float64 {
	l := 0.0
	if b.before != nil {
		l += b.before.rest
	}
	if b.next != nil {
		l += b.mid.rest
	}
	return l / 2
}

// leg is one side of a bend: the wire's unit direction there and how it
// turns with the bodies' velocities.
type leg struct {
	dir geom.Vec3
	// A free leg runs from node p to node q, length l (m); a clamped one
	// is fixed on the body at index at[k] (p < 0).
	p, q   int
	length float64
}

// update fills the bend's two rows (see bend) for a wire of bending
// stiffness ei (N·m²) and damping time tau (s).
func (b *bend) update(rows []multibody.Row, ei, tau float64) {
	rows = rows[:bendRows] // one bounds check for the rows' loops
	var in, out leg
	pm := b.mid.position()
	if b.prev != nil {
		in.dir, in.length = pm.Sub(b.prev.position()).Unit()
		in.p, in.q = 0, 1
	} else {
		in.dir, in.p = b.clamp.Rot.Rotate(b.clampLocal), -1
	}
	if b.next != nil {
		out.dir, out.length = b.next.position().Sub(pm).Unit()
		out.p, out.q = 1, 2
	} else {
		out.dir, out.p = b.clamp.Rot.Rotate(b.clampLocal), -1
	}
	arm := b.arm()
	comp := arm / ei
	for k := range rows {
		rows[k].Compliance, rows[k].Damping = comp, tau
	}
	if short := minLeg * arm; b.prev != nil && in.length < short || b.next != nil && out.length < short {
		return // see minLeg
	}
	a, c := in.dir, out.dir
	cos := a.Dot(c)
	cross := a.Cross(c)
	sin := cross.Norm()
	// x and y are the rows' coefficients on the changes da and dc of the
	// two directions; g their violations.
	var x, y [bendRows]geom.Vec3
	var g [bendRows]float64
	switch {
	case sin > 1e-9:
		theta := math.Atan2(sin, cos)
		n := cross.Scale(1 / sin)
		// dθ = cos θ n·d(a×c) − sin θ d(a·c).
		x[0] = c.Cross(n).Scale(cos).AddScaled(-sin, c)
		y[0] = n.Cross(a).Scale(cos).AddScaled(-sin, a)
		g[0] = theta
		// Across n the rotation vector changes by θ/sin θ times d(a×c).
		e, _ := c.Sub(a).Unit()
		q := theta / sin
		x[1], y[1] = c.Cross(e).Scale(q), e.Cross(a).Scale(q)
	case cos > 0:
		// Straight: θ n ≈ a×c on any two axes across the wire.
		e0 := geom.Perpendicular(a)
		e1 := a.Cross(e0)
		for k, e := range [bendRows]geom.Vec3{e0, e1} {
			x[k], y[k], g[k] = c.Cross(e), e.Cross(a), e.Dot(cross)
		}
	default:
		// Folded straight back: the turn has no axis; the first row
		// holds it on one across the wire, the second is left empty.
		n := geom.Perpendicular(a)
		x[0], y[0], g[0] = c.Cross(n).Scale(cos), n.Cross(a).Scale(cos), math.Pi
	}
	for k := range rows {
		row := &rows[k]
		// The legs by pointer: six words each, copied for every call.
		b.addLeg(row, &in, x[k])
		b.addLeg(row, &out, y[k])
		row.Violation = g[k]
	}
}

// addLeg adds to row the coefficient z on the change of leg l's
// direction: for a free leg dl = P (v_q − v_p)/l with P the projection
// across it, for a clamped one dl = ω × dir.
func (b *bend) addLeg(row *multibody.Row, l *leg, z geom.Vec3) {
	if l.p < 0 {
		j := &row.J[b.at[0]]
		if b.next == nil {
			j = &row.J[b.at[2]]
		}
		j.Ang = j.Ang.Add(l.dir.Cross(z))
		return
	}
	c := z.AddScaled(-z.Dot(l.dir), l.dir).Scale(1 / l.length)
	// addPoint written out, c at q then −c at p: it is above the
	// inliner's budget, and a bend's rows take eight points.
	for i, k := range [2]int{l.q, l.p} {
		if i == 1 {
			c = c.Scale(-1)
		}
		j := &row.J[b.at[k]]
		j.Lin = j.Lin.Add(c)
		if n := b.node(k); n.kind != MassNode {
			j.Ang = j.Ang.Add(n.position().Sub(n.body.Pos).Cross(c))
		}
	}
}

// addPoint adds the coefficient c on the velocity of the bend's node k
// (0 prev, 1 mid, 2 next) to its body's block.
func (b *bend) addPoint(row *multibody.Row, k int, c geom.Vec3) {
	n := b.node(k)
	j := &row.J[b.at[k]]
	j.Lin = j.Lin.Add(c)
	if n.kind != MassNode {
		j.Ang = j.Ang.Add(n.position().Sub(n.body.Pos).Cross(c))
	}
}

// node returns the bend's node k: 0 prev, 1 mid, 2 next. (Chosen by a
// switch: an array of the three, built at each call, was a third of
// addPoint.)
func (b *bend) node(k int) *node {
	switch k {
	case 0:
		return b.prev
	case 1:
		return b.mid
	}
	return b.next
}

// braceRows is the number of rows of a bend's braces: two across each
// leg.
const braceRows = 4

// brace fills the bend's brace rows (see braceRows) for a step of h
// seconds, ei the wire's bending stiffness and bodies the segment's: the
// bend's moment M pushes the nodes of a leg of length l across it with
// M/l, and turning the leg turns that push, a stiffness M/l² against the
// leg's ends moving apart across it, which the rows, linear at the start
// of the step, take a step late. Where the leg's vibration under it, of
// angular frequency ω² = M/(l² μ) (μ the reduced mass of its ends), is
// faster than the step resolves, each brace row resists the change of the
// ends' relative velocity across the leg with the inertia s h² M/l², s =
// stability.TurnShare: the least that brings that vibration to ωh =
// stability.TurnLimit. It resists only the relative motion across the
// leg, so the wire's motion as a whole, and its bending waves longer than
// a few legs, keep their inertia. Elsewhere a brace row acts on nothing.
func (b *bend) brace(rows []multibody.Row, h, ei float64, bodies []*multibody.Body) {
	for k := range braceRows {
		rows[k].Holonomic, rows[k].Slip = false, h // idle: no Jacobian, λ = 0
	}
	if b.prev == nil || b.next == nil {
		return // a clamp: its leg is fixed on its body
	}
	pm := b.mid.position()
	a, la := pm.Sub(b.prev.position()).Unit()
	c, lc := b.next.position().Sub(pm).Unit()
	arm := b.arm()
	if !(la > 0 && lc > 0 && arm > 0) {
		return
	}
	// The moment: the last solve's, or the elastic moment EI θ/ℓ̄ at the
	// present shape where that is larger (a bent wire let go from rest).
	m := max(b.mid.moment, ei*math.Atan2(a.Cross(c).Norm(), a.Dot(c))/arm)
	if !(m > 0) {
		return
	}
	for leg, l := range [2]struct {
		p, q int
		dir  geom.Vec3
		len  float64
	}{{0, 1, a, la}, {1, 2, c, lc}} {
		inv := 0.0 // 1/μ
		for _, n := range [2]*node{b.node(l.p), b.node(l.q)} {
			if n.kind == MassNode {
				inv += 1 / n.body.Mass
			}
		}
		k := m / (l.len * l.len)
		share := stability.TurnShare(k*inv, h)
		if share == 0 {
			continue
		}
		e0 := geom.Perpendicular(l.dir)
		for i, e := range [2]geom.Vec3{e0, l.dir.Cross(e0)} {
			row := &rows[2*leg+i]
			b.addPoint(row, l.q, e)
			b.addPoint(row, l.p, e.Scale(-1))
			w := 0.0 // the ends' relative velocity across the leg
			for j, body := range bodies {
				w += row.J[j].Lin.Dot(body.Vel) + row.J[j].Ang.Dot(body.AngVel)
			}
			row.Speed, row.Slip = w, h/(share*h*h*k)
		}
	}
}

// moment returns the bending moment (N·m) of impulses lambda over a step
// of h seconds.
func bendMoment(h float64, lambda []float64) float64 {
	return math.Hypot(lambda[0], lambda[1]) / h
}

// bendNegligible is the share of the stiffness across the wire that a
// mass node's tension gives, T(1/L_a + 1/L_c), below which its bend's,
// EI(1/L_a + 1/L_c)²/ℓ̄, is left out (L_a and L_c the segments' rest
// lengths beside it); bendTakenBack is the share above which a bend left
// out is taken back. Under tension a wire's bending acts within its
// bending length √(EI/T) of a bend, 4 cm in a fall of the example crane
// (78 N·m² at 50 kN), far below its 4 m segments: there the bends' rows
// change the falls' transverse stiffness by 4e-4 and cost the solve
// twice its fill (a bend couples three nodes), 50 % of a taut step. The
// band between the two keeps a tension hovering at the bound from
// rebuilding the rows every step. A clamp keeps its bend. A bend taken
// back holds the energy EI θ²/(2ℓ̄) of its turn at once: about the
// share bendTakenBack of what the tension holds across the same kink.
const (
	bendNegligible = 1e-3
	bendTakenBack  = 1e-2
)

// followTension takes back the bends of the wire's interior mass nodes
// that are no longer negligible beside their tension in the last solve
// (see bendNegligible), and, when the rows are rebuilt anyway
// (rebuilding), leaves out those that became negligible: a bend carried
// too long costs time, one left out too long would change the physics.
// It reports whether it took one back: the rows must be rebuilt. (The
// slack falls of a set-down crane swing through their tensions' band
// some 40 times in 300 steps; each rebuild for it alone redid the
// solver's analysis.)
func (w *Wire) followTension(rebuilding bool) bool {
	changed := false
	for i := 1; i < len(w.nodes)-1; i++ {
		n := w.nodes[i]
		if n.kind != MassNode {
			continue
		}
		la, lc := w.nodes[w.massBefore(i)].rest, n.rest
		t := min(w.nodes[i-1].tension, n.tension)
		share := math.Inf(1)
		if t > 0 {
			share = w.ei * (1/la + 1/lc) / ((la + lc) / 2 * t)
		}
		switch {
		case n.unbent && share > bendTakenBack:
			n.unbent, changed = false, true
		case !n.unbent && share < bendNegligible && rebuilding && !w.allBends:
			n.unbent = true
		}
	}
	return changed
}

// followBraces braces the bends of the wire's interior mass nodes whose
// legs, under the bend's moment, vibrate faster than a step of h seconds
// resolves (see braceRows and brace), and, when the rows are rebuilt
// anyway (rebuilding), takes the braces from those whose legs vibrate
// below half that (a band, so that a node at the bound does not rebuild
// the rows every step). It reports whether it braced one: the rows must
// be rebuilt. A bend's braces act only in the steps that need them (an
// idle brace has no Jacobian); the band keeps a slack wire's rows from
// carrying four idle rows per node.
func (w *Wire) followBraces(h float64, rebuilding bool) bool {
	changed := false
	for i := 1; i < len(w.nodes)-1; i++ {
		n := w.nodes[i]
		if n.kind != MassNode {
			continue
		}
		if n.unbent {
			n.braced = n.braced && !rebuilding
			continue
		}
		omega2 := w.legOmega2(i)
		switch {
		case !n.braced && stability.TurnUnresolved(omega2, h):
			n.braced, changed = true, true
		case n.braced && rebuilding && !stability.TurnUnresolved(4*omega2, h):
			n.braced = false
		}
	}
	return changed
}

// legOmega2 returns the largest ω² (rad²/s²) of the vibration of mass
// node i's legs (to its neighbours) under its bend's moment (see brace):
// the moment the last solve found or, if larger, the bend's elastic
// moment EI θ/ℓ̄ at the present shape.
func (w *Wire) legOmega2(i int) float64 {
	theta, arm := w.turn(i)
	if !(arm > 0) {
		return 0
	}
	n := w.nodes[i]
	m := max(n.moment, w.ei*theta/arm)
	p := n.position()
	worst := 0.0
	for _, o := range [2]*node{w.nodes[i-1], w.nodes[i+1]} {
		d := o.position().Sub(p)
		l2 := d.Dot(d)
		if !(l2 > 0) {
			continue
		}
		inv := 1 / n.body.Mass
		if o.kind == MassNode {
			inv += 1 / o.body.Mass
		}
		worst = max(worst, m/l2*inv)
	}
	return worst
}

// BendingEnergy returns the energy (J) the wire's bends hold, Σ EI θ²/(2ℓ̄)
// over its mass nodes whose bends it carries (see bend, bendNegligible);
// zero for a flexible wire.
func (w *Wire) BendingEnergy() float64 {
	if !(w.ei > 0) {
		return 0
	}
	e := 0.0
	for i, n := range w.nodes {
		if n.kind != MassNode {
			continue
		}
		if theta, arm := w.turn(i); arm > 0 && !n.unbent {
			e += w.ei * theta * theta / (2 * arm)
		}
	}
	return e
}
