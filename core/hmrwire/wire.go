package hmrwire

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Kind says what a wire node is.
type Kind int8

const (
	// MassNode is a particle of the wire carrying the wire's mass; the
	// wire's ends are mass nodes, locked to a body or free.
	MassNode Kind = iota
	// EyeNode is a massless node fixed on a body (a fairlead, a sheave's
	// pin) that the wire slides through like a bead on a thread.
	EyeNode
	// ContactNode is a massless node on an edge of a Geometry, inserted
	// where the wire meets it and removed when the wire leaves.
	ContactNode
)

// node is one node of a wire.
type node struct {
	kind Kind
	// body is a mass node's particle, or the body carrying the node.
	body *multibody.Body
	// local is an eye or contact node's point in its body's frame (m).
	local geom.Vec3
	// A contact node's geometry, edge and position along it (m from the
	// edge's start).
	geo  *Geometry
	edge int
	s    float64
	// rest is the rest length (m) of the segment that starts at this mass
	// node; zero at the last node.
	rest float64
	// lock holds an end mass node on a body, or is nil.
	lock *lock
	// tension (N) of the sub-segment from this node to the next, from the
	// last solve.
	tension float64
	// moment is the bending moment (N·m) at a mass node in the last solve
	// (see bend); unbent says the node's bend is left out, negligible
	// beside its tension (see bendNegligible); braced that its bend has
	// braces (see braceRows, followBraces).
	moment         float64
	unbent, braced bool
	// ground keeps a free mass node above the wire's ground, or is nil.
	ground *contact.Contact
	// touches keep a free end out of the geometries it is near (touch.go).
	touches []*touch
	// On a wire that twists (see twist.go): twist is the twist (rad) of
	// the segment starting at a mass node, axis the node's axis of roll
	// in this step (world, unit).
	twist float64
	axis  geom.Vec3
	// The first node of a run of frictional contact nodes holds the rest
	// length of wire (m) from its segment's first node (the material
	// point held while the wire sticks), the bound of the run's stick
	// row's impulse in the last solve (N·s) and whether the row reached
	// it (the wire slid).
	sigma   float64
	bound   float64
	sliding bool
	// moves counts a contact node's moves along its edge in the contact
	// update (follow, placeRun), and followed is its mark of the last
	// sweep that evaluated it: a node whose own and neighbours' counts
	// have not changed since would come out where it is.
	moves    uint32
	followed followMark
	// placed is an eye or contact node's position as Wire.place last
	// worked it out, in the still window placedIn after placedMoves
	// moves.
	placed      geom.Vec3
	placedIn    uint64
	placedMoves uint32
	// passed marks the tests of the contact update's passes that found
	// nothing to change at the node (see passMarks).
	passed passMarks
}

// passMarks records the tests of a contact update (Wire.updates) that
// found nothing to change at a node, with the neighbours they saw. No
// node moves between the update's passes (no body moves, and only follow
// moves contact nodes along their edges, before them), so the same test
// in a later pass of that update, with the same neighbours, would find
// the same: a pass after one that inserted or removed a node tests only
// the pieces around it (a wire running over a sheave leaves an edge and
// takes the next in most steps, and the second pass tested every piece
// against every geometry again).
type passMarks struct {
	// pieceIn is the update in which insert found that the piece from
	// the node to pieceTo needs no contact node.
	pieceIn uint64
	pieceTo *node
	// keptIn is the update in which detach kept the contact node between
	// keptPrev and keptNext.
	keptIn             uint64
	keptPrev, keptNext *node
	// outsideIn is the update in which swallowed found the mass node
	// inside no geometry.
	outsideIn uint64
}

// place returns node n's position now (node.position). Within a step's
// still window (System.still: from the contact update to the world's
// step, where no body a node rides on moves), an eye or contact node's
// position is worked out once, and again only after it moved along its
// edge: the contact update, the resolution and the sheaves' measures ask
// for each some ten times.
func (w *Wire) place(n *node) geom.Vec3 {
	if n.kind == MassNode {
		return n.body.Pos
	}
	if in := w.sys.still; in != 0 {
		if n.placedIn != in || n.placedMoves != n.moves {
			n.placed, n.placedIn, n.placedMoves = n.body.PointWorld(n.local), in, n.moves
		}
		return n.placed
	}
	return n.body.PointWorld(n.local)
}

