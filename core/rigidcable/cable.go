package rigidcable

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Options shape a rigid-body cable.
type Options struct {
	Section Section
	// Segments is the number N of rigid segments.
	Segments int
	// Damping is SPOOK's relaxation time γ (s) of the joints' rows.
	Damping float64
	// Twist selects the twist angle definition of the joints.
	Twist TwistDefinition
	// InertiaScale multiplies the segments' moments of inertia (1 if 0):
	// [SL08] §VIII scales them by 20 to stabilize its crane.
	InertiaScale float64
}

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

// axis is the segments' body-frame cable axis.
var axis = geom.Vec3{X: 1}

// NewStraight returns a straight cable of opt.Segments segments from p0 to
// p1 (world, m), untwisted and unbent. Each segment is a solid cylinder of
// the section's area, body x along the cable from p0 to p1.
func NewStraight(p0, p1 geom.Vec3, opt Options) (*Cable, error) {
	if err := opt.Section.Validate(); err != nil {
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
	sec := opt.Section
	mass := sec.Density * sec.Area * l
	r2 := sec.Area / math.Pi
	inertia := geom.Vec3{X: mass * r2 / 2, Y: mass * (3*r2 + l*l) / 12, Z: mass * (3*r2 + l*l) / 12}.Scale(opt.InertiaScale)
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
		c.stiffen(j, l) // the joint stands for half of each neighbour
		c.Joints = append(c.Joints, j)
	}
	return c, nil
}

func (c *Cable) stiffen(j *Joint, l float64) {
	j.Stretch, j.Bend, j.Twist = c.opt.Section.Stiffness(l)
	j.Damping = c.opt.Damping
}

// AttachStart joins body b at its body-frame point pb to the start of the
// first segment. With full, the joint is an angular constraint with b's
// body-frame cable axis db (pointing into the cable) and stands for half
// the first segment; otherwise it is a ball and socket (a pinned end).
func (c *Cable) AttachStart(b *multibody.Body, pb, db geom.Vec3, full bool) *Joint {
	first := c.Segments[0]
	start := geom.Vec3{X: -c.SegmentLength / 2}
	var j *Joint
	if full {
		j = NewJoint(b, pb, db, first, start, axis, c.opt.Twist)
	} else {
		j = NewBallJoint(b, pb, first, start)
	}
	c.stiffen(j, c.SegmentLength/2)
	c.Joints = append([]*Joint{j}, c.Joints...)
	return j
}

// AttachEnd joins the end of the last segment to body b at its body-frame
// point pb; db is b's body-frame cable axis (pointing away from the cable,
// the direction the cable would continue in). See AttachStart.
func (c *Cable) AttachEnd(b *multibody.Body, pb, db geom.Vec3, full bool) *Joint {
	last := c.Segments[len(c.Segments)-1]
	end := geom.Vec3{X: c.SegmentLength / 2}
	var j *Joint
	if full {
		j = NewJoint(last, end, axis, b, pb, db, c.opt.Twist)
	} else {
		j = NewBallJoint(last, end, b, pb)
	}
	c.stiffen(j, c.SegmentLength/2)
	c.Joints = append(c.Joints, j)
	return j
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
