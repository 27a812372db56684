package multibody

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Summed is implemented by constraints that must know what a whole step
// exerted when the step is taken in substeps (World.Substeps): a contact
// bounds the next step's friction by this step's normal impulse, and one
// substep's impulse, scaled to a step, would carry that substep's force on
// (after an impact in a short substep, many times the step's); a
// constraint whose force is an output reports the step's mean.
type Summed interface {
	Constraint
	// ApplyStep hands back the impulses λ (N·s) of a step of h seconds
	// taken in substeps: for each row, the sum over the substeps the
	// constraint was in (Apply had each substep's). The constraint then
	// stands as after one step of h with those impulses.
	ApplyStep(h float64, lambda []float64)
}

// Substeps takes a step of h seconds in n equal substeps: substep(k, h/n)
// runs for k = 0 … n−1 and takes substep k, calling Step itself (with what
// the caller does around it: a winch's length, contact nodes, a wire's
// resolution). Constraints and bodies may come and go between substeps.
//
// For what the world reports, the substeps are one step: each body's
// ConstraintForce and ConstraintTorque is the mean over the step (the
// impulses of every substep over h: a body in the world for part of the
// step, the share it got), and each Summed constraint in the world at the
// end gets its sums (ApplyStep). With n = 1, substep(0, h) is the step.
func (w *World) Substeps(h float64, n int, substep func(k int, h float64) error) error {
	if n < 1 {
		return fmt.Errorf("%d substeps: must be at least 1", n)
	}
	if n == 1 {
		return substep(0, h)
	}
	if w.substeps == nil {
		w.substeps = &stepSums{bodies: map[*Body]int{}, constraints: map[Constraint]int{}}
	}
	s := w.substeps
	s.clear()
	s.on = true
	defer func() { s.on = false }()
	sub := h / float64(n)
	for k := 0; k < n; k++ {
		if err := substep(k, sub); err != nil {
			return err
		}
	}
	s.on = false
	s.apply(w, h)
	return nil
}

// stepSums holds what the substeps of a step exerted (World.Substeps):
// impulse and moment sums (N·s, N·m·s) per body, impulse sums per row of
// each Summed constraint, both by index into the slices, which keep their
// arrays from step to step.
type stepSums struct {
	on          bool
	bodies      map[*Body]int
	impulses    []bodySums
	constraints map[Constraint]int
	lambdas     [][]float64
}

// bodySums are one body's sums over a step's substeps.
type bodySums struct{ impulse, moment geom.Vec3 }

func (s *stepSums) clear() {
	clear(s.bodies)
	clear(s.constraints)
	s.impulses = s.impulses[:0]
	s.lambdas = s.lambdas[:0]
}

// add adds what the step of h seconds just taken exerted.
func (s *stepSums) add(w *World, h float64) {
	for _, b := range w.bodies {
		i, ok := s.bodies[b]
		if !ok {
			i = len(s.impulses)
			s.bodies[b] = i
			s.impulses = append(s.impulses, bodySums{})
		}
		m := &s.impulses[i]
		m.impulse = m.impulse.AddScaled(h, b.ConstraintForce)
		m.moment = m.moment.AddScaled(h, b.ConstraintTorque)
	}
	groups := w.prob.Groups
	for i, c := range w.constraints {
		if _, ok := c.(Summed); !ok {
			continue
		}
		lambda := w.prob.Lambda[groups[i]:groups[i+1]]
		k, ok := s.constraints[c]
		if !ok {
			k = len(s.lambdas)
			s.constraints[c] = k
			if k < cap(s.lambdas) {
				s.lambdas = s.lambdas[:k+1]
				s.lambdas[k] = append(s.lambdas[k][:0], lambda...)
			} else {
				s.lambdas = append(s.lambdas, append([]float64(nil), lambda...))
			}
			continue
		}
		sum := s.lambdas[k]
		if len(sum) != len(lambda) {
			// A constraint's rows do not change in number while it is
			// in a world (Constraint.Rows).
			panic(fmt.Sprintf("multibody: a summed constraint's rows went from %d to %d within a step", len(sum), len(lambda)))
		}
		for r, l := range lambda {
			sum[r] += l
		}
	}
}

// apply makes the summed substeps one step of h seconds for the bodies
// and the Summed constraints in the world.
func (s *stepSums) apply(w *World, h float64) {
	for _, b := range w.bodies {
		if i, ok := s.bodies[b]; ok {
			m := &s.impulses[i]
			b.ConstraintForce, b.ConstraintTorque = m.impulse.Scale(1/h), m.moment.Scale(1/h)
		}
	}
	for i, c := range w.constraints {
		if k, ok := s.constraints[c]; ok {
			c.(Summed).ApplyStep(h, s.lambdas[k])
			// Rows that end the step off now hold the step's sums, not
			// the zeros that keeping them off takes them to hold
			// (Switched): the next step that keeps them off applies
			// those once more. (A world whose constraints changed since
			// its last substep lays its rows out anew, all on.)
			if !w.dirty && w.off[i] >= rowsSwitched {
				w.off[i] = rowsHeld
			}
		}
	}
}
