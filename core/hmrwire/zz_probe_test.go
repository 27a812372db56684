package hmrwire

import (
	"encoding/binary"
	"math"
	"os"
	"reflect"
	"testing"
	"time"
)

func TestZZProbeGround(t *testing.T) {
	spec := exampleCrane()
	spec.Rope.Flexible = false
	file := "/tmp/wb/ground.state"
	if os.Getenv("ZZTWIST") != "" {
		spec.Twist = true
		spec.Rope.TorsionalStiffness, spec.Rope.TorqueFactor = 20, 0.089
		file = "/tmp/wb/groundtw.state"
	}
	ho := newCrane(t, spec)
	if os.Getenv("ZZSETUP") != "" {
		ho.run(t, 1, nil)
		ho.ramp(t, 1.2, 0.5)
		for ho.LoadBottom().Z > 0.05 {
			ho.run(t, 1.0/60, nil)
		}
		ho.run(t, 1, nil)
		ho.ramp(t, 0, 0.2)
		ho.run(t, 3, nil)
		ho.Drum.Speed = 0
		if err := os.WriteFile(file, zzBytes(ho.Sys.SaveState(nil)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	reps := 1
	if os.Getenv("ZZREPS") != "" {
		reps = 12
	}
	steps := 600
	var t0 time.Time
	for rep := 0; rep < reps; rep++ {
		if _, err := ho.Sys.LoadState(zzFloats(data)); err != nil {
			t.Fatal(err)
		}
		ho.Drum.Speed = 0
		ho.Sys.Timing = &StepTiming{}
		t0 = time.Now()
		for k := 0; k < steps; k++ {
			if err := ho.Step(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("per step %v", time.Since(t0)/time.Duration(steps))
	m, e, c := ho.Wire.Counts()
	tm := ho.Sys.Timing.Solver
	t.Logf("nnz=%d unknowns=%d fac=%d subs=%d analyses=%d reused=%d", tm.Nonzeros, tm.Unknowns, tm.Factorizations, tm.Substitutions, tm.Analyses, zzReused(tm))
	t.Logf("end: mass=%d eye=%d contact=%d hook=%v", m, e, c, ho.LoadBottom())
}

func zzBytes(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

func zzFloats(b []byte) []float64 {
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

func zzReused(tm any) int {
	v := reflect.ValueOf(tm)
	if f := v.FieldByName("Reused"); f.IsValid() {
		return int(f.Int())
	}
	return -1
}
