package hmrwire

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/multibody"
)

// Winch pays a wire out of its first end, or hauls it in, at a commanded
// rate: the velocity constraint Γ = L̇ − w = 0 on the rest length L of the
// wire's first segment, regularized by the slip ξ, ξρ = −Γ ([SL07] eqs.
// 9–10). As in the massless cable, eliminating L̇ folds the winch into
// the segment's length row: the row gains the prescribed rate w and the
// extra compliance ξ/h, and after the solve L̇ = w + ξT.
//
// The wire's end mass node stays at the winch point on its body (the
// drum's tangent point, a fairlead). Wire paid out enters the first
// segment with the mass ρ·ΔL, shared by the segment's two mass nodes as
// the segment's own mass is; wire hauled in leaves the same way, each
// share with its node's velocity, so the mass in the system stays ρ times
// the rest length. When the first segment grows beyond twice Spacing a
// mass node is put out at its middle (conserving, as a refinement), and
// when it shrinks below half of Spacing the first free mass node is
// taken in (a coarsening); with adaptive resolution the wire's stability
// criterion decides instead whether the new node can be put out.
type Winch struct {
	// Speed is the commanded pay-out rate w (m/s); positive lengthens.
	Speed float64
	// Slip is ξ (m/(N·s)): the extra pay-out speed per newton of tension.
	Slip float64
	// ForceLimit (N) is the most tension the winch holds: beyond it the
	// brake slips and pays out what keeps the tension at the limit. 0: no
	// limit.
	ForceLimit float64
	// Spacing (m) is the rest length of wire between the mass nodes the
	// winch puts out.
	Spacing float64
	// MinLength (m) is the shortest first segment the winch leaves out
	// when no mass node is left to take in (its limit switch).
	MinLength float64
	// Drum, if set, is the drum the wire is paid out from: its spin
	// sets the pay-out rate (L̇ = R ω, in the rows instead of a prescribed
	// rate), and Speed, Slip and ForceLimit are not used (the drum's
	// motor and brake take their place). The wire's first end must be
	// on the drum's axle body at a point of its rim.
	Drum *Drum

	// speed is the rate the last solve assumed, rate L̇ of the last step
	// (m/s).
	speed, rate float64
}

// validate rejects settings the winch cannot run with.
func (wi *Winch) validate() error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"speed", wi.Speed}, {"slip", wi.Slip}, {"force limit", wi.ForceLimit}, {"spacing", wi.Spacing}, {"minimum length", wi.MinLength}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return fmt.Errorf("winch %s %g: must be finite", v.name, v.x)
		}
	}
	if wi.Slip < 0 || wi.ForceLimit < 0 || wi.MinLength < 0 {
		return fmt.Errorf("winch slip %g m/(N·s), force limit %g N and minimum length %g m: must not be negative", wi.Slip, wi.ForceLimit, wi.MinLength)
	}
	if !(wi.Spacing > 0) {
		return fmt.Errorf("winch spacing %g m: must be positive", wi.Spacing)
	}
	if wi.Drum != nil && (wi.Slip != 0 || wi.ForceLimit != 0) {
		return fmt.Errorf("winch on drum %q: slip and force limit are the drum's motor and brake: give them there", wi.Drum.Name)
	}
	return nil
}

// Rate returns L̇, the pay-out rate of the last step including slip
// (m/s).
func (wi *Winch) Rate() float64 { return wi.rate }

