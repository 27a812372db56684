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
