package masslesscable

import (
	"fmt"
	"strings"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Model is the massless cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "massless-cable" }

// Configure implements fmu.Model.
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
	for _, name := range sc.Ports {
		q, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("port %q: no such quantity in this scenario (have %s)", name, strings.Join(catalogueNames(catalogue), ", "))
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

func catalogueNames(qs []quantity) []string {
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = q.v.Name
	}
	return names
}

type configured struct {
	cfg   *config
	step  float64
	ports []quantity
	hPort int // index of the "h" port, or -1
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

// quantity is a model quantity that a scenario can make a port. Exactly one
// of param, input, output is set, matching the variable's causality.
type quantity struct {
	v      fmu.Variable
	param  func(p *params, x float64)
	input  func(d *drive, x float64)
	output func(s *simulation) float64
}

func ptr(x float64) *float64 { return &x }

// quantities lists every quantity of the scenario: per kinematic body its
// position and velocity inputs and the force on it, per dynamic body its
// mass and motion, per cable its material, length and tension, per winch
// its speed, and the global gravity and internal step.
func quantities(c *config, step float64) []quantity {
	var qs []quantity
	param := func(name, unit, desc string, start float64, min *float64, set func(p *params, x float64)) {
		qs = append(qs, quantity{v: fmu.Variable{Name: name, Unit: unit, Description: desc,
			Causality: modeldesc.CausalityParameter, Variability: modeldesc.VariabilityFixed, Start: start, Min: min}, param: set})
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
	param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, ptr(0), func(p *params, x float64) { p.gravity = x })
	param("h", "s", "Internal step of the cable solver; communication steps are split into steps of at most h", step, ptr(1e-6), func(p *params, x float64) { p.h = x })
	for i, b := range c.Bodies {
		switch b.Kind {
		case "kinematic":
			for k, ax := range axes {
				input(b.Name+"."+ax, "m", fmt.Sprintf("World %s position of %s (driven from outside), z up", ax, b.Name), b.Position[k],
					func(d *drive, x float64) { setComp(&d.pos[i], k, x) })
			}
			for k, ax := range axes {
				input(b.Name+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of %s; within a communication step the body moves with it", ax, b.Name), 0,
					func(d *drive, x float64) { setComp(&d.vel[i], k, x) })
			}
			for k, ax := range axes {
				output(b.Name+".f"+ax, "N", fmt.Sprintf("World %s component of the force the cables exert on %s", ax, b.Name),
					func(s *simulation) float64 { return comp(s.bodies[i].ConstraintForce, k) })
			}
		case "dynamic":
			param(b.Name+".mass", "kg", "Mass of "+b.Name, b.Mass, ptr(1e-9), func(p *params, x float64) { p.mass[i] = x })
			for k, ax := range axes {
				output(b.Name+"."+ax, "m", fmt.Sprintf("World %s position of the centre of mass of %s", ax, b.Name),
					func(s *simulation) float64 { return comp(s.bodies[i].Pos, k) })
			}
			for k, ax := range axes {
				output(b.Name+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of the centre of mass of %s", ax, b.Name),
					func(s *simulation) float64 { return comp(s.bodies[i].Vel, k) })
			}
		}
	}
	for j, cb := range c.Cables {
		param(cb.Name+".length0", "m", "Initial free (unstretched) length of "+cb.Name, cb.Length0, ptr(1e-6), func(p *params, x float64) { p.cables[j].Length0 = x })
		param(cb.Name+".E", "Pa", "Effective Young's modulus of the rope (a stranded wire rope is softer than solid steel)", cb.Rope.E, ptr(1), func(p *params, x float64) { p.cables[j].Rope.E = x })
		param(cb.Name+".diameter", "m", "Nominal rope diameter; the cross-section is pi d^2/4", cb.Rope.Diameter, ptr(1e-6), func(p *params, x float64) { p.cables[j].Rope.Diameter = x })
		param(cb.Name+".density", "kg/m3", "Rope density; the massless cable neglects the rope's mass (its load is much heavier), so this value only documents the rope", cb.Rope.Density, ptr(0), func(p *params, x float64) { p.cables[j].Rope.Density = x })
		param(cb.Name+".poisson", "1", "Poisson ratio of the rope, for the twist stiffness", cb.Rope.Poisson, ptr(-0.99), func(p *params, x float64) { p.cables[j].Rope.Poisson = x })
		output(cb.Name+".tension", "N", "Tension of "+cb.Name+" (the same along the route: eyes and sheaves are frictionless)",
			func(s *simulation) float64 { return s.cables[j].stretch.Tension() })
		output(cb.Name+".length", "m", "Unstretched free length of "+cb.Name,
			func(s *simulation) float64 { return s.cables[j].stretch.FreeLength })
		if cb.Twist {
			output(cb.Name+".twist", "rad", "Twist angle between the end bodies of "+cb.Name,
				func(s *simulation) float64 { return s.cables[j].twist.Angle() })
		}
		if w := cb.Winch; w != nil {
			input(w.Name+".speed", "m/s", "Pay-out rate of "+w.Name+"; positive lengthens the free cable", 0,
				func(d *drive, x float64) { d.winch[j] = x })
			param(w.Name+".slip", "s/kg", "Winch slip: extra pay-out speed per newton of tension, m/(N.s) = s/kg (0: no slip)", w.Slip, ptr(0),
				func(p *params, x float64) { p.cables[j].Winch.Slip = x })
		}
	}
	return qs
}
