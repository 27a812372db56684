package fmu_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// craneScenario is a rigid-cable scenario in the form of
// examples/rigid-cable; the tests below count their lines and columns in
// it.
const craneScenario = `{
  "model": "rigid-cable",
  "modelIdentifier": "RigidHoist",
  "stopTime": 45,
  "step": 0.016666666666666666,
  "ports": ["suspension.x", "winch.speed", "cable.tension", "load.z"],
  "config": {
    "gravity": 9.81,
    "suspension": {"position": [0, 0, 14]},
    "load": {"mass": 12330, "size": [2, 2, 1]},
    "cable": {
      "length0": 10,
      "segments": 20,
      "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850}
    },
    "ground": {"height": 0, "friction": 0.5},
    "rigidCable": {"twist": "aligned"}
  }
}
`

// withPlugin is craneScenario with a plugin, its file named on line 20
// from column 30.
var withPlugin = strings.Replace(craneScenario, "  }\n}\n", `  },
  "plugins": [
    {"name": "wind", "file": "plugins/wind.py"}
  ]
}
`, 1)

// edited is text with its first old replaced by new.
func edited(t *testing.T, text, old, new string) string {
	t.Helper()
	if !strings.Contains(text, old) {
		t.Fatalf("no %q to change", old)
	}
	return strings.Replace(text, old, new, 1)
}

