package hoist

import (
	"fmt"
	"math"

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
	// MeanVel is the velocity the suspension point moved at over the last
	// step.
	MeanVel geom.Vec3
	// Driven is where the suspension point's ports lie.
	Driven port.Driven
	slack  bool
	fmu.Events
	// A plugin's command replaces the winch speed input while commanded;
	// rate is the pay-out rate of the last step (m/s); forceLimit the
	// tension (N) above which the winch's brake slips (0: none).
	commanded                 bool
	command, rate, forceLimit float64
	// slipping says whether the brake slipped in the last step; scratch
	// holds the state a slipping brake retakes its step from.
	slipping bool
	scratch  []float64
	// nodeScratch holds the node coordinates of a Cable that is no
	// NodeLister.
	nodeScratch []float64
}

// Params returns the parameters the simulation was built with.
func (s *Simulation) Params() Params { return s.params }

// Step implements fmu.Simulation: the suspension point moves along the
// runtime's path (motion.Kinematic), the winch pays out at its speed
// input, a plugin's command, or what its slipping brake lets go, and the
// cable takes one step.
func (s *Simulation) Step(lead float64, from, to []float64, first bool) error {
	h := s.params.H
	s.m.ReadInputs(&s.From, from)
	s.m.ReadInputs(&s.To, to)
	frac := motion.StepStart(lead, h)
	s.MeanVel = motion.Kinematic(s.Cable.Top(), s.Driven.HasPos(), s.From.Pos, s.To.Pos, s.From.Vel, s.To.Vel, h)
	speed := motion.MeanSpeed(s.From.Winch, s.To.Winch, frac)
	if s.commanded {
		if err := port.Velocity.Check("winch command", "m/s", s.command); err != nil {
			return err
		}
		speed = s.command
	}
	length := s.Cable.Length()
	next := max(s.minLen, length+h*speed)
	if s.forceLimit > 0 {
		if err := s.brake(h, length, next); err != nil {
			return err
		}
	} else if err := s.step(h, length, next); err != nil {
		return err
	}
	s.noteEvents(h)
	return nil
}

// step takes the cable's step with its unstretched length going from
// length to next (m).
func (s *Simulation) step(h, length, next float64) error {
	s.rate = (next - length) / h
	return s.Cable.Step(h, s.MeanVel, next, s.rate, &s.To)
}

// brakeIterations bounds the steps a slipping brake retakes, and
// brakeTolerance is how close (relative) to the force limit it ends a
// step: a count, not a time, so the outcome is the same on any machine.
const (
	brakeIterations = 8
	brakeTolerance  = 1e-6
)

// brake takes the step with the winch's brake holding up to the force
// limit: if the tension at the suspension point would end the step above
// it, the brake slips, paying out what ends the step at the limit. That
// pay-out is found on whole steps retaken from the state before the step
// (the secant method on the end tension as a function of the length paid
// out, from the commanded one and the quasi-static estimate excess·L/EA,
// never below the commanded), within brakeTolerance of the limit; a step
// that does not get there in brakeIterations, or a cable whose brake
// cannot slip (Design.NoSlip), stops the simulation with the reason. A
// step the limit does not reach costs one state save.
func (s *Simulation) brake(h, length, next float64) error {
	s.scratch = state.Save(s.scratch[:0], s.Cable)
	if err := s.step(h, length, next); err != nil {
		return err
	}
	n0, f0 := next, s.Cable.Tension()-s.forceLimit
	if f0 <= 0 {
		if s.slipping {
			s.slipping = false
			s.Add("winch brake holds again")
		}
		return nil
	}
	if why := s.m.design.NoSlip; why != "" {
		return fmt.Errorf("winch brake: the tension at the suspension point reached %g N, above the force limit %g N, and the brake cannot slip: %s", f0+s.forceLimit, s.forceLimit, why)
	}
	n1 := n0 + f0*length/s.params.Rope.AxialStiffness()
	for k := 0; ; k++ {
		if _, err := state.Load(s.scratch, s.Cable); err != nil {
			return fmt.Errorf("winch brake: %w", err)
		}
		if err := s.step(h, length, n1); err != nil {
			return err
		}
		f1 := s.Cable.Tension() - s.forceLimit
		if math.Abs(f1) <= brakeTolerance*s.forceLimit {
			break
		}
		if k == brakeIterations-1 || f1 == f0 {
			return fmt.Errorf("winch brake: the tension at the suspension point ends the step at %g N whatever the brake pays out (%d steps retaken), not at the force limit %g N", f1+s.forceLimit, k+1, s.forceLimit)
		}
		n0, n1, f0 = n1, max(next, n1-f1*(n1-n0)/(f1-f0)), f1
	}
	if !s.slipping {
		s.Add("winch brake slipping at the force limit of %g N", s.forceLimit)
	}
	s.slipping = true
	return nil
}

