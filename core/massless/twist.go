package massless

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Twist is the twist constraint φ_t = Ω = Ψ_a + Ψ_b + 2πη ([SL07] eqs. 15,
// 17), regularized by ε = 1/c_t with c_t = GJ/L (eqs. 3, 21): the end bodies'
// rotations about the cable's end directions must cancel.
//
// Ψ of an end is the body's rotation angle about the end's axis n (pointing
// from the body into the cable), measured as in eq. 17 with n as the x axis:
// a body-fixed unit vector u ⊥ n is projected on the world plane spanned by
// U and W (the world images of u and n×u at rest), Ψ = atan2(W·s, U·s) with
// s = R u. Rotating both end bodies together about the cable leaves Ω
// unchanged, since the two axes point opposite ways. Angles are unwrapped
// every step, so twists beyond a revolution accumulate (the winding number
// η of eq. 17).
type Twist struct {
	ends   [2]twistEnd
	bodies []*multibody.Body
	// GJ is the torsional rigidity (N·m²); c_t = GJ/L.
	GJ float64
	// Length returns the cable's current free length L (m).
	Length func() float64
	// Damping is SPOOK's relaxation time γ (s) of the row.
	Damping float64

	angle  float64 // Ω at the last update, rad
	torque float64 // N·m
}

type twistEnd struct {
	body    *multibody.Body
	u       geom.Vec3 // body frame, ⊥ axis
	uw, ww  geom.Vec3 // world reference directions U, W
	psi     float64   // last raw atan2 angle
	unwound float64   // accumulated angle
}

// NewTwist returns the twist constraint between the first and last node of
// a route; the current orientations are the untwisted state.
func NewTwist(route []Node, gj float64, length func() float64) (*Twist, error) {
	if err := validateRoute(route); err != nil {
		return nil, err
	}
	a, b := route[0], route[len(route)-1]
	if a.Body == b.Body {
		return nil, fmt.Errorf("twist: both cable ends are on body %q", a.Body.Name)
	}
	if !(gj > 0) || math.IsInf(gj, 0) {
		return nil, fmt.Errorf("torsional rigidity %g N·m²: must be positive and finite", gj)
	}
	t := &Twist{GJ: gj, Length: length, bodies: []*multibody.Body{a.Body, b.Body}}
	t.ends[0] = newTwistEnd(a.Body, route[1].World().Sub(a.World()))
	t.ends[1] = newTwistEnd(b.Body, route[len(route)-2].World().Sub(b.World()))
	return t, nil
}

func newTwistEnd(b *multibody.Body, towardCable geom.Vec3) twistEnd {
	n, _ := towardCable.Unit()
	uw := geom.Perpendicular(n)
	return twistEnd{body: b, u: b.Rot.Conj().Rotate(uw), uw: uw, ww: n.Cross(uw)}
}

// angle returns Ψ and the row of eq. 18–19: Ψ̇ = Aᵀω with
// A = [(U·s)(s×W) − (W·s)(s×U)] / ((U·s)² + (W·s)²).
func (e *twistEnd) angle() (float64, geom.Vec3) {
	s := e.body.Rot.Rotate(e.u)
	us, ws := e.uw.Dot(s), e.ww.Dot(s)
	rho2 := us*us + ws*ws
	psi := math.Atan2(ws, us)
	if rho2 < 1e-12 {
		// The body is turned 90° away from its rest axis: Ψ is undefined
		// there (the singularity noted under eq. 20); hold the angle and
		// exert no torque until it comes back.
		return e.unwound, geom.Vec3{}
	}
	e.unwound += remainder2Pi(psi - e.psi)
	e.psi = psi
	a := s.Cross(e.ww).Scale(us).Sub(s.Cross(e.uw).Scale(ws)).Scale(1 / rho2)
	return e.unwound, a
}

// remainder2Pi maps an angle difference into (−π, π].
func remainder2Pi(d float64) float64 {
	return d - 2*math.Pi*math.Round(d/(2*math.Pi))
}

// Bodies implements multibody.Constraint.
func (t *Twist) Bodies() []*multibody.Body { return t.bodies }

// Rows implements multibody.Constraint.
func (t *Twist) Rows() int { return 1 }

// Stiffness returns c_t = GJ/L (N·m/rad).
func (t *Twist) Stiffness() float64 { return t.GJ / t.Length() }

// Update implements multibody.Constraint: eqs. 17–20.
func (t *Twist) Update(h float64, rows []multibody.Row) {
	row := &rows[0]
	psiA, aA := t.ends[0].angle()
	psiB, aB := t.ends[1].angle()
	t.angle = psiA + psiB
	row.J[0].Ang = aA
	row.J[1].Ang = aB
	row.Violation = t.angle
	row.Compliance = 1 / t.Stiffness()
	row.Damping = t.Damping
}

// Apply implements multibody.Constraint.
func (t *Twist) Apply(h float64, lambda []float64) { t.torque = -lambda[0] / h }

// Angle returns the twist angle Ω at the start of the last step (rad).
func (t *Twist) Angle() float64 { return t.angle }

// Torque returns the cable's restoring torque of the last step (N·m).
func (t *Twist) Torque() float64 { return t.torque }

// PotentialEnergy implements multibody.Energy: ½ c_t Ω² (eq. 3).
func (t *Twist) PotentialEnergy() float64 { return 0.5 * t.Stiffness() * t.angle * t.angle }

// Prime implements multibody.Primer.
func (t *Twist) Prime(h float64, lambda []float64) { t.torque = -lambda[0] / h }
