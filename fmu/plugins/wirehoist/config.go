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
	"sort"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// scenarioConfig is the scenario's "config" of model wire-hoist: the
// hoist family's crane (gravity, suspension, load, cable, ground; the
// suspension point is the first boom sheave's centre) and the reeving in
// the model's own block "wireHoist".
type scenarioConfig struct {
	// Gravity (m/s²) along −z.
	Gravity float64 `json:"gravity"`
	hoist.Crane
	Own *reeving `json:"wireHoist" required:"true"`
}

// reeving is the wire hoist's own block: the falls and the hardware they
// run over, and the wire's resolution.
type reeving struct {
	// Falls is the number of falls the hook block hangs on, 1 to 12
	// (left out: 1).
	Falls  int          `json:"falls" zero:"default"`
	Drum   drumConfig   `json:"drum" required:"true"`
	Sheave sheaveConfig `json:"sheave" required:"true"`
	Block  blockConfig  `json:"block" required:"true"`
	// Sling (m) is the gap between the hook sheaves' axles and the load's
	// top: the hook and a short sling, taken as rigid while they carry
	// it, more than the sheaves' radius and half the rope's diameter (the
	// wire under the sheaves clears the load). The falls' length at the
	// start is cable.length0 − sling.
	Sling float64 `json:"sling"`
	// Spacing (m) of the mass nodes the wire is laid with and the winch
	// puts out (left out: cable.length0 / cable.segments).
	Spacing    float64          `json:"spacing" zero:"default"`
	Resolution resolutionConfig `json:"resolution"`
	// OutputNodes is K, the number of points cable.node[k] samples the
	// wire at, equally spaced along its rest length (default 41).
	OutputNodes int `json:"outputNodes" zero:"default"`
	// Swivel puts the dead end on the hook block (an odd number of falls)
	// on a swivel: the rope turns freely there. It makes the wire twist.
	Swivel bool `json:"swivel"`
	// SideBySide reeves the falls over sheaves side by side on the boom
	// tip's and the block's axles (hmrwire.HoistSpec.SideBySide); default:
	// sheaves in a row along the boom, the falls in one plane.
	SideBySide bool `json:"sideBySide"`
	// CrossedHook reeves the falls over hook sheaves whose axle crosses
	// the boom sheaves' (hmrwire.HoistSpec.CrossedHook); not with
	// SideBySide.
	CrossedHook bool `json:"crossedHook"`
	// Slew, if given, puts the drum and the boom on a superstructure that
	// slews about the vertical axis through its center (m) at the input
	// slew.rate: the boom tip follows the slew, and the suspension
	// inputs are no ports.
	Slew *slewConfig `json:"slew"`
}

type slewConfig struct {
	Center [3]float64 `json:"center" required:"true"` // m, a point of the slew axis
	// BoomFoot (m), if given, is the point on the superstructure the boom
	// luffs about, at the input luff.rate.
	BoomFoot *[3]float64 `json:"boomFoot"`
}

// config is a wire hoist as the plugin builds it: the scenario's crane and
// reeving, checked and resolved (defaults taken, the falls' length from
// the load's depth).
type config struct {
	Gravity float64
	// BoomTip (m) is the first boom sheave's centre at the start.
	BoomTip [3]float64
	Falls   int
	Rope    scenario.BendingRope
	Drum    drumConfig
	Sheave  sheaveConfig
	// Length0 (m) is the load's top below the boom tip at the start, and
	// Drop (m) the hook sheaves' axles' depth below the boom sheaves':
	// each fall's length, Length0 less the sling.
	Length0, Drop float64
	Block         blockConfig
	Load          loadConfig
	// Ground, if given, is the horizontal ground the load is set down on.
	Ground *groundConfig
	// Spacing (m) of the mass nodes; MinLength (m) the limit switch's
	// shortest paid-out first segment (hauling in stops there).
	Spacing, MinLength float64
	Resolution         resolutionConfig
	OutputNodes        int
	// Swivel: the dead end on the block turns freely (see reeving).
	Swivel bool
	// Slew: the superstructure slews (see reeving); SideBySide and
	// CrossedHook: the sheaves' arrangement (see reeving).
	Slew                    *slewConfig
	SideBySide, CrossedHook bool
}

