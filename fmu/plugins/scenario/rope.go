package scenario

import (
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Rope is a scenario's rope material data (SI), as every cable model reads
// it. E, poisson, diameter and density are required (fmu.DecodeStrict
// refuses a scenario without them); DampingTime is optional: absent, it is
// material.DefaultDampingTime, and 0 is an undamped rope.
type Rope struct {
	E           float64  `json:"E" required:"true"`        // Pa
	Poisson     float64  `json:"poisson" required:"true"`  // 1
	Diameter    float64  `json:"diameter" required:"true"` // m
	Density     float64  `json:"density" required:"true"`  // kg/m³
	DampingTime *float64 `json:"dampingTime"`
}

// Check returns what is wrong with the rope's data, an error each, the
// keys named name.E, name.poisson …: every value outside its range
// (port.Modulus, Poisson, Diameter, Density, Time), and if all lie in theirs,
// what material.Rope.Validate refuses (a Poisson ratio of 0.5 exactly).
func (r Rope) Check(name string) []error {
	errs := r.ranges(name)
	if len(errs) == 0 {
		if err := r.Material().Validate(); err != nil {
			errs.Add("%s: %w", name, err)
		}
	}
	return errs
}

func (r Rope) ranges(name string) Errors {
	var errs Errors
	errs.Num(name+".E", "Pa", port.Modulus, r.E)
	errs.Num(name+".poisson", "", port.Poisson, r.Poisson)
	errs.Num(name+".diameter", "m", port.Diameter, r.Diameter)
	errs.Num(name+".density", "kg/m³", port.Density, r.Density)
	if r.DampingTime != nil {
		errs.Num(name+".dampingTime", "s", port.Time, *r.DampingTime)
	}
	return errs
}

// Material returns the rope's material with the defaults filled in.
func (r Rope) Material() material.Rope {
	m := material.Rope{E: r.E, Poisson: r.Poisson, Diameter: r.Diameter, Density: r.Density, DampingTime: material.DefaultDampingTime}
	if r.DampingTime != nil {
		m.DampingTime = *r.DampingTime
	}
	return m
}

// BendingRope is a rope's material data with its bending stiffness
// (N·m²), optional: absent, material.DefaultBendingFraction of a solid
// bar's.
type BendingRope struct {
	Rope
	BendingStiffness *float64 `json:"bendingStiffness"`
}

// Check is Rope.Check with the bending stiffness in port.Bending.
func (r BendingRope) Check(name string) []error {
	errs := r.ranges(name)
	if r.BendingStiffness != nil {
		errs.Num(name+".bendingStiffness", "N·m²", port.Bending, *r.BendingStiffness)
	}
	if len(errs) == 0 {
		if err := r.Material().Validate(); err != nil {
			errs.Add("%s: %w", name, err)
		}
	}
	return errs
}

// Material returns the rope's material with the defaults filled in.
func (r BendingRope) Material() material.Rope {
	m := r.Rope.Material()
	if r.BendingStiffness != nil {
		m.BendingStiffness = *r.BendingStiffness
	}
	return m
}
