package fmu

import (
	"fmt"
	"math"
	"strings"
)

// DrivenPoint is a point the master drives through position and
// velocity inputs: a crane's suspension point or boom tip. Pos and Vel
// hold the input indices per axis, −1 where a quantity is not a port.
type DrivenPoint struct {
	Name     string
	Pos, Vel [3]int
}

// Driver is implemented by configured models with driven points. The
// runtime then moves each along a path that never jumps (see pathAxis)
// and hands the simulation, for every internal step, the path's position
// and velocity at the step's start (from) and end (to) in place of the
// master's values: on an axis with a position port the simulation places
// the point at from's position and moves it to to's over the step.
type Driver interface {
	DrivenPoints() []DrivenPoint
}

// pathAxis is one axis of a driven point's path. A master sends samples
// of the point's motion at its communication points; the path is the
// smooth signal through them: its position and velocity never jump,
// whatever the master sends, so that a master's communication step
// changes no physics beyond what the step cannot see. It depends on the
// samples and on the master's longest step (the lag); communication
// points closer together than the internal step change nothing.
//
// A sample is a communication point at which one of the axis's inputs
// changed or a derivative was set, or at which a position the master
// drives was held past the time its next sample was due. From each sample
// on, the path runs from where the point is, at the velocity it has, along
// a cubic (Hermite) to a knot: the sample reached a lag after it was set,
// the master's step rounded up to internal steps h, plus h, so that the
// internal steps taken before the next sample stay short of the knot.
// The lag follows a longer step at once, and holds while the master's
// steps come within an internal step of it; only after lagHold without
// such a step does it follow a shorter one, slowly (lagRate). It is the
// same at every sample of a master with a fixed step, one whose longest
// step came before the motion, or one whose steps vary about a length:
// a lag that changed between samples moves the knot by the change, a
// jolt of the point (a master whose steps jittered about 1/60 s, and
// with it the lag by an internal step, made the rope's tension ring at
// up to +47 % through a move at constant speed). What the lag grows by
// while a point moves, a lead takes up (see lead): the knot is the
// motion the samples give that lead on. Past the knot the path goes on
// at the knot's velocity. Times are counted in internal
// steps since the simulation was built, so that a sample on the grid has
// the same time however the master reached it. A master drives a point in
// one of two ways:
//
//   - by velocity (its velocity input moved, or the axis has no position
//     port): the knot is the velocity sample and, where the master drives
//     the position too, the position sample, both a lead on at the
//     acceleration the last velocity samples show (acceleration); a
//     position the master does not drive is the integral of the path's
//     velocity, which runs linearly to the knot's.
//   - by position alone (its position moved, its velocity never): the knot
//     is the position sample at the velocity the last samples give (slope),
//     a lead on at their acceleration (curvature).
//
// With derivatives set (below) the knot needs no lead.
//
// Where the master sets derivatives (fmi2SetRealInputDerivatives: the
// velocity's, or the position's when driving by position), the knot is
// the sample extrapolated with them to the knot's time instead: no lag,
// but an acceleration that changes within a step is extrapolated wrongly
// until the next sample.
type pathAxis struct {
	point    int // index of the driven point
	pos, vel int // input indices, −1 where not a port
	// The ranges the inputs declare (m, m/s), which a knot keeps to: a
	// sample's derivative or a slope over a tiny step may ask for more.
	xlo, xhi, vlo, vhi float64
	// The segment from the last sample: from position q0 (m) at velocity
	// w0 (m/s) at time start to the knot, position X at velocity U, span
	// later (position free where not cubic). Times in internal steps.
	start, span, q0, w0, X, U float64
	cubic                     bool
	// The last sample: position and velocity inputs and time; the
	// position, velocity and time of the one before.
	lastX, lastV, lastT float64
	prevX, prevV, prevT float64
	// The inputs when the simulation was built: an input counts as driven
	// once it leaves them (a master may set every input at every point,
	// leaving those it does not drive at their start values).
	x0, v0               float64
	posDriven, velDriven bool
}

// pathNumbers is how many numbers one axis keeps in a saved state, and
// pathFlags how many of the last of them are flags; the paths' clock, the
// time of the last communication point, the lag, the time it was last
// asked for and the lead's five numbers come first (pathClocks).
const (
	pathNumbers = 17
	pathFlags   = 3
	pathClocks  = 9
)

