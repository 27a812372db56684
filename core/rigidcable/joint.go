package rigidcable

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/stability"
	"github.com/cablefmu/cablefmu/core/state"
)

// TwistDefinition selects how a joint measures twist: the swing–twist
// decomposition (the default) or eq. 22 with one of the paper's two
// reference vectors.
type TwistDefinition int

const (
	// TwistSwing measures the twist as the twist part of the swing–twist
	// decomposition of B's rotation relative to A since rest, about B's
	// cable axis: the rotation left once the swing that takes A's axis to
	// B's by the shortest way is taken out (the twist of discrete elastic
	// rods, as the massless cable's, [SL07] eq. 17). Its rate, t·(ω_B −
	// ω_A) with t from the decomposition, is exact at any bend, where eq.
	// 22's rate along the mean axis holds for small bends only: bent by
	// 50–70°, a slack rope's light segments whirled about their own axes
	// under eq. 22 (thousands of rad/s within a second) and not under this
	// one. The three agree to first order in the bend.
	TwistSwing TwistDefinition = iota
	// TwistPerpendicular compares body a's reference vector with a vector
	// of body b that is perpendicular to it at rest, less π/2 (eq. 22).
	TwistPerpendicular
	// TwistAligned compares reference vectors that are co-aligned at rest,
	// the "alternative" definition of §V-A. [SL08] writes it unsigned
	// (atan2 of |ṽ_A × ṽ_B|), which also measures bending, and found it
	// stable to ten times larger mass ratios; taking the sign from the
	// cable axis, as we do for both definitions so that twists of many
	// turns wind up, removes that bend contribution to first order, so the
	// two definitions differ here only by O(θ²) terms and behave alike
	// (Table II: same limits).
	TwistAligned
)

// Rows of a joint: ball and socket (3), bend (2), twist (1).
const (
	ballRows  = 3
	bendRows  = 2
	twistRows = 1
)

// slideLimit is how much of the first segment slack rope may slide
// through a sheave joint (see NewSheaveJoint).
const slideLimit = 0.9

// minAcross is the least share of the bend stiffness the row across a
// bend keeps (see Joint.Update): beyond a right angle it is let go, with a
// compliance this much above the bend row's.
const minAcross = 1e-6

// twistFold is the bend (rad) beyond which a joint's twist is held (see
// Joint.Update): eq. 22's axis is the mean of the two segments' axes,
// which vanishes as the rope folds back on itself, and the swing–twist
// decomposition's rate grows as 1/cos(θ/2).
const twistFold = 0.9 * math.Pi

// bendAcross returns θ cot θ, the bend energy's curvature across the bend
// plane relative to along it (1 at θ = 0).
func bendAcross(theta float64) float64 { return geom.ThetaCotTheta(theta) }

