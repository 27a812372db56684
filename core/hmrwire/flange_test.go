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
// sheave B beside A (0.11 m apart on one axle, 0.1 m wide), far beyond
// the fleet angle A's groove holds (its limit 4°). The wire keeps to A's
// groove (A wrapped, no contact node on B: the flange), A reports its
// fleet angle beyond the limit, and the undamped system never gains more
// than 1 J over 2 s. (Letting the wire wrap B where its piece went
// deeper than a tenth of B's width into it made it chatter between the
// two sheaves and gain up to 35 J.)
func TestWireOverTheFlange(t *testing.T) {
	const r, width, pitch, limit = 0.4, 0.1, 0.11, 4 * math.Pi / 180
	for _, end := range []geom.Vec3{geom.V(0.2, 0.6, 0), geom.V(0.1, 1.0, -0.3)} {
		sys := NewSystem(geom.V(0, 0, -g0))
		top := sys.World.AddBody(multibody.NewStatic("top", geom.Vec3{}))
		spec := SheaveSpec{Name: "A", Axle: top, Axis: geom.V(0, 1, 0), Radius: r, Width: width, Sides: 48, Mass: 80, Locked: true, FleetLimit: limit}
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
		energy := func() float64 {
			return sys.World.KineticEnergy() + sys.World.GravityEnergy() + sys.World.ElasticEnergy()
		}
		e0, gain, onB := energy(), 0.0, 0
		for k := 0; k < 120; k++ {
			if err := sys.Step(1.0 / 60); err != nil {
				t.Fatalf("end at %v: step %d: %v", end, k, err)
			}
			gain = max(gain, energy()-e0)
			for _, c := range w.Contacts() {
				if c.Geometry == B.Geometry {
					onB++
				}
			}
		}
		t.Logf("end at %v: A wrapped %.1f°, fleet angle %.1f° (beyond %v); contact nodes on B in 120 steps %d; energy at most %+.3f J of %.1f J", end, A.Wrap()*180/math.Pi, A.Fleet()*180/math.Pi, A.Beyond(), onB, gain, e0)
		if !(A.Wrap() > math.Pi/2) || onB > 0 {
			t.Errorf("end at %v: A wrapped %.1f°, %d contact nodes on B: the wire left A's groove", end, A.Wrap()*180/math.Pi, onB)
		}
		if !A.Beyond() {
			t.Errorf("end at %v: a fleet angle of %.1f° is not reported beyond A's limit", end, A.Fleet()*180/math.Pi)
		}
		if gain > 1 {
			t.Errorf("end at %v: the system gained %.2f J", end, gain)
		}
	}
}

// TestWrapTurn: the wrap a run of contact nodes adds up to (wrapTurn).
// A U of 25 nodes over the bottom of a 48-gon of radius 0.4 m, the falls
// plumb, wraps 180° seen along the axle: within 1e-9° in the sheave's
// plane, with the nodes alternately 5 cm either side of the groove's
// middle (the wire crossing the groove), and with the falls at 4° fleet
// angles. A fall 86° off the sheave's plane (slack wire lying along the
// axle) adds nothing at its end node: the U reads 180° less that node's
// turn onto the groove (3.75°), not 127° more.
func TestWrapTurn(t *testing.T) {
	const r, sides = 0.4, 48
	u := geom.V(0, 1, 0)
	wrap := func(zigzag float64, in geom.Vec3, fleetOut float64) float64 {
		var p []geom.Vec3
		p = append(p, in) // where the fall comes from
		for k := 0; k <= sides/2; k++ {
			a := math.Pi + float64(k)*2*math.Pi/sides // from (−r, 0, 0) under the bottom to (r, 0, 0)
			y := zigzag * float64(1-2*(k%2))
			p = append(p, geom.V(r*math.Cos(a), y, r*math.Sin(a)))
		}
		p = append(p, geom.V(r, 40*math.Tan(fleetOut), 40)) // the fall out, up
		turn := 0.0
		for i := 1; i+1 < len(p); i++ {
			turn += wrapTurn(p[i].Sub(p[i-1]), p[i+1].Sub(p[i]), u, i > 1, i+2 < len(p))
		}
		return math.Abs(turn) * 180 / math.Pi
	}
	deg := math.Pi / 180
	for _, c := range []struct {
		name     string
		zigzag   float64
		in       geom.Vec3
		fout     float64
		want, by float64
	}{
		{"in the plane", 0, geom.V(-r, 0, 40), 0, 180, 1e-9},
		{"crossing the groove", 0.05, geom.V(-r, 0, 40), 0, 180, 1e-9},
		{"falls at 4° fleet angles", 0, geom.V(-r, 40*math.Tan(4*deg), 40), -4 * deg, 180, 1e-9},
		// In the plane this piece points up and outwards: its turn onto
		// the groove seen along the axle would be 127°.
		{"a fall 86° off the plane", 0, geom.V(-r+0.03, 0.6, -0.02), 0, 180 - 3.75, 1e-9},
	} {
		got := wrap(c.zigzag, c.in, c.fout)
		t.Logf("%s: wraps %.9f°", c.name, got)
		if math.Abs(got-c.want) > c.by {
			t.Errorf("%s: wraps %.6f°, want %.6f° within %g°", c.name, got, c.want, c.by)
		}
	}
}