// newPaths lists the axes of the model's driven points and the points'
// names (none when the model has none).
func newPaths(model Configured) (axes []pathAxis, names []string) {
	d, ok := model.(Driver)
	if !ok {
		return nil, nil
	}
	vars := model.Variables()
	bounds := func(i int) (lo, hi float64) {
		lo, hi = math.Inf(-1), math.Inf(1)
		if i >= 0 && vars[i].Min != nil {
			lo = *vars[i].Min
		}
		if i >= 0 && vars[i].Max != nil {
			hi = *vars[i].Max
		}
		return lo, hi
	}
	for p, pt := range d.DrivenPoints() {
		names = append(names, pt.Name)
		for a := 0; a < 3; a++ {
			if pt.Pos[a] >= 0 || pt.Vel[a] >= 0 {
				ax := pathAxis{point: p, pos: pt.Pos[a], vel: pt.Vel[a]}
				ax.xlo, ax.xhi = bounds(ax.pos)
				ax.vlo, ax.vhi = bounds(ax.vel)
				axes = append(axes, ax)
			}
		}
	}
	return axes, names
}

// startPaths puts every path where the inputs in values place the point,
// moving at their velocity, as the simulation is built: the paths' clock
// starts.
func (in *Instance) startPaths(values []float64) {
	in.clock, in.lastPoint, in.lag, in.lagAt, in.lead = 0, -1, 2, 0, lead{}
	for i := range in.paths {
		p := &in.paths[i]
		x, v := p.input(values, p.pos), p.input(values, p.vel)
		p.start, p.span, p.q0, p.w0, p.X, p.U, p.cubic = 0, 0, x, v, x, v, true
		p.lastX, p.lastV, p.lastT, p.prevX, p.prevV, p.prevT = x, v, 0, x, v, 0
		p.x0, p.v0, p.posDriven, p.velDriven = x, v, false, false
	}
}

func (p *pathAxis) input(values []float64, i int) float64 {
	if i < 0 {
		return 0
	}
	return values[i]
}

// byPosition reports whether the axis follows its positions alone at the
// inputs in values: its position moved and its velocity never did.
func (p *pathAxis) byPosition(values []float64) bool {
	if p.pos < 0 {
		return false
	}
	posMoved := p.posDriven || values[p.pos] != p.x0
	velMoved := p.velDriven || (p.vel >= 0 && values[p.vel] != p.v0)
	return posMoved && !velMoved
}

// leftVelocity reports whether the axis's position input has moved from
// where its velocity input, held at its start value for elapsed seconds,
// puts it, by more than 1 mm and 1 % of that way: the positions drive a
// motion the velocity does not say (a master that wired the positions
// alone). A master starting at a constant velocity with the positions
// along it drives both, and is not told otherwise.
func (p *pathAxis) leftVelocity(values []float64, elapsed float64) bool {
	held := p.v0 * elapsed
	return math.Abs(values[p.pos]-p.x0-held) > 1e-3+0.01*math.Abs(held)
}

// at returns the path's position (m) and velocity (m/s) at time t (in
// internal steps of h seconds), at or after the segment's start.
func (p *pathAxis) at(t, h float64) (x, v float64) {
	dt, T := (t-p.start)*h, p.span*h // s
	if dt >= T {
		// At or past the knot: on at its velocity.
		end := p.X
		if !p.cubic {
			end = p.q0 + 0.5*T*(p.w0+p.U)
		}
		return end + p.U*(dt-T), p.U
	}
	r := dt / T
	if !p.cubic {
		return p.q0 + dt*(p.w0+0.5*r*(p.U-p.w0)), p.w0 + r*(p.U-p.w0)
	}
	r2, r3 := r*r, r*r*r
	x = (2*r3-3*r2+1)*p.q0 + (r3-2*r2+r)*T*p.w0 + (3*r2-2*r3)*p.X + (r3-r2)*T*p.U
	v = (6*r2-6*r)*p.q0/T + (3*r2-4*r+1)*p.w0 + (6*r-6*r2)*p.X/T + (3*r2-2*r)*p.U
	return x, v
}