// Joint is the angular constraint of eq. 20 between body A and body B:
// the ball and socket p_A − p_B = 0, the bend angle θ (eq. 21) and the
// twist angle Ω (eq. 22), each regularized by its compliance (eq. 33).
// Ends of a cable may leave bending or twisting free (see NewBallJoint,
// NewSheaveJoint, NewSwivelJoint).
//
// The bend is held by two rows in body A's cross-section plane: along the
// bend's axis n = d_x/|d_x|, d_x = d_A × d_B, the bend angle θ itself, as
// eq. 20's single row, whose rate (ω_B − ω_A)·n is exact at any bend; and
// across it, along m = d_A × n, no violation and the stiffness the energy
// ½ c_b θ² (eq. 35) has there, c_b θ cot θ. A straight rope so resists
// bending in every direction (eq. 20's row alone has no direction at
// θ = 0), and a rope folded past a right angle, where the curvature across
// is negative, is not pushed further in (see Update).
//
// The twist is measured by eq. 22 (TwistPerpendicular, TwistAligned),
// signed by the cable axis t = (d_A + d_B)/|…| so that the winding number
// is defined for twists of many turns, or by the swing–twist
// decomposition (TwistSwing), whose rate is exact at any bend. Folded
// past twistFold, a joint holds its twist.
//
// Where a joint between segments pushes at least the rope's buckling load
// (Buckling), a straight rope is given a small imperfection to buckle
// about (bucklingSeed); the joints themselves hold both ways, so that a
// pushed rope buckles rather than shortens.
//
// Every row is damped by the rope's material relaxation time Damping
// (Kelvin–Voigt: SPOOK's γ is exactly the time constant of a spring and
// damper in parallel); the stepper adds numerical relaxation only to rows
// it cannot resolve (package stability).
type Joint struct {
	bodies [2]*multibody.Body
	// Body-frame attachment points (m) and cable axes (unit), eq. 20's
	// r_(i,i+1), r_(i+1,i) and d_(i), d_(i+1).
	pointA, pointB geom.Vec3
	axisA, axisB   geom.Vec3
	// Body-frame reference vectors for bend and twist (unit, ⊥ the axes).
	refA, refB geom.Vec3
	twistDef   TwistDefinition
	// Which angles the joint holds besides the ball and socket.
	bends, twists bool
	// socket marks a cable end held in bending by a body (Clamped, Swivel):
	// a rope socket, which pushes as well as it pulls (Buckling).
	socket bool
	// rope is, at a cable end held in bending by a body (Clamped, Swivel),
	// the joint between the first two segments from that end: its tension
	// sets the end's bend stiffness (bendStiffness). Nil elsewhere.
	rope *Joint
	// sheave marks the joint where the cable leaves a sheave (see
	// NewSheaveJoint). restRel is B's rest orientation in A's frame,
	// inverted: the untwisted state of a sheave joint's twist and of
	// TwistSwing's.
	sheave  bool
	restRel geom.Quat
	slide   float64 // slack rope slid through the sheave at the last update, m
	// folded marks a joint bent past twistFold at the last update, whose
	// twist is held.
	folded bool

	// Stiffness of the joint: c_s (N/m), c_b and c_t (N·m/rad) of the
	// rope's material (eqs. 34–36).
	Stretch, Bend, Twist float64
	// Length is the length of cable the joint stands for (m).
	Length float64
	// Link is the length (m) of the segments the joint hinges: with the
	// bend stiffness it sets the compression the joint carries (Buckling).
	Link float64
	// Damping is the rope's material relaxation time τ (s) of all rows.
	Damping float64

	// rateA and rateB are the body-frame velocities (m/s) of the attachment
	// points along their bodies while the cable pays out: the ball rows'
	// prescribed rate. drifts says either is not zero (see ratesSet).
	rateA, rateB geom.Vec3
	drifts       bool

	psi     float64 // last raw twist angle, rad
	unwound float64 // accumulated twist, rad
	// stepped says the joint was updated before: since then its bodies
	// turned at their present angular velocities (see unwind).
	stepped bool
	bend    float64 // bend angle at the last update, rad
	// ball is the ball rows' frame and geo the bend and twist geometry of
	// the last update, kept in the joint: as locals that calls write
	// through pointers they were cleared every update. TurnStiffness reads
	// the levers (ball.ra, ball.rb) and pull, the direction of the
	// tension's pull on A at the last update.
	ball  ballFrame
	geo   geometry
	pull  geom.Vec3
	force float64 // tension of the last step: the pull along the cable, N
	// held is the largest tension of the last seconds (N), decaying with
	// the time constant stability.TurnHold: the tension whose geometric
	// stiffness the joint reports (TurnStiffness).
	held float64
	// decay is held's decay over a step of decayStep seconds.
	decay, decayStep float64
}

// NewJoint returns the angular constraint between body a at its body-frame
// point pa with cable axis da and body b at pb with axis db (unit vectors
// pointing the same way along the cable). The current orientations are the
// untwisted state; the unbent state has the two axes aligned.
// Its stiffnesses (Stretch, Bend, Twist) must be set before use; zero
// would be an infinitely compliant, absent, constraint.
func NewJoint(a *multibody.Body, pa, da geom.Vec3, b *multibody.Body, pb, db geom.Vec3, def TwistDefinition) *Joint {
	j := &Joint{bodies: [2]*multibody.Body{a, b}, pointA: pa, pointB: pb, twistDef: def, bends: true, twists: true}
	j.restRel = a.Rot.Conj().Mul(b.Rot).Conj()
	j.axisA, _ = da.Unit()
	j.axisB, _ = db.Unit()
	refA := geom.Perpendicular(j.axisA)
	j.refA = refA
	dw := a.Rot.Rotate(j.axisA)
	yw := a.Rot.Rotate(refA)
	switch def {
	case TwistPerpendicular:
		j.refB = b.Rot.Conj().Rotate(dw.Cross(yw)) // z_B ⊥ y_A at rest
	default:
		j.refB = b.Rot.Conj().Rotate(yw) // y_B = y_A at rest
	}
	return j
}

// NewBallJoint returns a ball-and-socket joint: bending and twisting free.
// da or db (body-frame, one may be zero) give the cable's direction from A
// to B, along which Force measures the tension.
func NewBallJoint(a *multibody.Body, pa, da geom.Vec3, b *multibody.Body, pb, db geom.Vec3) *Joint {
	return &Joint{bodies: [2]*multibody.Body{a, b}, pointA: pa, pointB: pb, axisA: da, axisB: db}
}