// twists reports whether the wire carries twist: when the scenario's rope
// gives its torsional stiffness or a torque factor, or the dead end is on
// a swivel (otherwise the wire is left without the roll of its sections,
// which costs a degree of freedom per mass node).
func (c *config) twists() bool {
	r := c.Rope
	return r.TorsionalStiffness != nil || r.TorqueFactor != nil && *r.TorqueFactor != 0 || c.Swivel
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
	// Spool spools the wire across the drum's width in layers, the wire
	// leaving at its last turn on its layer's radius (default: at one
	// point on the drum's radius).
	Spool bool `json:"spool"`
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
	// FleetAngleLimit (rad) is the largest fleet angle the grooves hold
	// the wire at; beyond it an event names the sheave. 0: no limit.
	FleetAngleLimit float64 `json:"fleetAngleLimit"`
}

type blockConfig struct {
	Mass float64    `json:"mass"` // kg, its sheaves not included
	Size [3]float64 `json:"size"` // m, a box centred on the hook sheaves' axles
	// CenterBelow (m) is how far below the axles the block's centre of
	// mass lies, within the box's lower half (left out: a quarter of its
	// height): its hook and crosshead hang below its sheaves
	// (hmrwire.HoistSpec.BlockBelow).
	CenterBelow *float64 `json:"centerBelow"`
}

// below returns the depth (m) of the block's centre of mass below its
// axles: CenterBelow, or a quarter of the block's height.
func (b blockConfig) below() float64 {
	if b.CenterBelow != nil {
		return *b.CenterBelow
	}
	return b.Size[2] / 4
}

// loadConfig is the load's box and its sling below the hook.
type loadConfig struct {
	Mass, Sling float64    // kg, m
	Size        [3]float64 // m
}

type groundConfig = hoist.GroundConfig

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
	rope := c.Rope.WireMaterial()
	adaptive := c.Resolution.Adaptive == nil || *c.Resolution.Adaptive
	s := hmrwire.HoistSpec{
		Gravity: p.gravity, BoomTip: vec(c.BoomTip), Falls: c.Falls,
		Drum: hmrwire.DrumSpec{Name: "drum", Center: vec(c.Drum.Center), Radius: c.Drum.Radius, Width: c.Drum.Width,
			Mass: c.Drum.Mass, Inertia: c.Drum.Inertia, Wound: c.Drum.Wound, TorqueLimit: p.torqueLimit, BrakeTorque: p.brakeTorque,
			Spool: c.Drum.Spool},
		Rope: rope,
		Sheave: hmrwire.SheaveSpec{Radius: c.Sheave.Radius, Width: c.Sheave.Width, Sides: c.Sheave.Sides, Mass: c.Sheave.Mass,
			Inertia: c.Sheave.Inertia, Friction: c.Sheave.Friction, BearingFriction: p.bearingFriction, Locked: c.Sheave.Locked,
			FleetLimit: c.Sheave.FleetAngleLimit},
		Drop: p.drop, BlockMass: c.Block.Mass, BlockSize: vec(c.Block.Size), BlockBelow: c.Block.below(),
		LoadMass: p.loadMass, LoadSize: vec(c.Load.Size), Sling: c.Load.Sling,
		Resolution: hmrwire.Resolution{Adaptive: adaptive, MaxMassNodes: c.Resolution.MaxMassNodes, MinSegment: c.Resolution.MinSegment},
		Spacing:    c.Spacing, MinLength: c.MinLength,
		Twist: c.twists(), Swivel: c.Swivel, SideBySide: c.SideBySide, CrossedHook: c.CrossedHook,
	}
	if g := c.Ground; g != nil {
		s.Ground = &contact.Ground{Height: g.Height, Friction: g.Friction}
	}
	if sl := c.Slew; sl != nil {
		s.Slew = &hmrwire.SlewSpec{Center: vec(sl.Center)}
		if f := sl.BoomFoot; f != nil {
			foot := vec(*f)
			s.Slew.BoomFoot = &foot
		}
	}
	return s
}

// maxMassNodes bounds resolution.maxMassNodes (0 takes the wire's
// default): a cap on the wire's nodes, each a body in every step's system.
const maxMassNodes = 1000000

// craneFeatures are the crane's parts the wire hoist has: the load is a
// body set down on the ground, the rope is damped.
var craneFeatures = hoist.Features{Model: "the wire hoist", LoadBody: true, Ground: true, Damping: true, Elements: "the wire's mass nodes",
	Torsion: true, RopeTorque: true}