// sample starts a segment at a sample set at time t with the inputs
// values, derivatives deriv (set where derivSet), the simulation standing
// at time now ≥ t, the knot lag after the sample (times in internal steps
// of h seconds), where the lead (see lead) is ahead internal steps and
// changes at rate dAhead.
func (p *pathAxis) sample(values, deriv []float64, derivSet []bool, t, now, lag, ahead, dAhead, h float64) (rests bool) {
	knot := t + lag
	tau := lag * h // s from the sample to the knot
	q, w := p.at(now, h)
	p.start, p.span, p.q0, p.w0 = now, knot-now, q, w
	X, V := p.input(values, p.pos), p.input(values, p.vel)
	switch {
	case p.byPosition(values) && !derivSet[p.pos]:
		p.cubic = true
		p.X, p.U, rests = reach(X, p.slope(X, t, h), p.curvature(X, t, h), ahead*h, dAhead)
	case p.byPosition(values):
		p.cubic, p.U = true, deriv[p.pos]
		p.X = X + p.U*tau
	default:
		p.cubic = p.pos >= 0 && (p.posDriven || X != p.x0)
		if p.vel >= 0 && derivSet[p.vel] {
			D := deriv[p.vel]
			p.X, p.U = X+V*tau+0.5*D*tau*tau, V+D*tau
			break
		}
		if !p.cubic {
			// A velocity the path follows while the master does not
			// drive the position: the sample, reached at the knot. Its
			// integral needs no lead (a lag grown at once holds the
			// velocity a little longer), and a velocity extrapolated a
			// lead on would go on past the knot until the velocity
			// changes (a cruise after it ran at 0.9 m/s for 1 m/s).
			p.X, p.U, rests = X, V, V == 0
			break
		}
		// A sample, reached at the knot, a lead on.
		p.X, p.U, rests = reach(X, V, p.acceleration(V, t, h, ahead*h), ahead*h, dAhead)
	}
	p.X, p.U = min(max(p.X, p.xlo), p.xhi), min(max(p.U, p.vlo), p.vhi)
	p.prevX, p.prevV, p.prevT = p.lastX, p.lastV, p.lastT
	p.lastX, p.lastV, p.lastT = X, V, t
	return rests
}

// acceleration returns the acceleration (m/s²) with which a velocity
// sample V at time t (in internal steps of h seconds) is extrapolated d
// seconds on (see reach). The mean acceleration since the last sample, a,
// is confirmed as far as the interval before shows one of the same sign
// (the smaller of the two, as a minmod limiter takes a slope); the rest
// of it is extrapolated only as far as the interval it was seen over,
// dt, reaches: scaled by (dt/d)² where the lead reaches further, so that
// it adds at most dt/d of its velocity change over the interval and half
// of it times dt to the position. A velocity that steps at a sample shows
// as its step over the short interval before (0 to 1 m/s over 1/60 s:
// 60 m/s²), which the motion does not go on with: extrapolated whole over
// a lead grown at that very sample, it threw a lifted load up and the
// rope's tension peaked at up to 33 times that of either step held (the
// rigid-body rope diverged). A motion whose acceleration holds, and one
// sampled at steps as long as the lead, is extrapolated as before. What
// this costs: a ramp begun, while a point moves, within the short step
// before the lengthening is extrapolated as little as a step until the
// next sample confirms it, and the path catches up then (a lift ramped
// from 0.5 m/s at 1 m/s² peaked +70 % above either step held at 1/60 to
// 0.25 s steps, +23 % before).
func (p *pathAxis) acceleration(V, t, h, d float64) float64 {
	if !(t > p.lastT) {
		return 0
	}
	dt := (t - p.lastT) * h
	a := (V - p.lastV) / dt
	confirmed := 0.0
	if p.lastT > p.prevT {
		before := (p.lastV - p.prevV) / ((p.lastT - p.prevT) * h)
		switch {
		case a*before <= 0:
		case a > 0:
			confirmed = min(a, before)
		default:
			confirmed = max(a, before)
		}
	}
	if d <= dt {
		return a
	}
	r := dt / d
	return confirmed + (a-confirmed)*r*r
}

