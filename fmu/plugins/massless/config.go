// Package massless is the model plugin of the massless cable ([SL07],
// package core/massless): bodies, cables routed over them with winches, and
// the quantities a scenario can expose as FMU ports.
package massless

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// config is the model-specific part of a scenario ("config"): bodies and
// cables, or the hoist family's crane (suspension, load, cable) with this
// model's own settings in "massless", which fromCrane turns into bodies
// and cables.
type config struct {
	// Gravity is g (m/s²), acting along −z.
	Gravity float64       `json:"gravity"`
	Bodies  []bodyConfig  `json:"bodies"`
	Cables  []cableConfig `json:"cables"`
	hoist.Crane
	Own *craneSettings `json:"massless"`
}

// craneSettings are the massless cable's own settings of a crane given in
// the hoist family's form.
type craneSettings struct {
	// Slip is the winch's slip ξ (m/(N·s)).
	Slip float64 `json:"slip"`
	// Twist: as a cable's twist (absent: on, the hoist and the load being
	// two bodies).
	Twist *bool `json:"twist"`
}

// craneFeatures are the crane's parts the massless cable has: the load is
// a body, the rope is damped, it has no ground.
var craneFeatures = hoist.Features{Model: "the massless cable", LoadBody: true, Damping: true, Elements: "the cable", Torsion: true, RopeTorque: true}

// fromCrane turns a crane given in the hoist family's form into bodies
// ("suspension" kinematic, "load" dynamic, hanging from the cable) and a cable
// ("cable" with the winch "winch"). The massless cable needs no elements:
// cable.segments, the others' resolution, does not apply to it.
func (c *config) fromCrane() error {
	if !c.Crane.Given() {
		if c.Own != nil {
			return errors.New("massless: the massless cable's settings of a crane in the hoist form (suspension, load, cable); with bodies and cables, set them there")
		}
		return nil
	}
	if len(c.Bodies) > 0 || len(c.Cables) > 0 {
		return errors.New("config: a crane is described either by suspension, load and cable or by bodies and cables, not both")
	}
	fc, errs := c.Crane.Config(c.Gravity, craneFeatures)
	if fc != nil && fc.Cable.Rope.BendingStiffness != nil {
		errs.Add("cable.rope.bendingStiffness: the massless cable does not bend (remove the key)")
	}
	if err := errs.Err(); err != nil {
		return err
	}
	own := craneSettings{}
	if c.Own != nil {
		own = *c.Own
	}
	box := fc.Load.Box()
	c.Bodies = []bodyConfig{
		{Name: "suspension", Kind: "kinematic", Position: fc.Suspension.Position},
		{Name: "load", Kind: "dynamic", Mass: fc.Load.Mass, Size: box, HangsFrom: "cable"},
	}
	c.Cables = []cableConfig{{Name: "cable", Route: []nodeConfig{{Body: "suspension"}, {Body: "load", Offset: [3]float64{0, 0, box[2] / 2}}},
		Length0: fc.Cable.Length0, Rope: fc.Cable.Rope.Rope, MinLength: fc.Cable.MinLen(), Twist: own.Twist,
		Winch: &winchConfig{Name: "winch", Slip: own.Slip}}}
	return nil
}

type bodyConfig struct {
	Name string `json:"name"`
	// Kind is "kinematic" (moved by inputs), "dynamic" or "static".
	Kind     string     `json:"kind"`
	Position [3]float64 `json:"position"` // m
	Mass     float64    `json:"mass"`     // kg, dynamic bodies
	Size     [3]float64 `json:"size"`     // m, box for the inertia of dynamic bodies
	// HangsFrom names a cable that ends on this body: the body starts in
	// static equilibrium below the cable's previous node instead of at
	// Position.
	HangsFrom string `json:"hangsFrom"`
}

type nodeConfig struct {
	Body   string     `json:"body"`
	Offset [3]float64 `json:"offset"` // m, body frame
}

type cableConfig struct {
	Name  string       `json:"name"`
	Route []nodeConfig `json:"route"`
	// Length0 is the initial free length (m).
	Length0 float64       `json:"length0"`
	Rope    scenario.Rope `json:"rope"`
	// Bilateral makes the cable push as well as pull (a rod); by default a
	// cable goes slack.
	Bilateral bool `json:"bilateral"`
	// MinLength (m) is the shortest the last segment (sheave to hook
	// block) can get: the hook block butts against the sheave there, and
	// the winch stops hauling in when the free length is down to the other
	// segments plus MinLength. Default: 0.5 m, or half the last segment's
	// initial length if that is shorter.
	MinLength float64 `json:"minLength"`
	// Twist carries the rope's torsional stiffness between the end bodies
	// (the twist constraint, [SL07] eq. 15). Absent, it is on whenever the
	// cable ends on two different bodies; false lets the end body turn
	// freely about the rope, as below a hook swivel.
	Twist *bool        `json:"twist"`
	Winch *winchConfig `json:"winch"`
}

