package massless_test

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// trolleyVelocity is the hoist's velocity input (m/s) for internal step
// k (h = 1/60 s): a trolley move at 1 m/s² for 1 s, 1 m/s for 2 s,
// −1 m/s² for 1 s.
func trolleyVelocity(k int) float64 {
	t := float64(k) / 60
	switch {
	case t < 1:
		return t
	case t < 3:
		return 1
	case t < 4:
		return 4 - t
	}
	return 0
}

// The internal steps keep a fixed grid whatever the master's
// communication steps: a master that cuts 6 s into random steps of 0.1 ms
// to 40 ms, landing on every grid point, reads at each grid point the same
// outputs (to the last bit) as one stepping at 1/60 s, and between grid
// points the straight line between the grid points' outputs. Both send
// the same samples: the velocity changes at the grid points, and the
// random master sets it again, unchanged, at its points between them.
func TestResultsIndependentOfCommunicationSteps(t *testing.T) {
	outputs := []string{"suspension.fx", "suspension.fz", "cable.tension", "load.x", "load.z", "load.vx"}
	const n = 360
	read := func(r *rig) []float64 {
		v := make([]float64, len(outputs))
		for i, name := range outputs {
			v[i] = r.get(name)
		}
		return v
	}
	ref := newRig(t, hoistScenario, false).start(nil)
	grid := make([][]float64, n+1)
	grid[0] = read(ref)
	for k := 0; k < n; k++ {
		ref.set("suspension.vx", trolleyVelocity(k))
		ref.step(1.0 / 60)
		grid[k+1] = read(ref)
	}
	rng := rand.New(rand.NewSource(1))
	r := newRig(t, hoistScenario, false).start(nil)
	onGrid, between := 0, 0
	for r.time < 6-1e-9 {
		last := int(math.Floor(r.time*60 + 1e-6)) // the grid point at or before
		r.set("suspension.vx", trolleyVelocity(last))
		// A communication step ends anywhere up to the next grid point,
		// and on it now and then.
		H := 0.0001 + rng.Float64()*0.04
		if at := float64(last+1) / 60; H > at-r.time || rng.Intn(4) == 0 {
			H = at - r.time
		}
		r.step(H)
		got := read(r)
		pos := r.time * 60
		j := int(math.Round(pos))
		if math.Abs(pos-float64(j)) < 1e-6 {
			onGrid++
			for i, name := range outputs {
				if got[i] != grid[j][i] {
					t.Errorf("t = %.6f s (grid point %d): %s = %.17g, stepping at 1/60 s gives %.17g", r.time, j, name, got[i], grid[j][i])
				}
			}
			continue
		}
		between++
		lo := int(math.Floor(pos))
		a := pos - float64(lo)
		for i, name := range outputs {
			want := grid[lo][i] + (grid[lo+1][i]-grid[lo][i])*a
			if d := math.Abs(got[i] - want); d > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("t = %.6f s: %s = %.12g, want %.12g interpolated between grid points %d and %d", r.time, name, got[i], want, lo, lo+1)
			}
		}
	}
	t.Logf("%d communication points on the grid, %d between grid points", onGrid, between)
	if onGrid < 20 || between < 100 {
		t.Errorf("%d communication points on the grid and %d between: the test did not exercise both", onGrid, between)
	}
}

// A master that samples the trolley's velocity every 0.05 s (3 internal
// steps) and adds communication points between its samples, a short step
// before a long one or after it, reads at the samples the same outputs to
// the last bit as one that does not: the lag holds over the short steps
// (before, a 0.01 s step let it shrink, and the next sample came 0.06
// internal steps early: the tension moved by 6 N).
func TestCommunicationPointsBetweenSamplesChangeNothing(t *testing.T) {
	outputs := []string{"suspension.fx", "cable.tension", "load.x"}
	vx := func(t float64) float64 { return math.Min(math.Max(0.5*(t-1), 0), 1) }
	run := func(cut []float64) [][]float64 {
		r := newRig(t, hoistScenario, false).start(nil)
		var got [][]float64
		for k := 0; k < 120; k++ {
			r.set("suspension.vx", vx(float64(k)*0.05))
			for _, H := range cut {
				r.step(H)
			}
			row := make([]float64, len(outputs))
			for i, name := range outputs {
				row[i] = r.get(name)
			}
			got = append(got, row)
		}
		return got
	}
	want := run([]float64{0.05})
	for _, cut := range [][]float64{{0.01, 0.04}, {0.04, 0.01}, {0.005, 0.04, 0.005}} {
		got := run(cut)
		for k := range want {
			for i, name := range outputs {
				if got[k][i] != want[k][i] {
					t.Errorf("steps %v: at %.2f s %s = %.17g, at 0.05 s steps %.17g", cut, float64(k+1)*0.05, name, got[k][i], want[k][i])
				}
			}
		}
	}
}

