// Package contact keeps bodies above a ground plane: non-penetration with
// Coulomb friction as constraint rows ([SL08] §V-D, which recommends
// contacts "introduced on the constraint level"), so that a load set down
// rests on the ground and the cable above it goes slack.
package contact

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Ground is the horizontal plane z = Height (m) with friction coefficient
// Friction (μ, dimensionless).
type Ground struct {
	Height   float64
	Friction float64
}

// Margin is how far from the surface (m) a point's rows switch on, so
// that a falling body meets an active row before it penetrates.
const Margin = 0.05

// Several contact points on one body are redundant (four corners carry a
// box with three degrees of freedom off the ground): a small compliance
// (m/N) and slip (m/(N·s)) keep the rows regular, far below anything
// visible (1e-10 m/N sinks a 10 t load resting on four corners by 2.5 µm).
const (
	NormalCompliance = 1e-10
	FrictionSlip     = 1e-7
)

// Point is one contact: the sphere of Radius (m) around the body-frame
// point Offset of Body stays above the ground.
type Point struct {
	Body   *multibody.Body
	Offset geom.Vec3
	Radius float64
}

// Contact is the constraint of one point against the ground: a normal row
// that can only push (λ ≥ 0, rigid, SPOOK-stabilized) and two tangential
// velocity rows bounded by μ times the normal impulse (Coulomb's friction
// cone as a box): the previous step's, so that the bounds are known when
// the rows are solved, and the step's own where that differs much
// (Rebound).
type Contact struct {
	ground *Ground
	point  Point
	bodies [1]*multibody.Body
	normal float64 // normal impulse of the last step, N·s
	// normalStep is the length (s) of the step that gave normal (0 before
	// the first): a caller may take steps of different lengths (substeps).
	normalStep float64
	// arm is the point's distance from its body's centre, |Offset|, for
	// far.
	arm float64
	// Damping is γ of the normal row (s), the time over which SPOOK
	// takes out a penetration; zero means two steps (2h). A rigid contact
	// is never resolved by the step, and the stepper's relaxation for
	// unresolved rows (stability.Relaxation·h) pushes a corner that went
	// 1 cm into the ground out within about one step: a 20 t box landing
	// tilted on a corner gained 10–20 % of its energy at each impact and
	// rocked without end; over two steps it comes to rest within 0.2 s.
	Damping float64
	// Creep regularizes the friction instead of bounding it: the
	// tangential rows are unbounded velocity rows whose slip ξ (m/(N·s))
	// makes the friction a damper, ξ = max(FrictionSlip, |v_t|/(μN)) from
	// the point's sliding speed and the normal force of the last step
	// (sliding, the damper pulls μN; stuck, it holds as the box does),
	// raised by the ratio |F_t|/(μN) wherever the last step's friction
	// force exceeded Coulomb's bound, so that a stuck point pushed beyond
	// it starts to slide within a few steps. The solve then has no
	// friction bounds to settle: a light particle held by friction at
	// both ends of a wire segment that can go slack made the bounded rows
	// cycle ("did not settle") on a wire lying on the ground.
	Creep bool
	// Gap closes the normal row's gap implicitly (multibody.Row.Gap): the
	// point is stopped where it would reach the ground within the step
	// and pushed out of it over h + γ, instead of SPOOK's stabilization,
	// which carries Υ of the approach speed (a ninth at γ = 2h) into the
	// ground in the step the point lands; and the row is on from twice the
	// point's travel in a step, at any direction of its velocity. A light point landing fast
	// (a slack wire's node thrown down at 10–30 m/s, or given the momentum
	// of nodes merged into it as it lands) went up to 9 cm into the ground
	// at 1/30 and 1/60 s. Off, the row keeps SPOOK's form, with which the
	// loads' corners and the rigid-body cable's contacts were settled
	// (Damping).
	Gap bool
	// xi is the tangential rows' slip of the last step and friction their
	// impulses (N·s), with Creep.
	xi       float64
	friction [2]float64
	// bracket is the search of Rebound within a step.
	bracket bracket
}

// damping returns γ of the normal row at step h (s).
func (c *Contact) damping(h float64) float64 {
	if c.Damping > 0 {
		return c.Damping
	}
	return 2 * h
}

// New returns the contact of p with g.
func New(g *Ground, p Point) *Contact {
	return &Contact{ground: g, point: p, bodies: [1]*multibody.Body{p.Body}, arm: p.Offset.Norm()}
}

