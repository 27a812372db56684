package stability

import (
	"math"
	"testing"
)

// The criteria at the numbers of a 20 mm steel rope of 20 segments (1.23
// kg, 0.5 m, transverse moment of inertia m l²/12 = 0.0256 kg·m²) at
// h = 1/60 s: a 1 t bounce (k = 3.14e6 N/m on 1000 kg, ωh = 0.93) is
// resolved, a joint's stretch row (k = 6.3e7 N/m on two segments) is not;
// the stretch row gets 0.05h only where tau is smaller. A segment's turning
// under 60 N (K = T l: ωh = 0.57) is resolved, under 1.2 kN (ωh = 2.6) it
// is not; the turn damping gives a
// bend row of EI/l = 157 N·m/rad carrying T l = 600 N·m/rad the time
// TurnDampingFactor·h·T l·c.
func TestCriteria(t *testing.T) {
	const h = 1.0 / 60
	if Unresolved(3.14e6, 1.0/1000, h) {
		t.Error("a 1 t bounce at ωh = 0.93 judged unresolved")
	}
	if !Unresolved(6.3e7, 2/1.23, h) {
		t.Error("a segment joint's stretch row judged resolved")
	}
	// Judged by compliance and a geometric stiffness besides, alike: the
	// bend row of EI/l = 157 N·m/rad is resolved on a segment's turning
	// inertia alone and, carrying T l = 600 N·m/rad as well, is not.
	for _, c := range []struct {
		k, g, d float64
		want    bool
	}{{3.14e6, 0, 1.0 / 1000, false}, {6.3e7, 0, 2 / 1.23, true}, {157, 0, 2 / 0.0256, false}, {157, 600, 2 / 0.0256, true}} {
		if got := UnresolvedCompliant(1/c.k, c.g, c.d, h); got != c.want || got != Unresolved(c.k+c.g, c.d, h) {
			t.Errorf("stiffness %g + %g N/m on %g 1/kg: unresolved %v by compliance, %v by stiffness; want %v", c.k, c.g, c.d, got, Unresolved(c.k+c.g, c.d, h), c.want)
		}
	}
	if got := Damping(1e-3, h, true); got != 1e-3 {
		t.Errorf("unresolved stretch row with τ = 1 ms: γ = %g s, want τ (above 0.05h)", got)
	}
	if got := Damping(0, h, true); math.Abs(got-0.05*h) > 1e-15 {
		t.Errorf("unresolved stretch row with τ = 0: γ = %g s, want 0.05h", got)
	}
	if got := Damping(2e-3, h, false); got != 2e-3 {
		t.Errorf("resolved row: γ = %g s, want τ", got)
	}
	const inertia, l = 0.0256, 0.5
	turn := func(tension float64) float64 { return tension * l / inertia }
	if TurnUnresolved(turn(60), h) {
		t.Errorf("a segment turning at ωh = %.2f judged unresolved", h*math.Sqrt(turn(60)))
	}
	if !TurnUnresolved(turn(1200), h) {
		t.Errorf("a segment turning at ωh = %.2f judged resolved", h*math.Sqrt(turn(1200)))
	}
	if got, want := TurnDamping(1e-3, h, 1200*l, 1.0/157), TurnDampingFactor*h*1200*l/157; math.Abs(got/want-1) > 1e-12 {
		t.Errorf("turn damping of a bend row under 1.2 kN: γ = %g s, want %g·h·T·l·c = %g s", got, TurnDampingFactor, want)
	}
	if got := TurnDamping(1e-3, h, 0, 1.0/157); got != 1e-3 {
		t.Errorf("turn damping without tension: γ = %g s, want τ", got)
	}
	if c := Courant(h, 1230, 1.23, 0.5); math.Abs(c-h*math.Sqrt(2000)) > 1e-12 {
		t.Errorf("Courant number %g, want h√(T/(ml))", c)
	}
}

// A bend row's SPOOK Σ = 4εΥ/h² under the turn damping tends, as its
// compliance ε grows (the bending stiffness EI/l falls to nothing),
// to the damper's 1/(h b), b = TurnDamper: the form that the world takes
// for a row of infinite compliance (a perfectly flexible rope), where
// 4εΥ/h² itself is ∞·0.
func TestTurnDamperLimit(t *testing.T) {
	const h, tau, g = 1.0 / 60, 1e-3, 600.0 // T l of 1.2 kN on 0.5 m
	damper := 1 / (h * TurnDamper(h, g))
	last := math.Inf(1)
	for _, c := range []float64{1.0 / 157, 1e-1, 1e2, 1e6, 1e12} {
		gamma := TurnDamping(tau, h, g, c)
		sigma := 4 * c / (h * h) * h / (h + 4*gamma)
		dev := math.Abs(sigma/damper - 1)
		if dev >= last && dev > 1e-15 {
			t.Errorf("ε = %g: Σ %g off the damper's %g by %.3g, no closer than at the ε before (%.3g)", c, sigma, damper, dev, last)
		}
		last = dev
	}
	if last > 1e-9 {
		t.Errorf("ε = 1e12: Σ off the damper's 1/(h b) = %g by %.3g, want within 1e-9", damper, last)
	}
	if got := TurnDamping(tau, h, g, math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("infinite compliance: turn damping γ = %g, want +Inf", got)
	}
}
