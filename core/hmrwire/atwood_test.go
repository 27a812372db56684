package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

const g0 = 9.81

// atwood is the paper's Fig. 12 rig: a wire over a rectangular beam
// (static, its long axis along y, 0.2 m square, top at z = 0.1), two boxes
// hanging from its ends 2 m below the top edges.
type atwood struct {
	sys        *System
	beam       *Geometry
	wire       *Wire
	m1, m2     *multibody.Body
	wireMass   float64
	halfWidth  float64
	hangLength float64
}

func newAtwood(t testing.TB, m1, m2, mu float64, tilt float64) *atwood {
	return newAtwoodHanging(t, m1, m2, mu, tilt, geom.V(0, 0, -1))
}

// newAtwoodHanging builds the rig with the boxes hanging from the edges
// along the unit vector down.
func newAtwoodHanging(t testing.TB, m1, m2, mu float64, tilt float64, down geom.Vec3) *atwood {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	hw := 0.1
	beamBody := sys.World.AddBody(multibody.NewStatic("beam", geom.Vec3{}))
	shape, err := Box(geom.V(2*hw, 4, 2*hw))
	if err != nil {
		t.Fatal(err)
	}
	// tilt inclines the beam's long axis by θ about x.
	rot := geom.AxisAngle(geom.V(1, 0, 0), tilt)
	beam, err := NewGeometry("beam", beamBody, shape, geom.Vec3{}, rot, mu)
	if err != nil {
		t.Fatal(err)
	}
	sys.AddGeometry(beam)
	hang := 2.0
	// The top edges' points above the wire's plane y = 0 (in the tilted
	// frame, the plane through the beam's centre across its axis).
	up := rot.Rotate(geom.V(0, 0, 1))
	side := geom.V(1, 0, 0)
	e1 := up.Scale(hw).Sub(side.Scale(hw))
	e2 := up.Scale(hw).Add(side.Scale(hw))
	size := 0.3
	hook1, hook2 := e1.AddScaled(hang, down), e2.AddScaled(hang, down)
	b1 := sys.World.AddBody(multibody.NewBody("m1", m1, multibody.BoxInertia(m1, size, size, size), hook1.AddScaled(size/2, down)))
	b2 := sys.World.AddBody(multibody.NewBody("m2", m2, multibody.BoxInertia(m2, size, size, size), hook2.AddScaled(size/2, down)))
	rope := testRope(1e7, 0.001, 0.01)
	route := []RoutePoint{
		{Kind: End, Point: hook1, Body: b1},
		{Kind: Wrap, Point: e1, Geometry: beam},
		{Kind: Wrap, Point: e2, Geometry: beam},
		{Kind: End, Point: hook2, Body: b2},
	}
	// Laid with the tension of the boxes' mean weight, as if lowered onto
	// the beam.
	w, err := sys.AddWire(WireSpec{Name: "wire", Rope: rope, Resolution: Resolution{Adaptive: true, MaxMassNodes: 40, MinSegment: 0.05},
		Route: route, Tension: (m1 + m2) / 2 * g0 * -down.Z})
	if err != nil {
		t.Fatal(err)
	}
	return &atwood{sys: sys, beam: beam, wire: w, m1: b1, m2: b2, wireMass: w.Mass(), halfWidth: hw, hangLength: hang}
}

func (a *atwood) run(t testing.TB, seconds, h float64, each func(step int)) {
	t.Helper()
	n := int(math.Round(seconds / h))
	for i := 0; i < n; i++ {
		if err := a.sys.Step(h); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if each != nil {
			each(i)
		}
	}
}

// TestAtwoodFrictionless: over the two frictionless 90° edges the wire's
// tension is uniform, and the Atwood machine's a = g(1 − r)/(1 + r),
// T = 2r m g/(1 + r) hold (r = m₁/m₂, the wire's end masses added to
// the boxes), with √2 T pressing each edge.
func TestAtwoodFrictionless(t *testing.T) {
	for _, m := range []float64{10, 100, 1000} {
		h := 1.0 / 60
		a := newAtwood(t, 0.5*m, m, 0, 0)
		end := a.wireMass / 2
		M1, M2 := 0.5*m+end, m+end
		want := g0 * (M2 - M1) / (M1 + M2)
		wantT := 2 * M1 * M2 * g0 / (M1 + M2) // the wire's pull on the boxes' ends
		var v0, t0 float64
		var tension, pressure float64
		samples := 0
		a.run(t, 1.0, h, func(i int) {
			if i == 20 {
				v0, t0 = a.m2.Vel.Z, float64(i)*h
			}
			if i > 20 {
				tension += a.wire.Tensions()[0]
				for _, c := range a.wire.Contacts() {
					pressure += c.Force.Norm() / 2
				}
				samples++
			}
		})
		acc := -(a.m2.Vel.Z - v0) / (float64(59)*h - t0)
		tension /= float64(samples)
		pressure /= float64(samples)
		mass, _, contact := a.wire.Counts()
		t.Logf("m=%g: a = %.4f m/s² (want %.4f), T = %.2f N (want %.2f), pressure/T = %.4f, nodes %d mass %d contact", m, acc, want, tension, wantT, pressure/tension, mass, contact)
		if math.Abs(acc-want) > 0.02*want {
			t.Errorf("m=%g: acceleration %.4f m/s², want %.4f within 2 %%", m, acc, want)
		}
		// The end particles ride on the boxes: the wire pulls the boxes'
		// hooks with T − m_end(g + a) on the light side.
		if math.Abs(tension-wantT) > 0.02*wantT {
			t.Errorf("m=%g: tension %.2f N, want %.2f within 2 %%", m, tension, wantT)
		}
		if math.Abs(pressure/tension-math.Sqrt2) > 0.02*math.Sqrt2 {
			t.Errorf("m=%g: contact pressure %.4f T, want √2 T within 2 %%", m, pressure/tension)
		}
	}
}

// testRope is a perfectly flexible 20 mm rope of axial stiffness ea (N),
// mass per length mu (kg/m) and damping time tau (s): the wire of
// [SLNB11], which carries stretch only, stated by the numbers the tests
// state a wire by. The tests of bending give the rope's EI.
func testRope(ea, mu, tau float64) material.Rope {
	r := material.FromStiffness(ea, mu, 0.02)
	r.DampingTime = tau
	r.Flexible = true
	return r
}
