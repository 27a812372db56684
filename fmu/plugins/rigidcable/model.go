package rigidcable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// Model is the rigid-body cable plugin; cable.node[k] are its N+1
// segment ends.
var Model = hoist.Plugin{Model: "rigid-cable",
	When: "a rope of rigid segments that bends, twists and goes slack, stable at 1/60 s under loads 1e5 times a segment's mass [Servin & Lacoursière 2008]; for sway, rope modes, slack rope and ground contact",
	Read: hoist.Reader(parseConfig, design), Config: func() any { return new(config) }}

func design(c *config) *hoist.Design {
	return &hoist.Design{
		Features: features,
		Texts: hoist.Texts{
			Step:      "the cable solver",
			Diameter:  "the segments are solid cylinders of this diameter",
			Density:   "the segments' mass",
			LoadPoint: "the load's centre of mass",
			Node:      func(j, _ int) string { return fmt.Sprintf("segment end %d, counted from the suspension point down", j) },
		},
		Nodes: c.Cable.Elements() + 1,
		// Paying out lengthens every rigid segment within the step, and
		// the tension at the sheave does not follow the length let go
		// (a slip of 1.7 m/s² under 12.3 t: the load fell 2.5 times
		// faster than the brake's force allows, then no pay-out brought
		// the tension to the limit).
		NoSlip: "the rigid-body cable's tension at the sheave does not follow the rope a slipping brake lets go; keep it below the limit by commanding the speed",
		Build:  c.build,
	}
}
