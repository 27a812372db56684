package exporter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// A config number of 1e300 (or −1e300), one of each kind in every model,
// is refused when the model is configured, with the setting, its value,
// unit and range: by the exporter, and with the same message by an FMU
// instantiating from the same resources.
func TestAbsurdConfigNumbersRefusedByName(t *testing.T) {
	cases := []struct {
		example, path string // path in "config"
		value         float64
		name, unit    string // as the message names them
	}{
		// massless
		{"massless", "gravity", 1e300, "gravity", "m/s²"},
		{"massless", "bodies[0].position[2]", -1e300, `body "suspension": position[2]`, "m"},
		{"massless", "bodies[1].mass", 1e300, `body "load": mass`, "kg"},
		{"massless", "bodies[1].size[0]", 1e300, `body "load": size[0]`, "m"},
		{"massless", "cables[0].route[0].offset", 1e300, `cable "cable": route[0].offset[0]`, "m"},
		{"massless", "cables[0].length0", 1e300, `cable "cable": length0`, "m"},
		{"massless", "cables[0].minLength", 1e300, `cable "cable": minLength`, "m"},
		{"massless", "cables[0].rope.E", 1e300, `cable "cable": rope.E`, "Pa"},
		{"massless", "cables[0].rope.diameter", 1e300, `cable "cable": rope.diameter`, "m"},
		{"massless", "cables[0].rope.density", 1e300, `cable "cable": rope.density`, "kg/m³"},
		{"massless", "cables[0].rope.dampingTime", 1e300, `cable "cable": rope.dampingTime`, "s"},
		{"massless", "cables[0].rope.poisson", -1e300, `cable "cable": rope.poisson`, ""},
		{"massless", "cables[0].rope.torqueFactor", 0.5, `cable "cable": rope.torqueFactor`, ""},
		{"massless", "cables[0].rope.torsionalStiffness", -5, `cable "cable": rope.torsionalStiffness`, "N·m²"},
		{"massless", "cables[0].rope.torsionalStiffness", 1e6, `cable "cable": rope.torsionalStiffness`, "N·m²"},
		{"massless", "cables[0].rope.torsionalStiffness", 1e-3, `cable "cable": rope.torsionalStiffness`, "N·m²"},
		{"massless", "cables[0].winch.slip", 1e300, `winch "winch": slip`, "m/(N·s)"},
		// rigid-cable
		{"rigid-cable", "suspension.position[0]", 1e300, "suspension.position[0]", "m"},
		{"rigid-cable", "load.mass", 1e300, "load.mass", "kg"},
		{"rigid-cable", "load.size[0]", 1e300, "load.size[0]", "m"},
		{"rigid-cable", "cable.length0", 1e300, "cable.length0", "m"},
		{"rigid-cable", "cable.rope.bendingStiffness", 1e300, "cable.rope.bendingStiffness", "N·m²"},
		{"rigid-cable", "ground.height", -1e300, "ground.height", "m"},
		{"rigid-cable", "ground.friction", 1e300, "ground.friction", ""},
		// mass-spring
		{"mass-spring", "load.mass", 1e300, "load.mass", "kg"},
		{"mass-spring", "suspension.position[2]", 1e300, "suspension.position[2]", "m"},
		{"mass-spring", "cable.rope.E", 1e300, "cable.rope.E", "Pa"},
		{"mass-spring", "massSpring.perMass", 1e300, "massSpring.perMass.kL", "1/s²"},
		// spline
		{"spline", "gravity", 1e300, "gravity", "m/s²"},
		{"spline", "cable.length0", 1e300, "cable.length0", "m"},
		{"spline", "spline.ceiling", 1e300, "spline.ceiling", "m"},
		// wire-hoist
		{"wire-hoist", "suspension.position[0]", 1e300, "suspension.position[0]", "m"},
		{"wire-hoist", "cable.rope.E", 1e300, "cable.rope.E", "Pa"},
		{"wire-hoist", "wireHoist.drum.center[2]", -1e300, "wireHoist.drum.center[2]", "m"},
		{"wire-hoist", "wireHoist.drum.radius", 1e300, "wireHoist.drum.radius", "m"},
		{"wire-hoist", "wireHoist.drum.width", 1e300, "wireHoist.drum.width", "m"},
		{"wire-hoist", "wireHoist.drum.mass", 1e300, "wireHoist.drum.mass", "kg"},
		{"wire-hoist", "wireHoist.drum.inertia", 1e300, "wireHoist.drum.inertia", "kg·m²"},
		{"wire-hoist", "wireHoist.drum.wound", 1e300, "wireHoist.drum.wound", "m"},
		{"wire-hoist", "wireHoist.drum.torqueLimit", 1e300, "wireHoist.drum.torqueLimit", "N·m"},
		{"wire-hoist", "wireHoist.sheave.radius", 1e300, "wireHoist.sheave.radius", "m"},
		{"wire-hoist", "wireHoist.sheave.width", 1e300, "wireHoist.sheave.width", "m"},
		{"wire-hoist", "wireHoist.sheave.friction", 1e300, "wireHoist.sheave.friction", ""},
		{"wire-hoist", "cable.length0", 1e300, "cable.length0", "m"},
		{"wire-hoist", "wireHoist.block.size[1]", 1e300, "wireHoist.block.size[1]", "m"},
		{"wire-hoist", "load.mass", 1e300, "load.mass", "kg"},
		{"wire-hoist", "load.size[0]", 1e300, "load.size[0]", "m"},
		{"wire-hoist", "wireHoist.sling", 1e300, "wireHoist.sling", "m"},
		{"wire-hoist", "ground.height", -1e300, "ground.height", "m"},
		{"wire-hoist", "wireHoist.spacing", 1e300, "wireHoist.spacing", "m"},
		{"wire-hoist", "cable.minLength", 1e300, "cable.minLength", "m"},
		{"wire-hoist", "wireHoist.resolution.minSegment", 1e300, "wireHoist.resolution.minSegment", "m"},
		// hmr-wire
		{"hmr-wire", "bodies[0].position[0]", 1e300, `body "support": position[0]`, "m"},
		{"hmr-wire", "bodies[1].mass", 1e300, `body "m1": mass`, "kg"},
		{"hmr-wire", "bodies[2].size[2]", 1e300, `body "m2": size[2]`, "m"},
		{"hmr-wire", "geometries[0].box[0]", 1e300, `geometry "beam": box[0]`, "m"},
		{"hmr-wire", "geometries[0].offset", 1e300, `geometry "beam": offset[0]`, "m"},
		{"hmr-wire", "geometries[0].rotation", 1e300, `geometry "beam": rotation[0]`, ""},
		{"hmr-wire", "geometries[0].friction", 1e300, `geometry "beam": friction`, ""},
		{"hmr-wire", "wires[0].rope.density", 1e300, `wire "wire": rope.density`, "kg/m³"},
		{"hmr-wire", "wires[0].spacing", 1e300, `wire "wire": spacing`, "m"},
		{"hmr-wire", "wires[0].tension", 1e300, `wire "wire": tension`, "N"},
		{"hmr-wire", "wires[0].route[1].point[2]", 1e300, `wire "wire": route[1].point[2]`, "m"},
		{"hmr-wire", "wires[0].resolution.minSegment", 1e300, `wire "wire": resolution.minSegment`, "m"},
	}
	// Keys the examples leave out, set whole: a vector or an object with
	// the number first.
	whole := map[string]func(x float64) any{
		"cables[0].route[0].offset":   func(x float64) any { return []any{x, 0.0, 0.0} },
		"cable.rope.bendingStiffness": func(x float64) any { return x },
		"massSpring.perMass":          func(x float64) any { return map[string]any{"kL": x, "kD": 1.0, "kB": 1.0} },
		"spline.ceiling":              func(x float64) any { return x },
		"cables[0].minLength":         func(x float64) any { return x },
		"cables[0].rope.dampingTime":  func(x float64) any { return x },
		"geometries[0].offset":        func(x float64) any { return []any{x, 0.0, 0.0} },
		"geometries[0].rotation":      func(x float64) any { return []any{x, 0.0, 1.0, 0.5} },
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.example+"/"+c.path, func(t *testing.T) {
			var value any = c.value
			if f, ok := whole[c.path]; ok {
				value = f(c.value)
			}
			dir := editedExample(t, c.example, "config."+c.path, value)
			unit := ""
			if c.unit != "" {
				unit = " " + c.unit
			}
			// The range follows, in the unit, to the line's end.
			want := fmt.Sprintf("%s %g%s: must lie in [", c.name, c.value, unit)
			_, exported := Export(dir, filepath.Join(t.TempDir(), "x.fmu"), 2, nil)
			if exported == nil || !strings.Contains(exported.Error(), want) {
				t.Fatalf("export: %v, want a refusal containing %q", exported, want)
			}
			line, _, _ := strings.Cut(exported.Error()[strings.Index(exported.Error(), want):], "\n")
			if !strings.HasSuffix(line, "]"+unit) {
				t.Errorf("%q: want the range in %q", line, c.unit)
			}
			instantiated := instantiate(t, reg, dir)
			if instantiated == nil || exported.Error() != dir+": "+instantiated.Error() {
				t.Errorf("instantiation: %v\nexport: %v\nwant the same message", instantiated, exported)
			}
		})
	}
}

