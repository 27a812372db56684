package hmrwire

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestWireOverTwoBeamsKeepsItsContacts: a wire laid over two beams 2 m
// apart, 10 kg and 30 kg at its ends. The line between the neighbours of
// beam 2's outer node passes under beam 2; the node stays (the beam
// reaches into the wire's angle there) and the wire keeps its length
// instead of cutting under the beam and going slack.
func TestWireOverTwoBeamsKeepsItsContacts(t *testing.T) {
	sys := NewSystem(geom.V(0, 0, -g0))
	sb := sys.World.AddBody(multibody.NewStatic("s", geom.Vec3{}))
	shape, err := Box(geom.V(0.2, 2, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	g1, _ := NewGeometry("b1", sb, shape, geom.V(-1, 0, 0), geom.Identity, 0)
	g2, _ := NewGeometry("b2", sb, shape, geom.V(1, 0, 0), geom.Identity, 0)
	sys.AddGeometry(g1)
	sys.AddGeometry(g2)
	l1 := sys.World.AddBody(multibody.NewParticle("l1", 10, geom.V(-1.1, 0, -2)))
	l2 := sys.World.AddBody(multibody.NewParticle("l2", 30, geom.V(1.1, 0, -2)))
	w, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e7, 0.01, 0.01), Tension: 20 * g0,
		Route: []RoutePoint{{Kind: End, Point: geom.V(-1.1, 0, -2), Body: l1},
			{Kind: Wrap, Point: geom.V(-1.1, 0, 0.1), Geometry: g1}, {Kind: Wrap, Point: geom.V(-0.9, 0, 0.1), Geometry: g1},
			{Kind: Wrap, Point: geom.V(0.9, 0, 0.1), Geometry: g2}, {Kind: Wrap, Point: geom.V(1.1, 0, 0.1), Geometry: g2},
			{Kind: End, Point: geom.V(1.1, 0, -2), Body: l2}}})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 30; k++ {
		if err := sys.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	// The frictionless machine: T = 2·m1·m2·g/(m1 + m2).
	want := 2 * 10 * 30 * g0 / 40
	if _, _, c := w.Counts(); c < 2 || w.Length() < w.RestLength() || math.Abs(w.Tensions()[0]/want-1) > 0.02 {
		t.Errorf("%d contact nodes, length %.4f m for rest %.4f m, tension %.2f N (want %.2f N)", c, w.Length(), w.RestLength(), w.Tensions()[0], want)
	}
}

// TestEndOrEyeInsideGeometry: a wire end fixed inside a sheave's shape,
// an eye at the sheave's pin, and a free end swung into a box step
// without trying to wrap what cannot be wrapped from inside.
func TestEndOrEyeInsideGeometry(t *testing.T) {
	for _, eye := range []bool{false, true} {
		sys := NewSystem(geom.V(0, 0, -g0))
		sb := sys.World.AddBody(multibody.NewStatic("s", geom.Vec3{}))
		shape, _ := Prism(24, 0.5, 0.2)
		g, _ := NewGeometry("sheave", sb, shape, geom.Vec3{}, geom.AxisAngle(geom.V(1, 0, 0), math.Pi/2), 0)
		sys.AddGeometry(g)
		load := sys.World.AddBody(multibody.NewParticle("load", 10, geom.V(2, 0, -3)))
		route := []RoutePoint{{Kind: End, Point: geom.V(0.1, 0, 0.1), Body: sb}, {Kind: End, Point: geom.V(2, 0, -3), Body: load}}
		if eye {
			route = []RoutePoint{{Kind: End, Point: geom.V(-2, 0, -3), Body: sb}, {Kind: Eye, Point: geom.V(0, 0, 0), Body: sb}, route[1]}
		}
		if _, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e7, 0.1, 0.01), Route: route}); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 30; k++ {
			if err := sys.Step(1.0 / 60); err != nil {
				t.Fatalf("eye %v, step %d: %v", eye, k, err)
			}
		}
	}
}

// TestShortestOnLine: the closed form of the shortest path's point on a
// line agrees with the root finding on the pull along the line (balance with
// equal tensions, no friction) to 1e-9 of the points' spread, for random
// lines and points in 3-D, and the path through it is no longer than
// through points beside it.
func TestShortestOnLine(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	r := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	for k := 0; k < 1000; k++ {
		start, a, b := r(), r(), r()
		dir, _ := r().Unit()
		s := shortestOnLine(start, dir, a, b)
		want := balance(start, dir, a, b, 1, 1, 0, 0)
		scale := a.Sub(b).Norm() + a.Sub(start).Norm()
		if math.Abs(s-want) > 1e-9*scale {
			t.Fatalf("case %d: closed form %.12g, balance %.12g", k, s, want)
		}
		length := func(s float64) float64 {
			p := start.AddScaled(s, dir)
			return p.Sub(a).Norm() + b.Sub(p).Norm()
		}
		if l := length(s); l > length(s+1e-6)+1e-12 || l > length(s-1e-6)+1e-12 {
			t.Fatalf("case %d: the path through s = %g is not the shortest", k, s)
		}
	}
}

// A neighbour on the edge's line (the wire's node a at the line's start)
// makes the pull jump where the node passes it: the pull along the line
// is −tb's share towards b beyond a and +ta plus it before. The node
// slides from s0 = −9.6 m to a, the only point without a net pull along
// the line, within the tolerance (regula falsi alone crept and stopped
// 3.3 mm short after its 60 steps), with and without friction.
func TestBalanceWherePullJumps(t *testing.T) {
	start, dir := geom.Vec3{}, geom.V(1, 0, 0)
	a, b := start, geom.V(5, 0.25, 0)
	for _, mu := range []float64{0, 0.3} {
		s := balance(start, dir, a, b, 1, 1, -9.6, mu)
		if math.Abs(s) > 1e-9 {
			t.Errorf("μ = %g: the node comes to rest at s = %.6g m, want 0", mu, s)
		}
	}
}
