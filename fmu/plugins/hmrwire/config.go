// Package hmrwire is the model plugin of the hybrid multiresolution wire
// ([SLNB11], package core/hmrwire): bodies (static, kinematic ones driven
// by the FMU's inputs, dynamic boxes), geometries on them (boxes, and
// cylinders as n-gon prisms) and wires routed among them, running over
// the geometries with friction, slack or taut, at a resolution that
// adapts to their tension.
package hmrwire

import (
	"encoding/json"
	"fmt"

	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// config is the scenario's "config" of model hmr-wire.
type config struct {
	// Gravity (m/s²) along −z.
	Gravity    float64          `json:"gravity"`
	Bodies     []bodyConfig     `json:"bodies"`
	Geometries []geometryConfig `json:"geometries"`
	Wires      []wireConfig     `json:"wires"`
	// A crane in the hoist family's form (suspension, load, cable) instead of
	// bodies and wires, with this model's own settings in "hmrWire":
	// fromCrane turns it into a body and wire each; crane keeps it.
	hoist.Crane
	Own   *craneSettings `json:"hmrWire"`
	crane *hoist.Config
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
	Name string               `json:"name"`
	Rope scenario.BendingRope `json:"rope"`
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
	OutputNodes int `json:"outputNodes" zero:"default"`
}

// routeConfig is one route point: exactly one of End (a body's name, or
// "" for a free end given as "free"), Via, Eye or Wrap. Swivel lets an
// end on a body turn freely about the wire (it makes the wire twist).
type routeConfig struct {
	End    *string    `json:"end"`
	Via    bool       `json:"via"`
	Eye    string     `json:"eye"`
	Wrap   string     `json:"wrap"`
	Swivel bool       `json:"swivel"`
	Point  [3]float64 `json:"point"` // m, world
}

type resolutionConfig struct {
	Adaptive     *bool   `json:"adaptive"` // default true
	MaxMassNodes int     `json:"maxMassNodes"`
	MinSegment   float64 `json:"minSegment"` // m
}

type winchConfig struct {
	// Name prefixes the winch's ports: NAME.speed (default WIRE.winch).
	Name       string  `json:"name"`
	Slip       float64 `json:"slip"`       // m/(N·s)
	ForceLimit float64 `json:"forceLimit"` // N, 0: none
	Spacing    float64 `json:"spacing"`    // m
	MinLength  float64 `json:"minLength"`  // m
}

// name returns the winch's port prefix.
func (wi *winchConfig) name(w *wireConfig) string {
	if wi.Name != "" {
		return wi.Name
	}
	return w.Name + ".winch"
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

// twists reports whether the wire carries its twist: where its rope gives
// a torsional stiffness or a torque factor, or an end is on a swivel
// (hmrwire.WireSpec.Twist; otherwise the wire is left without its
// sections' roll, which costs a row per segment).
func (w *wireConfig) twists() bool {
	r := w.Rope
	if r.TorsionalStiffness != nil || r.TorqueFactor != nil && *r.TorqueFactor != 0 {
		return true
	}
	for _, rp := range w.Route {
		if rp.Swivel {
			return true
		}
	}
	return false
}

// maxMassNodes bounds a wire's resolution.maxMassNodes (0 takes the
// wire's default): a cap on its nodes, each a body in every step's
// system.
const maxMassNodes = 1000000

// parseConfig reads and checks the config: names and references, and
// every number in its range (port's ranges; boxes, prisms and dynamic
// bodies' boxes in port.Size, a rotation's axis in port.Direction and
// angle in port.Angle).
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := hoist.Decode(raw, "hmrWire", &c); err != nil {
		return nil, err
	}
	if err := c.fromCrane(); err != nil {
		return nil, err
	}
	var errs scenario.Errors
	add := errs.Add
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	names := map[string]string{}
	claim := func(path, name, what string) {
		if name == "" {
			add("a %s without a name", what)
			return
		}
		errs.Name(path, what, name)
		if prev, dup := names[name]; dup {
			add("%s %q: the name is taken by a %s (names prefix the ports: they must be unique)", what, name, prev)
		}
		names[name] = what
	}
	bodies := map[string]*bodyConfig{}
	for i := range c.Bodies {
		b := &c.Bodies[i]
		claim(fmt.Sprintf("bodies[%d].name", i), b.Name, "body")
		bodies[b.Name] = b
		at := fmt.Sprintf("body %q:", b.Name)
		errs.Vec(at+" position", "m", port.Position, b.Position[:])
		mass, size := port.Mass, port.Size
		switch b.Kind {
		case "static", "kinematic":
			mass.Min, size.Min = 0, 0 // unused, yet bounded
		case "dynamic":
		default:
			add("body %q: kind %q: want static, kinematic or dynamic", b.Name, b.Kind)
		}
		errs.Mass(b.Name, b.Kind == "dynamic", mass, b.Mass)
		errs.Vec(at+" size", "m", size, b.Size[:])
	}
	for i, g := range c.Geometries {
		claim(fmt.Sprintf("geometries[%d].name", i), g.Name, "geometry")
		at := fmt.Sprintf("geometry %q:", g.Name)
		if _, ok := bodies[g.Body]; !ok {
			add("%s no body %q", at, g.Body)
		}
		if (g.Box == nil) == (g.Prism == nil) {
			add("%s give exactly one of box and prism", at)
		}
		if g.Box != nil {
			errs.Vec(at+" box", "m", port.Size, g.Box[:])
		}
		if p := g.Prism; p != nil {
			errs.Int(at+" prism.sides", p.Sides, 3, 1024)
			errs.Num(at+" prism.radius", "m", port.Size, p.Radius)
			errs.Num(at+" prism.length", "m", port.Size, p.Length)
		}
		errs.Num(at+" friction", "", port.Friction, g.Friction)
		errs.Vec(at+" offset", "m", port.Position, g.Offset[:])
		if r := g.Rotation; r != nil {
			errs.Vec(at+" rotation", "", port.Direction, r[:3])
			errs.Num(at+" rotation[3]", "rad", port.Angle, r[3])
		}
	}
	if len(c.Wires) == 0 {
		add("no wires: the model is a wire among bodies")
	}
	for i := range c.Wires {
		w := &c.Wires[i]
		claim(fmt.Sprintf("wires[%d].name", i), w.Name, "wire")
		at := fmt.Sprintf("wire %q:", w.Name)
		ropeErrs := w.Rope.Check(at + " rope")
		errs = append(errs, ropeErrs...)
		errs = append(errs, w.Rope.Unsupported(at+" rope", "the HMR wire", true, true)...)
		errs.Num(at+" spacing", "m", port.OptLength, w.Spacing)
		errs.Num(at+" tension", "N", port.Force, w.Tension)
		if len(ropeErrs) == 0 {
			// Laid at a tension no rope carries, the wire stretched to
			// 1,270 times its length in the first step.
			if err := w.Rope.Material().CheckTension(w.Tension); err != nil {
				add("%s tension %g N: the rope %v", at, w.Tension, err)
			}
		}
		errs.Int(at+" outputNodes", w.outputNodes(), 2, 10000)
		errs.Int(at+" resolution.maxMassNodes", w.Resolution.MaxMassNodes, 0, maxMassNodes)
		errs.Num(at+" resolution.minSegment", "m", port.OptLength, w.Resolution.MinSegment)
		if len(w.Route) < 2 {
			add("%s a route needs at least its two ends", at)
		}
		for k, rp := range w.Route {
			set := 0
			for _, on := range []bool{rp.End != nil, rp.Via, rp.Eye != "", rp.Wrap != ""} {
				if on {
					set++
				}
			}
			if set != 1 {
				add("%s route point %d: give exactly one of end, via, eye and wrap", at, k)
			}
			errs.Vec(fmt.Sprintf("%s route[%d].point", at, k), "m", port.Position, rp.Point[:])
			if (k == 0 || k == len(w.Route)-1) != (rp.End != nil) {
				add("%s route point %d: a route starts and ends with an end, and has no end between", at, k)
			}
			if rp.End != nil && *rp.End != "free" {
				if _, ok := bodies[*rp.End]; !ok {
					add("%s route point %d: no body %q (a free end is \"free\")", at, k, *rp.End)
				}
			}
			if rp.Swivel && (rp.End == nil || *rp.End == "free") {
				add("%s route point %d: only an end on a body can be a swivel", at, k)
			}
			if rp.Eye != "" {
				if _, ok := bodies[rp.Eye]; !ok {
					add("%s route point %d: no body %q for the eye", at, k, rp.Eye)
				}
			}
			if rp.Wrap != "" && names[rp.Wrap] != "geometry" {
				add("%s route point %d: no geometry %q to wrap", at, k, rp.Wrap)
			}
		}
		if wi := w.Winch; wi != nil {
			claim(fmt.Sprintf("wires[%d].winch.name", i), wi.name(w), "winch")
			errs.Num(at+" winch.slip", "m/(N·s)", port.Slip, wi.Slip)
			errs.Num(at+" winch.forceLimit", "N", port.Force, wi.ForceLimit)
			errs.Num(at+" winch.spacing", "m", port.Length, wi.Spacing)
			errs.Num(at+" winch.minLength", "m", port.OptLength, wi.MinLength)
			if len(w.Route) > 0 {
				if e := w.Route[0].End; e == nil || *e == "free" {
					add("%s a winch needs the route's first end on a body", at)
				}
			}
		}
	}
	return &c, errs.Err()
}
