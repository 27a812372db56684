package hmrwire

import (
	"math"
	"slices"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// bendingRope is a 20 mm steel rope (EA = 3.1e7 N, 2.47 kg/m) of bending
// stiffness ei (N·m²).
func bendingRope(ei float64) material.Rope {
	r := material.DefaultSteelRope()
	r.BendingStiffness = ei
	return r
}

// relax steps sys until the wire's nodes rest, each held back by a
// viscous force that damps the wire's first mode of angular frequency
// omega (rad/s) about critically (dynamic relaxation: the statics are
// the rest point whatever the damping), with load the extra force on
// each node. It returns the steps taken.
func relax(t *testing.T, sys *System, w *Wire, h, omega float64, load func(n *node) geom.Vec3, maxSteps int) int {
	t.Helper()
	for k := 1; k <= maxSteps; k++ {
		fastest := 0.0
		for _, n := range w.nodes {
			if n.kind == MassNode {
				n.body.Force = load(n).AddScaled(-2*omega*n.body.Mass, n.body.Vel)
				fastest = max(fastest, n.body.Vel.Norm())
			}
		}
		if err := sys.Step(h); err != nil {
			t.Fatal(err)
		}
		if k > 100 && fastest < 1e-7 {
			return k
		}
	}
	t.Fatalf("the wire did not come to rest in %d steps", maxSteps)
	return 0
}

// cantilever returns the tip of a wire of length l (m) and bending
// stiffness ei clamped along +x at the origin, n segments, without
// gravity, under the tip load p (N) along −z, at rest.
func cantilever(t *testing.T, ei, l, p float64, n int, h float64) geom.Vec3 {
	t.Helper()
	sys := NewSystem(geom.Vec3{})
	wall := sys.World.AddBody(multibody.NewStatic("wall", geom.Vec3{}))
	w, err := sys.AddWire(WireSpec{
		Name: "cantilever", Rope: bendingRope(ei), Spacing: l / float64(n),
		Route: []RoutePoint{
			{Kind: End, Point: geom.Vec3{}, Body: wall, Clamped: true},
			{Kind: End, Point: geom.V(l, 0, 0)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, tip := w.Ends()
	// The first mode of a cantilever: 1.875² √(EI/(ρA L⁴)).
	omega := 1.875 * 1.875 * math.Sqrt(ei/(w.mu*l*l*l*l))
	relax(t, sys, w, h, omega, func(n *node) geom.Vec3 {
		if n.body == tip {
			return geom.V(0, 0, -p)
		}
		return geom.Vec3{}
	}, 200000)
	return tip.Pos
}

// elastica returns the tip (x along the clamp, z along the load, m) of
// an inextensible cantilever of length l under a tip load of p·l²/EI = alpha,
// from EI θ” = −P cos θ, θ(0) = 0, θ'(l) = 0 (θ the slope below the
// clamp's line), shot on θ'(0) by bisection and integrated by RK4.
func elastica(alpha, l float64) (x, z float64) {
	const steps = 4000
	ds := 1.0 / steps
	// On the unit length: θ” = −α cos θ.
	run := func(k0 float64) (end, x, z float64) {
		th, k := 0.0, k0
		f := func(th, k float64) (float64, float64) { return k, -alpha * math.Cos(th) }
		for range steps {
			// x and z by the trapezoid rule on θ before and after.
			a1, b1 := f(th, k)
			a2, b2 := f(th+ds/2*a1, k+ds/2*b1)
			a3, b3 := f(th+ds/2*a2, k+ds/2*b2)
			a4, b4 := f(th+ds*a3, k+ds*b3)
			nth := th + ds/6*(a1+2*a2+2*a3+a4)
			k += ds / 6 * (b1 + 2*b2 + 2*b3 + b4)
			x += ds / 2 * (math.Cos(th) + math.Cos(nth))
			z += ds / 2 * (math.Sin(th) + math.Sin(nth))
			th = nth
		}
		return k, x, z
	}
	lo, hi := 0.0, alpha // θ'(0) = α x_tip ≤ α
	for range 60 {
		mid := (lo + hi) / 2
		if end, _, _ := run(mid); end > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	_, x, z = run((lo + hi) / 2)
	return x * l, z * l
}

// TestElasticaReference checks the shooting solution against Bisshopp and
// Drucker's table (Q. Appl. Math. 3, 1945) of the cantilever's tip under
// an end load: the deflection and the tip's pull-in as shares of the
// length.
func TestElasticaReference(t *testing.T) {
	for _, c := range []struct{ alpha, down, in float64 }{
		{1, 0.30172, 0.05643},
		{2, 0.49346, 0.16064},
		{5, 0.71379, 0.38763},
		{10, 0.81061, 0.55500},
	} {
		x, z := elastica(c.alpha, 1)
		if math.Abs(z-c.down) > 2e-4 || math.Abs(1-x-c.in) > 2e-4 {
			t.Errorf("PL²/EI = %g: tip down %.5f L, in %.5f L; table %.5f, %.5f", c.alpha, z, 1-x, c.down, c.in)
		}
	}
}

// TestCantilever: a wire clamped at one end bends under a load at the
// other as a beam of the rope's EI: under a small load its tip sinks by
// PL³/(3EI), and under large ones it follows the elastica (Bisshopp and
// Drucker's, TestElasticaReference), both within 1 % of the length, at
// 20 segments.
func TestCantilever(t *testing.T) {
	const (
		ei = 10.0 // N·m²
		l  = 2.0  // m
		n  = 20
	)
	for _, alpha := range []float64{0.1, 1, 2, 5, 10} {
		p := alpha * ei / (l * l)
		tip := cantilever(t, ei, l, p, n, 1e-3)
		x, z := elastica(alpha, l)
		down, in := -tip.Z, l-tip.X
		t.Logf("PL²/EI = %4g: tip down %.4f m (elastica %.4f, beam %.4f), in %.4f m (elastica %.4f)", alpha, down, z, p*l*l*l/(3*ei), in, l-x)
		if math.Abs(down-z) > 0.01*l || math.Abs(in-(l-x)) > 0.01*l {
			t.Errorf("PL²/EI = %g: tip (%.4f, %.4f) m off the elastica's (%.4f, %.4f) by more than 1 %% of %g m", alpha, tip.X, tip.Z, x, -z, l)
		}
		if alpha == 0.1 {
			if beam := p * l * l * l / (3 * ei); math.Abs(down-beam) > 0.01*beam {
				t.Errorf("small load: tip down %.5f m, PL³/(3EI) = %.5f m", down, beam)
			}
		}
	}
}

// TestBendingLength: a wire under tension T leaving a clamp at a small
// angle θ₀ to its line straightens over its bending length λ = √(EI/T):
// EI y”” = T y” gives the slope θ₀ e^(−s/λ). The slopes of the wire's
// segments over the first three bending lengths, fitted to an
// exponential, give λ within 2 %, at 20 segments per λ.
func TestBendingLength(t *testing.T) {
	const (
		ei     = 0.1  // N·m²
		pull   = 10.0 // N
		l      = 0.8  // m
		n      = 160
		theta0 = 0.05 // rad
	)
	lambda := math.Sqrt(ei / pull)
	sys := NewSystem(geom.Vec3{})
	wall := sys.World.AddBody(multibody.NewStatic("wall", geom.Vec3{}))
	w, err := sys.AddWire(WireSpec{
		Name: "wire", Rope: bendingRope(ei), Spacing: l / n,
		Route: []RoutePoint{
			{Kind: End, Point: geom.Vec3{}, Body: wall, Clamped: true},
			{Kind: End, Point: geom.V(l, 0, 0)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Laid straight, then the clamp turned up by θ₀.
	wall.Rot = geom.AxisAngle(geom.V(0, -1, 0), theta0)
	_, end := w.Ends()
	omega := math.Pi / l * math.Sqrt(pull/w.mu) // the string's first mode
	steps := relax(t, sys, w, 1e-3, omega, func(n *node) geom.Vec3 {
		if n.body == end {
			return geom.V(pull, 0, 0)
		}
		return geom.Vec3{}
	}, 200000)
	// Least squares of ln(slope) on the arc s at each segment's middle.
	var sx, sy, sxx, sxy, k float64
	s := 0.0
	for i := 0; i+1 < len(w.nodes); i++ {
		d := w.nodes[i+1].position().Sub(w.nodes[i].position())
		seg := d.Norm()
		mid := s + seg/2
		s += seg
		if mid > 3*lambda {
			break
		}
		slope := math.Atan2(d.Z, d.X)
		if !(slope > 0) {
			t.Fatalf("segment %d at %.3f m has slope %g", i, mid, slope)
		}
		y := math.Log(slope)
		sx, sy, sxx, sxy, k = sx+mid, sy+y, sxx+mid*mid, sxy+mid*y, k+1
	}
	rate := (k*sxy - sx*sy) / (k*sxx - sx*sx)
	got := -1 / rate
	first := math.Exp((sy - rate*sx) / k)
	t.Logf("rest after %d steps of 1 ms: bending length %.5f m (√(EI/T) = %.5f m), slope at the clamp %.5f rad (θ₀ = %g)", steps, got, lambda, first, theta0)
	if math.Abs(got-lambda) > 0.02*lambda {
		t.Errorf("bending length %.5f m, want %.5f m within 2 %%", got, lambda)
	}
	if math.Abs(first-theta0) > 0.02*theta0 {
		t.Errorf("slope at the clamp %.5f rad, want %g within 2 %%", first, theta0)
	}
}

// TestNegligibleBendsLeftOut: the example crane's taut falls leave out
// their bends (bendNegligible), and what an engineer reads does not
// change: at rest and through a boom-tip move (0.5 m/s for 4 s, then
// stopped), the hook and every fall's tension agree with a run that keeps
// every bend within 1e-4 (the hook's position within 1 mm).
func TestNegligibleBendsLeftOut(t *testing.T) {
	type outcome struct {
		hook  geom.Vec3
		falls []float64
		peak  float64
		left  int
	}
	run := func(all bool) outcome {
		ho := newCrane(t, craneSpec(4, 40))
		ho.Wire.allBends = all
		var o outcome
		ho.run(t, 2, nil)
		ho.BoomTip.Vel = geom.V(0.5, 0, 0)
		ho.run(t, 4, func() {
			for _, f := range ho.FallTensions() {
				o.peak = max(o.peak, f)
			}
		})
		ho.BoomTip.Vel = geom.Vec3{}
		ho.run(t, 2, func() {
			for _, f := range ho.FallTensions() {
				o.peak = max(o.peak, f)
			}
		})
		o.hook, o.falls = ho.Hook(), ho.FallTensions()
		for _, n := range ho.Wire.nodes {
			if n.unbent {
				o.left++
			}
		}
		return o
	}
	all, some := run(true), run(false)
	m, _, _ := newCrane(t, craneSpec(4, 40)).Wire.Counts()
	t.Logf("bends left out: %d of some %d mass nodes; hook %v against %v with every bend; peak fall tension %.1f N against %.1f N",
		some.left, m, some.hook, all.hook, some.peak, all.peak)
	if some.left == 0 || all.left != 0 {
		t.Fatalf("%d bends left out (every bend kept: %d): the test shows nothing", some.left, all.left)
	}
	if d := some.hook.Sub(all.hook).Norm(); d > 1e-3 {
		t.Errorf("the hook %.4f m from where it is with every bend", d)
	}
	for k := range all.falls {
		if math.Abs(some.falls[k]/all.falls[k]-1) > 1e-4 {
			t.Errorf("fall %d: %.2f N, %.2f N with every bend", k+1, some.falls[k], all.falls[k])
		}
	}
	if math.Abs(some.peak/all.peak-1) > 1e-4 {
		t.Errorf("peak fall tension %.2f N, %.2f N with every bend", some.peak, all.peak)
	}
}

// TestBendingFreeWireEnergy: a free wire without gravity or damping, laid
// bent (a three-node L of two 0.5 m segments, and an arc of ten 0.1 m
// segments turning 1 rad), swings open and shut on its bends: over 20 s
// its energy, kinetic plus bending, never rises: no second's mean above
// the first second's by 1 %. At 1 ms it keeps within 1 % (0.10 and
// 0.25 %); at 1/60 s the L loses 5 % in 20 s and the arc, whose bends
// vibrate faster than the step resolves (ωh > 1), loses its energy to
// the relaxation SPOOK gives unresolved rows (stability.Damping). A slack
// segment of a bending wire that could fold for nothing let the L gain
// 150 % in 0.4 s (see push).
func TestBendingFreeWireEnergy(t *testing.T) {
	arc := func(n int, turn float64) []RoutePoint {
		var route []RoutePoint
		for k := 0; k <= n; k++ {
			a := float64(k) / float64(n) * turn
			kind := Via
			if k == 0 || k == n {
				kind = End
			}
			route = append(route, RoutePoint{Kind: kind, Point: geom.V(math.Sin(a), 0, 1-math.Cos(a))})
		}
		return route
	}
	for _, c := range []struct {
		name  string
		route []RoutePoint
	}{
		{"L", []RoutePoint{{Kind: End, Point: geom.V(0, 0, 0)}, {Kind: Via, Point: geom.V(0.5, 0, 0)}, {Kind: End, Point: geom.V(0.5, 0, 0.5)}}},
		{"arc", arc(10, 1)},
	} {
		for _, h := range []float64{1e-3, 1.0 / 60} {
			sys := NewSystem(geom.Vec3{})
			r := bendingRope(10)
			r.DampingTime = 0
			w, err := sys.AddWire(WireSpec{Name: "w", Rope: r, Route: c.route})
			if err != nil {
				t.Fatal(err)
			}
			perSecond := int(math.Round(1 / h))
			var means []float64
			sum := 0.0
			for k := 1; k <= 20*perSecond; k++ {
				if err := sys.Step(h); err != nil {
					t.Fatal(err)
				}
				sum += w.KineticEnergy() + w.BendingEnergy()
				if k%perSecond == 0 {
					means = append(means, sum/float64(perSecond))
					sum = 0
				}
			}
			rise, off := 0.0, 0.0
			for _, m := range means {
				rise, off = max(rise, m/means[0]-1), max(off, math.Abs(m/means[0]-1))
			}
			t.Logf("%s at h = %.4g s: energy %.4g J in the first second, %.4g J in the last; each second's mean at most %+.2f %% above the first's",
				c.name, h, means[0], means[len(means)-1], 100*rise)
			if rise > 0.01 {
				t.Errorf("%s at h = %g s: a second's mean energy %.2f %% above the first's", c.name, h, 100*rise)
			}
			if h < 0.01 && off > 0.01 {
				t.Errorf("%s at h = %g s: a second's mean energy %.2f %% off the first's", c.name, h, 100*off)
			}
		}
	}
}

// semicircle lays length (m) of the 20 mm rope with its default bending
// stiffness (78.5 N·m²), undamped, as a free semicircle of n segments
// without gravity.
func semicircle(t *testing.T, length float64, n int, adaptive bool) (*System, *Wire) {
	t.Helper()
	sys := NewSystem(geom.Vec3{})
	r := material.DefaultSteelRope()
	r.DampingTime = 0
	radius := length / math.Pi
	var route []RoutePoint
	for k := 0; k <= n; k++ {
		a := float64(k) / float64(n) * math.Pi
		kind := Via
		if k == 0 || k == n {
			kind = End
		}
		route = append(route, RoutePoint{Kind: kind, Point: geom.V(radius*math.Sin(a), 0, radius*(1-math.Cos(a)))})
	}
	spec := WireSpec{Name: "w", Rope: r, Route: route}
	if adaptive {
		spec.Resolution = Resolution{Adaptive: true, MaxMassNodes: n + 1, MinSegment: 0.01}
	}
	w, err := sys.AddWire(spec)
	if err != nil {
		t.Fatal(err)
	}
	return sys, w
}

// braced counts w's braced nodes.
func braced(w *Wire) int {
	n := 0
	for _, nd := range w.nodes {
		if nd.braced {
			n++
		}
	}
	return n
}

// TestBendingTightBendAtCoarseSteps: 1 m of the 20 mm rope with its
// default bending stiffness, laid as a free semicircle and let go,
// springs open at 34 Hz, which a step of 1/60 s cannot resolve. Its bends'
// moments (250 N·m) turn their legs a step late with a stiffness M/l²
// that, on nodes of 60–120 g, vibrates at ωh = 20 to 60. Left so, the
// adaptive wire gained 560–670 % of its energy within a step. Braced
// (followBraces: rows resisting the change of a leg's ends' relative
// velocity across it, where the step does not resolve that vibration),
// the energy, kinetic plus bending, never rises by more than 2 % over
// 10 s at 20 and 40 segments (it falls: the step cannot carry a 34 Hz
// vibration). The braces leave the wire's own motion alone: at 1 ms, where
// 40 and 80 segments are braced (ωh = 3.6 and 10), the opening's frequency
// is within 2 % of the unbraced wire's at 0.1 ms. Where the step resolves
// the legs' vibration nothing is braced: the wire in 10 segments at 1 ms
// (ωh = 0.45), one of ten times the radius in 40 segments at 1/60 s
// (0.6).
func TestBendingTightBendAtCoarseSteps(t *testing.T) {
	const h = 1.0 / 60
	for _, n := range []int{20, 40} {
		sys, w := semicircle(t, 1, n, true)
		e0 := w.KineticEnergy() + w.BendingEnergy()
		peak, most := e0, 0
		for k := 0; k < int(10/h); k++ {
			if err := sys.Step(h); err != nil {
				t.Fatalf("%d segments: %v", n, err)
			}
			peak, most = max(peak, w.KineticEnergy()+w.BendingEnergy()), max(most, braced(w))
		}
		t.Logf("%d segments, adaptive, 1/60 s: energy %.1f J at the start, at most %+.2f %% after; %d nodes braced at most", n, e0, 100*(peak/e0-1), most)
		if peak > 1.02*e0 {
			t.Errorf("%d segments: energy %.1f J rose to %.1f J", n, e0, peak)
		}
		if most == 0 {
			t.Errorf("%d segments: no node braced", n)
		}
	}
	// The opening's frequency: the strongest line of the distance between
	// the ends over 0.5 s, sampled every millisecond.
	opening := func(n int, h float64) (float64, int) {
		sys, w := semicircle(t, 1, n, false)
		every := int(math.Round(1e-3 / h))
		var span []float64
		most := 0
		for k := 0; k < int(math.Round(0.5/h)); k++ {
			if err := sys.Step(h); err != nil {
				t.Fatalf("%d segments at h = %g s: %v", n, h, err)
			}
			most = max(most, braced(w))
			if k%every == 0 {
				span = append(span, w.nodes[len(w.nodes)-1].position().Sub(w.nodes[0].position()).Norm())
			}
		}
		mean := 0.0
		for _, s := range span {
			mean += s / float64(len(span))
		}
		best, bestPower := 0.0, 0.0
		for f := 5.0; f <= 100; f += 0.05 {
			var re, im float64
			for k, s := range span {
				re += (s - mean) * math.Cos(2*math.Pi*f*float64(k)*1e-3)
				im += (s - mean) * math.Sin(2*math.Pi*f*float64(k)*1e-3)
			}
			if p := re*re + im*im; p > bestPower {
				best, bestPower = f, p
			}
		}
		return best, most
	}
	ref, _ := opening(40, 1e-4)
	for _, n := range []int{40, 80} {
		f, most := opening(n, 1e-3)
		t.Logf("%d segments at 1 ms: opening at %.2f Hz (at 0.1 ms, 40 segments: %.2f Hz), %d nodes braced", n, f, ref, most)
		if math.Abs(f/ref-1) > 0.02 {
			t.Errorf("%d segments at 1 ms: opening at %.2f Hz, %.2f Hz at 0.1 ms", n, f, ref)
		}
		if most == 0 {
			t.Errorf("%d segments at 1 ms: no node braced: the case no longer shows the braces' effect", n)
		}
	}
	for _, c := range []struct {
		length float64
		n      int
		h      float64
	}{{1, 10, 1e-3}, {10, 40, h}} {
		sys, w := semicircle(t, c.length, c.n, false)
		for k := 0; k < int(math.Round(0.5/c.h)); k++ {
			if err := sys.Step(c.h); err != nil {
				t.Fatal(err)
			}
			if b := braced(w); b > 0 {
				t.Fatalf("%.0f m semicircle of %d segments at h = %g s: %d nodes braced; the step resolves their legs", c.length, c.n, c.h, b)
			}
		}
	}
}

// TestClampBendOnce: a wire clamped to a ceiling under a 10 t load, whose
// interior bends are left out under the tension, carries its clamp's
// bend once however often its rows are rebuilt (it was carried once per
// left-out bend: a clamp 97 times too stiff).
func TestClampBendOnce(t *testing.T) {
	sys := NewSystem(geom.V(0, 0, -g0))
	top := sys.World.AddBody(multibody.NewStatic("ceiling", geom.V(0, 0, 10)))
	load := sys.World.AddBody(multibody.NewParticle("load", 10000, geom.V(0, 0, 0)))
	w, err := sys.AddWire(WireSpec{Name: "w", Rope: bendingRope(1), Spacing: 1, Tension: 10000 * g0,
		Route: []RoutePoint{{Kind: End, Point: geom.V(0, 0, 10), Body: top, Clamped: true}, {Kind: End, Point: geom.V(0, 0, 0), Body: load}}})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 120; k++ {
		if err := sys.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		if k%20 == 19 {
			w.changed = true // rebuilt as after a change of resolution
		}
	}
	unbent, clamps := 0, 0
	for _, n := range w.nodes {
		if n.unbent {
			unbent++
		}
	}
	for _, s := range w.segs {
		for _, b := range s.bends {
			if b.clamp != nil {
				clamps++
			}
		}
	}
	t.Logf("%d bends left out, the clamp's carried %d times", unbent, clamps)
	if unbent == 0 || clamps != 1 {
		t.Errorf("%d bends left out, the clamp's carried %d times (want once)", unbent, clamps)
	}
}

// A free semicircle braced at 1/60 s and at 1 ms, uniform and adaptive,
// saved mid-run (some of its nodes braced) and restored into the same
// system and into a new one continues bitwise as the run that was not
// interrupted: the solver's analysis depends on the rows as they are, not
// on what they were (a brace gone idle once left its rows' couplings in
// the analysis of the running system only).
func TestBracedStateRestoresBitwise(t *testing.T) {
	snapshot := func(w *Wire) []float64 {
		var out []float64
		for _, p := range w.Points() {
			out = append(out, p.X, p.Y, p.Z)
		}
		return append(out, w.Tensions()...)
	}
	for _, c := range []struct {
		adaptive bool
		h        float64
		saveAt   int
	}{{false, 1.0 / 60, 10}, {false, 1e-3, 55}, {true, 1e-3, 1}, {true, 1.0 / 60, 1}} {
		sys, w := semicircle(t, 1, 40, c.adaptive)
		for k := 0; k < c.saveAt; k++ {
			if err := sys.Step(c.h); err != nil {
				t.Fatal(err)
			}
		}
		if braced(w) == 0 {
			t.Fatalf("%+v: nothing braced when saved", c)
		}
		saved := sys.SaveState(nil)
		var want [][]float64
		for k := 0; k < 60; k++ {
			if err := sys.Step(c.h); err != nil {
				t.Fatal(err)
			}
			want = append(want, snapshot(w))
		}
		sys2, w2 := semicircle(t, 1, 40, c.adaptive)
		for _, r := range []struct {
			name string
			sys  *System
			w    *Wire
		}{{"the same system", sys, w}, {"a new system", sys2, w2}} {
			if _, err := r.sys.LoadState(saved); err != nil {
				t.Fatalf("%+v, %s: %v", c, r.name, err)
			}
			for k := 0; k < 60; k++ {
				if err := r.sys.Step(c.h); err != nil {
					t.Fatal(err)
				}
				got := snapshot(r.w)
				if !slices.EqualFunc(got, want[k], func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
					t.Fatalf("%+v, restored into %s: step %d differs", c, r.name, k)
				}
			}
		}
	}
}