// A scenario with one mistake is refused by ParseScenario or by the
// registry's Configure in one line that starts with the place in
// scenario.json (the offending key or value; a missing key: the object
// lacking it) and says what is expected there: a misspelt key or model
// with the nearest valid one.
func TestScenarioRefusedAtThePlace(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	models := "(this binary has boom-crane, gantry-crane, hmr-wire, mass-spring, massless, rigid-cable, spline, wire-hoist)"
	cases := []struct {
		name, old, new string
		want           string // the whole message, or its start if it ends in "…"
	}{
		{"top-level typo", `"stopTime"`, `"stopTim"`,
			`scenario.json:4:3: unknown key "stopTim" (did you mean "stopTime"?)`},
		{"unknown top-level key", `"stopTime"`, `"stopTime": 45, "halt"`,
			`scenario.json:4:19: unknown key "halt" (valid keys: "model", "modelIdentifier", "description", "stopTime", "step", "ports", "config", "plugins")`},
		{"syntax error", `"stopTime": 45,`, `"stopTime": 45`,
			`scenario.json:5:3: invalid character '"' after object key:value pair, want ',' or '}'`},
		{"wrong type at the top", `"step": 0.016666666666666666`, `"step": "1/60"`,
			`scenario.json:5:11: "step": the string "1/60", want a number`},
		{"step out of range", `"step": 0.016666666666666666`, `"step": -1`,
			`scenario.json:5:11: step -1 s: must lie in [1e-06, 1] s (the default internal step, internalStep)`},
		{"step missing", "  \"step\": 0.016666666666666666,\n", "",
			`scenario.json:1:1: "step" is missing`},
		{"null in config", `"friction": 0.5`, `"friction": null`,
			`scenario.json:16:41: "config.ground.friction": null is not a value (leave the key out for its default)`},
		{"deep config typo", `"diameter"`, `"diamter"`,
			`scenario.json:14:43: model "rigid-cable": config: unknown key "cable.rope.diamter" (did you mean "diameter"?)`},
		{"wrong type in config", `"segments": 20`, `"segments": "20"`,
			`scenario.json:13:19: model "rigid-cable": config: "cable.segments": the string "20", want a whole number`},
		{"missing rope diameter", `"diameter": 0.02, `, ``,
			`scenario.json:14:15: model "rigid-cable": config: "cable.rope": "diameter" is missing`},
		{"two-value position", `"position": [0, 0, 14]`, `"position": [0, 14]`,
			`scenario.json:9:32: model "rigid-cable": config: "suspension.position": 2 values, want 3`},
		{"renamed config key", `"rigidCable": {`, `"rigidBody": {`,
			`scenario.json:17:5: model "rigid-cable": config.rigidBody: now config.rigidCable`},
		{"value out of range", `"E": 1e11`, `"E": 1e300`,
			`scenario.json:14:21: model "rigid-cable": cable.rope.E 1e+300 Pa: must lie in [1000, 1e+13] Pa`},
		{"unknown model", `"rigid-cable"`, `"rigid-cabel"`,
			`scenario.json:2:12: unknown model "rigid-cabel": did you mean "rigid-cable"? ` + models},
		{"unknown model, none near", `"rigid-cable"`, `"catenary"`,
			`scenario.json:2:12: unknown model "catenary" ` + models},
		{"renamed model", `"rigid-cable"`, `"rigid-body-cable"`,
			`scenario.json:2:12: cable model "rigid-body-cable" is now called "rigid-cable": write "model": "rigid-cable"`},
		{"misspelt port", `"load.z"]`, `"laod.z"]`,
			`scenario.json:6:61: model "rigid-cable": port "laod.z": no such quantity in this scenario: did you mean "load.z"? (have …`},
		{"port listed twice", `"load.z"]`, `"load.z", "winch.speed"]`,
			`scenario.json:6:71: model "rigid-cable": port "winch.speed" listed twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := fmu.ParseScenario([]byte(edited(t, craneScenario, c.old, c.new)))
			if err == nil {
				_, err = reg.Configure(sc)
			}
			if err == nil {
				t.Fatalf("accepted, want %q", c.want)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("more than one line: %q", msg)
			}
			if start, ok := strings.CutSuffix(c.want, "…"); ok {
				if !strings.HasPrefix(msg, start) {
					t.Errorf("got %q, want it to start %q", msg, start)
				}
			} else if msg != c.want {
				t.Errorf("got  %q\nwant %q", msg, c.want)
			}
		})
	}
	if _, err := fmu.ParseScenario([]byte(craneScenario)); err != nil {
		t.Errorf("the scenario itself: %v", err)
	}
}

// Two mistakes in the config are refused a line each, each with its
// place.
func TestConfigRefusalsALineEach(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	text := edited(t, edited(t, craneScenario, `"E": 1e11`, `"E": 1e300`), `"friction": 0.5`, `"friction": 50`)
	sc, err := fmu.ParseScenario([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Configure(sc)
	want := `scenario.json:14:21: model "rigid-cable": cable.rope.E 1e+300 Pa: must lie in [1000, 1e+13] Pa` + "\n" +
		`scenario.json:16:41: model "rigid-cable": ground.friction 50: must lie in [0, 10]`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// A plugin file that is missing is refused in one line naming the file
// as the scenario does and where the scenario names it; a plugin with a
// syntax error with its file, line and column.
func TestPluginRefusedAtThePlace(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sc, err := fmu.ParseScenario([]byte(withPlugin))
	if err != nil {
		t.Fatal(err)
	}
	err = sc.LoadPlugins(dir)
	if want := `plugins/wind.py: no such file (plugin "wind", scenario.json:20:30)`; err == nil || err.Error() != want {
		t.Errorf("missing plugin: got %v, want %q", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing plugin: %v is no fs.ErrNotExist", err)
	}

	if err := os.MkdirAll(filepath.Join(dir, "plugins"), 0o755); err != nil {
		t.Fatal(err)
	}
	code := "def step(sim):\n    x = = 1\n"
	if err := os.WriteFile(filepath.Join(dir, "plugins", "wind.py"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sc.LoadPlugins(dir); err != nil {
		t.Fatal(err)
	}
	_, err = reg.Configure(sc)
	if want := "plugins/wind.py:2:9: SyntaxError: invalid syntax"; err == nil || err.Error() != want {
		t.Errorf("plugin syntax error: got %v, want %q", err, want)
	}
}
