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
	// DampingTime is the rope's material damping as a Kelvin–Voigt
	// relaxation time τ (s): the axial force is EA(ε + τ ε̇), and bending and
	// twisting are damped alike. A mode of angular frequency ω gets the
	// damping ratio ζ = ωτ/2. Zero is an undamped rope.
	DampingTime float64
	// BendingStiffness is the rope's bending stiffness EI (N·m²); zero
	// means DefaultBendingFraction of a solid bar's (see Bending).
	BendingStiffness float64
	// TorsionalStiffness is the rope's torsional rigidity GJ (N·m²), the
	// torque per twist per length of the rope turned under a constant
	// tension (a loaded rope's own turn, a hook block's torsion pendulum);
	// zero means a solid round section's (see TorsionalRigidity).
	TorsionalStiffness float64
	// Flexible makes the rope a perfectly flexible string, the closed
	// forms' idealization: Bending is zero whatever BendingStiffness says.
	Flexible bool
	// TorqueFactor is the stranded rope's torque factor k: under tension T
	// it turns its ends with the torque k·d·T (Torque), the cause of a hook
	// block's rotation. Zero is a rope without torque (the default); its
	// sign sets the turn: a positive factor turns a load hanging from the
	// rope counterclockwise seen from above, a negative one the other way
	// (the rope's lay decides which a rope has). Measured at 20 % of the
	// breaking force: 0.089 for a six-strand 6x25F rope, 0.0076 for a
	// rotation-resistant 34x7-class rope (Dyform 34LR) (Manka, "Twist and
	// shout", Cranes Today, 2001); see TorqueFactorSixStrand and
	// TorqueFactorRotationResistant.
	TorqueFactor float64
}

// Torque factors of common constructions (Rope.TorqueFactor): six-strand
// regular lay, and rotation-resistant (34x7 class).
const (
	TorqueFactorSixStrand         = 0.089
	TorqueFactorRotationResistant = 0.0076
)

// MaxTorqueFactor bounds |TorqueFactor|: no rope construction comes near
// it (six-strand ropes stay below 0.1).
const MaxTorqueFactor = 0.2

// Torque returns the torque (N·m) a rope under tension T (N) exerts on its
// ends about its axis, k·d·T; none where it is slack.
func (r Rope) Torque(tension float64) float64 {
	return r.TorqueFactor * r.Diameter * max(tension, 0)
}

// FromStiffness returns the rope of diameter d (m) whose axial stiffness
// is ea (N) and mass per length mu (kg/m): the modulus and density that
// give them on the round section, Poisson ratio 0.3, undamped. It states
// a rope the way papers and closed forms do; set BendingStiffness,
// TorsionalStiffness and DampingTime on the result where they matter.
func FromStiffness(ea, mu, d float64) Rope {
	a := math.Pi * d * d / 4
	return Rope{E: ea / a, Poisson: 0.3, Diameter: d, Density: mu / a}
}

// DefaultDampingTime is the rope's Kelvin–Voigt time τ unless told
// otherwise: 1 ms. Published axial damping ratios of steel wire ropes in
// hoisting lie at a few percent in the 1–20 Hz band, where most of the
// loss is friction between wires; τ = 1 ms gives ζ = 2.8 % to the 8.9 Hz
// bounce of a 1 t load on 10 m of 20 mm rope, 0.3 % at 1 Hz and 6 % at
// 20 Hz. Set the value of your rope where it is known.
const DefaultDampingTime = 1e-3

// DefaultBendingFraction is the bending stiffness of a stranded rope as a
// fraction of a solid bar's πEd⁴/64 unless told otherwise. A rope's wires
// slide on each other when it bends: with free slip its stiffness is the
// sum of the wires' own (Costello, Theory of Wire Rope, ch. 4), about
// 0.002 of a solid bar for a 6×19 rope; with the wires stuck together it
// is the composite section's, about 0.6 (the metallic fill factor).
// Under tension friction moves it from the first bound towards the
// second (Cardou's review of taut helical strand bending stiffness;
// measured rising with tension by Jeong et al., Appl. Sci. 14:4621,
// 2024). 0.1 sits between the bounds for ropes in service; give
// BendingStiffness for a known construction.
const DefaultBendingFraction = 0.1