// SetOffset moves the contact point on its body (body frame, m): the end
// of a rope segment that a winch pays out grows away from its centre.
func (c *Contact) SetOffset(o geom.Vec3) { c.point.Offset, c.arm = o, o.Norm() }

// Bodies implements multibody.Constraint.
func (c *Contact) Bodies() []*multibody.Body { return c.bodies[:] }

// Rows implements multibody.Constraint.
func (c *Contact) Rows() int { return 3 }

// clearance returns the contact point's offset from the body's centre
// (world frame) and its gap to the ground (m), and whether it is so far
// from the ground that it cannot reach it within a step of h seconds.
func (c *Contact) clearance(h float64) (r geom.Vec3, gap float64, far bool) {
	b := c.point.Body
	r = b.Rot.Rotate(c.point.Offset)
	gap = b.Pos.Z + r.Z - c.ground.Height - c.point.Radius
	v := b.Vel.Add(b.AngVel.Cross(r))
	if c.Gap {
		return r, gap, gap > Margin+2*v.Norm()*h
	}
	return r, gap, gap > Margin+math.Abs(v.Z)*h
}

// Clearance returns the point's gap to the ground (m): negative where it is in
// the ground.
func (c *Contact) Clearance() float64 {
	_, gap, _ := c.clearance(0)
	return gap
}

// far reports, from the body's height and speeds alone, that clearance
// finds the point far from the ground (most of a hanging rope's points,
// most steps), without turning the offset. Rotate by the body's
// orientation, of any norm (see gain), puts the point at most arm·f from
// the centre: the gap is at least the centre's height less that, and the
// point's speed at most |v| + |ω| times that, twice of which over the
// step bounds both of clearance's reaches. The bound must hold by 1e-9
// of the magnitudes involved, far beyond the rounding of either side.
func (c *Contact) far(h float64) bool {
	b := c.point.Body
	arm := c.arm * gain(b.Rot)
	reach := Margin + 2*(b.Vel.Norm()+b.AngVel.Norm()*arm)*h
	z, ground := b.Pos.Z, c.ground.Height+c.point.Radius
	return z-arm-ground-reach > 1e-9*(math.Abs(z)+math.Abs(ground)+arm+reach)
}

// Off implements multibody.Switched: the rows are off far from the ground.
func (c *Contact) Off(h float64) bool {
	if c.far(h) {
		return true // as clearance would find
	}
	_, _, far := c.clearance(h)
	return far
}

// Update implements multibody.Constraint.
func (c *Contact) Update(h float64, rows []multibody.Row) {
	c.bracket.reset()
	r, gap, far := c.clearance(h)
	if far {
		multibody.SwitchOff(rows)
		c.normal, c.friction, c.xi, c.normalStep = 0, [2]float64{}, 0, 0
		return
	}
	axes := [3]geom.Vec3{{Z: 1}, {X: 1}, {Y: 1}}
	for i, e := range axes {
		rows[i].J[0].Lin, rows[i].J[0].Ang = e, r.Cross(e)
	}
	rows[0].Violation = gap
	rows[0].Compliance = NormalCompliance
	rows[0].Damping = c.damping(h)
	rows[0].Gap = c.Gap
	if c.Gap && gap > 0 {
		// Above the ground the row stops the point where it would reach
		// it by the step's end (g + (h + γ)·v' ≥ 0 with the world's least
		// relaxation, stability.Relaxation·h): with γ = 2h it stopped any
		// approach faster than g/(3h), pushing a node that fell at 20 m/s
		// for 15 steps while it hung in the air, its friction slowing it.
		rows[0].Damping = 0
	}
	rows[0].Lo, rows[0].Releases = 0, true // pushes only (multibody.Row.Releases)
	limit := c.ground.Friction * c.lastNormal(h)
	if c.Creep {
		c.creep(h, r, rows)
		return
	}
	for i := 1; i < 3; i++ {
		rows[i].Holonomic = false // friction acts on the sliding velocity
		rows[i].Slip = FrictionSlip
		rows[i].Lo, rows[i].Hi = -limit, limit
	}
}

