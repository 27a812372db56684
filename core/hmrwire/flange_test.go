package hmrwire

import (
	"math"
	"slices"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestSheavesSideBySide: sheaves count as side by side, parted by a
// flange (Geometry.beside), only where they sit next to each other on one
// axle: side-by-side reeving's neighbours on 2 to 6 falls (a tenth of
// their width apart), not sheaves further along the axle (the first and
// third of six), nor a crossed hook's sheaves a diameter apart, nor the
// sheaves of the reeving in a row.
func TestSheavesSideBySide(t *testing.T) {
	for _, mode := range []string{"side by side", "crossed hook", "in a row"} {
		for _, n := range []int{2, 3, 4, 6} {
			spec := craneSpec(n, 40)
			spec.SideBySide, spec.CrossedHook = mode == "side by side", mode == "crossed hook"
			ho := newCrane(t, spec)
			for _, a := range ho.Sheaves {
				for _, b := range ho.Sheaves {
					if a == b {
						continue
					}
					pitch := b.Body.Pos.Sub(a.Body.Pos).Norm()
					want := mode == "side by side" && math.Abs(pitch-1.1*spec.Sheave.Width) < 1e-9
					if got := slices.Contains(a.Geometry.beside, b.Geometry); got != want {
						t.Errorf("%s, %d falls: %s beside %s (%.3f m apart): %v, want %v", mode, n, a.Name, b.Name, pitch, got, want)
					}
				}
			}
		}
	}
}

// TestWireOverTheFlange: a 100 kg load hangs on a wire that runs over a
// locked sheave A and on to a fixed point pulled sideways across the
// sheave B beside A (0.11 m apart on one axle, 0.1 m wide), so far that
// the wire passes over B. The wire climbs the flange and wraps B (a
// contact node on it); at no step does any piece of it lie deeper inside
// B than a tenth of B's width, the depth to which the flange rule lets a
// piece from A's groove clip B (Wire.flanged). Before that rule had its
// depth, the wire ran 3.4–4.4 cm deep through B.
func TestWireOverTheFlange(t *testing.T) {
	const r, width, pitch = 0.4, 0.1, 0.11
	for _, end := range []geom.Vec3{geom.V(0.2, 0.6, 0), geom.V(0.1, 1.0, -0.3)} {
		sys := NewSystem(geom.V(0, 0, -g0))
		top := sys.World.AddBody(multibody.NewStatic("top", geom.Vec3{}))
		spec := SheaveSpec{Name: "A", Axle: top, Axis: geom.V(0, 1, 0), Radius: r, Width: width, Sides: 48, Mass: 80, Locked: true}
		A, err := sys.AddSheave(spec)
		if err != nil {
			t.Fatal(err)
		}
		spec.Name, spec.Center = "B", geom.V(0, pitch, 0)
		B, err := sys.AddSheave(spec)
		if err != nil {
			t.Fatal(err)
		}
		load := sys.World.AddBody(multibody.NewBody("load", 100, multibody.BoxInertia(100, 0.2, 0.2, 0.2), geom.V(-r, 0, -3)))
		fixed := sys.World.AddBody(multibody.NewStatic("fixed", end))
		route := []RoutePoint{{Kind: End, Point: load.Pos, Body: load}}
		for k := 24; k >= 6; k-- {
			a := float64(k) * 2 * math.Pi / 48
			route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(r*math.Cos(a), 0, r*math.Sin(a)), Geometry: A.Geometry})
		}
		route = append(route, RoutePoint{Kind: End, Point: fixed.Pos, Body: fixed})
		w, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e7, 1, 0), Route: route, Spacing: 1, Tension: 100 * g0})
		if err != nil {
			t.Fatal(err)
		}
		deepest := 0.0
		for k := 0; k < 120; k++ {
			if err := sys.Step(1.0 / 60); err != nil {
				t.Fatalf("end at %v: step %d: %v", end, k, err)
			}
			B.Geometry.refresh()
			p := w.Points()
			for i := 0; i+1 < len(p); i++ {
				deepest = max(deepest, B.Geometry.cutDepth(p[i], p[i+1]))
			}
		}
		onB := 0
		for _, c := range w.Contacts() {
			if c.Geometry == B.Geometry {
				onB++
			}
		}
		t.Logf("end at %v: A wrapped %.1f°, B %.1f° (%d contact nodes); the wire at most %.4f m inside B", end, A.Wrap()*180/math.Pi, B.Wrap()*180/math.Pi, onB, deepest)
		if onB == 0 {
			t.Errorf("end at %v: the wire pulled across B does not wrap it", end)
		}
		if deepest > width/10 {
			t.Errorf("end at %v: the wire lay %.4f m inside B, more than a tenth of its width", end, deepest)
		}
	}
}
