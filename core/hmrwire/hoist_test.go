package hmrwire

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
)

// craneSpec is the example crane: the boom tip 50 m up, the drum at its
// foot 30 m behind, hook sheaves drop m below the boom's, a 20 mm rope
// (EA = 3.1e7 N, 2.0 kg/m, EI 78 N·m², the default tenth of a solid
// bar's, as the WireHoist example's), a 500 kg block and a 20 t load of
// 2 × 2 × 2 m hung 1 m below the hook sheaves' axles.
func craneSpec(falls int, drop float64) HoistSpec {
	rope := testRope(3.1e7, 2.0, 0.01)
	rope.Flexible = false
	return HoistSpec{
		Gravity: g0, BoomTip: geom.V(0, 0, 50), Falls: falls,
		Drum:   DrumSpec{Center: geom.V(-30, 0, 1), Radius: 0.4, Width: 1, Mass: 800, Inertia: 60, Wound: 200, TorqueLimit: 2e5, BrakeTorque: 3e5},
		Rope:   rope,
		Sheave: SheaveSpec{Radius: 0.4, Width: 0.1, Sides: 48, Mass: 80, Friction: 0.2},
		Drop:   drop, BlockMass: 500, BlockSize: geom.V(float64(2*falls)*0.4+0.4, 0.6, 1.2),
		LoadMass: 20000, LoadSize: geom.V(2, 2, 2), Sling: 1,
		Ground:     &contact.Ground{Height: 0, Friction: 0.5},
		Resolution: Resolution{Adaptive: true, MaxMassNodes: 200, MinSegment: 0.1},
		Spacing:    4, MinLength: 2,
	}
}

func newCrane(t testing.TB, spec HoistSpec) *Hoist {
	t.Helper()
	ho, err := NewHoist(spec)
	if err != nil {
		t.Fatal(err)
	}
	return ho
}

func (ho *Hoist) run(t testing.TB, seconds float64, each func()) {
	t.Helper()
	const h = 1.0 / 60
	for k := 0; k < int(math.Round(seconds/h)); k++ {
		if err := ho.Step(h); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		for _, s := range ho.Wire.segs {
			if s.Rows() != s.countRows() {
				t.Fatalf("step %d: a segment of %d rows counts %d now", k, s.Rows(), s.countRows())
			}
		}
		if each != nil {
			each()
		}
	}
}

// TestHoistStatics: on n = 1, 2, 4 and 6 falls at rest, each fall's mean
// tension is the hooked weight over n plus half the fall's own weight,
// W/n + ρgL/2, within 1 %; the boom tip carries the hooked weight, the
// boom sheaves', the falls' and half the lead's, and the lead's pull,
// T_top along the lead's tangent at the first sheave (the chord turned
// down by the sag angle ρgℓ cos θ/(2T)), within 1 % of its magnitude.
func TestHoistStatics(t *testing.T) {
	for _, n := range []int{1, 2, 4, 6} {
		spec := craneSpec(n, 40)
		ho := newCrane(t, spec)
		ho.run(t, 8, nil)
		W := spec.Hooked()
		rho, g := spec.Rope.LinearDensity(), spec.Gravity
		lf := spec.Drop // each fall's length, sheave centre to sheave centre
		for k, T := range ho.FallTensions() {
			want := W/float64(n) + rho*g*lf/2
			if math.Abs(T/want-1) > 0.01 {
				t.Errorf("%d falls: fall %d carries %.1f N, want %.1f within 1 %%", n, k+1, T, want)
			}
		}
		// The lead, from the drum's tangent point to the first sheave's.
		first := ho.Wire.nodes[0].position()
		var top geom.Vec3
		for _, nd := range ho.Wire.nodes {
			if nd.kind == ContactNode {
				top = nd.position()
				break
			}
		}
		chord, lead := first.Sub(top).Unit()
		Ttop := W/float64(n) + rho*g*lf
		sag := rho * g * lead * math.Hypot(chord.X, chord.Y) / (2 * Ttop)
		// Turn the chord (pointing down to the drum) further down by sag.
		horiz := math.Hypot(chord.X, chord.Y)
		ang := math.Atan2(chord.Z, horiz) - sag
		pull := geom.V(chord.X/horiz*math.Cos(ang), chord.Y/horiz*math.Cos(ang), math.Sin(ang)).Scale(Ttop)
		wire := rho * g * (float64(n)*lf + lead/2 + float64(n)*math.Pi*spec.Sheave.Radius)
		boomSheaves := float64((n+1)/2) * spec.Sheave.Mass * g
		want := pull.Add(geom.V(0, 0, -(W + boomSheaves + wire)))
		got := ho.BoomTip.ConstraintForce
		t.Logf("%d falls: falls %.0f N (W/n + ρgL/2 = %.0f); boom tip force %.0f, closed form %.0f (%.2f %% of it off)",
			n, ho.FallTensions(), W/float64(n)+rho*g*lf/2, got, want, 100*got.Sub(want).Norm()/want.Norm())
		if got.Sub(want).Norm() > 0.01*want.Norm() {
			t.Errorf("%d falls: boom tip force %v N, want %v within 1 %%", n, got, want)
		}
	}
}

// ramp runs the drum's speed linearly to v (m/s) over the given seconds.
func (ho *Hoist) ramp(t testing.TB, v, seconds float64) {
	t.Helper()
	from, steps, k := ho.Drum.Speed, math.Round(seconds*60), 0.0
	ho.run(t, seconds, func() {
		k++
		ho.Drum.Speed = from + (v-from)*min(k/steps, 1)
	})
}

// rimSpeeds returns the speed (m/s) of the wire over each sheave in the
// wire's order when the drum hauls it in at v, from the block's motion:
// over a boom sheave the wire runs at the speed it comes with; over a
// hook sheave, on the block rising at u_l and u_r at the sheave's left
// and right tangent points, at s − u_l, and it leaves down the next fall
// at s − u_l − u_r.
func (ho *Hoist) rimSpeeds(v float64) []float64 {
	r := ho.spec.Sheave.Radius
	up := func(p geom.Vec3) float64 { return ho.Block.Vel.Add(ho.Block.AngVel.Cross(p.Sub(ho.Block.Pos))).Z }
	s := v
	out := make([]float64, len(ho.Sheaves))
	for k, sh := range ho.Sheaves {
		if k%2 == 0 {
			out[k] = s
			continue
		}
		c := sh.Body.Pos
		out[k] = s - up(c.Add(geom.V(-r, 0, 0)))
		s = out[k] - up(c.Add(geom.V(r, 0, 0)))
	}
	return out
}

