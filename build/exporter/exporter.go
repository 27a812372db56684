// Package exporter turns a scenario folder into an FMI 2.0 or 3.0
// Co-Simulation FMU: it reads <folder>/scenario.json, configures the
// scenario's cable model from the same plugin registry the engine
// contains (which runs its Python plugins as the FMU will), writes and
// checks the model description, and zips it with the engine library of
// every platform and the folder's resources (the scenario, its plugins
// and anything under <folder>/resources).
//
// The engine does not depend on the scenario: it is compiled once per
// platform (Compile) and copied, already compressed, into every FMU, so
// that an export takes a fraction of a second and the same scenario,
// flags and engines give the same bytes wherever they are exported.
package exporter

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cablefmu/cablefmu/build/docs"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Checked is a scenario folder checked as the exporter checks it.
type Checked struct {
	Folder   string
	Scenario *fmu.Scenario
	Model    fmu.Configured
	// Plugin is the cable model the scenario names; Sketch its world at
	// the start, which the documentation draws.
	Plugin fmu.Model
	Sketch fmu.Sketch
	data   []byte // the scenario file
}

// Check reads a scenario folder, loads its plugins and configures its
// model, which runs every plugin's top level, init and first
// communication point.
func Check(folder string) (*Checked, error) {
	if st, err := os.Stat(folder); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%s is a file: name the scenario folder that holds %s", folder, fmu.ScenarioFile)
	}
	data, err := os.ReadFile(filepath.Join(folder, fmu.ScenarioFile))
	if err != nil {
		if os.IsNotExist(err) {
			if st, serr := os.Stat(folder); serr != nil || !st.IsDir() {
				return nil, fmt.Errorf("%s: no such folder (want a scenario folder holding %s)", folder, fmu.ScenarioFile)
			}
			return nil, fmt.Errorf("%s: no such file (a scenario folder holds its %s)", filepath.Join(folder, fmu.ScenarioFile), fmu.ScenarioFile)
		}
		return nil, fmt.Errorf("reading the scenario: %w", err)
	}
	sc, err := fmu.ParseScenario(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", folder, err)
	}
	if err := sc.LoadPlugins(folder); err != nil {
		return nil, fmt.Errorf("%s: %w", folder, err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		return nil, fmt.Errorf("model registry: %w", err)
	}
	model, sketch, err := configure(reg, sc, configureSlack)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", folder, err)
	}
	plugin, err := reg.Lookup(sc.Model)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", folder, err)
	}
	return &Checked{Folder: folder, Scenario: sc, Model: model, Plugin: plugin, Sketch: sketch, data: data}, nil
}

// Describe writes the model description of the given FMI version.
func (c *Checked) Describe(version int) ([]byte, error) {
	var xml []byte
	var err error
	switch version {
	case 2:
		var md interface{ Marshal() ([]byte, error) }
		if md, err = fmu.Describe(c.Scenario, c.Model); err == nil {
			xml, err = md.Marshal()
		}
	case 3:
		var md interface{ Marshal() ([]byte, error) }
		if md, err = fmu.Describe3(c.Scenario, c.Model); err == nil {
			xml, err = md.Marshal()
		}
	default:
		return nil, fmt.Errorf("FMI %d: the exporter writes FMI 2 or 3", version)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Folder, err)
	}
	return xml, nil
}

// Terminals returns the FMI 3.0 FMU's terminalsAndIcons.xml: the ports
// grouped into connectors (fmu.Terminals3), checked against its model
// description, and the icon's place (every FMU has one: Documentation).
func (c *Checked) Terminals() ([]byte, error) {
	md, err := fmu.Describe3(c.Scenario, c.Model)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Folder, err)
	}
	t := fmu.Terminals3(c.Model)
	t.Icon = true
	if err := t.Check(md); err != nil {
		return nil, fmt.Errorf("%s: the terminals: %w", c.Folder, err)
	}
	return t.Marshal()
}

