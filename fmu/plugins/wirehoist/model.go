package wirehoist

import (
	"fmt"
	"strings"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Model is the wire hoist plugin.
type Model struct{}

// Name implements fmu.Model.
func (Model) Name() string { return "wire-hoist" }

// Summary implements fmu.Model.
func (Model) Summary() string {
	return "a crane's reeving on the hybrid multiresolution wire: drum, boom and hook-block sheaves, several falls, hook block and load [Servin et al. 2011]; for fall tensions, sheave speeds and multi-fall hoisting"
}

// Configure implements fmu.Model. The ports "cable.node[*]",
// "fall[*].tension", "fall[*].tensionPeak" and "sheave[*].QUANTITY" (omega, wrap, fleetAngle,
// speed, dOverD, travel, passes) expand to every sample point, fall and
// sheave.
func (Model) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	cfg, err := parseConfig(sc.Config)
	if err != nil {
		return nil, err
	}
	ports, err := port.Select(quantities(cfg, sc.Step), expand(sc.Ports, cfg), sc.Step)
	if err != nil {
		return nil, err
	}
	m := &configured{Ports: ports, cfg: cfg}
	m.hoist = port.FindDriven(m.Variables(), "suspension")
	if cfg.Slew != nil {
		for _, v := range m.Variables() {
			if strings.HasPrefix(v.Name, "suspension.") && v.Causality == modeldesc.CausalityInput {
				return nil, fmt.Errorf("port %q: a slewing superstructure (wireHoist.slew) moves the boom tip itself; drop the suspension inputs and drive slew.rate", v.Name)
			}
		}
	}
	if _, err := m.NewSimulation(m.Starts()); err != nil {
		return nil, fmt.Errorf("building the hoist: %w", err)
	}
	return m, nil
}

func expand(ports []string, c *config) []string {
	var out []string
	for _, p := range ports {
		switch p {
		case port.CableNodes:
			out = append(out, port.NodeNames("cable.node", c.outputNodes())...)
		case "fall[*].tension", "fall[*].tensionPeak":
			for k := 1; k <= c.Falls; k++ {
				out = append(out, strings.Replace(p, "*", fmt.Sprint(k), 1))
			}
		case "sheave[*].omega", "sheave[*].wrap", "sheave[*].fleetAngle", "sheave[*].speed", "sheave[*].dOverD", "sheave[*].travel", "sheave[*].passes":
			for k := 1; k <= c.Falls; k++ {
				out = append(out, strings.Replace(p, "*", fmt.Sprint(k), 1))
			}
		default:
			out = append(out, p)
		}
	}
	return out
}

// configured implements fmu.Configured.
type configured struct {
	*port.Ports[params, drive, simulation]
	cfg   *config
	hoist port.Driven
}

type catalogue = port.Catalogue[params, drive, simulation]

// params holds the parameters.
type params struct {
	gravity, h, loadMass, drop float64
	torqueLimit, brakeTorque   float64 // N·m
	bearingFriction            float64 // N·m
}

// drive holds the inputs at one instant: the boom tip's position and
// velocity, the winch's command and its brake.
type drive struct {
	pos, vel      geom.Vec3
	speed, torque float64
	brake         float64
	slew, luff    float64 // rad/s
}

// Ranges of the drum's torques.
var (
	torqueRange = port.Range{Min: 0, Max: 1e9} // N·m
	driveTorque = port.Range{Min: -1e9, Max: 1e9}
)