// DefaultSteelRope is a 20 mm wire rope with an effective modulus of 100 GPa,
// the default damping and the default bending stiffness.
func DefaultSteelRope() Rope {
	return Rope{E: 1e11, Poisson: 0.3, Diameter: 0.02, Density: 7850, DampingTime: DefaultDampingTime}
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
	// An incompressible material (0.5) is physical: only GJ uses σ, through
	// 1 + σ.
	if !(r.Poisson > -1 && r.Poisson <= 0.5) {
		errs = append(errs, fmt.Errorf("rope Poisson ratio %g: must lie in (-1, 0.5]", r.Poisson))
	}
	if !(r.DampingTime >= 0) || math.IsInf(r.DampingTime, 0) {
		errs = append(errs, fmt.Errorf("rope damping time %g s: must be non-negative and finite (0: undamped)", r.DampingTime))
	}
	if !(r.BendingStiffness >= 0) || math.IsInf(r.BendingStiffness, 0) {
		errs = append(errs, fmt.Errorf("rope bending stiffness %g N·m²: must be non-negative and finite (0: the default fraction of a solid bar)", r.BendingStiffness))
	}
	if !(r.TorsionalStiffness >= 0) || math.IsInf(r.TorsionalStiffness, 0) {
		errs = append(errs, fmt.Errorf("rope torsional stiffness %g N·m²: must be non-negative and finite (0: a solid round section's)", r.TorsionalStiffness))
	}
	if !(math.Abs(r.TorqueFactor) <= MaxTorqueFactor) {
		errs = append(errs, fmt.Errorf("rope torque factor %g: must lie in [-%g, %g] (six-strand ropes about 0.09, rotation-resistant below 0.01)", r.TorqueFactor, MaxTorqueFactor, MaxTorqueFactor))
	}
	return errors.Join(errs...)
}

// Area returns the cross-section A = π d²/4 (m²).
func (r Rope) Area() float64 { return math.Pi * r.Diameter * r.Diameter / 4 }

// AxialStiffness returns EA (N): the stretch stiffness of a length L is
// c_s = EA/L ([SL07] §4.1).
func (r Rope) AxialStiffness() float64 { return r.E * r.Area() }

// TorsionalRigidity returns TorsionalStiffness, or else a solid round
// section's G J = E A r²/(4(1+σ)) (N·m²), so that a length L has
// c_t = GJ/L. [SL07] prints c_t = AY/4L(1+σ) without the r²; its own
// number (c_t ≈ 19 N·m/rad² for d = 10 mm, L = 4 m steel) needs the r²,
// which is also what G = E/(2(1+σ)) and J = π r⁴/2 give.
func (r Rope) TorsionalRigidity() float64 {
	if r.TorsionalStiffness > 0 {
		return r.TorsionalStiffness
	}
	rad := r.Diameter / 2
	return r.E * r.Area() * rad * rad / (4 * (1 + r.Poisson))
}

// LinearDensity returns the mass per length ρA (kg/m).
func (r Rope) LinearDensity() float64 { return r.Density * r.Area() }

// RollInertia returns the moment of inertia per length about the rope's
// axis, ρ π d⁴/32 (kg·m): the polar moment of the round section's mass.
func (r Rope) RollInertia() float64 {
	return r.Density * math.Pi * r.Diameter * r.Diameter * r.Diameter * r.Diameter / 32
}

// SolidBending returns the bending stiffness πEd⁴/64 (N·m²) of a solid bar
// of the rope's diameter: an upper bound no stranded rope reaches.
func (r Rope) SolidBending() float64 {
	return r.E * math.Pi * math.Pow(r.Diameter, 4) / 64
}

