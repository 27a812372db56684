// Package state is the codec of a simulation's state. A type's State
// method walks the numbers it carries from step to step, once, and the
// same walk saves them, checks a saved state and loads it, so that saving
// and loading cannot drift apart. Loading walks twice: the first pass
// reads and checks every number and changes nothing, the second assigns
// them and then runs what the type asked to run after (Then: derived
// values recomputed); a refused state leaves the simulation as it was.
//
// What a number means bounds it: positions, lengths and speeds within
// ±Limit, where a stepping simulation stops as diverged (a state holding
// more was forged, and its arithmetic would leave the finite range),
// flags 0 or 1, counts whole, orientations unit quaternions.
//
// A State method decides what follows (how many items, which kind) from
// the values the walk methods return, never from the fields they walk:
// the checking pass reads without assigning.
package state

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Limit bounds positions (m), lengths (m) and speeds (m/s, rad/s) in a
// state.
const Limit = 1e9

// ErrDamaged marks a state the codec refused.
var ErrDamaged = errors.New("damaged state")

// Stater is a type whose state the codec walks.
type Stater interface {
	State(c *Codec)
}

type mode int

const (
	saving mode = iota
	checking
	loading
)

// Codec walks a state: it saves, checks or loads, whichever its pass is.
type Codec struct {
	mode    mode
	buf     []float64
	err     error
	then    []func() error
	subject Subject
}

// Subject is the item a walk's values belong to ("body", "hook"): an error
// names it before the value's own name. Walking many items, a State method
// names each by Of rather than by joining strings for every value, which
// would cost a save or load an allocation a number.
type Subject struct{ kind, name string }

// Of makes kind and name (either may be empty) the subject of the values
// walked next, and returns the subject it replaces, for Back.
func (c *Codec) Of(kind, name string) Subject {
	old := c.subject
	c.subject = Subject{kind, name}
	return old
}

// Back puts back the subject Of replaced.
func (c *Codec) Back(s Subject) { c.subject = s }

// named is what a message calls a value: its subject's kind and name, then
// its own name.
func (c *Codec) named(what string) string {
	out := what
	if c.subject.name != "" {
		out = c.subject.name + " " + out
	}
	if c.subject.kind != "" {
		out = c.subject.kind + " " + out
	}
	return out
}

// Save appends s's state to dst.
func Save(dst []float64, s Stater) []float64 {
	c := &Codec{mode: saving, buf: dst}
	s.State(c)
	return c.buf
}

// Load reads a state Save wrote from the front of src into s, every
// number checked before any is assigned, and returns what follows it.
func Load(src []float64, s Stater) (rest []float64, err error) {
	return load(src, s, false)
}

// LoadAll is Load of a state that must end where s's does: one with
// numbers left over is refused too, before anything is assigned.
func LoadAll(src []float64, s Stater) error {
	_, err := load(src, s, true)
	return err
}

func load(src []float64, s Stater, whole bool) (rest []float64, err error) {
	c := &Codec{mode: checking, buf: src}
	s.State(c)
	if c.err != nil {
		return nil, c.err
	}
	rest = c.buf
	if whole && len(rest) != 0 {
		return nil, fmt.Errorf("state: %d values more than this simulation's: %w", len(rest), ErrDamaged)
	}
	c = &Codec{mode: loading, buf: src}
	s.State(c)
	for _, f := range c.then {
		if err := f(); err != nil {
			return nil, fmt.Errorf("state: %w", err)
		}
	}
	return rest, nil
}

// Saving reports whether the walk saves.
func (c *Codec) Saving() bool { return c.mode == saving }

// Loading reports whether the walk assigns what it reads (the second pass
// of a load).
func (c *Codec) Loading() bool { return c.mode == loading }

// Then runs f after a load has assigned every number: derived values
// recomputed from the loaded ones.
func (c *Codec) Then(f func() error) {
	if c.mode == loading {
		c.then = append(c.then, f)
	}
}