func quantities(c *config, step float64) *catalogue {
	qs := &catalogue{}
	axes := []string{port.Axis(0), port.Axis(1), port.Axis(2)}
	qs.Param("gravity", "m/s2", "Gravitational acceleration, acting along -z", c.Gravity, port.Gravity, func(p *params, x float64) { p.gravity = x })
	qs.Param("internalStep", "s", "Internal step of the wire solver: steps on the fixed grid start + k·internalStep whatever the communication steps; between grid points Real outputs are interpolated, counts and switches keep the earlier grid point's value", step, port.Step, func(p *params, x float64) { p.h = x })
	qs.Param("load.mass", "kg", "Mass of the load (the hook block's is config.wireHoist.block's)", c.Load.Mass, port.Mass, func(p *params, x float64) { p.loadMass = x })
	qs.Param("cable.length0", "m", "Depth of the load's top below the suspension point (the first boom sheave's centre) at the start: each fall's length plus the sling (config.wireHoist.sling)", c.Length0, port.Length,
		func(p *params, x float64) { p.drop = x - c.Load.Sling })
	qs.Param("motor.torqueLimit", "N.m", "Most torque the winch motor gives in speed mode (0: no limit)", c.Drum.TorqueLimit, torqueRange, func(p *params, x float64) { p.torqueLimit = x })
	qs.Param("brake.holdingTorque", "N.m", "Most torque the holding brake holds; it slips beyond", c.Drum.BrakeTorque, torqueRange, func(p *params, x float64) { p.brakeTorque = x })
	qs.Param("sheave.bearingFriction", "N.m", "Coulomb friction torque of every sheave's bearing", c.Sheave.BearingFriction, torqueRange, func(p *params, x float64) { p.bearingFriction = x })

	for k, ax := range axes {
		qs.Input("suspension."+ax, "m", fmt.Sprintf("World %s position of the boom tip (the first boom sheave's centre; driven)", ax), c.BoomTip[k], port.Position,
			func(d *drive, x float64) { port.SetComp(&d.pos, k, x) })
	}
	for k, ax := range axes {
		qs.Input("suspension.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the boom tip: the point follows it along a smooth path through the samples", ax), 0, port.Velocity,
			func(d *drive, x float64) { port.SetComp(&d.vel, k, x) })
	}
	if c.torqueDrive() {
		qs.Input("winch.torque", "N.m", "Torque of the winch motor on the drum; positive pays out", 0, driveTorque, func(d *drive, x float64) { d.torque = x })
	} else {
		qs.Input("winch.speed", "m/s", "Commanded wire speed at the drum's rim; positive pays out (the motor gives at most motor.torqueLimit)", 0, port.Velocity,
			func(d *drive, x float64) { d.speed = x })
	}
	qs.Switch("winch.brake", "Holding brake: true engaged (it replaces the motor and holds up to brake.holdingTorque), false released", false,
		func(d *drive, x float64) { d.brake = x })

	for k, ax := range axes {
		qs.Output("suspension.f"+ax, "N", fmt.Sprintf("World %s component of the force of the whole hoisting system (wire, sheaves, block and load) on the boom tip", ax),
			func(s *simulation) float64 { return s.ho.BoomTipForce().Comp(k) })
	}
	if c.Slew != nil {
		qs.Input("slew.rate", "rad/s", "Slew rate of the superstructure (drum, boom and its sheaves) about the vertical axis through wireHoist.slew.center, counterclockwise seen from above", 0, port.Range{Min: -1, Max: 1},
			func(d *drive, x float64) { d.slew = x })
		qs.Output("slew.angle", "rad", "Angle the superstructure slewed from the start, counterclockwise seen from above, counted on through whole turns (2π a turn)", func(s *simulation) float64 { return s.slewed })
		if c.Slew.BoomFoot != nil {
			qs.Input("luff.rate", "rad/s", "Luff rate of the boom about wireHoist.slew.boomFoot, positive raising it", 0, port.Range{Min: -1, Max: 1},
				func(d *drive, x float64) { d.luff = x })
			qs.Output("luff.angle", "rad", "Angle of the boom above the horizontal, from its foot to the boom tip", func(s *simulation) float64 { return s.ho.LuffAngle() })
		}
	}
	qs.Output("cable.tension", "N", "Tension of the wire where it leaves the drum", func(s *simulation) float64 { return s.reported(hmrwire.ReportDrumTension) })
	qs.Peak("cable.tensionPeak", "N", "Largest tension of the wire where it leaves the drum over the last communication step, at its internal steps and its ends: the snap peaks between a master's samples", func(s *simulation) float64 { return s.reported(hmrwire.ReportDrumTension) })
	qs.Output("cable.length", "m", "Paid-out rest (unstretched) length of the wire, drum to dead end", func(s *simulation) float64 { return s.ho.Wire.RestLength() })
	qs.Count("cable.massNodes", "Number of mass nodes of the wire, its ends included (the adaptive resolution)",
		func(s *simulation) float64 { m, _, _ := s.ho.Wire.Counts(); return float64(m) })
	qs.Count("cable.contactNodes", "Number of contact nodes of the wire on the sheaves' grooves",
		func(s *simulation) float64 { _, _, n := s.ho.Wire.Counts(); return float64(n) })
	qs.Output("drum.angle", "rad", "Angle the drum turned from the start, positive paying out", func(s *simulation) float64 { return s.ho.Drum.Angle() })
	qs.Output("drum.omega", "rad/s", "Spin of the drum on its axle, positive paying out", func(s *simulation) float64 { return s.ho.Drum.Omega() })
	qs.Output("drum.motorTorque", "N.m", "Torque of the winch motor on the drum in the last step, positive paying out", func(s *simulation) float64 { return s.ho.Drum.MotorTorque() })
	qs.Output("drum.brakeTorque", "N.m", "Torque of the holding brake on the drum in the last step", func(s *simulation) float64 { return s.ho.Drum.BrakeTorqueApplied() })
	qs.Output("drum.wound", "m", "Length of wire wound on the drum", func(s *simulation) float64 { return s.ho.Drum.Wound() })
	if c.Drum.Spool {
		qs.Count("drum.layer", "Layer the wire left the drum from in the last internal step, 1 the first (wireHoist.drum.spool)",
			func(s *simulation) float64 { return float64(s.ho.Drum.Layer() + 1) })
		qs.Output("drum.radius", "m", "Radius at the wire's axis of the layer the wire left the drum from in the last internal step", func(s *simulation) float64 { return s.ho.Drum.Radius })
	}
	qs.Output("drum.wrap", "rad", "Angle the wound wire wraps the drum by: its turns (drum.wound over the radius, or spooled the turns of its layers), at the last internal step's start", func(s *simulation) float64 { return s.ho.Drum.Wrap() })
	qs.Output("drum.speed", "m/s", "Speed of the wire onto or off the drum: its rim's, omega times the radius, positive paying out", func(s *simulation) float64 { return s.ho.Drum.RimSpeed() })
	qs.Output("drum.dOverD", "1", "D/d of the drum: its diameter at the wire's axis over the rope's diameter", func(s *simulation) float64 { return 2 * s.ho.Drum.Radius / s.ho.Wire.Rope.Diameter })
	qs.Output("drum.travel", "m", "Length of wire that ran onto or off the drum since the start", func(s *simulation) float64 { return s.ho.Drum.Travel() })
	qs.Count("drum.passes", "Running count of the wire's passes over the drum: runs in one direction that spooled at least half a turn on or off; counts for rope life estimates, no life law",
		func(s *simulation) float64 { return float64(s.ho.Drum.Passes()) })
	for k, ax := range axes {
		qs.Output("hook."+ax, "m", fmt.Sprintf("World %s position of the hook (the hook sheaves' axle centre)", ax), func(s *simulation) float64 { return s.ho.Hook().Comp(k) })
	}
	for k, ax := range axes {
		qs.Output("hook.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the hook", ax), func(s *simulation) float64 { return s.ho.HookVelocity().Comp(k) })
	}
	for k, ax := range axes {
		qs.Output("load."+ax, "m", fmt.Sprintf("World %s position of the load's centre", ax), func(s *simulation) float64 { return s.ho.LoadCentre().Comp(k) })
	}
	for k, ax := range axes {
		qs.Output("load.v"+ax, "m/s", fmt.Sprintf("World %s velocity of the load's centre", ax), func(s *simulation) float64 { return s.ho.LoadVelocity().Comp(k) })
	}
	qs.Output("ground.force", "N", "Normal force of the ground on the load and the hook block", func(s *simulation) float64 { return s.groundForce() })
	qs.Output("hook.yaw", "rad", "Turn of the hook block and load about the vertical, counterclockwise seen from above, in (-pi, pi]", func(s *simulation) float64 { a, _ := s.ho.Yaw(); return a })
	qs.Output("hook.yawRate", "rad/s", "Rate of turn of the hook block and load about the vertical", func(s *simulation) float64 { _, r := s.ho.Yaw(); return r })
	qs.Output("drum.ropeTorque", "N.m", "Torque of the rope about itself on the drum where it is anchored, positive the way a rope of positive torque factor turns its ends (0 when the wire does not twist: see cable.rope.torqueFactor)",
		func(s *simulation) float64 { return s.reported(hmrwire.ReportFirstTorque) })
	qs.Output("deadEnd.ropeTorque", "N.m", "Torque of the rope about itself at the dead end, the same sign (0 on a swivel, or when the wire does not twist)",
		func(s *simulation) float64 { return s.reported(hmrwire.ReportLastTorque) })
	for k := 1; k <= c.Falls; k++ {
		qs.Output(fmt.Sprintf("fall[%d].tension", k), "N", fmt.Sprintf("Mean tension of fall %d of %d, counted from the drum's side", k, c.Falls),
			func(s *simulation) float64 { return s.reported(hmrwire.ReportFalls + k - 1) })
	}
	for k := 1; k <= c.Falls; k++ {
		qs.Peak(fmt.Sprintf("fall[%d].tensionPeak", k), "N", fmt.Sprintf("Largest mean tension of fall %d over the last communication step, at its internal steps and its ends: the snap peaks between a master's samples", k),
			func(s *simulation) float64 { return s.reported(hmrwire.ReportFalls + k - 1) })
	}
	for k := 1; k <= c.Falls; k++ {
		name := fmt.Sprintf("boom sheave %d", (k+1)/2)
		if k%2 == 0 {
			name = fmt.Sprintf("hook sheave %d", k/2)
		}
		qs.Output(fmt.Sprintf("sheave[%d].omega", k), "rad/s", fmt.Sprintf("Spin of sheave %d in the wire's order (%s) on its axle", k, name),
			func(s *simulation) float64 { return s.ho.Sheaves[k-1].Omega() })
		qs.Output(fmt.Sprintf("sheave[%d].wrap", k), "rad", fmt.Sprintf("Angle the wire wraps sheave %d by (the sum of its turns at its contact nodes on the sheave, about the axle), at the last internal step's start", k),
			func(s *simulation) float64 { return s.ho.Sheaves[k-1].Wrap() })
		qs.Output(fmt.Sprintf("sheave[%d].fleetAngle", k), "rad", fmt.Sprintf("Fleet angle at sheave %d: the largest angle between its plane and the wire running onto or off it, at the last internal step's start (beyond wireHoist.sheave.fleetAngleLimit an event names the sheave)", k),
			func(s *simulation) float64 { return s.ho.Sheaves[k-1].Fleet() })
		qs.Output(fmt.Sprintf("sheave[%d].speed", k), "m/s", fmt.Sprintf("Speed of the wire over sheave %d: its groove's at the wire's axis, omega times the radius, signed as omega", k),
			func(s *simulation) float64 { return s.ho.Sheaves[k-1].Speed() })
		qs.Output(fmt.Sprintf("sheave[%d].dOverD", k), "1", fmt.Sprintf("D/d of sheave %d: its diameter at the wire's axis over the rope's diameter", k),
			func(s *simulation) float64 { return 2 * s.ho.Sheaves[k-1].Radius() / s.ho.Wire.Rope.Diameter })
		qs.Output(fmt.Sprintf("sheave[%d].travel", k), "m", fmt.Sprintf("Length of wire that ran over sheave %d since the start, either way", k),
			func(s *simulation) float64 { return s.ho.Sheaves[k-1].Travel() })
		qs.Count(fmt.Sprintf("sheave[%d].passes", k), fmt.Sprintf("Running count of the wire's passes over sheave %d: runs in one direction that carried at least the wrapped arc over it, each bending the wire that ran over once (a lift and a lowering are two); counts for rope life estimates, no life law", k),
			func(s *simulation) float64 { return float64(s.ho.Sheaves[k-1].Passes()) })
	}
	K := c.outputNodes()
	for n := 1; n <= K; n++ {
		for k, ax := range axes {
			qs.Output(fmt.Sprintf("cable.node[%d].%s", n, ax), "m",
				fmt.Sprintf("World %s position of the wire at %d/%d of its rest length from the drum", ax, n-1, K-1),
				func(s *simulation) float64 { return s.nodeCoord(n-1, k) })
		}
	}
	return qs
}