// TestHoistKinematics: the drum hauls the wire in at v; on n = 2, 4 and
// 6 falls the hook rises at v/n within 1 % and every sheave turns at the
// wire's speed over it within 1 % (the drive ramps up in 1 s; averaged
// over the fourth and fifth seconds).
func TestHoistKinematics(t *testing.T) {
	const v = 1.2
	for _, n := range []int{2, 4, 6} {
		ho := newCrane(t, craneSpec(n, 40))
		ho.run(t, 1, nil)
		ho.ramp(t, -v, 1)
		ho.run(t, 2, nil)
		z0 := ho.Hook().Z
		rim, want := make([]float64, n), make([]float64, n)
		steps := 0
		ho.run(t, 2, func() {
			steps++
			for k, s := range ho.rimSpeeds(v) {
				rim[k] += math.Abs(ho.Sheaves[k].Omega()) * ho.spec.Sheave.Radius
				want[k] += s
			}
		})
		rise := (ho.Hook().Z - z0) / 2
		t.Logf("%d falls: the hook rises at %.5f m/s (v/n = %.5f, %+.3f %%), the drum turns at ω R = %.4f m/s", n, rise, v/float64(n), 100*(rise*float64(n)/v-1), -ho.Drum.Omega()*ho.Drum.Radius)
		if math.Abs(rise*float64(n)/v-1) > 0.01 {
			t.Errorf("%d falls: hook rises at %.5f m/s, want %.5f within 1 %%", n, rise, v/float64(n))
		}
		for k := range rim {
			if math.Abs(rim[k]/want[k]-1) > 0.01 {
				t.Errorf("%d falls: %s turns at ω r = %.4f m/s, the wire runs over it at %.4f", n, ho.Sheaves[k].Name, rim[k]/float64(steps), want[k]/float64(steps))
			}
		}
		t.Logf("%d falls: rim speeds %.4f, wire speeds %.4f (sums over %d steps)", n, rim, want, steps)
	}
}

// TestHoistBearingFriction: hauling in on four falls over sheaves whose
// bearings hold τ = 400 N·m, each sheave takes τ/r from the tension
// towards the drum, so fall k (from the drum's side) carries
// W/n + (τ/r)((n − k) − (n − 1)/2) + ρgL/2 (the falls' tensions sum to
// the hooked weight at steady speed); within 1 % of W/n.
func TestHoistBearingFriction(t *testing.T) {
	const n, tau, v = 4, 400.0, 0.8
	spec := craneSpec(n, 40)
	spec.Sheave.BearingFriction = tau
	ho := newCrane(t, spec)
	ho.run(t, 1, nil)
	ho.ramp(t, -v, 1)
	ho.run(t, 2, nil)
	sum := make([]float64, n)
	steps := 0
	ho.run(t, 1, func() {
		steps++
		for k, T := range ho.FallTensions() {
			sum[k] += T
		}
	})
	W, r := spec.Hooked(), spec.Sheave.Radius
	for k := range sum {
		got := sum[k] / float64(steps)
		want := W/n + tau/r*(float64(n-1-k)-float64(n-1)/2) + spec.Rope.LinearDensity()*spec.Gravity*spec.Drop/2
		t.Logf("fall %d: %.0f N, closed form %.0f N (%+.2f %% of W/n)", k+1, got, want, 100*(got-want)/(W/n))
		if math.Abs(got-want) > 0.01*W/n {
			t.Errorf("fall %d carries %.0f N, want %.0f within 1 %% of W/n", k+1, got, want)
		}
	}
}

// period returns the mean period (s) of x(t) sampled every h from its
// upward crossings of its mean.
func period(xs []float64, h float64) float64 {
	mean := 0.0
	for _, x := range xs {
		mean += x / float64(len(xs))
	}
	var cross []float64
	for i := 1; i < len(xs); i++ {
		if a, b := xs[i-1]-mean, xs[i]-mean; a < 0 && b >= 0 {
			cross = append(cross, (float64(i-1)+a/(a-b))*h)
		}
	}
	if len(cross) < 2 {
		return math.NaN()
	}
	return (cross[len(cross)-1] - cross[0]) / float64(len(cross)-1)
}

// TestHoistBounce: the hook block on four falls, the drum held, bounces
// at ω = √(n²EA/(L M)) with L the wire's rest length from the drum to the
// dead end (hook displaced by x, the wire stretches by n x, its tension
// by EA n x/L, on n falls) and M the hooked mass, within 5 % (the
// rope's damping, ζ = ωτ/2 = 0.06, lowers it by 0.2 %).
func TestHoistBounce(t *testing.T) {
	const n = 4
	spec := craneSpec(n, 40)
	ho := newCrane(t, spec)
	ho.run(t, 3, nil)
	ho.Block.Vel.Z += 0.05
	var zs []float64
	ho.run(t, 3, func() { zs = append(zs, ho.Hook().Z) })
	M := spec.Hooked() / spec.Gravity
	L := ho.Wire.RestLength()
	want := 2 * math.Pi / math.Sqrt(n*n*spec.Rope.AxialStiffness()/(L*M))
	got := period(zs, 1.0/60)
	t.Logf("bounce on %d falls, %.1f m of wire, %.0f kg: period %.4f s, closed form %.4f s (%+.2f %%)", n, L, M, got, want, 100*(got/want-1))
	if math.Abs(got/want-1) > 0.05 {
		t.Errorf("bounce period %.4f s, want %.4f within 5 %%", got, want)
	}
}

// energy returns the hoist's mechanical energy (J): every body's kinetic
// and potential energy and the wire's stretch energy Σ T²ℓ/(2EA).
func (ho *Hoist) energy() float64 {
	e := 0.0
	g := ho.Sys.World.Gravity
	for _, b := range ho.Sys.World.Bodies() {
		if b.Kind == 0 {
			e += b.KineticEnergy() - b.Mass*g.Dot(b.Pos)
		}
	}
	for _, s := range ho.Wire.segs {
		T := max(s.Tension(1.0/60), 0)
		e += T * T * s.rest() / (2 * ho.Wire.Rope.AxialStiffness())
	}
	return e
}

