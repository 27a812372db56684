package rigidcable

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/rigidcable"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
)

// rope implements hoist.Cable, hoist.Eventer and
// hoist.Bodies on a world of the suspension point, the cable's segments
// and the load, with the ground's contacts.
type rope struct {
	world *multibody.World
	hoist *multibody.Body
	load  *multibody.Body
	cable *rigidcable.Cable
	// grounds are the ground's contacts: the load's corners, then the
	// rope's segment ends (the first segment's start, then every
	// segment's end), also as corners and ends.
	grounds, corners, ends []*contact.Contact
	// onLoad keeps the segments but those at the socket (socketZone) out
	// of the load's box.
	onLoad []*contact.BoxContact
	// placed is the segment length the contacts were last placed for
	// (placeContacts): they move only when the winch changes it.
	placed   float64
	grounded bool
	// stopped says the slack-rope stop held in the last step (feed), and
	// stopNoted the same as its events last reported it.
	stopped, stopNoted bool
	// nodes caches the segment ends' positions for the node outputs
	// (Nodes) and the sketch (Node); valid until the state changes.
	// Coordinates in a row: x, y, z of end 0, then of end 1, …
	nodes      []float64
	nodesValid bool
	// tension is the tension at the sheave over the last step (N): the
	// mean of its substeps' (Step).
	tension float64
	// groundZ is the ground's height (m), reach the farthest the load's
	// corners lie from its centre (m) and startDepth how deep its
	// deepest corner lay in the ground as built (m), for sunk.
	groundZ, reach, startDepth float64
}

// sinkLimit is how much deeper (m) than it was built a corner of the
// load may lie in the ground before a step fails: a load so light beside
// the rope's segments that its ground contacts do not hold it against the
// rope's push (1 g under the example's 1.23 kg segments sank 2.7 m while
// every step solved) is stopped saying so. Loads of 10 kg and more stay
// within 2 mm, 0.01 to 1 kg within 6 cm. A load started on the ground is
// built lower by the rope's static stretch (up to 23 cm under 60 m of the
// example's rope) and pushed out in its first steps: that depth is
// allowed on top.
const sinkLimit = 0.1

// deepestCorner returns how deep (m) the load's deepest corner lies in
// the ground, 0 where none does.
func (r *rope) deepestCorner() float64 {
	deepest := 0.0
	for _, c := range r.corners {
		deepest = max(deepest, -c.Clearance())
	}
	return deepest
}

// sunk returns an error if a corner of the load lies more than sinkLimit
// deeper in the ground than the load was built.
func (r *rope) sunk() error {
	limit := sinkLimit + r.startDepth
	if len(r.corners) == 0 || r.load.Pos.Z-r.reach > r.groundZ-limit {
		return nil // no corner can be that deep: most steps
	}
	depth := r.deepestCorner()
	if depth <= limit {
		return nil
	}
	msg := fmt.Sprintf("the load sank %.3g m into the ground: its corners' contacts do not hold it against the rope", depth)
	if seg := r.cable.Segments[0].Mass; r.load.Mass < 10*seg {
		msg += fmt.Sprintf(" (a load of %.3g kg beside the rope's segments of %.3g kg: give the mass of the hook and what hangs on it)", r.load.Mass, seg)
	}
	return errors.New(msg)
}

