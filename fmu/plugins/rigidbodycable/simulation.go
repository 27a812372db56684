package rigidbodycable

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/rigidcable"
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
	world    *multibody.World
	hoist    *multibody.Body
	load     *multibody.Body
	cable    *rigidcable.Cable
	contacts []*contact.Contact
	minLen   float64
	from, to drive
	placed   geom.Vec3 // position inputs last applied to the hoist
	// refPos and refVel are the hoist's position and velocity input at the
	// end of the last step: the inputs the step's outputs belong to.
	refPos, refVel geom.Vec3
	ports          port.Driven
	slack          bool
	grounded       bool
	port.Events
	// A plugin's command replaces the winch speed input while commanded;
	// rate is the pay-out rate of the last step (m/s).
	commanded     bool
	command, rate float64
	// nodes caches the segment ends' positions for the node outputs, which
	// read three coordinates each and are read twice a communication step;
	// valid until the state changes. Coordinates in a row: x, y, z of end
	// 0, then of end 1, …
	nodes      []float64
	nodesValid bool
}

// NewSimulation implements fmu.Configured: the cable hangs straight down
// from the suspension point with the load at its end, prestretched into
// static equilibrium.
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
	s.refPos, s.refVel, s.ports = s.from.pos, s.from.vel, port.FindDriven(m.Variables(), "hoist")
	if err := s.build(&p); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *simulation) build(p *params) error {
	c := s.m.cfg
	if !(p.length0 > s.minLen) {
		return fmt.Errorf("cable.length0 %g m: must exceed the winch's minimum length %g m", p.length0, s.minLen)
	}
	twist, err := c.Cable.twist()
	if err != nil {
		return err
	}
	hook, err := c.Cable.hook()
	if err != nil {
		return err
	}
	rope := material.Rope{E: p.e, Poisson: c.Cable.Rope.Poisson, Diameter: p.diameter, Density: p.density,
		DampingTime: p.dampingTime, BendingStiffness: p.bending}
	if err := rope.Validate(); err != nil {
		return fmt.Errorf("cable: %w", err)
	}
	top := s.from.pos
	bottom := top.Sub(geom.V(0, 0, p.length0))
	cable, err := rigidcable.NewStraight(top, bottom, rigidcable.Options{
		Section: rigidcable.FromRope(rope), Segments: c.Cable.Segments, Damping: rope.DampingTime, Twist: twist,
	})
	if err != nil {
		return fmt.Errorf("cable: %w", err)
	}
	s.cable = cable
	s.world = multibody.NewWorld(geom.V(0, 0, -p.gravity))
	s.hoist = s.world.AddBody(multibody.NewKinematic("hoist", top))
	s.hoist.Vel = s.from.vel
	size := geom.V(c.Load.Size[0], c.Load.Size[1], c.Load.Size[2])
	s.load = s.world.AddBody(multibody.NewBody("load", p.loadMass, multibody.BoxInertia(p.loadMass, size.X, size.Y, size.Z), bottom.Sub(geom.V(0, 0, size.Z/2))))
	// The cable bends freely over the sheave and carries its torsion up to
	// it; at the load it is clamped or hangs from a swivel.
	cable.AttachStart(s.hoist, geom.Vec3{}, geom.V(0, 0, -1), rigidcable.Sheave)
	cable.AttachEnd(s.load, geom.V(0, 0, size.Z/2), geom.V(0, 0, -1), hook)
	cable.Prestretch(s.world.Gravity)
	cable.AddTo(s.world)
	if g := c.Ground; g != nil {
		ground := &contact.Ground{Height: g.Height, Friction: g.Friction}
		points := contact.BoxCorners(s.load, size)
		for _, seg := range cable.Segments {
			points = append(points, contact.Point{Body: seg, Radius: p.diameter / 2})
		}
		for _, pt := range points {
			ct := contact.New(ground, pt)
			// Contact rows are rigid: their relaxation is the stepper's,
			// two steps, not the rope's.
			ct.Damping = 2 * p.h
			s.world.AddConstraint(ct)
			s.contacts = append(s.contacts, ct)
		}
		// The cable's joints are one group (direct chain solve), each
		// contact a small group of its own (3 rows, dense with its bounds).
		sizes := []int{len(cable.Joints)}
		for range s.contacts {
			sizes = append(sizes, 1)
		}
		s.world.Solver = &multibody.GaussSeidel{
			Sizes:      sizes,
			Solvers:    []multibody.Solver{&multibody.ActiveSet{Solver: &multibody.Chain{}}},
			Iterations: c.Iterations,
		}
	} else {
		s.world.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	}
	return s.world.Prime(p.h)
}

