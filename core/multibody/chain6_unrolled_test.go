package multibody

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// TestUnrolledKernels holds the unrolled 6×6 kernels (chain6_unrolled.go)
// to their loop forms (chain6_loop_test.go) bit for bit, on 20,000 random
// inputs each: entries of mixed signs and magnitudes from 1e-300 to 1e300,
// with zeros, negative zeros and subnormals among them, and blocks of
// signed zeros only; positive definite
// blocks for the Cholesky factorization, among them pivots whose
// reciprocal leaves the normal range; the joint kernels on rows whose
// rows 3–5 are angular, alone and fused with the kernels that follow them
// on a block (assembleGram6Tail, coupleForward6Tail, and the latter's
// mirror coupleBackward6Tail); the substitution's
// fused kernels (subtractForward6, subtractBackward6); a sheave joint's
// four-row kernels (gram4x6, cholesky4, forwardRows4x6) to the general
// forms; and the vector
// forms of five of them (vector_amd64.s) to the Go kernels, where the
// processor runs them.
func TestUnrolledKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	entry := func() float64 { return kernelEntry(rng, 0) }
	fill := func(x []float64) {
		for i := range x {
			x[i] = entry()
		}
	}
	if !vectorKernels {
		t.Log("the vector kernels do not run here (no AVX, another architecture, or -tags purego): their Go forms stand in")
	}
	same := func(name string, got, want []float64) {
		t.Helper()
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("%s: entry %d is %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	vec := func(zero bool) geom.Vec3 {
		if zero {
			return geom.Vec3{}
		}
		return geom.V(entry(), entry(), entry())
	}
	// A joint's J and M⁻¹J blocks (block6Use.js): row r's on body k at
	// 2r+k.
	blocks := func() *[12]Jacobian {
		var b [12]Jacobian
		for i := range b {
			b[i] = Jacobian{Lin: vec(i >= 6), Ang: vec(false)}
		}
		return &b
	}
	for trial := 0; trial < 20000; trial++ {
		var a, b, w block6
		var x, y, inv [6]float64
		fill(a[:])
		fill(w[:])
		if trial%50 == 0 {
			// Signed zeros only: a sum of negative zeros is −0 unless it
			// starts from +0, and −0 − (−0) is +0.
			for i := range a {
				a[i] = math.Copysign(0, -1)
				w[i] = math.Copysign(0, float64(rng.Intn(2)*2-1))
			}
		}
		fill(x[:])
		fill(y[:])
		fill(inv[:])

		a1, a2 := a, a
		gram6(&a1, &w)
		gram6Loop(&a2, &w)
		same("gram6", a1[:], a2[:])

		// A positive definite block: G Gᵀ plus a diagonal, some of whose
		// entries put the pivots' reciprocals out of the normal range.
		var g block6
		fill(g[:])
		for i := 0; i < 6; i++ {
			for j := 0; j <= i; j++ {
				s := 0.0
				for k := 0; k < 6; k++ {
					s += g[i*6+k] * g[j*6+k]
				}
				b[i*6+j] = s
			}
			b[i*6+i] += []float64{1, 4e-309, 1e308, 2.5}[rng.Intn(4)]
		}
		b1, b2 := b, b
		inv1, inv2 := inv, inv
		ok1, ok2 := cholesky6(&b1, &inv1), cholesky6Loop(&b2, &inv2)
		if ok1 != ok2 {
			t.Fatalf("cholesky6: %v unrolled, %v looped", ok1, ok2)
		}
		same("cholesky6", b1[:], b2[:])
		same("cholesky6's 1/L_jj", inv1[:], inv2[:])

		w1, w2 := w, w
		forwardRows6(&b1, &inv1, &w1)
		forwardRows6Loop(&b2, &inv2, &w2)
		same("forwardRows6", w1[:], w2[:])

		// A sheave's joint's kernels (four rows) against the general
		// forms: the leading 4×4 of b, positive definite, some pivots'
		// reciprocals out of the normal range as above.
		var w4 [24]float64
		var b4 [16]float64
		var inv4 [4]float64
		copy(w4[:], w[:24])
		for i := 0; i < 4; i++ {
			copy(b4[i*4:i*4+4], b[i*6:i*6+4])
		}
		a1, a2 = a, a
		gram4x6(&a1, &w4)
		gramRows(a2[:], 6, w4[:], 4)
		same("gram4x6", a1[:], a2[:])
		c1, c2 := b4, b4
		i1, i2 := inv4, inv4
		if ok1, ok2 := cholesky4(&c1, &i1), cholesky(c2[:], 4, i2[:]); ok1 != ok2 {
			t.Fatalf("cholesky4: %v unrolled, %v looped", ok1, ok2)
		}
		same("cholesky4", c1[:], c2[:])
		same("cholesky4's 1/L_jj", i1[:], i2[:])
		f1, f2 := w4, w4
		forwardRows4x6(&c1, &i1, &f1)
		forwardRows(c1[:], i1[:], 4, f2[:], 6)
		same("forwardRows4x6", f1[:], f2[:])

		x1, x2 := x, x
		forward6(&a, &inv, &x1)
		forward6Loop(&a, &inv, &x2)
		same("forward6", x1[:], x2[:])
		x1, x2 = x, x
		backward6(&a, &inv, &x1)
		backward6Loop(&a, &inv, &x2)
		same("backward6", x1[:], x2[:])
		x1, x2 = x, x
		subtractTransposed6(&x1, &a, &y)
		subtractTransposed6Loop(&x2, &a, &y)
		same("subtractTransposed6", x1[:], x2[:])
		x1, x2 = x, x
		subtract6(&x1, &a, &y)
		subtract6Loop(&x2, &a, &y)
		same("subtract6", x1[:], x2[:])
		x1, x2 = x, x
		subtractForward6(&b1, &inv1, &x1, &a, &y)
		subtractTransposed6Loop(&x2, &a, &y)
		forward6Loop(&b1, &inv1, &x2)
		same("subtractForward6", x1[:], x2[:])
		x1, x2 = x, x
		subtractBackward6(&b1, &inv1, &x1, &a, &y)
		subtract6Loop(&x2, &a, &y)
		backward6Loop(&b1, &inv1, &x2)
		same("subtractBackward6", x1[:], x2[:])

		js, ms, nextMs := blocks(), blocks(), blocks()
		var sums [6]rowSums
		var sigma [6]float64
		for i := range sums {
			sums[i].d = entry()
		}
		fill(sigma[:])
		a1, a2 = a, a
		assembleJoint6Tail(&a1, &sums, &sigma, js, ms)
		assembleJoint6(&a2, &sums, &sigma, js, ms, 3)
		same("assembleJoint6Tail", a1[:], a2[:])
		w1, w2 = w, w
		coupleJoint6Tail(&w1, js, nextMs)
		coupleJoint6(&w2, js, nextMs, 3, 3, 1, 0)
		same("coupleJoint6Tail", w1[:], w2[:])

		// The fused kernels against the two they fuse, the looped forms.
		a1, a2 = a, a
		assembleGram6Tail(&a1, &sums, &sigma, js, ms, &w)
		assembleJoint6(&a2, &sums, &sigma, js, ms, 3)
		gram6Loop(&a2, &w)
		same("assembleGram6Tail", a1[:], a2[:])
		w1, w2 = w, w
		coupleForward6Tail(&w1, &b1, &inv1, js, nextMs)
		coupleJoint6(&w2, js, nextMs, 3, 3, 1, 0)
		forwardRows6Loop(&b1, &inv1, &w2)
		same("coupleForward6Tail", w1[:], w2[:])
		w1, w2 = w, w
		coupleBackward6Tail(&w1, &b1, &inv1, js, nextMs)
		coupleJoint6(&w2, js, nextMs, 3, 3, 0, 1)
		forwardRows6Loop(&b1, &inv1, &w2)
		same("coupleBackward6Tail", w1[:], w2[:])

		// The vector forms (vector_amd64.s, where the processor has
		// AVX) against the Go kernels.
		a1, a2 = a, a
		assembleGram6TailVec(&a1, &sums, &sigma, js, ms, &w)
		assembleGram6Tail(&a2, &sums, &sigma, js, ms, &w)
		same("assembleGram6TailVec", a1[:], a2[:])
		w1, w2 = w, w
		coupleForward6TailVec(&w1, &b1, &inv1, js, nextMs)
		coupleForward6Tail(&w2, &b1, &inv1, js, nextMs)
		same("coupleForward6TailVec", w1[:], w2[:])
		w1, w2 = w, w
		coupleBackward6TailVec(&w1, &b1, &inv1, js, nextMs)
		coupleBackward6Tail(&w2, &b1, &inv1, js, nextMs)
		same("coupleBackward6TailVec", w1[:], w2[:])
		x1, x2 = x, x
		subtractForward6Vec(&b1, &inv1, &x1, &w, &y)
		subtractForward6(&b1, &inv1, &x2, &w, &y)
		same("subtractForward6Vec", x1[:], x2[:])
		x1, x2 = x, x
		subtractBackward6Vec(&b1, &inv1, &x1, &w, &y)
		subtractBackward6(&b1, &inv1, &x2, &w, &y)
		same("subtractBackward6Vec", x1[:], x2[:])
	}
}

// kernelEntry returns a random entry for the kernels' tests: a zero of
// either sign, a subnormal, or a number of either sign from about 1e-300
// to 1e300; with nan > 0, a NaN once in 13·nan draws.
func kernelEntry(rng *rand.Rand, nan int) float64 {
	switch rng.Intn(13) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 5e-324 * float64(1+rng.Intn(1000))
	case 3:
		if nan > 0 && rng.Intn(nan) == 0 {
			return math.NaN()
		}
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.Intn(21)-10)*float64(1+rng.Intn(30))/10)
}
