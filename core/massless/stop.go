package massless

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Stop keeps the last segment of a route (sheave to hook) from getting
// shorter than MinLength: l_J ≥ l_min, a rigid unilateral row that can only
// push (λ ≥ 0) with the segment's part of the Jacobian of eq. 16. It stands
// for the hook block meeting the sheave block ("two-blocking"): a massless
// cable that went slack would otherwise let a load rising past the sheave
// pass through it.
type Stop struct {
	route  []Node
	bodies []*multibody.Body
	slot   []int
	// MinLength is the shortest route length (m).
	MinLength float64
	force     float64 // N, positive while the stop pushes
}

// NewStop returns the stop of the route's last segment at minLength (m).
func NewStop(route []Node, minLength float64) (*Stop, error) {
	if err := validateRoute(route); err != nil {
		return nil, err
	}
	route = route[len(route)-2:]
	if !(minLength > 0) || math.IsInf(minLength, 0) {
		return nil, fmt.Errorf("stop length %g m: must be positive and finite", minLength)
	}
	bodies, slot := uniqueBodies(route)
	return &Stop{route: route, bodies: bodies, slot: slot, MinLength: minLength}, nil
}

// Bodies implements multibody.Constraint.
func (s *Stop) Bodies() []*multibody.Body { return s.bodies }

// Rows implements multibody.Constraint.
func (s *Stop) Rows() int { return 1 }

// Update implements multibody.Constraint.
func (s *Stop) Update(h float64, rows []multibody.Row) {
	row := &rows[0]
	length, _ := routeJacobian(s.route, s.slot, row)
	row.Violation = length - s.MinLength
	row.Damping = 2 * h
	row.Lo = 0 // pushes the blocks apart, never pulls
}

// Apply implements multibody.Constraint.
func (s *Stop) Apply(h float64, lambda []float64) { s.force = lambda[0] / h }

// Force returns the contact force of the last step (N); zero while the
// blocks are apart.
func (s *Stop) Force() float64 { return s.force }

// State implements state.Stater: the force of the last step.
func (s *Stop) State(c *state.Codec) { c.Float("stop force", &s.force) }
