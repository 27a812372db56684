package exporter

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/modeldesc"
	"github.com/cablefmu/cablefmu/modeldesc/schematest"
)

// readZip returns the archive's entries by name.
func readZip(t *testing.T, path string) map[string][]byte {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer z.Close()
	entries := map[string][]byte{}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if _, dup := entries[f.Name]; dup {
			t.Errorf("entry %s occurs twice", f.Name)
		}
		entries[f.Name] = data
	}
	return entries
}

// Exporting examples/massless with the engine of every platform
// writes an archive with exactly the model description, one library per
// platform and the scenario, every entry with the fixed date and a
// regular file's mode; the description parses, passes the FMI rules and
// the official schema and carries the scenario's GUID; each library
// exports the FMI functions and nothing else, the Linux one needs glibc
// 2.17 at most, the Windows one only system DLLs.
func TestExportHoist(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the engines (up to about a minute with a cold build cache); skipped with -short")
	}
	const folder = "../../examples/massless"
	out := filepath.Join(t.TempDir(), "sub", "Hoist.fmu")
	engines := allEngines(t)
	got, err := Export(folder, out, 2, engines)
	if err != nil {
		t.Fatalf("export(%s): %v", folder, err)
	}
	if got != out {
		t.Errorf("export returned path %q, want %q", got, out)
	}
	entries := readZip(t, out)
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"modelDescription.xml", "resources/scenario.json", "model.png",
		"documentation/index.html", "documentation/diagram.svg", "documentation/diagram.png"}
	for _, e := range engines {
		want = append(want, "binaries/"+e.Platform.Name+"/Hoist"+e.Platform.Ext)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("archive entries %q, want exactly %q", names, want)
	}
	checkZipMetadata(t, out)

	scenario, err := os.ReadFile(filepath.Join(folder, fmu.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(entries["resources/scenario.json"], scenario) {
		t.Error("resources/scenario.json differs from the scenario file")
	}
	sc, err := fmu.ParseScenario(scenario)
	if err != nil {
		t.Fatal(err)
	}

	xml := entries["modelDescription.xml"]
	md, err := modeldesc.Parse(xml)
	if err != nil {
		t.Fatalf("modeldesc.Parse: %v", err)
	}
	if err := md.Check(); err != nil {
		t.Errorf("the model description breaks FMI rules: %v", err)
	}
	if md.GUID != sc.GUID() {
		t.Errorf("model description GUID %q, want the scenario's %q", md.GUID, sc.GUID())
	}
	if md.CoSimulation == nil || md.CoSimulation.ModelIdentifier != "Hoist" {
		t.Errorf("CoSimulation element %+v, want modelIdentifier Hoist", md.CoSimulation)
	}
	if len(md.Variables) != len(sc.Ports) {
		t.Errorf("%d variables, want one per port (%d)", len(md.Variables), len(sc.Ports))
	}
	xmlPath := filepath.Join(t.TempDir(), "modelDescription.xml")
	if err := os.WriteFile(xmlPath, xml, 0o644); err != nil {
		t.Fatal(err)
	}
	schematest.Validate(t, xmlPath)

	for _, e := range engines {
		name := "binaries/" + e.Platform.Name + "/Hoist" + e.Platform.Ext
		if !bytes.Equal(entries[name], inflated(t, e)) {
			t.Errorf("%s is not the %s engine", name, e.Platform.Name)
		}
		if e.Platform.goos == "windows" {
			checkPE(t, name, entries[name])
		} else {
			checkELF(t, name, entries[name])
		}
	}
}

// An FMI 3.0 export puts binaries that pass the same checks into the 3.0
// platform folders.
func TestExportHoist3(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the engines; skipped with -short")
	}
	out := filepath.Join(t.TempDir(), "Hoist3.fmu")
	engines := allEngines(t)
	if _, err := Export("../../examples/massless", out, 3, engines); err != nil {
		t.Fatal(err)
	}
	entries := readZip(t, out)
	for _, e := range engines {
		name := "binaries/" + e.Platform.FMI3Folder + "/Hoist" + e.Platform.Ext
		switch {
		case entries[name] == nil:
			t.Errorf("no %s in the FMI 3.0 archive", name)
		case e.Platform.goos == "windows":
			checkPE(t, name, entries[name])
		default:
			checkELF(t, name, entries[name])
		}
	}
	md, err := modeldesc.Parse3(entries["modelDescription.xml"])
	if err != nil {
		t.Fatal(err)
	}
	if err := md.Check(); err != nil {
		t.Errorf("the model description breaks FMI rules: %v", err)
	}
	checkZipMetadata(t, out)
}

