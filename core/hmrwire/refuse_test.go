package hmrwire

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestRefused: a geometry or wire that cannot be simulated is refused with
// an error that names what is wrong, and nothing is added.
func TestRefused(t *testing.T) {
	unit, err := Box(geom.V(1, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	post := multibody.NewStatic("post", geom.Vec3{})
	for _, c := range []struct {
		name   string
		offset geom.Vec3
		rot    geom.Quat
		mu     float64
		want   string
	}{
		{"zero rotation", geom.Vec3{}, geom.Quat{}, 0, "not a rotation"},
		{"NaN rotation", geom.Vec3{}, geom.Quat{W: math.NaN()}, 0, "not a rotation"},
		{"infinite rotation", geom.Vec3{}, geom.Quat{W: math.Inf(1)}, 0, "not a rotation"},
		{"infinite offset", geom.V(math.Inf(1), 0, 0), geom.Quat{W: 1}, 0, "offset"},
		{"negative friction", geom.Vec3{}, geom.Quat{W: 1}, -0.1, "friction"},
	} {
		if _, err := NewGeometry("g", post, unit, c.offset, c.rot, c.mu); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	for _, size := range []geom.Vec3{geom.V(0, 1, 1), geom.V(1e308, 1e308, 1e308), geom.V(math.NaN(), 1, 1)} {
		if _, err := Box(size); err == nil {
			t.Errorf("box of size %v accepted", size)
		}
	}

	// A wire whose end, via point or eye lies inside a geometry on
	// another body starts inside a solid; an eye or end on the
	// geometry's own body (a sheave's pin) is where the wire leaves it.
	sys := NewSystem(geom.V(0, 0, -g0))
	block := sys.World.AddBody(multibody.NewBody("block", 10, multibody.BoxInertia(10, 1, 1, 1), geom.V(0, 0, -2)))
	other := sys.World.AddBody(multibody.NewStatic("other", geom.V(0, 0, -2)))
	g, err := NewGeometry("block", block, unit, geom.Vec3{}, geom.Quat{W: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	sys.AddGeometry(g)
	top := sys.World.AddBody(multibody.NewStatic("top", geom.V(0, 0, 0)))
	rope := testRope(1e6, 0.1, 0.01)
	inside := geom.V(0.1, 0, -2)
	for _, c := range []struct {
		name  string
		route []RoutePoint
		ok    bool
	}{
		{"free end inside", []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: End, Point: inside}}, false},
		{"end on another body inside", []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: End, Point: inside, Body: other}}, false},
		{"via inside", []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: Via, Point: inside}, {Kind: End, Point: geom.V(3, 0, 0), Body: top}}, false},
		{"eye on another body inside", []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: Eye, Point: inside, Body: other}, {Kind: End, Point: geom.V(3, 0, 0)}}, false},
		{"end on the block inside", []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: End, Point: inside, Body: block}}, true},
		{"eye on the block inside", []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: Eye, Point: inside, Body: block}, {Kind: End, Point: geom.V(3, 0, 0)}}, true},
	} {
		wires, bodies := len(sys.Wires), len(sys.World.Bodies())
		_, err := sys.AddWire(WireSpec{Name: "w", Rope: rope, Route: c.route})
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && (err == nil || !errors.Is(err, ErrWire) || !strings.Contains(err.Error(), `inside geometry "block"`)):
			t.Errorf("%s: error %v, want one naming the geometry", c.name, err)
		case !c.ok && (len(sys.Wires) != wires || len(sys.World.Bodies()) != bodies):
			t.Errorf("%s: refused, but %d wires and %d bodies were added", c.name, len(sys.Wires)-wires, len(sys.World.Bodies())-bodies)
		}
	}
}

// TestRefusedLongRoute: a route whose spacing would lay more than
// 100,000 mass nodes (a point off by orders of magnitude) is refused at
// once, saying so; one that lays more than the resolution's bound is laid
// and coarsens to it.
func TestRefusedLongRoute(t *testing.T) {
	sys := NewSystem(geom.V(0, 0, -g0))
	top := sys.World.AddBody(multibody.NewStatic("top", geom.Vec3{}))
	rope := testRope(1e6, 0.1, 0.01)
	far := []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: End, Point: geom.V(1e6, 0, 0)}}
	_, err := sys.AddWire(WireSpec{Name: "w", Rope: rope, Route: far, Spacing: 4, Resolution: Resolution{MaxMassNodes: 200}})
	if err == nil || !errors.Is(err, ErrWire) || !strings.Contains(err.Error(), "mass nodes, more than") {
		t.Errorf("error %v, want one saying the route lays too many mass nodes", err)
	}
	if len(sys.Wires) != 0 || len(sys.World.Bodies()) != 1 {
		t.Errorf("refused, but %d wires and %d bodies are there", len(sys.Wires), len(sys.World.Bodies()))
	}
	long := []RoutePoint{{Kind: End, Point: top.Pos, Body: top}, {Kind: End, Point: geom.V(0, 0, -1590)}}
	if _, err := sys.AddWire(WireSpec{Name: "w", Rope: rope, Route: long, Spacing: 4, Resolution: Resolution{MaxMassNodes: 200}}); err != nil {
		t.Errorf("a route laying 399 mass nodes for a bound of 200: %v", err)
	}
}
