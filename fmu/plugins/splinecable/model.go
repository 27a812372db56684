package splinecable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Model is the quasi-dynamic spline cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "spline-cable" }

// Configure implements fmu.Model. The port "cable.node[*]" expands to
// cable.node[k].x|y|z for K points at equal rest arc length (outputNodes).
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	selected, err := port.Select(quantities(cfg, sc.Step), port.ExpandCableNodes(sc.Ports, cfg.Cable.outputNodes()), sc.Step)
	if err != nil {
		return nil, err
	}
	m := &configured{Ports: selected, cfg: cfg}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the scenario's cable: %w", err)
	}
	return m, nil
}

// configured implements fmu.Configured; its ports give Variables and
// InternalStep.
type configured struct {
	*port.Ports[params, drive, simulation]
	cfg *config
}

// catalogue is this plugin's quantity catalogue.
type catalogue = port.Catalogue[params, drive, simulation]

func quantities(c *config, step float64) *catalogue {
	qs := &catalogue{}
	param, input, output := qs.Param, qs.Input, qs.Output
	axes := []string{port.Axis(0), port.Axis(1), port.Axis(2)}
	rope := c.Cable.Rope.Material()
	param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *params, x float64) { p.gravity = x })
	param("h", "s", "Internal step of the spline's linearly implicit Euler method: steps on the fixed grid start + k·h whatever the communication steps; outputs between grid points are interpolated", step, port.Step, func(p *params, x float64) { p.h = x })
	param("load.mass", "kg", "Mass of the load (hook and payload), a point mass held to the cable's end", c.Load.Mass, port.Range{Min: 0, Max: port.Mass.Max}, func(p *params, x float64) { p.loadMass = x })
	param("cable.length0", "m", "Initial cable length from the suspension point to the load", c.Cable.Length0, port.Length, func(p *params, x float64) { p.length0 = x })
	param("cable.E", "Pa", "Effective Young's modulus of the rope (stretching stiffness EA)", rope.E, port.Modulus, func(p *params, x float64) { p.e = x })
	param("cable.diameter", "m", "Rope diameter", rope.Diameter, port.Diameter, func(p *params, x float64) { p.diameter = x })
	param("cable.density", "kg/m3", "Rope density: the spline's mass, carried by the crane with the load", rope.Density, port.RopeDensity, func(p *params, x float64) { p.density = x })
	param("cable.bendingStiffness", "N.m2", "Bending stiffness EI of the rope; 0 takes a tenth of a solid bar's", rope.BendingStiffness, port.Bending, func(p *params, x float64) { p.bending = x })
	for k, ax := range axes {
		input("hoist."+ax, "m", fmt.Sprintf("World %s position of the suspension point (sheave on the trolley), z up", ax), c.Hoist.Position[k], port.Position,
			func(d *drive, x float64) { port.SetComp(&d.pos, k, x) })
	}
	for k, ax := range axes {
		input("hoist.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the suspension point; within a communication step it moves with it", ax), 0, port.Velocity,
			func(d *drive, x float64) { port.SetComp(&d.vel, k, x) })
	}
	input("winch.speed", "m/s", "Pay-out rate of the winch; positive lengthens the cable (its rest length, along the whole spline)", 0, port.Velocity, func(d *drive, x float64) { d.winch = x })
	input("cable.budget", "1", "Operations a step may take (0: no limit): above 95 % of it the spline takes the static system where its held points allow (Algorithm 2: with config clampStart; a cable held at one point stays dynamic), below 90 % the dynamic one again", 0, port.Range{Min: 0, Max: 1e15}, func(d *drive, x float64) { d.budget = x })
	for k, ax := range axes {
		output("hoist.f"+ax, "N", fmt.Sprintf("World %s component of the force the cable exerts on the crane (the multiplier of its held start)", ax),
			func(s *simulation) float64 { return s.spline.StartForce.Comp(k) })
	}
	output("cable.tension", "N", "Axial force EA(|r'|-1) at the suspension point", func(s *simulation) float64 { return s.spline.Tension(0) })
	output("cable.length", "m", "Unstretched cable length from the suspension point to the load", func(s *simulation) float64 { return s.spline.Length() })
	output("cable.static", "1", "1 where the last step solved the static system, 0 the dynamic one", func(s *simulation) float64 { return port.Flag(s.spline.Static) })
	output("cable.cost", "1", "Operations a step takes (what the budget is compared with)", func(s *simulation) float64 { return s.spline.Cost() })
	for k, ax := range axes {
		output("load."+ax, "m", fmt.Sprintf("World %s position of the load", ax), func(s *simulation) float64 { return s.spline.LoadPos.Comp(k) })
	}
	for k, ax := range axes {
		output("load.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the load", ax), func(s *simulation) float64 { return s.spline.LoadVel.Comp(k) })
	}
	n := c.Cable.outputNodes()
	for j := 1; j <= n; j++ {
		for k, ax := range axes {
			output(fmt.Sprintf("cable.node[%d].%s", j, ax), "m", fmt.Sprintf("World %s position of the centreline at rest arc length %d/%d of the cable from the suspension point", ax, j-1, n-1),
				func(s *simulation) float64 { return s.node(j-1, n, k) })
		}
	}
	return qs
}
