package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// reeving is a hook block hung on four falls: the wire comes level from a
// winch, over boom-tip sheave B1, under hook sheave H1, over B2, under H2
// and up to a dead end on the boom tip. The sheaves (radius r, axles
// along y) sit side by side along x, so that every fall hangs plumb:
// B1 at x = 0, H1 at 2r, B2 at 4r, H2 at 6r, the dead end at 7r.
type reeving struct {
	sys     *System
	wire    *Wire
	block   *multibody.Body
	sheaves []*Sheave // B1, H1, B2, H2
	radius  float64   // m: the sheaves' groove radius, the polygons' circumradius at the wire
	weight  float64   // N: the block, its sheaves and the load
	blockZ0 float64
}

// newReeving builds the reeving with a hook block of mass M (kg, the load
// included) whose sheaves hang drop (m) below the boom tip's. Its centre
// of mass is 1 m below the sheaves' axles, as a hook's and its load's
// are: with it at the axles the block would not resist tilting (equal
// falls at ±r and ±3r from its centre turn it with no change of the
// wire's length) and, once tilted by the start, would keep turning.
func newReeving(t testing.TB, M, drop float64, bearing float64) *reeving {
	t.Helper()
	const r, sides, sheaveMass = 0.4, 48, 50.0
	sys := NewSystem(geom.V(0, 0, -g0))
	boom := sys.World.AddBody(multibody.NewStatic("boom tip", geom.Vec3{}))
	block := sys.World.AddBody(multibody.NewBody("hook block", M, multibody.BoxInertia(M, 8*r, 0.5, 2), geom.V(4*r, 0, -drop-1)))
	re := &reeving{sys: sys, block: block, radius: r, weight: (M + 2*sheaveMass) * g0, blockZ0: block.Pos.Z}
	add := func(name string, axle *multibody.Body, center geom.Vec3) *Sheave {
		sh, err := sys.AddSheave(SheaveSpec{Name: name, Axle: axle, Center: center, Axis: geom.V(0, 1, 0), Radius: r, Width: 0.1,
			Sides: sides, Mass: sheaveMass, Friction: 0.2, BearingFriction: bearing})
		if err != nil {
			t.Fatal(err)
		}
		re.sheaves = append(re.sheaves, sh)
		return sh
	}
	b1 := add("B1", boom, geom.V(0, 0, 0))
	h1 := add("H1", block, geom.V(2*r, 0, -drop))
	b2 := add("B2", boom, geom.V(4*r, 0, 0))
	h2 := add("H2", block, geom.V(6*r, 0, -drop))
	// wrap lists the corners of sheave s from angle a0 to a1 (rad, in
	// the xz-plane from +x towards +z).
	var route []RoutePoint
	wrap := func(s *Sheave, a0, a1 float64) {
		c := s.Body.Pos
		step := 2 * math.Pi / sides
		k0, k1 := int(math.Round(a0/step)), int(math.Round(a1/step))
		for k := k0; ; {
			a := float64(k) * step
			route = append(route, RoutePoint{Kind: Wrap, Point: c.Add(geom.V(r*math.Cos(a), 0, r*math.Sin(a))), Geometry: s.Geometry})
			if k == k1 {
				break
			}
			if k1 > k0 {
				k++
			} else {
				k--
			}
		}
	}
	winch := sys.World.AddBody(multibody.NewStatic("winch", geom.V(-6, 0, r)))
	route = append(route, RoutePoint{Kind: End, Point: winch.Pos, Body: winch})
	wrap(b1, math.Pi/2, 0)       // over B1's top to its right side
	wrap(h1, math.Pi, 2*math.Pi) // under H1
	wrap(b2, math.Pi, 0)         // over B2
	wrap(h2, math.Pi, 2*math.Pi) // under H2
	route = append(route, RoutePoint{Kind: End, Point: geom.V(7*r, 0, 0), Body: boom})
	w, err := sys.AddWire(WireSpec{Name: "suspension", Rope: testRope(5e7, 0.01, 0.01),
		Tension: re.weight / 4, Winch: &Winch{Spacing: 2, MinLength: 1},
		Resolution: Resolution{Adaptive: true, MaxMassNodes: 40, MinSegment: 0.05}, Route: route})
	if err != nil {
		t.Fatal(err)
	}
	re.wire = w
	return re
}

