package multibody

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
)

// ParallelBodies is the least number of dynamic bodies for which a world
// whose Parallel is not Serial splits its steps in two. Below it a step's
// passes take less time than handing half of them over costs.
const ParallelBodies = 200

// Parallelism says whether a world splits its steps (World.Parallel).
type Parallelism int8

const (
	// Serial steps on the caller's goroutine alone.
	Serial Parallelism = iota
	// ParallelMeasured splits the steps where that is measured to be
	// the faster: now and then some steps each way, by their time, the
	// faster way then kept for a while (a busy system can make a split
	// step the slower one). Both ways compute the same.
	ParallelMeasured
	// ParallelAlways splits every step and hands every second half to
	// the helper, waiting for it however late it comes (for tests and
	// benchmarks: a busy system slows it down).
	ParallelAlways
)

// half is one share of a step's passes over bodies and constraints. A
// world that splits its steps (World.Parallel) gives the first half the
// dynamic bodies of the lower slots and the second the others, each the
// constraints whose dynamic bodies are all its own; the constraints
// across the split are the world's cross list, taken on their own. A
// world that does not split has everything in its first half, in the
// order it was added, and steps as it did before the split existed.
type half struct {
	bodies      []*Body // own dynamic bodies, in slot order
	constraints []int   // own constraints' indices, in order
	turning     []Turning
	// What a pass leaves for the world to add up.
	terms  rowTerms
	turned int
	bad    bool // a body left the finite range (World.check)
}

// pass names the parts of a step that the halves run.
type pass int8

const (
	passUpdate    pass = iota // frames, the constraints' Update, their pulls
	passInertia               // turning stiffness taken in, inverse inertia
	passAssemble              // prediction and the rows' assembly
	passIntegrate             // impulses, motion, Apply, the range check
	passFactor                // a chain's factorization from one end (Chain)
	passForward               // a chain's forward substitution from one end
	passBackward              // a chain's back substitution towards one end
)

// halves is work split in two: half(false, …) and half(true, …) of a pass
// touch different data, so that they can run at the same time.
type halves interface {
	half(second bool, k pass, h float64)
}

// half implements halves.
func (w *World) half(second bool, k pass, h float64) {
	s := &w.halves[0]
	if second {
		s = &w.halves[1]
	}
	w.pass(k, s, h)
}

// impulseRef is a block acting on a body (World.integrate): its row, its
// index in the problem's blocks and its constraint.
type impulseRef struct{ row, block, constraint int32 }

// impulseRun is a body's blocks of one constraint, refs first to end − 1
// of the world's impulses: a constraint kept off is passed over at once.
type impulseRun struct{ constraint, first, end int32 }

// layoutHalves shares the bodies and constraints out between the halves
// and lists each body's blocks for the integration (World.layout).
func (w *World) layoutHalves() error {
	a, b := &w.halves[0], &w.halves[1]
	a.bodies, a.constraints, a.turning = a.bodies[:0], a.constraints[:0], a.turning[:0]
	b.bodies, b.constraints, b.turning = b.bodies[:0], b.constraints[:0], b.turning[:0]
	w.cross, w.crossTurning = w.cross[:0], w.crossTurning[:0]
	mid := len(w.dynamic) // every body in the first half
	if w.Parallel != Serial && len(w.dynamic) >= ParallelBodies {
		mid = len(w.dynamic) / 2
	}
	a.bodies = append(a.bodies, w.dynamic[:mid]...)
	b.bodies = append(b.bodies, w.dynamic[mid:]...)
	for i, c := range w.constraints {
		side := 0
		seen := false
		for _, body := range c.Bodies() {
			if body.Kind != Dynamic {
				continue
			}
			s := 0
			if body.slot >= mid {
				s = 1
			}
			if seen && s != side {
				side = -1
				break
			}
			side, seen = s, true
		}
		t, turns := c.(Turning)
		switch side {
		case -1:
			w.cross = append(w.cross, i)
			if turns {
				w.crossTurning = append(w.crossTurning, t)
			}
		default:
			h := &w.halves[side]
			h.constraints = append(h.constraints, i)
			if turns {
				h.turning = append(h.turning, t)
			}
		}
	}
	if err := w.layoutImpulses(); err != nil {
		return err
	}
	w.parallel = w.Parallel
	if mid < len(w.dynamic) && w.helper == nil && runtime.GOMAXPROCS(0) > 1 {
		w.helper = newHelper(w)
	}
	if w.helper != nil {
		w.helper.forced = w.Parallel == ParallelAlways
	}
	// The solvers split their work where the world does (Chain).
	w.prob.helper = nil
	if mid < len(w.dynamic) {
		w.prob.helper = w.helper
	}
	return nil
}

