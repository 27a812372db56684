package multibody

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/stability"
)

// pull is a Turning constraint without rows: a tension T pulling both ends
// of a rod of length l along its axis x, whose geometric stiffness against
// turning is T l across the axis.
type pull struct {
	body    *Body
	tension float64
	length  float64
}

func (p *pull) Bodies() []*Body          { return []*Body{p.body} }
func (p *pull) Rows() int                { return 0 }
func (p *pull) Update(float64, []Row)    {}
func (p *pull) Apply(float64, []float64) {}
func (p *pull) TurnStiffness() {
	// Both ends pulled outwards along the body's x axis.
	for _, s := range []float64{1, -1} {
		end := geom.V(s*p.length/2, 0, 0) // at rest: body and world frame alike
		p.body.AddPull(end, end, geom.V(s*p.tension, 0, 0))
	}
}
func (p *pull) turnOmega2(inertia float64) float64 { return p.tension * p.length / inertia }

// A rod of 1.23 kg and 0.5 m (transverse inertia 0.0256 kg·m²) given a
// torque of 1 N·m across its axis for one step of 1/60 s: under a tension
// the step resolves (60 N: ωh = 0.57 across the axis) it turns as
// its inertia says, h τ/I; under one it does not (1.2 kN, ωh = 2.6) it turns as
// the inertia I + s h² K with s = stability.TurnShare, which brings its
// fastest turning to ωh = TurnLimit; along its axis, where the tension
// adds no stiffness, it turns as its inertia says. World.Turned counts it;
// ExplicitTurning leaves it as SPOOK has it.
func TestTurnStiffnessTakenInWhereUnresolved(t *testing.T) {
	const m, l, h, tau = 1.23, 0.5, 1.0 / 60, 1.0
	it, ia := m*l*l/12, m*0.01*0.01/2
	for _, c := range []struct {
		tension  float64
		explicit bool
	}{{60, false}, {1200, false}, {1200, true}} {
		w := NewWorld(geom.Vec3{})
		b := w.AddBody(NewBody("rod", m, geom.V(ia, it, it), geom.Vec3{}))
		p := &pull{body: b, tension: c.tension, length: l}
		w.AddConstraint(p)
		w.ExplicitTurning = c.explicit
		b.Torque = geom.V(tau, tau, 0)
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		share := 0.0
		if !c.explicit {
			share = stability.TurnShare(p.turnOmega2(it), h)
		}
		want := h * tau / (it + share*h*h*c.tension*l)
		if got := b.AngVel.Y; math.Abs(got/want-1) > 1e-12 {
			t.Errorf("T = %g N, explicit %v: ω across %g rad/s, want h τ/(I + s h² K) = %g (s = %.3f)", c.tension, c.explicit, got, want, share)
		}
		if got, want := b.AngVel.X, h*tau/ia; math.Abs(got/want-1) > 1e-12 {
			t.Errorf("T = %g N: ω along the axis %g rad/s, want h τ/I = %g", c.tension, got, want)
		}
		turned := 0
		if share > 0 {
			turned = 1
		}
		if w.Turned() != turned {
			t.Errorf("T = %g N, explicit %v: Turned() = %d, want %d", c.tension, c.explicit, w.Turned(), turned)
		}
		if share > 0 {
			// The fastest turning, across the axis, now at the limit.
			if wh := h * math.Sqrt(c.tension*l/(it+share*h*h*c.tension*l)); wh > stability.TurnLimit+1e-12 {
				t.Errorf("T = %g N: turning at ωh = %.3f after taking K in, want at most %g", c.tension, wh, stability.TurnLimit)
			}
		}
	}
}

// The share grows continuously from 0 where the step starts to miss the
// turning, and tends to 1/TurnLimit² for the stiffest.
func TestTurnShareContinuous(t *testing.T) {
	const h = 1.0 / 60
	edge := stability.TurnLimit * stability.TurnLimit / (h * h)
	if s := stability.TurnShare(edge*(1-1e-9), h); s != 0 {
		t.Errorf("share just below the limit %g, want 0", s)
	}
	if s := stability.TurnShare(edge*(1+1e-9), h); s > 1e-8 {
		t.Errorf("share just above the limit %g, want about 0", s)
	}
	if s, want := stability.TurnShare(edge*1e9, h), 1/(stability.TurnLimit*stability.TurnLimit); math.Abs(s-want) > 1e-8 {
		t.Errorf("share of a very stiff turning %g, want 1/TurnLimit² = %g", s, want)
	}
}