// Between grid points no output answers at once to the inputs: a master
// that moves the hoist at a constant 0.5 m/s with consistent position and
// velocity inputs every 1 ms, then sets the position 1 mm off and the
// velocity 1 mm/s off, reads suspension.fz as the interpolation between
// the grid points gives it, unchanged to the bit; the inputs act from the
// next grid step on, along the hoist's smooth path.
func TestInputsActOverTheNextStep(t *testing.T) {
	r := newRig(t, hoistScenario, false).start(nil)
	const v = 0.5
	for k := 0; k < 1000; k++ {
		r.set("suspension.z", 20+v*r.time)
		r.set("suspension.vz", v)
		r.step(0.001)
	}
	// Off the grid now (t = 1.0 s is on it; step once more).
	r.set("suspension.z", 20+v*r.time)
	r.set("suspension.vz", v)
	r.step(0.004)
	base := r.get("suspension.fz")
	r.set("suspension.z", 20+v*r.time+0.001)
	r.set("suspension.vz", v+0.001)
	if off := r.get("suspension.fz"); off != base {
		t.Errorf("hoist 1 mm higher and 1 mm/s faster: suspension.fz changed at once by %.6g N, want no change", off-base)
	}
	r.step(0.05)
	if after := r.get("suspension.fz"); after == base {
		t.Errorf("suspension.fz = %.9g N after the next step too: the inputs did not act", after)
	}
}

// A state taken between grid points restores into a fresh instance and
// continues bitwise identically, interpolation included.
func TestStateBetweenGridPointsRestores(t *testing.T) {
	run := func(r *rig, steps int) []float64 {
		var out []float64
		for k := 0; k < steps; k++ {
			r.set("suspension.vx", 0.3)
			r.step(0.007)
			out = append(out, r.get("load.x"), r.get("suspension.fx"), r.get("cable.tension"))
		}
		return out
	}
	a := newRig(t, hoistScenario, false).start(nil)
	run(a, 50)
	snap, st := a.in.GetState(nil)
	if st != fmu.OK {
		t.Fatalf("GetState: %v", st)
	}
	data, at := snap.Serialize(), a.time
	want := run(a, 50)
	b := newRig(t, hoistScenario, false).start(nil)
	s, err := b.in.Deserialize(data)
	if err != nil {
		t.Fatal(err)
	}
	if st := b.in.SetState(s); st != fmu.OK {
		t.Fatalf("SetState: %v\n%s", st, b.log.dump())
	}
	b.time = at
	got := run(b, 50)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("value %d after restoring: %.17g, the original run %.17g", i, got[i], want[i])
		}
	}
}

// A serialized state whose simulation would stand a whole internal step
// or more ahead of its time, or behind it, is refused as damaged (by its
// checksum, and by the field's check where the checksum was made to
// match), and the instance goes on unchanged.
func TestDamagedGridOffsetRefused(t *testing.T) {
	r := newRig(t, hoistScenario, false).start(nil)
	r.step(0.007)
	snap, st := r.in.GetState(nil)
	if st != fmu.OK {
		t.Fatalf("GetState: %v", st)
	}
	sc, err := fmu.ParseScenario([]byte(hoistScenario))
	if err != nil {
		t.Fatal(err)
	}
	// header (magic, format, length), version, GUID, state, flags, three times, then the offset.
	at := fmu.StateHeaderSize + 4 + len(fmu.Version) + 4 + len(sc.GUID()) + 4 + 3 + 3*8
	before := r.get("load.x")
	// The field is where the offset is: 1/60 − 7 ms, a valid offset, reads.
	if got := math.Float64frombits(binary.LittleEndian.Uint64(snap.Serialize()[at:])); math.Abs(got-(1.0/60-0.007)) > 1e-12 {
		t.Fatalf("offset field reads %g, want 1/60 − 0.007 s", got)
	}
	for _, ahead := range []float64{1.0 / 60, 1, -1e-3, math.NaN()} {
		data := snap.Serialize()
		binary.LittleEndian.PutUint64(data[at:], math.Float64bits(ahead))
		if _, err := r.in.Deserialize(data); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("offset %g, checksum not updated: %v, want a checksum refusal", ahead, err)
		}
		// A state made so, checksum and all: the field itself is refused.
		sum := sha256.Sum256(data[:len(data)-sha256.Size])
		copy(data[len(data)-sha256.Size:], sum[:])
		s, err := r.in.Deserialize(data)
		if err == nil {
			if st := r.in.SetState(s); st == fmu.OK {
				t.Errorf("a state %g s ahead of its time was restored", ahead)
			}
		} else if !strings.Contains(err.Error(), "ahead") && !strings.Contains(err.Error(), "NaN") {
			t.Errorf("offset %g: refused with %q, want the reason", ahead, err)
		}
	}
	if after := r.get("load.x"); after != before {
		t.Errorf("load.x %g after the refused states, %g before", after, before)
	}
}
