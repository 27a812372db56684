// Command atlas runs the same crane scenarios on the five cable models
// (massless, rigid-body, HMR wire, mass–spring, spline), each built as
// the FMU's runtime builds it (a scenario of the model's plugin, stepped
// through fmu.Instance in this process), and prints one table per
// scenario: cost per step and per simulated second, the largest stable
// internal step, the errors against closed forms (static stretch, swing,
// bounce, the hanging chain's modes) and the largest stable ratio of load
// to element mass at 1/60 s. It writes the loads' trajectories of the
// first scenario to PREFIX.csv, which scripts/compare-models.sh plots.
//
//	go run ./build/atlas -o out/atlas
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/oscillation"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// The rope of every scenario: 20 mm steel wire rope.
const (
	ropeE, ropeD, ropeDensity, g = 1e11, 0.02, 7850.0, 9.81
	top                          = 100.0 // m, the suspension point's height
	h60                          = 1.0 / 60
)

var (
	area = math.Pi * ropeD * ropeD / 4
	ea   = ropeE * area
	mu   = ropeDensity * area
)

// scenario is a crane case: a rope of Length (m) with a load (kg; 0 for
// a free hanging cable), Elements its discretization's element length (m).
type scenario struct {
	Name    string
	Length  float64
	Load    float64
	Element float64
	// Chain: the rope bends with a token stiffness (1e-3 N·m²), as the
	// closed form's chain does not bend.
	Chain bool
}

// ropeOf returns the scenario's rope data for a model that reads a
// bending stiffness.
func ropeOf(sc scenario) map[string]any {
	if sc.Chain {
		return rope(map[string]any{"bendingStiffness": 1e-3})
	}
	return rope(nil)
}

// hmrRope is ropeOf with the HMR wire's damping time of 1 ms.
func hmrRope(sc scenario) map[string]any {
	r := ropeOf(sc)
	r["dampingTime"] = 0.001
	return r
}

// model builds the scenario of one cable model.
type model struct {
	Name string
	// Scenario returns the scenario's JSON for the load mass (kg) and the
	// internal step (s); Loaded reports whether the model can carry no
	// load (false: it needs a load body).
	Scenario func(sc scenario, load, h float64) map[string]any
	// NeedsLoad: the model cannot hang a cable without a load body; Mass:
	// the model's cable has mass; Offset: the load's centre below the
	// cable's end (m).
	NeedsLoad, Mass bool
	Offset          float64
	// Elements returns the number of elements of the cable.
	Elements func(sc scenario) int
}

// loadBox is the load's box side (m) where a model hangs a box: small, so
// that its centre and inertia barely lengthen the pendulum.
const loadBox = 0.02

func rope(extra map[string]any) map[string]any {
	r := map[string]any{"E": ropeE, "poisson": 0.3, "diameter": ropeD, "density": ropeDensity}
	for k, v := range extra {
		r[k] = v
	}
	return r
}

func ports(extra ...string) []string {
	return append([]string{"suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz",
		"suspension.fx", "suspension.fy", "suspension.fz", "load.x", "load.y", "load.z", "internalStep"}, extra...)
}

