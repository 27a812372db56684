// Package wirehoist is the model plugin of a crane's hoisting system on
// the hybrid multiresolution wire ([SLNB11], core/hmrwire.Hoist): a winch
// drum with its motor and holding brake, turning sheaves at the boom tip
// and in the hook block, a reeving of 1 to 12 falls, the hook block with
// its load, and the ground the load is set down on. The crane moves the
// boom tip; the FMU returns the force of the whole hoisting system on it.
package wirehoist

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// config is the scenario's "config" of model wire-hoist.
type config struct {
	// Gravity (m/s²) along −z.
	Gravity float64 `json:"gravity"`
	// BoomTip (m) is the first boom sheave's centre at the start.
	BoomTip [3]float64 `json:"boomTip"`
	// Falls is the number of falls the hook block hangs on, 1 to 12.
	Falls  int          `json:"falls"`
	Rope   port.Rope    `json:"rope"`
	Drum   drumConfig   `json:"drum"`
	Sheave sheaveConfig `json:"sheave"`
	// Drop (m) is the hook sheaves' axles' depth below the boom sheaves'
	// at the start: each fall's length.
	Drop  float64     `json:"drop"`
	Block blockConfig `json:"block"`
	Load  loadConfig  `json:"load"`
	// Ground, if given, is the horizontal ground the load is set down on.
	Ground *groundConfig `json:"ground"`
	// Spacing (m) of the mass nodes the wire is laid with and the winch
	// puts out; MinLength (m) the limit switch's shortest paid-out first
	// segment (hauling in stops there).
	Spacing    float64          `json:"spacing" required:"true"`
	MinLength  float64          `json:"minLength"`
	Resolution resolutionConfig `json:"resolution"`
	// OutputNodes is K, the number of points cable.node[k] samples the
	// wire at, equally spaced along its rest length (default 41).
	OutputNodes int `json:"outputNodes"`
}

type drumConfig struct {
	Center [3]float64 `json:"center"` // m, world; the axle runs along y
	Radius float64    `json:"radius"` // m, at the wire's axis
	Width  float64    `json:"width"`  // m, along the axle
	Mass   float64    `json:"mass"`   // kg, the empty drum
	// Inertia (kg·m²) of the empty drum about its axle; 0 takes a
	// thin-walled drum's m r².
	Inertia float64 `json:"inertia"`
	// Wound (m) is the wire on the drum at the start.
	Wound float64 `json:"wound"`
	// Drive is the motor's control: "speed" (input winch.speed, m/s of
	// wire, with at most TorqueLimit) or "torque" (input winch.torque).
	Drive       string  `json:"drive"`
	TorqueLimit float64 `json:"torqueLimit"` // N·m, 0: none
	BrakeTorque float64 `json:"brakeTorque"` // N·m the holding brake holds
}

type sheaveConfig struct {
	Radius float64 `json:"radius"` // m, at the wire's axis
	Width  float64 `json:"width"`  // m, along the axle
	Sides  int     `json:"sides"`  // the groove's polygon
	Mass   float64 `json:"mass"`   // kg
	// Inertia (kg·m²) about the axle; 0 takes a solid disc's m r²/2.
	Inertia float64 `json:"inertia"`
	// Friction is μ between wire and groove.
	Friction float64 `json:"friction"`
	// BearingFriction (N·m) is the bearings' Coulomb torque.
	BearingFriction float64 `json:"bearingFriction"`
	// Locked seizes every sheave: the wire slides over them.
	Locked bool `json:"locked"`
}

type blockConfig struct {
	Mass float64    `json:"mass"` // kg, its sheaves not included
	Size [3]float64 `json:"size"` // m, a box centred on the hook sheaves' axles
}

type loadConfig struct {
	Mass float64    `json:"mass"` // kg
	Size [3]float64 `json:"size"` // m
	// Sling (m) is the gap between the hook sheaves' axles and the load's
	// top: the hook and a short sling, taken as rigid while they carry it.
	Sling float64 `json:"sling"`
}

type groundConfig struct {
	Height   float64 `json:"height"`   // m
	Friction float64 `json:"friction"` // μ between load and ground
}

type resolutionConfig struct {
	Adaptive     *bool   `json:"adaptive"` // default true
	MaxMassNodes int     `json:"maxMassNodes"`
	MinSegment   float64 `json:"minSegment"` // m
}

// defaultOutputNodes is K when the scenario does not say.
const defaultOutputNodes = 41

func (c *config) outputNodes() int {
	if c.OutputNodes == 0 {
		return defaultOutputNodes
	}
	return c.OutputNodes
}

func (c *config) torqueDrive() bool { return c.Drum.Drive == "torque" }

func vec(a [3]float64) geom.Vec3 { return geom.V(a[0], a[1], a[2]) }

