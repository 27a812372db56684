package fmu

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"unicode/utf8"
)

// Version is the engine version; it enters every FMU's GUID, so an FMU
// built by one engine refuses to run on another.
const Version = "0.1.0"

// ScenarioFile is the scenario's name inside the FMU's resources folder.
const ScenarioFile = "scenario.json"

// Scenario is the JSON description of one FMU: the model, its settings and
// which quantities become ports. The model-specific part stays raw for the
// model plugin to decode.
type Scenario struct {
	// Model names the cable model plugin.
	Model string `json:"model"`
	// ModelIdentifier names the binary and the C symbols' prefix-free FMU.
	ModelIdentifier string `json:"modelIdentifier"`
	Description     string `json:"description"`
	// StopTime is the default experiment's stop time (s).
	StopTime float64 `json:"stopTime"`
	// Step is the default internal step h (s), also the default
	// experiment's step size.
	Step float64 `json:"step"`
	// Ports lists the quantities exposed, in value-reference order.
	Ports []string `json:"ports"`
	// Config is the model's own settings.
	Config json.RawMessage `json:"config"`
	// Plugins are Python files run inside the FMU at every internal step
	// (controllers, force laws, custom outputs), in this order.
	Plugins []PluginRef `json:"plugins"`

	file    []byte            // the scenario file as read, which the GUID hashes
	raw     []byte            // file without a byte order mark
	tree    *node             // raw's tree, for the positions of refusals
	sources map[string][]byte // plugin file → contents, once loaded
}

// PluginRef names one Python plugin of a scenario.
type PluginRef struct {
	// Name prefixes the plugin's FMU variables ("controller" gives
	// "controller.tension_limit").
	Name string `json:"name"`
	// File is the plugin's path relative to the scenario's folder; the FMU
	// carries it at the same path under resources/.
	File string `json:"file"`
	// Operations is how many operations one call of the plugin may run
	// (loop iterations, function calls, comprehension and iterator items:
	// see the plugin reference), the default of its "<name>.operations"
	// parameter; 0 means DefaultOperations. Counted, not timed, so that a
	// call's outcome does not depend on the machine or its load.
	Operations float64 `json:"operations"`
	// Memory is how much one call of the plugin may grow the heap (MB),
	// the default of its "<name>.memory" parameter; 0 means DefaultMemory.
	Memory float64 `json:"memory"`
	// Timeout is the wall-clock time one call may take (s), the default of
	// its "<name>.timeout" parameter; 0 means DefaultTimeout. It is only a
	// last guard against work no counter sees, far above any normal call.
	Timeout float64 `json:"timeout"`
	// Budget is the time budget (s) of earlier versions; a scenario that
	// still sets it is refused with what replaced it.
	Budget *float64 `json:"budget" schema:"-"`
}

// Limits returns the plugin's operations budget, memory budget (MB) and
// wall-clock guard (s), with the defaults where the scenario sets none.
// The default guard stays above what the operations budget allows:
// DefaultTimeout, or SlowestOperation per operation where that is longer.
func (p PluginRef) Limits() (operations, memory, timeout float64) {
	operations, memory, timeout = p.Operations, p.Memory, p.Timeout
	if operations == 0 {
		operations = DefaultOperations
	}
	if memory == 0 {
		memory = DefaultMemory
	}
	if timeout == 0 {
		timeout = min(max(DefaultTimeout, operations*SlowestOperation), MaxTimeout)
	}
	return operations, memory, timeout
}

// SlowestOperation is a generous bound on what one operation of a plugin
// takes (s): about four times the slowest measured on a 2-core x86-64
// machine, for a loop reading bodies and cables through the API.
const SlowestOperation = 5e-6

// DefaultOperations is a plugin call's operations budget when the
// scenario sets none, MinOperations and MaxOperations its range. One
// operation is 0.15–1.4 µs on a 2-core x86-64 machine (see the plugin
// reference), so the default allows 0.3–3 s of work in one call, far
// more than a controller or a force law needs.
const (
	DefaultOperations = 2e6
	MinOperations     = 1.0
	MaxOperations     = 1e12
)

