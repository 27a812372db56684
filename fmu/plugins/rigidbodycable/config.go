// Package rigidbodycable is the model plugin of the rigid-body cable
// ([SL08], package core/rigidcable): a hoisting cable of N rigid segments
// from a crane's suspension point down to a load, paid out by a winch,
// optionally above a ground with friction where the load can be set down.
package rigidbodycable

import (
	"encoding/json"
	"fmt"

	"github.com/cablefmu/cablefmu/core/rigidcable"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type config struct {
	// Gravity (m/s²) along −z.
	Gravity float64 `json:"gravity"`
	// Hoist is the suspension point (sheave on the trolley), driven by inputs.
	Hoist struct {
		Position [3]float64 `json:"position"`
	} `json:"hoist"`
	Load struct {
		Mass float64    `json:"mass"` // kg: hook and payload
		Size [3]float64 `json:"size"` // m: box, hung from the middle of its top face
	} `json:"load"`
	Cable  cableConfig   `json:"cable"`
	Ground *groundConfig `json:"ground"`
	// Iterations of block Gauss–Seidel between the cable and the ground
	// contacts (default 20); unused without ground.
	Iterations int `json:"iterations"`
}

type cableConfig struct {
	port.PaidOut
	Segments int              `json:"segments"` // N
	Rope     port.BendingRope `json:"rope"`
	// Twist is "aligned" (default) or "perpendicular" (eq. 22).
	Twist string `json:"twist"`
	// PhysicalBending was the switch of the bend stiffening, which is
	// gone; read only to refuse it with the reason.
	PhysicalBending *bool `json:"physicalBending"`
	// Hook is "fixed" (default: the rope's torsion reaches the load) or
	// "swivel" (the load turns freely about the rope below the hook).
	Hook string `json:"hook"`
}

type groundConfig struct {
	Height   float64 `json:"height"`   // m
	Friction float64 `json:"friction"` // μ
}

func (c *cableConfig) twist() (rigidcable.TwistDefinition, error) {
	switch c.Twist {
	case "", "aligned":
		return rigidcable.TwistAligned, nil
	case "perpendicular":
		return rigidcable.TwistPerpendicular, nil
	}
	return 0, fmt.Errorf("cable twist %q: want aligned or perpendicular", c.Twist)
}

func (c *cableConfig) hook() (rigidcable.EndKind, error) {
	switch c.Hook {
	case "", "fixed":
		return rigidcable.Clamped, nil
	case "swivel":
		return rigidcable.Swivel, nil
	}
	return 0, fmt.Errorf("cable hook %q: want fixed or swivel", c.Hook)
}

// maxIterations bounds the Gauss–Seidel iterations a step: each costs a
// sweep over the cable and the contacts.
const maxIterations = 10000

// parseConfig reads and checks the config: every number in its range
// (port's ranges, the load's box in port.Size, the ground's height in
// port.Position).
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	if c.Iterations == 0 {
		c.Iterations = 20
	}
	var errs port.Errors
	add := errs.Add
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	errs.Vec("hoist.position", "m", port.Position, c.Hoist.Position[:])
	errs.Num("load.mass", "kg", port.Mass, c.Load.Mass)
	errs.Vec("load.size", "m", port.Size, c.Load.Size[:])
	errs.Int("cable.segments", c.Cable.Segments, 2, 10000)
	errs = append(errs, c.Cable.Rope.Check("cable.rope")...)
	// The density's parameter range (port.RopeDensity), narrower than a
	// rope's (Rope.Check refused one below 0): the segments need mass.
	if d := c.Cable.Rope.Density; d >= 0 && d < port.RopeDensity.Min {
		add("cable.rope.density %g kg/m³: must lie in [%g, %g] kg/m³ (the segments need mass)", d, port.RopeDensity.Min, port.RopeDensity.Max)
	}
	if _, err := c.Cable.twist(); err != nil {
		add("%w", err)
	}
	if _, err := c.Cable.hook(); err != nil {
		add("%w", err)
	}
	errs = append(errs, c.Cable.PaidOut.Check()...)
	if c.Cable.PhysicalBending != nil {
		add("cable physicalBending: no longer a setting: the rope bends with its own stiffness everywhere, and the step takes a light segment's turning stiffness in where it cannot resolve it (see the README); remove the key")
	}
	if g := c.Ground; g != nil {
		errs.Num("ground.height", "m", port.Position, g.Height)
		errs.Num("ground.friction", "", port.Friction, g.Friction)
		// The load starts hanging at rest; below the ground its contacts
		// would push it out through the cable in the first steps. (Only
		// with the numbers in range: else it restates their error.)
		if bottom := c.Hoist.Position[2] - c.Cable.Length0 - c.Load.Size[2]; len(errs) == 0 && bottom < g.Height {
			add("the load starts below the ground: its bottom at z = %g m (hoist.position z %g m − cable length0 %g m − load height %g m), the ground at %g m", bottom, c.Hoist.Position[2], c.Cable.Length0, c.Load.Size[2], g.Height)
		}
	}
	errs.Int("iterations", c.Iterations, 1, maxIterations)
	return &c, errs.Err()
}
