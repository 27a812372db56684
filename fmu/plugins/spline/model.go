package spline

import (
	"fmt"
	"github.com/cablefmu/cablefmu/fmu"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Model is the quasi-dynamic spline cable plugin; cable.node[k] are K
// points of its centreline at equal rest arc length (spline.outputNodes).
var Model = hoist.Plugin{Model: "spline",
	Checks: []fmu.Figure{
		{Check: "cantilever, small deflection w L⁴/(8EI), 10 control points", Result: "0.00 % (static system)", Tolerance: "2 %", Test: "TestCantileverStatic"},
		{Check: "twist of one end by two turns: moment GJθ/L", Result: "0.000 %", Tolerance: "1 %", Test: "TestTwistTorque"},
		{Check: "pendulum with the rope's mass and stretch", Result: "−0.013 %", Tolerance: "0.1 %", Test: "TestPendulum"},
	},
	When: "the comparison model of quasi-dynamic splines [Theetten et al. 2007]: a smooth rope shape at low cost; for comparisons with the other models",
	Read: hoist.Reader(parseConfig, design), Config: func() any { return new(config) }}

func design(c *config) *hoist.Design {
	return &hoist.Design{
		Features: features,
		Texts: hoist.Texts{
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
		},
		Nodes:      c.Own.outputNodes(),
		Quantities: quantities,
		Build:      c.build,
	}
}

// quantities are the spline's own ports: Algorithm 2's budget and what it
// decided.
func quantities(q *hoist.Catalogue) {
	sp := func(s *hoist.Simulation) *cable { return s.Cable.(*cable) }
	q.Input("cable.budget", "1", "Operations a step may take (0: no limit): above 95 % of it the spline takes the static system where its held points allow (Algorithm 2: with spline.clampStart; a cable held at one point stays dynamic), below 90 % the dynamic one again", 0, port.Range{Min: 0, Max: 1e15}, func(d *hoist.Drive, x float64) { d.Extra[0] = x })
	q.State("cable.static", "True where the last step solved the static system, false the dynamic one", func(s *hoist.Simulation) float64 { return port.Flag(sp(s).sp.Static) })
	q.Output("cable.cost", "1", "Operations a step takes (what the budget is compared with)", func(s *hoist.Simulation) float64 { return sp(s).sp.Cost() })
}
