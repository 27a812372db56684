package fmu

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// State is a state of the FMI 2.0 Co-Simulation state machine.
type State int

const (
	Instantiated State = 1 << iota
	InitializationMode
	StepComplete
	Terminated
	Failed // the standard's "error" state: only reset or free help
)

func (s State) String() string {
	switch s {
	case Instantiated:
		return "instantiated"
	case InitializationMode:
		return "initialization mode"
	case StepComplete:
		return "slave initialized"
	case Terminated:
		return "terminated"
	case Failed:
		return "error"
	}
	return "unknown state"
}

// Config is what an importer passes to instantiate an FMU.
type Config struct {
	InstanceName string
	GUID         string
	// ResourceLocation is the fmuResourceLocation URI.
	ResourceLocation string
	Logger           Logger
	LoggingOn        bool
	Registry         *Registry
}

// Instance is one FMU instance: it owns its world. Its methods are safe
// to call from several goroutines, though FMI importers call one instance
// from one thread at a time.
type Instance struct {
	mu       sync.Mutex
	name     string
	logger   Logger
	enabled  map[string]bool
	scenario *Scenario
	model    Configured
	vars     []Variable

	state    State
	values   []float64 // by value reference; inputs as the master set them
	deriv    []float64 // first derivatives of inputs for the next step
	sim      Simulation
	backup   []float64 // scratch: the simulation's state while SetState loads another
	dirty    bool      // parameters or inputs changed since sim was built
	time     float64
	start    float64
	stop     float64
	hasEnd   bool
	from     []float64 // scratch: values at the start and end of an internal step
	to       []float64
	inputs   []int  // value references of the inputs
	outputs  []int  // value references of the outputs
	discrete []int  // those of the outputs not of type Real
	peaks    []int  // those that are Variable.Peak
	trace    bool   // logCalls enabled
	derivSet []bool // inputs whose derivatives were set since the last step
	// The internal steps keep a fixed grid, start + k·h, whatever the
	// master's communication points: the simulation stands at the first
	// grid point at or after the communication point, and outputs between
	// grid points are interpolated (see DoStep).
	ahead   float64   // s, 0 ≤ ahead < h: the simulation's time less the communication point's
	prev    []float64 // outputs one internal step before the simulation's time
	cur     []float64 // outputs at the simulation's time
	rates   []float64 // outputs' first derivatives at the communication point
	peak    []float64 // scratch: the peak outputs' largest values in a step
	pending []message
	layout3 []Var3 // the FMI 3.0 variables, when created through that interface
	// The driven points' paths (path.go): an axis each, the points'
	// names, whether the one-time message that a point follows its
	// positions alone was logged, the internal steps taken since the
	// simulation was built, the time of the last communication point,
	// the lag of a sample's knot and the last communication point whose
	// step asked for it (in internal steps).
	paths                        []pathAxis
	drivenNames                  []string
	pathsLogged                  []bool
	clock, lastPoint, lag, lagAt float64
	lead                         lead
	// built holds the values the simulation was built from: a restored
	// state continues bitwise only in a simulation built alike (a model
	// may place its world from the inputs, to the last bit).
	built []float64
}

// message is a log message held until the instance lock is released, so
// that a logger may call back into the instance.
type message struct {
	status        Status
	category, msg string
}

// maxInternalSteps bounds the internal steps of one communication step: a
// request beyond it would block the importer's thread for hours.
const maxInternalSteps = 10_000_000

