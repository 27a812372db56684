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
// changes no physics beyond what the step cannot see, and it depends only
// on the samples, not on how the master cuts its steps between them.
//
// A sample is a communication point at which one of the axis's inputs
// changed (or, driven by position alone, at which the position was held
// past the time the path reached the last one). From each sample on, the
// path runs from where the point is, at the velocity it has, along a cubic
// (Hermite) to a knot: the sample reached Δ + h after it was set, h being
// the internal step and Δ the time since the communication point before
// (the master's step, the span over which the inputs changed; at the first
// communication point the step the master takes), at least h, so that the
// lag is the same at every sample and the internal steps taken before the
// next sample never pass the knot. Past the knot the path goes
// on at the knot's velocity. Times are counted in internal steps since the
// simulation was built, so that a sample on the grid has the same time
// however the master reached it. A master drives a point in one of two
// ways:
//
//   - by velocity (its velocity input moved, or the axis has no position
//     port): the knot is the velocity sample and, where the master drives
//     the position too, the position sample; a position the master does not
//     drive is the integral of the path's velocity, which runs linearly to
//     the knot's.
//   - by position alone (its position moved, its velocity never): the knot
//     is the position sample at the mean velocity since the sample before
//     (a first-order hold on the samples, smoothed so that the velocity
//     never jumps).
//
// Where the master gives derivatives (fmi2SetRealInputDerivatives: the
// velocity's, or the position's when driving by position), the knot is
// the sample extrapolated with them to the knot's time instead: no lag.
type pathAxis struct {
	point    int // index of the driven point
	axis     int
	pos, vel int // input indices, −1 where not a port
	// The segment from the last sample: from position q0 (m) at velocity
	// w0 (m/s) at time start to the knot, position X at velocity U, span
	// later (position free where not cubic). Times in internal steps.
	start, span, q0, w0, X, U float64
	cubic                     bool
	// The last sample: position and velocity inputs and time; the
	// position and time of the one before.
	lastX, lastV, lastT float64
	prevX, prevT        float64
	// The inputs when the simulation was built: an input counts as driven
	// once it leaves them (a master may set every input at every point,
	// leaving those it does not drive at their start values).
	x0, v0               float64
	posDriven, velDriven bool
}

// pathNumbers is how many numbers one axis keeps in a saved state, and
// pathFlags how many of the last of them are flags; the paths' clock and
// the time of the last communication point come first.
const (
	pathNumbers = 16
	pathFlags   = 3
	pathClocks  = 2
)

// newPaths lists the axes of the model's driven points and the points'
// names (none when the model has none).
func newPaths(model Configured) (axes []pathAxis, names []string) {
	d, ok := model.(Driver)
	if !ok {
		return nil, nil
	}
	for p, pt := range d.DrivenPoints() {
		names = append(names, pt.Name)
		for a := 0; a < 3; a++ {
			if pt.Pos[a] >= 0 || pt.Vel[a] >= 0 {
				axes = append(axes, pathAxis{point: p, axis: a, pos: pt.Pos[a], vel: pt.Vel[a]})
			}
		}
	}
	return axes, names
}

