package massless

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

const gravity = 9.81

// hoist is a load of mass M hanging from a kinematic suspension point at
// height 20 m on a 20 mm steel rope of free length L, in static equilibrium.
type hoist struct {
	world   *multibody.World
	crane   *multibody.Body
	load    *multibody.Body
	stretch *Stretch
	winch   *Winch
	ea      float64
}

func newHoist(t testing.TB, mass, length, h float64) *hoist {
	t.Helper()
	rope := material.DefaultSteelRope()
	ea := rope.AxialStiffness()
	w := multibody.NewWorld(geom.V(0, 0, -gravity))
	top := geom.V(0, 0, 20)
	stretch := mass * gravity * length / ea
	crane := w.AddBody(multibody.NewKinematic("crane", top))
	load := w.AddBody(multibody.NewBody("load", mass, multibody.BoxInertia(mass, 1, 1, 1), top.Sub(geom.V(0, 0, length+stretch))))
	s, err := NewStretch([]Node{{crane, geom.Vec3{}}, {load, geom.Vec3{}}}, length, rope)
	if err != nil {
		t.Fatal(err)
	}
	s.Damping = 2 * h
	s.Slack = true
	winch := &Winch{}
	s.Winch = winch
	w.AddConstraint(s)
	return &hoist{world: w, crane: crane, load: load, stretch: s, winch: winch, ea: ea}
}

func (hs *hoist) run(t *testing.T, h, seconds float64, each func()) {
	t.Helper()
	for i, n := 0, int(math.Round(seconds/h)); i < n; i++ {
		if err := hs.world.Step(h); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if each != nil {
			each()
		}
	}
}

// Static elongation δ = MgL/(EA) within 1 %; tension and the force on the
// crane equal Mg within 0.5 %, starting from rest at the unstretched length
// (the cable bounces and SPOOK damps it out).
func TestStaticElongationAndTension(t *testing.T) {
	const mass, length, h = 1000.0, 10.0, 1.0 / 60
	hs := newHoist(t, mass, length, h)
	hs.load.Pos = geom.V(0, 0, 20-length) // unstretched: it will bounce
	hs.run(t, h, 10, nil)
	want := mass * gravity * length / hs.ea
	got := 20 - hs.load.Pos.Z - length
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("static elongation %.6g m, want MgL/EA = %.6g m within 1 %%", got, want)
	}
	mg := mass * gravity
	if tn := hs.stretch.Tension(); math.Abs(tn/mg-1) > 0.005 {
		t.Errorf("tension %.2f N, want Mg = %.2f N within 0.5 %%", tn, mg)
	}
	f := hs.crane.ConstraintForce
	if math.Abs(-f.Z/mg-1) > 0.005 || math.Hypot(f.X, f.Y) > 1e-6*mg {
		t.Errorf("force on crane %v N, want (0, 0, −%.2f) within 0.5 %%", f, mg)
	}
}

// A load released at 5° swings with the pendulum period 2π√(l/g)(1+θ²/16)
// within 2 %, l the distance from suspension point to load; over 40 s the
// swing keeps its amplitude and total energy (kinetic + gravity + elastic)
// drifts less than 2 % of the swing energy: SPOOK damps the cable's
// stretch vibration, not the swing.
func TestPendulumPeriodAndEnergy(t *testing.T) {
	const mass, length, h = 1000.0, 10.0, 1.0 / 60
	theta0 := 5 * math.Pi / 180
	hs := newHoist(t, mass, length, h)
	top := hs.crane.Pos
	l := top.Sub(hs.load.Pos).Norm()
	hs.load.Pos = top.Add(geom.V(l*math.Sin(theta0), 0, -l*math.Cos(theta0)))
	// Energies relative to the load at rest at the bottom of the swing.
	ref := hs.world.GravityEnergy() - mass*gravity*(hs.load.Pos.Z-(top.Z-l))
	energy := func() float64 {
		return hs.world.KineticEnergy() + hs.world.GravityEnergy() - ref + hs.world.ElasticEnergy()
	}
	e0 := energy()
	var x []float64
	peakLate := 0.0
	hs.run(t, h, 40, func() {
		x = append(x, hs.load.Pos.X)
		if float64(len(x))*h > 35 {
			peakLate = math.Max(peakLate, math.Abs(hs.load.Pos.X))
		}
	})
	want := 2 * math.Pi * math.Sqrt(l/gravity) * (1 + theta0*theta0/16)
	if got := period(t, h, x); math.Abs(got/want-1) > 0.02 {
		t.Errorf("pendulum period %.4f s, want %.4f s within 2 %%", got, want)
	} else {
		t.Logf("pendulum period %.4f s, theory %.4f s (%.3f %%)", got, want, 100*(got/want-1))
	}
	drift := math.Abs(energy()-e0) / e0
	if drift > 0.02 {
		t.Errorf("energy drift over 40 s %.2f %% of %.1f J, want below 2 %%", 100*drift, e0)
	}
	if amp0 := l * math.Sin(theta0); peakLate < 0.98*amp0 {
		t.Errorf("swing amplitude after 35 s %.4f m, started at %.4f m: more than 2 %% lost", peakLate, amp0)
	}
	t.Logf("energy drift %.3f %% of %.1f J", 100*drift, e0)
}

