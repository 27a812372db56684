package crane

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massless"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

const g0 = 9.81

// gantry is the 10 t trolley of the tests: 0.25 m wheels, 5 kN·m of
// motor torque (20 kN of drive force), a speed controller of 2e5 N·m per
// m/s and 4e4 N·m per m, rolling resistance 0.01.
func gantry() TrolleySpec {
	return TrolleySpec{Mass: 10000, WheelRadius: 0.25, TorqueLimit: 5000, Gain: 2e5, Integral: 4e4, RailFriction: 0.01, Gravity: g0}
}

// Commanded from rest to 1 m/s, the free trolley accelerates at its torque
// limit, (τ_max/r − μMg)/M, within 0.5 % while the torque is at the limit,
// and runs at the command within 1 mm/s 5 s later, its motor giving the
// rolling resistance's torque μMg·r within 1 %; a step ten times longer
// (0.01 s, where the controller's explicit gain would give h·Gain/(rM) =
// 0.8 and ring) runs the same to 1 mm/s.
func TestTrolleyAcceleratesAtItsLimit(t *testing.T) {
	spec := gantry()
	for _, h := range []float64{1e-3, 1e-2} {
		tr, err := NewTrolley(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		tr.Command = 1
		want := (spec.TorqueLimit/spec.WheelRadius - spec.RailFriction*spec.Mass*g0) / spec.Mass
		var v0, t0, v1, t1 float64
		steps := int(math.Round(6 / h))
		for k := 0; k < steps; k++ {
			before := tr.V
			if err := tr.Step(h, geom.Vec3{}); err != nil {
				t.Fatal(err)
			}
			if tr.Torque == spec.TorqueLimit {
				if t0 == 0 {
					v0, t0 = before, float64(k)*h
				}
				v1, t1 = tr.V, float64(k+1)*h
			}
		}
		got := (v1 - v0) / (t1 - t0)
		resist := spec.RailFriction * spec.Mass * g0 * spec.WheelRadius
		t.Logf("h = %g s: at the limit for %.3f s accelerating at %.5f m/s² ((τ/r − μMg)/M = %.5f); after 6 s at %.6f m/s, torque %.2f N·m (μMg r = %.2f)", h, t1-t0, got, want, tr.V, tr.Torque, resist)
		if math.Abs(got/want-1) > 0.005 {
			t.Errorf("h = %g s: accelerated at %.5f m/s², want %.5f within 0.5 %%", h, got, want)
		}
		if math.Abs(tr.V-1) > 1e-3 || math.Abs(tr.Torque/resist-1) > 0.01 {
			t.Errorf("h = %g s: after 6 s at %.6f m/s with %.2f N·m, want 1 m/s within 1 mm/s and %.2f N·m within 1 %%", h, tr.V, tr.Torque, resist)
		}
	}
}

// Without a drive (no gains), the trolley stays put under a sideways pull
// up to its rolling resistance μ(Mg − Fz) (the cable's downward pull
// adding to it) and under more accelerates at (Fx − μN)/M to 1e-12.
func TestTrolleyHeldByRollingResistance(t *testing.T) {
	spec := gantry()
	spec.Gain, spec.Integral = 0, 0
	pull := geom.V(0, 0, -50000) // the cable's weight on the trolley
	resist := spec.RailFriction * (spec.Mass*g0 - pull.Z)
	for _, fx := range []float64{0.9 * resist, 1.5 * resist} {
		tr, err := NewTrolley(spec, 2)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 1000; k++ {
			if err := tr.Step(1e-3, pull.Add(geom.V(fx, 0, 0))); err != nil {
				t.Fatal(err)
			}
		}
		want := max(0, (fx-resist)/spec.Mass)
		if math.Abs(tr.V-want) > 1e-12 || (want == 0 && tr.X != 2) {
			t.Errorf("pulled with %.3f of the resistance: %.3g m/s after 1 s at x = %v, want %.6g m/s", fx/resist, tr.V, tr.X, want)
		}
	}
}

// The trolley carries a 20 t load on 10 m of the default rope (a massless
// cable: the load a pendulum) at a speed command ramped at 0.1 m/s²: over
// two of the pendulum's periods within the ramp its motor's torque is on
// average what accelerating the trolley and the load and rolling both
// take, r[(M + m)a + μ(M + m)g], within 2 % (the swing's horizontal force
// averages the load's m·a); the trolley keeps within 1 mm/s of its
// command on average. Saved mid-ramp and restored into a new trolley, it
// continues bitwise.
func TestTrolleyPullsItsLoad(t *testing.T) {
	const (
		load, length, h, a = 20000.0, 10.0, 1e-3, 0.1
	)
	spec := gantry()
	tr, err := NewTrolley(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := multibody.NewWorld(geom.V(0, 0, -g0))
	top := geom.V(0, 0, 20)
	rope := material.DefaultSteelRope()
	stretch := load * g0 * length / rope.AxialStiffness()
	crane := w.AddBody(multibody.NewKinematic("trolley", top))
	body := w.AddBody(multibody.NewBody("load", load, multibody.BoxInertia(load, 1, 1, 1), top.Sub(geom.V(0, 0, length+stretch))))
	cable, err := massless.NewStretch([]massless.Node{{Body: crane}, {Body: body}}, length, rope)
	if err != nil {
		t.Fatal(err)
	}
	cable.Damping = 2 * h
	w.AddConstraint(cable)
	force := geom.V(0, 0, -load*g0)
	step := func(tm float64) {
		tr.Command = max(0, a*(tm-1))
		if err := tr.Step(h, force); err != nil {
			t.Fatal(err)
		}
		crane.Vel = geom.V(tr.V, 0, 0) // the point the cable hangs from moves with the trolley
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		force = crane.ConstraintForce
	}
	period := 2 * math.Pi * math.Sqrt(length/g0)
	from, to := 1+period, 1+3*period
	var torque, lag float64
	n := 0
	var saved []float64
	for k := 0; float64(k)*h < to; k++ {
		tm := float64(k) * h
		step(tm)
		if tm >= from {
			torque += tr.Torque
			lag += tr.Command - tr.V
			n++
		}
		if saved == nil && tm >= from {
			saved = state.Save(nil, tr)
		}
	}
	torque, lag = torque/float64(n), lag/float64(n)
	m := spec.Mass + load
	want := spec.WheelRadius * (m*a + spec.RailFriction*m*g0)
	t.Logf("ramped at %g m/s²: mean torque over two swings %.1f N·m (r[(M+m)a + μ(M+m)g] = %.1f N·m, %+.2f %%), the trolley %.2g m/s behind its command", a, torque, want, 100*(torque/want-1), lag)
	if math.Abs(torque/want-1) > 0.02 {
		t.Errorf("mean torque %.1f N·m, want %.1f N·m within 2 %%", torque, want)
	}
	if math.Abs(lag) > 1e-3 {
		t.Errorf("the trolley %.3g m/s behind its command on average, want within 1 mm/s", lag)
	}
	again, err := NewTrolley(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := state.Load(saved, again); err != nil {
		t.Fatal(err)
	}
	probe, _ := NewTrolley(spec, 0)
	if _, err := state.Load(saved, probe); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 100; k++ {
		f := geom.V(1000*math.Sin(float64(k)), 0, -load*g0)
		again.Command, probe.Command = 1, 1
		if err := again.Step(h, f); err != nil {
			t.Fatal(err)
		}
		if err := probe.Step(h, f); err != nil {
			t.Fatal(err)
		}
	}
	if again.X != probe.X || again.V != probe.V || again.Torque != probe.Torque {
		t.Errorf("two trolleys restored from one state part: %v, %v", again, probe)
	}
}

// Specs out of range are refused with the quantity named.
func TestTrolleyRefusesBadSpecs(t *testing.T) {
	for _, bad := range []func(*TrolleySpec){
		func(s *TrolleySpec) { s.Mass = 0 },
		func(s *TrolleySpec) { s.WheelRadius = -1 },
		func(s *TrolleySpec) { s.TorqueLimit = math.Inf(1) },
		func(s *TrolleySpec) { s.Gain = math.NaN() },
		func(s *TrolleySpec) { s.RailFriction = 2 },
	} {
		spec := gantry()
		bad(&spec)
		if _, err := NewTrolley(spec, 0); err == nil {
			t.Errorf("%+v: not refused", spec)
		}
	}
	tr, _ := NewTrolley(gantry(), 0)
	if tr.Step(0, geom.Vec3{}) == nil || tr.Step(1e-3, geom.V(math.NaN(), 0, 0)) == nil {
		t.Error("a zero step or a NaN force was not refused")
	}
}
