package massless_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// A position input's first derivative (canInterpolateInputs) has no
// effect where the master drives the velocity: the hoist moves with the
// velocity inputs, its path taking up where it differs from the positions
// set; with a derivative that matches the velocity, the crane force is
// the same as without it.
func TestPositionDerivativeHasNoEffect(t *testing.T) {
	const v = 0.5
	run := func(withDeriv bool) []float64 {
		r := newRig(t, hoistScenario, false).start(nil)
		var out []float64
		for k := 0; k < 100; k++ {
			r.set("suspension.z", 20+v*r.time)
			r.set("suspension.vz", v)
			if withDeriv {
				if st := r.in.SetRealInputDerivatives([]uint32{r.ref("suspension.z")}, []int32{1}, []float64{v}); st != fmu.OK {
					t.Fatal(st)
				}
			}
			r.step(0.004)
			out = append(out, r.get("suspension.fz"))
		}
		return out
	}
	a, b := run(false), run(true)
	worst := 0.0
	for i := range a {
		worst = math.Max(worst, math.Abs(a[i]-b[i]))
	}
	if worst > 1 {
		t.Errorf("der(suspension.z) = suspension.vz (consistent) changes suspension.fz by up to %.0f N", worst)
	}
}

// The inputs set since the last step are part of the FMU state: a state
// taken after the master set inputs reads the same once restored into
// another instance, and inputs the restoring instance had set do not act
// on the restored ones.
func TestStateKeepsSetInputs(t *testing.T) {
	a := newRig(t, hoistScenario, false).start(nil)
	for k := 0; k < 30; k++ {
		a.set("suspension.vz", 0.5) // velocity only: suspension.z stays at its start value
		a.step(0.007)
	}
	base := a.get("suspension.fz")
	s0, _ := a.in.GetState(nil) // no inputs changed
	data0 := s0.Serialize()

	// (1) a state taken after SetReal+GetReal, restored into a fresh instance.
	a.set("suspension.vz", 0.6)
	withFT := a.get("suspension.fz")
	s1, _ := a.in.GetState(nil)
	b := newRig(t, hoistScenario, false).start(nil)
	s1b, err := b.in.Deserialize(s1.Serialize())
	if err != nil {
		t.Fatal(err)
	}
	if st := b.in.SetState(s1b); st != fmu.OK {
		t.Fatal(st)
	}
	if got := b.get("suspension.fz"); got != withFT {
		t.Errorf("restored into a fresh instance: suspension.fz = %.6f N, the original read %.6f N", got, withFT)
	}

	// (2) an input set before SetState of an unchanged state leaks into it.
	c := newRig(t, hoistScenario, false).start(nil)
	c.set("suspension.z", 20) // marks suspension.z changed (same value as its start)
	s0c, err := c.in.Deserialize(data0)
	if err != nil {
		t.Fatal(err)
	}
	if st := c.in.SetState(s0c); st != fmu.OK {
		t.Fatal(st)
	}
	if got := c.get("suspension.fz"); math.Abs(got-base) > 1e-6*math.Abs(base) {
		t.Errorf("SetState after SetReal: suspension.fz = %.3f N, the state's own reading %.3f N", got, base)
	}
}

func startAt(r *rig, t0 float64) *rig {
	r.t.Helper()
	if st := r.in.SetupExperiment(false, 0, t0, false, 0); st != fmu.OK {
		r.t.Fatal(st)
	}
	r.in.EnterInitializationMode()
	if st := r.in.ExitInitializationMode(); st != fmu.OK {
		r.t.Fatal(st)
	}
	r.time = t0
	return r
}

// A master stepping exactly h from a large start time (epoch seconds),
// where t is known only to within ulp(t), far more than the grid
// tolerance, gets the same outputs as one starting at 0: the grid is kept
// relative to the last grid point, not in absolute time.
func TestLargeStartTime(t *testing.T) {
	outputs := []string{"suspension.fx", "load.x", "cable.tension"}
	run := func(t0 float64) [][]float64 {
		r := startAt(newRig(t, hoistScenario, false), t0)
		var res [][]float64
		for k := 0; k < 240; k++ {
			r.set("suspension.vx", trolleyVelocity(k))
			r.step(1.0 / 60)
			var row []float64
			for _, n := range outputs {
				row = append(row, r.get(n))
			}
			res = append(res, row)
		}
		return res
	}
	for _, t0 := range []float64{1000.25, 1.7e9} {
		a, b := run(0), run(t0)
		bad := 0
		worst := 0.0
		for k := range a {
			for i := range a[k] {
				if a[k][i] != b[k][i] {
					bad++
					worst = math.Max(worst, math.Abs(a[k][i]-b[k][i])/math.Max(1, math.Abs(a[k][i])))
				}
			}
		}
		if bad > 0 {
			t.Errorf("start %g s: %d of %d outputs differ from start 0 (worst relative %.3g)", t0, bad, 3*len(a), worst)
		}
	}
}

