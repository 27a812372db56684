package pyplugin

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-python/gpython/py"

	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
	"github.com/cablefmu/cablefmu/fmu/pyplugin/sandbox"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Hook names: a plugin defines step, communication_point or both, and
// optionally init.
const (
	hookInit  = "init"
	hookStep  = "step"
	hookPoint = "communication_point"
)

// Extension runs scenarios' Python plugins; it implements fmu.Extension.
type Extension struct {
	vocab *sandbox.Vocabulary
}

// New returns the plugin extension.
func New() *Extension { return &Extension{vocab: vocabulary()} }

// spec is one checked plugin of a configured scenario.
type spec struct {
	ref    fmu.PluginRef
	src    *sandbox.Source
	decls  []decl
	limits int // value index of the plugin's operations parameter; memory and timeout follow
	first  int // value index of its first declared variable
	hooks  map[string]bool
}

// configured is a model with plugins; it implements fmu.Configured.
type configured struct {
	inner fmu.Configured
	n     int // the model's own variables come first
	vars  []fmu.Variable
	specs []*spec
}

// Extend implements fmu.Extension: checks every plugin (syntax, names,
// declarations, hooks), adds the plugins' variables after the model's and
// runs the start of a simulation once, so that the exporter refuses a
// plugin that fails there.
func (e *Extension) Extend(model fmu.Configured, sc *fmu.Scenario) (fmu.Configured, error) {
	c := &configured{inner: model, vars: append([]fmu.Variable(nil), model.Variables()...)}
	c.n = len(c.vars)
	taken := map[string]bool{}
	for _, v := range c.vars {
		taken[v.Name] = true
	}
	var diags sandbox.CheckError
	for _, ref := range sc.Plugins {
		sp, err := e.check(ref, sc)
		var ce sandbox.CheckError
		if errors.As(err, &ce) {
			diags = append(diags, ce...)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("plugin %s: %w", ref.Name, err)
		}
		add := func(v fmu.Variable, line int) {
			if taken[v.Name] {
				diags = append(diags, sandbox.Diagnostic{File: ref.File, Line: line, Msg: fmt.Sprintf("variable %q is already taken by the model or another plugin", v.Name)})
			}
			taken[v.Name] = true
			c.vars = append(c.vars, v)
		}
		operations, memory, timeout := ref.Limits()
		olo, ohi := fmu.MinOperations, fmu.MaxOperations
		mlo, mhi := fmu.MinMemory, fmu.MaxMemory
		tlo, thi := fmu.MinTimeout, fmu.MaxTimeout
		sp.limits = len(c.vars)
		add(fmu.Variable{Name: ref.Name + ".operations", Unit: "1", Causality: modeldesc.CausalityParameter, Variability: modeldesc.VariabilityFixed,
			Description: "Operations (loop iterations, calls, items iterated) one call of plugin " + ref.Name + " may run; a call running more fails the instance, at the same operation on any machine", Start: operations, Min: &olo, Max: &ohi}, 1)
		add(fmu.Variable{Name: ref.Name + ".memory", Unit: "MB", Causality: modeldesc.CausalityParameter, Variability: modeldesc.VariabilityFixed,
			Description: "Megabytes one call of plugin " + ref.Name + " may add to the heap; an operation that would exceed it raises MemoryError in the plugin", Start: memory, Min: &mlo, Max: &mhi}, 1)
		add(fmu.Variable{Name: ref.Name + ".timeout", Unit: "s", Causality: modeldesc.CausalityParameter, Variability: modeldesc.VariabilityFixed,
			Description: "Wall-clock time one call of plugin " + ref.Name + " may take: a last guard against work the operations budget does not count", Start: timeout, Min: &tlo, Max: &thi}, 1)
		sp.first = len(c.vars)
		for _, d := range sp.decls {
			v := fmu.Variable{Name: ref.Name + "." + d.name, Unit: d.unit, Description: d.description, Causality: d.causality, Start: d.start, Min: d.min, Max: d.max}
			switch d.causality {
			case modeldesc.CausalityParameter:
				v.Variability = modeldesc.VariabilityFixed
			default:
				v.Variability = modeldesc.VariabilityContinuous
			}
			add(v, sp.src.DeclLine(d.name))
		}
		c.specs = append(c.specs, sp)
	}
	if len(diags) > 0 {
		return nil, diags
	}
	starts := make([]float64, len(c.vars))
	for i, v := range c.vars {
		starts[i] = v.Start
	}
	s, err := c.NewSimulation(starts)
	if err != nil {
		return nil, fmt.Errorf("starting a simulation with the plugins: %w", err)
	}
	if err := s.(*simulation).CommunicationPoint(0); err != nil {
		return nil, fmt.Errorf("starting a simulation with the plugins: %w", err)
	}
	return c, nil
}

