package multibody

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// TestVectorAssembleTerms holds assembleTermsVec (in vector form where the
// processor has AVX) to assembleTerms bit for bit, on 20,000 random
// constraints: one to eight rows on one to three bodies, each row's block
// linear, angular, both or all zeros (signed zeros among them), a NaN now
// and then, entries from 1e-300 to 1e300 and subnormals, a body with an
// inverse inertia that is not symmetric (so that its rows and columns
// cannot stand in for each other).
func TestVectorAssembleTerms(t *testing.T) {
	if !vectorKernels {
		t.Log("the vector kernels do not run here (no AVX, another architecture, or -tags purego): their Go forms stand in")
	}
	rng := rand.New(rand.NewSource(7))
	entry := func() float64 { return kernelEntry(rng, 20) }
	vec := func() geom.Vec3 { return geom.V(entry(), entry(), entry()) }
	zero := func() geom.Vec3 {
		z := func() float64 { return math.Copysign(0, float64(rng.Intn(2)*2-1)) }
		return geom.V(z(), z(), z())
	}
	same := func(what string, got, want float64) {
		t.Helper()
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
	for c := 0; c < 20000; c++ {
		b := NewBody("b", 1, geom.V(1, 1, 1), geom.Vec3{})
		for i := range 3 {
			for j := range 3 {
				b.invI[i][j] = entry()
			}
		}
		b.invMass, b.Vel, b.AngVel, b.predVel, b.predAng = entry(), vec(), vec(), vec(), vec()
		n, nb := 1+rng.Intn(8), 1+rng.Intn(3)
		k := rng.Intn(nb)
		sums := make([]rowSums, n)
		blocks := make([]Jacobian, n*nb)
		for i := range sums {
			sums[i] = rowSums{entry(), entry(), entry(), entry()}
		}
		for i := range blocks {
			j := &blocks[i]
			j.Lin, j.Ang = vec(), vec()
			switch rng.Intn(4) {
			case 0:
				j.Lin = zero()
			case 1:
				j.Ang = zero()
			case 2:
				j.Lin, j.Ang = zero(), zero()
			}
		}
		minvs1, minvs2 := make([]Jacobian, n*nb), make([]Jacobian, n*nb)
		for i := range minvs1 {
			minvs1[i] = Jacobian{vec(), vec()}
			minvs2[i] = minvs1[i]
		}
		sums1, sums2 := append([]rowSums(nil), sums...), append([]rowSums(nil), sums...)
		assembleTermsVec(b, sums1, blocks, minvs1, k, nb)
		assembleTerms(b, sums2, blocks, minvs2, k, nb)
		for i := range sums1 {
			same("gv", sums1[i].gv, sums2[i].gv)
			same("gpred", sums1[i].gpred, sums2[i].gpred)
			same("d", sums1[i].d, sums2[i].d)
			same("jump", sums1[i].jump, sums2[i].jump)
		}
		for i := range minvs1 {
			m1, m2 := minvs1[i], minvs2[i]
			for q, v := range []float64{m1.Lin.X, m1.Lin.Y, m1.Lin.Z, m1.Ang.X, m1.Ang.Y, m1.Ang.Z} {
				same("M⁻¹J", v, []float64{m2.Lin.X, m2.Lin.Y, m2.Lin.Z, m2.Ang.X, m2.Ang.Y, m2.Ang.Z}[q])
			}
		}
	}
}