var models = []model{
	{Name: "massless", NeedsLoad: true, Elements: func(scenario) int { return 1 }, // the cable holds the load's centre
		Scenario: func(sc scenario, load, h float64) map[string]any {
			return map[string]any{"model": "massless", "ports": ports(), "config": map[string]any{
				"gravity": g,
				"bodies": []any{map[string]any{"name": "suspension", "kind": "kinematic", "position": []float64{0, 0, top}},
					map[string]any{"name": "load", "kind": "dynamic", "mass": load, "size": []float64{loadBox, loadBox, loadBox}, "hangsFrom": "cable"}},
				"cables": []any{map[string]any{"name": "cable", "route": []any{map[string]any{"body": "suspension"}, map[string]any{"body": "load"}},
					"length0": sc.Length, "rope": rope(nil)}},
			}}
		}},
	{Name: "rigid-body", NeedsLoad: true, Mass: true, Offset: loadBox / 2, Elements: func(sc scenario) int { return int(math.Round(sc.Length / sc.Element)) },
		Scenario: func(sc scenario, load, h float64) map[string]any {
			n := int(math.Round(sc.Length / sc.Element))
			return map[string]any{"model": "rigid-cable", "ports": ports("cable.node[*]"), "config": map[string]any{
				"gravity": g, "suspension": map[string]any{"position": []float64{0, 0, top}},
				"load":  map[string]any{"mass": load, "size": []float64{loadBox, loadBox, loadBox}},
				"cable": map[string]any{"length0": sc.Length, "segments": n, "rope": ropeOf(sc)},
			}}
		}},
	{Name: "HMR wire", NeedsLoad: true, Mass: true, Offset: loadBox / 2, Elements: func(sc scenario) int { return int(math.Round(sc.Length / sc.Element)) },
		Scenario: func(sc scenario, load, h float64) map[string]any {
			n := int(math.Round(sc.Length / sc.Element))
			// Laid at its mean tension, stretched so that its rest length
			// is the scenario's.
			tension := load*g + mu*g*sc.Length/2
			end := top - sc.Length*(1+tension/ea)
			return map[string]any{"model": "hmr-wire", "ports": ports("cable.node[*]"), "config": map[string]any{
				"gravity": g,
				"bodies": []any{map[string]any{"name": "suspension", "kind": "kinematic", "position": []float64{0, 0, top}},
					map[string]any{"name": "load", "kind": "dynamic", "mass": load, "size": []float64{loadBox, loadBox, loadBox}, "position": []float64{0, 0, end - loadBox/2}}},
				"wires": []any{map[string]any{"name": "cable", "rope": hmrRope(sc),
					"route":   []any{map[string]any{"end": "suspension", "point": []float64{0, 0, top}}, map[string]any{"end": "load", "point": []float64{0, 0, end}}},
					"spacing": sc.Element, "tension": tension, "outputNodes": n + 1,
					"resolution": map[string]any{"adaptive": true, "maxMassNodes": n + 1, "minSegment": sc.Element / 4}}},
			}}
		}},
	{Name: "mass–spring", Mass: true, Elements: func(sc scenario) int { return int(math.Round(sc.Length / sc.Element)) },
		Scenario: func(sc scenario, load, h float64) map[string]any {
			n := int(math.Round(sc.Length / sc.Element))
			return map[string]any{"model": "mass-spring", "ports": ports("cable.node[*]"), "config": map[string]any{
				"gravity": g, "suspension": map[string]any{"position": []float64{0, 0, top}}, "load": map[string]any{"mass": load},
				"cable": map[string]any{"length0": sc.Length, "segments": n, "rope": ropeOf(sc)},
			}}
		}},
	{Name: "spline", Mass: true, Elements: func(sc scenario) int { return splineControls(sc) - 3 },
		Scenario: func(sc scenario, load, h float64) map[string]any {
			return map[string]any{"model": "spline", "ports": ports("cable.node[*]"), "config": map[string]any{
				"gravity": g, "suspension": map[string]any{"position": []float64{0, 0, top}}, "load": map[string]any{"mass": load},
				"cable":  map[string]any{"length0": sc.Length, "rope": ropeOf(sc)},
				"spline": map[string]any{"controls": splineControls(sc), "outputNodes": int(math.Round(sc.Length/sc.Element)) + 1},
			}}
		}},
}

// splineControls gives the spline a control point per two elements (its
// spans are cubic): 12 for 10 m at 0.5 m.
func splineControls(sc scenario) int { return max(4, int(math.Round(sc.Length/sc.Element))/2+2) }

// run is one instance of a model's scenario.
type run struct {
	in *fmu.Instance
	vr map[string]uint32
	t  float64
	h  float64
}

func start(reg *fmu.Registry, dir string, m model, sc scenario, load, h float64) (*run, error) {
	doc := m.Scenario(sc, load, h)
	doc["modelIdentifier"] = "Atlas"
	doc["description"] = "atlas"
	doc["stopTime"] = 1000
	doc["step"] = h
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	sub := filepath.Join(dir, strings.NewReplacer(" ", "-", "–", "-").Replace(m.Name))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(sub, fmu.ScenarioFile), data, 0o644); err != nil {
		return nil, err
	}
	scn, err := fmu.ReadScenario(sub)
	if err != nil {
		return nil, err
	}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "atlas", GUID: scn.GUID(), ResourceLocation: sub, Logger: quiet{}, Registry: reg})
	if err != nil {
		return nil, err
	}
	r := &run{in: in, vr: map[string]uint32{}, h: h}
	for i, v := range in.Variables() {
		r.vr[v.Name] = uint32(i)
	}
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode()} {
		if st != fmu.OK {
			return nil, fmt.Errorf("%s: initialization failed", m.Name)
		}
	}
	return r, nil
}

type quiet struct{}

func (quiet) Log(fmu.Status, string, string) {}

func (r *run) get(name string) float64 {
	out := []float64{0}
	r.in.Read([]uint32{r.vr[name]}, out)
	return out[0]
}

func (r *run) set(name string, x float64) { r.in.Write([]uint32{r.vr[name]}, []float64{x}) }

