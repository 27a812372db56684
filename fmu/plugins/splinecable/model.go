package splinecable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Model is the quasi-dynamic spline cable plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "spline-cable" }

// Configure implements fmu.Model. The port "cable.node[*]" expands to
// cable.node[k].x|y|z for K points at equal rest arc length (outputNodes).
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
		Step:      "the spline's linearly implicit Euler method",
		Load:      "a point mass held to the cable's end",
		Density:   "the spline's mass",
		Force:     "the multiplier of its held start",
		Tension:   "the axial force EA(|r'|-1)",
		Winch:     "its rest length, along the whole spline",
		LoadPoint: "the load",
		Node: func(j, n int) string {
			return fmt.Sprintf("the centreline at rest arc length %d/%d of the cable from the suspension point", j-1, n-1)
		},
	}
}

func (d design) Nodes() int { return d.cfg.Own.outputNodes() }

func (design) Quantities(c *hoist.Catalogue) {
	sp := func(s *hoist.Simulation) *cable { return s.Cable.(*cable) }
	c.Input("cable.budget", "1", "Operations a step may take (0: no limit): above 95 % of it the spline takes the static system where its held points allow (Algorithm 2: with spline.clampStart; a cable held at one point stays dynamic), below 90 % the dynamic one again", 0, port.Range{Min: 0, Max: 1e15}, func(d *hoist.Drive, x float64) { d.Extra[0] = x })
	c.Output("cable.static", "1", "1 where the last step solved the static system, 0 the dynamic one", func(s *hoist.Simulation) float64 { return port.Flag(sp(s).sp.Static) })
	c.Output("cable.cost", "1", "Operations a step takes (what the budget is compared with)", func(s *hoist.Simulation) float64 { return sp(s).sp.Cost() })
}

// ConfigType implements fmu.Configurable.
func (Model) ConfigType() any { return new(config) }
