package wirehoist

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/motion"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

type simulation struct {
	m *configured
	// h is the internal step (s) the simulation was built with.
	h        float64
	ho       *hmrwire.Hoist
	from, to drive
	// grounded: the load stood on the ground after the last step.
	grounded bool
	fmu.Events
	// report and nodes cache the hoist's Report and the wire's sample
	// points (x, y, z in a row), valid until the state changes.
	report      []float64
	nodes       []float64
	reportValid bool
	nodesValid  bool
	// A plugin's command runs the drum at that rim speed (m/s) while
	// commanded; forceLimit (N, 0: none) caps the motor's torque at
	// forceLimit × radius below torqueLimit, the motor.torqueLimit
	// parameter (N·m, 0: none).
	commanded                             bool
	speedCommand, forceLimit, torqueLimit float64
	// beyond is scratch of a step: which sheaves' fleet angles were
	// beyond their limit before it.
	beyond []bool
	// off and over say, per sheave, that the wire came off it (an event
	// said so, and none since that it wraps it again) and that it wraps
	// it by more than it is reeved with (see sheaveEvents); reeved holds
	// those wraps (rad), the sheaves' at the hoist's build.
	off, over []bool
	reeved    []float64
	// slewed is the angle (rad) the superstructure slewed since the
	// start, counted on through whole turns (slew.angle).
	slewed float64
}

// A sheave the wire came off counts as wrapped again once the wire wraps
// it by rewrapped (rad), not at the first touch: a slack wire grazing
// it came on and off within a step or two. One wrapped by more than
// overwrap (rad) beyond what it is reeved with has a loop of slack wire
// over it or a fall that ran over another (a slack fall of side-by-side
// sheaves walked onto its neighbour), until it is back within
// overwrap/2.
const (
	rewrapped = 30 * math.Pi / 180
	overwrap  = math.Pi / 2
)

// NewSimulation implements fmu.Configured: the hoist with the load
// hanging at rest from the boom tip at its position input.
func (m *configured) NewSimulation(values []float64) (fmu.Simulation, error) {
	c := m.cfg
	p := params{gravity: c.Gravity, h: m.Step, loadMass: c.Load.Mass, drop: c.Drop,
		torqueLimit: c.Drum.TorqueLimit, brakeTorque: c.Drum.BrakeTorque, bearingFriction: c.Sheave.BearingFriction}
	m.ApplyParams(&p, values)
	if !(p.drop > 0) {
		return nil, fmt.Errorf("cable.length0 %g m: the load's top below the suspension point must exceed wireHoist.sling %g m (the falls hang between)", p.drop+c.Load.Sling, c.Load.Sling)
	}
	s := &simulation{m: m, h: p.h}
	s.from.pos = vec(c.BoomTip)
	m.ReadInputs(&s.from, values)
	s.to = s.from
	spec := c.spec(&p)
	// The boom tip's position input places the whole hoist: the drum
	// stays on the crane's base, so only a boom tip above and ahead of it
	// can be reeved.
	spec.BoomTip = s.from.pos
	ho, err := hmrwire.NewHoist(spec)
	if err != nil {
		return nil, err
	}
	s.ho = ho
	for _, sh := range ho.Sheaves {
		s.reeved = append(s.reeved, sh.Wrap())
	}
	s.off, s.over = make([]bool, len(ho.Sheaves)), make([]bool, len(ho.Sheaves))
	for k, w := range s.reeved {
		s.off[k] = w == 0 // a sheave the wire does not wrap at the start counts as off
	}
	ho.BoomTip.Vel = s.from.vel
	s.torqueLimit = s.ho.Drum.TorqueLimit
	s.drive(s.from, s.from, 0)
	return s, nil
}

