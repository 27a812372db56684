// Package port holds what every cable model plugin needs to turn its
// quantities into FMU ports: a catalogue of parameters, inputs and outputs
// bound to the plugin's own parameter, input and simulation types, with
// the physical ranges they are declared and checked in; the selection of
// a scenario's ports from it; the names of node arrays; the ports of a
// driven body. Reading a scenario's config is package scenario's, moving
// through an internal step package motion's.
package port

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Quantity is a model quantity a scenario can make a port. Exactly one of
// Param, Input, Output is set, matching the variable's causality; P holds
// a plugin's parameters, D its inputs at one instant, S its simulation.
type Quantity[P, D, S any] struct {
	Var    fmu.Variable
	Param  func(p *P, x float64)
	Input  func(d *D, x float64)
	Output func(s *S) float64
	// Array, with Output, makes the output element Element of the values
	// Array gives (Catalogue.Element): WriteOutputs reads the array once
	// for all its elements.
	Array   *Array[S]
	Element int
}

// Array is a row of outputs a simulation gives at once, such as a
// cable's node coordinates: Get returns them, valid until the simulation
// changes.
type Array[S any] struct {
	Get func(s *S) []float64
}

// Catalogue lists the quantities of one scenario.
type Catalogue[P, D, S any] struct {
	List []Quantity[P, D, S]
}

// Range is the physical range [Min, Max] of a parameter or input, declared
// in the model description and enforced when it is set, and of a
// scenario's config number, checked when the config is read (Errors.Num).
type Range struct{ Min, Max float64 }

// The ranges of the cable models' quantities and config numbers: wider
// than any crane's, and narrow enough that the models' arithmetic stays
// finite (squares of positions, products of masses and speeds).
var (
	Gravity  = Range{0, 100}                   // m/s²: Jupiter's is 25
	Step     = Range{fmu.MinStep, fmu.MaxStep} // s, the internal step
	Mass     = Range{1e-6, 1e8}                // kg: the heaviest lifts are 2e7
	Length   = Range{1e-3, 1e5}                // m: deep-sea lowering is 1e4
	Modulus  = Range{1e3, 1e13}                // Pa: steel is 2e11
	Diameter = Range{1e-4, 1}                  // m, a rope's: the thickest are 0.3
	Density  = Range{0, 1e5}                   // kg/m³: osmium is 2.3e4
	Poisson  = Range{-0.99, 0.5}               // 1
	Time     = Range{0, 100}                   // s, damping time constants
	Bending  = Range{0, 1e9}                   // N·m², bending stiffness
	// Torsion is a rope's torsional stiffness GJ (N·m²; above 0: zero is a
	// solid section's), TorqueFactor its torque factor k
	// (material.MaxTorqueFactor).
	Torsion      = Range{1e-9, 1e9}
	TorqueFactor = Range{-material.MaxTorqueFactor, material.MaxTorqueFactor}
	Slip         = Range{0, 1}           // s/kg, winch slip
	Position     = Range{-1e6, 1e6}      // m, world coordinates and offsets
	Velocity     = Range{-1e3, 1e3}      // m/s
	RopeDensity  = Range{1, Density.Max} // kg/m³, a rope whose segments have mass

	// OptLength is a length where 0 takes a default or means none (m).
	OptLength = Range{0, Length.Max}
	// Size is a side of a body's, load's or geometry's box, a drum's or
	// sheave's width, a prism's radius or length (m): the largest lifted
	// structures span 200 m, a hook block's parts are centimetres.
	Size = Range{1e-4, 1e4}
	// Sheave is a drum's or sheave's radius (m): the largest are 3 m.
	Sheave = Range{1e-3, 10}
	// Inertia is a drum's or sheave's moment of inertia about its axle
	// (kg·m², 0: from its mass): Mass.Max at Sheave.Max.
	Inertia = Range{0, Mass.Max * Sheave.Max * Sheave.Max}
	// Friction is a friction coefficient μ (1): rubber on steel is 1.
	Friction = Range{0, 10}
	// Force is a tension or force limit (N, 0: none): Mass.Max under
	// Gravity.Max.
	Force = Range{0, Mass.Max * Gravity.Max}
	// Angle is a rotation's angle (rad): a turn either way reaches every
	// orientation.
	Angle = Range{-2 * math.Pi, 2 * math.Pi}
	// Direction is a component of a rotation axis (1), whose direction
	// alone counts.
	Direction = Range{-1e3, 1e3}
)