// Every number in every example's config set to 1e300 or −1e300 is
// refused when the model is configured: none has a range without a
// bound.
func TestEveryConfigNumberBounded(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, example := range []string{"massless", "rigid-cable", "mass-spring", "spline", "wire-hoist", "hmr-wire"} {
		data, err := os.ReadFile(filepath.Join("../../examples", example, fmu.ScenarioFile))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var paths []string
		numberPaths(doc["config"], "config", &paths)
		for _, p := range paths {
			for _, x := range []float64{1e300, -1e300} {
				dir := editedExample(t, example, p, x)
				sc, err := fmu.ReadScenario(dir)
				if err == nil {
					_, _, err = configure(reg, sc, configureSlack)
				}
				if err == nil {
					t.Errorf("%s: %s = %g accepted", example, p, x)
				}
			}
		}
	}
}

// A key given twice anywhere in a scenario (encoding/json would keep the
// last value: 12 falls) is refused by the exporter with the file, the line
// and column of its second occurrence, the key's path and where the first
// stands.
func TestDuplicateKeyRefusedWithPosition(t *testing.T) {
	data, err := os.ReadFile("../../examples/wire-hoist/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, `"falls": 4,`) {
		t.Fatal(`the example has no "falls": 4`)
	}
	text = strings.Replace(text, `"falls": 4,`, "\"falls\": 4,\n    \"falls\": 12,", 1)
	first, second := strings.Index(text, `"falls"`), strings.LastIndex(text, `"falls"`)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Export(dir, filepath.Join(dir, "x.fmu"), 2, nil)
	want := fmt.Sprintf(`%s: %s:%s: duplicate key "config.wireHoist.falls" (first at %s)`, dir, fmu.ScenarioFile, lineCol(text, second), lineCol(text, first))
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("export: %v\nwant an error starting %q", err, want)
	}
}

