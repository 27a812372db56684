package pyplugin_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// run is a scenario with plugins configured and running.
type run struct {
	cfg    fmu.Configured
	sim    fmu.Simulation
	values []float64
	index  map[string]int
	h, t   float64
}

// configureDir configures the scenario in dir (a folder with
// scenario.json and the plugin files).
func configureDir(t testing.TB, dir string) (fmu.Configured, error) {
	t.Helper()
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return reg.Configure(sc)
}

// start builds a simulation with the start values changed by set.
func start(t testing.TB, cfg fmu.Configured, set map[string]float64) *run {
	t.Helper()
	r := &run{cfg: cfg, index: map[string]int{}}
	for i, v := range cfg.Variables() {
		r.index[v.Name] = i
		r.values = append(r.values, v.Start)
	}
	for name, x := range set {
		r.values[r.vr(t, name)] = x
	}
	if err := r.begin(); err != nil {
		t.Fatal(err)
	}
	return r
}

// startErr builds a simulation at the start values, returning what fails
// (a plugin's init raising) instead of failing the test.
func startErr(t testing.TB, cfg fmu.Configured) (*run, error) {
	t.Helper()
	r := &run{cfg: cfg, index: map[string]int{}}
	for i, v := range cfg.Variables() {
		r.index[v.Name] = i
		r.values = append(r.values, v.Start)
	}
	return r, r.begin()
}

// begin builds the simulation and runs its first communication point.
func (r *run) begin() error {
	sim, err := r.cfg.NewSimulation(r.values)
	if err != nil {
		return fmt.Errorf("NewSimulation: %w", err)
	}
	if err := sim.(fmu.CommunicationPointer).CommunicationPoint(0); err != nil {
		return fmt.Errorf("communication point at 0: %w", err)
	}
	sim.Outputs(r.values)
	r.sim, r.h = sim, r.cfg.InternalStep(r.values)
	return nil
}

func (r *run) vr(t testing.TB, name string) int {
	t.Helper()
	i, ok := r.index[name]
	if !ok {
		t.Fatalf("no variable %q", name)
	}
	return i
}

func (r *run) get(t testing.TB, name string) float64 { return r.values[r.vr(t, name)] }

// step advances one communication step of one internal step.
func (r *run) step() error {
	if err := r.sim.Step(0, r.values, r.values, true); err != nil {
		return err
	}
	r.t += r.h
	if err := r.sim.(fmu.CommunicationPointer).CommunicationPoint(r.t); err != nil {
		return err
	}
	r.sim.Outputs(r.values)
	return nil
}

// writeScenario writes a scenario folder with the given files.
func writeScenario(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot is a run's saved state: the simulation's numbers, the plugins'
// own state, the time and the values.
type snapshot struct {
	nums   []float64
	extra  []byte
	t      float64
	values []float64
}

// save takes a snapshot of r.
func (r *run) save(t testing.TB) snapshot {
	t.Helper()
	extra, err := r.sim.(fmu.ExtraState).SaveExtra(nil)
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{r.sim.SaveState(nil), extra, r.t, append([]float64(nil), r.values...)}
}

// restored starts a fresh simulation of cfg and loads s into it, as a
// deserialized state would be.
func restored(t testing.TB, cfg fmu.Configured, s snapshot) *run {
	t.Helper()
	r := start(t, cfg, nil)
	if err := r.sim.LoadState(s.nums); err != nil {
		t.Fatal(err)
	}
	if err := r.sim.(fmu.ExtraState).LoadExtra(s.extra); err != nil {
		t.Fatal(err)
	}
	r.t = s.t
	copy(r.values, s.values)
	return r
}