// TestHoistSwing: the boom tip moves 2 m along x in 4 s and stops, and
// the load swings in the sheaves' plane. The falls run over turning
// sheaves, so they change length freely against each other: they do not
// hold the block level as a parallelogram of links would, and the block
// and load hang from the hook sheaves' axle line as from a pivot on a
// pendulum of the falls' length L. The closed form is that double
// pendulum's slower mode, from K − ω²M with M = [[(m + m_s)L², m L d],
// [m L d, m d² + I]] and K = diag((m + m_s) g L, m g d): m, I the block's
// and load's mass and inertia about their centre d below the axle line,
// m_s the hook sheaves'. Within 2 % (the falls' own mass, 1.5 % of the
// load's, is left out); the simple pendulum 2π√(L/g) is 2.3 % short.
// Over the next 120 s the energy does not grow: the kinetic, potential
// and stretch energy (the last from the solved tensions, which do not
// quite follow the integrator's springs) swings within each swing period
// as the step's energy does (by about ωh of the swing's), so its peak
// over each later period stays at most 1e-3 of the swing's energy
// ½(m + m_s)ω²A² above the peak over the first period, and it ends below
// its value at the stop.
func TestHoistSwing(t *testing.T) {
	const n = 4
	spec := craneSpec(n, 40)
	ho := newCrane(t, spec)
	ho.run(t, 2, nil)
	ho.BoomTip.Vel = geom.V(0.5, 0, 0)
	ho.run(t, 4, nil)
	ho.BoomTip.Vel = geom.Vec3{}
	var xs, es []float64
	e0 := ho.energy()
	ho.run(t, 120, func() {
		xs = append(xs, ho.Hook().X-ho.BoomTip.Pos.X)
		es = append(es, ho.energy())
	})
	g := spec.Gravity
	L := ho.BoomTip.Pos.Z - ho.Hook().Z
	m, ms := ho.Block.Mass, float64(n/2)*spec.Sheave.Mass
	d, I := ho.hook.Z, ho.Block.Inertia.Y // the axle line d above the centre
	a := (m+ms)*L*L*(m*d*d+I) - m*m*L*L*d*d
	b := (m+ms)*g*L*(m*d*d+I) + m*g*d*(m+ms)*L*L
	c := (m + ms) * g * L * m * g * d
	w2 := (b - math.Sqrt(b*b-4*a*c)) / (2 * a)
	want := 2 * math.Pi / math.Sqrt(w2)
	simple := 2 * math.Pi * math.Sqrt(L/g)
	got := period(xs, 1.0/60)
	end := ho.energy()
	amp := 0.0
	mean := 0.0
	for _, x := range xs {
		mean += x / float64(len(xs))
	}
	for _, x := range xs {
		amp = max(amp, math.Abs(x-mean))
	}
	swing := 0.5 * (m + ms) * w2 * amp * amp
	ps := peaks(es, int(math.Round(want*60)))
	rise := math.Inf(-1)
	for _, p := range ps[1:] {
		rise = max(rise, p-ps[0])
	}
	t.Logf("swing on %.2f m falls, centre %.2f m below the axles: period %.4f s, double pendulum %.4f s (%+.2f %%), simple pendulum %.4f s; swing energy %.0f J (amplitude %.3f m); later periods' energy peaks at most %+.1f J above the first's, %+.3g J at the end against the stop",
		L, d, got, want, 100*(got/want-1), simple, swing, amp, rise, end-e0)
	if math.Abs(got/want-1) > 0.02 {
		t.Errorf("swing period %.4f s, want %.4f within 2 %%", got, want)
	}
	if rise > 1e-3*swing || end > e0 {
		t.Errorf("energy grew: a later period's peak %.1f J above the first's (swing energy %.0f J), %.1f J at the end against the stop", rise, swing, end-e0)
	}
}