// Check refuses the state when cond is false, with the message format
// gives: what a relation between numbers rules out. (Its arguments are
// made on every call: in a walk over many items write
// if !cond { c.Refuse(…) }.)
func (c *Codec) Check(cond bool, format string, args ...any) {
	if !cond {
		c.Refuse(format, args...)
	}
}

// Refuse refuses the state when the walk checks it, with the message
// format gives.
func (c *Codec) Refuse(format string, args ...any) {
	if c.mode == checking && c.err == nil {
		c.err = fmt.Errorf("state: "+format+": %w", append(args, ErrDamaged)...)
	}
}

// next reads the next number, or fails at the end of the state.
func (c *Codec) next(what string) (float64, bool) {
	if c.err != nil {
		return 0, false
	}
	if len(c.buf) == 0 {
		c.err = fmt.Errorf("state: ends before %s: %w", c.named(what), ErrDamaged)
		return 0, false
	}
	x := c.buf[0]
	c.buf = c.buf[1:]
	return x, true
}

// Float walks a finite number.
func (c *Codec) Float(what string, x *float64) float64 {
	return c.number(what, "", x, rule{kind: finite})
}

// rule is what a walked number must be; its message is made only when a
// number breaks it (saving and loading build no strings).
type rule struct {
	kind   ruleKind
	lo, hi float64
}

type ruleKind int

const (
	finite      ruleKind = iota
	bounded              // |v| ≤ Limit
	positive             // (0, Limit]
	nonNegative          // [0, ∞)
	inRange              // [lo, hi]
	flag                 // 0 or 1
	whole                // a whole number in [0, 2⁵³)
	index                // a whole number in [0, hi)
	fixed                // exactly lo
)

func (r rule) holds(v float64) bool {
	switch r.kind {
	case bounded:
		return math.Abs(v) <= Limit
	case positive:
		return v > 0 && v <= Limit
	case nonNegative:
		return v >= 0
	case inRange:
		return v >= r.lo && v <= r.hi
	case flag:
		return v == 0 || v == 1
	case whole:
		return v >= 0 && v < 1<<53 && v == math.Trunc(v)
	case index:
		return v >= 0 && v < r.hi && v == math.Trunc(v)
	case fixed:
		return v == r.lo
	}
	return true
}

func (r rule) String(unit string) string {
	switch r.kind {
	case bounded:
		return fmt.Sprintf("beyond ±%g %s", Limit, unit)
	case positive:
		return fmt.Sprintf("must lie in (0, %g] %s", Limit, unit)
	case nonNegative:
		return "must be non-negative"
	case inRange:
		return fmt.Sprintf("must lie in [%g, %g] %s", r.lo, r.hi, unit)
	case flag:
		return "a flag is 0 or 1"
	case whole:
		return "must be a whole number ≥ 0"
	case index:
		return fmt.Sprintf("want a whole number in [0, %g)", r.hi)
	case fixed:
		return fmt.Sprintf("this simulation has %g", r.lo)
	}
	return "must be finite"
}

