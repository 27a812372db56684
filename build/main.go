// Command cablefmu turns a scenario folder into an FMI 2.0 or 3.0
// Co-Simulation FMU, and checks, describes and runs scenarios.
//
//	cablefmu export SCENARIO_DIR [-o X.fmu] [-fmi 3] [-platforms linux64,win64]
//	cablefmu check SCENARIO_DIR
//	cablefmu models [NAME] [-scenario]
//	cablefmu schema
//	cablefmu run SCENARIO_DIR [-stop T] [-step H] [-inputs table.csv] [-set NAME=VALUE] -csv out.csv [-plot out.png]
//	cablefmu info X.fmu
//	cablefmu --version
//
// Built by scripts/dist.sh (with the build tag cablefmu_dist), the command
// carries the engine library of every platform inside it: exporting needs
// no Go, no C compiler and no source tree, and takes a fraction of a
// second. In the source tree, `go run ./build` is the same command, which
// compiles the engines from the tree for each export (Go and the
// platforms' C compilers needed), and `go run ./build engines -o DIR`
// compiles them for scripts/dist.sh. The same scenario, flags and engines
// give the same FMU byte for byte either way.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cablefmu/cablefmu/build/exporter"
	"github.com/cablefmu/cablefmu/fmu"
)

// command is one subcommand.
type command struct {
	name, args, summary string
	run                 func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	cs := []command{
		{"export", "SCENARIO_DIR [-o X.fmu] [-fmi 3] [-platforms LIST]", "write the scenario's FMU", runExport},
		{"check", "SCENARIO_DIR", "check the scenario and its plugins as export does", runCheck},
		{"models", "[NAME] [-scenario]", "list the models, or one model's ports and its example scenario", runModels},
		{"schema", "", "print the scenario JSON Schema", runSchema},
		{"run", "SCENARIO_DIR [-stop T] [-step H] [-inputs table.csv] [-set NAME=VALUE] -csv out.csv [-plot out.png]", "simulate the scenario without an FMI master, for a first look", runRun},
		{"info", "X.fmu", "say what a cablefmu FMU holds", runInfo},
	}
	if engineSource().compiles() {
		cs = append(cs, command{"engines", "-o DIR", "compile the engines from the source tree (for scripts/dist.sh)", runEngines})
	}
	return cs
}

