// Package rigidbodycable is the model plugin of the rigid-body cable
// ([SL08], package core/rigidcable): a hoisting cable of N rigid segments
// from a crane's suspension point down to a load, paid out by a winch,
// optionally above a ground with friction where the load can be set down.
package rigidbodycable

import (
	"encoding/json"
	"errors"
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

func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	if c.Iterations == 0 {
		c.Iterations = 20
	}
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !(c.Gravity >= 0) {
		add("gravity %g m/s²: must be non-negative", c.Gravity)
	}
	if !(c.Load.Mass > 0) {
		add("load mass %g kg: must be positive", c.Load.Mass)
	}
	if !(c.Load.Size[0] > 0 && c.Load.Size[1] > 0 && c.Load.Size[2] > 0) {
		add("load size %v m: must be positive", c.Load.Size)
	}
	if c.Cable.Segments < 2 || c.Cable.Segments > 10000 {
		add("cable segments %d: want 2 to 10000", c.Cable.Segments)
	}
	if err := c.Cable.Rope.Material().Validate(); err != nil {
		add("cable: %w", err)
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
		// The load starts hanging at rest; below the ground its contacts
		// would push it out through the cable in the first steps.
		if bottom := c.Hoist.Position[2] - c.Cable.Length0 - c.Load.Size[2]; bottom < g.Height {
			add("the load starts below the ground: its bottom at z = %g m (hoist.position z %g m − cable length0 %g m − load height %g m), the ground at %g m", bottom, c.Hoist.Position[2], c.Cable.Length0, c.Load.Size[2], g.Height)
		}
	}
	if g := c.Ground; g != nil && !(g.Friction >= 0) {
		add("ground friction %g: must be non-negative", g.Friction)
	}
	if c.Iterations < 1 {
		add("iterations %d: must be positive", c.Iterations)
	}
	return &c, errors.Join(errs...)
}