// build is the Design's Build: the cable hangs straight down from the
// suspension point with the load at its end, prestretched into static
// equilibrium.
func (c *config) build(st *hoist.Start) (hoist.Cable, error) {
	p := &st.Params
	twist, err := c.Own.twist()
	if err != nil {
		return nil, err
	}
	hook, err := c.Own.hook()
	if err != nil {
		return nil, err
	}
	top := st.Top
	bottom := top.Sub(geom.V(0, 0, p.Length0))
	box := c.Load.Box()
	// As config checks the scenario's numbers, here with the parameters
	// and inputs the simulation starts from: below the ground, the
	// load's contacts would push it out through the cable in the first
	// steps, which ended the run as a diverged simulation (groundSlack).
	if g := c.Ground; g != nil && belowGround(top.Z, p.Length0, box[2], g.Height) {
		return nil, fmt.Errorf("the load starts below the ground: its bottom at z = %.4g m, more than %g m below it (suspension.z %g m − cable.length0 %g m − load height %g m), the ground at %g m", bottom.Z-box[2], groundSlack, top.Z, p.Length0, box[2], g.Height)
	}
	cable, err := rigidcable.NewStraight(top, bottom, rigidcable.Options{
		Rope: p.Rope, Segments: c.Cable.Elements(), Twist: twist,
	})
	if err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	r := &rope{cable: cable, world: multibody.NewWorld(geom.V(0, 0, -p.Gravity))}
	// A long rope's step is split between two processors where that is
	// the faster (the joints and contacts change only their own state and
	// rows, as Parallel asks).
	r.world.Parallel = multibody.ParallelMeasured
	r.hoist = r.world.AddBody(multibody.NewKinematic("suspension", top))
	r.hoist.Vel = st.Vel
	size := geom.V(box[0], box[1], box[2])
	r.load = r.world.AddBody(multibody.NewBody("load", p.LoadMass, multibody.BoxInertia(p.LoadMass, size.X, size.Y, size.Z), bottom.Sub(geom.V(0, 0, size.Z/2))))
	// The cable bends freely over the sheave and carries its torsion up to
	// it; at the load it is clamped or hangs from a swivel.
	cable.AttachStart(r.hoist, geom.Vec3{}, geom.V(0, 0, -1), rigidcable.Sheave)
	cable.AttachEnd(r.load, geom.V(0, 0, size.Z/2), geom.V(0, 0, -1), hook)
	cable.Prestretch(r.world.Gravity)
	r.tension = cable.Joints[0].Force()
	cable.AddTo(r.world)
	if g := c.Ground; g != nil {
		ground := &contact.Ground{Height: g.Height, Friction: g.Friction}
		// The load's corners (a load tipped over lies on its side), and
		// every segment's ends (the first's at the sheave too): a straight
		// segment whose ends are above the ground is above it all along.
		points := contact.BoxCorners(r.load, size)
		corners := len(points)
		r.groundZ, r.reach = g.Height, size.Scale(0.5).Norm()
		radius := p.Rope.Diameter / 2
		points = append(points, contact.Point{Body: cable.Segments[0], Radius: radius})
		for _, seg := range cable.Segments {
			points = append(points, contact.Point{Body: seg, Radius: radius})
		}
		var constraints []multibody.Constraint
		for k, pt := range points {
			ct := contact.New(ground, pt)
			// Contact rows are rigid: their relaxation is the stepper's,
			// two steps, not the rope's.
			ct.Damping = 2 * p.H
			// The rope's points close their gap implicitly (contact's
			// TestThrownRodLands: under SPOOK's stabilization a segment
			// thrown down at 22 m/s, a slack fall from a 45 m boom, went
			// up to 8 cm into the ground at 1/60 s); the load's corners
			// keep SPOOK's damping, with which its landing was settled.
			ct.Gap = k >= corners
			constraints = append(constraints, ct)
			r.grounds = append(r.grounds, ct)
		}
		r.corners, r.ends = r.grounds[:corners:corners], r.grounds[corners:]
		// The slack rope lies on the load as on the ground: the segments
		// stay out of the load's box (with the ground's friction), but
		// for the rope at its socket, which touches the load where the
		// load holds it: the last segment and those within socketZone
		// rope diameters of the load (at the start's segment length).
		box := &contact.Box{Body: r.load, Half: size.Scale(0.5), Friction: g.Friction}
		held := max(1, int(math.Ceil(socketZone*p.Rope.Diameter/cable.SegmentLength)))
		for _, seg := range cable.Segments[:max(0, len(cable.Segments)-held)] {
			ct := contact.NewBoxContact(box, contact.Capsule{Body: seg, Radius: radius})
			ct.Damping = 2 * p.H
			constraints = append(constraints, ct)
			r.onLoad = append(r.onLoad, ct)
		}
		r.placeContacts()
		r.startDepth = r.deepestCorner()
		// The cable's joints are one group (direct chain solve), the
		// load's corners another (dense with their bounds: solved
		// apart, the redundant corners of one body converged so slowly
		// that a load set down slid on at the 0.6 mm/s its landing left
		// it, 20 sweeps a step), each of the rope's contacts a small group
		// of its own (3 rows).
		sizes := []int{len(cable.Joints), corners}
		for k, ct := range constraints {
			r.world.AddConstraint(ct)
			if k >= corners {
				sizes = append(sizes, 1)
			}
		}
		ends, segments := len(r.ends), len(cable.Segments)
		r.world.Solver = &multibody.GaussSeidel{
			Sizes:      sizes,
			Solvers:    []multibody.Solver{&multibody.ActiveSet{Solver: &multibody.Chain{}}},
			Iterations: c.Own.Iterations,
			// For the errors of a group's solve, in the order above.
			Name: func(i int) string {
				switch k := i - 2; {
				case i == 0:
					return "the cable's joints"
				case i == 1:
					return "the load's corners on the ground"
				case k == 0:
					return "the rope's top end on the ground"
				case k < ends:
					return fmt.Sprintf("segment %d of %d's lower end on the ground", k, segments)
				default:
					return fmt.Sprintf("segment %d of %d on the load", k-ends+1, segments)
				}
			},
		}
	} else {
		r.world.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	}
	r.world.FixMass(r.load)
	if err := r.world.Prime(p.H); err != nil {
		return nil, err
	}
	return r, nil
}