// horizon returns how far (s) the samples' motion can be extrapolated
// at a sample at time t (in internal steps of h seconds): where the
// cubic through this sample and the last (positions and velocities)
// shows a jerk J against the velocity V, a turn coming as in an
// oscillation v” = −ω²v, leadHorizon/ω with ω = √|J/V| (extrapolated
// with the acceleration over ω·t = 0.5, a sinusoid's position errs by
// 2 % of its amplitude); none where the velocity turned since the last
// sample (a motion faster than the samples resolve); +Inf where the
// samples speed up or show no jerk, and on an axis driven by positions
// alone or without both ports.
func (p *pathAxis) horizon(values []float64, t, h float64) float64 {
	if p.pos >= 0 && p.byPosition(values) {
		// Positions alone: the parabola through the last three samples
		// shows no jerk; as far as half the time its acceleration takes
		// to change its speed by as much (extrapolated further, an
		// oscillating point ran 12 cm beyond its range).
		X := values[p.pos]
		if v, a := p.slope(X, t, h), p.curvature(X, t, h); a != 0 {
			return leadHorizon * math.Abs(v/a)
		}
		return math.Inf(1)
	}
	if p.pos < 0 || p.vel < 0 || !(t > p.lastT) {
		return math.Inf(1)
	}
	X, V := values[p.pos], values[p.vel]
	if V*p.lastV < 0 {
		return 0 // turned since the last sample: faster than the samples show
	}
	d := (t - p.lastT) * h
	J := (12*(p.lastX-X) + 6*d*(p.lastV+V)) / (d * d * d)
	if !(J*V < 0) {
		return math.Inf(1) // no turn coming: speeding up, or no jerk
	}
	return leadHorizon / math.Sqrt(math.Abs(J/V))
}

// leadHorizon is the share of a motion's turning time 1/ω (or, by
// positions alone, of the time its acceleration changes its speed by as
// much) over which horizon lets the samples be extrapolated.
const leadHorizon = 0.5

// reach returns the knot of a sample at x (m) moving at v (m/s) with
// acceleration a (m/s²) a lead of d seconds on, the lead changing at
// rate dd: where the samples' motion is d seconds later, extrapolated
// with the acceleration but stopping where it decelerates to rest (it
// never turns back on extrapolation, and a sample at rest stays), and
// its velocity there slowed as the lead shrinks (the path runs the motion
// delayed by the lag less the lead: its speed is the motion's times
// 1 + dd).
func reach(x, v, a, d, dd float64) (X, U float64, rests bool) {
	switch {
	case v == 0:
		return x, 0, true
	case d == 0:
		return x, v * (1 + dd), false
	case a*v < 0 && d >= -v/a:
		return x - 0.5*v*v/a, 0, true
	}
	return x + d*(v+0.5*a*d), (v + a*d) * (1 + dd), false
}

// slope returns the velocity (m/s) of positions alone at a sample X at
// time t (in internal steps of h seconds): the slope at t of the parabola
// through the last three samples (exact for a constant acceleration),
// zero where the motion stops or turns (the last two mean slopes differ
// in sign, or one is zero) and where the parabola's slope opposes the
// last mean slope, as monotone cubic interpolation takes it (Fritsch and
// Carlson), so that the path does not overshoot a sample where the
// motion stops.
func (p *pathAxis) slope(X, t, h float64) float64 {
	if !(t > p.lastT) {
		return 0
	}
	d1 := (t - p.lastT) * h
	s1 := (X - p.lastX) / d1
	d2 := (p.lastT - p.prevT) * h
	if !(d2 > 0) {
		return s1
	}
	s0 := (p.lastX - p.prevX) / d2
	if s0*s1 <= 0 {
		return 0
	}
	if u := s1 + d1/(d1+d2)*(s1-s0); u*s1 > 0 {
		return u
	}
	return 0
}

// curvature returns the acceleration (m/s²) of positions alone at a
// sample X at time t (in internal steps of h seconds): the second
// derivative of the parabola through the last three samples where
// slope follows it, zero where slope finds a stop or turn.
func (p *pathAxis) curvature(X, t, h float64) float64 {
	d1, d2 := (t-p.lastT)*h, (p.lastT-p.prevT)*h
	if !(d1 > 0 && d2 > 0) || p.slope(X, t, h) == 0 {
		return 0
	}
	s1, s0 := (X-p.lastX)/d1, (p.lastX-p.prevX)/d2
	return 2 * (s1 - s0) / (d1 + d2)
}