// TestHoistSetDownAndLift: on four falls, the load is lowered at 1.2 m/s
// (0.3 m/s at the hook) onto the ground, the drum pays out 1 s more and
// stops. The load rests on the ground within 1 cm and the ground carries
// the hooked weight but the falls' own pull (their weight and the sagging
// lead's): over 3 s at rest, at least 95 % of it on the mean. The wire
// goes slack (the lead sags, the falls keep their own weight's tension)
// without a node below the ground, and stays reeved: every sheave keeps
// contact nodes. A mass node moving into a sheave in a step is swallowed
// at the start of the next ([SLNB11] §II-C); none goes deeper than the
// rope's diameter. Hauled in again, the load lifts off, and its bounce on
// the falls (damped by the rope alone, ζ ≈ 0.05) is averaged out over
// 3 s: each fall's mean tension is W/n + ρgL/2 within 2 %.
func TestHoistSetDownAndLift(t *testing.T) {
	const n, v, h = 4, 1.2, 1.0 / 60
	const rope = 0.02        // m, the rope's diameter
	spec := craneSpec(n, 45) // the load's bottom 2 m above the ground
	ho := newCrane(t, spec)
	W := spec.Hooked()
	deepest := 0.0
	check := func() {
		for _, nd := range ho.Wire.nodes {
			p := nd.position()
			if p.Z < spec.Ground.Height {
				t.Fatalf("a wire node at %v m is below the ground", p)
			}
			for _, s := range ho.Sheaves {
				s.Geometry.refresh() // where the sheave is now
				if nd.kind == MassNode {
					deepest = max(deepest, s.Geometry.depth(p))
				}
			}
		}
		for k, c := range ho.perSheave() {
			if c == 0 {
				t.Fatalf("the wire ran off sheave %d", k+1)
			}
		}
	}
	ho.run(t, 1, nil)
	ho.ramp(t, v, 0.5)
	for ho.LoadBottom().Z > 0.05 {
		ho.run(t, h, check)
	}
	ho.run(t, 1, check)
	ho.ramp(t, 0, 0.2)
	ho.run(t, 1, check)
	ground, pull, steps := 0.0, 0.0, 0.0
	ho.run(t, 3, func() {
		check()
		ground += ho.GroundForce()
		for _, T := range ho.FallTensions() {
			pull += T
		}
		steps++
	})
	ground, pull = ground/steps, pull/steps
	m, _, _ := ho.Wire.Counts()
	bottom := ho.LoadBottom().Z
	t.Logf("set down: load bottom at %.5f m, mean ground force %.0f N (%.2f %% of the hooked %.0f N), the falls' mean pull %.0f N, %d mass nodes",
		bottom, ground, 100*ground/W, W, pull, m)
	if math.Abs(bottom-spec.Ground.Height) > 0.01 {
		t.Errorf("set down: load bottom at %.4f m, want the ground within 1 cm", bottom)
	}
	if ground < 0.95*W {
		t.Errorf("set down: the ground carries %.0f N of the hooked %.0f N", ground, W)
	}
	t.Logf("deepest a mass node went into a sheave in a step: %.4f m", deepest)
	if deepest > rope {
		t.Errorf("a mass node went %.4f m into a sheave in a step, more than the rope's diameter", deepest)
	}
	peak := 0.0
	ho.ramp(t, -v, 0.5)
	ho.run(t, 3, func() {
		check()
		for _, T := range ho.FallTensions() {
			peak = max(peak, T)
		}
	})
	ho.ramp(t, 0, 0.5)
	ho.run(t, 3, check)
	mean := make([]float64, n)
	steps = 0
	ho.run(t, 3, func() {
		for k, T := range ho.FallTensions() {
			mean[k] += T
		}
		steps++
	})
	want := W/n + spec.Rope.LinearDensity()*spec.Gravity*(ho.BoomTip.Pos.Z-ho.Hook().Z)/2
	t.Logf("lifted to %.3f m: peak fall tension %.0f N while lifting (%.2f × the static)", ho.LoadBottom().Z, peak, peak/want)
	for k := range mean {
		mean[k] /= steps
		t.Logf("lifted: fall %d carries %.0f N on the mean, closed form %.0f N (%+.2f %%)", k+1, mean[k], want, 100*(mean[k]/want-1))
		if math.Abs(mean[k]/want-1) > 0.02 {
			t.Errorf("lifted again: fall %d carries %.0f N, want %.0f within 2 %%", k+1, mean[k], want)
		}
	}
}

// perSheave counts the wire's contact nodes on each sheave.
func (ho *Hoist) perSheave() []int {
	out := make([]int, len(ho.Sheaves))
	for _, nd := range ho.Wire.nodes {
		if nd.kind != ContactNode {
			continue
		}
		for k, s := range ho.Sheaves {
			if nd.geo == s.Geometry {
				out[k]++
			}
		}
	}
	return out
}

// TestHoistSetDownFast: the hook lands at 0.5 m/s (the drum paying out at
// 2 m/s on four falls), the drum pays out 0.5 s more and stops over 0.5
// s: every step solves
// (the ground's friction rows under corners that touch with no force have
// bounds that meet, ±0: the active set used to free and pin such a row in
// turn on rounding until it gave up), and the load comes to rest on the
// ground carrying at least 95 % of the hooked weight (the mean over 3 s,
// 2 s after the drum, having paid out 1 m more, stopped).
func TestHoistSetDownFast(t *testing.T) {
	const v, h = 2.0, 1.0 / 60
	spec := craneSpec(4, 45)
	ho := newCrane(t, spec)
	ho.run(t, 1, nil)
	ho.ramp(t, v, 0.5)
	for ho.GroundForce() < 0.5*spec.Hooked() {
		if ho.LoadBottom().Z < -0.01 {
			t.Fatalf("the load went %.3f m into the ground", -ho.LoadBottom().Z)
		}
		ho.run(t, h, nil)
	}
	ho.run(t, 0.5, nil)
	ho.ramp(t, 0, 0.5)
	ho.run(t, 2, nil)
	mean, steps := 0.0, 0.0
	ho.run(t, 3, func() { mean, steps = mean+ho.GroundForce(), steps+1 })
	mean /= steps
	t.Logf("landed at 0.5 m/s: the ground carries %.0f N of the hooked %.0f N on the mean over 3 s", mean, spec.Hooked())
	if mean < 0.95*spec.Hooked() {
		t.Errorf("the ground carries %.0f N of the hooked %.0f N", mean, spec.Hooked())
	}
}

// TestHoistRefusals: a hoist without gravity, whose load would stretch
// its falls by more than 10 %, or whose drum or sheaves are no wider than
// the rope, is refused saying why; a block hauled into
// the boom tip stops the step with ErrTwoBlock before the sheaves meet.
func TestHoistRefusals(t *testing.T) {
	spec := craneSpec(4, 40)
	spec.Gravity = 0
	if _, err := NewHoist(spec); err == nil || !strings.Contains(err.Error(), "gravity") {
		t.Errorf("no gravity: error %v", err)
	}
	spec = craneSpec(4, 40)
	spec.LoadMass = 1e8
	if _, err := NewHoist(spec); err == nil || !strings.Contains(err.Error(), "stretch the rope") {
		t.Errorf("a 100,000 t load: error %v", err)
	}
	// A drum or sheave no wider than the rope: D/d ≤ 1.
	spec = craneSpec(4, 40)
	spec.Drum.Radius = spec.Rope.Diameter / 2
	if _, err := NewHoist(spec); err == nil || !strings.Contains(err.Error(), "drum radius") || !strings.Contains(err.Error(), "D/d = 1 ") {
		t.Errorf("a drum of the rope's radius: error %v", err)
	}
	spec = craneSpec(4, 40)
	spec.Sheave.Radius = spec.Rope.Diameter / 4
	if _, err := NewHoist(spec); err == nil || !strings.Contains(err.Error(), "sheave radius") {
		t.Errorf("a sheave of half the rope's radius: error %v", err)
	}
	spec = craneSpec(2, 5)
	ho := newCrane(t, spec)
	ho.Drum.Speed = -2
	for k := 0; k < 600; k++ {
		err := ho.Step(1.0 / 60)
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrTwoBlock) {
			t.Fatalf("step %d: %v, want two-blocking", k, err)
		}
		if gap := ho.BoomTip.Pos.Z - ho.Hook().Z; gap < 2*spec.Sheave.Radius {
			t.Errorf("stopped with the sheaves %.3f m apart: they overlap", gap)
		}
		t.Logf("after %d steps: %v", k+1, err)
		return
	}
	t.Error("hauled in for 10 s at 2 m/s without reaching the boom tip")
}

