// Package rigidcable is the model plugin of the rigid-body cable
// ([SL08], package core/rigidcable), a model of the hoist family (package
// hoist): a hoisting cable of N rigid segments from a crane's suspension
// point down to a load, a rigid box, paid out by a winch, optionally above
// a ground with friction where the load can be set down. Its own settings
// sit in the config's "rigidCable" block.
package rigidcable

import (
	"encoding/json"
	"fmt"

	"github.com/cablefmu/cablefmu/core/rigidcable"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

type config struct {
	hoist.Config
	Own settings `json:"rigidCable"`
}

// settings are the rigid-body cable's own.
type settings struct {
	// Twist is "swing" (default: the swing–twist decomposition, exact at
	// any bend) or "aligned" or "perpendicular" (the paper's eq. 22, for
	// small bends: a slack rope bent by 50–70° whirls its segments about
	// their axes under it).
	Twist string `json:"twist"`
	// Hook is "fixed" (default: the rope's torsion reaches the load) or
	// "swivel" (the load turns freely about the rope below the hook).
	Hook string `json:"hook"`
	// Iterations of block Gauss–Seidel between the cable and the ground
	// contacts (left out: 20); unused without ground.
	Iterations int `json:"iterations" zero:"default"`
}

func (c *settings) twist() (rigidcable.TwistDefinition, error) {
	switch c.Twist {
	case "", "swing":
		return rigidcable.TwistSwing, nil
	case "aligned":
		return rigidcable.TwistAligned, nil
	case "perpendicular":
		return rigidcable.TwistPerpendicular, nil
	}
	return 0, fmt.Errorf("rigidCable.twist %q: want swing, aligned or perpendicular", c.Twist)
}

func (c *settings) hook() (rigidcable.EndKind, error) {
	switch c.Hook {
	case "", "fixed":
		return rigidcable.Clamped, nil
	case "swivel":
		return rigidcable.Swivel, nil
	}
	return 0, fmt.Errorf("rigidCable.hook %q: want fixed or swivel", c.Hook)
}

// maxIterations bounds the Gauss–Seidel iterations a step: each costs a
// sweep over the cable and the contacts.
const maxIterations = 10000

// features are the crane's parts the rigid-body cable has: all of them.
var features = hoist.Features{Model: "the rigid-body cable", LoadBody: true, Ground: true, Damping: true, Elements: "the segments", Torsion: true}

// parseConfig reads and checks the config: the family's checks
// (hoist.Config.Check), the load above the ground, the settings.
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := hoist.Decode(raw, "rigidCable", &c); err != nil {
		return nil, err
	}
	if c.Own.Iterations == 0 {
		c.Own.Iterations = 20
	}
	errs := c.Check(features)
	add := errs.Add
	if _, err := c.Own.twist(); err != nil {
		add("%w", err)
	}
	if _, err := c.Own.hook(); err != nil {
		add("%w", err)
	}
	// The load starts hanging at rest; below the ground its contacts
	// would push it out through the cable in the first steps. (Only with
	// the numbers in range: else it restates their error.)
	if g := c.Ground; g != nil && len(errs) == 0 {
		if bottom := c.Suspension.Position[2] - c.Cable.Length0 - c.Load.Box()[2]; belowGround(c.Suspension.Position[2], c.Cable.Length0, c.Load.Box()[2], g.Height) {
			add("the load starts below the ground: its bottom at z = %.4g m, more than %g m below it (suspension.position z %g m − cable length0 %g m − load height %g m), the ground at %g m", bottom, groundSlack, c.Suspension.Position[2], c.Cable.Length0, c.Load.Box()[2], g.Height)
		}
	}
	errs.Int("rigidCable.iterations", c.Own.Iterations, 1, maxIterations)
	return &c, errs.Err()
}

// belowGround reports whether a load of height (m) hanging on length0 (m)
// of cable from a suspension point at z (m) starts with its bottom more
// than groundSlack below the ground at height (m).
func belowGround(z, length0, height, ground float64) bool {
	return z-length0-height < ground-groundSlack
}

// groundSlack (m) is how far below the ground a load may start: a load
// set on it (z = length0 + height, which rounds to ±4e-16 m) or sunk into
// it by as much as a landing sinks it (the ground's contacts hold every
// point within 1 cm), which the contacts push out within a step or two.
// Deeper, they pushed the load out through the cable: 0.2 m diverged
// within a second.
const groundSlack = 0.01
