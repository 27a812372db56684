// Package hoist is the family of hoisting cables with a load that the
// rigid-body, mass–spring and spline cable models share: the crane a
// scenario describes (gravity, the suspension point, the load, the cable
// with its rope and winch, the ground), the ports built from it (the
// suspension point's position and velocity inputs and the force on it,
// the winch's speed, the cable's tension, length and nodes, the load's
// motion), their parameters, the step that turns the inputs into the
// suspension point's motion and the winch's pay-out, the state around
// the cable, and what Python plugins see. A model of the family supplies
// a Design: its own block of settings, its own ports, and a Cable, the
// adapter to its core model.
package hoist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// Config is the crane as every model of the family reads it. The models'
// own settings sit in blocks keyed by Blocks; a model reads its own and
// refuses the others'.
type Config struct {
	// Gravity (m/s²) along −z.
	Gravity float64 `json:"gravity"`
	// Suspension is the suspension point (the sheave on the trolley or the
	// boom tip), moved by the inputs.
	Suspension struct {
		Position [3]float64 `json:"position"`
	} `json:"suspension"`
	Load   Load          `json:"load"`
	Cable  CableConfig   `json:"cable"`
	Ground *GroundConfig `json:"ground"`
}

// Family returns the family's part of a model's config, which embeds it.
func (c *Config) Family() *Config { return c }

// Load is the load at the cable's end: hook and payload.
type Load struct {
	Mass float64 `json:"mass"` // kg
	// Size is the load's box (m), hung from the middle of its top face,
	// for models whose load is a body (absent: a steel cube of its mass,
	// Box); the others take the load as a point mass at the rope's end
	// and refuse it.
	Size *[3]float64 `json:"size"`
}

// CableConfig is the hoisting cable.
type CableConfig struct {
	// Length0 (m) from the suspension point to the load at the start;
	// MinLength (m) where the winch stops hauling in (left out: 1 m).
	Length0   float64 `json:"length0"`
	MinLength float64 `json:"minLength" zero:"default"`
	// Segments is how many elements the cable is cut into (left out: 20):
	// rigid segments, mass–spring segments, spline spans (control points
	// − 3).
	Segments int                  `json:"segments" zero:"default"`
	Rope     scenario.BendingRope `json:"rope"`
}

// GroundConfig is a horizontal ground with friction where the load is set
// down.
type GroundConfig struct {
	Height   float64 `json:"height"`   // m
	Friction float64 `json:"friction"` // μ
}

// DefaultSegments is the cable's elements where the scenario gives none.
const DefaultSegments = 20

// Elements returns the cable's elements (Segments or its default).
func (c *CableConfig) Elements() int {
	if c.Segments > 0 {
		return c.Segments
	}
	return DefaultSegments
}

// MinLen returns where the winch stops hauling in (m).
func (c *CableConfig) MinLen() float64 {
	if c.MinLength > 0 {
		return c.MinLength
	}
	return 1
}

// Blocks maps the key of each model's own block of settings to the
// model's name.
var Blocks = map[string]string{
	"rigidCable": "rigid-cable",
	"massSpring": "mass-spring",
	"spline":     "spline",
	"massless":   "massless",
	"hmrWire":    "hmr-wire",
	"wireHoist":  "wire-hoist",
}