// TestHoistSlew: the example crane on a slewing superstructure (the drum
// and the boom tip turning together about a vertical axis through the
// drum), slewed through 90° at 0.1 rad/s (3 m/s at the boom tip, ramped
// up and down over the load's pendulum period) with the 20 t load on four
// falls: the hook follows the tip's path (while slewing within 3.5 m of
// the falls' centre below the tip: the lag of a 41 m pendulum and its
// centripetal tilt, 1.3 m at 3 m/s on the 32 m circle; 20 s after the
// stop it swings about its place below the tip, its mean over a swing
// within 0.1 m of it), every fall's tension is within 2 % of its static
// value, and the superstructure turned by 90°.
func TestHoistSlew(t *testing.T) {
	spec := exampleCrane()
	spec.Slew = &SlewSpec{Center: spec.Drum.Center}
	ho := newCrane(t, spec)
	ho.run(t, 2, nil)
	static := ho.FallTensions()
	// Ramped over the load's pendulum period, 2π√(L/g) for the 41 m from
	// the boom sheaves to the load's centre of mass, the slew leaves it
	// hardly swinging.
	const rate, h = 0.1, 1.0 / 60
	ramp := 2 * math.Pi * math.Sqrt((spec.Drop+spec.Sling+spec.LoadSize.Z/2)/spec.Gravity)
	// The hook's place: the falls' centre, n r off the first boom sheave
	// along the boom, turned with it.
	off := func() float64 {
		along := ho.BoomTip.Pos.Sub(ho.Base.Pos)
		along.Z = 0
		u, _ := along.Unit()
		d := ho.Hook().Sub(ho.BoomTip.Pos.Add(u.Scale(float64(spec.Falls) * spec.Sheave.Radius)))
		return math.Hypot(d.X, d.Y)
	}
	full := (math.Pi/2 - rate*ramp) / rate // s at full rate
	worst := 0.0
	for k := 0; float64(k)*h < 2*ramp+full-1e-9; k++ {
		tm := (float64(k) + 0.5) * h
		switch {
		case tm < ramp:
			ho.SlewRate = rate * tm / ramp
		case tm < ramp+full:
			ho.SlewRate = rate
		default:
			ho.SlewRate = rate * (2*ramp + full - tm) / ramp
		}
		ho.run(t, h, nil)
		worst = max(worst, off())
	}
	ho.SlewRate = 0
	ho.run(t, 20, nil)
	// The hook's mean place over a swing after that, and the swing.
	var mean geom.Vec3
	swing := 0.0
	n := int(math.Round(ramp / h))
	for k := 0; k < n; k++ {
		ho.run(t, h, nil)
		mean = mean.Add(ho.Hook().Scale(1 / float64(n)))
		swing = max(swing, off())
	}
	along := ho.BoomTip.Pos.Sub(ho.Base.Pos)
	along.Z = 0
	u, _ := along.Unit()
	place := ho.BoomTip.Pos.Add(u.Scale(float64(spec.Falls) * spec.Sheave.Radius))
	d := mean.Sub(place)
	t.Logf("slewed by %.4f°; the hook at most %.3f m off its place while slewing; 20 s after, swinging by up to %.3f m about a mean %.3f m from its place", ho.SlewAngle()*180/math.Pi, worst, swing, math.Hypot(d.X, d.Y))
	if a := ho.SlewAngle(); math.Abs(a-math.Pi/2) > 1e-3 {
		t.Errorf("slewed by %.6f rad, want π/2", a)
	}
	if worst > 3.5 || math.Hypot(d.X, d.Y) > 0.1 {
		t.Errorf("the hook went %.3f m off its place below the tip while slewing, and swings about a mean %.3f m from it after", worst, math.Hypot(d.X, d.Y))
	}
	for k := range static {
		got := 0.0
		ho.run(t, 1, func() { got += ho.FallTensions()[k] / 60 })
		t.Logf("fall %d: %.0f N after the slew, %.0f N before", k+1, got, static[k])
		if math.Abs(got/static[k]-1) > 0.02 {
			t.Errorf("fall %d: %.0f N after the slew, %.0f N before", k+1, got, static[k])
		}
	}
}