// usageError is a command line the command cannot read: it exits with
// status 2 after the message.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// cli runs the command line and returns the exit status: 0, 1 for a
// failure, 2 for a command line it cannot read.
func cli(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			return cli([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return 0
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var ue usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "cablefmu %s: %s\nusage: cablefmu %s %s (cablefmu %s --help)\n", c.name, ue.msg, c.name, c.args, c.name)
			return 2
		default:
			fmt.Fprintf(stderr, "cablefmu %s: %s\n", c.name, oneLine(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "cablefmu: unknown command %q (%s)\n", args[0], nearest(args[0], commandNames()))
	usage(stderr)
	return 2
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nusage: cablefmu COMMAND [ARGUMENTS]\n\n", versionLine())
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\ncablefmu COMMAND --help says more; cablefmu --version names the engines.")
}

// versionLine names the command's version and its engines.
func versionLine() string {
	return fmt.Sprintf("cablefmu %s (%s)", fmu.Version, engineSource().describe())
}

// oneLine is an error's message on one line: a scenario with one fault
// gets one line naming the place, more faults one line each.
func oneLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n  ")
}

// flags makes a subcommand's flag set whose -help prints its usage on
// stdout.
func flags(name, args, about string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("cablefmu "+name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: cablefmu %s %s\n\n%s\n", name, args, about)
		if hasFlags(fs) {
			fmt.Fprintln(fs.Output())
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parse reads flags and positional arguments in any order (the flag
// package stops at the first positional one), every argument after "--"
// positional, and checks their count (−1: any).
func parse(fs *flag.FlagSet, args []string, positional int) ([]string, error) {
	help := fs.Output()
	fs.SetOutput(io.Discard) // errors are reported once, by the caller
	defer fs.SetOutput(help)
	var pos, after []string
	// After "--" every argument is positional: a folder named -x.
	if i := slices.Index(args, "--"); i >= 0 {
		args, after = args[:i], args[i+1:]
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(help)
				fs.Usage()
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	pos = append(pos, after...)
	if positional >= 0 && len(pos) != positional {
		switch {
		case positional == 0:
			return nil, usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
		case len(pos) < positional:
			return nil, usageError{"missing argument"}
		default:
			return nil, usageError{fmt.Sprintf("one argument expected, got %d: %s", len(pos), strings.Join(pos, " "))}
		}
	}
	return pos, nil
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := flags("export", "SCENARIO_DIR [-o X.fmu] [-fmi 3] [-platforms LIST]",
		"Writes the scenario folder's FMU: the model description, the engine library of each platform and the\n"+
			"scenario with its plugins and resources/ as the FMU's resources.", stdout)
	out := fs.String("o", "", "the FMU to write (default: MODELIDENTIFIER.fmu in the working directory)")
	version := fs.Int("fmi", 2, "the FMI version: 2 or 3")
	list := fs.String("platforms", "", "platforms, separated by commas: linux64, win64 (default: "+engineSource().defaults()+")")
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	if *version != 2 && *version != 3 {
		return usageError{fmt.Sprintf("-fmi %d: want 2 or 3", *version)}
	}
	var platforms []exporter.Platform
	if *list != "" {
		if platforms, err = exporter.ParsePlatforms(*list); err != nil {
			return usageError{err.Error()}
		}
	}
	// The scenario and the output path are checked before the engines
	// are looked at: a mistake is reported at once, not after a
	// compilation.
	c, err := exporter.Check(pos[0])
	if err != nil {
		return err
	}
	if _, err := c.CheckOut(*out); err != nil {
		return err
	}
	engines, err := engineSource().engines(platforms, stderr)
	if err != nil {
		return err
	}
	path, err := c.Write(*out, *version, engines)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", path)
	return nil
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flags("check", "SCENARIO_DIR", "Checks the scenario and its plugins as export does (the plugins run through their first\n"+
		"communication point) and writes nothing.", stdout)
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	c, err := exporter.Check(pos[0])
	if err != nil {
		return err
	}
	for _, v := range []int{2, 3} {
		if _, err := c.Describe(v); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s: %s, model %s, %d ports, %d plugins: ok\n", pos[0], c.Scenario.ModelIdentifier, c.Scenario.Model, len(c.Scenario.Ports), len(c.Scenario.Plugins))
	return nil
}

func runSchema(args []string, stdout, stderr io.Writer) error {
	fs := flags("schema", "", "Prints the JSON Schema of scenario.json for every model this command carries.", stdout)
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	text, err := exporter.Schema()
	if err != nil {
		return err
	}
	_, err = stdout.Write(text)
	return err
}

func runEngines(args []string, stdout, stderr io.Writer) error {
	fs := flags("engines", "-o DIR [-platforms LIST]", "Compiles the engine of each platform from the source tree into DIR, for scripts/dist.sh\n"+
		"to build the command that carries them.", stdout)
	dir := fs.String("o", "", "the folder to write the engines into")
	list := fs.String("platforms", "linux64,win64", "platforms, separated by commas")
	if _, err := parse(fs, args, 0); err != nil {
		return err
	}
	if *dir == "" {
		return usageError{"-o DIR is required"}
	}
	platforms, err := exporter.ParsePlatforms(*list)
	if err != nil {
		return usageError{err.Error()}
	}
	root, err := exporter.ModuleRoot()
	if err != nil {
		return err
	}
	var engines []exporter.Engine
	for _, p := range platforms {
		e, err := exporter.Compile(root, p)
		if err != nil {
			return err
		}
		engines = append(engines, e)
	}
	if err := exporter.WriteEngines(*dir, engines); err != nil {
		return err
	}
	src, err := exporter.SourceHash(root)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*dir, exporter.SourceFile), []byte(src+"\n"), 0o644); err != nil {
		return fmt.Errorf("engines folder: %w", err)
	}
	for _, e := range engines {
		fmt.Fprintf(stdout, "%s engine %s (%d bytes) in %s\n", e.Platform.Name, e.ID(), e.Library.Size(), *dir)
	}
	return nil
}
