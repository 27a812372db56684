package fmu

import (
	"math"
	"testing"
)

// The lead decays without stepping the path's speed or acceleration: a
// lead grown from rest shrinks at most at leadRate and bends at most at
// leadBend (per second, at internal steps of h), its value, rate and
// bend stay continuous where it grows again (the growth itself aside),
// and it falls to 3 % of a 29-step lead within 9.5 s at 1/60 s.
func TestLeadDecay(t *testing.T) {
	const h = 1.0 / 60
	for _, s0 := range []float64{1, 5, 29, 300} {
		var l lead
		l.grow(0, s0, h)
		maxRate, maxBend, fell := 0.0, 0.0, math.Inf(1)
		for u := 0.0; u < 1e5; u++ {
			s, ds, dds := l.value(u)
			maxRate, maxBend = math.Max(maxRate, -ds), math.Max(maxBend, math.Abs(dds))
			if s < 0 || ds > 0 {
				t.Fatalf("lead %g: at %g steps %g, rate %g: not a monotone decay", s0, u, s, ds)
			}
			if s < 0.03*s0 && math.IsInf(fell, 1) {
				fell = u * h
			}
		}
		t.Logf("lead %3g steps: peak rate %.4f, peak bend %.3g /s, 3 %% after %.2f s", s0, maxRate, maxBend/h, fell)
		if maxRate > leadRate*1.0001 || maxBend/h > leadBend*1.0001 {
			t.Errorf("lead %g steps: peak rate %g (at most %g), peak bend %g /s (at most %g)", s0, maxRate, leadRate, maxBend/h, leadBend)
		}
		if s0 == 29 && fell > 9.5 {
			t.Errorf("a lead of 29 steps fell to 3 %% after %g s, want within 9.5 s", fell)
		}
	}
	// Grown again mid-decay: the rate and bend carry on.
	var l lead
	l.grow(0, 10, h)
	s, ds, dds := l.value(40)
	l.grow(40, 5, h)
	s2, ds2, dds2 := l.value(40)
	if math.Abs(s2-s-5) > 1e-12 || math.Abs(ds2-ds) > 1e-15 || math.Abs(dds2-dds) > 1e-15 {
		t.Errorf("grown by 5 at 40 steps: (%g, %g, %g) became (%g, %g, %g)", s, ds, dds, s2, ds2, dds2)
	}
	// Taking from it keeps rate and bend, and never takes more than it has.
	l.take(60, 100)
	if s, ds, _ := l.value(60); s != 0 || ds == 0 {
		t.Errorf("taken 100 at 60 steps: lead %g, rate %g; want 0 and the rate kept", s, ds)
	}
	// Its rate carries it below zero; grown by less than that, it stays
	// finite and decays (a NaN decay rate made the whole path NaN).
	s, _, _ = l.value(90)
	if s >= 0 {
		t.Fatalf("a lead taken up with its rate kept stays at %g, want it below zero", s)
	}
	l.grow(90, -s/2, h)
	for _, u := range []float64{90, 100, 1000} {
		if s, ds, dds := l.value(u); math.IsNaN(s+ds+dds) || math.IsInf(s+ds+dds, 0) || math.Abs(s) > 10 {
			t.Errorf("grown by %g from %g: at %g steps (%g, %g, %g)", -s/2, s, u, s, ds, dds)
		}
	}
}

// reach extrapolates a sample by the lead with its acceleration, stops
// at rest where the motion decelerates to it (never turning back), holds
// a sample at rest, slows the velocity by the lead's rate, and says when
// the motion rests there.
func TestReach(t *testing.T) {
	for _, c := range []struct {
		x, v, a, d, dd float64
		X, U           float64
		rests          bool
	}{
		{0, 1, 0, 0.5, 0, 0.5, 1, false},          // constant speed
		{0, 1, 0.5, 0.4, 0, 0.44, 1.2, false},     // accelerating
		{0, 1, -0.5, 0.4, 0, 0.36, 0.8, false},    // decelerating
		{0, 1, -0.5, 3, 0, 1, 0, true},            // stops after 2 s, 1 m on
		{2, 0, -0.5, 0.4, 0, 2, 0, true},          // at rest: stays
		{0, -1, 0.5, 3, 0, -1, 0, true},           // the same backwards
		{0, 1, 0, 0.5, -0.1, 0.5, 0.9, false},     // the lead shrinks at 10 %
		{0, 1, 0.5, 0, 0, 0, 1, false},            // no lead: the sample
		{1, 1, 0.5, 0.4, -0.2, 1.44, 0.96, false}, // both
	} {
		X, U, rests := reach(c.x, c.v, c.a, c.d, c.dd)
		if math.Abs(X-c.X) > 1e-12 || math.Abs(U-c.U) > 1e-12 || rests != c.rests {
			t.Errorf("reach(%g, %g, %g, %g, %g) = %g, %g, %v; want %g, %g, %v", c.x, c.v, c.a, c.d, c.dd, X, U, rests, c.X, c.U, c.rests)
		}
	}
}