// spec returns the core hoist's specification for the parameter values
// in p; core/hmrwire.NewHoist checks the geometry.
func (c *config) spec(p *params) hmrwire.HoistSpec {
	rope := c.Rope.Material()
	adaptive := c.Resolution.Adaptive == nil || *c.Resolution.Adaptive
	s := hmrwire.HoistSpec{
		Gravity: p.gravity, BoomTip: vec(c.BoomTip), Falls: c.Falls,
		Drum: hmrwire.DrumSpec{Name: "drum", Center: vec(c.Drum.Center), Radius: c.Drum.Radius, Width: c.Drum.Width,
			Mass: c.Drum.Mass, Inertia: c.Drum.Inertia, Wound: c.Drum.Wound, TorqueLimit: p.torqueLimit, BrakeTorque: p.brakeTorque},
		Rope: hmrwire.Rope{AxialStiffness: rope.AxialStiffness(), LinearDensity: rope.LinearDensity(), DampingTime: rope.DampingTime},
		Sheave: hmrwire.SheaveSpec{Radius: c.Sheave.Radius, Width: c.Sheave.Width, Sides: c.Sheave.Sides, Mass: c.Sheave.Mass,
			Inertia: c.Sheave.Inertia, Friction: c.Sheave.Friction, BearingFriction: p.bearingFriction, Locked: c.Sheave.Locked},
		Drop: p.drop, BlockMass: c.Block.Mass, BlockSize: vec(c.Block.Size),
		LoadMass: p.loadMass, LoadSize: vec(c.Load.Size), Sling: c.Load.Sling,
		Resolution: hmrwire.Resolution{Adaptive: adaptive, MaxMassNodes: c.Resolution.MaxMassNodes, MinSegment: c.Resolution.MinSegment},
		Spacing:    c.Spacing, MinLength: c.MinLength,
	}
	if g := c.Ground; g != nil {
		s.Ground = &contact.Ground{Height: g.Height, Friction: g.Friction}
	}
	return s
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
	if c.Falls < 1 || c.Falls > 12 {
		add("falls %d: want 1 to 12", c.Falls)
	}
	if err := c.Rope.Material().Validate(); err != nil {
		add("rope: %w", err)
	}
	switch c.Drum.Drive {
	case "speed", "torque":
	default:
		add(`drum: drive %q: want "speed" or "torque"`, c.Drum.Drive)
	}
	if s := c.Sheave.Sides; s < 3 || s > 1024 {
		add("sheave: %d sides: want 3 to 1024", s)
	}
	if !(c.Sheave.Friction >= 0 && c.Sheave.Friction <= 10) {
		add("sheave: friction %g: want 0 to 10", c.Sheave.Friction)
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"drum: inertia (kg·m²)", c.Drum.Inertia}, {"drum: wound length (m)", c.Drum.Wound},
		{"drum: torque limit (N·m)", c.Drum.TorqueLimit}, {"drum: brake torque (N·m)", c.Drum.BrakeTorque},
		{"sheave: inertia (kg·m²)", c.Sheave.Inertia}, {"sheave: bearing friction (N·m)", c.Sheave.BearingFriction},
		{"load: sling (m)", c.Load.Sling}, {"minLength (m)", c.MinLength}, {"resolution: minSegment (m)", c.Resolution.MinSegment}} {
		if !(v.x >= 0) || math.IsInf(v.x, 0) {
			add("%s %g must be finite and not negative", v.name, v.x)
		}
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"drum: radius (m)", c.Drum.Radius}, {"drum: width (m)", c.Drum.Width}, {"drum: mass (kg)", c.Drum.Mass},
		{"sheave: radius (m)", c.Sheave.Radius}, {"sheave: width (m)", c.Sheave.Width}, {"sheave: mass (kg)", c.Sheave.Mass},
		{"spacing (m)", c.Spacing}} {
		if !(v.x > 0) || math.IsInf(v.x, 0) {
			add("%s %g must be positive and finite", v.name, v.x)
		}
	}
	if !(c.Drop >= port.Length.Min && c.Drop <= port.Length.Max) {
		add("drop %g m: want %g to %g", c.Drop, port.Length.Min, port.Length.Max)
	}
	for _, m := range []struct {
		name string
		x    float64
	}{{"block", c.Block.Mass}, {"load", c.Load.Mass}} {
		if !(m.x >= port.Mass.Min && m.x <= port.Mass.Max) {
			add("%s: mass %g kg: want %g to %g", m.name, m.x, port.Mass.Min, port.Mass.Max)
		}
	}
	for _, v := range []struct {
		name string
		x    [3]float64
	}{{"boomTip", c.BoomTip}, {"drum: center", c.Drum.Center}} {
		if !vec(v.x).IsFinite() {
			add("%s %v m must be finite", v.name, v.x)
		}
	}
	if g := c.Ground; g != nil && (!(g.Friction >= 0 && g.Friction <= 10) || math.IsNaN(g.Height) || math.IsInf(g.Height, 0)) {
		add("ground: height %g m must be finite and friction %g within 0 to 10", g.Height, g.Friction)
	}
	if k := c.outputNodes(); k < 2 || k > 10000 {
		add("outputNodes %d: want 2 to 10000", k)
	}
	if c.Resolution.MaxMassNodes < 0 {
		add("resolution: maxMassNodes %d must not be negative", c.Resolution.MaxMassNodes)
	}
	return &c, errors.Join(errs...)
}
