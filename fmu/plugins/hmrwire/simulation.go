package hmrwire

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/motion"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type simulation struct {
	m *configured
	// h is the internal step (s) the simulation was built with.
	h      float64
	sys    *hmrwire.System
	bodies []*multibody.Body // by the config's body index
	geos   []*hmrwire.Geometry
	// kinematic lists the kinematic bodies' indices.
	kinematic []int
	from, to  drive
	// hasPos says on which axes each body has a position port.
	hasPos [][3]bool
	// nodes caches each wire's sampled points (x, y, z in a row), valid
	// until the state changes.
	nodes      [][]float64
	nodesValid []bool
	// plugin holds each wire's winch command from plugins.
	plugin []winchCommand
	// report gives, for the last step, each wire's tension at its first
	// end and rope torques at its ends, then each geometry's contact force
	// (x, y, z): the means over a step taken in substeps (readReport);
	// reported caches its values, valid until the state changes.
	report        *hmrwire.StepMean
	reported      []float64
	reportedValid bool
}

func newDrive(c *config) drive {
	return drive{pos: make([]geom.Vec3, len(c.Bodies)), vel: make([]geom.Vec3, len(c.Bodies)), winch: make([]float64, len(c.Wires))}
}

// NewSimulation implements fmu.Configured: the bodies at their places at
// rest, each wire along its route with its initial tension.
func (m *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	c := m.cfg
	p := params{gravity: c.Gravity, h: m.Step, mass: make([]float64, len(c.Bodies)), rope: make([]material.Rope, len(c.Wires))}
	for i, b := range c.Bodies {
		p.mass[i] = b.Mass
	}
	for j, w := range c.Wires {
		p.rope[j] = w.Rope.WireMaterial()
	}
	if c.crane != nil {
		p.length0 = c.crane.Cable.Length0
	}
	m.ApplyParams(&p, values)
	s := &simulation{m: m, h: p.h, from: newDrive(c), to: newDrive(c), plugin: make([]winchCommand, len(c.Wires))}
	for i, b := range c.Bodies {
		s.from.pos[i] = geom.V(b.Position[0], b.Position[1], b.Position[2])
	}
	m.ReadInputs(&s.from, values)
	s.to = copyDrive(s.from)
	if c.crane != nil {
		// The wire is laid for the parameters and the hoist's position
		// input: a copy of the config takes them.
		laidCfg := c.copyCrane()
		top := s.from.pos[0]
		hung := (p.mass[1] + p.rope[0].LinearDensity()*p.length0) * math.Abs(p.gravity)
		if err := p.rope[0].CheckHung(hung); err != nil {
			return nil, fmt.Errorf("load.mass %.4g kg and the rope's own %.4g kg: %w; check load.mass, cable.diameter and cable.E", p.mass[1], p.rope[0].LinearDensity()*p.length0, err)
		}
		c.lay(p.length0, p.mass[1], p.gravity, p.rope[0], [3]float64{top.X, top.Y, top.Z}).apply(laidCfg)
		c = laidCfg
	}
	for j := range c.Wires {
		if err := p.rope[j].Validate(); err != nil {
			return nil, fmt.Errorf("wire %q: %w", c.Wires[j].Name, err)
		}
	}
	if err := s.build(&p, c); err != nil {
		return nil, err
	}
	return s, nil
}

func copyDrive(d drive) drive {
	return drive{pos: append([]geom.Vec3(nil), d.pos...), vel: append([]geom.Vec3(nil), d.vel...), winch: append([]float64(nil), d.winch...)}
}

func vec(a [3]float64) geom.Vec3 { return geom.V(a[0], a[1], a[2]) }