// A master that accumulates t += H (H = h = 0.01 s) for 2600 s drifts
// from k·h by more than the grid tolerance; its inputs still act at the
// next internal step, as for a master that passes t = k·h.
func TestAccumulatedMasterTime(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	const h, n = 0.01, 260000
	run := func(accumulate bool) (float64, float64) {
		r := newRig(t, hoistScenario, false).start(map[string]float64{"internalStep": h})
		for k := 0; k < n; k++ {
			v := 0.0
			if k >= n-20 {
				v = 1
			}
			r.set("suspension.vx", v)
			if !accumulate {
				r.time = float64(k) * h
			}
			if st := r.in.DoStep(r.time, h); st != fmu.OK {
				t.Fatal(st)
			}
			r.time += h
		}
		return r.get("load.x"), r.get("suspension.fx")
	}
	x1, f1 := run(false)
	x2, f2 := run(true)
	t.Logf("t = k·h: load.x = %.9g, suspension.fx = %.9g; t += h: load.x = %.9g, suspension.fx = %.9g", x1, f1, x2, f2)
	if math.Abs(x1-x2) > 1e-9 || math.Abs(f1-f2) > 1e-6*math.Abs(f1) {
		t.Errorf("accumulated time changes the response to an input 20 steps ago")
	}
}

// Communication points within and just outside the grid tolerance, tiny
// steps (1e-300, subnormal) and a huge one: outputs stay on the line
// between grid points, the tiny steps advance time without a step, and
// the huge one is refused.
func TestGridToleranceEdges(t *testing.T) {
	const h = 1.0 / 60
	ref := newRig(t, hoistScenario, false).start(nil)
	grid := [][]float64{{ref.get("load.x"), ref.get("suspension.fx")}}
	for k := 0; k < 80; k++ {
		ref.set("suspension.vx", trolleyVelocity(k*10))
		ref.step(h)
		grid = append(grid, []float64{ref.get("load.x"), ref.get("suspension.fx")})
	}
	r := newRig(t, hoistScenario, false).start(nil)
	offs := []float64{-2e-6, -1.01e-6, -0.99e-6, -0.5e-6, 0, 0.5e-6, 0.99e-6, 1.01e-6, 2e-6}
	for k := 1; k < 60; k++ {
		target := (float64(k) + offs[k%len(offs)]) * h
		next := int(math.Ceil(r.time/h - 1e-6))
		r.set("suspension.vx", trolleyVelocity(next*10))
		if target <= r.time {
			continue
		}
		r.step(target - r.time)
		for _, tiny := range []float64{1e-300, 5e-324} {
			if st := r.in.DoStep(r.time, tiny); st != fmu.OK {
				t.Fatalf("tiny step: %v", st)
			}
			r.time += tiny
		}
		pos := r.time / h
		lo := int(math.Floor(pos))
		a := pos - float64(lo)
		got := []float64{r.get("load.x"), r.get("suspension.fx")}
		for i := range got {
			want := grid[lo][i] + (grid[lo+1][i]-grid[lo][i])*a
			if d := math.Abs(got[i] - want); d > 1e-4*math.Max(1, math.Abs(grid[lo+1][i]-grid[lo][i])) {
				t.Errorf("k=%d off %g: output %d = %.12g want %.12g", k, offs[k%len(offs)], i, got[i], want)
			}
		}
	}
	// A step of 1e9 s needs more internal steps than one call may take: it
	// is refused and changes nothing.
	before := r.get("load.x")
	if st := r.in.DoStep(r.time, 1e9); st == fmu.OK {
		t.Errorf("huge step accepted")
	}
	if after := r.get("load.x"); after != before {
		t.Errorf("refused step changed outputs")
	}
}

// A run with communication points between grid points, Reset, and run
// again: the outputs and output derivatives repeat bitwise.
func TestResetBetweenGridPoints(t *testing.T) {
	run := func(r *rig) []float64 {
		var out []float64
		for k := 0; k < 40; k++ {
			r.set("suspension.vx", 0.3)
			r.step(0.007)
			out = append(out, r.get("load.x"), r.get("suspension.fx"))
			var d [1]float64
			r.in.OutputDerivatives("d", []uint32{r.ref("load.x")}, []int32{1}, d[:])
			out = append(out, d[0])
		}
		return out
	}
	a := newRig(t, hoistScenario, false)
	startAt(a, 0.003)
	want := run(a)
	if st := a.in.Reset(); st != fmu.OK {
		t.Fatal(st)
	}
	startAt(a, 0.003)
	got := run(a)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after Reset value %d: %.17g vs %.17g", i, got[i], want[i])
		}
	}
}

// Velocity derivatives (an accelerating trolley) with consistent position
// and velocity inputs: the position is carried over the lead with the mean
// velocity over it, so masters stepping at 4 ms and at 1/60 s agree at
// their common grid points.
func TestLeadCarryWithAcceleration(t *testing.T) {
	const a, h = 1.0, 1.0 / 60
	run := func(H float64) map[int]float64 {
		r := newRig(t, hoistScenario, false).start(nil)
		res := map[int]float64{}
		for r.time < 1-1e-9 {
			tt := r.time
			r.set("suspension.z", 20+a*tt*tt/2)
			r.set("suspension.vz", a*tt)
			r.in.SetRealInputDerivatives([]uint32{r.ref("suspension.vz")}, []int32{1}, []float64{a})
			r.step(H)
			if k := math.Round(r.time / h); math.Abs(r.time/h-k) < 1e-6 {
				res[int(k)] = r.get("suspension.fz")
			}
		}
		return res
	}
	ref, fine := run(h), run(0.004)
	worst := 0.0
	for k, f := range fine {
		worst = math.Max(worst, math.Abs(f-ref[k]))
	}
	t.Logf("%d common grid points; worst |Δ suspension.fz| = %.1f N", len(fine), worst)
	if worst > 10 {
		t.Errorf("suspension.fz at grid points differs by up to %.1f N between 1/60 s and 4 ms communication steps", worst)
	}
}
