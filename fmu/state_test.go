package fmu_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

func instantiate(t *testing.T, example string) *fmu.Instance {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("../examples", example))
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := plugins.Builtin()
	in, err := fmu.Instantiate(fmu.Config{InstanceName: example, GUID: sc.GUID(), ResourceLocation: dir, Logger: &recorder{}, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func vrOf(in *fmu.Instance) map[string]uint32 {
	vr := map[string]uint32{}
	for i, v := range in.Variables() {
		vr[v.Name] = uint32(i)
	}
	return vr
}

// drive steps n communication steps of 0.05 s from t with the trolley
// accelerating and the winch paying out until 1 s, and returns all
// variables after it.
func drive(t *testing.T, in *fmu.Instance, t0 float64, n int) []float64 {
	t.Helper()
	vr := vrOf(in)
	tm := t0
	for k := 0; k < n; k++ {
		x, v := 0.25*tm*tm, 0.5*tm
		winch := 0.2 // paying out until 1 s, where the tests save states
		if tm >= 1 {
			winch = 0
		}
		if st := in.SetReal([]uint32{vr["hoist.x"], vr["hoist.vx"], vr["winch.speed"]}, []float64{x, v, winch}); st != fmu.OK {
			t.Fatalf("SetReal: %v", st)
		}
		if st := in.DoStep(tm, 0.05); st != fmu.OK {
			t.Fatalf("DoStep at %g: %v", tm, st)
		}
		tm += 0.05
	}
	out := make([]float64, len(in.Variables()))
	all := make([]uint32, len(out))
	for i := range all {
		all[i] = uint32(i)
	}
	if st := in.GetReal(all, out); st != fmu.OK {
		t.Fatal(st)
	}
	return out
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// For both examples: a state saved after 1 s, restored after 2 s more,
// continues bitwise like the original; serialized, it restores into a
// fresh instance (still in the instantiated state) just as well. The
// winch pays out until the state is saved and stands after it, so that
// the restored run must take the pay-out rate from the state, not from
// where the instance last was.
func TestStateRestoresBitwise(t *testing.T) {
	for _, ex := range []string{"hoist", "rigid-hoist"} {
		in := instantiate(t, ex)
		initialize(t, in)
		drive(t, in, 0, 20)
		snap, st := in.GetState(nil)
		if st != fmu.OK {
			t.Fatalf("%s: GetState: %v", ex, st)
		}
		first := drive(t, in, 1, 40)
		if st := in.SetState(snap); st != fmu.OK {
			t.Fatalf("%s: SetState: %v", ex, st)
		}
		if again := drive(t, in, 1, 40); !equalBits(first, again) {
			t.Errorf("%s: restored run differs from the original", ex)
		}
		data := snap.Serialize()
		fresh := instantiate(t, ex)
		restored, err := fresh.Deserialize(data)
		if err != nil {
			t.Fatalf("%s: Deserialize: %v", ex, err)
		}
		if st := fresh.SetState(restored); st != fmu.OK {
			t.Fatalf("%s: SetState in a fresh instance: %v", ex, st)
		}
		if other := drive(t, fresh, 1, 40); !equalBits(first, other) {
			t.Errorf("%s: a fresh instance restored from the serialized state differs from the original run", ex)
		}
	}
}

// A state of another FMU, of another engine version, or damaged is refused
// with the reason.
func TestForeignStatesAreRefused(t *testing.T) {
	hoist := instantiate(t, "hoist")
	initialize(t, hoist)
	snap, _ := hoist.GetState(nil)
	data := snap.Serialize()
	rigid := instantiate(t, "rigid-hoist")
	if _, err := rigid.Deserialize(data); err == nil || !strings.Contains(err.Error(), "GUID") {
		t.Errorf("Hoist state into RigidHoist: %v, want a GUID refusal", err)
	}
	if st := rigid.SetState(snap); st != fmu.Error {
		t.Errorf("SetState of a Hoist snapshot into RigidHoist: %v, want Error", st)
	}
	other := bytes.Replace(data, []byte(fmu.Version), []byte("9.9.9"[:len(fmu.Version)]), 1)
	if _, err := hoist.Deserialize(other); err == nil || !strings.Contains(err.Error(), "engine") {
		t.Errorf("state of another engine version: %v, want an engine refusal", err)
	}
	for _, bad := range [][]byte{nil, []byte("nonsense"), data[:len(data)-3], append(append([]byte{}, data...), 0)} {
		if _, err := hoist.Deserialize(bad); err == nil {
			t.Errorf("damaged state of %d bytes accepted", len(bad))
		}
	}
}