// Decode reads a scenario's config strictly (scenario.Decode) into cfg, a
// model's config type that embeds Config and holds its own block under
// the key own. Another model's block is refused with a message saying
// whose it is, so that a scenario whose "model" changed tells the user
// what no longer applies; a key that moved or was renamed with where it
// went. These refusals are *fmu.PositionErrors at the key in the config
// (fmu.AtKey), joined by errors.Join.
func Decode(raw json.RawMessage, own string, cfg any) error {
	var top map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&top); err == nil {
		type refusal struct{ path, msg string }
		var refused []refusal
		for key := range top {
			if model, ok := Blocks[key]; ok && key != own {
				refused = append(refused, refusal{key, fmt.Sprintf("config.%s: settings of the %s model, which this scenario does not run (this model's own settings go in config.%s)", key, model, own)})
			}
			if to, ok := movedTop[key]; ok {
				refused = append(refused, refusal{key, fmt.Sprintf("config.%s: now config.%s.%s", key, to, key)})
			}
			if to, ok := renamedKeys[key]; ok {
				refused = append(refused, refusal{key, fmt.Sprintf("config.%s: now config.%s", key, to)})
			}
		}
		var cable map[string]json.RawMessage
		if json.Unmarshal(top["cable"], &cable) == nil {
			for key := range cable {
				if to, ok := movedCable[key]; ok {
					refused = append(refused, refusal{"cable." + key, fmt.Sprintf("config.cable.%s: %s", key, to)})
				}
			}
		}
		if len(refused) > 0 {
			sort.Slice(refused, func(i, j int) bool { return refused[i].msg < refused[j].msg })
			errs := make([]error, len(refused))
			for i, r := range refused {
				errs[i] = fmu.AtKey(raw, r.path, errors.New(r.msg))
			}
			return errors.Join(errs...)
		}
	}
	return scenario.Decode(raw, cfg)
}

// movedTop and movedCable are the keys that moved into a model's block
// (or went), with where to: a scenario written before says so instead of
// "unknown key".
var (
	renamedKeys = map[string]string{"rigidBody": "rigidCable", "hoist": "suspension"}
	movedTop    = map[string]string{"iterations": "rigidCable"}
	movedCable  = map[string]string{
		"twist": "now a setting of the model's own block (config.rigidCable.twist, config.massless.twist)", "hook": "now config.rigidCable.hook",
		"physicalBending": "no longer a setting: the rope bends with its own stiffness everywhere, and the rigid-body cable's step takes a light segment's turning stiffness in where it cannot resolve it (see the RigidHoist example in examples/README.md); remove the key",
		"perMass":         "now config.massSpring.perMass", "solver": "now config.massSpring.solver", "rebuilds": "now config.massSpring.rebuilds",
		"cgIterations": "now config.massSpring.cgIterations", "cgTolerance": "now config.massSpring.cgTolerance",
		"controls": "now config.spline.controls", "ceiling": "now config.spline.ceiling", "clampStart": "now config.spline.clampStart",
		"outputNodes": "now config.spline.outputNodes",
	}
)

// Features are what a model of the family represents: the crane's parts
// it does not have are refused in the config, not ignored.
type Features struct {
	// Model names the model in messages ("the mass-spring cable").
	Model string
	// LoadBody: the load is a rigid body whose box load.size gives (or
	// Load.Box's steel cube); otherwise it is a point mass and load.size
	// is refused.
	LoadBody bool
	// Ground: the load can be set down on config.ground.
	Ground bool
	// Damping: the rope's material damping (cable.rope.dampingTime) acts;
	// otherwise a damping time given is refused.
	Damping bool
	// Elements is what the cable's elements are, for messages ("the
	// segments need mass").
	Elements string
	// Torsion: the rope's torsional stiffness (cable.rope.
	// torsionalStiffness) acts; RopeTorque: so does its torque factor
	// (cable.rope.torqueFactor). Otherwise a value given is refused.
	Torsion, RopeTorque bool
}

