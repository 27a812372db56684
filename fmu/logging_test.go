package fmu_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// catLog records every message with its status and category.
type catLog struct {
	mu   sync.Mutex
	msgs []string // "Status category: message"
}

func (l *catLog) Log(s fmu.Status, category, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, fmt.Sprintf("%v %s: %s", s, category, msg))
}

// take returns the messages logged since the last take and forgets them.
func (l *catLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.msgs
	l.msgs = nil
	return m
}

// loggedHoist instantiates examples/massless with a catLog.
func loggedHoist(t *testing.T, loggingOn bool) (*fmu.Instance, *catLog) {
	t.Helper()
	return loggedExample(t, "massless", loggingOn)
}

// loggedExample is loggedHoist for the example named.
func loggedExample(t *testing.T, example string, loggingOn bool) (*fmu.Instance, *catLog) {
	t.Helper()
	sc, err := fmu.ReadScenario("../examples/" + example)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs("../examples/" + example)
	if err != nil {
		t.Fatal(err)
	}
	log := &catLog{}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "logging", GUID: sc.GUID(), ResourceLocation: "file://" + abs,
		Logger: log, LoggingOn: loggingOn, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	return in, log
}

// has reports whether one of msgs starts with prefix and contains every
// fragment.
func has(msgs []string, prefix string, fragments ...string) bool {
	for _, m := range msgs {
		if !strings.HasPrefix(m, prefix) {
			continue
		}
		ok := true
		for _, f := range fragments {
			ok = ok && strings.Contains(m, f)
		}
		if ok {
			return true
		}
	}
	return false
}

// logScript drives an instance through the calls whose messages the
// filtering tests look at, and returns what the logger received:
// initialization (an event), a good DoStep (a call), a DoStep at the wrong
// time (an error), a discard and a warning through Instance.Log.
func logScript(t *testing.T, in *fmu.Instance, log *catLog) []string {
	t.Helper()
	if st := in.SetupExperiment(false, 0, 0, false, 0); st != fmu.OK {
		t.Fatalf("SetupExperiment: %v", st)
	}
	if st := in.EnterInitializationMode(); st != fmu.OK {
		t.Fatalf("EnterInitializationMode: %v", st)
	}
	if st := in.ExitInitializationMode(); st != fmu.OK {
		t.Fatalf("ExitInitializationMode: %v", st)
	}
	if st := in.DoStep(0, 0.01); st != fmu.OK {
		t.Fatalf("DoStep(0, 0.01): %v", st)
	}
	if st := in.DoStep(7, 0.01); st != fmu.Error {
		t.Fatalf("DoStep(7, 0.01) at t = 0.01 s: %v, want Error", st)
	}
	in.Log(fmu.Discard, "status kind %d is not available", 42)
	in.Log(fmu.Warning, "a questionable request")
	return log.take()
}

const (
	wantEvent   = "OK logEvents: initialized at t = 0 s"
	wantCall    = "OK logCalls: fmi2DoStep(0, 0.01)"
	wantError   = "Error logStatusError: fmi2DoStep: communication point 7"
	wantDiscard = "Discard logStatusDiscard: status kind 42 is not available"
	wantWarning = "Warning logStatusWarning: a questionable request"
)

// SetDebugLogging filters by category: errors and discards always reach
// the logger, events, calls and warnings only when their category is on.
func TestDebugLoggingFilters(t *testing.T) {
	cases := []struct {
		name      string
		loggingOn bool     // fmi2Instantiate's loggingOn
		set       bool     // call SetDebugLogging(on, categories)
		on        bool     // its arguments
		cats      []string //
		event     bool     // want the event delivered
		call      bool     // want the DoStep call delivered
		warning   bool     // want the warning delivered
	}{
		{name: "off at instantiation"},
		{name: "switched off", loggingOn: true, set: true, on: false},
		{name: "off with categories named", loggingOn: true, set: true, on: false, cats: []string{"logEvents", "logCalls"}},
		{name: "only logCalls", set: true, on: true, cats: []string{"logCalls"}, call: true},
		{name: "only logEvents", set: true, on: true, cats: []string{"logEvents"}, event: true},
		{name: "on with no categories", set: true, on: true, event: true, call: true, warning: true},
		{name: "on at instantiation", loggingOn: true, event: true, call: true, warning: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, log := loggedHoist(t, c.loggingOn)
			if c.set {
				if st := in.SetDebugLogging(c.on, c.cats); st != fmu.OK {
					t.Fatalf("SetDebugLogging(%v, %q): %v", c.on, c.cats, st)
				}
				log.take()
			}
			msgs := logScript(t, in, log)
			check := func(what, want string, delivered bool) {
				t.Helper()
				if got := has(msgs, want); got != delivered {
					t.Errorf("%s %q delivered: %v, want %v; the logger got:\n  %s", what, want, got, delivered, strings.Join(msgs, "\n  "))
				}
			}
			check("event", wantEvent, c.event)
			check("call", wantCall, c.call)
			check("warning", wantWarning, c.warning)
			check("error", wantError, true)
			check("discard", wantDiscard, true)
			if !c.call {
				for _, m := range msgs {
					if strings.Contains(m, "logCalls") {
						t.Errorf("logCalls is off but the logger got %q", m)
					}
				}
			}
		})
	}
}