// Instantiate creates an instance: reads the scenario from the resources,
// checks the GUID, configures the model.
func Instantiate(cfg Config) (*Instance, error) {
	inst := &Instance{name: cfg.InstanceName, logger: cfg.Logger, enabled: map[string]bool{}}
	if cfg.LoggingOn {
		for _, c := range LogCategories {
			inst.enabled[c.Name] = true
		}
	}
	if cfg.Registry == nil {
		return nil, errors.New("no model registry")
	}
	dir, err := ResourceDir(cfg.ResourceLocation)
	if err != nil {
		return nil, err
	}
	sc, err := ReadScenario(dir)
	if err != nil {
		return nil, err
	}
	if cfg.GUID != sc.GUID() {
		return nil, fmt.Errorf("GUID %q does not match this FMU's %q: the model description and the resources come from different builds", cfg.GUID, sc.GUID())
	}
	model, err := cfg.Registry.Configure(sc)
	if err != nil {
		return nil, err
	}
	inst.scenario, inst.model, inst.vars = sc, model, model.Variables()
	inst.paths, inst.drivenNames = newPaths(model)
	for i, v := range inst.vars {
		switch v.Causality {
		case modeldesc.CausalityInput:
			inst.inputs = append(inst.inputs, i)
		case modeldesc.CausalityOutput:
			inst.outputs = append(inst.outputs, i)
			if v.Kind() != modeldesc.TypeReal {
				inst.discrete = append(inst.discrete, i)
			} else if v.Peak {
				inst.peaks = append(inst.peaks, i)
			}
		}
	}
	inst.trace = inst.enabled["logCalls"]
	inst.reset()
	return inst, nil
}

func (in *Instance) reset() {
	n := len(in.vars)
	in.values = make([]float64, n)
	in.deriv = make([]float64, n)
	in.derivSet = make([]bool, n)
	in.prev = make([]float64, n)
	in.cur = make([]float64, n)
	in.rates = make([]float64, n)
	in.peak = make([]float64, n)
	in.from = make([]float64, n)
	in.to = make([]float64, n)
	for i, v := range in.vars {
		in.values[i] = v.Start
	}
	in.state = Instantiated
	in.sim, in.dirty = nil, true
	in.time, in.start, in.stop, in.hasEnd = 0, 0, 0, false
	in.ahead = 0 // a stale value would make the FMU's own states look damaged
	in.pathsLogged = make([]bool, len(in.drivenNames))
	in.startPaths(in.values) // a state saved before the build holds them so
}

// Variables returns the instance's variables (value reference = index).
func (in *Instance) Variables() []Variable { return in.vars }

// Name returns the instance name the importer gave.
func (in *Instance) Name() string { return in.name }

// logf queues a message for the logger (sent when the lock is released);
// discards and errors always reach it, the other categories only when
// enabled.
func (in *Instance) logf(status Status, category, format string, args ...any) {
	if in.logger == nil {
		return
	}
	if status < Discard && !in.enabled[category] {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if in.layout3 != nil {
		msg = fmi3Names.Replace(msg)
	}
	in.pending = append(in.pending, message{status, category, msg})
}

// lock takes the instance lock; unlock releases it and then hands the
// queued messages to the logger.
func (in *Instance) lock() { in.mu.Lock() }

func (in *Instance) unlock() {
	msgs := in.pending
	in.pending = nil
	in.mu.Unlock()
	for _, m := range msgs {
		in.logger.Log(m.status, m.category, m.msg)
	}
}

// traceCall logs an FMI call with its arguments under logCalls; callers
// check in.trace first so that the arguments are built only then.
func (in *Instance) traceCall(fn, format string, args ...any) {
	in.logf(OK, "logCalls", "%s(%s)", fn, fmt.Sprintf(format, args...))
}

func (in *Instance) fail(format string, args ...any) Status {
	in.logf(Error, "logStatusError", format, args...)
	return Error
}

// allowed checks the state machine: fn may be called in the states mask.
func (in *Instance) allowed(fn string, mask State) bool {
	if in.state&mask != 0 {
		return true
	}
	in.logf(Error, "logStatusError", "%s: not allowed in state %s", fn, in.state)
	return false
}

// SetDebugLogging enables the given categories (all when none are named)
// or disables debug logging.
func (in *Instance) SetDebugLogging(on bool, categories []string) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2SetDebugLogging", "%v, %q", on, categories)
	}
	if !in.allowed("fmi2SetDebugLogging", Instantiated|InitializationMode|StepComplete|Terminated|Failed) {
		return Error
	}
	known := map[string]bool{}
	for _, c := range LogCategories {
		known[c.Name] = true
	}
	for _, c := range categories {
		if !known[c] {
			return in.fail("fmi2SetDebugLogging: unknown log category %q", c)
		}
	}
	in.enabled = map[string]bool{}
	in.trace = false
	if !on {
		return OK
	}
	if len(categories) == 0 {
		categories = make([]string, 0, len(LogCategories))
		for _, c := range LogCategories {
			categories = append(categories, c.Name)
		}
	}
	for _, c := range categories {
		in.enabled[c] = true
	}
	in.trace = in.enabled["logCalls"]
	return OK
}

