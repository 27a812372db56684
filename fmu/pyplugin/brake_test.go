package pyplugin_test

import (
	"math"
	"strings"
	"testing"
)

// A plugin sets the winch's force limit to 100 kN under a 12.33 t load
// (121 kN of weight with the rope): the brake slips from the first step
// and holds the tension at the suspension point at the limit (within
// 1e-6 from 0.5 s on), and the load falls at a = g − F/(M + m_rope): its
// speed after 2 s within 1.5 % of 2a on every model of the hoist family
// and on the massless cable (whose winch slips in its constraint rows),
// at the default step and at 2 ms. Where the brake cannot slip (the
// rigid-body cable, the mass–spring cable's stiffnesses per mass), the
// first step above the limit stops the simulation with the reason.
func TestBrakeHoldsForceLimit(t *testing.T) {
	const (
		limit, mass, g = 100000.0, 12330.0, 9.81
		ropeMass       = 7850 * math.Pi * 0.01 * 0.01 * 10
	)
	code := "def init(sim):\n    sim.winch('winch').force_limit = 100000.0\n\ndef step(sim):\n    pass\n"
	for _, step := range []string{"0.016666666666666666", "0.002"} {
		for _, m := range []struct {
			model, load, own string
			rope             bool   // the rope's mass falls with the load
			trip             string // what a trip names, where the brake cannot slip
		}{
			{"mass-spring", `{"mass": 12330}`, "", true, ""},
			{"spline", `{"mass": 12330}`, "", true, ""},
			{"massless", `{"mass": 12330, "size": [1, 1, 1]}`, "", false, ""},
			{"rigid-cable", `{"mass": 12330, "size": [1, 1, 1]}`, "", true, "rigid-body cable"},
			{"mass-spring", `{"mass": 12330}`, `, "massSpring": {"perMass": {"kL": 1e5, "kD": 0, "kB": 0}}`, true, "perMass"},
		} {
			name := m.model + " h = " + step
			if m.own != "" {
				name += " perMass"
			}
			files := map[string]string{"p.py": code, "scenario.json": `{"model": "` + m.model + `", "modelIdentifier": "R", "stopTime": 20, "step": ` + step + `,
  "ports": ["cable.tension", "cable.length", "load.z", "load.vz"],
  "config": {"gravity": 9.81, "suspension": {"position": [0, 0, 30]}, "load": ` + m.load + `,
    "cable": {"length0": 10, "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850}}` + m.own + `},
  "plugins": [{"name": "p", "file": "p.py", "operations": 100000}]}`}
			cfg, err := configureDir(t, writeScenario(t, files))
			if err != nil {
				t.Fatal(err)
			}
			r, err := startErr(t, cfg)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if m.trip != "" {
				err := r.step()
				if err == nil || !strings.Contains(err.Error(), "cannot slip") || !strings.Contains(err.Error(), m.trip) {
					t.Errorf("%s: first step above the limit: %v, want a trip naming %s", name, err, m.trip)
				}
				continue
			}
			worst := 0.0
			for r.t < 2-1e-9 {
				if err := r.step(); err != nil {
					t.Fatalf("%s: t = %g s: %v", name, r.t, err)
				}
				if r.t > 0.5 {
					worst = math.Max(worst, math.Abs(r.get(t, "cable.tension")/limit-1))
				}
			}
			falling := mass
			if m.rope {
				falling += ropeMass
			}
			want := 2 * (g - limit/falling)
			v := -r.get(t, "load.vz")
			t.Logf("%s: tension within %.1e of the limit, load falling at %.4f m/s after 2 s (closed form %.4f, %+.2f %%), %.3f m paid out",
				name, worst, v, want, 100*(v/want-1), r.get(t, "cable.length")-10)
			if worst > 1e-6 {
				t.Errorf("%s: tension %.1e off the force limit", name, worst)
			}
			if math.Abs(v/want-1) > 0.015 {
				t.Errorf("%s: load falling at %.4f m/s after 2 s, want %.4f within 1.5 %%", name, v, want)
			}
		}
	}
}
