package fmu_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
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
	in := instantiate(t, "massless")
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

// A state forged to hold ±Inf, NaN or ±1e300 in its simulation part, its
// checksum recomputed, is refused in every example model: a non-finite
// number or one beyond fmu.StateLimit by the runtime, a position or length
// beyond its bound by the model's LoadState (a number holding the bits of
// a position output or input is forged so, and must be refused). Every
// number is forged to ±1e300 (the non-finite ones on a sample); one a
// model accepted would have to leave every output within
// fmu.OutputLimit and every output derivative within 2·OutputLimit/h (two
// outputs within it over the internal step h). The instance is as it was
// after each refusal.
func TestForgedSimulationStatesRefused(t *testing.T) {
	for _, ex := range []string{"massless", "rigid-cable", "hmr-wire", "wire-hoist", "mass-spring", "spline", "massless-controlled"} {
		t.Run(ex, func(t *testing.T) {
			in := instantiate(t, ex)
			initialize(t, in)
			vr := vrOf(in)
			all := make([]uint32, len(in.Variables()))
			var outputs []uint32
			for i, v := range in.Variables() {
				all[i] = uint32(i)
				if v.Causality == modeldesc.CausalityOutput {
					outputs = append(outputs, uint32(i))
				}
			}
			tm := 0.0
			for k := 0; k < 12; k++ {
				if x, ok := vr["suspension.x"]; ok { // a moving suspension point: nothing at rest
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
			if st := in.Read(all, before); st != fmu.OK {
				t.Fatal(st)
			}
			h := 1.0 / 60
			if r, ok := vr["internalStep"]; ok {
				h = before[r]
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
			stride := max(1, n/100)
			out := make([]float64, len(all))
			rates := make([]float64, len(outputs))
			ones := make([]int32, len(outputs))
			for i := range ones {
				ones[i] = 1
			}
			for k := 0; k < n; k++ {
				xs := []float64{1e300, -1e300}
				if k%stride == 0 {
					xs = append(xs, math.Inf(1), math.Inf(-1), math.NaN())
				}
				for _, x := range xs {
					d := bytes.Clone(data)
					binary.LittleEndian.PutUint64(d[at+8*k:], math.Float64bits(x))
					s, err := in.Deserialize(reseal(d))
					if err != nil {
						continue
					}
					if math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > fmu.StateLimit {
						t.Fatalf("number %d of %d of the simulation's state forged to %g: accepted", k, n, x)
					}
					if st := in.SetState(s); st != fmu.OK {
						continue
					}
					if name, pos := positions[k]; pos {
						t.Fatalf("number %d (%s) forged to %g: restored", k, name, x)
					}
					checkBounded(t, in, all, out, outputs, ones, rates, h, fmt.Sprintf("number %d forged to %g", k, x))
					if st := in.SetState(snap); st != fmu.OK {
						t.Fatalf("the state itself, after number %d forged to %g: %v", k, x, st)
					}
				}
			}
			if st := in.Read(all, out); st != fmu.OK || !equalBits(before, out) {
				t.Errorf("the refusals changed the instance (%v)", st)
			}
			if st := in.DoStep(tm, 0.05); st != fmu.OK {
				t.Errorf("DoStep after the refusals: %v", st)
			}
		})
	}
}

// checkBounded fails the test if a getter gives a value with OK beyond
// fmu.OutputLimit (an output) or an output derivative beyond
// 2·fmu.OutputLimit/h.
func checkBounded(t *testing.T, in *fmu.Instance, all []uint32, out []float64, outputs []uint32, ones []int32, rates []float64, h float64, what string) {
	t.Helper()
	if st := in.Read(all, out); st == fmu.OK {
		for i, y := range out {
			v := in.Variables()[i]
			if math.IsNaN(y) || math.IsInf(y, 0) || (v.Causality == modeldesc.CausalityOutput && math.Abs(y) > fmu.OutputLimit) {
				t.Fatalf("%s: %s = %g with OK", what, v.Name, y)
			}
		}
	}
	if st := in.OutputDerivatives("fmi2GetRealOutputDerivatives", outputs, ones, rates); st == fmu.OK {
		for i, y := range rates {
			if !(math.Abs(y) <= 2*fmu.OutputLimit/h) {
				t.Fatalf("%s: d%s/dt = %g with OK", what, in.Variables()[outputs[i]].Name, y)
			}
		}
	}
}

// overflowing is a model whose output y responds at once to its input u
// and overflows at u = 5, and whose state a gives y = a²/5 between steps:
// what a getter must never hand out with OK.
type overflowing struct{}

func (overflowing) Name() string { return "overflowing" }

func (overflowing) Summary() string { return "a test model that overflows" }

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

// overflowingSim gives y = a²/5, a = √5/(5 − u) after a step: y = 1 at
// u = 4, +Inf at u = 5.
type overflowingSim struct{ a float64 }

func (s *overflowingSim) Step(_ float64, _, to []float64, _ bool) error {
	s.a = math.Sqrt(5) / (5 - to[0])
	return nil
}
func (s *overflowingSim) Outputs(values []float64)          { values[1] = s.a * s.a / 5 }
func (s *overflowingSim) SaveState(dst []float64) []float64 { return append(dst, s.a) }
func (s *overflowingSim) LoadState(src []float64) error {
	if len(src) != 1 {
		return errors.New("want one number")
	}
	s.a = src[0]
	return nil
}

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

// A step whose output is not finite (y = +Inf at u = 5) fails naming the
// output and its value, and the getters go on answering the last finite
// values with OK: no getter hands out a non-finite number.
func TestGettersNeverAnswerNonFiniteWithOK(t *testing.T) {
	in, rec := newOverflowing(t)
	out := []float64{0}
	in.SetReal([]uint32{0}, []float64{4})
	if st := in.DoStep(0.01, 0.01); st != fmu.OK || in.GetReal([]uint32{1}, out) != fmu.OK || math.Abs(out[0]-1) > 1e-12 {
		t.Fatalf("y at u = 4: %g (%v), want 1", out[0], st)
	}
	last := out[0]
	in.SetReal([]uint32{0}, []float64{5})
	if st := in.DoStep(0.02, 0.01); st != fmu.Error {
		t.Errorf("a step to y = +Inf: %v, want Error", st)
	}
	if msg := rec.last(); !strings.Contains(msg, "y = +Inf") {
		t.Errorf("logged %q, want the variable and its value named", msg)
	}
	if st := in.GetReal([]uint32{1}, out); st != fmu.OK || out[0] != last {
		t.Errorf("y after the failed step: %v with %g, want OK with the last finite value %g", st, out[0], last)
	}
}

// A state whose numbers are all finite and within fmu.StateLimit but make
// an output leave fmu.OutputLimit (a = 1e19: y = 2e37) is refused by
// SetState, which computes the outputs as the getters will give them; the
// instance stays as it was.
func TestRestoredOutputsMustBeFinite(t *testing.T) {
	in, rec := newOverflowing(t)
	before := []float64{0}
	in.GetReal([]uint32{1}, before)
	snap, st := in.GetState(nil)
	if st != fmu.OK {
		t.Fatal(st)
	}
	data := snap.Serialize()
	at, n := simPart(t, data)
	if n != 1 {
		t.Fatalf("simulation part of %d numbers, want 1", n)
	}
	binary.LittleEndian.PutUint64(data[at:], math.Float64bits(1e19))
	forged, err := in.Deserialize(reseal(data))
	if err != nil {
		t.Fatalf("a finite forged state is refused by Deserialize already: %v", err)
	}
	if st := in.SetState(forged); st != fmu.Error {
		t.Fatalf("SetState of a state giving y = 2e37: %v, want Error", st)
	}
	if msg := rec.last(); !strings.Contains(msg, "y = 2e+37, beyond") {
		t.Errorf("logged %q, want the output named", msg)
	}
	out := []float64{0}
	if st := in.GetReal([]uint32{1}, out); st != fmu.OK || out[0] != before[0] {
		t.Errorf("after the refusal y = %g (%v), want %g as before", out[0], st, before[0])
	}
	if st := in.DoStep(0.01, 0.01); st != fmu.OK {
		t.Errorf("DoStep after the refusal: %v", st)
	}
}

// offsets returns where a serialized state's flags, times (time, start,
// stop) and its arrays of values, input derivatives, outputs one step
// back and simulation numbers start.
func offsets(data []byte) (flags, times int, arrays [6]int) {
	at := fmu.StateHeaderSize
	skip := func(size int) {
		n := int(binary.LittleEndian.Uint32(data[at:]))
		at += 4 + size*n
	}
	skip(1) // version
	skip(1) // GUID
	at += 4 // state machine value
	flags = at
	times = flags + 3
	at = times + 3*8 + 8
	skip(1) // inputs with derivatives set
	for k := range arrays {
		arrays[k] = at + 4
		skip(8)
	}
	return flags, times, arrays
}

// forged returns a copy of data with the float64 at off set to x, resealed.
func forged(data []byte, off int, x float64) []byte {
	d := bytes.Clone(data)
	binary.LittleEndian.PutUint64(d[off:], math.Float64bits(x))
	return reseal(d)
}

// refuses fails the test unless Deserialize or SetState refuses the
// forged data, and checks that the refusal names what.
func refuses(t *testing.T, in *fmu.Instance, rec *recorder, data []byte, what, named string) {
	t.Helper()
	s, err := in.Deserialize(data)
	if err != nil {
		if !strings.Contains(err.Error(), named) {
			t.Errorf("%s: refused with %q, which does not name %q", what, err, named)
		}
		return
	}
	if st := in.SetState(s); st == fmu.OK {
		t.Errorf("%s: restored", what)
	} else if msg := rec.last(); !strings.Contains(msg, named) {
		t.Errorf("%s: refused with %q, which does not name %q", what, msg, named)
	}
}

// Finite numbers outside what the configuration allows are refused, the
// refusal naming the quantity: a load's mass other than its parameter's,
// a free length beyond the longest cable or below the least fall, a
// negative tension of a cable that only pulls, a winch command or force
// limit outside its range (port.Velocity, port.Force), an output one step
// back beyond fmu.OutputLimit, a parameter or input outside its declared
// range, a time after the stop time or before the start, a stop time
// before the start.
func TestForgedStatesOutsideTheirRanges(t *testing.T) {
	in, rec, vr := newHoist(t)
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, true, 100), in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			t.Fatal(st)
		}
	}
	tm := 0.0
	for k := 0; k < 6; k++ {
		in.SetReal([]uint32{vr["suspension.x"]}, []float64{0.01 * float64(k)})
		if st := in.DoStep(tm, 0.05); st != fmu.OK {
			t.Fatal(st)
		}
		tm += 0.05
	}
	snap, _ := in.GetState(nil)
	data := snap.Serialize()
	_, times, arrays := offsets(data)
	sim, n := simPart(t, data)
	if sim != arrays[3] {
		t.Fatalf("simulation part at %d, offsets say %d", sim, arrays[3])
	}
	num := func(off int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(data[off:])) }
	// The massless hoist's layout: two bodies of 35 numbers (the hoist,
	// then the load, its mass first), the stretch (free length, tension,
	// …), and at the end each cable's winch command and force limit.
	loadMass, freeLength, tension := sim+8*35, sim+8*70, sim+8*71
	command, forceLimit := sim+8*(n-2), sim+8*(n-1)
	if num(loadMass) != 1000 || math.Abs(num(freeLength)-10) > 0.1 || math.Abs(num(tension)-9810) > 200 {
		t.Fatalf("the layout changed: mass %g, free length %g, tension %g", num(loadMass), num(freeLength), num(tension))
	}
	for _, c := range []struct {
		off   int
		x     float64
		named string
	}{
		{loadMass, 1e300, "beyond ±1e+30"}, {loadMass, 1e19, "mass 1e+19 kg"}, {loadMass, 1e-300, "mass 1e-300 kg"}, {loadMass, 2000, "mass 2000 kg"},
		{freeLength, 5e8, "free length 5e+08 m"}, {freeLength, 1e-300, "free length 1e-300 m"},
		{tension, -5, "tension -5 N"}, {tension, 1e13, "cable.tension"},
		{command, 5e8, "winch command 5e+08 m/s"}, {forceLimit, 1e300, "beyond"}, {forceLimit, 1e11, "force limit 1e+11 N"},
		{arrays[2] + 8*int(vr["suspension.fz"]), 1e300, "suspension.fz"}, {arrays[2] + 8*int(vr["suspension.fz"]), 1e13, "suspension.fz"},
		{arrays[0] + 8*int(vr["load.mass"]), 1e9, "load.mass = 1e+09"}, {arrays[0] + 8*int(vr["suspension.x"]), 5e6, "suspension.x = 5e+06"},
		{times, 1e300, "after its stop time"}, {times, -1, "before its start time"},
		{times + 16, -1, "stop time -1 s is before its start time"},
		// The suspension point's path: the clock, the last communication
		// point, the lag and when it was last asked for, the lead's time,
		// value, two derivatives and decay, then per axis the segment's
		// start and span, …, and three flags.
		{arrays[4], 0.5, "clock reads 0.5"}, {arrays[4] + 8, 1e6, "last communication point"},
		{arrays[4] + 16, 0.5, "lag of 0.5"}, {arrays[4] + 24, 1e6, "lag last asked for at 1e+06"},
		{arrays[4] + 24, -1, "lag last asked for at -1"},
		{arrays[4] + 32, 1e6, "lead set at 1e+06"}, {arrays[4] + 64, -1, "decaying at -1"},
		{arrays[4] + 72, 1e6, "path segment from 1e+06"},
		{arrays[4] + 80, -1, "over -1 internal steps"}, {arrays[4] + 72 + 8*14, 0.5, "flag is 0.5"},
		// The values the simulation was built from: a parameter other
		// than the state's, an input outside its range, not finite.
		{arrays[5] + 8*int(vr["load.mass"]), 2000, "built with load.mass = 2000"},
		{arrays[5] + 8*int(vr["suspension.x"]), 5e6, "suspension.x = 5e+06 built"},
		{arrays[5] + 8*int(vr["suspension.y"]), math.NaN(), "suspension.y = NaN built"},
	} {
		refuses(t, in, rec, forged(data, c.off, c.x), fmt.Sprintf("number at %d forged to %g", c.off, c.x), c.named)
	}
	// The hoist's own loads (numbers 17 to 28: forces and torques, external
	// and of the constraints), forged within StateLimit: refused, or every
	// output stays within OutputLimit.
	all := make([]uint32, len(in.Variables()))
	var outputs []uint32
	for i, v := range in.Variables() {
		all[i] = uint32(i)
		if v.Causality == modeldesc.CausalityOutput {
			outputs = append(outputs, uint32(i))
		}
	}
	out, rates, ones := make([]float64, len(all)), make([]float64, len(outputs)), make([]int32, len(outputs))
	for i := range ones {
		ones[i] = 1
	}
	for k := 17; k <= 28; k++ {
		for _, x := range []float64{1e15, -1e19} {
			if s, err := in.Deserialize(forged(data, sim+8*k, x)); err == nil && in.SetState(s) == fmu.OK {
				checkBounded(t, in, all, out, outputs, ones, rates, 1.0/60, fmt.Sprintf("number %d forged to %g", k, x))
			}
		}
	}
	if st := in.SetState(snap); st != fmu.OK {
		t.Fatalf("the state itself: %v", st)
	}
	if st := in.DoStep(tm, 0.05); st != fmu.OK {
		t.Errorf("DoStep after the refusals: %v", st)
	}
}

