package massless

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Model is the massless cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "massless" }

// Summary implements fmu.Model.
func (Model) Summary() string {
	return "the fastest: a cable without mass that stretches and twists, over sheaves and eyes, with winches [Servin & Lacoursière 2007]; for loads far heavier than the rope, where the rope's own swing and waves do not matter"
}

// Configure implements fmu.Model.
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	ports, err := port.Select(quantities(cfg, sc.Step), sc.Ports, sc.Step)
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

// quantities lists every quantity of the scenario: per kinematic body its
// position and velocity inputs and the force on it, per dynamic body its
// mass and motion, per cable its material, length and tension, per winch
// its speed, and the global gravity and internal step.
func quantities(c *config, step float64) *catalogue {
	qs := &catalogue{}
	param, input, output := qs.Param, qs.Input, qs.Output
	axes := []string{port.Axis(0), port.Axis(1), port.Axis(2)}
	param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *params, x float64) { p.gravity = x })
	param("internalStep", "s", "Internal step of the cable solver: steps on the fixed grid start + k·internalStep whatever the communication steps; between grid points Real outputs are interpolated, counts and switches keep the earlier grid point's value", step, port.Step, func(p *params, x float64) { p.h = x })
	for i, b := range c.Bodies {
		switch b.Kind {
		case "kinematic":
			for k, ax := range axes {
				input(b.Name+"."+ax, "m", fmt.Sprintf("World %s position of %s (driven from outside), z up", ax, b.Name), b.Position[k], port.Position,
					func(d *drive, x float64) { port.SetComp(&d.pos[i], k, x) })
			}
			for k, ax := range axes {
				input(b.Name+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of %s: the body follows it along a smooth path through the samples", ax, b.Name), 0, port.Velocity,
					func(d *drive, x float64) { port.SetComp(&d.vel[i], k, x) })
			}
			for k, ax := range axes {
				output(b.Name+".f"+ax, "N", fmt.Sprintf("World %s component of the force the cables exert on %s", ax, b.Name),
					func(s *simulation) float64 { return s.bodies[i].ConstraintForce.Comp(k) })
			}
		case "dynamic":
			param(b.Name+".mass", "kg", "Mass of "+b.Name, b.Mass, port.Mass, func(p *params, x float64) { p.mass[i] = x })
			for k, ax := range axes {
				output(b.Name+"."+ax, "m", fmt.Sprintf("World %s position of the centre of mass of %s", ax, b.Name),
					func(s *simulation) float64 { return s.bodies[i].Pos.Comp(k) })
			}
			for k, ax := range axes {
				output(b.Name+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of the centre of mass of %s", ax, b.Name),
					func(s *simulation) float64 { return s.bodies[i].Vel.Comp(k) })
			}
		}
	}
	for j, cb := range c.Cables {
		param(cb.Name+".length0", "m", "Initial free (unstretched) length of "+cb.Name, cb.Length0, port.Length, func(p *params, x float64) { p.cables[j].Length0 = x })
		param(cb.Name+".E", "Pa", "Effective Young's modulus of the rope (a stranded wire rope is softer than solid steel)", cb.Rope.E, port.Modulus, func(p *params, x float64) { p.cables[j].Rope.E = x })
		param(cb.Name+".diameter", "m", "Nominal rope diameter; the cross-section is pi d^2/4", cb.Rope.Diameter, port.Diameter, func(p *params, x float64) { p.cables[j].Rope.Diameter = x })
		param(cb.Name+".density", "kg/m3", "Rope density; the massless cable neglects the rope's mass (its load is much heavier), so this value only documents the rope", cb.Rope.Density, port.Density, func(p *params, x float64) { p.cables[j].Rope.Density = x })
		param(cb.Name+".poisson", "1", "Poisson ratio of the rope, for the twist stiffness", cb.Rope.Poisson, port.Poisson, func(p *params, x float64) { p.cables[j].Rope.Poisson = x })
		param(cb.Name+".dampingTime", "s", "Material damping of the rope as a Kelvin-Voigt time constant (damping ratio omega*tau/2 for a mode at omega); 0 is undamped", cb.Rope.Material().DampingTime, port.Time,
			func(p *params, x float64) { p.cables[j].Rope.DampingTime = &x })
		output(cb.Name+".tension", "N", "Tension of "+cb.Name+" (the same along the route: eyes and sheaves are frictionless)",
			func(s *simulation) float64 { return s.cables[j].stretch.Tension() })
		qs.Peak(cb.Name+".tensionPeak", "N", "Largest tension of "+cb.Name+" over the last communication step, at its internal steps and its ends: the snap peaks between a master's samples",
			func(s *simulation) float64 { return s.cables[j].stretch.Tension() })
		output(cb.Name+".length", "m", "Unstretched free length of "+cb.Name,
			func(s *simulation) float64 { return s.cables[j].stretch.FreeLength })
		if cb.twists() {
			output(cb.Name+".twist", "rad", "Twist angle between the end bodies of "+cb.Name,
				func(s *simulation) float64 { return s.cables[j].twist.Angle() })
		}
		if w := cb.Winch; w != nil {
			input(w.Name+".speed", "m/s", "Pay-out rate of "+w.Name+"; positive lengthens the free cable", 0, port.Velocity,
				func(d *drive, x float64) { d.winch[j] = x })
			param(w.Name+".slip", "s/kg", "Winch slip: extra pay-out speed per newton of tension, m/(N.s) = s/kg (0: no slip)", w.Slip, port.Slip,
				func(p *params, x float64) { p.cables[j].Winch.Slip = x })
		}
	}
	return qs
}

// ConfigType implements fmu.Configurable.
func (Model) ConfigType() any { return new(config) }

// Validation implements fmu.Validated.
func (Model) Validation() []fmu.Figure {
	return []fmu.Figure{
		{Check: "stretch and twist periods of two 1000 kg boxes on a 4 m cable (the paper's §5.1), c_s = 10 … 1e6 N/m", Result: "0.00 % to +1.6 % (c_s = 1e6 at h = 0.01 s)", Tolerance: "1 %, 5 %", Test: "TestStretchPeriodsSL07, TestTwistPeriodsSL07"},
		{Check: "static elongation MgL/EA; tension and crane force Mg", Result: "as theory", Tolerance: "1 %, 0.5 %", Test: "TestStaticElongationAndTension"},
		{Check: "pendulum period 2π√(l/g), 10 m, h = 1/60 s", Result: "−0.001 %", Tolerance: "2 %", Test: "TestPendulumPeriodAndEnergy"},
		{Check: "peak tension after a winch stop from 0.5 m/s, 1 t on the 20 mm rope: Mg + max k(x + τẋ)", Result: "−2.9 % at h = 1/60 s, −0.2 % at 1 ms", Tolerance: "5 %", Test: "TestWinchStopPeak"},
		{Check: "axial bounce √(k/M)", Result: "−7.4 % at 1/60 s (ωh = 0.93), −0.1 % at 1 ms", Tolerance: "10 %, 1 %", Test: "TestBounceFrequencyAndDamping"},
		{Check: "a trolley move (0.5 m/s² to 1 m/s, 10 m) at communication steps of 0.02–0.5 s, by positions alone or with velocities: peak tension against the 0.01 s run", Result: "within 0.04 % with velocities or by positions alone, 1.7 % at alternating steps, 3.2 % with the velocities' derivatives at 0.1 s", Tolerance: "5 %", Test: "TestAnyMasterAnyStep"},
	}
}