// followMark is what a contact node's place in a sweep depends on: the
// update, and its own and its neighbours' moves.
type followMark struct {
	update           uint64
	self, prev, next uint32
}

// position returns the node's world position now.
func (n *node) position() geom.Vec3 {
	if n.kind == MassNode {
		return n.body.Pos
	}
	return n.body.PointWorld(n.local)
}

// defaultMaxMassNodes is the least bound on a wire's mass nodes when its
// Resolution gives none (four times those it is laid with otherwise).
const defaultMaxMassNodes = 64

// Resolution bounds the adaptive resolution ([SLNB11] §II-D).
type Resolution struct {
	// Adaptive turns coarsening and refinement on; off, the wire keeps its
	// mass nodes (the paper's multibody chain, MBC), merging only those
	// that a geometry swallows.
	Adaptive bool
	// MaxMassNodes bounds the mass nodes (ends included); 0 is four times
	// those the wire is laid with, at least defaultMaxMassNodes.
	MaxMassNodes int
	// MinSegment is the shortest rest length (m) refinement makes.
	MinSegment float64
}

// Wire is one HMR wire: a chain of nodes from one end to the other.
type Wire struct {
	Name string
	// Rope is the wire's rope as AddWire took it (read only: ea (N) and
	// mu (kg/m), its axial stiffness and mass per length, which every
	// step reads, are taken from it there).
	Rope   material.Rope
	ea, mu float64
	// ei is the rope's bending stiffness (N·m²), zero for a flexible rope
	// (material.Rope.Bending).
	ei float64
	// clampFirst and clampLast are the wire's directions at its clamped
	// ends in their bodies' frames (see RoutePoint.Clamped), or nil.
	clampFirst, clampLast *geom.Vec3
	// allBends keeps every bend however negligible (a test's reference;
	// see bendNegligible).
	allBends bool
	// ground, if set, is the plane the wire's free mass nodes rest on
	// (WireSpec.Ground); grounds lists their contacts in the world.
	ground  *contact.Ground
	grounds []*contact.Contact
	// touches lists the contacts of its free ends with geometries in the
	// world (see touch).
	touches []*touch
	// twist says the wire carries twist (WireSpec.Twist), of torsional
	// rigidity gj (N·m²); swivelFirst and swivelLast say its ends turn
	// freely about it (RoutePoint.Swivel).
	twist                   bool
	gj                      float64
	swivelFirst, swivelLast bool
	Resolution              Resolution
	// Winch, if set, pays the wire out of its first end.
	Winch *Winch

	sys   *System
	nodes []*node
	// segs and locks are the constraints in the world, rebuilt when the
	// nodes change (changed).
	segs    []*segment
	locks   []*lock
	changed bool
	// updates counts the contact updates (see followMark, passMarks).
	updates uint64
	// spare holds segments rebuilds took out of the world, at most as
	// many as are in use, whose storage newSegment makes the next ones
	// in; old is rebuild's set of the constraints it takes out.
	spare []*segment
	old   map[multibody.Constraint]bool
	// known says whether the nodes' tensions are known: from a solve, or
	// the initial tension the wire was laid with, if any (the resolution
	// adapts to it before the first step, so a wire laid finely under a
	// heavy load does not take one unstable step).
	known bool
	// candidates is wrapNode's buffer, unrolled placeRun's, rests hold's.
	candidates      []candidate
	unrolled, rests []float64
	// Transitions counts coarsenings and refinements, and the contact
	// nodes released as mass nodes.
	Coarsened, Refined, Released int
}

// RouteKind says what a route point makes.
type RouteKind int8

const (
	// End is a wire end: a mass node locked to Body at Point, or free if
	// Body is nil. A route starts and ends with one.
	End RouteKind = iota
	// Via is a free mass node at Point.
	Via
	// Eye is an eye node on Body at Point.
	Eye
	// Wrap is a contact node on Geometry's edge nearest to Point.
	Wrap
)

// RoutePoint is a point of a wire's initial route, in world coordinates.
type RoutePoint struct {
	Kind     RouteKind
	Point    geom.Vec3
	Body     *multibody.Body
	Geometry *Geometry
	// Swivel lets a wire that twists turn freely about itself at an End
	// on a body (a swivel hook); otherwise a locked end holds its twist.
	Swivel bool
	// Clamped holds an End on a body against turning as well: the wire
	// leaves the body along the route's first (or last) leg as laid, and
	// bends away from it with the rope's bending stiffness. Unclamped, an
	// end is a pin.
	Clamped bool
}

