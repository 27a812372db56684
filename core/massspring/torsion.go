package massspring

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// bend is a torsion spring's state at a mass point i ([LS01] eq. 10):
// with a = x_{i+1} − x_i and b = x_i − x_{i−1} (eq. 12), the bend angle
// φ = atan2(|a×b|, a·b) (the paper's arctan(|a×b|/(a·b)), extended past a
// right angle), the energy E = k_B φ²/2, its gradient with respect to a
// and b (eqs. 13–15) and its Hessian blocks (eq. 16 and its siblings).
//
// The derivatives go through q = |a×b|² = |a|²|b|² − c² and c = a·b, of
// which E = (k_B/2) F(q, c) with F = atan2(√q, c)², smooth in q at q = 0:
// eq. 15's 1/|a×b| cancels against φ, which the formulas below do
// analytically (series in t = |a×b|/c near a straight cable) so that a
// straight cable, where the paper's form divides zero by zero, has its
// exact stiffness.
type bend struct {
	phi    float64   // rad
	energy float64   // J
	ga, gb geom.Vec3 // ∂E/∂a, ∂E/∂b (N)
	// ∂²E/∂a², ∂²E/∂a∂bᵀ (row: a's component, column: b's), ∂²E/∂b² (N/m)
	haa, hab, hbb geom.Mat3
}

// seriesBelow is the t = |a×b|/(a·b) below which F's factors are summed
// from their series: there the closed forms lose digits to cancellation
// (relative error about 1e-16/t²), the series' first omitted term is
// below t¹⁰ ≈ 1e-13.
const seriesBelow = 0.05

// newBend evaluates the torsion spring of stiffness kb (N·m/rad) for the
// segment vectors a and b (m).
func newBend(kb float64, a, b geom.Vec3) (bend, error) {
	aa, bb, c := a.Dot(a), b.Dot(b), a.Dot(b)
	if !(aa > 0 && bb > 0) {
		return bend{}, fmt.Errorf("a segment has zero length")
	}
	r := aa * bb // = q + c²
	n := a.Cross(b)
	q := n.Dot(n) // not r − c², which cancels where the cable is straight
	s := math.Sqrt(q)
	if c <= 0 && s <= 1e-9*math.Sqrt(r) {
		return bend{}, fmt.Errorf("the cable is folded back on itself")
	}
	phi := math.Atan2(s, c)
	g, h := factors(s, c, phi)
	r2 := r * r
	fq := g * c / r
	fc := -2 * phi * s / r
	fqq := 0.5*h*c/r - g*c/r2
	fqc := -c/r2 + g*(q-c*c)/r2
	fcc := 2 * s * (s + 2*c*phi) / r2
	k := kb / 2
	// q's derivatives: ∇_a q = 2|b|² a − 2c b, ∇_b q = 2|a|² b − 2c a;
	// ∇²_aa q = 2|b|² I − 2 b bᵀ, ∇²_bb q = 2|a|² I − 2 a aᵀ,
	// ∇²_ab q = 4 a bᵀ − 2 b aᵀ − 2c I. c's: ∇_a c = b, ∇_b c = a, ∇²_ab c = I.
	qa := a.Scale(2*bb).AddScaled(-2*c, b)
	qb := b.Scale(2*aa).AddScaled(-2*c, a)
	out := bend{phi: phi, energy: k * phi * phi}
	out.ga = qa.Scale(k*fq).AddScaled(k*fc, b)
	out.gb = qb.Scale(k*fq).AddScaled(k*fc, a)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			ai, aj, bi, bj := a.Comp(i), a.Comp(j), b.Comp(i), b.Comp(j)
			qai, qaj, qbi, qbj := qa.Comp(i), qa.Comp(j), qb.Comp(i), qb.Comp(j)
			id := 0.0
			if i == j {
				id = 1
			}
			out.haa[i][j] = k * (fq*(2*bb*id-2*bi*bj) + fqq*qai*qaj + fqc*(qai*bj+bi*qaj) + fcc*bi*bj)
			out.hbb[i][j] = k * (fq*(2*aa*id-2*ai*aj) + fqq*qbi*qbj + fqc*(qbi*aj+ai*qbj) + fcc*ai*aj)
			out.hab[i][j] = k * (fq*(4*ai*bj-2*bi*aj-2*c*id) + fc*id + fqq*qai*qbj + fqc*(qai*aj+bi*qbj) + fcc*bi*aj)
		}
	}
	return out, nil
}

// factors returns g = φ/s and h = (s c/(s² + c²) − φ)/s³ (F_qq's factor)
// for s = |a×b|, c = a·b, φ = atan2(s, c): by their series in t = s/c
// near a straight cable (t < seriesBelow), in closed form elsewhere.
func factors(s, c, phi float64) (g, h float64) {
	if t := s / c; c > 0 && t < seriesBelow {
		// atan(t)/t = Σ (−1)ᵏ t²ᵏ/(2k+1); t/(1+t²) − atan t =
		// Σ_{k≥1} (−1)ᵏ 2k/(2k+1) t²ᵏ⁺¹.
		t2 := t * t
		g = (1 - t2*(1.0/3-t2*(1.0/5-t2*(1.0/7-t2/9)))) / c
		h = (-2.0/3 + t2*(4.0/5-t2*(6.0/7-t2*(8.0/9-t2*10.0/11)))) / (c * c * c)
		return g, h
	}
	return phi / s, (s*c/(s*s+c*c) - phi) / (s * s * s)
}
