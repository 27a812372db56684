package spline

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// The stretching and bending densities' gradients and Hessians agree with
// central differences to 1e-6 of their scale, bent and straight.
func TestEnergyDerivatives(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	const eps = 1e-6
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	unit := func(k int) geom.Vec3 { return [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}[k] }
	for trial := 0; trial < 20; trial++ {
		a := rv().Scale(0.5).Add(geom.V(1, 0, 0))
		c := rv()
		if trial%4 == 0 {
			c = a.Scale(0.3) // straight: r″ along r'
		}
		const ea, ei = 7.0, 3.0
		_, g, h := stretch(ea, a)
		b := bend(ei, a, c)
		for k := 0; k < 3; k++ {
			e := unit(k).Scale(eps)
			sp, _, _ := stretch(ea, a.Add(e))
			sm, _, _ := stretch(ea, a.Sub(e))
			if fd := (sp - sm) / (2 * eps); math.Abs(fd-g.Comp(k)) > 1e-6*ea {
				t.Errorf("stretch gradient %d: %g, difference %g", k, g.Comp(k), fd)
			}
			_, gp, _ := stretch(ea, a.Add(e))
			_, gm, _ := stretch(ea, a.Sub(e))
			for r := 0; r < 3; r++ {
				if fd := (gp.Comp(r) - gm.Comp(r)) / (2 * eps); math.Abs(fd-h[r][k]) > 1e-6*ea {
					t.Errorf("stretch Hessian [%d][%d]: %g, difference %g", r, k, h[r][k], fd)
				}
			}
			bap, bam := bend(ei, a.Add(e), c), bend(ei, a.Sub(e), c)
			bcp, bcm := bend(ei, a, c.Add(e)), bend(ei, a, c.Sub(e))
			scale := ei * (1 + c.Norm()*c.Norm())
			if fd := (bap.e - bam.e) / (2 * eps); math.Abs(fd-b.ga.Comp(k)) > 1e-6*scale {
				t.Errorf("trial %d: bending ∂/∂a_%d %g, difference %g", trial, k, b.ga.Comp(k), fd)
			}
			if fd := (bcp.e - bcm.e) / (2 * eps); math.Abs(fd-b.gc.Comp(k)) > 1e-6*scale {
				t.Errorf("trial %d: bending ∂/∂c_%d %g, difference %g", trial, k, b.gc.Comp(k), fd)
			}
			for r := 0; r < 3; r++ {
				for _, x := range []struct {
					name      string
					got, want float64
				}{
					{"aa", b.haa[r][k], (bap.ga.Comp(r) - bam.ga.Comp(r)) / (2 * eps)},
					{"ac", b.hac[r][k], (bcp.ga.Comp(r) - bcm.ga.Comp(r)) / (2 * eps)},
					{"cc", b.hcc[r][k], (bcp.gc.Comp(r) - bcm.gc.Comp(r)) / (2 * eps)},
				} {
					if math.Abs(x.got-x.want) > 1e-5*scale {
						t.Errorf("trial %d: bending H_%s[%d][%d] %g, difference %g", trial, x.name, r, k, x.got, x.want)
					}
				}
			}
		}
	}
}