// check prepares a plugin file and runs its top level to learn its
// declarations and hooks.
func (e *Extension) check(ref fmu.PluginRef, sc *fmu.Scenario) (*spec, error) {
	text, err := sc.PluginSource(ref.File)
	if err != nil {
		return nil, err
	}
	src, err := sandbox.Prepare(ref.File, text, e.vocab)
	if err != nil {
		return nil, err
	}
	d := &declarer{}
	// The top level runs with the plugin's own limits, as in the FMU.
	operations, memory, timeout := ref.Limits()
	it, err := sandbox.New(src, sandbox.NewLimits(ref.Name, operations, memory, timeout), d.functions())
	if err != nil {
		return nil, err
	}
	if err := it.Run(); err != nil {
		return nil, sandbox.CheckError{{File: ref.File, Line: it.LastLine(err), Msg: err.Error()}}
	}
	sp := &spec{ref: ref, src: src, decls: d.decls, hooks: map[string]bool{}}
	for _, h := range []string{hookInit, hookStep, hookPoint} {
		fn, err := it.Hook(h)
		if err != nil {
			return nil, sandbox.CheckError{{File: ref.File, Line: src.DefLine(h), Msg: err.Error()}}
		}
		sp.hooks[h] = fn != nil
	}
	if !sp.hooks[hookStep] && !sp.hooks[hookPoint] {
		return nil, sandbox.CheckError{{File: ref.File, Line: 1, Msg: "the plugin defines neither step(sim) nor communication_point(sim): nothing would call it"}}
	}
	return sp, nil
}

// Variables implements fmu.Configured.
func (c *configured) Variables() []fmu.Variable { return c.vars }

// InternalStep implements fmu.Configured.
func (c *configured) InternalStep(values []float64) float64 {
	return c.inner.InternalStep(values[:c.n])
}

// DrivenPoints passes the model's driven points on (fmu.Driver).
func (c *configured) DrivenPoints() []fmu.DrivenPoint {
	if d, ok := c.inner.(fmu.Driver); ok {
		return d.DrivenPoints()
	}
	return nil
}

// plugin is one plugin running in one simulation.
type plugin struct {
	spec  *spec
	it    *sandbox.Interp
	d     *declarer
	hooks map[string]py.Object
}

// simulation is a model's simulation with plugins acting on it.
type simulation struct {
	c     *configured
	inner fmu.Simulation
	// h is the internal step (s) the simulation was built with.
	h       float64
	model   plant.Plant // what the model shows plugins
	plant   *sim        // and the object hooks receive for it
	plugins []*plugin
	values  []float64 // parameters, the plugins' inputs and outputs
	events  []string
	// initialized is set once init ran (or a state was loaded).
	initialized bool
	// stepped is set by an internal step, cleared at every communication
	// point (so it is false at each, and needs no saving).
	stepped bool
	inputs  []int // value indices of the plugins' inputs
	outputs []int // and of their outputs
}

// NewSimulation implements fmu.Configured: builds the model's simulation,
// runs every plugin's top level in an interpreter of its own and calls
// init(sim).
func (c *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	inner, err := c.inner.NewSimulation(values[:c.n])
	if err != nil {
		return nil, err
	}
	ps, ok := inner.(plant.Simulation)
	if !ok {
		return nil, errors.New("this cable model does not let plugins act on it")
	}
	s := &simulation{c: c, inner: inner, model: ps.Plant(), values: append([]float64(nil), values...), h: c.inner.InternalStep(values[:c.n])}
	s.plant = newSim(s.model)
	for _, sp := range c.specs {
		d := &declarer{values: &s.values}
		if ops := values[sp.limits]; ops != math.Trunc(ops) {
			return nil, fmt.Errorf("plugin %s: parameter %s.operations = %g: must be a whole number", sp.ref.Name, sp.ref.Name, ops)
		}
		lim := sandbox.NewLimits(sp.ref.Name, values[sp.limits], values[sp.limits+1], values[sp.limits+2])
		it, err := sandbox.New(sp.src, lim, d.functions())
		if err != nil {
			return nil, fmt.Errorf("plugin %s: %w", sp.ref.Name, err)
		}
		p := &plugin{spec: sp, it: it, d: d, hooks: map[string]py.Object{}}
		if err := p.it.Run(); err != nil {
			return nil, fmt.Errorf("plugin %s: %w", sp.ref.Name, err)
		}
		if len(d.decls) != len(sp.decls) {
			return nil, fmt.Errorf("plugin %s: declared %d variables this time, %d when it was checked: declarations must not depend on anything that changes", sp.ref.Name, len(d.decls), len(sp.decls))
		}
		for k, dc := range d.decls {
			d.index = append(d.index, sp.first+k)
			switch dc.causality {
			case modeldesc.CausalityInput:
				s.inputs = append(s.inputs, sp.first+k)
			case modeldesc.CausalityOutput:
				s.outputs = append(s.outputs, sp.first+k)
			}
		}
		for h, on := range sp.hooks {
			if on {
				p.hooks[h], _ = p.it.Global(h)
			}
		}
		s.plugins = append(s.plugins, p)
	}
	return s, nil
}

