package multibody

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Jacobian is one body's block of one constraint row: the row's rate is
// Lin·v + Ang·ω summed over the constraint's bodies.
type Jacobian struct{ Lin, Ang geom.Vec3 }

// Dot returns Lin·a + Ang·b.
func (j Jacobian) Dot(o Jacobian) float64 { return j.Lin.Dot(o.Lin) + j.Ang.Dot(o.Ang) }

// Row is one scalar constraint row as its constraint evaluated it at the
// start of a step.
type Row struct {
	// J holds one block per body of the constraint, in Bodies() order.
	J []Jacobian
	// Violation is a holonomic row's g (m or rad; see Holonomic).
	Violation float64
	// Compliance ε is the inverse stiffness of a holonomic row (m/N or
	// rad/(N·m)); 0 is rigid, +Inf has no stiffness (a perfectly flexible
	// rope's bend): the row then carries no force but the damping the
	// world may give it (stability.TurnDamper).
	Compliance float64
	// Damping γ (s) is SPOOK's constraint relaxation time: for a compliant
	// row, the time constant of the damper in parallel with its spring.
	Damping float64
	// Geometric is stiffness along the row (same unit as 1/Compliance) that
	// forces outside the row add and that the linearly implicit step does
	// not see, such as a tension's resistance to bending a cable. It counts
	// in judging whether the step resolves the row (stability.Unresolved)
	// and sets the row's damping where the step takes the turning of its
	// bodies in (stability.TurnDamping, World.takeTurnStiffness).
	Geometric float64
	// Speed is the prescribed rate w of the row over the step (the
	// constraint is G v − w); SpeedBefore is w over the previous step. For a
	// rheonomic holonomic row w = −∂g/∂t.
	Speed, SpeedBefore float64
	// Slip ξ regularizes a prescribed rate: ξ ρ = −(G v − w) ([SL07] eq. 10).
	Slip float64
	// Lo and Hi bound the row's impulse λ (N·s): a cable that cannot push
	// has Hi = 0. Use math.Inf for unbounded rows.
	Lo, Hi float64
	// Start is where an active set with no solve of the same rows to
	// start from (the rows changed, or the first step) first holds the
	// row: 0 free, −1 at Lo, +1 at Hi. It is a hint the solves correct,
	// saving the solve that would find a row where its constraint knows
	// it to be (a wire slack in the last step at Hi = 0).
	Start int8
	// Holonomic rows carry a violation g (m or rad); the others are
	// velocity constraints G v = w ([SL07] eq. 9). (The flags follow the
	// numbers, with Start: a row takes 104 bytes rather than 112.)
	Holonomic bool
	// Gap says a holonomic row's violation is a gap its constraint closes
	// without force (a slack cable: g < 0 for a row that only pulls): the
	// step holds the row where the gap closes, the spring and its damper
	// (γ, relaxed as SPOOK's where the step does not resolve the row)
	// acting from there, implicitly: g + (h + γ)·G v' = −ε λ/h. SPOOK's
	// stabilization, G v' = Υ(G v − 4g/h), read with the bound, let a gap
	// close by up to 4Υ times itself before the row pulled: a slack
	// segment snapping taut stretched 28 % in a step, and the spring gave
	// back energy that nothing had put in. (Without the damper, a stiff
	// segment that the step does not resolve, switching between the two
	// forms as it went slack and taut, diverged.) The form is implicit
	// from the gap's close, so it takes some of a snatch's impact out: a
	// constraint sets it where its light bodies need it (the HMR wire's
	// segments), not a massless cable's single row under a heavy load,
	// whose snatch SPOOK alone gives within 1 % at 1/60 s.
	Gap bool
	// Releases says the row, bounded, stops bodies that meet it and lets
	// them go again in SPOOK's form (a rope that only pulls, meeting a
	// snap taut): where the step does not resolve the row, its relaxation
	// time is at least stability.ReleaseDamping's, at which the stop gives
	// back no more speed than it took (at stability.Relaxation's it gave
	// back twice that). A row in Gap's form, which closes its gap without
	// overshooting it, needs no such floor: the world leaves it out.
	Releases bool
}

// Reset clears a row to an unbounded rigid holonomic row with zero Jacobian.
func (r *Row) Reset() {
	r.clearJ()
	r.resetFields()
}

// resetRows resets rows (Row.Reset) in one call, Reset's parts inlined:
// World.update, calling Reset row by row, reloaded the state it holds
// across the calls around every one.
func resetRows(rows []Row) {
	for i := range rows {
		rows[i].clearJ()
		rows[i].resetFields()
	}
}

// clearJ zeroes the row's Jacobian, element by element: a loop of whole
// elements becomes a call to clear memory, whose set-up costs more than
// two blocks' stores. Two bodies, the common case, without the loop.
func (r *Row) clearJ() {
	if j := r.J; len(j) == 2 {
		j[0].Lin, j[0].Ang, j[1].Lin, j[1].Ang = geom.Vec3{}, geom.Vec3{}, geom.Vec3{}, geom.Vec3{}
	} else {
		for i := range j {
			j[i].Lin, j[i].Ang = geom.Vec3{}, geom.Vec3{}
		}
	}
}

