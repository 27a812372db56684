package fmu_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// simPart returns where the simulation's numbers start in a serialized
// state and how many there are: after the header, the version, the GUID,
// the state machine value, three flags, three times, the grid offset, the
// changed inputs and three arrays of variables.
func simPart(t *testing.T, data []byte) (at, n int) {
	t.Helper()
	u32 := func() int {
		x := int(binary.LittleEndian.Uint32(data[at:]))
		at += 4
		return x
	}
	// skip reads a count, then steps over that many items of size bytes:
	// the count is read before at moves on (at += u32() would leave the
	// order of the read of at and the call unspecified).
	skip := func(size int) {
		n := u32()
		at += size * n
	}
	at = fmu.StateHeaderSize
	skip(1)       // version
	skip(1)       // GUID
	at += 4 + 3   // state machine value, flags
	at += 3*8 + 8 // times, grid offset
	skip(1)       // changed inputs
	for k := 0; k < 3; k++ {
		skip(8) // values, derivatives, outputs one step back
	}
	n = u32()
	if at+8*n > len(data)-sha256.Size {
		t.Fatalf("simulation part of %d numbers at %d runs past the state's %d bytes", n, at, len(data))
	}
	return at, n
}

// reseal recomputes a serialized state's checksum, as a forger would.
func reseal(d []byte) []byte {
	sum := sha256.Sum256(d[:len(d)-sha256.Size])
	copy(d[len(d)-sha256.Size:], sum[:])
	return d
}

// The header's format and total length are checked before anything after
// them is read or hashed: a header declaring more bytes than given (or
// fewer) is refused by that length, and SerializedSize reads the length
// from the header alone, so that the C API can check it against the size
// its caller passed before it touches the rest.
func TestSerializedHeaderCheckedFirst(t *testing.T) {
	in := instantiate(t, "hoist")
	initialize(t, in)
	snap, st := in.GetState(nil)
	if st != fmu.OK {
		t.Fatal(st)
	}
	data := snap.Serialize()
	if n, err := fmu.SerializedSize(data[:fmu.StateHeaderSize]); err != nil || n != uint64(len(data)) {
		t.Fatalf("SerializedSize of the header: %d, %v; want %d", n, err, len(data))
	}
	for _, cut := range []int{0, 3, len("cablefmu-state"), fmu.StateHeaderSize - 1} {
		if _, err := fmu.SerializedSize(data[:cut]); err == nil {
			t.Errorf("SerializedSize of %d bytes: no error", cut)
		}
	}
	for _, declared := range []uint64{uint64(len(data)) + 1, 1 << 62, uint64(len(data)) - 1, 0} {
		d := bytes.Clone(data)
		binary.LittleEndian.PutUint64(d[fmu.StateHeaderSize-8:], declared)
		if _, err := in.Deserialize(d); err == nil || strings.Contains(err.Error(), "checksum") {
			t.Errorf("header declaring %d of %d bytes: %v, want a refusal by the length before the checksum", declared, len(data), err)
		}
	}
	other := bytes.Clone(data)
	binary.LittleEndian.PutUint32(other[len("cablefmu-state\x00"):], 99)
	if _, err := fmu.SerializedSize(other); err == nil || !strings.Contains(err.Error(), "format 99") {
		t.Errorf("format 99: %v, want a refusal naming the format", err)
	}
	if _, err := in.Deserialize(data); err != nil {
		t.Errorf("the state itself: %v", err)
	}
}