// call runs a hook of a plugin, if it has one, and collects its prints.
func (s *simulation) call(p *plugin, hook string) error {
	fn, ok := p.hooks[hook]
	if !ok {
		return nil
	}
	_, err := p.it.Call(hook, fn, s.plant)
	if err == nil && (hook == hookStep || hook == hookPoint && p.hooks[hookStep] == nil) {
		err = p.it.Kept()
	}
	for _, line := range p.it.TakePrinted() {
		s.events = append(s.events, fmt.Sprintf("plugin %s: %s", p.spec.ref.Name, line))
	}
	if err != nil {
		return fmt.Errorf("plugin %s: %w", p.spec.ref.Name, err)
	}
	return nil
}

// Step implements fmu.Simulation: the plugins' step hooks see the state at
// the start of the step and the inputs there; the forces they apply act
// during this step only.
func (s *simulation) Step(lead float64, from, to []float64, first bool) error {
	h := s.h
	frac := lead / (lead + h) // where the step starts between from and to
	for _, i := range s.inputs {
		s.values[i] = from[i] + (to[i]-from[i])*frac
	}
	s.stepped = true
	s.plant.h = h
	for _, p := range s.plugins {
		if err := s.call(p, hookStep); err != nil {
			return err
		}
	}
	err := s.inner.Step(lead, from[:s.c.n], to[:s.c.n], first)
	s.model.ClearForces()
	// A communication point after this step sees the inputs at its end.
	for _, i := range s.inputs {
		s.values[i] = to[i]
	}
	s.plant.t += h
	return err
}

// CommunicationPoint implements fmu.CommunicationPointer. The first one,
// when the simulation is built at the start time, calls init(sim) first.
// The hooks see the communication point's time t; the bodies stand at the
// end of the internal step that reached it, up to one step later (the
// internal steps keep a fixed grid), and the steps go on from there.
func (s *simulation) CommunicationPoint(t float64) error {
	grid := s.plant.t
	if !s.initialized {
		grid = t
	}
	if !s.stepped {
		// Forces a hook applied at the last communication point act in the
		// first internal step after it; with no step since, these hooks
		// apply them anew rather than on top.
		s.model.ClearForces()
	}
	s.stepped = false
	s.plant.t, s.plant.h = t, 0
	defer func() { s.plant.t = grid }()
	if !s.initialized {
		s.initialized = true
		for _, p := range s.plugins {
			if err := s.call(p, hookInit); err != nil {
				return err
			}
		}
	}
	for _, p := range s.plugins {
		if err := s.call(p, hookPoint); err != nil {
			return err
		}
	}
	return nil
}

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) {
	s.inner.Outputs(values)
	s.PointOutputs(values)
}

// PointOutputs implements fmu.PointOutputter: the plugins' outputs are
// what they set last, at a step or a communication point.
func (s *simulation) PointOutputs(values []float64) {
	for _, i := range s.outputs {
		values[i] = s.values[i]
	}
}

// SaveState implements fmu.Simulation: time and the plugins' variables
// (ownState), then the model's state.
func (s *simulation) SaveState(dst []float64) []float64 {
	return s.inner.SaveState(state.Save(dst, ownState{s}))
}

// ownState walks the plugins' time and variables. The time was checked by
// the runtime (ClockSlot); the plugins' parameters are fixed, so their
// copies must be the values this simulation was built with. Their inputs
// are what the last step saw, which input derivatives may have
// extrapolated past the declared range: the runtime bounds them as any
// number of a state.
type ownState struct{ s *simulation }

func (o ownState) State(c *state.Codec) {
	s := o.s
	c.Float("plugins' time (s)", &s.plant.t)
	for i := s.c.n; i < len(s.values); i++ {
		v := s.c.vars[i]
		x := c.Float(v.Name, &s.values[i])
		if v.Causality == modeldesc.CausalityParameter {
			c.Check(x == s.values[i], "parameter %s = %g, but it is %g", v.Name, x, s.values[i])
		}
	}
	c.Then(func() error { s.initialized = true; return nil })
}

// LoadState implements fmu.Simulation; a refused state changes nothing:
// the plugins' part is checked, the model's loaded, and only then the
// plugins' assigned.
func (s *simulation) LoadState(src []float64) error {
	rest, err := state.Check(src, ownState{s})
	if err != nil {
		return err
	}
	if err := s.inner.LoadState(rest); err != nil {
		return err
	}
	_, err = state.Load(src, ownState{s})
	return err
}

// ClockSlot implements fmu.Clocked: a simulation's state starts with its
// time.
func (c *configured) ClockSlot() int { return 0 }

// DrainEvents implements fmu.EventSource: the model's events and what the
// plugins printed.
func (s *simulation) DrainEvents() []string {
	var ev []string
	if es, ok := s.inner.(fmu.EventSource); ok {
		ev = es.DrainEvents()
	}
	ev = append(ev, s.events...)
	s.events = s.events[:0]
	return ev
}

// Sketch passes the model's picture of its world on (fmu.Sketcher).
func (s *simulation) Sketch() fmu.Sketch {
	if sk, ok := s.inner.(fmu.Sketcher); ok {
		return sk.Sketch()
	}
	return fmu.Sketch{}
}
