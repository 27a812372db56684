package hmrwire

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// Drum is a winch drum: a dynamic body held on an axle by a hinge and
// turned by a motor, from whose rim the wire's first end is paid out.
// The wire wound on it is not simulated turn by turn: the wire leaves
// the drum at a tangent point fixed on the axle's body (the first end's
// lock), and the drum's turning sets the rest length L of the wire's
// first segment, L̇ = R·ω with ω the drum's spin on its axle, positive
// paying out. That kinematic relation enters the first segment's rows
// (see Winch), so the wire's tension turns the drum (torque R·T) and the
// drum's inertia pulls on the wire within one solve. The wound length
// (wire on the drum) and its mass ride on the drum: its mass and its
// polar inertia grow by ρ·ℓ and ρ·ℓ·R² with the wound length ℓ.
//
// The motor runs in speed mode (the drum's rim follows the commanded
// wire speed with at most TorqueLimit) or torque mode (it applies the
// commanded torque). The holding brake, when engaged, replaces the
// motor: it holds the drum with at most BrakeTorque and slips beyond it.
type Drum struct {
	Name string
	// Body is the turning drum; its body z axis is the axle.
	Body *multibody.Body
	// Radius (m) is the drum's radius at the wire's axis.
	Radius float64
	// Mode selects the motor's control: SpeedMode or TorqueMode.
	Mode DriveMode
	// Speed is the commanded wire speed at the rim in speed mode (m/s,
	// positive pays out).
	Speed float64
	// Torque is the commanded motor torque in torque mode (N·m, positive
	// pays out).
	Torque float64
	// TorqueLimit (N·m) is the most torque the motor gives in speed
	// mode; 0 is no limit.
	TorqueLimit float64
	// Brake engages the holding brake, BrakeTorque (N·m) the most it
	// holds.
	Brake       bool
	BrakeTorque float64

	axle *multibody.Body
	// hinge holds the drum on its axle; its axis (axle frame) is turned
	// so that positive spin pays out once a wire is attached.
	hinge *hinge
	drive *drive
	// ownMass (kg) and ownInertia (kg·m², polar) are the empty drum's;
	// wound0 (m) the wound length when the wire was attached, paid (m)
	// the wire paid out since (the first segment's rest length grows by
	// it, but is split and merged by the resolution); density ρ (kg/m).
	ownMass, ownInertia float64
	width               float64 // m
	wound0, paid        float64
	density             float64
	wire                *Wire
	// endPull is the pull of the end node's weight along the lead (N)
	// as prepare found it.
	endPull float64
	// turned (rad) is the angle the drum turned since the wire was
	// attached, positive paying out.
	turned float64
	// Spooling (DrumSpec.Spool): the first layer's radius and the pitch
	// (m); the drum's centre and axle direction and the direction from
	// its centre to where the wire leaves it, in the axle's frame.
	spool                                bool
	layer                                int // the step's, 0 the first
	radius0, pitch                       float64
	centerLocal, axialLocal, radialLocal geom.Vec3
}

// DriveMode is a drum motor's control mode.
type DriveMode int8

const (
	// SpeedMode: the motor turns the drum at the commanded wire speed,
	// with at most its torque limit.
	SpeedMode DriveMode = iota
	// TorqueMode: the motor applies the commanded torque.
	TorqueMode
)

// DrumSpec describes a drum.
type DrumSpec struct {
	Name string
	// Axle is the body carrying the drum's axle (the crane's base or
	// upper structure); Center (m) and Axis the drum's centre and axle
	// direction in the world when it is added.
	Axle         *multibody.Body
	Center, Axis geom.Vec3
	// Radius (m) at the wire's axis, Width (m) along the axle (for the
	// drum's diametral inertia).
	Radius, Width float64
	// Mass (kg) and Inertia (kg·m² about the axle; 0 takes a thin-walled
	// drum's m r²) of the empty drum.
	Mass, Inertia float64
	// Wound (m) is the wire on the drum at the start.
	Wound float64
	// TorqueLimit and BrakeTorque (N·m): see Drum.
	TorqueLimit, BrakeTorque float64
	// Spool, with Pitch (m, the rope's diameter), spools the wire across
	// the drum's width (see Layer): the wire leaves the drum where its
	// last turn lies, and on the layer's radius.
	Spool bool
	Pitch float64
}

