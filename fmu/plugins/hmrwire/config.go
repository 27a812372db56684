// Package hmrwire is the model plugin of the hybrid multiresolution wire
// ([SLNB11], package core/hmrwire): bodies (static, kinematic ones driven
// by the FMU's inputs, dynamic boxes), geometries on them (boxes, and
// cylinders as n-gon prisms) and wires routed among them, running over
// the geometries with friction, slack or taut, at a resolution that
// adapts to their tension.
package hmrwire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// config is the scenario's "config" of model hmr-wire.
type config struct {
	// Gravity (m/s²) along −z.
	Gravity    float64          `json:"gravity"`
	Bodies     []bodyConfig     `json:"bodies"`
	Geometries []geometryConfig `json:"geometries"`
	Wires      []wireConfig     `json:"wires"`
}

type bodyConfig struct {
	Name string `json:"name"`
	// Kind is "static", "kinematic" (driven by the inputs NAME.x|y|z and
	// NAME.vx|vy|vz) or "dynamic" (a box of Mass and Size).
	Kind     string     `json:"kind"`
	Position [3]float64 `json:"position"` // m, world
	Mass     float64    `json:"mass"`     // kg, dynamic bodies
	Size     [3]float64 `json:"size"`     // m, a dynamic body's box (its inertia)
}

type geometryConfig struct {
	Name string `json:"name"`
	Body string `json:"body"`
	// Box (m, side lengths) or Prism: exactly one.
	Box   *[3]float64  `json:"box"`
	Prism *prismConfig `json:"prism"`
	// Offset (m) and Rotation (axis x, y, z and angle in rad) place the
	// shape in its body's frame.
	Offset   [3]float64  `json:"offset"`
	Rotation *[4]float64 `json:"rotation"`
	Friction float64     `json:"friction"` // μ
}

// prismConfig is a cylinder as an n-gon prism about its z axis.
type prismConfig struct {
	Sides  int     `json:"sides"`
	Radius float64 `json:"radius"` // m, of the circumscribed circle
	Length float64 `json:"length"` // m
}

type wireConfig struct {
	Name string    `json:"name"`
	Rope port.Rope `json:"rope"`
	// Route is the wire's initial route from its first end to its last.
	Route []routeConfig `json:"route"`
	// Spacing (m) between the mass nodes laid along the route; 0: mass
	// nodes only at the ends and via points.
	Spacing float64 `json:"spacing"`
	// Tension (N) the wire is laid with.
	Tension    float64          `json:"tension"`
	Resolution resolutionConfig `json:"resolution"`
	Winch      *winchConfig     `json:"winch"`
	// OutputNodes is K, the number of points WIRE.node[k] samples the
	// wire at, equally spaced along its rest length (default 21).
	OutputNodes int `json:"outputNodes"`
}

// routeConfig is one route point: exactly one of End (a body's name, or
// "" for a free end given as "free"), Via, Eye or Wrap.
type routeConfig struct {
	End   *string    `json:"end"`
	Via   bool       `json:"via"`
	Eye   string     `json:"eye"`
	Wrap  string     `json:"wrap"`
	Point [3]float64 `json:"point"` // m, world
}

type resolutionConfig struct {
	Adaptive     *bool   `json:"adaptive"` // default true
	MaxMassNodes int     `json:"maxMassNodes"`
	MinSegment   float64 `json:"minSegment"` // m
}

type winchConfig struct {
	Slip       float64 `json:"slip"`       // m/(N·s)
	ForceLimit float64 `json:"forceLimit"` // N, 0: none
	Spacing    float64 `json:"spacing"`    // m
	MinLength  float64 `json:"minLength"`  // m
}

// defaultOutputNodes is K when a wire does not say.
const defaultOutputNodes = 21

func (w *wireConfig) outputNodes() int {
	if w.OutputNodes == 0 {
		return defaultOutputNodes
	}
	return w.OutputNodes
}

func (w *wireConfig) adaptive() bool { return w.Resolution.Adaptive == nil || *w.Resolution.Adaptive }

