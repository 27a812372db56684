package massspring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// The torsion spring's angle is the angle between the segments, its
// gradient and Hessian (eqs. 13–16) agree with central differences of
// the energy and of the gradient to 1e-7 of their scale at bends from a
// right angle down to a straight cable (φ = 1e-3 … 0, where eq. 15's
// 1/|a×b| has nothing to divide), and at 150°.
func TestBendDerivatives(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const kb = 3.7
	for _, phi := range []float64{0, 1e-9, 1e-6, 1e-3, 0.04, 0.06, 0.3, 1.2, math.Pi / 2, 2.6} {
		for trial := 0; trial < 4; trial++ {
			// b random, a at angle phi from b, random lengths and plane.
			b := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			bu, _ := b.Unit()
			w, _ := geom.Perpendicular(bu).Unit()
			rot := geom.AxisAngle(bu, 2*math.Pi*rng.Float64())
			w = rot.Rotate(w)
			a := bu.Scale(math.Cos(phi)).AddScaled(math.Sin(phi), w).Scale(0.5 + rng.Float64())
			bd, err := newBend(kb, a, b)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(bd.phi-phi) > 1e-12 {
				t.Errorf("φ = %g: angle %g", phi, bd.phi)
			}
			checkBend(t, phi, kb, a, b, bd)
		}
	}
}

func checkBend(t *testing.T, phi, kb float64, a, b geom.Vec3, bd bend) {
	t.Helper()
	const eps = 1e-6
	energy := func(a, b geom.Vec3) float64 {
		x, err := newBend(kb, a, b)
		if err != nil {
			t.Fatal(err)
		}
		return x.energy
	}
	grads := func(a, b geom.Vec3) (geom.Vec3, geom.Vec3) {
		x, err := newBend(kb, a, b)
		if err != nil {
			t.Fatal(err)
		}
		return x.ga, x.gb
	}
	scaleG := kb / math.Min(a.Norm(), b.Norm())
	scaleH := scaleG / math.Min(a.Norm(), b.Norm())
	for k := 0; k < 3; k++ {
		e := unit(k).Scale(eps)
		// Gradient against the energy's central difference.
		ga := (energy(a.Add(e), b) - energy(a.Sub(e), b)) / (2 * eps)
		gb := (energy(a, b.Add(e)) - energy(a, b.Sub(e))) / (2 * eps)
		if math.Abs(ga-bd.ga.Comp(k)) > 1e-7*scaleG || math.Abs(gb-bd.gb.Comp(k)) > 1e-7*scaleG {
			t.Errorf("φ = %g: ∂E/∂a_%d %g (difference %g), ∂E/∂b_%d %g (difference %g)", phi, k, bd.ga.Comp(k), ga, k, bd.gb.Comp(k), gb)
		}
		// Hessian column k against the gradient's central difference.
		apa, apb := grads(a.Add(e), b)
		ama, amb := grads(a.Sub(e), b)
		bpa, bpb := grads(a, b.Add(e))
		bma, bmb := grads(a, b.Sub(e))
		for r := 0; r < 3; r++ {
			haa := (apa.Comp(r) - ama.Comp(r)) / (2 * eps) // ∂²E/∂a_r∂a_k
			hba := (apb.Comp(r) - amb.Comp(r)) / (2 * eps) // ∂²E/∂b_r∂a_k
			hab := (bpa.Comp(r) - bma.Comp(r)) / (2 * eps) // ∂²E/∂a_r∂b_k
			hbb := (bpb.Comp(r) - bmb.Comp(r)) / (2 * eps)
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"aa", bd.haa[r][k], haa}, {"ab", bd.hab[r][k], hab}, {"ba", bd.hab[k][r], hba}, {"bb", bd.hbb[r][k], hbb}} {
				if math.Abs(c.got-c.want) > 1e-6*scaleH {
					t.Errorf("φ = %g: H_%s[%d][%d] = %g, difference %g", phi, c.name, r, k, c.got, c.want)
				}
			}
		}
	}
}

func unit(k int) geom.Vec3 {
	var v geom.Vec3
	switch k {
	case 0:
		v.X = 1
	case 1:
		v.Y = 1
	default:
		v.Z = 1
	}
	return v
}

// The series of φ/s and of F_qq's factor meet their closed forms where
// the one takes over from the other, to 1e-11 (the closed forms' own
// cancellation there is about 1e-13).
func TestBendSeriesMeetClosedForms(t *testing.T) {
	const c = 1.7
	for _, tt := range []float64{0.03, 0.04, 0.049, seriesBelow} {
		s := tt * c
		phi := math.Atan2(s, c)
		g, h := factors(s, c, phi)
		gc, hc := phi/s, (s*c/(s*s+c*c)-phi)/(s*s*s)
		if math.Abs(g/gc-1) > 1e-11 || math.Abs(h/hc-1) > 1e-11 {
			t.Errorf("t = %g: series g %.15g h %.15g, closed forms %.15g %.15g", tt, g, h, gc, hc)
		}
	}
}

// A cable folded back on itself (φ = π) has no bend direction: refused.
func TestBendFoldedRefused(t *testing.T) {
	if _, err := newBend(1, geom.V(-1, 0, 0), geom.V(1, 0, 0)); err == nil {
		t.Error("a folded cable gave a bend")
	}
}
