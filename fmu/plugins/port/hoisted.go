package port

import (
	"fmt"
	"math"
)

// Hoisted is the part of a scenario's config every cable model with the
// Hoist ports and a point load reads: gravity, the suspension point's
// start and the load.
type Hoisted struct {
	// Gravity (m/s²) along −z.
	Gravity float64 `json:"gravity"`
	// Hoist is the suspension point (sheave on the trolley), driven by
	// inputs.
	Hoist struct {
		Position [3]float64 `json:"position"`
	} `json:"hoist"`
	// Load is a point mass at the cable's end (kg): hook and payload.
	Load struct {
		Mass float64 `json:"mass"`
	} `json:"load"`
}

// Check returns what is wrong with its values, an error each.
func (h *Hoisted) Check() []error {
	var errs []error
	if !(h.Gravity >= 0) || math.IsInf(h.Gravity, 0) {
		errs = append(errs, fmt.Errorf("gravity %g m/s²: must be non-negative and finite", h.Gravity))
	}
	for _, x := range h.Hoist.Position {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			errs = append(errs, fmt.Errorf("hoist position %v m: must be finite", h.Hoist.Position))
			break
		}
	}
	if !(h.Load.Mass >= 0) || math.IsInf(h.Load.Mass, 0) {
		errs = append(errs, fmt.Errorf("load mass %g kg: must be non-negative and finite", h.Load.Mass))
	}
	return errs
}
