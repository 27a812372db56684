package particlechain

import (
	"math"

	"github.com/cablefmu/cablefmu/core/multibody"
)

// Distance is φ = |x_B − x_A| − d (eq. 12, the links of model (a), and the
// load enforcement of model (c) between the anchor and the load).
type Distance struct {
	bodies     [2]*multibody.Body
	Length     float64 // d, m
	Compliance float64 // ε, m/N
	Damping    float64 // γ, s
	violation  float64
}

// NewDistance returns the distance constraint between a and b at length d.
func NewDistance(a, b *multibody.Body, d float64) *Distance {
	return &Distance{bodies: [2]*multibody.Body{a, b}, Length: d}
}

// Bodies implements multibody.Constraint.
func (c *Distance) Bodies() []*multibody.Body { return c.bodies[:] }

// Rows implements multibody.Constraint.
func (c *Distance) Rows() int { return 1 }

// Update implements multibody.Constraint: J_A = −d̂, J_B = d̂ (eq. 12).
func (c *Distance) Update(h float64, rows []multibody.Row) {
	n, l := c.bodies[1].Pos.Sub(c.bodies[0].Pos).Unit()
	rows[0].J[0].Lin = n.Scale(-1)
	rows[0].J[1].Lin = n
	c.violation = l - c.Length
	rows[0].Violation = c.violation
	rows[0].Compliance = c.Compliance
	rows[0].Damping = c.Damping
}

// Apply implements multibody.Constraint.
func (c *Distance) Apply(h float64, lambda []float64) {}

// Violation returns φ at the last update (m).
func (c *Distance) Violation() float64 { return c.violation }

// eps0 keeps the bend direction finite at d_x → 0 (below eq. 16).
const eps0 = 1e-12

// Angle is the bend angle between two consecutive links of model (e),
// φ_a = atan2(|d_i × d_{i+1}|, d_i·d_{i+1}), d_i = x_{i+1} − x_i, with
// J = (∂φ/∂x_i, ∂φ/∂x_{i+1}, ∂φ/∂x_{i+2}) = ((n×d_i)/|d_i|², −(n×d_i)/|d_i|² −
// (n×d_{i+1})/|d_{i+1}|², (n×d_{i+1})/|d_{i+1}|²), n = d_x/(ε₀+|d_x|): the
// angle's rate is n·(ω_{i+1} − ω_i) with ω_i = d_i × ḋ_i/|d_i|², the form of
// eqs. 14–16.
type Angle struct {
	bodies     [3]*multibody.Body
	Compliance float64 // ε, rad/(N·m)
	Damping    float64 // γ, s
}

// NewAngle returns the angle constraint over the links a→b and b→c.
func NewAngle(a, b, c *multibody.Body) *Angle {
	return &Angle{bodies: [3]*multibody.Body{a, b, c}}
}

// Bodies implements multibody.Constraint.
func (c *Angle) Bodies() []*multibody.Body { return c.bodies[:] }

// Rows implements multibody.Constraint.
func (c *Angle) Rows() int { return 1 }

// Update implements multibody.Constraint.
func (c *Angle) Update(h float64, rows []multibody.Row) {
	a := c.bodies[1].Pos.Sub(c.bodies[0].Pos)
	b := c.bodies[2].Pos.Sub(c.bodies[1].Pos)
	dx := a.Cross(b)
	sx := dx.Norm()
	n := dx.Scale(1 / (eps0 + sx))
	ja := n.Cross(a).Scale(1 / a.Dot(a))
	jb := n.Cross(b).Scale(1 / b.Dot(b))
	row := &rows[0]
	row.J[0].Lin = ja
	row.J[1].Lin = ja.Scale(-1).Sub(jb)
	row.J[2].Lin = jb
	row.Violation = math.Atan2(sx, a.Dot(b))
	row.Compliance = c.Compliance
	row.Damping = c.Damping
}

// Apply implements multibody.Constraint.
func (c *Angle) Apply(h float64, lambda []float64) {}