// step takes one communication step of h; trolley gives the trolley's x
// and vx at a time.
func (r *run) step(trolley func(t float64) (float64, float64)) error {
	x, v := trolley(r.t)
	r.set("suspension.x", x)
	r.set("suspension.vx", v)
	if st := r.in.DoStep(r.t, r.h); st != fmu.OK {
		return fmt.Errorf("step at t = %.3f s failed", r.t)
	}
	r.t += r.h
	for _, n := range []string{"load.x", "load.z"} {
		if x := r.get(n); math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s = %g at t = %.3f s", n, x, r.t)
		}
	}
	return nil
}

// move is the trolley move: 2 m in 4 s on a smooth speed ramp, starting at
// t0.
func move(t0 float64) func(float64) (float64, float64) {
	return func(t float64) (float64, float64) {
		s := t - t0
		switch {
		case s <= 0:
			return 0, 0
		case s < 4:
			return 0.5 * (s - 2/math.Pi*math.Sin(math.Pi*s/2)), 0.5 * (1 - math.Cos(math.Pi*s/2))
		}
		return 2, 0
	}
}

func still(float64) (float64, float64) { return 0, 0 }

// result is one model's row of a scenario's table.
type result struct {
	stepCost                time.Duration // per internal step
	stretchErr              float64       // of the closed form's stretch (%)
	swingErr, bounceErr     float64       // %
	swingKept               float64       // the swing's amplitude after 8 periods, of its first (%)
	bounceNote              string
	modeErr                 []float64 // % per mode
	stableStep, stableRatio float64
	ratioHeld               float64   // the first ratio whose load no rope holds (refused), 0 if none
	trace                   []float64 // load x during the move scenario
	note                    string
}

func main() {
	out := flag.String("o", "out/atlas", "output path prefix: PREFIX.csv")
	flag.Parse()
	reg, err := plugins.Builtin()
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "atlas-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	scenarios := []scenario{
		{Name: "10 m rope, 1 t, trolley move", Length: 10, Load: 1000, Element: 0.5},
		{Name: "50 m rope, 20 t, trolley move", Length: 50, Load: 20000, Element: 2},
		{Name: "10 m hanging cable without load: free swing modes", Length: 10, Load: 0, Element: 0.25, Chain: true},
	}
	var traces [][]float64
	var traced []string
	for k, sc := range scenarios {
		fmt.Printf("\n### %s\n\n", sc.Name)
		if sc.Load > 0 {
			fmt.Println("| model | elements | µs per step | ms per simulated s | static stretch | swing | sway left after 8 periods | bounce | largest stable h | largest stable M/m_element at 1/60 s |")
			fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
		} else {
			fmt.Println("| model | elements | µs per step | mode 1 | mode 2 | mode 3 |")
			fmt.Println("| --- | --- | --- | --- | --- | --- |")
		}
		for _, m := range models {
			res, err := measure(reg, dir, m, sc)
			if err != nil {
				fmt.Printf("| %s | %d | %s |\n", m.Name, m.Elements(sc), err)
				continue
			}
			if k == 0 {
				traces, traced = append(traces, res.trace), append(traced, column(m.Name))
			}
			printRow(m, sc, res)
		}
	}
	if err := writeTraces(*out, traced, traces); err != nil {
		log.Fatal(err)
	}
}

func printRow(m model, sc scenario, r result) {
	pct := func(x float64) string {
		if math.IsNaN(x) {
			return "—"
		}
		return fmt.Sprintf("%+.2f %%", x)
	}
	us := float64(r.stepCost.Nanoseconds()) / 1e3
	if sc.Load == 0 {
		cells := []string{}
		for _, e := range r.modeErr {
			cells = append(cells, pct(e))
		}
		for len(cells) < 3 {
			cells = append(cells, "—")
		}
		if r.note != "" {
			cells[0] = r.note
		}
		fmt.Printf("| %s | %d | %.1f | %s |\n", m.Name, m.Elements(sc), us, strings.Join(cells, " | "))
		return
	}
	bounce := pct(r.bounceErr)
	if r.bounceNote != "" {
		bounce = r.bounceNote
	}
	ratio := "—"
	if r.stableRatio > 0 {
		ratio = fmt.Sprintf("≥ %.0e", r.stableRatio)
	}
	if r.ratioHeld > 0 {
		ratio += fmt.Sprintf(" (%.0e: no rope holds the load)", r.ratioHeld)
	}
	fmt.Printf("| %s | %d | %.1f | %.2f | %s | %s | %.0f %% | %s | %.3g s | %s |\n", m.Name, m.Elements(sc), us, us*60/1e3,
		pct(r.stretchErr), pct(r.swingErr), r.swingKept, bounce, r.stableStep, ratio)
}