// drive sets the drum's motor and brake for a step: the mean of the
// speed or torque input over the step (it runs linearly from a to b, the
// step starting frac of the way), the brake as at the step's start.
func (s *simulation) drive(a, b drive, frac float64) {
	d := s.ho.Drum
	start := func(x, y float64) float64 { return x + (y-x)*frac }
	if s.m.cfg.torqueDrive() {
		d.Mode, d.Torque = hmrwire.TorqueMode, 0.5*(start(a.torque, b.torque)+b.torque)
	} else {
		d.Mode, d.Speed = hmrwire.SpeedMode, 0.5*(start(a.speed, b.speed)+b.speed)
	}
	d.Brake = a.brake >= 0.5
	if s.commanded {
		d.Mode, d.Speed = hmrwire.SpeedMode, s.speedCommand
	}
	d.TorqueLimit = s.torqueLimit
	if lim := s.forceLimit * d.Radius; s.forceLimit > 0 && (d.TorqueLimit == 0 || lim < d.TorqueLimit) {
		d.TorqueLimit = lim
	}
}

func (s *simulation) invalidate() { s.reportValid, s.nodesValid = false, false }

// Step implements fmu.Simulation: the boom tip moves along the runtime's
// path (motion.Kinematic), the drum follows its command, and the hoist
// takes one step.
func (s *simulation) Step(lead float64, from, to []float64, first bool) error {
	h := s.h
	s.invalidate()
	s.m.ReadInputs(&s.from, from)
	s.m.ReadInputs(&s.to, to)
	frac := motion.StepStart(lead, h)
	b := s.ho.BoomTip
	b.Vel = motion.Kinematic(&b.Pos, s.m.hoist.HasPos(), s.from.pos, s.to.pos, s.from.vel, s.to.vel, h)
	if s.commanded {
		if err := port.Velocity.Check("winch command", "m/s", s.speedCommand); err != nil {
			return err
		}
	}
	s.drive(s.from, s.to, frac)
	if s.m.cfg.Slew != nil {
		// The slew rate's mean over the step, as the drive's.
		s.ho.SlewRate = 0.5 * (s.from.slew + frac*(s.to.slew-s.from.slew) + s.to.slew)
		s.ho.LuffRate = 0.5 * (s.from.luff + frac*(s.to.luff-s.from.luff) + s.to.luff)
	}
	beyond := s.beyond[:0]
	for _, sh := range s.ho.Sheaves {
		beyond = append(beyond, sh.Beyond())
	}
	s.beyond = beyond
	err := s.ho.Step(h)
	if errors.Is(err, multibody.ErrDiverged) {
		return fmt.Errorf("%w (check the inputs and the internal step internalStep)", err)
	}
	if err != nil {
		return err
	}
	if s.m.cfg.Slew != nil {
		// A step turns the superstructure by at most |slew.rate|·h, well
		// within half a turn: the nearest angle to the last is this one.
		s.slewed += math.Remainder(s.ho.SlewAngle()-s.slewed, 2*math.Pi)
	}
	for k, sh := range s.ho.Sheaves {
		// The step's fleet angle is the one at its start: what the step
		// ran with, as the state saved before it holds the last one.
		if b := sh.Beyond(); b != beyond[k] {
			deg := 180 / math.Pi
			if b {
				s.Add("the wire runs onto or off %s (sheave[%d]) at %.2f°, beyond the %.2f° its groove holds (wireHoist.sheave.fleetAngleLimit): it would ride up the flange or jump the sheave", sh.Name, k+1, sh.Fleet()*deg, sh.FleetLimit*deg)
			} else {
				s.Add("the wire runs onto and off %s (sheave[%d]) at %.2f°, within the %.2f° its groove holds again", sh.Name, k+1, sh.Fleet()*deg, sh.FleetLimit*deg)
			}
		}
	}
	s.sheaveEvents()
	if grounded := s.groundForce() > 0; grounded != s.grounded {
		s.grounded = grounded
		if grounded {
			s.Add("load set down on the ground")
		} else {
			s.Add("load lifted off the ground")
		}
	}
	return nil
}