// ErrWire reports an invalid wire.
var ErrWire = errors.New("invalid wire")

// WireSpec describes a wire to add.
type WireSpec struct {
	Name       string
	Rope       material.Rope
	Resolution Resolution
	Route      []RoutePoint
	// Spacing is the largest distance (m) between the mass nodes laid
	// along straight runs between route points; 0 puts mass nodes only
	// at the route's End and Via points.
	Spacing float64
	// Winch, if set, pays the wire out of (or hauls it in at) its first
	// end, which must be on a body: the winch point.
	Winch *Winch
	// Tension is the wire's initial tension (N): its rest length is the
	// route's length shortened by the strain T/EA. A wire laid over
	// geometry with friction keeps whatever tension it was laid with
	// where it sticks.
	Tension float64
	// Twist makes the wire carry twist: its sections roll about it with
	// the rope's torsional rigidity GJ (material.Rope.TorsionalRigidity)
	// and torque k·d·T (material.Rope.Torque); see twist.go.
	Twist bool
	// Ground, if set, is a ground the wire lies on: every free mass node
	// keeps its radius (half the rope's diameter) above it, with the
	// ground's friction (contact.Contact: a normal row that only pushes,
	// Coulomb's bounds on two tangential rows). Between mass nodes the wire
	// is straight, or runs over geometry, above the plane wherever its
	// nodes are.
	Ground *contact.Ground
	// TensionRise (N/m) and TensionHeight (m) lay a hanging wire in its
	// static equilibrium, its tension rising with height by its weight
	// per length: the tension at height z (world) is Tension +
	// TensionRise·(z − TensionHeight), at least 0 (ρg for a wire of ρ
	// kg/m under gravity g along −z, in any shape: a catenary's tension
	// less its weight above a level is the same everywhere). Zero lays
	// the wire at one tension.
	TensionRise, TensionHeight float64
}

// maxLaidMassNodes bounds the mass nodes a wire is laid with: a route
// of 100,000 spacings is a mistake (a point off by orders of magnitude),
// and laying it would take minutes and gigabytes before any error could
// tell. Below, a wire laid with more nodes than its resolution's bound
// coarsens to it.
const maxLaidMassNodes = 100000

// checkLaid refuses a route whose spacing lays more than maxLaidMassNodes
// mass nodes.
func checkLaid(name string, route []RoutePoint, spacing float64) error {
	if spacing <= 0 {
		return nil
	}
	bound := maxLaidMassNodes
	laid, length := 0.0, 0.0
	for i, rp := range route {
		if rp.Kind == End || rp.Kind == Via {
			laid++
		}
		if i > 0 {
			l := rp.Point.Sub(route[i-1].Point).Norm()
			length += l
			laid += max(math.Ceil(l/spacing)-1, 0) // as AddWire lays them
		}
	}
	if laid > float64(bound) { // a non-finite point is refused where it is laid
		return fmt.Errorf("wire %q: %.4g m of route at %g m spacing lays %.4g mass nodes, more than %d (check the route's points, or raise the spacing): %w",
			name, length, spacing, laid, bound, ErrWire)
	}
	return nil
}

