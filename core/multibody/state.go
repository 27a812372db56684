package multibody

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
)

// Constraints that carry state from one step to the next (an unwound
// twist angle, a winch's free length, the last tension) implement
// state.Stater: the world walks them after its bodies, in insertion
// order. A saved and loaded world continues bitwise identically.

// ErrBadState reports a saved state holding numbers no simulation leaves:
// not finite, or beyond the bounds a step keeps (state.ErrDamaged).
var ErrBadState = state.ErrDamaged

// State walks the world's state (state.Stater): every body's mass,
// inertia, position, orientation, velocities, external and constraint
// loads, a kinematic body's velocities in the last step, then the state
// of every constraint that has one, in insertion order. A body state no
// step could have left is refused: a dynamic body's mass not positive,
// an inertia negative, an orientation not a unit quaternion, positions
// and speeds beyond DivergenceLimit, where a step stops as diverged.
func (w *World) State(c *state.Codec) {
	for _, b := range w.bodies {
		b.state(c, w.fixedMass[b])
	}
	for _, con := range w.constraints {
		if s, ok := con.(state.Stater); ok {
			s.State(c)
		}
	}
}

// state walks the body's state; a body whose mass is fixed (FixMass)
// must have its own mass and inertia in it.
func (b *Body) state(c *state.Codec, fixed bool) {
	defer c.Back(c.Of("body", b.Name))
	var mass float64
	if b.Kind == Dynamic {
		mass = c.Positive("mass", "kg", &b.Mass)
	} else {
		mass = c.NonNegative("mass", &b.Mass)
	}
	if fixed && mass != b.Mass {
		c.Refuse("body %s mass %g kg, but its parameters give %g kg", b.Name, mass, b.Mass)
	}
	in := geom.V(c.NonNegative("inertia", &b.Inertia.X), c.NonNegative("inertia", &b.Inertia.Y), c.NonNegative("inertia", &b.Inertia.Z))
	if fixed && in != b.Inertia {
		c.Refuse("body %s inertia %v kg·m², but its parameters give %v kg·m²", b.Name, in, b.Inertia)
	}
	c.Point("position", &b.Pos)
	c.Quat("orientation", &b.Rot)
	c.Velocity("velocity", &b.Vel)
	c.Velocity("angular velocity", &b.AngVel)
	c.Vec("force", &b.Force)
	c.Vec("torque", &b.Torque)
	c.Vec("constraint force", &b.ConstraintForce)
	c.Vec("constraint torque", &b.ConstraintTorque)
	c.Velocity("velocity in the last step", &b.lastVel)
	c.Velocity("angular velocity in the last step", &b.lastAngVel)
}

// SaveState appends the world's state (State) to dst.
func (w *World) SaveState(dst []float64) []float64 { return state.Save(dst, w) }

// LoadState restores a state saved by SaveState of a world with the same
// bodies and constraints and returns what follows it in src; a refused
// state changes nothing.
func (w *World) LoadState(src []float64) ([]float64, error) { return state.Load(src, w) }

// Bounded reports whether every x is within ±DivergenceLimit (NaN is
// not): a number a simulation that has not diverged can hold as a
// position (m), length (m) or speed (m/s, rad/s).
func Bounded(xs ...float64) bool {
	for _, x := range xs {
		if !(math.Abs(x) < DivergenceLimit) {
			return false
		}
	}
	return true
}

// FixMass makes a state give each of bodies exactly the mass and inertia
// it has: bodies no step changes, built from the parameters (a load), so
// that a state saved by a world of other parameters is refused.
func (w *World) FixMass(bodies ...*Body) {
	if w.fixedMass == nil {
		w.fixedMass = map[*Body]bool{}
	}
	for _, b := range bodies {
		w.fixedMass[b] = true
	}
}
