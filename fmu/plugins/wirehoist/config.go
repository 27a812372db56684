// Package wirehoist is the model plugin of a crane's hoisting system on
// the hybrid multiresolution wire ([SLNB11], core/hmrwire.Hoist): a winch
// drum with its motor and holding brake, turning sheaves at the boom tip
// and in the hook block, a reeving of 1 to 12 falls, the hook block with
// its load, and the ground the load is set down on. The crane moves the
// boom tip; the FMU returns the force of the whole hoisting system on it.
package wirehoist

import (
	"encoding/json"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// config is the scenario's "config" of model wire-hoist.
type config struct {
	// Gravity (m/s²) along −z.
	Gravity float64 `json:"gravity"`
	// BoomTip (m) is the first boom sheave's centre at the start.
	BoomTip [3]float64 `json:"boomTip"`
	// Falls is the number of falls the hook block hangs on, 1 to 12.
	Falls  int           `json:"falls"`
	Rope   scenario.Rope `json:"rope"`
	Drum   drumConfig    `json:"drum"`
	Sheave sheaveConfig  `json:"sheave"`
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

// maxMassNodes bounds resolution.maxMassNodes (0 takes the wire's
// default): a cap on the wire's nodes, each a body in every step's system.
const maxMassNodes = 1000000

// parseConfig reads and checks the config: every number in its range
// (port's ranges; the torques in torqueRange, the model's parameter
// range).
func parseConfig(raw json.RawMessage) (*config, error) {
	var c config
	if err := scenario.Decode(raw, &c); err != nil {
		return nil, err
	}
	var errs scenario.Errors
	add := errs.Add
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	errs.Vec("boomTip", "m", port.Position, c.BoomTip[:])
	errs.Int("falls", c.Falls, 1, 12)
	errs = append(errs, c.Rope.Check("rope")...)
	switch c.Drum.Drive {
	case "speed", "torque":
	default:
		add(`drum.drive %q: want "speed" or "torque"`, c.Drum.Drive)
	}
	d := &c.Drum
	errs.Vec("drum.center", "m", port.Position, d.Center[:])
	errs.Num("drum.radius", "m", port.Sheave, d.Radius)
	errs.Num("drum.width", "m", port.Size, d.Width)
	errs.Num("drum.mass", "kg", port.Mass, d.Mass)
	errs.Num("drum.inertia", "kg·m²", port.Inertia, d.Inertia)
	errs.Num("drum.wound", "m", port.OptLength, d.Wound)
	errs.Num("drum.torqueLimit", "N·m", torqueRange, d.TorqueLimit)
	errs.Num("drum.brakeTorque", "N·m", torqueRange, d.BrakeTorque)
	sh := &c.Sheave
	errs.Num("sheave.radius", "m", port.Sheave, sh.Radius)
	errs.Num("sheave.width", "m", port.Size, sh.Width)
	errs.Int("sheave.sides", sh.Sides, 3, 1024)
	errs.Num("sheave.mass", "kg", port.Mass, sh.Mass)
	errs.Num("sheave.inertia", "kg·m²", port.Inertia, sh.Inertia)
	errs.Num("sheave.friction", "", port.Friction, sh.Friction)
	errs.Num("sheave.bearingFriction", "N·m", torqueRange, sh.BearingFriction)
	errs.Num("drop", "m", port.Length, c.Drop)
	errs.Num("block.mass", "kg", port.Mass, c.Block.Mass)
	errs.Vec("block.size", "m", port.Size, c.Block.Size[:])
	errs.Num("load.mass", "kg", port.Mass, c.Load.Mass)
	errs.Vec("load.size", "m", port.Size, c.Load.Size[:])
	errs.Num("load.sling", "m", port.OptLength, c.Load.Sling)
	if g := c.Ground; g != nil {
		errs.Num("ground.height", "m", port.Position, g.Height)
		errs.Num("ground.friction", "", port.Friction, g.Friction)
	}
	errs.Num("spacing", "m", port.Length, c.Spacing)
	errs.Num("minLength", "m", port.OptLength, c.MinLength)
	errs.Int("resolution.maxMassNodes", c.Resolution.MaxMassNodes, 0, maxMassNodes)
	errs.Num("resolution.minSegment", "m", port.OptLength, c.Resolution.MinSegment)
	errs.Int("outputNodes", c.outputNodes(), 2, 10000)
	return &c, errs.Err()
}
