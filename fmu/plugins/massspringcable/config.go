// Package massspringcable is the model plugin of the mass–spring cable
// (Loock & Schömer, package core/massspring): a hoisting cable of N mass
// points joined by linear and torsion springs from a crane's suspension
// point down to a load, a point mass at its end, paid out by a winch that
// changes the segments' rest length.
package massspringcable

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

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

func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	errs := c.Check()
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Cable.Segments < 2 || c.Cable.Segments > 10000 {
		add("cable segments %d: want 2 to 10000", c.Cable.Segments)
	}
	errs = append(errs, c.Cable.PaidOut.Check()...)
	rope := c.Cable.Rope.Material()
	if err := rope.Validate(); err != nil {
		add("cable: %w", err)
	}
	if !(rope.Density > 0) {
		add("cable rope density %g kg/m³: must be positive (the mass points need mass)", rope.Density)
	}
	if p := c.Cable.PerMass; p != nil && (!(p.KL > 0 && p.KD >= 0 && p.KB >= 0) || math.IsInf(p.KL+p.KD+p.KB, 0)) {
		add("cable perMass kL %g, kD %g, kB %g: kL must be positive, kD and kB non-negative, all finite", p.KL, p.KD, p.KB)
	}
	if _, err := c.Cable.solver(); err != nil {
		add("%w", err)
	}
	if c.Cable.Rebuilds < 0 || c.Cable.Rebuilds > 100 {
		add("cable rebuilds %d: want 0 (the solver's default) to 100", c.Cable.Rebuilds)
	}
	if c.Cable.CGIterations < 0 || c.Cable.CGIterations > 1000000 {
		add("cable cgIterations %d: want 0 (3 × the unknowns) to 1000000", c.Cable.CGIterations)
	}
	if !(c.Cable.CGTolerance >= 0 && c.Cable.CGTolerance < 1) {
		add("cable cgTolerance %g: want 0 (1e-10) or a value below 1", c.Cable.CGTolerance)
	}
	return &c, errors.Join(errs...)
}
