package fmu

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Snapshot is a saved FMU state: everything an instance needs to continue
// from that point, bitwise identically to the run it was taken from.
type Snapshot struct {
	guid          string
	state         State
	time          float64
	start, stop   float64
	hasEnd, dirty bool
	values, deriv []float64
	ahead         float64   // s, the simulation's time less the communication point's
	prev          []float64 // outputs one internal step before the simulation's time
	derivSet      []bool    // inputs whose derivatives were set since the last step
	sim           []float64 // nil when no simulation was built yet
	built         []float64 // the values the simulation was built from (nil with sim)
	paths         []float64 // the driven points' paths (Instance.savePaths)
	extra         []byte    // the simulation's ExtraState
}

// GetState saves the instance's state into s (reusing its memory) or, if
// s is nil, into a new snapshot.
func (in *Instance) GetState(s *Snapshot) (*Snapshot, Status) {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2GetFMUstate", "")
	}
	if !in.allowed("fmi2GetFMUstate", Instantiated|InitializationMode|StepComplete|Terminated|Failed) {
		return nil, Error
	}
	if s == nil {
		s = &Snapshot{}
	}
	s.guid, s.state, s.time, s.start, s.stop, s.hasEnd, s.dirty = in.scenario.GUID(), in.state, in.time, in.start, in.stop, in.hasEnd, in.dirty
	s.values = append(s.values[:0], in.values...)
	s.deriv = append(s.deriv[:0], in.deriv...)
	s.ahead, s.prev = in.ahead, append(s.prev[:0], in.prev...)
	s.derivSet = append(s.derivSet[:0], in.derivSet...)
	s.paths = in.savePaths(s.paths[:0])
	s.sim, s.extra, s.built = s.sim[:0], s.extra[:0], append(s.built[:0], in.built...)
	// Only a simulation the instance will go on with is saved: after
	// parameters changed (dirty) it is rebuilt from the values before it is
	// used, and in the error state it is never used again (and may hold
	// the non-finite numbers that failed it). Saving it would give a state
	// whose simulation does not match its parameters.
	if in.sim == nil || in.dirty || in.state == Failed {
		s.sim, s.extra, s.built = nil, nil, nil
	} else {
		s.sim = in.sim.SaveState(s.sim)
		if xs, ok := in.sim.(ExtraState); ok {
			var err error
			if s.extra, err = xs.SaveExtra(s.extra); err != nil {
				return nil, in.fail("fmi2GetFMUstate: %v", err)
			}
		}
	}
	return s, OK
}