// Layer returns where the wound length ℓ (m) lies on a drum of radius r
// (m, at the first layer's wire axis) and width w (m) spooled with rope
// of diameter d (m): its layer k (0 the first), the layer's radius at the
// wire's axis r + k d, and the last turn's place across the drum from its
// middle (m). Each layer holds n = ⌊w/d⌋ turns (turnsPerLayer),
// 2π n (r + k d) of wire, laid from one flange to the other, the next
// back (plain layers, each on the one below: no grooving's nesting).
// A length beyond maxLayers layers lies on the last, its turns there
// past the flange (AddDrum refuses such a drum).
func Layer(wound, r, w, d float64) (k int, radius, across float64) {
	n := turnsPerLayer(w, d)
	left := max(wound, 0)
	for {
		radius = r + float64(k)*d
		if c := 2 * math.Pi * n * radius; left <= c || k == maxLayers-1 {
			turns := left / (2 * math.Pi * radius)
			across = -w/2 + w*turns/n
			if k%2 == 1 {
				across = -across
			}
			return k, radius, across
		} else {
			left -= c
		}
		k++
	}
}

// turnsPerLayer returns the turns of rope of diameter d (m) that a layer
// across a drum of width w (m) holds: ⌊w/d⌋, at least one. The quotient
// of a width that is a whole number of diameters falls a rounding short
// of it as often as not (0.7/0.014 = 49.999…): it is taken to within
// 1e-9 of a turn, so that such a drum holds its last turn.
func turnsPerLayer(w, d float64) float64 {
	return max(math.Floor(w/d+1e-9), 1)
}

// maxLayers bounds a spooled drum's layers: drums are built for a few.
const maxLayers = 100

// AddDrum adds a winch drum on its axle. A wire whose Winch names the
// drum is paid out from it.
func (sys *System) AddDrum(spec DrumSpec) (*Drum, error) {
	if spec.Axle == nil {
		return nil, fmt.Errorf("drum %q needs an axle body", spec.Name)
	}
	axis, n := spec.Axis.Unit()
	if !(n > 0) || !axis.IsFinite() || !spec.Center.IsFinite() {
		return nil, fmt.Errorf("drum %q: centre %v m and axis %v must be finite, the axis not zero", spec.Name, spec.Center, spec.Axis)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"radius (m)", spec.Radius}, {"width (m)", spec.Width}, {"mass (kg)", spec.Mass}} {
		if !(v.x > 0) || math.IsInf(v.x, 0) {
			return nil, fmt.Errorf("drum %q: %s %g must be positive and finite", spec.Name, v.name, v.x)
		}
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"inertia (kg·m²)", spec.Inertia}, {"wound length (m)", spec.Wound}, {"torque limit (N·m)", spec.TorqueLimit}, {"brake torque (N·m)", spec.BrakeTorque}} {
		if !(v.x >= 0) || math.IsInf(v.x, 0) {
			return nil, fmt.Errorf("drum %q: %s %g must be finite and not negative", spec.Name, v.name, v.x)
		}
	}
	if spec.Spool && !(spec.Pitch > 0 && spec.Pitch <= spec.Width && spec.Pitch < spec.Radius) {
		return nil, fmt.Errorf("drum %q: spooling with a pitch (rope diameter) of %g m: must be positive, at most the width %g m and below the radius %g m", spec.Name, spec.Pitch, spec.Width, spec.Radius)
	}
	if spec.Spool {
		n := turnsPerLayer(spec.Width, spec.Pitch)
		k := float64(maxLayers)
		// The wire the layers hold: 2π n Σ (r + k d).
		if holds := 2 * math.Pi * n * (k*spec.Radius + spec.Pitch*k*(k-1)/2); spec.Wound > holds {
			return nil, fmt.Errorf("drum %q: %g m of wire wound needs more than %d layers of %g turns (they hold %.4g m)", spec.Name, spec.Wound, maxLayers, n, holds)
		}
	}
	r := spec.Radius
	polar := spec.Inertia
	if polar == 0 {
		polar = spec.Mass * r * r
	}
	body := multibody.NewBody(spec.Name, spec.Mass, geom.Vec3{}, spec.Center)
	d := &Drum{Name: spec.Name, Body: body, Radius: r, TorqueLimit: spec.TorqueLimit, BrakeTorque: spec.BrakeTorque,
		axle: spec.Axle, ownMass: spec.Mass, ownInertia: polar, width: spec.Width, wound0: spec.Wound}
	if spec.Spool {
		d.spool, d.radius0, d.pitch = true, r, spec.Pitch
		// The layer and its radius from the start, as every step's
		// spoolWire has them (drum.layer read 1 at initialization).
		d.layer, d.Radius, _ = Layer(spec.Wound, r, spec.Width, spec.Pitch)
		inv := spec.Axle.Rot.Conj()
		d.centerLocal, d.axialLocal = inv.Rotate(spec.Center.Sub(spec.Axle.Pos)), inv.Rotate(axis)
	}
	d.setInertia(spec.Wound)
	d.hinge = mount(body, spec.Axle, axis)
	d.hinge.radius = d.Radius
	sys.World.AddBody(body)
	sys.World.AddConstraint(d.hinge)
	d.drive = &drive{drum: d}
	sys.World.AddConstraint(d.drive)
	sys.drums = append(sys.drums, d)
	return d, nil
}