// AddWire adds the wire of spec. The wire's mass is spread over its mass
// nodes, each carrying half the rest length of its segments.
func (sys *System) AddWire(spec WireSpec) (*Wire, error) {
	name, rope, res, route, spacing := spec.Name, spec.Rope, spec.Resolution, spec.Route, spec.Spacing
	if !(spec.Tension >= 0) || math.IsInf(spec.Tension, 0) {
		return nil, fmt.Errorf("wire %q: initial tension %g N must be finite and not negative: %w", name, spec.Tension, ErrWire)
	}
	if math.IsNaN(spec.TensionRise) || math.IsInf(spec.TensionRise, 0) || math.IsNaN(spec.TensionHeight) || math.IsInf(spec.TensionHeight, 0) {
		return nil, fmt.Errorf("wire %q: tension rise %g N/m from height %g m must be finite: %w", name, spec.TensionRise, spec.TensionHeight, ErrWire)
	}
	// tension is the laid tension (N) of the piece from a to b: at its
	// middle's height.
	tension := func(a, b geom.Vec3) float64 {
		return max(spec.Tension+spec.TensionRise*((a.Z+b.Z)/2-spec.TensionHeight), 0)
	}
	if err := rope.Validate(); err != nil {
		return nil, fmt.Errorf("wire %q: %w: %w", name, err, ErrWire)
	}
	if mu := rope.LinearDensity(); !(mu > 0) || math.IsInf(mu, 0) {
		return nil, fmt.Errorf("wire %q: mass per length %g kg/m must be positive and finite (the mass nodes need mass): %w", name, mu, ErrWire)
	}
	if len(route) < 2 || route[0].Kind != End || route[len(route)-1].Kind != End {
		return nil, fmt.Errorf("wire %q: a route starts and ends with an End and has at least two points: %w", name, ErrWire)
	}
	w := &Wire{Name: name, Rope: rope, ea: rope.AxialStiffness(), mu: rope.LinearDensity(), ei: rope.Bending(), Resolution: res, sys: sys, changed: true, known: spec.Tension > 0}
	if err := w.clamps(route, spec.Winch != nil); err != nil {
		return nil, err
	}
	if spec.Twist {
		w.twist, w.gj = true, rope.TorsionalRigidity()
	}
	for i, rp := range route {
		switch {
		case !rp.Swivel:
		case rp.Kind != End || rp.Body == nil || !spec.Twist:
			return nil, fmt.Errorf("wire %q: route point %d: only an End on a body of a wire that twists can be a swivel: %w", name, i, ErrWire)
		case i == 0:
			w.swivelFirst = true
		default:
			w.swivelLast = true
		}
	}
	if g := spec.Ground; g != nil {
		if !(g.Friction >= 0) || math.IsInf(g.Friction, 0) || math.IsNaN(g.Height) || math.IsInf(g.Height, 0) {
			return nil, fmt.Errorf("wire %q: ground height %g m and friction %g must be finite, friction not negative: %w", name, g.Height, g.Friction, ErrWire)
		}
		w.ground = g
	}
	if spec.Winch != nil {
		if route[0].Body == nil {
			return nil, fmt.Errorf("wire %q: a winch needs the wire's first end on a body: %w", name, ErrWire)
		}
		if err := spec.Winch.validate(); err != nil {
			return nil, fmt.Errorf("wire %q: %w: %w", name, err, ErrWire)
		}
		wi := *spec.Winch
		w.Winch = &wi
		if d := wi.Drum; d != nil && route[0].Body != d.axle {
			return nil, fmt.Errorf("wire %q: paid out from drum %q, its first end must be on the drum's axle body %q: %w", name, d.Name, d.axle.Name, ErrWire)
		}
	}

	if err := checkLaid(name, route, spacing); err != nil {
		return nil, err
	}
	var prev geom.Vec3
	// The straight piece laid from the last route point (its body) to
	// this one: a wire cannot start through a geometry.
	var from geom.Vec3
	var fromBody *multibody.Body
	for i, rp := range route {
		if !rp.Point.IsFinite() {
			return nil, fmt.Errorf("wire %q: route point %d is not finite: %w", name, i, ErrWire)
		}
		// A wrap point's contact node on the geometry's edge nearest to
		// it: the straight run ends there, not at the point given (a
		// point 0.1 m above the beam's edge laid the run past the edge
		// and through the beam).
		var wrap *node
		to := rp.Point
		if rp.Kind == Wrap && rp.Geometry != nil {
			wrap = rp.Geometry.nearestEdgeNode(rp.Point)
			to = wrap.position()
		}
		if i > 0 && spacing > 0 {
			// Mass nodes along the straight run from the last point.
			d, l := to.Sub(prev).Unit()
			for k, n := 1, int(math.Ceil(l/spacing)); k < n; k++ {
				w.nodes = append(w.nodes, w.newMass(prev.AddScaled(l*float64(k)/float64(n), d)))
			}
		}
		prev = rp.Point
		if rp.Kind != Wrap {
			if g := sys.swallowing(rp.Point, rp.Body); g != nil {
				return nil, fmt.Errorf("wire %q: route point %d %v m lies inside geometry %q: %w", name, i, rp.Point, g.Name, ErrWire)
			}
		}
		switch rp.Kind {
		case End:
			if i != 0 && i != len(route)-1 {
				return nil, fmt.Errorf("wire %q: route point %d: an End must be first or last: %w", name, i, ErrWire)
			}
			n := w.newMass(rp.Point)
			if rp.Body != nil {
				n.lock = &lock{particle: n.body, body: rp.Body, local: rp.Body.Rot.Conj().Rotate(rp.Point.Sub(rp.Body.Pos))}
			}
			w.nodes = append(w.nodes, n)
		case Via:
			w.nodes = append(w.nodes, w.newMass(rp.Point))
		case Eye:
			if rp.Body == nil {
				return nil, fmt.Errorf("wire %q: eye at route point %d needs a body: %w", name, i, ErrWire)
			}
			w.nodes = append(w.nodes, &node{kind: EyeNode, body: rp.Body, local: rp.Body.Rot.Conj().Rotate(rp.Point.Sub(rp.Body.Pos))})
		case Wrap:
			if rp.Geometry == nil {
				return nil, fmt.Errorf("wire %q: wrap at route point %d needs a geometry: %w", name, i, ErrWire)
			}
			w.nodes = append(w.nodes, wrap)
			prev = to
		default:
			return nil, fmt.Errorf("wire %q: route point %d has unknown kind %d: %w", name, i, rp.Kind, ErrWire)
		}
		if i > 0 {
			if g := sys.cutting(from, prev, fromBody, rp.Body); g != nil {
				return nil, fmt.Errorf("wire %q: the straight piece from route point %d %v m to route point %d %v m passes through geometry %q: route the wire around it (wrap points on its edges): %w",
					name, i-1, from, i, prev, g.Name, ErrWire)
			}
		}
		from, fromBody = prev, rp.Body
	}
	// Rest lengths: the route's length between mass nodes; masses: half
	// of each adjacent segment.
	first := 0
	for i := 1; i < len(w.nodes); i++ {
		if w.nodes[i].kind != MassNode {
			continue
		}
		L, length := 0.0, 0.0
		for k := first; k < i; k++ {
			a, b := w.nodes[k].position(), w.nodes[k+1].position()
			l := b.Sub(a).Norm()
			length += l
			L += l / (1 + tension(a, b)/rope.AxialStiffness())
		}
		if !(length > 0) {
			return nil, fmt.Errorf("wire %q: two mass nodes at one point: %w", name, ErrWire)
		}
		w.nodes[first].rest = L
		half := rope.LinearDensity() * L / 2
		w.nodes[first].body.Mass += half
		w.nodes[i].body.Mass += half
		first = i
	}
	if w.Resolution.MaxMassNodes <= 0 {
		// A slack wire refines every step; unbounded, it doubles its
		// nodes each step until MinSegment stops it.
		mass, _, _ := w.Counts()
		w.Resolution.MaxMassNodes = max(4*mass, defaultMaxMassNodes)
	}
	if d := spec.Winch; d != nil && d.Drum != nil {
		if err := d.Drum.attach(w, w.nodes[0].position(), w.nodes[1].position()); err != nil {
			return nil, fmt.Errorf("wire %q: %w: %w", name, err, ErrWire)
		}
	}
	for i, n := range w.nodes {
		// The sub-segment's tension until the first solve.
		n.tension = tension(n.position(), w.nodes[min(i+1, len(w.nodes)-1)].position())
		if n.kind == MassNode {
			sys.World.AddBody(n.body)
		} else if n.kind == ContactNode {
			w.hold(i, false)
		}
	}
	sys.Wires = append(sys.Wires, w)
	return w, nil
}