// SetState restores a snapshot of this FMU, taken from this or another
// instance of it. A refused state leaves the instance as it was.
func (in *Instance) SetState(s *Snapshot) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall("fmi2SetFMUstate", "")
	}
	if !in.allowed("fmi2SetFMUstate", Instantiated|InitializationMode|StepComplete|Terminated|Failed) {
		return Error
	}
	if err := in.compatible(s); err != nil {
		return in.fail("fmi2SetFMUstate: %v", err)
	}
	old, built := in.sim, in.built
	var sim Simulation
	var backup []float64
	var backupExtra []byte
	if s.sim != nil {
		// Reuse the simulation when it was built from the same values
		// (its own state saved, to go back to if the snapshot's does not
		// load); otherwise build one from the values the snapshot's was
		// built from, then load its state.
		sim = in.sim
		if sim == nil || in.dirty || !slices.Equal(in.built, s.built) {
			var err error
			if sim, err = in.model.NewSimulation(slices.Clone(s.built)); err != nil {
				return in.fail("fmi2SetFMUstate: rebuilding the simulation: %v", err)
			}
			built = s.built
		} else {
			in.backup = sim.SaveState(in.backup[:0])
			backup = in.backup
			if xs, ok := sim.(ExtraState); ok {
				var err error
				if backupExtra, err = xs.SaveExtra(nil); err != nil {
					return in.fail("fmi2SetFMUstate: %v", err)
				}
			}
		}
		err := sim.LoadState(s.sim)
		if xs, ok := sim.(ExtraState); ok && err == nil {
			err = xs.LoadExtra(s.extra)
		}
		if err != nil {
			in.putBack(old, backup, backupExtra)
			return in.fail("fmi2SetFMUstate: %v", err)
		}
	}
	if sim == nil {
		built = nil
	}
	prev := in.keep()
	oldBuilt := in.built
	in.sim, in.built = sim, slices.Clone(built)
	in.state, in.time, in.start, in.stop, in.hasEnd, in.dirty = s.state, s.time, s.start, s.stop, s.hasEnd, s.dirty
	copy(in.values, s.values)
	copy(in.deriv, s.deriv)
	in.ahead = s.ahead
	copy(in.prev, s.prev)
	copy(in.derivSet, s.derivSet)
	in.loadPaths(s.paths)
	if in.sim != nil {
		// The outputs are computed here, as the getters will give them: a
		// state whose numbers are finite and in their bounds may still
		// make them overflow (a forged one), and no getter may answer a
		// non-finite number with OK.
		in.sim.Outputs(in.cur)
		in.outputsAt(in.model.InternalStep(in.values))
		// A peak output is the last communication step's, as saved, and
		// never below the output at the point (as the step left it; a
		// forged state's may be).
		for _, i := range in.peaks {
			in.values[i], in.rates[i] = max(s.values[i], in.values[i]), 0
		}
		if err := in.checkRestored(); err != nil {
			in.unkeep(prev)
			in.built = oldBuilt
			in.putBack(old, backup, backupExtra)
			return in.fail("fmi2SetFMUstate: %v: damaged", err)
		}
	}
	return OK
}

// putBack makes old the instance's simulation again after a refused
// state: its own state, saved before the refused one was loaded into it,
// is loaded back (backup nil: it was not touched, the state went into a
// simulation built for it).
func (in *Instance) putBack(old Simulation, backup []float64, extra []byte) {
	in.sim = old
	if backup != nil && !in.restore(old, backup, extra) {
		in.sim, in.state = nil, Failed // the simulation is lost
	}
}

// restore loads a simulation's own saved state back, reporting success.
func (in *Instance) restore(sim Simulation, state []float64, extra []byte) bool {
	if sim.LoadState(state) != nil {
		return false
	}
	if xs, ok := sim.(ExtraState); ok {
		return xs.LoadExtra(extra) == nil
	}
	return true
}

// kept is what SetState overwrites besides the simulation, to put back
// when a restored state is refused.
type kept struct {
	state               State
	time, start, stop   float64
	hasEnd, dirty       bool
	ahead               float64
	values, deriv, prev []float64
	cur, rates          []float64
	derivSet            []bool
	paths               []float64
}

func (in *Instance) keep() kept {
	return kept{in.state, in.time, in.start, in.stop, in.hasEnd, in.dirty, in.ahead,
		slices.Clone(in.values), slices.Clone(in.deriv), slices.Clone(in.prev),
		slices.Clone(in.cur), slices.Clone(in.rates), slices.Clone(in.derivSet), in.savePaths(nil)}
}

func (in *Instance) unkeep(k kept) {
	in.state, in.time, in.start, in.stop, in.hasEnd, in.dirty, in.ahead = k.state, k.time, k.start, k.stop, k.hasEnd, k.dirty, k.ahead
	copy(in.values, k.values)
	copy(in.deriv, k.deriv)
	copy(in.prev, k.prev)
	copy(in.cur, k.cur)
	copy(in.rates, k.rates)
	copy(in.derivSet, k.derivSet)
	in.loadPaths(k.paths)
}

// checkRestored returns an error naming the first output that a restored
// state makes non-finite or beyond OutputLimit at the simulation's time,
// or non-finite at the communication point, or its rate over the internal
// step non-finite (the difference of two outputs within OutputLimit over
// the step h, so within 2·OutputLimit/h).
func (in *Instance) checkRestored() error {
	if err := in.checkOutputs(in.cur); err != nil {
		return fmt.Errorf("restored, %w", err)
	}
	for _, i := range in.outputs {
		// Between the two outputs checked: as the instance the state was
		// saved from gave them.
		if !finite(in.values[i]) {
			return fmt.Errorf("restored, the model gives %s = %g", in.vars[i].Name, in.values[i])
		}
		if !finite(in.rates[i]) {
			return fmt.Errorf("restored, the model gives %s a rate of %g", in.vars[i].Name, in.rates[i])
		}
	}
	for _, i := range in.peaks {
		// As saved: no simulation's output bounds it.
		if x := in.values[i]; !(math.Abs(x) <= OutputLimit) {
			return fmt.Errorf("restored, %s = %g, beyond ±%g %s", in.vars[i].Name, x, float64(OutputLimit), in.vars[i].Unit)
		}
	}
	return nil
}

// The bounds on the magnitude of a restored state's numbers, in SI units.
//
// OutputLimit bounds every output a getter gives (and the outputs a state
// holds from the step before): forces and tensions (N), torques (N·m),
// positions (m), speeds (m/s), node counts. It lies far above any crane's
// quantity — the configurations' ranges allow forces to 1e10 N (a mass of
// 1e8 kg under a gravity of 100 m/s²) and a stepping world stops as
// diverged at positions and speeds of 1e9 (multibody.DivergenceLimit) —
// and the largest output of the example models' runs is 2.5e5 N (the
// wire hoist's crane force). A step whose output leaves it fails like a
// diverged one, so every state a step leaves can be restored.
//
// StateLimit bounds every other number of a simulation's state. Besides
// the quantities above these hold stiffnesses the models derive from
// their parameters (a rigid cable's joint holds EA/l: 1.3e8 N/m in the
// example runs, the largest number any example's state holds; Young's
// modulus to 1e13 Pa, a diameter to 1 m and segments of millimetres reach
// 1e19; the C-API fuzzer, with parameters at their extremes, stepped to
// states holding 1.8e22) and plugins' parameters (operations to 1e12). A
// product of a few such numbers stays finite. Each model's LoadState
// checks the exact bounds of what its numbers mean.
const (
	OutputLimit = 1e12
	StateLimit  = 1e30
)

// clockTolerance is by how much a simulation's clock, summing its
// internal steps, may differ from the instance's time, relative to the
// step and the time: the grid's tolerance (gridTolerance, a lead below
// which is taken as none) and the rounding of long sums.
const clockTolerance = 1e-5

// Clocked is implemented by a configured model whose simulations' states
// hold their own time (s), which follows the instance's: ClockSlot is its
// index in the saved state. A restored state's must be the state's time
// plus the lead of the simulation's grid; it is bounded by that time, not
// by StateLimit.
type Clocked interface {
	ClockSlot() int
}

// compatible checks that a snapshot is a whole, undamaged state of this
// FMU: its GUID and sizes, a state machine value the FMU has, and every
// variable finite and within its declared range.
func (in *Instance) compatible(s *Snapshot) error {
	if s == nil {
		return errors.New("no state")
	}
	if s.guid != in.scenario.GUID() {
		return fmt.Errorf("the state belongs to the FMU with GUID %s, this one is %s", s.guid, in.scenario.GUID())
	}
	if len(s.values) != len(in.values) || len(s.deriv) != len(in.deriv) || len(s.prev) != len(in.prev) || len(s.derivSet) != len(in.derivSet) {
		return fmt.Errorf("the state has %d variables, this FMU %d", len(s.values), len(in.values))
	}
	switch s.state {
	case Instantiated, InitializationMode, Failed:
	case StepComplete, Terminated:
		if s.sim == nil {
			return fmt.Errorf("the state is %s but holds no simulation: damaged", s.state)
		}
	default:
		return fmt.Errorf("state machine value %d is none of the FMU's states: damaged", int(s.state))
	}
	if err := in.checkPaths(s.paths); err != nil {
		return err
	}
	for _, x := range []float64{s.time, s.start, s.stop, s.ahead} {
		if !finite(x) {
			return fmt.Errorf("a time of the state is %g: damaged", x)
		}
	}
	// The times as SetupExperiment and DoStep leave them: the time never
	// before the start, and with a stop time no later than the rounding
	// DoStep allows a step to end past it.
	switch {
	case s.hasEnd && s.stop < s.start:
		return fmt.Errorf("the state's stop time %g s is before its start time %g s: damaged", s.stop, s.start)
	case s.time < s.start:
		return fmt.Errorf("the state's time %g s is before its start time %g s: damaged", s.time, s.start)
	case s.hasEnd && s.time > s.stop+1e-12*(1+math.Abs(s.stop)):
		return fmt.Errorf("the state's time %g s is after its stop time %g s: damaged", s.time, s.stop)
	}
	for i, v := range in.vars {
		x := s.values[i]
		switch {
		case !finite(x) || !finite(s.deriv[i]) || !finite(s.prev[i]):
			return fmt.Errorf("%s is %g (derivative %g, last step %g) in the state: damaged", v.Name, x, s.deriv[i], s.prev[i])
		case (v.Min != nil && x < *v.Min) || (v.Max != nil && x > *v.Max):
			return fmt.Errorf("%s = %g in the state is outside [%s, %s]: damaged", v.Name, x, bound(v.Min, "-inf"), bound(v.Max, "inf"))
		case v.Kind() == modeldesc.TypeBoolean && x != 0 && x != 1:
			return fmt.Errorf("%s = %g in the state: a Boolean is 0 or 1: damaged", v.Name, x)
		case v.Kind() == modeldesc.TypeInteger && x != math.Trunc(x):
			return fmt.Errorf("%s = %g in the state: an Integer is a whole number: damaged", v.Name, x)
		case v.Causality == modeldesc.CausalityOutput && !(math.Abs(s.prev[i]) <= OutputLimit):
			// The output a step gave; the one at the communication point is
			// computed from the simulation again (checkRestored).
			return fmt.Errorf("output %s = %g one step back in the state: beyond ±%g: damaged", v.Name, s.prev[i], OutputLimit)
		}
	}
	if err := in.checkBuilt(s); err != nil {
		return err
	}
	// No simulation carries a non-finite number from step to step (a step
	// that makes one fails), nor one beyond StateLimit, so one in a state
	// was put there: each model's LoadState then checks the bounds of what
	// its numbers mean. A simulation's own clock follows the instance's
	// time, which a master may start anywhere: it must be that time.
	clock := -1
	if c, ok := in.model.(Clocked); ok && s.sim != nil {
		clock = c.ClockSlot()
		if clock < 0 || clock >= len(s.sim) {
			return fmt.Errorf("the simulation's state has %d numbers, no clock at %d: damaged", len(s.sim), clock)
		}
		if t, want := s.sim[clock], s.time+s.ahead; !(math.Abs(t-want) <= clockTolerance*(in.model.InternalStep(s.values)+math.Abs(want))) {
			return fmt.Errorf("the simulation's time %g s in the state is not the state's time %g s (plus %g s ahead): damaged", t, s.time, s.ahead)
		}
	}
	for i, x := range s.sim {
		if !finite(x) {
			return fmt.Errorf("number %d of the simulation's state is %g: damaged", i, x)
		}
		if i != clock && !(math.Abs(x) <= StateLimit) {
			return fmt.Errorf("number %d of the simulation's state is %g, beyond ±%g: damaged", i, x, StateLimit)
		}
	}
	if h := in.model.InternalStep(s.values); !(s.ahead >= 0 && s.ahead < h) {
		return fmt.Errorf("the state's simulation is %g s ahead of its time, outside [0, %g s): damaged", s.ahead, h)
	}
	return nil
}

