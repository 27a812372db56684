package multibody

import (
	"math"
	"testing"
)

// Pivots whose reciprocal leaves the normal range (a subnormal 4e-309,
// 5e-324, a huge 1e308) factor as √d with 1/√d, in the generic and the
// fixed-size Cholesky alike, and the factor reproduces the matrix.
func TestCholeskyExtremePivots(t *testing.T) {
	for _, d := range []float64{4e-309, 5e-324, 1e308, 2.5} {
		inv := make([]float64, 1)
		a := []float64{d}
		if !cholesky(a, 1, inv) {
			t.Fatalf("d = %g: refused", d)
		}
		if want := math.Sqrt(d); a[0] != want || math.Abs(inv[0]*want-1) > 1e-15 {
			t.Errorf("d = %g: L = %g, 1/L = %g; want %g, %g", d, a[0], inv[0], want, 1/want)
		}
		if d/2 == 0 {
			continue // the 6×6 case below needs d/2
		}
		var b block6
		var inv6 [6]float64
		for i := 0; i < 6; i++ {
			b[i*6+i] = d
		}
		b[6] = d / 2 // a(1,0): L(1,0) = √d/2, L(1,1) = √(3d/4)
		if !cholesky6(&b, &inv6) {
			t.Fatalf("d = %g: cholesky6 refused", d)
		}
		for i, want := range []float64{math.Sqrt(d), math.Sqrt(d) / 2, math.Sqrt(0.75 * d)} {
			got := [3]float64{b[0], b[6], b[7]}[i]
			if math.IsInf(got, 0) || math.IsNaN(got) || math.Abs(got-want) > 1e-14*want {
				t.Errorf("d = %g: cholesky6 entry %d = %g, want %g", d, i, got, want)
			}
		}
	}
}