// startPaths puts every path where the inputs in values place the point,
// moving at their velocity, as the simulation is built: the paths' clock
// starts.
func (in *Instance) startPaths(values []float64) {
	in.clock, in.lastPoint = 0, -1
	for i := range in.paths {
		p := &in.paths[i]
		x, v := p.input(values, p.pos), p.input(values, p.vel)
		p.start, p.span, p.q0, p.w0, p.X, p.U, p.cubic = 0, 0, x, v, x, v, true
		p.lastX, p.lastV, p.lastT, p.prevX, p.prevT = x, v, 0, x, 0
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
// values and derivatives deriv, the simulation standing at time now ≥ t,
// delta after the communication point before (times in internal steps of
// h seconds).
func (p *pathAxis) sample(values, deriv []float64, t, now, delta, h float64) {
	knot := t + delta + 1
	tau := (knot - t) * h // s from the sample to the knot
	q, w := p.at(now, h)
	p.start, p.span, p.q0, p.w0 = now, knot-now, q, w
	X, V := p.input(values, p.pos), p.input(values, p.vel)
	switch {
	case p.byPosition(values) && deriv[p.pos] == 0:
		p.cubic, p.X, p.U = true, X, 0
		if t > p.lastT {
			d1 := (t - p.lastT) * h
			s1 := (X - p.lastX) / d1
			p.U = s1
			if d2 := (p.lastT - p.prevT) * h; d2 > 0 {
				// The slope at t of the parabola through the last three
				// samples: exact for a constant acceleration.
				p.U += d1 / (d1 + d2) * (s1 - (p.lastX-p.prevX)/d2)
			}
		}
	case p.byPosition(values):
		p.cubic, p.U = true, deriv[p.pos]
		p.X = X + p.U*tau
	default:
		D := 0.0
		if p.vel >= 0 {
			D = deriv[p.vel]
		}
		if D == 0 {
			tau = 0 // a sample, reached at the knot
		}
		p.U = V + D*tau
		p.cubic = p.pos >= 0 && (p.posDriven || X != p.x0)
		p.X = X + V*tau + 0.5*D*tau*tau
	}
	p.prevX, p.prevT = p.lastX, p.lastT
	p.lastX, p.lastV, p.lastT = X, V, t
}

// isSample reports whether the inputs at a communication point at time t
// (in internal steps) make a sample of the axis.
func (p *pathAxis) isSample(values, deriv []float64, t float64) bool {
	if p.pos >= 0 && (values[p.pos] != p.lastX || deriv[p.pos] != 0) {
		return true
	}
	if p.vel >= 0 && (values[p.vel] != p.lastV || deriv[p.vel] != 0) {
		return true
	}
	return p.byPosition(values) && t >= p.start+p.span
}

// planPaths takes the samples of the communication point at time t (s)
// before a step of H seconds, the simulation standing ahead seconds after
// it with internal steps of h seconds; it latches which inputs the master
// drives and logs, once per point, that a point follows its positions
// alone.
func (in *Instance) planPaths(t, H, h float64) {
	now := in.clock
	point := now - in.ahead/h
	// The span over which the inputs changed: the master's last step (at
	// the first communication point, the step it is taking), at least one
	// internal step.
	delta := point - in.lastPoint
	if in.lastPoint < 0 {
		delta = H / h
	}
	delta = max(delta, 1)
	for i := range in.paths {
		p := &in.paths[i]
		if p.isSample(in.values, in.deriv, point) {
			p.sample(in.values, in.deriv, point, now, delta, h)
		}
		if p.byPosition(in.values) && p.vel >= 0 && !in.pathsLogged[p.point] {
			in.pathsLogged[p.point] = true
			in.logf(Warning, "logStatusWarning", "%s", in.positionsOnly(p.point, t, (delta+1)*h))
		}
		if p.pos >= 0 && in.values[p.pos] != p.x0 {
			p.posDriven = true
		}
		if p.vel >= 0 && in.values[p.vel] != p.v0 {
			p.velDriven = true
		}
	}
	in.lastPoint = point
}

// positionsOnly is the message that a point follows its positions alone.
func (in *Instance) positionsOnly(point int, t, lag float64) string {
	var vels []string
	for _, p := range in.paths {
		if p.point == point && p.vel >= 0 {
			vels = append(vels, in.vars[p.vel].Name)
		}
	}
	return fmt.Sprintf("t = %g s: %s moves by its position inputs while its velocity inputs (%s) were never set: "+
		"it follows the positions along a smooth path through them, reaching each one communication step and one internal step "+
		"after it is set (%g s at this step); set the velocities too, or the positions' derivatives, for a path that bends with the motion",
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
	dst = append(dst, in.clock, in.lastPoint)
	for _, p := range in.paths {
		dst = append(dst, p.start, p.span, p.q0, p.w0, p.X, p.U, p.lastX, p.lastV, p.lastT, p.prevX, p.prevT, p.x0, p.v0,
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

// checkPaths returns an error if src cannot be the paths' numbers.
func (in *Instance) checkPaths(src []float64) error {
	if len(src) != pathClocks+pathNumbers*len(in.paths) {
		return fmt.Errorf("the state has %d numbers for the driven points' paths, this FMU %d: damaged", len(src), pathClocks+pathNumbers*len(in.paths))
	}
	for k, x := range src {
		i := (k - pathClocks) % pathNumbers
		switch {
		case !finite(x):
			return fmt.Errorf("number %d of the driven points' paths is %g: damaged", k, x)
		case k < pathClocks:
			if !(x >= -1 && x <= StateLimit) {
				return fmt.Errorf("the driven points' paths' clock reads %g internal steps: damaged", x)
			}
		case i >= pathNumbers-pathFlags && x != 0 && x != 1:
			return fmt.Errorf("number %d of the driven points' paths is %g, a flag must be 0 or 1: damaged", k, x)
		case i == 1 && !(x >= 0):
			return fmt.Errorf("a driven point's path segment lasts %g internal steps: damaged", x)
		case !(math.Abs(x) <= StateLimit):
			return fmt.Errorf("number %d of the driven points' paths is %g, beyond ±%g: damaged", k, x, StateLimit)
		}
	}
	return nil
}

// loadPaths restores the paths from numbers checkPaths accepted.
func (in *Instance) loadPaths(src []float64) {
	in.clock, in.lastPoint = src[0], src[1]
	for i := range in.paths {
		p := &in.paths[i]
		v := src[pathClocks+pathNumbers*i:]
		p.start, p.span, p.q0, p.w0, p.X, p.U, p.lastX, p.lastV, p.lastT, p.prevX, p.prevT, p.x0, p.v0 = v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12]
		p.cubic, p.posDriven, p.velDriven = v[13] == 1, v[14] == 1, v[15] == 1
	}
}
