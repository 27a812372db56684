package hoist

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// PointLoad is a Cable whose load is a point mass at the rope's end:
// plugins push it with forces; it takes no torque.
type PointLoad interface {
	// PushLoad adds a force (N) on the load for the coming step;
	// ClearLoad removes what was pushed.
	PushLoad(f geom.Vec3)
	ClearLoad()
	// LoadPull is the force the cable exerted on the load in the last
	// step (N).
	LoadPull() geom.Vec3
}

// Bodies is a Cable whose bodies plugins see as they are (the rigid-body
// cable's suspension point and load).
type Bodies interface {
	Bodies() []plant.Body
	ClearForces()
}

// Plant implements plant.Simulation: plugins see the suspension point
// ("suspension") and the load ("load"), the cable ("cable") and its winch
// ("winch"), named as in the ports.
func (s *Simulation) Plant() plant.Plant { return view{s} }

type view struct{ s *Simulation }

func (v view) Bodies() []plant.Body {
	if b, ok := v.s.Cable.(Bodies); ok {
		return b.Bodies()
	}
	return []plant.Body{suspension(v), pointLoad(v)}
}

func (v view) ClearForces() {
	switch c := v.s.Cable.(type) {
	case Bodies:
		c.ClearForces()
	case PointLoad:
		c.ClearLoad()
	}
}

func (v view) Cables() []plant.Cable  { return []plant.Cable{cableView(v)} }
func (v view) Winches() []plant.Winch { return []plant.Winch{winch(v)} }

type cableView struct{ s *Simulation }

func (c cableView) Name() string        { return "cable" }
func (c cableView) Tension() float64    { return c.s.Cable.Tension() }
func (c cableView) FreeLength() float64 { return c.s.Cable.Length() }

type winch struct{ s *Simulation }

func (w winch) Name() string               { return "winch" }
func (w winch) Speed() float64             { return w.s.rate }
func (w winch) Command(speed float64)      { w.s.commanded, w.s.command = true, speed }
func (w winch) Release()                   { w.s.commanded, w.s.command = false, 0 }
func (w winch) Commanded() (float64, bool) { return w.s.command, w.s.commanded }
func (w winch) ForceLimit() float64        { return w.s.forceLimit }

func (w winch) SetForceLimit(newtons float64) error {
	if err := port.Force.Check("winch force limit", "N", newtons); err != nil {
		return fmt.Errorf("%w (0: none)", err)
	}
	w.s.forceLimit = newtons
	return nil
}

// suspension is the suspension point as a body the inputs move.
type suspension struct{ s *Simulation }

func (b suspension) Name() string                           { return "suspension" }
func (b suspension) Mass() float64                          { return 0 }
func (b suspension) Position() geom.Vec3                    { return *b.s.Cable.Top() }
func (b suspension) Velocity() geom.Vec3                    { return b.s.MeanVel }
func (b suspension) AngularVelocity() geom.Vec3             { return geom.Vec3{} }
func (b suspension) Orientation() geom.Quat                 { return geom.Quat{W: 1} }
func (b suspension) CableForce() geom.Vec3                  { return b.s.Cable.Force() }
func (b suspension) ApplyTorque(geom.Vec3) error            { return b.moved() }
func (b suspension) ApplyForce(geom.Vec3, *geom.Vec3) error { return b.moved() }

func (b suspension) moved() error {
	return fmt.Errorf("body hoist is moved by its inputs: forces on it have no effect")
}

// pointLoad is the load as a point mass.
type pointLoad struct{ s *Simulation }

func (b pointLoad) Name() string               { return "load" }
func (b pointLoad) Mass() float64              { return b.s.params.LoadMass }
func (b pointLoad) Position() geom.Vec3        { p, _ := b.s.Cable.Load(); return p }
func (b pointLoad) Velocity() geom.Vec3        { _, v := b.s.Cable.Load(); return v }
func (b pointLoad) AngularVelocity() geom.Vec3 { return geom.Vec3{} }
func (b pointLoad) Orientation() geom.Quat     { return geom.Quat{W: 1} }

func (b pointLoad) CableForce() geom.Vec3 {
	if p, ok := b.s.Cable.(PointLoad); ok {
		return p.LoadPull()
	}
	return geom.Vec3{}
}

// ApplyForce pushes the point mass; where the force acts does not matter
// to a point (it has no rotation to turn).
func (b pointLoad) ApplyForce(f geom.Vec3, _ *geom.Vec3) error {
	p, ok := b.s.Cable.(PointLoad)
	if !ok || b.s.params.LoadMass == 0 {
		return fmt.Errorf("body load: this scenario's rope end carries no load (load.mass 0) to push")
	}
	p.PushLoad(f)
	return nil
}

func (b pointLoad) ApplyTorque(geom.Vec3) error {
	return fmt.Errorf("body load is a point mass in %s: a torque has no effect (the rigid-body cable's load is a body)", b.s.m.design.Features.Model)
}
