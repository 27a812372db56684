package hmrwire

import (
	"fmt"
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Geometry is a Shape fixed on a body (static, kinematic or dynamic) that
// wires touch through contact nodes on its edges.
type Geometry struct {
	Name  string
	Body  *multibody.Body
	Shape *Shape
	// Offset (m) and Rot place the shape's frame in the body's frame.
	Offset geom.Vec3
	Rot    geom.Quat
	// Friction is the Coulomb coefficient μ between wire and shape.
	Friction float64
	// axle is the body that carries a sheave's axle, for a sheave's shape
	// (its groove across the body's z axis, the axle), and sheave its
	// hinge; nil otherwise.
	axle   *multibody.Body
	sheave *hinge
	// beside are the sheaves side by side with a sheave on its axle
	// (flanking): a flange parts each groove from the next, so the wire in
	// this groove does not run onto theirs by clipping a corner
	// (Wire.flanged).
	beside []*Geometry

	// The shape in the world at the start of the step (refresh), and the
	// placement it was computed for. They are worked out when first used
	// (vert, planes): a sheave turns every step, and most steps use the
	// faces of none and a quarter of its corners.
	verts  []geom.Vec3
	vertOK []bool
	// bodyVerts are the corners in the body's frame, placed by the offset
	// and rotation of placed: the same from step to step.
	bodyVerts []geom.Vec3
	faces     []plane
	facesOK   bool
	// outside is the face Cuts last found a piece wholly outside of.
	outside int
	placed  placement
	tol     float64 // m: how far inside a point must be to count as inside
	// centre (world) and the shape's radius bound it by a sphere: most
	// pieces of wire and points pass far from a sheave, and the sphere
	// tells so without its faces. boxLo and boxHi are the corners of the
	// box around the sphere (centre ∓ radius).
	centre, boxLo, boxHi geom.Vec3
}

// placement is what puts a shape in the world: its body's pose and its
// place on the body.
type placement struct {
	pos, offset geom.Vec3
	rot, shape  geom.Quat
	// form is the shape placed: another (Geometry.Shape set anew) is
	// placed afresh.
	form *Shape
}

// surfaceTolerance is the depth (relative to a shape's size, and at
// least 1 µm) below which a point or a wire counts as on the surface,
// not inside: a wire lying on a face between two of its edges.
const surfaceTolerance = 1e-7

// NewGeometry returns the shape s on body b, its frame at offset with
// orientation rot in the body's frame.
func NewGeometry(name string, b *multibody.Body, s *Shape, offset geom.Vec3, rot geom.Quat, friction float64) (*Geometry, error) {
	if b == nil || s == nil {
		return nil, fmt.Errorf("geometry %q needs a body and a shape", name)
	}
	if !(friction >= 0) || math.IsInf(friction, 0) {
		return nil, fmt.Errorf("geometry %q: friction coefficient %g must be finite and not negative", name, friction)
	}
	if !offset.IsFinite() {
		return nil, fmt.Errorf("geometry %q: offset %v m must be finite", name, offset)
	}
	// A rotation is a unit quaternion; any nonzero finite one is scaled
	// to it, a zero one gives no rotation at all.
	if n := math.Sqrt(rot.W*rot.W + rot.X*rot.X + rot.Y*rot.Y + rot.Z*rot.Z); !(n > 1e-12) || math.IsInf(n, 0) {
		return nil, fmt.Errorf("geometry %q: rotation %v is not a rotation (its norm %g must be positive and finite)", name, rot, n)
	}
	g := &Geometry{Name: name, Body: b, Shape: s, Offset: offset, Rot: rot.Normalize(), Friction: friction}
	g.tol = max(surfaceTolerance*s.radius, 1e-6)
	g.refresh()
	return g, nil
}

// Vertices returns the shape's corners in the world, where its body is
// now (m).
func (g *Geometry) Vertices() []geom.Vec3 {
	g.refresh()
	out := make([]geom.Vec3, len(g.verts))
	for i := range out {
		out[i] = g.vert(i)
	}
	return out
}

// refresh places the shape where its body is now: its centre at once,
// its corners and faces when first used.
func (g *Geometry) refresh() {
	s := g.Shape
	now := placement{pos: g.Body.Pos, offset: g.Offset, rot: g.Body.Rot, shape: g.Rot, form: s}
	if len(g.verts) == len(s.verts) && now == g.placed {
		return // a body at rest: a drum's, a beam's (O(faces) each step)
	}
	kept := len(g.verts) == len(s.verts) && now.offset == g.placed.offset && now.shape == g.placed.shape && now.form == g.placed.form
	g.placed = now
	if len(g.verts) != len(s.verts) {
		g.verts, g.vertOK, g.faces = make([]geom.Vec3, len(s.verts)), make([]bool, len(s.verts)), make([]plane, len(s.faces))
		g.bodyVerts = make([]geom.Vec3, len(s.verts))
	}
	if !kept { // the shape moved on its body, or is new
		for i, v := range s.verts {
			g.bodyVerts[i] = now.offset.Add(now.shape.Rotate(v))
		}
	}
	clear(g.vertOK)
	g.facesOK = false
	g.centre = g.placed.world(g.placed.offset)
	c, r := g.centre, s.radius
	g.boxLo, g.boxHi = geom.V(c.X-r, c.Y-r, c.Z-r), geom.V(c.X+r, c.Y+r, c.Z+r)
}

// world returns the world point of the body-frame point d under the
// placement (Body.PointWorld at the body's pose then).
func (pl *placement) world(d geom.Vec3) geom.Vec3 { return pl.pos.Add(pl.rot.Rotate(d)) }

// vert returns the shape's corner i in the world at the last refresh.
func (g *Geometry) vert(i int) geom.Vec3 {
	if !g.vertOK[i] {
		g.placeVert(i)
	}
	return g.verts[i]
}

// placeVert works out corner i in the world for vert and edgeLine.
func (g *Geometry) placeVert(i int) {
	g.verts[i] = g.placed.world(g.bodyVerts[i])
	g.vertOK[i] = true
}

// planes returns the shape's faces in the world at the last refresh.
// (Small enough to be inlined where they are worked out already:
// placeFaces places them.)
func (g *Geometry) planes() []plane {
	if !g.facesOK {
		g.placeFaces()
	}
	return g.faces
}

// placeFaces works out the faces in the world for planes.
func (g *Geometry) placeFaces() {
	// x_w = R x + t moves the plane N·x = D to (R N)·x_w = D + (R N)·t.
	rot := g.placed.rot.Mul(g.placed.shape)
	for i, f := range g.Shape.faces {
		n := rot.Rotate(f.N)
		g.faces[i] = plane{N: n, D: f.D + n.Dot(g.centre)}
	}
	g.facesOK = true
}

// Inside reports whether the world point p lies inside the geometry by
// more than its surface tolerance.
func (g *Geometry) Inside(p geom.Vec3) bool {
	return g.nearby(p) && g.deeper(p, g.tol)
}

// nearby reports whether p lies within the bounding sphere (or is NaN):
// outside it, Inside's answer is false, the same as the faces' would be.
// Small enough to be inlined where most points are far (swallowed).
func (g *Geometry) nearby(p geom.Vec3) bool {
	return !(p.Sub(g.centre).Norm() > g.Shape.radius)
}

// deeper reports whether p lies deeper than margin (m) inside the
// geometry: depth(p) > margin, every face's plane deeper than margin,
// tried up to the first that is not (the same answer, NaN included: a
// NaN depth at a face makes depth NaN, and compares as not deeper). A
// point on a sheave's surface, where a wire's pieces end, passes no
// deeper than the first faces of fifty.
func (g *Geometry) deeper(p geom.Vec3, margin float64) bool {
	for _, f := range g.planes() {
		if !(f.D-f.N.Dot(p) > margin) {
			return false
		}
	}
	return true
}

// depth returns how far inside p lies (m; negative outside, a lower
// bound of the distance outside).
func (g *Geometry) depth(p geom.Vec3) float64 {
	d := math.Inf(1)
	for _, f := range g.planes() {
		d = min(d, f.D-f.N.Dot(p))
	}
	return d
}

// entering reports whether a point at p moving at v (m/s) would pass
// into the geometry within two steps of h seconds at its velocity
// relative to the geometry's body there: twice, as a node's contact with
// the ground is taken on at twice its fall in a step, for the velocity
// the step itself adds (a fall's tension, gravity).
func (g *Geometry) entering(p, v geom.Vec3, h float64) bool {
	// Body.PointVel written out: it is above the inliner's budget, and
	// this is asked for every mass node and geometry in each step.
	b := g.Body
	rel := v.Sub(b.Vel.Add(b.AngVel.Cross(p.Sub(b.Pos))))
	// Cuts's first test, without the call for the most points, far off.
	q := p.AddScaled(2*h, rel)
	return !pieceMisses(p, q, g.boxLo, g.boxHi) && g.Cuts(p, q)
}

// near reports whether p lies within clearance (m) of the geometry (or
// inside it), judged by the faces' planes.
func (g *Geometry) near(p geom.Vec3, clearance float64) bool { return g.deeper(p, -clearance) }

// Cuts reports whether the straight wire from a to b passes through the
// geometry deeper than its surface tolerance.
func (g *Geometry) Cuts(a, b geom.Vec3) bool {
	// The shape, shrunk by tol, lies inside its bounding sphere: a piece
	// of wire whose box misses the sphere's box, or that passes the sphere
	// by, does not cut it (most pieces, a few comparisons each).
	if pieceMisses(a, b, g.boxLo, g.boxHi) || segmentDistance(g.centre, a, b) > g.Shape.radius {
		return false
	}
	faces := g.planes()
	// The face that last had a piece outside it first: the pieces tried
	// one after another mostly lie outside the same one (a sheave's side
	// for the wire on the sheave beside it), which the others' order
	// found among the last. The answer does not depend on the order.
	if f := faces[g.outside]; f.N.Dot(a)-(f.D-g.tol) >= 0 && f.N.Dot(b)-(f.D-g.tol) >= 0 {
		return false
	}
	t0, t1 := 0.0, 1.0
	for i, f := range faces {
		// Inside the shape shrunk by tol: N·x < D − tol.
		da, db := f.N.Dot(a)-(f.D-g.tol), f.N.Dot(b)-(f.D-g.tol)
		switch {
		case da >= 0 && db >= 0:
			g.outside = i
			return false
		case da >= 0:
			t0 = max(t0, da/(da-db))
		case db >= 0:
			t1 = min(t1, da/(da-db))
		}
		if t0 >= t1 {
			return false
		}
	}
	return true
}

// pieceMisses reports whether the box around the piece of wire from a to
// b misses the box from lo to hi (m, world): both ends beyond one of its
// sides. It is the piece's box (corners the ends' min and max) compared
// with the other, which gives the same answer, NaN included, without the
// six min and max for every piece; the boxes come as arguments, which
// keeps it small enough to be inlined.
func pieceMisses(a, b, lo, hi geom.Vec3) bool {
	return a.X > hi.X && b.X > hi.X || a.X < lo.X && b.X < lo.X ||
		a.Y > hi.Y && b.Y > hi.Y || a.Y < lo.Y && b.Y < lo.Y ||
		a.Z > hi.Z && b.Z > hi.Z || a.Z < lo.Z && b.Z < lo.Z
}

// cutsGroove reports whether the straight wire from a to b passes
// through a sheave's shape seen along its axle: a and b taken to the
// sheave's mid-plane. A wire reeved over a sheave lies in its groove,
// between the flanges, however far a fleet angle or a turning block
// takes its straight pieces off the groove's plane: the flanges and the
// rope guards keep it there, and it cannot straighten past the sheave
// beside it (the shape's width is the groove's). A piece from a point
// that lies within the sheave's outline seen so (a slack wire hanging
// beside the sheave) cannot go round it and does not cut it. For other
// geometries, Cuts.
func (g *Geometry) cutsGroove(a, b geom.Vec3) bool {
	if g.axle == nil {
		return g.Cuts(a, b)
	}
	n := g.Body.Rot.Rotate(geom.V(0, 0, 1))
	pa, pb := a.AddScaled(-a.Sub(g.centre).Dot(n), n), b.AddScaled(-b.Sub(g.centre).Dot(n), n)
	return !g.Inside(pa) && !g.Inside(pb) && g.Cuts(pa, pb)
}

// segmentDistance returns the distance (m) from p to the segment a–b.
func segmentDistance(p, a, b geom.Vec3) float64 {
	ab := b.Sub(a)
	t := 0.0
	if l2 := ab.Dot(ab); l2 > 0 {
		t = min(max(p.Sub(a).Dot(ab)/l2, 0), 1)
	}
	return p.Sub(a.AddScaled(t, ab)).Norm()
}

// edgeLine returns the world start, unit direction and length of edge e.
func (g *Geometry) edgeLine(e int) (start, dir geom.Vec3, length float64) {
	// vert written out: it is above the inliner's budget, and most
	// corners asked for are worked out already.
	ed := &g.Shape.edges[e]
	if !g.vertOK[ed.A] {
		g.placeVert(ed.A)
	}
	if !g.vertOK[ed.B] {
		g.placeVert(ed.B)
	}
	start = g.verts[ed.A]
	dir, length = g.verts[ed.B].Sub(start).Unit()
	return start, dir, length
}

// edgeNormal returns edge e's outward normal in the world: the mean of its
// two faces' normals ([SLNB11] below eq. 19).
func (g *Geometry) edgeNormal(e int) geom.Vec3 {
	ed := g.Shape.edges[e]
	faces := g.planes()
	n, _ := faces[ed.F[0]].N.Add(faces[ed.F[1]].N).Unit()
	return n
}

// wraps reports whether the geometry reaches into the angle a wire makes
// at a point of edge e, its arms along the unit vectors ua and ub: some
// direction between them, (1 − t)ua + t·ub with 0 ≤ t ≤ 1, points into
// both faces of the edge. Then the wire is bent around the edge, and
// straightening it would sweep through the geometry.
func (g *Geometry) wraps(e int, ua, ub geom.Vec3) bool {
	return g.reachesInto(g.Shape.edges[e].F[:], ua, ub)
}

// wrapsAt is wraps at the point s (m) along edge e. At either end the
// wire runs over a vertex, and the geometry reaches into its angle only
// where some direction between the arms points into every face at that
// vertex, the end's faces too: tested on the edge's two faces alone, a
// frictionless wire pulled past a beam's end hung on its corner and held
// its loads. A sheave's edges end at its sides, where the flanges keep the
// wire (wraps); its nodes, most of a hoist's, never need the edge's length.
func (g *Geometry) wrapsAt(e int, s float64, ua, ub geom.Vec3) bool {
	if g.axle != nil {
		return g.wraps(e, ua, ub)
	}
	v := g.Shape.edges[e].A
	if s > 0 {
		if _, _, length := g.edgeLine(e); s < length {
			return g.wraps(e, ua, ub)
		}
		v = g.Shape.edges[e].B
	}
	var at []int
	for _, ed := range g.Shape.edges {
		if ed.A == v || ed.B == v {
			for _, f := range ed.F {
				if !slices.Contains(at, f) {
					at = append(at, f)
				}
			}
		}
	}
	return g.reachesInto(at, ua, ub)
}

// reachesInto reports whether some direction (1 − t)ua + t·ub with
// 0 ≤ t ≤ 1 points into all the given faces.
func (g *Geometry) reachesInto(at []int, ua, ub geom.Vec3) bool {
	const eps = 1e-9
	lo, hi := 0.0, 1.0
	faces := g.planes()
	for _, f := range at {
		n := faces[f].N
		// n·d(t) = x + t(y − x) < −eps on an interval of [0, 1].
		x, y := n.Dot(ua), n.Dot(ub)
		switch {
		case x < -eps && y < -eps:
		case x >= -eps && y >= -eps:
			return false
		case x < -eps:
			hi = min(hi, (-eps-x)/(y-x))
		default:
			lo = max(lo, (-eps-x)/(y-x))
		}
	}
	return hi-lo > eps
}

// local returns the body-frame point of the world point p.
func (g *Geometry) local(p geom.Vec3) geom.Vec3 {
	return g.Body.Rot.Conj().Rotate(p.Sub(g.Body.Pos))
}
