package docs_test

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/cablefmu/cablefmu/build/exporter"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/modeldesc"
)

var examples = []string{"massless", "massless-controlled", "rigid-cable", "wire-hoist", "hmr-wire", "mass-spring", "spline"}

// Every example's FMU documents itself in both standards: index.html
// lists every input, output and parameter of the FMU's model description
// by name, with the validation figures of its model; the picture is a
// well-formed SVG and a 960 × 640 PNG (720 × 480 points at 96 dpi) that
// shows a rope and a body; the icon is a 128-point square; and writing
// them twice gives the same bytes (FMUs are reproducible).
func TestEveryExampleDocumentsItself(t *testing.T) {
	code := regexp.MustCompile(`<code>([^<]+)</code>`)
	for _, ex := range examples {
		c, err := exporter.Check(filepath.Join("../../examples", ex))
		if err != nil {
			t.Fatal(err)
		}
		var rope, body bool
		for _, s := range c.Sketch.Shapes {
			rope = rope || s.Kind == fmu.Rope && len(s.Points) >= 2
			body = body || s.Kind == fmu.Outline && len(s.Points) >= 3
		}
		if !rope || !body {
			t.Errorf("%s: the picture has a rope %v, a body %v: want both", ex, rope, body)
		}
		for _, version := range []int{2, 3} {
			files, err := c.Documentation(version)
			if err != nil {
				t.Fatalf("%s, FMI %d: %v", ex, version, err)
			}
			again, _ := c.Documentation(version)
			for name, data := range files {
				if !bytes.Equal(data, again[name]) {
					t.Errorf("%s, FMI %d: %s differs between two writes", ex, version, name)
				}
			}
			listed := map[string]bool{}
			for _, m := range code.FindAllStringSubmatch(string(files["documentation/index.html"]), -1) {
				listed[m[1]] = true
			}
			var names []string
			if version == 2 {
				md, _ := fmu.Describe(c.Scenario, c.Model)
				for _, v := range md.Variables {
					if v.EffectiveCausality() != modeldesc.CausalityLocal {
						names = append(names, v.Name)
					}
				}
			} else {
				md, _ := fmu.Describe3(c.Scenario, c.Model)
				for _, v := range md.Variables {
					if v.Causality != modeldesc.CausalityIndependent {
						names = append(names, v.Name)
					}
				}
			}
			for _, n := range names {
				if !listed[n] {
					t.Errorf("%s, FMI %d: index.html does not list %s", ex, version, n)
				}
			}
			if v, ok := c.Plugin.(fmu.Validated); ok {
				for _, f := range v.Validation() {
					if !listed[f.Test] {
						t.Errorf("%s, FMI %d: index.html does not name the test %s", ex, version, f.Test)
					}
				}
			}
			if err := xml.Unmarshal(files["documentation/diagram.svg"], new(struct{ XMLName xml.Name })); err != nil {
				t.Errorf("%s, FMI %d: diagram.svg: %v", ex, version, err)
			}
			img, err := png.Decode(bytes.NewReader(files["documentation/diagram.png"]))
			if err != nil {
				t.Fatalf("%s: diagram.png: %v", ex, err)
			}
			if b := img.Bounds(); b.Dx() != 960 || b.Dy() != 640 {
				t.Errorf("%s: diagram.png is %d × %d, want 960 × 640", ex, b.Dx(), b.Dy())
			}
			icon := map[int]string{2: "model.png", 3: "terminalsAndIcons/icon.png"}[version]
			img, err = png.Decode(bytes.NewReader(files[icon]))
			if err != nil || img.Bounds().Dx() != img.Bounds().Dy() {
				t.Errorf("%s, FMI %d: %s: %v, want a square icon", ex, version, icon, err)
			}
		}
	}
}