// TestFourFallReeving: a 2 t hook block on four falls over turning
// sheaves. At rest every part of the wire carries a quarter of the
// weight within 1 % (the wire itself weighs 0.01 % of it). Hauled in at
// v, the block rises at v/4 within 1 %. Each sheave turns at the speed of
// the wire over it (B1 at v/r, H1 at 3v/(4r), B2 at v/(2r), H2 at v/(4r)
// for a level block) within 0.2 %: a polygon's corners at r pass the wire
// at ω·2r sin(π/n) per π/n turned, ω r faster than the wire by
// π²/(6n²), 0.07 % at 48 sides.
func TestFourFallReeving(t *testing.T) {
	const h, v = 1.0 / 60, 0.4
	re := newReeving(t, 2000, 6, 0)
	r := re.radius
	for i := 0; i < 180; i++ {
		if err := re.sys.Step(h); err != nil {
			t.Fatalf("settling, step %d: %v", i, err)
		}
	}
	ts := re.wire.Tensions()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range ts {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	quarter := re.weight / 4
	t.Logf("at rest: tension %.1f…%.1f N along the wire, a quarter of the weight %.1f N (%+.3f…%+.3f %%); block moved %.4f m",
		lo, hi, quarter, 100*(lo/quarter-1), 100*(hi/quarter-1), re.block.Pos.Z-re.blockZ0)
	if lo < 0.99*quarter || hi > 1.01*quarter {
		t.Errorf("at rest: tension %.1f…%.1f N, want %.1f N within 1 %%", lo, hi, quarter)
	}
	re.wire.Winch.Speed = -v
	// The sheaves' rim speeds against the wire's speed over them, from
	// the block's velocity at the falls' tangent points (x = r, 3r, 5r
	// and 7r at the hook sheaves' axles; the block rocks a little on its
	// falls after the start, so the two sides of a hook sheave move
	// apart): the lead runs at v over B1 and fall 1 at v, so H1's rim,
	// relative to the block, runs at v − a₁ with a₁ the block's speed up
	// at fall 1; fall 2 comes down at v − a₁ − b₂, B2's rim speed; the
	// dead end's fall stands still, so H2's rim runs at d₄, the block's
	// speed up there. The hook sheaves' axles rise at u₁ and u₂, u₁ + u₂
	// = v/2. Averaged over the second second.
	names := []string{"B1", "H1", "B2", "H2"}
	rim, want := make([]float64, 4), make([]float64, 4)
	rise := 0.0
	up := func(p geom.Vec3) float64 { // the block's velocity up at p
		return re.block.Vel.Add(re.block.AngVel.Cross(p.Sub(re.block.Pos))).Z
	}
	const steps = 120
	for i := 0; i < steps; i++ {
		if err := re.sys.Step(h); err != nil {
			t.Fatalf("hauling, step %d: %v", i, err)
		}
		if i < steps/2 {
			continue
		}
		h1, h2 := re.sheaves[1].Body, re.sheaves[3].Body
		rise += (h1.Vel.Z + h2.Vel.Z) / 2 / (steps / 2)
		a1, b2 := up(h1.Pos.Add(geom.V(-r, 0, 0))), up(h1.Pos.Add(geom.V(r, 0, 0)))
		d4 := up(h2.Pos.Add(geom.V(r, 0, 0)))
		for k, x := range []float64{v, v - a1, v - a1 - b2, d4} {
			rim[k] += math.Abs(re.sheaves[k].Omega()) * r / (steps / 2)
			want[k] += x / (steps / 2)
		}
	}
	t.Logf("hauling in at %.2f m/s: the hook sheaves' axles rise at %.5f m/s on average (v/4 = %.4f, %+.3f %%)", v, rise, v/4, 100*(rise/(v/4)-1))
	if math.Abs(rise/(v/4)-1) > 0.01 {
		t.Errorf("hauling in at %g m/s: the block rises at %.4f m/s, want %.4f within 1 %%", v, rise, v/4)
	}
	for k, name := range names {
		t.Logf("%s: ω r = %.4f m/s, wire speed over it %.4f m/s (%+.2f %%)", name, rim[k], want[k], 100*(rim[k]/want[k]-1))
		if math.Abs(rim[k]/want[k]-1) > 0.002 {
			t.Errorf("%s turns at ω r = %.4f m/s, want %.4f within 0.2 %%", name, rim[k], want[k])
		}
	}
}