// SlackShare and TautShare are the shares of the load's weight below
// which a cable that holds it is reported slack, and above which again
// taut (noteEvents).
const (
	SlackShare = 0.01
	TautShare  = 0.5
)

// noteEvents reports the cable going slack and taut again, judged where
// it holds the load (Cable.LoadTension): slack where its tension there
// falls below SlackShare of the load's weight (it no longer holds the
// load: set down, or thrown up by a snatch), taut again where it pulls
// with more than TautShare of it at both its ends. Judged at the
// suspension point, the top of a rope whose load stood on the ground,
// pulled by the hanging rope's weight and jerked as its slack slid in and
// out of the sheave's store (package rigidcable) by up to some 9 kN with
// the 20 mm rope whatever the load, was reported slack and taut again
// 41–87 times in 20 s (the RigidHoist example set down with 5 m paid out,
// loads of 1–12.3 t), and light loads under long ropes stayed "taut" on
// the ground; judged at the load alone, a load falling freely under a fast
// pay-out was reported taut again at each of the slack rigid rope's jerks
// on it, nine times in its fall.
func (s *Simulation) noteEvents(h float64) {
	weight := s.params.LoadMass * s.params.Gravity
	tension := s.Cable.LoadTension()
	slack := tension < SlackShare*weight
	if s.slack {
		slack = tension < TautShare*weight || s.Cable.Tension() < TautShare*weight
	}
	if slack != s.slack {
		s.slack = slack
		if slack {
			s.Add("cable went slack")
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

// nodes returns the coordinates of the cable's Design.Nodes nodes for the
// cable.node outputs: x, y, z of node 0, then of node 1, … (m).
func (s *Simulation) nodes() []float64 {
	if l, ok := s.Cable.(NodeLister); ok {
		return l.Nodes()
	}
	s.nodeScratch = s.nodeScratch[:0]
	for k := range s.m.design.Nodes {
		for axis := range 3 {
			s.nodeScratch = append(s.nodeScratch, s.Cable.Node(k, axis))
		}
	}
	return s.nodeScratch
}

// State walks the simulation's state (state.Stater): the cable's, then
// the suspension point's mean velocity over the last step, the slack and
// slipping
// flags and the winch (a command and a force limit in their ranges).
func (s *Simulation) State(c *state.Codec) {
	s.Cable.State(c)
	c.Velocity("hoist mean velocity", &s.MeanVel)
	c.Flag("slack", &s.slack)
	c.Flag("brake slipping", &s.slipping)
	c.Flag("commanded", &s.commanded)
	c.Range("winch command", "m/s", port.Velocity.Min, port.Velocity.Max, &s.command)
	c.Bounded("pay-out rate", "m/s", &s.rate)
	c.Range("winch force limit", "N", port.Force.Min, port.Force.Max, &s.forceLimit)
}

// SaveState implements fmu.Simulation.
func (s *Simulation) SaveState(dst []float64) []float64 { return state.Save(dst, s) }

// LoadState implements fmu.Simulation; a refused state changes nothing.
func (s *Simulation) LoadState(src []float64) error { return state.LoadAll(src, s) }