// layoutImpulses lists the blocks acting on each body in row order: the
// dynamic bodies' by slot, then the others' (fixed) in the world's order.
// It refuses a constraint on a body that is not in the world.
func (w *World) layoutImpulses() error {
	w.fixed = w.fixed[:0]
	for _, b := range w.bodies {
		if b.Kind != Dynamic {
			w.fixed = append(w.fixed, b)
		}
	}
	nb := len(w.dynamic) + len(w.fixed)
	start := reuse(w.impulseStart, nb+2)
	at := func(b *Body) int {
		if b.Kind == Dynamic {
			return b.slot // layout checked it
		}
		for i, f := range w.fixed {
			if f == b {
				return len(w.dynamic) + i
			}
		}
		return -1
	}
	// Counted, then filled in place (start[i+1] moves along body i's).
	for _, c := range w.constraints {
		for _, b := range c.Bodies() {
			i := at(b)
			if i < 0 {
				return fmt.Errorf("constraint uses body %q that is not in the world", b.Name)
			}
			start[i+2] += c.Rows()
		}
	}
	for i := 2; i < len(start); i++ {
		start[i] += start[i-1]
	}
	refs := grow(w.impulses, start[nb+1])[:start[nb+1]]
	p := &w.prob
	for ci, c := range w.constraints {
		bodies := c.Bodies()
		first := p.Groups[ci]
		for r := 0; r < c.Rows(); r++ {
			for k, b := range bodies {
				i := at(b) + 1
				refs[start[i]] = impulseRef{int32(first + r), int32(p.blockStart[ci] + r*len(bodies) + k), int32(ci)}
				start[i]++
			}
		}
	}
	w.impulseStart, w.impulses = start[:nb+1], refs
	// Each body's runs of one constraint's blocks.
	w.runStart, w.runs = append(w.runStart[:0], 0), w.runs[:0]
	for i := 0; i < nb; i++ {
		for j := start[i]; j < start[i+1]; j++ {
			if n := len(w.runs); j > start[i] && w.runs[n-1].constraint == refs[j].constraint {
				w.runs[n-1].end++
				continue
			}
			w.runs = append(w.runs, impulseRun{refs[j].constraint, int32(j), int32(j + 1)})
		}
		w.runStart = append(w.runStart, len(w.runs))
	}
	return nil
}

// run runs pass k of a step over both halves: the second on the helper
// while this goroutine runs the first, where the helper is free, else
// both here, one after the other. Either way each half does the same
// operations, in the same order: the results do not depend on which ran
// where, nor on how many processors there are.
func (w *World) run(k pass, h float64) {
	if len(w.halves[1].bodies) == 0 {
		w.pass(k, &w.halves[0], h)
		w.pass(k, &w.halves[1], h)
		return
	}
	w.helper.split(w, k, h)
}

