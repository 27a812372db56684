package multibody

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/stability"
)

// Kind says how a body moves.
type Kind int

const (
	// Dynamic bodies move under forces and constraint impulses.
	Dynamic Kind = iota
	// Kinematic bodies move with the velocity set from outside (a crane's
	// suspension point driven by FMU inputs); constraints act on them but do
	// not change their motion, and the force they receive is reported.
	Kinematic
	// Static bodies never move (the world, a fixed eye).
	Static
)

// Body is a rigid body. Positions are world-frame (m), Rot rotates body-frame
// vectors into the world, Vel (m/s) and AngVel (rad/s) are world-frame.
type Body struct {
	Name    string
	Kind    Kind
	Mass    float64   // kg
	Inertia geom.Vec3 // principal moments of inertia in the body frame, kg·m²; zero for a particle
	Pos     geom.Vec3
	Rot     geom.Quat
	Vel     geom.Vec3
	AngVel  geom.Vec3
	// Force and Torque are external loads (N, N·m, world frame) applied in
	// the next step in addition to gravity. They persist until changed.
	Force, Torque geom.Vec3

	// ConstraintForce and ConstraintTorque are the mean constraint loads
	// (N, N·m, about the centre of mass) the body received in the last step.
	ConstraintForce, ConstraintTorque geom.Vec3

	slot    int       // index among the world's dynamic bodies, or -1
	rot     geom.Mat3 // Rot as a matrix, refreshed before constraints update
	invI    geom.Mat3 // world-frame inverse inertia, refreshed every step
	invMass float64   // 1/Mass, refreshed with invI
	predVel geom.Vec3 // v + h M⁻¹ f
	predAng geom.Vec3
	// turnK is the constraints' geometric stiffness against turning the
	// body (N·m/rad, body frame) from their last forces (AddPull);
	// turning says whether the step takes it in (World.takeTurnStiffness).
	// pulled says AddPull added to turnK since the world cleared it.
	turnK           geom.Mat3
	pulled, turning bool
	// A kinematic body's velocities in the last step (see World.assemble).
	lastVel, lastAngVel geom.Vec3
}

// NewBody returns a dynamic body at rest at pos with identity orientation.
func NewBody(name string, mass float64, inertia, pos geom.Vec3) *Body {
	return &Body{Name: name, Kind: Dynamic, Mass: mass, Inertia: inertia, Pos: pos, Rot: geom.Identity, slot: -1}
}

// NewParticle returns a point mass at rest at pos: a dynamic body without
// rotational inertia, whose orientation constraints never change (its
// inverse inertia is zero, so no row can spin it).
func NewParticle(name string, mass float64, pos geom.Vec3) *Body {
	return NewBody(name, mass, geom.Vec3{}, pos)
}

// NewKinematic returns a kinematic body at pos.
func NewKinematic(name string, pos geom.Vec3) *Body {
	return &Body{Name: name, Kind: Kinematic, Pos: pos, Rot: geom.Identity, slot: -1}
}

// NewStatic returns a static body at pos.
func NewStatic(name string, pos geom.Vec3) *Body {
	return &Body{Name: name, Kind: Static, Pos: pos, Rot: geom.Identity, slot: -1}
}

// BoxInertia returns the principal moments (kg·m²) of a solid box of mass m
// (kg) and side lengths a, b, c (m).
func BoxInertia(m, a, b, c float64) geom.Vec3 {
	return geom.Vec3{X: m * (b*b + c*c) / 12, Y: m * (a*a + c*c) / 12, Z: m * (a*a + b*b) / 12}
}

// PointWorld returns the world position of the body-frame point d.
func (b *Body) PointWorld(d geom.Vec3) geom.Vec3 { return b.Pos.Add(b.Rot.Rotate(d)) }

// PointVel returns the velocity (m/s) of the body's point at world
// position p.
func (b *Body) PointVel(p geom.Vec3) geom.Vec3 { return b.Vel.Add(b.AngVel.Cross(p.Sub(b.Pos))) }

// ToWorld returns the world direction of the body-frame vector v with the
// orientation matrix the world took at the start of the step: Rot.Rotate(v)
// to rounding, at a third of its cost. It is for constraints evaluating
// their rows (Constraint.Update, Turning.TurnStiffness), and wrong
// elsewhere once the body has turned.
func (b *Body) ToWorld(v geom.Vec3) geom.Vec3 { return b.rot.MulVec(v) }

