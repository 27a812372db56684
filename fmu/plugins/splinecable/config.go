// Package splinecable is the model plugin of the quasi-dynamic spline
// cable (Theetten et al., package core/spline): a hoisting cable as a
// cubic B-spline with roll from a crane's suspension point down to a load
// (a point mass held to its end by Lagrange multipliers), switching
// between its dynamic and static systems on an operations budget, paid
// out by a winch that changes its rest length.
package splinecable

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type config struct {
	port.Hoisted
	Cable cableConfig `json:"cable"`
}

type cableConfig struct {
	port.PaidOut
	Controls int              `json:"controls"` // control points n ≥ 4
	Rope     port.BendingRope `json:"rope"`
	// Ceiling (m) bounds a control point's move in a step (0: none).
	Ceiling float64 `json:"ceiling"`
	// ClampStart holds the cable's tangent at the suspension point
	// vertical: the point and its tangent then remove the rigid motions,
	// and Algorithm 2 may take the static system (a cable held at one
	// point alone always runs dynamic).
	ClampStart bool `json:"clampStart"`
	// OutputNodes is how many points cable.node[k] samples at equal rest
	// arc length, the ends included (default 21).
	OutputNodes int `json:"outputNodes"`
}

func (c *cableConfig) outputNodes() int {
	if c.OutputNodes > 0 {
		return c.OutputNodes
	}
	return 21
}

func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	errs := c.Check()
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.Cable.Controls < 4 || c.Cable.Controls > 10000 {
		add("cable controls %d: want 4 to 10000 control points", c.Cable.Controls)
	}
	errs = append(errs, c.Cable.PaidOut.Check()...)
	if !(c.Cable.Ceiling >= 0) || math.IsInf(c.Cable.Ceiling, 0) {
		add("cable ceiling %g m: must be non-negative (0: none) and finite", c.Cable.Ceiling)
	}
	if c.Cable.OutputNodes < 0 || c.Cable.OutputNodes == 1 || c.Cable.OutputNodes > 10000 {
		add("cable outputNodes %d: want 0 (21) or 2 to 10000", c.Cable.OutputNodes)
	}
	rope := c.Cable.Rope.Material()
	if err := rope.Validate(); err != nil {
		add("cable: %w", err)
	}
	if !(rope.Density > 0) {
		add("cable rope density %g kg/m³: must be positive (the spline needs mass)", rope.Density)
	}
	return &c, errors.Join(errs...)
}