// NewSheaveJoint returns the joint where a cable leaves a sheave: free to
// bend (the rope runs over the groove in any direction) and held in twist,
// so that the rope's torsional stiffness reaches from the sheave down to the
// load. Arguments as NewJoint.
//
// The rope leaves a sheave at any angle, up to a right angle and beyond
// when it goes slack, where eq. 22's twist angle (measured about the mean
// of the two axes) breaks down. The sheave joint measures the twist as the
// twist part of the swing–twist decomposition of B's rotation relative to
// A since rest, about B's cable axis (as the massless cable's twist, [SL07]
// eq. 17): unchanged by any swing short of a half turn.
//
// A rope cannot push: where the cable would push the sheave (a load
// thrown up after a winch stop, a winch paying out faster than the load
// can fall) the rope goes slack at the sheave, and the slack slides
// through it, as rope runs over a groove: the joint pulls along the rope
// only, and holds the rope across it where it passes the sheave. The
// slack is stored there rather than in loops of the hanging rope, like
// the massless cable's, up to slideLimit of the first segment; beyond it
// the joint stops the rope sliding further in, pushing at most the rope's
// buckling load (Buckling), beyond which the rope buckles below the
// sheave, or slides on through it where it stands on something (SlidIn
// tells how far).
func NewSheaveJoint(a *multibody.Body, pa, da geom.Vec3, b *multibody.Body, pb, db geom.Vec3, def TwistDefinition) *Joint {
	j := NewJoint(a, pa, da, b, pb, db, def)
	j.bends = false
	j.sheave = true
	return j
}

// swingTwist returns the twist angle of a sheave joint or of a joint
// measuring TwistSwing, unwound, and its row's Jacobian direction t
// (world): Ω̇ = t·(ω_B − ω_A). With count unset the raw angle is followed
// without being added to the twist (a fold holds it, see Joint.Update).
func (j *Joint) swingTwist(count bool, h float64) (float64, geom.Vec3) {
	// swing, called through: it is above the inliner's budget; t turned
	// into the world by B's orientation matrix of the step (Body.ToWorld).
	b := j.bodies[1]
	psi, tb, ok := j.swingIn(j.bodies[0].Rot, b.Rot)
	if !ok {
		return j.unwound, geom.Vec3{} // swung half a turn: hold, no torque
	}
	t := b.ToWorld(tb)
	if d := psi - j.psi; count && j.turnsFast(h) {
		j.unwound += j.unwind(d, h)
	} else if count {
		j.unwound += remainder2Pi(d)
	}
	j.psi = psi
	return j.unwound, t
}

// swing returns the raw twist angle Ψ of the swing–twist decomposition at
// the bodies' present orientations and the rate's direction t (world);
// not ok within 1e-6 rad of a half turn's swing, where Ψ is not defined.
// With the rotation since rest q = (w, v) in B's frame and n B's axis,
// Ψ = 2 atan2(v·n, w) and, as in package massless, t = R_B (w² n +
// w n×v + s v)/(s² + w²), s = v·n.
func (j *Joint) swing() (psi float64, t geom.Vec3, ok bool) {
	return j.swingAt(j.bodies[0].Rot, j.bodies[1].Rot)
}

// swingAt is swing with the bodies at orientations qa and qb.
func (j *Joint) swingAt(qa, qb geom.Quat) (psi float64, t geom.Vec3, ok bool) {
	psi, t, ok = j.swingIn(qa, qb)
	return psi, qb.Rotate(t), ok
}

// swingIn is swingAt with t in B's frame.
func (j *Joint) swingIn(qa, qb geom.Quat) (psi float64, t geom.Vec3, ok bool) {
	q := j.restRel.Mul(qa.Conj().Mul(qb))
	v := geom.Vec3{X: q.X, Y: q.Y, Z: q.Z}
	n := j.axisB
	s := v.Dot(n)
	rho2 := s*s + q.W*q.W
	if rho2 < 1e-12 {
		return 0, geom.Vec3{}, false
	}
	t = n.Scale(q.W * q.W).Add(n.Cross(v).Scale(q.W)).Add(v.Scale(s)).Scale(1 / rho2)
	return 2 * geom.Atan2(s, q.W), t, true
}

// NewSwivelJoint returns the joint of a hook swivel: the load hangs from the
// rope, bends with it, and turns freely about it. Arguments as NewJoint.
func NewSwivelJoint(a *multibody.Body, pa, da geom.Vec3, b *multibody.Body, pb, db geom.Vec3, def TwistDefinition) *Joint {
	j := NewJoint(a, pa, da, b, pb, db, def)
	j.twists = false
	return j
}

// Bodies implements multibody.Constraint.
func (j *Joint) Bodies() []*multibody.Body { return j.bodies[:] }

// OverwritesRows implements multibody.Overwriting: Update sets every
// field of its rows (Row.SetHolonomic, and J's blocks whole).
func (j *Joint) OverwritesRows() bool { return true }

// Rows implements multibody.Constraint.
func (j *Joint) Rows() int {
	n := ballRows
	if j.bends {
		n += bendRows
	}
	if j.twists {
		n += twistRows
	}
	return n
}

