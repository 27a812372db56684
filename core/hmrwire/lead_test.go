package hmrwire

import (
	"math"
	"testing"
)

// fitCatenary finds the catenary z = a cosh((s − sv)/a) through two
// points of it, the shallowest of the two through them, whichever end is
// higher; and none where the tension cannot span them. Near the greatest
// span a tension reaches (14.4935 m at heights 10 and 12 m above its
// zero), where the shallow and the deep catenary nearly meet, it still
// finds the shallow one.
func TestFitCatenary(t *testing.T) {
	for _, c := range []struct{ a, sv, span float64 }{
		{60, -20, 30},    // both ends right of the vertex (a steep lead)
		{200, 10, 40},    // the vertex between them
		{2600, -900, 30}, // nearly straight: a heavy load's lead
		{200, 20, 30},    // the second end lower: a drum above the sheave
		{200, 15, 30},    // level ends
		{80, 50, 30},     // the second end lower, both left of the vertex
	} {
		z0, z1 := c.a*math.Cosh(-c.sv/c.a), c.a*math.Cosh((c.span-c.sv)/c.a)
		a, sv, ok := fitCatenary(c.span, z0, z1)
		if !ok || math.Abs(a/c.a-1) > 1e-9 || math.Abs(sv-c.sv) > 1e-7*c.a {
			// The deeper catenary through the points is the other one.
			t.Errorf("catenary a = %g m, vertex at %g m: fitted a = %.10g m, vertex %.10g m (ok %v)", c.a, c.sv, a, sv, ok)
		}
	}
	// 1 m and 2 m above zero tension cannot span 100 m, nor 10 and 12 m
	// more than 14.4935 m.
	if _, _, ok := fitCatenary(100, 1, 2); ok {
		t.Error("a catenary spans 100 m at heights 1 and 2 m above its zero tension")
	}
	if _, _, ok := fitCatenary(14.4936, 10, 12); ok {
		t.Error("a catenary spans 14.4936 m at heights 10 and 12 m above its zero tension")
	}
	for _, span := range []float64{14.49, 14.4935, 14.49352} {
		a, sv, ok := fitCatenary(span, 10, 12)
		// The shallow catenary's slope at the first end lies above the
		// greatest span's, sinh(−1.0947).
		if !ok || math.Abs(a*math.Cosh(-sv/a)-10) > 1e-9 || math.Abs(a*math.Cosh((span-sv)/a)-12) > 1e-9 || -sv/a < -1.0948 {
			t.Errorf("span %g m at heights 10 and 12 m: a = %g m, vertex %g m (ok %v)", span, a, sv, ok)
		}
	}
}

// TestLeadLaidInItsSag: the example crane's lead from the drum to the
// first sheave is laid as the catenary of the falls' tension. With 1 kg
// to 20 t on the hook, and with 1 kg on a drum whose top is level with
// the sheave's or 0.3 m above it (the catenary's vertex then within the
// lead), the block stays within 5 mm of its start for 20 s (1.5 mm on the
// example's lead, 4.5 mm on the level ones) and the lead's sag within
// 10 cm of the laid one: the lumped masses' polygon, whose last node
// carries half the wire over the sheave, hangs a little apart from the
// catenary and swings about it (6.6 cm at 1 kg, 8.8 cm on the level
// leads). Laid straight, the lead fell into its sag and the block with 1
// to 100 kg rose by 0.24 m, on the level drums by 0.08 m. The lead's sag
// below its chord against the parabola's, ρg S²/(8 H cos θ), S the span,
// θ the chord's slope and H the horizontal part of the tension at the
// chord's middle: within 4 %, the parabola's own error at the light
// loads' sag of 7.5 % of the lead (+3.2 % measured at 1 kg, −0.4 % at
// 20 t).
func TestLeadLaidInItsSag(t *testing.T) {
	for _, c := range []struct {
		load, drumZ, drumR float64
	}{{1, 1, 0.4}, {100, 1, 0.4}, {1000, 1, 0.4}, {20000, 1, 0.4}, {1, 49.7, 0.7}, {1, 49.8, 0.9}} {
		spec := exampleCrane()
		spec.LoadMass, spec.Drum.Center.Z, spec.Drum.Radius = c.load, c.drumZ, c.drumR
		ho := newCrane(t, spec)
		// The lead: the nodes before the first sheave's first contact.
		k := 0
		for k < len(ho.Wire.nodes) && ho.Wire.nodes[k].kind != ContactNode {
			k++
		}
		p0, p1 := ho.Wire.nodes[0].body.PointWorld(ho.Wire.nodes[0].local), ho.Wire.nodes[k].body.PointWorld(ho.Wire.nodes[k].local)
		span := p1.X - p0.X
		// below is the lead's sag below the laid chord, its nodes' as
		// they are (nodes the wire coarsens away drop out).
		below := func() float64 {
			sag := 0.0
			for _, n := range ho.Wire.nodes {
				if n.kind == ContactNode {
					return sag
				}
				p := n.body.PointWorld(n.local)
				sag = max(sag, p0.Z+(p1.Z-p0.Z)*(p.X-p0.X)/span-p.Z)
			}
			return sag
		}
		sag := below()
		rise := spec.Rope.LinearDensity() * spec.Gravity
		mid := spec.Hooked()/float64(spec.Falls) + rise*((p0.Z+p1.Z)/2-ho.Hook().Z)
		cos := span / math.Hypot(span, p1.Z-p0.Z) // the chord's slope
		parabola := rise / cos * span * span / (8 * mid * cos)
		z0 := ho.Block.Pos.Z
		block, swing := 0.0, 0.0
		ho.run(t, 20, func() {
			block = max(block, math.Abs(ho.Block.Pos.Z-z0))
			swing = max(swing, math.Abs(below()-sag))
		})
		t.Logf("%g kg, drum at %g m: lead of %d nodes sags %.4f m below its chord (the parabola %.4f m); in 20 s the block moved %.2g m, the sag by %.2g m", c.load, c.drumZ, k, sag, parabola, block, swing)
		if math.Abs(sag/parabola-1) > 0.04 || block > 5e-3 || swing > 0.1 {
			t.Errorf("%g kg, drum at %g m: the lead sags %.4f m (the parabola's %.4f m); the block moved %.2g m, the sag by %.2g m", c.load, c.drumZ, sag, parabola, block, swing)
		}
	}
}