// build builds the world of config c (the scenario's, or a crane's laid
// for the parameters) with the parameters p.
func (s *simulation) build(p *params, c *config) error {
	s.sys = hmrwire.NewSystem(geom.V(0, 0, -p.gravity))
	byName := map[string]*multibody.Body{}
	for i, b := range c.Bodies {
		var body *multibody.Body
		switch b.Kind {
		case "static":
			body = multibody.NewStatic(b.Name, vec(b.Position))
		case "kinematic":
			body = multibody.NewKinematic(b.Name, s.from.pos[i])
			body.Vel = s.from.vel[i]
			s.kinematic = append(s.kinematic, i)
		default:
			size := vec(b.Size)
			body = multibody.NewBody(b.Name, p.mass[i], multibody.BoxInertia(p.mass[i], size.X, size.Y, size.Z), vec(b.Position))
		}
		s.sys.World.AddBody(body)
		s.bodies = append(s.bodies, body)
		s.hasPos = append(s.hasPos, port.FindDriven(s.m.Variables(), b.Name).HasPos())
		byName[b.Name] = body
	}
	geoByName := map[string]*hmrwire.Geometry{}
	for _, g := range c.Geometries {
		var shape *hmrwire.Shape
		var err error
		if g.Box != nil {
			shape, err = hmrwire.Box(vec(*g.Box))
		} else {
			shape, err = hmrwire.Prism(g.Prism.Sides, g.Prism.Radius, g.Prism.Length)
		}
		if err != nil {
			return fmt.Errorf("geometry %q: %w", g.Name, err)
		}
		rot := geom.Quat{W: 1}
		if r := g.Rotation; r != nil {
			axis, n := geom.V(r[0], r[1], r[2]).Unit()
			if !(n > 0) || math.IsNaN(r[3]) || math.IsInf(r[3], 0) {
				return fmt.Errorf("geometry %q: rotation %v: want a non-zero axis and a finite angle (rad)", g.Name, *r)
			}
			rot = geom.AxisAngle(axis, r[3])
		}
		geo, err := hmrwire.NewGeometry(g.Name, byName[g.Body], shape, vec(g.Offset), rot, g.Friction)
		if err != nil {
			return fmt.Errorf("geometry %q: %w", g.Name, err)
		}
		s.sys.AddGeometry(geo)
		s.geos = append(s.geos, geo)
		geoByName[g.Name] = geo
	}
	for j, wc := range c.Wires {
		spec := hmrwire.WireSpec{
			Name: wc.Name,
			Rope: p.rope[j],
			Resolution: hmrwire.Resolution{Adaptive: wc.adaptive(), MaxMassNodes: wc.Resolution.MaxMassNodes,
				MinSegment: wc.Resolution.MinSegment},
			Spacing: wc.Spacing, Tension: wc.Tension, Twist: wc.twists(),
		}
		for _, rp := range wc.Route {
			pt := hmrwire.RoutePoint{Point: vec(rp.Point), Swivel: rp.Swivel}
			switch {
			case rp.End != nil:
				pt.Kind, pt.Body = hmrwire.End, byName[*rp.End] // nil for "free"
			case rp.Via:
				pt.Kind = hmrwire.Via
			case rp.Eye != "":
				pt.Kind, pt.Body = hmrwire.Eye, byName[rp.Eye]
			default:
				pt.Kind, pt.Geometry = hmrwire.Wrap, geoByName[rp.Wrap]
			}
			spec.Route = append(spec.Route, pt)
		}
		if wi := wc.Winch; wi != nil {
			spec.Winch = &hmrwire.Winch{Speed: s.from.winch[j], Slip: wi.Slip, ForceLimit: wi.ForceLimit, Spacing: wi.Spacing, MinLength: wi.MinLength}
		}
		if _, err := s.sys.AddWire(spec); err != nil {
			return err
		}
	}
	s.nodes, s.nodesValid = make([][]float64, len(c.Wires)), make([]bool, len(c.Wires))
	s.report = s.sys.AddMean(s.readReport)
	return nil
}

// readReport appends report's values after the last solve (see report).
func (s *simulation) readReport(dst []float64) []float64 {
	for _, w := range s.sys.Wires {
		first, last := w.EndTorques()
		dst = append(dst, w.FirstTension(), first, last)
	}
	for _, g := range s.geos {
		var f geom.Vec3
		for _, w := range s.sys.Wires {
			f = f.Add(w.ContactForce(g))
		}
		dst = append(dst, f.X, f.Y, f.Z)
	}
	return dst
}

// fromReport returns value k of report.
func (s *simulation) fromReport(k int) float64 {
	if !s.reportedValid {
		s.reported, s.reportedValid = s.report.Values(s.reported[:0]), true
	}
	return s.reported[k]
}

// wireTension returns wire j's tension at its first end over the last
// step (N); endTorque its rope's torque at its first (end 0) or last end
// (N·m, hmrwire.Wire.EndTorques).
func (s *simulation) wireTension(j int) float64    { return s.fromReport(3 * j) }
func (s *simulation) endTorque(j, end int) float64 { return s.fromReport(3*j + 1 + end) }

// contactForce returns the force (N) the wires exerted on geometry j over
// the last step.
func (s *simulation) contactForce(j int) geom.Vec3 {
	k := 3 * (len(s.sys.Wires) + j)
	return geom.V(s.fromReport(k), s.fromReport(k+1), s.fromReport(k+2))
}