// SetupExperiment sets the start time and, optionally, the stop time.
func (in *Instance) SetupExperiment(toleranceDefined bool, tolerance, start float64, stopDefined bool, stop float64) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2SetupExperiment", "%v, %g, %g, %v, %g", toleranceDefined, tolerance, start, stopDefined, stop)
	}
	if !in.allowed("fmi2SetupExperiment", Instantiated) {
		return Error
	}
	if !finite(start) || (stopDefined && (!finite(stop) || stop < start)) {
		return in.fail("fmi2SetupExperiment: start time %g s, stop time %g s: need finite times with stop ≥ start", start, stop)
	}
	in.start, in.time, in.stop, in.hasEnd = start, start, stop, stopDefined
	return OK
}

// EnterInitializationMode starts initialization.
func (in *Instance) EnterInitializationMode() Status {
	in.lock()
	defer in.unlock()
	if in.trace && in.layout3 == nil { // FMI 3.0 traced it as the setup's call (fmi3EnterInitializationMode)
		in.traceCall("fmi2EnterInitializationMode", "")
	}
	if !in.allowed("fmi2EnterInitializationMode", Instantiated) {
		return Error
	}
	in.state = InitializationMode
	return OK
}

// ExitInitializationMode builds the simulation in static equilibrium.
func (in *Instance) ExitInitializationMode() Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2ExitInitializationMode", "")
	}
	if !in.allowed("fmi2ExitInitializationMode", InitializationMode) {
		return Error
	}
	if err := in.build(); err != nil {
		in.state = Failed
		return in.fail("fmi2ExitInitializationMode: %v", err)
	}
	in.state = StepComplete
	in.logf(OK, "logEvents", "initialized at t = %g s", in.time)
	return OK
}

// build (re)creates the simulation from the current values.
func (in *Instance) build() error {
	if !in.dirty && in.sim != nil {
		return nil
	}
	built := slices.Clone(in.values)
	sim, err := in.model.NewSimulation(built)
	if err != nil {
		return err
	}
	if cp, ok := sim.(CommunicationPointer); ok {
		err := cp.CommunicationPoint(in.time)
		in.drainEvents(sim)
		if err != nil {
			return err
		}
	}
	out := append([]float64(nil), in.values...)
	sim.Outputs(out)
	if err := in.checkOutputs(out); err != nil {
		return fmt.Errorf("%w for these parameters", err)
	}
	copy(in.values, out)
	in.sim, in.dirty, in.built = sim, false, built
	in.ahead = 0
	in.startPaths(in.values)
	copy(in.cur, in.values)
	copy(in.prev, in.values)
	clear(in.rates)
	return nil
}

// drainEvents logs a simulation's events under logEvents.
func (in *Instance) drainEvents(sim Simulation) {
	if es, ok := sim.(EventSource); ok {
		for _, e := range es.DrainEvents() {
			in.logf(OK, "logEvents", "t = %g s: %s", in.time, e)
		}
	}
}

// Terminate ends the simulation.
func (in *Instance) Terminate() Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2Terminate", "")
	}
	if !in.allowed("fmi2Terminate", StepComplete) {
		return Error
	}
	in.state = Terminated
	return OK
}

// Reset returns the instance to the state right after instantiation.
func (in *Instance) Reset() Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2Reset", "")
	}
	if !in.allowed("fmi2Reset", Instantiated|InitializationMode|StepComplete|Terminated|Failed) {
		return Error
	}
	in.reset()
	return OK
}

