package fmu_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// Scenarios that encoding/json would read with a silent zero, a dropped
// value or ignored data are refused with a message naming the key, and
// values outside a quantity's range with the quantity and its range.
func TestScenarioMistakesRefusedByName(t *testing.T) {
	hoist, err := os.ReadFile("../examples/massless/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	rigid, err := os.ReadFile("../examples/rigid-cable/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(base []byte, old, new string) []byte {
		if !strings.Contains(string(base), old) {
			t.Fatalf("the example has no %q to change", old)
		}
		return []byte(strings.Replace(string(base), old, new, 1))
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"two-value position", edit(hoist, `"position": [0, 0, 20]`, `"position": [5, 5]`), `config: "bodies[0].position": 2 values, want 3`},
		{"four-value size", edit(hoist, `"size": [1, 1, 1]`, `"size": [1, 1, 1, 7]`), `config: "bodies[1].size": 4 values, want 3`},
		{"null in config", edit(hoist, `"mass": 1000`, `"mass": null`), `"config.bodies[1].mass": null is not a value`},
		{"null at the top", edit(hoist, `"stopTime": 30`, `"stopTime": null`), `"stopTime": null is not a value`},
		{"trailing data", append(append([]byte{}, hoist...), []byte(`{"model": "x"}`)...), "data after the JSON object"},
		{"missing diameter", edit(hoist, `"diameter": 0.02, `, ``), `config: "cables[0].rope": "diameter" is missing`},
		{"missing diameter, rigid", edit(rigid, `"diameter": 0.02, `, ``), `config: "cable.rope": "diameter" is missing`},
		{"length0 tiny", edit(hoist, `"length0": 10`, `"length0": 1e-300`), `cable "cable": length0 1e-300 m: must lie in [0.001, 100000] m`},
		{"a Windows device", edit(hoist, `"modelIdentifier": "Hoist"`, `"modelIdentifier": "nul"`), `modelIdentifier "nul" is a Windows device name`},
		{"a Windows port", edit(hoist, `"modelIdentifier": "Hoist"`, `"modelIdentifier": "LPT1"`), `modelIdentifier "LPT1" is a Windows device name`},
		{"long modelIdentifier", edit(hoist, `"modelIdentifier": "Hoist"`, `"modelIdentifier": "`+strings.Repeat("M", 5000)+`"`), "modelIdentifier of 5000 characters: at most 200"},
		{"misspelt key", edit(hoist, `"length0"`, `"lenght0"`), `config: unknown key "cables[0].lenght0" (did you mean "length0"?)`},
		{"stopTime absurd", edit(hoist, `"stopTime": 30`, `"stopTime": 1e300`), "stopTime 1e+300 s: must lie in (0, 1e+09] s"},
		{"step absurd", edit(hoist, `"step": 0.016666666666666666`, `"step": 1e300`), "step 1e+300 s: must lie in [1e-06, 1] s (the default internal step, internalStep)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := fmu.ParseScenario(c.data)
			if err == nil {
				_, err = reg.Configure(sc)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// A plugin file that is not UTF-8 is refused with its file, and the
// line and column of the first byte that is not.
func TestPluginNotUTF8Refused(t *testing.T) {
	data, err := os.ReadFile("../examples/massless-controlled/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fmu.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, p := range sc.Plugins {
		text := []byte("x = 1\n# caf\xe9\n")
		if err := os.WriteFile(filepath.Join(dir, p.File), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err = sc.LoadPlugins(dir)
	if want := sc.Plugins[0].File + ":2:6: not UTF-8 (byte 0xe9)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}