// Check returns what is wrong with the config for a model with features
// f, an error each: every number in its range (port's ranges), the
// lengths, the rope, and the parts the model does not have.
func (c *Config) Check(f Features) scenario.Errors {
	var errs scenario.Errors
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	errs.Vec("suspension.position", "m", port.Position, c.Suspension.Position[:])
	errs.Num("load.mass", "kg", f.loadMass(), c.Load.Mass)
	switch {
	case f.LoadBody && c.Load.Size != nil:
		errs.Vec("load.size", "m", port.Size, c.Load.Size[:])
	case !f.LoadBody && c.Load.Size != nil:
		errs.Add("load.size: %s's load is a point mass at the rope's end; a load with a size runs on the rigid-cable, massless, hmr-wire and wire-hoist models (remove the key)", f.Model)
	}
	cb := &c.Cable
	errs.Num("cable.length0", "m", port.Length, cb.Length0)
	errs.Num("cable.minLength", "m", port.OptLength, cb.MinLength)
	if len(errs) == 0 && !(cb.Length0 > cb.MinLen()) {
		errs.Add("cable.length0 %g m: must exceed minLength %g m", cb.Length0, cb.MinLen())
	}
	if cb.Segments != 0 {
		errs.Int("cable.segments", cb.Segments, 2, 10000)
	}
	errs = append(errs, cb.Rope.Check("cable.rope")...)
	// The density's parameter range (port.RopeDensity), narrower than a
	// rope's (Rope.Check refused one below 0): the elements need mass.
	if d := cb.Rope.Density; d >= 0 && d < port.RopeDensity.Min {
		errs.Add("cable.rope.density %g kg/m³: must lie in [%g, %g] kg/m³ (%s need mass)", d, port.RopeDensity.Min, port.RopeDensity.Max, f.Elements)
	}
	errs = append(errs, cb.Rope.Unsupported("cable.rope", f.Model, f.Torsion, f.RopeTorque)...)
	if cb.Rope.DampingTime != nil && !f.Damping {
		errs.Add("cable.rope.dampingTime: %s has no material damping (remove the key)", f.Model)
	}
	if g := c.Ground; g != nil {
		if !f.Ground {
			errs.Add("ground: %s has no ground; the rigid-cable and wire-hoist models set their load down on one (remove the key)", f.Model)
		} else {
			errs.Num("ground.height", "m", port.Position, g.Height)
			errs.Num("ground.friction", "", port.Friction, g.Friction)
		}
	}
	return errs
}

// loadMass is the range of the load's mass: a body needs mass, a point
// load of 0 leaves the rope's end bare.
func (f Features) loadMass() port.Range {
	if f.LoadBody {
		return port.Mass
	}
	return port.Range{Min: 0, Max: port.Mass.Max}
}

// Crane is the family's crane in a model whose own language is wider (the
// massless cable's bodies and cables, the HMR wire's bodies and wires):
// given instead of that language, it describes the same hoist, so that a
// scenario written for the family runs there by changing "model" alone.
type Crane struct {
	Suspension *struct {
		Position [3]float64 `json:"position"`
	} `json:"suspension"`
	Load   *Load         `json:"load"`
	Cable  *CableConfig  `json:"cable"`
	Ground *GroundConfig `json:"ground"`
}

// Given reports whether any part of the crane is given.
func (c *Crane) Given() bool {
	return c.Suspension != nil || c.Load != nil || c.Cable != nil || c.Ground != nil
}

// Config returns the crane as the family's Config with the scenario's
// gravity, checked for a model with features f; hoist, load and cable
// are required.
func (c *Crane) Config(gravity float64, f Features) (*Config, scenario.Errors) {
	var errs scenario.Errors
	for _, p := range []struct {
		key   string
		given bool
	}{{"suspension", c.Suspension != nil}, {"load", c.Load != nil}, {"cable", c.Cable != nil}} {
		if !p.given {
			errs.Add("%s: missing: a hoist is described by suspension, load and cable together", p.key)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	cfg := &Config{Gravity: gravity, Load: *c.Load, Cable: *c.Cable, Ground: c.Ground}
	cfg.Suspension.Position = c.Suspension.Position
	return cfg, cfg.Check(f)
}

// CompactSteel is the density (kg/m³) of the load a body-load model takes
// where the scenario gives no load.size: a steel cube of the load's mass.
const CompactSteel = 7850

// Box returns the load's box (m): its size, or for a load without one the
// cube of steel of the scenario's load mass (CompactSteel: 0.5 m for 1 t).
// The box is the load's shape: the load.mass parameter changes the mass
// and the inertia, not the box.
func (l *Load) Box() [3]float64 {
	if l.Size != nil {
		return *l.Size
	}
	a := max(math.Cbrt(l.Mass/CompactSteel), port.Size.Min)
	return [3]float64{a, a, a}
}