// ConfigType implements fmu.Configurable.
func (Model) ConfigType() any { return new(scenarioConfig) }

// Validation implements fmu.Validated.
func (Model) Validation() []fmu.Figure {
	return []fmu.Figure{
		{Check: "statics on 1, 2, 4 and 6 falls: each fall W/n + ρgL/2; the boom tip's force", Result: "within 0.4 %", Tolerance: "1 %", Test: "TestHoistStatics"},
		{Check: "hauling in at 1.2 m/s: the hook at v/n, each sheave's ωr at the wire's speed over it", Result: "within 0.4 %, 0.8 %", Tolerance: "1 %", Test: "TestFourFallReeving"},
		{Check: "bounce on four falls √(n²EA/(L M))", Result: "−1.2 %", Tolerance: "5 %", Test: "TestHoistBounce"},
		{Check: "swing after a boom-tip move: the double pendulum from the hook sheaves' axles", Result: "−0.1 %, energy never rising", Tolerance: "2 %", Test: "TestHoistSwing"},
		{Check: "set-down and lift: the load on the ground, the ground's share of the weight, each fall's mean after the lift", Result: "within 0.01 mm, 98.5 %, 0.26 %", Tolerance: "1 cm, 95 %, 2 %", Test: "TestHoistSetDownAndLift"},
		{Check: "torsion pendulum: a 100 kg box on 5 m of twisting wire, and over a sheave from a dead end; a swivel", Result: "period 2π√(IL/GJ) within 0.01 %; the swivel's box turns on at its speed", Tolerance: "2 %", Test: "TestTorsionPendulum"},
		{Check: "the ropes' torque turning the hook block on two falls, H = 10–60 m, against closedform.BlockYaw", Result: "within 1.6 % (six-strand, to 41°), 0.2 % (rotation-resistant); through the FMU 2.2 %", Tolerance: "5 %", Test: "TestBlockYaw, TestRopeTorqueTurnsTheBlock"},
		{Check: "set-down with 36 m more wire paid out, rest and lift: the slack wire on the ground and the load, bending, and bending and twisting, at 50 and 200 mass nodes", Result: "no node below the ground or inside the load (0.0000 m); every sheave keeps the wire; each fall within 2 % lifted", Tolerance: "1 cm, 2 %", Test: "TestSlackWireOnGroundAndLoad"},
		{Check: "a slack wire snapping taut: 10 m of rope falling through from a roof 4 m high", Result: "its energy never above what it was let go with", Tolerance: "0.1 %", Test: "TestSlackWireSnapsTaut"},
		{Check: "a boom-tip move (0.5 m/s² to 1 m/s, 10 m) at communication steps of 0.02–0.5 s, by positions alone or with velocities: peak tension of each fall, the drum and the tip against the 0.01 s run", Result: "within 0.3 % with velocities, 3.9 % by positions alone, 4.1 % at alternating steps, 0.1 % with the velocities' derivatives at 0.1 s", Tolerance: "5 %", Test: "TestAnyMasterAnyStep"},
		{Check: "bending: a wire of 20 segments clamped at one end under an end load PL²/EI = 0.1 to 10, against the elastica (Bisshopp–Drucker) and PL³/(3EI)", Result: "within 0.15 % of L; 0.1 %", Tolerance: "1 % of L; 1 %", Test: "TestCantilever"},
		{Check: "the bending length √(EI/T) of a wire under tension leaving a clamp at an angle", Result: "within 0.01 %", Tolerance: "2 %", Test: "TestBendingLength"},
	}
}