// Update implements multibody.Constraint: eqs. 20–28.
func (j *Joint) Update(h float64, rows []multibody.Row) {
	a, b := j.bodies[0], j.bodies[1]
	ra, rb := a.ToWorld(j.pointA), b.ToWorld(j.pointB)
	gap := a.Pos.Add(ra).Sub(b.Pos.Add(rb))
	// While the cable pays out, the points sit where they will be at the
	// end of the step and move at ∂φ/∂t = drift: the violation at the start
	// of the step is the gap less h·drift, and the rate is prescribed.
	var drift geom.Vec3
	if j.drifts {
		drift = a.ToWorld(j.rateA).Sub(b.ToWorld(j.rateB))
	}
	g := gap.AddScaled(-h, drift)
	m := &j.geo
	if j.bends || j.twists {
		var yb geom.Vec3
		if j.eq22() {
			yb = b.ToWorld(j.refB)
		}
		j.measure(m, a.ToWorld(j.axisA), b.ToWorld(j.axisB), a.ToWorld(j.refA), yb)
	}
	limit := j.store()
	if j.sheave {
		// Slack rope slides in through the sheave (see NewSheaveJoint).
		d := m.db
		j.slide = max(0, min(g.Dot(d), limit))
		rb = rb.AddScaled(j.slide, d)
		g = g.AddScaled(-j.slide, d)
	}
	ball := &j.ball // by fields: a whole ballFrame went through a cleared temporary
	ball.ra, ball.rb, ball.g, ball.drift = ra, rb, g, drift
	ball.compliance, ball.damping = 1/j.Stretch, j.Damping
	switch {
	case j.sheave:
		// Rows along the rope and across it; across, the sheave holds the
		// rope where it runs through.
		d := m.db
		e1 := geom.Perpendicular(d)
		ball.row(&rows[0], d)
		ball.row(&rows[1], e1)
		ball.row(&rows[2], d.Cross(e1))
		j.pull = d
		// λ·d/h is the rope's pull on the sheave: the tension. A rope
		// cannot push, so the row only pulls while the slack is within
		// the limit; there it holds. Either way it stops the rope and
		// lets it go again, as when the rope snaps taut over the sheave
		// (multibody.Row.Releases).
		rows[0].Releases = true
		if along := g.Dot(d) + j.slide; along < limit {
			rows[0].Violation = along
			rows[0].Lo = 0
		} else {
			// Beyond the store: the rope is stopped from sliding further
			// in, with at most its buckling load, but not driven back out
			// by the overshoot (pushed back by it within a step, the
			// light top segment was hammered in and out of the store at
			// 30 m/s).
			rows[0].Violation, rows[0].Hi = 0, 0
			rows[0].Lo = -j.Buckling() * h
		}
	case j.bends:
		// Rows along the rope and across it, along A's cross-section
		// axes; the joint holds both ways (bucklingSeed).
		ball.row(&rows[0], m.da)
		ball.row(&rows[1], m.e1)
		ball.row(&rows[2], m.e2)
		j.pull = m.da
	default:
		ball.row(&rows[0], geom.Vec3{X: 1})
		ball.row(&rows[1], geom.Vec3{Y: 1})
		ball.row(&rows[2], geom.Vec3{Z: 1})
	}
	if !j.bends && !j.twists {
		return
	}
	j.bend = m.theta
	next := ballRows
	if j.bends {
		// The rows in the bend's own axes: along n, the bend angle θ,
		// whose rate (ω_B − ω_A)·n is exact at any bend (eqs. 21, 27);
		// along m = d_A × n, no violation and the energy's curvature there,
		// c_b θ cot θ (turning B about m by δ bends it by ½ δ² cot θ more):
		// c_b for a straight rope, so that it resists bending in every
		// direction, falling to nothing at a right angle. Beyond it the
		// curvature is negative (a rope folded back unfolds sideways),
		// which a row cannot hold: the row is let go. The two rows of
		// the bend vector θ n along A's fixed axes, whose rates are those
		// of a small bend only, pushed a fold past 90° further in (their
		// rate across the bend plane is θ cot θ times the linearized one:
		// of the wrong sign there), and a slack rope folded to π.
		stiffness := j.bendStiffness()
		across := stiffness * max(bendAcross(m.theta), minAcross)
		rn, rm := &rows[next], &rows[next+1]
		turnRow(rn, m.n)
		turnRow(rm, m.m)
		// Tension resists a kink like a bend stiffness T·l that the step
		// sees only explicitly. The last step's tension, not the held one
		// of TurnStiffness: the damping it sets (stability.TurnDamping)
		// follows the rope as it is now, and held there, it made a slack
		// rope rattle harder after a load was set down (mean tension at
		// the sheave 18 kN, not 0.1 kN).
		geometric := 0.0
		if j.force > 0 {
			geometric = j.force * j.Length
		}
		rn.SetHolonomic(m.theta-j.bucklingSeed(m.theta), 1/stiffness, j.Damping, geometric, 0, 0)
		rm.SetHolonomic(0, 1/across, j.Damping, geometric, 0, 0)
		next += bendRows
	}
	if j.twists {
		t := m.t
		folded := !j.sheave && m.theta > twistFold
		switch {
		case folded:
			// Folded back: eq. 22's axis t = (d_A + d_B)/|…| vanishes,
			// and the swing–twist decomposition's rate grows as
			// 1/cos(θ/2). The twist is held and carries no torque until
			// the fold opens.
			t = geom.Vec3{}
		case j.folded:
			// The fold opened: the raw angle is taken up where it is,
			// as the angle near the fold is not defined and its jump
			// would become twist.
			if j.twistDef == TwistSwing {
				j.swingTwist(false, h)
			} else {
				j.psi = m.psi
			}
			t = geom.Vec3{}
		case j.sheave || j.twistDef == TwistSwing:
			_, t = j.swingTwist(true, h)
		default:
			if j.turnsFast(h) { // m.twist's whole turns counted by j.unwind
				j.unwound += j.unwind(m.psi-j.psi, h)
			} else {
				j.unwound = m.twist
			}
			j.psi = m.psi
		}
		j.folded = folded
		row := &rows[next]
		turnRow(row, t) // Ω̇ = (ω_B − ω_A)·t (eq. 28)
		row.SetHolonomic(j.unwound, 1/j.Twist, j.Damping, 0, 0, 0)
		j.stepped = true
	}
}

