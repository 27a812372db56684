package hmrwire

import (
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// drumRig hangs a load of mass M straight down from the rim of a drum
// (radius R, axle along y at the origin) on L m of wire; the drum holds
// wound m of wire.
type drumRig struct {
	sys  *System
	drum *Drum
	wire *Wire
	load *multibody.Body
}

const (
	drumR, drumMass, drumInertia = 0.5, 200.0, 40.0
	drumRope                     = 2.0 // kg/m
)

func newDrumRig(t testing.TB, M, L, wound float64, spec func(*DrumSpec)) *drumRig {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	base := sys.World.AddBody(multibody.NewStatic("base", geom.Vec3{}))
	ds := DrumSpec{Name: "drum", Axle: base, Axis: geom.V(0, 1, 0), Radius: drumR, Width: 1, Mass: drumMass, Inertia: drumInertia, Wound: wound}
	if spec != nil {
		spec(&ds)
	}
	d, err := sys.AddDrum(ds)
	if err != nil {
		t.Fatal(err)
	}
	load := sys.World.AddBody(multibody.NewBody("load", M, multibody.BoxInertia(M, 1, 1, 1), geom.V(drumR, 0, -L-0.5)))
	w, err := sys.AddWire(WireSpec{Name: "wire", Rope: testRope(5e7, drumRope, 0.01),
		Tension: M * g0, Winch: &Winch{Drum: d, Spacing: 2, MinLength: 0.5},
		Resolution: Resolution{Adaptive: true, MinSegment: 0.05},
		Route:      []RoutePoint{{Kind: End, Point: geom.V(drumR, 0, 0), Body: base}, {Kind: End, Point: geom.V(drumR, 0, -L), Body: load}}})
	if err != nil {
		t.Fatal(err)
	}
	return &drumRig{sys: sys, drum: d, wire: w, load: load}
}

func (r *drumRig) run(t testing.TB, seconds, h float64) {
	t.Helper()
	for k := 0; k < int(math.Round(seconds/h)); k++ {
		if err := r.sys.Step(h); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
	}
}

// inertia returns the drum's polar inertia about its axle with the wound
// wire now (kg·m²).
func (r *drumRig) inertia() float64 {
	return drumInertia + drumRope*r.drum.Wound()*drumR*drumR
}

// fall returns the load's mean acceleration down (m/s²) over one second
// after half a second of the drum's settings, and the closed form's
// a = R(m g R − τ)/(J + m R²) averaged over the same steps, with m the
// load's and the hanging wire's mass and J the drum's with its wound
// wire.
func (r *drumRig) fall(t *testing.T, M, tau, h float64) (a, want float64) {
	r.run(t, 0.5, h)
	v0 := r.load.Vel.Z
	n := int(math.Round(1 / h))
	for k := 0; k < n; k++ {
		m := M + drumRope*r.wire.RestLength()
		want += drumR * (m*g0*drumR - tau) / (r.inertia() + m*drumR*drumR) / float64(n)
		r.run(t, h, h)
	}
	return -(r.load.Vel.Z - v0) / (float64(n) * h), want
}

// TestDrumSpeedMode: the motor hauls the wire in at the commanded speed.
// The load rises at v (0.1 %), the drum turns at v/R (0.1 %), its angle
// is the wire taken in over R, the wound length grows by it and the drum
// carries its mass; the motor holds the load's weight and the hanging
// wire's, τ = −R·(M + ρL)·g, within 0.5 %.
func TestDrumSpeedMode(t *testing.T) {
	const M, L, h, v = 1000.0, 10.0, 1.0 / 60, 0.5
	r := newDrumRig(t, M, L, 50, nil)
	r.run(t, 1, h)
	r.drum.Speed = -v
	r.run(t, 2, h)
	z0, wound0, angle0 := r.load.Pos.Z, r.drum.Wound(), r.drum.Angle()
	r.run(t, 4, h)
	rise := (r.load.Pos.Z - z0) / 4
	omega := r.drum.Omega()
	hanging := r.wire.RestLength()
	wantTau := -drumR * (M + drumRope*hanging) * g0
	t.Logf("hauling at %.2f m/s: load rises at %.5f m/s, ω R = %.5f m/s, wound %.4f m more, angle %.4f rad (ΔL/R %.4f), motor %.1f N·m (−R(M + ρL)g = %.1f, %+.3f %%)",
		v, rise, omega*drumR, r.drum.Wound()-wound0, r.drum.Angle()-angle0, -(r.drum.Wound()-wound0)/drumR, r.drum.MotorTorque(), wantTau, 100*(r.drum.MotorTorque()/wantTau-1))
	if math.Abs(rise/v-1) > 1e-3 || math.Abs(-omega*drumR/v-1) > 1e-3 {
		t.Errorf("load rises at %.5f m/s, rim at %.5f m/s, want %g within 0.1 %%", rise, -omega*drumR, v)
	}
	if got := r.drum.Wound() - wound0; math.Abs(got-4*v) > 1e-3*4*v {
		t.Errorf("wound %.5f m more in 4 s, want %.5f", got, 4*v)
	}
	if got := r.drum.Angle() - angle0; math.Abs(got+(r.drum.Wound()-wound0)/drumR) > 1e-12 {
		t.Errorf("angle turned %.9f rad, wound %.9f m: not over R", got, r.drum.Wound()-wound0)
	}
	if math.Abs(r.drum.MotorTorque()/wantTau-1) > 5e-3 {
		t.Errorf("motor torque %.1f N·m, want %.1f within 0.5 %%", r.drum.MotorTorque(), wantTau)
	}
	// The wire's end node, at the tangent point, runs with the rim.
	wantMass, wantInertia := drumMass+drumRope*r.drum.Wound(), r.inertia()+r.wire.nodes[0].body.Mass*drumR*drumR
	if math.Abs(r.drum.Body.Mass-wantMass) > 1e-9*wantMass || math.Abs(r.drum.Body.Inertia.Z-wantInertia) > 1e-9*wantInertia {
		t.Errorf("drum mass %.6f kg and inertia %.6f kg·m², want %.6f and %.6f", r.drum.Body.Mass, r.drum.Body.Inertia.Z, wantMass, wantInertia)
	}
	// The mass in the system: the drum's wound wire and the wire's
	// nodes together stay ρ times the wire's whole length.
	total := r.wire.Mass() + r.drum.Body.Mass - drumMass
	if want := drumRope * (r.wire.RestLength() + r.drum.Wound()); math.Abs(total-want) > 1e-9*want {
		t.Errorf("wire on the drum and off it %.9f kg, want %.9f", total, want)
	}
}

// TestDrumTorqueModeAndBrake: the load falls, turning the drum against
// the motor's torque τ, at a = R(M g R − τ)/(J + M R²) with J the
// drum's inertia and its wound wire's (the hanging wire's mass, 0.2 %
// of the load's, is added to M); a brake that holds more than the load's
// moment holds it, and its torque is that moment; a weaker brake slips
// at the same law with τ its torque. Within 0.2 % (the end node's mass
// runs with the drum, see Drum.prepare: without, 0.5–1.6 % short).
func TestDrumTorqueModeAndBrake(t *testing.T) {
	const M, L, h = 1000.0, 10.0, 1.0 / 60
	fall := func(r *drumRig, tau float64) (a, want float64) { return r.fall(t, M, tau, h) }
	const tau = 3000.0 // N·m, below M g R = 4905
	r := newDrumRig(t, M, L, 50, nil)
	r.drum.Mode, r.drum.Torque = TorqueMode, -tau
	a, want := fall(r, tau)
	t.Logf("torque mode, %g N·m hauling: the load falls at %.4f m/s², closed form %.4f (%+.2f %%)", tau, a, want, 100*(a/want-1))
	if math.Abs(a/want-1) > 2e-3 {
		t.Errorf("torque mode: a = %.4f m/s², want %.4f", a, want)
	}

	r = newDrumRig(t, M, L, 50, func(s *DrumSpec) { s.BrakeTorque = 6000 })
	r.drum.Brake = true
	r.run(t, 2, h)
	moment := drumR * (M + drumRope*r.wire.RestLength()) * g0
	t.Logf("brake of 6000 N·m engaged: load speed %.2g m/s, brake torque %.1f N·m (−R(M + ρL)g = %.1f)", r.load.Vel.Z, r.drum.BrakeTorqueApplied(), -moment)
	if math.Abs(r.load.Vel.Z) > 1e-4 || math.Abs(r.drum.BrakeTorqueApplied()/-moment-1) > 0.01 {
		t.Errorf("brake holding: load at %.3g m/s, brake torque %.1f N·m, want 0 and %.1f", r.load.Vel.Z, r.drum.BrakeTorqueApplied(), -moment)
	}

	r = newDrumRig(t, M, L, 50, func(s *DrumSpec) { s.BrakeTorque = tau })
	r.drum.Brake = true
	a, want = fall(r, tau)
	t.Logf("brake of %g N·m, overloaded: the load falls at %.4f m/s², closed form %.4f (%+.2f %%); brake torque %.1f N·m", tau, a, want, 100*(a/want-1), r.drum.BrakeTorqueApplied())
	if math.Abs(a/want-1) > 2e-3 || math.Abs(r.drum.BrakeTorqueApplied()+tau) > 1e-6*tau {
		t.Errorf("slipping brake: a = %.4f m/s², want %.4f; brake torque %.1f N·m, want %g", a, want, r.drum.BrakeTorqueApplied(), -tau)
	}

	// The motor's torque limit below the load's moment: hauling in at
	// speed, the motor gives its limit and the load still falls.
	r = newDrumRig(t, M, L, 50, func(s *DrumSpec) { s.TorqueLimit = tau })
	r.drum.Speed = -0.5
	a, want = fall(r, tau)
	t.Logf("speed mode limited to %g N·m: the load falls at %.4f m/s², closed form %.4f (%+.2f %%); motor %.1f N·m", tau, a, want, 100*(a/want-1), r.drum.MotorTorque())
	if math.Abs(a/want-1) > 2e-3 || math.Abs(r.drum.MotorTorque()+tau) > 1e-6*tau {
		t.Errorf("torque limit: a = %.4f m/s², want %.4f; motor %.1f N·m, want %g", a, want, r.drum.MotorTorque(), -tau)
	}
}

// TestDrumLimitSwitch: hauling in until no mass node is left to take in,
// the drum stops with the first segment at the winch's minimum length.
func TestDrumLimitSwitch(t *testing.T) {
	const h = 1.0 / 60
	for _, mode := range []DriveMode{SpeedMode, TorqueMode} {
		r := newDrumRig(t, 500, 3, 50, nil)
		r.drum.Mode, r.drum.Speed, r.drum.Torque = mode, -1, -4000
		r.run(t, 6, h)
		if got := r.wire.RestLength(); math.Abs(got-0.5) > 0.02 {
			t.Errorf("mode %d: after hauling in 6 m of 3: rest length %.4f m, want the minimum 0.5 m", mode, got)
		}
		if math.Abs(r.drum.Omega()) > 1e-3 {
			t.Errorf("mode %d: at the limit the drum still turns at %.4g rad/s", mode, r.drum.Omega())
		}
	}
}

// TestDrumState: a state saved while the drum hauls in continues bitwise.
func TestDrumState(t *testing.T) {
	const h = 1.0 / 60
	r := newDrumRig(t, 1000, 10, 50, nil)
	r.drum.Speed = -0.8
	snapshot := func() []float64 {
		return []float64{r.drum.Omega(), r.drum.Angle(), r.drum.Wound(), r.drum.MotorTorque(), r.drum.Body.Inertia.Z, r.load.Pos.Z, r.load.Vel.Z}
	}
	r.run(t, 0.5, h)
	saved := r.sys.SaveState(nil)
	var ref [][]float64
	for k := 0; k < 60; k++ {
		r.run(t, h, h)
		ref = append(ref, snapshot())
	}
	if _, err := r.sys.LoadState(saved); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 60; k++ {
		r.run(t, h, h)
		for i, v := range snapshot() {
			if math.Float64bits(v) != math.Float64bits(ref[k][i]) {
				t.Fatalf("step %d: value %d is %.17g, want %.17g", k, i, v, ref[k][i])
			}
		}
	}
}

// A drum that cannot be simulated, or a wire that cannot leave it, is
// refused with an error naming what is wrong.
func TestDrumRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(*DrumSpec)
		point geom.Vec3
		winch Winch
		want  string
	}{
		{"zero radius", func(s *DrumSpec) { s.Radius = 0 }, geom.V(drumR, 0, 0), Winch{Spacing: 1}, "radius"},
		{"negative wound", func(s *DrumSpec) { s.Wound = -1 }, geom.V(drumR, 0, 0), Winch{Spacing: 1}, "wound"},
		{"NaN brake", func(s *DrumSpec) { s.BrakeTorque = math.NaN() }, geom.V(drumR, 0, 0), Winch{Spacing: 1}, "brake"},
		{"end off the rim", nil, geom.V(2*drumR, 0, 0), Winch{Spacing: 1}, "rim"},
		{"end not tangent", nil, geom.V(0, 0, -drumR), Winch{Spacing: 1}, "tangent"},
		{"slip on a drum", nil, geom.V(drumR, 0, 0), Winch{Spacing: 1, Slip: 1e-6}, "slip"},
	} {
		sys := NewSystem(geom.V(0, 0, -g0))
		base := sys.World.AddBody(multibody.NewStatic("base", geom.Vec3{}))
		spec := DrumSpec{Name: "drum", Axle: base, Axis: geom.V(0, 1, 0), Radius: drumR, Width: 1, Mass: drumMass}
		if c.edit != nil {
			c.edit(&spec)
		}
		d, err := sys.AddDrum(spec)
		if err == nil {
			c.winch.Drum = d
			load := sys.World.AddBody(multibody.NewBody("load", 10, geom.V(1, 1, 1), geom.V(drumR, 0, -5.5)))
			_, err = sys.AddWire(WireSpec{Name: "wire", Rope: testRope(1e6, 1, 0), Winch: &c.winch,
				Route: []RoutePoint{{Kind: End, Point: c.point, Body: base}, {Kind: End, Point: geom.V(drumR, 0, -5), Body: load}}})
			if err == nil || len(sys.Wires) != 0 {
				t.Errorf("%s: wire added (error %v)", c.name, err)
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// TestDrumPaysOutAcrossSplits: the drum pays out 20 m at 2 m/s, ten times
// the winch's spacing, so the adaptive resolution splits the first
// segment again and again: the wire's rest length grows by what the drum
// paid out (its angle times R) to 1e-9, the wound length shrinks by it,
// and the wire's mass on and off the drum stays ρ times its whole length.
func TestDrumPaysOutAcrossSplits(t *testing.T) {
	const M, L, h, v = 1000.0, 5.0, 1.0 / 60, 2.0
	r := newDrumRig(t, M, L, 100, nil)
	r.run(t, 0.5, h)
	L0, angle0 := r.wire.RestLength(), r.drum.Angle()
	r.drum.Speed = v
	m0, _, _ := r.wire.Counts()
	r.run(t, 10, h)
	m1, _, _ := r.wire.Counts()
	paid := r.wire.RestLength() - L0
	t.Logf("paid out %.6f m (drum angle × R %.6f m), wound %.6f m, mass nodes %d → %d", paid, (r.drum.Angle()-angle0)*drumR, r.drum.Wound(), m0, m1)
	if m1 <= m0+2 {
		t.Errorf("mass nodes %d → %d: the first segment was not split", m0, m1)
	}
	if got := (r.drum.Angle() - angle0) * drumR; math.Abs(got-paid) > 1e-9*paid {
		t.Errorf("the drum turned %.9f m of rim, the wire grew %.9f m", got, paid)
	}
	if got := r.drum.Wound(); math.Abs(got-(100-r.drum.Paid())) > 1e-12 {
		t.Errorf("wound %.9f m, paid %.9f m", got, r.drum.Paid())
	}
	total := r.wire.Mass() + r.drum.Body.Mass - drumMass
	if want := drumRope * (r.wire.RestLength() + r.drum.Wound()); math.Abs(total-want) > 1e-9*want {
		t.Errorf("wire on the drum and off it %.9f kg, want %.9f", total, want)
	}
}

// TestDrumRunsOut: paying out beyond the wire wound on the drum is an
// error that says so (the wire's end is anchored on the drum), not wire
// made from nothing.
func TestDrumRunsOut(t *testing.T) {
	const h = 1.0 / 60
	r := newDrumRig(t, 1000, 5, 3, nil)
	r.drum.Speed = 2
	for k := 0; k < 240; k++ {
		if err := r.sys.Step(h); err != nil {
			if !strings.Contains(err.Error(), "ran out of wire") {
				t.Fatalf("step %d: %v, want the drum running out of wire", k, err)
			}
			t.Logf("after %d steps: %v", k+1, err)
			return
		}
	}
	t.Errorf("paid out %.3f m of the 3 m wound without an error", r.drum.Paid())
}

// TestDrumSpooling: the example crane's drum made 0.2 m wide (ten turns
// of the 20 mm rope a layer) and spooled, with 100 m wound (its fourth
// layer), hauls in 40 m of wire: the wire's first end leaves the drum on
// the layer's radius and across the drum at the last turn (within 5 mm,
// a quarter of the rope's diameter, of Layer's place as the place moves
// across, but in the three steps after it jumps a layer up and to the
// flange), the layer changes where the wound length
// fills a layer, and the wire wound between two changes (what the drum
// took in) is a layer's 2π n (r + k d) within 1 %; the drum's rim runs at
// the commanded speed on every layer, its travel is the wire wound on
// within 1 %, its wrap is its layers' turns, and the angle it turned is
// the turns the wound length makes on the layers' radii, from the
// geometry (layerTurns), within 1e-9 rad (on the step's layer alone, it
// was off by some 3 mrad a layer change).
func TestDrumSpooling(t *testing.T) {
	spec := exampleCrane()
	spec.Drum.Width, spec.Drum.Wound, spec.Drum.Spool = 0.2, 100, true
	ho := newCrane(t, spec)
	// Before any step, the drum reports the layer and radius it starts on
	// (the layer read 0, the first, until the first step).
	if k, r, _ := Layer(100, spec.Drum.Radius, spec.Drum.Width, spec.Rope.Diameter); ho.Drum.Layer() != k || ho.Drum.Radius != r || k == 0 {
		t.Errorf("at the start: layer %d, radius %g m; the 100 m wound lie on layer %d at %g m", ho.Drum.Layer(), ho.Drum.Radius, k, r)
	}
	ho.run(t, 1, nil)
	d, rope := ho.Drum, spec.Rope.Diameter
	const v = 1.2
	wound0, travel0 := d.Wound(), d.Travel()
	angle0, wrap0, angleOff := d.Angle(), layerTurns(wound0, spec.Drum.Radius, spec.Drum.Width, rope), 0.0
	ho.ramp(t, -v, 1)
	var changes []float64
	worst, jump, layer, since := 0.0, 0.0, -1, 0
	for ho.Drum.Wound() < 140 {
		ho.run(t, 1.0/60, nil)
		k, r, across := Layer(d.Wound(), spec.Drum.Radius, spec.Drum.Width, rope)
		if since++; layer >= 0 && k != layer {
			changes, since = append(changes, d.Wound()), 0
		}
		layer = k
		// The drum turned by the turns the wound wire gained, on each
		// layer's radius (across a layer change too): the geometry's
		// turns, not the drum's own count of them.
		angleOff = max(angleOff, math.Abs(d.Angle()-angle0-(wrap0-layerTurns(d.Wound(), spec.Drum.Radius, spec.Drum.Width, rope))))
		// Where the wire leaves: on the axle's body, at the layer's radius
		// from the drum's axis and across the drum at the last turn.
		end := ho.Wire.nodes[0].body.Pos
		arm := end.Sub(d.Body.Pos)
		off := math.Abs(math.Hypot(arm.X, arm.Z)-r) + math.Abs(arm.Y-across)
		if since < 3 {
			jump = max(jump, off) // the place jumped a layer up and across
		} else {
			worst = max(worst, off)
		}
		if s := d.RimSpeed(); math.Abs(s+v) > 0.01*v && ho.Drum.Speed == -v {
			t.Fatalf("wound %.2f m: the rim runs at %.4f m/s on layer %d, commanded %.1f", d.Wound(), s, k, -v)
		}
	}
	t.Logf("layer changes at %v m wound; the wire's end off its place by at most %.2g m (%.3g m in the steps the place jumps to the next layer)", changes, worst, jump)
	if len(changes) < 2 {
		t.Fatalf("%d layer changes hauling 40 m, want 2", len(changes))
	}
	if angleOff > 1e-9 {
		t.Errorf("the drum's angle off the wound wire's turns by %.3g rad", angleOff)
	}
	// What ran onto the drum: the wire wound, on every layer's radius; the
	// wrap grew by its turns.
	if in, ran := d.Wound()-wound0, d.Travel()-travel0; math.Abs(ran/in-1) > 0.01 {
		t.Errorf("%.3f m of wire wound on, the drum's travel %.3f m", in, ran)
	}
	// The wrap at the last step's start: each layer's wire over its radius.
	wound := d.Wound() + d.wire.Winch.rate/60 // before the last step's reel
	if turns := layerTurns(wound, spec.Drum.Radius, spec.Drum.Width, rope); math.Abs(d.Wrap()/turns-1) > 1e-9 {
		t.Errorf("the drum's wrap %.6f rad, its layers' turns %.6f rad", d.Wrap(), turns)
	}
	k, _, _ := Layer(changes[0]+0.01, spec.Drum.Radius, spec.Drum.Width, rope)
	want := 2 * math.Pi * math.Floor(spec.Drum.Width/rope) * (spec.Drum.Radius + float64(k)*rope)
	got := changes[1] - changes[0]
	t.Logf("layer %d took %.3f m, its geometry %.3f m", k, got, want)
	if math.Abs(got/want-1) > 0.01 || worst > 5e-3 {
		t.Errorf("layer %d took %.3f m against %.3f m; the wire's end off its place by %.3g m", k, got, want, worst)
	}
}

// layerTurns is the angle (rad) that wound m of wire wraps a drum of
// radius r0, width w (m) by, spooled in layers of d (m) rope, from the
// geometry alone: each full layer's whole turns, then the rest over its
// layer's radius.
func layerTurns(wound, r0, w, d float64) float64 {
	turns, left := 0.0, wound
	for k := 0; left > 0; k++ {
		r := r0 + float64(k)*d
		on := min(left, 2*math.Pi*math.Floor(w/d)*r)
		turns, left = turns+on/r, left-on
	}
	return turns
}

// Layer at its layers' bounds: a layer full to the far flange and the
// next one starting there (the wire steps up a layer, not across), the
// turns back across the drum on odd layers; a drum whose wound wire needs
// more than maxLayers layers is refused.
// A drum whose width is a whole number of rope diameters holds that many
// turns a layer, though the quotient falls a rounding short of it
// (0.7/0.014 = 49.999…: the floor of it took a turn off every layer, and
// 2 % of each layer's wire went a layer up): 99.9 % of the first layer's
// wire lies on it, and a millimetre more than the whole on the second.
func TestLayerHoldsWholeTurns(t *testing.T) {
	const r = 0.4
	for _, c := range []struct{ w, d, turns float64 }{{0.7, 0.014, 50}, {1.4, 0.028, 50}, {0.7, 0.028, 25}, {1, 0.02, 50}, {0.6, 0.02, 30}, {0.25, 0.02, 12}} {
		full := 2 * math.Pi * c.turns * r
		if k, _, across := Layer(0.999*full, r, c.w, c.d); k != 0 || math.Abs(across-(0.999-0.5)*c.w) > 1e-9 {
			t.Errorf("%g m of %g m rope: 99.9 %% of a %g-turn layer on layer %d, %.6f m across", c.w, c.d, c.turns, k+1, across)
		}
		if k, _, _ := Layer(full+1e-3, r, c.w, c.d); k != 1 {
			t.Errorf("%g m of %g m rope: a %g-turn layer and 1 mm on layer %d, want 2", c.w, c.d, c.turns, k+1)
		}
	}
}

func TestLayerBounds(t *testing.T) {
	const r, w, d = 0.4, 0.2, 0.02
	full := 2 * math.Pi * 10 * r // ten turns on the first layer
	for _, c := range []struct {
		wound  float64
		k      int
		across float64
	}{{0, 0, -w / 2}, {full / 2, 0, 0}, {full, 0, w / 2}, {full + 1e-9, 1, w / 2}, {full + 2*math.Pi*10*(r+d)/2, 1, 0}} {
		k, radius, across := Layer(c.wound, r, w, d)
		if k != c.k || math.Abs(radius-(r+float64(c.k)*d)) > 1e-12 || math.Abs(across-c.across) > 1e-9 {
			t.Errorf("wound %.9g m: layer %d at %.4f m, %.6f m across; want layer %d, %.6f m across", c.wound, k, radius, across, c.k, c.across)
		}
	}
	sys := NewSystem(geom.V(0, 0, -9.81))
	base := sys.World.AddBody(multibody.NewStatic("base", geom.Vec3{}))
	_, err := sys.AddDrum(DrumSpec{Name: "d", Axle: base, Axis: geom.V(0, 1, 0), Radius: r, Width: w, Mass: 100, Wound: 1e6, Spool: true, Pitch: d})
	if err == nil || !strings.Contains(err.Error(), "layers") {
		t.Errorf("a drum of 1e6 m wound in 0.2 m: %v, want it refused", err)
	}
}
