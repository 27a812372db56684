package material

import (
	"math"
	"strings"
	"testing"
)

// [SL07] §4.4.2: steel, d = 10 mm, L = 4 m gives c_t ≈ 19 N·m/rad (within
// the paper's two printed digits: 2 %). The paper's c_s ≈ 7.8e6 N/m for the
// same rope is EA/(L/2); EA/L = π·0.005²·200e9/4 = 3.93e6 N/m is the closed
// form of its own eq. (1), which we assert to 0.1 %.
func TestSL07SteelStiffness(t *testing.T) {
	r := Rope{E: 200e9, Poisson: 0.3, Diameter: 0.01, Density: 7850}
	if cs := r.AxialStiffness() / 4; math.Abs(cs/3.927e6-1) > 1e-3 {
		t.Errorf("c_s = %g N/m, want EA/L = 3.927e6 N/m within 0.1 %%", cs)
	}
	if ct := r.TorsionalRigidity() / 4; math.Abs(ct/19-1) > 0.02 {
		t.Errorf("c_t = %g N·m/rad, want 19 within 2 %%", ct)
	}
}

func TestValidateRejectsImpossibleRopes(t *testing.T) {
	for _, r := range []Rope{
		{E: 0, Poisson: 0.3, Diameter: 0.01},
		{E: 1e11, Poisson: 0.3, Diameter: -1},
		{E: 1e11, Poisson: 0.7, Diameter: 0.01},
		{E: math.NaN(), Poisson: 0.3, Diameter: 0.01},
		{E: 1e11, Poisson: 0.3, Diameter: 0.01, Density: -5},
		{E: 1e11, Poisson: -1, Diameter: 0.01},
		{E: 1e11, Poisson: 0.5000001, Diameter: 0.01},
	} {
		if r.Validate() == nil {
			t.Errorf("%+v accepted", r)
		}
	}
	if err := DefaultSteelRope().Validate(); err != nil {
		t.Errorf("default rope rejected: %v", err)
	}
	// The ends of the scenarios' range (port.Poisson), an incompressible
	// material among them.
	for _, nu := range []float64{-0.99, 0.5} {
		r := DefaultSteelRope()
		r.Poisson = nu
		if err := r.Validate(); err != nil {
			t.Errorf("Poisson ratio %g rejected: %v", nu, err)
		}
	}
}

// A rope's torque is k·d·T under tension and none when slack; a torque
// factor beyond ±MaxTorqueFactor is refused with the range.
func TestRopeTorque(t *testing.T) {
	r := DefaultSteelRope()
	r.TorqueFactor = TorqueFactorSixStrand
	if got, want := r.Torque(1e5), 0.089*0.02*1e5; math.Abs(got-want) > 1e-9*want {
		t.Errorf("torque at 100 kN: %g N·m, want %g", got, want)
	}
	if got := r.Torque(-5); got != 0 {
		t.Errorf("torque of a slack rope: %g N·m, want 0", got)
	}
	for _, k := range []float64{0.5, -0.3, math.NaN(), math.Inf(1)} {
		r.TorqueFactor = k
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "torque factor") {
			t.Errorf("torque factor %g: %v, want a refusal naming it", k, err)
		}
	}
}