// setInertia sets the drum's mass and inertia for the wound length ℓ
// (m), before a wire is attached (ρ = 0) or after: the polar inertia
// includes the wire's end node's m_e R² (see prepare).
func (d *Drum) setInertia(wound float64) {
	r := d.Radius
	m := d.ownMass + d.density*max(wound, 0)
	polar := d.ownInertia + d.density*max(wound, 0)*r*r
	if d.wire != nil {
		polar += d.wire.nodes[0].body.Mass * r * r
	}
	diametral := m * (3*r*r + d.width*d.width) / 12
	d.Body.Mass, d.Body.Inertia = m, geom.V(diametral, diametral, polar)
}

// prepare readies the drum for a step once the wire's resolution is
// set. The wire's end mass node stays at the tangent point, yet its mass
// (half the first segment's) is wire that runs along the wire's lead at
// the rim's speed: its inertia along the lead, m_e R², and the pull of
// its weight along the lead, R m_e g·d (d the lead's direction), are
// the drum's. Without them the drum held the wire with the tension in
// the segment's middle, short of the tension at the drum by half the
// segment's weight, and the motor's work fell short of the potential
// energy the wire gains as it is hauled in by as much; the node's mass
// across the lead stays on the lock. In torque mode the motor's torque
// adds to the drum's.
func (d *Drum) prepare(gravity geom.Vec3) {
	d.spoolWire()
	d.setInertia(d.Wound())
	u := d.axisWorld()
	torque := geom.Vec3{}
	if !d.Brake && d.Mode == TorqueMode {
		torque = u.Scale(d.Torque)
	}
	if w := d.wire; w != nil {
		end := w.nodes[0].body
		lead, _ := w.nodes[1].position().Sub(end.Pos).Unit()
		torque = torque.AddScaled(d.Radius*end.Mass*gravity.Dot(lead), u)
		d.endPull = end.Mass * gravity.Dot(lead)
	}
	d.Body.Torque = torque
}

// takeIn moves mass dm (kg) of the wire's node from into the wire's
// end node at the tangent point (a coarsening next to the drum): its
// momentum along the lead, relative to the tangent point, goes into the
// drum's spin (the end node's mass runs with the rim), the rest into the
// end node, which its lock holds.
func (d *Drum) takeIn(from *multibody.Body, dm float64) {
	end := d.wire.nodes[0].body
	lead, _ := d.wire.nodes[1].position().Sub(end.Pos).Unit()
	r := d.Radius
	j := d.Body.Inertia.Z
	run := from.Vel.Sub(end.Vel).Dot(lead)
	spin := (j*d.Omega() + r*dm*run) / (j + dm*r*r)
	u := d.axisWorld()
	d.Body.AngVel = d.Body.AngVel.AddScaled(spin-d.Omega(), u)
	end.Mass += dm
	d.setInertia(d.Wound())
}

// Tension returns the wire's tension at the drum in the last step (N):
// its first segment's and the pull of the end node's weight along the
// lead (see prepare); before the first step, the tension the wire was
// laid with there.
func (d *Drum) Tension() float64 {
	if d.wire == nil {
		return 0
	}
	// Slack, the end node's weight would make it negative: a wire does
	// not push.
	return max(d.wire.nodes[0].tension+d.endPull, 0)
}

// attach pays wire w out from the drum: its first end must be locked to
// the drum's axle body at a point of the rim (the tangent point). The
// drum's positive spin is made the one whose rim runs along the wire
// there, paying out.
func (d *Drum) attach(w *Wire, tangent, next geom.Vec3) error {
	if d.wire != nil {
		return fmt.Errorf("drum %q already pays out wire %q", d.Name, d.wire.Name)
	}
	u := d.axisWorld()
	c := d.Body.Pos
	arm := tangent.Sub(c)
	radial := arm.Sub(u.Scale(arm.Dot(u)))
	if dist := radial.Norm(); math.Abs(dist-d.Radius) > 1e-3*d.Radius+1e-6 {
		return fmt.Errorf("drum %q: the wire's first end %v m is %.4g m from the axle, not on the rim (radius %g m)", d.Name, tangent, dist, d.Radius)
	}
	lead, _ := next.Sub(tangent).Unit()
	if math.Abs(lead.Dot(radial.Scale(1/radial.Norm()))) > 0.2 {
		return fmt.Errorf("drum %q: the wire leaves the rim at %v m towards %v m, not along a tangent", d.Name, tangent, next)
	}
	if u.Cross(radial).Dot(lead) < 0 {
		d.hinge.axis = d.hinge.axis.Scale(-1)
	}
	if d.spool {
		rad, _ := radial.Unit()
		d.radialLocal = d.axle.Rot.Conj().Rotate(rad)
	}
	d.wire, d.density = w, w.mu
	d.paid, d.turned = 0, 0
	d.setInertia(d.wound0)
	return nil
}

// axisWorld returns the drum's axle direction in the world, positive
// spin paying out. From the axle's orientation itself: the drum needs it
// before the world's first step (attach, prepare), when the frame that
// Body.ToWorld applies is not yet set (an axis of zero there left the
// end node's pull off the drum in the first step after a start or a
// restored state, and would not have turned a drum paying out the other
// way).
func (d *Drum) axisWorld() geom.Vec3 { return d.axle.Rot.Rotate(d.hinge.axis) }

// Omega returns the drum's spin on its axle (rad/s, positive paying
// out).
func (d *Drum) Omega() float64 { return d.hinge.relativeSpin() }

// Paid returns the wire paid out since it was attached (m): the drum's
// angle times its radius, or spooled, its angle's turns each on its
// layer's radius.
func (d *Drum) Paid() float64 { return d.paid }

// Angle returns the angle (rad) the drum turned since the wire was
// attached, positive paying out.
func (d *Drum) Angle() float64 { return d.turned }

// spoolWire puts where the wire leaves the drum, the first end's lock, on
// the wound length's layer radius and across the drum at its last turn
// (Layer), and makes the drum's Radius the layer's.
func (d *Drum) spoolWire() {
	if !d.spool || d.wire == nil {
		return
	}
	k, r, across := Layer(d.Wound(), d.radius0, d.width, d.pitch)
	d.Radius, d.hinge.radius, d.layer = r, r, k
	if l := d.wire.nodes[0].lock; l != nil {
		l.local = d.centerLocal.AddScaled(across, d.axialLocal).AddScaled(r, d.radialLocal)
	}
}

// Wound returns the wire wound on the drum (m).
func (d *Drum) Wound() float64 { return d.wound0 - d.Paid() }

// Wrap returns the angle (rad) the wound wire wraps the drum by at the
// last step's start: its turns, Wound over the radius or, spooled, the
// turns of its layers.
func (d *Drum) Wrap() float64 { return d.hinge.wrap }

// Layer returns the layer (0 the first) the wire left the spooled drum
// from in the last step; 0 unless spooled.
func (d *Drum) Layer() int { return d.layer }

// wrapAngle returns the angle (rad) of the wound wire's turns: spooled,
// the full layers' and the turns of the last, which Layer's place across
// the drum gives.
func (d *Drum) wrapAngle() float64 {
	if !d.spool {
		return d.Wound() / d.Radius
	}
	n := turnsPerLayer(d.width, d.pitch)
	k, _, across := Layer(d.Wound(), d.radius0, d.width, d.pitch)
	if k%2 == 1 {
		across = -across
	}
	return 2 * math.Pi * (float64(k)*n + n*(across+d.width/2)/d.width)
}

// RimSpeed returns the speed of the wire onto or off the drum (m/s): its
// rim's, ω R, positive paying out.
func (d *Drum) RimSpeed() float64 { return d.Omega() * d.Radius }

// Travel returns the length of wire (m) that ran onto or off the drum
// since the start: ∫|ω R| dt.
func (d *Drum) Travel() float64 { return d.hinge.travel }

// Passes returns the running count of the wire's passes over the drum:
// runs in one direction that spooled at least half a turn on or off, each
// bending the wire that ran on (or straightening what ran off) once, as
// Sheave.Passes counts them.
func (d *Drum) Passes() int { return d.hinge.passes }

// MotorTorque returns the motor's torque of the last step (N·m, positive
// paying out): the speed row's in speed mode, the command in torque
// mode, 0 with the brake engaged.
func (d *Drum) MotorTorque() float64 { return d.drive.motor }

// BrakeTorqueApplied returns the brake's torque of the last step (N·m,
// positive paying out).
func (d *Drum) BrakeTorqueApplied() float64 { return d.drive.brake }

// Force returns the force of the last step the drum puts on its axle
// (N): its weight, the wound wire's, and what the hinge passes on.
func (d *Drum) Force() geom.Vec3 { return d.hinge.force }

// drive is the drum's motor and brake as rows on the drum's spin
// ω = (ω_d − ω_a)·u: the motor's speed row ω = v/R bounded by the
// torque limit's impulse ±τ_m h (speed mode), the brake's row ω = 0
// bounded by ±τ_b h (engaged), and, in torque mode, the limit switch's
// row, which keeps ω ≥ (L_min − L)/(h R) once no mass node is left to
// haul in (it can only push towards paying out; in speed mode the
// switch cuts the commanded speed instead). A row not in use is off
// (zero Jacobian, bounds [0, 0]). In torque mode the motor's torque is
// an external torque on the drum (see Drum.prepare).
type drive struct {
	drum   *Drum
	bodies [2]*multibody.Body
	// motor and brake are the torques of the last step (N·m).
	motor, brake float64
}

// Bodies implements multibody.Constraint.
func (dr *drive) Bodies() []*multibody.Body {
	dr.bodies = [2]*multibody.Body{dr.drum.Body, dr.drum.axle}
	return dr.bodies[:]
}

// Rows implements multibody.Constraint.
func (dr *drive) Rows() int { return 3 }

// Update implements multibody.Constraint.
func (dr *drive) Update(h float64, rows []multibody.Row) {
	d := dr.drum
	u := d.axisWorld()
	for i := range rows {
		// Off: no coupling, no impulse; the slip keeps its pivot regular.
		rows[i].Holonomic, rows[i].Slip = false, 1
		rows[i].Lo, rows[i].Hi = 0, 0
	}
	on := func(row *multibody.Row, omega, lo, hi float64) {
		row.J[0].Ang, row.J[1].Ang = u, u.Scale(-1)
		row.Speed, row.SpeedBefore, row.Slip = omega, omega, 0
		row.Lo, row.Hi = lo, hi
	}
	limit := func(tau float64) float64 {
		if tau == 0 {
			return math.Inf(1)
		}
		return tau * h
	}
	// The limit switch's least spin (rad/s).
	floor := math.Inf(-1)
	if w := d.wire; w != nil && w.lastFree() < 0 {
		floor = (w.Winch.MinLength - w.nodes[0].rest) / (h * d.Radius)
	}
	switch {
	case d.Brake:
		on(&rows[1], 0, -d.BrakeTorque*h, d.BrakeTorque*h)
	case d.Mode == SpeedMode:
		// The switch cuts the command (a row of its own would repeat the
		// speed row's).
		l := limit(d.TorqueLimit)
		on(&rows[0], max(d.Speed/d.Radius, min(floor, 0)), -l, l)
	case !math.IsInf(floor, -1):
		on(&rows[2], floor, 0, math.Inf(1))
	}
}

// Apply implements multibody.Constraint.
func (dr *drive) Apply(h float64, lambda []float64) {
	d := dr.drum
	dr.brake = lambda[1] / h
	switch {
	case d.Brake:
		dr.motor = 0
	case d.Mode == SpeedMode:
		dr.motor = lambda[0] / h
	default:
		dr.motor = d.Torque
	}
}

// ApplyStep implements multibody.Summed: the torques are the step's means.
func (dr *drive) ApplyStep(h float64, lambda []float64) { dr.Apply(h, lambda) }

// State implements state.Stater: the torques of the last step, the wire
// paid out (within ±state.Limit), the end node's pull (Tension reads it),
// the angle turned and the radius of the layer the wire leaves from.
func (dr *drive) State(c *state.Codec) {
	c.Float("drum motor torque", &dr.motor)
	c.Float("drum brake torque", &dr.brake)
	c.Bounded("drum wire paid out", "m", &dr.drum.paid)
	c.Float("drum end pull", &dr.drum.endPull)
	c.Bounded("drum angle turned", "rad", &dr.drum.turned)
	c.Positive("drum radius at the wire (its layer's)", "m", &dr.drum.Radius)
	c.Index("drum layer", maxLayers, &dr.drum.layer)
}