// resetFields sets every field of the row but J as Reset leaves it. Field
// by field: assigning a whole Row would copy it through a temporary with
// a write barrier, a cost in every row of every step. A field added to
// Row must be reset here.
func (r *Row) resetFields() {
	r.Holonomic, r.Violation, r.Compliance, r.Damping, r.Geometric = true, 0, 0, 0, 0
	r.Speed, r.SpeedBefore, r.Slip = 0, 0, 0
	r.Lo, r.Hi, r.Start, r.Gap, r.Releases = math.Float64frombits(negInfBits), math.Float64frombits(posInfBits), 0, false, false
}

// SetHolonomic sets every field of the row but J as Reset and then the
// given fields would: an unbounded holonomic row of violation g (m or
// rad), compliance, damping and geometric stiffness (see Row), at the
// prescribed rate speed over the step and speedBefore over the last. It
// is for the Update of an Overwriting constraint, which writes J itself.
// Field by field, as resetFields, which it must follow in a field added
// to Row.
func (r *Row) SetHolonomic(g, compliance, damping, geometric, speed, speedBefore float64) {
	r.Holonomic, r.Violation, r.Compliance, r.Damping, r.Geometric = true, g, compliance, damping, geometric
	r.Speed, r.SpeedBefore, r.Slip = speed, speedBefore, 0
	r.Lo, r.Hi, r.Start, r.Gap, r.Releases = math.Float64frombits(negInfBits), math.Float64frombits(posInfBits), 0, false, false
}

// negInfBits and posInfBits are an unbounded row's bounds, −∞ and +∞, as
// bits: math.Inf is above what the inliner lets resetFields call.
const negInfBits, posInfBits = 0xfff0000000000000, 0x7ff0000000000000

// Constraint is anything that restricts the motion of bodies through rows.
// A constraint type is one paper constraint: its Update states the
// paper's violation and Jacobian.
type Constraint interface {
	// Bodies returns the bodies the rows act on; the slice must not change
	// while the constraint is in a world.
	Bodies() []*Body
	// Rows returns the number of scalar rows.
	Rows() int
	// Update evaluates the rows at the current positions and velocities for
	// a step of h seconds. rows are Reset (unless the constraint is
	// Overwriting) and have len(J) = len(Bodies()).
	Update(h float64, rows []Row)
	// Apply hands back the impulses λ (N·s) the solver found for the rows.
	Apply(h float64, lambda []float64)
}

// Overwriting is implemented by constraints whose Update sets every field
// of every row, each block of J whole, whatever the rows held before (as
// Row.SetHolonomic sets all fields but J): the world then hands Update the
// rows as the last Update left them, without resetting them first (a pass
// over every row of the constraint each step).
type Overwriting interface {
	Constraint
	// OverwritesRows reports whether Update sets every field of every
	// row; the world asks once a layout.
	OverwritesRows() bool
}

// Switched is implemented by constraints whose rows are often all off, such
// as a contact far from the ground: zero Jacobians, bounds [0, 0], and
// every other field the same whatever the state, so that they carry no
// impulse and couple nothing. While a constraint stays off, the world keeps
// its rows and their part of the problem from the step that switched it
// off instead of evaluating and assembling them again each step.
type Switched interface {
	Constraint
	// Off reports whether Update would set the rows off for a step of h
	// seconds at the current state; it must not change the constraint.
	// While the rows stay off (Off again at the same h), neither Update nor
	// Apply is called: their impulses stay the zeros that Apply got in the
	// step that switched them off. (A Summed constraint handed a
	// substepped step's sums by ApplyStep gets the zeros once more in the
	// next step that keeps its rows off.)
	Off(h float64) bool
}

// SwitchOff sets rows that Update has Reset to the rows of a Switched
// constraint that is off: velocity rows of unit slip bounded to [0, 0],
// which carry no impulse and couple nothing.
func SwitchOff(rows []Row) {
	for i := range rows {
		rows[i].Holonomic = false
		rows[i].Slip = 1
		rows[i].Lo, rows[i].Hi = 0, 0
	}
}

// Energy is implemented by constraints that store elastic energy (J).
type Energy interface {
	PotentialEnergy() float64
}

// Turning is implemented by constraints whose forces act at points off
// their bodies' centres of mass. When a body turns by δθ, the lever arm r
// of a force F turns with it and the torque r × F changes by −K δθ, K the
// geometric stiffness (for a force along r, K = (F·r)(I − r̂r̂ᵀ): a tension
// pulling a segment's ends straightens it). SPOOK evaluates the Jacobians at
// the start of the step, so it sees that change only explicitly, a step
// late; where the step cannot resolve the turning vibration it drives (a
// light segment under a heavy load), World takes K into the step.
type Turning interface {
	// TurnStiffness reports the constraint's forces of the last step, at
	// the current positions, with Body.AddPull on each body they act on.
	TurnStiffness()
}

// Rebounding is implemented by constraints whose bounds depend on the
// step's own impulses: friction bounded by μ times a normal force that
// the same solve finds. After each solve the world hands the constraint
// its rows' impulses; Rebound writes the bounds they imply into lo and hi
// and reports whether any moved by more than the constraint's tolerance,
// in which case the world solves the step again (World.solve). Bounds set
// in Update from the last step make the first solve a good guess. A
// Switched constraint's Rebound leaves its rows as they are while they are
// off: the world keeps them from step to step (Problem.pinned).
type Rebounding interface {
	Constraint
	Rebound(h float64, lambda, lo, hi []float64) bool
}

// reboundingAt is a Rebounding constraint, its index in the world and its
// rows.
type reboundingAt struct {
	Rebounding
	index, start, end int
}