// creep sets the tangential rows of a Creep contact (see Creep) at lever
// arm r for a step of h seconds.
func (c *Contact) creep(h float64, r geom.Vec3, rows []multibody.Row) {
	b := c.point.Body
	v := b.Vel.Add(b.AngVel.Cross(r))
	bound := c.ground.Friction * c.lastNormal(h) / h // μN (N)
	xi := CreepSlip(math.Hypot(v.X, v.Y), bound, math.Hypot(c.friction[0], c.friction[1])/LastStep(c.normalStep, h), c.xi)
	c.xi = xi
	for i := 1; i < 3; i++ {
		rows[i].Holonomic = false
		if !(bound > 0) {
			// No normal force: no friction.
			rows[i].Slip, rows[i].Lo, rows[i].Hi = 1, 0, 0
			continue
		}
		rows[i].Slip = xi
	}
}

// CreepSlip returns the slip ξ (m/(N·s)) of creeping friction (see
// Contact.Creep) at a point sliding at speed (m/s) under Coulomb's bound
// μN (N), given the friction force of the last step (N) and the slip it
// had then.
func CreepSlip(speed, bound, force, last float64) float64 {
	xi := FrictionSlip
	if bound > 0 {
		xi = max(xi, speed/bound)
		if force > bound && last > 0 {
			xi = max(xi, last*force/bound)
		}
	}
	return xi
}

// Rebound implements multibody.Rebounding: the friction rows' bound
// follows μ times the normal impulse of the step's own solve. Update
// bounds them by the last step's, one step late, which is wrong where the
// normal force jumps: a box landing sideways slid its first step free,
// and where the steps were taken in substeps of changing number, an
// impact in a short substep bounded the next step by its force; it slid
// 0.02–0.23 m depending on where the substeps fell (Coulomb's law: 0.21
// m; TestLandingSlideAcrossStepLengths). A moved bound asks for another
// solve only where a friction row's impulse reaches the bound it was
// solved with or passes the new one, and the bound moved by more than
// reboundTolerance of the step's largest (reboundSettle once it has moved
// in the step): elsewhere the solve stands as it would with the new
// bound. The bound is searched within a bracket (see bracket).
// Creeping friction (Creep) has no bounds.
func (c *Contact) Rebound(h float64, lambda, lo, hi []float64) bool {
	if c.Creep || hi[0] == 0 { // creeping, or the rows are off
		return false
	}
	l := lambda[:3]
	return rebound(c.ground.Friction*max(l[0], 0), l[1:3], lo[1:3], hi[1:3], &c.bracket)
}

// reboundTolerance is the change of a friction bound, relative to the
// largest of the step's, below which Rebound keeps the solve: it catches
// what a lagging bound gets wrong (an impact, a landing, a step after
// substeps), not a sliding rope's normal forces changing by a few per
// cent from step to step, which would take more solves (at 1e-3, 12 % more
// instructions in RigidHoist's set-down with 100 segments). At 0.1 the two
// set-downs of TestSlackRopePaidOutAfterSetDown take 2.4 % more solves
// than steps (up to 35 % in a second where the rope is dragged over the
// ground); at 0.25 and 0.5 the landing box's slide spread over 0.12–0.19
// m and 0.07–0.29 m (TestLandingSlideAcrossStepLengths).
const reboundTolerance = 0.1

// reboundSettle is the tolerance of the moves after the first in a step:
// once a jump has moved the bound, the search settles it closer. At
// reboundTolerance throughout, the bound was left up to 10 % off μN at
// each step of an impact, and the landing box slid 0.191 m at 1/960 s
// where Coulomb's law says 0.210 m (now 0.208 m; the contacts' damping at
// 2h).
const reboundSettle = 0.01

// bracket holds where a step's solves place the fixed point of a friction
// bound b = μ N(b) (N the normal impulse a solve with bound b gives): at
// or above below and below above. The point need not be where the last
// solve's normal impulse says: a corner that its own friction lifts has a
// normal impulse without the bound and none with it, and bounds taken from
// the last solve alone alternated through every solve MaxRebounds allows;
// within the bracket the search halves it where the last solve's value
// falls outside. solves counts the step's solves so far.
type bracket struct {
	below, above, largest float64
	solves                int
	moved                 bool
}

// reset opens the bracket for a new step.
func (b *bracket) reset() { *b = bracket{above: math.Inf(1)} }