// ballFrame is what a joint's three ball rows share: the attachment
// points' levers ra and rb (world), the gap g and its prescribed rate
// drift, and the rows' compliance and damping. Its rows read it from
// memory: passed among registers, the twelve coordinates spilled and
// were reloaded around every row.
type ballFrame struct {
	ra, rb, g, drift    geom.Vec3
	compliance, damping float64
}

// row sets row to the ball row along the unit axis e (world):
// d/dt (x + r)·e = v·e + ω·(r × e), the violation g·e and the prescribed
// rate −drift·e. By parts, as a whole Jacobian would be copied from a
// temporary.
func (f *ballFrame) row(row *multibody.Row, e geom.Vec3) {
	jac := row.J[:2]
	jac[0].Lin, jac[0].Ang = e, f.ra.Cross(e)
	jac[1].Lin, jac[1].Ang = e.Scale(-1), f.rb.Cross(e).Scale(-1)
	speed := -f.drift.Dot(e)
	row.SetHolonomic(f.g.Dot(e), f.compliance, f.damping, 0, speed, speed)
}

// turnRow sets row's Jacobian to the relative turning of the bodies about
// the axis a (world), (ω_B − ω_A)·a: the bend's and the twist's rows.
func turnRow(row *multibody.Row, a geom.Vec3) {
	jac := row.J[:2]
	jac[0].Lin, jac[0].Ang = geom.Vec3{}, a.Scale(-1)
	jac[1].Lin, jac[1].Ang = geom.Vec3{}, a
}

// bendStiffness returns the stiffness c_b (N·m/rad) of the bend rows:
// Bend, except at a clamp under tension.
//
// A tensioned rope leaves a clamp in a bending boundary layer: EI y⁗ = T y″
// gives y = θ(x − λ(1 − e^(−x/λ))), λ = √(EI/T), so that away from the clamp
// the rope runs as if hinged λ beyond it — the length that sets, for
// example, a load's rocking under its rope. Segments of length l ≫ λ cannot
// resolve the layer: with the end joint's EI/(l/2) the chain's far line
// meets the clamp's axis only l·2λ²/(2λ² + l²) beyond it (3 cm instead of
// 9 cm for 0.5 m segments under a 1 t load), and the load rocks 5 % slower.
// The clamp joint is given the stiffness that puts the discrete chain's
// hinge at λ: a chain of interior joints k_i = EI/l under tension T bends
// away from the clamp as ψ_n ∝ ρⁿ, ρ + 1/ρ = 2 + T l/k_i, its far line
// meets the axis at l k_c/((1−ρ)(k_c + k_i(1−ρ) + T l)), and setting that
// to λ gives
//
//	k_c = λ(1−ρ)(k_i(1−ρ) + T l) / (l − λ(1−ρ)),
//
// which tends to the plain 2EI/l as l/λ → 0 (the chain resolves the layer;
// relatively, k_c l/(2EI) = 1 + l/(4λ) + O((l/λ)²)) and to √(EI T) l/(l − λ)
// for l ≫ λ. T is the last step's tension of the
// rope next to the clamp; a slack rope bends with the plain 2EI/l.
func (j *Joint) bendStiffness() float64 {
	if j.rope == nil || !(j.Link > 0) || j.Bend == 0 {
		return j.Bend // no layer at all for a flexible rope: λ = 0
	}
	// The rope's tension next to the clamp, not the clamp's own pull,
	// which its bending moment adds to where the rope is bent there.
	tension := j.rope.force
	if tension <= 0 {
		return j.Bend
	}
	ei := j.Bend * j.Length
	l := j.Link
	ki := ei / l
	a := tension * l / ki // (l/λ)²
	if a < 1e-12 {
		return j.Bend // k_c = 2EI/l within l/(4λ) = √a/4 < 3e-7
	}
	s := math.Sqrt(a+a*a/4) - a/2 // 1 − ρ
	lambda := math.Sqrt(ei / tension)
	den := l - lambda*s
	if !(den > 0) {
		return j.Bend
	}
	return max(j.Bend, lambda*s*(ki*s+tension*l)/den)
}

// geometry is a joint's bend and twist state at the current orientations.
type geometry struct {
	da, db     geom.Vec3 // the cable axes of A and B (world)
	theta      float64   // bend angle, eq. 21
	n, m       geom.Vec3 // the bend's axis d_A × d_B/|…| and d_A × n
	e1, e2     geom.Vec3 // body A's cross-section axes
	t          geom.Vec3 // cable axis at the joint
	psi, twist float64   // raw and unwound twist angle, eq. 22
}

