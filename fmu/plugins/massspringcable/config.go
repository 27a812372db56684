// Package massspringcable is the model plugin of the mass–spring cable
// (Loock & Schömer, package core/massspring): a hoisting cable of N mass
// points joined by linear and torsion springs from a crane's suspension
// point down to a load, a point mass at its end, paid out by a winch that
// changes the segments' rest length.
package massspringcable

import (
	"encoding/json"
	"fmt"

	"github.com/cablefmu/cablefmu/core/massspring"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type config struct {
	port.Hoisted
	Cable cableConfig `json:"cable"`
}

type cableConfig struct {
	port.PaidOut
	Segments int              `json:"segments"` // N
	Rope     port.BendingRope `json:"rope"`
	// PerMass gives the springs per mass of a point (the paper's Fig. 5
	// table) instead of the rope's stiffnesses: k_L/m, k_D/m, k_B/m.
	PerMass *struct {
		KL float64 `json:"kL"`
		KD float64 `json:"kD"`
		KB float64 `json:"kB"`
	} `json:"perMass"`
	// Solver: "direct" (banded Cholesky, default) or "cg"; Rebuilds of
	// the system a step (default 1 direct, 10 cg); CG's iterations per
	// rebuild at most and its relative tolerance.
	Solver       string  `json:"solver"`
	Rebuilds     int     `json:"rebuilds"`
	CGIterations int     `json:"cgIterations"`
	CGTolerance  float64 `json:"cgTolerance"`
}

func (c *cableConfig) solver() (massspring.Solver, error) {
	switch c.Solver {
	case "", "direct":
		return massspring.Direct, nil
	case "cg":
		return massspring.CG, nil
	}
	return 0, fmt.Errorf("cable solver %q: want direct or cg", c.Solver)
}

// The ranges of the springs per mass of a point (perMass), [LS01] Fig. 5
// has k_L/m 6e3 … 2.1e4, k_D/m 6 … 21, k_B/m 2.6e2 … 3e3: a point's
// stretch frequency √(k_L/m) up to 1e6 rad/s.
var (
	perMassKL = port.Range{Min: 1e-6, Max: 1e12} // 1/s²
	perMassKD = port.Range{Min: 0, Max: 1e6}     // 1/s
	perMassKB = port.Range{Min: 0, Max: 1e12}    // m²/s²
)

// parseConfig reads and checks the config: every number in its range
// (port.Hoisted's, port.PaidOut's and the rope's checks, perMass in its
// ranges above).
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	errs := port.Errors(c.Check())
	add := errs.Add
	errs.Int("cable.segments", c.Cable.Segments, 2, 10000)
	errs = append(errs, c.Cable.PaidOut.Check()...)
	errs = append(errs, c.Cable.Rope.Check("cable.rope")...)
	// The density's parameter range (port.RopeDensity), narrower than a
	// rope's (Rope.Check refused one below 0): the mass points need mass.
	if d := c.Cable.Rope.Density; d >= 0 && d < port.RopeDensity.Min {
		errs.Add("cable.rope.density %g kg/m³: must lie in [%g, %g] kg/m³ (the mass points need mass)", d, port.RopeDensity.Min, port.RopeDensity.Max)
	}
	if p := c.Cable.PerMass; p != nil {
		errs.Num("cable.perMass.kL", "1/s²", perMassKL, p.KL)
		errs.Num("cable.perMass.kD", "1/s", perMassKD, p.KD)
		errs.Num("cable.perMass.kB", "m²/s²", perMassKB, p.KB)
	}
	if _, err := c.Cable.solver(); err != nil {
		add("%w", err)
	}
	// 0 takes the solver's default rebuilds, 3 × the unknowns iterations.
	errs.Int("cable.rebuilds", c.Cable.Rebuilds, 0, 100)
	errs.Int("cable.cgIterations", c.Cable.CGIterations, 0, 1000000)
	if !(c.Cable.CGTolerance >= 0 && c.Cable.CGTolerance < 1) {
		add("cable.cgTolerance %g: must lie in [0, 1) (0: 1e-10)", c.Cable.CGTolerance)
	}
	return &c, errs.Err()
}