// KineticEnergy returns ½ m v² + ½ ωᵀ I ω (J).
func (b *Body) KineticEnergy() float64 {
	if b.Kind != Dynamic {
		return 0
	}
	w := b.Rot.Conj().Rotate(b.AngVel)
	rot := b.Inertia.X*w.X*w.X + b.Inertia.Y*w.Y*w.Y + b.Inertia.Z*w.Z*w.Z
	return 0.5*b.Mass*b.Vel.Dot(b.Vel) + 0.5*rot
}

// PointResponse returns K, the velocity change (m/s) of the body's point
// at the lever r (m, world, from the centre of mass) per impulse (N·s,
// world) applied there: Kj = j/m + (I⁻¹(r × j)) × r, I the inertia at the
// present orientation (an axis of zero moment does not turn, as in the
// step). A static or kinematic body does not move: K = 0.
func (b *Body) PointResponse(r geom.Vec3) geom.Mat3 {
	var k geom.Mat3
	if b.Kind != Dynamic {
		return k
	}
	invI := b.inverseInertiaNow()
	// (I⁻¹(r × j)) × r = −[r]× I⁻¹ [r]× j.
	rx := geom.Mat3{{0, -r.Z, r.Y}, {r.Z, 0, -r.X}, {-r.Y, r.X, 0}}
	rxInv := rx.Mul(&invI)
	m := rxInv.Mul(&rx)
	for i := 0; i < 3; i++ {
		for c := 0; c < 3; c++ {
			k[i][c] = -m[i][c]
		}
		k[i][i] += 1 / b.Mass
	}
	return k
}

// ApplyImpulse changes a dynamic body's velocities by the impulse j (N·s,
// world) at the lever r (m, world, from the centre of mass): v += j/m and
// ω += I⁻¹(r × j), as PointResponse. Other bodies do not move: a static
// or kinematic body takes any impulse.
func (b *Body) ApplyImpulse(r, j geom.Vec3) {
	if b.Kind != Dynamic {
		return
	}
	b.Vel = b.Vel.AddScaled(1/b.Mass, j)
	invI := b.inverseInertiaNow()
	b.AngVel = b.AngVel.Add(invI.MulVec(r.Cross(j)))
}

// inverseInertiaNow returns the world inverse inertia at the body's
// present orientation Rot (refreshInverseInertia's is at the orientation
// of the step's start).
func (b *Body) inverseInertiaNow() geom.Mat3 {
	rot := b.Rot.Matrix()
	var inv geom.Mat3
	b.inverseInertiaIn(&inv, &rot)
	return inv
}

// inverseInertiaIn writes into inv the world inverse inertia at the
// orientation matrix r: Σ_k I_k⁻¹ c_k c_kᵀ over r's columns, symmetric (an
// axis of zero moment adds nothing).
func (b *Body) inverseInertiaIn(inv, r *geom.Mat3) {
	turnedDiagonal(inv, r, invOrZero(b.Inertia.X), invOrZero(b.Inertia.Y), invOrZero(b.Inertia.Z))
}

// turnedDiagonal writes into inv R diag(m0, m1, m2) Rᵀ for the rotation
// matrix r, symmetric: row i of R diag, and the entries j ≥ i of its
// product with Rᵀ, written out (the loops over i and j were not
// unrolled).
func turnedDiagonal(inv, r *geom.Mat3, m0, m1, m2 float64) {
	t0, t1, t2 := r[0][0]*m0, r[0][1]*m1, r[0][2]*m2
	inv[0][0] = t0*r[0][0] + t1*r[0][1] + t2*r[0][2]
	inv[0][1] = t0*r[1][0] + t1*r[1][1] + t2*r[1][2]
	inv[0][2] = t0*r[2][0] + t1*r[2][1] + t2*r[2][2]
	t0, t1, t2 = r[1][0]*m0, r[1][1]*m1, r[1][2]*m2
	inv[1][1] = t0*r[1][0] + t1*r[1][1] + t2*r[1][2]
	inv[1][2] = t0*r[2][0] + t1*r[2][1] + t2*r[2][2]
	inv[2][2] = r[2][0]*m0*r[2][0] + r[2][1]*m1*r[2][1] + r[2][2]*m2*r[2][2]
	inv[1][0], inv[2][0], inv[2][1] = inv[0][1], inv[0][2], inv[1][2]
}

