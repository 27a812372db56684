package hmrwire

import (
	"fmt"
	"strings"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Model is the HMR wire plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "hmr-wire" }

// Summary implements fmu.Model.
func (Model) Summary() string {
	return "wires of your own layout over boxes and cylinders with frictional contact, resolution adapting to the load [Servin et al. 2011]; for wires that wrap, slide and touch"
}

// Configure implements fmu.Model. A port "WIRE.node[*]" expands to
// WIRE.node[k].x|y|z for k = 1 … K, the wire's outputNodes.
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	ports, err := port.Select(quantities(cfg, sc.Step), expand(sc.Ports, cfg), sc.Step)
	if err != nil {
		return nil, err
	}
	m := &configured{Ports: ports, cfg: cfg}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the scenario's world: %w", err)
	}
	return m, nil
}

func expand(ports []string, c *config) []string {
	var out []string
	for _, p := range ports {
		name, ok := strings.CutSuffix(p, ".node[*]")
		k := 0
		for _, w := range c.Wires {
			if w.Name == name {
				k = w.outputNodes()
			}
		}
		if !ok || k == 0 {
			out = append(out, p)
			continue
		}
		out = append(out, port.NodeNames(name+".node", k)...)
	}
	return out
}

// configured implements fmu.Configured.
type configured struct {
	*port.Ports[params, drive, simulation]
	cfg *config
}

type catalogue = port.Catalogue[params, drive, simulation]

// params holds the parameters: gravity, the step, the dynamic bodies'
// masses (by body index), the wires' ropes (by wire index).
type params struct {
	gravity, h float64
	mass       []float64
	// rope is each wire's material; length0 the rest length (m) of a
	// crane's wire given in the hoist family's form.
	rope    []material.Rope
	length0 float64
}

// drive holds the inputs at one instant: the kinematic bodies' positions
// and velocities and the winches' speeds (by body and wire index).
type drive struct {
	pos, vel []geom.Vec3
	winch    []float64
}