// isSample reports whether the inputs at a communication point at time t
// (in internal steps) make a sample of the axis: an input changed, a
// derivative was set, or a position was held past the time its next
// sample was due (one sample interval after the last, at least an
// internal step): then it is a sample that says the point stands there.
// A position still at its start value counts as held too while the
// velocity has not moved either (a point driven by velocity follows its
// velocity samples): a master that
// holds the point for a second and then moves it by position has said,
// at every communication point of that second, that it stood, and the
// move's slope must not be spread over the second (it was, and the point
// drifted on at the mean speed of the hold until the next sample was due
// a second later: a load's bounce after a jump of the suspension point
// ran 2.7 % slow).
func (p *pathAxis) isSample(values []float64, derivSet []bool, t float64) bool {
	if p.pos >= 0 && (values[p.pos] != p.lastX || derivSet[p.pos]) {
		return true
	}
	if p.vel >= 0 && (values[p.vel] != p.lastV || derivSet[p.vel]) {
		return true
	}
	velMoved := p.velDriven || (p.vel >= 0 && values[p.vel] != p.v0)
	held := p.pos >= 0 && (p.posDriven || values[p.pos] != p.x0 || !velMoved)
	return held && t-p.lastT >= max(p.lastT-p.prevT, 1)
}

// Lag returns the lag (s) of a driven point's path at communication steps
// of H seconds and internal steps of h: the communication step rounded up
// to internal steps, plus one internal step.
func Lag(H, h float64) float64 {
	return (max(math.Ceil(H/h-gridTolerance), 1) + 1) * h
}

// The lag's hold: a communication step that asks for a lag within
// lagSlack internal steps of the lag's holds it for lagHold seconds more
// (a step cut by communication points closer than an internal step
// asks for at most one less), so that a master that alternates long and
// short steps, or whose steps vary, keeps its longest steps' lag. Past
// the hold the lag shrinks towards what the steps ask for by lagRate of
// the time between communication points: the path speeds up by that
// fraction while it shrinks (from 31 internal steps, 0.5 s steps, to 2
// in 24 s at 1/60 s).
const (
	lagSlack = 1
	lagHold  = 2.0
	lagRate  = 0.02
)

// A lead takes up a lag that grew while a driven point moved. Grown at
// once, the lag moved every knot later by the growth: the path stood
// still for it within one segment, a dip in its speed, and a rope's
// tension rang (a master that went from 1/60 s to 0.1 s steps while it
// lifted the Hoist's point at 1 m/s made the tension peak at 7.5 times
// its static value, 0.25 s steps at 8.5 times). Instead the knots reach,
// a lag after each sample, the motion the samples give a lead on: the
// path runs the master's motion delayed by the lag less the lead, and
// the lead decays to nothing, critically damped, so that this delay
// grows smoothly: the path's speed is the motion's times 1 − the rate at
// which the delay grows, never more than leadRate from it, and changes
// smoothly (never steps). Where the lead reaches past the last sample the
// knot extrapolates the samples (reach).
//
// One lead serves every axis of the instance, so that a move along two
// axes keeps its course (a lead per axis, dropped by an axis that came to
// rest or never given to one that started later, pulled a diagonal move
// 20 cm off its line). A lag that grows while every point's path stands
// needs no lead, even where the samples start a motion (moving); where every
// moving axis comes to rest within the lead (a stop, a turn), the lead is
// dropped, for the knots are the same without it (a lead extrapolated
// through a turn, stopped at rest there, made the path catch up with the
// motion after it: +45 % on a lift's tension); where an axis's samples
// show a turn coming sooner than the lead reaches (horizon), the lead is
// cut to that horizon (extrapolated further, a motion oscillating at 1 Hz
// made the path run 27 cm beyond it); and a lag that shrinks takes up the
// lead first, which keeps the delay. The cut moves every axis's knots back
// at once: a point that turns on one axis while it cruises on another gets
// on the cruising axis the jolt of a lag grown at once (a speed step of
// 0.3 m/s in an internal step at 1 m/s, as without the lead). A velocity
// followed while the master does not drive the position needs no lead.
type lead struct {
	at         float64 // internal steps: the time at which s, ds and dds hold
	s, ds, dds float64 // the lead (internal steps) and its first two derivatives
	w          float64 // its rate of decay, per internal step
}

