package hmrwire

import (
	"fmt"
	"math"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// System is a world of bodies, the geometries on them and the HMR wires
// among them, stepped by Algorithm 1 of [SLNB11].
type System struct {
	World      *multibody.World
	Geometries []*Geometry
	Wires      []*Wire
	drums      []*Drum
	sheaves    []*Sheave
	// Substeps counts the steps solved since the system was built,
	// substeps included (see maxTurn): a diagnostic, not part of the
	// saved state.
	Substeps int
	// Timing, when set, accumulates the time of the phases of Step.
	Timing *StepTiming
	// lastH is the length (s) of the last step solved, a substep's when
	// Step cut one (see maxTurn): the impulses the segments keep are that
	// step's.
	lastH  float64
	sparse *multibody.Sparse
	active *multibody.ActiveSet
	// afterContacts, if set, runs in Step once the contact nodes are
	// updated (tests check there that no node is inside a geometry).
	afterContacts func()
	// means are the values averaged over steps taken in substeps
	// (AddMean).
	means []*StepMean
	// still numbers the step's still window while it lasts (0 outside
	// it; see Wire.place), stills counts the windows.
	still, stills uint64
}

// StepTiming splits the time of System.Step for benchmarks.
type StepTiming struct {
	// Contacts: contact nodes follow their edges, detach and appear
	// (Algorithm 1 steps 4 and 11).
	Contacts time.Duration
	// Resolution: coarsening, refinement, the winch's nodes and the
	// constraints rebuilt where the nodes changed (step 5).
	Resolution time.Duration
	// World: the SPOOK step (steps 6–10): rows evaluated, the system
	// assembled and solved under the active set, bodies moved.
	World time.Duration
	// Solver splits the sparse solver's share of World: ordering and
	// analysis (symbolic), assembly, numeric factorization, substitution.
	Solver multibody.SparseTiming
}

// NewSystem returns an empty system under gravity (m/s²), solving each
// step by the sparse LDLᵀ of the whole system (eq. 7) under an active set
// for the bounded rows (slack, friction).
func NewSystem(gravity geom.Vec3) *System {
	w := multibody.NewWorld(gravity)
	sp := &multibody.Sparse{}
	as := &multibody.ActiveSet{Solver: sp, WarmStart: true}
	w.Solver = as
	return &System{World: w, sparse: sp, active: as}
}

// AddGeometry adds g; its body must be in the world.
func (sys *System) AddGeometry(g *Geometry) { sys.Geometries = append(sys.Geometries, g) }

// Step advances the system by h seconds: contact nodes follow their
// edges, detach and appear where the wire meets a geometry (Algorithm 1
// steps 4 and 11), the resolution adapts (step 5), then the SPOOK step
// solves every constraint at once (steps 6–10).
//
// Where a body turns faster than maxTurn per step, the step is cut into
// equal substeps that each turn it at most that far (see maxTurn), taken
// as one step for what the system reports (multibody.World.Substeps): the
// bodies' constraint loads are the step's means, and the contacts (the
// ground's, the wire ends' on geometries), the locks, the sheaves'
// hinges and the drum's drive keep the step's impulses, and the values
// of AddMean are the step's means.
func (sys *System) Step(h float64) error {
	if !(h > 0) {
		return fmt.Errorf("step size %g s: must be positive", h)
	}
	n := sys.substeps(h)
	sys.Substeps += n
	err := sys.World.Substeps(h, n, func(k int, sub float64) error {
		if err := sys.step(sub); err != nil {
			return err
		}
		for _, m := range sys.means {
			if err := m.substepDone(k, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, w := range sys.Wires {
		w.reportMerges(h)
	}
	return nil
}

// LastStep returns the length (s) of the last step solved, a substep's
// when Step cut the step, 0 before the first. (The constraints that report
// forces for the whole step know its length: multibody.Summed.)
func (sys *System) LastStep() float64 { return sys.lastH }

// maxTurn is the largest angle (rad) a body may turn in one step of the
// solve. The rows are linear in the bodies' velocities: a node on a body
// turning by ωh moves along its chord, not its arc, and the wire's length
// as the rows see it is off by about ¼(ωh)² times the node's lever arm
// per step. A box unwinding from a wire at 35 rad/s (0.6 rad per step of
// 1/60 s) left the wire 0.2 m longer than at rest with no tension in the
// rows and then jerked it taut, gaining kinetic energy; at 0.1 rad the
// error is 0.25 % of the lever arm. The cut resolves the motion rather
// than damping it, and costs nothing while bodies turn slower.
const maxTurn = 0.1

// maxSubsteps bounds the substeps of one step.
const maxSubsteps = 64

// substeps returns into how many substeps a step of h seconds is cut:
// the fastest-turning body turns at most maxTurn in each.
func (sys *System) substeps(h float64) int {
	fastest := 0.0
	for _, b := range sys.World.Bodies() {
		// A wire's mass node rolls about the wire, moving no point; a
		// kinematic body turns what rides on it as a dynamic one does.
		if !sys.isDrum(b) && !(b.Kind == multibody.Dynamic && b.Inertia.Y == 0 && b.Inertia.Z == 0) {
			fastest = max(fastest, b.AngVel.Norm())
		}
	}
	n := math.Ceil(fastest * h / maxTurn)
	if !(n > 1) {
		return 1
	}
	return int(min(n, maxSubsteps))
}

// isDrum reports whether b is a winch drum's body: the wire leaves a
// drum at a point fixed on its axle, so its turning moves no node.
func (sys *System) isDrum(b *multibody.Body) bool {
	for _, d := range sys.drums {
		if d.Body == b {
			return true
		}
	}
	return false
}

// step is one step of Algorithm 1.
func (sys *System) step(h float64) error {
	sys.lastH = h
	tm := sys.Timing
	if tm != nil {
		sys.sparse.Timing = &tm.Solver
	}
	lap := func(d *time.Duration, since time.Time) time.Time {
		now := time.Now()
		*d += now.Sub(since)
		return now
	}
	var start time.Time
	if tm != nil {
		start = time.Now()
	}
	for _, g := range sys.Geometries {
		g.refresh()
	}
	sys.stills++
	sys.still = sys.stills
	defer func() { sys.still = 0 }()
	for _, w := range sys.Wires {
		if err := w.updateContacts(h); err != nil {
			return fmt.Errorf("wire %q: %w", w.Name, err)
		}
		if sys.afterContacts != nil {
			sys.afterContacts()
		}
		if tm != nil {
			start = lap(&tm.Contacts, start)
		}
		if w.known {
			if w.Winch != nil {
				w.winchNodes(h)
			}
			w.adapt(h)
			if w.ei > 0 && w.followTension(w.changed) {
				w.changed = true
			}
		}
		if w.followGround(h) {
			w.changed = true
		}
		if w.followTouches(h) {
			w.changed = true
		}
		if w.ei > 0 && w.followBraces(h, w.changed) {
			w.changed = true
		}
		if w.changed {
			w.rebuild()
		}
		if tm != nil {
			start = lap(&tm.Resolution, start)
		}
	}
	for _, d := range sys.drums {
		d.prepare(sys.World.Gravity)
	}
	for _, w := range sys.Wires {
		if w.twist {
			w.alignTwist()
		}
	}
	sys.measureSheaves()
	sys.still = 0 // the bodies move
	if err := sys.World.Step(h); err != nil {
		return err
	}
	for _, w := range sys.Wires {
		if err := w.runaway(); err != nil {
			return fmt.Errorf("wire %q: %w", w.Name, err)
		}
	}
	for _, sh := range sys.sheaves {
		sh.hinge.follow(h, sh.hinge.wrap, sh.hinge.wrap*sh.hinge.radius)
	}
	for _, d := range sys.drums {
		d.hinge.follow(h, d.wrapAngle(), math.Pi*d.Radius)
	}
	if tm != nil {
		lap(&tm.World, start)
	}
	for _, w := range sys.Wires {
		w.known = true
		if w.Winch != nil {
			if err := w.reel(h); err != nil {
				return fmt.Errorf("wire %q: %w", w.Name, err)
			}
		}
		w.slide()
	}
	return nil
}

// lock holds a wire's end particle on a point of a body: three rigid
// rows p − (x + R d) = 0.
type lock struct {
	particle, body *multibody.Body
	local          geom.Vec3 // d in the body's frame (m)
	bodies         [2]*multibody.Body
	force          geom.Vec3 // on the body, N, last step
	// On a wire that twists: the end's twist against the body about the
	// wire (rad), and the rope's torque there in the last step (N·m).
	twist, torque float64
	// impulse (N·s) and its moment about the body's centre (N·m·s) that
	// mass merged into the end gave the body before the step (giveEnd),
	// reported with the step's constraint loads (reportMerges).
	impulse, moment geom.Vec3
}

// reportMerges adds to the body each end of w is fastened to the impulse
// the merges into that end gave it over a step of h seconds, substeps and
// all (giveEnd), as a mean force and torque over the step: the loads of
// the whole wire on the body (a boom tip's) keep its momentum.
func (w *Wire) reportMerges(h float64) {
	for _, n := range [2]*node{w.nodes[0], w.nodes[len(w.nodes)-1]} {
		lk := n.lock
		if lk == nil || lk.impulse == (geom.Vec3{}) && lk.moment == (geom.Vec3{}) {
			continue
		}
		b := lk.body
		b.ConstraintForce = b.ConstraintForce.AddScaled(1/h, lk.impulse)
		b.ConstraintTorque = b.ConstraintTorque.AddScaled(1/h, lk.moment)
		lk.impulse, lk.moment = geom.Vec3{}, geom.Vec3{}
	}
}

// Bodies implements multibody.Constraint.
func (l *lock) Bodies() []*multibody.Body {
	l.bodies = [2]*multibody.Body{l.particle, l.body}
	return l.bodies[:]
}

// Rows implements multibody.Constraint.
func (l *lock) Rows() int { return 3 }

// Update implements multibody.Constraint.
func (l *lock) Update(h float64, rows []multibody.Row) {
	pinRows(h, rows, l.particle.Pos, l.body, l.local)
}

// pinRows sets the three rigid rows p − (x + R d) = 0 that hold the
// centre p of the rows' first body on the point d (body frame) of body,
// their second.
func pinRows(h float64, rows []multibody.Row, p geom.Vec3, body *multibody.Body, d geom.Vec3) {
	r := body.ToWorld(d)
	gap := p.Sub(body.Pos.Add(r))
	g := [3]float64{gap.X, gap.Y, gap.Z}
	for i, e := range [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		rows[i].J[0].Lin = e
		rows[i].J[1].Lin, rows[i].J[1].Ang = e.Scale(-1), r.Cross(e).Scale(-1)
		rows[i].Violation = g[i]
		rows[i].Damping = rigidDamping * h
	}
}

// State implements state.Stater: the force of the last step.
func (l *lock) State(c *state.Codec) {
	c.Vec("lock force", &l.force)
	c.Float("lock twist (rad)", &l.twist)
	c.Float("lock torque (N·m)", &l.torque)
}

// Apply implements multibody.Constraint.
func (l *lock) Apply(h float64, lambda []float64) {
	l.force = geom.V(-lambda[0], -lambda[1], -lambda[2]).Scale(1 / h)
}

// ApplyStep implements multibody.Summed: the force is the step's mean.
func (l *lock) ApplyStep(h float64, lambda []float64) { l.Apply(h, lambda) }
