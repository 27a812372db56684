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

// PaidOut is a hoisting cable's length in a scenario: Length0 (m) from the
// suspension point to the load at the start, and MinLength (m) where the
// winch stops hauling in (default 1 m).
type PaidOut struct {
	Length0   float64 `json:"length0"`
	MinLength float64 `json:"minLength"`
}

// Min returns where the winch stops hauling in (m).
func (p *PaidOut) Min() float64 {
	if p.MinLength > 0 {
		return p.MinLength
	}
	return 1
}

// Check returns what is wrong with the lengths, an error each.
func (p *PaidOut) Check() []error {
	var errs []error
	if !(p.Length0 > p.Min()) || math.IsInf(p.Length0, 0) {
		errs = append(errs, fmt.Errorf("cable length0 %g m: must be finite and exceed minLength %g m", p.Length0, p.Min()))
	}
	if p.MinLength < 0 {
		errs = append(errs, fmt.Errorf("cable minLength %g m: must be non-negative", p.MinLength))
	}
	return errs
}
