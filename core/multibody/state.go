package multibody

import (
	"errors"
	"fmt"

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
// bodies and constraints and returns what follows it in src.
func (w *World) LoadState(src []float64) ([]float64, error) {
	if len(src) < bodyStateLen*len(w.bodies) {
		return nil, fmt.Errorf("world of %d bodies: %w", len(w.bodies), errShortState)
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
