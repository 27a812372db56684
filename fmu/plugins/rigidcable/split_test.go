package rigidcable

import (
	"math"
	"runtime"
	"testing"

	"github.com/cablefmu/cablefmu/core/multibody"
)

// splitRun runs the gantry with a rope of 300 segments (a step split in
// two halves, multibody.World.Parallel) on procs processors, or unsplit:
// the trolley moves for 2 s, the winch then lowers the load 3 m onto the
// ground and pays out 2 m more, which pile up on the ground and on the
// load (contacts on both halves and across the split). It returns every
// value of every step, and how many halves of the steps' passes the
// world's helper ran.
func splitRun(t *testing.T, procs int, parallel bool) (values [][]float64, helped uint64) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	g := newGantryEdited(t, `"segments": 20`, `"segments": 300`)
	g.rope.world.Parallel = multibody.Serial // laid out again at the first step
	if parallel {
		// Every step split, not as measured: the test is of the split.
		g.rope.world.Parallel = multibody.ParallelAlways
	}
	built := g.rope.world.Helped() // the passes of the build's (split) Prime
	each := func() { values = append(values, append([]float64(nil), g.values...)) }
	g.run(2, 0.5, 0, each)
	g.run(10, 0, 0.5, each)
	return values, g.rope.world.Helped() - built
}

// A split step gives the same results to the bit on one processor as on
// two, where the helper takes half of the passes; and the same as the
// unsplit step but for rounding, which the swing keeps within a
// micrometre over its 2 s.
func TestSplitStepSameOnAnyProcessors(t *testing.T) {
	if testing.Short() {
		t.Skip("a 300-segment rope for 12 s, three times: not in -short")
	}
	one, helpedOne := splitRun(t, 1, true)
	two, helpedTwo := splitRun(t, 2, true)
	if helpedOne != 0 || helpedTwo == 0 {
		t.Fatalf("halves the helper ran: %d on one processor (want none), %d on two (want some)", helpedOne, helpedTwo)
	}
	if len(one) != len(two) {
		t.Fatalf("%d steps on one processor, %d on two", len(one), len(two))
	}
	for k := range one {
		for i := range one[k] {
			if math.Float64bits(one[k][i]) != math.Float64bits(two[k][i]) {
				t.Fatalf("step %d, value %d: %v on one processor, %v on two", k, i, one[k][i], two[k][i])
			}
		}
	}
	t.Logf("the helper ran %d halves of passes in %d steps", helpedTwo, len(two))
	whole, helpedWhole := splitRun(t, 2, false)
	if helpedWhole != 0 {
		t.Fatalf("the helper ran %d halves of the unsplit world's passes", helpedWhole)
	}
	swing := 120 // the trolley's 2 s
	worst := 0.0
	for k := range swing {
		for i := range whole[k] {
			worst = max(worst, math.Abs(whole[k][i]-two[k][i])/max(1, math.Abs(whole[k][i])))
		}
	}
	if worst > 1e-6 {
		t.Errorf("split and unsplit steps differ by %.3g (relative, or absolute below 1) during the swing, more than rounding", worst)
	}
	t.Logf("split against unsplit during the swing: %.3g", worst)
}
