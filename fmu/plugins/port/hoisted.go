package port

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

// PointLoad is the range of a point load's mass (kg): 0 leaves the
// rope's end bare.
var PointLoad = Range{0, Mass.Max}

// Check returns what is wrong with its values, an error each: gravity in
// Gravity, the hoist's position in Position, the load's mass in
// PointLoad.
func (h *Hoisted) Check() []error {
	var errs Errors
	errs.Num("gravity", "m/s²", Gravity, h.Gravity)
	errs.Vec("hoist.position", "m", Position, h.Hoist.Position[:])
	errs.Num("load.mass", "kg", PointLoad, h.Load.Mass)
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

// Check returns what is wrong with the lengths, an error each: length0
// in Length and above Min, minLength in OptLength.
func (p *PaidOut) Check() []error {
	var errs Errors
	errs.Num("cable.length0", "m", Length, p.Length0)
	errs.Num("cable.minLength", "m", OptLength, p.MinLength)
	if len(errs) == 0 && !(p.Length0 > p.Min()) {
		errs.Add("cable.length0 %g m: must exceed minLength %g m", p.Length0, p.Min())
	}
	return errs
}