// leadRate bounds the rate at which a lead shrinks, and so the fraction
// by which the path runs slower than the master's motion while it does;
// leadBend bounds its second derivative, so that the acceleration the
// lead adds to the path's is at most leadBend times the point's speed
// (1/s). A faster decay extrapolates the samples for less time, a slower
// one disturbs the motion less: a delay growing at rate r scales the
// motion's acceleration by (1 − r)², and at 0.2 a step lengthened while
// the trolley accelerated made the load swing 23 % less, at 0.1 15 %;
// and a lead that lasts longer extrapolates across more changes of the
// motion: a lift's stop beginning 5 s after the step lengthened peaked
// +14 % at 0.05, 0 at 0.1. Of 0.02 to 0.3 for both, 0.1 gave the least
// peak errors over sinusoids, S-curves and trapezoidal moves lengthened
// at any time: a lead of 29 internal steps (from 1/60 s to 0.5 s
// communication steps at 1/60 s) falls to 3 % in 9 s.
const (
	leadRate = 0.1
	leadBend = 0.1
)

// value returns the lead (internal steps) and its first two derivatives
// at time t ≥ l.at: a critically damped decay of third order,
// s(u) = (c0 + c1·u + c2·u²)·e^(−w·u), whose second derivative is
// continuous where the lead grows.
func (l lead) value(t float64) (s, ds, dds float64) {
	if l.s == 0 && l.ds == 0 && l.dds == 0 {
		return 0, 0, 0
	}
	u, w := t-l.at, l.w
	c0, c1 := l.s, l.ds+w*l.s
	c2 := 0.5 * (l.dds + 2*w*l.ds + w*w*l.s)
	e := math.Exp(-w * u)
	p := c0 + u*(c1+u*c2)
	dp := c1 + 2*c2*u
	return p * e, (dp - w*p) * e, (2*c2 - 2*w*dp + w*w*p) * e
}

// grow adds d internal steps to the lead at time t, its derivatives kept
// (the path's speed and acceleration do not step), its decay set so that
// a lead of s from rest shrinks at most at leadRate, with a second
// derivative of at most leadBend·h per internal step (the peaks of the
// third-order decay from rest are 2e⁻²·s·w and 0.2306·s·w²).
func (l *lead) grow(t, d, h float64) {
	s, ds, dds := l.value(t)
	s += d
	m := max(math.Abs(s), 1)
	w := min(leadRate/(2*math.Exp(-2)*m), math.Sqrt(leadBend*h/(0.2306*m)))
	*l = lead{at: t, s: s, ds: ds, dds: dds, w: w}
}

// take takes up to d internal steps off the lead at time t, as the lag
// shrinks by d: the delay keeps while the lead lasts.
func (l *lead) take(t, d float64) {
	s, ds, dds := l.value(t)
	*l = lead{at: t, s: s - min(d, max(s, 0)), ds: ds, dds: dds, w: l.w}
}

// cut sets the lead to s internal steps at time t, its derivatives kept.
func (l *lead) cut(t, s float64) {
	_, ds, dds := l.value(t)
	l.at, l.s, l.ds, l.dds = t, s, ds, dds
}

// moving reports whether any driven point's path moves at time now (in
// internal steps of h seconds). A point the inputs ask to start moving at
// this very sample is not moving yet: its motion starts a lag after the
// sample, the longer lag as well as the shorter, with no dip in a speed
// to take up, where a lead would extrapolate the motion's first samples
// (a velocity stepped from rest, or a ramp begun within the last short
// step, read as its change over that step alone: lengthened there from
// 0.01 to 0.5 s, a lift's ramp at 1 m/s² peaked +75 % above either step
// held, a jerk-limited start +64 %; now not above them). A point that
// has not rested a whole lag still moves: an acceleration begun a few
// short steps before is extrapolated from its first samples.
func (in *Instance) moving(now, h float64) bool {
	for i := range in.paths {
		p := &in.paths[i]
		if _, w := p.at(now, h); w != 0 {
			return true
		}
	}
	return false
}

