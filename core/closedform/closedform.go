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

// HeavyCantilever returns the static shape of a heavy elastica: a rod of
// length l (m), bending stiffness ei (N·m²) and weight w (N/m), clamped
// horizontally at one end and free at the other, without stretching or
// shear. With θ(s) the tangent's angle below the horizontal at arc length
// s from the clamp and M(s) the moment of the rod beyond s,
//
//	EI θ' = M,   M' = −w (l − s) cos θ,   θ(0) = 0, M(l) = 0,
//
// solved by shooting from the free end on its angle θ(l) ∈ [0, π/2]
// (bisection on θ(0) = 0; RK4 over n steps), a trial whose θ crosses zero
// before the clamp counting as too small an angle.
// It returns the points (x along the clamp, z up; m) at s = k·l/n,
// k = 0…n. For small deflection the tip sinks by w l⁴/(8 EI).
//
// A floppy rod hangs nearly vertical from close to the clamp, and θ(l)
// then lies within e^(−(2/3)√(w l³/EI)) of π/2: rods floppier than
// √(w l³/EI) = 40 are refused.
func HeavyCantilever(ei, w, l float64, n int) ([][2]float64, error) {
	if !(ei > 0 && w >= 0 && l > 0) || n < 1 {
		return nil, fmt.Errorf("heavy cantilever: EI %g N·m², w %g N/m, l %g m, %d steps: need EI > 0, w ≥ 0, l > 0, n ≥ 1", ei, w, l, n)
	}
	if f := math.Sqrt(w * l * l * l / ei); f > 40 {
		return nil, fmt.Errorf("heavy cantilever: √(w l³/EI) = %.3g: too floppy to resolve (at most 40)", f)
	}
	ds := l / float64(n)
	// shoot integrates from the free end at angle tipAngle back to the
	// clamp and returns θ(0); with shape, it records x and z from the
	// free end (shifted to the clamp by the caller).
	shoot := func(tipAngle float64, shape [][2]float64) float64 {
		theta, m, x, z := tipAngle, 0.0, 0.0, 0.0
		rate := func(s, theta, m float64) (float64, float64, float64, float64) {
			return m / ei, -w * (l - s) * math.Cos(theta), math.Cos(theta), -math.Sin(theta)
		}
		if shape != nil {
			shape[n] = [2]float64{}
		}
		h := -ds
		for k := n; k > 0; k-- {
			s := float64(k) * ds
			t1, m1, x1, z1 := rate(s, theta, m)
			t2, m2, x2, z2 := rate(s+h/2, theta+h/2*t1, m+h/2*m1)
			t3, m3, x3, z3 := rate(s+h/2, theta+h/2*t2, m+h/2*m2)
			t4, m4, x4, z4 := rate(s+h, theta+h*t3, m+h*m3)
			theta += h / 6 * (t1 + 2*t2 + 2*t3 + t4)
			m += h / 6 * (m1 + 2*m2 + 2*m3 + m4)
			x += h / 6 * (x1 + 2*x2 + 2*x3 + x4)
			z += h / 6 * (z1 + 2*z2 + 2*z3 + z4)
			if shape != nil {
				shape[k-1] = [2]float64{x, z}
			}
			if theta < 0 && k > 1 {
				return theta // bent up before the clamp: θ(l) too small
			}
		}
		return theta
	}
	// The rod's θ falls from θ(l) towards the clamp; too small a θ(l)
	// makes it cross zero before the clamp (and, carried on, loop), too
	// large leaves θ(0) > 0 (at θ(l) = π/2 a vertical rod carries no
	// moment and θ(0) = π/2).
	lo, hi := 0.0, math.Pi/2
	for i := 0; i < 200 && lo < hi; i++ {
		mid := 0.5 * (lo + hi)
		if mid == lo || mid == hi {
			break
		}
		if shoot(mid, nil) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	shape := make([][2]float64, n+1)
	shoot(0.5*(lo+hi), shape)
	origin := shape[0]
	for k := range shape {
		shape[k] = [2]float64{shape[k][0] - origin[0], shape[k][1] - origin[1]}
	}
	return shape, nil
}

// HangingModes returns the angular frequencies (rad/s) of the first n
// transverse modes of a heavy chain of length l (m) and mass per length
// mu (kg/m) hanging in gravity g (m/s²) from a fixed point, with a point
// mass m (kg, ≥ 0) at its lower end. With y the height above the point
// where the tension T = μ g y would vanish (the load at y₀ = m/μ, the top
// at y₁ = y₀ + l), −ω² u = g (y u')' gives u = A J₀(z) + B Y₀(z),
// z = 2ω √(y/g); the top holds u(y₁) = 0 and the load −m ω² u = T u' at
// y₀, which is A (J₀ − 2J₁/z) + B (Y₀ − 2Y₁/z) = 0 at z₀. Without a load
// ω_k = (j₀,k/2) √(g/l), j₀,k the zeros of J₀.
func HangingModes(l, mu, m, g float64, n int) ([]float64, error) {
	if !(l > 0 && mu > 0 && m >= 0 && g > 0) || n < 1 {
		return nil, fmt.Errorf("hanging modes: l %g m, μ %g kg/m, m %g kg, g %g m/s², %d modes: need l, μ, g > 0, m ≥ 0, n ≥ 1", l, mu, m, g, n)
	}
	y0 := m / mu
	y1 := y0 + l
	det := func(w float64) float64 {
		z1 := 2 * w * math.Sqrt(y1/g)
		if y0 == 0 {
			return math.J0(z1)
		}
		z0 := 2 * w * math.Sqrt(y0/g)
		return (math.J0(z0)-2*math.J1(z0)/z0)*math.Y0(z1) - (math.Y0(z0)-2*math.Y1(z0)/z0)*math.J0(z1)
	}
	// Scan in steps well below the roots' spacing: π √g/(2(√y₁ − √y₀))
	// between string modes (z₁ − z₀ grows by about π from one to the
	// next), and the first (pendulum) mode near √(g/l) or below.
	spacing := math.Pi * math.Sqrt(g) / (2 * (math.Sqrt(y1) - math.Sqrt(y0)))
	step := 0.02 * min(spacing, math.Sqrt(g/l))
	var out []float64
	w, f := step, det(step)
	for len(out) < n {
		if w > 1e6*math.Sqrt(g/l) {
			return out, fmt.Errorf("hanging modes: found %d of %d", len(out), n)
		}
		w2 := w + step
		f2 := det(w2)
		if (f < 0) != (f2 < 0) {
			lo, hi, flo := w, w2, f
			for i := 0; i < 100; i++ {
				mid := 0.5 * (lo + hi)
				if fm := det(mid); (fm < 0) == (flo < 0) {
					lo, flo = mid, fm
				} else {
					hi = mid
				}
			}
			out = append(out, 0.5*(lo+hi))
		}
		w, f = w2, f2
	}
	return out, nil
}

// BlockYaw returns the angle (rad) a hook block turns to on two falls of
// spacing s and length H (m) under the ropes' torque, each rope of
// diameter d (m) with torque factor k carrying half the weight W (N): the
// ropes' torque k·d·W balances the falls' restoring moment
// W s² sin φ/(4h), the block standing h = √(H² − s² sin²(φ/2)) below their
// tops (the falls' lengths fixed: it rises as it turns), plus the two
// ropes' own twist stiffness 2 GJ φ/H (GJ in N·m²). Where the torque
// exceeds the largest restoring moment (W s²/(4H) at 90°, the ropes' GJ
// aside: above H = s²/(4kd)) there is no equilibrium below 90°: the falls
// cable, and it returns π/2, a flag rather than an angle (with stiff ropes
// an equilibrium may lie beyond 90°).
func BlockYaw(W, s, H, k, d, gj float64) float64 {
	excess := func(phi float64) float64 {
		h := math.Sqrt(H*H - s*s*math.Pow(math.Sin(phi/2), 2))
		return W*s*s*math.Sin(phi)/(4*h) + 2*gj*phi/H - k*d*W
	}
	lo, hi := 0.0, math.Pi/2
	if excess(hi) < 0 {
		return hi
	}
	for i := 0; i < 100; i++ {
		if mid := (lo + hi) / 2; excess(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