// TestHoistLuff: the example crane's boom, its foot at (−25, 0, 3) m on
// the slewing superstructure (53 m long, at 62°), luffed up by 0.1 rad at
// 0.02 rad/s (ramped over 2.5 s) while slewing at 0.05 rad/s: the
// boom tip stays on its sphere about the foot (its distance to the foot
// within 1e-9), the luff angle rises by 0.1 rad and the slew angle by what
// the rate gives, and after 20 s the fall tensions are within 2 % of
// static and the hook's mean over a swing within 0.1 m of its place below
// the tip.
func TestHoistLuff(t *testing.T) {
	spec := exampleCrane()
	foot := geom.V(-25, 0, 3)
	spec.Slew = &SlewSpec{Center: spec.Drum.Center, BoomFoot: &foot}
	ho := newCrane(t, spec)
	ho.run(t, 2, nil)
	static := ho.FallTensions()
	length, luff0 := ho.BoomTip.Pos.Sub(foot).Norm(), ho.LuffAngle()
	const h, ramp = 1.0 / 60, 2.5
	const luff, slew = 0.02, 0.05
	full := (0.1 - luff*ramp) / luff
	worst, slewed := 0.0, 0.0
	for k := 0; float64(k)*h < 2*ramp+full-1e-9; k++ {
		tm := (float64(k) + 0.5) * h
		share := 1.0
		switch {
		case tm < ramp:
			share = tm / ramp
		case tm > ramp+full:
			share = (2*ramp + full - tm) / ramp
		}
		ho.LuffRate, ho.SlewRate = luff*share, slew*share
		slewed += ho.SlewRate * h
		ho.run(t, h, nil)
		f := ho.Base.PointWorld(ho.footLocal)
		worst = max(worst, math.Abs(ho.BoomTip.Pos.Sub(f).Norm()/length-1))
	}
	ho.LuffRate, ho.SlewRate = 0, 0
	ho.run(t, 20, nil)
	var mean geom.Vec3
	n := int(math.Round(2 * math.Pi * math.Sqrt((spec.Drop+spec.Sling+spec.LoadSize.Z/2)/spec.Gravity) / h)) // a swing
	for k := 0; k < n; k++ {
		ho.run(t, h, nil)
		mean = mean.Add(ho.Hook().Scale(1 / float64(n)))
	}
	along := ho.BoomTip.Pos.Sub(ho.Base.PointWorld(ho.footLocal))
	along.Z = 0
	u, _ := along.Unit()
	place := ho.BoomTip.Pos.Add(u.Scale(float64(spec.Falls) * spec.Sheave.Radius))
	d := mean.Sub(place)
	t.Logf("luffed %.6f rad (want 0.1), slewed %.6f rad (want %.6f); the tip off its sphere by %.2g; the hook's mean %.3f m from its place", ho.LuffAngle()-luff0, ho.SlewAngle(), slewed, worst, math.Hypot(d.X, d.Y))
	if math.Abs(ho.LuffAngle()-luff0-0.1) > 1e-6 || math.Abs(ho.SlewAngle()-slewed) > 1e-6 || worst > 1e-9 || math.Hypot(d.X, d.Y) > 0.1 {
		t.Errorf("luffed %.6f rad, slewed %.6f rad (want %.6f), the tip off its sphere by %.2g, the hook's mean %.3f m off", ho.LuffAngle()-luff0, ho.SlewAngle(), slewed, worst, math.Hypot(d.X, d.Y))
	}
	for k := range static {
		got := 0.0
		ho.run(t, 1, func() { got += ho.FallTensions()[k] / 60 })
		if math.Abs(got/static[k]-1) > 0.02 {
			t.Errorf("fall %d: %.0f N after the luff, %.0f N before", k+1, got, static[k])
		}
	}
}

// TestHoistSideBySide: the falls reeved as cranes reeve them, the boom
// sheaves side by side on the boom tip's axle and the hook sheaves on the
// block's below, each fall running about half a sheave pitch along the
// axles (0.055 m over 40 m; the hook sheaves shifted to hang the block's
// centre of mass under its falls). On 2, 4 and 6 falls: each fall carries
// W/n + ρgL/2 within 1 %, every sheave between falls sees a fleet angle,
// above 0 and at most its falls' between the sheaves' centres (the wire
// crosses the groove's width, shortening the offset), and hauled in at
// 1.2 m/s the hook rises at v/n within 1 % with the sheave k-th from the
// dead end turning at k v/n within 1 %.
func TestHoistSideBySide(t *testing.T) {
	const v = 1.2
	for _, n := range []int{2, 4, 6} {
		spec := craneSpec(n, 40)
		spec.SideBySide = true
		ho := newCrane(t, spec)
		ho.run(t, 8, nil)
		W, rho, g := spec.Hooked(), spec.Rope.LinearDensity(), spec.Gravity
		for k, T := range ho.FallTensions() {
			if want := W/float64(n) + rho*g*spec.Drop/2; math.Abs(T/want-1) > 0.01 {
				t.Errorf("%d falls: fall %d carries %.1f N, want %.1f within 1 %%", n, k+1, T, want)
			}
		}
		// Each fall's fleet angle from the sheaves' places along the
		// axles, Δy over the falls' length; a sheave sees its falls'
		// larger (the first boom sheave the lead's too).
		falls := make([]float64, n)
		for k := 0; k+1 < n; k++ {
			falls[k] = math.Atan(math.Abs(ho.Sheaves[k+1].Body.Pos.Y-ho.Sheaves[k].Body.Pos.Y) / spec.Drop)
		}
		end := ho.Wire.nodes[len(ho.Wire.nodes)-1].position()
		falls[n-1] = math.Atan(math.Abs(end.Y-ho.Sheaves[n-1].Body.Pos.Y) / spec.Drop)
		for k := 1; k < n; k++ {
			bound := max(falls[k-1], falls[k])
			got := ho.Sheaves[k].Fleet()
			t.Logf("%d falls: %s: fleet angle %.4f°, at most %.4f° between the sheaves' centres", n, ho.Sheaves[k].Name, got*180/math.Pi, bound*180/math.Pi)
			if !(got > 0 && got <= bound+1e-6) {
				t.Errorf("%d falls: %s sees a fleet angle of %.4f°, want above 0 and at most its falls' %.4f°", n, ho.Sheaves[k].Name, got*180/math.Pi, bound*180/math.Pi)
			}
		}
		ho.ramp(t, -v, 1)
		ho.run(t, 2, nil)
		z0 := ho.Hook().Z
		rim := make([]float64, n)
		ho.run(t, 2, func() {
			for k, sh := range ho.Sheaves {
				rim[k] += math.Abs(sh.Speed()) / 120
			}
		})
		rise := (ho.Hook().Z - z0) / 2
		t.Logf("%d falls side by side: the hook rises at %.5f m/s (v/n %.5f); rim speeds %.4f m/s", n, rise, v/float64(n), rim)
		if math.Abs(rise*float64(n)/v-1) > 0.01 {
			t.Errorf("%d falls: the hook rises at %.5f m/s, want %.5f within 1 %%", n, rise, v/float64(n))
		}
		for k := range rim {
			if want := float64(n-k) * v / float64(n); math.Abs(rim[k]/want-1) > 0.01 {
				t.Errorf("%d falls: %s turns at ω r = %.4f m/s, want %.4f", n, ho.Sheaves[k].Name, rim[k], want)
			}
		}
	}
}

