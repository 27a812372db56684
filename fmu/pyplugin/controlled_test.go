package pyplugin_test

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

const exampleDir = "../../examples/massless-controlled"

// The example's controller lifts the load 5 m along its profile within
// 3 cm and keeps the tension under its 12 kN limit.
func TestControllerFollowsProfileUnderLimit(t *testing.T) {
	cfg, err := configureDir(t, exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	z0 := r.get(t, "load.z")
	limit := r.get(t, "controller.tension_limit")
	var worstErr, maxT float64
	for r.t < 20 {
		if err := r.step(); err != nil {
			t.Fatalf("t = %g s: %v", r.t, err)
		}
		worstErr = math.Max(worstErr, math.Abs(r.get(t, "controller.error")))
		maxT = math.Max(maxT, r.get(t, "cable.tension"))
	}
	lifted := r.get(t, "load.z") - z0
	t.Logf("lifted %.4f m, worst tracking error %.4f m, max tension %.0f N (limit %.0f N)", lifted, worstErr, maxT, limit)
	if worstErr > 0.03 {
		t.Errorf("tracking error %.4f m, want within 3 cm", worstErr)
	}
	if maxT >= limit {
		t.Errorf("tension reached %.0f N, limit %.0f N", maxT, limit)
	}
	if math.Abs(lifted-5) > 0.01 {
		t.Errorf("lifted %.4f m, want 5 m within 1 cm", lifted)
	}
}

// With a load of 1100 kg, lifting at the profile's acceleration would need
// 11.7 kN plus the rope's bounce (the unprotected lift peaks above 12 kN,
// twice M a over the mean at each step of the acceleration): the controller
// watches the filtered tension and holds the hoisting
// back, the tension stays under 12 kN, and the lift completes late.
func TestControllerHoldsHeavyLoadUnderLimit(t *testing.T) {
	cfg, err := configureDir(t, exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, map[string]float64{"load.mass": 1100, "controller.acceleration": 0.8})
	z0 := r.get(t, "load.z")
	limit := r.get(t, "controller.tension_limit")
	var maxT, held float64
	for r.t < 20 {
		if err := r.step(); err != nil {
			t.Fatalf("t = %g s: %v", r.t, err)
		}
		maxT = math.Max(maxT, r.get(t, "cable.tension"))
		held += r.h * r.get(t, "controller.overload")
	}
	lifted := r.get(t, "load.z") - z0
	t.Logf("max tension %.0f N (limit %.0f N), held back %.2f s, lifted %.4f m", maxT, limit, held, lifted)
	if maxT >= limit {
		t.Errorf("tension reached %.0f N, limit %.0f N", maxT, limit)
	}
	if held == 0 {
		t.Errorf("the tension limit never acted: the test does not test it")
	}
	// The same lift without the protection overshoots the limit.
	free := start(t, cfg, map[string]float64{"load.mass": 1100, "controller.acceleration": 0.8, "controller.tension_limit": 1e7})
	var freeT float64
	for free.t < 20 {
		if err := free.step(); err != nil {
			t.Fatalf("t = %g s: %v", free.t, err)
		}
		freeT = math.Max(freeT, free.get(t, "cable.tension"))
	}
	t.Logf("without the protection: max tension %.0f N", freeT)
	if freeT <= limit {
		t.Errorf("the unprotected lift stays under %.0f N too (%.0f N): the test does not test the protection", limit, freeT)
	}
	if math.Abs(lifted-5) > 0.01 {
		t.Errorf("lifted %.4f m by t = 20 s, want 5 m within 1 cm", lifted)
	}
}

// Instances run on different goroutines at once and give the results of
// running alone (run with -race to check for shared state).
func TestConcurrentInstancesMatchSoloRuns(t *testing.T) {
	cfg, err := configureDir(t, exampleDir)
	if err != nil {
		t.Fatal(err)
	}
	trace := func(lift float64) []float64 {
		r := start(t, cfg, map[string]float64{"controller.lift": lift})
		var out []float64
		for i := 0; i < 300; i++ {
			r.values[r.vr(t, "wind.speed")] = float64(i%50) * 0.2
			if err := r.step(); err != nil {
				t.Error(err)
				return nil
			}
			out = append(out, r.values...)
		}
		return out
	}
	lifts := []float64{2, 3, 4, 5}
	solo := make([][]float64, len(lifts))
	for i, l := range lifts {
		solo[i] = trace(l)
	}
	got := make([][]float64, len(lifts))
	var wg sync.WaitGroup
	for i, l := range lifts {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = trace(l) }()
	}
	wg.Wait()
	for i := range lifts {
		if len(got[i]) != len(solo[i]) {
			t.Fatalf("instance %d: %d values concurrently, %d alone", i, len(got[i]), len(solo[i]))
		}
		for k := range solo[i] {
			if math.Float64bits(solo[i][k]) != math.Float64bits(got[i][k]) {
				t.Fatalf("instance %d value %d: %v concurrently, %v alone", i, k, got[i][k], solo[i][k])
			}
		}
	}
}