// Atwood machine over two frictionless eye nodes on a fixed beam: the
// heavier box falls with a = g(1−r)/(1+r), r = m1/m2 = 0.5, within 1 %.
func TestAtwoodMachine(t *testing.T) {
	const m2, r, h = 10.0, 0.5, 1.0 / 60
	m1 := r * m2
	w := multibody.NewWorld(geom.V(0, 0, -gravity))
	beam := w.AddBody(multibody.NewStatic("beam", geom.V(0, 0, 10)))
	b1 := w.AddBody(multibody.NewBody("light", m1, multibody.BoxInertia(m1, 0.2, 0.2, 0.2), geom.V(-0.5, 0, 5)))
	b2 := w.AddBody(multibody.NewBody("heavy", m2, multibody.BoxInertia(m2, 0.2, 0.2, 0.2), geom.V(0.5, 0, 5)))
	route := []Node{{b1, geom.Vec3{}}, {beam, geom.V(-0.5, 0, 0)}, {beam, geom.V(0.5, 0, 0)}, {b2, geom.Vec3{}}}
	s, err := NewStretch(route, Length(route), material.FromStiffness(1e9, 1, 0.02))
	if err != nil {
		t.Fatal(err)
	}
	s.Damping = 2 * h
	s.Slack = true
	w.AddConstraint(s)
	var v1, v2 float64
	for i := 1; i <= 90; i++ {
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		switch i {
		case 30:
			v1 = b2.Vel.Z
		case 90:
			v2 = b2.Vel.Z
		}
	}
	want := -gravity * (1 - r) / (1 + r)
	if got := (v2 - v1) / (60 * h); math.Abs(got/want-1) > 0.01 {
		t.Errorf("heavy box acceleration %.4f m/s², want %.4f within 1 %%", got, want)
	}
	if tn, want := s.Tension(), 2*m1*m2*gravity/(m1+m2); math.Abs(tn/want-1) > 0.01 {
		t.Errorf("tension %.3f N, want 2 m1 m2 g/(m1+m2) = %.3f N within 1 %%", tn, want)
	}
	if d := b1.Vel.Z + b2.Vel.Z; math.Abs(d) > 1e-3 {
		t.Errorf("box speeds differ by %.2e m/s: the cable length is not kept", d)
	}
}

// The winch paying out 0.5 m/s for 4 s adds 2.0 m of free length, and the
// load follows, within 1 %.
func TestWinchPaysOut(t *testing.T) {
	const h = 1.0 / 60
	hs := newHoist(t, 1000, 10, h)
	z0 := hs.load.Pos.Z
	hs.winch.Speed = 0.5
	hs.run(t, h, 4, nil)
	hs.winch.Speed = 0
	hs.run(t, h, 3, nil) // let the start-stop bounce die out
	if got := hs.stretch.FreeLength - 10; math.Abs(got/2-1) > 0.01 {
		t.Errorf("free length grew %.4f m, want 2.0 m within 1 %%", got)
	}
	if drop := z0 - hs.load.Pos.Z; math.Abs(drop/2-1) > 0.01 {
		t.Errorf("load lowered %.4f m, want 2.0 m within 1 %%", drop)
	}
}

// A slipping winch (ξ > 0) with zero commanded speed pays out ξ T per
// second ([SL07] eq. 10): ξ = 1e-5 m/(N·s) under Mg = 9810 N gives
// 0.0981 m/s, within 1 %.
func TestWinchSlip(t *testing.T) {
	const h, xi = 1.0 / 60, 1e-5
	hs := newHoist(t, 1000, 10, h)
	hs.winch.Slip = xi
	hs.run(t, h, 1, nil)
	l0 := hs.stretch.FreeLength
	hs.run(t, h, 2, nil)
	rate := (hs.stretch.FreeLength - l0) / 2
	if want := xi * 1000 * gravity; math.Abs(rate/want-1) > 0.01 {
		t.Errorf("slip pay-out %.5f m/s, want ξ M g = %.5f m/s within 1 %%", rate, want)
	}
}

