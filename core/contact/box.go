package contact

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Box is a box of half extents Half (m) centred on its Body's frame and
// aligned with it, with friction coefficient Friction (μ) against what
// touches it: a load that a slack rope lies on.
type Box struct {
	Body     *multibody.Body
	Half     geom.Vec3
	Friction float64
}

// Capsule is the straight piece of a body from body-frame point A to
// point B (m) with radius Radius (m): a rope's segment.
type Capsule struct {
	Body   *multibody.Body
	A, B   geom.Vec3
	Radius float64
}

// BoxContact keeps a capsule out of a box at up to three points of its
// axis: its two ends and the point between them nearest the box (deepest
// inside it), where that is not an end. The box's signed distance is
// convex along the axis, so a capsule lying on a face is held at its
// ends, one across an edge at the edge, and one resting on an end and an
// edge at both. Each point within reach (the gap below the margin plus the
// step's approach) has a normal row that can only push the two apart
// along the box's outward normal there (rigid, SPOOK-stabilized, λ ≥ 0)
// and two tangential velocity rows bounded by μ times its normal impulse
// of the previous step, acting on both bodies.
type BoxContact struct {
	box     *Box
	capsule Capsule
	bodies  [2]*multibody.Body
	normal  [boxPoints]float64 // normal impulses of the last step, N·s
	// normalStep is the length (s) of the step that gave normal (0 before
	// the first; see Contact.normalStep).
	normalStep float64
	// arm is the capsule's reach from its body's centre, the larger of
	// |A| and |B| (far), found when the ends move rather than each step.
	arm float64
	// Damping is γ of the normal rows (s); zero means two steps (see
	// Contact.Damping).
	Damping float64
	// brackets are Rebound's searches within a step, a point's each.
	brackets [boxPoints]bracket
}

// boxPoints is the number of contact points of a BoxContact: A, B and the
// nearest between.
const boxPoints = 3

// NewBoxContact returns the contact of capsule c with box b.
func NewBoxContact(b *Box, c Capsule) *BoxContact {
	bc := &BoxContact{box: b, capsule: c, bodies: [2]*multibody.Body{c.Body, b.Body}}
	bc.SetEnds(c.A, c.B) // and its arm
	return bc
}

// SetEnds moves the capsule's ends (body frame, m): a rope segment paid
// out by a winch grows.
func (c *BoxContact) SetEnds(a, b geom.Vec3) {
	c.capsule.A, c.capsule.B = a, b
	c.arm = max(a.Norm(), b.Norm())
}

// Bodies implements multibody.Constraint: the capsule's body, then the box's.
func (c *BoxContact) Bodies() []*multibody.Body { return c.bodies[:] }

// Rows implements multibody.Constraint: per contact point (A, B, the
// nearest between) a normal row, then two tangential.
func (c *BoxContact) Rows() int { return 3 * boxPoints }

// boxSearch bounds the ternary search along the axis: 60 thirds leave
// 3e-11 of it.
const boxSearch = 60

// contactPoint is one point of a BoxContact: on the capsule's axis
// (world), the box's outward normal there and the gap (m, negative
// inside), and whether it is within reach of the box this step.
type contactPoint struct {
	p, normal geom.Vec3
	gap       float64
	on        bool
}

// far reports, from the bodies' centres and speeds alone, that the
// capsule cannot reach the box within a step of h seconds: spheres about
// the two, grown by the margin and the fastest approach of their points,
// do not meet (most of a rope's segments, most steps, for a few products),
// or else the box's distance from the capsule's centre says so (clear).
func (c *BoxContact) far(h float64) bool {
	cb, bb := c.capsule.Body, c.box.Body
	arm := c.arm // from the capsule body's centre
	box := c.box.Half.Norm()
	apart := cb.Pos.Sub(bb.Pos).Norm()
	approach := cb.Vel.Sub(bb.Vel).Norm() + cb.AngVel.Norm()*arm + bb.AngVel.Norm()*(box+arm+apart)
	return apart > box+arm+c.capsule.Radius+Margin+approach*h || c.clear(h)
}