// TestHoistCrossedHook: the hook sheaves' axle across the boom sheaves'
// (HoistSpec.CrossedHook), on 2, 3, 4 and 6 falls. At rest each fall
// carries W/n + ρgL/2 within 1 %, the falls hang plumb (every sheave's
// fleet angle below 0.1°), the hook sheaves and the boom sheaves between
// falls are wrapped by 180° within 0.5° (their falls parallel) and the
// block does not turn (yaw below 1e-4 rad). Hauled in at 1.2 m/s the hook
// rises at v/n within 1 %, the sheave k-th from the dead end turning at
// k v/n within 1 %. On 4 falls and a slewing superstructure, slewed by
// 90° at 0.1 rad/s (ramped over the load's pendulum period) and left 20 s:
// the block has turned with the boom (its yaw, swinging under the falls'
// weak restoring torque, 90° within 1° on average over the next 60 s) and
// every fall carries its static tension within 2 %.
func TestHoistCrossedHook(t *testing.T) {
	const v = 1.2
	for _, n := range []int{2, 3, 4, 6} {
		spec := craneSpec(n, 40)
		spec.CrossedHook = true
		ho := newCrane(t, spec)
		ho.run(t, 8, nil)
		W, rho, g := spec.Hooked(), spec.Rope.LinearDensity(), spec.Gravity
		for k, T := range ho.FallTensions() {
			if want := W/float64(n) + rho*g*spec.Drop/2; math.Abs(T/want-1) > 0.01 {
				t.Errorf("%d falls: fall %d carries %.1f N, want %.1f within 1 %%", n, k+1, T, want)
			}
		}
		for k, sh := range ho.Sheaves {
			t.Logf("%d falls: %s (axle %v): wrap %.3f°, fleet angle %.4f°", n, sh.Name, sh.Body.Rot.Rotate(geom.V(0, 0, 1)), sh.Wrap()*180/math.Pi, sh.Fleet()*180/math.Pi)
			if f := sh.Fleet(); f > 0.1*math.Pi/180 {
				t.Errorf("%d falls: %s sees a fleet angle of %.4f°, want the falls plumb (below 0.1°)", n, sh.Name, f*180/math.Pi)
			}
			if k > 0 && math.Abs(sh.Wrap()-math.Pi) > 0.5*math.Pi/180 {
				t.Errorf("%d falls: %s wrapped by %.3f°, want 180° within 0.5°", n, sh.Name, sh.Wrap()*180/math.Pi)
			}
		}
		if yaw, _ := ho.Yaw(); math.Abs(yaw) > 1e-4 {
			t.Errorf("%d falls: the block turned by %.3g rad, want it hanging straight", n, yaw)
		}
		ho.ramp(t, -v, 1)
		ho.run(t, 2, nil)
		z0 := ho.Hook().Z
		rim := make([]float64, n)
		ho.run(t, 2, func() {
			for k, sh := range ho.Sheaves {
				rim[k] += math.Abs(sh.Speed()) / 120
			}
		})
		rise := (ho.Hook().Z - z0) / 2
		t.Logf("%d falls crossed: the hook rises at %.5f m/s (v/n %.5f); rim speeds %.4f m/s", n, rise, v/float64(n), rim)
		if math.Abs(rise*float64(n)/v-1) > 0.01 {
			t.Errorf("%d falls: the hook rises at %.5f m/s, want %.5f within 1 %%", n, rise, v/float64(n))
		}
		for k := range rim {
			if want := float64(n-k) * v / float64(n); math.Abs(rim[k]/want-1) > 0.01 {
				t.Errorf("%d falls: %s turns at ω r = %.4f m/s, want %.4f", n, ho.Sheaves[k].Name, rim[k], want)
			}
		}
	}

	spec := exampleCrane()
	spec.CrossedHook = true
	spec.Slew = &SlewSpec{Center: spec.Drum.Center}
	ho := newCrane(t, spec)
	ho.run(t, 2, nil)
	static := ho.FallTensions()
	const rate, h = 0.1, 1.0 / 60
	ramp := 2 * math.Pi * math.Sqrt((spec.Drop+spec.Sling+spec.LoadSize.Z/2)/spec.Gravity)
	full := (math.Pi/2 - rate*ramp) / rate
	for k := 0; float64(k)*h < 2*ramp+full-1e-9; k++ {
		tm := (float64(k) + 0.5) * h
		switch {
		case tm < ramp:
			ho.SlewRate = rate * tm / ramp
		case tm < ramp+full:
			ho.SlewRate = rate
		default:
			ho.SlewRate = rate * (2*ramp + full - tm) / ramp
		}
		ho.run(t, h, nil)
	}
	ho.SlewRate = 0
	ho.run(t, 20, nil)
	// The block swings about its yaw under the falls' weak restoring
	// torque (a period near 13 s): its mean over 60 s.
	yaw, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	ho.run(t, 60, func() {
		y, _ := ho.Yaw()
		yaw += y / 3600
		lo, hi = min(lo, y), max(hi, y)
	})
	t.Logf("crossed, slewed by %.3f°: the block turned by %.3f° on average, swinging between %.2f° and %.2f°", ho.SlewAngle()*180/math.Pi, yaw*180/math.Pi, lo*180/math.Pi, hi*180/math.Pi)
	if math.Abs(yaw-ho.SlewAngle()) > math.Pi/180 {
		t.Errorf("the block turned by %.3f° on average with the boom slewed by %.3f°, want them within 1°", yaw*180/math.Pi, ho.SlewAngle()*180/math.Pi)
	}
	for k := range static {
		got := 0.0
		ho.run(t, 1, func() { got += ho.FallTensions()[k] / 60 })
		if math.Abs(got/static[k]-1) > 0.02 {
			t.Errorf("crossed, fall %d: %.0f N after the slew, %.0f N before", k+1, got, static[k])
		}
	}
}

