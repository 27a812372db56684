// Package massspring is the model plugin of the mass–spring cable
// (Loock & Schömer, package core/massspring), a model of the hoist family
// (package hoist): a hoisting cable of N mass points joined by linear and
// torsion springs from a crane's suspension point down to a load, a point
// mass at its end, paid out by a winch that changes the segments' rest
// length. Its own settings sit in the config's "massSpring" block.
package massspring

import (
	"encoding/json"
	"fmt"

	"github.com/cablefmu/cablefmu/core/massspring"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type config struct {
	hoist.Config
	Own settings `json:"massSpring"`
}

// settings are the mass–spring cable's own.
type settings struct {
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

func (c *settings) solver() (massspring.Solver, error) {
	switch c.Solver {
	case "", "direct":
		return massspring.Direct, nil
	case "cg":
		return massspring.CG, nil
	}
	return 0, fmt.Errorf("massSpring.solver %q: want direct or cg", c.Solver)
}

// The ranges of the springs per mass of a point (perMass), [LS01] Fig. 5
// has k_L/m 6e3 … 2.1e4, k_D/m 6 … 21, k_B/m 2.6e2 … 3e3: a point's
// stretch frequency √(k_L/m) up to 1e6 rad/s.
var (
	perMassKL = port.Range{Min: 1e-6, Max: 1e12} // 1/s²
	perMassKD = port.Range{Min: 0, Max: 1e6}     // 1/s
	perMassKB = port.Range{Min: 0, Max: 1e12}    // m²/s²
)

// features are the crane's parts the mass–spring cable has.
var features = hoist.Features{Model: "the mass-spring cable", Damping: true, Elements: "the mass points"}

// parseConfig reads and checks the config: the family's checks
// (hoist.Config.Check), perMass in its ranges above, the solver's
// settings.
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := hoist.Decode(raw, "massSpring", &c); err != nil {
		return nil, err
	}
	errs := c.Check(features)
	add := errs.Add
	if p := c.Own.PerMass; p != nil {
		errs.Num("massSpring.perMass.kL", "1/s²", perMassKL, p.KL)
		errs.Num("massSpring.perMass.kD", "1/s", perMassKD, p.KD)
		errs.Num("massSpring.perMass.kB", "m²/s²", perMassKB, p.KB)
	}
	if _, err := c.Own.solver(); err != nil {
		add("%w", err)
	}
	// 0 takes the solver's default rebuilds, 3 × the unknowns iterations.
	errs.Int("massSpring.rebuilds", c.Own.Rebuilds, 0, 100)
	errs.Int("massSpring.cgIterations", c.Own.CGIterations, 0, 1000000)
	if !(c.Own.CGTolerance >= 0 && c.Own.CGTolerance < 1) {
		add("massSpring.cgTolerance %g: must lie in [0, 1) (0: 1e-10)", c.Own.CGTolerance)
	}
	return &c, errs.Err()
}