// DefaultTimeout is a plugin call's wall-clock guard when the scenario
// sets none, MinTimeout and MaxTimeout its range (s).
const (
	DefaultTimeout = 10.0   // s
	MinTimeout     = 0.01   // s
	MaxTimeout     = 3600.0 // s
)

// DefaultMemory is a plugin call's memory budget when the scenario sets
// none, MinMemory and MaxMemory its range (MB): a plugin computes a
// controller's or a force law's numbers, not data sets, and a bounded heap
// also bounds how deeply its values can nest.
const (
	DefaultMemory = 64.0  // MB
	MinMemory     = 1.0   // MB
	MaxMemory     = 256.0 // MB
)

// MaxStopTime bounds the default experiment's stop time (s, about 30
// years): beyond it a number is a typing mistake, not a simulation anyone
// runs. MinStep and MaxStep bound the scenario's step (s), the default of
// the models' internal step internalStep, whose range they are too.
const (
	MaxStopTime = 1e9
	MinStep     = 1e-6
	MaxStep     = 1.0
)

// MaxModelIdentifier bounds a modelIdentifier's length: with a platform's
// suffix it names the binary, and a file name has at most 255 bytes.
const MaxModelIdentifier = 200

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseScenario decodes and checks a scenario; unknown fields are errors
// so that a misspelt setting is not silently ignored. Its refusals are
// *PositionErrors in ScenarioFile (DecodeStrict's; a value out of range
// at the value, a missing key at the object lacking it), joined by
// errors.Join when there are several, one a line.
func ParseScenario(data []byte) (*Scenario, error) {
	var sc Scenario
	// A byte order mark, as Windows editors save UTF-8, is no part of the
	// document; the GUID still hashes the file as it is.
	body := bytes.TrimPrefix(data, []byte("\ufeff"))
	tree, err := decodeStrict(body, &sc)
	if err != nil {
		return nil, inFile(ScenarioFile, err)
	}
	sc.raw, sc.file, sc.tree = body, data, tree
	var errs []error
	// add refuses the value at path (the key itself if key is set).
	add := func(path string, key bool, format string, args ...any) {
		errs = append(errs, sc.refusal(path, key, fmt.Errorf(format, args...)))
	}
	// A key the scenario lacks is refused as missing, at the document's
	// opening brace.
	missing := func(key string) bool {
		_, _, there := tree.find(key)
		if !there {
			add(key, false, "%q is missing", key)
		}
		return !there
	}
	if !missing("model") && sc.Model == "" {
		add("model", false, `"model" is empty: want a model's name`)
	}
	switch {
	case missing("modelIdentifier"):
	case len(sc.ModelIdentifier) > MaxModelIdentifier:
		add("modelIdentifier", false, "modelIdentifier of %d characters: at most %d (it names the binary, and file names have limits)", len(sc.ModelIdentifier), MaxModelIdentifier)
	case !identifier.MatchString(sc.ModelIdentifier):
		add("modelIdentifier", false, "modelIdentifier %q is not a C identifier", sc.ModelIdentifier)
	case windowsDevice(sc.ModelIdentifier):
		add("modelIdentifier", false, "modelIdentifier %q is a Windows device name: the FMU's %s.dll could not be unpacked on Windows", sc.ModelIdentifier, sc.ModelIdentifier)
	}
	if !missing("step") && !(sc.Step >= MinStep && sc.Step <= MaxStep) {
		add("step", false, "step %g s: must lie in [%g, %g] s (the default internal step, internalStep)", sc.Step, MinStep, MaxStep)
	}
	if !missing("stopTime") && !(sc.StopTime > 0 && sc.StopTime <= MaxStopTime) {
		add("stopTime", false, "stopTime %g s: must lie in (0, %g] s", sc.StopTime, MaxStopTime)
	}
	if !missing("ports") && len(sc.Ports) == 0 {
		add("ports", false, "no ports")
	}
	seen := map[string]bool{}
	for i, p := range sc.Plugins {
		at := fmt.Sprintf("plugins[%d].", i)
		if !identifier.MatchString(p.Name) || seen[p.Name] {
			add(at+"name", false, "plugin name %q: want an identifier used once", p.Name)
		}
		seen[p.Name] = true
		if err := checkPluginPath(p.File); err != nil {
			add(at+"file", false, "plugin %q: %w", p.Name, err)
		}
		if p.Budget != nil {
			add(at+"budget", true, `plugin %q: "budget" (a time in seconds) is replaced by "operations" (how many operations one call may run, default %g: the same outcome on any machine at any load) and "timeout" (a wall-clock guard in seconds, default %g)`, p.Name, DefaultOperations, DefaultTimeout)
		}
		if !(p.Operations == 0 || p.Operations >= MinOperations && p.Operations <= MaxOperations && p.Operations == math.Trunc(p.Operations)) {
			add(at+"operations", false, "plugin %q: operations %g: must be a whole number in [%g, %g] (0: default %g)", p.Name, p.Operations, MinOperations, MaxOperations, DefaultOperations)
		}
		if !(p.Timeout == 0 || p.Timeout >= MinTimeout && p.Timeout <= MaxTimeout) {
			add(at+"timeout", false, "plugin %q: timeout %g s: must lie in [%g, %g] (0: default %g)", p.Name, p.Timeout, MinTimeout, MaxTimeout, DefaultTimeout)
		}
		if !(p.Memory == 0 || p.Memory >= MinMemory && p.Memory <= MaxMemory) {
			add(at+"memory", false, "plugin %q: memory %g MB: must lie in [%g, %g] (0: default)", p.Name, p.Memory, MinMemory, MaxMemory)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &sc, nil
}

// refusal places err in the scenario's file: at path's value, or its key
// if key is set, or where path's key is missing at the object that lacks
// it. A scenario not read by ParseScenario has no file: err is then
// returned as it is.
// windowsDevice reports whether id names a Windows device (CON, PRN,
// AUX, NUL, COM0–9, LPT0–9, in any case), which no file on Windows may be
// named, with or without an extension.
func windowsDevice(id string) bool {
	switch u := strings.ToUpper(id); u {
	case "CON", "PRN", "AUX", "NUL":
		return true
	default:
		return len(u) == 4 && (strings.HasPrefix(u, "COM") || strings.HasPrefix(u, "LPT")) && u[3] >= '0' && u[3] <= '9'
	}
}

func (sc *Scenario) refusal(path string, key bool, err error) error {
	if sc.tree == nil {
		return err
	}
	k, n, exact := sc.tree.find(path)
	off := n.off
	if exact && key && k >= 0 {
		off = k
	}
	return inFile(ScenarioFile, positionAt(sc.raw, off, err))
}

// where names the place of path's value in the scenario's file
// ("scenario.json:14:7"), "" if the scenario was not read from one or
// has no such value.
func (sc *Scenario) where(path string) string {
	if sc.tree == nil {
		return ""
	}
	_, n, exact := sc.tree.find(path)
	if !exact {
		return ""
	}
	line, col := position(sc.raw, n.off)
	return fmt.Sprintf("%s:%d:%d", ScenarioFile, line, col)
}

// configError places a refusal of the model's config in the scenario's
// file, with context before each line (WithContext): a *PositionError
// without a file, as DecodeStrict, AtKey and AtValue return it for the
// config, is moved by the offset at which "config" stands in the file; a
// *ValueError goes to its value and a *PortError to its port's name if
// the scenario holds them; each of errors joined by errors.Join is placed
// in turn. A scenario not read by ParseScenario has no file: the errors
// then keep their positions in the config.
func (sc *Scenario) configError(context string, err error) error {
	if parts, ok := joined(err); ok {
		for i, p := range parts {
			parts[i] = sc.configError(context, p)
		}
		return errors.Join(parts...)
	}
	if sc.tree == nil {
		return WithContext(context, err)
	}
	var ve *ValueError
	var pe *PortError
	switch e := err.(type) {
	case *PositionError:
		if _, n, exact := sc.tree.find("config"); exact && e.File == "" && e.Offset <= len(sc.Config) {
			moved := positionAt(sc.raw, n.off+e.Offset, e.Err)
			moved.File = ScenarioFile
			err = moved
		}
	case *ValueError:
		ve = e
	case *PortError:
		pe = e
	}
	switch {
	case ve != nil:
		if _, n, exact := sc.tree.find(join("config", ve.Path)); exact {
			err = inFile(ScenarioFile, positionAt(sc.raw, n.off, ve.Err))
		}
	case pe != nil:
		nth := pe.Nth
		for i, name := range sc.Ports {
			if name != pe.Name {
				continue
			}
			if nth--; nth < 0 {
				err = sc.refusal(fmt.Sprintf("ports[%d]", i), false, pe.Err)
				break
			}
		}
	}
	return WithContext(context, err)
}

// ValueError is a refusal of the value at Path in a scenario's config
// ("cable.rope.E", "suspension.position[0]"), as a model's checks make it
// after decoding. Registry.Configure places it at that value in the
// scenario's file if the config holds one there; its message is Err's.
type ValueError struct {
	Path string
	Err  error
}

func (e *ValueError) Error() string { return e.Err.Error() }
func (e *ValueError) Unwrap() error { return e.Err }

// PortError is a refusal of a port the scenario lists: the port Name,
// listed Nth (from 0) among the scenario's ports of that name (1 for the
// second listing of a name listed twice). Registry.Configure places it
// at that listing in the scenario's file if there is one; its message is
// Err's.
type PortError struct {
	Name string
	Nth  int
	Err  error
}

func (e *PortError) Error() string { return e.Err.Error() }
func (e *PortError) Unwrap() error { return e.Err }

// checkPluginPath accepts a relative slash-separated path to a .py file
// that stays inside the scenario's folder.
func checkPluginPath(file string) error {
	switch {
	case file == "" || path.IsAbs(file) || strings.Contains(file, "\\"):
		return fmt.Errorf("file %q: want a relative path with / separators", file)
	case path.Clean(file) != file || strings.HasPrefix(file, "../") || file == "..":
		return fmt.Errorf("file %q: want a clean path inside the scenario's folder", file)
	case !strings.HasSuffix(file, ".py"):
		return fmt.Errorf("file %q: a Python plugin's name ends in .py", file)
	case file == ScenarioFile:
		return fmt.Errorf("file %q is the scenario", file)
	}
	return nil
}

// ReadScenario reads the scenario and its plugins from a folder: the
// FMU's resources or a scenario folder of the exporter.
func ReadScenario(dir string) (*Scenario, error) {
	data, err := os.ReadFile(filepath.Join(dir, ScenarioFile))
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	sc, err := ParseScenario(data)
	if err != nil {
		return nil, err
	}
	if err := sc.LoadPlugins(dir); err != nil {
		return nil, err
	}
	return sc, nil
}

// LoadPlugins reads the scenario's plugin files from dir. A file that
// cannot be read is refused in one line naming the file (its path in the
// scenario's folder), what is wrong, the plugin and where the scenario
// names the file: "plugins/wind.py: no such file (plugin "wind",
// scenario.json:25:30)"; a file that is not UTF-8 with the line and
// column of its first bad byte. A byte order mark is dropped.
func (sc *Scenario) LoadPlugins(dir string) error {
	sc.sources = map[string][]byte{}
	for i, p := range sc.Plugins {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p.File)))
		if err != nil {
			what := err.Error()
			var pe *fs.PathError
			switch {
			case errors.Is(err, fs.ErrNotExist):
				what = "no such file"
			case errors.As(err, &pe):
				what = pe.Err.Error()
			}
			named := fmt.Sprintf("plugin %q", p.Name)
			if at := sc.where(fmt.Sprintf("plugins[%d].file", i)); at != "" {
				named += ", " + at
			}
			return &fileError{msg: fmt.Sprintf("%s: %s (%s)", p.File, what, named), err: err}
		}
		// A byte order mark, as Windows editors save UTF-8, is not
		// Python: gpython read it as a syntax error on a line that looks
		// right.
		b = bytes.TrimPrefix(b, []byte("\ufeff"))
		if !utf8.Valid(b) {
			bad := 0
			for len(b[bad:]) > 0 {
				r, n := utf8.DecodeRune(b[bad:])
				if r == utf8.RuneError && n == 1 {
					break
				}
				bad += n
			}
			line, col := position(b, bad)
			return fmt.Errorf("%s:%d:%d: not UTF-8 (byte 0x%02x): save the plugin as UTF-8", p.File, line, col, b[bad])
		}
		sc.sources[p.File] = b
	}
	return nil
}

