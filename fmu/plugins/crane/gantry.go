// Package crane holds the crane model plugins (package core/crane): the
// structures a hoisting cable hangs from, as FMUs a co-simulation couples
// with a cable FMU. A crane FMU takes the cable's force on it as inputs
// (the cable FMU's suspension.f*) and gives the motion of the point the
// cable hangs from (the cable FMU's suspension.* inputs).
package crane

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/crane"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/motion"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// Force is a force input's range (N, either way): a cable's pull.
var Force = port.Range{Min: -port.Force.Max, Max: port.Force.Max}

// Torque is a motor torque's range (N·m).
var Torque = port.Range{Min: 0, Max: 1e9}

// Gain is a controller gain's range (N·m per m/s, N·m per m).
var Gain = port.Range{Min: 0, Max: 1e12}

// Gantry is the gantry crane plugin: a trolley on its rail (crane.Trolley)
// whose motor follows a speed command, carrying the cable.
type Gantry struct{}

// Name implements fmu.Model.
func (Gantry) Name() string { return "gantry-crane" }

// Summary implements fmu.Model.
func (Gantry) Summary() string {
	return "a crane model to couple with a cable FMU: a gantry trolley on its rail, its motor's torque limited, following a speed command under a PI controller, pulled by the cable's force; gives the point the cable hangs from"
}

// gantryConfig is the gantry crane's scenario "config".
type gantryConfig struct {
	// Gravity is g (m/s²), acting along −z.
	Gravity float64       `json:"gravity"`
	Trolley trolleyConfig `json:"trolley" required:"true"`
}

type trolleyConfig struct {
	// Position (m) is where the cable hangs from the trolley at the
	// start; the rail runs along x through it.
	Position [3]float64 `json:"position"`
	// Mass (kg), WheelRadius (m), TorqueLimit (N·m), Gain (N·m per m/s),
	// Integral (N·m per m) and RailFriction (1): see crane.TrolleySpec.
	Mass         float64 `json:"mass"`
	WheelRadius  float64 `json:"wheelRadius"`
	TorqueLimit  float64 `json:"torqueLimit"`
	Gain         float64 `json:"gain"`
	Integral     float64 `json:"integral"`
	RailFriction float64 `json:"railFriction"`
}

// ConfigType implements fmu.Configurable.
func (Gantry) ConfigType() any { return new(gantryConfig) }

func parseGantry(sc *fmu.Scenario) (*gantryConfig, error) {
	var c gantryConfig
	if err := scenario.Decode(sc.Config, &c); err != nil {
		return nil, err
	}
	var errs scenario.Errors
	t := c.Trolley
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	errs.Vec("trolley.position", "m", port.Position, t.Position[:])
	errs.Num("trolley.mass", "kg", port.Mass, t.Mass)
	errs.Num("trolley.wheelRadius", "m", port.Size, t.WheelRadius)
	errs.Num("trolley.torqueLimit", "N·m", Torque, t.TorqueLimit)
	errs.Num("trolley.gain", "N·m per m/s", Gain, t.Gain)
	errs.Num("trolley.integral", "N·m per m", Gain, t.Integral)
	errs.Num("trolley.railFriction", "1", port.Range{Min: 0, Max: 1}, t.RailFriction)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if err := c.spec(c.Gravity).Validate(); err != nil {
		return nil, fmt.Errorf("config.trolley: %w", err)
	}
	return &c, nil
}

func (c *gantryConfig) spec(gravity float64) crane.TrolleySpec {
	t := c.Trolley
	return crane.TrolleySpec{Mass: t.Mass, WheelRadius: t.WheelRadius, TorqueLimit: t.TorqueLimit, Gain: t.Gain,
		Integral: t.Integral, RailFriction: t.RailFriction, Gravity: gravity}
}

// gantryParams are the scenario's settings with the parameter ports
// applied.
type gantryParams struct {
	h    float64
	spec crane.TrolleySpec
}

// gantryDrive holds the inputs at one instant: the speed command (m/s)
// and the cable's force on the trolley (N).
type gantryDrive struct {
	command float64
	cable   geom.Vec3
}

type gantryCatalogue = port.Catalogue[gantryParams, gantryDrive, gantrySim]

func gantryQuantities(c *gantryConfig, step float64) *gantryCatalogue {
	qs := &gantryCatalogue{}
	t := c.Trolley
	qs.Param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *gantryParams, x float64) { p.spec.Gravity = x })
	qs.Param("internalStep", "s", "Internal step: the trolley steps on the fixed grid start + k·internalStep whatever the communication steps", step, port.Step, func(p *gantryParams, x float64) { p.h = x })
	qs.Param("trolley.mass", "kg", "Mass of the trolley with its drive and hoist gear", t.Mass, port.Mass, func(p *gantryParams, x float64) { p.spec.Mass = x })
	qs.Param("trolley.torqueLimit", "N.m", "Largest torque of the trolley's motor either way, at its driven wheels", t.TorqueLimit, Torque, func(p *gantryParams, x float64) { p.spec.TorqueLimit = x })
	qs.Param("trolley.railFriction", "1", "Rolling resistance of the wheels on the rail: force per normal force, against the motion", t.RailFriction, port.Range{Min: 0, Max: 1}, func(p *gantryParams, x float64) { p.spec.RailFriction = x })
	qs.Input("trolley.speedCommand", "m/s", "Speed along the rail (x) the trolley's speed controller follows", 0, port.Velocity, func(d *gantryDrive, x float64) { d.command = x })
	cablePorts(qs, "trolley", "the trolley", "the point the cable hangs from", "the point the cable hangs from",
		func(d *gantryDrive) *geom.Vec3 { return &d.cable },
		func(s *gantrySim) geom.Vec3 { return s.point() }, func(s *gantrySim) geom.Vec3 { return geom.V(s.trolley.V, 0, 0) })
	qs.Output("motor.torque", "N.m", "Torque of the trolley's motor at its driven wheels in the last internal step, positive driving towards +x", func(s *gantrySim) float64 { return s.trolley.Torque })
	return qs
}

