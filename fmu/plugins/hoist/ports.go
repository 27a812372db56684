package hoist

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Params are the family's parameters: fixed for a run, set by the master
// before initialization.
type Params struct {
	Gravity  float64       // m/s², along −z
	H        float64       // s, the internal step
	LoadMass float64       // kg
	Length0  float64       // m
	Rope     material.Rope // the rope, with its defaults filled in
}

// Drive holds the inputs at one instant.
type Drive struct {
	Pos, Vel geom.Vec3 // the suspension point's (m, m/s)
	Winch    float64   // pay-out rate (m/s)
	// Extra holds a model's own inputs, in the order it declares them.
	Extra [2]float64
}

// Catalogue is the family's quantity catalogue.
type Catalogue = port.Catalogue[Params, Drive, Simulation]

// Texts are the descriptions of the family's quantities that say how a
// model computes them; a model gives those that differ from the family's.
type Texts struct {
	// Step names the integrator whose internal step h is.
	Step string
	// Load, Diameter, Density, Force, Tension, Winch add the model's way
	// to the descriptions of load.mass, cable.diameter, cable.density,
	// suspension.f*, cable.tension and winch.speed.
	Load, Diameter, Density, Force, Tension, Winch string
	// LoadPoint names the load's point whose position load.* gives.
	LoadPoint string
	// Node describes cable.node[j] of n, j = 1 … n.
	Node func(j, n int) string
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return "; " + s
}

// quantities is the catalogue of the family's quantities for a model
// with features f and texts x, its own quantities added by d.
func quantities(c *Config, step float64, d *Design) *Catalogue {
	f, x := d.Features, d.Texts
	rope := c.Cable.Rope.Material()
	qs := &Catalogue{}
	param, input, output := qs.Param, qs.Input, qs.Output
	axes := []string{port.Axis(0), port.Axis(1), port.Axis(2)}
	param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *Params, v float64) { p.Gravity = v })
	param("internalStep", "s", "Internal step of "+x.Step+": steps on the fixed grid start + k·internalStep whatever the communication steps; between grid points Real outputs are interpolated, counts and switches keep the earlier grid point's value", step, port.Step, func(p *Params, v float64) { p.H = v })
	param("load.mass", "kg", "Mass of the load (hook and payload)"+suffix(x.Load), c.Load.Mass, f.loadMass(), func(p *Params, v float64) { p.LoadMass = v })
	param("cable.length0", "m", "Initial cable length from the suspension point to the load", c.Cable.Length0, port.Length, func(p *Params, v float64) { p.Length0 = v })
	param("cable.E", "Pa", "Effective Young's modulus of the rope (a stranded wire rope is softer than solid steel): its stretching stiffness EA", rope.E, port.Modulus, func(p *Params, v float64) { p.Rope.E = v })
	param("cable.diameter", "m", "Rope diameter"+suffix(x.Diameter), rope.Diameter, port.Diameter, func(p *Params, v float64) { p.Rope.Diameter = v })
	param("cable.density", "kg/m3", "Rope density: "+x.Density+", carried by the crane with the load", rope.Density, port.RopeDensity, func(p *Params, v float64) { p.Rope.Density = v })
	if f.Damping {
		param("cable.dampingTime", "s", "Material damping of the rope as a Kelvin-Voigt time constant (damping ratio omega*tau/2 for a mode at omega); 0 is undamped", rope.DampingTime, port.Time, func(p *Params, v float64) { p.Rope.DampingTime = v })
	}
	param("cable.bendingStiffness", "N.m2", "Bending stiffness EI of the rope; 0 takes a tenth of a solid bar's (a stranded rope bends far more easily)", rope.BendingStiffness, port.Bending, func(p *Params, v float64) { p.Rope.BendingStiffness = v })
	for k, ax := range axes {
		input("suspension."+ax, "m", fmt.Sprintf("World %s position of the suspension point (sheave on the trolley), z up", ax), c.Suspension.Position[k], port.Position,
			func(d *Drive, v float64) { port.SetComp(&d.Pos, k, v) })
	}
	for k, ax := range axes {
		input("suspension.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the suspension point: the point follows it along a smooth path through the samples", ax), 0, port.Velocity,
			func(d *Drive, v float64) { port.SetComp(&d.Vel, k, v) })
	}
	input("winch.speed", "m/s", "Pay-out rate of the winch; positive lengthens the cable"+suffix(x.Winch), 0, port.Velocity, func(d *Drive, v float64) { d.Winch = v })
	for k, ax := range axes {
		output("suspension.f"+ax, "N", fmt.Sprintf("World %s component of the force the cable exerts on the crane%s", ax, suffix(x.Force)),
			func(s *Simulation) float64 { return s.Cable.Force().Comp(k) })
	}
	output("cable.tension", "N", "Cable tension at the suspension point"+suffix(x.Tension), func(s *Simulation) float64 { return s.Cable.Tension() })
	qs.Peak("cable.tensionPeak", "N", "Largest cable tension at the suspension point over the last communication step, at its internal steps and its ends: the snap peaks between a master's samples"+suffix(x.Tension), func(s *Simulation) float64 { return s.Cable.Tension() })
	output("cable.length", "m", "Unstretched cable length from the suspension point to the load", func(s *Simulation) float64 { return s.Cable.Length() })
	if d.Quantities != nil {
		d.Quantities(qs)
	}
	for k, ax := range axes {
		output("load."+ax, "m", fmt.Sprintf("World %s position of %s", ax, x.LoadPoint), func(s *Simulation) float64 { p, _ := s.Cable.Load(); return p.Comp(k) })
	}
	for k, ax := range axes {
		output("load.v"+ax, "m/s", fmt.Sprintf("World %s velocity of %s", ax, x.LoadPoint), func(s *Simulation) float64 { _, v := s.Cable.Load(); return v.Comp(k) })
	}
	n := d.Nodes
	nodes := &port.Array[Simulation]{Get: (*Simulation).nodes}
	for j := 1; j <= n; j++ {
		for k, ax := range axes {
			qs.Element(fmt.Sprintf("cable.node[%d].%s", j, ax), "m", fmt.Sprintf("World %s position of %s", ax, x.Node(j, n)), nodes, 3*(j-1)+k)
		}
	}
	return qs
}

// checkHung refuses a load and rope whose weight, hanging still, the
// rope's top cannot hold (material.Rope.CheckHung): T = (M + ρAL₀)g.
func (p *Params) checkHung() error {
	rope := p.Rope.LinearDensity() * p.Length0
	if err := p.Rope.CheckHung((p.LoadMass + rope) * math.Abs(p.Gravity)); err != nil {
		return fmt.Errorf("load.mass %.4g kg and the rope's own %.4g kg: %w; check load.mass, cable.diameter and cable.E", p.LoadMass, rope, err)
	}
	return nil
}