func (in *Instance) lookup(fn string, vr uint32) (int, bool) {
	if int64(vr) >= int64(len(in.vars)) {
		in.fail("%s: unknown value reference %d", fn, vr)
		return 0, false
	}
	return int(vr), true
}

// GetReal reads Real variables.
func (in *Instance) GetReal(vrs []uint32, out []float64) Status {
	return in.getValues("fmi2GetReal", modeldesc.TypeReal, vrs, out, true)
}

// GetInteger reads Integer variables.
func (in *Instance) GetInteger(vrs []uint32, out []int32) Status {
	return in.getIntegers(vrs, out, true)
}

// getIntegers is GetInteger, the call traced under logCalls if trace is
// set (FMI 3.0 traces its own).
func (in *Instance) getIntegers(vrs []uint32, out []int32, trace bool) Status {
	vals := make([]float64, len(vrs))
	st := in.getValues("fmi2GetInteger", modeldesc.TypeInteger, vrs, vals, trace)
	if st == OK {
		for k, x := range vals {
			out[k] = int32(x)
		}
	}
	return st
}

// GetBoolean reads Boolean variables.
func (in *Instance) GetBoolean(vrs []uint32, out []bool) Status {
	return in.getBooleans(vrs, out, true)
}

// getBooleans is GetBoolean, traced if trace is set.
func (in *Instance) getBooleans(vrs []uint32, out []bool, trace bool) Status {
	vals := make([]float64, len(vrs))
	st := in.getValues("fmi2GetBoolean", modeldesc.TypeBoolean, vrs, vals, trace)
	if st == OK {
		for k, x := range vals {
			out[k] = x != 0
		}
	}
	return st
}

// SetReal writes Real parameters (before the simulation starts) and
// inputs.
func (in *Instance) SetReal(vrs []uint32, vals []float64) Status {
	return in.setValues("fmi2SetReal", modeldesc.TypeReal, vrs, vals, true)
}

// SetInteger writes Integer parameters and inputs.
func (in *Instance) SetInteger(vrs []uint32, vals []int32) Status {
	return in.setIntegers(vrs, vals, true)
}

// setIntegers is SetInteger, traced if trace is set.
func (in *Instance) setIntegers(vrs []uint32, vals []int32, trace bool) Status {
	xs := make([]float64, len(vals))
	for k, v := range vals {
		xs[k] = float64(v)
	}
	return in.setValues("fmi2SetInteger", modeldesc.TypeInteger, vrs, xs, trace)
}

// SetBoolean writes Boolean parameters and inputs.
func (in *Instance) SetBoolean(vrs []uint32, vals []bool) Status {
	return in.setBooleans(vrs, vals, true)
}

// setBooleans is SetBoolean, traced if trace is set.
func (in *Instance) setBooleans(vrs []uint32, vals []bool, trace bool) Status {
	xs := make([]float64, len(vals))
	for k, v := range vals {
		if v {
			xs[k] = 1
		}
	}
	return in.setValues("fmi2SetBoolean", modeldesc.TypeBoolean, vrs, xs, trace)
}

// Read reads variables of any type as numbers (false 0, true 1): for
// hosts in this process (the cablefmu command, tests), which hold every
// value as a float64 as the runtime does.
func (in *Instance) Read(vrs []uint32, out []float64) Status {
	return in.getValues("Read", "", vrs, out, true)
}

// Write writes parameters and inputs of any type as numbers: an Integer
// takes whole numbers, a Boolean 0 or 1.
func (in *Instance) Write(vrs []uint32, vals []float64) Status {
	return in.setValues("Write", "", vrs, vals, true)
}

// typed checks that the variable at index i has the type the function fn
// reads or writes (any, where typ is empty).
func (in *Instance) typed(fn string, typ modeldesc.Type, i int) bool {
	if k := in.vars[i].Kind(); typ != "" && k != typ {
		in.fail("%s: %s is a%s %s variable: use fmi2Get%s and fmi2Set%s", fn, in.vars[i].Name, article(string(k)), k, k, k)
		return false
	}
	return true
}

