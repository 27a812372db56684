package massless

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Stretch is the total-length constraint φ_s = Σ l_j − L(t) ([SL07]
// eq. 14) with Jacobian eq. 16, regularized by ε = 1/c_s, c_s = EA/L
// (eqs. 1, 21): the elastic energy ½ c_s φ_s² of a rope of free length L.
type Stretch struct {
	route  []Node
	bodies []*multibody.Body
	slot   []int

	// FreeLength is the unstretched length L of the cable (m).
	FreeLength float64
	// EA is the axial stiffness (N).
	EA float64
	// Damping is the rope's material relaxation time τ (s) of the row:
	// Kelvin–Voigt damping, the tension c_s(φ_s + τ φ̇_s).
	Damping float64
	// Slack lets the cable go slack instead of pushing: the row's impulse
	// is bounded to tension only.
	Slack bool
	// Winch, when set, drives the free length.
	Winch *Winch
	// MinFall (m) is the shortest the last segment (the fall from the
	// sheave to the hook block) may get by hauling in: the winch stops
	// when the free length is down to the current length of the other
	// segments plus MinFall, which moves as the crane moves.
	MinFall float64
	// MaxLength (m), if set, bounds the free length a saved state may
	// give: the longest cable a scenario has, which no step goes past.
	MaxLength float64

	tension float64 // N, positive when taut
	rate    float64 // L̇ over the last step, m/s
	speed   float64 // winch speed the last solve assumed, m/s
}

// NewStretch returns the length constraint of the route with free length
// L (m) of the rope r: its axial stiffness EA and damping time τ.
func NewStretch(route []Node, freeLength float64, r material.Rope) (*Stretch, error) {
	ea := r.AxialStiffness()
	if err := validateRoute(route); err != nil {
		return nil, err
	}
	if !(freeLength > 0) || math.IsInf(freeLength, 0) {
		return nil, fmt.Errorf("free length %g m: must be positive and finite", freeLength)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if !(ea > 0) || math.IsInf(ea, 0) {
		return nil, fmt.Errorf("axial stiffness EA %g N: must be positive and finite", ea)
	}
	bodies, slot := uniqueBodies(route)
	return &Stretch{route: route, bodies: bodies, slot: slot, FreeLength: freeLength, EA: ea, Damping: r.DampingTime}, nil
}

// Bodies implements multibody.Constraint.
func (s *Stretch) Bodies() []*multibody.Body { return s.bodies }

// Rows implements multibody.Constraint.
func (s *Stretch) Rows() int { return 1 }

// Route returns the cable's nodes.
func (s *Stretch) Route() []Node { return s.route }

// Stiffness returns c_s = EA/L (N/m) for the current free length.
func (s *Stretch) Stiffness() float64 { return s.EA / s.FreeLength }

// Update implements multibody.Constraint: eqs. 14 and 16.
func (s *Stretch) Update(h float64, rows []multibody.Row) {
	row := &rows[0]
	total, fall := routeJacobian(s.route, s.slot, row)
	row.Violation = total - s.FreeLength
	row.Compliance = 1 / s.Stiffness()
	row.Damping = s.Damping
	if s.Slack {
		row.Hi = 0 // λ < 0 pulls the nodes together; a rope cannot push
		// It stops a load that snaps it taut and lets it go again
		// (multibody.Row.Releases).
		row.Releases = true
	}
	// ∂φ_s/∂t = −L̇: the winch's pay-out is the row's prescribed rate. The
	// damping acts on the stretch rate at the start of the step, G v − L̇
	// with the rate the winch runs at from now on: a winch that stops dead
	// stops the pay-out at once, so the rope's stretch rate jumps with it.
	s.speed = 0
	if s.Winch != nil {
		s.speed = s.Winch.Speed
		// The winch's limit switch: hauling in stops at the minimum length.
		minLength := total - fall + s.MinFall
		if floor := (minLength - s.FreeLength) / h; s.speed < 0 && s.speed < floor {
			s.speed = min(floor, 0)
		}
		row.Speed, row.SpeedBefore = s.speed, s.speed
		row.Slip = s.Winch.Slip
		if f := s.Winch.ForceLimit; f > 0 {
			row.Lo = -f * h // the tension impulse the winch can hold
		}
	}
}

// routeJacobian adds the rows of eq. 16 for the route to row and returns
// the route's length Σ l_j and the length of its last segment (m).
func routeJacobian(route []Node, slot []int, row *multibody.Row) (total, last float64) {
	for j := 0; j+1 < len(route); j++ {
		a, b := route[j], route[j+1]
		ra := a.Body.Rot.Rotate(a.Offset)
		rb := b.Body.Rot.Rotate(b.Offset)
		k, l := a.Body.Pos.Add(ra).Sub(b.Body.Pos.Add(rb)).Unit()
		total, last = total+l, l
		if l == 0 {
			continue // direction undefined: this segment exerts no force now
		}
		// l̇_j = k·(v_a − v_b) − (k×d_a)·ω_a + (k×d_b)·ω_b  (eq. 16)
		ja, jb := &row.J[slot[j]], &row.J[slot[j+1]]
		ja.Lin = ja.Lin.Add(k)
		ja.Ang = ja.Ang.Sub(k.Cross(ra))
		jb.Lin = jb.Lin.Sub(k)
		jb.Ang = jb.Ang.Add(k.Cross(rb))
	}
	return total, last
}

// Apply implements multibody.Constraint: records the tension and lets the
// winch move the free length.
func (s *Stretch) Apply(h float64, lambda []float64) {
	s.Prime(h, lambda)
	s.rate = 0
	if s.Winch != nil {
		// L̇ = w + ξT with the w the solve used (Winch doc).
		s.rate = s.speed + s.Winch.Slip*s.tension
		before := s.FreeLength
		s.FreeLength += h * s.rate
		// At its force limit the winch slipped: it paid out the rope that
		// leaves the cable stretched by F/c_s, c_s = EA/L (eq. 1), so
		// L = EA ℓ / (EA + F) for the route length ℓ now.
		if f := s.Winch.ForceLimit; f > 0 && s.tension >= f*(1-1e-9) {
			if slipped := s.EA * Length(s.route) / (s.EA + f); slipped > s.FreeLength {
				s.FreeLength = slipped
				s.rate = (s.FreeLength - before) / h
			}
		}
	}
}

// Rate returns L̇, the free length's rate of change in the last step (m/s):
// the winch's pay-out including slip.
func (s *Stretch) Rate() float64 { return s.rate }

// Tension returns the cable tension of the last step (N); it is the same
// along the whole route because the eye nodes are frictionless.
func (s *Stretch) Tension() float64 { return s.tension }

// PotentialEnergy implements multibody.Energy: ½ c_s φ_s² (eq. 1) at the
// current positions, zero when a slack cable is shorter than its length.
func (s *Stretch) PotentialEnergy() float64 {
	phi := Length(s.route) - s.FreeLength
	if s.Slack && phi < 0 {
		return 0
	}
	return 0.5 * s.Stiffness() * phi * phi
}

// Prime implements multibody.Primer: records the tension of a static
// evaluation.
func (s *Stretch) Prime(h float64, lambda []float64) {
	s.tension = -lambda[0] / h
	if s.tension == 0 {
		s.tension = 0 // a slack cable reports +0, not −0
	}
}

// State implements state.Stater: the free length, the last tension, the
// pay-out rate and the winch's speed. The free length is positive, no
// shorter than the least fall (to rounding), a cable that only pulls
// has no negative tension.
func (s *Stretch) State(c *state.Codec) {
	free := c.Positive("free length", "m", &s.FreeLength)
	c.Check(free >= s.MinFall*(1-1e-9), "free length %g m: shorter than the least fall, %g m", free, s.MinFall)
	c.Check(s.MaxLength == 0 || free <= s.MaxLength, "free length %g m: beyond the longest cable, %g m", free, s.MaxLength)
	tension := c.Float("tension", &s.tension)
	c.Check(!s.Slack || tension >= 0, "tension %g N: a cable that only pulls has none below 0", tension)
	c.Bounded("pay-out rate", "m/s", &s.rate)
	c.Bounded("winch speed", "m/s", &s.speed)
}
