package multibody

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Stateful is implemented by constraints that carry state from one step
// to the next (an unwound twist angle, a winch's free length, the last
// tension): SaveState appends it to dst, LoadState reads it back from the
// front of src and returns the rest. A saved and loaded world continues
// bitwise identically.
type Stateful interface {
	SaveState(dst []float64) []float64
	LoadState(src []float64) ([]float64, error)
}

// errShortState reports a state vector that ends too soon.
var errShortState = errors.New("state vector too short")

// bodyStateLen is the number of floats of one body's state.
const bodyStateLen = 35

// SaveState appends the world's state to dst: every body's mass, inertia,
// position, orientation, velocities, external and constraint loads, a
// kinematic body's velocities in the last step, then
// the state of every Stateful constraint, in insertion order.
func (w *World) SaveState(dst []float64) []float64 {
	for _, b := range w.bodies {
		dst = append(dst, b.Mass)
		dst = appendVec(dst, b.Inertia, b.Pos)
		dst = append(dst, b.Rot.W, b.Rot.X, b.Rot.Y, b.Rot.Z)
		dst = appendVec(dst, b.Vel, b.AngVel, b.Force, b.Torque, b.ConstraintForce, b.ConstraintTorque, b.lastVel, b.lastAngVel)
	}
	for _, c := range w.constraints {
		if s, ok := c.(Stateful); ok {
			dst = s.SaveState(dst)
		}
	}
	return dst
}

// LoadState restores a state saved by SaveState of a world with the same
// bodies and constraints and returns what follows it in src. A body
// state no step could have left (checkBodyState) is refused before
// anything is changed.
func (w *World) LoadState(src []float64) ([]float64, error) {
	if len(src) < bodyStateLen*len(w.bodies) {
		return nil, fmt.Errorf("world of %d bodies: %w", len(w.bodies), errShortState)
	}
	for i, b := range w.bodies {
		if err := checkBodyState(b, src[i*bodyStateLen:(i+1)*bodyStateLen]); err != nil {
			return nil, fmt.Errorf("body %q: %w", b.Name, err)
		}
	}
	for _, b := range w.bodies {
		b.Mass = src[0]
		src = src[1:]
		src = readVec(src, &b.Inertia, &b.Pos)
		b.Rot = geom.Quat{W: src[0], X: src[1], Y: src[2], Z: src[3]}
		src = src[4:]
		src = readVec(src, &b.Vel, &b.AngVel, &b.Force, &b.Torque, &b.ConstraintForce, &b.ConstraintTorque, &b.lastVel, &b.lastAngVel)
	}
	var err error
	for i, c := range w.constraints {
		if s, ok := c.(Stateful); ok {
			if src, err = s.LoadState(src); err != nil {
				return nil, fmt.Errorf("constraint %d: %w", i, err)
			}
		}
	}
	return src, nil
}

// ErrBadState reports a saved state holding numbers no simulation leaves:
// not finite, or beyond the bounds a step keeps.
var ErrBadState = errors.New("damaged state")

// checkBodyState checks one body's saved numbers (SaveState's layout):
// all finite, a dynamic body's mass positive and its inertia
// non-negative, a unit orientation, and positions and speeds within
// DivergenceLimit, where a step stops as diverged.
func checkBodyState(b *Body, v []float64) error {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%g in its state: %w", x, ErrBadState)
		}
	}
	mass, inertia, pos := v[0], geom.V(v[1], v[2], v[3]), geom.V(v[4], v[5], v[6])
	rot := geom.Quat{W: v[7], X: v[8], Y: v[9], Z: v[10]}
	vel, ang := geom.V(v[11], v[12], v[13]), geom.V(v[14], v[15], v[16])
	lastVel, lastAng := geom.V(v[29], v[30], v[31]), geom.V(v[32], v[33], v[34])
	switch {
	case b.Kind == Dynamic && !(mass > 0), mass < 0:
		return fmt.Errorf("mass %g kg: %w", mass, ErrBadState)
	case inertia.X < 0 || inertia.Y < 0 || inertia.Z < 0:
		return fmt.Errorf("inertia %v kg·m²: %w", inertia, ErrBadState)
	case math.Abs(rot.W*rot.W+rot.X*rot.X+rot.Y*rot.Y+rot.Z*rot.Z-1) > 1e-9:
		// Integrate normalizes: a saved orientation is a unit quaternion
		// to rounding.
		return fmt.Errorf("orientation %v is not a unit quaternion: %w", rot, ErrBadState)
	case !finiteWithin(pos):
		return fmt.Errorf("position %v m beyond ±%g m: %w", pos, DivergenceLimit, ErrBadState)
	case !finiteWithin(vel) || !finiteWithin(lastVel):
		return fmt.Errorf("velocity %v (last step %v) m/s beyond ±%g m/s: %w", vel, lastVel, DivergenceLimit, ErrBadState)
	case !finiteWithin(ang) || !finiteWithin(lastAng):
		return fmt.Errorf("angular velocity %v (last step %v) rad/s beyond ±%g rad/s: %w", ang, lastAng, DivergenceLimit, ErrBadState)
	}
	return nil
}

func appendVec(dst []float64, vs ...geom.Vec3) []float64 {
	for _, v := range vs {
		dst = append(dst, v.X, v.Y, v.Z)
	}
	return dst
}

func readVec(src []float64, vs ...*geom.Vec3) []float64 {
	for _, v := range vs {
		*v = geom.Vec3{X: src[0], Y: src[1], Z: src[2]}
		src = src[3:]
	}
	return src
}

// Take returns the first n floats of src and the rest, or an error when
// src is shorter: a helper for Stateful implementations.
func Take(src []float64, n int) (head, rest []float64, err error) {
	if len(src) < n {
		return nil, nil, errShortState
	}
	return src[:n], src[n:], nil
}

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

// CheckFixed checks that a saved state (SaveState's layout, src from its
// start) gives each of the fixed bodies — ones whose mass and inertia no
// step changes, built from the parameters, such as a load — exactly the
// mass and inertia they have: a state is loaded into a world built from
// the same parameters, so another mass was not saved by it.
func (w *World) CheckFixed(src []float64, fixed ...*Body) error {
	if len(src) < bodyStateLen*len(w.bodies) {
		return fmt.Errorf("world of %d bodies: %w", len(w.bodies), errShortState)
	}
	for i, b := range w.bodies {
		if !slices.Contains(fixed, b) {
			continue
		}
		v := src[i*bodyStateLen:]
		if v[0] != b.Mass {
			return fmt.Errorf("body %q: mass %g kg in the state, but its parameters give %g kg: %w", b.Name, v[0], b.Mass, ErrBadState)
		}
		if in := geom.V(v[1], v[2], v[3]); in != b.Inertia {
			return fmt.Errorf("body %q: inertia %v kg·m² in the state, but its parameters give %v kg·m²: %w", b.Name, in, b.Inertia, ErrBadState)
		}
	}
	return nil
}