func article(word string) string {
	if strings.ContainsRune("AEIOU", rune(word[0])) {
		return "n"
	}
	return ""
}

// getValues reads the variables vrs of type typ for the function fn,
// the call traced under logCalls if trace is set.
func (in *Instance) getValues(fn string, typ modeldesc.Type, vrs []uint32, out []float64, trace bool) Status {
	in.lock()
	defer in.unlock()
	if in.trace && trace {
		in.traceCall(fn, "%v", vrs)
	}
	if !in.allowed(fn, InitializationMode|StepComplete|Terminated|Failed) {
		return Error
	}
	if len(vrs) == 0 {
		return OK // nothing to read: no build that could fail
	}
	if in.state == InitializationMode {
		// Outputs during initialization follow the parameters set so far.
		if err := in.build(); err != nil {
			return in.fail("%s: initializing: %v", fn, err)
		}
	}
	// Every reference is checked before any value is written: a refused
	// call leaves the caller's array as it was.
	for _, vr := range vrs {
		if i, ok := in.lookup(fn, vr); !ok || !in.typed(fn, typ, i) {
			return Error
		}
	}
	// A number the model cannot give is never answered with OK (the
	// values of a step that failed on it).
	for _, vr := range vrs {
		if x := in.values[vr]; !finite(x) {
			return in.fail("%s: the model gives %s = %g", fn, in.vars[vr].Name, x)
		}
	}
	for k, vr := range vrs {
		out[k] = in.values[vr]
	}
	return OK
}

// setValues writes the variables vrs of type typ for the function fn:
// parameters (before the simulation starts) and inputs; the call traced
// under logCalls if trace is set.
func (in *Instance) setValues(fn string, typ modeldesc.Type, vrs []uint32, vals []float64, trace bool) Status {
	in.lock()
	defer in.unlock()
	if in.trace && trace {
		in.traceCall(fn, "%v, %v", vrs, vals)
	}
	if !in.allowed(fn, Instantiated|InitializationMode|StepComplete) {
		return Error
	}
	// Check everything before changing anything: a rejected call leaves
	// the instance as it was.
	for k, vr := range vrs {
		i, ok := in.lookup(fn, vr)
		if !ok || !in.typed(fn, typ, i) {
			return Error
		}
		v := in.vars[i]
		switch v.Causality {
		case modeldesc.CausalityInput:
		case modeldesc.CausalityParameter:
			// Every parameter is fixed: the world is built from them.
			if in.state == StepComplete {
				return in.fail("%s: %s is a fixed parameter: set it before fmi2ExitInitializationMode", fn, v.Name)
			}
		default:
			return in.fail("%s: %s is an %s, it cannot be set", fn, v.Name, v.Causality)
		}
		x := vals[k]
		if !finite(x) {
			return in.fail("%s: %s = %g: values must be finite", fn, v.Name, x)
		}
		if (v.Min != nil && x < *v.Min) || (v.Max != nil && x > *v.Max) {
			return in.fail("%s: %s = %g is outside [%s, %s]", fn, v.Name, x, bound(v.Min, "-inf"), bound(v.Max, "inf"))
		}
		switch v.Kind() {
		case modeldesc.TypeInteger:
			if x != math.Trunc(x) {
				return in.fail("%s: %s = %g: an Integer takes whole numbers", fn, v.Name, x)
			}
		case modeldesc.TypeBoolean:
			if x != 0 && x != 1 {
				return in.fail("%s: %s = %g: a Boolean is 0 (false) or 1 (true)", fn, v.Name, x)
			}
		}
	}
	for k, vr := range vrs {
		in.values[vr] = vals[k]
		if in.vars[vr].Causality == modeldesc.CausalityParameter {
			in.dirty = true
		}
	}
	if in.state != StepComplete {
		in.dirty = true
	}
	return OK
}

func bound(p *float64, none string) string {
	if p == nil {
		return none
	}
	return fmt.Sprint(*p)
}

