package hmrwire

import (
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// sheaveRig hangs boxes of m1 (left) and m2 (right) from a light wire laid
// over the top half of a turning sheave (radius 0.5 m, 64-gon, 20 kg,
// I = 2.5 kg·m², axle along y on a fixed body, μ = 0.3): Atwood's machine
// with a pulley of inertia.
func sheaveRig(t testing.TB, m1, m2, bearing float64, locked bool) (*System, *Wire, *Sheave) {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	const R, sides, drop = 0.5, 64, 2.0
	frame := sys.World.AddBody(multibody.NewStatic("frame", geom.Vec3{}))
	sh, err := sys.AddSheave(SheaveSpec{Name: "sheave", Axle: frame, Axis: geom.V(0, 1, 0), Radius: R, Width: 0.1, Sides: sides,
		Mass: 20, Inertia: 2.5, Friction: 0.3, BearingFriction: bearing, Locked: locked})
	if err != nil {
		t.Fatal(err)
	}
	left := sys.World.AddBody(multibody.NewBody("left", m1, multibody.BoxInertia(m1, 0.3, 0.3, 0.3), geom.V(-R, 0, -drop-0.15)))
	right := sys.World.AddBody(multibody.NewBody("right", m2, multibody.BoxInertia(m2, 0.3, 0.3, 0.3), geom.V(R, 0, -drop-0.15)))
	route := []RoutePoint{{Kind: End, Point: geom.V(-R, 0, -drop), Body: left}}
	for k := sides / 2; k >= 0; k-- {
		psi := 2 * math.Pi * float64(k) / sides
		route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(R*math.Cos(psi), 0, R*math.Sin(psi)), Geometry: sh.Geometry})
	}
	route = append(route, RoutePoint{Kind: End, Point: geom.V(R, 0, -drop), Body: right})
	w, err := sys.AddWire(WireSpec{Name: "wire", Rope: testRope(1e7, 0.01, 0.01),
		Tension: m1 * g0, Resolution: Resolution{Adaptive: true, MaxMassNodes: 16, MinSegment: 0.05}, Route: route})
	if err != nil {
		t.Fatal(err)
	}
	return sys, w, sh
}

// A wire over a turning sheave: Atwood's machine with the sheave's inertia,
// a = (g(m₂ − m₁) − τ/r)/(m₁ + m₂ + I/r²) for a bearing friction torque τ,
// within 1 %, and the sheave turning at the wire's speed over its radius
// within 1 % (the wire sticks: T₂/T₁ is 1.02, far below e^{μπ} = 2.57).
// With the bearing locked the wire slides over the sheave as over a fixed
// drum: the end tensions' ratio is the polygon's capstan ratio within 1 %
// and e^{μπ} within 5 %.
func TestSheaveTurnsWithTheWire(t *testing.T) {
	const h, R, I = 1.0 / 60, 0.5, 2.5
	for _, c := range []struct {
		name   string
		m1, m2 float64
		torque float64
	}{{"free bearing", 100, 150, 0}, {"bearing friction 50 N·m", 100, 150, 50}} {
		sys, w, sh := sheaveRig(t, c.m1, c.m2, c.torque, false)
		_, right := w.Ends()
		want := (g0*(c.m2-c.m1) - c.torque/R) / (c.m1 + c.m2 + I/(R*R))
		var v0 float64
		worst := 0.0
		for i := 1; i <= 60; i++ {
			if err := sys.Step(h); err != nil {
				t.Fatalf("%s: step %d: %v", c.name, i, err)
			}
			v := -right.Vel.Z
			if i == 12 {
				v0 = v
			}
			if i > 12 {
				worst = math.Max(worst, math.Abs(sh.Omega()*R/v-1))
			}
		}
		a := (-right.Vel.Z - v0) / (48 * h)
		t.Logf("%s: a = %.4f m/s², closed form %.4f (%+.2f %%); ω r / v within %.3f %%; bearing torque %.2f N·m", c.name, a, want, 100*(a/want-1), 100*worst, sh.BearingTorque())
		if math.Abs(a/want-1) > 0.01 {
			t.Errorf("%s: a = %.4f m/s², want %.4f within 1 %%", c.name, a, want)
		}
		if worst > 0.01 {
			t.Errorf("%s: the sheave turns at %.2f %% off the wire's speed over its radius", c.name, 100*worst)
		}
	}
	// Locked: 100 kg against 400 kg, beyond the capstan limit, until the
	// light box comes near the sheave (1.3 s).
	sys, w, sh := sheaveRig(t, 100, 400, 0, true)
	_, right := w.Ends()
	poly, euler := polygonRatio(0.3, math.Pi, 64), math.Exp(0.3*math.Pi)
	want := g0 * (400 - poly*100) / (400 + poly*100)
	mean, n, v0 := 0.0, 0, 0.0
	for i := 1; i <= 75; i++ {
		if err := sys.Step(h); err != nil {
			t.Fatalf("locked: step %d: %v", i, err)
		}
		if i == 15 {
			v0 = -right.Vel.Z
		}
		if i > 15 {
			ts := w.Tensions()
			mean += ts[len(ts)-1] / ts[0]
			n++
		}
		if math.Abs(sh.Omega()) > 1e-6 {
			t.Fatalf("locked: step %d: the sheave turns at %g rad/s", i, sh.Omega())
		}
	}
	mean /= float64(n)
	a := (-right.Vel.Z - v0) / (60 * h)
	t.Logf("locked bearing: T₂/T₁ sliding %.4f, polygon %.4f (%+.2f %%), e^μπ %.4f (%+.2f %%); a = %.4f m/s², g(m₂ − q m₁)/(m₂ + q m₁) = %.4f",
		mean, poly, 100*(mean/poly-1), euler, 100*(mean/euler-1), a, want)
	if math.Abs(mean/poly-1) > 0.01 || math.Abs(mean/euler-1) > 0.05 || math.Abs(a/want-1) > 0.01 {
		t.Errorf("locked bearing: T₂/T₁ %.4f, polygon %.4f, e^μπ %.4f; a = %.4f m/s², want %.4f", mean, poly, euler, a, want)
	}
}