func quantities(c *config, step float64) *catalogue {
	qs := &catalogue{}
	axes := []string{port.Axis(0), port.Axis(1), port.Axis(2)}
	qs.Param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *params, x float64) { p.gravity = x })
	qs.Param("internalStep", "s", "Internal step of the wire solver: steps on the fixed grid start + k·internalStep whatever the communication steps; between grid points Real outputs are interpolated, counts and switches keep the earlier grid point's value", step, port.Step, func(p *params, x float64) { p.h = x })
	for i, b := range c.Bodies {
		switch b.Kind {
		case "dynamic":
			qs.Param(b.Name+".mass", "kg", fmt.Sprintf("Mass of body %s", b.Name), b.Mass, port.Mass, func(p *params, x float64) { p.mass[i] = x })
			for k, ax := range axes {
				qs.Output(b.Name+"."+ax, "m", fmt.Sprintf("World %s position of body %s's centre of mass", ax, b.Name), func(s *simulation) float64 { return s.bodies[i].Pos.Comp(k) })
			}
			for k, ax := range axes {
				qs.Output(b.Name+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of body %s's centre of mass", ax, b.Name), func(s *simulation) float64 { return s.bodies[i].Vel.Comp(k) })
			}
		case "kinematic":
			for k, ax := range axes {
				qs.Input(b.Name+"."+ax, "m", fmt.Sprintf("World %s position of body %s (driven)", ax, b.Name), b.Position[k], port.Position,
					func(d *drive, x float64) { port.SetComp(&d.pos[i], k, x) })
			}
			for k, ax := range axes {
				qs.Input(b.Name+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of body %s: the point follows it along a smooth path through the samples", ax, b.Name), 0, port.Velocity,
					func(d *drive, x float64) { port.SetComp(&d.vel[i], k, x) })
			}
			for k, ax := range axes {
				qs.Output(b.Name+".f"+ax, "N", fmt.Sprintf("World %s component of the force the wires exert on body %s", ax, b.Name),
					func(s *simulation) float64 { return s.bodies[i].ConstraintForce.Comp(k) })
			}
		}
	}
	for j, g := range c.Geometries {
		for k, ax := range axes {
			qs.Output(g.Name+".f"+ax, "N", fmt.Sprintf("World %s component of the wires' contact force on geometry %s", ax, g.Name),
				func(s *simulation) float64 { return s.contactForce(j).Comp(k) })
		}
	}
	if c.crane != nil {
		qs.Param("cable.length0", "m", "Initial rest length of the wire from the hoist to the load", c.crane.Cable.Length0, port.Length, func(p *params, x float64) { p.length0 = x })
	}
	for j, w := range c.Wires {
		qs.Param(w.Name+".E", "Pa", fmt.Sprintf("Effective Young's modulus of wire %s's rope: its stretching stiffness EA", w.Name), w.Rope.E, port.Modulus, func(p *params, x float64) { p.rope[j].E = x })
		qs.Param(w.Name+".diameter", "m", fmt.Sprintf("Diameter of wire %s's rope", w.Name), w.Rope.Diameter, port.Diameter, func(p *params, x float64) { p.rope[j].Diameter = x })
		qs.Param(w.Name+".density", "kg/m3", fmt.Sprintf("Density of wire %s's rope: its mass nodes' mass", w.Name), w.Rope.Density, port.Density, func(p *params, x float64) { p.rope[j].Density = x })
		end := "first end"
		if w.Winch != nil {
			qs.Input(w.Winch.name(&w)+".speed", "m/s", fmt.Sprintf("Pay-out rate of wire %s's winch at its first end; positive lengthens the wire", w.Name), 0, port.Velocity,
				func(d *drive, x float64) { d.winch[j] = x })
			end = "winch"
		}
		qs.Output(w.Name+".tension", "N", fmt.Sprintf("Tension of wire %s at its %s", w.Name, end), func(s *simulation) float64 { return s.wireTension(j) })
		qs.Output(w.Name+".length", "m", fmt.Sprintf("Rest (unstretched) length of wire %s", w.Name), func(s *simulation) float64 { return s.sys.Wires[j].RestLength() })
		if w.twists() {
			qs.Output(w.Name+".firstEnd.ropeTorque", "N.m", fmt.Sprintf("Torque of wire %s's rope about itself on the body at its first end, positive the way a rope of positive torque factor turns its ends (0 on a swivel)", w.Name),
				func(s *simulation) float64 { return s.endTorque(j, 0) })
			qs.Output(w.Name+".lastEnd.ropeTorque", "N.m", fmt.Sprintf("Torque of wire %s's rope about itself on the body at its last end, the same sign (0 on a swivel)", w.Name),
				func(s *simulation) float64 { return s.endTorque(j, 1) })
			qs.Output(w.Name+".twist", "rad", fmt.Sprintf("Twist of wire %s: the turn of its last end's section against its first's", w.Name),
				func(s *simulation) float64 { return s.sys.Wires[j].Twist() })
		}
		qs.Count(w.Name+".massNodes", fmt.Sprintf("Number of mass nodes of the wire %q, its ends included (the adaptive resolution)", w.Name),
			func(s *simulation) float64 { m, _, _ := s.sys.Wires[j].Counts(); return float64(m) })
		qs.Count(w.Name+".contactNodes", fmt.Sprintf("Number of contact nodes of the wire %q on the geometries' edges", w.Name),
			func(s *simulation) float64 { _, _, c := s.sys.Wires[j].Counts(); return float64(c) })
		for n := 1; n <= w.outputNodes(); n++ {
			for k, ax := range axes {
				qs.Output(fmt.Sprintf("%s.node[%d].%s", w.Name, n, ax), "m",
					fmt.Sprintf("World %s position of wire %s at %d/%d of its rest length from its first end", ax, w.Name, n-1, w.outputNodes()-1),
					func(s *simulation) float64 { return s.nodeCoord(j, n-1, k) })
			}
		}
	}
	return qs
}

// ConfigType implements fmu.Configurable.
func (Model) ConfigType() any { return new(config) }

// Validation implements fmu.Validated.
func (Model) Validation() []fmu.Figure {
	return []fmu.Figure{
		{Check: "capstan: a wire sliding over a polygon sheave at the ratio e^{μθ}", Result: "within 0.08 %", Tolerance: "5 %", Test: "TestCapstan"},
		{Check: "rope torque: a six-strand rope laid at 10 kN between two fixed bodies; its last end on a swivel", Result: "end torques k·d·T within 0.00 %; on the swivel none, the wire untwisted by k·d·T·L/GJ within 0.08 %", Tolerance: "1 %, 2 %", Test: "TestWireRopeTorque"},
		{Check: "a wire over two beams keeps its contact nodes at the edges while loaded and moved", Result: "as stated", Tolerance: "no node inside a beam", Test: "TestWireOverTwoBeamsKeepsItsContacts"},
		{Check: "hanging chain's modes 1–3 (zeros of J₀), 40 segments", Result: "−0.03 / −0.22 / −0.47 %", Tolerance: "1 %", Test: "the model atlas"},
		{Check: "a 100 t load on 200 m of 44 mm wire at 1/60 s: bounce with the wire's mass", Result: "within 0.41 %", Tolerance: "1 %", Test: "TestHeavyHoistBounce"},
		{Check: "bending: a wire of 20 segments clamped at one end under an end load PL²/EI = 0.1 to 10, against the elastica (Bisshopp–Drucker) and PL³/(3EI)", Result: "within 0.15 % of L; 0.1 %", Tolerance: "1 % of L; 1 %", Test: "TestCantilever"},
		{Check: "the bending length √(EI/T) of a wire under tension leaving a clamp at an angle", Result: "within 0.01 %", Tolerance: "2 %", Test: "TestBendingLength"},
	}
}
