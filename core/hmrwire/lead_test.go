package hmrwire

import (
	"math"
	"testing"
)

// fitCatenary finds the catenary z = a cosh((s − sv)/a) through two
// points of it, the shallowest of the two through them; and none where
// the tension cannot span them.
func TestFitCatenary(t *testing.T) {
	for _, c := range []struct{ a, sv, span float64 }{
		{60, -20, 30},    // both ends right of the vertex (a steep lead)
		{200, 10, 40},    // the vertex between them
		{2600, -900, 30}, // nearly straight: a heavy load's lead
	} {
		z0, z1 := c.a*math.Cosh(-c.sv/c.a), c.a*math.Cosh((c.span-c.sv)/c.a)
		a, sv, ok := fitCatenary(c.span, z0, z1)
		if !ok || math.Abs(a/c.a-1) > 1e-9 || math.Abs(sv-c.sv) > 1e-7*c.a {
			// The deeper catenary through the points is the other one.
			t.Errorf("catenary a = %g m, vertex at %g m: fitted a = %.10g m, vertex %.10g m (ok %v)", c.a, c.sv, a, sv, ok)
		}
	}
	// 1 m and 2 m above zero tension cannot span 100 m.
	if _, _, ok := fitCatenary(100, 1, 2); ok {
		t.Error("a catenary spans 100 m at heights 1 and 2 m above its zero tension")
	}
}

// TestLeadLaidInItsSag: the example crane's lead from the drum to the
// first sheave is laid as the catenary of the falls' tension. With 1 kg
// to 20 t on the hook the block stays within 2 mm of its start for 20 s
// and the lead's nodes within 3 cm (the lumped masses' polygon hangs a
// little apart from the catenary: 4 m spacing); laid straight, the lead
// fell into its sag and the block with 1 to 100 kg rose by 0.24 m. The
// lead's sag below its chord against the parabola's, ρg S²/(8 H cos θ),
// S the span, θ the chord's slope and H the horizontal part of the
// tension at the chord's middle: within 4 %, the parabola's own error at
// the light loads' sag of 7.5 % of the lead (+3.2 % measured at 1 kg,
// −0.4 % at 20 t).
func TestLeadLaidInItsSag(t *testing.T) {
	for _, load := range []float64{1, 100, 1000, 20000} {
		spec := exampleCrane()
		spec.LoadMass = load
		ho := newCrane(t, spec)
		// The lead: the nodes before the first sheave's first contact.
		k := 0
		for k < len(ho.Wire.nodes) && ho.Wire.nodes[k].kind != ContactNode {
			k++
		}
		laid := make([]float64, k)
		for i, n := range ho.Wire.nodes[:k] {
			laid[i] = n.body.PointWorld(n.local).Z
		}
		p0 := ho.Wire.nodes[0].body.PointWorld(ho.Wire.nodes[0].local)
		p1 := ho.Wire.nodes[k].body.PointWorld(ho.Wire.nodes[k].local)
		span := p1.X - p0.X
		sag := 0.0
		for _, n := range ho.Wire.nodes[:k] {
			p := n.body.PointWorld(n.local)
			sag = max(sag, p0.Z+(p1.Z-p0.Z)*(p.X-p0.X)/span-p.Z)
		}
		rise := spec.Rope.LinearDensity() * spec.Gravity
		mid := spec.Hooked()/float64(spec.Falls) + rise*((p0.Z+p1.Z)/2-ho.Hook().Z)
		cos := span / math.Hypot(span, p1.Z-p0.Z) // the chord's slope
		parabola := rise / cos * span * span / (8 * mid * cos)
		z0 := ho.Block.Pos.Z
		block, moved := 0.0, 0.0
		ho.run(t, 20, func() {
			block = max(block, math.Abs(ho.Block.Pos.Z-z0))
			if load < 10000 { // a heavy load's taut lead coarsens
				for i, n := range ho.Wire.nodes[:k] {
					moved = max(moved, math.Abs(n.body.PointWorld(n.local).Z-laid[i]))
				}
			}
		})
		t.Logf("%g kg: lead of %d nodes sags %.4f m at mid-span (the parabola %.4f m); in 20 s the block moved %.2g m, the lead's nodes %.2g m", load, k, sag, parabola, block, moved)
		if math.Abs(sag/parabola-1) > 0.04 || block > 2e-3 || moved > 0.03 {
			t.Errorf("%g kg: the lead sags %.4f m (the parabola's %.4f m); the block moved %.2g m, the lead's nodes %.2g m", load, sag, parabola, block, moved)
		}
	}
}