func finite3(v [3]float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := port.Decode(raw, &c); err != nil {
		return nil, err
	}
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !(c.Gravity >= port.Gravity.Min && c.Gravity <= port.Gravity.Max) {
		add("gravity %g m/s²: want %g to %g", c.Gravity, port.Gravity.Min, port.Gravity.Max)
	}
	names := map[string]string{}
	claim := func(name, what string) {
		if name == "" {
			add("a %s without a name", what)
			return
		}
		if prev, dup := names[name]; dup {
			add("%s %q: the name is taken by a %s (names prefix the ports: they must be unique)", what, name, prev)
		}
		names[name] = what
	}
	bodies := map[string]*bodyConfig{}
	for i := range c.Bodies {
		b := &c.Bodies[i]
		claim(b.Name, "body")
		bodies[b.Name] = b
		if !finite3(b.Position) {
			add("body %q: position %v must be finite", b.Name, b.Position)
		}
		switch b.Kind {
		case "static", "kinematic":
		case "dynamic":
			if !(b.Mass >= port.Mass.Min && b.Mass <= port.Mass.Max) {
				add("body %q: mass %g kg: want %g to %g", b.Name, b.Mass, port.Mass.Min, port.Mass.Max)
			}
			if !(b.Size[0] > 0 && b.Size[1] > 0 && b.Size[2] > 0) || !finite3(b.Size) {
				add("body %q: size %v m must be positive", b.Name, b.Size)
			}
		default:
			add("body %q: kind %q: want static, kinematic or dynamic", b.Name, b.Kind)
		}
	}
	for _, g := range c.Geometries {
		claim(g.Name, "geometry")
		if _, ok := bodies[g.Body]; !ok {
			add("geometry %q: no body %q", g.Name, g.Body)
		}
		if (g.Box == nil) == (g.Prism == nil) {
			add("geometry %q: give exactly one of box and prism", g.Name)
		}
		if p := g.Prism; p != nil && (p.Sides < 3 || p.Sides > 1024) {
			add("geometry %q: prism of %d sides: want 3 to 1024", g.Name, p.Sides)
		}
		if !(g.Friction >= 0 && g.Friction <= 10) {
			add("geometry %q: friction %g: want 0 to 10", g.Name, g.Friction)
		}
		if !finite3(g.Offset) {
			add("geometry %q: offset %v must be finite", g.Name, g.Offset)
		}
	}
	if len(c.Wires) == 0 {
		add("no wires: the model is a wire among bodies")
	}
	for i := range c.Wires {
		w := &c.Wires[i]
		claim(w.Name, "wire")
		if err := w.Rope.Material().Validate(); err != nil {
			add("wire %q: %w", w.Name, err)
		}
		if !(w.Spacing >= 0) || !(w.Tension >= 0) || math.IsInf(w.Spacing, 0) || math.IsInf(w.Tension, 0) {
			add("wire %q: spacing %g m and tension %g N must be finite and not negative", w.Name, w.Spacing, w.Tension)
		}
		if k := w.outputNodes(); k < 2 || k > 10000 {
			add("wire %q: outputNodes %d: want 2 to 10000", w.Name, k)
		}
		if r := w.Resolution; r.MaxMassNodes < 0 || !(r.MinSegment >= 0) || math.IsInf(r.MinSegment, 0) {
			add("wire %q: resolution bounds maxMassNodes %d and minSegment %g m must not be negative", w.Name, r.MaxMassNodes, r.MinSegment)
		}
		if len(w.Route) < 2 {
			add("wire %q: a route needs at least its two ends", w.Name)
		}
		for k, rp := range w.Route {
			set := 0
			for _, on := range []bool{rp.End != nil, rp.Via, rp.Eye != "", rp.Wrap != ""} {
				if on {
					set++
				}
			}
			if set != 1 {
				add("wire %q: route point %d: give exactly one of end, via, eye and wrap", w.Name, k)
			}
			if !finite3(rp.Point) {
				add("wire %q: route point %d: point %v must be finite", w.Name, k, rp.Point)
			}
			if (k == 0 || k == len(w.Route)-1) != (rp.End != nil) {
				add("wire %q: route point %d: a route starts and ends with an end, and has no end between", w.Name, k)
			}
			if rp.End != nil && *rp.End != "free" {
				if _, ok := bodies[*rp.End]; !ok {
					add("wire %q: route point %d: no body %q (a free end is \"free\")", w.Name, k, *rp.End)
				}
			}
			if rp.Eye != "" {
				if _, ok := bodies[rp.Eye]; !ok {
					add("wire %q: route point %d: no body %q for the eye", w.Name, k, rp.Eye)
				}
			}
			if rp.Wrap != "" && names[rp.Wrap] != "geometry" {
				add("wire %q: route point %d: no geometry %q to wrap", w.Name, k, rp.Wrap)
			}
		}
		if wi := w.Winch; wi != nil && len(w.Route) > 0 {
			if e := w.Route[0].End; e == nil || *e == "free" {
				add("wire %q: a winch needs the route's first end on a body", w.Name)
			}
		}
	}
	return &c, errors.Join(errs...)
}
