package hmrwire

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// The twist of a wire (WireSpec.Twist). Each mass node carries the roll
// of the wire's cross-section about the wire as a rotational degree of
// freedom: its particle is a body with the inertia m d²/8 about one axis
// (a round section's), turned before every step so that axis lies along
// the wire there (the mean of the directions into and out of the node),
// spinning about it at the roll rate it had. Each segment holds its twist
// τ (rad), the turn of its last node's section against its first's, with
// the compliance L/GJ of its rest length L; it holds it against the
// rope's torque k·d·T (material.Rope.Torque): the rope's section turns
// freely to the twist −k·d·T·L/GJ under the tension T of the last step,
// as in the massless cable's twist row (the sign that turns a load hung
// from a rope of positive torque factor counterclockwise seen from
// above, material.Rope.TorqueFactor).
//
// The twist is carried over eye and contact nodes, where the wire may
// turn in the groove: the segment's twist row acts on their bodies only
// as the wire's turning makes it, a moment M·(d_in − d_out) at a node
// where the wire's direction turns from d_in to d_out (the wire's moment
// M·d about its axis changes direction there, and the geometry holds the
// change). So a hook block whose sheaves the falls run over turns under
// the ropes' torque, and turning it twists the falls: the rows' moments
// on the nodes and the geometry sum to zero where each end node's axis
// lies along the segment's first and last pieces (at a bent node the
// part across its axis is lost: the node cannot turn across).
//
// A locked end holds the wire's section to its body (a dead end, the
// drum) with a rigid row on the twist of the end against the body about
// the wire, whose impulse is the rope's torque there; a swivel end
// (RoutePoint.Swivel) turns freely. Merging two segments adds their
// twists, splitting one halves it (or shares it by the rest lengths), as
// rest lengths go: twist, like length, is conserved by every change of
// resolution.

// rollInertia returns the moment of inertia (kg·m²) of mass m (kg) of the
// wire about its axis: a round section's, m d²/8.
func (w *Wire) rollInertia(m float64) float64 {
	d := w.Rope.Diameter
	return m * d * d / 8
}

// alignTwist turns each mass node's body so that its one axis of inertia
// lies along the wire at the node, keeping its roll rate, with the
// inertia of its mass: before each step of a wire that twists.
func (w *Wire) alignTwist() {
	last := len(w.nodes) - 1
	for i, n := range w.nodes {
		if n.kind != MassNode {
			continue
		}
		var t geom.Vec3
		p := n.position()
		if i > 0 {
			d, _ := p.Sub(w.nodes[i-1].position()).Unit()
			t = t.Add(d)
		}
		if i < last {
			d, _ := w.nodes[i+1].position().Sub(p).Unit()
			t = t.Add(d)
		}
		b := n.body
		// The body's axis: where the last step left it (turning about
		// itself keeps it), from the orientation a state restores too.
		was := b.Rot.Rotate(geom.V(1, 0, 0))
		axis, l := t.Unit()
		if !(l > 1e-9) {
			axis = was // folded straight back, or two nodes at one point
		}
		roll := b.AngVel.Dot(was)
		n.axis = axis
		b.Rot = geom.RotationBetween(geom.V(1, 0, 0), axis)
		b.AngVel = axis.Scale(roll)
		b.Inertia = geom.V(w.rollInertia(b.Mass), 0, 0)
	}
}

// twistRows returns the number of twist rows a segment from wire node
// first to node last carries: its twist row, and one for each locked end
// of the wire it holds that is not a swivel.
func (w *Wire) twistRows(first, last int) int {
	if !w.twist {
		return 0
	}
	n := 1
	if first == 0 && w.nodes[0].lock != nil && !w.swivelFirst {
		n++
	}
	if end := len(w.nodes) - 1; last == end && w.nodes[end].lock != nil && !w.swivelLast {
		n++
	}
	return n
}

// twistAt returns the index of the segment's twist row.
func (s *segment) twistAt() int { return s.bendAt(len(s.bends)) }

// endLocks returns the locks whose twist rows the segment holds after its
// twist row, in order (first end, last end), nil where none.
func (s *segment) endLocks() (first, last *lock) {
	w := s.wire
	if !w.twist {
		return nil, nil
	}
	if s.nodes[0] == w.nodes[0] && !w.swivelFirst {
		first = w.nodes[0].lock
	}
	if end := w.nodes[len(w.nodes)-1]; s.nodes[len(s.nodes)-1] == end && !w.swivelLast {
		last = end.lock
	}
	return first, last
}