// With logCalls on, every call is logged with its arguments, also one
// that is then refused, and one this FMU does not implement.
func TestLogCallsShowArguments(t *testing.T) {
	in, log := loggedHoist(t, false)
	if st := in.SetDebugLogging(true, []string{"logCalls"}); st != fmu.OK {
		t.Fatal(st)
	}
	in.SetReal([]uint32{0, 6}, []float64{0.25, -1.5})
	in.DoStep(3, 0.5) // refused: not initialized
	in.Unsupported("fmi3EnterEventMode", "no event mode")
	msgs := log.take()
	for _, want := range []string{"OK logCalls: fmi2SetReal([0 6], [0.25 -1.5])", "OK logCalls: fmi2DoStep(3, 0.5)",
		"OK logCalls: fmi3EnterEventMode(…)", "Error logStatusError: fmi3EnterEventMode: not supported: no event mode"} {
		if !has(msgs, want) {
			t.Errorf("no message %q; the logger got:\n  %s", want, strings.Join(msgs, "\n  "))
		}
	}
	if !has(msgs, "Error logStatusError: fmi2DoStep: not allowed") {
		t.Errorf("the refused DoStep logged no error; the logger got:\n  %s", strings.Join(msgs, "\n  "))
	}
}

// Through the FMI 3.0 interface, logCalls shows each call once, with the
// value references the caller gave (time, a scalar and the 21×3 array
// cable.node in one fmi3GetFloat64), not the runtime's calls on the
// model's scalars that serve it; fmi3EnterInitializationMode once, with
// the experiment's arguments.
func TestLogCallsShowFMI3References(t *testing.T) {
	in, log := loggedExample(t, "rigid-cable", false)
	in.UseFMI3()
	if st := in.SetDebugLogging(true, []string{"logCalls"}); st != fmu.OK {
		t.Fatal(st)
	}
	vr := map[string]uint32{}
	for _, v := range in.Layout() {
		vr[v.Name] = v.VR
	}
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			t.Fatal(st)
		}
	}
	out := make([]float64, 2+63)
	refs := []uint32{0, vr["cable.tension"], vr["cable.node"]}
	if st := in.GetFloat64(refs, out); st != fmu.OK {
		t.Fatal(st)
	}
	if st := in.SetFloat64([]uint32{vr["winch.speed"]}, []float64{0.5}); st != fmu.OK {
		t.Fatal(st)
	}
	calls := map[string]int{}
	taken := log.take()
	for _, m := range taken {
		if name, _, ok := strings.Cut(strings.TrimPrefix(m, "OK logCalls: "), "("); ok && strings.HasPrefix(m, "OK logCalls: ") {
			calls[name]++
		}
		if strings.HasPrefix(m, "OK logCalls: fmi2") {
			t.Errorf("an FMI 3.0 instance traced %q", m)
		}
	}
	msgs := strings.Join(taken, "\n  ")
	for _, want := range []string{
		"OK logCalls: fmi3EnterInitializationMode(false, 0, 0, false, 0)",
		fmt.Sprintf("OK logCalls: fmi3GetFloat64(%v)", refs),
		fmt.Sprintf("OK logCalls: fmi3SetFloat64([%d], [0.5])", vr["winch.speed"]),
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no message %q; the logger got:\n  %s", want, msgs)
		}
	}
	for _, fn := range []string{"fmi3EnterInitializationMode", "fmi3GetFloat64", "fmi3SetFloat64"} {
		if calls[fn] != 1 {
			t.Errorf("%s traced %d times, want once:\n  %s", fn, calls[fn], msgs)
		}
	}
}

// An unknown category is refused and leaves the filter as it was.
func TestDebugLoggingUnknownCategory(t *testing.T) {
	in, log := loggedHoist(t, false)
	if st := in.SetDebugLogging(true, []string{"logCalls", "logEverything"}); st != fmu.Error {
		t.Fatalf("SetDebugLogging with \"logEverything\": %v, want Error", st)
	}
	if msgs := log.take(); !has(msgs, "Error logStatusError:", `"logEverything"`) {
		t.Errorf("the refusal does not name the category; the logger got:\n  %s", strings.Join(msgs, "\n  "))
	}
	msgs := logScript(t, in, log)
	if has(msgs, wantCall) || has(msgs, wantEvent) {
		t.Errorf("a refused SetDebugLogging switched categories on; the logger got:\n  %s", strings.Join(msgs, "\n  "))
	}
}
