package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/oscillation"
)

// twistRope is a 20 mm steel rope of torsional rigidity gj (N·m²) and
// torque factor k, undamped.
func twistRope(gj, k float64) material.Rope {
	r := material.DefaultSteelRope()
	r.TorsionalStiffness, r.TorqueFactor, r.DampingTime = gj, k, 0
	return r
}

// yaw returns the body's turn about the vertical (rad).
func yaw(b *multibody.Body) float64 {
	x := b.Rot.Rotate(geom.V(1, 0, 0))
	return math.Atan2(x.Y, x.X)
}

// pendulum builds a box of mass m (kg) and side a (m) hanging from a wire
// of length l (m), n segments, whose top is locked to a static body; with
// sheave the wire first runs 2 m sideways from a dead end over a fixed
// 0.5 m cylinder and down. The box's end is a swivel if swivel.
func pendulum(t *testing.T, rope material.Rope, m, a, l float64, n int, sheave, swivel bool) (*System, *Wire, *multibody.Body) {
	t.Helper()
	sys := NewSystem(geom.V(0, 0, -g0))
	top := sys.World.AddBody(multibody.NewStatic("top", geom.V(0, 0, 0)))
	box := sys.World.AddBody(multibody.NewBody("box", m, multibody.BoxInertia(m, a, a, a), geom.V(0, 0, -l-a/2)))
	var route []RoutePoint
	if sheave {
		r := 0.5
		sh, err := sys.AddSheave(SheaveSpec{Name: "sheave", Axle: top, Center: geom.V(-r, 0, 0), Axis: geom.V(0, 1, 0), Radius: r, Width: 0.1, Sides: 32, Mass: 10, Locked: true})
		if err != nil {
			t.Fatal(err)
		}
		route = append(route, RoutePoint{Kind: End, Point: geom.V(-r-2, 0, r), Body: top})
		for k := 8; k >= 0; k-- { // the polygon's corners from the top to the side
			a := float64(k) * 2 * math.Pi / 32
			route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(-r+r*math.Cos(a), 0, r*math.Sin(a)), Geometry: sh.Geometry})
		}
	} else {
		route = append(route, RoutePoint{Kind: End, Point: geom.V(0, 0, 0), Body: top})
	}
	route = append(route, RoutePoint{Kind: End, Point: geom.V(0, 0, -l), Body: box, Swivel: swivel})
	w, err := sys.AddWire(WireSpec{Name: "wire", Rope: rope, Route: route, Spacing: l / float64(n), Twist: true,
		Tension: m * g0})
	if err != nil {
		t.Fatal(err)
	}
	return sys, w, box
}

// TestTorsionPendulum: a 100 kg box of 0.4 m hung on 5 m of wire of
// GJ = 20 N·m² (clamped in twist at both ends) and given a turn swings
// about the wire with the period 2π√(I L/GJ) within 2 % (the wire's own
// roll inertia, ρJ_pL/3, adds 3e-7 of the box's); over a fixed sheave
// from a dead end 2 m beside it, the twist runs over the sheave and the
// period is that of the whole length; their energy, the box's turning and
// the wire's twist (undamped rope), never rises above the first second's
// by 1 % and loses less than 10 % in a minute (the step relaxes the
// twist's waves along the wire, which it does not resolve: 6 % in 55 s); on a
// swivel the box turns on at
// its speed (within 1 % after 60 s): no restoring torque.
func TestTorsionPendulum(t *testing.T) {
	const (
		m, a, l, gj = 100.0, 0.4, 5.0, 20.0
		h           = 1.0 / 60
		spin        = 0.2 // rad/s
	)
	iz := m * a * a / 6
	for _, c := range []struct {
		name   string
		sheave bool
		length float64
		swivel bool
	}{
		{"one fall", false, l, false},
		{"over a sheave", true, l + 2 + 8*2*0.5*math.Sin(math.Pi/32), false},
		{"swivel", false, l, true},
	} {
		sys, w, box := pendulum(t, twistRope(gj, 0), m, a, l, 10, c.sheave, c.swivel)
		box.AngVel = geom.V(0, 0, spin)
		var trace []float64
		eLo, eHi, e1 := math.Inf(1), 0.0, 0.0
		for k := 0; k < int(60/h); k++ {
			if err := sys.Step(h); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			trace = append(trace, yaw(box))
			e := 0.5*iz*box.AngVel.Z*box.AngVel.Z + w.twistEnergy()
			if k < int(1/h) {
				e1 = max(e1, e) // the first second's
			} else {
				eLo, eHi = min(eLo, e), max(eHi, e)
			}
		}
		if c.swivel {
			t.Logf("%s: the box turns at %.5f rad/s after 60 s (started at %g); wire twist %.3g rad", c.name, box.AngVel.Z, spin, w.Twist())
			if math.Abs(box.AngVel.Z/spin-1) > 0.01 {
				t.Errorf("%s: the box turns at %.5f rad/s after 60 s, started at %g", c.name, box.AngVel.Z, spin)
			}
			continue
		}
		f, _, err := oscillation.Measure(trace, 0, h)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := 2 * math.Pi * math.Sqrt(iz*c.length/gj)
		first, last := w.EndTorques()
		t.Logf("%s: period %.4f s, 2π√(I L/GJ) = %.4f s (%+.2f %%); end torques %.3g, %.3g N·m; the box's turning and the wire's twist energy between %.5g and %.5g J",
			c.name, 1/f, want, 100*(1/f/want-1), first, last, eLo, eHi)
		if eHi > 1.01*e1 || eLo < 0.9*e1 {
			t.Errorf("%s: the torsion pendulum's energy between %.5g and %.5g J, %.5g J in the first second", c.name, eLo, eHi, e1)
		}
		if math.Abs(1/f/want-1) > 0.02 {
			t.Errorf("%s: period %.4f s, want %.4f s within 2 %%", c.name, 1/f, want)
		}
	}
}

