package rigidcable

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/stability"
)

// Options shape a rigid-body cable.
type Options struct {
	// Rope is the cable's rope: its section's area and density make the
	// segments (solid cylinders), its stiffnesses the joints' (eqs.
	// 34–36), and its DampingTime τ (s) the joints' rows' Kelvin–Voigt
	// damping. The stepper adds numerical relaxation only to rows the step
	// cannot resolve.
	Rope material.Rope
	// Segments is the number N of rigid segments.
	Segments int
	// Twist selects how the joints measure twist (TwistSwing if zero).
	Twist TwistDefinition
	// InertiaScale multiplies the segments' moments of inertia (1 if 0):
	// [SL08] §VIII scales them by 20 to stabilize its crane.
	InertiaScale float64
}

// A cable whose segments are much lighter than its load goes unstable at
// dt = 1/60 s: the light segments turn across the cable under the large
// tension faster than the step resolves. [SL08] §VII-D stiffens the bending
// with the tension everywhere, which turns the rope into a beam (a box
// load's rocking mode +140 %, the rope's higher modes +30 … +170 %). Here
// the joints bend with the rope's own stiffness everywhere; the joints
// report the tension's geometric stiffness (Joint.TurnStiffness), which the
// stepper takes into the step where it cannot resolve the turning (package
// stability).

// EndKind says which angles a cable end's joint holds besides the ball and
// socket.
type EndKind int

const (
	// Pinned holds neither bending nor twisting (an anchor).
	Pinned EndKind = iota
	// Sheave lets the cable bend over a sheave and holds its twist: the
	// rope's torsional stiffness reaches to the sheave.
	Sheave
	// Clamped holds bending and twisting (a socket on a load).
	Clamped
	// Swivel holds bending and lets the body turn about the cable (a hook
	// swivel).
	Swivel
)

// Cable is a chain of rigid segments joined by angular constraints. Its
// Joints run in chain order: the start attachment (if any), the joints
// between segments, the end attachment (if any), so that the constraint
// coupling is block tridiagonal ([SL08] eq. 29).
type Cable struct {
	Segments []*multibody.Body
	Joints   []*Joint
	// SegmentLength is the length l of each segment (m).
	SegmentLength float64
	opt           Options
}

// Axis is the segments' body-frame cable axis: body x, from the cable's
// start towards its end.
func Axis() geom.Vec3 { return geom.Vec3{X: 1} }

var axis = Axis()

// segmentMass returns the mass (kg) and principal moments of inertia
// (kg·m², body x along the axis) of a solid cylindrical segment of length
// l (m), scaled by the options' inertia scale.
func (o *Options) segmentMass(l float64) (float64, geom.Vec3) {
	mass := o.Rope.LinearDensity() * l
	r2 := o.Rope.Area() / math.Pi
	return mass, geom.Vec3{X: mass * r2 / 2, Y: mass * (3*r2 + l*l) / 12, Z: mass * (3*r2 + l*l) / 12}.Scale(o.InertiaScale)
}

// NewStraight returns a straight cable of opt.Segments segments from p0 to
// p1 (world, m), untwisted and unbent. Each segment is a solid cylinder of
// the section's area, body x along the cable from p0 to p1.
func NewStraight(p0, p1 geom.Vec3, opt Options) (*Cable, error) {
	if err := opt.Rope.Validate(); err != nil {
		return nil, err
	}
	if opt.Segments < 1 {
		return nil, fmt.Errorf("%d segments: need at least one", opt.Segments)
	}
	dir, length := p1.Sub(p0).Unit()
	if length == 0 {
		return nil, fmt.Errorf("cable from %v to %v has no length", p0, p1)
	}
	if opt.InertiaScale == 0 {
		opt.InertiaScale = 1
	}
	n := opt.Segments
	l := length / float64(n)
	mass, inertia := opt.segmentMass(l)
	rot := geom.RotationBetween(axis, dir)
	c := &Cable{SegmentLength: l, opt: opt}
	for i := 0; i < n; i++ {
		b := multibody.NewBody(fmt.Sprintf("segment %d", i+1), mass, inertia, p0.Add(dir.Scale((float64(i)+0.5)*l)))
		b.Rot = rot
		c.Segments = append(c.Segments, b)
	}
	half := geom.Vec3{X: l / 2}
	for i := 0; i+1 < n; i++ {
		j := NewJoint(c.Segments[i], half, axis, c.Segments[i+1], half.Scale(-1), axis, opt.Twist)
		c.setStiffness(j, l) // the joint stands for half of each neighbour
		c.Joints = append(c.Joints, j)
	}
	return c, nil
}

// setStiffness gives j the rope's stiffness and damping for a joint that
// stands for l metres of cable.
func (c *Cable) setStiffness(j *Joint, l float64) {
	j.Stretch, j.Bend, j.Twist = stiffness(c.opt.Rope, l)
	j.Length, j.Link = l, c.SegmentLength
	j.Damping = c.opt.Rope.DampingTime
}