// Configure implements fmu.Model.
func (Gantry) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	c, err := parseGantry(sc)
	if err != nil {
		return nil, err
	}
	ports, err := port.Select(gantryQuantities(c, sc.Step), sc.Ports, sc.Step)
	if err != nil {
		return nil, err
	}
	m := &gantryModel{Ports: ports, cfg: c}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the gantry crane: %w", err)
	}
	return m, nil
}

// Validation implements fmu.Validated.
func (Gantry) Validation() []fmu.Figure {
	return []fmu.Figure{
		{Check: "acceleration at the torque limit, (τ/r − μMg)/M, at h = 1 ms and 10 ms", Result: "exact to 1e-5", Tolerance: "0.5 %", Test: "TestTrolleyAcceleratesAtItsLimit"},
		{Check: "held by rolling resistance up to μ(Mg − F_z), beyond it accelerating at (F_x − μN)/M", Result: "to 1e-12", Tolerance: "1e-12", Test: "TestTrolleyHeldByRollingResistance"},
		{Check: "10 t trolley carrying 20 t on 10 m of rope at 0.1 m/s²: mean motor torque over two swings against r[(M+m)a + μ(M+m)g]", Result: "+0.18 %", Tolerance: "2 %", Test: "TestTrolleyPullsItsLoad"},
	}
}

type gantryModel struct {
	*port.Ports[gantryParams, gantryDrive, gantrySim]
	cfg *gantryConfig
}

type gantrySim struct {
	m        *gantryModel
	h        float64
	height   float64 // m: the rail's, where the cable hangs
	y        float64 // m: the rail's place across
	trolley  *crane.Trolley
	from, to gantryDrive
}

// NewSimulation implements fmu.Configured: the trolley at rest at its
// position.
func (m *gantryModel) NewSimulation(values []float64) (fmu.Simulation, error) {
	p := gantryParams{h: m.Step, spec: m.cfg.spec(m.cfg.Gravity)}
	m.ApplyParams(&p, values)
	pos := m.cfg.Trolley.Position
	tr, err := crane.NewTrolley(p.spec, pos[0])
	if err != nil {
		return nil, err
	}
	s := &gantrySim{m: m, h: p.h, height: pos[2], y: pos[1], trolley: tr}
	m.ReadInputs(&s.from, values)
	return s, nil
}

func (s *gantrySim) point() geom.Vec3 { return geom.V(s.trolley.X, s.y, s.height) }

// Step implements fmu.Simulation: the trolley steps under the cable's
// force averaged over the step (the inputs' path from its start to its
// end) following the command at the step's start.
func (s *gantrySim) Step(lead float64, from, to []float64, first bool) error {
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := motion.StepStart(lead, s.h)
	s.trolley.Command = s.from.command
	force := geom.V(motion.MeanSpeed(s.from.cable.X, s.to.cable.X, frac), motion.MeanSpeed(s.from.cable.Y, s.to.cable.Y, frac), motion.MeanSpeed(s.from.cable.Z, s.to.cable.Z, frac))
	return s.trolley.Step(s.h, force)
}

// Outputs implements fmu.Simulation.
func (s *gantrySim) Outputs(values []float64) { s.m.WriteOutputs(s, values) }

// SaveState implements fmu.Simulation.
func (s *gantrySim) SaveState(dst []float64) []float64 { return state.Save(dst, s.trolley) }

// LoadState implements fmu.Simulation.
func (s *gantrySim) LoadState(src []float64) error { return state.LoadAll(src, s.trolley) }

// Sketch implements fmu.Sketcher: the rail, the trolley and the point the
// cable hangs from.
func (s *gantrySim) Sketch() fmu.Sketch {
	var sk fmu.Sketch
	p := s.point()
	sk.Add(fmu.Rope, "rail", fmu.Point{p.X - 10, p.Y, p.Z + 0.6}, fmu.Point{p.X + 10, p.Y, p.Z + 0.6})
	sk.Box(fmu.MassLabel("trolley", s.trolley.Spec().Mass), fmu.Point{p.X, p.Y, p.Z + 0.3}, fmu.Point{2, 2, 0.6})
	sk.Add(fmu.Anchor, "the cable hangs here", port.Pt(p))
	return sk
}
