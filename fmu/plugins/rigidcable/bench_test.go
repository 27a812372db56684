package rigidcable_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// exampleWithCable returns the examples/rigid-cable scenario with the key
// of its cable set to value.
func exampleWithCable(tb testing.TB, key string, value any) []byte {
	tb.Helper()
	data, err := os.ReadFile("../../../examples/rigid-cable/scenario.json")
	if err != nil {
		tb.Fatal(err)
	}
	var sc map[string]any
	if err := json.Unmarshal(data, &sc); err != nil {
		tb.Fatal(err)
	}
	sc["config"].(map[string]any)["cable"].(map[string]any)[key] = value
	if data, err = json.Marshal(sc); err != nil {
		tb.Fatal(err)
	}
	return data
}

// benchSegments are the segment counts of the RigidHoist benchmarks: the
// example's 20 and finer cables.
var benchSegments = []int{20, 100, 1000}

// rigidHoistWithSegments writes the examples/rigid-cable scenario with n
// segments into a fresh folder and returns an initialized instance of it,
// the trolley driven at 0.5 m/s along x so that the cable swings.
func rigidHoistWithSegments(b testing.TB, n int) *fmu.Instance {
	b.Helper()
	data := exampleWithCable(b, "segments", n)
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), data, 0o644); err != nil {
		b.Fatal(err)
	}
	parsed, err := fmu.ReadScenario(dir)
	if err != nil {
		b.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		b.Fatal(err)
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "bench", GUID: parsed.GUID(), ResourceLocation: dir, Logger: benchLogger{b}, Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			b.Fatalf("initialization: %v", st)
		}
	}
	for i, v := range in.Variables() {
		if v.Name == "suspension.vx" {
			if st := in.SetReal([]uint32{uint32(i)}, []float64{0.5}); st != fmu.OK {
				b.Fatalf("SetReal(suspension.vx): %v", st)
			}
		}
	}
	return in
}

type benchLogger struct{ b testing.TB }

func (l benchLogger) Log(s fmu.Status, cat, msg string) {
	if s != fmu.OK {
		l.b.Logf("%v %s: %s", s, cat, msg)
	}
}

// BenchmarkRigidHoistDoStep measures the whole step of the RigidHoist FMU
// (examples/rigid-cable with N segments, load hanging above the ground):
// one fmi2DoStep of 1/60 s, that is one internal step at the default h,
// with its outputs (the N+1 node coordinates among them), after a first
// step that lays the solver out. Metric ns/segment is the step's cost per
// segment.
func BenchmarkRigidHoistDoStep(b *testing.B) {
	benchmarkRigidHoistDoStep(b, false)
}

// BenchmarkRigidHoistDoStepLocked is BenchmarkRigidHoistDoStep from a
// goroutine locked to its thread, as every call of an FMU's master
// through the C ABI is.
func BenchmarkRigidHoistDoStepLocked(b *testing.B) {
	benchmarkRigidHoistDoStep(b, true)
}

func benchmarkRigidHoistDoStep(b *testing.B, locked bool) {
	for _, n := range benchSegments {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			if locked {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			in := rigidHoistWithSegments(b, n)
			const H = 1.0 / 60
			// The first step lays out the solver's groups (a contact's
			// each: at N = 1000 some 30,000 allocations, which showed as
			// 10 allocations a step): taken before the timer.
			if st := in.DoStep(0, H); st != fmu.OK {
				b.Fatalf("first step: %v", st)
			}
			t := H
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if st := in.DoStep(t, H); st != fmu.OK {
					b.Fatalf("step %d: %v", i, st)
				}
				t += H
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(n), "ns/segment")
		})
	}
}
