package massless_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/massless"
)

// hoistScenario is a valid scenario shaped like examples/massless: a kinematic
// hoist at (0, 0, 20) m and a 1000 kg box hanging from a 10 m, 20 mm rope
// with a winch. Tests derive variants from it with edit.
const hoistScenario = `{
  "model": "massless",
  "modelIdentifier": "TestHoist",
  "description": "test scenario",
  "stopTime": 30,
  "step": 0.016666666666666666,
  "ports": [
    "suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz",
    "winch.speed",
    "suspension.fx", "suspension.fy", "suspension.fz",
    "cable.tension", "cable.length",
    "load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz",
    "load.mass", "cable.length0", "gravity", "internalStep"
  ],
  "config": {
    "gravity": 9.81,
    "bodies": [
      {"name": "suspension", "kind": "kinematic", "position": [0, 0, 20]},
      {"name": "load", "kind": "dynamic", "mass": 1000, "size": [1, 1, 1], "hangsFrom": "cable"}
    ],
    "cables": [
      {
        "name": "cable",
        "route": [{"body": "suspension"}, {"body": "load"}],
        "length0": 10,
        "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850},
        "winch": {"name": "winch", "slip": 0}
      }
    ]
  }
}`

const (
	g    = 9.81
	mass = 1000.0
)

// edit returns s with each old fragment replaced by the new one that
// follows it; a fragment that does not occur exactly once fails the test,
// so that a variant never silently equals the base scenario.
func edit(t *testing.T, s string, oldNew ...string) string {
	t.Helper()
	for i := 0; i+1 < len(oldNew); i += 2 {
		if n := strings.Count(s, oldNew[i]); n != 1 {
			t.Fatalf("scenario fragment %q occurs %d times, want once", oldNew[i], n)
		}
		s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
	}
	return s
}

// configure parses a scenario and configures the plugin with it.
func configure(t *testing.T, scenario string) (fmu.Configured, error) {
	t.Helper()
	sc, err := fmu.ParseScenario([]byte(scenario))
	if err != nil {
		t.Fatalf("ParseScenario: %v", err)
	}
	return massless.Model{}.Configure(sc)
}

// logRecord is one message an instance sent to its logger.
type logRecord struct {
	status        fmu.Status
	category, msg string
}

type recorder struct {
	mu   sync.Mutex
	msgs []logRecord
}

func (r *recorder) Log(s fmu.Status, category, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, logRecord{s, category, msg})
}

// find returns the index of the first message containing fragment, or -1.
func (r *recorder) find(fragment string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, m := range r.msgs {
		if strings.Contains(m.msg, fragment) {
			return i
		}
	}
	return -1
}

func (r *recorder) dump() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, m := range r.msgs {
		fmt.Fprintf(&b, "  [%v %s] %s\n", m.status, m.category, m.msg)
	}
	return b.String()
}

// rig is an fmu.Instance built from a scenario JSON text through the
// resources folder, as the FMU binary builds it, in step mode at t = 0.
type rig struct {
	t    *testing.T
	in   *fmu.Instance
	log  *recorder
	vr   map[string]uint32
	time float64
}

func newRig(t *testing.T, scenario string, loggingOn bool) *rig {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := fmu.ParseScenario([]byte(scenario))
	if err != nil {
		t.Fatalf("ParseScenario: %v", err)
	}
	reg, err := fmu.NewRegistry(massless.Model{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: t.Name(), GUID: sc.GUID(), ResourceLocation: "file://" + dir,
		Logger: rec, LoggingOn: loggingOn, Registry: reg})
	if err != nil {
		t.Fatalf("Instantiate: %v", err)
	}
	r := &rig{t: t, in: in, log: rec, vr: map[string]uint32{}}
	for i, v := range in.Variables() {
		r.vr[v.Name] = uint32(i)
	}
	return r
}

// start runs the initialization with the given parameter values.
func (r *rig) start(params map[string]float64) *rig {
	r.t.Helper()
	if st := r.in.SetupExperiment(false, 0, 0, false, 0); st != fmu.OK {
		r.t.Fatalf("SetupExperiment: %v\n%s", st, r.log.dump())
	}
	for name, x := range params {
		r.set(name, x)
	}
	if st := r.in.EnterInitializationMode(); st != fmu.OK {
		r.t.Fatalf("EnterInitializationMode: %v\n%s", st, r.log.dump())
	}
	if st := r.in.ExitInitializationMode(); st != fmu.OK {
		r.t.Fatalf("ExitInitializationMode: %v\n%s", st, r.log.dump())
	}
	return r
}

func (r *rig) ref(name string) uint32 {
	r.t.Helper()
	vr, ok := r.vr[name]
	if !ok {
		r.t.Fatalf("no variable %q", name)
	}
	return vr
}

func (r *rig) set(name string, x float64) {
	r.t.Helper()
	if st := r.in.SetReal([]uint32{r.ref(name)}, []float64{x}); st != fmu.OK {
		r.t.Fatalf("SetReal(%s = %g): %v\n%s", name, x, st, r.log.dump())
	}
}

func (r *rig) get(name string) float64 {
	r.t.Helper()
	out := []float64{0}
	if st := r.in.GetReal([]uint32{r.ref(name)}, out); st != fmu.OK {
		r.t.Fatalf("GetReal(%s): %v\n%s", name, st, r.log.dump())
	}
	return out[0]
}

// step does one communication step of H seconds; it fails the test unless
// DoStep returns OK.
func (r *rig) step(H float64) {
	r.t.Helper()
	if st := r.in.DoStep(r.time, H); st != fmu.OK {
		r.t.Fatalf("DoStep(%g, %g): %v\n%s", r.time, H, st, r.log.dump())
	}
	r.time += H
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
