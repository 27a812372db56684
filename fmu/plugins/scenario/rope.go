package scenario

import (
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Rope is a scenario's rope material data (SI), as every cable model reads
// it. E, poisson, diameter and density are required (fmu.DecodeStrict
// refuses a scenario without them); DampingTime is optional: absent, it is
// material.DefaultDampingTime, and 0 is an undamped rope. The torsional
// stiffness GJ (absent: a solid round section's) and the torque factor k
// (material.Rope.TorqueFactor; absent: none) are for models with torsion,
// which the others refuse (Unsupported).
type Rope struct {
	E                  float64  `json:"E" required:"true"`        // Pa
	Poisson            float64  `json:"poisson" required:"true"`  // 1
	Diameter           float64  `json:"diameter" required:"true"` // m
	Density            float64  `json:"density" required:"true"`  // kg/m³
	DampingTime        *float64 `json:"dampingTime"`
	TorsionalStiffness *float64 `json:"torsionalStiffness"` // N·m²
	TorqueFactor       *float64 `json:"torqueFactor"`       // 1
}

// Unsupported returns an error for each of the rope's torsion data that a
// model without torsion (torsion false) or without rope torque (torque
// false) cannot use, naming the key at name and the model.
func (r Rope) Unsupported(name, model string, torsion, torque bool) []error {
	var errs Errors
	if r.TorsionalStiffness != nil && !torsion {
		errs.Add("%s.torsionalStiffness: %s carries no torsion (remove the key)", name, model)
	}
	if r.TorqueFactor != nil && *r.TorqueFactor != 0 && !torque {
		errs.Add("%s.torqueFactor: %s does not carry the rope's torque (the massless cable with its twist does; remove the key)", name, model)
	}
	return errs
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
		errs = append(errs, r.torsion(name)...)
	}
	return errs
}

// Torsional stiffness bounds relative to a solid bar of the rope's
// diameter and modulus: a stranded rope is softer in torsion (about 1/30
// of it for a six-strand rope under a fifth of its breaking force), and
// no rope reaches three times a bar of its effective modulus (a solid
// steel bar's shear modulus).
const (
	minTorsionFraction = 1e-4
	maxTorsionFraction = 3.0
)

// torsion refuses a torsional stiffness no rope of this diameter has.
func (r Rope) torsion(name string) Errors {
	var errs Errors
	if r.TorsionalStiffness == nil {
		return errs
	}
	solid := material.Rope{E: r.E, Poisson: r.Poisson, Diameter: r.Diameter}.TorsionalRigidity()
	lo, hi := minTorsionFraction*solid, maxTorsionFraction*solid
	if gj := *r.TorsionalStiffness; !(gj >= lo && gj <= hi) {
		// The range is the rope's own (build/README.md says why), so the
		// message ends with it as every range check's does.
		errs.Add("%s.torsionalStiffness %g N·m²: must lie in [%.3g, %.3g] N·m²", name, gj, lo, hi)
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
	if r.TorsionalStiffness != nil {
		errs.Num(name+".torsionalStiffness", "N·m²", port.Torsion, *r.TorsionalStiffness)
	}
	if r.TorqueFactor != nil {
		errs.Num(name+".torqueFactor", "", port.TorqueFactor, *r.TorqueFactor)
	}
	return errs
}

// Material returns the rope's material with the defaults filled in.
func (r Rope) Material() material.Rope {
	m := material.Rope{E: r.E, Poisson: r.Poisson, Diameter: r.Diameter, Density: r.Density, DampingTime: material.DefaultDampingTime}
	if r.DampingTime != nil {
		m.DampingTime = *r.DampingTime
	}
	if r.TorsionalStiffness != nil {
		m.TorsionalStiffness = *r.TorsionalStiffness
	}
	if r.TorqueFactor != nil {
		m.TorqueFactor = *r.TorqueFactor
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

// Check is Rope.Check with the bending stiffness in port.Bending, and at
// most a solid steel bar's of the rope's diameter (material.MaxBending):
// no rope bends stiffer. Absent (or 0) it is the default fraction of a
// solid bar of the rope's modulus, which a modulus far above steel's
// would take beyond that bound: then the key must be given.
func (r BendingRope) Check(name string) []error {
	errs := r.ranges(name)
	if r.BendingStiffness != nil {
		errs.Num(name+".bendingStiffness", "N·m²", port.Bending, *r.BendingStiffness)
	}
	if len(errs) == 0 {
		if err := r.Material().Validate(); err != nil {
			errs.Add("%s: %w", name, err)
		}
		errs = append(errs, r.torsion(name)...)
		hi := material.MaxBending(r.Diameter)
		switch ei := r.Material().Bending(); {
		case r.BendingStiffness != nil && !(*r.BendingStiffness <= hi):
			errs.Add("%s.bendingStiffness %g N·m²: must lie in [0, %.3g] N·m²", name, *r.BendingStiffness, hi)
		case !(ei <= hi):
			errs.Add("%s.bendingStiffness: the default, %g of a solid bar of modulus %g Pa, is %.4g N·m², more than a solid steel bar's %.3g N·m²: give the rope's bendingStiffness in [0, %.3g] N·m²",
				name, material.DefaultBendingFraction, r.E, ei, hi, hi)
		}
	}
	return errs
}

// WireMaterial is Material for the hybrid multiresolution wire, which
// bends only where the scenario gives bendingStiffness: a perfectly
// flexible rope otherwise. Its bends are not the default yet: a slack
// wire laid in sharp bends, or dropped onto the ground, at 1/60 s can
// gain energy (the bends' rows turn with the moment explicitly, and a
// merged segment shorter than its rest length pushes; see
// core/hmrwire's segment.push), where the flexible wire does not.
func (r BendingRope) WireMaterial() material.Rope {
	m := r.Material()
	m.Flexible = r.BendingStiffness == nil
	return m
}

// Material returns the rope's material with the defaults filled in.
func (r BendingRope) Material() material.Rope {
	m := r.Rope.Material()
	if r.BendingStiffness != nil {
		m.BendingStiffness = *r.BendingStiffness
	}
	return m
}