// SetRealInputDerivatives sets first derivatives of inputs at the current
// communication point, used to extrapolate them over the next
// communication step only (they are cleared after it, like the values a
// master sets anew before every step). Higher orders are rejected
// (canInterpolateInputs means order 1).
func (in *Instance) SetRealInputDerivatives(vrs []uint32, orders []int32, vals []float64) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2SetRealInputDerivatives", "%v, %v, %v", vrs, orders, vals)
	}
	if !in.allowed("fmi2SetRealInputDerivatives", Instantiated|InitializationMode|StepComplete) {
		return Error
	}
	for k, vr := range vrs {
		i, ok := in.lookup("fmi2SetRealInputDerivatives", vr)
		if !ok {
			return Error
		}
		if in.vars[i].Causality != modeldesc.CausalityInput || in.vars[i].Kind() != modeldesc.TypeReal {
			return in.fail("fmi2SetRealInputDerivatives: %s is not a Real input", in.vars[i].Name)
		}
		if orders[k] != 1 {
			return in.fail("fmi2SetRealInputDerivatives: order %d for %s: only first derivatives are supported", orders[k], in.vars[i].Name)
		}
		if !finite(vals[k]) {
			return in.fail("fmi2SetRealInputDerivatives: d%s/dt = %g: values must be finite", in.vars[i].Name, vals[k])
		}
	}
	for k, vr := range vrs {
		in.deriv[vr], in.derivSet[vr] = vals[k], true
	}
	return OK
}

// gridTolerance is how close (in internal steps) a communication point
// must come to a grid point to count as on it: masters add up their step
// sizes with rounding errors.
const gridTolerance = 1e-6

// DoStep advances from t to t+H. The simulation takes internal steps of h
// on a fixed grid start + k·h, so that its results do not depend on how
// the master cuts its communication steps: a communication point between
// two grid points is reached by taking the internal step to the next grid
// point (with the inputs the master set at the last communication point
// before it) and interpolating the outputs linearly between the two grid
// points. Inputs set at a communication point between grid points act
// from the next grid point on.
func (in *Instance) DoStep(t, H float64) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2DoStep", "%g, %g", t, H)
	}
	if !in.allowed("fmi2DoStep", StepComplete) {
		return Error
	}
	if !(H > 0) || math.IsInf(H, 0) {
		return in.fail("fmi2DoStep: communication step size %g s: must be positive and finite", H)
	}
	if !finite(t) || math.Abs(t-in.time) > 1e-9*max(1, math.Abs(in.time)) {
		return in.fail("fmi2DoStep: communication point %.17g s, but the FMU is at %.17g s", t, in.time)
	}
	if in.hasEnd && t+H > in.stop*(1+1e-12)+1e-12 {
		return in.fail("fmi2DoStep: step to %g s goes past the stop time %g s set in fmi2SetupExperiment", t+H, in.stop)
	}
	h := in.model.InternalStep(in.values)
	// Internal steps up to the first grid point at or after t+H, counted
	// from the simulation's time, ahead of t by in.ahead: a master that
	// adds up t += H drifts from start + k·h in absolute time, so the
	// grid is kept relative to the last grid point.
	steps := 0.0
	if rest := H - in.ahead; rest > gridTolerance*h {
		steps = math.Ceil(rest/h - gridTolerance)
	}
	if steps > maxInternalSteps {
		return in.fail("fmi2DoStep: a step of %g s needs %g internal steps of %g s; at most %d are allowed per call", H, steps, h, maxInternalSteps)
	}
	copy(in.from, in.values)
	copy(in.to, in.values)
	in.planPaths(t, H, h)
	in.startPeaks(h, H)
	for k := 0; k < int(steps); k++ {
		start := in.ahead + float64(k)*h // from the communication point to this step's start
		// The first step gets the inputs at the communication point, where
		// the master set them, and lead = start (Simulation.Step); the
		// others those at their start.
		lead := start
		if k > 0 {
			lead = 0
		}
		in.interpolate(in.from, start-lead)
		in.interpolate(in.to, start+h)
		in.drivePaths(in.from, in.clock, h)
		in.drivePaths(in.to, in.clock+1, h)
		in.prev, in.cur = in.cur, in.prev
		if err := in.sim.Step(lead, in.from, in.to, k == 0); err != nil {
			// The world is broken now: outputs keep the values of the last
			// communication point, and only Reset or FreeInstance help.
			in.drainEvents(in.sim)
			in.state = Failed
			return in.fail("fmi2DoStep: at t = %g s: %v; reset or free the instance", t+start, err)
		}
		in.clock++
		in.sim.Outputs(in.cur)
		if err := in.checkOutputs(in.cur); err != nil {
			in.state = Failed
			return in.fail("fmi2DoStep: at t = %g s: %v; reset or free the instance", t+start+h, err)
		}
		if start+h <= H+gridTolerance*h {
			in.gridPeaks() // a grid point within the communication step
		}
	}
	in.ahead += steps*h - H
	if in.ahead < gridTolerance*h {
		in.ahead = 0
	}
	in.time = t + H
	if cp, ok := in.sim.(CommunicationPointer); ok {
		if err := cp.CommunicationPoint(in.time); err != nil {
			in.drainEvents(in.sim)
			in.state = Failed
			return in.fail("fmi2DoStep: at the communication point t = %g s: %v; reset or free the instance", in.time, err)
		}
	}
	// On a grid point the outputs are cur's, checked when they were
	// made (a step's, an initialization's, a restored state's): only
	// outputs interpolated or set at the point need a check here.
	if in.outputsAt(h) {
		if err := in.checkOutputs(in.values); err != nil {
			in.state = Failed
			return in.fail("fmi2DoStep: at the communication point t = %g s: %v; reset or free the instance", in.time, err)
		}
	}
	in.endPeaks()
	for _, i := range in.inputs {
		in.deriv[i] = 0
	}
	clear(in.derivSet)
	in.drainEvents(in.sim)
	return OK
}

