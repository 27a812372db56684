package massspringcable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massspring"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type params struct {
	gravity, h, loadMass, length0 float64
	e, diameter, density          float64
	dampingTime, bending          float64 // s, N·m² (0: the default fraction of a solid bar)
}

// drive holds the inputs at one instant.
type drive struct {
	pos, vel geom.Vec3
	winch    float64
}

type simulation struct {
	m        *configured
	cable    *massspring.Cable
	minLen   float64
	from, to drive
	placed   geom.Vec3 // position inputs last applied to the top point
}

// NewSimulation implements fmu.Configured: the cable hangs straight down
// from the suspension point with the load at its end, stretched into
// static equilibrium, moving with the suspension point's velocity.
func (m *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	c := m.cfg
	rope := c.Cable.Rope.Material()
	p := params{gravity: c.Gravity, h: m.Step, loadMass: c.Load.Mass, length0: c.Cable.Length0,
		e: rope.E, diameter: rope.Diameter, density: rope.Density, dampingTime: rope.DampingTime, bending: rope.BendingStiffness}
	m.ApplyParams(&p, values)
	s := &simulation{m: m, minLen: c.Cable.Min()}
	s.from.pos = geom.V(c.Hoist.Position[0], c.Hoist.Position[1], c.Hoist.Position[2])
	m.ReadInputs(&s.from, values)
	s.placed = s.from.pos
	if !(p.length0 > s.minLen) {
		return nil, fmt.Errorf("cable.length0 %g m: must exceed the winch's minimum length %g m", p.length0, s.minLen)
	}
	mat := material.Rope{E: p.e, Poisson: c.Cable.Rope.Poisson, Diameter: p.diameter, Density: p.density,
		DampingTime: p.dampingTime, BendingStiffness: p.bending}
	if err := mat.Validate(); err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	solver, err := c.Cable.solver()
	if err != nil {
		return nil, err
	}
	spec := massspring.Spec{Top: s.from.pos, Dir: geom.V(0, 0, -1), Length: p.length0, Segments: c.Cable.Segments,
		LinearDensity: mat.LinearDensity(), AxialStiffness: mat.AxialStiffness(), Bending: mat.Bending(), DampingTime: mat.DampingTime,
		Load: p.loadMass, Gravity: geom.V(0, 0, -p.gravity),
		Solver: solver, Rebuilds: c.Cable.Rebuilds, CGIterations: c.Cable.CGIterations, CGTolerance: c.Cable.CGTolerance}
	if pm := c.Cable.PerMass; pm != nil {
		spec.PerMass = &massspring.PerMass{KL: pm.KL, KD: pm.KD, KB: pm.KB}
	}
	cable, err := massspring.New(spec)
	if err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	if p.gravity > 0 {
		if err := cable.Hang(); err != nil {
			return nil, fmt.Errorf("cable: %w", err)
		}
	}
	for i := range cable.V {
		cable.V[i] = s.from.vel
	}
	s.cable = cable
	return s, nil
}

// Step implements fmu.Simulation: the suspension point moves with the
// mean velocity input (placed at its position inputs when those
// changed), the winch changes the cable's rest length, and the cable
// takes one step.
func (s *simulation) Step(h, lead float64, from, to []float64, first bool) error {
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := port.StepStart(lead, h)
	vel := port.Kinematic(&s.cable.X[0], &s.placed, s.from.pos, s.from.vel, s.to.vel, lead, frac, first)
	speed := port.MeanSpeed(s.from.winch, s.to.winch, frac)
	if err := s.cable.SetLength(max(s.minLen, s.cable.Length()+h*speed)); err != nil {
		return err
	}
	if err := s.cable.Step(h, vel); err != nil {
		return fmt.Errorf("%w (check the inputs and the step h)", err)
	}
	return nil
}

// SaveState implements fmu.Simulation: every point's position and
// velocity, the rest length, the force on the crane and the CG count the
// outputs show, where the position inputs last placed the top.
func (s *simulation) SaveState(dst []float64) []float64 {
	c := s.cable
	dst = append(dst, float64(len(c.X)), c.Rest)
	for i := range c.X {
		dst = append(dst, c.X[i].X, c.X[i].Y, c.X[i].Z, c.V[i].X, c.V[i].Y, c.V[i].Z)
	}
	for _, v := range [2]geom.Vec3{c.TopForce, s.placed} {
		dst = append(dst, v.X, v.Y, v.Z)
	}
	return append(dst, float64(c.Stats.Rebuilds), float64(c.Stats.Iterations), c.Stats.Residual)
}

// LoadState implements fmu.Simulation. Everything is checked before
// anything changes: the rest length positive, the points' positions and
// velocities and the top's last position within the bounds of positions
// and speeds, the counts whole.
func (s *simulation) LoadState(src []float64) error {
	c := s.cable
	n := len(c.X)
	if len(src) != 2+6*n+9 || src[0] != float64(n) {
		return fmt.Errorf("state of %d values, want %d for %d mass points", len(src), 2+6*n+9, n)
	}
	rest := src[1]
	src = src[2:]
	vec := func(k int) geom.Vec3 { return geom.V(src[k], src[k+1], src[k+2]) }
	var check port.StateCheck
	check.Length("segment rest length", rest)
	for i := 0; i < n; i++ {
		check.Point(fmt.Sprintf("mass point %d", i), vec(6*i))
		check.Velocity(fmt.Sprintf("mass point %d", i), vec(6*i+3))
	}
	tail := src[6*n:]
	check.Point("top placed at", geom.V(tail[3], tail[4], tail[5]))
	check.Count("rebuilds", tail[6])
	check.Count("CG iterations", tail[7])
	check.NonNegative("CG residual", tail[8])
	if err := check.Err(); err != nil {
		return err
	}
	if err := c.SetRest(rest); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	for i := range c.X {
		c.X[i], c.V[i] = vec(6*i), vec(6*i+3)
	}
	src = tail
	c.TopForce, s.placed = vec(0), vec(3)
	c.Stats = massspring.Stats{Rebuilds: int(src[6]), Iterations: int(src[7]), Residual: src[8]}
	return nil
}

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }
