package hmrwire

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Sheave is a pulley that turns: a dynamic body carrying a cylinder (an
// n-gon prism whose circumradius is the groove's, at the wire's axis) and
// held by a hinge on an axle fixed to another body (a boom tip, a hook
// block). The wire grips it through its contact nodes and their friction
// rows, so the sheave turns with the wire while the wire sticks, and the
// wire slips over it only when the friction the bearing and the sheave's
// inertia ask for exceeds the capstan limit.
type Sheave struct {
	Name     string
	Body     *multibody.Body // the turning sheave; its body z axis is the axle
	Geometry *Geometry
	// FleetLimit (rad) is the largest fleet angle its groove holds the
	// wire at (see SheaveSpec); 0: none.
	FleetLimit float64
	hinge      *hinge
}

// SheaveSpec describes a sheave.
// minSheaveSides is the fewest corners of a sheave's groove polygon: the
// example crane's 20 t on four falls, over sheaves of 4 to 48 sides, has
// each fall carry its share within 0.7 % at rest; over triangles, 0.70
// to 1.27 times it.
const minSheaveSides = 4

type SheaveSpec struct {
	Name string
	// Axle is the body that carries the axle (static, kinematic or
	// dynamic); Center (m) and Axis are the sheave's centre and its axle's
	// direction in the world when it is added.
	Axle         *multibody.Body
	Center, Axis geom.Vec3
	// Radius (m) is the groove's radius at the wire's axis, Width (m) the
	// prism's length along the axle, Sides its polygon's corners (at
	// least minSheaveSides).
	Radius, Width float64
	Sides         int
	// Mass (kg) and Inertia (kg·m², about the axle; 0 takes a solid
	// disc's m r²/2).
	Mass, Inertia float64
	// Friction is μ between wire and groove.
	Friction float64
	// BearingFriction (N·m) is the Coulomb torque of the bearing: the
	// bearing turns only when the wire's pull exceeds it.
	BearingFriction float64
	// Locked holds the bearing: the sheave does not turn on its axle (a
	// seized sheave; the wire then slides over it as over a fixed drum).
	Locked bool
	// FleetLimit (rad) is the largest fleet angle the groove holds the
	// wire at (Sheave.Beyond); 0 is none given.
	FleetLimit float64
}

// AddSheave adds a turning sheave: its body, its cylinder and its hinge.
func (sys *System) AddSheave(spec SheaveSpec) (*Sheave, error) {
	if spec.Axle == nil {
		return nil, fmt.Errorf("sheave %q needs an axle body", spec.Name)
	}
	axis, n := spec.Axis.Unit()
	if !(n > 0) || !axis.IsFinite() || !spec.Center.IsFinite() {
		return nil, fmt.Errorf("sheave %q: centre %v m and axis %v must be finite, the axis not zero", spec.Name, spec.Center, spec.Axis)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"mass (kg)", spec.Mass}, {"inertia (kg·m²)", spec.Inertia}, {"bearing friction (N·m)", spec.BearingFriction}} {
		if !(v.x >= 0) || math.IsInf(v.x, 0) {
			return nil, fmt.Errorf("sheave %q: %s %g must be finite and not negative", spec.Name, v.name, v.x)
		}
	}
	if !(spec.Mass > 0) {
		return nil, fmt.Errorf("sheave %q: mass %g kg must be positive", spec.Name, spec.Mass)
	}
	if spec.Sides < minSheaveSides {
		return nil, fmt.Errorf("sheave %q: a groove of %d sides: must have at least %d (over a triangle's corners the falls at rest carried 0.70 to 1.27 times their share)", spec.Name, spec.Sides, minSheaveSides)
	}
	shape, err := Prism(spec.Sides, spec.Radius, spec.Width)
	if err != nil {
		return nil, fmt.Errorf("sheave %q: %w", spec.Name, err)
	}
	r, w := spec.Radius, spec.Width
	polar := spec.Inertia
	if polar == 0 {
		polar = spec.Mass * r * r / 2
	}
	diametral := spec.Mass * (3*r*r + w*w) / 12
	body := multibody.NewBody(spec.Name, spec.Mass, geom.V(diametral, diametral, polar), spec.Center)
	h := mount(body, spec.Axle, axis)
	g, err := NewGeometry(spec.Name, body, shape, geom.Vec3{}, geom.Identity, spec.Friction)
	if err != nil {
		return nil, err
	}
	g.axle, g.sheave = spec.Axle, h
	for _, o := range sys.sheaves {
		if o.Geometry.axle == spec.Axle && flanking(o.Body.Pos, o.Body.Rot.Rotate(geom.V(0, 0, 1)), o.hinge.width, o.hinge.radius, spec.Center, axis, w, r) {
			o.Geometry.beside = append(o.Geometry.beside, g)
			g.beside = append(g.beside, o.Geometry)
		}
	}
	h.friction, h.locked = spec.BearingFriction, spec.Locked
	sys.World.AddBody(body)
	sys.AddGeometry(g)
	sys.World.AddConstraint(h)
	if !(spec.FleetLimit >= 0 && spec.FleetLimit < math.Pi/2) {
		return nil, fmt.Errorf("sheave %q: fleet angle limit %g rad must lie in [0, π/2)", spec.Name, spec.FleetLimit)
	}
	h.radius, h.width = r, w
	sh := &Sheave{Name: spec.Name, Body: body, Geometry: g, hinge: h, FleetLimit: spec.FleetLimit}
	sys.sheaves = append(sys.sheaves, sh)
	return sh, nil
}

// flanking reports whether two sheaves, centred at ca and cb (m, world)
// on axles along the unit vectors ua and ub, wa and wb wide and of radii
// ra and rb (m), sit side by side on one axle: of one radius and their
// axles' lines one, within a thousandth of it, and the gap between their
// facing sides at most a quarter of their widths together, so that one
// flange parts their grooves. Sheaves further apart on an axle (a crossed
// hook's, a diameter apart) have no flange between them; a larger one
// beside a sheave is a wall, not a groove the wire could walk onto.
func flanking(ca, ua geom.Vec3, wa, ra float64, cb, ub geom.Vec3, wb, rb float64) bool {
	d := cb.Sub(ca)
	along := d.Dot(ua)
	return math.Abs(ra-rb) <= 1e-3*ra && math.Abs(ua.Dot(ub)) > 1-1e-9 &&
		d.Sub(ua.Scale(along)).Norm() <= 1e-3*ra && math.Abs(along)-(wa+wb)/2 <= (wa+wb)/4
}

// mount turns body, centred on its axle, so that its z axis lies along
// the unit vector axis, sets it moving with the axle's body, and returns
// the hinge that holds it there (not yet in the world).
func mount(body, axle *multibody.Body, axis geom.Vec3) *hinge {
	body.Rot, body.AngVel = zTo(axis), axle.AngVel
	body.Vel = axle.PointVel(body.Pos)
	inv := axle.Rot.Conj()
	return &hinge{sheave: body, axle: axle, pin: inv.Rotate(body.Pos.Sub(axle.Pos)), axis: inv.Rotate(axis)}
}

// zTo returns the rotation that turns the z axis onto the unit vector a.
func zTo(a geom.Vec3) geom.Quat {
	z := geom.V(0, 0, 1)
	c := z.Dot(a)
	if c < -1+1e-12 {
		return geom.AxisAngle(geom.V(1, 0, 0), math.Pi)
	}
	axis, s := z.Cross(a).Unit()
	if s < 1e-12 {
		return geom.Identity
	}
	return geom.AxisAngle(axis, math.Atan2(s, c))
}

// Omega returns the sheave's angular speed on its axle (rad/s, positive
// about the axle's direction).
func (s *Sheave) Omega() float64 { return s.hinge.relativeSpin() }

// Radius returns the sheave's groove radius at the wire's axis (m).
func (s *Sheave) Radius() float64 { return s.hinge.radius }

// Speed returns the speed of the wire over the sheave (m/s): its groove's
// at the wire's axis, ω r, signed as Omega.
func (s *Sheave) Speed() float64 { return s.Omega() * s.hinge.radius }

// Wrap returns the angle (rad) the wires wrap the sheave by at the start
// of the last step: the sum of the turns of the wire at its contact
// nodes on the sheave, about the axle.
func (s *Sheave) Wrap() float64 { return s.hinge.wrap }

// Fleet returns the fleet angle (rad) at the last step's start: the
// largest angle between the sheave's plane and the wire's straight pieces
// running onto it and off it. A wire reeved over a sheave wraps it as seen
// along its axle at any fleet angle (Geometry.cutsGroove), as flanges and
// rope guards hold it; a real groove holds it only up to a few degrees.
func (s *Sheave) Fleet() float64 { return s.hinge.fleet }

// Beyond reports whether the fleet angle exceeded FleetLimit (given) at
// a step's start and has not since come back a band below it (fleetBack,
// fleetBand): the
// wire runs at an angle the groove does not hold, and would ride up the
// flange or jump the sheave.
func (s *Sheave) Beyond() bool { return s.hinge.beyond }

// Travel returns the length of wire (m) that ran over the sheave since the
// start, either way, ∫|ω r| dt but for to-and-fro within travelBand.
func (s *Sheave) Travel() float64 { return s.hinge.travel }

// Passes returns the running count of the wire's passes over the sheave:
// a pass is a run of the wire in one direction (pauses included) that
// carries at least the wrapped arc, r times Wrap, over the sheave, so that
// the wire that ran onto the sheave also ran off it, bent once and
// straightened (what rope life estimates count per sheave; a lift and a
// lowering are two passes). A run that turns back before that is no pass.
func (s *Sheave) Passes() int { return s.hinge.passes }

// measureSheaves sets each sheave's wrap angle and fleet angle at the
// step's start (Wrap, Fleet, Beyond), in one pass over the wires' nodes.
// The wrap: at each contact node on a sheave the wire turns from the
// direction it came in to the one it goes on, by an angle about the axle;
// the turns add up over the wrap. The fleet angle: the largest angle of
// the pieces onto and off the sheave (from or to a node not on it) with
// its plane.
func (sys *System) measureSheaves() {
	for _, sh := range sys.sheaves {
		hg := sh.hinge
		hg.turn, hg.fleet, hg.normal = 0, 0, hg.axle.Rot.Rotate(hg.axis)
	}
	for _, w := range sys.Wires {
		// The next node's place and the piece to it, kept at index kept:
		// p and a of the next node if it is a contact node on a sheave.
		kept := -1
		var keptP, keptA geom.Vec3
		for i := 1; i < len(w.nodes)-1; i++ {
			n := w.nodes[i]
			if n.kind != ContactNode || n.geo.sheave == nil {
				continue
			}
			hg := n.geo.sheave
			u := hg.normal
			var p, a geom.Vec3
			if kept == i-1 {
				p, a = keptP, keptA
			} else {
				p = w.place(n)
				a = p.Sub(w.place(w.nodes[i-1]))
			}
			next := w.place(w.nodes[i+1])
			c := next.Sub(p)
			kept, keptP, keptA = i, next, c
			onPrev, onNext := w.onGeometry(i-1, n.geo), w.onGeometry(i+1, n.geo)
			hg.turn += wrapTurn(a, c, u, onPrev, onNext)
			// Written out rather than over arrays of the two pieces,
			// which were built for each node.
			if !onPrev {
				hg.fleet = fleetAngle(hg.fleet, a, u)
			}
			if !onNext {
				hg.fleet = fleetAngle(hg.fleet, c, u)
			}
		}
	}
	for _, sh := range sys.sheaves {
		hg := sh.hinge
		hg.wrap = math.Abs(hg.turn)
		switch lim := sh.FleetLimit; {
		case lim > 0 && hg.fleet > lim:
			hg.beyond = true
		case hg.fleet < lim-max((1-fleetBack)*lim, fleetBand):
			hg.beyond = false
		}
	}
}

// wrapTurn returns the turn (rad) about the unit axle u of a wire that
// runs along a onto a contact node and on along c, seen along the axle:
// the angle between the two pieces' parts in the sheave's plane. Summed
// over a run of nodes the turns add up to the angle the wire turns seen
// along the axle, however its pieces cross the groove. A piece to a node
// off the sheave (prev or next false) that lies more than 60° off the
// sheave's plane does not run onto or off the groove but across its rim,
// and its part in the plane points anywhere: the turn there is left out
// (it read a slack piece 86° off the plane as a wrap of 349°).
func wrapTurn(a, c, u geom.Vec3, prev, next bool) float64 {
	if !prev && acrossRim(a, u) || !next && acrossRim(c, u) {
		return 0
	}
	return math.Atan2(a.Cross(c).Dot(u), a.Dot(c)-a.Dot(u)*c.Dot(u))
}

// fleetAngle returns the larger of fleet and the angle (rad) of the piece
// d with the plane across the unit axle u; fleet if d has no length.
func fleetAngle(fleet float64, d, u geom.Vec3) float64 {
	if l := d.Norm(); l > 0 {
		return max(fleet, math.Asin(min(math.Abs(d.Dot(u))/l, 1)))
	}
	return fleet
}

// acrossRim reports whether the piece d lies more than 60° off the plane
// across the unit axle u.
func acrossRim(d, u geom.Vec3) bool {
	x := d.Dot(u)
	return 4*x*x > 3*d.Dot(d)
}

// fleetBack is the share of the fleet angle limit below which a wire
// beyond it counts as back within (Sheave.Beyond), and fleetBand (rad,
// 0.2°) the least band below the limit: a wire vibrating at the limit
// (the example's lead, by ±0.3° about 4°) does not cross it every few
// steps, nor at a small limit.
const (
	fleetBack = 0.75
	fleetBand = 0.2 * math.Pi / 180
)

// travelBand is the play (m) within which the wire's to-and-fro over a
// sheave or drum is not travel (follow): a standing sheave's spin jitters
// at up to 0.01 m/s, which counted as travel gave some 10 m an hour of a
// hoist at rest, and reset the runs of a slow lift.
const travelBand = 0.01

// follow counts the wire's run over the sheave or drum in a step of h
// seconds (Travel, Passes), wrap being its wrap angle (rad) at the step's
// start and arc the run (m) that makes a pass. The wire's place on the
// rim, ∫ω r dt, is followed with a play of travelBand (a backlash): what
// moves the followed place is travel, and a run goes on, pauses
// included, until the followed place turns back.
func (hg *hinge) follow(h, wrap, arc float64) {
	hg.wrap = wrap
	hg.place += hg.relativeSpin() * hg.radius * h
	moved := 0.0
	switch {
	case hg.place > hg.followed+travelBand:
		moved = hg.place - travelBand - hg.followed
	case hg.place < hg.followed-travelBand:
		moved = hg.place + travelBand - hg.followed
	}
	if moved == 0 {
		return
	}
	hg.followed += moved
	hg.travel += math.Abs(moved)
	if dir := math.Copysign(1, moved); dir != hg.runDir {
		hg.runDir, hg.run, hg.passed = dir, 0, false
	}
	hg.run += math.Abs(moved)
	if !hg.passed && arc > 0 && hg.run >= arc {
		hg.passes++
		hg.passed = true
	}
}

// Force returns the force of the last step the sheave puts on its axle
// (N): the wire's pull over it and its weight, through the bearing.
func (s *Sheave) Force() geom.Vec3 { return s.hinge.force }

// BearingTorque returns the bearing's friction torque of the last step
// on the sheave about its axle (N·m).
func (s *Sheave) BearingTorque() float64 { return s.hinge.torque }

// hinge holds a sheave on its axle ([SL07]'s hinge as rows): the sheave's
// centre on the axle's pin, p_s − (x_a + R_a d) = 0 (three rows), its axis
// along the axle's, u_s·t₁ = u_s·t₂ = 0 for t₁, t₂ across the axle (two
// rows), and, with bearing friction, the velocity row (ω_s − ω_a)·u_a = 0
// bounded by ± the friction torque's impulse τh (unbounded when locked).
type hinge struct {
	sheave, axle *multibody.Body
	pin, axis    geom.Vec3 // in the axle's frame
	friction     float64   // N·m
	locked       bool
	bodies       [2]*multibody.Body
	force        geom.Vec3 // on the axle, N, last step
	torque       float64   // bearing friction on the sheave, N·m, last step
	// What the wire does over the sheave (see follow): the groove's
	// radius (m), the wrap angle (rad) at the last step's start, the
	// travel (m) and passes so far, and the present run: its direction
	// (±1, 0 before any), its length (m), whether it made a pass.
	radius, wrap, travel float64
	width                float64 // m, along the axle
	fleet                float64 // rad, at the last step's start
	beyond               bool    // see Sheave.Beyond
	passes               int
	runDir, run          float64
	passed               bool
	// place is the wire's place on the rim, ∫ω r dt (m), followed its
	// followed place within travelBand.
	place, followed float64
	// Scratch of measureSheaves: the turns summed, the axle's direction.
	turn   float64
	normal geom.Vec3
}

// Bodies implements multibody.Constraint.
func (hg *hinge) Bodies() []*multibody.Body {
	hg.bodies = [2]*multibody.Body{hg.sheave, hg.axle}
	return hg.bodies[:]
}

// bearing reports whether the hinge has the bearing's row.
func (hg *hinge) bearing() bool { return hg.locked || hg.friction > 0 }

// Rows implements multibody.Constraint.
func (hg *hinge) Rows() int {
	if hg.bearing() {
		return 6
	}
	return 5
}

// Update implements multibody.Constraint.
func (hg *hinge) Update(h float64, rows []multibody.Row) {
	pinRows(h, rows, hg.sheave.Pos, hg.axle, hg.pin)
	ua := hg.axle.ToWorld(hg.axis)
	us := hg.sheave.ToWorld(geom.V(0, 0, 1))
	t1, t2 := across(ua)
	for i, t := range [2]geom.Vec3{t1, t2} {
		row := &rows[3+i]
		j := us.Cross(t) // d/dt (u_s·t) = (ω_s − ω_a)·(u_s × t)
		row.J[0].Ang, row.J[1].Ang = j, j.Scale(-1)
		row.Violation = us.Dot(t)
		row.Damping = rigidDamping * h
	}
	if hg.bearing() {
		row := &rows[5]
		row.J[0].Ang, row.J[1].Ang = ua, ua.Scale(-1)
		row.Holonomic = false
		if !hg.locked {
			row.Lo, row.Hi = -hg.friction*h, hg.friction*h
		}
	}
}

// across returns two unit vectors perpendicular to the unit vector u and
// to each other.
func across(u geom.Vec3) (geom.Vec3, geom.Vec3) {
	a := geom.V(1, 0, 0)
	if math.Abs(u.X) > 0.6 {
		a = geom.V(0, 1, 0)
	}
	t1, _ := u.Cross(a).Unit()
	return t1, u.Cross(t1)
}

// Apply implements multibody.Constraint.
func (hg *hinge) Apply(h float64, lambda []float64) {
	hg.force = geom.V(-lambda[0], -lambda[1], -lambda[2]).Scale(1 / h)
	hg.torque = 0
	if hg.bearing() {
		hg.torque = lambda[5] / h
	}
}

// ApplyStep implements multibody.Summed: the loads are the step's means.
func (hg *hinge) ApplyStep(h float64, lambda []float64) { hg.Apply(h, lambda) }

// relativeSpin returns (ω_s − ω_a)·u_a (rad/s).
func (hg *hinge) relativeSpin() float64 {
	return hg.sheave.AngVel.Sub(hg.axle.AngVel).Dot(hg.axle.Rot.Rotate(hg.axis))
}

// State implements state.Stater: the loads of the last step and what the
// wire did over the sheave.
func (hg *hinge) State(c *state.Codec) {
	c.Vec("hinge force", &hg.force)
	c.Float("hinge torque", &hg.torque)
	c.NonNegative("sheave wrap angle (rad)", &hg.wrap)
	c.Range("sheave fleet angle", "rad", 0, math.Pi/2, &hg.fleet)
	c.Flag("sheave fleet angle beyond its limit", &hg.beyond)
	c.NonNegative("wire travel over the sheave (m)", &hg.travel)
	c.Count("wire passes over the sheave", &hg.passes)
	c.Range("wire run direction over the sheave", "", -1, 1, &hg.runDir)
	c.NonNegative("wire run over the sheave (m)", &hg.run)
	c.Flag("wire run passed the sheave", &hg.passed)
	c.Bounded("wire place on the rim", "m", &hg.place)
	c.Bounded("wire place on the rim followed", "m", &hg.followed)
}
