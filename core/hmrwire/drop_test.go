package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// dropScene is [SLNB11] Fig. 6: a box dropped on a slack wire hung
// between two points.
type dropScene struct {
	sys  *System
	wire *Wire
	box  *multibody.Body
	geo  *Geometry
}

// addBox adds a box of the given size (m) centred on body b, aligned with
// it, as geometry of friction μ.
func addBox(t testing.TB, sys *System, b *multibody.Body, size geom.Vec3, mu float64) *Geometry {
	t.Helper()
	shape, err := Box(size)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGeometry(b.Name, b, shape, geom.Vec3{}, geom.Quat{W: 1}, mu)
	if err != nil {
		t.Fatal(err)
	}
	sys.AddGeometry(g)
	return g
}

const (
	dropBoxMass = 50.0
	dropBoxSize = 0.4
)

func newDropScene(t testing.TB, adaptive bool) *dropScene {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	left := sys.World.AddBody(multibody.NewStatic("left", geom.V(-2, 0, 0)))
	right := sys.World.AddBody(multibody.NewStatic("right", geom.V(2, 0, 0)))
	s := dropBoxSize
	box := sys.World.AddBody(multibody.NewBody("box", dropBoxMass, multibody.BoxInertia(dropBoxMass, s, s, s), geom.V(0.05, 0, 0.6)))
	geo := addBox(t, sys, box, geom.V(s, s, s), 0.3)
	// The wire sags 0.6 m: a slack route through a point below the
	// middle.
	w, err := sys.AddWire(WireSpec{
		Name: "wire", Rope: testRope(1e6, 0.5, 0.01), Spacing: 0.1,
		Resolution: Resolution{Adaptive: adaptive, MaxMassNodes: 200, MinSegment: 0.05},
		Route: []RoutePoint{
			{Kind: End, Point: left.Pos, Body: left},
			{Kind: Via, Point: geom.V(0, 0, -0.6)},
			{Kind: End, Point: right.Pos, Body: right},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &dropScene{sys: sys, wire: w, box: box, geo: geo}
}

// snapshot returns every position and velocity of the scene and its node
// count.
func (d *dropScene) snapshot() []float64 {
	var out []float64
	for _, p := range d.wire.Points() {
		out = append(out, p.X, p.Y, p.Z)
	}
	out = append(out, d.box.Pos.X, d.box.Pos.Y, d.box.Pos.Z, d.box.Vel.X, d.box.Vel.Y, d.box.Vel.Z)
	return append(out, d.wire.Tensions()...)
}

// TestStateAcrossResolutionChanges: a state saved while the box lands on
// the wire and restored (into the same system, and into one built anew)
// continues bitwise identically, although the wire coarsens, refines and
// gains and loses contact nodes between the save and the end.
func TestStateAcrossResolutionChanges(t *testing.T) {
	const h = 1.0 / 60
	d := newDropScene(t, true)
	for k := 0; k < 20; k++ {
		if err := d.sys.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	saved := d.sys.SaveState(nil)
	c0, r0 := d.wire.Coarsened, d.wire.Refined
	mass0, _, contact0 := d.wire.Counts()
	var ref [][]float64
	for k := 0; k < 60; k++ {
		if err := d.sys.Step(h); err != nil {
			t.Fatal(err)
		}
		ref = append(ref, d.snapshot())
	}
	mass1, _, contact1 := d.wire.Counts()
	t.Logf("between save and end: %d coarsenings, %d refinements; mass nodes %d → %d, contact nodes %d → %d",
		d.wire.Coarsened-c0, d.wire.Refined-r0, mass0, mass1, contact0, contact1)
	if d.wire.Coarsened == c0 || contact1 == contact0 && mass1 == mass0 {
		t.Fatal("the resolution did not change after the save: the test shows nothing")
	}
	compare := func(name string, sys *dropScene) {
		rest, err := sys.sys.LoadState(saved)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rest) != 0 {
			t.Fatalf("%s: %d values left after the state", name, len(rest))
		}
		for k := 0; k < 60; k++ {
			if err := sys.sys.Step(h); err != nil {
				t.Fatal(err)
			}
			got := sys.snapshot()
			if len(got) != len(ref[k]) {
				t.Fatalf("%s, step %d: %d values, want %d (node counts differ)", name, k, len(got), len(ref[k]))
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(ref[k][i]) {
					t.Fatalf("%s, step %d: value %d is %.17g, want %.17g", name, k, i, got[i], ref[k][i])
				}
			}
		}
	}
	compare("same system", d)
	compare("new system", newDropScene(t, true))
	// A state that does not fit is refused and changes nothing.
	before := d.snapshot()
	for _, bad := range [][]float64{nil, saved[:len(saved)/2], append([]float64{stateVersion + 1}, saved[1:]...)} {
		if _, err := d.sys.LoadState(bad); err == nil {
			t.Errorf("a state of %d values was taken", len(bad))
		}
	}
	after := d.snapshot()
	for i := range before {
		if math.Float64bits(before[i]) != math.Float64bits(after[i]) {
			t.Fatalf("a refused state changed value %d", i)
		}
	}
}

// TestBoxDroppedOnSlackWire is [SLNB11] Fig. 6: a 50 kg box dropped on a
// slack wire between two posts (uniform spacing 0.1 m, adaptive) lands
// and rests on it with no node inside the box at any step, the wire
// coarsening under the load; lifted off again by a force of twice its
// weight for a second, then by its weight (rising on), it leaves the wire,
// which refines again.
func TestBoxDroppedOnSlackWire(t *testing.T) {
	const h = 1.0 / 60
	d := newDropScene(t, true)
	inside := 0
	d.sys.afterContacts = func() {
		for i, p := range d.wire.Points() {
			if d.geo.Inside(p) {
				inside++
				if inside < 5 {
					t.Errorf("node %d (kind %d) inside the box by %.2g m", i, d.wire.nodes[i].kind, d.geo.depth(p))
				}
			}
		}
	}
	run := func(seconds float64) {
		for k := 0; k < int(math.Round(seconds/h)); k++ {
			if err := d.sys.Step(h); err != nil {
				t.Fatal(err)
			}
		}
	}
	mass0, _, _ := d.wire.Counts()
	run(5)
	massOn, _, contactOn := d.wire.Counts()
	zOn := d.box.Pos.Z
	t.Logf("resting: box at z = %.3f m, %d mass nodes (from %d), %d contact nodes, %d coarsenings, %d releases",
		zOn, massOn, mass0, contactOn, d.wire.Coarsened, d.wire.Released)
	if contactOn == 0 || zOn < -1 || massOn >= mass0 {
		t.Errorf("after 5 s the box is not resting on a coarsened wire: z = %.3f m, %d contact nodes, %d mass nodes", zOn, contactOn, massOn)
	}
	d.box.Force = geom.V(0, 0, 2*dropBoxMass*g0)
	run(1)
	d.box.Force = geom.V(0, 0, dropBoxMass*g0) // its weight: it rises on at its speed
	run(3)
	if d.box.Pos.Z < 2 {
		t.Fatalf("the box was not lifted: z = %.3f m", d.box.Pos.Z)
	}
	massOff, _, contactOff := d.wire.Counts()
	t.Logf("lifted off: %d mass nodes, %d contact nodes, %d refinements", massOff, contactOff, d.wire.Refined)
	if contactOff != 0 || massOff < 4*massOn {
		t.Errorf("after the lift the wire has %d contact nodes and %d mass nodes (%d under the load)", contactOff, massOff, massOn)
	}
	if inside > 0 {
		t.Errorf("%d times a node was inside the box after the contact update", inside)
	}
}
