package fmu

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

	raw []byte
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseScenario decodes and checks a scenario; unknown fields are errors
// so that a misspelt setting is not silently ignored.
func ParseScenario(data []byte) (*Scenario, error) {
	var sc Scenario
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	var errs []error
	if sc.Model == "" {
		errs = append(errs, errors.New(`scenario: "model" is missing`))
	}
	if !identifier.MatchString(sc.ModelIdentifier) {
		errs = append(errs, fmt.Errorf("scenario: modelIdentifier %q is not a C identifier", sc.ModelIdentifier))
	}
	if !(sc.Step > 0) {
		errs = append(errs, fmt.Errorf("scenario: step %g s: must be positive", sc.Step))
	}
	if !(sc.StopTime > 0) {
		errs = append(errs, fmt.Errorf("scenario: stopTime %g s: must be positive", sc.StopTime))
	}
	if len(sc.Ports) == 0 {
		errs = append(errs, errors.New("scenario: no ports"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sc.raw = data
	return &sc, nil
}

// ReadScenario reads the scenario from a resources folder.
func ReadScenario(resourceDir string) (*Scenario, error) {
	data, err := os.ReadFile(filepath.Join(resourceDir, ScenarioFile))
	if err != nil {
		return nil, fmt.Errorf("reading scenario: %w", err)
	}
	return ParseScenario(data)
}

// GUID returns the instantiation token of the FMU built from this scenario
// by this engine: a hash of both, shaped like a UUID.
func (sc *Scenario) GUID() string {
	sum := sha256.Sum256(append([]byte("cablefmu "+Version+"\x00"), sc.raw...))
	return fmt.Sprintf("{%x-%x-%x-%x-%x}", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}

// ResourceDir turns the fmuResourceLocation URI an importer passes
// (file:///path, file:/path, or a plain path from lax importers) into a
// folder path, and checks that it exists.
func ResourceDir(location string) (string, error) {
	if location == "" {
		return "", errors.New("no resource location given")
	}
	path := location
	if strings.HasPrefix(location, "file:") {
		u, err := url.Parse(location)
		if err != nil {
			return "", fmt.Errorf("resource location %q: %w", location, err)
		}
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("resource location %q: remote host %q not supported", location, u.Host)
		}
		path = u.Path
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("resource folder: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("resource location %q is not a folder", path)
	}
	return path, nil
}