// A load thrown upward slackens the cable: the rope never pushes.
func TestSlackCableNeverPushes(t *testing.T) {
	const h = 1.0 / 60
	hs := newHoist(t, 1000, 10, h)
	hs.load.Vel = geom.V(0, 0, 3)
	hs.run(t, h, 0.3, func() {
		if tn := hs.stretch.Tension(); tn < -1e-9 {
			t.Fatalf("tension %.3g N: a slack rope pushed", tn)
		}
	})
	if hs.stretch.Tension() != 0 {
		t.Errorf("tension %.3g N during free flight, want 0", hs.stretch.Tension())
	}
}

// Hauling in at 5 m/s for 3 s from 10 m, with and without slip: the winch
// stops at the minimum free length 0.5 m, and the stop keeps the load, which
// flies on when the winch halts, below the suspension point by at least
// 0.5 m (within 1 %). With slip, the free length moves at the rate the
// solve assumed, so it never undershoots the minimum.
func TestWinchStopsAtMinimumAndLoadCannotPassTheSheave(t *testing.T) {
	const h, lmin = 1.0 / 60, 0.5
	for _, xi := range []float64{0, 2e-6} {
		hs := newHoist(t, 1000, 10, h)
		hs.stretch.MinFall = lmin
		hs.winch.Slip = xi
		stop, err := NewStop(hs.stretch.Route(), lmin)
		if err != nil {
			t.Fatal(err)
		}
		hs.world.AddConstraint(stop)
		hs.winch.Speed = -5
		highest, pushed := -1e9, false
		hs.run(t, h, 3, func() {
			if hs.stretch.FreeLength < lmin-1e-12 {
				t.Fatalf("ξ = %g: free length %.6f m below the minimum %.2f m", xi, hs.stretch.FreeLength, lmin)
			}
			highest = math.Max(highest, hs.load.Pos.Z)
			pushed = pushed || stop.Force() > 0
		})
		if d := hs.stretch.FreeLength - lmin; d < 0 || d > 0.01 {
			t.Errorf("ξ = %g: free length %.6f m after hauling in 15 m, want the minimum %.2f m (+ slip under tension, < 1 cm)", xi, hs.stretch.FreeLength, lmin)
		}
		if gap := hs.crane.Pos.Z - highest; gap < lmin*0.99 {
			t.Errorf("ξ = %g: load rose to %.4f m below the sheave, want at least %.2f m (within 1 %%)", xi, gap, lmin)
		}
		if !pushed {
			t.Errorf("ξ = %g: the stop never pushed: the test did not reach the two-block case", xi)
		}
	}
}

// Below the minimum length (a scenario that starts there), the winch still
// pays out: only hauling in is stopped.
func TestWinchPaysOutFromBelowMinimum(t *testing.T) {
	const h = 1.0 / 60
	hs := newHoist(t, 1000, 10, h)
	hs.stretch.MinFall = 12
	hs.winch.Speed = 0.1
	hs.run(t, h, 1, nil)
	if got := hs.stretch.FreeLength - 10; math.Abs(got/0.1-1) > 0.01 {
		t.Errorf("paid out %.4f m in 1 s at 0.1 m/s below the minimum length, want 0.1 m within 1 %%", got)
	}
	hs.winch.Speed = -0.1
	l := hs.stretch.FreeLength
	hs.run(t, h, 1, nil)
	if hs.stretch.FreeLength != l {
		t.Errorf("hauled in from %.4f m to %.4f m below the minimum length", l, hs.stretch.FreeLength)
	}
}

// A winch that holds at most 0.8 Mg lets the load down with a = g − F/M
// (the brake slips), the tension staying at the limit, within 1 %; with
// the limit above Mg it holds the load.
func TestWinchForceLimitSlips(t *testing.T) {
	const h, mass = 1.0 / 60, 1000.0
	hs := newHoist(t, mass, 10, h)
	limit := 0.8 * mass * gravity
	hs.winch.ForceLimit = limit
	v0 := hs.load.Vel.Z
	var worst float64
	hs.run(t, h, 2, func() { worst = math.Max(worst, math.Abs(hs.stretch.Tension()/limit-1)) })
	if worst > 0.01 {
		t.Errorf("tension strayed %.2f %% from the limit %.0f N, want within 1 %%", 100*worst, limit)
	}
	want := -(gravity - limit/mass)
	got := (hs.load.Vel.Z - v0) / 2
	t.Logf("tension within %.3f %% of the limit; acceleration %.4f m/s² (g − F/M = %.4f)", 100*worst, got, want)
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("load acceleration %.4f m/s², want g − F/M = %.4f within 1 %%", got, want)
	}

	held := newHoist(t, mass, 10, h)
	held.winch.ForceLimit = 1.2 * mass * gravity
	held.run(t, h, 2, nil)
	if d := held.stretch.FreeLength - 10; math.Abs(d) > 1e-9 {
		t.Errorf("a limit above the load's weight paid out %.3g m", d)
	}
}