// checkOutputs returns an error naming the first output in values that is
// not finite, a number the model cannot give, never to be answered with
// OK, or beyond OutputLimit, where no crane's quantity lies (a diverged
// world).
func (in *Instance) checkOutputs(values []float64) error {
	for _, i := range in.outputs {
		x := values[i]
		if math.Abs(x) <= OutputLimit {
			continue // finite and within the limit: one comparison
		}
		if !finite(x) {
			return fmt.Errorf("the model gives %s = %g", in.vars[i].Name, x)
		}
		return fmt.Errorf("the model gives %s = %g, beyond ±%g %s", in.vars[i].Name, x, float64(OutputLimit), in.vars[i].Unit)
	}
	return nil
}

// outputsAt sets the outputs at the communication point: those of the
// simulation where the point is on the grid, else interpolated linearly
// between the last two grid points; their rates are the slope between
// those points. Outputs that a simulation sets at communication points
// (PointOutputter) are taken as set. It reports whether any output may
// differ from cur's: interpolated, or set so.
func (in *Instance) outputsAt(h float64) bool {
	back := in.behind(h) / h // in steps, 0 … 1
	// Slices of one length: one bounds check an output.
	values := in.values
	cur, prev, rates := in.cur[:len(values)], in.prev[:len(values)], in.rates[:len(values)]
	for _, i := range in.outputs {
		values[i] = cur[i]
		rates[i] = (cur[i] - prev[i]) / h
		if back > 0 {
			values[i] = cur[i] + (prev[i]-cur[i])*back
		}
	}
	for _, i := range in.discrete {
		// A count or a switch changes at grid points: between them it is
		// the earlier one's.
		values[i], rates[i] = cur[i], 0
		if back > 0 {
			values[i] = prev[i]
		}
	}
	po, ok := in.sim.(PointOutputter)
	if ok {
		po.PointOutputs(in.values)
	}
	return back > 0 || ok
}

