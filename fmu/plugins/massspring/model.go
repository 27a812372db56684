package massspring

import (
	"fmt"
	"github.com/cablefmu/cablefmu/fmu"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// Model is the mass–spring cable plugin; cable.node[k] are its N+1 mass
// points.
var Model = hoist.Plugin{Model: "mass-spring",
	Checks: []fmu.Figure{
		{Check: "cantilever, small deflection w L⁴/(8EI)", Result: "+0.99 / +0.24 / +0.06 % at 10 / 20 / 40 segments", Tolerance: "5 %, 2 %", Test: "TestCantileverSmallDeflection"},
		{Check: "hanging chain's modes 1–3 (zeros of J₀), 40 segments, 1/60 s", Result: "−0.03 / −0.27 / −0.34 %", Tolerance: "1 %", Test: "TestHangingCableModes"},
		{Check: "pendulum with the rope's mass and stretch", Result: "−0.013 %, energy never grows", Tolerance: "0.1 %", Test: "TestPendulum"},
		{Check: "peak tension after a sudden winch stop, v√(km) with damping", Result: "+0.62 % at 0.1 ms (−3.4 % at 1 ms)", Tolerance: "2 %", Test: "TestSuddenStop"},
	},
	When: "the comparison model of particles on springs with torsion springs [Loock & Schömer 2001]; for comparisons with the other models",
	Read: hoist.Reader(parseConfig, design), Config: func() any { return new(config) }}

func design(c *config) *hoist.Design {
	return &hoist.Design{
		Features: features,
		Texts: hoist.Texts{
			Step:      "the cable's linearly implicit Euler method",
			Load:      "a point mass at the cable's end",
			Density:   "the mass points' mass",
			Force:     "its springs' pull, the top point's weight and inertia",
			Tension:   "of the top segment (spring and damping)",
			Winch:     "every segment's rest length alike",
			LoadPoint: "the load (the cable's last point)",
			Node:      func(j, _ int) string { return fmt.Sprintf("mass point %d, counted from the suspension point down", j) },
		},
		Nodes:  c.Cable.Elements() + 1,
		NoSlip: noSlip(c),
		Quantities: func(q *hoist.Catalogue) {
			q.Count("cable.iterations", "Conjugate-gradient iterations of the last internal step, summed over its rebuilds (0 with the direct solve)",
				func(s *hoist.Simulation) float64 { return float64(s.Cable.(*cable).c.Stats.Iterations) })
		},
		Build: c.build,
	}
}

// noSlip says why the brake cannot slip at a force limit: with the
// paper's stiffnesses per mass (massSpring.perMass), paying out stiffens
// the springs with the points' mass, and the tension does not fall as the
// brake lets rope go.
func noSlip(c *config) string {
	if c.Own.PerMass != nil {
		return "with massSpring.perMass the springs stiffen as the winch pays out, so letting rope go does not lower the tension; keep it below the limit by commanding the speed"
	}
	return ""
}