// checkBuilt checks the values a snapshot's simulation was built from:
// as many as the FMU's, finite, the inputs within their declared ranges,
// and the parameters those of the snapshot (a simulation built from other
// parameters is never saved).
func (in *Instance) checkBuilt(s *Snapshot) error {
	if s.sim == nil {
		return nil
	}
	if len(s.built) != len(in.values) {
		return fmt.Errorf("the state's simulation was built from %d values, this FMU has %d: damaged", len(s.built), len(in.values))
	}
	for i, v := range in.vars {
		x := s.built[i]
		switch {
		case !finite(x):
			return fmt.Errorf("%s = %g built the state's simulation: damaged", v.Name, x)
		case v.Causality == modeldesc.CausalityParameter && x != s.values[i]:
			return fmt.Errorf("the state's simulation was built with %s = %g, the state has %g: damaged", v.Name, x, s.values[i])
		case v.Causality == modeldesc.CausalityInput && ((v.Min != nil && x < *v.Min) || (v.Max != nil && x > *v.Max)):
			return fmt.Errorf("%s = %g built the state's simulation, outside [%s, %s]: damaged", v.Name, x, bound(v.Min, "-inf"), bound(v.Max, "inf"))
		}
	}
	return nil
}

// stateMagic opens every serialized state; stateFormat versions the layout.
const (
	stateMagic  = "cablefmu-state\x00"
	stateFormat = 22
)

// StateHeaderSize is the length of a serialized state's fixed header: the
// magic, the format and the total length. A reader checks it before it
// reads, or hashes, anything after it.
const StateHeaderSize = len(stateMagic) + 4 + 8

// maxStateSize bounds the total length a header may declare: no state of
// this engine comes near it, and a larger one could not be an array in
// memory.
const maxStateSize = 1 << 40

// Serialize returns the snapshot as bytes: a header naming the format and
// the total length, the engine version and the FMU's GUID, then the
// numbers, little-endian, and last the SHA-256 of everything before it,
// so that a damaged copy (a flipped bit that would still read as a
// plausible number) is refused.
func (s *Snapshot) Serialize() []byte {
	var b bytes.Buffer
	b.WriteString(stateMagic)
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(x string) { w(uint32(len(x))); b.WriteString(x) }
	w(uint32(stateFormat))
	w(uint64(0)) // the total length, filled in below
	str(Version)
	str(s.guid)
	w(int32(s.state))
	w([3]bool{s.hasEnd, s.dirty, s.sim != nil})
	w([3]float64{s.time, s.start, s.stop})
	w(s.ahead)
	w(uint32(len(s.derivSet)))
	w(s.derivSet)
	for _, xs := range [][]float64{s.values, s.deriv, s.prev, s.sim, s.paths, s.built} {
		w(uint32(len(xs)))
		w(xs)
	}
	w(uint32(len(s.extra)))
	b.Write(s.extra)
	out := b.Bytes()
	binary.LittleEndian.PutUint64(out[StateHeaderSize-8:], uint64(len(out)+sha256.Size))
	sum := sha256.Sum256(out)
	return append(out, sum[:]...)
}

// SerializedSize checks the fixed header at the start of data (the first
// StateHeaderSize bytes, or all of data if it is shorter) and returns the
// total length it declares. A caller holding only a pointer and a length
// (the C API) checks that length against it before it touches the rest.
func SerializedSize(data []byte) (uint64, error) {
	n := min(len(data), len(stateMagic))
	if string(data[:n]) != stateMagic[:n] {
		return 0, errors.New("serialized state: not a cablefmu FMU state")
	}
	if len(data) < StateHeaderSize {
		return 0, fmt.Errorf("serialized state: %d bytes, shorter than the %d-byte header: truncated", len(data), StateHeaderSize)
	}
	if format := binary.LittleEndian.Uint32(data[len(stateMagic):]); format != stateFormat {
		return 0, fmt.Errorf("serialized state: format %d, this engine reads format %d", format, stateFormat)
	}
	size := binary.LittleEndian.Uint64(data[len(stateMagic)+4:])
	if size < uint64(StateHeaderSize+sha256.Size) || size > maxStateSize {
		return 0, fmt.Errorf("serialized state: its header declares %d bytes, no state has that length: damaged", size)
	}
	return size, nil
}

