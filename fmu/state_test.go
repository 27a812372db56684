package fmu_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math"
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
		if st := in.SetReal([]uint32{vr["suspension.x"], vr["suspension.vx"], vr["winch.speed"]}, []float64{x, v, winch}); st != fmu.OK {
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
	if st := in.Read(all, out); st != fmu.OK {
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
// where the instance last was. So does an instance initialized with the
// point elsewhere.
func TestStateRestoresBitwise(t *testing.T) {
	for _, ex := range []string{"massless", "rigid-cable", "wire-hoist"} {
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
		// An instance initialized with the point elsewhere, and stepped:
		// its simulation, built from other inputs, is rebuilt.
		moved := instantiate(t, ex)
		x := vrOf(moved)["suspension.x"]
		if st := moved.SetReal([]uint32{x}, []float64{moved.Variables()[x].Start + 0.3}); st != fmu.OK {
			t.Fatal(st)
		}
		initialize(t, moved)
		if st := moved.DoStep(0, 0.05); st != fmu.OK {
			t.Fatal(st)
		}
		if st := moved.SetState(restored); st != fmu.OK {
			t.Fatalf("%s: SetState in an instance initialized elsewhere: %v", ex, st)
		}
		if other := drive(t, moved, 1, 40); !equalBits(first, other) {
			t.Errorf("%s: an instance initialized elsewhere, restored, differs from the original run", ex)
		}
	}
}

// A state of another FMU, of another engine version, or damaged is refused
// with the reason.
func TestForeignStatesAreRefused(t *testing.T) {
	hoist := instantiate(t, "massless")
	initialize(t, hoist)
	snap, _ := hoist.GetState(nil)
	data := snap.Serialize()
	rigid := instantiate(t, "rigid-cable")
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

// A serialized state damaged anywhere is refused by its checksum (a cut
// one by the length its header declares), and one whose checksum was
// made to match is refused by the check of its fields:
// a variable out of its range or not finite, a state machine value the FMU
// does not have. The instance stays usable after every refusal.
func TestDamagedStatesRefused(t *testing.T) {
	for _, ex := range []string{"massless", "rigid-cable"} {
		in := instantiate(t, ex)
		initialize(t, in)
		vr := vrOf(in)
		drive(t, in, 0, 20)
		snap, st := in.GetState(nil)
		if st != fmu.OK {
			t.Fatal(st)
		}
		data := snap.Serialize()
		reseal := func(d []byte) []byte {
			sum := sha256.Sum256(d[:len(d)-sha256.Size])
			return append(d[:len(d)-sha256.Size:len(d)-sha256.Size], sum[:]...)
		}
		// where a variable's value sits: after the header, values first
		at := func(name string) int {
			v := []float64{0}
			in.GetReal([]uint32{vr[name]}, v)
			img := binary.LittleEndian.AppendUint64(nil, math.Float64bits(v[0]))
			i := bytes.Index(data, img)
			if i < 0 {
				t.Fatalf("%s: %s not found in the state", ex, name)
			}
			return i
		}
		set := func(d []byte, name string, x float64) []byte {
			d = append([]byte(nil), d...)
			binary.LittleEndian.PutUint64(d[at(name):], math.Float64bits(x))
			return d
		}
		flipped := append([]byte(nil), data...)
		flipped[at("load.mass")] ^= 1 // 1000 → 1000.0000000000001
		cases := map[string]struct {
			data []byte
			want string
		}{
			"flipped bit":                   {flipped, "checksum"},
			"cut":                           {data[:len(data)-1], "declares"},
			"gravity sign, resealed":        {reseal(set(data, "gravity", -9.81)), "gravity"},
			"suspension.x = +Inf, resealed": {reseal(set(data, "suspension.x", math.Inf(1))), "suspension.x"},
			"load.mass 1e300, resealed":     {reseal(set(data, "load.mass", 1e300)), "outside"},
		}
		// the state machine value follows magic, format, version and GUID
		state := append([]byte(nil), data...)
		pos := fmu.StateHeaderSize + 4 + len(fmu.Version)
		pos += 4 + int(binary.LittleEndian.Uint32(state[pos:]))
		binary.LittleEndian.PutUint32(state[pos:], 3)
		cases["state machine value, resealed"] = struct {
			data []byte
			want string
		}{reseal(state), "state machine value"}
		before := drive(t, in, 1, 0)
		for name, c := range cases {
			if _, err := in.Deserialize(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, %s: %v, want a refusal naming %q", ex, name, err, c.want)
			}
		}
		if after := drive(t, in, 1, 0); !equalBits(before, after) {
			t.Errorf("%s: the refusals changed the instance", ex)
		}
		drive(t, in, 1, 5) // and it steps on
	}
}

// TestOwnStatesAlwaysRestore: a state the FMU gave must load again in any
// state machine state — after a Reset from between grid points (a stale
// grid offset made it look damaged) and after a failed initialization with
// changed parameters (the saved simulation did not match them). Both were
// found by the C-API fuzzer (scripts/reliability/fuzz.py).
func TestOwnStatesAlwaysRestore(t *testing.T) {
	for _, example := range []string{"massless", "rigid-cable"} {
		t.Run(example, func(t *testing.T) {
			in := instantiate(t, example)
			vr := vrOf(in)
			in.SetupExperiment(false, 0, 0, false, 0)
			in.EnterInitializationMode()
			if st := in.ExitInitializationMode(); st != fmu.OK {
				t.Fatal(st)
			}
			if st := in.DoStep(0, 0.01); st != fmu.OK { // off the grid of 1/60 s
				t.Fatal(st)
			}
			in.Reset()
			h := 1.0 / 200 // smaller than the offset the last step left, 1/60 − 0.01 s
			if st := in.SetReal([]uint32{vr["internalStep"]}, []float64{h}); st != fmu.OK {
				t.Fatal(st)
			}
			s, st := in.GetState(nil)
			if st != fmu.OK {
				t.Fatal(st)
			}
			if st := in.SetState(s); st != fmu.OK {
				t.Fatalf("state taken after Reset refused: %v", st)
			}

			if example != "rigid-cable" {
				return // the massless cable takes a 1 mm cable
			}
			// Initialization fails for parameters changed after a build.
			in.SetupExperiment(false, 0, 0, false, 0)
			in.EnterInitializationMode()
			out := make([]float64, 1)
			if st := in.GetReal([]uint32{vr["cable.tension"]}, out); st != fmu.OK { // builds
				t.Fatal(st)
			}
			if st := in.SetReal([]uint32{vr["cable.length0"]}, []float64{0.001}); st != fmu.OK {
				t.Fatal(st)
			}
			if st := in.ExitInitializationMode(); st != fmu.Error {
				t.Fatalf("initialization with a 1 mm cable: %v, want Error", st)
			}
			s, st = in.GetState(nil)
			if st != fmu.OK {
				t.Fatal(st)
			}
			if st := in.SetState(s); st != fmu.OK {
				t.Fatalf("state taken in the error state refused: %v", st)
			}
			if st := in.Reset(); st != fmu.OK {
				t.Fatal(st)
			}
		})
	}
}