// SteelModulus is the Young's modulus of steel (Pa), the wires' own.
const SteelModulus = 2.1e11

// MaxBending returns the bending stiffness (N·m²) of a solid steel bar of
// diameter d (m), E_steel π d⁴/64: a stranded rope whose wires were welded
// into one bar would bend so; none bends stiffer (with its wires stuck by
// friction about 0.6 of it, with them free below 0.01: see
// DefaultBendingFraction).
func MaxBending(d float64) float64 { return SteelModulus * math.Pi * math.Pow(d, 4) / 64 }

// Bending returns the rope's bending stiffness EI (N·m²): zero for a
// Flexible rope, else BendingStiffness, or DefaultBendingFraction of
// SolidBending when that is zero.
func (r Rope) Bending() float64 {
	if r.Flexible {
		return 0
	}
	if r.BendingStiffness > 0 {
		return r.BendingStiffness
	}
	return DefaultBendingFraction * r.SolidBending()
}

// MaxStrain is the largest static strain T/EA the wire hoist lays its
// falls with: steel wire ropes break near 2 %, fibre ropes near 10 %, and
// its falls' straight segments do not hold more.
const MaxStrain = 0.1

// CheckHung refuses a rope that hangs still under tension (N) at a stress
// no rope holds, beyond RunawayStress, or stretched beyond MaxHungStrain:
// a scenario's typing mistake (a load's mass or a rope's diameter off by
// orders of magnitude, E given in MPa), which the models would otherwise
// simulate as a rope stretched far past breaking, or a 10 m rope holding
// its load 1.5 km below the crane. An elastic cord stretched by a third
// is a rope that holds.
func (r Rope) CheckHung(tension float64) error {
	if err := r.CheckTension(tension); err != nil {
		return fmt.Errorf("hanging still, the rope %w", err)
	}
	return nil
}

// CheckTension refuses a tension (N) the rope cannot carry as the models
// take it (CheckHung's limits), such as a wire laid at 1e9 N: its error
// reads on after "the rope".
func (r Rope) CheckTension(tension float64) error {
	area := r.Area()
	stress := math.Abs(tension) / area
	if !(stress <= RunawayStress) {
		return fmt.Errorf("carries %.4g N, a stress of %.3g GPa (%.3g %% strain): beyond %g GPa no rope holds (rope wire breaks at 2 GPa at most)",
			math.Abs(tension), stress/1e9, 100*stress/r.E, RunawayStress/1e9)
	}
	if strain := stress / r.E; !(strain <= MaxHungStrain) {
		return fmt.Errorf("carries %.4g N and stretches by %.3g %% (T/EA with E = %.4g Pa): beyond %g %%, twice its length, no rope is the linear spring EA the models take; E is in pascals (steel wire rope about 1e11, fibre rope about 1e9 to 1e10)",
			math.Abs(tension), 100*strain, r.E, 100*MaxHungStrain)
	}
	return nil
}

// MaxHungStrain is the largest strain T/EA of a rope hanging still that
// the models take (CheckHung): 100 %, ten times a fibre rope's breaking
// strain and three times an elastic cord's working stretch.
const MaxHungStrain = 1.0

// Limits that no hoisting rope reaches, by which a cable model tells a
// simulation its step cannot hold, running away, from a violent but
// physical one (a rope snapping taut, a free end thrown at 31 m/s):
const (
	// RunawaySpeed (m/s) is the most a piece of rope may move against
	// the rope's mean motion: three times the speed of sound in air.
	RunawaySpeed = 1000
	// RunawayStress (Pa) is 10 GPa, five times the breaking stress of the
	// strongest rope wire and above any fibre's: a rope there either ran
	// away or would have broken, which no model here simulates.
	RunawayStress = 10e9
)
