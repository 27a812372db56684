package exporter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// controlledScenario is a massless scenario with two plugins in the form
// of examples/massless-controlled; the test below counts its lines and
// columns in it.
const controlledScenario = `{
  "model": "massless",
  "modelIdentifier": "HoistControlled",
  "stopTime": 20,
  "step": 0.016666666666666666,
  "ports": ["suspension.x", "cable.tension", "load.z", "gravity"],
  "config": {
    "gravity": 9.81,
    "bodies": [
      {"name": "suspension", "kind": "kinematic", "position": [0, 0, 20]},
      {"name": "load", "kind": "dynamic", "mass": 1000, "size": [1, 1, 1], "hangsFrom": "cable"}
    ],
    "cables": [
      {
        "name": "cable",
        "route": [{"body": "suspension"}, {"body": "load"}],
        "length0": 10,
        "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850},
        "winch": {"name": "winch", "slip": 0}
      }
    ]
  },
  "plugins": [
    {"name": "controller", "file": "controller.py", "operations": 100000},
    {"name": "wind", "file": "plugins/wind.py", "operations": 100000}
  ]
}
`

// The exporter refuses a scenario folder with one mistake in one line:
// the folder, then the place (scenario.json:line:column, or the plugin's
// file:line:column) and what is expected there, a misspelt key or model
// with the nearest valid one; a missing plugin file with where the
// scenario names it.
func TestExportRefusalsAtThePlace(t *testing.T) {
	const plugin = "def step(sim):\n    pass\n"
	models := "(this binary has boom-crane, gantry-crane, hmr-wire, mass-spring, massless, rigid-cable, spline, wire-hoist)"
	cases := []struct {
		name, old, new string
		wind           string // plugins/wind.py; "" for none
		want           string // after the folder
	}{
		{"top-level typo", `"modelIdentifier"`, `"modelIdentifer"`, plugin,
			`scenario.json:3:3: unknown key "modelIdentifer" (did you mean "modelIdentifier"?)`},
		{"deep config typo", `"diameter"`, `"diamter"`, plugin,
			`scenario.json:18:45: model "massless": config: unknown key "cables[0].rope.diamter" (did you mean "diameter"?)`},
		{"wrong type", `"mass": 1000`, `"mass": "1000"`, plugin,
			`scenario.json:11:51: model "massless": config: "bodies[1].mass": the string "1000", want a number`},
		{"syntax error", `"length0": 10,`, `"length0": 10`, plugin,
			`scenario.json:18:9: invalid character '"' after object key:value pair, want ',' or '}'`},
		{"unknown model", `"massless"`, `"masless"`, plugin,
			`scenario.json:2:12: unknown model "masless": did you mean "massless"? ` + models},
		{"missing plugin file", "", "", "",
			`plugins/wind.py: no such file (plugin "wind", scenario.json:25:30)`},
		{"plugin syntax error", "", "", "def step(sim):\n    force = = 1\n",
			`plugins/wind.py:2:13: SyntaxError: invalid syntax`},
		// Unchanged, the scenario is refused only for want of a platform.
		{"no mistake", "", "", plugin, "no platform to export for"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := controlledScenario
			if c.old != "" {
				if !strings.Contains(text, c.old) {
					t.Fatalf("no %q to change", c.old)
				}
				text = strings.Replace(text, c.old, c.new, 1)
			}
			dir := t.TempDir()
			files := map[string]string{fmu.ScenarioFile: text, "controller.py": plugin}
			if c.wind != "" {
				files["plugins/wind.py"] = c.wind
			}
			for name, content := range files {
				path := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Export(dir, filepath.Join(t.TempDir(), "x.fmu"), 2, nil)
			want := dir + ": " + c.want
			if c.name == "no mistake" {
				want = c.want
			}
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}
