package hmrwire

import (
	"fmt"
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// maxContactPasses bounds the passes of removal and insertion in one step
// until the wire lies on or outside every geometry ([SLNB11] §II-C).
const maxContactPasses = 8

// updateContacts manages the contact nodes at the start of a step
// ([SLNB11] §II-C, Algorithm 1 steps 4 and 11):
//
//  1. every contact node moves along its edge to where the wire's pull
//     on it has no component along the edge (the length minimum of eq.
//     18, for equal tensions on its sides), or, with friction, only as
//     far as Coulomb's bound lets the edge hold it; Gauss–Seidel sweeps
//     forward and back (a run on a sheave placed at once where they
//     creep, placeGrooves);
//  2. a node that slid off its edge, that the wire pulls away from the
//     geometry (N ≥ 0, eq. 20), or whose neighbours see each other past
//     the geometry (with the geometry not between the node and their
//     chord) is removed, or, where the wire is slack, released as a mass
//     node;
//  3. where the straight wire between two nodes cuts a geometry, contact
//     nodes are inserted on its edges (a piece reeved over a sheave cuts
//     it as seen along its axle, cutsGroove, and none on the sheaves
//     beside it on its axle, flanged);
//  4. a mass node that a geometry swallowed, or would swallow within the
//     step, merges into its neighbours, and the wire around it wraps the
//     geometry instead;
//
// repeating 2–4 until nothing changes, so that no node lies inside a
// geometry and the wire passes through none.
func (w *Wire) updateContacts(h float64) error {
	if len(w.sys.Geometries) == 0 {
		return nil
	}
	w.updates++ // the nodes' follow and pass marks of the last update are void
	for sweep := 0; sweep < maxSweeps; sweep++ {
		if moved := w.follow(sweep%2 == 1, sweep >= placeAfter); moved <= followTolerance || math.IsInf(moved, 1) {
			break // still, or a node slid off and the route changes
		}
	}
	for pass := 0; ; pass++ {
		if pass == maxContactPasses {
			return nil // the rest settles in the next step
		}
		changed := w.detach()
		if w.swallowed(h, pass == 0) {
			changed = true
		}
		inserted, err := w.insert()
		if err != nil {
			return err
		}
		if !changed && !inserted {
			return nil
		}
	}
}

// Gauss–Seidel sweeps of the contact nodes along their edges alternate in
// direction until no node moves by more than followTolerance (m), at
// most maxSweeps: the paper's two sweeps leave nodes that slide with the
// wire (a wire slipping along a beam) behind it by a share of each step's
// motion, which pulls the wire back.
const (
	maxSweeps       = 64
	followTolerance = 1e-9
	// placeAfter is the sweeps after which the runs on sheaves are placed
	// at once (placeGrooves): most steps settle within one or two.
	placeAfter = 4
)

// follow moves each contact node along its edge (one Gauss–Seidel sweep,
// backward when back is set; with place, the runs on sheaves at once,
// placeGrooves) and returns the largest move (m).
func (w *Wire) follow(back, place bool) float64 {
	moved := 0.0
	if place {
		moved = w.placeGrooves()
	}
	n := len(w.nodes)
	for j := 1; j < n-1; j++ {
		i := j
		if back {
			i = n - 1 - j
		}
		c := w.nodes[i]
		if c.kind != ContactNode || math.IsNaN(c.s) || place && c.geo.axle != nil {
			continue
		}
		// A node that stayed at its last evaluation in this update,
		// its neighbours where they were then, stays again.
		mark := followMark{update: w.updates, self: c.moves, prev: w.nodes[i-1].moves, next: w.nodes[i+1].moves}
		if c.followed == mark {
			continue
		}
		c.followed = mark
		a, b := w.place(w.nodes[i-1]), w.place(w.nodes[i+1])
		// The pull's direction for equal tensions on both sides: the
		// difference that friction along the wire makes between them is
		// left out. Fed back through the stiff wire (a node moved by δ
		// stretches its spans by about δ·sin φ), it made the node's place
		// unstable: a 10 % tension difference moved a node by centimetres
		// along a 2 m span, which slackened or overstretched the wire.
		start, dir, length := c.geo.edgeLine(c.edge)
		s := balance(start, dir, a, b, 1, 1, c.s, c.geo.Friction)
		tol := c.geo.tol
		switch {
		case s < -tol || s > length+tol:
			// Slid off its edge: detach removes it, unless the
			// geometry reaches into the wire's angle at the edge's
			// end. Then the wire runs over that vertex on, and the
			// node waits there while insertion wraps the next edge.
			end := min(max(s, 0), length)
			p := start.AddScaled(end, dir)
			ua, _ := a.Sub(p).Unit()
			ub, _ := b.Sub(p).Unit()
			if !c.geo.wrapsAt(c.edge, end, ua, ub) {
				c.s = math.NaN()
				moved = math.Inf(1)
				continue
			}
			s = end
		default:
			s = min(max(s, 0), length)
		}
		if s != c.s {
			moved = max(moved, math.Abs(s-c.s))
			c.s, c.local = s, c.geo.local(start.AddScaled(s, dir))
			c.moves++
		}
	}
	return moved
}

// placeGrooves places each run of consecutive contact nodes on one
// sheave where the wire over it is shortest and returns the largest move
// (m). A sheave's edges all run along its axle, so the wire from the node
// before the run over the run's edges to the node after it is
// Σ √(d_k² + (z_{k+1} − z_k)²), d_k the distance between consecutive
// lines (from the outer nodes to the first and last edge) and z the
// place along the axle: unrolled, a straight line, z linear in the
// distance Σd along it. The groove holds the rope where that line crosses
// it, within its flanges (the edges' ends), by its shape rather than by
// friction across the edge; found at once where sweeps of the nodes one
// by one creep there (placeAfter: a fall running skew onto a hook sheave
// of a turned block took 20 sweeps a step, most of a twisting wire's
// set-down).
func (w *Wire) placeGrooves() float64 {
	moved := 0.0
	for i := 1; i < len(w.nodes)-1; {
		g := w.nodes[i].geo
		if w.nodes[i].kind != ContactNode || g.axle == nil {
			i++
			continue
		}
		last := i
		for last+1 < len(w.nodes)-1 && w.onGeometry(last+1, g) {
			last++
		}
		moved = max(moved, w.placeRun(g, i, last))
		i = last + 1
	}
	return moved
}

// placeRun places nodes first to last, contact nodes on the sheave g (see
// placeGrooves), and returns the largest move (m).
func (w *Wire) placeRun(g *Geometry, first, last int) float64 {
	axis := g.Body.Rot.Rotate(geom.V(0, 0, 1))
	across := func(v geom.Vec3) float64 { return v.Sub(axis.Scale(v.Dot(axis))).Norm() }
	a, b := w.place(w.nodes[first-1]), w.place(w.nodes[last+1])
	// Distances d between consecutive lines, cumulated: u[k] up to node k.
	u := w.unrolled[:0]
	prev := a
	total := 0.0
	for k := first; k <= last; k++ {
		// A lateral edge's line by its start; a rim edge's (across the
		// axle) by the node itself, which stays where it is.
		p, dir, _ := g.edgeLine(w.nodes[k].edge)
		if math.Abs(dir.Dot(axis)) < 0.5 {
			p = w.nodes[k].position()
		}
		total += across(p.Sub(prev))
		u = append(u, total)
		prev = p
	}
	total += across(b.Sub(prev))
	w.unrolled = u
	if !(total > 0) {
		return 0
	}
	za, zb := a.Sub(g.centre).Dot(axis), b.Sub(g.centre).Dot(axis)
	moved := 0.0
	for k := first; k <= last; k++ {
		c := w.nodes[k]
		start, dir, length := g.edgeLine(c.edge)
		along := dir.Dot(axis)
		if math.Abs(along) < 0.5 {
			continue // a rim edge: left where it is
		}
		z := za + (zb-za)*u[k-first]/total
		s := min(max((z-start.Sub(g.centre).Dot(axis))/along, 0), length)
		if s != c.s {
			moved = max(moved, math.Abs(s-c.s))
			c.s, c.local = s, g.local(start.AddScaled(s, dir))
			c.moves++
		}
	}
	return moved
}

// balance returns where along the line start + s·dir a massless node
// pulled by tensions ta towards a and tb towards b comes to rest, starting
// from s0: where the pull's component along the line vanishes (for ta =
// tb the shortest path a → node → b, eq. 18), or, with friction μ, s0
// itself if the component is within μ times the pull across the line
// (stick), else the nearest point towards that balance where it is
// (slide at Coulomb's bound). The along-line pull φ(s) = −d/ds (ta|a − p|
// + tb|b − p|) decreases with s (the weighted length is convex), so the
// points are found within a bracket (see below).
func balance(start, dir, a, b geom.Vec3, ta, tb, s0, mu float64) float64 {
	pull := func(s float64) (along, across float64) { return pullAt(start, dir, a, b, ta, tb, s) }
	along, across := pull(s0)
	if math.Abs(along) <= mu*across {
		return s0
	}
	// Bracket the balance φ = 0 on the side the pull points to.
	if math.IsNaN(along) {
		return s0
	}
	step := max(a.Sub(b).Norm(), 1e-3)
	lo, hi := s0, s0
	for it := 0; it < 64; it++ {
		if along > 0 {
			hi += step
			if f, _ := pull(hi); !(f > 0) {
				break
			}
		} else {
			lo -= step
			if f, _ := pull(lo); !(f < 0) {
				break
			}
		}
		step *= 2
	}
	// Find |φ| = μ·across between s0 (|φ| above it) and the balance
	// side: ψ(s) = sign·φ(s) − μ·across(s) changes sign there. Regula
	// falsi with the Illinois halving (the end kept twice has its value
	// halved), to a thousandth of followTolerance: the sweeps stop at
	// it, and a slack wire's nodes slide a little in every sweep (the
	// bisection's 40 halvings of a metre's bracket were most of a
	// twisting wire's set-down; this takes about a fifth of them).
	sign := math.Copysign(1, along)
	psi := func(s float64) float64 {
		f, x := pull(s)
		return sign*f - mu*x
	}
	// slide is the end where the node still slides (ψ > 0), stuck the
	// other; ψ is not above zero there (NaN counts as stuck).
	slide, stuck := s0, hi
	if sign < 0 {
		stuck = lo
	}
	fs, ft := psi(slide), psi(stuck)
	kept := 0 // +1: slide kept last time, −1: stuck kept
	// Where the pull jumps (a neighbour on the edge's line, whose leg
	// there has no length) the secant can creep: a step that did not
	// halve the bracket of two steps before is followed by a bisection,
	// so the bracket halves at least every other step, as bisection's
	// does every step.
	width, before := math.Abs(stuck-slide), math.Inf(1)
	for it := 0; it < 120 && width > 1e-3*followTolerance; it++ {
		c := (slide*ft - stuck*fs) / (ft - fs)
		if !(ft < 0 && fs > 0) || !(min(slide, stuck) < c && c < max(slide, stuck)) || width > before/2 {
			c = (slide + stuck) / 2 // no usable secant, or it crept
		}
		fc := psi(c)
		if fc > 0 {
			slide, fs = c, fc
			if kept == -1 {
				ft /= 2
			}
			kept = -1
		} else {
			stuck, ft = c, fc
			if kept == 1 {
				fs /= 2
			}
			kept = 1
		}
		if it%2 == 1 {
			before = width
		}
		width = math.Abs(stuck - slide)
	}
	return stuck
}

// pullAt returns the pull on a massless node at start + s·dir by tensions
// ta towards a and tb towards b: its component along the unit dir and the
// size of the rest.
func pullAt(start, dir, a, b geom.Vec3, ta, tb, s float64) (along, across float64) {
	p := start.AddScaled(s, dir)
	ua, _ := a.Sub(p).Unit()
	ub, _ := b.Sub(p).Unit()
	f := ua.Scale(ta).Add(ub.Scale(tb))
	along = f.Dot(dir)
	return along, f.Sub(dir.Scale(along)).Norm()
}

// detach removes the contact nodes that slid off their edge, that the
// wire pulls away from their geometry, or that the wire no longer needs
// (its neighbours see each other past the geometry). It reports whether
// any went.
func (w *Wire) detach() bool {
	removed := false
	// The places of the node and the next one kept at index kept: a and
	// p of the next node if it is a contact node too (a run on a sheave).
	kept := -1
	var keptP, keptB geom.Vec3
	for i := 1; i < len(w.nodes)-1; i++ {
		c := w.nodes[i]
		if c.kind != ContactNode {
			continue
		}
		prev, next := w.nodes[i-1], w.nodes[i+1]
		if m := &c.passed; m.keptIn == w.updates && m.keptPrev == prev && m.keptNext == next {
			continue // kept in an earlier pass (see passMarks)
		}
		drop := math.IsNaN(c.s)
		if !drop {
			var a, p geom.Vec3
			if kept == i-1 {
				a, p = keptP, keptB
			} else {
				a, p = w.place(prev), w.place(c)
			}
			b := w.place(next)
			kept, keptP, keptB = i, p, b
			ua, _ := a.Sub(p).Unit()
			ub, _ := b.Sub(p).Unit()
			// Dropped if the wire straightening to the chord a–b would
			// not sweep through the geometry (a box hung on a wire from
			// two posts has the posts' chord above it; a box tipping on
			// the corner it hangs from turns that edge's mean normal up):
			// the geometry does not reach into the wire's angle at the
			// node, and the wire pulls the node out of the geometry or
			// its neighbours see each other past it. (wraps first: it is
			// local to the edge, Cuts is linear in the geometry's faces;
			// the pull only where it is not, most nodes being wrapped.)
			if !c.geo.wrapsAt(c.edge, c.s, ua, ub) {
				ta, tb := prev.tension, c.tension
				if !(ta > 0 && tb > 0) {
					ta, tb = 1, 1
				}
				// N ≥ 0: the wire pulls the node out of the geometry (eq. 20).
				pull := ua.Scale(ta).Add(ub.Scale(tb))
				drop = pull.Dot(c.geo.edgeNormal(c.edge)) >= 0 || !c.geo.cutsGroove(a, b)
			}
		}
		if !drop {
			c.passed.keptIn, c.passed.keptPrev, c.passed.keptNext = w.updates, prev, next
			continue
		}
		removed, kept = true, -1
		// A slack wire has no straight shape to fall back to: removing
		// the node would move the wire to the straight line between its
		// neighbours, maybe to the geometry's far side. The paper
		// releases it as a mass node instead, where it is.
		if !math.IsNaN(c.s) && !(prev.tension > 0 && c.tension > 0) && w.release(i) {
			continue
		}
		w.removeNode(i)
		i--
	}
	return removed
}

// contactGeometry returns the geometry node i is a contact node on, nil
// if it is no contact node.
func (w *Wire) contactGeometry(i int) *Geometry {
	if n := w.nodes[i]; n.kind == ContactNode {
		return n.geo
	}
	return nil
}

// onGeometry reports whether node i is a contact node on g.
func (w *Wire) onGeometry(i int, g *Geometry) bool {
	n := w.nodes[i]
	return n.kind == ContactNode && n.geo == g
}

// release turns the contact node i into a mass node where it is, as a
// refinement of its segment at that point: with the segment's mass nodes
// a and c and the rest lengths L₁, L₂ the node splits it into (in
// proportion to the lengths now), a gives it ρL₂/2 and c gives ρL₁/2
// (at most half of theirs) with their momentum, so mass, rest length and
// momentum are kept and kinetic energy cannot grow. It reports false
// (nothing done) when the resolution's bounds forbid the new node.
func (w *Wire) release(i int) bool {
	if mass, _, _ := w.Counts(); mass >= w.Resolution.MaxMassNodes {
		return false
	}
	ia, ic := w.massBefore(i), w.massAfter(i)
	s1, s := 0.0, 0.0
	for k := ia + 1; k <= ic; k++ {
		l := w.nodes[k].position().Sub(w.nodes[k-1].position()).Norm()
		if k <= i {
			s1 += l
		}
		s += l
	}
	a, c := w.nodes[ia], w.nodes[ic]
	L := a.rest
	if !(s > 0) {
		return false
	}
	L1 := L * s1 / s
	L2 := L - L1
	if L1 < w.Resolution.MinSegment || L2 < w.Resolution.MinSegment {
		return false
	}
	rho := w.mu
	dA, dC := min(rho*L2/2, a.body.Mass/2), min(rho*L1/2, c.body.Mass/2)
	mb := dA + dC
	if !(mb > 0) {
		return false
	}
	n := w.nodes[i]
	b := &node{kind: MassNode, body: multibody.NewParticle(w.Name, mb, n.position()), tension: n.tension}
	b.body.Vel = a.body.Vel.Scale(dA).AddScaled(dC, c.body.Vel).Scale(1 / mb)
	a.body.Mass -= dA
	c.body.Mass -= dC
	a.rest, b.rest = L1, L2
	b.twist = a.twist * L2 / L // shared as the rest length is
	a.twist -= b.twist
	w.nodes[i] = b
	w.sys.World.AddBody(b.body)
	w.changed = true
	w.resetStick(ia)
	w.resetStick(i)
	w.Released++
	return true
}

// removeNode takes the massless node i out of the wire.
func (w *Wire) removeNode(i int) {
	w.nodes = slices.Delete(w.nodes, i, i+1)
	w.changed = true
	w.resetStick(i - 1)
}

// resetStick sets the held material point of every frictional contact
// node in the segment holding node i to where it is now: the wire's
// route changed, and the stick rows start from it.
func (w *Wire) resetStick(i int) { w.hold(i, true) }

// hold sets the held material point σ of contact node i (of every
// contact node in its segment, with all) to where the wire is now: the
// rest length up to the node, each sub-segment's length l_k taken back to
// rest by its tension of the last solve, l_k/(1 + T_k/EA), and scaled so
// that they sum to the segment's rest length L. Taking the strain as
// uniform instead (σ = L·S₁/S) would hold the point where the stick row
// sees no tension difference: a wire that had slid under a tension ratio
// would be pulled back towards equal tensions in the step it sticks, and
// a wire sliding steadily over a drum stuck and slid in turn.
func (w *Wire) hold(i int, all bool) {
	first := i
	if w.nodes[i].kind != MassNode {
		first = w.massBefore(i)
	}
	last := w.massAfter(first)
	// rest[k−first−1] is sub-segment k−1…k at rest.
	rest := w.rests[:0]
	total := 0.0
	p := w.place(w.nodes[first])
	for k := first + 1; k <= last; k++ {
		q := w.place(w.nodes[k])
		r := q.Sub(p).Norm() / (1 + max(w.nodes[k-1].tension, 0)/w.ea)
		rest = append(rest, r)
		total += r
		p = q
	}
	w.rests = rest
	if total == 0 {
		return
	}
	L, s := w.nodes[first].rest, 0.0
	for k := first + 1; k < last; k++ {
		s += rest[k-first-1]
		if n := w.nodes[k]; n.kind == ContactNode && (all || k == i) {
			n.sigma = L * s / total
			n.sliding = false
		}
	}
}

// maxInsertions bounds the contact nodes inserted into one wire in one
// step.
const maxInsertions = 4096

// insert adds contact nodes where the straight wire between two nodes
// cuts a geometry, and reports whether it added any.
func (w *Wire) insert() (bool, error) {
	added := 0
	// b, the next node's position, is the following piece's a: a node's
	// position turns its body's offset (the test of every piece against
	// every geometry is most of the contact update).
	var b geom.Vec3
	known := false
pieces:
	for i := 0; i < len(w.nodes)-1; i++ {
		from, to := w.nodes[i], w.nodes[i+1]
		a := b
		if !known {
			a = w.place(from)
		}
		b, known = w.place(to), true
		if m := &from.passed; m.pieceIn == w.updates && m.pieceTo == to {
			continue // needs none, found in an earlier pass (see passMarks)
		}
		// The geometries nodes i and i+1 are contact nodes on (nil for
		// other nodes): onGeometry(i, g) is g == gi.
		gi, gj := w.contactGeometry(i), w.contactGeometry(i+1)
		for _, g := range w.sys.Geometries {
			on := g == gi || g == gj
			if !on && pieceMisses(a, b, g.boxLo, g.boxHi) {
				continue // cuts would say so at its first test
			}
			// Both on g, on edges of one face: the piece lies on it.
			if gi == g && gj == g && g.Shape.oneFace(from.edge, to.edge) || !w.cuts(g, on, a, b) || w.flanged(i, g) || w.pinnedInside(i, g) || w.pinnedInside(i+1, g) {
				continue
			}
			n := w.wrapNode(g, i, a, b)
			if n == nil {
				continue
			}
			if added++; added > maxInsertions {
				return true, fmt.Errorf("more than %d contact nodes needed in one step", maxInsertions)
			}
			n.tension = w.nodes[i].tension // the sub-segment it splits
			w.nodes = slices.Insert(w.nodes, i+1, n)
			w.changed = true
			w.resetStick(i + 1)
			i-- // test the two new pieces again
			known = false
			continue pieces
		}
		from.passed.pieceIn, from.passed.pieceTo = w.updates, to
	}
	return added > 0, nil
}

// cuts reports whether the piece of wire from a to b passes through g: a
// piece reeved over a sheave (on set: a node of it on the sheave) as seen
// along the sheave's axle (cutsGroove).
func (w *Wire) cuts(g *Geometry, on bool, a, b geom.Vec3) bool {
	return g.Cuts(a, b) || g.axle != nil && on && g.cutsGroove(a, b)
}

// flanged reports whether node i or i+1 is a contact node on a sheave
// beside g (side by side on one axle, Geometry.beside): the piece runs in
// that sheave's groove, and the flange between the grooves keeps it off
// g. The shapes are the grooves' bottoms without flanges (a Hoist sets
// them a tenth of their width apart): a fall pulled against the flange by
// its fleet angle leaves its groove at the edge's end, and its piece
// clipped the corner of the sheave beside it (by up to 3.3 mm in
// set-downs), which walked a slack fall onto that sheave in the lift
// after an ordinary set-down. A wire pulled so far across that it would
// ride over the flange (a fleet angle far beyond any groove's, which
// Sheave.Beyond reports) keeps to its groove and passes through the
// neighbour's shape: letting it wrap the neighbour where it went deeper
// than a tenth of its width made the wire chatter between the two and
// gain 35–55 J in 4 s.
func (w *Wire) flanged(i int, g *Geometry) bool {
	for _, k := range [2]int{i, i + 1} {
		if n := w.nodes[k]; n.kind == ContactNode && slices.Contains(g.beside, n.geo) {
			return true
		}
	}
	return false
}

// pinnedInside reports whether node i is an eye or a wire end (which
// no geometry swallows) and lies inside g: no contact node can take the
// wire around g from there (an end on a sheave's pin, an eye inside a
// hook block's shape, a free end swung into a box), so that piece passes
// through g.
func (w *Wire) pinnedInside(i int, g *Geometry) bool {
	n := w.nodes[i]
	return (n.kind == EyeNode || i == 0 || i == len(w.nodes)-1) && g.Inside(n.position())
}

// wrapNode returns the contact node on an edge of g through which the
// wire from a (node i) to b (node i+1) is shortest, preferring an edge
// through which it passes g on both sides; nil if every edge is taken by
// the two nodes themselves. The edges are tried in the order of the
// length through them, so that the test of passing g, the costly part,
// runs on the few shortest only.
func (w *Wire) wrapNode(g *Geometry, i int, a, b geom.Vec3) *node {
	c := w.candidates[:0]
	for e := range g.Shape.edges {
		if w.onEdge(i, g, e) || w.onEdge(i+1, g, e) {
			continue
		}
		if g.axle != nil && !g.Shape.alongZ(e) {
			// A sheave holds the wire in its groove: on the edges along
			// its axle, at their ends where a fleet angle pulls it
			// against a flange, never on the rims. (A node on a rim, its
			// end face all but along the wire, kept a fall wrapped 255°
			// round a boom sheave after a swing had carried it round:
			// the face reached into the wire's angle by a sliver, and
			// the run could not unwrap; the sheave stood while the
			// falls beside it carried 3:1.)
			continue
		}
		start, dir, length := g.edgeLine(e)
		s := min(max(shortestOnLine(start, dir, a, b), 0), length)
		p := start.AddScaled(s, dir)
		if p.Sub(a).Norm() <= g.tol || p.Sub(b).Norm() <= g.tol {
			// Where a neighbour already is (a corner reached through
			// another of its edges): the pieces would be the same, and
			// the insertion would repeat until its bound.
			continue
		}
		c = append(c, candidate{e: e, s: s, cost: p.Sub(a).Norm() + b.Sub(p).Norm()})
	}
	w.candidates = c
	if len(c) == 0 {
		return nil
	}
	// The shortest first (the first edge of equal ones), until one
	// passes g: mostly the first.
	shortest := -1
	for range c {
		k := -1
		for j := range c {
			if !math.IsInf(c[j].cost, 1) && (k < 0 || c[j].cost < c[k].cost) {
				k = j
			}
		}
		if k < 0 {
			break
		}
		start, dir, _ := g.edgeLine(c[k].e)
		if p := start.AddScaled(c[k].s, dir); !g.cutsGroove(a, p) && !g.cutsGroove(p, b) {
			return g.contactAt(c[k].e, c[k].s)
		}
		if shortest < 0 {
			shortest = k
		}
		c[k].cost = math.Inf(1) // tried
	}
	if shortest < 0 {
		shortest = 0 // every length non-finite
	}
	return g.contactAt(c[shortest].e, c[shortest].s)
}

// candidate is an edge a new contact node could take: edge e, at s (m)
// along it, the wire's length through it cost (m).
type candidate struct {
	e       int
	s, cost float64
}

// shortestOnLine returns s where a → start + s·dir → b is shortest (dir a
// unit vector): turning b about the line into a's plane, on the far side,
// keeps its distances to the line's points, and the shortest path is then
// straight, s = (s_a d_b + s_b d_a)/(d_a + d_b) with s_a, s_b the points'
// positions along the line and d_a, d_b their distances from it (eq. 18
// for equal tensions).
func shortestOnLine(start, dir, a, b geom.Vec3) float64 {
	ra, rb := a.Sub(start), b.Sub(start)
	sa, sb := ra.Dot(dir), rb.Dot(dir)
	da, db := ra.Sub(dir.Scale(sa)).Norm(), rb.Sub(dir.Scale(sb)).Norm()
	if da+db == 0 {
		return (sa + sb) / 2 // both on the line: any point between
	}
	return (sa*db + sb*da) / (da + db)
}

// onEdge reports whether node i is a contact node on edge e of g.
func (w *Wire) onEdge(i int, g *Geometry, e int) bool {
	n := w.nodes[i]
	return n.kind == ContactNode && n.geo == g && n.edge == e
}

// swallowed merges every free mass node inside a geometry, or, with
// ahead, on its way into one within the coming step of h seconds, into
// its neighbours and reports whether there was one. The wire's ends stay where their bodies
// hold them. The mass nodes never touch a geometry ([SLNB11] §II-C: the
// contact nodes on its edges carry the wire), so one must go before it
// gets there: a slack fall collapsing from a 45 m boom tip reaches the
// load at 22 m/s, 0.37 m in a step of 1/60 s, and went 7 cm into it
// within the step that it merged after.
func (w *Wire) swallowed(h float64, ahead bool) bool {
	merged := false
	for i := 1; i < len(w.nodes)-1; i++ {
		n := w.nodes[i]
		if n.kind != MassNode || !ahead && n.passed.outsideIn == w.updates {
			continue // inside none, found in an earlier pass (see passMarks)
		}
		outside := true
		for _, g := range w.sys.Geometries {
			// Inside written out: most nodes are outside the sphere,
			// and the call for each geometry cost as much as the test.
			if g.nearby(n.body.Pos) && g.deeper(n.body.Pos, g.tol) || ahead && g.entering(n.body.Pos, n.body.Vel, h) {
				w.merge(i)
				merged, outside = true, false
				i--
				break
			}
		}
		if outside {
			n.passed.outsideIn = w.updates
		}
	}
	return merged
}

// slide moves the held material point of every contact node that slid
// along the wire in the last step to where the wire is now (a stick row
// at its bound let the wire through).
func (w *Wire) slide() {
	for i, n := range w.nodes {
		if n.kind == ContactNode && n.sliding {
			w.hold(i, false)
		}
	}
}
