package massless

import (
	"errors"
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massless"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/motion"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// params are the scenario's settings with parameter ports applied.
type params struct {
	gravity, h float64
	mass       []float64
	cables     []cableConfig
}

// drive holds the inputs at one instant: kinematic body positions (m) and
// velocities (m/s), winch speeds (m/s), indexed like the config.
type drive struct {
	pos, vel []geom.Vec3
	winch    []float64
}

type cable struct {
	name    string
	gap     float64 // minimum length of the last segment, m
	stretch *massless.Stretch
	twist   *massless.Twist
	winch   *massless.Winch
	stop    *massless.Stop
	slack   bool // tension was zero after the last step
	blocked bool // the stop pushed in the last step
	// A plugin's command replaces the winch's speed input while
	// commanded; forceLimit (N, 0: none) is the winch's overload limit.
	commanded           bool
	command, forceLimit float64
}

type simulation struct {
	m *configured
	// h is the internal step (s) the simulation was built with.
	h float64
	fmu.Events
	world    *multibody.World
	bodies   []*multibody.Body
	cables   []cable
	from, to drive
	kin      []kinematicPorts
	// hasPos says on which axes each body has a position port.
	hasPos [][3]bool
}

func (m *configured) newDrive() drive {
	n := len(m.cfg.Bodies)
	d := drive{pos: make([]geom.Vec3, n), vel: make([]geom.Vec3, n), winch: make([]float64, len(m.cfg.Cables))}
	for i, b := range m.cfg.Bodies {
		d.pos[i] = vec(b.Position)
	}
	return d
}

// NewSimulation implements fmu.Configured: builds the world with every
// hanging body in static equilibrium.
func (m *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	p := params{gravity: m.cfg.Gravity, h: m.Step, mass: make([]float64, len(m.cfg.Bodies)), cables: make([]cableConfig, len(m.cfg.Cables))}
	for i, b := range m.cfg.Bodies {
		p.mass[i] = b.Mass
	}
	for j, cb := range m.cfg.Cables {
		p.cables[j] = cb
		if cb.Winch != nil {
			w := *cb.Winch
			p.cables[j].Winch = &w
		}
	}
	m.ApplyParams(&p, values)
	s := &simulation{m: m, h: p.h, from: m.newDrive(), to: m.newDrive()}
	m.ReadInputs(&s.from, values)
	if err := s.build(&p); err != nil {
		return nil, err
	}
	s.kin = m.kinematicPorts()
	s.hasPos = make([][3]bool, len(s.bodies))
	for _, k := range s.kin {
		s.hasPos[k.body] = k.HasPos()
	}
	return s, nil
}

func (s *simulation) build(p *params) error {
	cfg := s.m.cfg
	s.world = multibody.NewWorld(geom.V(0, 0, -p.gravity))
	s.bodies = make([]*multibody.Body, len(cfg.Bodies))
	for i, b := range cfg.Bodies {
		pos := s.from.pos[i]
		switch b.Kind {
		case "kinematic":
			s.bodies[i] = multibody.NewKinematic(b.Name, pos)
			s.bodies[i].Vel = s.from.vel[i]
		case "static":
			s.bodies[i] = multibody.NewStatic(b.Name, pos)
		default:
			m := p.mass[i]
			s.bodies[i] = multibody.NewBody(b.Name, m, multibody.BoxInertia(m, b.Size[0], b.Size[1], b.Size[2]), pos)
		}
	}
	s.cables = make([]cable, len(cfg.Cables))
	for j := range cfg.Cables {
		cb := &p.cables[j]
		if err := cb.Rope.Material().Validate(); err != nil {
			return fmt.Errorf("cable %q: %w", cb.Name, err)
		}
		if err := s.hang(j, cb, p); err != nil {
			return err
		}
	}
	for _, b := range s.bodies {
		s.world.AddBody(b)
	}
	for j := range cfg.Cables {
		if err := s.addCable(j, &p.cables[j], p.h); err != nil {
			return err
		}
	}
	var dynamic []*multibody.Body
	for _, b := range s.bodies {
		if b.Kind == multibody.Dynamic {
			dynamic = append(dynamic, b)
		}
	}
	s.world.FixMass(dynamic...)
	return s.world.Prime(p.h)
}

// hang places the bodies hanging from cable j in static equilibrium: the
// last segment vertical below the previous node, stretched by Mg/c_s, and
// the body turned so that its centre of mass hangs straight below its
// attachment point.
func (s *simulation) hang(j int, cb *cableConfig, p *params) error {
	cfg := s.m.cfg
	last := cb.Route[len(cb.Route)-1]
	li, _ := cfg.body(last.Body)
	if cfg.Bodies[li].HangsFrom != cb.Name {
		return nil
	}
	fixed := 0.0 // length of the segments between fixed nodes
	var prev geom.Vec3
	for k, n := range cb.Route[:len(cb.Route)-1] {
		bi, _ := cfg.body(n.Body)
		if cfg.Bodies[bi].Kind == "dynamic" {
			return fmt.Errorf("body %q hangs from cable %q, whose node %d is on dynamic body %q: the start equilibrium is only computed for loads below fixed or driven nodes", last.Body, cb.Name, k, n.Body)
		}
		pos := s.bodies[bi].PointWorld(vec(n.Offset))
		if k > 0 {
			fixed += pos.Sub(prev).Norm()
		}
		prev = pos
	}
	free := cb.Length0 - fixed
	if !(free > 0) {
		return fmt.Errorf("cable %q: length0 %g m does not reach below its fixed nodes (%g m between them)", cb.Name, cb.Length0, fixed)
	}
	weight := p.mass[li] * p.gravity
	if err := cb.Rope.Material().CheckHung(weight); err != nil {
		return fmt.Errorf("cable %q: body %q of %.4g kg: %w; check the body's mass, the rope's diameter and its E", cb.Name, last.Body, p.mass[li], err)
	}
	stretch := weight / (cb.Rope.Material().AxialStiffness() / cb.Length0)
	body := s.bodies[li]
	if d, n := vec(last.Offset).Unit(); n > 0 {
		body.Rot = geom.RotationBetween(d, geom.V(0, 0, 1))
	}
	body.Pos = prev.Sub(geom.V(0, 0, free+stretch)).Sub(body.Rot.Rotate(vec(last.Offset)))
	return nil
}

func (s *simulation) addCable(j int, cb *cableConfig, h float64) error {
	cfg := s.m.cfg
	route := make([]massless.Node, len(cb.Route))
	for k, n := range cb.Route {
		bi, _ := cfg.body(n.Body)
		route[k] = massless.Node{Body: s.bodies[bi], Offset: vec(n.Offset)}
	}
	rope := cb.Rope.Material()
	st, err := massless.NewStretch(route, cb.Length0, rope)
	if err != nil {
		return fmt.Errorf("cable %q: %w", cb.Name, err)
	}
	st.MaxLength = port.Length.Max
	st.Slack = !cb.Bilateral
	// The segments before the last are the drum-to-sheave run; the last
	// one is the fall to the hook block.
	upper := massless.Length(route[:len(route)-1])
	fall := cb.Length0 - upper
	gap := cb.MinLength
	if gap == 0 {
		gap = min(0.5, fall/2)
	}
	if !(fall > gap) {
		return fmt.Errorf("cable %q: length0 %g m leaves %g m below the last fixed node, not more than the minimum %g m", cb.Name, cb.Length0, fall, gap)
	}
	st.MinFall = gap
	c := cable{name: cb.Name, gap: gap, stretch: st}
	if cb.Winch != nil {
		c.winch = &massless.Winch{Slip: cb.Winch.Slip, Speed: s.from.winch[j]}
		if err := c.winch.Validate(); err != nil {
			return fmt.Errorf("cable %q: %w", cb.Name, err)
		}
		st.Winch = c.winch
	}
	s.world.AddConstraint(st)
	stop, err := massless.NewStop(route, gap)
	if err != nil {
		return fmt.Errorf("cable %q: %w", cb.Name, err)
	}
	s.world.AddConstraint(stop)
	c.stop = stop
	if cb.twists() {
		tw, err := massless.NewTwist(route, rope, func() float64 { return st.FreeLength })
		if err != nil {
			return fmt.Errorf("cable %q: %w", cb.Name, err)
		}
		if rope.TorqueFactor != 0 {
			tw.Torque = func() float64 { return rope.Torque(st.Tension()) }
		}
		s.world.AddConstraint(tw)
		c.twist = tw
	}
	s.cables[j] = c
	return nil
}

// Step implements fmu.Simulation. Kinematic bodies move along the
// runtime's path (motion.Kinematic); the winches run at their speed
// inputs or their plugins' commands.
func (s *simulation) Step(lead float64, from, to []float64, first bool) error {
	h := s.h
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := motion.StepStart(lead, h)
	for i, b := range s.bodies {
		if b.Kind != multibody.Kinematic {
			continue
		}
		b.Vel = motion.Kinematic(&b.Pos, s.hasPos[i], s.from.pos[i], s.to.pos[i], s.from.vel[i], s.to.vel[i], h)
	}
	for j, c := range s.cables {
		if c.winch != nil {
			c.winch.Speed = motion.MeanSpeed(s.from.winch[j], s.to.winch[j], frac)
			if c.commanded {
				c.winch.Speed = c.command
			}
			c.winch.ForceLimit = c.forceLimit
		}
	}
	for _, c := range s.cables {
		if c.commanded {
			if err := port.Velocity.Check("winch "+c.name+" command", "m/s", c.command); err != nil {
				return err
			}
		}
	}
	err := s.world.Step(h)
	if errors.Is(err, multibody.ErrDiverged) {
		return fmt.Errorf("%w (the cable cannot follow: check the inputs and the internal step internalStep)", err)
	}
	if err != nil {
		return err
	}
	for _, c := range s.cables {
		if l := c.stretch.FreeLength; l > port.Length.Max {
			return fmt.Errorf("cable %s paid out to a free length of %g m, beyond the longest cable, %g m", c.name, l, port.Length.Max)
		}
	}
	s.noteEvents()
	return nil
}

// noteEvents records cables going slack or taut and hook blocks meeting
// the sheave, for the logEvents category.
func (s *simulation) noteEvents() {
	for j := range s.cables {
		c := &s.cables[j]
		if slack := c.stretch.Tension() == 0; slack != c.slack {
			c.slack = slack
			if slack {
				s.Add("cable %s went slack", c.name)
			} else {
				s.Add("cable %s is taut again", c.name)
			}
		}
		if blocked := c.stop.Force() > 0; blocked != c.blocked {
			c.blocked = blocked
			if blocked {
				s.Add("cable %s: the hook block reached the sheave (free length %.3f m)", c.name, c.stretch.FreeLength)
			}
		}
	}
}

// State walks the simulation's state (state.Stater): the world's (the
// dynamic bodies' masses and inertias those of the parameters,
// multibody.World.FixMass), then per cable its flags and the winch's command and
// force limit in their ranges (a cable's free length no longer than the
// longest cable, which a step keeps: massless.Stretch.MaxLength).
func (s *simulation) State(c *state.Codec) {
	s.world.State(c)
	for j := range s.cables {
		cb := &s.cables[j]
		c.Flag(cb.name+" slack", &cb.slack)
		c.Flag(cb.name+" blocked", &cb.blocked)
		c.Flag(cb.name+" commanded", &cb.commanded)
		c.Range(cb.name+" winch command", "m/s", port.Velocity.Min, port.Velocity.Max, &cb.command)
		c.Range(cb.name+" winch force limit", "N", port.Force.Min, port.Force.Max, &cb.forceLimit)
	}
}

// SaveState implements fmu.Simulation.
func (s *simulation) SaveState(dst []float64) []float64 { return state.Save(dst, s) }

// LoadState implements fmu.Simulation; a refused state changes nothing.
func (s *simulation) LoadState(src []float64) error { return state.LoadAll(src, s) }

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }
