package geom

import "math"

// Atan2 returns math.Atan2(y, x). Where the angle is small, |y| ≤ x/100
// (the bends and twists between a rope's segments, most of the time), it
// sums the series atan r = r − r³/3 + r⁵/5 − r⁷/7 of r = y/x, whose
// next term is below 1.2e-17 of the sum: within 2 ulp of math.Atan2, at a
// fraction of its operations.
func Atan2(y, x float64) float64 {
	if !(x > 0 && x <= math.MaxFloat64 && math.Abs(y) <= 0.01*x) {
		return math.Atan2(y, x)
	}
	if y == 0 {
		return y // ±0, as math.Atan2
	}
	r := y / x
	r2 := r * r
	return r - r*r2*(1.0/3-r2*(1.0/5-r2*(1.0/7)))
}

// ThetaCotTheta returns θ cot θ = θ/tan θ (1 at θ = 0). For |θ| ≤ 0.01 it
// sums the series 1 − θ²/3 − θ⁴/45 − 2θ⁶/945, whose next term is below
// 1e-20.
func ThetaCotTheta(theta float64) float64 {
	if math.Abs(theta) <= 0.01 {
		t2 := theta * theta
		return 1 - t2*(1.0/3+t2*(1.0/45+t2*(2.0/945)))
	}
	return theta / math.Tan(theta)
}
