package massless

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Twist is the twist constraint φ_t = Ω = Ψ_a + Ψ_b + 2πη ([SL07] eqs. 15,
// 17), regularized by ε = 1/c_t with c_t = GJ/L (eqs. 3, 21): the end bodies'
// rotations about the cable's end directions must cancel.
//
// Ψ of an end is the body's rotation about its body-fixed end axis n
// (pointing from the body into the cable) since rest. Eq. 17 takes it as
// the Euler roll atan2(R₃₂, R₃₃), which breaks down when the axis swings
// 90° (R₃₂, R₃₃ → 0): a load swinging up to the horizontal would see its
// twist jump by π. We take the twist part of the swing–twist decomposition
// of the rotation since rest instead, q_rel = q₀⁻¹q = (w, v):
// Ψ = 2 atan2(v·n, w). For a pure rotation about n it equals the Euler
// roll; swinging n in any direction leaves it unchanged, and it is
// singular only for a swing of 180°. Rotating both end bodies together
// about the cable leaves Ω unchanged, since the two axes point opposite
// ways. Angles are unwrapped every step, so twists beyond a revolution
// accumulate (the winding number η of eq. 17).
type Twist struct {
	ends   [2]twistEnd
	bodies []*multibody.Body
	// GJ is the torsional rigidity (N·m²); c_t = GJ/L.
	GJ float64
	// Length returns the cable's current free length L (m).
	Length func() float64
	// Damping is the rope's material relaxation time τ (s) of the row.
	Damping float64
	// Torque returns the rope's torque under its tension (N·m,
	// material.Rope.Torque), which the row balances: nil for none.
	Torque func() float64

	angle float64 // Ω at the last update, rad
}

type twistEnd struct {
	body    *multibody.Body
	n       geom.Vec3 // end axis, body frame
	rest    geom.Quat // orientation at rest, inverted
	psi     float64   // last raw angle
	unwound float64   // accumulated angle
}

// NewTwist returns the twist constraint between the first and last node of
// a route of the rope r (its torsional rigidity GJ and damping time τ),
// whose free length (m) length returns; the current orientations are the
// untwisted state.
func NewTwist(route []Node, r material.Rope, length func() float64) (*Twist, error) {
	gj := r.TorsionalRigidity()
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
	t := &Twist{GJ: gj, Length: length, Damping: r.DampingTime, bodies: []*multibody.Body{a.Body, b.Body}}
	t.ends[0] = newTwistEnd(a.Body, route[1].World().Sub(a.World()))
	t.ends[1] = newTwistEnd(b.Body, route[len(route)-2].World().Sub(b.World()))
	return t, nil
}

func newTwistEnd(b *multibody.Body, towardCable geom.Vec3) twistEnd {
	n, _ := towardCable.Unit()
	return twistEnd{body: b, n: b.Rot.Conj().Rotate(n), rest: b.Rot.Conj()}
}

// angle returns Ψ = 2 atan2(s, w), s = v·n, with (w, v) = q₀⁻¹q, and the row
// of eqs. 18–19, Ψ̇ = Aᵀω. With the body-frame angular velocity ω_b,
// q̇_rel = ½ q_rel (0, ω_b) gives ẇ = −½ v·ω_b and ṡ = ½ ω_b·(w n + n×v), so
// A = R (w² n + w n×v + s v) / (s² + w²).
func (e *twistEnd) angle() (float64, geom.Vec3) {
	q := e.rest.Mul(e.body.Rot)
	v := geom.Vec3{X: q.X, Y: q.Y, Z: q.Z}
	s := v.Dot(e.n)
	rho2 := s*s + q.W*q.W
	if rho2 < 1e-12 {
		// The end axis has swung half a turn: the twist is undefined there
		// (the singularity noted under eq. 20); hold the angle and exert
		// no torque until it comes back.
		return e.unwound, geom.Vec3{}
	}
	psi := 2 * math.Atan2(s, q.W)
	e.unwound += remainder2Pi(psi - e.psi)
	e.psi = psi
	ab := e.n.Scale(q.W * q.W).Add(e.n.Cross(v).Scale(q.W)).Add(v.Scale(s)).Scale(1 / rho2)
	return e.unwound, e.body.Rot.Rotate(ab)
}

// remainder2Pi maps an angle difference into [−π, π].
func remainder2Pi(d float64) float64 {
	return d - 2*math.Pi*math.Round(d/(2*math.Pi))
}

// Bodies implements multibody.Constraint.
func (t *Twist) Bodies() []*multibody.Body { return t.bodies }

// Rows implements multibody.Constraint.
func (t *Twist) Rows() int { return 1 }

// Stiffness returns c_t = GJ/L (N·m/rad).
func (t *Twist) Stiffness() float64 { return t.GJ / t.Length() }

// Update implements multibody.Constraint: eqs. 17–20. A rope with torque
// M (Torque) holds its ends with c_t Ω − M: the row's rest twist is
// Ω₀ = M/c_t instead of 0.
func (t *Twist) Update(h float64, rows []multibody.Row) {
	row := &rows[0]
	psiA, aA := t.ends[0].angle()
	psiB, aB := t.ends[1].angle()
	t.angle = psiA + psiB
	row.J[0].Ang = aA
	row.J[1].Ang = aB
	row.Violation = t.angle
	if t.Torque != nil {
		row.Violation -= t.Torque() / t.Stiffness()
	}
	row.Compliance = 1 / t.Stiffness()
	row.Damping = t.Damping
}

// Apply implements multibody.Constraint; the twist keeps no state of the
// solve.
func (t *Twist) Apply(h float64, lambda []float64) {}

// Angle returns the twist angle Ω at the start of the last step (rad).
func (t *Twist) Angle() float64 { return t.angle }

// PotentialEnergy implements multibody.Energy: ½ c_t Ω² (eq. 3).
func (t *Twist) PotentialEnergy() float64 { return 0.5 * t.Stiffness() * t.angle * t.angle }

// State implements state.Stater: the unwinding of both ends.
func (t *Twist) State(c *state.Codec) {
	for k := range t.ends {
		c.Float("twist end angle", &t.ends[k].psi)
		c.Float("twist end unwound", &t.ends[k].unwound)
	}
	c.Float("twist angle", &t.angle)
}
