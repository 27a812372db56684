package stability

import (
	"math"
	"testing"
)

// The criteria at the numbers of a 20 mm steel rope of 20 segments (1.23
// kg, 0.5 m, EI/l = 157 N·m/rad) at h = 1/60 s: a 1 t bounce (k = 3.14e6
// N/m on 1000 kg, ωh = 0.93) is resolved, a joint's stretch row (k = 6.3e7
// N/m on two segments) is not; the stretch row gets 0.05h only where tau is
// smaller, bend rows 0.5h; the bend stiffness stays the rope's at 1.2 kN
// and rises to β h² T²/m at 121 kN.
func TestCriteria(t *testing.T) {
	const h = 1.0 / 60
	if Unresolved(3.14e6, 1.0/1000, h) {
		t.Error("a 1 t bounce at ωh = 0.93 judged unresolved")
	}
	if !Unresolved(6.3e7, 2/1.23, h) {
		t.Error("a segment joint's stretch row judged resolved")
	}
	if got := Damping(1e-3, h, true, false); got != 1e-3 {
		t.Errorf("unresolved stretch row with τ = 1 ms: γ = %g s, want τ (above 0.05h)", got)
	}
	if got := Damping(0, h, true, false); math.Abs(got-0.05*h) > 1e-15 {
		t.Errorf("unresolved stretch row with τ = 0: γ = %g s, want 0.05h", got)
	}
	if got := Damping(0, h, true, true); math.Abs(got-0.5*h) > 1e-15 {
		t.Errorf("unresolved bend row: γ = %g s, want 0.5h", got)
	}
	if got := Damping(2e-3, h, false, true); got != 2e-3 {
		t.Errorf("resolved row: γ = %g s, want τ", got)
	}
	if got := BendStiffness(157, h, 1230, 1.23); got != 157 {
		t.Errorf("bend stiffness at 1.2 kN: %g, want the rope's 157", got)
	}
	want := Beta * h * h * 121e3 * 121e3 / 1.23
	if got := BendStiffness(157, h, 121e3, 1.23); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("bend stiffness at 121 kN: %g, want β h² T²/m = %g", got, want)
	}
	if got := BendStiffness(157, h, -5e3, 1.23); got != 157 {
		t.Errorf("bend stiffness of a pushed joint: %g, want the rope's", got)
	}
	if c := Courant(h, 1230, 1.23, 0.5); math.Abs(c-h*math.Sqrt(2000)) > 1e-12 {
		t.Errorf("Courant number %g, want h√(T/(ml))", c)
	}
}