// eq22 reports whether the joint measures its twist by eq. 22, from
// geometry's t, psi and twist.
func (j *Joint) eq22() bool { return j.twists && !j.sheave && j.twistDef != TwistSwing }

// measure evaluates eqs. 21–22 into g without changing the joint, from
// the world cable axes da of body A and db of body B, A's reference vector
// e1 and B's yb, turned by the orientations of the step's start
// (Body.ToWorld) within a step's update, elsewhere by the present ones. It
// leaves t, psi and twist (and reads yb) only where the joint has no use
// for them (eq22).
func (j *Joint) measure(g *geometry, da, db, e1, yb geom.Vec3) {
	// The bend's axes before the bend angle's call to Atan2, and eq. 22
	// after it from g: what lives across the call lives in g rather than
	// spilled besides.
	dx := da.Cross(db)
	sx := dx.Norm()
	g.da, g.db, g.e1 = da, db, e1
	g.e2 = da.Cross(e1)
	g.n = e1 // a straight rope: any axis across it
	if sx > 0 {
		g.n = dx.Scale(1 / sx)
	}
	g.m = da.Cross(g.n)
	g.theta = geom.Atan2(sx, da.Dot(db)) // eq. 21
	if !j.eq22() {
		return
	}
	g.t, _ = g.da.Add(g.db).Unit()
	g.psi = geom.Atan2(g.e1.Cross(yb).Dot(g.t), g.e1.Dot(yb)) // eq. 22, signed by t
	if j.twistDef == TwistPerpendicular {
		g.psi -= math.Pi / 2
	}
	g.twist = j.unwound + remainder2Pi(g.psi-j.psi)
}

// measureNow returns the joint's geometry at the bodies' present
// orientations.
func (j *Joint) measureNow() (g geometry) {
	fa, fb := j.bodies[0].Rot.Matrix(), j.bodies[1].Rot.Matrix()
	j.measure(&g, fa.MulVec(j.axisA), fb.MulVec(j.axisB), fa.MulVec(j.refA), fb.MulVec(j.refB))
	return g
}

// Apply implements multibody.Constraint: the tension is the ball force on
// body A along the cable axis (towards B), negative when the joint is
// pushed together (by at most Buckling: a sheave joint only once its slack
// store is full). It also updates the held tension (TurnStiffness).
func (j *Joint) Apply(h float64, lambda []float64) {
	if h != j.decayStep {
		j.decayStep, j.decay = h, math.Exp(-h/stability.TurnHold)
	}
	if j.sheave || j.bends {
		j.force = lambda[0] / h // the first row is along the rope
	} else {
		d := j.bodies[0].Rot.Rotate(j.axisA)
		if j.axisA == (geom.Vec3{}) {
			d = j.bodies[1].Rot.Rotate(j.axisB)
		}
		j.force = (lambda[0]*d.X + lambda[1]*d.Y + lambda[2]*d.Z) / h
	}
	if held := j.held * j.decay; held > j.force {
		j.held = held
	} else {
		j.held = j.force
	}
}

// TurnStiffness implements multibody.Turning: the tension pulls each body
// at its attachment point along the rope (a push adds nothing; see
// Body.AddPull). The tension is the largest of the last seconds (held):
// a rope that snaps taut after slack carries, within a step, a tension
// that the last step did not see, and the next snap comes while the last
// one rings.
func (j *Joint) TurnStiffness() {
	force := j.held
	if force <= 0 {
		return
	}
	a, b := j.bodies[0], j.bodies[1]
	d := j.pull // the pull on A, per newton of tension
	if !j.bends && !j.sheave {
		if d = a.ToWorld(j.axisA); j.axisA == (geom.Vec3{}) {
			d = b.ToWorld(j.axisB)
		}
	}
	// B's point as Update placed it: slid along B's axis at a sheave.
	pb := j.pointB.AddScaled(j.slide, j.axisB)
	a.AddPull(j.pointA, j.ball.ra, d.Scale(force))
	b.AddPull(pb, j.ball.rb, d.Scale(-force))
}

// Force returns the ball-and-socket force of the last step (N): the cable
// tension at the joint.
func (j *Joint) Force() float64 { return j.force }

// BendAngle returns θ at the last update (rad).
func (j *Joint) BendAngle() float64 { return j.bend }

// TwistAngle returns Ω with its winding at the last update (rad).
func (j *Joint) TwistAngle() float64 { return j.unwound }

