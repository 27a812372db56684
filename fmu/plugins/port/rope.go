package port

import "github.com/cablefmu/cablefmu/core/material"

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

// Material returns the rope's material with the defaults filled in.
func (r BendingRope) Material() material.Rope {
	m := r.Rope.Material()
	if r.BendingStiffness != nil {
		m.BendingStiffness = *r.BendingStiffness
	}
	return m
}