// clear reports that near finds every point of the capsule's axis out of
// reach, from the box's distance from the capsule's centre (a rope's
// segments next to the load, which far's spheres do not tell apart): the
// axis is within arm·f_c of the centre (f of the capsule body's
// orientation, see gain), which moves the distance, taken in the box's
// frame as distance takes it, by at most f_b times that, and its points
// approach the box at most at speed. The bound must hold by 1e-9 of the
// magnitudes involved, far beyond the rounding of near's distances.
func (c *BoxContact) clear(h float64) bool {
	cb, bb := c.capsule.Body, c.box.Body
	lever := c.arm * gain(cb.Rot)
	apart := cb.Pos.Sub(bb.Pos).Norm()
	speed := cb.Vel.Sub(bb.Vel).Norm() + cb.AngVel.Norm()*lever + bb.AngVel.Norm()*(apart+lever)
	reach := Margin + speed*h
	d, _ := c.distance(cb.Pos)
	lever *= gain(bb.Rot)
	return d-lever-c.capsule.Radius-reach > 1e-9*(math.Abs(d)+lever+c.capsule.Radius+reach+apart)
}

// gain returns |1 − |q|²| + |q|², the most by which Rotate by q (of any
// norm: v + |q|²(R v − v), R the rotation of q/|q|) lengthens a vector.
func gain(q geom.Quat) float64 {
	n := q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z
	return math.Abs(1-n) + n
}

// points returns the contact points for a step of h seconds (see
// BoxContact): A, B and the nearest between (off where it is an end).
func (c *BoxContact) points(h float64) (pts [boxPoints]contactPoint) {
	if c.far(h) {
		return pts
	}
	return c.near(h)
}

// near is points for a capsule not far from the box.
func (c *BoxContact) near(h float64) (pts [boxPoints]contactPoint) {
	cb, bb := c.capsule.Body, c.box.Body
	a, b := cb.PointWorld(c.capsule.A), cb.PointWorld(c.capsule.B)
	at := func(t float64) geom.Vec3 { return a.Add(b.Sub(a).Scale(t)) }
	// Reach: the margin and the fastest relative approach of the ends.
	fastest := 0.0
	for _, e := range [2]geom.Vec3{a, b} {
		v := cb.PointVel(e).Sub(bb.PointVel(e))
		fastest = max(fastest, v.Norm())
	}
	reach := Margin + fastest*h
	// The distance changes by at most as much as the point moves: ends
	// far enough from the box keep the whole axis out of reach.
	length := b.Sub(a).Norm()
	da, _ := c.distance(a)
	db, _ := c.distance(b)
	if (da+db-length)/2 > c.capsule.Radius+reach {
		return pts
	}
	// The nearest point: ternary search, ties towards B.
	lo, hi := 0.0, 1.0
	for it := 0; it < boxSearch; it++ {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		d1, _ := c.distance(at(m1))
		d2, _ := c.distance(at(m2))
		if d1 < d2 {
			hi = m2
		} else {
			lo = m1
		}
	}
	nearest := (lo + hi) / 2
	for k, t := range [boxPoints]float64{0, 1, nearest} {
		pt := &pts[k]
		pt.p = at(t)
		d, local := c.distance(pt.p)
		pt.normal, pt.gap = bb.Rot.Rotate(local), d-c.capsule.Radius
		pt.on = pt.gap <= reach
		if k == 2 && (t*length <= c.capsule.Radius || (1-t)*length <= c.capsule.Radius) {
			pt.on = false // an end: held there already
		}
	}
	return pts
}

// distance returns the signed distance (m) of world point p from the box
// and the outward normal there in the box's frame: from the box's nearest
// point outside it, that of the face nearest inside it.
func (c *BoxContact) distance(p geom.Vec3) (float64, geom.Vec3) {
	bb := c.box.Body
	q := bb.Rot.Conj().Rotate(p.Sub(bb.Pos))
	h := c.box.Half
	d := geom.V(math.Abs(q.X)-h.X, math.Abs(q.Y)-h.Y, math.Abs(q.Z)-h.Z)
	sign := geom.V(math.Copysign(1, q.X), math.Copysign(1, q.Y), math.Copysign(1, q.Z))
	out := geom.V(max(d.X, 0)*sign.X, max(d.Y, 0)*sign.Y, max(d.Z, 0)*sign.Z)
	if l := out.Norm(); l > 0 {
		return l, out.Scale(1 / l)
	}
	switch { // inside: the face least deep
	case d.X >= d.Y && d.X >= d.Z:
		return d.X, geom.V(sign.X, 0, 0)
	case d.Y >= d.Z:
		return d.Y, geom.V(0, sign.Y, 0)
	}
	return d.Z, geom.V(0, 0, sign.Z)
}