// lineCol is the line:column (from 1) of byte offset off in text.
func lineCol(text string, off int) string {
	line := 1 + strings.Count(text[:off], "\n")
	return fmt.Sprintf("%d:%d", line, off-strings.LastIndex(text[:off], "\n"))
}

// editedExample writes the example's scenario with the value at path (as
// "config.bodies[1].size[0]"; a missing last key is added) into a new
// folder and returns it.
func editedExample(t *testing.T, example, path string, value any) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../examples", example, fmu.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if err := setPath(doc, path, value); err != nil {
		t.Fatalf("%s: %v", example, err)
	}
	if data, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// setPath sets the value at a path of object keys and [index]es.
func setPath(doc any, path string, value any) error {
	steps := strings.FieldsFunc(strings.ReplaceAll(path, "[", ".["), func(r rune) bool { return r == '.' })
	at := doc
	for i, s := range steps {
		last := i == len(steps)-1
		if strings.HasPrefix(s, "[") {
			k, err := strconv.Atoi(strings.Trim(s, "[]"))
			arr, ok := at.([]any)
			if err != nil || !ok || k >= len(arr) {
				return fmt.Errorf("%s: no item %s", path, s)
			}
			if last {
				arr[k] = value
			}
			at = arr[k]
			continue
		}
		obj, ok := at.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: no object for %q", path, s)
		}
		if last {
			obj[s] = value
		}
		if at, ok = obj[s]; !ok {
			return fmt.Errorf("%s: no key %q", path, s)
		}
	}
	return nil
}

// numberPaths appends the paths of the numbers in v, sorted by key.
func numberPaths(v any, at string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			numberPaths(x[k], at+"."+k, out)
		}
	case []any:
		for i, y := range x {
			numberPaths(y, fmt.Sprintf("%s[%d]", at, i), out)
		}
	case float64:
		*out = append(*out, at)
	}
}

// instantiate instantiates the FMU whose resources are dir, as an
// importer would, and returns its refusal.
func instantiate(t *testing.T, reg *fmu.Registry, dir string) error {
	t.Helper()
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		return err
	}
	_, err = fmu.Instantiate(fmu.Config{InstanceName: "x", GUID: sc.GUID(), ResourceLocation: dir, Logger: quiet{}, Registry: reg})
	return err
}

type quiet struct{}

func (quiet) Log(fmu.Status, string, string) {}