// clamps records the directions of the route's clamped ends in their
// bodies' frames: along the first leg at the first end, onward along the
// last leg at the last.
func (w *Wire) clamps(route []RoutePoint, winch bool) error {
	for i, rp := range route {
		if !rp.Clamped {
			continue
		}
		switch {
		case rp.Kind != End || rp.Body == nil:
			return fmt.Errorf("wire %q: route point %d: only an End on a body can be clamped: %w", w.Name, i, ErrWire)
		case i == 0 && winch:
			return fmt.Errorf("wire %q: the winch's end cannot be clamped: %w", w.Name, ErrWire)
		}
		from, to := route[0].Point, route[1].Point
		if i > 0 {
			from, to = route[i-1].Point, route[i].Point
		}
		d, l := to.Sub(from).Unit()
		if !(l > 0) {
			return fmt.Errorf("wire %q: clamped end %d has no direction (its leg has no length): %w", w.Name, i, ErrWire)
		}
		local := rp.Body.Rot.Conj().Rotate(d)
		if i == 0 {
			w.clampFirst = &local
		} else {
			w.clampLast = &local
		}
	}
	return nil
}

// swallowing returns a geometry that p lies inside, other than those on
// body (an end or eye on a sheave's pin or inside a hook block's shape
// is where the wire leaves that body), or nil.
func (sys *System) swallowing(p geom.Vec3, body *multibody.Body) *Geometry {
	for _, g := range sys.Geometries {
		if (body == nil || g.Body != body) && g.Inside(p) {
			return g
		}
	}
	return nil
}

