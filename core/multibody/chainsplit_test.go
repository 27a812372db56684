package multibody

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// A chain of a world that splits its steps (Parallel) is factored and
// solved from its two ends on two goroutines, to the bit as from both ends
// in turn on one: cable joints' blocks, blocks whose rows 3–5 are not
// angular at the middle, a first block of four rows, a last of five (the
// chain then factored from the top alone). Of two blocks that are not
// positive definite it names the one the solve in turn meets first.
func TestChainSplitSameAsInTurn(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	const n = ParallelBodies + 50
	for _, c := range []struct {
		name         string
		linear       []int
		first, final int
		negative     []int
		err          string
	}{
		{name: "cable"},
		{name: "linear tails", linear: []int{n/2 - 1, n / 2, n/2 + 1}},
		{name: "sheave first", first: 4},
		{name: "swivel last", final: 5},
		{name: "fails below", negative: []int{40, n - 30}, err: "chain block 220 "},
		{name: "fails above", negative: []int{20, n - 30}, err: "chain block 20 "},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := NewWorld(geom.V(0, 0, -9.81))
			w.Parallel = ParallelAlways
			var bodies []*Body
			for i := range n + 1 {
				bodies = append(bodies, w.AddBody(NewBody("b", 1+float64(i%3), geom.V(0.1, 0.2, 0.3), geom.V(float64(i), 0, 0))))
			}
			for i := range n {
				l := &jointLink{a: bodies[i], b: bodies[i+1], seed: int64(10 + i), linear: slices.Contains(c.linear, i), negative: slices.Contains(c.negative, i)}
				switch i {
				case 0:
					l.rows = c.first
				case n - 1:
					l.rows = c.final
				}
				w.AddConstraint(l)
			}
			p, err := w.Assemble(1.0 / 60)
			if err != nil {
				t.Fatal(err)
			}
			if p.helper == nil {
				t.Fatal("the world's problem has no helper")
			}
			helper := p.helper
			p.helper = nil
			inTurn := &Chain{}
			inTurnErr := inTurn.Solve(p)
			want := slices.Clone(p.Lambda)
			// Solved split until the helper has run a half of it (with
			// ParallelAlways, the first), every solve the same as in
			// turn.
			p.helper = helper
			split := &Chain{}
			for solves := 1; ; solves++ {
				before := w.Helped()
				splitErr := split.Solve(p)
				switch {
				case c.err != "":
					if splitErr == nil || inTurnErr == nil || splitErr.Error() != inTurnErr.Error() {
						t.Fatalf("errors: split %v, in turn %v", splitErr, inTurnErr)
					}
					if msg := splitErr.Error(); len(msg) < len(c.err) || msg[:len(c.err)] != c.err {
						t.Fatalf("error %q, want it to begin %q", msg, c.err)
					}
				case splitErr != nil || inTurnErr != nil:
					t.Fatalf("errors: split %v, in turn %v", splitErr, inTurnErr)
				default:
					for i := range want {
						if math.Float64bits(want[i]) != math.Float64bits(p.Lambda[i]) {
							t.Fatalf("solve %d, row %d: λ = %v split, %v in turn", solves, i, p.Lambda[i], want[i])
						}
					}
				}
				if w.Helped() > before {
					break
				}
				if solves == 1000 {
					t.Fatal("the helper ran no half of 1000 solves")
				}
			}
		})
	}
}

// A constraint on a body that is not in the world, of any kind, is refused
// at the step with the body's name.
func TestConstraintOnBodyNotInWorldRefused(t *testing.T) {
	for _, outside := range []*Body{NewStatic("anchor", geom.Vec3{}), NewKinematic("hook", geom.Vec3{}), NewBody("stray", 1, geom.V(0.1, 0.1, 0.1), geom.Vec3{})} {
		w := NewWorld(geom.V(0, 0, -9.81))
		b := w.AddBody(NewBody("b", 1, geom.V(0.1, 0.2, 0.3), geom.V(1, 0, 0)))
		w.AddConstraint(&jointLink{a: outside, b: b, seed: 1})
		err := w.Step(1.0 / 60)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q that is not in the world", outside.Name)) {
			t.Errorf("%s: step error %v, want the body named as not in the world", outside.Name, err)
		}
	}
}