// The plugin model's simulation part starts with its time and holds the
// plugins' copies of their parameters: a time other than the state's, or
// a parameter other than the instance's (controller.acceleration 0, below
// its declared minimum, which would divide by zero in the next step), is
// refused.
func TestForgedPluginStatesRefused(t *testing.T) {
	in := instantiate(t, "massless-controlled")
	initialize(t, in)
	vr := vrOf(in)
	tm := 0.0
	for k := 0; k < 6; k++ {
		if st := in.DoStep(tm, 0.05); st != fmu.OK {
			t.Fatal(st)
		}
		tm += 0.05
	}
	snap, _ := in.GetState(nil)
	data := snap.Serialize()
	sim, _ := simPart(t, data)
	acc := sim + 8*(1+int(vr["controller.acceleration"]-vr["controller.operations"]))
	if x := math.Float64frombits(binary.LittleEndian.Uint64(data[acc:])); x != 0.4 {
		t.Fatalf("controller.acceleration is %g in the state, want 0.4", x)
	}
	for _, c := range []struct {
		off   int
		x     float64
		named string
	}{
		{acc, 0, "parameter controller.acceleration = 0"}, {acc, 0.5, "parameter controller.acceleration = 0.5"},
		{sim, 1e300, "simulation's time 1e+300 s"}, {sim, -1e300, "simulation's time -1e+300 s"}, {sim, tm + 1, "simulation's time"},
	} {
		d := forged(data, c.off, c.x)
		if _, err := in.Deserialize(d); err == nil {
			s, _ := in.Deserialize(d)
			if st := in.SetState(s); st == fmu.OK {
				t.Errorf("number at %d forged to %g: restored", c.off, c.x)
			}
		} else if !strings.Contains(err.Error(), c.named) {
			t.Errorf("number at %d forged to %g: %v, want %q named", c.off, c.x, err, c.named)
		}
	}
	if st := in.SetState(snap); st != fmu.OK {
		t.Fatalf("the state itself: %v", st)
	}
	if st := in.DoStep(tm, 0.05); st != fmu.OK {
		t.Errorf("DoStep after the refusals: %v", st)
	}
}
