package massspringcable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// Model is the mass–spring cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "mass-spring-cable" }

// Configure implements fmu.Model. The port "cable.node[*]" expands to
// cable.node[k].x|y|z for the N+1 mass points, k = 1 … N+1.
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
		Step:      "the cable's linearly implicit Euler method",
		Load:      "a point mass at the cable's end",
		Density:   "the mass points' mass",
		Force:     "its springs' pull, the top point's weight and inertia",
		Tension:   "of the top segment (spring and damping)",
		Winch:     "every segment's rest length alike",
		LoadPoint: "the load (the cable's last point)",
		Node: func(j, _ int) string {
			return fmt.Sprintf("mass point %d, counted from the suspension point down", j)
		},
	}
}

func (d design) Nodes() int { return d.cfg.Cable.Elements() + 1 }

func (design) Quantities(c *hoist.Catalogue) {
	c.Output("cable.iterations", "1", "Conjugate-gradient iterations of the last internal step, summed over its rebuilds (0 with the direct solve)",
		func(s *hoist.Simulation) float64 { return float64(s.Cable.(*cable).c.Stats.Iterations) })
}

// ConfigType implements fmu.Configurable.
func (Model) ConfigType() any { return new(config) }