// cutting returns a geometry that the straight piece from a to b passes
// through (deeper than its surface tolerance), or nil. Not counted: a
// geometry on the body the piece ends on at a or b that holds that end
// inside it (the wire leaves that body there, see swallowing: an end on a
// sheave's pin or inside a hook block), and sheaves, whose flanges keep a
// wire leaving the groove at a fleet angle in it however the piece runs
// across the sheave's outline. An end on a geometry's body but outside
// the geometry exempts nothing (a dead end on a structure, whose piece
// ran through the structure's beam).
func (sys *System) cutting(a, b geom.Vec3, bodyA, bodyB *multibody.Body) *Geometry {
	for _, g := range sys.Geometries {
		switch {
		case g.sheave != nil:
		case bodyA != nil && g.Body == bodyA && g.Inside(a):
		case bodyB != nil && g.Body == bodyB && g.Inside(b):
		case g.Cuts(a, b):
			return g
		}
	}
	return nil
}

// massBefore returns the index of the last mass node before node i
// (i > 0: the wire's first node is a mass node).
func (w *Wire) massBefore(i int) int {
	for i--; w.nodes[i].kind != MassNode; i-- {
	}
	return i
}

// massAfter returns the index of the first mass node after node i
// (i < the last: the wire's last node is a mass node).
func (w *Wire) massAfter(i int) int {
	for i++; w.nodes[i].kind != MassNode; i++ {
	}
	return i
}

// newMass returns a mass node at p without mass; AddWire gives it its
// share.
func (w *Wire) newMass(p geom.Vec3) *node {
	return &node{kind: MassNode, body: multibody.NewParticle(w.Name, 0, p)}
}

// nearestEdgeNode returns a contact node on the edge of g nearest to p.
func (g *Geometry) nearestEdgeNode(p geom.Vec3) *node {
	best, bestD := 0, math.Inf(1)
	var bestS float64
	for e := range g.Shape.edges {
		start, dir, length := g.edgeLine(e)
		s := min(max(p.Sub(start).Dot(dir), 0), length)
		if d := start.AddScaled(s, dir).Sub(p).Norm(); d < bestD {
			best, bestD, bestS = e, d, s
		}
	}
	return g.contactAt(best, bestS)
}

// contactAt returns a contact node at s (m) along edge e.
func (g *Geometry) contactAt(e int, s float64) *node {
	start, dir, _ := g.edgeLine(e)
	return &node{kind: ContactNode, body: g.Body, geo: g, edge: e, s: s, local: g.local(start.AddScaled(s, dir))}
}

