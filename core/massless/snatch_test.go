package massless

import (
	"fmt"
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// TestSlackSnatch: a 1000 kg load hanging on 10 m of the 20 mm rope
// (undamped), the winch set paying out at 0.5 m/s: the rope's stretch
// runs out, the load falls free, overtakes the rope and snatches it
// taut. The first snatch's peak is that of the spring k = EA/L met at the
// speed the load left it with, v cos ωt₁ (sin ωt₁ = δω/v, δ = m g/k the
// static stretch: gravity is uniform, so the load comes back at the speed
// it left): m g + √((m g)² + k m v²), within 2 % at h = 1 ms, 10 ms and
// 1/60 s (measured −0.3 %, −0.5 %, +0.7 %).
func TestSlackSnatch(t *testing.T) {
	const m, g, L, v = 1000.0, 9.81, 10.0, 0.5
	for _, h := range []float64{1e-3, 0.01, 1.0 / 60} {
		t.Run(fmt.Sprintf("h=%.4g", h), func(t *testing.T) {
			w := multibody.NewWorld(geom.V(0, 0, -g))
			top := w.AddBody(multibody.NewStatic("top", geom.V(0, 0, 20)))
			load := w.AddBody(multibody.NewBody("load", m, multibody.BoxInertia(m, 1, 1, 1), geom.V(0, 0, 20-L)))
			r := material.DefaultSteelRope()
			r.DampingTime = 0
			k := r.AxialStiffness() / L
			st, err := NewStretch([]Node{{Body: top}, {Body: load}}, L-m*g/k, r)
			if err != nil {
				t.Fatal(err)
			}
			st.Slack, st.Winch = true, &Winch{Speed: v}
			w.AddConstraint(st)
			wasSlack, vTaut, peak := false, 0.0, 0.0
			for k := 0; k < int(1/h); k++ {
				vBefore := load.Vel.Z
				if err := w.Step(h); err != nil {
					t.Fatal(err)
				}
				switch {
				case st.Tension() == 0:
					wasSlack = true
				case wasSlack && vTaut == 0:
					vTaut = -vBefore - v // the load's speed against the rope's end
				}
				if vTaut != 0 {
					if st.Tension() < peak && st.Tension() < m*g {
						break // the first snatch is over
					}
					peak = max(peak, st.Tension())
				}
			}
			if vTaut == 0 {
				t.Fatal("the rope never went slack and taut again: the test shows nothing")
			}
			// The load leaves the rope where the rope's rate of stretch
			// −v cos ωt reaches the static stretch δ = m g/k, and falls
			// back onto it at the speed it left with (gravity is uniform):
			// v cos ωt₁ with sin ωt₁ = δω/v.
			omega, delta := math.Sqrt(k/m), m*g/k
			vi := v * math.Sqrt(1-math.Pow(delta*omega/v, 2))
			want := m*g + math.Sqrt(m*g*m*g+k*m*vi*vi)
			t.Logf("taut again at %.3f m/s (closed form %.3f): peak %.0f N, m g + √((m g)² + k m v²) = %.0f N (%+.1f %%)", vTaut, vi, peak, want, 100*(peak/want-1))
			if math.Abs(peak/want-1) > 0.02 {
				t.Errorf("snatch peak %.0f N, want %.0f N within 2 %%", peak, want)
			}
		})
	}
}

// A 20 kg load on 10 m of the 20 mm rope, the winch paying out at 2 m/s
// for 1 s and stopping dead: the load falls after the slack rope and
// snaps it taut at ωh = 6.6 (k = EA/L, 1/60 s), which the step does not
// resolve. The rope's row, which only pulls, releases the load after
// each snap (multibody.Row.Releases): it never moves faster than in its
// first 4 s (3.9 m/s), and rests from 4 s on. Without it, snaps threw it
// back faster than it fell (8.0 m/s at 4.8 s; in the Hoist FMU 20 m/s
// within 12 s, up to the sheave, at tensions 180 times its weight).
func TestLightLoadSnapsComeToRest(t *testing.T) {
	const m, g, L, h = 20.0, 9.81, 10.0, 1.0 / 60
	w := multibody.NewWorld(geom.V(0, 0, -g))
	top := w.AddBody(multibody.NewStatic("top", geom.V(0, 0, 20)))
	load := w.AddBody(multibody.NewBody("load", m, multibody.BoxInertia(m, 0.2, 0.2, 0.2), geom.V(0, 0, 20-L)))
	r := material.DefaultSteelRope()
	k := r.AxialStiffness() / L
	st, err := NewStretch([]Node{{Body: top}, {Body: load}}, L-m*g/k, r)
	if err != nil {
		t.Fatal(err)
	}
	winch := &Winch{}
	st.Slack, st.Winch = true, winch
	w.AddConstraint(st)
	fell, rest := 0.0, 0.0 // the top speeds before the winch stops and from 4 s on
	for i := 0; i < int(12/h); i++ {
		tm := float64(i) * h
		winch.Speed = 0
		if tm < 1 {
			winch.Speed = 2
		}
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		v := load.Vel.Norm()
		switch {
		case tm < 4:
			fell = max(fell, v)
		default:
			rest = max(rest, v)
		}
		if tm >= 1.2 && v > 1.05*fell {
			t.Fatalf("t = %.2f s: the load moves at %.3g m/s, faster than it ever fell (%.3g m/s)", tm, v, fell)
		}
	}
	t.Logf("ωh = %.2f: top speed %.3g m/s in the first 4 s, %.3g m/s from 4 s on", h*math.Sqrt(k/m), fell, rest)
	if rest > 1e-3 {
		t.Errorf("the load still moves at %.3g m/s from 4 s on, want at rest (below 1 mm/s)", rest)
	}
}
