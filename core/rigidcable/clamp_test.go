package rigidcable

import (
	"fmt"
	"math"
	"testing"
)

// The clamp's bend stiffness puts the hinge of the discrete chain where the
// tensioned rope's boundary layer puts it, λ = √(EI/T) beyond the clamp:
// solving the chain's static bending (segments of length l, interior joints
// EI/l, the clamp joint's bendStiffness, tension T, the far rope at a unit
// angle to the clamp's axis) gives a far line that meets the axis at λ
// within 1e-9, from segments much shorter than λ (where the stiffness is
// the plain end joint's 2EI/l to first order: within 1.2 l/(4λ)) to
// segments 56 times longer. A slack rope bends with the plain 2EI/l.
func TestClampCarriesBoundaryLayer(t *testing.T) {
	const ei = 78.5 // N·m², the default rope's
	for _, c := range []struct{ l, tension float64 }{
		{0.01, 100}, {0.05, 100}, {0.1, 100}, {0.15, 100}, {0.1, 1e3}, {0.5, 9810}, {0.2, 9810}, {1, 1.2e5}, {0.5, 1e6},
	} {
		joint, rope := &Joint{Bend: ei / (c.l / 2), Length: c.l / 2, Link: c.l}, &Joint{force: c.tension}
		joint.rope = rope
		kc := joint.bendStiffness()
		lambda := math.Sqrt(ei / c.tension)
		x0 := chainHinge(kc, ei/c.l, c.tension, c.l)
		name := fmt.Sprintf("l = %g m, T = %g N (l/λ = %.2f): k_c = %.4g N·m/rad (2EI/l = %.4g)", c.l, c.tension, c.l/lambda, kc, 2*ei/c.l)
		if math.Abs(x0/lambda-1) > 1e-9 {
			t.Errorf("%s: the chain's hinge %.6g m beyond the clamp, want λ = %.6g m", name, x0, lambda)
		} else {
			t.Logf("%s: hinge at λ = %.4g m", name, lambda)
		}
		if r := c.l / lambda; r < 0.2 && math.Abs(kc/(2*ei/c.l)-1) > 1.2*r/4 {
			t.Errorf("%s: want the plain 2EI/l within 1.2 l/(4λ) = %.2g where the chain resolves the layer", name, 1.2*r/4)
		}
	}
	joint := &Joint{Bend: 314, Length: 0.25, Link: 0.5, rope: &Joint{force: -50}}
	if k := joint.bendStiffness(); k != 314 {
		t.Errorf("slack rope at the clamp: k_c = %g, want the plain 314", k)
	}
}

// chainHinge returns where the far line of a tensioned chain clamped at
// one end meets the clamp's axis (m): segments of length l, interior
// joints of stiffness ki, the clamp joint kc (N·m/rad), tension T (N), the
// far rope at the unit angle. It solves the static bending of 4000
// segments (ψ_n the angles less the far one; the last held at 0) by the
// tridiagonal recurrence and sums the offset l Σψ_n.
func chainHinge(kc, ki, tension, l float64) float64 {
	const n = 4000
	// (kc + ki + T l) ψ₁ − ki ψ₂ = −kc; −ki ψ_{k−1} + (2ki + T l) ψ_k − ki ψ_{k+1} = 0.
	diag, rhs := make([]float64, n), make([]float64, n)
	diag[0], rhs[0] = kc+ki+tension*l, -kc
	for k := 1; k < n; k++ {
		diag[k] = 2*ki + tension*l
	}
	// Thomas algorithm, off-diagonals −ki.
	for k := 1; k < n; k++ {
		f := -ki / diag[k-1]
		diag[k] -= f * -ki
		rhs[k] -= f * rhs[k-1]
	}
	psi := make([]float64, n)
	psi[n-1] = rhs[n-1] / diag[n-1]
	for k := n - 2; k >= 0; k-- {
		psi[k] = (rhs[k] + ki*psi[k+1]) / diag[k]
	}
	sum := 0.0
	for _, p := range psi {
		sum += p
	}
	return -l * sum
}
