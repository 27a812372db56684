package rigidcable

import (
	"math"

	"github.com/cablefmu/cablefmu/core/material"
)

// Round returns a solid round bar of diameter d (m) as a rope: its
// bending stiffness the solid section's πEd⁴/64, its torsional rigidity
// the solid section's (material.Rope's default), undamped.
func Round(e, poisson, diameter, density float64) material.Rope {
	r := material.Rope{E: e, Poisson: poisson, Diameter: diameter, Density: density}
	r.BendingStiffness = r.SolidBending()
	return r
}

// PaperSquare returns the square section of area A used in [SL08] §VII-A
// as a rope of that area: I = A²/12 and, as in eq. 36, the same I for
// twist (c_t = Y I_A / (2(1+σ) L)), undamped.
func PaperSquare(e, poisson, area, density float64) material.Rope {
	i := area * area / 12
	return material.Rope{E: e, Poisson: poisson, Diameter: math.Sqrt(4 * area / math.Pi), Density: density,
		BendingStiffness: e * i, TorsionalStiffness: e / (2 * (1 + poisson)) * i}
}

// stiffness returns the joint stiffnesses of eqs. 34–36 for a joint that
// stands for the length l (m) of the rope r: c_s = EA/l (N/m), c_b = EI/l
// (N·m/rad), c_t = GJ/l (N·m/rad).
//
// Which length a joint stands for decides whether the cable as a whole has
// the rope's stiffness. The segments are rigid, so all of the cable's
// compliance sits in its joints, and the compliances in series must add up
// to l_total/(EA). A joint between two segments therefore stands for half
// of each (the distance between their centres), and a joint at a cable end
// for half of the end segment; [SL08] writes L_(a) + L_(b) for this length.
func stiffness(r material.Rope, l float64) (cs, cb, ct float64) {
	return r.AxialStiffness() / l, r.Bending() / l, r.TorsionalRigidity() / l
}
