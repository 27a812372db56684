package fmu

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Variable is one model quantity exposed as an FMI variable. Its value
// reference is its index in the model's variable list.
type Variable struct {
	Name        string
	Description string
	Unit        string // SI unit, a name modeldesc.SIUnits knows
	Causality   modeldesc.Causality
	Variability modeldesc.Variability
	Start       float64 // parameters and inputs
	Min, Max    *float64
	// Type is Real (""), Integer (a count) or Boolean (a switch); the
	// runtime holds every value as a float64 (false 0, true 1), and the
	// FMI functions of the type read and write it.
	Type modeldesc.Type
	// Peak marks a Real output that the runtime reports as its largest
	// value over the last communication step: the simulation gives the
	// quantity's value at each internal step, and the output is the
	// largest of those within the step and of the values at its two ends
	// (as the output would be interpolated there), so that a master
	// stepping slower than the quantity changes reads its peaks all the
	// same.
	Peak bool
}

// Kind returns the variable's FMI 2.0 type: Real where Type is empty.
func (v Variable) Kind() modeldesc.Type {
	if v.Type == "" {
		return modeldesc.TypeReal
	}
	return v.Type
}

// Model is a cable model plugin: it reads a scenario and says what the FMU
// built from it exposes.
type Model interface {
	// Name is the name scenarios use to select the model.
	Name() string
	// Summary says in one line when to pick the model and the paper it
	// follows, for the list of models the command prints.
	Summary() string
	// Configure checks a scenario of this model and returns it ready to
	// build simulations. A refusal of a place in the scenario (a
	// *PositionError in sc.Config, without a file, as DecodeStrict, AtKey
	// and AtValue make them; a *ValueError; a *PortError) is returned as
	// it is or joined with others by errors.Join, not wrapped, so that
	// Registry.Configure can place it in the scenario's file.
	Configure(sc *Scenario) (Configured, error)
}

// Validated is implemented by models that state what their validation
// measured, for the FMUs' documentation.
type Validated interface {
	Validation() []Figure
}

// Figure is one check of a model: what was checked against what, the
// result, the tolerance the test holds it to, and the test.
type Figure struct {
	Check, Result, Tolerance, Test string
}

// Offering is a configured model that lists every quantity its scenario
// could make a port, not only those it does: what `cablefmu models NAME`
// lists.
type Offering interface {
	Quantities() []Variable
}

// Configured is a model bound to one scenario.
type Configured interface {
	// Variables lists the FMU's variables; value reference = index.
	Variables() []Variable
	// NewSimulation builds a simulation from the variable values (indexed
	// like Variables: parameters and inputs at the start time are set). The
	// simulation starts in static equilibrium.
	NewSimulation(values []float64) (Simulation, error)
	// InternalStep returns the internal step h (s) for the given variable
	// values (parameters, fixed for a run): the simulation steps on the
	// grid start + k·internalStep whatever the communication steps.
	InternalStep(values []float64) float64
}

// Simulation is one running world.
type Simulation interface {
	// Step advances one internal step of h seconds, the step the simulation
	// was built with (its values' InternalStep, which the runtime lays its
	// grid with: a parameter, fixed for the run). from and to hold all
	// variable values at the start and end of the step. The driven points'
	// inputs (Driver) are their smooth path's position and velocity at the
	// step's start and end. The other inputs are the master's values,
	// extrapolated with their derivatives: first marks the first internal
	// step after a communication point, which starts lead ≥ 0 seconds after
	// it (internal steps keep a fixed grid whatever the master's
	// communication points), and from then holds those inputs at the
	// communication point itself, as the master set them, so that at the
	// step's start they are from + (to − from)·lead/(lead + h). After the
	// first step lead is 0.
	Step(lead float64, from, to []float64, first bool) error
	// Outputs writes the output variables into values.
	Outputs(values []float64)
	// SaveState appends everything the simulation carries from step to
	// step to dst; LoadState restores it into a simulation built from the
	// same values (the runtime keeps those with the state: a model may
	// place its world from the inputs to the last bit, as the wire hoist
	// derives its sheaves' pins from the boom tip's position). A restored
	// simulation continues bitwise identically.
	SaveState(dst []float64) []float64
	LoadState(src []float64) error
}

// PointOutputter is implemented by simulations some of whose outputs are
// set at communication points (CommunicationPointer) rather than by the
// internal steps: the runtime reports those as set, not interpolated
// between grid points.
type PointOutputter interface {
	// PointOutputs writes the outputs set at the last communication point
	// into values.
	PointOutputs(values []float64)
}

