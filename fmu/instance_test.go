package fmu_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/modeldesc"
	"github.com/cablefmu/cablefmu/modeldesc/schematest"
)

type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Log(s fmu.Status, cat, msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, s.String()+" "+cat+": "+msg)
}

func (r *recorder) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.msgs) == 0 {
		return ""
	}
	return r.msgs[len(r.msgs)-1]
}

func exampleDirs(t *testing.T) []string {
	dirs, err := filepath.Glob("../examples/*/" + fmu.ScenarioFile)
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example scenarios found: %v", err)
	}
	for i := range dirs {
		dirs[i] = filepath.Dir(dirs[i])
	}
	return dirs
}

// newHoist instantiates the examples/massless scenario with its own GUID.
func newHoist(t *testing.T) (*fmu.Instance, *recorder, map[string]uint32) {
	t.Helper()
	sc, err := fmu.ReadScenario("../examples/massless")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	abs, _ := filepath.Abs("../examples/massless")
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "test", GUID: sc.GUID(), ResourceLocation: "file://" + abs, Logger: rec, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	vr := map[string]uint32{}
	for i, v := range in.Variables() {
		vr[v.Name] = uint32(i)
	}
	return in, rec, vr
}

func get(t *testing.T, in *fmu.Instance, vr uint32) float64 {
	t.Helper()
	out := []float64{0}
	if st := in.GetReal([]uint32{vr}, out); st != fmu.OK {
		t.Fatalf("GetReal(%d): %v", vr, st)
	}
	return out[0]
}

func initialize(t *testing.T, in *fmu.Instance) {
	t.Helper()
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			t.Fatalf("initialization: %v", st)
		}
	}
}

// Every example's model descriptions, FMI 2.0 and 3.0, pass modeldesc's
// rule checks and the official schemas.
func TestExampleDescriptionsValidate(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range exampleDirs(t) {
		sc, err := fmu.ReadScenario(dir)
		if err != nil {
			t.Fatal(err)
		}
		model, err := reg.Configure(sc)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		md, err := fmu.Describe(sc, model)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, v := range md.Variables {
			if v.Description == "" {
				t.Errorf("%s: variable %s has no description", dir, v.Name)
			}
			if v.Type == modeldesc.TypeReal && v.Unit == "" {
				t.Errorf("%s: variable %s has no unit", dir, v.Name)
			}
		}
		xml, err := md.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "modelDescription.xml")
		if err := os.WriteFile(path, xml, 0o644); err != nil {
			t.Fatal(err)
		}
		schematest.Validate(t, path)

		md3, err := fmu.Describe3(sc, model)
		if err != nil {
			t.Fatalf("%s: FMI 3.0: %v", dir, err)
		}
		xml3, err := md3.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		path3 := filepath.Join(t.TempDir(), "modelDescription.xml")
		if err := os.WriteFile(path3, xml3, 0o644); err != nil {
			t.Fatal(err)
		}
		schematest.Validate3(t, path3)
	}
}

// The hoist example exposes exactly the ports of the design.
func TestHoistPorts(t *testing.T) {
	in, _, vr := newHoist(t)
	want := strings.Fields(`suspension.x suspension.y suspension.z suspension.vx suspension.vy suspension.vz winch.speed suspension.fx suspension.fy suspension.fz
		cable.tension cable.length load.x load.y load.z load.vx load.vy load.vz load.mass cable.length0 cable.E
		cable.diameter cable.density gravity internalStep`)
	if len(in.Variables()) != len(want) {
		t.Errorf("%d variables, want %d", len(in.Variables()), len(want))
	}
	for _, n := range want {
		if _, ok := vr[n]; !ok {
			t.Errorf("port %s missing", n)
		}
	}
}

