package pyplugin_test

import (
	"math"
	"testing"
)

// A force applied at a communication point acts in the next internal
// step; a state saved at that point must carry it.
func TestPointForceSurvivesState(t *testing.T) {
	code := "import math\ndef communication_point(sim):\n    sim.body('load').apply_force(2000.0 + 1500.0 * math.sin(3.0 * sim.time), 0.0, 0.0)\n"
	for _, m := range []struct{ model, load string }{
		{"rigid-cable", `{"mass": 1000, "size": [1, 1, 1]}`},
		{"mass-spring", `{"mass": 1000}`},
		{"spline", `{"mass": 1000}`},
	} {
		t.Run(m.model, func(t *testing.T) {
			files := map[string]string{"p.py": code, "scenario.json": `{"model": "` + m.model + `", "modelIdentifier": "R", "stopTime": 20, "step": 0.01,
  "ports": ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "cable.tension", "cable.length",
    "load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz"],
  "config": {"gravity": 9.81, "suspension": {"position": [0, 0, 20]}, "load": ` + m.load + `,
    "cable": {"length0": 10, "segments": 10, "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850}}},
  "plugins": [{"name": "p", "file": "p.py", "operations": 100000}]}`}
			cfg, err := configureDir(t, writeScenario(t, files))
			if err != nil {
				t.Fatal(err)
			}
			r := start(t, cfg, nil)
			for i := 0; i < 30; i++ {
				if err := r.step(); err != nil {
					t.Fatal(err)
				}
			}
			saved := r.save(t)
			trace := func(r *run) []float64 {
				var out []float64
				for i := 0; i < 30; i++ {
					if err := r.step(); err != nil {
						t.Fatal(err)
					}
					out = append(out, r.values...)
				}
				return out
			}
			first := trace(r)
			// Same instance rolled back (its LoadForce now holds a later point's force).
			if err := r.sim.LoadState(saved.nums); err != nil {
				t.Fatal(err)
			}
			r.t = saved.t
			copy(r.values, saved.values)
			second := trace(r)
			third := trace(restored(t, cfg, saved))
			for name, got := range map[string][]float64{"rollback": second, "fresh": third} {
				for i := range first {
					if math.Float64bits(first[i]) != math.Float64bits(got[i]) {
						t.Errorf("%s: value %d differs: %v vs %v", name, i, first[i], got[i])
						break
					}
				}
			}
		})
	}
}
