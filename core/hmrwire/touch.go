package hmrwire

import (
	"math"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// A wire's free end (a mass node at either end with no lock) touches the
// geometries through a point contact: its segment meets a geometry
// through contact nodes on the edges, but the end itself has no segment
// beyond it that could wrap, and a whipping tail went up to 24 cm into a
// box it unwound from. Interior mass nodes have none: one on its way into
// a geometry, or found inside it, merges into its neighbours, and the
// wire beside it wraps the edges (swallowed).

// touch keeps a wire's free end out of a geometry ([SL08] §V-D's contact
// on the constraint level, as the ground's): a normal row on the face the
// end lies farthest outside of (or least deep inside), rigid, that can
// only push the end and the geometry's body apart, and two tangential
// rows of creeping friction with the geometry's μ (contact.Contact.Creep:
// a light end held by bounded friction made the active set cycle on the
// ground). The normal row closes its gap as a slack segment does
// (multibody.Row.Gap, g + (h + γ)·v' ≥ 0, γ = 2h): it pushes an end that
// is inside out over three steps, and stops an approach faster than
// g/(3h), braking a fast end a few centimetres before the face. SPOOK's
// form carries a ninth of the approach speed into the face in the step
// of the hit (Υ = 1/9 at γ = 2h): an end thrown at 10 m/s went 2 cm in
// at 1/60 s, and 239 of 1500 ends thrown at boxes and prisms at up to
// 31 m/s went more than 1 cm in, up to 8 cm, where none does now
// (TestFreeEndThrownAtGeometries). The ground's contact stops its point
// where it would land instead (contact.Contact.Gap); here that put an
// end 4.8 cm into a spinning body at 1/30 s (the gap is the face's at the
// step's start, the normal its turned one, reach), and with the geometry
// at rest it let a wire of three nodes thrown side-on at a box gain 23 J
// of its 44 J in one of 3000 throws: the early braking stays.
type touch struct {
	geo    *Geometry
	end    *multibody.Body // the end's particle
	bodies [2]*multibody.Body
	// normal is the normal impulse of the last step (N·s); xi and
	// friction the tangential rows' slip (m/(N·s)) and impulses (N·s);
	// normalStep the length of that step (s; 0 before the first): a
	// step taken in substeps gives its impulses as one step's
	// (multibody.Summed), and the next may be a substep.
	normal     float64
	xi         float64
	friction   [2]float64
	normalStep float64
}

// newTouch returns the contact of the end particle with g.
func newTouch(g *Geometry, end *multibody.Body) *touch {
	return &touch{geo: g, end: end, bodies: [2]*multibody.Body{end, g.Body}}
}

// Free ends carry a touch with a geometry from touchNear of it to
// touchFar, where it goes, both plus twice what the end moves against it
// in a step: the band keeps an end that hovers at the bound from
// rebuilding the rows every step; the touch's own margin (contact.Margin)
// switches its rows on before the end reaches the face.
const (
	touchNear = 0.25 // m
	touchFar  = 0.5  // m
)

// followTouches gives the wire's free ends that came near a geometry a
// touch with it, and takes the touches of those that went far (see
// touchNear), for steps of h seconds. It reports whether any changed: the
// rows must be rebuilt.
func (w *Wire) followTouches(h float64) bool {
	changed := false
	last := len(w.nodes) - 1
	for i, n := range w.nodes {
		if !(n.kind == MassNode && n.lock == nil && (i == 0 || i == last)) {
			if len(n.touches) > 0 {
				n.touches, changed = nil, true
			}
			continue
		}
		kept := n.touches[:0]
		for _, t := range n.touches {
			// Dropped beyond touchFar plus the reach it was made with: a
			// fast end between the two would be given a new touch in the
			// step it lost its last, every step.
			v := n.body.Vel.Sub(t.geo.Body.PointVel(n.body.Pos))
			if t.geo.within(n.body.Pos, touchFar+2*v.Norm()*h) {
				kept = append(kept, t)
			} else {
				changed = true
			}
		}
		clear(n.touches[len(kept):])
		n.touches = kept
		for _, g := range w.sys.Geometries {
			if n.touching(g) {
				continue
			}
			v := n.body.Vel.Sub(g.Body.PointVel(n.body.Pos))
			if g.within(n.body.Pos, touchNear+2*v.Norm()*h) {
				n.touches, changed = append(n.touches, newTouch(g, n.body)), true
			}
		}
	}
	return changed
}

// touching reports whether the node has a touch with g.
func (n *node) touching(g *Geometry) bool {
	for _, t := range n.touches {
		if t.geo == g {
			return true
		}
	}
	return false
}

// within reports whether p lies within clearance (m) of the geometry's
// faces' planes, or inside it: its bounding sphere first.
func (g *Geometry) within(p geom.Vec3, clearance float64) bool {
	if p.Sub(g.centre).Norm() > g.Shape.radius+clearance {
		return false
	}
	return g.near(p, clearance)
}

// face returns the outward normal (world) of the face whose plane the
// end lies farthest outside of, or least deep inside, and the end's
// signed distance from it (m, negative inside). Of a convex shape that is
// the distance to the face where the end lies over it, and less than the
// distance where the nearest point is an edge or a corner: the gap is
// never overstated.
func (t *touch) face() (geom.Vec3, float64) {
	t.geo.refresh()
	p := t.end.Pos
	gap, normal := math.Inf(-1), geom.Vec3{}
	for _, f := range t.geo.planes() {
		if d := f.N.Dot(p) - f.D; d > gap {
			gap, normal = d, f.N
		}
	}
	return normal, gap
}

// reach returns the face's normal as the geometry's body turns it by the
// end of a step of h seconds and the end's gap (see face), the end's
// speed relative to the body there (m/s) and whether the end is so far
// from the face that it cannot reach it within the step: beyond the
// margin and twice its speed's travel in a step, whatever its direction,
// as a whipping tail's end turns and speeds up within the step (from
// 3 m/s towards the face to 8 m/s, which the approach along the normal
// at the step's start let 7 cm into a box). The row, on while the end is
// within that reach, pushes only when the end would pass the face.
//
// The normal the step holds the end along is the face's at the step's
// end: on a face that turns at ω under an end sliding along it at v, the
// normal of the step's start let the end sink by about ωh·vh each step,
// which the stabilization balanced only at (9/4)·ωh·vh deep (14 mm on a
// bar turning at 6 rad/s, 3 mm so).
func (t *touch) reach(h float64) (normal geom.Vec3, gap float64, v geom.Vec3, far bool) {
	normal, gap = t.face()
	if w := t.geo.Body.AngVel; w != (geom.Vec3{}) {
		normal, _ = normal.AddScaled(h, w.Cross(normal)).Unit()
	}
	v = t.end.Vel.Sub(t.geo.Body.PointVel(t.end.Pos))
	return normal, gap, v, gap > contact.Margin+2*v.Norm()*h
}

// Bodies implements multibody.Constraint: the end's particle, then the
// geometry's body.
func (t *touch) Bodies() []*multibody.Body { return t.bodies[:] }

// Rows implements multibody.Constraint: the normal row, then two
// tangential.
func (t *touch) Rows() int { return 3 }

// Off implements multibody.Switched: the rows are off out of reach.
func (t *touch) Off(h float64) bool {
	_, _, _, far := t.reach(h)
	return far
}

// Update implements multibody.Constraint.
func (t *touch) Update(h float64, rows []multibody.Row) {
	normal, gap, v, far := t.reach(h)
	if far {
		multibody.SwitchOff(rows)
		t.normal, t.friction, t.xi, t.normalStep = 0, [2]float64{}, 0, 0
		return
	}
	// The end is a particle: the point is its centre, with no lever arm
	// on it; on the geometry's body, the arm to the end.
	arm := t.end.Pos.Sub(t.geo.Body.Pos)
	e1 := geom.Perpendicular(normal)
	for i, e := range [3]geom.Vec3{normal, e1, normal.Cross(e1)} {
		rows[i].J[0].Lin = e
		rows[i].J[1].Lin, rows[i].J[1].Ang = e.Scale(-1), arm.Cross(e).Scale(-1)
	}
	rows[0].Violation = gap
	rows[0].Compliance = contact.NormalCompliance
	rows[0].Damping = 2 * h
	rows[0].Gap = true
	rows[0].Lo = 0
	last := contact.LastStep(t.normalStep, h)
	bound := t.geo.Friction * t.normal / last // μN (N)
	slide := v.Sub(normal.Scale(v.Dot(normal)))
	t.xi = contact.CreepSlip(slide.Norm(), bound, math.Hypot(t.friction[0], t.friction[1])/last, t.xi)
	for i := 1; i < 3; i++ {
		rows[i].Holonomic = false
		if !(bound > 0) {
			// No normal force: no friction.
			rows[i].Slip, rows[i].Lo, rows[i].Hi = 1, 0, 0
			continue
		}
		rows[i].Slip = t.xi
	}
}

// Apply implements multibody.Constraint.
func (t *touch) Apply(h float64, lambda []float64) {
	t.normal = lambda[0]
	t.friction = [2]float64{lambda[1], lambda[2]}
	t.normalStep = h
}

// ApplyStep implements multibody.Summed: a step taken in substeps bounds
// the next one's friction by its impulses, as one step.
func (t *touch) ApplyStep(h float64, lambda []float64) { t.Apply(h, lambda) }

// Force returns the normal force of the last step (N), a step of h
// seconds unless the touch knows the step's length.
func (t *touch) Force(h float64) float64 { return t.normal / contact.LastStep(t.normalStep, h) }

// State implements state.Stater: the last impulses, which bound and
// regularize the next step's friction, and the friction's slip.
func (t *touch) State(s *state.Codec) {
	s.Float("end contact normal impulse", &t.normal)
	s.NonNegative("end contact friction slip", &t.xi)
	s.Float("end contact friction impulse", &t.friction[0])
	s.Float("end contact friction impulse", &t.friction[1])
	s.NonNegative("end contact normal impulse's step", &t.normalStep)
}
