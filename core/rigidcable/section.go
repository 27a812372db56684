package rigidcable

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/material"
)

// Section is a cable's cross-section and material, SI.
type Section struct {
	// E is Young's modulus (Pa), Poisson the Poisson ratio σ.
	E, Poisson float64
	// Area is the cross-section A (m²); I its second moment of area for
	// bending (m⁴); J its torsion constant (m⁴), so that the torsional
	// rigidity is G J with G = E/(2(1+σ)).
	Area, I, J float64
	// Density is the mass density (kg/m³).
	Density float64
}

// Round returns the section of a solid round rope of diameter d (m):
// A = πd²/4, I = πd⁴/64, J = 2I.
func Round(e, poisson, diameter, density float64) Section {
	a := math.Pi * diameter * diameter / 4
	i := a * a / (4 * math.Pi)
	return Section{E: e, Poisson: poisson, Area: a, I: i, J: 2 * i, Density: density}
}

// FromRope returns the section of a rope: its nominal area and density,
// the second moment I = EI/E of its bending stiffness (material.Rope.Bending:
// a stranded rope bends far more easily than a solid bar), and the torsion
// constant of a solid round section, J = πd⁴/32, as the rope's torsional
// rigidity (material.Rope.TorsionalRigidity).
func FromRope(r material.Rope) Section {
	a := r.Area()
	j := a * a / (2 * math.Pi)
	return Section{E: r.E, Poisson: r.Poisson, Area: a, I: r.Bending() / r.E, J: j, Density: r.Density}
}

// PaperSquare returns the square section of area A used in [SL08] §VII-A:
// I = A²/12 and, as in eq. 36, the same I for twist (c_t = Y I_A / (2(1+σ) L)).
func PaperSquare(e, poisson, area, density float64) Section {
	i := area * area / 12
	return Section{E: e, Poisson: poisson, Area: area, I: i, J: i, Density: density}
}

// Validate reports impossible data.
func (s Section) Validate() error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"Young's modulus (Pa)", s.E}, {"area (m²)", s.Area}, {"second moment I (m⁴)", s.I}, {"torsion constant J (m⁴)", s.J}} {
		if !(v.x > 0) || math.IsInf(v.x, 0) {
			return fmt.Errorf("section %s %g: must be positive and finite", v.name, v.x)
		}
	}
	if !(s.Density >= 0) || math.IsInf(s.Density, 0) {
		return fmt.Errorf("section density %g kg/m³: must be non-negative and finite", s.Density)
	}
	if !(s.Poisson > -1 && s.Poisson < 0.5) {
		return fmt.Errorf("section Poisson ratio %g: must lie in (-1, 0.5)", s.Poisson)
	}
	return nil
}

// Stiffness returns the joint stiffnesses of eqs. 34–36 for a joint that
// stands for the length l (m) of cable: c_s = EA/l (N/m), c_b = EI/l
// (N·m/rad), c_t = GJ/l (N·m/rad).
//
// Which length a joint stands for decides whether the cable as a whole has
// the rope's stiffness. The segments are rigid, so all of the cable's
// compliance sits in its joints, and the compliances in series must add up
// to l_total/(EA). A joint between two segments therefore stands for half
// of each (the distance between their centres), and a joint at a cable end
// for half of the end segment; [SL08] writes L_(a) + L_(b) for this length.
func (s Section) Stiffness(l float64) (cs, cb, ct float64) {
	g := s.E / (2 * (1 + s.Poisson))
	return s.E * s.Area / l, s.E * s.I / l, g * s.J / l
}
