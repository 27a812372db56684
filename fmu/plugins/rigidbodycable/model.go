package rigidbodycable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Model is the rigid-body cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "rigid-body-cable" }

// Configure implements fmu.Model. The port "cable.node[*]" expands to
// cable.node[k].x|y|z for k = 1 … N+1.
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	ports, err := port.Select(quantities(cfg, sc.Step), port.ExpandCableNodes(sc.Ports, cfg.Cable.Segments+1), sc.Step)
	if err != nil {
		return nil, err
	}
	m := &configured{Ports: ports, cfg: cfg}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the scenario's world: %w", err)
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
	param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *params, x float64) { p.gravity = x })
	param("h", "s", "Internal step of the cable solver: steps on the fixed grid start + k·h whatever the communication steps; outputs between grid points are interpolated", step, port.Step, func(p *params, x float64) { p.h = x })
	param("load.mass", "kg", "Mass of the load (hook and payload)", c.Load.Mass, port.Mass, func(p *params, x float64) { p.loadMass = x })
	param("cable.length0", "m", "Initial cable length from the suspension point to the load", c.Cable.Length0, port.Length, func(p *params, x float64) { p.length0 = x })
	param("cable.E", "Pa", "Effective Young's modulus of the rope (a stranded wire rope is softer than solid steel)", c.Cable.Rope.E, port.Modulus, func(p *params, x float64) { p.e = x })
	param("cable.diameter", "m", "Rope diameter; the segments are solid cylinders of this diameter", c.Cable.Rope.Diameter, port.Diameter, func(p *params, x float64) { p.diameter = x })
	param("cable.density", "kg/m3", "Rope density: the segments' mass, carried by the crane with the load", c.Cable.Rope.Density, port.RopeDensity, func(p *params, x float64) { p.density = x })
	rope := c.Cable.Rope.Material()
	param("cable.dampingTime", "s", "Material damping of the rope as a Kelvin-Voigt time constant (damping ratio omega*tau/2 for a mode at omega); 0 is undamped", rope.DampingTime, port.Time, func(p *params, x float64) { p.dampingTime = x })
	param("cable.bendingStiffness", "N.m2", "Bending stiffness EI of the rope; 0 takes a tenth of a solid bar's (a stranded rope bends far more easily)", rope.BendingStiffness, port.Bending, func(p *params, x float64) { p.bending = x })
	for k, ax := range axes {
		input("hoist."+ax, "m", fmt.Sprintf("World %s position of the suspension point (sheave on the trolley), z up", ax), c.Hoist.Position[k], port.Position,
			func(d *drive, x float64) { port.SetComp(&d.pos, k, x) })
	}
	for k, ax := range axes {
		input("hoist.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the suspension point; within a communication step it moves with it", ax), 0, port.Velocity,
			func(d *drive, x float64) { port.SetComp(&d.vel, k, x) })
	}
	input("winch.speed", "m/s", "Pay-out rate of the winch; positive lengthens the cable", 0, port.Velocity, func(d *drive, x float64) { d.winch = x })
	for k, ax := range axes {
		output("hoist.f"+ax, "N", fmt.Sprintf("World %s component of the force the cable exerts on the crane", ax),
			func(s *simulation) float64 { return s.hoist.ConstraintForce.Comp(k) })
	}
	output("cable.tension", "N", "Cable tension at the suspension point", func(s *simulation) float64 { return s.cable.Joints[0].Force() })
	output("cable.length", "m", "Unstretched cable length from the suspension point to the load", func(s *simulation) float64 { return s.cable.Length() })
	for k, ax := range axes {
		output("load."+ax, "m", fmt.Sprintf("World %s position of the load's centre of mass", ax), func(s *simulation) float64 { return s.load.Pos.Comp(k) })
	}
	for k, ax := range axes {
		output("load.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the load's centre of mass", ax), func(s *simulation) float64 { return s.load.Vel.Comp(k) })
	}
	for n := 1; n <= c.Cable.Segments+1; n++ {
		for k, ax := range axes {
			output(fmt.Sprintf("cable.node[%d].%s", n, ax), "m", fmt.Sprintf("World %s position of segment end %d, counted from the suspension point down", ax, n),
				func(s *simulation) float64 { return s.nodeCoord(n-1, k) })
		}
	}
	return qs
}