// The example's controller and wind plugins run unchanged on every model
// of the hoist family (the rigid-body, mass–spring and spline cables), the
// crane described once in the family's config: the load lifted 5 m within
// 1 cm along the profile within 3 cm, the tension under the limit, and
// the wind's drag 0.5 ρ c_d A v² on the load (within 1e-9 relative of the
// plugin's output, from the load's velocity the model reports), pushing it
// downwind.
func TestControllerOnEveryHoistModel(t *testing.T) {
	plugins := map[string]string{}
	for _, f := range []string{"controller.py", "wind.py"} {
		src, err := os.ReadFile(filepath.Join(exampleDir, f))
		if err != nil {
			t.Fatal(err)
		}
		plugins[f] = string(src)
	}
	for _, m := range []struct{ model, load, own string }{
		{"rigid-cable", `{"mass": 1000, "size": [1, 1, 1]}`, ""},
		{"mass-spring", `{"mass": 1000}`, ""},
		{"spline", `{"mass": 1000}`, ""},
	} {
		t.Run(m.model, func(t *testing.T) {
			files := map[string]string{"scenario.json": `{"model": "` + m.model + `", "modelIdentifier": "Controlled", "stopTime": 20, "step": 0.016666666666666666,
  "ports": ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "cable.tension", "cable.length",
    "load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz"],
  "config": {"gravity": 9.81, "suspension": {"position": [0, 0, 20]}, "load": ` + m.load + `,
    "cable": {"length0": 10, "segments": 20, "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850}}` + m.own + `},
  "plugins": [{"name": "controller", "file": "controller.py", "operations": 100000}, {"name": "wind", "file": "wind.py", "operations": 100000}]}`}
			for f, src := range plugins {
				files[f] = src
			}
			cfg, err := configureDir(t, writeScenario(t, files))
			if err != nil {
				t.Fatal(err)
			}
			r := start(t, cfg, nil)
			z0 := r.get(t, "load.z")
			limit := r.get(t, "controller.tension_limit")
			r.values[r.vr(t, "wind.speed")] = 10
			var worstErr, maxT, worstDrag, driftX float64
			for r.t < 20 {
				// The plugin pushes with the drag at the load's velocity at
				// the start of the step: the last outputs'.
				rel := 10 - r.get(t, "load.vx")
				drag := 0.5 * 1.225 * 1.2 * 2 * rel * math.Abs(rel)
				if err := r.step(); err != nil {
					t.Fatalf("t = %g s: %v", r.t, err)
				}
				worstErr = math.Max(worstErr, math.Abs(r.get(t, "controller.error")))
				maxT = math.Max(maxT, r.get(t, "cable.tension"))
				driftX = math.Max(driftX, r.get(t, "load.x"))
				worstDrag = math.Max(worstDrag, math.Abs(r.get(t, "wind.force")/drag-1))
			}
			lifted := r.get(t, "load.z") - z0
			t.Logf("%s: lifted %.4f m, worst tracking error %.4f m, max tension %.0f N (limit %.0f N), load downwind by up to %.3f m",
				m.model, lifted, worstErr, maxT, limit, driftX)
			if worstErr > 0.03 {
				t.Errorf("tracking error %.4f m, want within 3 cm", worstErr)
			}
			if maxT >= limit {
				t.Errorf("tension reached %.0f N, limit %.0f N", maxT, limit)
			}
			if math.Abs(lifted-5) > 0.01 {
				t.Errorf("lifted %.4f m, want 5 m within 1 cm", lifted)
			}
			if worstDrag > 1e-9 {
				t.Errorf("wind force off the drag at the load's velocity by %g relative", worstDrag)
			}
			// 147 N of drag on 9.81 kN of weight tilts the rope by 0.86°:
			// 0.15 m at 10 m; the load swings about it.
			if driftX < 0.1 {
				t.Errorf("load downwind by at most %.3f m, want the wind to push it (0.15 m at rest)", driftX)
			}
		})
	}
}