// At initialization the load hangs at rest in static equilibrium: tension
// and the force on the crane equal Mg to rounding (1e-9), also after a
// change of load.mass, and stay there over communication steps of varying
// length.
func TestStaticEquilibriumOverVariableSteps(t *testing.T) {
	in, _, vr := newHoist(t)
	if st := in.SetReal([]uint32{vr["load.mass"]}, []float64{2500}); st != fmu.OK {
		t.Fatal(st)
	}
	initialize(t, in)
	mg := 2500 * 9.81
	check := func(when string) {
		// The start equilibrium is exact up to rounding: 1e-9.
		if tn := get(t, in, vr["cable.tension"]); math.Abs(tn/mg-1) > 1e-9 {
			t.Errorf("%s: tension %.9f N, want Mg = %.9f N within 1e-9", when, tn, mg)
		}
		if fz := get(t, in, vr["suspension.fz"]); math.Abs(-fz/mg-1) > 1e-9 {
			t.Errorf("%s: suspension.fz %.9f N, want −Mg = %.9f N within 1e-9", when, fz, -mg)
		}
		if vz := get(t, in, vr["load.vz"]); math.Abs(vz) > 1e-6 {
			t.Errorf("%s: load.vz %.3g m/s: the load is not at rest", when, vz)
		}
	}
	check("after initialization")
	tm := 0.0
	for _, H := range []float64{0.001, 0.013, 0.1, 0.5, 1.0 / 60, 0.037} {
		for k := 0; k < 5; k++ {
			if st := in.DoStep(tm, H); st != fmu.OK {
				t.Fatalf("DoStep(%g, %g): %v", tm, H, st)
			}
			tm += H
		}
	}
	check("after steps of 0.001 to 0.5 s")
}

// The trolley moved through the velocity inputs carries the suspension
// point: after 2 s at 1 m/s the force on the crane has turned towards the
// lagging load.
func TestDrivenSuspensionPoint(t *testing.T) {
	in, _, vr := newHoist(t)
	initialize(t, in)
	x, tm := 0.0, 0.0
	const H = 0.02
	for k := 0; k < 100; k++ {
		if st := in.SetReal([]uint32{vr["suspension.x"], vr["suspension.vx"]}, []float64{x, 1}); st != fmu.OK {
			t.Fatal(st)
		}
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatal(st)
		}
		x, tm = x+H, tm+H
	}
	if lx := get(t, in, vr["load.x"]); !(lx > 0 && lx < x) {
		t.Errorf("load.x = %.3f m with the trolley at %.3f m: want the load to follow and lag", lx, x)
	}
	if fx := get(t, in, vr["suspension.fx"]); !(fx < 0) {
		t.Errorf("suspension.fx = %.1f N: the cable should pull the moving trolley back", fx)
	}
}

// Calls in the wrong state, unknown references, NaN and Inf, non-positive
// steps and fixed parameters after initialization are errors with a
// logged reason, and leave the instance usable.
func TestErrorsAreReportedAndRecoverable(t *testing.T) {
	in, rec, vr := newHoist(t)
	expect := func(what string, st fmu.Status, fragment string) {
		t.Helper()
		if st != fmu.Error {
			t.Errorf("%s: status %v, want Error", what, st)
		}
		if !strings.Contains(rec.last(), fragment) {
			t.Errorf("%s: last log %q lacks %q", what, rec.last(), fragment)
		}
	}
	expect("DoStep before init", in.DoStep(0, 0.1), "not allowed in state instantiated")
	expect("GetReal before init", in.GetReal([]uint32{0}, []float64{0}), "not allowed")
	expect("SetReal NaN", in.SetReal([]uint32{vr["suspension.x"]}, []float64{math.NaN()}), "finite")
	expect("SetReal Inf", in.SetReal([]uint32{vr["load.mass"]}, []float64{math.Inf(1)}), "finite")
	expect("SetReal output", in.SetReal([]uint32{vr["cable.tension"]}, []float64{1}), "cannot be set")
	expect("unknown vr", in.SetReal([]uint32{999}, []float64{1}), "unknown value reference 999")
	expect("below min", in.SetReal([]uint32{vr["load.mass"]}, []float64{-5}), "outside")
	expect("unknown category", in.SetDebugLogging(true, []string{"nope"}), "unknown log category")
	initialize(t, in)
	expect("zero step", in.DoStep(0, 0), "must be positive")
	expect("negative step", in.DoStep(0, -1), "must be positive")
	expect("wrong time", in.DoStep(5, 0.1), "communication point")
	expect("fixed parameter", in.SetReal([]uint32{vr["load.mass"]}, []float64{10}), "fixed parameter")
	expect("unknown vr get", in.GetReal([]uint32{vr["internalStep"] + 1}, []float64{0}), "unknown value reference")
	if st := in.DoStep(0, 0.1); st != fmu.OK {
		t.Errorf("a good step after rejected calls: %v", st)
	}
	if st := in.Terminate(); st != fmu.OK {
		t.Fatal(st)
	}
	expect("DoStep after terminate", in.DoStep(0.1, 0.1), "not allowed in state terminated")
}