// planPaths takes the samples of the communication point at time t (s)
// before a step of H seconds, the simulation standing ahead seconds after
// it with internal steps of h seconds; it latches which inputs the master
// drives and logs, once per point, that a point follows its positions
// alone.
func (in *Instance) planPaths(t, H, h float64) {
	now := in.clock
	point := now - in.ahead/h
	// The lag: one communication step and one internal step, so that the
	// internal steps taken before the next sample stay short of the knot.
	// It follows a longer step at once (a master sets its longest step
	// early, before the crane moves), holds while the steps come near it
	// and then follows a shorter one at lagRate (see lagHold). What it
	// grows by while a point moves goes into the lead, what it shrinks by
	// comes out of the lead first.
	want := Lag(H, h) / h
	moving := in.moving(now, h)
	if !moving {
		in.lead = lead{}
	}
	switch hold := in.lagAt + lagHold/h; {
	case in.lastPoint < 0:
		in.lag, in.lagAt = want, point
	case want > in.lag:
		if moving {
			in.lead.grow(point, want-in.lag, h)
		}
		in.lag, in.lagAt = want, point
	case want >= in.lag-lagSlack:
		in.lagAt = point
	case point > hold:
		shrunk := max(want, in.lag-lagRate*(point-max(in.lastPoint, hold)))
		in.lead.take(point, in.lag-shrunk)
		in.lag = shrunk
	}
	// The lead reaches no further than the samples show a turn coming;
	// where every axis's motion comes to rest at its knot, it is dropped.
	reachable := math.Inf(1) // internal steps the samples can be extrapolated
	for i := range in.paths {
		p := &in.paths[i]
		if p.isSample(in.values, in.derivSet, point) {
			reachable = min(reachable, p.horizon(in.values, point, h)/h)
		}
	}
	if s, _, _ := in.lead.value(point); s > reachable {
		in.lead.cut(point, reachable)
	}
	ahead, dAhead, _ := in.lead.value(point + in.lag)
	allRest, sampled := true, false
	for i := range in.paths {
		p := &in.paths[i]
		if p.isSample(in.values, in.derivSet, point) {
			sampled = true
			if !p.sample(in.values, in.deriv, in.derivSet, point, now, in.lag, ahead, dAhead, h) {
				allRest = false
			}
		} else if _, w := p.at(now, h); w != 0 {
			allRest = false
		}
		if p.byPosition(in.values) && p.vel >= 0 && !in.pathsLogged[p.point] && p.leftVelocity(in.values, point*h) {
			in.pathsLogged[p.point] = true
			in.logf(Warning, "logStatusWarning", "%s", in.positionsOnly(p.point, t, point*h, in.lag*h))
		}
		if p.pos >= 0 && in.values[p.pos] != p.x0 {
			p.posDriven = true
		}
		if p.vel >= 0 && in.values[p.vel] != p.v0 {
			p.velDriven = true
		}
	}
	if sampled && allRest {
		in.lead = lead{}
	}
	in.lastPoint = point
}

// positionsOnly is the message that a point follows its positions alone
// on the axes whose positions left their velocity inputs' motion after
// elapsed seconds (leftVelocity).
func (in *Instance) positionsOnly(point int, t, elapsed, lag float64) string {
	var vels []string
	for _, p := range in.paths {
		if p.point == point && p.vel >= 0 && p.byPosition(in.values) && p.leftVelocity(in.values, elapsed) {
			vels = append(vels, in.vars[p.vel].Name)
		}
	}
	return fmt.Sprintf("t = %g s: %s moves by its position inputs while its velocity inputs (%s) stay at their start values: "+
		"it follows the positions along a smooth path through them, reaching each the communication step (rounded up to internal steps) "+
		"and one internal step after it is set (%.4g s at this step); set the velocities too, or the positions' derivatives, for a path that bends with the motion",
		t, in.drivenNames[point], strings.Join(vels, ", "), lag)
}

// drivePaths writes into dst the paths' positions and velocities at time
// t (in internal steps of h seconds).
func (in *Instance) drivePaths(dst []float64, t, h float64) {
	for i := range in.paths {
		p := &in.paths[i]
		x, v := p.at(t, h)
		if p.pos >= 0 {
			dst[p.pos] = x
		}
		if p.vel >= 0 {
			dst[p.vel] = v
		}
	}
}

