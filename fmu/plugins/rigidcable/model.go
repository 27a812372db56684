package rigidcable

import (
	"fmt"
	"github.com/cablefmu/cablefmu/fmu"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
)

// Model is the rigid-body cable plugin; cable.node[k] are its N+1
// segment ends.
var Model = hoist.Plugin{Model: "rigid-cable",
	Checks: []fmu.Figure{
		{Check: "peak tension after a winch stop from 0.5 m/s, 1 t on the 20 mm rope: Mg + max k(x + τẋ)", Result: "−2.5 % at h = 1/60 s, +0.2 % at 1 ms", Tolerance: "5 %", Test: "TestRigidWinchStopPeak"},
		{Check: "axial bounce √(k/M) with the rope's mass (β tan β = m_c/M)", Result: "−7.4 % at 1/60 s (ωh = 0.93), −0.1 % at 1 ms", Tolerance: "10 %, 1 %", Test: "TestRigidBounceFrequencyAndDamping"},
		{Check: "hanging chain's modes 1–3 (zeros of J₀), 40 segments", Result: "+0.00 / +0.04 / +0.16 %", Tolerance: "1 %", Test: "the model atlas"},
		{Check: "stable mass ratio at 1/60 s (the paper's Table II)", Result: "stable at 1e5 load to segment mass", Tolerance: "no failed step", Test: "TestTableIIStableAtMassRatio1e5"},
		{Check: "a trolley move (0.5 m/s² to 1 m/s, 10 m) at communication steps of 0.02–0.5 s, by positions alone or with velocities: peak tension against the 0.01 s run", Result: "within 0.2 % with velocities, 0.5 % by positions alone, 0.3 % at alternating steps, 1.5 % with the velocities' derivatives at 0.1 s", Tolerance: "5 %", Test: "TestAnyMasterAnyStep"},
	},
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