// PotentialEnergy implements multibody.Energy: eq. 33 at the current
// positions.
func (j *Joint) PotentialEnergy() float64 {
	a, b := j.bodies[0], j.bodies[1]
	gap := a.PointWorld(j.pointA).Sub(b.PointWorld(j.pointB))
	if j.sheave {
		// Slack slid into the sheave's store stretches nothing, nor does
		// slack beyond it, which the sheave stops with at most the rope's
		// buckling load and does not drive back out (Update): only a
		// rope pulled out past the sheave is stretched along it.
		d := b.Rot.Rotate(j.axisB)
		gap = gap.AddScaled(-max(0, gap.Dot(d)), d)
	}
	e := 0.5 * j.Stretch * gap.Dot(gap)
	if j.bends || j.twists {
		g := j.measureNow()
		if j.bends {
			e += 0.5 * j.bendStiffness() * g.theta * g.theta
		}
		if j.twists {
			tw := g.twist
			switch {
			case j.sheave:
				tw = j.unwound // of the last update
			case j.folded:
				tw = j.unwound // held
			case j.twistDef == TwistSwing:
				tw = j.unwound
				if psi, _, ok := j.swing(); ok {
					tw += remainder2Pi(psi - j.psi)
				}
			}
			e += 0.5 * j.Twist * tw * tw
		}
	}
	return e
}

// turnsFast reports whether the bodies of j turned against each other by
// more than fastTurn in the last step of h seconds, at their present
// angular velocities (the joint was updated before: before the first step,
// nothing turned them). A raw twist angle alone counts no change beyond
// half a turn a step; slack segments flung about turn so (by 300 rad/s,
// where counted wrong by a turn the twist row sprang back on them with 2π
// of twist, spinning them up further, to 10⁴ rad/s about their axes within
// 0.2 s). Where they turn fast, unwind counts the whole turns.
func (j *Joint) turnsFast(h float64) bool {
	w := j.bodies[1].AngVel.Sub(j.bodies[0].AngVel)
	return j.stepped && w.Dot(w)*(h*h) > fastTurn*fastTurn
}

// fastTurn (rad) is the relative turn a step beyond which turnsFast
// counts the twist's whole turns along the bodies' path: the twist turns
// at most 1/cos(θ/2) times as fast as the bodies, 6.4 times at the fold
// (twistFold) beyond which it is held, so that below π/(2·6.4) a step it
// turns by less than a quarter turn.
const fastTurn = math.Pi / (2 * 6.4)

// unwind returns the change of the twist over the last step of h seconds,
// whose raw angle changed by d (rad, known up to whole turns): the raw
// angle followed along the path of the step's turns (the integrator turned
// each body by Φ = 2 atan(|ω|h/2) about its present angular velocity ω;
// on the path both turn at a steady rate, each through its Φ) in substeps
// of at most 1/8 rad of the two turns, in which the twist turns by less
// than 0.8 rad, each counted within ±π; d's remainder taken on the whole
// turns so found. Where the raw angle is not defined on the path, d within
// ±π.
func (j *Joint) unwind(d, h float64) float64 {
	a, b := j.bodies[0], j.bodies[1]
	ua, pa := turnOf(a.AngVel, h)
	ub, pb := turnOf(b.AngVel, h)
	// turned returns the rotation by share s of a turn of angle p about u.
	turned := func(u geom.Vec3, p, s float64) geom.Quat { return geom.AxisAngle(u, s*p) }
	qa, qb := turned(ua, pa, -1).Mul(a.Rot), turned(ub, pb, -1).Mul(b.Rot)
	n := 1 + int(8*(pa+pb))
	last, ok := j.rawTwistAt(qa, qb)
	total := 0.0
	for i := 1; i <= n && ok; i++ {
		s := float64(i) / float64(n)
		var psi float64
		psi, ok = j.rawTwistAt(turned(ua, pa, s).Mul(qa), turned(ub, pb, s).Mul(qb))
		total += remainder2Pi(psi - last)
		last = psi
	}
	if !ok {
		return remainder2Pi(d)
	}
	return total + remainder2Pi(d-total)
}

// turnOf returns the axis and the angle (rad) by which geom.Quat.Integrate
// turns a body at angular velocity w (rad/s) in h seconds: about w, by
// 2 atan(|w|h/2).
func turnOf(w geom.Vec3, h float64) (geom.Vec3, float64) {
	n := w.Norm()
	if n == 0 {
		return geom.Vec3{X: 1}, 0
	}
	return w.Scale(1 / n), 2 * math.Atan(n*h/2)
}

// rawTwistAt returns the raw twist angle Ψ (rad) the joint measures with
// its bodies at orientations qa and qb, and whether it is defined there.
func (j *Joint) rawTwistAt(qa, qb geom.Quat) (float64, bool) {
	if j.sheave || j.twistDef == TwistSwing {
		psi, _, ok := j.swingAt(qa, qb)
		return psi, ok
	}
	var g geometry
	j.measure(&g, qa.Rotate(j.axisA), qb.Rotate(j.axisB), qa.Rotate(j.refA), qb.Rotate(j.refB))
	return g.psi, true
}

// remainder2Pi maps an angle difference into [−π, π].
func remainder2Pi(d float64) float64 {
	return d - 2*math.Pi*math.Round(d/(2*math.Pi))
}

