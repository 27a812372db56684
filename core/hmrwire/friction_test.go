package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// edgeRatio returns q = T_high/T_low at which a wire turning by 90° over
// a sharp edge slides along itself: with the edge's normal on the turn's
// bisector, the normal force is (T_high + T_low)/√2 and the tangential
// one (T_high − T_low)/√2, so q = (1 + μ)/(1 − μ) (infinite from μ = 1).
func edgeRatio(mu float64) float64 {
	if mu >= 1 {
		return math.Inf(1)
	}
	return (1 + mu) / (1 - mu)
}

// TestFrictionAlongWire is Fig. 12 (bottom): the Atwood machine over the
// level beam with friction. Over the two 90° edges the tensions step by
// the ratio q of edgeRatio each, T₂ = q² T₁, so the heavy box (M₂, the
// light one M₁) falls with a = g (M₂ − q² M₁)/(M₂ + q² M₁) while q² <
// M₂/M₁, and the wire sticks from the μ where q² = M₂/M₁ (μ = (√2 − 1)/
// (√2 + 1) = 0.1716 at r = 0.5). Acceptance: a within 5 % (of g/3 where a is small), stick at the
// threshold + 0.02.
func TestFrictionAlongWire(t *testing.T) {
	r := 0.5
	stick := bisect(func(mu float64) float64 { q := edgeRatio(mu); return q*q - 1/r }, 0, 0.9)
	t.Logf("stick threshold μ = %.4f", stick)
	for _, m := range []float64{10, 1000} {
		for _, mu := range []float64{0.03, 0.06, 0.1, 0.13, 0.16, stick + 0.02, 0.5, 1} {
			h := 1.0 / 60
			a := newAtwood(t, r*m, m, mu, 0)
			end := a.wireMass / 2
			M1, M2 := r*m+end, m+end
			q2 := edgeRatio(mu) * edgeRatio(mu)
			want := 0.0
			if q2 < M2/M1 {
				want = g0 * (M2 - q2*M1) / (M2 + q2*M1)
			}
			var v0 float64
			// 0.75 s: the light box rises by at most 0.9 m.
			a.run(t, 0.75, h, func(i int) {
				if i == 14 {
					v0 = a.m2.Vel.Z
				}
			})
			acc := -(a.m2.Vel.Z - v0) / (30 * h)
			t.Logf("m=%g μ=%.3f: a = %.4f m/s², want %.4f", m, mu, acc, want)
			if math.Abs(acc-want) > 0.05*math.Max(want, g0/3) {
				t.Errorf("m=%g μ=%.3f: a = %.4f m/s², want %.4f within 5 %%", m, mu, acc, want)
			}
		}
	}
}

// TestFrictionAcrossEdge is Fig. 12 (top): the beam's axis inclined by θ,
// equal boxes, the wire across the beam. The boxes and the contact nodes
// slide down along the edges. With the wire's tension T uniform, each
// node is pulled along its edge by m(g sin θ − a) and across it by
// m√(2g²cos²θ + (g sin θ − a)²) (the hanging side and the top side at
// 90°); Coulomb's bound on a massless node gives
//
//	a = g sin θ − √2 μ g cos θ/√(1 − μ²),  stick for μ ≥ sin θ/√(1 + cos²θ).
//
// The paper's a = g sin θ (1 − μ/tan θ) counts only the box's weight as
// the node's normal force; it holds where both sides of the wire hang
// from one node (a knife edge), and sticks later (μ = tan θ); the wire
// sticks at μ = tan θ + 0.02 here too. Acceptance: a within 5 % (of
// g sin θ/3 where a is small), a = 0 at the thresholds + 0.02.
func TestFrictionAcrossEdge(t *testing.T) {
	for _, deg := range []float64{5, 15, 30} {
		theta := deg * math.Pi / 180
		stick := math.Sin(theta) / math.Sqrt(1+math.Cos(theta)*math.Cos(theta))
		for _, m := range []float64{10, 1000} {
			for _, mu := range []float64{0, 0.25 * stick, 0.5 * stick, 0.75 * stick, stick + 0.02, math.Tan(theta) + 0.02, 1} {
				h := 1.0 / 60
				want := 0.0
				if mu < stick {
					want = g0*math.Sin(theta) - math.Sqrt2*mu*g0*math.Cos(theta)/math.Sqrt(1-mu*mu)
				}
				down := geom.V(0, -math.Cos(theta), -math.Sin(theta))
				// The boxes start as they hang while sliding: along g − a.
				hang, _ := geom.V(0, 0, -g0).AddScaled(-want, down).Unit()
				a := newAtwoodHanging(t, m, m, mu, theta, hang)
				var v0 float64
				a.run(t, 0.75, h, func(i int) {
					if i == 14 {
						v0 = a.m2.Vel.Dot(down)
					}
				})
				acc := (a.m2.Vel.Dot(down) - v0) / (30 * h)
				t.Logf("θ=%g° m=%g μ=%.3f: a = %.4f m/s², want %.4f", deg, m, mu, acc, want)
				if math.Abs(acc-want) > 0.05*math.Max(want, g0*math.Sin(theta)/3) {
					t.Errorf("θ=%g° m=%g μ=%.3f: a = %.4f m/s², want %.4f within 5 %%", deg, m, mu, acc, want)
				}
			}
		}
	}
}

// bisect returns the root of f in [lo, hi] (f changes sign there).
func bisect(f func(float64) float64, lo, hi float64) float64 {
	flo := f(lo)
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if fm := f(mid); (fm < 0) == (flo < 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
