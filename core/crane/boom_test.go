package crane

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
)

// boom is the tests' boom: 30 m from a foot 2 m off the slew axis, luffed
// 60°, a 2 t tip mass on 1e6 N/m, damped at 2 % of critical.
func boom() BoomSpec {
	m, k := 2000.0, 1e6
	return BoomSpec{Center: geom.V(0, 0, 0), Foot: geom.V(2, 0, 3), Length: 30, Luff: math.Pi / 3,
		TipMass: m, Stiffness: k, Damping: 0.04 * math.Sqrt(k*m), Gravity: g0}
}

// A 20 t load's weight on the tip deflects it by (W + m g)/k within 1e-6
// of that once rung out (40 s); let go from there (the load gone), the
// tip rings at √(k/m) (period within 0.5 % at h = 1 ms) about its own
// weight's deflection, its swing decaying as the damping ratio says
// (within 10 % of the logarithm over 5 periods: the trapezoidal rule adds
// no damping).
func TestBoomTipDeflectsAndRings(t *testing.T) {
	spec := boom()
	b, err := NewBoom(spec)
	if err != nil {
		t.Fatal(err)
	}
	const h, W = 1e-3, 20000 * g0
	for k := 0; k < 40000; k++ {
		if err := b.Step(h, geom.V(0, 0, -W)); err != nil {
			t.Fatal(err)
		}
	}
	want := -(W + spec.TipMass*g0) / spec.Stiffness
	loaded := b.Deflection.Z
	if math.Abs(b.Deflection.Z/want-1) > 1e-6 || math.Hypot(b.Deflection.X, b.Deflection.Y) > 1e-9 {
		t.Errorf("deflected by %v m under the load, want %.6f m down", b.Deflection, want)
	}
	// Released: crossings of the rest level upwards time the period.
	rest := -spec.TipMass * g0 / spec.Stiffness
	var ups []float64
	var peaks []float64
	last, peak := b.Deflection.Z-rest, 0.0
	for k := 0; k < 5000; k++ {
		if err := b.Step(h, geom.Vec3{}); err != nil {
			t.Fatal(err)
		}
		x := b.Deflection.Z - rest
		peak = math.Max(peak, math.Abs(x))
		if last < 0 && x >= 0 {
			ups = append(ups, float64(k)*h+h*(-last)/(x-last))
			peaks, peak = append(peaks, peak), 0
		}
		last = x
	}
	omega := math.Sqrt(spec.Stiffness / spec.TipMass)
	period := (ups[len(ups)-1] - ups[0]) / float64(len(ups)-1)
	zeta := spec.Damping / (2 * math.Sqrt(spec.Stiffness*spec.TipMass))
	decay := math.Pow(peaks[6]/peaks[1], 1/5.0)
	wantDecay := math.Exp(-2 * math.Pi * zeta / math.Sqrt(1-zeta*zeta))
	t.Logf("deflected %.6f m (closed form %.6f m); rings at a period of %.5f s (2π/√(k/m) = %.5f s), decaying by %.4f per period (ζ = %.3f: %.4f)", loaded, want, period, 2*math.Pi/omega, decay, zeta, wantDecay)
	if math.Abs(period*omega/(2*math.Pi)-1) > 0.005 {
		t.Errorf("period %.5f s, want %.5f s within 0.5 %%", period, 2*math.Pi/omega)
	}
	if math.Abs(math.Log(decay)/math.Log(wantDecay)-1) > 0.1 {
		t.Errorf("decays by %.4f per period, want %.4f (ζ = %.3f) within 10 %% of its logarithm", decay, wantDecay, zeta)
	}
}