// maxMoves bounds the solves of a step after which a bound may move: the
// contacts' bounds depend on one another (a corner's friction shifts the
// load to another), and moves that others' moves overtake could go on
// through every solve MaxRebounds allows. Counted in solves, not in one
// contact's moves, so that contacts moving in turn stop together: a step
// takes at most 1 + maxMoves solves for them.
const maxMoves = 4

// rebound moves the bounds lo, hi of the friction rows whose impulses are
// lambda towards ±implied (N·s), μ times the solve's normal impulse, within
// br, and reports whether the solve must be taken again (see
// Contact.Rebound).
func rebound(implied float64, lambda, lo, hi []float64, br *bracket) bool {
	br.solves++
	if br.solves > maxMoves {
		return false
	}
	cur := hi[0]
	at, reach := false, 0.0 // a row at its bound; the rows' largest |λ|
	for i, l := range lambda {
		at = at || math.Abs(l) >= hi[i]*(1-1e-9)
		reach = max(reach, math.Abs(l))
	}
	if !at && reach <= implied {
		return false // the solve stands under the implied bound
	}
	br.largest = max(br.largest, implied, cur)
	switch {
	case !at:
		// Any bound from reach up gives this solve, and each implies
		// less than reach: the fixed point lies below it.
		br.above = min(br.above, reach)
	case implied > cur:
		br.below = max(br.below, cur)
	case implied < cur:
		br.above = min(br.above, cur)
	}
	next := implied
	if !(next >= br.below && next < br.above) {
		next = br.below
		if !math.IsInf(br.above, 1) {
			next = (br.below + br.above) / 2
		}
	}
	tol := reboundTolerance
	if br.moved {
		tol = reboundSettle
	}
	if math.Abs(next-cur) <= tol*br.largest {
		return false
	}
	for i := range lo {
		lo[i], hi[i] = -next, next
	}
	br.moved = true
	return true
}

// Apply implements multibody.Constraint.
func (c *Contact) Apply(h float64, lambda []float64) {
	l := lambda[:3] // one bounds check for the three
	c.normal = l[0]
	c.friction = [2]float64{l[1], l[2]}
	c.normalStep = h
}

// ApplyStep implements multibody.Summed: a step taken in substeps is one
// step for what follows (the next step's friction bound, Force), its
// impulses the sums over the substeps.
func (c *Contact) ApplyStep(h float64, lambda []float64) { c.Apply(h, lambda) }

// Force returns the normal force of the last step (N), a step of h
// seconds unless the contact knows the step's length.
func (c *Contact) Force(h float64) float64 { return c.normal / LastStep(c.normalStep, h) }

// lastNormal returns the last step's normal impulse as the impulse of the
// same force over a step of h seconds: the friction bound of a step whose
// length differs from the last one's (substeps of a changing number).
func (c *Contact) lastNormal(h float64) float64 { return sameForce(c.normal, c.normalStep, h) }

// sameForce returns the impulse j (N·s) of a step of last seconds as the
// impulse of the same force over h seconds: j itself where the steps
// are alike, or last is not known (0).
func sameForce(j, last, h float64) float64 {
	if last == h || last == 0 {
		return j
	}
	return j / last * h
}

// LastStep returns the length (s) of the step an impulse came from, last,
// or h where it is not known (0): a contact's force is its impulse over
// that step, whatever the step now taken (substeps).
func LastStep(last, h float64) float64 {
	if last == 0 {
		return h
	}
	return last
}

// BoxCorners returns the eight corners of a box of the given size (m)
// centred on its body, as contact points: the bottom four, then the top
// four, so that a box tipped over lies on its side or its top rather than
// sinking through.
func BoxCorners(b *multibody.Body, size geom.Vec3) []Point {
	var pts []Point
	for _, sz := range []float64{-1, 1} {
		for _, sx := range []float64{-1, 1} {
			for _, sy := range []float64{-1, 1} {
				pts = append(pts, Point{Body: b, Offset: geom.V(sx*size.X/2, sy*size.Y/2, sz*size.Z/2)})
			}
		}
	}
	return pts
}

// State implements state.Stater: the last normal impulse, which bounds
// the next step's friction.
func (c *Contact) State(s *state.Codec) {
	s.Float("contact normal impulse", &c.normal)
	s.NonNegative("contact normal impulse's step", &c.normalStep)
	if c.Creep {
		s.NonNegative("contact friction slip", &c.xi)
		s.Float("contact friction impulse", &c.friction[0])
		s.Float("contact friction impulse", &c.friction[1])
	}
}