// split runs pass k of t's two halves: the first here, the second on the
// helper where it is free and takes it up before this goroutine is done
// with the first, else here too, after the first (and everything here
// where hp is nil: World.run).
func (hp *helper) split(t halves, k pass, h float64) {
	if hp == nil || hp.alone {
		t.half(false, k, h)
		t.half(true, k, h)
		return
	}
	seq, ok := hp.give(t, k, h)
	for spins := 1; !ok && hp.forced; spins++ {
		hp.nudge()
		if spins%yieldSpins == 0 {
			runtime.Gosched()
		}
		seq, ok = hp.give(t, k, h)
	}
	if !ok {
		// Parked after a long wait (between steps of a master that does
		// more), waking, or not yet back from a half taken back from it:
		// both halves here, and a parked helper woken for the next pass.
		t.half(false, k, h)
		t.half(true, k, h)
		hp.nudge()
		return
	}
	var own any
	func() {
		defer func() { own = recover() }()
		t.half(false, k, h)
	}()
	// A half the helper has not taken up is taken back; one it has is
	// waited for (it works on this world's data, and a panic here must not
	// leave it working).
	if !hp.forced && hp.claim.CompareAndSwap(seq-1, seq) {
		hp.task = nil
		if own != nil {
			panic(own)
		}
		t.half(true, k, h)
		return
	}
	helped := hp.wait(seq)
	if own != nil {
		panic(own)
	}
	if helped != nil {
		panic(helped)
	}
}

// pass runs pass k over half s.
func (w *World) pass(k pass, s *half, h float64) {
	switch k {
	case passUpdate:
		turn := w.turns()
		for _, b := range s.bodies {
			b.refreshFrame()
			if turn {
				b.turnK, b.pulled = geom.Mat3{}, false
			}
		}
		w.updateConstraints(s.constraints, h)
		if turn {
			for _, t := range s.turning {
				t.TurnStiffness()
			}
		}
	case passInertia:
		w.takeTurnStiffness(s, h)
	case passAssemble:
		w.predict(s.bodies, h)
		s.terms.start(h)
		w.assembleConstraints(s.constraints, &s.terms)
	case passIntegrate:
		p := &w.prob
		lambda, js, off := p.Lambda[:len(p.Rows)], p.js, w.off
		for _, b := range s.bodies {
			i := b.slot
			sumImpulses(b, w.runs[w.runStart[i]:w.runStart[i+1]], w.impulses, lambda, js, off, 1/h)
			b.Vel = b.predVel.AddScaled(h*b.invMass, b.ConstraintForce)
			t := b.ConstraintTorque.Scale(h)
			in := &b.invI
			b.AngVel = b.predAng.Add(geom.Vec3{
				X: in[0][0]*t.X + in[0][1]*t.Y + in[0][2]*t.Z,
				Y: in[1][0]*t.X + in[1][1]*t.Y + in[1][2]*t.Z,
				Z: in[2][0]*t.X + in[2][1]*t.Y + in[2][2]*t.Z,
			})
			b.Pos = b.Pos.AddScaled(h, b.Vel)
			b.Rot = b.Rot.Integrate(b.AngVel, h)
		}
		w.applyConstraints(s.constraints, h)
		s.bad = false
		for _, b := range s.bodies {
			if !finiteWithin(b.Pos) || !finiteWithin(b.Vel) || !finiteWithin(b.AngVel) {
				s.bad = true
				break
			}
		}
	}
}

// turns says whether the step takes the turning stiffness of Turning
// constraints in (World.takeTurnStiffness).
func (w *World) turns() bool { return len(w.turning) > 0 && !w.ExplicitTurning }

// sumImpulses sets b's constraint force and torque to the sum of its
// blocks' impulses over the step (N, N·m; perH = 1/h), in row order,
// leaving out the rows of constraints kept off; runs are b's, of refs.
func sumImpulses(b *Body, runs []impulseRun, refs []impulseRef, lambda []float64, js []Jacobian, off []rowState, perH float64) {
	var force, torque geom.Vec3
	for _, run := range runs {
		if off[run.constraint] >= rowsSwitched {
			continue // off: no impulse (most contacts, most steps)
		}
		for _, r := range refs[run.first:run.end] {
			l := lambda[r.row]
			if l == 0 {
				continue
			}
			f, j := l*perH, &js[r.block]
			// An angular block's linear part (zero) would add zeros that
			// change nothing: the sums start from +0.
			if j.Lin != (geom.Vec3{}) {
				force = force.AddScaled(f, j.Lin)
			}
			torque = torque.AddScaled(f, j.Ang)
		}
	}
	b.ConstraintForce, b.ConstraintTorque = force, torque
}