// State implements state.Stater: the twist's unwinding, the last
// tension and the held tension (its geometric stiffness enters the next
// step; the last tension also sets the clamp's stiffness), and what
// SetLength changed: the stiffnesses non-negative (zero: a joint whose
// cable has not set them), the lengths non-negative and, like the
// attachment points and their rates, within ±state.Limit.
func (j *Joint) State(c *state.Codec) {
	for _, x := range []*float64{&j.psi, &j.unwound, &j.bend, &j.force, &j.held} {
		c.Float("joint", x)
	}
	c.Flag("joint folded", &j.folded)
	c.Flag("joint stepped", &j.stepped)
	c.NonNegative("joint stretch stiffness", &j.Stretch)
	c.NonNegative("joint bend stiffness", &j.Bend)
	c.NonNegative("joint twist stiffness", &j.Twist)
	c.Range("joint length", "m", 0, state.Limit, &j.Length)
	c.Range("joint link", "m", 0, state.Limit, &j.Link)
	c.Point("joint attachment point", &j.pointA)
	c.Point("joint attachment point", &j.pointB)
	c.Velocity("joint attachment rate", &j.rateA)
	c.Velocity("joint attachment rate", &j.rateB)
	j.ratesSet()
}

// ratesSet updates drifts after rateA or rateB changed: a flag rather than
// the comparison of six components in every update.
func (j *Joint) ratesSet() { j.drifts = j.rateA != (geom.Vec3{}) || j.rateB != (geom.Vec3{}) }

// BallForce returns the ball-and-socket force the joint exerts on its body
// A if A's attachment point were at p moving at v (world), body B as it
// is: −c_s (gap + γ ġap), the regularized spring and damper of the ball
// rows (eq. 33 with SPOOK's damping). Its derivatives are −c_s I with
// respect to p and −c_s γ I with respect to v.
func (j *Joint) BallForce(p, v geom.Vec3) geom.Vec3 {
	b := j.bodies[1]
	rb := b.Rot.Rotate(j.pointB)
	gap := p.Sub(b.Pos.Add(rb))
	rate := v.Sub(b.Vel.Add(b.AngVel.Cross(rb)))
	return gap.Add(rate.Scale(j.Damping)).Scale(-j.Stretch)
}

// Buckling returns the largest compression (N) the rope carries at a
// joint before it buckles instead of pushing: that of two links of length
// Link hinged by a rotational spring of the rope's bend stiffness over a
// link, EI/Link, 2 EI/Link² (each link's moment P·δ balances the spring's
// c_b·2δ/Link). For the default 20 mm rope at 0.5 m segments: 0.63 kN. It
// bounds the push of a sheave joint whose slack store is full, and a joint
// between segments pushed by it is seeded to buckle (bucklingSeed); a
// socket at a load holds the rope's end both ways (+Inf: the rope buckles
// at its joints, not into the load); 0 for the other joints.
func (j *Joint) Buckling() float64 {
	if j.socket {
		return math.Inf(1)
	}
	if !(j.bends || j.sheave) || !(j.Link > 0) {
		return 0
	}
	return 2 * j.Bend * j.Length / (j.Link * j.Link) // Bend·Length = EI
}

// SlidIn returns the rope (m) slid into a sheave joint's slack store at
// the bodies' present positions, the gap along the rope (negative where the
// rope is stretched), and the store's size, beyond which the joint stops the
// rope with at most its buckling load (see NewSheaveJoint).
func (j *Joint) SlidIn() (in, store float64) {
	a, b := j.bodies[0], j.bodies[1]
	gap := a.PointWorld(j.pointA).Sub(b.PointWorld(j.pointB))
	// B's axis from its orientation now: ToWorld's matrix is the last
	// update's (and not the state's, after one is loaded).
	return gap.Dot(b.Rot.Rotate(j.axisB)), j.store()
}

// store returns the size (m) of a sheave joint's slack store: slideLimit
// of the first segment, for which an end joint stands at half its length.
func (j *Joint) store() float64 { return slideLimit * 2 * j.Length }

// bucklingSeed returns the bend (rad) a joint pushed at its buckling load
// (Buckling) in the last step is held towards while it is bent less: the
// imperfection that makes a straight rope under a push buckle sideways.
// A rope pushed exactly along its axis (paid out onto a load set down
// straight below the sheave) stays straight in exact arithmetic, its
// joints compressing at the buckling load, and the rope grew into a strut
// that pushed the load into the ground. The seed, 1 mrad along the
// joint's first cross-section axis, is a bending moment of c_b·1e-3
// (0.1 N·m for the default rope at 0.5 m segments); it acts on pushed
// joints only, and a rope that pulls never sees it.
func (j *Joint) bucklingSeed(theta float64) float64 {
	if !j.bends || j.socket || !(j.force <= -j.Buckling()) || theta >= bucklingSeed {
		return 0
	}
	return bucklingSeed
}

// bucklingSeed is the bend (rad) of a pushed joint's imperfection (see
// Joint.bucklingSeed).
const bucklingSeed = 1e-3

// Slide returns the slack rope slid through a sheave joint at the last
// update (m): 0 while the rope is taut.
func (j *Joint) Slide() float64 { return j.slide }