// sheaveEvents reports, after a step, the sheaves the wire came off and
// those it wraps again (see rewrapped), and those it wraps beyond their
// reeving and back within it (see overwrap). Slack wire thrown about hard enough lifts off a
// sheave altogether, and with no rope guard in the model it can come down
// beside it or on a neighbouring sheave: the reeving is then no longer
// the crane's, which must not pass silently.
func (s *simulation) sheaveEvents() {
	const deg = 180 / math.Pi
	for k, sh := range s.ho.Sheaves {
		wrap := sh.Wrap()
		switch {
		case !s.off[k] && wrap == 0:
			s.off[k] = true
			s.Add("the wire has come off %s (sheave[%d]): it wraps it no more (sheave[%d].wrap 0), and may come down beside it, undoing the reeving (the model has no rope guard)", sh.Name, k+1, k+1)
		case s.off[k] && wrap >= rewrapped:
			s.off[k] = false
			s.Add("the wire runs over %s (sheave[%d]) again, wrapping it by %.1f°", sh.Name, k+1, wrap*deg)
		}
		switch {
		case !s.over[k] && wrap > s.reeved[k]+overwrap:
			s.over[k] = true
			s.Add("the wire wraps %s (sheave[%d]) by %.1f°, beyond the %.1f° it is reeved with: slack wire has looped over it or a fall of another sheave has come onto it, and the reeving is no longer the crane's", sh.Name, k+1, wrap*deg, s.reeved[k]*deg)
		case s.over[k] && wrap < s.reeved[k]+overwrap/2:
			s.over[k] = false
			s.Add("the wire wraps %s (sheave[%d]) by %.1f° again, within its reeving's %.1f°", sh.Name, k+1, wrap*deg, s.reeved[k]*deg)
		}
	}
}

// SaveState implements fmu.Simulation: the hoist's system (its wire at
// any resolution), then the simulation's own state (ownState).
func (s *simulation) SaveState(dst []float64) []float64 {
	return state.Save(s.ho.Sys.SaveState(dst), ownState{s})
}

// ownState walks what the simulation keeps besides the hoist's system: the
// grounded flag, a plugin's command and force limit in their ranges, the
// sheaves' off and overwrapped flags (see sheaveEvents), and the angle
// slewed.
type ownState struct{ s *simulation }

// stateTail returns the number of values ownState walks.
func (s *simulation) stateTail() int { return 5 + 2*len(s.off) }

func (o ownState) State(c *state.Codec) {
	s := o.s
	c.Flag("grounded", &s.grounded)
	c.Flag("commanded", &s.commanded)
	c.Range("winch command", "m/s", port.Velocity.Min, port.Velocity.Max, &s.speedCommand)
	c.Range("winch force limit", "N", port.Force.Min, port.Force.Max, &s.forceLimit)
	for k := range s.off {
		c.Flag("sheave off", &s.off[k])
		c.Flag("sheave overwrapped", &s.over[k])
	}
	c.Bounded("slew angle", "rad", &s.slewed)
}

// LoadState implements fmu.Simulation; a refused state changes nothing:
// the simulation's own state is checked first, and the system refuses its
// part (values left over included) unchanged.
func (s *simulation) LoadState(src []float64) error {
	s.invalidate()
	tail := s.stateTail()
	if len(src) < tail {
		return fmt.Errorf("state of %d values: the simulation's own alone are %d", len(src), tail)
	}
	own := src[len(src)-tail:]
	if _, err := state.Check(own, ownState{s}); err != nil {
		return err
	}
	if err := s.ho.Sys.LoadStateAll(src[:len(src)-tail]); err != nil {
		return err
	}
	_, err := state.Load(own, ownState{s})
	return err
}

// Outputs implements fmu.Simulation.
func (s *simulation) Outputs(values []float64) { s.m.WriteOutputs(s, values) }

func (s *simulation) groundForce() float64 { return s.ho.GroundForce() }

// reported returns value k of the hoist's Report (hmrwire.ReportFalls …).
func (s *simulation) reported(k int) float64 {
	if !s.reportValid {
		s.report, s.reportValid = s.ho.Report(s.report[:0]), true
	}
	return s.report[k]
}

// nodeCoord returns coordinate c (0 x, 1 y, 2 z; m) of the wire's sample
// point k.
func (s *simulation) nodeCoord(k, c int) float64 {
	if !s.nodesValid {
		s.nodes = s.nodes[:0]
		for _, p := range s.ho.Wire.Sample(s.m.cfg.outputNodes()) {
			s.nodes = append(s.nodes, p.X, p.Y, p.Z)
		}
		s.nodesValid = true
	}
	return s.nodes[3*k+c]
}