// helper is the goroutine that runs the second half of a split world's
// passes (World.Parallel). A pass handed over (give) is taken up by
// whichever comes first, the helper or the world's goroutine done with its
// own half (claim): a helper the system has not run yet is not waited
// for. Between passes the helper waits spinning for helperSpin and then
// parks until the world nudges it: a pass handed over while it is parked
// runs whole in the world's goroutine, since waking a parked goroutine
// onto another processor takes longer than a half of a pass. The world's
// goroutine waits for a half taken up spinning without yielding (a yield
// from a master's thread, locked to its goroutine, is a hand-over between
// threads). Whether the world's steps are split at all is measured
// (steps): on a system whose processors are busy, a helper descheduled in
// the middle of a half makes a split step slower than one run alone. The
// clock decides only who runs a half, never what it computes.
type helper struct {
	given, claim, finished atomic.Uint64
	ran                    atomic.Uint64 // the passes the helper ran
	state                  atomic.Int32  // helperSpinning, helperBusy, helperParked, helperWaking
	stop                   atomic.Bool
	wake                   chan struct{}
	// The pass handed over, set before given moves on; task is cleared
	// once the pass is finished, so that the helper does not keep a
	// world alive (its cleanup stops the helper).
	task     halves
	pass     pass
	h        float64
	panicked any
	// alone says the world runs its passes alone this step; steps
	// measures the steps split and alone to choose; forced says every
	// second half goes to the helper (ParallelAlways). The world's
	// goroutine's only.
	alone, forced bool
	steps         stepTrials
}

const (
	helperSpinning int32 = iota
	helperBusy
	helperParked
	helperWaking // parked and nudged: its one token sent
)

// helperSpin is how long the helper waits spinning for a pass: longer
// than what a step does between its passes and a master between steps run
// back to back. Spinning, the helper yields, and reads the clock, every
// yieldSpins turns; the world's goroutine, waiting, reads the clock after
// clockSpins turns and then every yieldSpins, and yields once a wait has
// passed yieldAfter (a processor count lowered since the helper started).
const (
	helperSpin = 300 * time.Microsecond
	yieldSpins = 1 << 12
	clockSpins = 1 << 8
	yieldAfter = 2 * time.Millisecond
)

// newHelper starts w's helper; it stops once w is unreachable.
func newHelper(w *World) *helper {
	hp := &helper{wake: make(chan struct{}, 1)}
	go hp.loop()
	runtime.AddCleanup(w, func(hp *helper) {
		hp.stop.Store(true)
		hp.nudge() // a spinning helper sees stop itself
	}, hp)
	return hp
}

// give hands the second half of t's pass k over to the helper if it is
// spinning, and returns the pass's number.
func (hp *helper) give(t halves, k pass, h float64) (uint64, bool) {
	if !hp.state.CompareAndSwap(helperSpinning, helperBusy) {
		return 0, false
	}
	hp.task, hp.pass, hp.h = t, k, h
	return hp.given.Add(1), true
}

// wait waits for pass seq, which the helper took up, and returns what its
// half panicked with, or nil.
func (hp *helper) wait(seq uint64) any {
	var start time.Time
	for spins := 1; hp.finished.Load() != seq; spins++ {
		if spins%clockSpins != 0 {
			continue
		}
		if start.IsZero() {
			start = time.Now()
			continue
		}
		if spins%yieldSpins == 0 && time.Since(start) > yieldAfter {
			runtime.Gosched()
		}
	}
	p := hp.panicked
	hp.panicked = nil
	return p
}

// nudge wakes a parked helper: one token a park, sent by the nudge that
// moves it from parked to waking (a token left in the channel would cut
// the next park short).
func (hp *helper) nudge() {
	if hp.state.CompareAndSwap(helperParked, helperWaking) {
		hp.wake <- struct{}{}
	}
}

func (hp *helper) loop() {
	var seen uint64
	for {
		since := time.Now()
		for spins := 1; hp.given.Load() == seen; spins++ {
			if spins%yieldSpins != 0 {
				continue
			}
			if hp.stop.Load() {
				return
			}
			if time.Since(since) < helperSpin {
				runtime.Gosched()
				continue
			}
			if hp.state.CompareAndSwap(helperSpinning, helperParked) {
				<-hp.wake
				hp.state.Store(helperSpinning)
			}
			since = time.Now()
		}
		seen = hp.given.Load()
		if hp.claim.CompareAndSwap(seen-1, seen) {
			hp.run()
			hp.ran.Add(1)
			// Spinning before finished: the world gives the next pass
			// only once it sees this one finished.
			hp.state.Store(helperSpinning)
			hp.finished.Store(seen)
			continue
		}
		// Taken back by the world's goroutine, which gives no other pass
		// until the helper spins again.
		hp.state.Store(helperSpinning)
	}
}

// run runs the pass handed over on the second half, keeping a panic for
// the world's goroutine to raise.
func (hp *helper) run() {
	defer func() {
		if r := recover(); r != nil {
			hp.panicked = fmt.Sprintf("%v (in the second half of a split step)\n%s", r, debug.Stack())
		}
		hp.task = nil
	}()
	hp.task.half(true, hp.pass, hp.h)
}

// Helped returns how many halves of passes the world's helper ran
// (Parallel): none where the world does not split its steps or runs on
// one processor.
func (w *World) Helped() uint64 {
	if w.helper == nil {
		return 0
	}
	return w.helper.ran.Load()
}

// stepTrials chooses whether a split world's steps run split or alone, by
// their time (World.Step): 2·trialPairs steps split and alone in turn (the
// first pair left out: the helper waking, the caches filling), then
// keepSteps steps the way found, then trials again. Split is kept where
// its steps took less than splitMargin of the lone ones' time and the
// helper ran at least half of the halves handed over to it (else the
// split steps' time was the caller's own, and a busy system's luck).
// Both ways compute the same.
type stepTrials struct {
	left       int  // steps left in the trials or in keeping their way
	trying     bool // in the trials
	split      bool // the way kept
	took       [2]time.Duration
	given, ran uint64 // the helper's counts when the trials began
}

const (
	trialPairs  = 16
	keepSteps   = 1024
	splitMargin = 0.9
)

// plan sets the way of the next step: hp.alone.
func (hp *helper) plan() {
	t := &hp.steps
	if t.left == 0 {
		if t.trying {
			given, ran := hp.given.Load()-t.given, hp.ran.Load()-t.ran
			t.split = float64(t.took[0]) < splitMargin*float64(t.took[1]) && 2*ran >= given
			t.trying, t.left = false, keepSteps
		} else {
			t.trying, t.left, t.took = true, 2*trialPairs, [2]time.Duration{}
			t.given, t.ran = hp.given.Load(), hp.ran.Load()
		}
	}
	hp.alone = t.trying && t.left%2 == 1 || !t.trying && !t.split
	if !hp.alone {
		hp.nudge() // parked: awake for the step's later passes
	}
}

// took counts a step of duration d taken the planned way.
func (hp *helper) took(d time.Duration) {
	t := &hp.steps
	if t.trying && t.left <= 2*(trialPairs-1) {
		way := 0
		if hp.alone {
			way = 1
		}
		t.took[way] += d
	}
	t.left--
}
