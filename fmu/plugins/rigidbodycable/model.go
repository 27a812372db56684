package rigidbodycable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// Model is the rigid-body cable plugin; cable.node[k] are its N+1
// segment ends.
var Model = hoist.Plugin{Model: "rigid-body-cable", Read: hoist.Reader(parseConfig, design), Config: func() any { return new(config) }}

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
		Build: c.build,
	}
}