// Param adds a fixed parameter with its range.
func (c *Catalogue[P, D, S]) Param(name, unit, desc string, start float64, r Range, set func(p *P, x float64)) {
	c.List = append(c.List, Quantity[P, D, S]{Var: fmu.Variable{Name: name, Unit: unit, Description: desc,
		Causality: modeldesc.CausalityParameter, Variability: modeldesc.VariabilityFixed, Start: start, Min: &r.Min, Max: &r.Max}, Param: set})
}

// Input adds a continuous input with its range.
func (c *Catalogue[P, D, S]) Input(name, unit, desc string, start float64, r Range, set func(d *D, x float64)) {
	c.List = append(c.List, Quantity[P, D, S]{Var: fmu.Variable{Name: name, Unit: unit, Description: desc,
		Causality: modeldesc.CausalityInput, Variability: modeldesc.VariabilityContinuous, Start: start, Min: &r.Min, Max: &r.Max}, Input: set})
}

// Output adds a continuous output.
func (c *Catalogue[P, D, S]) Output(name, unit, desc string, get func(s *S) float64) {
	c.List = append(c.List, Quantity[P, D, S]{Var: fmu.Variable{Name: name, Unit: unit, Description: desc,
		Causality: modeldesc.CausalityOutput, Variability: modeldesc.VariabilityContinuous}, Output: get})
}

// Peak adds a continuous output that the runtime reports as its largest
// value over the last communication step (fmu.Variable.Peak): get gives
// the quantity at the simulation's time, as for Output.
func (c *Catalogue[P, D, S]) Peak(name, unit, desc string, get func(s *S) float64) {
	c.Output(name, unit, desc, get)
	c.List[len(c.List)-1].Var.Peak = true
}

// Element adds a continuous output that is element i of the values a
// gives: a's Get is called once a step for all of its elements, where an
// Output of its own would take a call each.
func (c *Catalogue[P, D, S]) Element(name, unit, desc string, a *Array[S], i int) {
	c.Output(name, unit, desc, func(s *S) float64 { return a.Get(s)[i] })
	q := &c.List[len(c.List)-1]
	q.Array, q.Element = a, i
}

// Switch adds a Boolean input (false 0, true 1): a discrete input of the
// master, such as a brake.
func (c *Catalogue[P, D, S]) Switch(name, desc string, start bool, set func(d *D, x float64)) {
	c.List = append(c.List, Quantity[P, D, S]{Var: fmu.Variable{Name: name, Description: desc, Type: modeldesc.TypeBoolean,
		Causality: modeldesc.CausalityInput, Variability: modeldesc.VariabilityDiscrete, Start: Flag(start)}, Input: set})
}

// Count adds an Integer output: a number of things, which changes at
// internal steps.
func (c *Catalogue[P, D, S]) Count(name, desc string, get func(s *S) float64) {
	c.List = append(c.List, Quantity[P, D, S]{Var: fmu.Variable{Name: name, Description: desc, Type: modeldesc.TypeInteger,
		Causality: modeldesc.CausalityOutput, Variability: modeldesc.VariabilityDiscrete}, Output: get})
}

// State adds a Boolean output: whether something holds after a step.
func (c *Catalogue[P, D, S]) State(name, desc string, get func(s *S) float64) {
	c.List = append(c.List, Quantity[P, D, S]{Var: fmu.Variable{Name: name, Description: desc, Type: modeldesc.TypeBoolean,
		Causality: modeldesc.CausalityOutput, Variability: modeldesc.VariabilityDiscrete}, Output: get})
}