// number walks x: saved, read and checked by r (finite always), or
// assigned.
func (c *Codec) number(what, unit string, x *float64, r rule) float64 {
	if c.mode == saving {
		c.buf = append(c.buf, *x)
		return *x
	}
	v, read := c.next(what)
	if !read {
		return 0
	}
	if c.mode == loading {
		*x = v
		return v
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || !r.holds(v) {
		text := r.String(unit)
		if unit != "" {
			unit = " " + unit
		}
		c.err = fmt.Errorf("state: %s %g%s: %s: %w", c.named(what), v, unit, text, ErrDamaged)
	}
	return v
}

// Bounded walks a position, length or speed within ±Limit.
func (c *Codec) Bounded(what, unit string, x *float64) float64 {
	return c.number(what, unit, x, rule{kind: bounded})
}

// Positive walks a length or mass that is positive and within Limit.
func (c *Codec) Positive(what, unit string, x *float64) float64 {
	return c.number(what, unit, x, rule{kind: positive})
}

// NonNegative walks a quantity that is never negative (a count, a
// residual, a force limit).
func (c *Codec) NonNegative(what string, x *float64) float64 {
	return c.number(what, "", x, rule{kind: nonNegative})
}

// Range walks a quantity in [lo, hi]: what a simulation was given (a
// command, a force limit) in the range its input or parameter has.
func (c *Codec) Range(what, unit string, lo, hi float64, x *float64) float64 {
	return c.number(what, unit, x, rule{kind: inRange, lo: lo, hi: hi})
}

// Vec walks a finite vector (a force, a torque).
func (c *Codec) Vec(what string, v *geom.Vec3) {
	c.Float(what, &v.X)
	c.Float(what, &v.Y)
	c.Float(what, &v.Z)
}

// Point walks a position (m) within ±Limit.
func (c *Codec) Point(what string, p *geom.Vec3) {
	c.Bounded(what, "m", &p.X)
	c.Bounded(what, "m", &p.Y)
	c.Bounded(what, "m", &p.Z)
}

// Velocity walks a velocity (m/s, or rad/s) within ±Limit.
func (c *Codec) Velocity(what string, v *geom.Vec3) {
	c.Bounded(what, "m/s", &v.X)
	c.Bounded(what, "m/s", &v.Y)
	c.Bounded(what, "m/s", &v.Z)
}

// Quat walks an orientation: a unit quaternion to rounding (a step
// normalizes it).
func (c *Codec) Quat(what string, q *geom.Quat) {
	w, x, y, z := c.Float(what, &q.W), c.Float(what, &q.X), c.Float(what, &q.Y), c.Float(what, &q.Z)
	if !(math.Abs(w*w+x*x+y*y+z*z-1) <= 1e-9) {
		c.Refuse("%s (%g, %g, %g, %g): not a unit quaternion", c.named(what), w, x, y, z)
	}
}

// Flag walks a bool, saved as 1 or 0.
func (c *Codec) Flag(what string, b *bool) bool {
	x := 0.0
	if *b {
		x = 1
	}
	v := c.number(what, "", &x, rule{kind: flag})
	if c.mode == loading {
		*b = v == 1
	}
	return v == 1
}

// Count walks a whole number ≥ 0; after a refusal it returns 0.
func (c *Codec) Count(what string, n *int) int {
	x := float64(*n)
	v := c.number(what, "", &x, rule{kind: whole})
	if c.mode == loading {
		*n = int(v)
	}
	if c.err != nil {
		return 0
	}
	return int(v)
}

// Index walks a whole number in [0, n): an index into what the
// simulation has (a body, a geometry), or a count bounded by what a state
// may hold. After a refusal it returns 0.
func (c *Codec) Index(what string, n int, i *int) int {
	x := float64(*i)
	v := c.number(what, "", &x, rule{kind: index, hi: float64(n)})
	if c.mode == loading {
		*i = int(v)
	}
	if c.err != nil {
		return 0
	}
	return int(v)
}

// Items walks the count of a list whose items take at least per numbers
// each: a count the rest of a state cannot hold is refused before anyone
// makes room for it. After a refusal it returns 0.
func (c *Codec) Items(what string, per int, n *int) int {
	limit := 1 << 53
	if c.mode != saving {
		limit = len(c.buf)/max(per, 1) + 1 // the count's own number is still in buf
	}
	return c.Index(what, limit, n)
}

// Fixed walks a number the simulation's structure fixes (how many points
// a cable has): a state for another structure is refused.
func (c *Codec) Fixed(what string, n int) {
	x := float64(n)
	c.number(what, "", &x, rule{kind: fixed, lo: float64(n)})
}

// Floats walks finite numbers.
func (c *Codec) Floats(what string, xs []float64) {
	for i := range xs {
		c.Float(what, &xs[i])
	}
}

// Check checks a state Save wrote at the front of src against s without
// changing anything, and returns what follows it: for a state whose
// other part loads by other means first.
func Check(src []float64, s Stater) (rest []float64, err error) {
	c := &Codec{mode: checking, buf: src}
	s.State(c)
	if c.err != nil {
		return nil, c.err
	}
	return c.buf, nil
}