// winchRows sets the winch's prescribed rate on the first segment's rows
// (called from its Update): the length row g = S − L gets w = L̇, and each
// stick row g_f = S₁ − (σ/L)S, whose σ grows with L (the wire paid out
// enters before the run), w_f = −∂g_f/∂t = S·L̇·(L − σ)/L².
func (s *segment) winchRows(h float64, rows []multibody.Row) {
	wi := s.wire.Winch
	L := s.rest()
	if d := wi.Drum; d != nil {
		// L̇ = R ω with ω = (ω_d − ω_a)·u: the rate the rows would have
		// been given becomes the drum's spin in their Jacobian.
		ru := d.axisWorld().Scale(d.Radius)
		spin := func(row *multibody.Row, c float64) {
			row.J[s.drumAt].Ang = row.J[s.drumAt].Ang.AddScaled(-c, ru)
			row.J[s.axleAt].Ang = row.J[s.axleAt].Ang.AddScaled(c, ru)
		}
		spin(&rows[0], 1)
		for f, r := range s.fric {
			spin(&rows[1+f], s.total*(L-s.nodes[r.first].sigma)/(L*L))
		}
		return
	}
	speed := wi.Speed
	// The limit switch: hauling in stops at the minimum length when no
	// mass node is left to take in.
	if speed < 0 && s.wire.lastFree() < 0 {
		if floor := (wi.MinLength - L) / h; speed < floor {
			speed = min(floor, 0)
		}
	}
	wi.speed = speed
	rows[0].Speed, rows[0].SpeedBefore, rows[0].Slip = speed, speed, wi.Slip
	if wi.ForceLimit > 0 {
		rows[0].Lo = -wi.ForceLimit * h
	}
	for f, r := range s.fric {
		sigma := s.nodes[r.first].sigma
		w := s.total * speed * (L - sigma) / (L * L)
		rows[1+f].Speed, rows[1+f].SpeedBefore = w, w
	}
}

// lastFree returns the index of the wire's first free mass node after its
// first end, −1 if there is none.
func (w *Wire) lastFree() int {
	for i := 1; i < len(w.nodes)-1; i++ {
		if w.nodes[i].kind == MassNode {
			return i
		}
	}
	return -1
}

// reel moves the first segment's rest length by the winch's rate of the
// last solve and the mass of wire with it (after the step), then puts
// out or takes in mass nodes (before the next).
func (w *Wire) reel(h float64) error {
	wi := w.Winch
	seg := w.segs[0]
	wi.rate = wi.speed + wi.Slip*seg.Tension(h)
	if wi.Drum != nil {
		wi.rate = wi.Drum.Radius * wi.Drum.Omega()
	}
	a := w.nodes[0]
	before := a.rest
	a.rest += h * wi.rate
	// At its force limit the brake slipped: it paid out the wire that
	// leaves the segment stretched by F, L = EA·S/(EA + F).
	if f := wi.ForceLimit; f > 0 && wi.Drum == nil && seg.Tension(h) >= f*(1-1e-9) {
		seg.measure()
		if slipped := w.ea * seg.total / (w.ea + f); slipped > a.rest {
			a.rest = slipped
		}
	}
	dL := a.rest - before
	wi.rate = dL / h
	// The wire paid out enters between node 0 and the run's material
	// points.
	for _, n := range seg.nodes[1 : len(seg.nodes)-1] {
		if n.kind == ContactNode {
			n.sigma += dL
		}
	}
	c := seg.nodes[len(seg.nodes)-1]
	dm := w.mu * dL / 2
	a.body.Mass += dm
	c.body.Mass += dm
	if d := wi.Drum; d != nil {
		if d.spool {
			// The turns the wound wire lost, each on its own layer's
			// radius: a step that crosses a layer turns the drum on both
			// (on the step's layer alone, the angle drifted by 0.015 rad
			// over five layer changes out and back).
			wrap := d.wrapAngle()
			d.paid += dL
			d.turned += wrap - d.wrapAngle()
		} else {
			d.paid += dL
			d.turned += dL / d.Radius
		}
		if d.Wound() < 0 {
			// The wire's end is anchored on the drum: paying out more
			// than is wound would make wire from nothing.
			return fmt.Errorf("drum %q ran out of wire: %.4g m paid out of the %.4g m wound on it (give the drum more wire, or stop paying out before it is empty)", d.Name, d.paid, d.wound0)
		}
		d.setInertia(d.Wound())
	}
	return nil
}

// winchNodes puts out a mass node when the first segment is longer than
// twice the winch's spacing (without adaptive resolution: with it, the
// refinement decides) and takes one in when it is shorter than half of
// it.
func (w *Wire) winchNodes(h float64) {
	wi := w.Winch
	if L := w.nodes[0].rest; L < wi.Spacing/2 {
		if i := w.lastFree(); i > 0 {
			w.merge(i)
		}
		return
	}
	if w.Resolution.Adaptive || w.nodes[0].rest <= 2*wi.Spacing {
		return
	}
	if mass, _, _ := w.Counts(); mass < w.Resolution.MaxMassNodes {
		w.splitAt(0)
	}
}
