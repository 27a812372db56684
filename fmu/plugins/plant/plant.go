// Package plant is what a running cable model shows a scenario's Python
// plugins: its bodies to read and push, its cables to read and its
// winches to command. Every model plugin offers one (Simulation), so a
// plugin written against a hoist runs on every model that has one; the
// plugin binding (package pyplugin) reaches models through nothing else.
package plant

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/fmu"
)

// Plant lists what plugins may see and act on.
type Plant interface {
	Bodies() []Body
	Cables() []Cable
	Winches() []Winch
	// ClearForces removes the forces and torques plugins applied: they act
	// during one internal step, and the binding calls this after it.
	ClearForces()
}

// Simulation is a simulation with a Plant.
type Simulation interface {
	fmu.Simulation
	Plant() Plant
}

// Body is a body as plugins see it (SI, world frame, z up).
type Body interface {
	Name() string
	// Mass is the body's mass (kg); 0 for bodies the inputs move or fixed.
	Mass() float64
	Position() geom.Vec3
	Velocity() geom.Vec3
	AngularVelocity() geom.Vec3
	// Orientation rotates body axes into the world.
	Orientation() geom.Quat
	// CableForce is the force (N) the cables exerted on the body over the
	// last step.
	CableForce() geom.Vec3
	// ApplyForce adds a force (N) for the coming internal step at the
	// centre of mass, or at the world point at; ApplyTorque a torque
	// (N·m). A body the inputs move, a fixed body or a point mass that
	// cannot take a torque says so in the error.
	ApplyForce(f geom.Vec3, at *geom.Vec3) error
	ApplyTorque(t geom.Vec3) error
}

// Cable is a cable as plugins see it.
type Cable interface {
	Name() string
	// Tension is the tension of the last step (N); for a cable with mass,
	// at its upper end.
	Tension() float64
	// FreeLength is the unstretched length paid out (m).
	FreeLength() float64
}

// Winch is a winch plugins may command.
type Winch interface {
	Name() string
	// Speed is the pay-out rate of the last step (m/s), positive
	// lengthening the cable.
	Speed() float64
	// Command sets the pay-out rate (m/s) for the coming steps in place of
	// the winch's speed input, until Release.
	Command(speed float64)
	Release()
	// Commanded returns the command in force, if any.
	Commanded() (speed float64, ok bool)
	// SetForceLimit lets the winch's brake slip (pay out) when the cable
	// tension exceeds newtons; 0 removes the limit.
	SetForceLimit(newtons float64) error
	ForceLimit() float64
}

// RigidBody shows a multibody body to plugins; forces and torques they
// apply go to its Force and Torque, which the world applies over a step.
func RigidBody(b *multibody.Body) Body { return rigid{b} }

// RigidBodies shows bodies to plugins (RigidBody each).
func RigidBodies(bodies []*multibody.Body) []Body {
	out := make([]Body, len(bodies))
	for i, b := range bodies {
		out[i] = rigid{b}
	}
	return out
}

// ClearRigid zeroes the forces and torques plugins applied to bodies.
func ClearRigid(bodies []*multibody.Body) {
	for _, b := range bodies {
		b.Force, b.Torque = geom.Vec3{}, geom.Vec3{}
	}
}

type rigid struct{ b *multibody.Body }

func (r rigid) Name() string { return r.b.Name }

func (r rigid) Mass() float64 {
	if r.b.Kind != multibody.Dynamic {
		return 0
	}
	return r.b.Mass
}

func (r rigid) Position() geom.Vec3        { return r.b.Pos }
func (r rigid) Velocity() geom.Vec3        { return r.b.Vel }
func (r rigid) AngularVelocity() geom.Vec3 { return r.b.AngVel }
func (r rigid) Orientation() geom.Quat     { return r.b.Rot }
func (r rigid) CableForce() geom.Vec3      { return r.b.ConstraintForce }

func (r rigid) pushable() error {
	if r.b.Kind != multibody.Dynamic {
		return fmt.Errorf("body %s is moved by its inputs or fixed: forces on it have no effect", r.b.Name)
	}
	return nil
}

func (r rigid) ApplyForce(f geom.Vec3, at *geom.Vec3) error {
	if err := r.pushable(); err != nil {
		return err
	}
	r.b.Force = r.b.Force.Add(f)
	if at != nil {
		r.b.Torque = r.b.Torque.Add(at.Sub(r.b.Pos).Cross(f))
	}
	return nil
}

func (r rigid) ApplyTorque(t geom.Vec3) error {
	if err := r.pushable(); err != nil {
		return err
	}
	r.b.Torque = r.b.Torque.Add(t)
	return nil
}

// Renamed shows b to plugins under name: the name its ports use where
// the core model names it otherwise.
func Renamed(b Body, name string) Body { return renamed{b, name} }

type renamed struct {
	Body
	name string
}

func (r renamed) Name() string { return r.name }
