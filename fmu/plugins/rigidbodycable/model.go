package rigidbodycable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// Model is the rigid-body cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "rigid-body-cable" }

// Configure implements fmu.Model. The port "cable.node[*]" expands to
// cable.node[k].x|y|z for k = 1 … N+1.
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	return hoist.Configure(sc, &cfg.Config, design{cfg})
}

// design implements hoist.Design.
type design struct{ cfg *config }

func (design) Features() hoist.Features { return features }

func (design) Texts() hoist.Texts {
	return hoist.Texts{
		Step:      "the cable solver",
		Diameter:  "the segments are solid cylinders of this diameter",
		Density:   "the segments' mass",
		LoadPoint: "the load's centre of mass",
		Node: func(j, _ int) string {
			return fmt.Sprintf("segment end %d, counted from the suspension point down", j)
		},
	}
}

func (d design) Nodes() int { return d.cfg.Cable.Elements() + 1 }

func (design) Quantities(*hoist.Catalogue) {}

// ConfigType implements fmu.Configurable.
func (Model) ConfigType() any { return new(config) }
