package multibody

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// summedRod is a rod that records each substep's impulse and the step's
// sums (Summed).
type summedRod struct {
	rod
	applied []float64 // each Apply's impulse, since the last ApplyStep
	step    float64   // the last ApplyStep's impulse (N·s)
	stepH   float64   // and its step (s); 0 before any
}

func (r *summedRod) Apply(h float64, lambda []float64) {
	r.rod.Apply(h, lambda)
	r.applied = append(r.applied, lambda[0])
}

func (r *summedRod) ApplyStep(h float64, lambda []float64) {
	r.step, r.stepH = lambda[0], h
	r.applied = r.applied[:0]
}

// A pendulum swinging on a rod, each step of 1/60 s taken in 1 to 5
// substeps: what the world reports for the step is the step's, not its
// last substep's. The bob's ConstraintForce balances its momentum over
// the whole step, m Δv = (F + m g) h, within 1e-12 of m g h (it was the
// last substep's force before the world summed them), and the rod gets
// the sum of its substeps' impulses (ApplyStep). A rod that joins the
// world between substeps gets the sum of the substeps it was in; one that
// leaves gets nothing.
func TestSubstepsReportTheWholeStep(t *testing.T) {
	const L, g, h, m = 2.0, 9.81, 1.0 / 60, 3.0
	w := NewWorld(geom.V(0, 0, -g))
	theta := 60 * math.Pi / 180
	b := w.AddBody(NewBody("bob", m, BoxInertia(m, 0.1, 0.1, 0.1), geom.V(L*math.Sin(theta), 0, -L*math.Cos(theta))))
	r := &summedRod{rod: rod{body: b, length: L, hi: math.Inf(1)}}
	w.AddConstraint(r)
	for s := 0; s < 120; s++ {
		n := 1 + s%5
		v0 := b.Vel
		var want float64
		if err := w.Substeps(h, n, func(k int, sub float64) error {
			err := w.Step(sub)
			want += r.lambda
			return err
		}); err != nil {
			t.Fatal(err)
		}
		gap := v0.Add(b.ConstraintForce.AddScaled(m, w.Gravity).Scale(h/m)).Sub(b.Vel).Norm() * m
		if gap > 1e-12*m*g*h {
			t.Fatalf("step %d in %d substeps: momentum off by %.3g N·s", s, n, gap)
		}
		if n > 1 && (r.step != want || r.stepH != h) {
			t.Fatalf("step %d in %d substeps: the rod got %g N·s over %g s, want %g over %g", s, n, r.step, r.stepH, want, h)
		}
	}

	// Joining and leaving between substeps.
	r.applied = r.applied[:0]
	late := &summedRod{rod: rod{body: b, length: L, hi: math.Inf(1)}}
	late.step = -1
	var lateSum float64
	if err := w.Substeps(h, 4, func(k int, sub float64) error {
		switch k {
		case 2:
			w.AddConstraint(late)
		case 3:
			w.Remove(nil, func(c Constraint) bool { return c == r })
		}
		err := w.Step(sub)
		if k >= 2 {
			lateSum += late.lambda
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if late.step != lateSum || late.stepH != h {
		t.Errorf("a rod that joined for the last two of four substeps got %g N·s, want their sum %g", late.step, lateSum)
	}
	if len(r.applied) != 3 {
		t.Errorf("a rod that left before the last substep: %d impulses since its last step, want the 3 it was in and no ApplyStep", len(r.applied))
	}
}

// One substep is the step itself; none is an error.
func TestSubstepsCount(t *testing.T) {
	w := NewWorld(geom.V(0, 0, -9.81))
	b := w.AddBody(NewBody("bob", 1, BoxInertia(1, 0.1, 0.1, 0.1), geom.V(0, 0, -1)))
	r := &summedRod{rod: rod{body: b, length: 1, hi: math.Inf(1)}}
	w.AddConstraint(r)
	if err := w.Substeps(0.01, 1, func(_ int, sub float64) error { return w.Step(sub) }); err != nil {
		t.Fatal(err)
	}
	if r.stepH != 0 || len(r.applied) != 1 {
		t.Errorf("one substep: ApplyStep over %g s, %d impulses; want none and 1", r.stepH, len(r.applied))
	}
	if err := w.Substeps(0.01, 0, func(int, float64) error { t.Fatal("stepped"); return nil }); err == nil {
		t.Error("0 substeps: no error")
	}
}

// switchedRod is a rod switched off and on by the test (Switched), that
// keeps the last impulse the world handed it, by Apply or ApplyStep, and
// what it held when its rows came back on.
type switchedRod struct {
	rod
	off    bool
	last   float64 // N·s
	wasOff bool
	seen   []float64 // last, at each Update that switched the rows on
}

func (r *switchedRod) Off(float64) bool { return r.off }
func (r *switchedRod) Update(h float64, rows []Row) {
	if r.off {
		r.wasOff = true
		SwitchOff(rows)
		return
	}
	if r.wasOff {
		r.seen = append(r.seen, r.last)
		r.wasOff = false
	}
	r.rod.Update(h, rows)
}
func (r *switchedRod) Apply(h float64, lambda []float64)     { r.last = lambda[0] }
func (r *switchedRod) ApplyStep(h float64, lambda []float64) { r.last = lambda[0] }

// A constraint whose rows stay off is not applied again (Switched): it
// holds the zeros of the step that switched it off, as a contact's
// friction bound reads them when it comes back on. Where a step in
// substeps switched it off, it holds the step's sums instead (ApplyStep:
// the rod pulled in the first two substeps), and the next step that
// keeps it off hands it its zeros once more, before it comes back on
// (here in that step's third substep): a contact's friction bound read
// the mean force of a step it had left (4 % of the corner forces of a
// box landing with creep friction, 1/10 s in ten substeps).
func TestSwitchedOffInSubstepsAppliedZerosAgain(t *testing.T) {
	const L, g, h = 2.0, 9.81, 1.0 / 60
	w := NewWorld(geom.V(0, 0, -g))
	b := w.AddBody(NewBody("bob", 3, BoxInertia(3, 0.1, 0.1, 0.1), geom.V(0, 0, -L)))
	r := &switchedRod{rod: rod{body: b, length: L, hi: math.Inf(1)}}
	w.AddConstraint(r)
	for _, on := range [][4]bool{{true, true, false, false}, {false, false, true, true}} {
		if err := w.Substeps(h, 4, func(k int, sub float64) error {
			r.off = !on[k]
			return w.Step(sub)
		}); err != nil {
			t.Fatal(err)
		}
		if r.last == 0 {
			t.Fatal("the rod carried nothing: the test shows nothing")
		}
	}
	if len(r.seen) != 1 || r.seen[0] != 0 {
		t.Fatalf("the rod came back on holding %v N·s, want the zeros of the substeps it was off", r.seen)
	}
}
