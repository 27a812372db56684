package exporter

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// The exporter facing mutated scenarios (keys deleted, renamed, set to
// null, to absurd numbers, to the wrong type, arrays shortened and
// lengthened, documents truncated): every scenario is either refused with
// an error, or accepted — and then its model descriptions (FMI 2.0 and 3.0)
// are written and checked, and its simulation starts and runs one second of
// internal steps (at most 120) with finite outputs. A panic, a hang (30 s) or an accepted
// scenario that cannot run fails the test with the mutation. Seeded, so a
// failure reproduces; CASES in the environment changes the count per
// example (default 3000).
func TestScenarioMutationsRefusedOrRun(t *testing.T) {
	cases := 3000
	if n, err := fmt.Sscan(os.Getenv("CASES"), &cases); n == 0 || err != nil {
		cases = 3000
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	accepted, refused := 0, 0
	for _, folder := range []string{"../../examples/massless", "../../examples/rigid-cable", "../../examples/massless-controlled", "../../examples/wire-hoist", "../../examples/mass-spring", "../../examples/spline"} {
		data, err := os.ReadFile(filepath.Join(folder, fmu.ScenarioFile))
		if err != nil {
			t.Fatal(err)
		}
		for seed := 0; seed < cases; seed++ {
			rng := rand.New(rand.NewSource(int64(seed)))
			mutated, what := mutateScenario(rng, data)
			t0 := time.Now()
			ok, err := tryScenario(reg, folder, mutated)
			if took := time.Since(t0); took > 2*time.Second {
				t.Logf("%s, seed %d (%s): took %v", folder, seed, what, took.Round(time.Millisecond))
			}
			if err != nil {
				t.Errorf("%s, seed %d (%s): %v\n%s", folder, seed, what, err, mutated)
				continue
			}
			if ok {
				accepted++
			} else {
				refused++
			}
		}
	}
	t.Logf("%d mutated scenarios: %d refused with an error, %d accepted and run", accepted+refused, refused, accepted)
}

// tryScenario exports (without compiling) and runs a scenario. It returns
// whether the scenario was accepted, and an error for a defect: a panic, a
// hang, an accepted scenario whose description or simulation fails.
func tryScenario(reg *fmu.Registry, folder string, data []byte) (accepted bool, defect error) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		sc, err := fmu.ParseScenario(data)
		if err == nil {
			err = sc.LoadPlugins(folder)
		}
		var model fmu.Configured
		if err == nil {
			model, _, err = configure(reg, sc, configureSlack)
		}
		if err != nil {
			accepted = false
			done <- nil
			return
		}
		accepted = true
		for _, v := range []int{2, 3} {
			if _, err := (&Checked{Folder: folder, Scenario: sc, Model: model}).Describe(v); err != nil {
				done <- fmt.Errorf("accepted, but its FMI %d model description fails: %v", v, err)
				return
			}
		}
		done <- runOneSecond(model)
	}()
	select {
	case err := <-done:
		return accepted, err
	case <-time.After(30 * time.Second):
		return accepted, fmt.Errorf("hangs (30 s)")
	}
}

// runOneSecond runs a configured model from its start values for one
// second of internal steps (at most 120 of them) and checks that every
// output stays finite.
func runOneSecond(model fmu.Configured) error {
	vars := model.Variables()
	values := make([]float64, len(vars))
	for i, v := range vars {
		values[i] = v.Start
	}
	sim, err := model.NewSimulation(values)
	if err != nil {
		return fmt.Errorf("accepted, but its simulation does not start: %v", err)
	}
	if cp, ok := sim.(fmu.CommunicationPointer); ok {
		if err := cp.CommunicationPoint(0); err != nil {
			return fmt.Errorf("accepted, but its first communication point fails: %v", err)
		}
	}
	h := model.InternalStep(values)
	for k := 0; float64(k)*h < 1 && k < 120; k++ {
		if err := sim.Step(0, values, values, k == 0); err != nil {
			return fmt.Errorf("accepted, but step %d fails: %v", k, err)
		}
		sim.Outputs(values)
		for i, x := range values {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("accepted, but %s = %g after step %d", vars[i].Name, x, k)
			}
		}
	}
	return nil
}

// mutateScenario applies one to three random mutations to a scenario and
// says which.
func mutateScenario(rng *rand.Rand, data []byte) ([]byte, string) {
	if rng.Intn(10) == 0 { // a damaged document
		n := rng.Intn(len(data))
		if rng.Intn(2) == 0 {
			return data[:n], fmt.Sprintf("truncated at byte %d", n)
		}
		out := append(append(append([]byte{}, data[:n]...), "{}[],:\"0"[rng.Intn(8)]), data[n:]...)
		return out, fmt.Sprintf("a character inserted at byte %d", n)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		panic(err)
	}
	var what string
	for m := rng.Intn(3); m >= 0; m-- {
		var d string
		doc, d = mutateValue(rng, doc, "")
		what += d + "; "
	}
	out, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return out, what
}

// mutateValue walks to a random node of the tree and changes it.
func mutateValue(rng *rand.Rand, v any, at string) (any, string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 && rng.Intn(3) > 0 {
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			k := keys[rng.Intn(len(keys))]
			switch rng.Intn(8) {
			case 0:
				delete(x, k)
				return x, "deleted " + at + "." + k
			case 1:
				x[k+"x"] = x[k]
				delete(x, k)
				return x, "renamed " + at + "." + k
			}
			var d string
			x[k], d = mutateValue(rng, x[k], at+"."+k)
			return x, d
		}
	case []any:
		if len(x) > 0 && rng.Intn(3) > 0 {
			i := rng.Intn(len(x))
			switch rng.Intn(6) {
			case 0:
				return append(x[:i:i], x[i+1:]...), fmt.Sprintf("removed %s[%d]", at, i)
			case 1:
				return append(x, x[i]), fmt.Sprintf("repeated %s[%d]", at, i)
			}
			var d string
			x[i], d = mutateValue(rng, x[i], fmt.Sprintf("%s[%d]", at, i))
			return x, d
		}
	}
	replacements := []any{nil, 0.0, -1.0, 1e-300, 1e300, -1e300, 0.5, 3.0, 1e6, -1e6, 1e-6, "x", "", true,
		[]any{}, []any{1.0, 2.0}, map[string]any{}}
	r := replacements[rng.Intn(len(replacements))]
	return r, fmt.Sprintf("%s = %v", at, r)
}