// endJoint returns the joint of the given kind from body a to body b. A
// pinned end measures the tension along the segment's axis alone.
func (c *Cable) endJoint(kind EndKind, a *multibody.Body, pa, da geom.Vec3, b *multibody.Body, pb, db geom.Vec3, segmentIsA bool) *Joint {
	switch kind {
	case Sheave:
		return NewSheaveJoint(a, pa, da, b, pb, db, c.opt.Twist)
	case Clamped:
		return NewJoint(a, pa, da, b, pb, db, c.opt.Twist)
	case Swivel:
		return NewSwivelJoint(a, pa, da, b, pb, db, c.opt.Twist)
	}
	if segmentIsA {
		db = geom.Vec3{}
	} else {
		da = geom.Vec3{}
	}
	return NewBallJoint(a, pa, da, b, pb, db)
}

// AttachStart joins body b at its body-frame point pb to the start of the
// first segment with a joint of the given kind; db is b's body-frame cable
// axis (pointing into the cable). The joint stands for half the first
// segment.
func (c *Cable) AttachStart(b *multibody.Body, pb, db geom.Vec3, kind EndKind) *Joint {
	first := c.Segments[0]
	start := geom.Vec3{X: -c.SegmentLength / 2}
	j := c.endJoint(kind, b, pb, db, first, start, axis, false)
	c.setStiffness(j, c.SegmentLength/2)
	j.socket = kind == Clamped || kind == Swivel
	if j.socket && len(c.Segments) > 1 {
		j.rope = c.Joints[0]
	}
	c.Joints = append([]*Joint{j}, c.Joints...)
	return j
}

// AttachEnd joins the end of the last segment to body b at its body-frame
// point pb; db is b's body-frame cable axis (pointing away from the cable,
// the direction the cable would continue in). See AttachStart.
func (c *Cable) AttachEnd(b *multibody.Body, pb, db geom.Vec3, kind EndKind) *Joint {
	last := c.Segments[len(c.Segments)-1]
	end := geom.Vec3{X: c.SegmentLength / 2}
	j := c.endJoint(kind, last, end, axis, b, pb, db, true)
	c.setStiffness(j, c.SegmentLength/2)
	j.socket = kind == Clamped || kind == Swivel
	if j.socket && len(c.Segments) > 1 {
		j.rope = c.Joints[len(c.Joints)-1]
	}
	c.Joints = append(c.Joints, j)
	return j
}

// edgeRate returns the speed (m/s) at which the joints' attachment points
// move along their segments, as the last SetLength set it (or a restored
// state holds it): read from the joints, which carry it in their state.
func (c *Cable) edgeRate() float64 {
	for k, j := range c.Joints {
		if k > 0 || j.bodies[0] == c.Segments[0] {
			return j.rateA.X
		}
	}
	return math.NaN()
}

// Kink returns the joint with the largest bend angle at the last update
// among the joints that hold bending, and that angle (rad): how far a slack
// rope folds (π: back on itself). A sheave or a pinned end lets the rope
// leave at any angle.
func (c *Cable) Kink() (joint int, angle float64) {
	for k, j := range c.Joints {
		if !j.bends {
			continue
		}
		if a := j.BendAngle(); a > angle {
			joint, angle = k, a
		}
	}
	return joint, angle
}

// Length returns the cable's length N·l (m).
func (c *Cable) Length() float64 { return c.SegmentLength * float64(len(c.Segments)) }

// SetLength changes the cable's length to length (m), as a winch paying
// out (rate > 0, m/s) or hauling in: every segment gets length/N, so the
// resolution stays N while the drum's cable enters all segments evenly.
// Segment masses and inertias follow the new length (cable coming off the
// drum brings its mass), and so do the joints' stiffnesses. The joints'
// ball rows get the rate at which their attachment points separate, so
// that the step anticipates the change instead of correcting it after.
func (c *Cable) SetLength(length, rate float64) error {
	n := float64(len(c.Segments))
	if !(length > 0) || math.IsInf(length, 0) {
		return fmt.Errorf("cable length %g m: must be positive and finite", length)
	}
	l := length / n
	edge := rate / n / 2 // speed of a segment end along the segment
	if l == c.SegmentLength && edge == c.edgeRate() {
		return nil // a winch at rest changes nothing
	}
	mass, inertia := c.opt.segmentMass(l)
	for _, b := range c.Segments {
		b.Mass, b.Inertia = mass, inertia
	}
	for k, j := range c.Joints {
		// The joints run in chain order: only the first and the last can
		// have a body that is not a segment (an attachment).
		a := k > 0 || j.bodies[0] == c.Segments[0]
		b := k < len(c.Joints)-1 || j.bodies[1] == c.Segments[len(c.Segments)-1]
		jl := l
		if !a || !b {
			jl = l / 2 // an end joint stands for half a segment
		}
		if a {
			j.pointA, j.rateA = geom.Vec3{X: l / 2}, geom.Vec3{X: edge}
		}
		if b {
			j.pointB, j.rateB = geom.Vec3{X: -l / 2}, geom.Vec3{X: -edge}
		}
		j.ratesSet()
		// New stiffnesses for the new length; damping stays as set.
		j.Stretch, j.Bend, j.Twist = stiffness(c.opt.Rope, jl)
		j.Length, j.Link = jl, l
	}
	c.SegmentLength = l
	return nil
}

