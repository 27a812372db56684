package spline

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// The clamped cubic basis is a partition of unity with derivatives
// agreeing with central differences, interpolates the end control points,
// and its quadrature integrates the basis products exactly (Σ_i ∫ b_i =
// the length).
func TestBasis(t *testing.T) {
	k := newKnots(9, 3)
	for _, u := range []float64{0, 0.1, 0.5, 0.75, 1.3, 2.2, 2.999, 3} {
		val, d1, d2, first := k.basis(u)
		sum, s1, s2 := 0.0, 0.0, 0.0
		for a := 0; a < 4; a++ {
			sum += val[a]
			s1 += d1[a]
			s2 += d2[a]
		}
		if math.Abs(sum-1) > 1e-14 || math.Abs(s1) > 1e-12 || math.Abs(s2) > 1e-10 {
			t.Errorf("u = %g: Σ b %g, Σ b' %g, Σ b'' %g", u, sum, s1, s2)
		}
		const e = 1e-6
		if u > e && u < 3-e {
			vp, dp, _, fp := k.basis(u + e)
			vm, dm, _, fm := k.basis(u - e)
			for a := 0; a < 4; a++ {
				i := first + a
				get := func(v [4]float64, f int) float64 {
					if j := i - f; j >= 0 && j < 4 {
						return v[j]
					}
					return 0
				}
				if fd := (get(vp, fp) - get(vm, fm)) / (2 * e); math.Abs(fd-d1[a]) > 1e-6 {
					t.Errorf("u = %g: b'_%d %g, difference %g", u, i, d1[a], fd)
				}
				if fd := (get(dp, fp) - get(dm, fm)) / (2 * e); math.Abs(fd-d2[a]) > 1e-4 {
					t.Errorf("u = %g: b''_%d %g, difference %g", u, i, d2[a], fd)
				}
			}
		}
	}
	if val, _, _, first := k.basis(0); first != 0 || val[0] != 1 {
		t.Errorf("at u = 0: first %d, b_0 %g; want the first control point alone", first, val[0])
	}
	if val, _, _, first := k.basis(3); first != 5 || val[3] != 1 {
		t.Errorf("at u = L: first %d, b_8 %g; want the last control point alone", first, val[3])
	}
	total := 0.0
	for _, s := range k.samples() {
		for a := 0; a < 4; a++ {
			total += s.w * s.val[a]
		}
	}
	if math.Abs(total-3) > 1e-13 {
		t.Errorf("Σ ∫ b_i = %.15g, want the length 3", total)
	}
}

// Points samples the centreline where Point does.
func TestPointsMatchPoint(t *testing.T) {
	r := rope20()
	spec := ropeSpec(r, 7, 9, geom.V(0.3, 0, -1))
	s := newSpline(t, spec)
	s.run(t, 1.0/60, 30, nil)
	pts := s.Points(11, nil)
	for k, p := range pts {
		q, _ := s.Point(7 * float64(k) / 10)
		if p.Sub(q).Norm() > 1e-12 {
			t.Errorf("point %d: %v, Point gives %v", k, p, q)
		}
	}
}