// rebuild replaces the wire's constraints in the world after its nodes
// changed: the locks of its ends, then each segment.
func (w *Wire) rebuild() {
	if w.old == nil {
		w.old = make(map[multibody.Constraint]bool, len(w.segs)+len(w.locks))
	}
	old := w.old
	for _, s := range w.segs {
		old[s] = true
	}
	for _, l := range w.locks {
		old[l] = true
	}
	for _, c := range w.grounds {
		old[c] = true
	}
	for _, c := range w.touches {
		old[c] = true
	}
	w.sys.World.Remove(nil, func(c multibody.Constraint) bool { return old[c] })
	clear(old)
	for _, s := range w.segs {
		s.retire()
	}
	w.spare = append(w.spare, w.segs...) // for newSegment
	w.segs, w.locks, w.grounds, w.touches = w.segs[:0], w.locks[:0], w.grounds[:0], w.touches[:0]
	for _, n := range w.nodes {
		if n.lock != nil {
			w.locks = append(w.locks, n.lock)
			w.sys.World.AddConstraint(n.lock)
		}
	}
	for i, n := range w.nodes {
		if n.kind == MassNode && i < len(w.nodes)-1 {
			s := newSegment(w, i)
			w.segs = append(w.segs, s)
			w.sys.World.AddConstraint(s)
		}
	}
	for _, n := range w.nodes {
		if n.ground != nil {
			w.grounds = append(w.grounds, n.ground)
			w.sys.World.AddConstraint(n.ground)
		}
	}
	for _, n := range w.nodes {
		for _, t := range n.touches {
			w.touches = append(w.touches, t)
			w.sys.World.AddConstraint(t)
		}
	}
	// Spares beyond the segments in use go: a wire that refined and
	// coarsened again keeps no more than it has.
	if n := len(w.segs); len(w.spare) > n {
		clear(w.spare[n:])
		w.spare = w.spare[:n]
	}
	w.changed = false
}

// Free mass nodes carry a contact with the wire's ground while near it:
// from groundNear above it (plus twice what the node falls in a step), to
// groundFar, where it is dropped. Contacts far from the ground would be
// rows of every step (three per node, a sixth more on the example crane's
// taut step); the band between the two keeps a node hovering at the bound
// from rebuilding the rows every step, and the contact's own margin
// (contact.Contact) switches its rows on before the node reaches the
// ground.
const (
	groundNear = 1.0 // m
	groundFar  = 2.0 // m
)

// followGround gives the wire's free mass nodes that came near the ground
// their contacts and takes them from those that went far (see
// groundNear), for steps of h seconds. It reports whether any changed:
// the rows must be rebuilt.
func (w *Wire) followGround(h float64) bool {
	if w.ground == nil {
		return false
	}
	changed := false
	for _, n := range w.nodes {
		if n.kind != MassNode || n.lock != nil {
			continue
		}
		gap := n.body.Pos.Z - w.ground.Height
		switch {
		case n.ground == nil && gap < groundNear+2*max(-n.body.Vel.Z, 0)*h:
			n.ground, changed = w.groundContact(n), true
		case n.ground != nil && gap > groundFar:
			n.ground, changed = nil, true
		}
	}
	return changed
}

// groundContact returns the contact of mass node n with the wire's
// ground.
// Its friction creeps (contact.Contact.Creep): a wire lying on the ground
// held by bounded friction at its nodes made the active set cycle. Its
// normal row closes the gap implicitly (contact.Contact.Gap): a light
// node landing fast went centimetres into the ground under SPOOK's
// stabilization (TestWireThrownAtTheGround).
func (w *Wire) groundContact(n *node) *contact.Contact {
	c := contact.New(w.ground, contact.Point{Body: n.body, Radius: w.Rope.Diameter / 2})
	c.Creep, c.Gap = true, true
	return c
}

// GroundForce returns the ground's normal force on the wire in the last
// step (N).
func (w *Wire) GroundForce(h float64) float64 {
	f := 0.0
	for _, c := range w.grounds {
		f += c.Force(h)
	}
	return f
}

// Mass returns the wire's mass (kg): the sum of its mass nodes'.
func (w *Wire) Mass() float64 {
	m := 0.0
	for _, n := range w.nodes {
		if n.kind == MassNode {
			m += n.body.Mass
		}
	}
	return m
}

// Momentum returns the wire's linear momentum (kg·m/s).
func (w *Wire) Momentum() geom.Vec3 {
	var p geom.Vec3
	for _, n := range w.nodes {
		if n.kind == MassNode {
			p = p.AddScaled(n.body.Mass, n.body.Vel)
		}
	}
	return p
}

// KineticEnergy returns the wire's kinetic energy (J).
func (w *Wire) KineticEnergy() float64 {
	e := 0.0
	for _, n := range w.nodes {
		if n.kind == MassNode {
			e += n.body.KineticEnergy()
		}
	}
	return e
}

// RestLength returns the wire's rest length (m).
func (w *Wire) RestLength() float64 {
	l := 0.0
	for _, n := range w.nodes {
		l += n.rest
	}
	return l
}

// Length returns the wire's length now (m).
func (w *Wire) Length() float64 {
	l := 0.0
	for i := 1; i < len(w.nodes); i++ {
		l += w.nodes[i].position().Sub(w.nodes[i-1].position()).Norm()
	}
	return l
}