// Archive returns the FMU's content for the FMI version with the
// engines' libraries.
func (c *Checked) Archive(version int, engines []Engine) (*fmu.Archive, error) {
	if len(engines) == 0 {
		return nil, fmt.Errorf("no platform to export for")
	}
	xml, err := c.Describe(version)
	if err != nil {
		return nil, err
	}
	binaries := map[string]fmu.Library{}
	for _, e := range engines {
		folder := e.Platform.Folder(version)
		if _, twice := binaries[folder]; twice {
			return nil, fmt.Errorf("two engines for %s", e.Platform.Name)
		}
		binaries[folder] = e.Library
	}
	resources, err := c.Resources()
	if err != nil {
		return nil, err
	}
	files, err := c.Documentation(version)
	if err != nil {
		return nil, err
	}
	if version == 3 {
		terminals, err := c.Terminals()
		if err != nil {
			return nil, err
		}
		if terminals != nil {
			files[modeldesc.TerminalsFile] = terminals
		}
	}
	return &fmu.Archive{
		Files:            files,
		ModelDescription: xml,
		Binaries:         binaries,
		ModelIdentifier:  c.Scenario.ModelIdentifier,
		Resources:        resources,
	}, nil
}

// Documentation returns the files that document the FMU by their paths
// from the archive's root: documentation/index.html with the scenario's
// picture beside it (diagram.svg and diagram.png), and the FMU's icon
// drawn from the same picture (FMI 2.0: model.png; FMI 3.0:
// terminalsAndIcons/icon.png and icon.svg).
func (c *Checked) Documentation(version int) (map[string][]byte, error) {
	files := map[string][]byte{}
	svg, png, err := docs.Picture(c.Sketch, 720, 480, true)
	if err != nil {
		return nil, fmt.Errorf("%s: the documentation's picture: %w", c.Folder, err)
	}
	files["documentation/diagram.svg"], files["documentation/diagram.png"] = svg, png
	iconSVG, iconPNG, err := docs.Picture(c.Sketch, 128, 128, false)
	if err != nil {
		return nil, fmt.Errorf("%s: the icon: %w", c.Folder, err)
	}
	resources, err := c.Resources()
	if err != nil {
		return nil, err
	}
	p := &docs.Page{
		ModelIdentifier: c.Scenario.ModelIdentifier, Description: c.Scenario.Description,
		Model: c.Plugin.Name(), Summary: c.Plugin.Summary(), Engine: fmu.Version,
		StopTime: c.Scenario.StopTime, Step: c.Scenario.Step,
		Picture: "diagram.svg", Raster: "diagram.png",
		Files: slices.Sorted(maps.Keys(resources)),
	}
	if v, ok := c.Plugin.(fmu.Validated); ok {
		p.Figures = v.Validation()
	}
	if d, ok := c.Model.(fmu.Driver); ok {
		for _, pt := range d.DrivenPoints() {
			p.Driven = append(p.Driven, pt.Name)
		}
	}
	switch version {
	case 2:
		md, err := fmu.Describe(c.Scenario, c.Model)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Folder, err)
		}
		p.FMIVersion, p.GUID = "2.0", md.GUID
		p.Inputs, p.Outputs, p.Parameters = docs.Ports2(md)
		files["model.png"] = iconPNG
	case 3:
		md, err := fmu.Describe3(c.Scenario, c.Model)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Folder, err)
		}
		p.FMIVersion, p.GUID = "3.0", md.InstantiationToken
		p.Inputs, p.Outputs, p.Parameters = docs.Ports3(md)
		files[modeldesc.IconFile], files[modeldesc.IconSVG] = iconPNG, iconSVG
	default:
		return nil, fmt.Errorf("FMI %d: the exporter writes FMI 2 or 3", version)
	}
	for _, in := range p.Inputs {
		if strings.HasPrefix(in.Name, "winch.") || strings.HasSuffix(in.Name, ".speed") {
			p.Winch = true
		}
	}
	if files["documentation/index.html"], err = p.Write(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Folder, err)
	}
	return files, nil
}

// Resources returns the FMU's resources by their slash-separated paths
// under resources/: the scenario, its plugins and the files under the
// folder's resources/.
func (c *Checked) Resources() (map[string][]byte, error) {
	resources, err := readResources(c.Folder, c.data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Folder, err)
	}
	for _, p := range c.Scenario.Plugins {
		if _, clash := resources[p.File]; clash {
			return nil, fmt.Errorf("%s: plugin file %s is also under resources/", c.Folder, p.File)
		}
		// The FMU reads plugins at the same paths under resources/.
		if resources[p.File], err = c.Scenario.PluginSource(p.File); err != nil {
			return nil, err
		}
	}
	return resources, nil
}

