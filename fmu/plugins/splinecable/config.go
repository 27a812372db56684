// Package splinecable is the model plugin of the quasi-dynamic spline
// cable (Theetten et al., package core/spline): a hoisting cable as a
// cubic B-spline with roll from a crane's suspension point down to a load
// (a point mass held to its end by Lagrange multipliers), switching
// between its dynamic and static systems on an operations budget, paid
// out by a winch that changes its rest length.
package splinecable

import (
	"encoding/json"

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

// parseConfig reads and checks the config: every number in its range
// (port.Hoisted's, port.PaidOut's and the rope's checks, the ceiling in port.OptLength).
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	errs := port.Errors(c.Check())
	errs.Int("cable.controls", c.Cable.Controls, 4, 10000)
	errs = append(errs, c.Cable.PaidOut.Check()...)
	errs.Num("cable.ceiling", "m", port.OptLength, c.Cable.Ceiling)
	if c.Cable.OutputNodes != 0 { // 0 takes 21
		errs.Int("cable.outputNodes", c.Cable.OutputNodes, 2, 10000)
	}
	errs = append(errs, c.Cable.Rope.Check("cable.rope")...)
	// The density's parameter range (port.RopeDensity), narrower than a
	// rope's (Rope.Check refused one below 0): the spline needs mass.
	if d := c.Cable.Rope.Density; d >= 0 && d < port.RopeDensity.Min {
		errs.Add("cable.rope.density %g kg/m³: must lie in [%g, %g] kg/m³ (the spline needs mass)", d, port.RopeDensity.Min, port.RopeDensity.Max)
	}
	return &c, errs.Err()
}
