package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestWireOverSheaveAtFleetAngle: a wire from 3 m below a fixed sheave of
// 0.5 m, 4 cm to one side of its groove's plane, over the sheave's top to
// 3 m below it 4 cm to the other side: the contact nodes lie where the
// shortest wire crosses the groove, the straight line of the unrolled
// path (z linear in the distance along it), within 1e-9 m after every
// contact update, whether the sweeps of single nodes found it or
// placeGrooves; every node within the
// groove's width; and a wire whose ends lie 8 cm to either side, beyond
// the groove's half width of 5 cm, stays over the sheave (cutsGroove),
// its nodes against the flanges.
func TestWireOverSheaveAtFleetAngle(t *testing.T) {
	for _, offset := range []float64{0.04, 0.08} {
		sys := NewSystem(geom.V(0, 0, -g0))
		top := sys.World.AddBody(multibody.NewStatic("top", geom.Vec3{}))
		const r, width = 0.5, 0.1
		sh, err := sys.AddSheave(SheaveSpec{Name: "sheave", Axle: top, Center: geom.Vec3{}, Axis: geom.V(0, 1, 0), Radius: r, Width: width, Sides: 32, Mass: 10, Locked: true})
		if err != nil {
			t.Fatal(err)
		}
		a := sys.World.AddBody(multibody.NewStatic("a", geom.V(-r, -offset, -3)))
		b := sys.World.AddBody(multibody.NewBody("b", 100, multibody.BoxInertia(100, 0.2, 0.2, 0.2), geom.V(r, offset, -3)))
		route := []RoutePoint{{Kind: End, Point: a.Pos, Body: a}}
		for k := 16; k >= 0; k-- { // the polygon's corners over the top
			ang := float64(k) * 2 * math.Pi / 32
			route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(r*math.Cos(ang), 0, r*math.Sin(ang)), Geometry: sh.Geometry})
		}
		route = append(route, RoutePoint{Kind: End, Point: b.Pos, Body: b})
		w, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e7, 1, 0), Route: route, Spacing: 1, Tension: 100 * g0})
		if err != nil {
			t.Fatal(err)
		}
		worst, first, last := 0.0, -1, -1
		check := func() {
			g := sh.Geometry
			axis := g.Body.Rot.Rotate(geom.V(0, 0, 1))
			first, last = -1, -1
			for i, n := range w.nodes {
				if n.kind == ContactNode && n.geo == g {
					if first < 0 {
						first = i
					}
					last = i
				}
			}
			if first < 0 {
				t.Fatalf("offset %g m: the wire came off the sheave", offset)
			}
			// The straight line of the unrolled path, within the
			// groove's flanges (the edges' ends).
			pa, pb := w.nodes[first-1].position(), w.nodes[last+1].position()
			across := func(v geom.Vec3) float64 { return v.Sub(axis.Scale(v.Dot(axis))).Norm() }
			var u []float64
			total, prev := 0.0, pa
			for i := first; i <= last; i++ {
				p := w.nodes[i].position()
				total += across(p.Sub(prev))
				u = append(u, total)
				prev = p
			}
			total += across(pb.Sub(prev))
			za, zb := pa.Sub(g.centre).Dot(axis), pb.Sub(g.centre).Dot(axis)
			for i := first; i <= last; i++ {
				z := w.nodes[i].position().Sub(g.centre).Dot(axis)
				want := min(max(za+(zb-za)*u[i-first]/total, -width/2), width/2)
				worst = max(worst, math.Abs(z-want))
				if math.Abs(z) > width/2+1e-12 {
					t.Errorf("offset %g m: node %d at %.4f m off the groove's plane, beyond its half width", offset, i, z)
				}
			}
		}
		sys.afterContacts = check
		for k := 0; k < 60; k++ {
			if err := sys.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("ends %g m to either side: %d contact nodes on the sheave, their places off the unrolled straight line by at most %.2g m", offset, last-first+1, worst)
		if worst > 1e-9 {
			t.Errorf("offset %g m: a contact node %.3g m off the shortest wire's crossing", offset, worst)
		}
	}
}

// TestWireEndBesideSheave: a wire from 3 m below a fixed sheave (r
// 0.4 m, width 0.1 m, 48 sides) over its top to an end held beside the
// groove's plane (0.1 to 0.5 m off it, 0.45 to 0.8 m from the axle, 0 to
// 80° below the horizontal): every step of each of the 80 solves. Where the
// piece from a node on a flange's corner clipped the sheave's outline seen
// along the axle, the only candidate was that corner again through its
// other edge, and the insertion repeated until "more than 4096 contact
// nodes needed in one step" (28 of 80). The wires are adaptive: laid at
// a fixed resolution of 1 m, 6 of the 80 went unstable (their 1 kg nodes
// beyond their critical tension, eq. 25) and ran on silently to 1e5 times
// their segments' rest lengths, which is now an error
// (TestDivergingWireIsAnError).
func TestWireEndBesideSheave(t *testing.T) {
	runs := 0
	for _, y := range []float64{-0.1, -0.2, -0.33, -0.5} {
		for _, ang := range []float64{-80, -60, -40, -20, 0} { // the end's angle about the axle from +x, degrees
			for _, R := range []float64{0.45, 0.55, 0.65, 0.8} {
				sys := NewSystem(geom.V(0, 0, -g0))
				top := sys.World.AddBody(multibody.NewStatic("top", geom.Vec3{}))
				const r = 0.4
				sh, err := sys.AddSheave(SheaveSpec{Name: "sheave", Axle: top, Axis: geom.V(0, 1, 0), Radius: r, Width: 0.1, Sides: 48, Mass: 80, Locked: true})
				if err != nil {
					t.Fatal(err)
				}
				a := sys.World.AddBody(multibody.NewStatic("a", geom.V(-r, 0, -3)))
				th := ang * math.Pi / 180
				b := sys.World.AddBody(multibody.NewStatic("b", geom.V(R*math.Cos(th), y, R*math.Sin(th))))
				route := []RoutePoint{{Kind: End, Point: a.Pos, Body: a}}
				for k := 24; k >= 0; k-- {
					phi := float64(k) * 2 * math.Pi / 48
					if phi < th-1e-9 {
						break
					}
					route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(r*math.Cos(phi), 0, r*math.Sin(phi)), Geometry: sh.Geometry})
				}
				route = append(route, RoutePoint{Kind: End, Point: b.Pos, Body: b})
				if _, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e7, 1, 0), Route: route, Spacing: 1, Resolution: Resolution{Adaptive: true}}); err != nil {
					t.Fatalf("end %g m off the groove, %g°, %g m from the axle: %v", y, ang, R, err)
				}
				for k := 0; k < 30; k++ {
					if err := sys.Step(1.0 / 60); err != nil {
						t.Errorf("end %g m off the groove, %g°, %g m from the axle: step %d: %v", y, ang, R, k, err)
						break
					}
				}
				runs++
			}
		}
	}
	t.Logf("%d wires stepped", runs)
}