// A crane that slews, luffs, spools its drum and reeves side by side,
// saved mid-motion and restored into a new hoist built from the same
// specification, continues bitwise as the run that was not interrupted:
// the superstructure's turn, the drum's layer and angle, the sheaves'
// travel and passes are all in the state.
func TestHoistSlewingStateRestoresBitwise(t *testing.T) {
	spec := exampleCrane()
	foot := geom.V(-25, 0, 3)
	spec.Slew = &SlewSpec{Center: spec.Drum.Center, BoomFoot: &foot}
	spec.Drum.Width, spec.Drum.Wound, spec.Drum.Spool = 0.2, 100, true
	spec.SideBySide = true
	const h = 1.0 / 60
	drive := func(ho *Hoist, k int) {
		ho.SlewRate, ho.LuffRate = 0.05*math.Sin(float64(k)*h), 0.01
		ho.Drum.Speed = -1.2 * math.Min(float64(k)*h, 1)
	}
	snapshot := func(ho *Hoist) []float64 {
		out := []float64{ho.SlewAngle(), ho.LuffAngle(), ho.Drum.Angle(), ho.Drum.Radius, ho.Drum.Travel(), float64(ho.Drum.Passes())}
		for _, sh := range ho.Sheaves {
			out = append(out, sh.Travel(), float64(sh.Passes()), sh.Wrap(), sh.Fleet())
		}
		for _, p := range ho.Wire.Points() {
			out = append(out, p.X, p.Y, p.Z)
		}
		return append(out, ho.Hook().X, ho.Hook().Y, ho.Hook().Z)
	}
	ho := newCrane(t, spec)
	for k := 0; k < 300; k++ {
		drive(ho, k)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	saved := ho.Sys.SaveState(nil)
	var want [][]float64
	for k := 300; k < 420; k++ {
		drive(ho, k)
		if err := ho.Step(h); err != nil {
			t.Fatal(err)
		}
		want = append(want, snapshot(ho))
	}
	again := newCrane(t, spec)
	if _, err := again.Sys.LoadState(saved); err != nil {
		t.Fatal(err)
	}
	for k := 300; k < 420; k++ {
		drive(again, k)
		if err := again.Step(h); err != nil {
			t.Fatal(err)
		}
		got := snapshot(again)
		if !slices.EqualFunc(got, want[k-300], func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Fatalf("step %d after the restore differs", k-300)
		}
	}
}

// The boom luffs between the horizontal and the vertical: raised from 62°
// at 0.1 rad/s it reaches the vertical's last step with the tip on its
// circle about the foot (the boom's length to 1e-12), and the step that
// would take it past is an error that says so; a boom foot off the boom's
// vertical plane (luffing would tilt the sheaves' axles) or straight
// below the tip is refused.
func TestHoistLuffLimits(t *testing.T) {
	spec := exampleCrane()
	foot := geom.V(-25, 0, 3)
	spec.Slew = &SlewSpec{Center: spec.Drum.Center, BoomFoot: &foot}
	ho := newCrane(t, spec)
	length := ho.BoomTip.Pos.Sub(foot).Norm()
	ho.LuffRate = 0.1
	var err error
	for k := 0; k < 600 && err == nil; k++ {
		err = ho.Step(1.0 / 60)
	}
	a := ho.LuffAngle()
	t.Logf("stopped at %.4f rad (%v)", a, err)
	if err == nil || !strings.Contains(err.Error(), "vertical") || !(a < math.Pi/2 && a > math.Pi/2-0.1/60-1e-9) {
		t.Errorf("luffed up to %.6f rad: %v; want an error at the vertical", a, err)
	}
	if d := math.Abs(ho.BoomTip.Pos.Sub(foot).Norm()/length - 1); d > 1e-12 {
		t.Errorf("the boom's length changed by %.3g", d)
	}
	// Luffed down at 1 rad/s, the tip comes down faster than the block
	// can fall: two-blocking, said to come from the luffing (it said
	// "stop hauling in", with the winch standing).
	ho = newCrane(t, spec)
	ho.LuffRate = -1
	err = nil
	for k := 0; k < 600 && err == nil; k++ {
		err = ho.Step(1.0 / 60)
	}
	if !errors.Is(err, ErrTwoBlock) || !strings.Contains(err.Error(), "stop luffing down before") {
		t.Errorf("luffed down at 1 rad/s: %v; want two-blocking from luffing down", err)
	}
	for _, bad := range []geom.Vec3{geom.V(-25, 5, 3), geom.V(0, 0, 3)} {
		spec.Slew.BoomFoot = &bad
		if _, err := NewHoist(spec); err == nil {
			t.Errorf("boom foot %v accepted", bad)
		}
	}
}

// lowestCorner returns the height (m) of the lowest corner of the load's
// and the hook block's boxes.
func (ho *Hoist) lowestCorner() float64 {
	s := ho.spec
	low := math.Inf(1)
	for _, box := range []struct{ size, centre geom.Vec3 }{
		{s.LoadSize, ho.load.Add(geom.V(0, 0, s.LoadSize.Z/2))}, {s.BlockSize, ho.hook},
	} {
		for _, sx := range []float64{-1, 1} {
			for _, sy := range []float64{-1, 1} {
				for _, sz := range []float64{-1, 1} {
					p := box.centre.Add(geom.V(sx*box.size.X/2, sy*box.size.Y/2, sz*box.size.Z/2))
					low = math.Min(low, ho.Block.PointWorld(p).Z)
				}
			}
		}
	}
	return low
}

// An empty hook (the load 1 mg) paid out at 1 m/s onto the ground for
// 40 s: the block, whose centre of mass sits on its axle, rolls over onto
// its side once the falls go slack, and comes to rest on the ground with
// no corner of its box or of the load's more than 1 cm below it (measured
// 3e-7 m), on its side. With the load's bottom corners alone against the ground it came
// to rest 2.9 m into it, its top on the ground, without an error.
func TestHoistTippedBlockRestsOnTheGround(t *testing.T) {
	spec := craneSpec(4, 45)
	spec.LoadMass = 1e-6
	ho := newCrane(t, spec)
	lowest := math.Inf(1)
	ho.Drum.Speed = 1
	ho.run(t, 40, func() { lowest = math.Min(lowest, ho.lowestCorner()) })
	up := ho.Block.Rot.Rotate(geom.V(0, 0, 1))
	t.Logf("the block's axis up at %.0f° from the vertical, its lowest corner at %.2g m, the ground's force %.0f N (the block's weight %.0f N)", math.Acos(up.Z)*180/math.Pi, lowest, ho.GroundForce(), spec.BlockMass*g0)
	if up.Z > 0.5 {
		t.Errorf("the block stands (its axis %.0f° from the vertical): the test does not reach a tipped block", math.Acos(up.Z)*180/math.Pi)
	}
	if lowest < spec.Ground.Height-0.01 {
		t.Errorf("a corner of the block or the load went %.3f m below the ground", spec.Ground.Height-lowest)
	}
	if f := ho.GroundForce(); f < spec.BlockMass*g0 {
		t.Errorf("the ground carries %.0f N of the resting block's weight %.0f N", f, spec.BlockMass*g0)
	}
}