// movedKeys are the keys of the wire hoist's own language before it read
// the hoist family's crane, with where they went.
var movedKeys = map[string]string{
	"boomTip": "now config.suspension.position", "rope": "now config.cable.rope",
	"drop":      "now config.cable.length0, the load's top below the suspension point (the falls' length + wireHoist.sling)",
	"minLength": "now config.cable.minLength", "block": "now config.wireHoist.block",
	"falls": "now config.wireHoist.falls", "drum": "now config.wireHoist.drum", "sheave": "now config.wireHoist.sheave",
	"spacing": "now config.wireHoist.spacing", "resolution": "now config.wireHoist.resolution",
	"outputNodes": "now config.wireHoist.outputNodes",
}

// parseConfig reads and checks the config (every number in its range:
// port's ranges; the torques in torqueRange, the model's parameter range)
// and resolves it into the hoist the plugin builds.
func parseConfig(raw json.RawMessage) (*config, error) {
	if err := checkKeys(raw); err != nil {
		return nil, err
	}
	var sc scenarioConfig
	if err := hoist.Decode(raw, "wireHoist", &sc); err != nil {
		return nil, err
	}
	var errs scenario.Errors
	fc, crane := sc.Crane.Config(sc.Gravity, craneFeatures)
	errs = append(errs, crane...)
	if fc != nil && fc.Cable.Segments > 0 && sc.Own != nil && sc.Own.Spacing > 0 {
		errs.Add("cable.segments and wireHoist.spacing: give one (the spacing of the wire's mass nodes, or into how many pieces cable.length0 is cut for it)")
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	c := resolve(fc, sc.Own)
	errs = c.check()
	return c, errs.Err()
}

// checkKeys refuses the keys of the wire hoist's former language
// with where they went, instead of "unknown key", and a config without
// the reeving with what belongs there: *fmu.PositionErrors in the config,
// at the key (a config without the reeving: at its opening brace),
// joined by errors.Join.
func checkKeys(raw json.RawMessage) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil // the strict decoder says what is wrong
	}
	type refusal struct{ path, msg string }
	var refused []refusal
	for key := range top {
		if to, ok := movedKeys[key]; ok {
			refused = append(refused, refusal{key, fmt.Sprintf("config.%s: %s", key, to)})
		}
	}
	if _, ok := top["wireHoist"]; !ok {
		refused = append(refused, refusal{"", "config.wireHoist: missing: the wire hoist's reeving (falls, drum, sheave, block) is described there"})
	}
	var load map[string]json.RawMessage
	if json.Unmarshal(top["load"], &load) == nil {
		if _, ok := load["sling"]; ok {
			refused = append(refused, refusal{"load.sling", "config.load.sling: now config.wireHoist.sling"})
		}
	}
	if len(refused) == 0 {
		return nil
	}
	sort.Slice(refused, func(i, j int) bool { return refused[i].msg < refused[j].msg })
	errs := make([]error, len(refused))
	for i, r := range refused {
		errs[i] = fmu.AtKey(raw, r.path, errors.New(r.msg))
	}
	return errors.Join(errs...)
}

// resolve turns a checked crane and the reeving into the hoist the plugin
// builds.
func resolve(fc *hoist.Config, own *reeving) *config {
	c := &config{
		Gravity: fc.Gravity, BoomTip: fc.Suspension.Position, Falls: own.Falls, Rope: fc.Cable.Rope,
		Drum: own.Drum, Sheave: own.Sheave, Length0: fc.Cable.Length0, Drop: fc.Cable.Length0 - own.Sling, Block: own.Block,
		Load:    loadConfig{Mass: fc.Load.Mass, Sling: own.Sling, Size: fc.Load.Box()},
		Ground:  fc.Ground,
		Spacing: own.Spacing, MinLength: fc.Cable.MinLen(), Resolution: own.Resolution, OutputNodes: own.OutputNodes,
		Swivel: own.Swivel, Slew: own.Slew, SideBySide: own.SideBySide, CrossedHook: own.CrossedHook,
	}
	if c.Falls == 0 {
		c.Falls = 1
	}
	if c.Spacing == 0 {
		c.Spacing = fc.Cable.Length0 / float64(fc.Cable.Elements())
	}
	return c
}