// The diagonal form of takeTurnStiffness (pulls on a body axis, a rope
// segment's) gives the full form's inverse inertia to rounding, turned by
// any orientation, where the step resolves the turning and where not.
func TestDiagonalTurnStiffnessAsFull(t *testing.T) {
	const m, l, h = 1.23, 0.5, 1.0 / 60
	rot := geom.Quat{W: 0.8, X: 0.1, Y: -0.5, Z: 0.3}.Normalize()
	for _, tension := range []float64{60, 1200, 1e6} {
		var inv [2]geom.Mat3
		var turning [2]bool
		for i, full := range []bool{false, true} {
			b := NewBody("rod", m, geom.V(m*1e-4/2, m*l*l/12, m*l*l/14), geom.Vec3{})
			b.Rot = rot
			b.refreshFrame()
			(&pull{body: b, tension: tension, length: l}).TurnStiffness()
			if k := b.turnK; k[0][1] != 0 || k[0][2] != 0 || k[1][2] != 0 {
				t.Fatalf("pulls on the x axis give K = %v, not diagonal", k)
			}
			b.refreshInverseInertia()
			if full {
				b.takeFullTurnStiffness(h)
			} else {
				b.takeTurnStiffness(h)
			}
			inv[i], turning[i] = b.invI, b.turning
		}
		if turning[0] != turning[1] {
			t.Errorf("T = %g N: diagonal form turning %v, full form %v", tension, turning[0], turning[1])
		}
		scale := math.Abs(inv[1][0][0]) + math.Abs(inv[1][1][1]) + math.Abs(inv[1][2][2])
		for r := range 3 {
			for c := range 3 {
				if d := math.Abs(inv[0][r][c] - inv[1][r][c]); d > 1e-14*scale {
					t.Errorf("T = %g N: I⁻¹[%d][%d] = %g in the diagonal form, %g in the full one", tension, r, c, inv[0][r][c], inv[1][r][c])
				}
			}
		}
	}
}

// limpRow is one row of infinite compliance (no stiffness of its own, a
// perfectly flexible rope's bend) holding the relative turning of two
// bodies about y, carrying the geometric stiffness g, in Gap form or not.
type limpRow struct {
	a, b *Body
	g    float64
	gap  bool
}

func (c *limpRow) Bodies() []*Body          { return []*Body{c.a, c.b} }
func (c *limpRow) Rows() int                { return 1 }
func (c *limpRow) Apply(float64, []float64) {}
func (c *limpRow) Update(h float64, rows []Row) {
	r := &rows[0]
	r.J[0].Ang, r.J[1].Ang = geom.V(0, -1, 0), geom.V(0, 1, 0)
	r.SetHolonomic(0.3, math.Inf(1), 1e-3, c.g, 0.2, 0.1)
	r.Gap = c.gap
	if c.gap {
		r.Hi = 0
	}
}

// A row of infinite compliance between two bodies whose turning the step
// takes in is the turn damping's damper alone, in either form (SPOOK's or
// a gap's): Σ = 1/(h b), b = stability.TurnDamper(h, g), and the
// right-hand side the prescribed rate's less the predicted relative
// turning, the limits of both forms as the compliance grows, where they
// themselves give NaN. Between bodies the step resolves, it carries
// nothing: Σ = +∞.
func TestInfiniteComplianceRowIsTheTurnDamper(t *testing.T) {
	const m, l, h, g = 1.23, 0.5, 1.0 / 60, 600.0
	it, ia := m*l*l/12, m*0.01*0.01/2
	for _, c := range []struct {
		tension float64
		gap     bool
	}{{1200, false}, {1200, true}, {60, false}, {60, true}} {
		w := NewWorld(geom.Vec3{})
		a := w.AddBody(NewBody("a", m, geom.V(ia, it, it), geom.Vec3{}))
		b := w.AddBody(NewBody("b", m, geom.V(ia, it, it), geom.V(l, 0, 0)))
		a.AngVel, b.AngVel = geom.V(0, 0.5, 0), geom.V(0, -0.25, 0)
		for _, body := range []*Body{a, b} {
			w.AddConstraint(&pull{body: body, tension: c.tension, length: l})
		}
		w.AddConstraint(&limpRow{a: a, b: b, g: g, gap: c.gap})
		p, err := w.Assemble(h)
		if err != nil {
			t.Fatal(err)
		}
		sigma, rhs := p.Sigma[0], p.B[0]
		if w.Turned() == 0 {
			if !math.IsInf(sigma, 1) || math.IsNaN(rhs) {
				t.Errorf("T = %g N, turning resolved: Σ = %g, B = %g; want +Inf and a number", c.tension, sigma, rhs)
			}
			continue
		}
		// Speed 0.2 rad/s less the predicted relative turning about y.
		wantSigma, wantB := 1/(h*stability.TurnDamper(h, g)), 0.2-(b.predAng.Y-a.predAng.Y)
		if math.Abs(sigma/wantSigma-1) > 1e-15 || math.Abs(rhs-wantB) > 1e-15 {
			t.Errorf("T = %g N, gap %v: Σ = %g, B = %g; want the damper's 1/(h b) = %g and %g", c.tension, c.gap, sigma, rhs, wantSigma, wantB)
		}
		if err := w.Step(h); err != nil {
			t.Errorf("T = %g N, gap %v: %v", c.tension, c.gap, err)
		}
	}
}
