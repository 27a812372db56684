// Package crane holds the crane structures a hoisting cable hangs from, as
// a crane model of a co-simulation carries them: a gantry trolley driven
// along its rail by a speed-controlled motor (Trolley) and a slewing,
// luffing boom whose tip yields elastically (Boom). Each takes the cable's
// force on it each step and gives the motion of the point the cable hangs
// from. Both step implicitly in their stiff parts (the speed controller's
// gain, the tip's spring), so that any step a master takes is stable for
// them alone; the coupling to the cable is the master's.
package crane

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
)

// TrolleySpec describes a gantry trolley running along x on a level rail.
type TrolleySpec struct {
	// Mass (kg) of the trolley with its drive and hoist gear.
	Mass float64
	// WheelRadius (m) of the driven wheels, the gearing included: the
	// drive force is the motor torque over it.
	WheelRadius float64
	// TorqueLimit (N·m) is the motor's largest torque either way.
	TorqueLimit float64
	// Gain (N·m per m/s) and Integral (N·m per m) are the speed
	// controller's proportional and integral gains: τ = Gain·e + Integral·∫e,
	// e the commanded speed less the trolley's.
	Gain, Integral float64
	// RailFriction is the wheels' rolling resistance on the rail: a force
	// RailFriction·N against the motion (and holding the trolley up to it
	// at rest), N the trolley's weight and the cable's pull down.
	RailFriction float64
	// Gravity (m/s²) acts along −z.
	Gravity float64
}

// Validate reports a spec out of physical range.
func (s TrolleySpec) Validate() error {
	for _, v := range []struct {
		name string
		x    float64
		zero bool // may be zero
	}{{"mass (kg)", s.Mass, false}, {"wheel radius (m)", s.WheelRadius, false}, {"torque limit (N·m)", s.TorqueLimit, false},
		{"speed gain (N·m per m/s)", s.Gain, true}, {"integral gain (N·m per m)", s.Integral, true},
		{"rail friction", s.RailFriction, true}, {"gravity (m/s²)", s.Gravity, true}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 || (!v.zero && v.x == 0) {
			want := "positive"
			if v.zero {
				want = "not negative"
			}
			return fmt.Errorf("trolley %s %g: must be finite and %s", v.name, v.x, want)
		}
	}
	if s.RailFriction > 1 {
		return fmt.Errorf("trolley rail friction %g: a rolling resistance above 1 is no rail", s.RailFriction)
	}
	return nil
}

// Trolley is a gantry trolley on its rail: position X (m) and speed V
// (m/s) along x, the speed command it follows (m/s) and the torque its
// motor gave in the last step (N·m).
type Trolley struct {
	spec    TrolleySpec
	X, V    float64
	Command float64
	Torque  float64
	// integral is ∫e dt of the speed controller (m), held while the
	// torque is at its limit (anti-windup).
	integral float64
}

// NewTrolley returns a trolley of spec at rest at x (m).
func NewTrolley(spec TrolleySpec, x float64) (*Trolley, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	return &Trolley{spec: spec, X: x}, nil
}

// Step advances the trolley by h seconds under the cable's force on it
// (N, world; its x part drives or drags the trolley, its z part presses
// it onto the rail). The controller's proportional part acts on the speed
// at the step's end (backward Euler: stable at any step, where the
// explicit one needs Gain·h < WheelRadius·Mass); past the torque limit the
// torque is the limit. Rolling resistance holds a trolley at rest against
// a net force up to it and never reverses the motion within a step.
func (t *Trolley) Step(h float64, cable geom.Vec3) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("trolley step %g s: must be positive and finite", h)
	}
	if !cable.IsFinite() {
		return fmt.Errorf("trolley: cable force %v N is not finite", cable)
	}
	s := t.spec
	m, r := s.Mass, s.WheelRadius
	resist := s.RailFriction * max(0, m*s.Gravity-cable.Z) // N
	integral := t.integral + (t.Command-t.V)*h
	base := s.Gain*t.Command + s.Integral*integral // the torque at v = 0
	limit := func(tau float64) float64 { return max(-s.TorqueLimit, min(s.TorqueLimit, tau)) }
	// The resistance acts against the motion, or at rest against the push
	// the drive and the cable make there; a push it beats does not move
	// the trolley.
	dir := math.Copysign(1, t.V)
	if t.V == 0 {
		push := limit(base)/r + cable.X
		if math.Abs(push) <= resist {
			t.Torque, t.integral = limit(base), integral
			return nil
		}
		dir = math.Copysign(1, push)
	}
	f := dir * resist
	// The proportional part at the step's end: m (v − V) = h (τ(v)/r + Fx − f)
	// with τ(v) = base − Gain·v.
	v := (m*t.V + h*(base/r+cable.X-f)) / (m + h*s.Gain/r)
	tau := base - s.Gain*v
	if math.Abs(tau) > s.TorqueLimit {
		tau = limit(tau)
		v = t.V + h*(tau/r+cable.X-f)/m
		if (tau > 0) == (t.Command > t.V) {
			integral = t.integral // anti-windup: at the limit, the integral waits
		}
	}
	if t.V != 0 && v*t.V < 0 {
		v = 0 // the resistance stops the trolley; it does not turn it back
	}
	t.V, t.Torque, t.integral = v, tau, integral
	t.X += h * v
	return nil
}

// Position returns the point the cable hangs from (m): the trolley's place
// on the rail at the given height.
func (t *Trolley) Position(height float64) geom.Vec3 { return geom.V(t.X, 0, height) }

// State implements state.Stater: the trolley's place and speed, the
// controller's integral and the last torque (an output).
func (t *Trolley) State(c *state.Codec) {
	c.Float("trolley position (m)", &t.X)
	c.Float("trolley speed (m/s)", &t.V)
	c.Float("trolley speed controller's integral (m)", &t.integral)
	c.Float("trolley motor torque (N·m)", &t.Torque)
}

// Spec returns the trolley's specification.
func (t *Trolley) Spec() TrolleySpec { return t.spec }
