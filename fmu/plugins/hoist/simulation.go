package hoist

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
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

// stateTail is the number of values SaveState appends after the cable's.
const stateTail = 17

// SaveState implements fmu.Simulation: the cable's state, then where the
// position inputs last placed the suspension point, the inputs of the
// last step's end and its mean velocity, the slack flag and the winch.
func (s *Simulation) SaveState(dst []float64) []float64 {
	dst = s.Cable.SaveState(dst)
	for _, p := range [4]geom.Vec3{s.placed, s.RefPos, s.RefVel, s.MeanVel} {
		dst = append(dst, p.X, p.Y, p.Z)
	}
	return append(dst, port.Flag(s.slack), port.Flag(s.commanded), s.command, s.rate, s.forceLimit)
}

// LoadState implements fmu.Simulation. The numbers after the cable's are
// checked first: positions and velocities within their bounds, the flags
// 0 or 1, the winch's command and force limit in their ranges.
func (s *Simulation) LoadState(src []float64) error {
	if len(src) < stateTail {
		return fmt.Errorf("state has %d values, the inputs and the winch alone need %d", len(src), stateTail)
	}
	src, own := src[:len(src)-stateTail], src[len(src)-stateTail:]
	vec := func(k int) geom.Vec3 { return geom.V(own[3*k], own[3*k+1], own[3*k+2]) }
	var check port.StateCheck
	check.Point("hoist placed at", vec(0))
	check.Point("hoist position input", vec(1))
	check.Velocity("hoist velocity input", vec(2))
	check.Velocity("hoist mean velocity", vec(3))
	check.Flag("slack", own[12])
	check.Flag("commanded", own[13])
	check.Range("winch command", "m/s", port.Velocity, own[14])
	check.Speed("pay-out rate", own[15])
	check.Range("winch force limit", "N", port.Force, own[16])
	if err := check.Err(); err != nil {
		return err
	}
	if err := s.Cable.LoadState(src); err != nil {
		return err
	}
	s.placed, s.RefPos, s.RefVel, s.MeanVel = vec(0), vec(1), vec(2), vec(3)
	s.slack, s.commanded, s.command, s.rate, s.forceLimit = own[12] != 0, own[13] != 0, own[14], own[15], own[16]
	return nil
}