// savePaths appends the paths' numbers to dst: the clocks, then
// pathNumbers per axis.
func (in *Instance) savePaths(dst []float64) []float64 {
	dst = append(dst, in.clock, in.lastPoint, in.lag, in.lagAt, in.lead.at, in.lead.s, in.lead.ds, in.lead.dds, in.lead.w)
	for _, p := range in.paths {
		dst = append(dst, p.start, p.span, p.q0, p.w0, p.X, p.U, p.lastX, p.lastV, p.lastT, p.prevX, p.prevT, p.x0, p.v0, p.prevV,
			flag(p.cubic), flag(p.posDriven), flag(p.velDriven))
	}
	return dst
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// checkPaths returns an error if src cannot be the paths' numbers: every
// number finite and within StateLimit, the flags 0 or 1, the clock a
// count of steps, the last communication point, the samples, the
// segments' starts and the lag's last asking not after it, the lag at
// least two internal steps.
func (in *Instance) checkPaths(src []float64) error {
	if len(src) != pathClocks+pathNumbers*len(in.paths) {
		return fmt.Errorf("the state has %d numbers for the driven points' paths, this FMU %d: damaged", len(src), pathClocks+pathNumbers*len(in.paths))
	}
	for k, x := range src {
		if !finite(x) || !(math.Abs(x) <= StateLimit) {
			return fmt.Errorf("number %d of the driven points' paths is %g: damaged", k, x)
		}
	}
	clock, last, lag, lagAt := src[0], src[1], src[2], src[3]
	leadAt, leadW := src[4], src[8]
	switch {
	case clock < 0 || clock != math.Trunc(clock):
		return fmt.Errorf("the driven points' paths' clock reads %g internal steps: damaged", clock)
	case last != -1 && !(last >= 0 && last <= clock):
		return fmt.Errorf("the driven points' last communication point at %g internal steps, the clock at %g: damaged", last, clock)
	case !(lag >= 2):
		return fmt.Errorf("the driven points' lag of %g internal steps: damaged", lag)
	case !(lagAt >= 0 && lagAt <= max(last, 0)):
		return fmt.Errorf("the driven points' lag last asked for at %g internal steps, the last communication point at %g: damaged", lagAt, last)
	case !(leadAt >= 0 && leadAt <= max(last, 0)) || !(leadW >= 0):
		return fmt.Errorf("the driven points' lead set at %g internal steps decaying at %g per internal step, the last communication point at %g: damaged", leadAt, leadW, last)
	}
	for i := range in.paths {
		v := src[pathClocks+pathNumbers*i:][:pathNumbers]
		start, span, lastT, prevT := v[0], v[1], v[8], v[10]
		switch {
		case !(start >= 0 && start <= clock) || !(span >= 0):
			return fmt.Errorf("a driven point's path segment from %g over %g internal steps, the clock at %g: damaged", start, span, clock)
		case !(lastT <= clock && prevT <= lastT):
			return fmt.Errorf("a driven point's samples at %g and %g internal steps, the clock at %g: damaged", prevT, lastT, clock)
		}
		for _, f := range v[pathNumbers-pathFlags:] {
			if f != 0 && f != 1 {
				return fmt.Errorf("a driven point's flag is %g, not 0 or 1: damaged", f)
			}
		}
	}
	return nil
}

// loadPaths restores the paths from numbers checkPaths accepted.
func (in *Instance) loadPaths(src []float64) {
	in.clock, in.lastPoint, in.lag, in.lagAt = src[0], src[1], src[2], src[3]
	in.lead = lead{at: src[4], s: src[5], ds: src[6], dds: src[7], w: src[8]}
	for i := range in.paths {
		p := &in.paths[i]
		v := src[pathClocks+pathNumbers*i:]
		p.start, p.span, p.q0, p.w0, p.X, p.U, p.lastX, p.lastV, p.lastT, p.prevX, p.prevT, p.x0, p.v0, p.prevV = v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13]
		p.cubic, p.posDriven, p.velDriven = v[14] == 1, v[15] == 1, v[16] == 1
	}
}