// Off implements multibody.Switched: the rows are off out of reach.
func (c *BoxContact) Off(h float64) bool {
	if c.far(h) {
		return true // as points would find, without its array
	}
	for _, pt := range c.near(h) {
		if pt.on {
			return false
		}
	}
	return true
}

// Update implements multibody.Constraint.
func (c *BoxContact) Update(h float64, rows []multibody.Row) {
	for k := range c.brackets {
		c.brackets[k].reset()
	}
	for k, pt := range c.points(h) {
		r := rows[3*k : 3*k+3]
		if !pt.on {
			multibody.SwitchOff(r)
			c.normal[k] = 0
			continue
		}
		ra, rb := pt.p.Sub(c.capsule.Body.Pos), pt.p.Sub(c.box.Body.Pos)
		e1 := geom.Perpendicular(pt.normal)
		for i, e := range [3]geom.Vec3{pt.normal, e1, pt.normal.Cross(e1)} {
			r[i].J[0].Lin, r[i].J[0].Ang = e, ra.Cross(e)
			r[i].J[1].Lin, r[i].J[1].Ang = e.Scale(-1), rb.Cross(e).Scale(-1)
		}
		r[0].Violation = pt.gap
		r[0].Compliance = NormalCompliance
		r[0].Damping = 2 * h
		if c.Damping > 0 {
			r[0].Damping = c.Damping
		}
		r[0].Lo, r[0].Releases = 0, true // pushes only (multibody.Row.Releases)
		limit := c.box.Friction * sameForce(c.normal[k], c.normalStep, h)
		for i := 1; i < 3; i++ {
			r[i].Holonomic = false // friction acts on the sliding velocity
			r[i].Slip = FrictionSlip
			r[i].Lo, r[i].Hi = -limit, limit
		}
	}
}

// Rebound implements multibody.Rebounding: each point's friction bound
// follows μ times its normal impulse of the step's own solve (see
// Contact.Rebound).
func (c *BoxContact) Rebound(h float64, lambda, lo, hi []float64) bool {
	again := false
	for k := 0; k < boxPoints; k++ {
		r := 3 * k
		if hi[r] == 0 { // the point's rows are off
			continue
		}
		if rebound(c.box.Friction*max(lambda[r], 0), lambda[r+1:r+3], lo[r+1:r+3], hi[r+1:r+3], &c.brackets[k]) {
			again = true
		}
	}
	return again
}

// Apply implements multibody.Constraint.
func (c *BoxContact) Apply(h float64, lambda []float64) {
	// Each point's normal row, written out with one bounds check: a loop
	// checked and counted each. [...] fails to compile should boxPoints
	// change.
	l := lambda[:3*boxPoints]
	c.normal = [...]float64{l[0], l[3], l[6]}
	c.normalStep = h
}

// ApplyStep implements multibody.Summed (see Contact.ApplyStep).
func (c *BoxContact) ApplyStep(h float64, lambda []float64) { c.Apply(h, lambda) }

// Force returns the normal force of the last step (N), all points', a
// step of h seconds unless the contact knows the step's length.
func (c *BoxContact) Force(h float64) float64 {
	f := 0.0
	for _, n := range c.normal {
		f += n
	}
	return f / LastStep(c.normalStep, h)
}

// State implements state.Stater: the last normal impulses, which bound
// the next step's friction.
func (c *BoxContact) State(s *state.Codec) {
	for k := range c.normal {
		s.Float("box contact normal impulse", &c.normal[k])
	}
	s.NonNegative("box contact normal impulse's step", &c.normalStep)
}