// nodeCoord returns coordinate c (0 x, 1 y, 2 z; m) of wire j's sample
// point k.
func (s *simulation) nodeCoord(j, k, c int) float64 {
	if !s.nodesValid[j] {
		pts := s.sys.Wires[j].Sample(s.m.cfg.Wires[j].outputNodes())
		s.nodes[j] = s.nodes[j][:0]
		for _, p := range pts {
			s.nodes[j] = append(s.nodes[j], p.X, p.Y, p.Z)
		}
		s.nodesValid[j] = true
	}
	return s.nodes[j][3*k+c]
}

func (s *simulation) invalidate() {
	clear(s.nodesValid)
	s.reportedValid = false
}

// Step implements fmu.Simulation: the kinematic bodies move along the
// runtime's path (motion.Kinematic), the winches run at their speed
// inputs, and the system takes one step.
func (s *simulation) Step(lead float64, from, to []float64, first bool) error {
	h := s.h
	s.invalidate()
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := motion.StepStart(lead, h)
	for _, i := range s.kinematic {
		b := s.bodies[i]
		b.Vel = motion.Kinematic(&b.Pos, s.hasPos[i], s.from.pos[i], s.to.pos[i], s.from.vel[i], s.to.vel[i], h)
	}
	for j, w := range s.sys.Wires {
		if w.Winch != nil {
			w.Winch.Speed = motion.MeanSpeed(s.from.winch[j], s.to.winch[j], frac)
			if p := s.plugin[j]; p.commanded {
				if err := port.Velocity.Check("winch command", "m/s", p.command); err != nil {
					return err
				}
				w.Winch.Speed = p.command
			}
		}
	}
	err := s.sys.Step(h)
	if errors.Is(err, multibody.ErrDiverged) {
		return fmt.Errorf("%w (check the inputs and the internal step internalStep)", err)
	}
	return err
}

// SaveState implements fmu.Simulation: the system's state (its wires at
// any resolution), then the simulation's own (ownState).
func (s *simulation) SaveState(dst []float64) []float64 {
	return state.Save(s.sys.SaveState(dst), ownState{s})
}

// ownState walks what the simulation keeps besides the system: each
// wire's plugin command and winch force limit in their ranges.
type ownState struct{ s *simulation }

func (o ownState) tail() int { return 3 * len(o.s.plugin) }

func (o ownState) State(c *state.Codec) {
	s := o.s
	for j, w := range s.sys.Wires {
		p := &s.plugin[j]
		c.Flag("winch commanded", &p.commanded)
		c.Range("winch command", "m/s", port.Velocity.Min, port.Velocity.Max, &p.command)
		limit := 0.0
		if w.Winch != nil {
			limit = w.Winch.ForceLimit
		}
		got := c.Range("winch force limit", "N", port.Force.Min, port.Force.Max, &limit)
		c.Check(w.Winch != nil || got == 0, "wire %d has no winch, yet a force limit of %g N", j, got)
		if c.Loading() && w.Winch != nil {
			w.Winch.ForceLimit = limit
		}
	}
}

// LoadState implements fmu.Simulation; a refused state changes nothing:
// the simulation's own state is checked first, the system's restored if
// it refuses its part.
func (s *simulation) LoadState(src []float64) error {
	s.invalidate()
	o := ownState{s}
	n := o.tail()
	if len(src) < n {
		return fmt.Errorf("state has %d values, the inputs and the winches alone need %d", len(src), n)
	}
	own := src[len(src)-n:]
	if _, err := state.Check(own, o); err != nil {
		return err
	}
	backup := s.sys.SaveState(nil)
	rest, err := s.sys.LoadState(src[:len(src)-n])
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		if _, err := s.sys.LoadState(backup); err != nil {
			return fmt.Errorf("restoring the state before a refused one: %w", err)
		}
		return fmt.Errorf("state has %d values after the wires, want %d", len(rest)+n, n)
	}
	_, err = state.Load(own, o)
	return err
}

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }

// DrivenPoints implements fmu.Driver: the kinematic bodies.
func (m *configured) DrivenPoints() []fmu.DrivenPoint {
	var ps []fmu.DrivenPoint
	for _, b := range m.cfg.Bodies {
		if b.Kind == "kinematic" {
			ps = append(ps, port.FindDriven(m.Variables(), b.Name).Point(b.Name))
		}
	}
	return ps
}
