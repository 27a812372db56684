// Package stability holds the local criteria that decide where a time step
// cannot resolve a cable's motion, and how much numerical remedy that place
// gets. The physics (material stiffness and damping) stays as given
// everywhere else; the remedies vanish as the step resolves the motion.
//
// Two criteria, used by every cable model:
//
//   - A compliant constraint row of stiffness k acting on an effective mass
//     m has the angular frequency ω = √(k/m). SPOOK (package multibody) is
//     stable for any ωh with no damping at all, but a chain of rows whose
//     ωh ≫ 1 rings at the step's Nyquist frequency after every jolt, and the
//     ringing of stiff stretch rows tears light segments apart under heavy
//     loads. Rows with ωh > ResolvedLimit get at least the relaxation time
//     Relaxation·h (Unresolved, Damping); rows the step resolves keep the
//     material's damping alone.
//
//   - A segment (or node) of mass m (kg) and length l (m) under tension T (N)
//     vibrates across the cable at ω ≈ √(T/(m l)): the tension's transverse
//     stiffness T/l is not in the linearly implicit constraint Jacobian, so
//     the step sees it explicitly and resolves it only while the Courant
//     number C = h√(T/(m l)) stays below ½ ([SLNB11] eq. 25: a node is
//     stable below f_crit = l m/(4h²), i.e. C < ½). Above it the rigid-body
//     cable stiffens the joint's bending (BendStiffness): an implicit bend
//     row of stiffness k_b ≥ β h² T²/m = β C² T l couples a segment's
//     transverse motion to its neighbours within the step. The rope's own
//     bending, EI/l, does the same wherever it is larger, so no stiffening
//     happens there (light loads, short steps, many segments with light
//     loads). The HMR wire coarsens its light nodes by the same C instead.
package stability

import "math"

// ResolvedLimit is the largest ωh (rad per step) taken as resolved by the
// step: a mode at ωh = 2 is sampled about three times per period, and
// SPOOK's frequency error there is already −21 %.
const ResolvedLimit = 2.0

// Relaxation is the relaxation time of unresolved rows in steps: γ ≥
// Relaxation·h. 0.1 damps the Nyquist ringing by a factor 0.85 per step
// and shifts the damping of the resolved modes coupled to these rows by no
// more than ζ = ωh·0.05 (at ωh = 0.9: 0.045).
const Relaxation = 0.05

// Beta is β of BendStiffness: the smallest factor that kept a 10 m, 20 mm
// steel rope of 10 to 100 segments stable under loads of 10 to 1e5 times a
// segment's mass at h = 1/60 s after a hoist jerk (tested in package
// rigidcable); at 0.1 the light-segment vibration of N = 100 grows.
const Beta = 0.2

// Unresolved reports whether a row of stiffness k (N/m or N·m/rad) on the
// effective inverse mass d (1/kg or 1/(kg·m²)) vibrates faster than the step
// h (s) resolves: h√(k d) > ResolvedLimit.
func Unresolved(k, d, h float64) bool {
	return h*h*k*d > ResolvedLimit*ResolvedLimit
}

// TransverseRelaxation is the relaxation time, in steps, of unresolved rows
// that carry geometric stiffness (bend rows under tension).
const TransverseRelaxation = 0.5

// Damping returns the relaxation time (s) of a row with the material
// damping time tau (s): tau where the step resolves the row, at least
// Relaxation·h where it does not (see Unresolved), and at least
// TransverseRelaxation·h where the unresolved row also carries geometric
// stiffness.
func Damping(tau, h float64, unresolved, geometric bool) float64 {
	switch {
	case !unresolved:
		return tau
	case geometric:
		return math.Max(tau, TransverseRelaxation*h)
	}
	return math.Max(tau, Relaxation*h)
}

// Courant returns C = h√(T/(m l)) for a segment of mass m (kg) and length
// l (m) under tension T (N) at step h (s); zero for T ≤ 0.
func Courant(h, tension, mass, length float64) float64 {
	if tension <= 0 {
		return 0
	}
	return h * math.Sqrt(tension/(mass*length))
}

// BendStiffness returns the bend stiffness (N·m/rad) of a joint whose rope
// alone gives material (EI/l), between segments of which the lighter has
// mass m (kg), under tension T (N) at step h (s): max(material, β h² T²/m).
// The second term is the numerical remedy; see the package doc.
func BendStiffness(material, h, tension, mass float64) float64 {
	if tension <= 0 || !(mass > 0) {
		return material
	}
	return math.Max(material, Beta*h*h*tension*tension/mass)
}