// fileError is a refusal of a file with a message of its own, wrapping
// the error of reading it.
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// PluginSource returns the contents of a plugin file read by LoadPlugins.
func (sc *Scenario) PluginSource(file string) ([]byte, error) {
	b, ok := sc.sources[file]
	if !ok {
		return nil, fmt.Errorf("plugin file %q was not loaded with the scenario", file)
	}
	return b, nil
}

// GUID returns the instantiation token of the FMU built from this scenario
// by this engine: a hash of both and of the plugins' code, shaped like a
// UUID.
func (sc *Scenario) GUID() string {
	h := sha256.New()
	h.Write([]byte("cablefmu " + Version + "\x00"))
	h.Write(sc.file)
	for _, p := range sc.Plugins {
		fmt.Fprintf(h, "\x00%s\x00%d\x00", p.File, len(sc.sources[p.File]))
		h.Write(sc.sources[p.File])
	}
	sum := h.Sum(nil)
	return fmt.Sprintf("{%x-%x-%x-%x-%x}", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}

// resourcePath is the folder path a resource location names, in the
// form of Windows when windows is set. A file URI's path is
// percent-decoded; on Windows file:///C:/a%20b is C:\a b (the slash before
// the drive letter belongs to the URI, not to the path), file://host/share
// is the UNC path \\host\share, and backslashes that lax importers put
// into URIs are read as slashes.
func resourcePath(location string, windows bool) (string, error) {
	if location == "" {
		return "", errors.New("no resource location given")
	}
	if !strings.HasPrefix(strings.ToLower(location), "file:") {
		return location, nil
	}
	uri := location
	if windows {
		uri = strings.ReplaceAll(uri, `\`, "/")
	}
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("resource location %q: %w", location, err)
	}
	path := u.Path
	// An unencoded '?' or '#' is part of a lax importer's path, not a
	// query or a fragment of the file.
	if u.ForceQuery || u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if u.Fragment != "" || strings.HasSuffix(location, "#") {
		path += "#" + u.Fragment
	}
	if u.Opaque != "" { // file:C:/dir
		if path, err = url.PathUnescape(u.Opaque); err != nil {
			return "", fmt.Errorf("resource location %q: %w", location, err)
		}
	}
	if windows && len(u.Host) == 2 && u.Host[1] == ':' && isLetter(u.Host[0]) {
		// file://C:/dir, two slashes only: the drive is no host.
		path, u.Host = u.Host+path, ""
	}
	remote := u.Host != "" && !strings.EqualFold(u.Host, "localhost")
	if !windows {
		if remote {
			return "", fmt.Errorf("resource location %q: remote host %q not supported", location, u.Host)
		}
		return path, nil
	}
	if remote {
		return `\\` + u.Host + strings.ReplaceAll(path, "/", `\`), nil
	}
	if len(path) >= 3 && path[0] == '/' && path[2] == ':' && isLetter(path[1]) {
		path = path[1:]
	}
	return strings.ReplaceAll(path, "/", `\`), nil
}

func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

// ResourceDir turns the fmuResourceLocation URI an importer passes
// (file:///path, file:/path, or a plain path from lax importers; FMI 3.0
// passes a plain path) into a folder path, and checks that it exists.
func ResourceDir(location string) (string, error) {
	path, err := resourcePath(location, runtime.GOOS == "windows")
	if err != nil {
		return "", err
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("resource folder %s (from %s): %w", path, location, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("resource location %q is not a folder", path)
	}
	return path, nil
}