// nodeCoord returns coordinate c (0 x, 1 y, 2 z; m, world) of segment end
// k (0 = suspension point).
func (s *simulation) nodeCoord(k, c int) float64 {
	if !s.nodesValid {
		segs := s.cable.Segments
		s.nodes = s.nodes[:0]
		l := s.cable.SegmentLength
		for _, b := range segs {
			p := b.PointWorld(geom.Vec3{X: -l / 2})
			s.nodes = append(s.nodes, p.X, p.Y, p.Z)
		}
		p := segs[len(segs)-1].PointWorld(geom.Vec3{X: l / 2})
		s.nodes = append(s.nodes, p.X, p.Y, p.Z)
		s.nodesValid = true
	}
	return s.nodes[3*k+c]
}

// Step implements fmu.Simulation: the hoist moves with the mean velocity
// input (placed at its position inputs when those changed), the winch
// changes the cable length, and the world takes one step.
func (s *simulation) Step(h, lead float64, from, to []float64, first bool) error {
	s.nodesValid = false
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := port.StepStart(lead, h)
	s.hoist.Vel = port.Kinematic(&s.hoist.Pos, &s.placed, s.from.pos, s.from.vel, s.to.vel, lead, frac, first)
	length := s.cable.Length()
	speed := port.MeanSpeed(s.from.winch, s.to.winch, frac)
	if s.commanded {
		if err := port.Velocity.Check("winch command", "m/s", s.command); err != nil {
			return err
		}
		speed = s.command
	}
	next := max(s.minLen, length+h*speed)
	s.rate = (next - length) / h
	if err := s.cable.SetLength(next, s.rate); err != nil {
		return err
	}
	err := s.world.Step(h)
	if errors.Is(err, multibody.ErrDiverged) {
		return fmt.Errorf("%w (check the inputs and the step h)", err)
	}
	if err != nil {
		return err
	}
	if k, a := s.cable.Kink(); a > rigidcable.KinkLimit {
		return fmt.Errorf("rope folded back on itself at joint %d (bent by %.0f°, more than %.0f°): a slack rope piling up is beyond the rigid-body cable; keep the slack within the sheave's store (README)",
			k, a*180/math.Pi, rigidcable.KinkLimit*180/math.Pi)
	}
	s.refPos, s.refVel = s.hoist.Pos, s.to.vel
	s.noteEvents(h)
	return nil
}

func (s *simulation) noteEvents(h float64) {
	if slack := s.cable.Joints[0].Force() < 1e-6*s.load.Mass*s.world.Gravity.Norm(); slack != s.slack {
		s.slack = slack
		if slack {
			s.Add("cable went slack at the suspension point")
		} else {
			s.Add("cable is taut again")
		}
	}
	grounded := false
	for _, c := range s.contacts[:min(4, len(s.contacts))] {
		grounded = grounded || c.Force(h) > 0
	}
	if grounded != s.grounded {
		s.grounded = grounded
		if grounded {
			s.Add("load set down on the ground")
		} else {
			s.Add("load lifted off the ground")
		}
	}
}

// SaveState implements fmu.Simulation.
func (s *simulation) SaveState(dst []float64) []float64 {
	dst = s.world.SaveState(dst)
	for _, p := range [3]geom.Vec3{s.placed, s.refPos, s.refVel} {
		dst = append(dst, p.X, p.Y, p.Z)
	}
	return append(dst, port.Flag(s.slack), port.Flag(s.grounded), s.cable.SegmentLength, port.Flag(s.commanded), s.command, s.rate)
}

// LoadState implements fmu.Simulation. The numbers after the world's are
// checked first: the inputs last applied within the bounds of positions
// and speeds, the flags 0 or 1, the segment length positive.
func (s *simulation) LoadState(src []float64) error {
	s.nodesValid = false
	if len(src) < stateTail {
		return fmt.Errorf("state has %d values, the inputs and the winch alone need %d", len(src), stateTail)
	}
	src, own := src[:len(src)-stateTail], src[len(src)-stateTail:]
	var check port.StateCheck
	check.Point("hoist placed at", geom.V(own[0], own[1], own[2]))
	check.Point("hoist position input", geom.V(own[3], own[4], own[5]))
	check.Velocity("hoist velocity input", geom.V(own[6], own[7], own[8]))
	check.Flag("slack", own[9])
	check.Flag("grounded", own[10])
	check.Length("segment length", own[11])
	check.Flag("commanded", own[12])
	check.Range("winch command", "m/s", port.Velocity, own[13])
	check.Speed("pay-out rate", own[14])
	if err := check.Err(); err != nil {
		return err
	}
	if err := s.world.CheckFixed(src, s.load); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	rest, err := s.world.LoadState(src)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("state has %d values after the world, want %d", len(rest)+stateTail, stateTail)
	}
	s.placed, s.refPos, s.refVel = geom.V(own[0], own[1], own[2]), geom.V(own[3], own[4], own[5]), geom.V(own[6], own[7], own[8])
	s.slack, s.grounded, s.cable.SegmentLength = own[9] != 0, own[10] != 0, own[11]
	s.commanded, s.command, s.rate = own[12] != 0, own[13], own[14]
	return nil
}

// stateTail is the number of values SaveState appends after the world's.
const stateTail = 15

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }
