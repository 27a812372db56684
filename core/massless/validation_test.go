package massless

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// twoBoxes is the validation system of [SL07] §5.1 (Fig. 4): two 1000 kg
// boxes of side 2 m joined by a 4 m cable along x, no gravity.
type twoBoxes struct {
	world   *multibody.World
	a, b    *multibody.Body
	stretch *Stretch
	twist   *Twist
}

func newTwoBoxes(t testing.TB, cs, ct, damping float64) *twoBoxes {
	t.Helper()
	w := multibody.NewWorld(geom.Vec3{})
	inertia := multibody.BoxInertia(1000, 2, 2, 2)
	a := w.AddBody(multibody.NewBody("a", 1000, inertia, geom.V(-3, 0, 0)))
	b := w.AddBody(multibody.NewBody("b", 1000, inertia, geom.V(3, 0, 0)))
	route := []Node{{a, geom.V(1, 0, 0)}, {b, geom.V(-1, 0, 0)}}
	const length = 4.0
	// A rope of EA = c_s L and GJ = c_t L, damped with τ = damping.
	rope := material.FromStiffness(cs*length, 1, 0.02)
	rope.TorsionalStiffness, rope.DampingTime = ct*length, damping
	s, err := NewStretch(route, length, rope)
	if err != nil {
		t.Fatal(err)
	}
	w.AddConstraint(s)
	sys := &twoBoxes{world: w, a: a, b: b, stretch: s}
	if ct > 0 {
		tw, err := NewTwist(route, rope, func() float64 { return s.FreeLength })
		if err != nil {
			t.Fatal(err)
		}
		w.AddConstraint(tw)
		sys.twist = tw
	}
	return sys
}

// period returns the mean period of a sampled signal from its upward zero
// crossings (linear interpolation between samples).
func period(t *testing.T, dt float64, x []float64) float64 {
	t.Helper()
	var crossings []float64
	for i := 1; i < len(x); i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			crossings = append(crossings, dt*(float64(i-1)+x[i-1]/(x[i-1]-x[i])))
		}
	}
	if len(crossings) < 2 {
		t.Fatalf("signal has %d upward zero crossings; need two to measure a period", len(crossings))
	}
	return (crossings[len(crossings)-1] - crossings[0]) / float64(len(crossings)-1)
}

const h501 = 0.01 // [SL07] §5.1 time step, s

// [SL07] §5.1, Fig. 5: stretch oscillation periods 2π√(μ/c_s), μ = 500 kg:
// 44.4 s and 4.44 s within 1 %, 0.14 s within 5 % (numerical damping and a
// slight frequency shift are expected there, as the paper notes).
func TestStretchPeriodsSL07(t *testing.T) {
	for _, tc := range []struct {
		cs, tol float64
	}{{10, 0.01}, {1e3, 0.01}, {1e6, 0.05}} {
		want := 2 * math.Pi * math.Sqrt(500/tc.cs)
		sys := newTwoBoxes(t, tc.cs, 0, 0)
		sys.a.Vel = geom.V(-0.01, 0, 0)
		sys.b.Vel = geom.V(0.01, 0, 0)
		steps := int(math.Max(3*want, 1) / h501)
		phi := make([]float64, 0, steps)
		for i := 0; i < steps; i++ {
			if err := sys.world.Step(h501); err != nil {
				t.Fatal(err)
			}
			phi = append(phi, Length(sys.stretch.Route())-sys.stretch.FreeLength)
		}
		got := period(t, h501, phi)
		if math.Abs(got/want-1) > tc.tol {
			t.Errorf("c_s = %g N/m: period %.4f s, want %.4f s within %.0f %%", tc.cs, got, want, 100*tc.tol)
		} else {
			t.Logf("c_s = %g N/m: period %.4f s, theory %.4f s (%.2f %%)", tc.cs, got, want, 100*(got/want-1))
		}
	}
}

// [SL07] §5.1, Fig. 7: twist periods 2π√(I/(2 c_t)), I = m(2²+2²)/12:
// 36 s and 3.6 s within 1 %.
func TestTwistPeriodsSL07(t *testing.T) {
	inertia := 1000 * 8.0 / 12
	for _, ct := range []float64{10, 1e3} {
		want := 2 * math.Pi * math.Sqrt(inertia/2/ct)
		sys := newTwoBoxes(t, 1e3, ct, 0)
		sys.a.AngVel = geom.V(-0.01, 0, 0)
		sys.b.AngVel = geom.V(0.01, 0, 0)
		steps := int(3 * want / h501)
		omega := make([]float64, 0, steps)
		for i := 0; i < steps; i++ {
			if err := sys.world.Step(h501); err != nil {
				t.Fatal(err)
			}
			omega = append(omega, sys.twist.Angle())
		}
		got := period(t, h501, omega)
		if math.Abs(got/want-1) > 0.01 {
			t.Errorf("c_t = %g N·m/rad: period %.4f s, want %.4f s within 1 %%", ct, got, want)
		} else {
			t.Logf("c_t = %g N·m/rad: period %.4f s, theory %.4f s (%.2f %%)", ct, got, want, 100*(got/want-1))
		}
	}
}

// [SL07] Fig. 7a: the twist may exceed one revolution. Spinning the boxes
// against each other so that the amplitude is three turns must give an
// amplitude of three turns (within 2 %) and the same period (within 1 %).
func TestTwistBeyondOneRevolution(t *testing.T) {
	const ct = 10.0
	inertia := 1000 * 8.0 / 12
	wn := math.Sqrt(2 * ct / inertia)
	amplitude := 3 * 2 * math.Pi
	w0 := amplitude * wn / 2
	sys := newTwoBoxes(t, 1e3, ct, 0)
	sys.a.AngVel = geom.V(w0, 0, 0)
	sys.b.AngVel = geom.V(-w0, 0, 0)
	want := 2 * math.Pi / wn
	steps := int(2.5 * want / h501)
	omega := make([]float64, 0, steps)
	peak := 0.0
	for i := 0; i < steps; i++ {
		if err := sys.world.Step(h501); err != nil {
			t.Fatal(err)
		}
		omega = append(omega, sys.twist.Angle())
		peak = math.Max(peak, math.Abs(sys.twist.Angle()))
	}
	if math.Abs(peak/amplitude-1) > 0.02 {
		t.Errorf("twist amplitude %.3f rad, want %.3f rad (3 turns) within 2 %%", peak, amplitude)
	}
	if got := period(t, h501, omega); math.Abs(got/want-1) > 0.01 {
		t.Errorf("period at 3 turns %.3f s, want %.3f s within 1 %%", got, want)
	}
}