// refreshFrame recomputes the orientation matrix and the inverse mass
// before the constraints update; the inverse inertia follows once the step
// has decided whether it takes the body's turning stiffness in.
func (b *Body) refreshFrame() {
	b.invMass = 1 / b.Mass
	b.Rot.MatrixTo(&b.rot)
	b.turning = false
}

// refreshInverseInertia sets the world-frame inverse inertia R I₀⁻¹ Rᵀ.
func (b *Body) refreshInverseInertia() { b.inverseInertiaIn(&b.invI, &b.rot) }

// AddPull adds to a dynamic body's turning stiffness (see Turning) that of
// a constraint force f (N, world) of the last step acting at the
// body-frame point p (m, from the centre of mass), whose lever arm in the
// world is r = R p (Body.ToWorld(p), which a constraint evaluating its
// rows has at hand): turning the body by δθ swings r across f and changes
// the torque r × f by −K δθ, K = (f·r)(I − r̂r̂ᵀ) for a force along r. A
// pull that straightens the body along it (f·r > 0) is counted with its
// part along r; a push, whose stiffness would be negative, is not. Other
// bodies ignore it. The body keeps K in its own frame, Rᵀ K R =
// (f·r)(I − p̂p̂ᵀ), where a pull at a point of the body keeps its form and
// the step's criterion reads it without turning it (takeTurnStiffness).
func (b *Body) AddPull(p, r, f geom.Vec3) {
	fr, p2 := f.Dot(r), p.Dot(p)
	if b.Kind != Dynamic || !(fr > 0) || p2 == 0 {
		return
	}
	k := &b.turnK
	b.pulled = true
	q := fr / p2
	if p.Y == 0 && p.Z == 0 {
		// On the x axis (a rope segment's ends): the terms below but
		// for the zeros, which change nothing.
		k[0][0] = k[0][0] + fr - q*(p.X*p.X)
		k[1][1] += fr
		k[2][2] += fr
		return
	}
	k[0][0] = k[0][0] + fr - q*(p.X*p.X)
	k[1][1] = k[1][1] + fr - q*(p.Y*p.Y)
	k[2][2] = k[2][2] + fr - q*(p.Z*p.Z)
	// The same number on both sides: K symmetric.
	xy, xz, yz := q*(p.X*p.Y), q*(p.X*p.Z), q*(p.Y*p.Z)
	k[0][1] -= xy
	k[1][0] -= xy
	k[0][2] -= xz
	k[2][0] -= xz
	k[1][2] -= yz
	k[2][1] -= yz
}

// takeTurnStiffness decides whether a step of h seconds takes the body's
// geometric stiffness K in, and if so sets the inverse inertia to
// R (I₀ + s h² K)⁻¹ Rᵀ (else World.update sets the plain one), K in the
// body frame (turnK), s = stability.TurnShare (see
// World.takeTurnStiffness). The criterion is on the fastest turning mode,
// ω² the largest eigenvalue of I₀^(−½) K I₀^(−½).
func (b *Body) takeTurnStiffness(h float64) {
	in, k := b.Inertia, &b.turnK
	if in.X == 0 || in.Y == 0 || in.Z == 0 || !b.pulled {
		return // a particle does not turn; no pull, no stiffness
	}
	if k[0][1] == 0 && k[0][2] == 0 && k[1][2] == 0 {
		// Pulls on a principal axis (a rope segment's, at its ends): K
		// diagonal, and so is I₀ + s h² K.
		b.takeDiagonalTurnStiffness(h)
		return
	}
	b.takeFullTurnStiffness(h)
}