// checkZipMetadata checks every entry's time (archiveTime, as a DOS date
// too) and mode (a regular file).
func checkZipMetadata(t *testing.T, path string) {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		if !f.Modified.Equal(fmu.ArchiveTime) || f.ModifiedDate == 0 {
			t.Errorf("%s: modified %v (DOS date %#x), want %v", f.Name, f.Modified, f.ModifiedDate, fmu.ArchiveTime)
		}
		if m := f.Mode(); !m.IsRegular() || m.Perm()&0o444 != 0o444 {
			t.Errorf("%s: mode %v, want a readable regular file", f.Name, m)
		}
	}
}

// A folder without scenario.json is refused with an error naming the
// missing file, and no archive is written.
func TestExportRefusesFolderWithoutScenario(t *testing.T) {
	folder := t.TempDir()
	out := filepath.Join(t.TempDir(), "Nothing.fmu")
	_, err := Export(folder, out, 2, nil)
	if err == nil {
		t.Fatal("export of an empty folder succeeded")
	}
	if want := filepath.Join(folder, fmu.ScenarioFile); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("an archive was written at %s despite the error (stat: %v)", out, serr)
	}
}

// An output path that would replace what the export reads (the scenario,
// a plugin, a resource), that is a folder, or that lies under resources/
// (the next export would carry this FMU inside it), also through links
// (the scenario's folder reached through one, a folder yet to be made, a
// folder a link under resources/ leads to) is refused before anything is
// written, and every file is left as it was.
func TestExportRefusesToWriteOverItsSources(t *testing.T) {
	folder := t.TempDir()
	files := map[string]string{"resources/table.csv": "t,f\n0,1\n"}
	for _, name := range []string{fmu.ScenarioFile, "controller.py", "wind.py"} {
		b, err := os.ReadFile(filepath.Join("../../examples/massless-controlled", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	for name, content := range files {
		p := filepath.Join(folder, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	if err := os.Symlink(filepath.Join(folder, "resources"), filepath.Join(folder, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(folder, "resources", "ext")); err != nil {
		t.Fatal(err)
	}
	via := filepath.Join(t.TempDir(), "via") // the scenario folder through a link
	if err := os.Symlink(folder, via); err != nil {
		t.Fatal(err)
	}
	c, err := Check(folder)
	if err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string]string{
		filepath.Join(folder, fmu.ScenarioFile):          "is the scenario's own scenario.json",
		filepath.Join(folder, "controller.py"):           "is the scenario's own controller.py",
		filepath.Join(folder, "resources", "table.csv"):  "under the scenario's resources/",
		filepath.Join(folder, "resources", "New.fmu"):    "under the scenario's resources/",
		filepath.Join(folder, "linked", "New.fmu"):       "under the scenario's resources/",
		filepath.Join(folder, "resources", "d", "X.fmu"): "under the scenario's resources/",
		filepath.Join(via, "resources", "new", "X.fmu"):  "under the scenario's resources/",
		filepath.Join(outside, "X.fmu"):                  "under the scenario's resources/",
		folder:                                           "is a folder",
	} {
		if _, err := c.Write(out, 2, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-o %s: error %v, want one saying %q", out, err, want)
		}
	}
	for name, content := range files {
		if b, err := os.ReadFile(filepath.Join(folder, filepath.FromSlash(name))); err != nil || string(b) != content {
			t.Errorf("%s changed (read error %v)", name, err)
		}
	}
	// Beside the sources, and outside the folder, is where FMUs go.
	for _, out := range []string{filepath.Join(folder, "Controlled.fmu"), filepath.Join(folder, "resources", "..", "X.fmu"), "Hoist.fmu"} {
		if _, err := c.CheckOut(out); err != nil {
			t.Errorf("-o %s refused: %v", out, err)
		}
	}
}

// A scenario the plugin rejects is refused before anything is written,
// with the folder and the culprit named.
func TestExportRefusesBadScenario(t *testing.T) {
	scenario, err := os.ReadFile("../../examples/massless/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(scenario, []byte(`"length0"`), []byte(`"lenght0"`), 1)
	if bytes.Equal(bad, scenario) {
		t.Fatal(`examples/massless/scenario.json has no "length0" to misspell`)
	}
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, fmu.ScenarioFile), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "Bad.fmu")
	_, err = Export(folder, out, 2, nil)
	want := `unknown key "cables[0].lenght0" (did you mean "length0"?)`
	if err == nil || !strings.Contains(err.Error(), folder) || !strings.Contains(err.Error(), want) {
		t.Errorf("export of a scenario with \"lenght0\": error %v, want one naming %s and saying %s", err, folder, want)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("an archive was written at %s despite the error (stat: %v)", out, serr)
	}
}

// Plugins that would kill or hang the exporter are refused with file:line
// and the Python exception, never a Go stack trace.
func TestExportRefusesPluginsThatWouldKillIt(t *testing.T) {
	scenario, err := os.ReadFile("../../examples/massless-controlled/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	wind, err := os.ReadFile("../../examples/massless-controlled/wind.py")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ top, want string }{
		"self-containing str": {"boom = []\nboom.append(boom)\nx = str(boom)\n", "controller.py:3: module in controller.py raised an exception"},
		"huge list":           {"x = [0.0] * 10**10\n", "MemoryError"},
		"huge power":          {"x = 10 ** 10 ** 8\n", "controller.py:1:"},
	} {
		t.Run(name, func(t *testing.T) {
			folder := t.TempDir()
			for file, text := range map[string][]byte{fmu.ScenarioFile: scenario, "wind.py": wind,
				"controller.py": []byte(c.top + "def step(sim):\n    pass\n")} {
				if err := os.WriteFile(filepath.Join(folder, file), text, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(t.TempDir(), "Bad.fmu")
			_, err := Export(folder, out, 2, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "goroutine") {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			t.Log(err)
		})
	}
}

// Configuring is bounded on the wall clock: a top level that loops within
// an operations budget it will not reach and a timeout of 2 s is stopped
// by the bound of 0.2 s (a slack that takes back all but 0.2 s of the
// three timeouts).
func TestConfigureIsBoundedOnTheWallClock(t *testing.T) {
	folder := t.TempDir()
	for _, f := range []string{fmu.ScenarioFile, "wind.py"} {
		data, err := os.ReadFile(filepath.Join("../../examples/massless-controlled", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(folder, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loop := "while True:\n    pass\ndef step(sim):\n    pass\n"
	if err := os.WriteFile(filepath.Join(folder, "controller.py"), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(folder, fmu.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fmu.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.LoadPlugins(folder); err != nil {
		t.Fatal(err)
	}
	slack := 200 * time.Millisecond
	for i := range sc.Plugins {
		sc.Plugins[i].Operations, sc.Plugins[i].Timeout = fmu.MaxOperations, 2
		slack -= 6 * time.Second
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = configure(reg, sc, slack)
	if err == nil || !strings.Contains(err.Error(), "did not finish within") || !strings.Contains(err.Error(), "controller.py") {
		t.Fatalf("got %v", err)
	}
}

// Resources come in by their slash-separated paths, links to files and
// folders followed; a link back into a folder that holds it is refused.
func TestResourcesFollowLinks(t *testing.T) {
	folder := t.TempDir()
	data, err := os.ReadFile("../../examples/massless/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	shared := t.TempDir()
	for path, content := range map[string]string{
		filepath.Join(folder, fmu.ScenarioFile):          string(data),
		filepath.Join(folder, "resources", "a", "b.txt"): "b",
		filepath.Join(folder, "resources", "z.txt"):      "z",
		filepath.Join(shared, "tables", "c.csv"):         "c",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(shared, "tables"), filepath.Join(folder, "resources", "linked")); err != nil {
		t.Fatal(err)
	}
	c, err := Check(folder)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Resources()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range res {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"a/b.txt", "linked/c.csv", "scenario.json", "z.txt"}; !slices.Equal(names, want) {
		t.Errorf("resources %q, want %q", names, want)
	}
	if err := os.Symlink("..", filepath.Join(folder, "resources", "a", "up")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Resources(); err == nil || !strings.Contains(err.Error(), "a link leads back into a folder that holds it") {
		t.Errorf("a link back up: %v", err)
	}
}

// Every example's model description, in both standards, passes the FMI
// rules and the official schema, and gives every variable a quantity and
// the engineers' display units: kN for forces, t for masses, mm for rope
// diameters, rpm for spins.
func TestExamplesDescribeQuantitiesAndDisplayUnits(t *testing.T) {
	want := map[string]string{"N": "kN", "kg": "t", "rad/s": "rpm", "Pa": "GPa", "N.m": "kN.m", "rad": "deg"}
	// Switches are Boolean, counts Integer (FMI 2.0) and Int32 (FMI 3.0).
	count, switch_ := [2]string{"Integer", "Int32"}, [2]string{"Boolean", "Boolean"}
	types := map[string][2]string{"winch.brake": switch_, "cable.static": switch_, "cable.massNodes": count,
		"cable.contactNodes": count, "wire.massNodes": count, "wire.contactNodes": count, "cable.iterations": count,
		"cable.tension": {"Real", "Float64"}}
	for _, example := range []string{"massless", "massless-controlled", "rigid-cable", "mass-spring", "spline", "hmr-wire", "wire-hoist"} {
		c, err := Check(filepath.Join("../../examples", example))
		if err != nil {
			t.Fatal(err)
		}
		for _, version := range []int{2, 3} {
			xml, err := c.Describe(version)
			if err != nil {
				t.Fatalf("%s, FMI %d: %v", example, version, err)
			}
			path := filepath.Join(t.TempDir(), "modelDescription.xml")
			if err := os.WriteFile(path, xml, 0o644); err != nil {
				t.Fatal(err)
			}
			type variable struct{ name, unit, quantity, display, typ string }
			var vars []variable
			if version == 2 {
				schematest.Validate(t, path)
				md, err := modeldesc.Parse(xml)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range md.Variables {
					vars = append(vars, variable{v.Name, v.Unit, v.Quantity, v.DisplayUnit, string(v.Type)})
				}
			} else {
				schematest.Validate3(t, path)
				checkTerminals(t, example, c)
				md, err := modeldesc.Parse3(xml)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range md.Variables {
					if v.Name != "time" {
						vars = append(vars, variable{v.Name, v.Unit, v.Quantity, v.DisplayUnit, string(v.Type)})
					}
				}
			}
			for _, v := range vars {
				if want, ok := types[v.name]; ok && v.typ != want[version-2] {
					t.Errorf("%s, FMI %d: %s is a %s variable, want %s", example, version, v.name, v.typ, want[version-2])
				}
				if v.quantity == "" && v.typ != "Boolean" { // FMI gives a Boolean no quantity
					t.Errorf("%s, FMI %d: %s (%s) has no quantity", example, version, v.name, v.unit)
				}
				if d, ok := want[v.unit]; ok && v.display != d {
					t.Errorf("%s, FMI %d: %s in %s shown in %q, want %s", example, version, v.name, v.unit, v.display, d)
				}
				if strings.HasSuffix(v.name, ".diameter") && v.display != "mm" {
					t.Errorf("%s, FMI %d: %s shown in %q, want mm", example, version, v.name, v.display)
				}
			}
		}
	}
}

// checkTerminals checks an example's FMI 3.0 terminals: the file passes
// the official schema, and the suspension point (where the example has
// one) is one terminal of its position, velocity and force, the winch
// another.
func checkTerminals(t *testing.T, example string, c *Checked) {
	t.Helper()
	data, err := c.Terminals()
	if err != nil {
		t.Fatalf("%s: %v", example, err)
	}
	path := filepath.Join(t.TempDir(), "terminalsAndIcons.xml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := modeldesc.ValidateTerminals3(path, schematest.Require3(t)); err != nil {
		t.Errorf("%s: %v", example, err)
	}
	text := string(data)
	// Every FMU places its icon (terminalsAndIcons/icon.png) on the
	// default 20 mm square.
	if !strings.Contains(text, `<Icon x1="-100" y1="-100" x2="100" y2="100"/>`) {
		t.Errorf("%s: no icon in\n%s", example, text)
	}
	if example == "hmr-wire" { // its example drives no body: no terminal
		if strings.Contains(text, "<Terminal ") {
			t.Errorf("%s: terminals without an input:\n%s", example, data)
		}
		return
	}
	want := []string{`<Terminal name="suspension" matchingRule="bus" terminalKind="_cablefmu_DrivenPoint"`,
		`variableName="suspension.vz" memberName="vz" variableKind="signal"`, `variableName="suspension.fz" memberName="fz"`}
	for _, v := range c.Model.Variables() {
		if v.Name == "winch.speed" && v.Causality == modeldesc.CausalityInput { // not where a plugin drives the winch
			want = append(want, `<Terminal name="winch" matchingRule="bus" terminalKind="_cablefmu_Winch"`,
				`variableName="winch.speed" memberName="speed"`)
		}
	}
	for _, want := range want {
		if !strings.Contains(text, want) {
			t.Errorf("%s: no %s in\n%s", example, want, text)
		}
	}
}
