package hoist

import (
	"encoding/json"
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Plugin is a model of the family as the registry takes it (fmu.Model
// and fmu.Configurable).
type Plugin struct {
	// Model is the name scenarios give in "model".
	Model string
	// When says in one line when to pick the model (fmu.Model's Summary).
	When string
	// Read reads and checks a scenario's config: the family's crane and
	// the model's own block, bound into a Design.
	Read func(raw json.RawMessage) (*Config, *Design, error)
	// Config returns a pointer to a zero value of the model's config type
	// (the scenario schema follows it).
	Config func() any
	// Checks are the model's validation figures (fmu.Validated).
	Checks []fmu.Figure
}

// Reader makes a Plugin's Read from a model's parse (its config read and
// checked) and design (the config bound into a Design).
func Reader[C interface{ Family() *Config }](parse func(json.RawMessage) (C, error), design func(C) *Design) func(json.RawMessage) (*Config, *Design, error) {
	return func(raw json.RawMessage) (*Config, *Design, error) {
		c, err := parse(raw)
		if err != nil {
			return nil, nil, err
		}
		return c.Family(), design(c), nil
	}
}

// Name implements fmu.Model.
func (p Plugin) Name() string { return p.Model }

// Summary implements fmu.Model.
func (p Plugin) Summary() string { return p.When }

// Validation implements fmu.Validated.
func (p Plugin) Validation() []fmu.Figure { return p.Checks }

// ConfigType implements fmu.Configurable.
func (p Plugin) ConfigType() any { return p.Config() }

// Configure implements fmu.Model: the config read, the ports selected (a
// port "cable.node[*]" stands for every cable.node[k].x|y|z, k = 1 …
// Design.Nodes), one simulation built to check that it starts.
func (p Plugin) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, d, err := p.Read(sc.Config)
	if err != nil {
		return nil, err
	}
	return Configure(sc, cfg, d)
}

// Design is one model of the family bound to a scenario's config.
type Design struct {
	Features Features
	Texts    Texts
	// Nodes is how many points cable.node[k] samples.
	Nodes int
	// NoSlip, if set, says why the winch's brake cannot slip at a force
	// limit on this cable: a tension above the limit then stops the
	// simulation with it (a trip, not a slip).
	NoSlip string
	// Quantities, if set, adds the model's own ports to the family's: its
	// inputs set Drive.Extra, its outputs read the simulation's Cable.
	Quantities func(c *Catalogue)
	// Build builds the cable hanging straight down from the suspension
	// point with the load at its end in static equilibrium, moving with
	// the suspension point's velocity.
	Build func(st *Start) (Cable, error)
}

// Start is what a cable is built from: the parameters and the
// suspension point's position and velocity inputs at the start.
type Start struct {
	Config   *Config
	Params   Params
	Top, Vel geom.Vec3
}

// Cable is the adapter between the family and a model's core cable.
type Cable interface {
	// Top is the suspension point: the step places it at the position
	// inputs when those changed.
	Top() *geom.Vec3
	// Length is the unstretched length paid out (m).
	Length() float64
	// Step advances h seconds: the suspension point moves at topVel (m/s)
	// from Top, the cable's unstretched length becomes length (m), paid
	// out at rate (m/s); in holds the inputs at the step's end.
	Step(h float64, topVel geom.Vec3, length, rate float64, in *Drive) error
	// Force is the force the cable exerted on the crane over the last
	// step (N); Tension its tension at the suspension point (N), at the
	// step's end or, where a cable takes its steps in substeps, the mean
	// over them.
	Force() geom.Vec3
	Tension() float64
	// LoadTension is its tension where it holds the load (N), after the
	// last step: the events of its going slack and taut again follow it
	// (Simulation.noteEvents).
	LoadTension() float64
	// Load is the load's position (m) and velocity (m/s).
	Load() (pos, vel geom.Vec3)
	// Node returns coordinate axis of cable node k (k = 0 at the
	// suspension point, m).
	Node(k, axis int) float64
	// State walks the cable's state (package state's codec: one walk
	// saves, checks and loads it).
	state.Stater
}

// NodeLister is a Cable that gives its nodes' coordinates at once, as
// Node gives them: x, y, z of node 0, then of node 1, … (m), valid until
// the cable changes. The cable.node outputs then take one call a step,
// not one each.
type NodeLister interface {
	Nodes() []float64
}

// Eventer is a Cable with events of its own (a load set down), noted
// after each step.
type Eventer interface {
	NoteEvents(ev *fmu.Events, h float64)
}

// Configure binds a model of the family to a scenario: its ports, and a
// simulation built once to check the config.
func Configure(sc *fmu.Scenario, cfg *Config, d *Design) (fmu.Configured, error) {
	ports, err := port.Select(quantities(cfg, sc.Step, d), port.ExpandCableNodes(sc.Ports, d.Nodes), sc.Step)
	if err != nil {
		return nil, err
	}
	m := &configured{Ports: ports, cfg: cfg, design: d}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the scenario's cable: %w", err)
	}
	return m, nil
}

// configured implements fmu.Configured; its ports give Variables and
// InternalStep.
type configured struct {
	*port.Ports[Params, Drive, Simulation]
	cfg    *Config
	design *Design
}

// DrivenPoints implements fmu.Driver: the suspension point.
func (m *configured) DrivenPoints() []fmu.DrivenPoint {
	return []fmu.DrivenPoint{port.FindDriven(m.Variables(), "suspension").Point("suspension")}
}

// NewSimulation implements fmu.Configured: the model's cable built at
// the parameters and inputs in values.
func (m *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	c := m.cfg
	st := &Start{Config: c, Params: Params{Gravity: c.Gravity, H: m.Step, LoadMass: c.Load.Mass, Length0: c.Cable.Length0, Rope: c.Cable.Rope.Material()}}
	m.ApplyParams(&st.Params, values)
	s := &Simulation{m: m, params: st.Params, minLen: c.Cable.MinLen()}
	s.From.Pos = geom.V(c.Suspension.Position[0], c.Suspension.Position[1], c.Suspension.Position[2])
	m.ReadInputs(&s.From, values)
	st.Top, st.Vel = s.From.Pos, s.From.Vel
	s.MeanVel = s.From.Vel
	s.Driven = port.FindDriven(m.Variables(), "suspension")
	if !(st.Params.Length0 > s.minLen) {
		return nil, fmt.Errorf("cable.length0 %g m: must exceed the winch's minimum length %g m", st.Params.Length0, s.minLen)
	}
	if err := st.Params.Rope.Validate(); err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	if err := st.Params.checkHung(); err != nil {
		return nil, err
	}
	cable, err := m.design.Build(st)
	if err != nil {
		return nil, err
	}
	s.Cable = cable
	return s, nil
}

// Of returns the family's simulation in a simulation Configure's models
// built (for tests that reach into a model's cable).
func Of(s fmu.Simulation) *Simulation {
	hs, _ := s.(*Simulation)
	return hs
}