// takeFullTurnStiffness is takeTurnStiffness for any K.
func (b *Body) takeFullTurnStiffness(h float64) {
	in, k, r := b.Inertia, &b.turnK, &b.rot
	// I₀^(−½) K I₀^(−½), upper triangle. Assigned entry by entry, as are
	// the matrices below and gyroscopicImpulse's Jacobian: a composite
	// literal of a matrix whose address is taken is built aside and then
	// copied.
	q0, q1, q2 := 1/math.Sqrt(in.X), 1/math.Sqrt(in.Y), 1/math.Sqrt(in.Z)
	var scaled geom.Mat3
	scaled[0][0], scaled[0][1], scaled[0][2] = k[0][0]*(q0*q0), k[0][1]*(q0*q1), k[0][2]*(q0*q2)
	scaled[1][1], scaled[1][2], scaled[2][2] = k[1][1]*(q1*q1), k[1][2]*(q1*q2), k[2][2]*(q2*q2)
	share := stability.TurnShare(scaled.SymMaxEigen(), h)
	if share == 0 {
		return
	}
	// (I₀ + s h² K)⁻¹, body frame, turned into the world: R M⁻¹ Rᵀ, by
	// T = R M⁻¹ and T Rᵀ's upper triangle (symmetric).
	sh2 := share * h * h
	var m geom.Mat3
	m[0][0], m[0][1], m[0][2] = in.X+sh2*k[0][0], sh2*k[0][1], sh2*k[0][2]
	m[1][0], m[1][1], m[1][2] = sh2*k[1][0], in.Y+sh2*k[1][1], sh2*k[1][2]
	m[2][0], m[2][1], m[2][2] = sh2*k[2][0], sh2*k[2][1], in.Z+sh2*k[2][2]
	if !m.InverseTo(&m) {
		return
	}
	// Row i of T = R M⁻¹ and the entries j ≥ i of row i of T Rᵀ.
	row := func(i int) (t0, t1, t2 float64) {
		return r[i][0]*m[0][0] + r[i][1]*m[1][0] + r[i][2]*m[2][0],
			r[i][0]*m[0][1] + r[i][1]*m[1][1] + r[i][2]*m[2][1],
			r[i][0]*m[0][2] + r[i][1]*m[1][2] + r[i][2]*m[2][2]
	}
	dot := func(t0, t1, t2 float64, j int) float64 { return t0*r[j][0] + t1*r[j][1] + t2*r[j][2] }
	inv := &b.invI
	t0, t1, t2 := row(0)
	inv[0][0] = dot(t0, t1, t2, 0)
	inv[0][1] = dot(t0, t1, t2, 1)
	inv[0][2] = dot(t0, t1, t2, 2)
	t0, t1, t2 = row(1)
	inv[1][1] = dot(t0, t1, t2, 1)
	inv[1][2] = dot(t0, t1, t2, 2)
	t0, t1, t2 = row(2)
	inv[2][2] = dot(t0, t1, t2, 2)
	inv[1][0], inv[2][0], inv[2][1] = inv[0][1], inv[0][2], inv[1][2]
	b.turning = true
}

// takeDiagonalTurnStiffness is takeTurnStiffness for a diagonal K: the
// largest eigenvalue of I₀^(−½) K I₀^(−½) is its largest diagonal entry,
// and (I₀ + s h² K)⁻¹ = diag(1/(I₀ᵢ + s h² Kᵢᵢ)), turned into the world as
// inverseInertiaIn turns I₀⁻¹ (turnedDiagonal).
func (b *Body) takeDiagonalTurnStiffness(h float64) {
	in, k, r := b.Inertia, &b.turnK, &b.rot
	omega2 := max(k[0][0]/in.X, k[1][1]/in.Y, k[2][2]/in.Z)
	share := stability.TurnShare(omega2, h)
	if share == 0 {
		return
	}
	sh2 := share * h * h
	turnedDiagonal(&b.invI, r, 1/(in.X+sh2*k[0][0]), 1/(in.Y+sh2*k[1][1]), 1/(in.Z+sh2*k[2][2]))
	b.turning = true
}

// gyroscopicImpulse returns the angular impulse (N·m·s, world) of h
// seconds of torque-free rotation, I ω̇ + ω × I ω = 0: I(ω₁ − ω₀) with ω₁
// from one Newton step on its backward Euler form in the body frame,
// I(ω₁ − ω₀) + h ω₁ × I ω₁ = 0, from ω₀. Taken explicitly (the impulse
// −h ω₀ × I ω₀) the term adds energy every step: a box spinning at
// |ω|h ≈ 1 spun up without bound. The implicit step keeps the kinetic
// energy from growing (E. Catto, "Numerical methods", GDC 2015); for a
// body with two equal moments (a rope's segment) the step is solved in
// closed form (gyroscopicAxisymmetric). It is an
// impulse so that the step applies it through the inertia it uses, which
// the turning stiffness may raise. The body turns by the orientation
// matrix of the step's start (refreshFrame): for a step's assembly only.
func (b *Body) gyroscopicImpulse(h float64) geom.Vec3 {
	in := b.Inertia
	if in.X == 0 || in.Y == 0 || in.Z == 0 || b.AngVel == (geom.Vec3{}) {
		return geom.Vec3{}
	}
	// Into the body frame and back by the orientation matrix the step
	// took (refreshFrame): a third of the quaternion's operations.
	r, v := &b.rot, b.AngVel
	w := geom.Vec3{
		X: r[0][0]*v.X + r[1][0]*v.Y + r[2][0]*v.Z,
		Y: r[0][1]*v.X + r[1][1]*v.Y + r[2][1]*v.Z,
		Z: r[0][2]*v.X + r[1][2]*v.Y + r[2][2]*v.Z,
	}
	f, ok := gyroscopicAxisymmetric(in, w, h)
	if !ok {
		f = gyroscopicGeneral(in, w, h)
	}
	return r.MulVec(f.Scale(-1))
}