// A state forged to hold ±Inf, NaN or 1e300 in its simulation part, its
// checksum recomputed, is refused in every example model: a non-finite
// number by the runtime, a position or length beyond its bound by the
// model's LoadState (a number holding the bits of a position output or
// input is forged so, and must be refused); any other forged number the
// model accepts must leave every getter finite. The instance is as it was
// after each refusal.
func TestForgedSimulationStatesRefused(t *testing.T) {
	for _, ex := range []string{"hoist", "rigid-hoist", "wire-beam", "wire-hoist", "mass-spring-hoist", "spline-hoist", "hoist-controlled"} {
		t.Run(ex, func(t *testing.T) {
			in := instantiate(t, ex)
			initialize(t, in)
			vr := vrOf(in)
			all := make([]uint32, len(in.Variables()))
			for i := range all {
				all[i] = uint32(i)
			}
			tm := 0.0
			for k := 0; k < 12; k++ {
				if x, ok := vr["hoist.x"]; ok { // a moving suspension point: nothing at rest
					in.SetReal([]uint32{x}, []float64{0.01 * float64(k)})
				}
				if st := in.DoStep(tm, 0.05); st != fmu.OK {
					t.Fatalf("DoStep at %g s: %v", tm, st)
				}
				tm += 0.05
			}
			snap, st := in.GetState(nil)
			if st != fmu.OK {
				t.Fatal(st)
			}
			data := snap.Serialize()
			at, n := simPart(t, data)
			before := make([]float64, len(all))
			if st := in.GetReal(all, before); st != fmu.OK {
				t.Fatal(st)
			}
			// Slots holding a position exactly: forged to 1e300, refused.
			positions := map[int]string{}
			for name, r := range vr {
				if !strings.HasSuffix(name, ".z") || before[r] == 0 {
					continue
				}
				img := binary.LittleEndian.AppendUint64(nil, math.Float64bits(before[r]))
				for k := 0; k < n; k++ {
					if bytes.Equal(data[at+8*k:at+8*k+8], img) {
						positions[k] = name
					}
				}
			}
			if len(positions) == 0 {
				t.Errorf("no position output or input found in the simulation's state")
			}
			stride := max(1, n/300)
			out := make([]float64, len(all))
			for k := 0; k < n; k++ {
				if _, pos := positions[k]; !pos && k%stride != 0 {
					continue
				}
				for _, x := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300} {
					d := bytes.Clone(data)
					binary.LittleEndian.PutUint64(d[at+8*k:], math.Float64bits(x))
					s, err := in.Deserialize(reseal(d))
					if err != nil {
						continue
					}
					if math.IsInf(x, 0) || math.IsNaN(x) {
						t.Fatalf("number %d of %d of the simulation's state forged to %g: accepted", k, n, x)
					}
					if st := in.SetState(s); st != fmu.OK {
						continue
					}
					if name, pos := positions[k]; pos {
						t.Fatalf("number %d (%s) forged to %g: restored", k, name, x)
					}
					if st := in.GetReal(all, out); st == fmu.OK {
						for i, y := range out {
							if math.IsNaN(y) || math.IsInf(y, 0) {
								t.Fatalf("number %d forged to %g: %s = %g with OK", k, x, in.Variables()[i].Name, y)
							}
						}
					}
					if st := in.SetState(snap); st != fmu.OK {
						t.Fatalf("the state itself, after number %d forged to %g: %v", k, x, st)
					}
				}
			}
			if st := in.GetReal(all, out); st != fmu.OK || !equalBits(before, out) {
				t.Errorf("the refusals changed the instance (%v)", st)
			}
			if st := in.DoStep(tm, 0.05); st != fmu.OK {
				t.Errorf("DoStep after the refusals: %v", st)
			}
		})
	}
}

// overflowing is a model whose output y responds at once to its input u
// and overflows at u = 5, and whose state a gives y = a²/5 between steps:
// what a getter must never hand out with OK.
type overflowing struct{}

func (overflowing) Name() string { return "overflowing" }

func (overflowing) Configure(*fmu.Scenario) (fmu.Configured, error) { return overflowingConf{}, nil }

type overflowingConf struct{}

func (overflowingConf) Variables() []fmu.Variable {
	lo, hi := -10.0, 10.0
	return []fmu.Variable{
		{Name: "u", Unit: "m", Causality: modeldesc.CausalityInput, Variability: modeldesc.VariabilityContinuous, Min: &lo, Max: &hi},
		{Name: "y", Unit: "N", Causality: modeldesc.CausalityOutput, Variability: modeldesc.VariabilityContinuous},
	}
}

func (overflowingConf) NewSimulation([]float64) (fmu.Simulation, error) {
	return &overflowingSim{a: 1}, nil
}
func (overflowingConf) InternalStep([]float64) float64 { return 0.01 }
func (overflowingConf) Direct() map[int][]int          { return map[int][]int{1: {0}} }