// measure runs a model through a scenario.
func measure(reg *fmu.Registry, dir string, m model, sc scenario) (result, error) {
	var res result
	load := sc.Load
	if load == 0 {
		if !m.Mass {
			res.note = "no cable mass: no modes"
			return res, nil
		}
		if m.NeedsLoad {
			load = 1e-3 * mu * sc.Length // a token end body
		}
		return modes(reg, dir, m, sc, load)
	}
	r, err := start(reg, dir, m, sc, load, h60)
	if err != nil {
		return res, err
	}
	// At rest: the static stretch.
	for r.t < 2-1e-9 {
		if err := r.step(still); err != nil {
			return res, err
		}
	}
	cableMass := 0.0
	if m.Mass {
		cableMass = mu
	}
	stretch := (load*g*sc.Length + cableMass*g*sc.Length*sc.Length/2) / ea
	drop := top - r.get("load.z") - m.Offset - sc.Length
	res.stretchErr = 100 * (drop/stretch - 1)
	// The trolley move and the swing, timed.
	t0 := time.Now()
	steps := 0
	var trace []float64
	period := 2 * math.Pi * math.Sqrt(sc.Length/g)
	for r.t < 10+8*period-1e-9 {
		if err := r.step(move(2)); err != nil {
			return res, err
		}
		steps++
		res.trace = append(res.trace, r.get("load.x"))
		if r.t > 10 {
			trace = append(trace, r.get("load.x")-2)
		}
	}
	res.stepCost = time.Since(t0) / time.Duration(steps)
	f, _, err := oscillation.Measure(trace, 0, h60)
	if err != nil {
		return res, err
	}
	amp := 0.0
	for _, x := range trace {
		amp = max(amp, math.Abs(x))
	}
	length := sc.Length + stretch + m.Offset
	w, err := closedform.HangingModes(length, mu, load, g, 1)
	if err != nil {
		return res, err
	}
	theta := math.Asin(amp / length)
	res.swingErr = 100 * (2*math.Pi*f/(w[0]*(1-theta*theta/16)) - 1)
	last := 0.0
	for _, x := range trace[len(trace)-int(period/h60):] {
		last = max(last, math.Abs(x))
	}
	res.swingKept = 100 * last / amp
	res.bounceErr, res.bounceNote = bounce(reg, dir, m, sc, load)
	res.stableStep = stableStep(reg, dir, m, sc, load)
	res.stableRatio, res.ratioHeld = stableRatio(reg, dir, m, sc)
	return res, nil
}

// bounce jerks the suspension point up by a third of the rope's static
// stretch in one step (the rope stays taut) and measures the load's
// vertical oscillation against closedform.Bounce.
func bounce(reg *fmu.Registry, dir string, m model, sc scenario, load float64) (float64, string) {
	r, err := start(reg, dir, m, sc, load, h60)
	if err != nil {
		return math.NaN(), err.Error()
	}
	for r.t < 1-1e-9 {
		if err := r.step(still); err != nil {
			return math.NaN(), err.Error()
		}
	}
	r.set("suspension.z", top+(load*g*sc.Length)/ea/3)
	cableMass := 0.0
	if m.Mass {
		cableMass = mu
	}
	want := closedform.Bounce(ea, sc.Length, cableMass, load)
	var trace []float64
	for r.t < 1+10*2*math.Pi/want-1e-9 { // ten bounces
		if err := r.step(still); err != nil {
			return math.NaN(), err.Error()
		}
		trace = append(trace, r.get("load.z"))
	}
	mean := 0.0
	for _, z := range trace[len(trace)/2:] {
		mean += z
	}
	mean /= float64(len(trace) - len(trace)/2)
	f, _, err := oscillation.Measure(trace, mean, h60)
	if err != nil {
		return math.NaN(), "damped out"
	}
	return 100 * (2*math.Pi*f/want - 1), ""
}

// stable reports whether the move scenario runs 20 s at internal and
// communication step h with the load within a quarter of the rope's
// length of where it hangs, finite.
func stable(reg *fmu.Registry, dir string, m model, sc scenario, load, h float64) bool {
	r, err := start(reg, dir, m, sc, load, h)
	if err != nil {
		return false
	}
	z0 := r.get("load.z")
	for r.t < 20-1e-9 {
		if err := r.step(move(1)); err != nil {
			return false
		}
		if math.Abs(r.get("load.z")-z0) > 0.25*sc.Length || math.Abs(r.get("load.x")-1) > sc.Length {
			return false
		}
	}
	return true
}

