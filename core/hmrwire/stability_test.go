package hmrwire

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// The stability chart of [SLNB11] Figs. 10–11: a wire of mass m_w hung
// over a fixed cylinder (a 32-gon of radius 0.5 m, μ = 0.3) carries a box
// of mass m_b at each end, 4.5 m below the cylinder's axis and swung
// 0.3 m out of the plane, the two in opposite directions (without it the
// uniform chain hangs exactly straight and its unstable transverse modes
// are never excited); both masses range over 1 … 1e5 kg, the step is
// 1/60 s and each cell runs 60 s.
const (
	chartRadius  = 0.5
	chartDrop    = 4.5
	chartEA      = 1e9 // N: the heaviest load stretches the wire 0.1 %
	chartSeconds = 60.0
)

var chartMasses = []float64{1, 10, 100, 1e3, 1e4, 1e5}

// chartLength is the wire's length (m): two hanging runs and half the
// 32-gon's perimeter.
func chartLength() float64 {
	return 2*chartDrop + 16*2*chartRadius*math.Sin(math.Pi/32)
}

// chartCell is one run of the stability chart's scenario.
type chartCell struct {
	sys  *System
	wire *Wire
}

// newChartCell lays the wire with segments uniform segments (adaptive:
// the resolution then adapts from there).
func newChartCell(t testing.TB, mw, mb float64, segments int, adaptive bool) *chartCell {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	drumBody := sys.World.AddBody(multibody.NewStatic("drum", geom.Vec3{}))
	shape, err := Prism(32, chartRadius, 1)
	if err != nil {
		t.Fatal(err)
	}
	drum, err := NewGeometry("drum", drumBody, shape, geom.Vec3{}, geom.AxisAngle(geom.V(1, 0, 0), -math.Pi/2), 0.3)
	if err != nil {
		t.Fatal(err)
	}
	sys.AddGeometry(drum)
	const box, swing = 0.5, 0.3
	left := sys.World.AddBody(multibody.NewBody("left", mb, multibody.BoxInertia(mb, box, box, box), geom.V(-chartRadius, swing, -chartDrop-box/2)))
	right := sys.World.AddBody(multibody.NewBody("right", mb, multibody.BoxInertia(mb, box, box, box), geom.V(chartRadius, -swing, -chartDrop-box/2)))
	route := []RoutePoint{{Kind: End, Point: geom.V(-chartRadius, swing, -chartDrop), Body: left}}
	for k := 16; k >= 0; k-- { // over the top, left to right
		psi := math.Pi * float64(k) / 16
		route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(chartRadius*math.Cos(psi), 0, chartRadius*math.Sin(psi)), Geometry: drum})
	}
	route = append(route, RoutePoint{Kind: End, Point: geom.V(chartRadius, -swing, -chartDrop), Body: right})
	L := chartLength()
	w, err := sys.AddWire(WireSpec{
		Name: "wire", Rope: testRope(chartEA, mw/L, 0.01),
		Spacing:    L / float64(segments),
		Resolution: Resolution{Adaptive: adaptive, MaxMassNodes: 64, MinSegment: 0.05},
		Route:      route, Tension: mb * g0,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &chartCell{sys: sys, wire: w}
}

// run steps the cell for chartSeconds and returns "" if it stayed
// stable, or why not: a failed step, a constraint violation of 5 % (the
// wire's length beyond its rest length by more than its elastic stretch)
// or energy growth (kinetic plus gravity energy above its start by more
// than 1 % of the loads' weight times 1 m). It also returns the mass
// nodes the wire has at the end.
func (c *chartCell) run(mb float64) (string, int) {
	const h = 1.0 / 60
	w := c.wire
	energy := func() float64 { return c.sys.World.KineticEnergy() + c.sys.World.GravityEnergy() }
	e0, slack := energy(), 0.01*2*mb*g0
	nodes := 0
	for i := 0; i < int(chartSeconds/h); i++ {
		if err := c.sys.Step(h); err != nil {
			return fmt.Sprintf("step %d: %v", i, err), nodes
		}
		nodes, _, _ = w.Counts()
		elastic := 2 * mb * g0 / chartEA
		if v := w.Length()/w.RestLength() - 1 - elastic; math.Abs(v) > 0.05 || math.IsNaN(v) {
			return fmt.Sprintf("t = %.2f s: constraint violation %.1f %%", float64(i+1)*h, 100*v), nodes
		}
		if e := energy(); e > e0+slack || math.IsNaN(e) {
			return fmt.Sprintf("t = %.2f s: energy grew by %.3g J", float64(i+1)*h, e-e0), nodes
		}
	}
	return "", nodes
}

// chartSegments are the uniform chain's resolutions tried, coarsest
// first: f_crit falls with the square of the segment count, so a chain
// unstable at one count is unstable at every finer one.
var chartSegments = []int{4, 8, 16, 30}

// TestStabilityChart: the adaptive wire, laid with 30 segments, is stable
// in every cell of the chart. The uniform chain (adaptivity off) shows
// the paper's Fig. 11a: it is unstable at every resolution tried wherever
// m_b ≥ 1000 m_w, stable only at the coarsest (4 segments) at m_b =
// 100 m_w, and stable at the finest (30) wherever m_b ≤ m_w; and its
// finest stable resolution depends on m_b/m_w alone, as eq. 25 says (the
// tension grows with m_b, f_crit with the node mass). Both charts are
// logged: the adaptive wire's mass nodes at the end, the uniform chain's
// finest stable resolution (× none).
func TestStabilityChart(t *testing.T) {
	if testing.Short() {
		t.Skip("the stability chart runs 60 s in each of 36 cells, once adaptive and up to four times uniform: skipped in -short")
	}
	var adaptive, uniform strings.Builder
	header := func(b *strings.Builder, title string) {
		fmt.Fprintf(b, "\n%s\n%12s", title, "m_w \\ m_b")
		for _, mb := range chartMasses {
			fmt.Fprintf(b, "%8.0e", mb)
		}
		b.WriteString("\n")
	}
	header(&adaptive, "Fig. 11b: adaptive wire, mass nodes after 60 s (× unstable)")
	header(&uniform, "Fig. 11a: uniform chain, finest stable resolution in segments (× none of 4, 8, 16, 30)")
	byRatio := map[float64]int{} // m_b/m_w → the uniform chain's finest stable resolution
	for _, mw := range chartMasses {
		fmt.Fprintf(&adaptive, "%12.0e", mw)
		fmt.Fprintf(&uniform, "%12.0e", mw)
		for _, mb := range chartMasses {
			why, nodes := newChartCell(t, mw, mb, 30, true).run(mb)
			if why != "" {
				t.Errorf("adaptive, m_w = %g kg, m_b = %g kg: unstable: %s", mw, mb, why)
				fmt.Fprintf(&adaptive, "%8s", "×")
			} else {
				fmt.Fprintf(&adaptive, "%8d", nodes)
			}
			finest := 0
			for _, n := range chartSegments {
				if why, _ := newChartCell(t, mw, mb, n, false).run(mb); why != "" {
					t.Logf("uniform, %d segments, m_w = %g kg, m_b = %g kg: %s", n, mw, mb, why)
					break
				}
				finest = n
			}
			if finest == 0 {
				fmt.Fprintf(&uniform, "%8s", "×")
			} else {
				fmt.Fprintf(&uniform, "%8d", finest)
			}
			ratio := math.Round(mb/mw*1e6) / 1e6
			switch {
			case ratio >= 1000 && finest != 0:
				t.Errorf("uniform chain, m_w = %g kg, m_b = %g kg: stable at %d segments, where the paper finds none", mw, mb, finest)
			case ratio == 100 && finest > chartSegments[0]:
				t.Errorf("uniform chain, m_w = %g kg, m_b = %g kg: stable at %d segments, beyond eq. 25", mw, mb, finest)
			case ratio <= 1 && finest != chartSegments[len(chartSegments)-1]:
				t.Errorf("uniform chain, m_w = %g kg, m_b = %g kg: unstable at %d segments, where eq. 25 allows them", mw, mb, chartSegments[len(chartSegments)-1])
			}
			if was, ok := byRatio[ratio]; ok && was != finest {
				t.Errorf("uniform chain at m_b/m_w = %g: finest stable resolution %d at m_w = %g kg, %d at a lighter wire", ratio, finest, mw, was)
			}
			byRatio[ratio] = finest
		}
		adaptive.WriteString("\n")
		uniform.WriteString("\n")
	}
	t.Log(adaptive.String())
	t.Log(uniform.String())
}

// TestDivergingWireIsAnError: a wire its step cannot hold is stopped with
// an error (multibody.ErrDiverged, saying what to change) while its bodies
// are still near where they were, instead of running on until positions
// pass 1e7 m (runaway), and a wire that only looks extreme is not:
//   - the uniform chains of the stability chart that eq. 25 calls unstable
//     (m_b ≥ 100 m_w at the resolutions given) stretch as a whole and fail
//     within 60 s with every body within 20 m of the cylinder's axis (they
//     hang 4.5–5 m below it); the same wires adaptive run 10 s;
//   - a hanging wire of fixed resolution whose only unstable nodes are
//     four 5 cm apart above its 1 t load, shaken sideways at 3 m/s, flings
//     them: it fails with no node more than 10 m beyond the wire's reach,
//     hung 10, 100 or 400 m long;
//   - an elastic cord (EA 400 N) that a 100 kg load stretches to 3.45
//     times its length settles there within 5 cm, with no error; a wire
//     carried along at 1.13 km/s swings 10 s with no error; a winch hauling
//     with no force limit against a fixed anchor fails, the wire at a
//     stress no rope holds.
func TestDivergingWireIsAnError(t *testing.T) {
	diverged := func(name string, err error, adaptiveHint bool) {
		t.Helper()
		switch {
		case err == nil:
			t.Errorf("%s: no error", name)
		case !errors.Is(err, multibody.ErrDiverged):
			t.Errorf("%s: %v, want a divergence", name, err)
		case adaptiveHint && !strings.Contains(err.Error(), "adaptive resolution"):
			t.Errorf("%s: %v, want the error to name adaptive resolution", name, err)
		}
	}
	for _, c := range []struct {
		mw, mb   float64
		segments int
	}{{1, 1e4, 30}, {1, 1e5, 4}, {10, 1e4, 8}, {1, 100, 30}} {
		name := fmt.Sprintf("uniform chain, m_w = %g kg, m_b = %g kg, %d segments", c.mw, c.mb, c.segments)
		cell := newChartCell(t, c.mw, c.mb, c.segments, false)
		far := 0.0
		var err error
		k := 0
		for ; k < int(chartSeconds*60) && err == nil; k++ {
			err = cell.sys.Step(1.0 / 60)
			for _, b := range cell.sys.World.Bodies() {
				far = max(far, b.Pos.Norm())
			}
		}
		t.Logf("%s: step %d, bodies within %.3g m of the axis: %v", name, k, far, err)
		diverged(name, err, true)
		if far > 20 {
			t.Errorf("%s: a body %.3g m from the axis before the error", name, far)
		}
		cell = newChartCell(t, c.mw, c.mb, c.segments, true)
		for k := 0; k < 600; k++ {
			if err := cell.sys.Step(1.0 / 60); err != nil {
				t.Errorf("adaptive, m_w = %g kg, m_b = %g kg: step %d: %v", c.mw, c.mb, k, err)
				break
			}
		}
	}
	for _, L := range []float64{10, 100, 400} {
		name := fmt.Sprintf("%g m of wire shaken above its load", L)
		sys := NewSystem(geom.V(0, 0, -g0))
		crane := sys.World.AddBody(multibody.NewStatic("crane", geom.Vec3{}))
		const M = 1000.0
		load := sys.World.AddBody(multibody.NewBody("load", M, multibody.BoxInertia(M, 1, 1, 1), geom.V(0, 0, -L-0.5)))
		route := []RoutePoint{{Kind: End, Point: geom.Vec3{}, Body: crane}}
		for _, d := range []float64{0.2, 0.15, 0.1, 0.05} {
			route = append(route, RoutePoint{Kind: Via, Point: geom.V(0, 0, -L+d)})
		}
		route = append(route, RoutePoint{Kind: End, Point: geom.V(0, 0, -L), Body: load})
		w, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e8, 1, 0.001), Spacing: 1, Tension: M * g0, Route: route})
		if err != nil {
			t.Fatal(err)
		}
		for i, nd := range w.nodes {
			if i > 0 && i < len(w.nodes)-1 && nd.kind == MassNode {
				nd.body.Vel = geom.V(float64(i%2*2-1)*3, 0, 0)
			}
		}
		beyond := 0.0
		k := 0
		for ; k < 600 && err == nil; k++ {
			err = sys.Step(1.0 / 60)
			for _, b := range sys.World.Bodies() {
				beyond = max(beyond, b.Pos.Norm()-L-1)
			}
		}
		t.Logf("%s: step %d, bodies up to %.3g m beyond the wire's reach: %v", name, k, beyond, err)
		diverged(name, err, true)
		if beyond > 10 {
			t.Errorf("%s: a body %.3g m beyond the wire's reach before the error", name, beyond)
		}
	}
	// The elastic cord: 1 m under 100 kg, static stretch W/EA = 2.45,
	// damped (τ = 0.5 s, ζ = 0.5) to settle there.
	sys := NewSystem(geom.V(0, 0, -g0))
	crane := sys.World.AddBody(multibody.NewStatic("crane", geom.Vec3{}))
	load := sys.World.AddBody(multibody.NewBody("load", 100, multibody.BoxInertia(100, 0.2, 0.2, 0.2), geom.V(0, 0, -1.1)))
	if _, err := sys.AddWire(WireSpec{Name: "cord", Rope: testRope(400, 0.05, 0.5), Spacing: 0.25, Resolution: Resolution{Adaptive: true, MinSegment: 0.05},
		Route: []RoutePoint{{Kind: End, Point: geom.Vec3{}, Body: crane}, {Kind: End, Point: geom.V(0, 0, -1), Body: load}}}); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 600; k++ {
		if err := sys.Step(1.0 / 60); err != nil {
			t.Errorf("elastic cord: step %d: %v", k, err)
			break
		}
	}
	static := -(1 + 100*g0/400) - 0.1
	t.Logf("elastic cord: the load at %.3f m after 10 s (static: %.3f m)", load.Pos.Z, static)
	if math.Abs(load.Pos.Z-static) > 0.05 {
		t.Errorf("elastic cord: the load at %.3f m after 10 s, want %.3f m within 5 cm", load.Pos.Z, static)
	}
	// A hanging wire carried along at 1.13 km/s: no node runs away
	// against the wire's mean motion.
	{
		v := geom.V(800, 800, 0)
		sys := NewSystem(geom.V(0, 0, -g0))
		crane := sys.World.AddBody(multibody.NewKinematic("crane", geom.Vec3{}))
		crane.Vel = v
		load := sys.World.AddBody(multibody.NewBody("load", 1000, multibody.BoxInertia(1000, 1, 1, 1), geom.V(0, 0, -10.5)))
		w, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(3e7, 2.5, 0.01), Spacing: 1, Tension: 1000 * g0, Resolution: Resolution{Adaptive: true},
			Route: []RoutePoint{{Kind: End, Point: geom.Vec3{}, Body: crane}, {Kind: End, Point: geom.V(0, 0, -10), Body: load}}})
		if err != nil {
			t.Fatal(err)
		}
		load.Vel = v.Add(geom.V(0, 0.5, 0)) // swinging
		for _, n := range w.nodes {
			if n.kind == MassNode && n.body != load {
				n.body.Vel = v
			}
		}
		for k := 0; k < 600; k++ {
			if err := sys.Step(1.0 / 60); err != nil {
				t.Errorf("a wire carried along at %.0f m/s: step %d: %v", v.Norm(), k, err)
				break
			}
		}
	}
	// The winch hauling against an anchor, no force limit.
	sys = NewSystem(geom.V(0, 0, -g0))
	crane = sys.World.AddBody(multibody.NewStatic("crane", geom.Vec3{}))
	anchor := sys.World.AddBody(multibody.NewStatic("anchor", geom.V(0, 0, -5)))
	wi := Winch{Spacing: 1, Speed: -1, MinLength: 0.5}
	_, err := sys.AddWire(WireSpec{Name: "w", Rope: testRope(1e6, 1, 0.01), Spacing: 1, Winch: &wi,
		Route: []RoutePoint{{Kind: End, Point: geom.Vec3{}, Body: crane}, {Kind: End, Point: anchor.Pos, Body: anchor}}})
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for ; k < 600 && err == nil; k++ {
		err = sys.Step(1.0 / 60)
	}
	t.Logf("stalled winch: step %d: %v", k, err)
	diverged("stalled winch", err, false)
	if err != nil && !strings.Contains(err.Error(), "force limit") {
		t.Errorf("stalled winch: %v, want the error to name a winch's force limit", err)
	}
}