// Deserialize reads a serialized snapshot for this FMU; a state of another
// FMU, of another engine version or damaged is refused with the reason.
// The header's format and total length are checked first: nothing past
// the length the header declares, or past data, is read.
func (in *Instance) Deserialize(data []byte) (*Snapshot, error) {
	fail := func(what string) (*Snapshot, error) {
		return nil, fmt.Errorf("serialized state: %s", what)
	}
	size, err := SerializedSize(data)
	if err != nil {
		return nil, err
	}
	if size != uint64(len(data)) {
		return fail(fmt.Sprintf("its header declares %d bytes, %d were given: truncated or extended", size, len(data)))
	}
	r := bytes.NewReader(data[StateHeaderSize:])
	rd := func(v any) bool { return binary.Read(r, binary.LittleEndian, v) == nil }
	str := func() (string, bool) {
		var n uint32
		if !rd(&n) || int(n) > r.Len() {
			return "", false
		}
		b := make([]byte, n)
		_, err := r.Read(b)
		return string(b), err == nil
	}
	version, ok := str()
	if !ok {
		return fail("truncated header")
	}
	if version != Version {
		return fail(fmt.Sprintf("written by engine %s, this FMU runs engine %s", version, Version))
	}
	guid, ok := str()
	if !ok {
		return fail("truncated header")
	}
	if guid != in.scenario.GUID() {
		return fail(fmt.Sprintf("the state belongs to the FMU with GUID %s, this one is %s", guid, in.scenario.GUID()))
	}
	// The header is ours: the rest must be as it was written.
	read := len(data) - r.Len()
	if len(data) < read+sha256.Size {
		return fail("truncated data")
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return fail("checksum mismatch: the data was damaged or cut after it was serialized")
	}
	r = bytes.NewReader(body[read:])
	s := &Snapshot{guid: guid}
	var st int32
	var flags [3]bool
	var times [3]float64
	if !rd(&st) || !rd(&flags) || !rd(&times) || !rd(&s.ahead) {
		return fail("truncated header")
	}
	var nc uint32
	if !rd(&nc) || int(nc) > r.Len() {
		return fail("truncated header")
	}
	s.derivSet = make([]bool, nc)
	if !rd(s.derivSet) {
		return fail("truncated header")
	}
	s.state, s.hasEnd, s.dirty = State(st), flags[0], flags[1]
	s.time, s.start, s.stop = times[0], times[1], times[2]
	for i, dst := range []*[]float64{&s.values, &s.deriv, &s.prev, &s.sim, &s.paths, &s.built} {
		var n uint32
		if !rd(&n) || int(n)*8 > r.Len() {
			return fail("truncated data")
		}
		*dst = make([]float64, n)
		if !rd(*dst) {
			return fail("truncated data")
		}
		if (i == 3 || i == 5) && !flags[2] {
			*dst = nil
		}
	}
	var n uint32
	if !rd(&n) || int(n) > r.Len() {
		return fail("truncated data")
	}
	if n > 0 {
		s.extra = make([]byte, n)
		if _, err := r.Read(s.extra); err != nil {
			return fail("truncated data")
		}
	}
	if r.Len() != 0 {
		return fail(fmt.Sprintf("%d bytes after the data", r.Len()))
	}
	if err := in.compatible(s); err != nil {
		return nil, fmt.Errorf("serialized state: %w", err)
	}
	return s, nil
}