// socketZone is the length of rope at the load's socket, in rope
// diameters, that does not touch the load: a rope of fine segments held at
// the load's top touches it with the segments next to the socket, whose
// contacts would be active every step (and couple every Gauss–Seidel
// sweep to the load's) for a touch the socket makes anyway.
const socketZone = 4

func (r *rope) Top() *geom.Vec3            { return &r.hoist.Pos }
func (r *rope) Length() float64            { return r.cable.Length() }
func (r *rope) Force() geom.Vec3           { return r.hoist.ConstraintForce }
func (r *rope) Tension() float64           { return r.tension }
func (r *rope) Load() (pos, vel geom.Vec3) { return r.load.Pos, r.load.Vel }

// LoadTension implements hoist.Cable: the joint at the load.
func (r *rope) LoadTension() float64 { return r.cable.Joints[len(r.cable.Joints)-1].Force() }

// Bodies implements hoist.Bodies: the suspension point and the load.
func (r *rope) Bodies() []plant.Body {
	return []plant.Body{plant.RigidBody(r.hoist), plant.RigidBody(r.load)}
}

// ClearForces implements hoist.Bodies.
func (r *rope) ClearForces() { plant.ClearRigid([]*multibody.Body{r.load}) }

// Node implements hoist.Cable: coordinate c (m, world) of segment end k
// (0 = suspension point).
func (r *rope) Node(k, c int) float64 { return r.Nodes()[3*k+c] }

// Nodes implements hoist.NodeLister: the segment ends' coordinates.
func (r *rope) Nodes() []float64 {
	if !r.nodesValid {
		segs := r.cable.Segments
		r.nodes = r.nodes[:0]
		// Each segment's start, half its length back along its axis
		// (rigidcable.Axis, x), and the last one's end.
		half := r.cable.SegmentLength / 2
		for _, b := range segs {
			p := b.Pos.AddScaled(-half, b.Rot.XAxis())
			r.nodes = append(r.nodes, p.X, p.Y, p.Z)
		}
		last := segs[len(segs)-1]
		p := last.Pos.AddScaled(half, last.Rot.XAxis())
		r.nodes = append(r.nodes, p.X, p.Y, p.Z)
		r.nodesValid = true
	}
	return r.nodes
}

// Step implements hoist.Cable: the hoist moves at topVel, the winch
// changes the cable length at rate, and the world takes one step, in
// substeps where a segment turns faster than the step resolves
// (rigidcable.Cable.Substeps), the length paid out in equal shares. The
// forces on the suspension point and the load and the tension are then
// the means over the step, and the contacts bound the next step's friction
// by the step's impulses (multibody.World.Substeps).
func (r *rope) Step(h float64, topVel geom.Vec3, length, rate float64, _ *hoist.Drive) error {
	r.nodesValid = false
	r.hoist.Vel = topVel
	length, rate = r.feed(h, length, rate)
	n := r.cable.Substeps(h)
	start := r.cable.Length()
	tension := 0.0
	err := r.world.Substeps(h, n, func(k int, sub float64) error {
		target := length
		if k < n-1 {
			target = start + (length-start)*float64(k+1)/float64(n)
		}
		if err := r.cable.SetLength(target, rate); err != nil {
			return err
		}
		r.placeContacts()
		if err := r.world.Step(sub); err != nil {
			return err
		}
		tension += r.cable.Joints[0].Force()
		return r.cable.Runaway()
	})
	if errors.Is(err, multibody.ErrDiverged) {
		return fmt.Errorf("%w (check the inputs and the internal step internalStep)", err)
	}
	if err != nil {
		return err
	}
	if err := r.sunk(); err != nil {
		return err
	}
	r.tension = tension
	if n > 1 {
		r.tension = tension / float64(n)
	}
	return nil
}