// stableStep returns the largest of the steps tried that is stable.
func stableStep(reg *fmu.Registry, dir string, m model, sc scenario, load float64) float64 {
	best := 0.0
	for _, h := range []float64{1.0 / 60, 1.0 / 30, 0.05, 0.1, 0.2, 0.5} {
		if !stable(reg, dir, m, sc, load, h) {
			break
		}
		best = h
	}
	return best
}

// stableRatio returns the largest ratio of load to element mass (powers
// of ten from 10 to 1e6) stable at 1/60 s, and the first ratio whose load
// the models refuse as one no rope holds (material.Rope.CheckHung), where
// the scan ends (0 if it does not): that is not an instability.
func stableRatio(reg *fmu.Registry, dir string, m model, sc scenario) (best, refused float64) {
	if !m.Mass {
		return 0, 0
	}
	element := mu * sc.Length / float64(m.Elements(sc))
	for ratio := 10.0; ratio <= 1e6; ratio *= 10 {
		if _, err := start(reg, dir, m, sc, ratio*element, h60); err != nil && strings.Contains(err.Error(), "no rope holds") {
			return best, ratio
		}
		if !stable(reg, dir, m, sc, ratio*element, h60) {
			break
		}
		best = ratio
	}
	return best, 0
}

// modes measures the first three modes of the hanging cable from its
// node outputs: for mode k the suspension point is shaken at the closed
// form's ω_k (1 cm, three periods), then held, and the nodes' free
// swing projected on the chain's mode shape J₀(2ω_k √(y/g)) (y up from
// the free end; trapezoid weights) is timed over eight periods.
func modes(reg *fmu.Registry, dir string, m model, sc scenario, load float64) (result, error) {
	var res result
	want, err := closedform.HangingModes(sc.Length, mu, load, g, 3)
	if err != nil {
		return res, err
	}
	var spent time.Duration
	steps := 0
	for _, w := range want {
		r, err := start(reg, dir, m, sc, load, h60)
		if err != nil {
			return res, err
		}
		var nodes []string
		for k := 1; ; k++ {
			n := fmt.Sprintf("cable.node[%d].x", k)
			if _, ok := r.vr[n]; !ok {
				break
			}
			nodes = append(nodes, n)
		}
		if len(nodes) < 3 {
			return res, errors.New("no node outputs")
		}
		period := 2 * math.Pi / w
		shake := func(t float64) (float64, float64) {
			if t < 3*period {
				return 0.01 * math.Sin(w*t), 0.01 * w * math.Cos(w*t)
			}
			return 0, 0
		}
		var trace []float64
		t0 := time.Now()
		for r.t < 11*period-1e-9 {
			if err := r.step(shake); err != nil {
				return res, err
			}
			steps++
			if r.t <= 3*period {
				continue
			}
			q := 0.0
			for i, n := range nodes {
				y := sc.Length * (1 - float64(i)/float64(len(nodes)-1))
				wt := 1.0
				if i == 0 || i == len(nodes)-1 {
					wt = 0.5
				}
				q += wt * r.get(n) * math.J0(2*w*math.Sqrt(y/g))
			}
			trace = append(trace, q)
		}
		spent += time.Since(t0)
		f, _, err := oscillation.Measure(trace, 0, h60)
		if err != nil {
			res.modeErr = append(res.modeErr, math.NaN())
			continue
		}
		res.modeErr = append(res.modeErr, 100*(2*math.Pi*f/w-1))
	}
	res.stepCost = spent / time.Duration(steps)
	return res, nil
}

// column names a model's column in the CSV file.
func column(model string) string {
	return map[string]string{"massless": "massless", "rigid-body": "rigid", "HMR wire": "hmr",
		"mass–spring": "massspring", "spline": "spline"}[model]
}

// writeTraces writes the loads' x in the first scenario (a column per
// model that ran it, by time) to PREFIX.csv.
func writeTraces(prefix string, names []string, traces [][]float64) error {
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("time")
	for _, n := range names {
		b.WriteString("," + n)
	}
	b.WriteString("\n")
	rows := 0
	for _, tr := range traces {
		rows = max(rows, len(tr))
	}
	for k := 0; k < rows; k++ {
		fmt.Fprintf(&b, "%.6f", 2+float64(k+1)*h60)
		for _, tr := range traces {
			if k < len(tr) {
				fmt.Fprintf(&b, ",%.9g", tr[k])
			} else {
				b.WriteString(",")
			}
		}
		b.WriteString("\n")
	}
	return os.WriteFile(prefix+".csv", []byte(b.String()), 0o644)
}