// Inputs and parameters outside their declared physical ranges are refused
// with the range, and the instance goes on; the fastest crane the range
// allows still gives finite outputs.
func TestOutOfRangeValuesRefused(t *testing.T) {
	in, rec, vr := newHoist(t)
	for name, x := range map[string]float64{"load.mass": 1e300, "gravity": 1e300, "cable.length0": 1e300} {
		if st := in.SetReal([]uint32{vr[name]}, []float64{x}); st != fmu.Error || !strings.Contains(rec.last(), "outside") {
			t.Errorf("%s = %g: %v (%q), want Error naming the range", name, x, st, rec.last())
		}
	}
	initialize(t, in)
	for name, x := range map[string]float64{"suspension.vz": math.MaxFloat64, "winch.speed": -1e300, "suspension.x": 1e155} {
		if st := in.SetReal([]uint32{vr[name]}, []float64{x}); st != fmu.Error || !strings.Contains(rec.last(), name+" = ") {
			t.Errorf("%s = %g: %v (%q), want Error naming the variable", name, x, st, rec.last())
		}
	}
	if st := in.SetReal([]uint32{vr["suspension.vz"]}, []float64{1e3}); st != fmu.OK {
		t.Fatal(st)
	}
	if st := in.DoStep(0, 1); st != fmu.OK {
		t.Fatalf("DoStep with the crane at 1 km/s: %v", st)
	}
	for name, i := range vr {
		if x := get(t, in, i); math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("%s = %g", name, x)
		}
	}
}

// Instantiation refuses a wrong GUID and a missing resource folder.
func TestInstantiateRefusals(t *testing.T) {
	reg, _ := plugins.Builtin()
	abs, _ := filepath.Abs("../examples/massless")
	if _, err := fmu.Instantiate(fmu.Config{InstanceName: "x", GUID: "{wrong}", ResourceLocation: "file://" + abs, Registry: reg}); err == nil || !strings.Contains(err.Error(), "GUID") {
		t.Errorf("wrong GUID: %v", err)
	}
	if _, err := fmu.Instantiate(fmu.Config{InstanceName: "x", GUID: "{x}", ResourceLocation: "file:///nonexistent/resources", Registry: reg}); err == nil || !strings.Contains(err.Error(), "resource") {
		t.Errorf("missing resources: %v", err)
	}
}

// Resource locations come as file:///path, file:/path or a plain path.
func TestResourceDirForms(t *testing.T) {
	dir := t.TempDir()
	for _, loc := range []string{"file://" + dir, "file:" + dir, dir, "file://localhost" + dir} {
		got, err := fmu.ResourceDir(loc)
		if err != nil || got != dir {
			t.Errorf("ResourceDir(%q) = %q, %v; want %q", loc, got, err, dir)
		}
	}
	if _, err := fmu.ResourceDir("file://remote/x"); err == nil {
		t.Error("remote host accepted")
	}
}