// Slewing at 0.2 rad/s, the tip runs on its circle about the slew axis
// with a deflection outwards of m ω² R/k (its centripetal force from the
// spring) within 1 % once rung out; luffed up at 0.05 rad/s for 2 s, the
// angles read the rates' integrals; luffing past the vertical is an error
// naming the angle. Saved and restored, the boom continues bitwise.
func TestBoomSlewsAndLuffs(t *testing.T) {
	spec := boom()
	spec.Gravity = 0 // the centripetal deflection alone
	b, err := NewBoom(spec)
	if err != nil {
		t.Fatal(err)
	}
	const h, w = 1e-3, 0.2
	b.SlewRate = w
	for k := 0; k < 30000; k++ {
		if err := b.Step(h, geom.Vec3{}); err != nil {
			t.Fatal(err)
		}
	}
	tip := b.Tip()
	radius := math.Hypot(tip.X-b.Deflection.X, tip.Y-b.Deflection.Y)
	out := geom.V(tip.X, tip.Y, 0)
	out, _ = out.Unit()
	got := b.Deflection.Dot(out)
	want := spec.TipMass * w * w * radius / spec.Stiffness
	t.Logf("slewing at %g rad/s on a %.3f m circle: deflected %.6g m outwards (m ω² R/k = %.6g m)", w, radius, got, want)
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("deflected %.6g m outwards, want %.6g m within 1 %%", got, want)
	}
	saved := state.Save(nil, b)
	slew0, luff0 := b.Angles()
	b.SlewRate, b.LuffRate = 0, 0.05
	for k := 0; k < 2000; k++ {
		if err := b.Step(h, geom.Vec3{}); err != nil {
			t.Fatal(err)
		}
	}
	slew, luff := b.Angles()
	if math.Abs(slew-slew0) > 1e-12 || math.Abs(luff-luff0-0.1) > 1e-9 {
		t.Errorf("slewed by %g rad and luffed by %g rad, want 0 and 0.1", slew-slew0, luff-luff0)
	}
	b.LuffRate = 1
	var lerr error
	for k := 0; k < 2000 && lerr == nil; k++ {
		lerr = b.Step(h, geom.Vec3{})
	}
	if lerr == nil {
		t.Error("luffed past the vertical without an error")
	}
	again, _ := NewBoom(spec)
	probe, _ := NewBoom(spec)
	for _, x := range []*Boom{again, probe} {
		if _, err := state.Load(saved, x); err != nil {
			t.Fatal(err)
		}
		x.SlewRate, x.LuffRate = 0.1, -0.02
		for k := 0; k < 500; k++ {
			if err := x.Step(h, geom.V(100*math.Sin(float64(k)), 0, -1e5)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if again.Tip() != probe.Tip() || again.TipVel != probe.TipVel {
		t.Errorf("two booms restored from one state part: %v and %v", again.Tip(), probe.Tip())
	}
}

// Specs out of range are refused.
func TestBoomRefusesBadSpecs(t *testing.T) {
	for _, bad := range []func(*BoomSpec){
		func(s *BoomSpec) { s.Length = 0 },
		func(s *BoomSpec) { s.Luff = math.Pi / 2 },
		func(s *BoomSpec) { s.Stiffness = math.Inf(1) },
		func(s *BoomSpec) { s.Damping = -1 },
		func(s *BoomSpec) { s.Foot = geom.V(math.NaN(), 0, 0) },
	} {
		spec := boom()
		bad(&spec)
		if _, err := NewBoom(spec); err == nil {
			t.Errorf("%+v: not refused", spec)
		}
	}
}

// A boom preloaded by a 20 t load's weight stays put under it: its tip
// moves less than 1e-9 m in 5 s.
func TestBoomPreloadIsStatic(t *testing.T) {
	b, err := NewBoom(boom())
	if err != nil {
		t.Fatal(err)
	}
	f := geom.V(1e4, 0, -20000*g0)
	b.Preload(f)
	tip := b.Tip()
	for k := 0; k < 5000; k++ {
		if err := b.Step(1e-3, f); err != nil {
			t.Fatal(err)
		}
	}
	if d := b.Tip().Sub(tip).Norm(); d > 1e-9 {
		t.Errorf("the preloaded tip moved %.3g m", d)
	}
}