// check returns what is wrong with the reeving (the crane's numbers are
// hoist.Config.Check's); the keys are the scenario's.
func (c *config) check() scenario.Errors {
	var errs scenario.Errors
	add := errs.Add
	errs.Int("wireHoist.falls", c.Falls, 1, 12)
	switch c.Drum.Drive {
	case "speed", "torque":
	default:
		add(`wireHoist.drum.drive %q: want "speed" or "torque"`, c.Drum.Drive)
	}
	d := &c.Drum
	errs.Vec("wireHoist.drum.center", "m", port.Position, d.Center[:])
	errs.Num("wireHoist.drum.radius", "m", port.Sheave, d.Radius)
	errs.Num("wireHoist.drum.width", "m", port.Size, d.Width)
	errs.Num("wireHoist.drum.mass", "kg", port.Mass, d.Mass)
	errs.Num("wireHoist.drum.inertia", "kg·m²", port.Inertia, d.Inertia)
	errs.Num("wireHoist.drum.wound", "m", port.OptLength, d.Wound)
	errs.Num("wireHoist.drum.torqueLimit", "N·m", torqueRange, d.TorqueLimit)
	errs.Num("wireHoist.drum.brakeTorque", "N·m", torqueRange, d.BrakeTorque)
	sh := &c.Sheave
	errs.Num("wireHoist.sheave.radius", "m", port.Sheave, sh.Radius)
	errs.Num("wireHoist.sheave.width", "m", port.Size, sh.Width)
	errs.Int("wireHoist.sheave.sides", sh.Sides, 4, 1024) // hmrwire's minSheaveSides
	errs.Num("wireHoist.sheave.mass", "kg", port.Mass, sh.Mass)
	errs.Num("wireHoist.sheave.inertia", "kg·m²", port.Inertia, sh.Inertia)
	errs.Num("wireHoist.sheave.friction", "", port.Friction, sh.Friction)
	errs.Num("wireHoist.sheave.bearingFriction", "N·m", torqueRange, sh.BearingFriction)
	errs.Num("wireHoist.sheave.fleetAngleLimit", "rad", port.Range{Min: 0, Max: 1.5}, sh.FleetAngleLimit)
	errs.Num("wireHoist.block.mass", "kg", port.Mass, c.Block.Mass)
	errs.Vec("wireHoist.block.size", "m", port.Size, c.Block.Size[:])
	if b := c.Block.below(); !(b >= 0 && b <= c.Block.Size[2]/2) {
		add("wireHoist.block.centerBelow %g m: the block's centre of mass must lie within its lower half, 0 to %g m below its axles", b, c.Block.Size[2]/2)
	}
	errs.Num("wireHoist.sling", "m", port.OptLength, c.Load.Sling)
	// The rope must fit its sheaves and drum, and the wire under the hook
	// sheaves must clear the load (else the routing found the wire
	// through the load and said so in its own terms).
	if rope := c.Rope.Diameter; rope > 0 {
		if sh.Width > 0 && sh.Width < rope {
			add("wireHoist.sheave.width %g m: narrower than the rope (cable.rope.diameter %g m)", sh.Width, rope)
		}
		if d.Width > 0 && d.Width < rope {
			add("wireHoist.drum.width %g m: narrower than the rope (cable.rope.diameter %g m)", d.Width, rope)
		}
		// Only a block with sheaves (two falls or more) has wire under its
		// axles; one fall ends at the hook.
		if under := sh.Radius + rope/2; c.Falls >= 2 && sh.Radius > 0 && !(c.Load.Sling > under) {
			add("wireHoist.sling %g m: on %d falls the load's top must lie below the wire under the hook sheaves, more than the sheave radius and half the rope's diameter (%.4g m) below their axles", c.Load.Sling, c.Falls, under)
		}
	}
	if !(c.Drop > 0) {
		add("cable.length0 %g m: the load's top below the suspension point must exceed wireHoist.sling %g m (the falls hang between)", c.Drop+c.Load.Sling, c.Load.Sling)
	}
	errs.Num("wireHoist.spacing", "m", port.Length, c.Spacing)
	errs.Int("wireHoist.resolution.maxMassNodes", c.Resolution.MaxMassNodes, 0, maxMassNodes)
	errs.Num("wireHoist.resolution.minSegment", "m", port.OptLength, c.Resolution.MinSegment)
	errs.Int("wireHoist.outputNodes", c.outputNodes(), 2, 10000)
	if sl := c.Slew; sl != nil {
		errs.Vec("wireHoist.slew.center", "m", port.Position, sl.Center[:])
		if f := sl.BoomFoot; f != nil {
			errs.Vec("wireHoist.slew.boomFoot", "m", port.Position, f[:])
		}
	}
	if c.Swivel && c.Falls%2 == 0 {
		add("wireHoist.swivel: on %d falls the dead end is on the boom tip, not on the hook block (a swivel needs an odd number of falls)", c.Falls)
	}
	return errs
}
