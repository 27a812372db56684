// Package closedform holds closed-form results of hoisting-rope dynamics
// that the models are tested against: the axial bounce of a load on an
// elastic rope and the peak tension when the rope is stopped suddenly.
//
// The rope is a Kelvin–Voigt spring of stiffness k = EA/L (N/m) and
// damping time τ (s): the tension over the static one is k(x + τẋ) for a
// stretch x (m). On a load of mass M (kg) it bounces at ω = √(k/M) with
// damping ratio ζ = ωτ/2.
package closedform

import (
	"fmt"
	"math"
)

// StopPeak returns the largest dynamic tension (N, above the static one)
// when a load of mass m (kg) moving at v (m/s) on a rope of stiffness k
// (N/m) and damping time tau (s) is stopped suddenly at the rope's other
// end (a winch stopping dead): the first maximum of k(x + τẋ) for
// mẍ + kτẋ + kx = 0, x(0) = 0, ẋ(0) = v. Without damping it is v√(km).
// It fails for a critically or over-damped rope (ζ ≥ 1).
func StopPeak(k, m, tau, v float64) (float64, error) {
	omega := math.Sqrt(k / m)
	zeta := omega * tau / 2
	if !(zeta < 1) {
		return 0, fmt.Errorf("damping ratio %g: the rope does not bounce", zeta)
	}
	sigma, wd := zeta*omega, omega*math.Sqrt(1-zeta*zeta)
	// k(x + τẋ) = k v e^(−σt) (a sin ω_d t + b cos ω_d t) = k v r e^(−σt) sin(ω_d t + φ).
	a, b := (1-tau*sigma)/wd, tau
	r, phi := math.Hypot(a, b), math.Atan2(b, a)
	// d/dt [e^(−σt) sin(ω_d t + φ)] = 0 where tan(ω_d t + φ) = ω_d/σ.
	t := (math.Atan2(wd, sigma) - phi) / wd
	if t < 0 {
		t = 0
	}
	return k * v * r * math.Exp(-sigma*t) * math.Sin(wd*t+phi), nil
}

// Bounce returns the angular frequency (rad/s) of the axial bounce of a
// load of mass m (kg) on a rope of axial stiffness EA (N), length l (m)
// and mass per length mu (kg/m), the rope's own mass included: the
// fundamental longitudinal mode of a bar fixed at the top with an end
// mass, ω = (β/l)√(EA/μ) with β tan β = μl/m. For μ → 0 it is √(EA/(l m)).
func Bounce(ea, l, mu, m float64) float64 {
	ratio := mu * l / m
	if ratio == 0 {
		return math.Sqrt(ea / (l * m))
	}
	// β tan β = ratio has one root in (0, π/2); bisection on the
	// increasing function β tan β − ratio.
	lo, hi := 0.0, math.Pi/2
	for i := 0; i < 200; i++ {
		mid := 0.5 * (lo + hi)
		if mid*math.Tan(mid) < ratio {
			lo = mid
		} else {
			hi = mid
		}
	}
	beta := 0.5 * (lo + hi)
	return beta / l * math.Sqrt(ea/mu)
}