// EventSource is implemented by simulations that report events (a cable
// going slack, a winch reaching its limit); the runtime logs them under
// logEvents after each communication step.
type EventSource interface {
	DrainEvents() []string
}

// Registry maps model names to plugins. The exporter and the runtime build
// the same registry, so an FMU can only name a model its binary contains.
type Registry struct {
	models  map[string]Model
	renamed map[string]string // a former model name → its name now
	plugins Extension
}

// NewRegistry returns a registry holding models.
func NewRegistry(models ...Model) (*Registry, error) {
	r := &Registry{models: make(map[string]Model)}
	for _, m := range models {
		if _, dup := r.models[m.Name()]; dup {
			return nil, fmt.Errorf("model %q registered twice", m.Name())
		}
		r.models[m.Name()] = m
	}
	return r, nil
}

// UsePlugins sets the extension that runs scenarios' plugins; without one
// a scenario with plugins is refused.
func (r *Registry) UsePlugins(e Extension) { r.plugins = e }

// Rename records that the model now called name was called former, so that
// a scenario naming it the old way is told the new name.
func (r *Registry) Rename(former, name string) {
	if r.renamed == nil {
		r.renamed = make(map[string]string)
	}
	r.renamed[former] = name
}

// Lookup returns the model called name. A name the registry does not
// have is refused with the model's name now if it is a former one, else
// with the nearest name if one is near (Nearest) and the names it has.
func (r *Registry) Lookup(name string) (Model, error) {
	m, ok := r.models[name]
	if !ok {
		if now, ok := r.renamed[name]; ok {
			return nil, fmt.Errorf("cable model %q is now called %q: write \"model\": %q", name, now, now)
		}
		names := r.Names()
		if near, ok := Nearest(name, names); ok {
			return nil, fmt.Errorf("unknown model %q: did you mean %q? (this binary has %s)", name, near, strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("unknown model %q (this binary has %s)", name, strings.Join(names, ", "))
	}
	return m, nil
}

// Names returns the registered model names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.models))
	for n := range r.models {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Configure looks up the scenario's model and configures it. Its
// refusals are placed in the scenario's file where they can be (a
// scenario read by ParseScenario): an unknown model at the "model"
// value; the model's refusals of places in the scenario (see
// Model.Configure) at their key or value, each line after the model's
// name; its other refusals as the model words them, after the model's
// name too.
func (r *Registry) Configure(sc *Scenario) (Configured, error) {
	m, err := r.Lookup(sc.Model)
	if err != nil {
		return nil, sc.refusal("model", false, err)
	}
	cfg, err := m.Configure(sc)
	if err != nil {
		return nil, sc.configError(fmt.Sprintf("model %q", sc.Model), err)
	}
	if len(sc.Plugins) > 0 {
		if r.plugins == nil {
			return nil, sc.refusal("plugins", false, errors.New("the scenario has plugins, but this binary cannot run them"))
		}
		if cfg, err = r.plugins.Extend(cfg, sc); err != nil {
			return nil, err
		}
	}
	if err := checkGroups(cfg.Variables()); err != nil {
		return nil, fmt.Errorf("model %q: %w", sc.Model, err)
	}
	return cfg, nil
}

// checkGroups refuses a variable whose name is also the start of another's
// before a dot ("load.fx" and "load.fx.x", from a body named "load.fx"):
// tools that build the tree of structured names (a Modelica record, a
// signal bus) cannot make one node both a value and a group of values.
// The FMI 3.0 arrays count as values ("wire.node", gathered from
// "wire.node[k].x", Layout3).
func checkGroups(vars []Variable) error {
	values := make(map[string]bool, len(vars))
	var names []string
	for _, v := range vars {
		values[v.Name] = true
		names = append(names, v.Name)
	}
	for _, v := range Layout3(vars)[1:] { // not time
		if v.Dims != nil {
			values[v.Name] = true
			names = append(names, v.Name)
		}
	}
	for _, name := range names {
		for i, c := range name {
			if c == '[' {
				break // within an array's elements: its own tree
			}
			if c == '.' && values[name[:i]] {
				return fmt.Errorf("variable %q is also the start of %q: name the body, cable or plugin so that no port's name begins another's", name[:i], name)
			}
		}
	}
	return nil
}
