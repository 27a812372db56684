package crane

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/crane"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/motion"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/plugins/scenario"
)

// Stiffness is a spring's range (N/m).
var Stiffness = port.Range{Min: 1, Max: 1e12}

// Damper is a damper's range (N·s/m).
var Damper = port.Range{Min: 0, Max: 1e12}

// Rate is a drive's angular speed range (rad/s).
var Rate = port.Range{Min: -10, Max: 10}

// BoomCrane is the boom crane plugin: a boom on a slewing superstructure
// that luffs (crane.Boom), its tip, where the cable hangs, yielding
// elastically to the cable's pull.
type BoomCrane struct{}

// Name implements fmu.Model.
func (BoomCrane) Name() string { return "boom-crane" }

// Summary implements fmu.Model.
func (BoomCrane) Summary() string {
	return "a crane model to couple with a cable FMU: a boom that slews and luffs at its drives' rates, its tip a modal mass on a spring and damper, pulled by the cable's force; gives the point the cable hangs from"
}

// boomConfig is the boom crane's scenario "config".
type boomConfig struct {
	// Gravity is g (m/s²), acting along −z.
	Gravity float64        `json:"gravity"`
	Boom    boomSpecConfig `json:"boom" required:"true"`
}

type boomSpecConfig struct {
	// Center (m) is a point of the slew axis; Foot (m) the boom's foot
	// relative to it at slew 0; Length (m) the boom's; Slew and Luff (rad)
	// the start's angles; TipMass (kg), TipStiffness (N/m) and TipDamping
	// (N·s/m) its tip's modal mass, spring and damper (crane.BoomSpec).
	Center       [3]float64 `json:"center"`
	Foot         [3]float64 `json:"foot"`
	Length       float64    `json:"length"`
	Slew         float64    `json:"slew"`
	Luff         float64    `json:"luff"`
	TipMass      float64    `json:"tipMass"`
	TipStiffness float64    `json:"tipStiffness"`
	TipDamping   float64    `json:"tipDamping"`
}

// ConfigType implements fmu.Configurable.
func (BoomCrane) ConfigType() any { return new(boomConfig) }

func parseBoom(sc *fmu.Scenario) (*boomConfig, error) {
	var c boomConfig
	if err := scenario.Decode(sc.Config, &c); err != nil {
		return nil, err
	}
	var errs scenario.Errors
	b := c.Boom
	errs.Num("gravity", "m/s²", port.Gravity, c.Gravity)
	errs.Vec("boom.center", "m", port.Position, b.Center[:])
	errs.Vec("boom.foot", "m", port.Position, b.Foot[:])
	errs.Num("boom.length", "m", port.Size, b.Length)
	errs.Num("boom.slew", "rad", port.Angle, b.Slew)
	errs.Num("boom.luff", "rad", port.Range{Min: 1e-6, Max: math.Pi/2 - 1e-6}, b.Luff)
	errs.Num("boom.tipMass", "kg", port.Mass, b.TipMass)
	errs.Num("boom.tipStiffness", "N/m", Stiffness, b.TipStiffness)
	errs.Num("boom.tipDamping", "N·s/m", Damper, b.TipDamping)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	if err := c.spec(c.Gravity).Validate(); err != nil {
		return nil, fmt.Errorf("config.boom: %w", err)
	}
	return &c, nil
}

func (c *boomConfig) spec(gravity float64) crane.BoomSpec {
	b := c.Boom
	return crane.BoomSpec{Center: vec(b.Center), Foot: vec(b.Foot), Length: b.Length, Slew: b.Slew, Luff: b.Luff,
		TipMass: b.TipMass, Stiffness: b.TipStiffness, Damping: b.TipDamping, Gravity: gravity}
}

func vec(a [3]float64) geom.Vec3 { return geom.V(a[0], a[1], a[2]) }

type boomParams struct {
	h    float64
	spec crane.BoomSpec
}

// boomDrive holds the inputs at one instant: the drives' rates (rad/s)
// and the cable's force on the tip (N).
type boomDrive struct {
	slew, luff float64
	cable      geom.Vec3
}

type boomCatalogue = port.Catalogue[boomParams, boomDrive, boomSim]

