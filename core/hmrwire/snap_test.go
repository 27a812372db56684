package hmrwire

import (
	"fmt"
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
