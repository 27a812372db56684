// Package spline is the model plugin of the quasi-dynamic spline
// cable (Theetten et al., package core/spline), a model of the hoist
// family (package hoist): a hoisting cable as a cubic B-spline with roll
// from a crane's suspension point down to a load (a point mass held to
// its end by Lagrange multipliers), switching between its dynamic and
// static systems on an operations budget, paid out by a winch that
// changes its rest length. Its own settings sit in the config's "spline"
// block.
package spline

import (
	"encoding/json"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type config struct {
	hoist.Config
	Own settings `json:"spline"`
}

// settings are the spline cable's own.
type settings struct {
	// Controls is the number of control points n ≥ 4 (left out: the
	// cable's segments + 3, a span per segment).
	Controls int `json:"controls" zero:"default"`
	// Ceiling (m) bounds a control point's move in a step (0: none).
	Ceiling float64 `json:"ceiling"`
	// ClampStart holds the cable's tangent at the suspension point
	// vertical: the point and its tangent then remove the rigid motions,
	// and Algorithm 2 may take the static system (a cable held at one
	// point alone always runs dynamic).
	ClampStart bool `json:"clampStart"`
	// OutputNodes is how many points cable.node[k] samples at equal rest
	// arc length, the ends included (default 21).
	OutputNodes int `json:"outputNodes" zero:"default"`
}

func (c *settings) outputNodes() int {
	if c.OutputNodes > 0 {
		return c.OutputNodes
	}
	return 21
}

// controls returns the control points: the block's, or a span per
// segment of the cable.
func (c *config) controls() int {
	if c.Own.Controls > 0 {
		return c.Own.Controls
	}
	return c.Cable.Elements() + 3
}

// features are the crane's parts the spline cable has: the rope has no
// material damping in [TGDM07]'s model.
var features = hoist.Features{Model: "the spline cable", Elements: "the spline", Torsion: true}

// parseConfig reads and checks the config: the family's checks
// (hoist.Config.Check), the control points, the ceiling in
// port.OptLength, the output nodes.
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := hoist.Decode(raw, "spline", &c); err != nil {
		return nil, err
	}
	errs := c.Check(features)
	if c.Own.Controls != 0 {
		errs.Int("spline.controls", c.Own.Controls, 4, 10000)
		if c.Cable.Segments != 0 && c.Cable.Segments+3 != c.Own.Controls {
			errs.Add("spline.controls %d and cable.segments %d disagree: a cubic spline of n control points has n − 3 spans (give one of them)", c.Own.Controls, c.Cable.Segments)
		}
	}
	errs.Num("spline.ceiling", "m", port.OptLength, c.Own.Ceiling)
	if c.Own.OutputNodes != 0 { // 0 takes 21
		errs.Int("spline.outputNodes", c.Own.OutputNodes, 2, 10000)
	}
	return &c, errs.Err()
}
