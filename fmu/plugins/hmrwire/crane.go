package hmrwire

import (
	"errors"

	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// craneSettings are the HMR wire's own settings of a crane given in the
// hoist family's form.
type craneSettings struct {
	Resolution resolutionConfig `json:"resolution"`
	// OutputNodes is how many points cable.node[k] samples (left out: the
	// cable's segments + 1).
	OutputNodes int `json:"outputNodes" zero:"default"`
	// Slip (m/(N·s)) and ForceLimit (N, 0: none) of the winch.
	Slip       float64 `json:"slip"`
	ForceLimit float64 `json:"forceLimit"`
}

// craneFeatures are the crane's parts the HMR wire has here: the load is
// a body, the rope is damped; its geometry is the scenario's boxes and
// prisms, not a ground.
var craneFeatures = hoist.Features{Model: "the HMR wire", LoadBody: true, Damping: true, Elements: "the wire's mass nodes"}

// fromCrane turns a crane given in the hoist family's form into bodies
// ("suspension" kinematic, "load" dynamic) and a wire ("cable", paid out by the
// winch "winch" at the hoist, with mass nodes every length0/segments),
// laid by lay.
func (c *config) fromCrane() error {
	if !c.Crane.Given() {
		if c.Own != nil {
			return errors.New("hmrWire: the HMR wire's settings of a crane in the hoist form (suspension, load, cable); with bodies and wires, set them there")
		}
		return nil
	}
	if len(c.Bodies) > 0 || len(c.Wires) > 0 || len(c.Geometries) > 0 {
		return errors.New("config: a crane is described either by suspension, load and cable or by bodies, geometries and wires, not both")
	}
	fc, errs := c.Crane.Config(c.Gravity, craneFeatures)
	if err := errs.Err(); err != nil {
		return err
	}
	own := craneSettings{}
	if c.Own != nil {
		own = *c.Own
	}
	n := fc.Cable.Elements()
	if own.OutputNodes == 0 {
		own.OutputNodes = n + 1
	}
	c.crane = fc
	hoistEnd, loadEnd := "suspension", "load"
	c.Bodies = []bodyConfig{
		{Name: "suspension", Kind: "kinematic", Position: fc.Suspension.Position},
		{Name: "load", Kind: "dynamic", Mass: fc.Load.Mass, Size: fc.Load.Box()},
	}
	c.Wires = []wireConfig{{Name: "cable", Rope: fc.Cable.Rope,
		Route:   []routeConfig{{End: &hoistEnd, Point: fc.Suspension.Position}, {End: &loadEnd}},
		Spacing: fc.Cable.Length0 / float64(n), Resolution: own.Resolution, OutputNodes: own.OutputNodes,
		Winch: &winchConfig{Name: "winch", Slip: own.Slip, ForceLimit: own.ForceLimit, Spacing: fc.Cable.Length0 / float64(n), MinLength: fc.Cable.MinLen()}}}
	c.lay(fc.Cable.Length0, fc.Load.Mass, fc.Gravity, fc.Cable.Rope.WireMaterial(), fc.Suspension.Position).apply(c)
	return nil
}

// laid is where a crane's wire and load start: the wire's route ends,
// the tension and node spacing it is laid with, the load's centre.
type laid struct {
	top, end, load   [3]float64 // m
	tension, spacing float64    // N, m
}

// lay lays a crane's wire straight down from top (m) to the load (mass
// kg), at the mean tension of the hanging wire, (M + μL/2) g, stretched so
// that its rest length is length0 (m), and hangs the load's box below.
func (c *config) lay(length0, mass, gravity float64, rope material.Rope, top [3]float64) laid {
	tension := (mass + rope.LinearDensity()*length0/2) * gravity
	end := [3]float64{top[0], top[1], top[2] - length0*(1+tension/rope.AxialStiffness())}
	box := c.Bodies[1].Size
	return laid{top: top, end: end, load: [3]float64{end[0], end[1], end[2] - box[2]/2},
		tension: tension, spacing: length0 / float64(c.crane.Cable.Elements())}
}

// apply sets l into the config's crane body and wire (fromCrane's start,
// a copy's in build).
func (l laid) apply(c *config) {
	w := &c.Wires[0]
	w.Route[0].Point, w.Route[1].Point = l.top, l.end
	w.Tension, w.Spacing, w.Winch.Spacing = l.tension, l.spacing, l.spacing
	c.Bodies[1].Position = l.load
}

// copyCrane returns a copy of a crane's config whose body and wire apply
// may change.
func (c *config) copyCrane() *config {
	cc := *c
	cc.Bodies = append([]bodyConfig(nil), c.Bodies...)
	cc.Wires = append([]wireConfig(nil), c.Wires...)
	w := &cc.Wires[0]
	w.Route = append([]routeConfig(nil), w.Route...)
	winch := *w.Winch
	w.Winch = &winch
	return &cc
}
