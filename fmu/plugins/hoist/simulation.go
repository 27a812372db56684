package hoist

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/motion"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Simulation is a running hoist: the suspension point and the winch the
// inputs (or plugins) drive, around a model's Cable.
type Simulation struct {
	m      *configured
	Cable  Cable
	params Params
	minLen float64
	// From and To are the inputs at the start and end of the last step.
	From, To Drive
	placed   geom.Vec3 // position inputs last applied to the suspension point
	// RefPos and RefVel are the suspension point's position and velocity
	// input at the end of the last step, the inputs its outputs belong to;
	// MeanVel the velocity it moved at over that step.
	RefPos, RefVel, MeanVel geom.Vec3
	// Driven is where the suspension point's ports lie.
	Driven port.Driven
	slack  bool
	fmu.Events
	// A plugin's command replaces the winch speed input while commanded;
	// rate is the pay-out rate of the last step (m/s); forceLimit the
	// tension (N) above which the winch's brake slips (0: none).
	commanded                 bool
	command, rate, forceLimit float64
}

// Params returns the parameters the simulation was built with.
func (s *Simulation) Params() Params { return s.params }

// Step implements fmu.Simulation: the suspension point moves with the
// mean velocity input (placed at its position inputs when those
// changed), the winch pays out at its speed input, a plugin's command, or
// what its slipping brake lets go, and the cable takes one step.
func (s *Simulation) Step(h, lead float64, from, to []float64, first bool) error {
	s.m.ReadInputs(&s.From, from)
	s.m.ReadInputs(&s.To, to)
	frac := motion.StepStart(lead, h)
	s.MeanVel = motion.Kinematic(s.Cable.Top(), &s.placed, s.From.Pos, s.From.Vel, s.To.Vel, lead, frac, first)
	speed := motion.MeanSpeed(s.From.Winch, s.To.Winch, frac)
	if s.commanded {
		if err := port.Velocity.Check("winch command", "m/s", s.command); err != nil {
			return err
		}
		speed = s.command
	}
	length := s.Cable.Length()
	if s.forceLimit > 0 {
		if excess := s.Cable.Tension() - s.forceLimit; excess > 0 {
			// The brake slips: over this step the winch lets go at least
			// the length that takes the last step's excess tension out of
			// the rope's stretch, excess·L/EA.
			speed = max(speed, excess*length/(s.params.Rope.AxialStiffness()*h))
		}
	}
	next := max(s.minLen, length+h*speed)
	s.rate = (next - length) / h
	if err := s.Cable.Step(h, s.MeanVel, next, s.rate, &s.To); err != nil {
		return err
	}
	s.RefPos, s.RefVel = *s.Cable.Top(), s.To.Vel
	s.noteEvents(h)
	return nil
}

func (s *Simulation) noteEvents(h float64) {
	if slack := s.Cable.Tension() < 1e-6*s.params.LoadMass*s.params.Gravity; slack != s.slack {
		s.slack = slack
		if slack {
			s.Add("cable went slack at the suspension point")
		} else {
			s.Add("cable is taut again")
		}
	}
	if e, ok := s.Cable.(Eventer); ok {
		e.NoteEvents(&s.Events, h)
	}
}

// Outputs implements fmu.Simulation.
func (s *Simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }

// State walks the simulation's state (state.Stater): the cable's, then
// where the position inputs last placed the suspension point, the inputs
// of the last step's end and its mean velocity, the slack flag and the
// winch (a command and a force limit in their ranges).
func (s *Simulation) State(c *state.Codec) {
	s.Cable.State(c)
	c.Point("hoist placed at", &s.placed)
	c.Point("hoist position input", &s.RefPos)
	c.Velocity("hoist velocity input", &s.RefVel)
	c.Velocity("hoist mean velocity", &s.MeanVel)
	c.Flag("slack", &s.slack)
	c.Flag("commanded", &s.commanded)
	c.Range("winch command", "m/s", port.Velocity.Min, port.Velocity.Max, &s.command)
	c.Bounded("pay-out rate", "m/s", &s.rate)
	c.Range("winch force limit", "N", port.Force.Min, port.Force.Max, &s.forceLimit)
}

// SaveState implements fmu.Simulation.
func (s *Simulation) SaveState(dst []float64) []float64 { return state.Save(dst, s) }

// LoadState implements fmu.Simulation; a refused state changes nothing.
func (s *Simulation) LoadState(src []float64) error {
	rest, err := state.Load(src, s)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("state: %d values more than this simulation's", len(rest))
	}
	return nil
}