// AddTo adds the segments and then the joints, in chain order, to w; the
// attached end bodies must be in w already or be added by the caller.
func (c *Cable) AddTo(w *multibody.World) {
	for _, b := range c.Segments {
		w.AddBody(b)
	}
	for _, j := range c.Joints {
		w.AddConstraint(j)
	}
}

// Mass returns the total mass of the segments (kg).
func (c *Cable) Mass() float64 {
	m := 0.0
	for _, b := range c.Segments {
		m += b.Mass
	}
	return m
}

// Stretch returns the total joint stiffness along the cable: the series
// sum 1/Σ(1/c_s) (N/m).
func (c *Cable) Stretch() float64 {
	comp := 0.0
	for _, j := range c.Joints {
		comp += 1 / j.Stretch
	}
	return 1 / comp
}

// Prestretch puts a cable that hangs straight down from its start
// attachment into static equilibrium under gravity g (m/s², world): each
// joint is opened by the weight below it over its stretch stiffness, the
// bodies below shifted down accordingly, and the joints start with that
// tension, so that its geometric stiffness holds from the first step. The
// end attachment's body, if dynamic, counts as load.
func (c *Cable) Prestretch(g geom.Vec3) {
	down, gn := g.Unit()
	tension := make([]float64, len(c.Joints))
	below := 0.0
	for k := len(c.Joints) - 1; k >= 0; k-- {
		if b := c.Joints[k].bodies[1]; b.Kind == multibody.Dynamic {
			below += b.Mass
		}
		tension[k] = below * gn
	}
	offset := 0.0
	for k, j := range c.Joints {
		offset += tension[k] / j.Stretch
		j.bodies[1].Pos = j.bodies[1].Pos.AddScaled(offset, down)
		j.force, j.held = tension[k], tension[k]
	}
}

// Substeps returns the number of equal substeps that a step of h seconds
// needs so that no segment turns across its axis by more than
// stability.MaxTurn in one (stability.Substeps), from the segments' present
// angular velocities. A turn about the axis itself moves no joint.
func (c *Cable) Substeps(h float64) int {
	// Most steps have no segment that turns by MaxTurn about any axis:
	// the axis is found only for those that do.
	resolved := stability.MaxTurn / h
	fastest := resolved * resolved // the largest ω⊥², rad²/s²
	turns := false
	for _, s := range c.Segments {
		w := s.AngVel
		w2 := w.Dot(w)
		if !(w2 > fastest) {
			continue
		}
		along := w.Dot(s.Rot.Rotate(Axis()))
		if across := w2 - along*along; across > fastest {
			fastest, turns = across, true
		}
	}
	if !turns {
		return 1
	}
	return stability.Substeps(math.Sqrt(fastest), h)
}

// Runaway returns an error wrapping multibody.ErrDiverged if a segment
// moves faster than material.RunawaySpeed against the rope's mean motion
// (its segments' momentum over their mass: a rope carried along fast as a
// whole is not running away), or a joint carried a force at a stress
// beyond material.RunawayStress in the last step (or either is not
// finite): a rope whose step ran away, or one that would have broken (a
// 12.3 t load caught at 16 m/s on 11 m of 20 mm rope: about 3 MN, v√(EA·M/L)).
// A rope its step cannot hold runs away within a second (a slack rope
// thrown about by repeated snatches of a 12 t load: from 100 m/s to
// 10⁶ m/s in 0.3 s, under 10¹¹ N), where nothing else stops it until
// positions pass the world's divergence limit (1e7 m).
func (c *Cable) Runaway() error {
	// Relative speeds are at most twice the fastest segment's: most steps
	// need no mean.
	fastest := 0.0
	for _, s := range c.Segments {
		fastest = max(fastest, s.Vel.Dot(s.Vel))
	}
	if !(fastest <= material.RunawaySpeed*material.RunawaySpeed/4) {
		var momentum geom.Vec3
		mass := 0.0
		for _, s := range c.Segments {
			momentum = momentum.AddScaled(s.Mass, s.Vel)
			mass += s.Mass
		}
		mean := momentum.Scale(1 / mass)
		for k, s := range c.Segments {
			v := s.Vel.Sub(mean)
			if !(v.Dot(v) <= material.RunawaySpeed*material.RunawaySpeed) {
				return fmt.Errorf("segment %d of %d at %.4g m moving at %.0f m/s against the rope's mean motion, faster than any hoisting rope's segments: %w", k+1, len(c.Segments), s.Pos, v.Norm(), multibody.ErrDiverged)
			}
		}
	}
	area := c.opt.Rope.Area()
	limit := material.RunawayStress * area
	for k, j := range c.Joints {
		if f := j.Force(); !(f <= limit && f >= -limit) {
			return fmt.Errorf("joint %d of %d carried %.3g N, a stress of %.3g GPa that no rope holds (rope wire breaks at 2 GPa at most): the rope would have broken, or the %w", k+1, len(c.Joints), f, math.Abs(f)/area/1e9, multibody.ErrDiverged)
		}
	}
	return nil
}