// yawHoist sets the crane of spec hoisting with its block's yaw damped
// (a test's dynamic relaxation: c = 2√(K I) of the falls' restoring
// stiffness K = W s²/(4H)), and returns the block's yaw at rest.
func yawHoist(t *testing.T, spec HoistSpec) float64 {
	t.Helper()
	ho := newCrane(t, spec)
	_, iz := ho.Block.Inertia.X, ho.Block.Inertia.Z
	s := 2 * spec.Sheave.Radius
	k := spec.Hooked() * s * s / (4 * spec.Drop)
	c := 2 * math.Sqrt(k*iz)
	last := math.Inf(1)
	for step := 0; step < 40*60; step++ {
		_, rate := ho.Yaw()
		ho.Block.Torque = geom.V(0, 0, -c*rate)
		if err := ho.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		angle, _ := ho.Yaw()
		if step > 600 && math.Abs(angle-last) < 1e-7 {
			break
		}
		last = angle
	}
	angle, _ := ho.Yaw()
	return angle
}

// TestBlockYaw: the example crane on two falls 0.8 m apart (the sheaves'
// diameter), the rope twisting (GJ = 20 N·m², a six-strand rope's
// thirtieth of a solid bar's), its hook block turns under the ropes'
// torque k·d·T to closedform.BlockYaw's angle — the falls' restoring
// moment W s² sin φ/(4h) and their twist 2GJφ/H against k·d·W — within
// 5 % at drops H = 10, 20, 40 and 60 m, for a six-strand rope (k = 0.089,
// up to 42°) and a rotation-resistant one (k = 0.0076), which turns the
// block less by the ratio of the torque factors at small angles (H = 10
// m: within 2 %); with no torque factor the block does not turn. Above
// H = s²/(4kd) = 90 m no restoring moment of the falls holds the
// six-strand rope's torque: at 100 m the block turns past 90° (the falls
// cable; the wire passes through itself thereafter, having no contact
// with itself).
func TestBlockYaw(t *testing.T) {
	const gj = 20.0
	first := map[float64]float64{}
	for _, k := range []float64{material.TorqueFactorSixStrand, material.TorqueFactorRotationResistant, 0} {
		for i, drop := range []float64{10, 20, 40, 60} {
			spec := craneSpec(2, drop)
			spec.BoomTip = geom.V(0, 0, drop+10)
			spec.Ground = nil
			spec.Rope.TorsionalStiffness, spec.Rope.TorqueFactor = gj, k
			spec.Twist = true
			got := yawHoist(t, spec)
			want := closedform.BlockYaw(spec.Hooked(), 2*spec.Sheave.Radius, drop, k, spec.Rope.Diameter, gj)
			t.Logf("k = %g, H = %g m: the block turns %.3f° (closed form %.3f°)", k, drop, got*180/math.Pi, want*180/math.Pi)
			switch {
			case k == 0 && math.Abs(got) > 1e-6:
				t.Errorf("no torque factor: the block turns %.3g rad", got)
			case k != 0 && math.Abs(got/want-1) > 0.05:
				t.Errorf("k = %g, H = %g m: the block turns %.3f°, closed form %.3f°", k, drop, got*180/math.Pi, want*180/math.Pi)
			}
			if i == 0 {
				first[k] = got
			}
		}
	}
	ratio := first[material.TorqueFactorRotationResistant] / first[material.TorqueFactorSixStrand]
	want := material.TorqueFactorRotationResistant / material.TorqueFactorSixStrand
	t.Logf("H = 10 m: the rotation-resistant rope turns the block %.4f times the six-strand's (torque factors' ratio %.4f)", ratio, want)
	if math.Abs(ratio/want-1) > 0.02 {
		t.Errorf("H = 10 m: yaw ratio %.4f, the torque factors' %.4f", ratio, want)
	}
	spec := craneSpec(2, 100)
	spec.BoomTip, spec.Ground = geom.V(0, 0, 110), nil
	spec.Rope.TorsionalStiffness, spec.Rope.TorqueFactor, spec.Twist = gj, material.TorqueFactorSixStrand, true
	ho := newCrane(t, spec)
	most := 0.0
	for step := 0; step < 60*60 && most < math.Pi/2; step++ {
		if err := ho.Step(1.0 / 60); err != nil {
			t.Fatal(err)
		}
		a, _ := ho.Yaw()
		most = max(most, math.Abs(a))
	}
	crit := 4 * spec.Sheave.Radius * spec.Sheave.Radius / (4 * material.TorqueFactorSixStrand * spec.Rope.Diameter)
	t.Logf("H = 100 m, above s²/(4kd) = %.1f m: the block turned %.1f°", crit, most*180/math.Pi)
	if most < math.Pi/2 {
		t.Errorf("H = 100 m: the block turned at most %.1f°, want past 90° (the falls cable above %.1f m)", most*180/math.Pi, crit)
	}
}
