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
	name := "body " + b.Name
	var mass float64
	if b.Kind == Dynamic {
		mass = c.Positive(name+" mass", "kg", &b.Mass)
	} else {
		mass = c.NonNegative(name+" mass", &b.Mass)
	}
	if fixed && mass != b.Mass {
		c.Refuse("%s mass %g kg, but its parameters give %g kg", name, mass, b.Mass)
	}
	in := geom.V(c.NonNegative(name+" inertia", &b.Inertia.X), c.NonNegative(name+" inertia", &b.Inertia.Y), c.NonNegative(name+" inertia", &b.Inertia.Z))
	if fixed && in != b.Inertia {
		c.Refuse("%s inertia %v kg·m², but its parameters give %v kg·m²", name, in, b.Inertia)
	}
	c.Point(name+" position", &b.Pos)
	c.Quat(name+" orientation", &b.Rot)
	c.Velocity(name+" velocity", &b.Vel)
	c.Velocity(name+" angular velocity", &b.AngVel)
	c.Vec(name+" force", &b.Force)
	c.Vec(name+" torque", &b.Torque)
	c.Vec(name+" constraint force", &b.ConstraintForce)
	c.Vec(name+" constraint torque", &b.ConstraintTorque)
	c.Velocity(name+" velocity in the last step", &b.lastVel)
	c.Velocity(name+" angular velocity in the last step", &b.lastAngVel)
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