func boomQuantities(c *boomConfig, step float64) *boomCatalogue {
	qs := &boomCatalogue{}
	b := c.Boom
	qs.Param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *boomParams, x float64) { p.spec.Gravity = x })
	qs.Param("internalStep", "s", "Internal step: the boom steps on the fixed grid start + k·internalStep whatever the communication steps", step, port.Step, func(p *boomParams, x float64) { p.h = x })
	qs.Param("boom.tipMass", "kg", "Modal mass of the boom at its tip", b.TipMass, port.Mass, func(p *boomParams, x float64) { p.spec.TipMass = x })
	qs.Param("boom.tipStiffness", "N/m", "Stiffness of the boom's tip against a force on it, in every direction", b.TipStiffness, Stiffness, func(p *boomParams, x float64) { p.spec.Stiffness = x })
	qs.Param("boom.tipDamping", "N.s/m", "Damping of the boom's tip", b.TipDamping, Damper, func(p *boomParams, x float64) { p.spec.Damping = x })
	qs.Input("slew.rate", "rad/s", "Speed of the slewing drive: the superstructure turns about the vertical axis, counterclockwise seen from above", 0, Rate, func(d *boomDrive, x float64) { d.slew = x })
	qs.Input("luff.rate", "rad/s", "Speed of the luffing drive: the boom turns up about its foot; a luff past the horizontal or the vertical is an error", 0, Rate, func(d *boomDrive, x float64) { d.luff = x })
	cablePorts(qs, "tip", "the boom's tip", "the boom's tip, where the cable hangs", "the boom's tip",
		func(d *boomDrive) *geom.Vec3 { return &d.cable },
		func(s *boomSim) geom.Vec3 { return s.boom.Tip() }, func(s *boomSim) geom.Vec3 { return s.boom.TipVel })
	qs.Output("slew.angle", "rad", "Slew angle of the superstructure from the start's x axis, counterclockwise seen from above", func(s *boomSim) float64 { a, _ := s.boom.Angles(); return a })
	qs.Output("luff.angle", "rad", "Luff angle of the boom up from the horizontal", func(s *boomSim) float64 { _, a := s.boom.Angles(); return a })
	return qs
}

// Configure implements fmu.Model.
func (BoomCrane) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	c, err := parseBoom(sc)
	if err != nil {
		return nil, err
	}
	ports, err := port.Select(boomQuantities(c, sc.Step), sc.Ports, sc.Step)
	if err != nil {
		return nil, err
	}
	m := &boomModel{Ports: ports, cfg: c}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the boom crane: %w", err)
	}
	return m, nil
}

// Validation implements fmu.Validated.
func (BoomCrane) Validation() []fmu.Figure {
	return []fmu.Figure{
		{Check: "tip deflection under a 20 t load, (W + m g)/k", Result: "1e-7", Tolerance: "1e-6", Test: "TestBoomTipDeflectsAndRings"},
		{Check: "tip ringing at √(k/m), decaying as the damping ratio says", Result: "period +0.03 %, decay exact", Tolerance: "0.5 %, 10 % of its logarithm", Test: "TestBoomTipDeflectsAndRings"},
		{Check: "slewing at 0.2 rad/s: the tip deflected outwards by m ω² R/k", Result: "+0.004 %", Tolerance: "1 %", Test: "TestBoomSlewsAndLuffs"},
	}
}

type boomModel struct {
	*port.Ports[boomParams, boomDrive, boomSim]
	cfg *boomConfig
}

type boomSim struct {
	m        *boomModel
	h        float64
	boom     *crane.Boom
	from, to boomDrive
}

// NewSimulation implements fmu.Configured: the boom at rest, its tip
// deflected by its own weight and the cable's force at the start (the
// inputs' start values or what the master sets before initialization
// ends).
func (m *boomModel) NewSimulation(values []float64) (fmu.Simulation, error) {
	p := boomParams{h: m.Step, spec: m.cfg.spec(m.cfg.Gravity)}
	m.ApplyParams(&p, values)
	b, err := crane.NewBoom(p.spec)
	if err != nil {
		return nil, err
	}
	s := &boomSim{m: m, h: p.h, boom: b}
	m.ReadInputs(&s.from, values)
	b.Preload(s.from.cable) // the cable's force at the start, as a master sets it, carried at rest
	return s, nil
}

// Step implements fmu.Simulation: the drives at their rates at the step's
// start, the tip under the cable's force averaged over the step.
func (s *boomSim) Step(lead float64, from, to []float64, first bool) error {
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := motion.StepStart(lead, s.h)
	s.boom.SlewRate, s.boom.LuffRate = s.from.slew, s.from.luff
	mean := func(a, b float64) float64 { return motion.MeanSpeed(a, b, frac) }
	force := geom.V(mean(s.from.cable.X, s.to.cable.X), mean(s.from.cable.Y, s.to.cable.Y), mean(s.from.cable.Z, s.to.cable.Z))
	return s.boom.Step(s.h, force)
}

// Outputs implements fmu.Simulation.
func (s *boomSim) Outputs(values []float64) { s.m.WriteOutputs(s, values) }

// SaveState implements fmu.Simulation.
func (s *boomSim) SaveState(dst []float64) []float64 { return state.Save(dst, s.boom) }

// LoadState implements fmu.Simulation.
func (s *boomSim) LoadState(src []float64) error { return state.LoadAll(src, s.boom) }

// Sketch implements fmu.Sketcher: the boom from its foot to its tip.
func (s *boomSim) Sketch() fmu.Sketch {
	var sk fmu.Sketch
	spec := s.m.cfg.spec(s.m.cfg.Gravity)
	slew, _ := s.boom.Angles()
	foot := spec.Center.Add(geom.AxisAngle(geom.V(0, 0, 1), slew).Rotate(spec.Foot))
	sk.Add(fmu.Anchor, "slew axis", port.Pt(spec.Center))
	sk.Add(fmu.Rope, "boom", port.Pt(foot), port.Pt(s.boom.Tip()))
	sk.Add(fmu.Anchor, "the cable hangs here", port.Pt(s.boom.Tip()))
	return sk
}