// A sheave that cannot be simulated is refused with an error naming what
// is wrong, and nothing is added to the system.
func TestSheaveRefused(t *testing.T) {
	good := func() SheaveSpec {
		return SheaveSpec{Name: "s", Axis: geom.V(0, 1, 0), Radius: 0.5, Width: 0.1, Sides: 32, Mass: 10, Friction: 0.2}
	}
	for _, c := range []struct {
		name string
		edit func(*SheaveSpec)
		want string
	}{
		{"no axle", func(s *SheaveSpec) { s.Axle = nil }, "axle"},
		{"zero axis", func(s *SheaveSpec) { s.Axis = geom.Vec3{} }, "axis"},
		{"NaN centre", func(s *SheaveSpec) { s.Center = geom.V(math.NaN(), 0, 0) }, "centre"},
		{"zero mass", func(s *SheaveSpec) { s.Mass = 0 }, "mass"},
		{"negative inertia", func(s *SheaveSpec) { s.Inertia = -1 }, "inertia"},
		{"infinite bearing friction", func(s *SheaveSpec) { s.BearingFriction = math.Inf(1) }, "bearing friction"},
		{"two sides", func(s *SheaveSpec) { s.Sides = 2 }, "sides"},
		{"a triangle", func(s *SheaveSpec) { s.Sides = 3 }, "a groove of 3 sides: must have at least 4"},
		{"zero radius", func(s *SheaveSpec) { s.Radius = 0 }, "radius"},
		{"negative groove friction", func(s *SheaveSpec) { s.Friction = -0.1 }, "friction"},
	} {
		sys := NewSystem(geom.V(0, 0, -g0))
		spec := good()
		spec.Axle = sys.World.AddBody(multibody.NewStatic("frame", geom.Vec3{}))
		c.edit(&spec)
		bodies := len(sys.World.Bodies())
		if _, err := sys.AddSheave(spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
		if len(sys.World.Bodies()) != bodies || len(sys.Geometries) != 0 {
			t.Errorf("%s: the refused sheave left %d bodies and %d geometries", c.name, len(sys.World.Bodies())-bodies, len(sys.Geometries))
		}
	}
}

// A state saved while the sheave turns under a gripping wire continues
// bitwise identically: the sheave's pose and spin, its bearing's loads,
// the loads' motion.
func TestSheaveState(t *testing.T) {
	const h = 1.0 / 60
	sys, w, sh := sheaveRig(t, 100, 150, 20, false)
	snapshot := func() []float64 {
		f := sh.Force()
		_, right := w.Ends() // the end particles are the wire's, restored anew
		return []float64{sh.Omega(), sh.Body.Rot.W, sh.Body.Rot.X, sh.Body.Rot.Y, sh.Body.Rot.Z, f.X, f.Y, f.Z, sh.BearingTorque(), right.Pos.Z, right.Vel.Z}
	}
	for k := 0; k < 20; k++ {
		if err := sys.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	saved := sys.SaveState(nil)
	var ref [][]float64
	for k := 0; k < 40; k++ {
		if err := sys.Step(h); err != nil {
			t.Fatal(err)
		}
		ref = append(ref, snapshot())
	}
	if _, err := sys.LoadState(saved); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 40; k++ {
		if err := sys.Step(h); err != nil {
			t.Fatal(err)
		}
		for i, v := range snapshot() {
			if math.Float64bits(v) != math.Float64bits(ref[k][i]) {
				t.Fatalf("step %d: value %d is %.17g, want %.17g", k, i, v, ref[k][i])
			}
		}
	}
}

// What the sheaves see on the example crane (four falls of 40 m, 20 t):
// hanging at rest, every sheave between two falls is wrapped by half a
// turn (the falls hang plumb from sheaves of equal diameter), and the boom
// sheave the lead comes to from the drum by a quarter turn and the lead's
// slope at the sheave: the slope of the circles' common tangent over their
// tops, φ + asin((R − r)/L) with φ the slope and L the distance from the
// drum's centre to the sheave's, steepened by the lead's sag, whose
// parabola rises at its upper end by ρg S/(2 T cos²φ) over the chord's
// slope (S the span, T the tension at mid-height). Hauled in by 2 m of hook travel and let
// down again (the drive ramped over 3 s, so that the load hardly bounces:
// a bounce runs wire over the sheaves as the falls stretch), the wire runs
// over the sheave k-th from the dead end k times the hook's travel within
// 1 % (onto and off the drum four times), and each sheave and the drum
// count two passes, a lift and a lowering; at rest none. The drum is
// wrapped by its wound wire over its radius.
func TestSheaveWrapTravelAndPasses(t *testing.T) {
	ho := newCrane(t, exampleCrane())
	ho.run(t, 2, nil)
	n := len(ho.Sheaves)
	for k, sh := range ho.Sheaves {
		want := math.Pi
		if k == 0 {
			d := sh.Body.Pos.Sub(ho.Drum.Body.Pos)
			run := math.Hypot(d.X, d.Y)
			phi := math.Atan2(d.Z, run)
			spec := ho.Spec()
			rise := spec.Rope.LinearDensity() * spec.Gravity
			mid := spec.Hooked()/float64(n) + rise*((sh.Body.Pos.Z+ho.Drum.Body.Pos.Z)/2-ho.Hook().Z)
			sag := rise * run / (2 * mid * math.Cos(phi) * math.Cos(phi))
			want = math.Pi/2 + math.Atan(math.Tan(phi)+sag) + math.Asin((ho.Drum.Radius-sh.Radius())/d.Norm())
		}
		t.Logf("sheave %d (%s): wrap %.4f rad (%.3f°), the geometry's %.4f rad; D/d %.1f", k+1, sh.Name, sh.Wrap(), sh.Wrap()*180/math.Pi, want, 2*sh.Radius()/ho.Wire.Rope.Diameter)
		if math.Abs(sh.Wrap()-want) > 0.5*math.Pi/180 {
			t.Errorf("sheave %d: wrapped by %.3f°, the geometry gives %.3f°", k+1, sh.Wrap()*180/math.Pi, want*180/math.Pi)
		}
		if sh.Passes() != 0 || sh.Fleet() > 1e-6 {
			t.Errorf("sheave %d: %d passes and a fleet angle of %.3g rad at rest in the reeving's plane", k+1, sh.Passes(), sh.Fleet())
		}
	}
	if w := ho.Drum.Wrap(); math.Abs(w*ho.Drum.Radius-ho.Drum.Wound()) > 1e-9*ho.Drum.Wound() {
		t.Errorf("drum wrapped by %.6f rad, %.6f m of wire wound on its %.3f m radius", w, ho.Drum.Wound(), ho.Drum.Radius)
	}
	hook0 := ho.Hook().Z
	start := make([]float64, n)
	for k, sh := range ho.Sheaves {
		start[k] = sh.Travel()
	}
	drum0 := ho.Drum.Travel()
	// Ramped over 3 s, so that the load hardly bounces when it starts and
	// stops (a bounce runs wire over the sheaves as the falls stretch).
	const v = 1.2 // m/s at the drum
	const h = 1.0 / 60
	ramp := func(to float64) {
		from := ho.Drum.Speed
		for k := 1; k <= 180; k++ {
			ho.Drum.Speed = from + (to-from)*float64(k)/180
			ho.run(t, h, nil)
		}
	}
	ramp(-v)
	for ho.Hook().Z < hook0+2 {
		ho.run(t, h, nil)
	}
	ramp(0)
	ho.run(t, 3, nil)
	top := ho.Hook().Z
	ramp(v)
	for ho.Hook().Z > hook0 {
		ho.run(t, h, nil)
	}
	ramp(0)
	ho.run(t, 3, nil)
	travel := (top - hook0) + (top - ho.Hook().Z) // the hook's, up and down
	for k, sh := range ho.Sheaves {
		ratio := float64(n - k) // falls between the sheave and the dead end
		got := (sh.Travel() - start[k]) / travel
		t.Logf("sheave %d: %.4f m of wire over %.4f m of hook travel: %.4f per metre, want %.0f; %d passes", k+1, sh.Travel()-start[k], travel, got, ratio, sh.Passes())
		if math.Abs(got/ratio-1) > 0.01 {
			t.Errorf("sheave %d: %.4f m of wire per metre of hook travel, want %.0f within 1 %%", k+1, got, ratio)
		}
		if sh.Passes() != 2 {
			t.Errorf("sheave %d: %d passes over a lift and a lowering, want 2", k+1, sh.Passes())
		}
	}
	got := (ho.Drum.Travel() - drum0) / travel
	t.Logf("drum: %.4f m of wire on and off over %.4f m of hook travel: %.4f per metre, want %d; %d passes", ho.Drum.Travel()-drum0, travel, got, n, ho.Drum.Passes())
	if math.Abs(got/float64(n)-1) > 0.01 || ho.Drum.Passes() != 2 {
		t.Errorf("drum: %.4f m of wire per metre of hook travel, want %d within 1 %%; %d passes, want 2", got, n, ho.Drum.Passes())
	}
}

// A hoist standing still for two minutes runs no wire over its sheaves:
// their spin's jitter (up to 0.01 m/s) is no travel and no pass. Hauled
// in slowly, at 0.02 m/s at the drum (5 mm/s at the hook) until 1.5 m of
// wire ran over the last sheave, every sheave counts one pass: the
// jitter does not break the run.
func TestSheaveStandingAndSlow(t *testing.T) {
	ho := newCrane(t, exampleCrane())
	ho.run(t, 2, nil)
	start := make([]float64, len(ho.Sheaves))
	for k, sh := range ho.Sheaves {
		start[k] = sh.Travel()
	}
	ho.run(t, 120, nil)
	for k, sh := range ho.Sheaves {
		if moved := sh.Travel() - start[k]; moved > 0.02 || sh.Passes() != 0 {
			t.Errorf("standing: %.4f m of wire ran over %s, %d passes", moved, sh.Name, sh.Passes())
		}
	}
	last := ho.Sheaves[len(ho.Sheaves)-1]
	from := last.Travel()
	ho.ramp(t, -0.02, 1)
	for last.Travel()-from < 1.5 {
		ho.run(t, 1, nil)
	}
	for _, sh := range ho.Sheaves {
		if sh.Passes() != 1 {
			t.Errorf("hauled slowly: %s counts %d passes, want 1", sh.Name, sh.Passes())
		}
	}
}
