package geom

import (
	"math"
	"math/rand"
	"testing"
)

// ulps returns how many float64 steps a is from b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

// Atan2 is math.Atan2 within 2 ulp where it sums its series (|y| up to
// x/100, down to subnormal ratios), and exactly math.Atan2 elsewhere:
// larger angles, x ≤ 0, signed zeros, infinities and NaNs.
func TestAtan2(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	worst := 0.0
	for i := 0; i < 200000; i++ {
		x := math.Exp(rng.NormFloat64() * 5)
		y := x * 0.01 * (2*rng.Float64() - 1) * math.Pow(10, -float64(rng.Intn(12)))
		if i%1000 == 0 {
			y = math.Copysign(0.01*x, y) // the edge
		}
		got, want := Atan2(y, x), math.Atan2(y, x)
		if u := ulps(got, want); !(u <= 2) {
			t.Fatalf("Atan2(%g, %g) = %.17g, math.Atan2 %.17g: %g ulp", y, x, got, want, u)
		} else {
			worst = max(worst, u)
		}
	}
	t.Logf("largest difference from math.Atan2 in the series' range: %g ulp", worst)
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range [][2]float64{
		{0, 1}, {math.Copysign(0, -1), 1}, {0, -1}, {1, 0.5}, {0.02, 1}, {-0.02, 1}, {1e-3, -1},
		{1, inf}, {inf, inf}, {-inf, inf}, {1, -inf}, {inf, 1}, {nan, 1}, {1, nan}, {0, 0}, {1e-300, 1e-310},
	} {
		got, want := Atan2(c[0], c[1]), math.Atan2(c[0], c[1])
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Atan2(%g, %g) = %g, math.Atan2 %g", c[0], c[1], got, want)
		}
	}
}

// ThetaCotTheta is θ/tan θ within 2 ulp, 1 at 0, and even. Below 1e-4
// the reference is 1 − θ²/3 (to 2e-18): math.Tan gives back a tiny θ
// itself.
func TestThetaCotTheta(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 100000; i++ {
		theta := 0.02 * rng.Float64() * math.Pow(10, -float64(rng.Intn(8)))
		got, want := ThetaCotTheta(theta), theta/math.Tan(theta)
		if theta < 1e-4 {
			want = 1 - theta*theta/3
		}
		if u := ulps(got, want); !(u <= 2) {
			t.Fatalf("ThetaCotTheta(%g) = %.17g, θ/tan θ %.17g: %g ulp", theta, got, want, u)
		}
		if ThetaCotTheta(-theta) != got {
			t.Fatalf("ThetaCotTheta(−%g) ≠ ThetaCotTheta(%g)", theta, theta)
		}
	}
	if got := ThetaCotTheta(0); got != 1 {
		t.Errorf("ThetaCotTheta(0) = %g, want 1", got)
	}
	if got, want := ThetaCotTheta(math.Pi/2), (math.Pi/2)/math.Tan(math.Pi/2); got != want {
		t.Errorf("ThetaCotTheta(π/2) = %g, want %g", got, want)
	}
}