// Counts returns the numbers of mass, eye and contact nodes.
func (w *Wire) Counts() (mass, eye, contact int) {
	for _, n := range w.nodes {
		switch n.kind {
		case MassNode:
			mass++
		case EyeNode:
			eye++
		default:
			contact++
		}
	}
	return mass, eye, contact
}

// Points returns the world positions of the wire's nodes, end to end.
func (w *Wire) Points() []geom.Vec3 {
	p := make([]geom.Vec3, len(w.nodes))
	for i, n := range w.nodes {
		p[i] = n.position()
	}
	return p
}

// Ends returns the particles of the wire's two ends.
func (w *Wire) Ends() (first, last *multibody.Body) {
	return w.nodes[0].body, w.nodes[len(w.nodes)-1].body
}

// FirstTension is the tension of the wire's first segment in the last
// step (N): where a winch pays it out.
func (w *Wire) FirstTension() float64 { return w.nodes[0].tension }

// Tensions returns the tension (N) of each sub-segment of the last step,
// from the first node to the last.
func (w *Wire) Tensions() []float64 {
	t := make([]float64, len(w.nodes)-1)
	for i := range t {
		t[i] = w.nodes[i].tension
	}
	return t
}

// Contact is a contact node as the last step left it.
type Contact struct {
	Geometry *Geometry
	Point    geom.Vec3 // world, m
	// Force is the wire's pull on the geometry at the node (N).
	Force geom.Vec3
	// Sliding says whether the wire slid through the node at its
	// friction bound in the last step.
	Sliding bool
}

// Contacts returns the wire's contact nodes from its first end to its
// last.
func (w *Wire) Contacts() []Contact {
	var cs []Contact
	for i, n := range w.nodes {
		if n.kind != ContactNode {
			continue
		}
		p := n.position()
		a, _ := w.nodes[i-1].position().Sub(p).Unit()
		b, _ := w.nodes[i+1].position().Sub(p).Unit()
		f := a.Scale(w.nodes[i-1].tension).AddScaled(n.tension, b)
		cs = append(cs, Contact{Geometry: n.geo, Point: p, Force: f, Sliding: n.sliding})
	}
	return cs
}

// ContactForce returns the force (N) the wire exerted on geometry g in
// the last step, summed over its contact nodes.
func (w *Wire) ContactForce(g *Geometry) geom.Vec3 {
	var f geom.Vec3
	for _, c := range w.Contacts() {
		if c.Geometry == g {
			f = f.Add(c.Force)
		}
	}
	return f
}

// Sample returns k ≥ 2 points of the wire at equal rest arc length from
// its first end to its last (world, m), whatever its resolution: within
// a segment the rest length maps to the route through its eye and
// contact nodes in proportion to length (the segment's strain is
// uniform).
func (w *Wire) Sample(k int) []geom.Vec3 {
	out := make([]geom.Vec3, 0, k)
	total := w.RestLength()
	first, from := 0, 0.0 // the segment's first node and rest arc there
	for q := 0; q < k; q++ {
		s := total * float64(q) / float64(k-1)
		// On to the segment holding s; the last one holds the rest.
		for {
			last := w.massAfter(first)
			if last == len(w.nodes)-1 || s <= from+w.nodes[first].rest {
				break
			}
			from += w.nodes[first].rest
			first = last
		}
		out = append(out, w.pointIn(first, (s-from)/w.nodes[first].rest))
	}
	return out
}

// pointIn returns the point at fraction t (0…1) of the length of the
// segment starting at mass node first.
func (w *Wire) pointIn(first int, t float64) geom.Vec3 {
	last := w.massAfter(first)
	total := 0.0
	for k := first; k < last; k++ {
		total += w.nodes[k+1].position().Sub(w.nodes[k].position()).Norm()
	}
	want := min(max(t, 0), 1) * total
	for k := first; k < last; k++ {
		a, b := w.nodes[k].position(), w.nodes[k+1].position()
		if l := b.Sub(a).Norm(); want <= l || k == last-1 {
			if l == 0 {
				return a
			}
			return a.AddScaled(min(want/l, 1), b.Sub(a))
		}
		want -= b.Sub(a).Norm()
	}
	return w.nodes[last].position()
}