// withPlugins returns the example scenario in dir with plugins added
// (name → source), written to a temporary folder.
func withPlugins(t *testing.T, dir string, plugins map[string]string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	sc := strings.TrimSpace(string(raw))
	var refs []string
	files := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(plugins)) {
		refs = append(refs, fmt.Sprintf(`{"name": %q, "file": "%s.py"}`, name, name))
		files[name+".py"] = plugins[name]
	}
	files["scenario.json"] = strings.TrimSuffix(sc, "}") + `, "plugins": [` + strings.Join(refs, ", ") + "]}"
	return writeScenario(t, files)
}

// Plugins act on the wire models too: on WireHoist a plugin commands the
// drum (hauling in 0.2 m/s from 1 s: the paid-out wire 1 m shorter 5 s
// later, within 2 %) while the wind plugin pushes the hook block with the
// drag of 10 m/s of wind (within 1 % of 0.5 ρ c_d A v²: the block hardly
// moves); on WireBeam a plugin pushes body m1 along x (50 N for 0.5 s
// moves it by more than 2 cm against the run without).
func TestPluginsOnWireModels(t *testing.T) {
	wind, err := os.ReadFile(filepath.Join(exampleDir, "wind.py"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("wire-hoist", func(t *testing.T) {
		cfg, err := configureDir(t, withPlugins(t, "../../examples/wire-hoist", map[string]string{
			"wind": string(wind),
			"haul": "def step(sim):\n    if sim.time >= 1.0:\n        sim.winch(\"winch\").speed = -0.2\n",
		}))
		if err != nil {
			t.Fatal(err)
		}
		r := start(t, cfg, nil)
		r.values[r.vr(t, "wind.speed")] = 10
		var at1 float64
		for r.t < 6-1e-9 {
			if err := r.step(); err != nil {
				t.Fatalf("t = %g s: %v", r.t, err)
			}
			if math.Abs(r.t-1) < 1e-9 {
				at1 = r.get(t, "cable.length")
			}
		}
		hauled := at1 - r.get(t, "cable.length")
		drag := 0.5 * 1.225 * 1.2 * 2 * 100
		t.Logf("hauled %.4f m in 5 s; wind force %.2f N (drag at rest %.2f N)", hauled, r.get(t, "wind.force"), drag)
		if math.Abs(hauled-1) > 0.02 {
			t.Errorf("hauled %.4f m, want 1 m within 2 %%", hauled)
		}
		if f := r.get(t, "wind.force"); math.Abs(f/drag-1) > 0.01 {
			t.Errorf("wind force %.2f N, want %.2f N within 1 %%", f, drag)
		}
	})
	t.Run("hmr-wire", func(t *testing.T) {
		x := map[bool]float64{}
		for _, push := range []bool{false, true} {
			plugins := map[string]string{"idle": "def step(sim):\n    pass\n"}
			if push {
				plugins = map[string]string{"push": "def step(sim):\n    if sim.time < 0.5:\n        sim.body(\"m1\").apply_force(50.0, 0.0, 0.0)\n"}
			}
			cfg, err := configureDir(t, withPlugins(t, "../../examples/hmr-wire", plugins))
			if err != nil {
				t.Fatal(err)
			}
			r := start(t, cfg, nil)
			for r.t < 1-1e-9 {
				if err := r.step(); err != nil {
					t.Fatalf("t = %g s: %v", r.t, err)
				}
			}
			x[push] = r.get(t, "m1.x")
		}
		t.Logf("m1.x after 1 s: %.4f m pushed, %.4f m not", x[true], x[false])
		if x[true]-x[false] < 0.02 {
			t.Errorf("m1 pushed by 50 N for 0.5 s moved %.4f m more along x, want over 2 cm", x[true]-x[false])
		}
	})
}
