// Package material turns rope material data (SI) into the stiffnesses the
// cable models regularize their constraints with.
package material

import (
	"errors"
	"fmt"
	"math"
)

// Rope is a rope's cross-section and material, all SI.
type Rope struct {
	// E is the effective Young's modulus (Pa). A stranded steel wire rope is
	// softer than solid steel: its metallic area and the strands' helix
	// lower the modulus to roughly 80–110 GPa on the nominal area; the
	// default 1e11 Pa sits in that range.
	E float64
	// Poisson is the Poisson ratio σ (default 0.3).
	Poisson float64
	// Diameter is the nominal rope diameter (m).
	Diameter float64
	// Density is the mass density (kg/m³) over the nominal area.
	Density float64
}

// DefaultSteelRope is a 20 mm wire rope with an effective modulus of 100 GPa.
func DefaultSteelRope() Rope {
	return Rope{E: 1e11, Poisson: 0.3, Diameter: 0.02, Density: 7850}
}

// Validate reports data no rope can have.
func (r Rope) Validate() error {
	var errs []error
	if !(r.E > 0) || math.IsInf(r.E, 0) {
		errs = append(errs, fmt.Errorf("rope Young's modulus %g Pa: must be positive and finite", r.E))
	}
	if !(r.Diameter > 0) || math.IsInf(r.Diameter, 0) {
		errs = append(errs, fmt.Errorf("diameter %g m: must be positive and finite", r.Diameter))
	}
	if !(r.Density >= 0) || math.IsInf(r.Density, 0) {
		errs = append(errs, fmt.Errorf("density %g kg/m³: must be non-negative and finite", r.Density))
	}
	if !(r.Poisson > -1 && r.Poisson < 0.5) {
		errs = append(errs, fmt.Errorf("rope Poisson ratio %g: must lie in (-1, 0.5)", r.Poisson))
	}
	return errors.Join(errs...)
}

// Area returns the cross-section A = π d²/4 (m²).
func (r Rope) Area() float64 { return math.Pi * r.Diameter * r.Diameter / 4 }

// AxialStiffness returns EA (N): the stretch stiffness of a length L is
// c_s = EA/L ([SL07] §4.1).
func (r Rope) AxialStiffness() float64 { return r.E * r.Area() }

// TorsionalRigidity returns G J = E A r²/(4(1+σ)) (N·m²), so that a length L
// has c_t = GJ/L. [SL07] prints c_t = AY/4L(1+σ) without the r²; its own
// number (c_t ≈ 19 N·m/rad² for d = 10 mm, L = 4 m steel) needs the r²,
// which is also what G = E/(2(1+σ)) and J = π r⁴/2 give.
func (r Rope) TorsionalRigidity() float64 {
	rad := r.Diameter / 2
	return r.E * r.Area() * rad * rad / (4 * (1 + r.Poisson))
}

// LinearDensity returns the mass per length ρA (kg/m).
func (r Rope) LinearDensity() float64 { return r.Density * r.Area() }
