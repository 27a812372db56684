package hmrwire

import (
	"fmt"
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestSlackWireSnapsTaut: 10 m of the flexible 20 mm rope, laid as a roof
// from two points 6 m apart at its rest length, falls through and snaps
// taut below them, adaptive, at 1/60 s, laid in 0.5 m and 0.1 m: its
// energy (kinetic and gravity's) never rises above what it was let go
// with. A slack segment's row waited for SPOOK's stabilization until its
// gap had closed by up to four times itself (multibody.Row.Gap): segments
// snapped 28 % beyond their length in a step, and the wire's energy rose
// a millionfold within 8 s. (The largest strain after a step is logged:
// a short segment turning fast still comes out of the linearized step a
// few per cent long, as far as 0.8 and 1.7 of its length at a whip, which
// the stabilization takes back.)
func TestSlackWireSnapsTaut(t *testing.T) {
	for _, flexible := range []bool{true} {
		for _, spacing := range []float64{0.5, 0.1} {
			t.Run(fmt.Sprintf("flexible %v, spacing %g m", flexible, spacing), func(t *testing.T) {
				sys := NewSystem(geom.V(0, 0, -g0))
				a := sys.World.AddBody(multibody.NewStatic("a", geom.V(0, 0, 10)))
				b := sys.World.AddBody(multibody.NewStatic("b", geom.V(6, 0, 10)))
				r := bendingRope(0)
				r.Flexible = flexible
				w, err := sys.AddWire(WireSpec{Name: "w", Rope: r, Spacing: spacing,
					Resolution: Resolution{Adaptive: true, MaxMassNodes: 200, MinSegment: 0.05},
					Route:      []RoutePoint{{Kind: End, Point: a.Pos, Body: a}, {Kind: Via, Point: geom.V(3, 0, 14)}, {Kind: End, Point: b.Pos, Body: b}}})
				if err != nil {
					t.Fatal(err)
				}
				energy := func() (e, strain float64) {
					e = w.KineticEnergy() + w.BendingEnergy()
					last := -1
					for i, n := range w.nodes {
						if n.kind != MassNode {
							continue
						}
						e += n.body.Mass * g0 * n.body.Pos.Z
						if last >= 0 {
							// The segment from mass node last to i.
							l := 0.0
							for k := last + 1; k <= i; k++ {
								l += w.nodes[k].position().Sub(w.nodes[k-1].position()).Norm()
							}
							L := w.nodes[last].rest
							d := max(l-L, 0)
							strain = max(strain, d/L)
						}
						last = i
					}
					return e, strain
				}
				e0, _ := energy()
				worstE, worstStrain := e0, 0.0
				for k := 0; k < 10*60; k++ {
					if err := sys.Step(1.0 / 60); err != nil {
						t.Fatalf("step %d: %v", k, err)
					}
					e, strain := energy()
					worstE, worstStrain = max(worstE, e), max(worstStrain, strain)
				}
				t.Logf("energy let go with %.1f J, at most %.1f J; largest strain %.3g", e0, worstE, worstStrain)
				if worstE > e0*(1+1e-3) {
					t.Errorf("the wire's energy rose to %.1f J from %.1f J", worstE, e0)
				}
			})
		}
	}
}

// TestWireSlackSnatch: a 1000 kg load hanging on 10 m of wire (EA =
// 2e7 N, 2 kg/m, undamped), the winch set paying out at 0.5 m/s: the
// load leaves the wire and falls back onto it at the speed it left with,
// v cos ωt₁ (sin ωt₁ = δω/v, δ = m g/k the static stretch, k = EA/L), and
// the wire's tension at the load peaks at the spring's
// m g + √((m g)² + k m v²) within 1 % at 1 ms, uniform and adaptive,
// within 10 % at 1/60 s uniform and within 15 % adaptive (measured
// +0.6 %, +0.5 %, −7.3 % and −13.7 %). Adaptive at 1/60 s, 28 nodes
// merge in the step the wire snaps taut; merged into the fastened ends
// as into free nodes, they set the ends moving against their anchors
// and the snatch came out 22 % low (giveEnd). What is left at 1/60 s is
// the closing step's implicit force (Row.Gap) and the relaxation of rows
// on the light end nodes that the step does not resolve alone, although
// they move with the load and the anchor.
func TestWireSlackSnatch(t *testing.T) {
	for _, c := range []struct {
		h        float64
		adaptive bool
		tol      float64
	}{{1e-3, false, 0.01}, {1e-3, true, 0.01}, {1.0 / 60, false, 0.1}, {1.0 / 60, true, 0.15}} {
		const M, L, v = 1000.0, 10.0, 0.5
		hw := newHangingWinch(t, M, L, c.adaptive, Winch{Spacing: 1, MinLength: 0.5})
		hw.wire.Rope.DampingTime = 0
		for k := 0; k < int(1/c.h); k++ {
			if err := hw.sys.Step(c.h); err != nil {
				t.Fatal(err)
			}
		}
		hw.wire.Winch.Speed = v
		slack, peak := false, 0.0
		for k := 0; k < int(0.6/c.h); k++ {
			if err := hw.sys.Step(c.h); err != nil {
				t.Fatal(err)
			}
			T := hw.wire.Tensions()[len(hw.wire.Tensions())-1]
			slack = slack || T <= 0
			peak = max(peak, T)
		}
		if !slack {
			t.Fatalf("h = %g s: the wire never went slack: the test shows nothing", c.h)
		}
		k := hw.wire.ea / L
		omega, delta := math.Sqrt(k/M), M*g0/k
		vi := v * math.Sqrt(1-math.Pow(delta*omega/v, 2))
		want := M*g0 + math.Sqrt(M*g0*M*g0+k*M*vi*vi)
		t.Logf("h = %.4g s, adaptive %v: snatch peak %.0f N, m g + √((m g)² + k m v²) = %.0f N (%+.1f %%)", c.h, c.adaptive, peak, want, 100*(peak/want-1))
		if math.Abs(peak/want-1) > c.tol {
			t.Errorf("h = %g s, adaptive %v: snatch peak %.0f N, want %.0f N within %g %%", c.h, c.adaptive, peak, want, 100*c.tol)
		}
	}
}