type winchConfig struct {
	Name string  `json:"name"`
	Slip float64 `json:"slip"` // ξ, m/(N·s)
}

// twists reports whether the cable has the twist constraint.
func (c *cableConfig) twists() bool {
	if c.Twist != nil {
		return *c.Twist
	}
	return len(c.Route) >= 2 && c.Route[0].Body != c.Route[len(c.Route)-1].Body
}

func vec(a [3]float64) geom.Vec3 { return geom.Vec3{X: a[0], Y: a[1], Z: a[2]} }

func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := hoist.Decode(raw, "massless", &c); err != nil {
		return nil, err
	}
	if err := c.fromCrane(); err != nil {
		return nil, err
	}
	return &c, c.validate()
}

func (c *config) body(name string) (int, bool) {
	for i, b := range c.Bodies {
		if b.Name == name {
			return i, true
		}
	}
	return 0, false
}

// validate checks the config: names and references, and every number in
// its range (port's ranges; a body's box in port.Size, bounded but unused
// for bodies that are not dynamic).
func (c *config) validate() error {
	var errs scenario.Errors
	add := errs.Add
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	names := map[string]bool{}
	for i, b := range c.Bodies {
		if b.Name == "" || names[b.Name] {
			add("body name %q: empty or used twice", b.Name)
		}
		errs.Name(fmt.Sprintf("bodies[%d].name", i), "body", b.Name)
		names[b.Name] = true
		at := fmt.Sprintf("body %q:", b.Name)
		errs.Vec(at+" position", "m", port.Position, b.Position[:])
		mass, size := port.Mass, port.Size
		switch b.Kind {
		case "kinematic", "static":
			mass.Min, size.Min = 0, 0
		case "dynamic":
		default:
			add("body %q: kind %q: want kinematic, dynamic or static", b.Name, b.Kind)
		}
		errs.Mass(b.Name, b.Kind == "dynamic", mass, b.Mass)
		errs.Vec(at+" size", "m", size, b.Size[:])
	}
	if len(c.Cables) == 0 {
		add("no cables")
	}
	for i, cb := range c.Cables {
		if cb.Name == "" || names[cb.Name] {
			add("cable name %q: empty or used twice", cb.Name)
		}
		errs.Name(fmt.Sprintf("cables[%d].name", i), "cable", cb.Name)
		names[cb.Name] = true
		at := fmt.Sprintf("cable %q:", cb.Name)
		if len(cb.Route) < 2 {
			add("%s route of %d nodes: needs two or more", at, len(cb.Route))
		}
		for k, n := range cb.Route {
			if _, ok := c.body(n.Body); !ok {
				add("%s route names unknown body %q", at, n.Body)
			}
			errs.Vec(fmt.Sprintf("%s route[%d].offset", at, k), "m", port.Position, n.Offset[:])
		}
		errs.Num(at+" length0", "m", port.Length, cb.Length0)
		errs = append(errs, cb.Rope.Check(at+" rope")...)
		errs = append(errs, cb.Rope.Unsupported(at+" rope", "a massless cable without its twist", cb.twists(), cb.twists())...)
		errs.Num(at+" minLength", "m", port.OptLength, cb.MinLength)
		if w := cb.Winch; w != nil {
			if w.Name == "" || names[w.Name] {
				add("%s winch name %q: empty or used twice", at, w.Name)
			}
			errs.Name(fmt.Sprintf("cables[%d].winch.name", i), "winch", w.Name)
			names[w.Name] = true
			errs.Num(fmt.Sprintf("winch %q: slip", w.Name), "m/(N·s)", port.Slip, w.Slip)
		}
	}
	for _, b := range c.Bodies {
		if b.HangsFrom == "" {
			continue
		}
		if b.Kind != "dynamic" {
			add("body %q: only a dynamic body can hang from a cable", b.Name)
		}
		found := false
		for _, cb := range c.Cables {
			if cb.Name == b.HangsFrom {
				found = true
				if len(cb.Route) == 0 || cb.Route[len(cb.Route)-1].Body != b.Name {
					add("body %q hangs from cable %q, which does not end on it", b.Name, cb.Name)
				}
			}
		}
		if !found {
			add("body %q hangs from unknown cable %q", b.Name, b.HangsFrom)
		}
	}
	return errs.Err()
}
