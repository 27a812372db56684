package plugins_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// observed wraps the registry's models so that a test sees the tensions
// at every internal step, where a master stepping coarsely sees only its
// communication points: a peak between them is what a jerk of the
// suspension point would make.
type observed struct {
	fmu.Model
	peaks map[string]float64 // the largest value of each tension (N) and of |suspension.f|
}

func (m *observed) Configure(sc *fmu.Scenario) (fmu.Configured, error) {
	c, err := m.Model.Configure(sc)
	if err != nil {
		return nil, err
	}
	d, ok := c.(fmu.Driver)
	if !ok {
		return nil, fmt.Errorf("model %s drives no point", m.Name())
	}
	return observedConfigured{c, d, m}, nil
}

type observedConfigured struct {
	fmu.Configured
	fmu.Driver
	m *observed
}

func (c observedConfigured) NewSimulation(values []float64) (fmu.Simulation, error) {
	s, err := c.Configured.NewSimulation(values)
	if err != nil {
		return nil, err
	}
	o := &observedSimulation{Simulation: s, m: c.m, out: append([]float64(nil), values...), force: [3]int{-1, -1, -1}}
	for i, v := range c.Variables() {
		switch {
		case v.Causality != modeldesc.CausalityOutput:
		case strings.HasSuffix(v.Name, "tension"):
			o.tensions = append(o.tensions, i)
			o.names = append(o.names, v.Name)
		case strings.HasPrefix(v.Name, "suspension.f"):
			o.force[v.Name[len(v.Name)-1]-'x'] = i
		}
	}
	return o, nil
}

type observedSimulation struct {
	fmu.Simulation
	m        *observed
	out      []float64
	tensions []int
	names    []string
	force    [3]int
}

func (s *observedSimulation) Step(lead float64, from, to []float64, first bool) error {
	if err := s.Simulation.Step(lead, from, to, first); err != nil {
		return err
	}
	s.Outputs(s.out)
	for k, i := range s.tensions {
		s.m.peaks[s.names[k]] = math.Max(s.m.peaks[s.names[k]], s.out[i])
	}
	f := math.Sqrt(sq(s.out[s.force[0]]) + sq(s.out[s.force[1]]) + sq(s.out[s.force[2]]))
	s.m.peaks["|suspension.f|"] = math.Max(s.m.peaks["|suspension.f|"], f)
	return nil
}

func sq(x float64) float64 { return x * x }

// trolleyMove is the suspension point's move along x, starting at 1 s:
// 0.5 m/s² up to 1 m/s, at 1 m/s, and 0.5 m/s² down to rest, 10 m in
// all (m, m/s at time t in s).
func trolleyMove(t float64) (x, v float64) {
	const a, vmax, start = 0.5, 1.0, 1.0
	ta := vmax / a              // 2 s accelerating
	tc := (10 - vmax*ta) / vmax // 8 s at speed
	switch s := t - start; {
	case s <= 0:
		return 0, 0
	case s < ta:
		return 0.5 * a * s * s, a * s
	case s < ta+tc:
		return 0.5*vmax*ta + vmax*(s-ta), vmax
	case s < 2*ta+tc:
		r := 2*ta + tc - s
		return 10 - 0.5*a*r*r, a * r
	}
	return 10, 0
}

// runMove drives the example through the trolley move to tEnd with
// communication steps of H, setting the positions and, when withVel, the
// velocities at every communication point; it returns the peaks over
// every internal step and the messages logged.
func runMove(t *testing.T, example string, H float64, withVel bool, tEnd float64) (map[string]float64, []string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("../../examples", example))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	inner, err := builtin.Lookup(sc.Model)
	if err != nil {
		t.Fatal(err)
	}
	obs := &observed{Model: inner, peaks: map[string]float64{}}
	reg, err := fmu.NewRegistry(obs)
	if err != nil {
		t.Fatal(err)
	}
	log := &messages{}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: example, GUID: sc.GUID(), ResourceLocation: dir, Logger: log, LoggingOn: true, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	if err := in.SetDebugLogging(true, []string{"logStatusWarning"}); err != fmu.OK {
		t.Fatal(err)
	}
	vr := map[string]uint32{}
	for i, v := range in.Variables() {
		vr[v.Name] = uint32(i)
	}
	x0 := in.Variables()[vr["suspension.x"]].Start
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			t.Fatalf("initialization: %v (%s)", st, strings.Join(log.msgs, "; "))
		}
	}
	n := int(math.Round(tEnd / H))
	for k := 0; k < n; k++ {
		x, v := trolleyMove(float64(k) * H)
		plugintest.Set(t, in, vr["suspension.x"], x0+x)
		if withVel {
			plugintest.Set(t, in, vr["suspension.vx"], v)
		}
		if st := in.DoStep(float64(k)*H, H); st != fmu.OK {
			t.Fatalf("%s, H = %g s: DoStep at %g s: %v (%s)", example, H, float64(k)*H, st, strings.Join(log.msgs, "; "))
		}
	}
	return obs.peaks, log.msgs
}

type messages struct{ msgs []string }

func (m *messages) Log(s fmu.Status, cat, msg string) { m.msgs = append(m.msgs, msg) }

// A master that drives the suspension point through a trolley move
// (0.5 m/s² to 1 m/s, 10 m) by positions alone or by positions and
// velocities, at communication steps of 0.05, 0.1, 0.25 and 0.5 s, gets
// every peak tension (over every internal step, each tension output and
// the force on the crane) within 5 % of the run driven by positions and
// velocities at 0.01 s steps, on the Hoist, RigidHoist and WireHoist
// examples; driven by positions alone the FMU says so once.
func TestAnyMasterAnyStep(t *testing.T) {
	tEnd := 20.0
	if testing.Short() {
		tEnd = 14
	}
	for _, ex := range []string{"massless", "rigid-cable", "wire-hoist"} {
		t.Run(ex, func(t *testing.T) {
			ref, refLog := runMove(t, ex, 0.01, true, tEnd)
			for _, m := range refLog {
				if strings.Contains(m, "velocity inputs") {
					t.Errorf("driven by velocities, the FMU says: %s", m)
				}
			}
			for _, H := range []float64{0.02, 0.05, 0.07, 0.1, 0.25, 0.5} {
				for _, withVel := range []bool{false, true} {
					got, log := runMove(t, ex, H, withVel, tEnd)
					how := "positions and velocities"
					if !withVel {
						how = "positions alone"
						said := 0
						for _, m := range log {
							if strings.Contains(m, "were never set") {
								said++
							}
						}
						if said != 1 {
							t.Errorf("H = %g s, positions alone: said so %d times, want once (%q)", H, said, log)
						}
					}
					for name, want := range ref {
						dev := got[name]/want - 1
						t.Logf("H = %-4g s, %-24s: %-14s peak %8.4g kN (%+.2f %%)", H, how, name, got[name]/1e3, 100*dev)
						if math.Abs(dev) > 0.05 {
							t.Errorf("H = %g s, %s: peak %s %.4g kN, want %.4g kN within 5 %%", H, how, name, got[name]/1e3, want/1e3)
						}
					}
				}
			}
		})
	}
}
