package hmrwire

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// beamRig is the Atwood rig's beam (a 0.2 m square box on the static body
// "support" at the origin) and its boxes m1 (10 kg, left) and m2 (20 kg,
// right), without a wire.
func beamRig(t *testing.T) (sys *System, support *multibody.Body, beam *Geometry, m1, m2 *multibody.Body) {
	t.Helper()
	sys = NewSystem(geom.V(0, 0, -g0))
	support = sys.World.AddBody(multibody.NewStatic("support", geom.Vec3{}))
	shape, err := Box(geom.V(0.2, 4, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	if beam, err = NewGeometry("beam", support, shape, geom.Vec3{}, geom.Quat{W: 1}, 0); err != nil {
		t.Fatal(err)
	}
	sys.AddGeometry(beam)
	m1 = sys.World.AddBody(multibody.NewBody("m1", 10, multibody.BoxInertia(10, 0.3, 0.3, 0.3), geom.V(-0.1, 0, -2.05)))
	m2 = sys.World.AddBody(multibody.NewBody("m2", 20, multibody.BoxInertia(20, 0.3, 0.3, 0.3), geom.V(0.1, 0, -2.05)))
	return sys, support, beam, m1, m2
}

// TestRouteThroughGeometryRefused: a route whose straight piece passes
// through a geometry (the Atwood beam's wire from the left box straight to
// the beam's right top edge, as a route with the left wrap point given
// twice lays it) is refused, naming the geometry and the route points;
// laid around the beam by both top edges it is taken. Before, the wire
// was laid through the beam, lost its contacts in the first step and let
// both boxes fall freely. A dead end on the body that carries the beam,
// outside the beam, exempts nothing: its piece through the beam is
// refused too (that body's geometries were all exempt).
func TestRouteThroughGeometryRefused(t *testing.T) {
	lay := func(edges ...geom.Vec3) error {
		sys, _, beam, m1, m2 := beamRig(t)
		route := []RoutePoint{{Kind: End, Point: geom.V(-0.1, 0, -1.9), Body: m1}}
		for _, e := range edges {
			route = append(route, RoutePoint{Kind: Wrap, Point: e, Geometry: beam})
		}
		route = append(route, RoutePoint{Kind: End, Point: geom.V(0.1, 0, -1.9), Body: m2})
		_, err := sys.AddWire(WireSpec{Name: "wire", Rope: testRope(1e10, 0.01, 100), Route: route, Spacing: 0.1, Tension: 130.8})
		return err
	}
	if err := lay(geom.V(-0.1, 0, 0.1), geom.V(0.1, 0, 0.1)); err != nil {
		t.Fatalf("the wire over both top edges: %v", err)
	}
	err := lay(geom.V(0.1, 0, 0.1), geom.V(0.1, 0, 0.1))
	if !errors.Is(err, ErrWire) || !strings.Contains(err.Error(), `passes through geometry "beam"`) || !strings.Contains(err.Error(), "route point 0") {
		t.Fatalf("the wire from the left box through the beam to its right edge: %v, want an error naming the beam and route point 0", err)
	}
	t.Log(err)
	// A wrap point 0.1 m above the left edge: the run from the box ends
	// at the edge's node, and the wire carries the boxes over the beam
	// (it was laid past the edge, through the beam, and both fell).
	{
		sys, _, beam, m1, m2 := beamRig(t)
		route := []RoutePoint{{Kind: End, Point: geom.V(-0.1, 0, -1.9), Body: m1}, {Kind: Wrap, Point: geom.V(-0.1, 0, 0.2), Geometry: beam},
			{Kind: Wrap, Point: geom.V(0.1, 0, 0.1), Geometry: beam}, {Kind: End, Point: geom.V(0.1, 0, -1.9), Body: m2}}
		w, err := sys.AddWire(WireSpec{Name: "wire", Rope: testRope(1e10, 0.01, 100), Route: route, Spacing: 0.1, Tension: 130.8,
			Resolution: Resolution{Adaptive: true, MaxMassNodes: 100, MinSegment: 0.02}})
		if err != nil {
			t.Fatalf("a wrap point above the edge: %v", err)
		}
		for k := 0; k < 30; k++ {
			if err := sys.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
		// The frictionless Atwood machine: m1 rises at g(m2 − m1)/(m1 + m2).
		if a, want := m1.Vel.Z/0.5, g0*10/30; math.Abs(a/want-1) > 0.02 {
			t.Errorf("a wrap point above the edge: m1 rises at %.3f m/s² after 0.5 s, want %.3f (tensions %.4g N)", a, want, w.Tensions())
		}
	}
	sys, support, beam, _, m2 := beamRig(t)
	route := []RoutePoint{{Kind: End, Point: geom.V(-0.5, 0, 0), Body: support}, {Kind: Wrap, Point: geom.V(0.1, 0, 0.1), Geometry: beam},
		{Kind: End, Point: geom.V(0.1, 0, -1.9), Body: m2}}
	_, err = sys.AddWire(WireSpec{Name: "wire", Rope: testRope(1e10, 0.01, 100), Route: route, Spacing: 0.1, Tension: 196})
	if !errors.Is(err, ErrWire) || !strings.Contains(err.Error(), `passes through geometry "beam"`) {
		t.Errorf("a dead end on the beam's body, its piece through the beam: %v, want it refused", err)
	}
}