// Export checks the scenario folder and writes its FMU of the FMI
// version with the engines at out (default <modelIdentifier>.fmu in the
// working directory); it returns the path written.
func Export(folder, out string, version int, engines []Engine) (string, error) {
	if version != 2 && version != 3 {
		return "", fmt.Errorf("FMI %d: the exporter writes FMI 2 or 3", version)
	}
	c, err := Check(folder)
	if err != nil {
		return "", err
	}
	return c.Write(out, version, engines)
}

// Write writes the checked scenario's FMU of the FMI version with the
// engines at out (default <modelIdentifier>.fmu in the working
// directory); it returns the path written.
func (c *Checked) Write(out string, version int, engines []Engine) (string, error) {
	out, err := c.CheckOut(out)
	if err != nil {
		return "", err
	}
	a, err := c.Archive(version, engines)
	if err != nil {
		return "", err
	}
	return out, a.Write(out)
}

// CheckOut returns the path Write would write for out (default
// <modelIdentifier>.fmu in the working directory), or why it refuses it
// (CheckWrite). Write checks it too; a caller that compiles engines first
// asks before.
func (c *Checked) CheckOut(out string) (string, error) {
	if out == "" {
		out = c.Scenario.ModelIdentifier + ".fmu"
	}
	return c.CheckWrite(out, "the FMU")
}

// CheckWrite returns the path at which to write the output what ("the
// FMU", "the CSV file") named out, or why it refuses it: a folder or
// another file that is not a regular one (a device, a pipe: replaced by
// the rename that completes a write, or fed half an output), one of the
// files the export reads (the scenario, a plugin: the output would take
// its place), or a place under the folder's resources/, links followed
// (the next export would pack the output into the FMU). A link to a file
// is followed: the file it leads to is written, the link kept.
func (c *Checked) CheckWrite(out, what string) (string, error) {
	if st, err := os.Lstat(out); err == nil && st.Mode()&os.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(out)
		if err != nil {
			return "", fmt.Errorf("%s is a link that leads to no file (%w): name the file to write %s to", out, err, what)
		}
		out = real
	}
	st, err := os.Stat(out)
	switch {
	case err == nil && st.IsDir():
		return "", fmt.Errorf("%s is a folder: name the file to write %s to", out, what)
	case err == nil && !st.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file (%v): name a file to write %s to", out, st.Mode().Type(), what)
	}
	sources := []string{fmu.ScenarioFile}
	for _, p := range c.Scenario.Plugins {
		sources = append(sources, filepath.FromSlash(p.File))
	}
	if err == nil {
		for _, src := range sources {
			if sst, serr := os.Stat(filepath.Join(c.Folder, src)); serr == nil && os.SameFile(st, sst) {
				return "", fmt.Errorf("%s is the scenario's own %s: name another file for %s", out, filepath.ToSlash(src), what)
			}
		}
	}
	dir, err := Resolved(filepath.Dir(out))
	if err != nil {
		return "", fmt.Errorf("output %s: %w", out, err)
	}
	for _, packed := range packedFolders(filepath.Join(c.Folder, "resources")) {
		if within(dir, packed) {
			packs := what + " into the FMU"
			if what == "the FMU" {
				packs = "this FMU into itself"
			}
			return "", fmt.Errorf("%s is under the scenario's resources/ (%s), which the FMU carries: the next export would pack %s; write it elsewhere", out, packed, packs)
		}
	}
	return out, nil
}

// Resolved returns path absolute with its links resolved, as far as it
// exists: a folder an output would still make is resolved through the
// folders above it that exist.
func Resolved(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest := ""
	for p := abs; ; p = filepath.Dir(p) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest), nil
		}
		if filepath.Dir(p) == p {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// packedFolders returns the folders, links resolved, whose files the
// export packs as resources: dir and every folder a link under it leads
// to (as readResources follows them); none if dir does not exist.
func packedFolders(dir string) []string {
	// Absolute: a relative folder's links resolve relative, and would not
	// compare with an absolute output's (a scenario given as "." let its
	// outputs into resources/).
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	var out []string
	var walk func(string)
	walk = func(d string) {
		real, err := filepath.EvalSymlinks(d)
		if err != nil || slices.Contains(out, real) {
			return // gone, or a link back into a folder already walked
		}
		out = append(out, real)
		entries, err := os.ReadDir(real)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(real, e.Name())
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				walk(p)
			}
		}
	}
	walk(dir)
	return out
}

