package splinecable

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/spline"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type params struct {
	gravity, h, loadMass, length0 float64
	e, diameter, density, bending float64
}

// drive holds the inputs at one instant.
type drive struct {
	pos, vel geom.Vec3
	winch    float64
	budget   float64
}

type simulation struct {
	m        *configured
	spline   *spline.Spline
	minLen   float64
	from, to drive
	placed   geom.Vec3 // position inputs last applied to the start
	// nodes caches the sampled centreline for the node outputs, valid
	// until the state changes.
	nodes      []geom.Vec3
	nodesValid bool
}

// NewSimulation implements fmu.Configured: the spline hangs straight down
// from the suspension point with the load at its end, in its exact static
// stretch (spline.Hang).
func (m *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	c := m.cfg
	rope := c.Cable.Rope.Material()
	p := params{gravity: c.Gravity, h: m.Step, loadMass: c.Load.Mass, length0: c.Cable.Length0,
		e: rope.E, diameter: rope.Diameter, density: rope.Density, bending: rope.BendingStiffness}
	m.ApplyParams(&p, values)
	s := &simulation{m: m, minLen: c.Cable.Min()}
	s.from.pos = geom.V(c.Hoist.Position[0], c.Hoist.Position[1], c.Hoist.Position[2])
	m.ReadInputs(&s.from, values)
	s.placed = s.from.pos
	if !(p.length0 > s.minLen) {
		return nil, fmt.Errorf("cable.length0 %g m: must exceed the winch's minimum length %g m", p.length0, s.minLen)
	}
	mat := material.Rope{E: p.e, Poisson: c.Cable.Rope.Poisson, Diameter: p.diameter, Density: p.density, BendingStiffness: p.bending}
	if err := mat.Validate(); err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	d := p.diameter
	sp, err := spline.New(spline.Spec{Start: s.from.pos, Dir: geom.V(0, 0, -1), Length: p.length0, Controls: c.Cable.Controls,
		LinearDensity: mat.LinearDensity(), RollInertia: p.density * math.Pi * d * d * d * d / 32,
		AxialStiffness: mat.AxialStiffness(), Torsion: mat.TorsionalRigidity(), BendingStiffness: mat.Bending(),
		Load: p.loadMass, Gravity: geom.V(0, 0, -p.gravity), Ceiling: c.Cable.Ceiling, ClampStart: c.Cable.ClampStart})
	if err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	if p.gravity > 0 {
		if err := sp.Hang(); err != nil {
			return nil, fmt.Errorf("cable: %w", err)
		}
	}
	for i := range sp.V {
		sp.V[i] = [4]float64{s.from.vel.X, s.from.vel.Y, s.from.vel.Z, 0}
	}
	sp.LoadVel = s.from.vel
	s.spline = sp
	return s, nil
}

// node returns coordinate k of output node j of n (rest arc length
// j/(n−1) of the cable).
func (s *simulation) node(j, n, k int) float64 {
	if !s.nodesValid {
		s.nodes = s.spline.Points(n, s.nodes[:0])
		s.nodesValid = true
	}
	return s.nodes[j].Comp(k)
}

// Step implements fmu.Simulation: the suspension point moves with the
// mean velocity input (placed at its position inputs when those
// changed), the winch changes the rest length, the budget input sets
// Algorithm 2's, and the spline takes one step.
func (s *simulation) Step(h, lead float64, from, to []float64, first bool) error {
	s.nodesValid = false
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := port.StepStart(lead, h)
	sp := s.spline
	vel := port.Kinematic(&sp.StartTarget, &s.placed, s.from.pos, s.from.vel, s.to.vel, lead, frac, first)
	sp.StartTarget = sp.StartTarget.AddScaled(h, vel)
	speed := port.MeanSpeed(s.from.winch, s.to.winch, frac)
	if err := sp.SetLength(max(s.minLen, sp.Length()+h*speed)); err != nil {
		return err
	}
	sp.Budget = s.to.budget
	if err := sp.Step(h); err != nil {
		return fmt.Errorf("%w (check the inputs and the step h)", err)
	}
	return nil
}

// SaveState implements fmu.Simulation: the control points and their
// rates, the load, the start's target, the rest length, the mode and the
// forces the outputs show.
func (s *simulation) SaveState(dst []float64) []float64 {
	sp := s.spline
	dst = append(dst, float64(len(sp.Q)), sp.Length(), port.Flag(sp.Static), sp.Budget, sp.StartTorque, sp.EndTorque)
	for i := range sp.Q {
		dst = append(dst, sp.Q[i][:]...)
		dst = append(dst, sp.V[i][:]...)
	}
	for _, v := range [6]geom.Vec3{sp.LoadPos, sp.LoadVel, sp.StartTarget, sp.StartForce, sp.EndForce, s.placed} {
		dst = append(dst, v.X, v.Y, v.Z)
	}
	return dst
}

// LoadState implements fmu.Simulation. Everything is checked before
// anything changes: all finite, the length positive, the control points,
// the load and the start's target within the bounds of positions and
// their rates and the load's velocity within those of speeds, the mode a
// flag. The budget is any finite number: it is the input's value, which
// input derivatives may extrapolate below 0 (no limit, as 0 is).
func (s *simulation) LoadState(src []float64) error {
	s.nodesValid = false
	sp := s.spline
	n := len(sp.Q)
	want := 6 + 8*n + 18
	if len(src) != want || src[0] != float64(n) {
		return fmt.Errorf("state of %d values, want %d for %d control points", len(src), want, n)
	}
	for _, x := range src {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("state: values must be finite")
		}
	}
	head, pts, tail := src[:6], src[6:6+8*n], src[6+8*n:]
	vec := func(k int) geom.Vec3 { return geom.V(tail[3*k], tail[3*k+1], tail[3*k+2]) }
	var check port.StateCheck
	check.Length("spline length", head[1])
	check.Flag("static", head[2])
	for i := 0; i < n; i++ {
		q := pts[8*i:]
		check.Point(fmt.Sprintf("control point %d", i), geom.V(q[0], q[1], q[2]))
		check.Velocity(fmt.Sprintf("control point %d rate", i), geom.V(q[4], q[5], q[6]))
	}
	check.Point("load", vec(0))
	check.Velocity("load", vec(1))
	check.Point("start target", vec(2))
	check.Point("hoist placed at", vec(5))
	if err := check.Err(); err != nil {
		return err
	}
	if err := sp.SetLength(head[1]); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	sp.Static, sp.Budget, sp.StartTorque, sp.EndTorque = head[2] != 0, head[3], head[4], head[5]
	for i := range sp.Q {
		copy(sp.Q[i][:], pts[8*i:8*i+4])
		copy(sp.V[i][:], pts[8*i+4:8*i+8])
	}
	sp.LoadPos, sp.LoadVel, sp.StartTarget, sp.StartForce, sp.EndForce, s.placed = vec(0), vec(1), vec(2), vec(3), vec(4), vec(5)
	return nil
}

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }
