package crane

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
)

// BoomSpec describes a boom on a slewing superstructure: it slews about
// the vertical axis through Center and luffs about a horizontal axis
// through its foot, across it; its tip, where the cable hangs, yields to
// the cable's pull as a mass on a spring and damper (the boom's first
// mode, the same in every direction).
type BoomSpec struct {
	// Center (m) is a point of the slew axis; Foot (m) the boom's foot,
	// relative to Center, at slew angle 0.
	Center, Foot geom.Vec3
	// Length (m) of the boom, foot to tip.
	Length float64
	// Slew and Luff (rad) are the start's angles: the slew about +z from
	// the x axis, the luff up from the horizontal, in (0, π/2).
	Slew, Luff float64
	// TipMass (kg) is the boom's modal mass at its tip; Stiffness (N/m)
	// and Damping (N·s/m) its tip's spring and damper.
	TipMass, Stiffness, Damping float64
	// Gravity (m/s²) acts along −z.
	Gravity float64
}

// Validate reports a spec out of physical range.
func (s BoomSpec) Validate() error {
	if !s.Center.IsFinite() || !s.Foot.IsFinite() {
		return fmt.Errorf("boom: centre %v m and foot %v m must be finite", s.Center, s.Foot)
	}
	for _, v := range []struct {
		name string
		x    float64
		zero bool
	}{{"length (m)", s.Length, false}, {"tip mass (kg)", s.TipMass, false}, {"tip stiffness (N/m)", s.Stiffness, false},
		{"tip damping (N·s/m)", s.Damping, true}, {"gravity (m/s²)", s.Gravity, true}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 || (!v.zero && v.x == 0) {
			return fmt.Errorf("boom %s %g: must be finite and %s", v.name, v.x, map[bool]string{false: "positive", true: "not negative"}[v.zero])
		}
	}
	if !(s.Luff > 0 && s.Luff < math.Pi/2) {
		return fmt.Errorf("boom luff angle %g rad: must lie between the horizontal and the vertical, in (0, π/2)", s.Luff)
	}
	if math.IsNaN(s.Slew) || math.IsInf(s.Slew, 0) {
		return fmt.Errorf("boom slew angle %g rad: must be finite", s.Slew)
	}
	return nil
}

// Boom is a slewing, luffing boom with an elastic tip. SlewRate and
// LuffRate (rad/s) are its drives' speeds, inputs; the angles follow them.
// The tip is the rigid boom's tip plus Deflection (m), moving at TipVel
// (m/s, world).
type Boom struct {
	spec               BoomSpec
	SlewRate, LuffRate float64
	slew, luff         float64
	Deflection, TipVel geom.Vec3
}

// NewBoom returns the boom of spec at rest, its tip deflected by its own
// weight (and none of a cable's: the first steps take the cable's pull
// up).
func NewBoom(spec BoomSpec) (*Boom, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	b := &Boom{spec: spec, slew: spec.Slew, luff: spec.Luff}
	b.Deflection = geom.V(0, 0, -spec.TipMass*spec.Gravity/spec.Stiffness)
	return b, nil
}

// Preload sets the tip at rest in its static deflection under a steady
// force on it (N, world) besides its own weight: (F − m g ẑ)/k. A crane
// starts so where it starts carrying its load.
func (b *Boom) Preload(force geom.Vec3) {
	s := b.spec
	b.Deflection = force.Add(geom.V(0, 0, -s.TipMass*s.Gravity)).Scale(1 / s.Stiffness)
	b.TipVel = geom.Vec3{}
}

// Angles returns the slew and luff angles (rad).
func (b *Boom) Angles() (slew, luff float64) { return b.slew, b.luff }

// rigid returns the rigid boom's tip (m) and its velocity (m/s) at the
// angles slew and luff turning at the boom's rates.
func (b *Boom) rigid(slew, luff float64) (tip, vel geom.Vec3) {
	s := b.spec
	turn := geom.AxisAngle(geom.V(0, 0, 1), slew)
	foot := s.Center.Add(turn.Rotate(s.Foot))
	dir := turn.Rotate(geom.V(math.Cos(luff), 0, math.Sin(luff)))
	tip = foot.AddScaled(s.Length, dir)
	up := turn.Rotate(geom.V(-math.Sin(luff), 0, math.Cos(luff))) // ∂dir/∂luff
	vel = geom.V(0, 0, b.SlewRate).Cross(tip.Sub(s.Center)).AddScaled(b.LuffRate*s.Length, up)
	return tip, vel
}

// Tip returns the tip's position (m, world): where the cable hangs.
func (b *Boom) Tip() geom.Vec3 {
	tip, _ := b.rigid(b.slew, b.luff)
	return tip.Add(b.Deflection)
}

// Step advances the boom by h seconds under the cable's force on its tip
// (N, world): the angles by the rates, the tip as a mass m on a spring k
// and damper c to the rigid tip, m a = F − m g ẑ − k u − c u̇ (u the
// deflection), by the trapezoidal rule: stable at any step (where the
// explicit step needs h < 2/√(k/m)) and, unlike backward Euler, adding no
// damping of its own (at ωh = 0.02, backward Euler's ωh/2 = 0.011 was half
// again a boom's 2 % of critical). A luff past the horizontal or the
// vertical is an error.
func (b *Boom) Step(h float64, cable geom.Vec3) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("boom step %g s: must be positive and finite", h)
	}
	if !cable.IsFinite() {
		return fmt.Errorf("boom: cable force %v N is not finite", cable)
	}
	luff := b.luff + h*b.LuffRate
	if !(luff > 0 && luff < math.Pi/2) {
		return fmt.Errorf("boom luffed to %g rad (at %g rad/s): beyond the horizontal or the vertical", luff, b.LuffRate)
	}
	slew := b.slew + h*b.SlewRate
	_, vr0 := b.rigid(b.slew, b.luff)
	_, vr := b.rigid(slew, luff) // the rigid tip's velocity at the step's end
	s := b.spec
	m, k, c := s.TipMass, s.Stiffness, s.Damping
	// The trapezoidal rule (Newmark's average acceleration) on the
	// deflection u and its rate d = w − v_r, w the tip's velocity:
	// u' = u + h(d + d')/2, m(w' − w) = h(F − m g ẑ − k(u + u')/2 − c(d + d')/2).
	d := b.TipVel.Sub(vr0)
	soft := k*h/4 + c/2
	rhs := b.TipVel.Sub(vr).Scale(m).Add(cable.Add(geom.V(0, 0, -m*s.Gravity)).Sub(b.Deflection.Scale(k)).Sub(d.Scale(soft)).Scale(h))
	d1 := rhs.Scale(1 / (m + h*soft))
	b.Deflection = b.Deflection.Add(d.Add(d1).Scale(h / 2))
	b.TipVel, b.slew, b.luff = d1.Add(vr), slew, luff
	return nil
}

// State implements state.Stater: the angles, the tip's deflection and
// velocity.
func (b *Boom) State(c *state.Codec) {
	c.Float("boom slew angle (rad)", &b.slew)
	c.Range("boom luff angle", "rad", 0, math.Pi/2, &b.luff)
	c.Point("boom tip deflection", &b.Deflection)
	c.Velocity("boom tip velocity", &b.TipVel)
}