// within reports whether path lies in folder or below it (both absolute
// and resolved).
func within(path, folder string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Schema returns the scenario JSON Schema of the built-in models,
// indented, with a final newline.
func Schema() ([]byte, error) {
	reg, err := plugins.Builtin()
	if err != nil {
		return nil, err
	}
	text, err := json.MarshalIndent(reg.Schema(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("scenario schema: %w", err)
	}
	return append(text, '\n'), nil
}

// configureSlack is the wall-clock time configuring a scenario may take
// beyond three wall-clock guards (timeouts) per plugin.
const configureSlack = 10 * time.Second

// configure configures the scenario's model as the FMU will, which runs
// every plugin's top level, init and first communication point. Plugins
// are bounded by their operations and memory budgets and each call by its
// timeout; this bounds the whole on the wall clock too (slack plus three
// timeouts per plugin), so that a computation no check interrupts ends
// the export with a message instead of hanging it.
func configure(reg *fmu.Registry, sc *fmu.Scenario, slack time.Duration) (fmu.Configured, fmu.Sketch, error) {
	limit := slack
	var files []string
	for _, p := range sc.Plugins {
		_, _, timeout := p.Limits()
		limit += time.Duration(3 * timeout * float64(time.Second))
		files = append(files, p.File)
	}
	type result struct {
		model  fmu.Configured
		sketch fmu.Sketch
		err    error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("configuring the model failed: %v", r)}
			}
		}()
		m, err := reg.Configure(sc)
		if err != nil {
			done <- result{err: err}
			return
		}
		sk, err := startSketch(m)
		done <- result{m, sk, err}
	}()
	select {
	case r := <-done:
		return r.model, r.sketch, r.err
	case <-time.After(limit):
		return nil, fmu.Sketch{}, fmt.Errorf("%s: checking the plugins did not finish within %v: a top level or init(sim) runs a computation that neither the operations nor the memory budget interrupts", strings.Join(files, ", "), limit)
	}
}

// startSketch draws the model's world built at the variables' start
// values: where the documentation's picture comes from.
func startSketch(m fmu.Configured) (fmu.Sketch, error) {
	var starts []float64
	for _, v := range m.Variables() {
		starts = append(starts, v.Start)
	}
	sim, err := m.NewSimulation(starts)
	if err != nil {
		return fmu.Sketch{}, fmt.Errorf("building the scenario at its start values: %w", err)
	}
	sk, ok := sim.(fmu.Sketcher)
	if !ok {
		return fmu.Sketch{}, fmt.Errorf("the model draws no picture of its world for the documentation (fmu.Sketcher)")
	}
	return sk.Sketch(), nil
}

// readResources collects the scenario and the files under
// folder/resources, by their slash-separated paths.
func readResources(folder string, scenario []byte) (map[string][]byte, error) {
	res := map[string][]byte{fmu.ScenarioFile: scenario}
	dir := filepath.Join(folder, "resources")
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return res, nil
	}
	if err := addTree(res, folder, dir, "", map[string]bool{}); err != nil {
		return nil, fmt.Errorf("reading resources: %w", err)
	}
	return res, nil
}

// addTree adds the files under dir at rel, links followed (the FMU holds
// what they lead to); open holds the folders being read, so that a link
// back into one is refused rather than followed for ever. Slashes on
// every host, so that the entries sort, and the bytes come out, the same.
func addTree(res map[string][]byte, folder, dir, rel string, open map[string]bool) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	if open[real] {
		return fmt.Errorf("%s: a link leads back into a folder that holds it", dir)
	}
	open[real] = true
	defer delete(open, real)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p, r := filepath.Join(dir, e.Name()), path.Join(rel, e.Name())
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		switch {
		case st.IsDir():
			if err := addTree(res, folder, p, r, open); err != nil {
				return err
			}
			continue
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file", p)
		case r == fmu.ScenarioFile:
			return fmt.Errorf("%s: resources/%s would replace the scenario", folder, r)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		res[r] = b
	}
	return nil
}