// feed returns the cable's length (m) at the end of a step of h seconds
// and the rate (m/s) at which it changes: the winch's length and rate,
// paid out through the sheave (the cable's first joint), but for a
// slack-rope stop, as cranes have: a drum cannot push rope over a sheave,
// and rope that the rope below does not take (it stands on something, as
// rope paid out onto a load set down straight below a still sheave stands
// on it as a column, or the load falls slower than the winch pays out)
// slides up through the sheave beyond its slack store, where the sheave
// stops it with at most the rope's buckling load. Once it is stallBeyond
// of the store and a step's pay-out beyond it, the stop holds: the winch
// pays out no more (cable.length stays, and an event says so) until the
// rope is back within the store; hauling in is never stopped. (Fed on,
// the column slid on up through the sheave, buckled about the groove and
// was flung at 500 m/s within a second.)
func (r *rope) feed(h, length, rate float64) (float64, float64) {
	in, store := r.cable.Joints[0].SlidIn()
	if r.stopNoted {
		r.stopped = in > store
	} else {
		r.stopped = rate > 0 && in > store*(1+stallBeyond)+rate*h
	}
	if r.stopped && rate > 0 {
		return r.cable.Length(), 0
	}
	return length, rate
}

// stallBeyond is the share of the sheave's slack store the rope must slide
// beyond it, besides the step's pay-out, for the slack-rope stop (feed):
// rope fed into a pile keeps within the store but for the stretch under
// the sheave's push (15 µm for the default rope); without the step's
// pay-out, 100 segments' store (9 cm, a quarter of it 2.3 cm, less than a
// step's 5 cm at 3 m/s) stopped and released the winch 9 times a second.
const stallBeyond = 0.25

// placeContacts puts the segments' contacts at their ends for the
// segments' present length: the ground's at the first segment's start and
// every segment's end, the load's along each segment.
func (r *rope) placeContacts() {
	if len(r.ends) == 0 || r.cable.SegmentLength == r.placed {
		return // placed for this length already
	}
	r.placed = r.cable.SegmentLength
	end := geom.Vec3{X: r.cable.SegmentLength / 2}
	ends := r.ends
	ends[0].SetOffset(end.Scale(-1))
	for k := range r.cable.Segments {
		ends[k+1].SetOffset(end)
	}
	for _, ct := range r.onLoad {
		ct.SetEnds(end.Scale(-1), end)
	}
}

// NoteEvents implements hoist.Eventer: the load set down and lifted off.
func (r *rope) NoteEvents(ev *fmu.Events, h float64) {
	grounded := false
	for _, c := range r.corners {
		grounded = grounded || c.Force(h) > 0
	}
	if grounded != r.grounded {
		r.grounded = grounded
		if grounded {
			ev.Add("load set down on the ground")
		} else {
			ev.Add("load lifted off the ground")
		}
	}
	if r.stopped != r.stopNoted {
		r.stopNoted = r.stopped
		if r.stopped {
			ev.Add("slack-rope stop: the rope below the sheave takes no more than the winch pays out; the winch pays out no more")
		} else {
			ev.Add("slack-rope stop released: the rope is back within the sheave's store")
		}
	}
}

// State implements hoist.Cable: the world's state (the load's mass and
// inertia those of the parameters, multibody.World.FixMass), the grounded
// and stop flags, the last step's tension and the segments' length.
func (r *rope) State(c *state.Codec) {
	r.nodesValid = false
	r.world.State(c)
	c.Flag("grounded", &r.grounded)
	c.Flag("slack-rope stop", &r.stopNoted)
	c.Float("tension at the sheave", &r.tension)
	c.Positive("segment length", "m", &r.cable.SegmentLength)
}