// twistUpdate fills the segment's twist rows (see the top of this file)
// for a step of h seconds.
func (s *segment) twistUpdate(h float64, rows []multibody.Row) {
	w := s.wire
	row := &rows[0]
	a, b := s.nodes[0], s.nodes[len(s.nodes)-1]
	row.J[s.at[0]].Ang = row.J[s.at[0]].Ang.Sub(a.axis)
	last := len(s.nodes) - 1
	row.J[s.at[last]].Ang = row.J[s.at[last]].Ang.Add(b.axis)
	at, dir := s.at[:last], s.dir[:last] // cut to one length: one bounds check
	for k := 1; k < last; k++ {
		// The wire turning at a node on a body: that body holds the
		// change of the wire's moment, M·(d_in − d_out).
		j := &row.J[at[k]]
		j.Ang = j.Ang.Add(dir[k-1].Sub(dir[k]))
	}
	L := s.rest()
	row.Violation = a.twist + w.Rope.Torque(a.tension)*L/w.gj
	row.Compliance = L / w.gj
	row.Damping = w.Rope.DampingTime
	copy(s.twistJ, row.J)
	// The locks' rows, first end then last, written out: most segments
	// have none, and a loop over an array of the two cost more than the
	// tests.
	k := 1
	first, lastLock := s.endLocks()
	if first != nil {
		s.lockTwistRow(&rows[k], first, a, h)
		k++
	}
	if lastLock != nil {
		s.lockTwistRow(&rows[k], lastLock, b, h)
	}
}

// lockTwistRow fills row r of the lock l holding the end node n for a
// step of h seconds: the node's roll about its axis against its body.
func (s *segment) lockTwistRow(r *multibody.Row, l *lock, n *node, h float64) {
	ni, bi := s.bodyIndex(n.body), s.bodyIndex(l.body)
	r.J[ni].Ang = r.J[ni].Ang.Add(n.axis)
	r.J[bi].Ang = r.J[bi].Ang.Sub(n.axis)
	r.Violation = l.twist
	r.Damping = rigidDamping * h
}

// twistApply takes the solved impulses of the segment's twist rows (from
// its twist row on) after a step of h seconds: the twist moves by the
// step's rates, and each locked end keeps its torque and turns by the
// end's roll against its body.
func (s *segment) twistApply(h float64, lambda []float64) {
	rate := 0.0
	for k, b := range s.bodies {
		j := &s.twistJ[k] // not a copy: its six words were a third of the loop
		rate += j.Lin.Dot(b.Vel) + j.Ang.Dot(b.AngVel)
	}
	s.nodes[0].twist += h * rate
	a, b := s.nodes[0], s.nodes[len(s.nodes)-1]
	k := 1 // the locks' rows, as twistUpdate fills them
	first, last := s.endLocks()
	if first != nil {
		first.takeTwist(h, lambda[k], a)
		k++
	}
	if last != nil {
		last.takeTwist(h, lambda[k], b)
	}
}

// takeTwist takes the impulse lambda of the twist row of lock l, holding
// the end node n, after a step of h seconds: the lock keeps its torque
// and turns by the end's roll against its body.
func (l *lock) takeTwist(h, lambda float64, n *node) {
	l.torque = -lambda / h
	l.twist += h * (n.body.AngVel.Dot(n.axis) - l.body.AngVel.Dot(n.axis))
}

// EndTorques returns the rope's torque (N·m) on the body at its first
// and last end in the last step, about the wire's direction from the body
// into the wire: positive the way a rope of positive torque factor turns
// its ends (a load hung from it counterclockwise seen from above, and
// its top anchor likewise about the downward wire; see
// material.Rope.TorqueFactor); zero at a swivel, a free end, or on a wire
// without twist.
func (w *Wire) EndTorques() (first, last float64) {
	if !w.twist {
		return 0, 0
	}
	if l := w.nodes[0].lock; l != nil && !w.swivelFirst {
		first = l.torque
	}
	if l := w.nodes[len(w.nodes)-1].lock; l != nil && !w.swivelLast {
		last = -l.torque // the wire runs into its last end
	}
	return first, last
}

// Twist returns the wire's twist (rad): the sum of its segments'.
func (w *Wire) Twist() float64 {
	t := 0.0
	for _, n := range w.nodes {
		t += n.twist
	}
	return t
}

// twistEnergy returns the energy (J) the wire's twist holds against the
// rope's torque-free twist, Σ GJ (τ − τ₀)²/(2L).
func (w *Wire) twistEnergy() float64 {
	if !w.twist {
		return 0
	}
	e := 0.0
	for _, n := range w.nodes {
		if n.kind == MassNode && n.rest > 0 {
			d := n.twist + w.Rope.Torque(n.tension)*n.rest/w.gj
			e += w.gj * d * d / (2 * n.rest)
		}
	}
	return e
}