type overflowingSim struct{ a float64 }

func (*overflowingSim) Step(float64, float64, []float64, []float64, bool) error { return nil }
func (s *overflowingSim) Outputs(values []float64)                              { values[1] = s.a * s.a / 5 }
func (s *overflowingSim) SaveState(dst []float64) []float64                     { return append(dst, s.a) }
func (s *overflowingSim) LoadState(src []float64) error {
	if len(src) != 1 {
		return errors.New("want one number")
	}
	s.a = src[0]
	return nil
}
func (*overflowingSim) Feedthrough(values []float64, changed []bool, _, _ float64) {
	if changed[0] {
		values[1] = 1 / (5 - values[0])
	}
}
func (*overflowingSim) Partial([]float64, []bool, float64, float64, int, int) float64 { return 0 }

func newOverflowing(t *testing.T) (*fmu.Instance, *recorder) {
	t.Helper()
	scenario := `{"model": "overflowing", "modelIdentifier": "Overflowing", "stopTime": 1, "step": 0.01, "ports": ["u", "y"]}`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := fmu.ParseScenario([]byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := fmu.NewRegistry(overflowing{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "overflowing", GUID: sc.GUID(), ResourceLocation: dir, Logger: rec, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	initialize(t, in)
	if st := in.DoStep(0, 0.01); st != fmu.OK {
		t.Fatal(st)
	}
	return in, rec
}

// GetReal (and GetFloat64, which reads through it) refuses with Error a
// variable whose value is not finite, naming it, rather than hand it out
// with OK.
func TestGettersNeverAnswerNonFiniteWithOK(t *testing.T) {
	in, rec := newOverflowing(t)
	out := []float64{0}
	if st := in.SetReal([]uint32{0}, []float64{4}); st != fmu.OK || in.GetReal([]uint32{1}, out) != fmu.OK || out[0] != 1 {
		t.Fatalf("y at u = 4: %g, want 1", out[0])
	}
	in.SetReal([]uint32{0}, []float64{5})
	out[0] = -1
	if st := in.GetReal([]uint32{1}, out); st != fmu.Error {
		t.Errorf("y at u = 5: %v with %g, want Error", st, out[0])
	}
	if out[0] != -1 {
		t.Errorf("the refused call wrote %g into the caller's array", out[0])
	}
	if msg := rec.last(); !strings.Contains(msg, "y = +Inf") {
		t.Errorf("logged %q, want the variable and its value named", msg)
	}
	in.SetReal([]uint32{0}, []float64{4})
	if st := in.GetReal([]uint32{1}, out); st != fmu.OK || out[0] != 1 {
		t.Errorf("y at u = 4 again: %v, %g", st, out[0])
	}
}

// A state whose numbers are all finite but make an output overflow (a = 1e300:
// y = 2e599) is refused by SetState, which computes the outputs as the
// getters will give them; the instance stays as it was.
func TestRestoredOutputsMustBeFinite(t *testing.T) {
	in, rec := newOverflowing(t)
	snap, st := in.GetState(nil)
	if st != fmu.OK {
		t.Fatal(st)
	}
	data := snap.Serialize()
	at, n := simPart(t, data)
	if n != 1 {
		t.Fatalf("simulation part of %d numbers, want 1", n)
	}
	binary.LittleEndian.PutUint64(data[at:], math.Float64bits(1e300))
	forged, err := in.Deserialize(reseal(data))
	if err != nil {
		t.Fatalf("a finite forged state is refused by Deserialize already: %v", err)
	}
	if st := in.SetState(forged); st != fmu.Error {
		t.Fatalf("SetState of a state giving y = +Inf: %v, want Error", st)
	}
	if msg := rec.last(); !strings.Contains(msg, "y = +Inf") {
		t.Errorf("logged %q, want the output named", msg)
	}
	out := []float64{0}
	if st := in.GetReal([]uint32{1}, out); st != fmu.OK || out[0] != 0.2 {
		t.Errorf("after the refusal y = %g (%v), want 0.2 as before", out[0], st)
	}
	if st := in.DoStep(0.01, 0.01); st != fmu.OK {
		t.Errorf("DoStep after the refusal: %v", st)
	}
}