// startPeaks starts the peaks of a communication step of H seconds
// (Variable.Peak) with the outputs' values at its start, as outputsAt gave
// them before the peaks replaced them: from the last two grid points,
// which a restored state restores, so that the values at a step's start
// need no state of their own. Where the simulation stands ahead of the
// communication point, at a grid point within the step, that point's
// outputs count too: the step that took it ended before it.
func (in *Instance) startPeaks(h, H float64) {
	back := in.behind(h) / h
	within := back > 0 && in.ahead <= H+gridTolerance*h
	for _, i := range in.peaks {
		in.peak[i] = in.cur[i]
		if back > 0 {
			in.peak[i] = in.cur[i] + (in.prev[i]-in.cur[i])*back
		}
		if within {
			in.peak[i] = max(in.peak[i], in.cur[i])
		}
	}
}

// gridPeaks takes the outputs at a grid point within the communication
// step into its peaks.
func (in *Instance) gridPeaks() {
	for _, i := range in.peaks {
		in.peak[i] = max(in.peak[i], in.cur[i])
	}
}

// endPeaks takes the outputs at the communication point (outputsAt) into
// the step's peaks and reports those: a peak output has no rate.
func (in *Instance) endPeaks() {
	for _, i := range in.peaks {
		in.values[i], in.rates[i] = max(in.peak[i], in.values[i]), 0
	}
}

// behind returns how far (s) the communication point lies behind the
// simulation's grid time: 0 on the grid, less than h between.
func (in *Instance) behind(h float64) float64 {
	if in.ahead < gridTolerance*h {
		return 0
	}
	return in.ahead
}

// interpolate writes the inputs τ seconds after the communication point
// into dst, extrapolated with their derivatives within their declared
// ranges; dst holds the other values already.
func (in *Instance) interpolate(dst []float64, tau float64) {
	for _, i := range in.inputs {
		x := in.values[i] + in.deriv[i]*tau
		// Extrapolated, an input keeps to the range it declares, as a
		// value set is refused beyond it: a slew rate at its maximum
		// with a rising derivative ran on past it, unchecked.
		if v := &in.vars[i]; v.Min != nil && x < *v.Min {
			x = *v.Min
		} else if v.Max != nil && x > *v.Max {
			x = *v.Max
		}
		dst[i] = x
	}
}

// Unsupported reports a function this FMU does not implement; under
// logCalls the call is traced as every other is (its arguments, which it
// never reads, shown as …).
func (in *Instance) Unsupported(fn, why string) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall(fn, "…")
	}
	return in.fail("%s: not supported: %s", fn, why)
}

// Reject reports a call refused for its arguments.
func (in *Instance) Reject(fn, format string, args ...any) Status {
	in.lock()
	defer in.unlock()
	return in.fail("%s: %s", fn, fmt.Sprintf(format, args...))
}

// Fail puts the instance in the error state, after a failure outside its
// own methods (a recovered panic at the C boundary).
func (in *Instance) Fail(format string, args ...any) {
	in.lock()
	defer in.unlock()
	in.state = Failed
	in.fail(format, args...)
}

// CheckEmpty is for typed getters and setters of types the FMU has none
// of: any value reference is unknown.
func (in *Instance) CheckEmpty(fn string, vrs []uint32, mask State) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall(fn, "%v", vrs)
	}
	if !in.allowed(fn, mask) {
		return Error
	}
	if len(vrs) > 0 {
		return in.fail("%s: value reference %d: this FMU has no variables of that type", fn, vrs[0])
	}
	return OK
}

// Readable and Writable are the states in which getters and setters may
// be called.
const (
	Readable = InitializationMode | StepComplete | Terminated | Failed
	Writable = Instantiated | InitializationMode | StepComplete
)

// LastSuccessfulTime returns the time of the last completed step.
func (in *Instance) LastSuccessfulTime() (float64, Status) {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2GetRealStatus", "fmi2LastSuccessfulTime")
	}
	if !in.allowed("fmi2GetRealStatus", StepComplete|Terminated) {
		return 0, Error
	}
	return in.time, OK
}

// Log reports a message through the instance's logger and categories.
func (in *Instance) Log(status Status, format string, args ...any) {
	in.lock()
	defer in.unlock()
	in.logf(status, categoryFor(status), format, args...)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
