// Command build is the FMU exporter: it turns a scenario folder into an
// FMI 2.0 or 3.0 Co-Simulation FMU.
//
//	go run ./build -o out/Hoist.fmu examples/massless
//	go run ./build -fmi 3 -o out/Hoist3.fmu examples/massless
//	go run ./build -platforms linux64 -o out/Hoist.fmu examples/massless
//	go run ./build -schema > build/scenario.schema.json
//
// It reads <folder>/scenario.json, configures the scenario's cable model
// from the same plugin registry the FMU binary contains, writes and checks
// the model description (FMI 2.0 by default, 3.0 with -fmi 3), compiles the
// C ABI with -buildmode=c-shared for every platform and zips
// modelDescription.xml, the binaries and the folder's resources (the
// scenario, its Python plugins and anything under <folder>/resources). One
// binary serves both standards. Plugins are checked as the FMU will run
// them; a broken one is refused with file:line messages.
//
// Platforms (see targets): linux64 (binaries/linux64/<id>.so in FMI 2.0,
// binaries/x86_64-linux/<id>.so in 3.0), built with the host's gcc, and
// win64 (binaries/win64/<id>.dll, binaries/x86_64-windows/<id>.dll),
// cross-compiled with mingw-w64. By default the FMU holds every platform
// whose C compiler is installed; -platforms names them.
//
// -schema writes the scenario's JSON Schema, made from the Go types the
// models decode their config into (fmu.Registry.Schema); the copy in
// build/scenario.schema.json is checked against it by the tests.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

func main() {
	out := flag.String("o", "", "output .fmu path (default out/<modelIdentifier>.fmu)")
	version := flag.Int("fmi", 2, "FMI version of the FMU: 2 or 3")
	platforms := flag.String("platforms", "", "comma-separated platforms to build (linux64, win64); default: every one whose C compiler is installed")
	schema := flag.Bool("schema", false, "write the scenario JSON Schema to standard output and exit")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./build [-o out/NAME.fmu] SCENARIO_FOLDER\n       go run ./build -schema\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *schema {
		text, err := scenarioSchema()
		if err != nil {
			fmt.Fprintln(os.Stderr, "build:", err)
			os.Exit(1)
		}
		os.Stdout.Write(text)
		return
	}
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	targets, err := chooseTargets(*platforms)
	if err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(2)
	}
	path, err := export(flag.Arg(0), *out, *version, targets)
	if err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
	fmt.Println("wrote", path)
}

// scenarioSchema returns the scenario JSON Schema of the built-in models,
// indented, with a final newline.
func scenarioSchema() ([]byte, error) {
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

func export(folder, out string, version int, targets []target) (string, error) {
	if version != 2 && version != 3 {
		return "", fmt.Errorf("-fmi %d: the exporter writes FMI 2 or 3", version)
	}
	data, err := os.ReadFile(filepath.Join(folder, fmu.ScenarioFile))
	if err != nil {
		return "", fmt.Errorf("reading the scenario: %w", err)
	}
	sc, err := fmu.ParseScenario(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", folder, err)
	}
	if err := sc.LoadPlugins(folder); err != nil {
		return "", fmt.Errorf("%s: %w", folder, err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		return "", fmt.Errorf("model registry: %w", err)
	}
	model, err := configure(reg, sc, configureSlack)
	if err != nil {
		return "", fmt.Errorf("%s: %w", folder, err)
	}
	xml, err := describe(sc, model, version)
	if err != nil {
		return "", fmt.Errorf("%s: %w", folder, err)
	}
	if out == "" {
		out = filepath.Join("out", sc.ModelIdentifier+".fmu")
	}
	tmp, err := os.MkdirTemp("", "cablefmu-build-")
	if err != nil {
		return "", fmt.Errorf("build folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	if len(targets) == 0 {
		return "", fmt.Errorf("no platform to build")
	}
	binaries := map[string]string{}
	for _, t := range targets {
		lib := filepath.Join(tmp, t.name, sc.ModelIdentifier+t.ext)
		if err := t.compile(lib); err != nil {
			return "", err
		}
		binaries[t.folder(version)] = lib
	}
	resources, err := readResources(folder, data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", folder, err)
	}
	for _, p := range sc.Plugins {
		if _, clash := resources[p.File]; clash {
			return "", fmt.Errorf("%s: plugin file %s is also under resources/", folder, p.File)
		}
		// The FMU reads plugins at the same paths under resources/.
		if resources[p.File], err = sc.PluginSource(p.File); err != nil {
			return "", err
		}
	}
	a := fmu.Archive{
		ModelDescription: xml,
		Binaries:         binaries,
		ModelIdentifier:  sc.ModelIdentifier,
		Resources:        resources,
	}
	return out, a.Write(out)
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
func configure(reg *fmu.Registry, sc *fmu.Scenario, slack time.Duration) (fmu.Configured, error) {
	limit := slack
	var files []string
	for _, p := range sc.Plugins {
		_, _, timeout := p.Limits()
		limit += time.Duration(3 * timeout * float64(time.Second))
		files = append(files, p.File)
	}
	type result struct {
		model fmu.Configured
		err   error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("configuring the model failed: %v", r)}
			}
		}()
		m, err := reg.Configure(sc)
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		return r.model, r.err
	case <-time.After(limit):
		return nil, fmt.Errorf("%s: checking the plugins did not finish within %v: a top level or init(sim) runs a computation that neither the operations nor the memory budget interrupts", strings.Join(files, ", "), limit)
	}
}

// describe writes the model description of the given FMI version.
func describe(sc *fmu.Scenario, model fmu.Configured, version int) ([]byte, error) {
	if version == 3 {
		md, err := fmu.Describe3(sc, model)
		if err != nil {
			return nil, err
		}
		return md.Marshal()
	}
	md, err := fmu.Describe(sc, model)
	if err != nil {
		return nil, err
	}
	return md.Marshal()
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("locating the module: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run the exporter inside the cablefmu module")
	}
	return filepath.Dir(mod), nil
}

// readResources collects the scenario and the files under folder/resources.
func readResources(folder string, scenario []byte) (map[string][]byte, error) {
	res := map[string][]byte{fmu.ScenarioFile: scenario}
	dir := filepath.Join(folder, "resources")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel == fmu.ScenarioFile {
			return fmt.Errorf("%s: resources/%s would replace the scenario", folder, rel)
		}
		b, err := os.ReadFile(p)
		res[rel] = b
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading resources: %w", err)
	}
	return res, nil
}