// Ports are a scenario's selected quantities in value-reference order.
type Ports[P, D, S any] struct {
	// List is fixed by Select: the index lists below are made from it.
	List []Quantity[P, D, S]
	// Step is the scenario's internal step (s), used when "internalStep" is no port.
	Step float64
	// offered are the catalogue's variables: every quantity the scenario
	// could make a port.
	offered []fmu.Variable
	hPort   int
	// The indices in List of the inputs and outputs: read and written
	// every internal step, they are a few of thousands of ports when a
	// cable's nodes are outputs. outputs leaves out the Array elements,
	// which arrays lists by their Array.
	inputs, outputs []int
	arrays          []arrayPorts[S]
}

// arrayPorts are the ports that are elements of one Array: ports[k] (an
// index in List) is element elements[k].
type arrayPorts[S any] struct {
	array           *Array[S]
	ports, elements []int
}

// Select picks the named quantities; an unknown or repeated name is an
// *fmu.PortError, an unknown one with the nearest name the catalogue has
// (fmu.Nearest) and all it has.
func Select[P, D, S any](c *Catalogue[P, D, S], names []string, step float64) (*Ports[P, D, S], error) {
	byName := make(map[string]Quantity[P, D, S], len(c.List))
	var errs []error
	for _, q := range c.List {
		byName[q.Var.Name] = q
		// The scenario's values are the start values: one outside its
		// quantity's range would fail later with a message about its
		// consequence (two nodes coinciding), or not at all.
		if v := q.Var; v.Min != nil && v.Max != nil && !(v.Start >= *v.Min && v.Start <= *v.Max) {
			errs = append(errs, fmt.Errorf("%s = %g %s: outside the range [%g, %g] the model accepts", v.Name, v.Start, v.Unit, *v.Min, *v.Max))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	ps := &Ports[P, D, S]{Step: step, hPort: -1}
	for _, q := range c.List {
		ps.offered = append(ps.offered, q.Var)
	}
	seen := map[string]bool{}
	for _, name := range names {
		q, ok := byName[name]
		if !ok {
			if now, renamed := Renamed(name); renamed {
				if _, there := byName[now]; there {
					return nil, &fmu.PortError{Name: name, Err: fmt.Errorf("port %q: now %q", name, now)}
				}
			}
			all := make([]string, len(c.List))
			for i, q := range c.List {
				all[i] = q.Var.Name
			}
			if near, ok := fmu.Nearest(name, all); ok {
				return nil, &fmu.PortError{Name: name, Err: fmt.Errorf("port %q: no such quantity in this scenario: did you mean %q? (have %s)", name, near, c.names())}
			}
			return nil, &fmu.PortError{Name: name, Err: fmt.Errorf("port %q: no such quantity in this scenario (have %s)", name, c.names())}
		}
		if seen[name] {
			return nil, &fmu.PortError{Name: name, Nth: 1, Err: fmt.Errorf("port %q listed twice", name)}
		}
		seen[name] = true
		if name == "internalStep" {
			ps.hPort = len(ps.List)
		}
		if q.Input != nil {
			ps.inputs = append(ps.inputs, len(ps.List))
		}
		switch {
		case q.Array != nil:
			ps.addElement(q.Array, len(ps.List), q.Element)
		case q.Output != nil:
			ps.outputs = append(ps.outputs, len(ps.List))
		}
		ps.List = append(ps.List, q)
	}
	return ps, nil
}

// addElement notes port i as element e of a.
func (ps *Ports[P, D, S]) addElement(a *Array[S], i, e int) {
	k := slices.IndexFunc(ps.arrays, func(g arrayPorts[S]) bool { return g.array == a })
	if k < 0 {
		k = len(ps.arrays)
		ps.arrays = append(ps.arrays, arrayPorts[S]{array: a})
	}
	g := &ps.arrays[k]
	g.ports, g.elements = append(g.ports, i), append(g.elements, e)
}

// names lists the catalogue, folding the indexed names of arrays such as
// cable.node[1].x into one cable.node[…] entry.
func (c *Catalogue[P, D, S]) names() string {
	var out []string
	folded := map[string]bool{}
	for _, q := range c.List {
		n := q.Var.Name
		if i := strings.Index(n, "["); i >= 0 {
			n = n[:i] + "[…]"
			if folded[n] {
				continue
			}
			folded[n] = true
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}

// Quantities implements fmu.Offering: every quantity of the scenario,
// a port or not.
func (ps *Ports[P, D, S]) Quantities() []fmu.Variable { return ps.offered }

// Variables implements fmu.Configured's Variables.
func (ps *Ports[P, D, S]) Variables() []fmu.Variable {
	vs := make([]fmu.Variable, len(ps.List))
	for i, q := range ps.List {
		vs[i] = q.Var
	}
	return vs
}

// Starts returns the ports' start values.
func (ps *Ports[P, D, S]) Starts() []float64 {
	v := make([]float64, len(ps.List))
	for i, q := range ps.List {
		v[i] = q.Var.Start
	}
	return v
}

// InternalStep implements fmu.Configured's InternalStep: the "internalStep" port's
// value, or the scenario's step.
func (ps *Ports[P, D, S]) InternalStep(values []float64) float64 {
	if ps.hPort >= 0 {
		return values[ps.hPort]
	}
	return ps.Step
}

// ApplyParams sets the parameter ports' values into p.
func (ps *Ports[P, D, S]) ApplyParams(p *P, values []float64) {
	for i, q := range ps.List {
		if q.Param != nil {
			q.Param(p, values[i])
		}
	}
}

// ReadInputs sets the input ports' values into d.
func (ps *Ports[P, D, S]) ReadInputs(d *D, values []float64) {
	for _, i := range ps.inputs {
		ps.List[i].Input(d, values[i])
	}
}

// WriteOutputs writes the output ports of s into values.
func (ps *Ports[P, D, S]) WriteOutputs(s *S, values []float64) {
	for _, i := range ps.outputs {
		values[i] = ps.List[i].Output(s)
	}
	for _, g := range ps.arrays {
		x := g.array.Get(s)
		elements := g.elements[:len(g.ports)]
		for k, i := range g.ports {
			values[i] = x[elements[k]]
		}
	}
}

// SetComp sets component k (0 x, 1 y, 2 z) of v.
func SetComp(v *geom.Vec3, k int, x float64) {
	switch k {
	case 0:
		v.X = x
	case 1:
		v.Y = x
	default:
		v.Z = x
	}
}

// Axis names component k (0, 1, 2) for port names: x, y, z.
func Axis(k int) string { return [3]string{"x", "y", "z"}[k] }

// Flag stores a bool in a state vector: 1 or 0.
func Flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// CableNodes is the port name that stands for all of a cable's node
// coordinates, cable.node[k].x|y|z.
const CableNodes = "cable.node[*]"

// ExpandCableNodes returns ports with CableNodes replaced by the names of
// k nodes (NodeNames).
func ExpandCableNodes(ports []string, k int) []string {
	var out []string
	for _, p := range ports {
		if p == CableNodes {
			out = append(out, NodeNames("cable.node", k)...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// NodeNames returns the names of the ports of k points of a curve: base[1].x,
// base[1].y, base[1].z, … base[k].z (FMI 3.0 gathers them into one k×3
// array).
func NodeNames(base string, k int) []string {
	out := make([]string, 0, 3*k)
	for n := 1; n <= k; n++ {
		for a := 0; a < 3; a++ {
			out = append(out, fmt.Sprintf("%s[%d].%s", base, n, Axis(a)))
		}
	}
	return out
}

// Renamed returns a port's name now, for a name the ports had before
// they explained themselves: the suspension point's hoist.* and the
// internal step h.
func Renamed(former string) (string, bool) {
	if former == "h" {
		return "internalStep", true
	}
	if rest, ok := strings.CutPrefix(former, "hoist."); ok {
		return "suspension." + rest, true
	}
	if former == "cable.drop" {
		return "cable.length0", true
	}
	return "", false
}
