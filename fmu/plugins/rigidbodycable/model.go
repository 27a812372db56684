package rigidbodycable

import (
	"fmt"
	"strings"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Model is the rigid-body cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "rigid-body-cable" }

// nodePorts is the port name that stands for all node coordinates.
const nodePorts = "cable.node[*]"

// Configure implements fmu.Model. The port "cable.node[*]" expands to
// cable.node[k].x|y|z for k = 1 … N+1.
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	catalogue := quantities(cfg, sc.Step)
	byName := make(map[string]quantity, len(catalogue))
	for _, q := range catalogue {
		byName[q.v.Name] = q
	}
	m := &configured{cfg: cfg, step: sc.Step, hPort: -1}
	seen := map[string]bool{}
	for _, name := range expand(sc.Ports, cfg.Cable.Segments) {
		q, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("port %q: no such quantity (have %s, and %s)", name, strings.Join(baseNames(catalogue), ", "), nodePorts)
		}
		if seen[name] {
			return nil, fmt.Errorf("port %q listed twice", name)
		}
		seen[name] = true
		if name == "h" {
			m.hPort = len(m.ports)
		}
		m.ports = append(m.ports, q)
	}
	if _, err := m.NewSimulation(m.starts()); err != nil {
		return nil, fmt.Errorf("building the scenario's world: %w", err)
	}
	return m, nil
}

func expand(ports []string, n int) []string {
	var out []string
	for _, p := range ports {
		if p != nodePorts {
			out = append(out, p)
			continue
		}
		for k := 1; k <= n+1; k++ {
			for _, ax := range []string{"x", "y", "z"} {
				out = append(out, fmt.Sprintf("cable.node[%d].%s", k, ax))
			}
		}
	}
	return out
}

func baseNames(qs []quantity) []string {
	var names []string
	for _, q := range qs {
		if !strings.HasPrefix(q.v.Name, "cable.node[") {
			names = append(names, q.v.Name)
		}
	}
	return names
}

type configured struct {
	cfg   *config
	step  float64
	ports []quantity
	hPort int
}

// InternalStep implements fmu.Configured.
func (m *configured) InternalStep(values []float64) float64 {
	if m.hPort >= 0 {
		return values[m.hPort]
	}
	return m.step
}

func (m *configured) starts() []float64 {
	v := make([]float64, len(m.ports))
	for i, q := range m.ports {
		v[i] = q.v.Start
	}
	return v
}

// Variables implements fmu.Configured.
func (m *configured) Variables() []fmu.Variable {
	vs := make([]fmu.Variable, len(m.ports))
	for i, q := range m.ports {
		vs[i] = q.v
	}
	return vs
}

// quantity is a quantity a scenario can make a port; exactly one of
// param, input, output is set, matching the causality.
type quantity struct {
	v      fmu.Variable
	param  func(p *params, x float64)
	input  func(d *drive, x float64)
	output func(s *simulation) float64
}

func ptr(x float64) *float64 { return &x }

func quantities(c *config, step float64) []quantity {
	var qs []quantity
	param := func(name, unit, desc string, start, min float64, set func(p *params, x float64)) {
		qs = append(qs, quantity{v: fmu.Variable{Name: name, Unit: unit, Description: desc,
			Causality: modeldesc.CausalityParameter, Variability: modeldesc.VariabilityFixed, Start: start, Min: ptr(min)}, param: set})
	}
	input := func(name, unit, desc string, start float64, set func(d *drive, x float64)) {
		qs = append(qs, quantity{v: fmu.Variable{Name: name, Unit: unit, Description: desc,
			Causality: modeldesc.CausalityInput, Variability: modeldesc.VariabilityContinuous, Start: start}, input: set})
	}
	output := func(name, unit, desc string, get func(s *simulation) float64) {
		qs = append(qs, quantity{v: fmu.Variable{Name: name, Unit: unit, Description: desc,
			Causality: modeldesc.CausalityOutput, Variability: modeldesc.VariabilityContinuous}, output: get})
	}
	axes := []string{"x", "y", "z"}
	param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, 0, func(p *params, x float64) { p.gravity = x })
	param("h", "s", "Internal step of the cable solver; communication steps are split into steps of at most h", step, 1e-6, func(p *params, x float64) { p.h = x })
	param("load.mass", "kg", "Mass of the load (hook and payload)", c.Load.Mass, 1e-9, func(p *params, x float64) { p.loadMass = x })
	param("cable.length0", "m", "Initial cable length from the suspension point to the load", c.Cable.Length0, 1e-6, func(p *params, x float64) { p.length0 = x })
	param("cable.E", "Pa", "Effective Young's modulus of the rope (a stranded wire rope is softer than solid steel)", c.Cable.Rope.E, 1, func(p *params, x float64) { p.e = x })
	param("cable.diameter", "m", "Rope diameter; the segments are solid cylinders of this diameter", c.Cable.Rope.Diameter, 1e-6, func(p *params, x float64) { p.diameter = x })
	param("cable.density", "kg/m3", "Rope density: the segments' mass, carried by the crane with the load", c.Cable.Rope.Density, 0, func(p *params, x float64) { p.density = x })
	for k, ax := range axes {
		input("hoist."+ax, "m", fmt.Sprintf("World %s position of the suspension point (sheave on the trolley), z up", ax), c.Hoist.Position[k],
			func(d *drive, x float64) { setComp(&d.pos, k, x) })
	}
	for k, ax := range axes {
		input("hoist.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the suspension point; within a communication step it moves with it", ax), 0,
			func(d *drive, x float64) { setComp(&d.vel, k, x) })
	}
	input("winch.speed", "m/s", "Pay-out rate of the winch; positive lengthens the cable", 0, func(d *drive, x float64) { d.winch = x })
	for k, ax := range axes {
		output("hoist.f"+ax, "N", fmt.Sprintf("World %s component of the force the cable exerts on the crane", ax),
			func(s *simulation) float64 { return comp(s.hoist.ConstraintForce, k) })
	}
	output("cable.tension", "N", "Cable tension at the suspension point", func(s *simulation) float64 { return s.cable.Joints[0].Force() })
	output("cable.length", "m", "Unstretched cable length from the suspension point to the load", func(s *simulation) float64 { return s.cable.Length() })
	for k, ax := range axes {
		output("load."+ax, "m", fmt.Sprintf("World %s position of the load's centre of mass", ax), func(s *simulation) float64 { return comp(s.load.Pos, k) })
	}
	for k, ax := range axes {
		output("load.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the load's centre of mass", ax), func(s *simulation) float64 { return comp(s.load.Vel, k) })
	}
	for n := 1; n <= c.Cable.Segments+1; n++ {
		for k, ax := range axes {
			output(fmt.Sprintf("cable.node[%d].%s", n, ax), "m", fmt.Sprintf("World %s position of segment end %d, counted from the suspension point down", ax, n),
				func(s *simulation) float64 { return comp(s.node(n-1), k) })
		}
	}
	return qs
}
