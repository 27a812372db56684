package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// hangingWinch is a load of mass M hung from a winch at the origin on a
// wire of length L.
type hangingWinch struct {
	sys  *System
	wire *Wire
	load *multibody.Body
}

func newHangingWinch(t *testing.T, M, L float64, adaptive bool, wi Winch) *hangingWinch {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	crane := sys.World.AddBody(multibody.NewStatic("crane", geom.Vec3{}))
	load := sys.World.AddBody(multibody.NewBody("load", M, multibody.BoxInertia(M, 1, 1, 1), geom.V(0, 0, -L-0.5)))
	rope := testRope(2e7, 2, 0.02)
	w, err := sys.AddWire(WireSpec{
		Name: "wire", Rope: rope, Spacing: wi.Spacing, Winch: &wi, Tension: M * g0,
		Resolution: Resolution{Adaptive: adaptive, MinSegment: 0.05},
		Route: []RoutePoint{
			{Kind: End, Point: geom.Vec3{}, Body: crane},
			{Kind: End, Point: geom.V(0, 0, -L), Body: load},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &hangingWinch{sys: sys, wire: w, load: load}
}

// checkMass fails unless the wire's mass is its density times its rest
// length.
func (hw *hangingWinch) checkMass(t *testing.T) {
	t.Helper()
	w := hw.wire
	if want := w.Rope.LinearDensity() * w.RestLength(); math.Abs(w.Mass()-want) > 1e-12*want {
		t.Fatalf("wire mass %.15g kg, density × rest length %.15g kg", w.Mass(), want)
	}
}

// TestWinchPaysOutAndHaulsIn: the load moves at the winch's speed, the
// tension at the winch is the weight below it while the speed is
// steady, the mass in the system is ρ times the rest length at every step
// (the wire entering and leaving with its mass), and the winch puts out
// and takes in mass nodes at its spacing — with uniform and with adaptive
// resolution.
func TestWinchPaysOutAndHaulsIn(t *testing.T) {
	for _, adaptive := range []bool{false, true} {
		const M, L, h, v = 1000.0, 10.0, 1.0 / 60, 0.5
		hw := newHangingWinch(t, M, L, adaptive, Winch{Spacing: 1, MinLength: 0.5})
		run := func(seconds float64) {
			for k := 0; k < int(math.Round(seconds/h)); k++ {
				if err := hw.sys.Step(h); err != nil {
					t.Fatal(err)
				}
				hw.checkMass(t)
			}
		}
		run(2)
		for _, speed := range []float64{v, -v} {
			hw.wire.Winch.Speed = speed
			run(2) // the start's bounce settles
			z0, rest0 := hw.load.Pos.Z, hw.wire.RestLength()
			run(4)
			got := (z0 - hw.load.Pos.Z) / 4
			if math.Abs(got-speed) > 0.01*v {
				t.Errorf("adaptive %v, winch %g m/s: load moves down at %.4f m/s", adaptive, speed, got)
			}
			if dl := hw.wire.RestLength() - rest0; math.Abs(dl-4*speed) > 1e-9 {
				t.Errorf("adaptive %v, winch %g m/s: rest length changed by %.6f m in 4 s", adaptive, speed, dl)
			}
			T := hw.wire.Tensions()[0]
			want := (M + hw.wire.Mass() - hw.wire.nodes[0].body.Mass) * g0 // below the winch's node
			if math.Abs(T-want) > 1e-3*want {
				t.Errorf("adaptive %v, winch %g m/s: tension at the winch %.1f N, weight below it %.1f N", adaptive, speed, T, want)
			}
			mass, _, _ := hw.wire.Counts()
			t.Logf("adaptive %v, winch %+g m/s: %.4f m/s, tension %.1f N (weight %.1f N), %d mass nodes, rest length %.3f m",
				adaptive, speed, got, T, want, mass, hw.wire.RestLength())
			if !adaptive {
				// One node per spacing: the first segment between ½ and 2
				// spacings, the others a spacing (the route's own nodes
				// aside).
				if first := hw.wire.nodes[0].rest; first < 0.5 || first > 2 {
					t.Errorf("winch %g m/s: first segment %.3f m, outside [0.5, 2] spacings", speed, first)
				}
				if want := int(hw.wire.RestLength()); mass < want-1 || mass > want+2 {
					t.Errorf("winch %g m/s: %d mass nodes for %.2f m at 1 m spacing", speed, mass, hw.wire.RestLength())
				}
			}
		}
		if hw.wire.Refined == 0 || hw.wire.Coarsened == 0 {
			t.Errorf("adaptive %v: %d nodes put out, %d taken in", adaptive, hw.wire.Refined, hw.wire.Coarsened)
		}
	}
}

// TestWinchHaulsInToItsLimit: hauling in takes in every free mass node
// and stops at the minimum length.
func TestWinchHaulsInToItsLimit(t *testing.T) {
	const M, L, h = 100.0, 3.0, 1.0 / 60
	hw := newHangingWinch(t, M, L, false, Winch{Spacing: 1, MinLength: 0.5, Speed: -1})
	hw.wire.Winch.Speed = -1
	for k := 0; k < 6*60; k++ {
		if err := hw.sys.Step(h); err != nil {
			t.Fatal(err)
		}
		hw.checkMass(t)
	}
	if mass, _, _ := hw.wire.Counts(); mass != 2 {
		t.Errorf("%d mass nodes left, want the two ends", mass)
	}
	if l := hw.wire.RestLength(); math.Abs(l-0.5) > 1e-9 {
		t.Errorf("rest length %.6f m, want the minimum 0.5 m", l)
	}
	if v := hw.load.Vel.Norm(); v > 0.05 {
		t.Errorf("load still moving at %.3f m/s", v)
	}
}

// TestWinchSlipAndForceLimit: a winch commanded to stand still pays out
// at ξT under the tension T (eq. 10); one whose force limit is below the
// weight lets the load fall with the acceleration g − F/M while the
// tension stays at the limit.
func TestWinchSlipAndForceLimit(t *testing.T) {
	const M, L, h = 1000.0, 10.0, 1.0 / 60
	const xi = 1e-5 // m/(N·s): 0.098 m/s under the load's weight
	hw := newHangingWinch(t, M, L, false, Winch{Spacing: 1, Slip: xi})
	for k := 0; k < 3*60; k++ {
		if err := hw.sys.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	T := hw.wire.Tensions()[0]
	if got, want := hw.wire.Winch.Rate(), xi*T; math.Abs(got-want) > 1e-3*want {
		t.Errorf("slipping winch pays out at %.5f m/s, ξT = %.5f m/s", got, want)
	}
	if got, want := -hw.load.Vel.Z, xi*T; math.Abs(got-want) > 0.02*want {
		t.Errorf("load sinks at %.5f m/s, ξT = %.5f m/s", got, want)
	}

	const F = 0.6 * M * g0
	hw = newHangingWinch(t, M, L, false, Winch{Spacing: 1, ForceLimit: F})
	hw.wire.Winch.ForceLimit = 2 * M * g0 // holds while the start settles
	for k := 0; k < 60; k++ {
		if err := hw.sys.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	hw.wire.Winch.ForceLimit = F
	for k := 0; k < 30; k++ { // the stretch relaxes to the limit
		if err := hw.sys.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	v0 := hw.load.Vel.Z
	for k := 0; k < 60; k++ {
		if err := hw.sys.Step(h); err != nil {
			t.Fatal(err)
		}
		hw.checkMass(t)
	}
	a := -(hw.load.Vel.Z - v0)
	mBelow := M + hw.wire.Mass() - hw.wire.nodes[0].body.Mass
	want := g0 - F/mBelow
	if math.Abs(a-want) > 0.03*want {
		t.Errorf("load falls with %.3f m/s² against the slipping brake, g − F/M = %.3f m/s²", a, want)
	}
	if T := hw.wire.Tensions()[0]; math.Abs(T-F) > 1e-3*F {
		t.Errorf("tension at the slipping brake %.1f N, limit %.1f N", T, F)
	}
}
