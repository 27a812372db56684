package port

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// StateCheck checks the numbers a simulation's LoadState reads, before it
// changes anything, and keeps the first that is wrong. The runtime has
// made sure that every number of a restored state is finite; what a number
// means bounds it further. Positions, lengths and speeds are bounded by
// multibody.DivergenceLimit, beyond which a stepping world is taken as
// diverged: a state holding more was not saved by a simulation that went
// on (a forged one), and its arithmetic (squares, products with masses)
// would leave the finite range.
type StateCheck struct{ err error }

func (c *StateCheck) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("state: "+format+": damaged", args...)
	}
}

// bounded checks that every x is finite and within ±DivergenceLimit.
func (c *StateCheck) bounded(what, value, unit string, xs ...float64) {
	if !multibody.Bounded(xs...) {
		c.fail("%s %s %s beyond ±%g %s", what, value, unit, multibody.DivergenceLimit, unit)
	}
}

// Point checks a position (m).
func (c *StateCheck) Point(what string, p geom.Vec3) {
	c.bounded(what, fmt.Sprint(p), "m", p.X, p.Y, p.Z)
}

// Velocity checks a velocity (m/s).
func (c *StateCheck) Velocity(what string, v geom.Vec3) {
	c.bounded(what, fmt.Sprint(v), "m/s", v.X, v.Y, v.Z)
}

// Speed checks a speed along a cable or of a winch (m/s).
func (c *StateCheck) Speed(what string, x float64) {
	c.bounded(what, fmt.Sprint(x), "m/s", x)
}

// Length checks a cable's or a segment's length (m): positive, as the
// configuration requires, and bounded.
func (c *StateCheck) Length(what string, x float64) {
	if !(x > 0) {
		c.fail("%s %g m: must be positive", what, x)
	}
	c.bounded(what, fmt.Sprint(x), "m", x)
}

// NonNegative checks a quantity that is never negative (a force limit, a
// count, a residual).
func (c *StateCheck) NonNegative(what string, x float64) {
	if !(x >= 0) || math.IsInf(x, 0) {
		c.fail("%s %g: must be non-negative and finite", what, x)
	}
}

// Range checks a quantity against the range its parameter, input or
// config number has (a force limit, a winch command): what a simulation
// was given, or what its plugins may set.
func (c *StateCheck) Range(what, unit string, r Range, x float64) {
	if err := r.Check(what, unit, x); err != nil {
		c.fail("%v", err)
	}
}

// Count checks a non-negative whole number stored as a float.
func (c *StateCheck) Count(what string, x float64) {
	if !(x >= 0 && x < 1<<53) || x != math.Trunc(x) {
		c.fail("%s %g: must be a whole number ≥ 0", what, x)
	}
}

// Flag checks a stored bool (Flag's 1 or 0) and returns it.
func (c *StateCheck) Flag(what string, x float64) bool {
	if x != 0 && x != 1 {
		c.fail("flag %s is %g, want 0 or 1", what, x)
	}
	return x == 1
}

// Err returns the first problem found, or nil.
func (c *StateCheck) Err() error { return c.err }