// gyroscopicGeneral returns gyroscopicImpulse's I(ω₀ − ω₁) in the body
// frame, of moments in, at body-frame ω₀ = w.
func gyroscopicGeneral(in, w geom.Vec3, h float64) geom.Vec3 {
	iw := hadamard(in, w)
	// f(ω) = h ω × Iω at ω₀; ∂f/∂ω = I + h(skew(ω) I − skew(Iω)), written
	// out entry by entry, zeros of the skew matrices and all: the
	// diagonal's h(0·I − 0) + I is I but for an infinite moment.
	f := w.Cross(iw).Scale(h)
	var j geom.Mat3
	j[0][0], j[0][1], j[0][2] = h*(0*in.X-0)+in.X, h*(-w.Z*in.Y - -iw.Z), h*(w.Y*in.Z-iw.Y)
	j[1][0], j[1][1], j[1][2] = h*(w.Z*in.X-iw.Z), h*(0*in.Y-0)+in.Y, h*(-w.X*in.Z - -iw.X)
	j[2][0], j[2][1], j[2][2] = h*(-w.Y*in.X - -iw.Y), h*(w.X*in.Y-iw.X), h*(0*in.Z-0)+in.Z
	if d, ok := j.InverseMulVec(f); ok {
		return hadamard(in, d)
	}
	return f
}

// gyroscopicAxisymmetric is gyroscopicGeneral for a body whose moments
// about two axes are equal (a rope's segment, a cylinder): with the axis
// of symmetry last, I = (a, a, c), ω × Iω = (c − a) ω_z (ω_y, −ω_x, 0)
// and the Newton step's matrix is [[a, −q, −k ω_y], [q, a, k ω_x], [0, 0,
// c]], k = h(a − c), q = k ω_z, so that the step about the axis is zero
// and the two across it solve in closed form: a third of the general
// solve's operations, the same step to rounding. Not ok for a body
// without two equal moments, or where the 2×2 determinant a² + q² is not
// a positive finite number (infinite moments, or moments and spins so
// extreme that it underflows or overflows).
func gyroscopicAxisymmetric(in, w geom.Vec3, h float64) (geom.Vec3, bool) {
	// The body frame turned cyclically (handedness kept) to put the axis
	// of symmetry last.
	var u geom.Vec3
	var a, c float64
	axis := 2
	switch {
	case in.Y == in.Z:
		axis, a, c, u = 0, in.Y, in.X, geom.Vec3{X: w.Y, Y: w.Z, Z: w.X}
	case in.Z == in.X:
		axis, a, c, u = 1, in.Z, in.Y, geom.Vec3{X: w.Z, Y: w.X, Z: w.Y}
	case in.X == in.Y:
		a, c, u = in.X, in.Z, w
	default:
		return geom.Vec3{}, false
	}
	k := h * (a - c)
	q := k * u.Z
	fx, fy := -q*u.Y, q*u.X // h ω × Iω across the axis
	den := a*a + q*q
	if !(den > 0 && den <= math.MaxFloat64) {
		return geom.Vec3{}, false
	}
	s := 1 / den
	dx, dy := (a*fx+q*fy)*s, (a*fy-q*fx)*s
	fx, fy = a*dx, a*dy
	switch axis {
	case 0:
		return geom.Vec3{Y: fx, Z: fy}, true
	case 1:
		return geom.Vec3{Z: fx, X: fy}, true
	}
	return geom.Vec3{X: fx, Y: fy}, true
}

func invOrZero(x float64) float64 {
	if x == 0 {
		return 0
	}
	return 1 / x
}
