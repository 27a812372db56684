package wirehoist_test

import (
	"encoding/json"
	"fmt"
	"github.com/cablefmu/cablefmu/core/closedform"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// example returns the WireHoist example's scenario as JSON objects, to be
// changed and written with scenarioDir.
func example(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("../../../examples/wire-hoist/scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	var sc map[string]any
	if err := json.Unmarshal(data, &sc); err != nil {
		t.Fatal(err)
	}
	return sc
}

type driver struct {
	t  *testing.T
	in *fmu.Instance
	vr map[string]uint32
	tm float64
}

func (d *driver) get(name string) float64 {
	out := []float64{0}
	if st := d.in.Read([]uint32{d.vr[name]}, out); st != fmu.OK {
		d.t.Fatalf("GetReal(%s): %v", name, st)
	}
	return out[0]
}

func (d *driver) set(name string, x float64) {
	if st := d.in.Write([]uint32{d.vr[name]}, []float64{x}); st != fmu.OK {
		d.t.Fatalf("SetReal(%s = %g): %v", name, x, st)
	}
}

func (d *driver) run(seconds float64) {
	const h = 1.0 / 60
	for k := 0; k < int(math.Round(seconds/h)); k++ {
		if st := d.in.DoStep(d.tm, h); st != fmu.OK {
			d.t.Fatalf("t = %.3f s: %v", d.tm, st)
		}
		d.tm += h
	}
}

// torqueScenario returns the example with the drum's motor in torque
// mode, its input winch.torque in place of winch.speed.
func torqueScenario(t *testing.T) string {
	sc := example(t)
	own(sc["config"].(map[string]any))["drum"].(map[string]any)["drive"] = "torque"
	var ports []any
	for _, p := range sc["ports"].([]any) {
		if p == "winch.speed" {
			p = "winch.torque"
		}
		ports = append(ports, p)
	}
	sc["ports"] = ports
	return plugintest.ScenarioDir(t, sc)
}

// TestTorqueDrive: the example with the drum's motor in torque mode. The
// holding brake engaged, the drum stands (|ω| < 1e-3 rad/s) and the
// brake holds the wire's moment R·T within 2 %; the brake released and
// the motor giving the torque the brake held (its mean over a second),
// the load stays (the hook moves less than 5 mm in 1 s); 20 % more
// hauls it up, and the motor's torque is the input.
func TestTorqueDrive(t *testing.T) {
	in, vr := plugintest.New(t, torqueScenario(t), nil)
	d := &driver{t: t, in: in, vr: vr}
	const R = 0.4
	d.set("winch.brake", 1)
	d.run(2)
	// The brake's torque over a second: the load still bounces a little
	// on its falls from the start.
	hold := 0.0
	for k := 0; k < 60; k++ {
		d.run(1.0 / 60)
		hold += d.get("drum.brakeTorque") / 60
	}
	omega, T := d.get("drum.omega"), d.get("cable.tension")
	t.Logf("braked: ω = %.2g rad/s, brake %.0f N·m, wire's moment R·T = %.0f N·m", omega, hold, R*T)
	if math.Abs(omega) > 1e-3 || math.Abs(-hold/(R*T)-1) > 0.02 {
		t.Errorf("braked: ω = %.3g rad/s, brake %.0f N·m against R·T = %.0f N·m", omega, hold, R*T)
	}
	d.set("winch.brake", 0)
	d.set("winch.torque", hold)
	z0 := d.get("hook.z")
	d.run(1)
	if dz := d.get("hook.z") - z0; math.Abs(dz) > 5e-3 {
		t.Errorf("torque %.0f N·m: the hook moved %.4f m in 1 s", hold, dz)
	}
	d.set("winch.torque", 1.2*hold)
	d.run(2)
	if dz := d.get("hook.z") - z0; !(dz > 0.05) {
		t.Errorf("torque 1.2 × %.0f N·m: the hook rose only %.4f m in 2 s", hold, dz)
	}
	if tau := d.get("drum.motorTorque"); math.Abs(tau/(1.2*hold)-1) > 1e-9 {
		t.Errorf("motor torque %.1f N·m, want the input %.1f", tau, 1.2*hold)
	}
}

// TestConfigRefused: scenarios the wire hoist cannot build are refused by
// the exporter's registry with a message naming the setting.
func TestConfigRefused(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(cfg map[string]any)
		want   string
	}{
		{func(cfg map[string]any) { own(cfg)["drum"].(map[string]any)["drive"] = "sideways" }, `wireHoist.drum.drive "sideways"`},
		{func(cfg map[string]any) { own(cfg)["falls"] = -1.0 }, "wireHoist.falls -1"},
		{func(cfg map[string]any) { own(cfg)["falls"] = 13.0 }, "wireHoist.falls 13"},
		// 0 was read as left out: one fall, the default, without a word.
		{func(cfg map[string]any) { own(cfg)["falls"] = 0.0 }, `"wireHoist.falls": 0 is not a value (leave the key out for its default)`},
		{func(cfg map[string]any) { own(cfg)["outputNodes"] = 0.0 }, `"wireHoist.outputNodes": 0 is not a value`},
		{func(cfg map[string]any) { own(cfg)["spacing"] = 0.0 }, `"wireHoist.spacing": 0 is not a value`},
		{func(cfg map[string]any) { cfg["cable"].(map[string]any)["minLength"] = 0.0 }, `"cable.minLength": 0 is not a value`},
		{func(cfg map[string]any) { own(cfg)["sheave"].(map[string]any)["sides"] = 2.0 }, "wireHoist.sheave.sides 2"},
		{func(cfg map[string]any) { own(cfg)["sheave"].(map[string]any)["sides"] = 3.0 }, "wireHoist.sheave.sides 3"},
		{func(cfg map[string]any) { own(cfg)["block"].(map[string]any)["centerBelow"] = 0.7 }, "wireHoist.block.centerBelow 0.7 m: the block's centre of mass must lie within its lower half, 0 to 0.6 m"},
		{func(cfg map[string]any) { own(cfg)["block"].(map[string]any)["centerBelow"] = -0.1 }, "wireHoist.block.centerBelow -0.1 m"},
		{func(cfg map[string]any) { own(cfg)["sling"] = 41.0 }, "cable.length0 41 m: the load's top below the suspension point must exceed wireHoist.sling 41 m"},
		// Below the hook sheaves' wire: the routing had found the wire
		// through the load and asked for a route the user never gives.
		{func(cfg map[string]any) { own(cfg)["sling"] = 0.0 }, "wireHoist.sling 0 m: on 4 falls the load's top must lie below the wire under the hook sheaves"},
		{func(cfg map[string]any) { own(cfg)["sling"] = 0.405 }, "wireHoist.sling 0.405 m: on 4 falls the load's top must lie below the wire under the hook sheaves"},
		{func(cfg map[string]any) { own(cfg)["sheave"].(map[string]any)["width"] = 0.001 }, "wireHoist.sheave.width 0.001 m: narrower than the rope"},
		{func(cfg map[string]any) { own(cfg)["drum"].(map[string]any)["width"] = 0.005 }, "wireHoist.drum.width 0.005 m: narrower than the rope"},
		{func(cfg map[string]any) { cfg["suspension"].(map[string]any)["position"] = []any{-40.0, 0.0, 50.0} }, "drum"},
		{func(cfg map[string]any) { cfg["suspension"].(map[string]any)["position"] = []any{0.0, 3.0, 50.0} }, "must start in the drum's vertical plane y = 0 m, 3 m off it"},
		{func(cfg map[string]any) { cfg["load"].(map[string]any)["mass"] = 0.0 }, "load.mass 0 kg"},
		{func(cfg map[string]any) { own(cfg)["outputNodes"] = 1.0 }, "wireHoist.outputNodes 1"},
		{func(cfg map[string]any) { own(cfg)["sheave"].(map[string]any)["groove"] = 1.0 }, "groove"},
		{func(cfg map[string]any) { cfg["cable"].(map[string]any)["segments"] = 10.0 }, "cable.segments and wireHoist.spacing: give one"},
		{func(cfg map[string]any) { delete(cfg, "wireHoist") }, "config.wireHoist: missing: the wire hoist's reeving"},
		{func(cfg map[string]any) { delete(own(cfg), "block") }, `"wireHoist": "block" is missing`},
		{func(cfg map[string]any) {
			cfg["cable"].(map[string]any)["rope"].(map[string]any)["bendingStiffness"] = 1e5
		}, "cable.rope.bendingStiffness 100000 N·m²: must lie in [0, "},
		{func(cfg map[string]any) {
			cfg["cable"].(map[string]any)["rope"].(map[string]any)["bendingStiffness"] = -1.0
		}, "cable.rope.bendingStiffness -1 N·m²"},
		{func(cfg map[string]any) { own(cfg)["swivel"] = true }, "wireHoist.swivel: on 4 falls the dead end is on the boom tip"},
		{func(cfg map[string]any) { cfg["cable"].(map[string]any)["rope"].(map[string]any)["E"] = 5e12 }, "cable.rope.bendingStiffness: the default"},
		{func(cfg map[string]any) {
			cfg["cable"].(map[string]any)["rope"].(map[string]any)["torqueFactor"] = 0.5
		}, "cable.rope.torqueFactor"},
		{func(cfg map[string]any) { cfg["boomTip"] = []any{0.0, 0.0, 50.0} }, "config.boomTip: now config.suspension.position"},
		{func(cfg map[string]any) { cfg["drop"] = 40.0 }, "config.drop: now config.cable.length0"},
		{func(cfg map[string]any) { cfg["load"].(map[string]any)["sling"] = 1.0 }, "config.load.sling: now config.wireHoist.sling"},
		{func(cfg map[string]any) { cfg["hmrWire"] = map[string]any{} }, "config.hmrWire: settings of the hmr-wire model"},
	} {
		sc := example(t)
		c.change(sc["config"].(map[string]any))
		if err := configureScenario(t, reg, sc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one saying %q", err, c.want)
		}
	}
}

// TestOneFallShortSling: one fall ends at the hook, with no sheave
// whose wire the load could reach, so a sling shorter than the sheave's
// radius builds (the check of the hook sheaves' wire once refused it).
func TestOneFallShortSling(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	sc := example(t)
	cfg := sc["config"].(map[string]any)
	own(cfg)["falls"] = 1.0
	own(cfg)["sling"] = 0.2
	if err := configureScenario(t, reg, sc); err != nil {
		t.Fatalf("one fall on a 0.2 m sling: %v", err)
	}
	own(cfg)["falls"] = 2.0
	if err := configureScenario(t, reg, sc); err == nil || !strings.Contains(err.Error(), "wireHoist.sling 0.2 m: on 2 falls") {
		t.Fatalf("two falls on a 0.2 m sling: error %v, want the sling refused", err)
	}
}

// configureScenario parses scenario sc and configures it in reg: the
// error of either.
func configureScenario(t *testing.T, reg *fmu.Registry, sc map[string]any) error {
	t.Helper()
	data, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := fmu.ParseScenario(data)
	if err != nil {
		return err
	}
	_, err = reg.Configure(parsed)
	return err
}

// own is the wire hoist's own block of a scenario's config.
func own(cfg map[string]any) map[string]any { return cfg["wireHoist"].(map[string]any) }

// TestDroppedLoad: the motor off in torque mode and no brake, the 20 t
// load falls 7 m onto the ground, the drum spinning the wire out at
// 87 rad/s (the sheaves so fast that each step is cut into substeps):
// every step solves, the load comes to rest on the ground, which carries
// the hooked weight within 5 % (the slack wire hanging from the hook
// sheaves adds to it), and the drum, now braked, stops.
func TestDroppedLoad(t *testing.T) {
	in, vr := plugintest.New(t, torqueScenario(t), nil)
	d := &driver{t: t, in: in, vr: vr}
	const hooked = (20000 + 500 + 2*80) * 9.81
	d.run(4)
	t.Logf("after 4 s: load at %.3f m, ground %.0f N, drum ω %.1f rad/s, %g mass nodes", d.get("load.z"), d.get("ground.force"), d.get("drum.omega"), d.get("cable.massNodes"))
	d.set("winch.brake", 1)
	d.run(4)
	t.Logf("braked 4 s: load at %.3f m, ground %.0f N of the hooked %.0f N, drum ω %.3f rad/s", d.get("load.z"), d.get("ground.force"), hooked, d.get("drum.omega"))
	if z := d.get("load.z"); math.Abs(z-1) > 0.01 {
		t.Errorf("the load's centre at %.3f m, want resting on the ground at 1 m", z)
	}
	if f := d.get("ground.force"); math.Abs(f/hooked-1) > 0.05 {
		t.Errorf("the ground carries %.0f N, want the hooked %.0f N within 5 %%", f, hooked)
	}
	if w := d.get("drum.omega"); math.Abs(w) > 1e-3 {
		t.Errorf("the braked drum turns at %.3g rad/s", w)
	}
}

// TestRopeTorqueTurnsTheBlock: the example on two falls with a
// rotation-resistant rope (torque factor 0.0076, GJ = 20 N·m²): through
// the FMU the hook block swings about the vertical about the angle of
// closedform.BlockYaw (its mean over the 80 s after the first second
// within 5 %; it starts at 0 and swings about its rest, 26 s a swing);
// the rope's torque at the drum is k·d times the drum's tension, and at
// the dead end k·d times the fall's, within 2 %.
func TestRopeTorqueTurnsTheBlock(t *testing.T) {
	const k, gj = 0.0076, 20.0
	sc := example(t)
	cfg := sc["config"].(map[string]any)
	own(cfg)["falls"] = 2.0
	rope := cfg["cable"].(map[string]any)["rope"].(map[string]any)
	rope["torqueFactor"], rope["torsionalStiffness"] = k, gj
	sc["ports"] = append(sc["ports"].([]any), "hook.yaw", "hook.yawRate", "drum.ropeTorque", "deadEnd.ropeTorque")
	in, vr := plugintest.New(t, plugintest.ScenarioDir(t, sc), nil)
	d := &driver{t: t, in: in, vr: vr}
	d.run(1)
	mean, steps := 0.0, 0.0
	var drum, drumWant, dead, deadWant float64
	for k := 0; k < 80*20; k++ {
		d.run(0.05)
		mean += d.get("hook.yaw")
		steps++
		drum, drumWant = d.get("drum.ropeTorque"), d.get("cable.tension")
		dead, deadWant = d.get("deadEnd.ropeTorque"), d.get("fall[2].tension")
	}
	mean /= steps
	const diameter = 0.02
	W := (20000 + 500 + 2*80) * 9.81
	want := closedform.BlockYaw(W, 0.8, 40, k, diameter, gj)
	t.Logf("mean yaw %.4f° (closed form %.4f°); rope torque at the drum %.3f N·m (k·d·T = %.3f), at the dead end %.3f N·m (%.3f)",
		mean*180/math.Pi, want*180/math.Pi, drum, k*diameter*drumWant, dead, k*diameter*deadWant)
	if math.Abs(mean/want-1) > 0.05 {
		t.Errorf("mean yaw %.4f°, closed form %.4f°", mean*180/math.Pi, want*180/math.Pi)
	}
	if math.Abs(drum/(k*diameter*drumWant)-1) > 0.02 || math.Abs(dead/(k*diameter*deadWant)-1) > 0.02 {
		t.Errorf("rope torques %.3f and %.3f N·m, want k·d·T = %.3f and %.3f", drum, dead, k*diameter*drumWant, k*diameter*deadWant)
	}
}

// TestSheaveOutputs: the example's sheave and drum outputs through the
// FMU. At
// rest the hook sheave is wrapped by half a turn, D/d is the groove's
// diameter over the rope's, and nothing has run over the sheaves; hauled
// in at 1.2 m/s for 6 s and stopped, the wire ran over the sheave next to
// the drum four times as far as over the last (four falls), at four times
// its speed over the last second, within 5 % (the drive steps from rest,
// and the load's bounce runs wire over the sheaves as the falls stretch;
// TestSheaveWrapTravelAndPasses has the ramped lift within 1 %), and each
// sheave counts one pass (more than its wrapped arc, 1.26 m, ran over the
// last); the drum, held at its speed, took the 7.2 m on within 2 cm (the
// travel leaves out the first centimetre's play), one pass, and is wrapped by its wound wire over its 0.4 m radius (the
// sheaves' travel counts the load's bounce both ways, the drum's not).
func TestSheaveOutputs(t *testing.T) {
	in, vr := plugintest.New(t, plugintest.ScenarioDir(t, example(t)), nil)
	d := &driver{t: t, in: in, vr: vr}
	d.run(1)
	wrap, dd := d.get("sheave[2].wrap"), d.get("sheave[2].dOverD")
	t.Logf("at rest: hook sheave 1 wrapped by %.4f rad, D/d %.1f, travel %.4f m, %v passes", wrap, dd, d.get("sheave[2].travel"), d.get("sheave[2].passes"))
	if math.Abs(wrap-math.Pi) > 0.5*math.Pi/180 || math.Abs(dd-40) > 1e-9 {
		t.Errorf("at rest: hook sheave 1 wrapped by %.4f rad (want π), D/d %.3f (want 40)", wrap, dd)
	}
	start := [2]float64{d.get("sheave[1].travel"), d.get("sheave[4].travel")}
	drumStart := d.get("drum.travel")
	d.set("winch.speed", -1.2)
	d.run(5)
	var speeds [2]float64
	for k := 0; k < 60; k++ {
		d.run(1.0 / 60)
		speeds[0] += math.Abs(d.get("sheave[1].speed")) / 60
		speeds[1] += math.Abs(d.get("sheave[4].speed")) / 60
	}
	d.set("winch.speed", 0)
	d.run(3)
	first, last := d.get("sheave[1].travel")-start[0], d.get("sheave[4].travel")-start[1]
	t.Logf("hauled: %.3f m over the first sheave, %.3f m over the last (ratio %.3f); speeds while hauling %.3f and %.3f m/s", first, last, first/last, speeds[0], speeds[1])
	if math.Abs(first/last/4-1) > 0.05 || math.Abs(speeds[0]/speeds[1]/4-1) > 0.05 {
		t.Errorf("hauled: the first sheave saw %.3f m at %.3f m/s, the last %.3f m at %.3f m/s; want four times", first, speeds[0], last, speeds[1])
	}
	for k := 1; k <= 4; k++ {
		if p := d.get(fmt.Sprintf("sheave[%d].passes", k)); p != 1 {
			t.Errorf("sheave %d: %v passes after one haul", k, p)
		}
	}
	drum := d.get("drum.travel") - drumStart
	t.Logf("drum: %.4f m of wire hauled on, D/d %.1f, wrapped by %.1f rad, %v passes", drum, d.get("drum.dOverD"), d.get("drum.wrap"), d.get("drum.passes"))
	if math.Abs(drum-7.2) > 0.02 || d.get("drum.passes") != 1 || math.Abs(d.get("drum.wrap")*0.4-d.get("drum.wound")) > 1e-9*d.get("drum.wound") {
		t.Errorf("drum: %.4f m hauled on (1.2 m/s for 6 s: 7.2 m), %v passes, wrapped by %.4f rad with %.4f m wound on 0.4 m", drum, d.get("drum.passes"), d.get("drum.wrap"), d.get("drum.wound"))
	}
}

// TestFleetAngleEvent: the example's boom tip moved sideways (across the
// sheaves' planes, 0.25 m/s, the drum staying on the base) turns the lead
// from the drum across the first boom sheave: its fleet angle follows
// asin(Δy/L) of the lead's length L, and once past the 4° limit
// (wireHoist.sheave.fleetAngleLimit) one event names the sheave (the
// lead, vibrating by ±0.3°, does not make it cross back and forth: back
// within takes 75 % of the limit); none before. The wire stays reeved (the load does
// not drop).
func TestFleetAngleEvent(t *testing.T) {
	sim, index, values := exampleSimulation(t, nil)
	events := sim.(interface{ DrainEvents() []string })
	loadZ := func() float64 {
		out := make([]float64, len(values))
		sim.Outputs(out)
		return out[index["load.z"]]
	}
	const h, v = 1.0 / 60, 0.25
	lead := math.Sqrt(30*30 + 49*49) // drum centre to boom tip, m
	y, firstAt, count := 0.0, -1.0, 0
	z0 := 0.0
	for k := 0; k < int(24/h); k++ {
		from := append([]float64(nil), values...)
		vy := v
		if k < 60 {
			vy = v * float64(k) / 60
		}
		from[index["suspension.y"]], from[index["suspension.vy"]] = y, vy
		y += vy * h
		if err := sim.Step(0, from, from, true); err != nil {
			t.Fatalf("t = %.2f s: %v", float64(k)*h, err)
		}
		values = from
		for _, e := range events.DrainEvents() {
			t.Logf("t = %.2f s, boom tip %.2f m aside: %s", float64(k)*h, y, e)
			count++
			if strings.Contains(e, "beyond") {
				if !strings.Contains(e, "boom sheave 1") {
					t.Errorf("the event names another sheave: %s", e)
				}
				if firstAt < 0 {
					firstAt = y
				}
			}
		}
		if k == 0 {
			z0 = loadZ()
		}
	}
	want := lead * math.Sin(0.07) // where the lead's fleet angle reaches 4°
	t.Logf("%d events, the first with the boom tip %.2f m aside; asin(Δy/L) reaches 4° at %.2f m", count, firstAt, want)
	if firstAt < 0 || math.Abs(firstAt-want) > 0.1*want || count != 1 {
		t.Errorf("%d fleet angle events, the first with the boom tip %.2f m aside; want one, about %.2f m aside", count, firstAt, want)
	}
	if z := loadZ(); z < z0-0.5 {
		t.Errorf("the load dropped from %.2f m to %.2f m", z0, z)
	}
}

// slewScenario returns the example on a slewing superstructure about the
// drum's vertical axis, driven by slew.rate in place of the boom tip's
// inputs (keep them to see the scenario refused).
func slewScenario(t *testing.T, keepSuspension bool) string {
	sc := example(t)
	own(sc["config"].(map[string]any))["slew"] = map[string]any{"center": []any{-30.0, 0.0, 1.0}}
	var ports []any
	for _, p := range sc["ports"].([]any) {
		name := p.(string)
		if strings.HasPrefix(name, "suspension.") && len(name) <= len("suspension.vx") && !strings.HasPrefix(name, "suspension.f") && !keepSuspension {
			continue
		}
		ports = append(ports, p)
	}
	sc["ports"] = append(ports, "slew.rate", "slew.angle")
	return plugintest.ScenarioDir(t, sc)
}

// exampleSimulation returns the WireHoist example's simulation (its
// scenario's config changed by change, if given), started from its
// variables' start values, with the index of each variable by name and
// those values.
func exampleSimulation(t *testing.T, change func(config map[string]any)) (fmu.Simulation, map[string]int, []float64) {
	t.Helper()
	sc := example(t)
	if change != nil {
		change(sc["config"].(map[string]any))
	}
	data, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := fmu.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := reg.Configure(parsed)
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	var values []float64
	for i, v := range cfg.Variables() {
		index[v.Name] = i
		values = append(values, v.Start)
	}
	sim, err := cfg.NewSimulation(values)
	if err != nil {
		t.Fatal(err)
	}
	return sim, index, values
}

// TestSheaveLostEvent: the example's load set down, its slack wire (up to
// 200 mass nodes) whipped by the winch reversing between 8 m/s out and in
// every 2 s lifts off sheaves altogether and lands on others (the model
// has no rope guard). The events follow the wraps: a sheave the wire
// wraps no more is reported off, one it wraps again by 30° back on (not
// at a graze), one wrapped 90° beyond its reeving overwrapped, 45° back
// within; at every step the events' account agrees with the wrap outputs.
// Lowering the load at 1.2 m/s and setting it down gives no event. The
// whipping goes on until a sheave loses the wire (at most 30 cycles),
// then two cycles more.
func TestSheaveLostEvent(t *testing.T) {
	sim, index, values := exampleSimulation(t, func(config map[string]any) {
		config["wireHoist"].(map[string]any)["resolution"].(map[string]any)["maxMassNodes"] = 200
	})
	events := sim.(interface{ DrainEvents() []string })
	const h = 1.0 / 60
	out := make([]float64, len(values))
	var wraps []int // the sheaves' wrap outputs
	for k := 1; ; k++ {
		i, ok := index[fmt.Sprintf("sheave[%d].wrap", k)]
		if !ok {
			break
		}
		wraps = append(wraps, i)
	}
	if len(wraps) == 0 {
		t.Fatal("no sheave[k].wrap outputs")
	}
	sim.Outputs(out)
	reeved := make([]float64, len(wraps))
	for j, i := range wraps {
		reeved[j] = out[i]
		if !(reeved[j] > 0) {
			t.Fatalf("sheave %d wrapped by %g rad at the start", j+1, reeved[j])
		}
	}
	off, over := make([]bool, len(wraps)), make([]bool, len(wraps)) // by the events
	offs, ons, overs := 0, 0, 0
	tm := 0.0
	run := func(speed float64, steps int, expectNone bool) {
		for k := 0; k < steps; k++ {
			values[index["winch.speed"]] = speed
			if err := sim.Step(0, values, values, tm == 0); err != nil {
				t.Fatalf("t = %.2f s: %v", tm, err)
			}
			tm += h
			for _, e := range events.DrainEvents() {
				if expectNone && strings.Contains(e, "(sheave[") {
					t.Errorf("t = %.2f s, lowering the load: %s", tm, e)
				}
				for j := range wraps {
					if !strings.Contains(e, fmt.Sprintf("(sheave[%d])", j+1)) {
						continue
					}
					flag, count, set := &off[j], &offs, true
					switch {
					case strings.Contains(e, "has come off"):
					case strings.Contains(e, "again, wrapping"):
						count, set = &ons, false
					case strings.Contains(e, "beyond the") && strings.Contains(e, "reeved with"):
						flag, count = &over[j], &overs
					case strings.Contains(e, "within its reeving"):
						flag, count, set = &over[j], nil, false
					default:
						continue
					}
					if *flag == set {
						t.Errorf("t = %.2f s: sheave %d reported so twice: %s", tm, j+1, e)
					}
					*flag = set
					if count != nil {
						*count++
					}
				}
			}
			sim.Outputs(out)
			for j, i := range wraps {
				w := out[i]
				if w == 0 && !off[j] || w >= 30*math.Pi/180 && off[j] {
					t.Fatalf("t = %.2f s: sheave %d wrapped by %.1f°, the events say off %v", tm, j+1, w*180/math.Pi, off[j])
				}
				if w > reeved[j]+math.Pi/2 && !over[j] || w < reeved[j]+math.Pi/4 && over[j] {
					t.Fatalf("t = %.2f s: sheave %d wrapped by %.1f° (reeved %.1f°), the events say overwrapped %v", tm, j+1, w*180/math.Pi, reeved[j]*180/math.Pi, over[j])
				}
			}
		}
	}
	for {
		run(1.2, 1, true)
		if sim.Outputs(out); out[index["ground.force"]] > 0 {
			break
		}
		if tm > 60 {
			t.Fatal("the load did not reach the ground in 60 s")
		}
	}
	run(1.2, 60, true)
	run(0, 60, true)
	more := 2 // cycles after the first loss
	for cycle := 0; more > 0; cycle++ {
		if cycle == 30 {
			t.Fatal("no sheave lost the wire in 30 cycles: the test shows nothing")
		}
		run(8, 120, false)
		run(-8, 120, false)
		if offs > 0 {
			more--
		}
	}
	t.Logf("%d times a sheave lost the wire, %d times it took it back, %d times one was wrapped beyond its reeving; off at the end %v, overwrapped %v", offs, ons, overs, off, over)
}

// TestSetDownKeepsReeving: the example reeved side by side, and with its
// hook crossed, its load set down, 0.5, 2 or 5 s of wire paid out after
// it landed (at 1.2 m/s), then hauled in at 1.2 m/s until the load hangs
// 0.5 m up and left 3 s. Each fall stays in its own groove: no event
// says a sheave lost the wire or is wrapped beyond its reeving, every
// sheave is wrapped as at the start within 5° after the lift, and over
// the last 2 s every fall carries the mean of the four within 2 %. (Side
// by side, a fall pulled against the flange between two hook sheaves by
// its fleet angle used to clip the neighbour's groove there and walk over
// onto it: after 2 s of slack, hook sheave 2's fall ended on hook sheave
// 1, wrapped 360° and 0°, one fall carrying nothing. With the hook
// crossed, slack wire lying across a hook sheave's face to its far
// flange and back read as a wrap of 350°.)
func TestSetDownKeepsReeving(t *testing.T) {
	for _, reeving := range []string{"sideBySide", "crossedHook"} {
		for _, slack := range []float64{0.5, 2, 5} {
			setDownKeepsReeving(t, reeving, slack)
		}
	}
}

func setDownKeepsReeving(t *testing.T, reeving string, slack float64) {
	const h, v = 1.0 / 60, 1.2
	sim, index, values := exampleSimulation(t, func(config map[string]any) {
		config["wireHoist"].(map[string]any)[reeving] = true
	})
	events := sim.(interface{ DrainEvents() []string })
	out := make([]float64, len(values))
	var wraps, falls []int
	for k := 1; ; k++ {
		i, ok := index[fmt.Sprintf("sheave[%d].wrap", k)]
		if !ok {
			break
		}
		wraps = append(wraps, i)
		falls = append(falls, index[fmt.Sprintf("fall[%d].tension", k)])
	}
	sim.Outputs(out)
	reeved := make([]float64, len(wraps))
	for j, i := range wraps {
		reeved[j] = out[i]
	}
	tm := 0.0
	run := func(speed float64, steps int, each func()) {
		for k := 0; k < steps; k++ {
			values[index["winch.speed"]] = speed
			if err := sim.Step(0, values, values, tm == 0); err != nil {
				t.Fatalf("%s, %g s of slack, t = %.2f s: %v", reeving, slack, tm, err)
			}
			tm += h
			for _, e := range events.DrainEvents() {
				if strings.Contains(e, "has come off") || strings.Contains(e, "reeved with") {
					t.Errorf("%s, %g s of slack, t = %.2f s: %s", reeving, slack, tm, e)
				}
			}
			sim.Outputs(out)
			if each != nil {
				each()
			}
		}
	}
	for out[index["ground.force"]] == 0 {
		if run(v, 1, nil); tm > 60 {
			t.Fatalf("%s: the load did not reach the ground in 60 s", reeving)
		}
	}
	landed := out[index["load.z"]]
	run(v, int(slack/h), nil)
	run(0, 60, nil)
	for out[index["load.z"]] < landed+0.5 {
		if run(-v, 1, nil); tm > 120 {
			t.Fatalf("%s, %g s of slack: the load was not lifted by 0.5 m in 120 s", reeving, slack)
		}
	}
	run(0, 60, nil)
	mean := make([]float64, len(falls))
	run(0, 120, func() {
		for j, i := range falls {
			mean[j] += out[i] / 120
		}
	})
	all := 0.0
	for _, T := range mean {
		all += T / float64(len(mean))
	}
	for j, i := range wraps {
		w := out[i]
		t.Logf("%s, %g s of slack: sheave %d wrapped by %.2f° (%.2f° at the start), fall %d carries %.0f N (%+.2f %% of the falls' mean)",
			reeving, slack, j+1, w*180/math.Pi, reeved[j]*180/math.Pi, j+1, mean[j], 100*(mean[j]/all-1))
		if math.Abs(w-reeved[j]) > 5*math.Pi/180 {
			t.Errorf("%s, %g s of slack: sheave %d wrapped by %.1f° after the lift, %.1f° at the start", reeving, slack, j+1, w*180/math.Pi, reeved[j]*180/math.Pi)
		}
		if math.Abs(mean[j]/all-1) > 0.02 {
			t.Errorf("%s, %g s of slack: fall %d carries %.0f N, the falls' mean %.0f N", reeving, slack, j+1, mean[j], all)
		}
	}
}

// TestFleetAngleBeyondAtStart: a hoist built with its fleet angles beyond
// their limit (side-by-side reeving, each fall at about 0.04°, the limit
// 0.0006 rad) reports each such sheave in the first step, in a fresh
// instance and in one that loaded the state saved before that step.
func TestFleetAngleBeyondAtStart(t *testing.T) {
	change := func(config map[string]any) {
		hoist := config["wireHoist"].(map[string]any)
		hoist["sideBySide"] = true
		hoist["sheave"].(map[string]any)["fleetAngleLimit"] = 0.0006
	}
	first := func(sim fmu.Simulation, values []float64) int {
		if err := sim.Step(0, values, values, true); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range sim.(interface{ DrainEvents() []string }).DrainEvents() {
			if strings.Contains(e, "beyond the") && strings.Contains(e, "groove holds") {
				n++
			}
		}
		return n
	}
	fresh, _, values := exampleSimulation(t, change)
	saved := fresh.SaveState(nil)
	n := first(fresh, values)
	restored, _, _ := exampleSimulation(t, change)
	if err := restored.LoadState(saved); err != nil {
		t.Fatal(err)
	}
	m := first(restored, values)
	t.Logf("fleet angle events in the first step: %d fresh, %d restored", n, m)
	if n == 0 || m != n {
		t.Errorf("fleet angle events in the first step: %d fresh, %d restored; want some, the same", n, m)
	}
}

// slewRamp is a slew rate profile at time tm (s): up to rate (rad/s) over
// ramp seconds, held for full seconds, down again over ramp seconds.
func slewRamp(rate, ramp, full, tm float64) float64 {
	switch {
	case tm < ramp:
		return rate * tm / ramp
	case tm > ramp+full:
		return rate * (2*ramp + full - tm) / ramp
	}
	return rate
}

// TestSlewThroughTheFMU: the example on a slewing superstructure, slewed
// by 90° through slew.rate (0.1 rad/s, ramped over the load's 13 s swing):
// slew.angle reads π/2, the hook ends below the turned boom tip (its mean
// over a swing within 0.1 m of the falls' centre there) and every fall
// carries its static tension within 2 %. A scenario that slews and still
// drives the boom tip through the suspension inputs is refused.
func TestSlewThroughTheFMU(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	both, err := fmu.ReadScenario(slewScenario(t, true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Configure(both); err == nil || !strings.Contains(err.Error(), "wireHoist.slew") {
		t.Errorf("a slewing scenario with the suspension inputs: %v, want it refused", err)
	}
	in, vr := plugintest.New(t, slewScenario(t, false), nil)
	d := &driver{t: t, in: in, vr: vr}
	d.run(2)
	var static [4]float64
	for k := range static {
		static[k] = d.get(fmt.Sprintf("fall[%d].tension", k+1))
	}
	const rate, h = 0.1, 1.0 / 60
	ramp := 2 * math.Pi * math.Sqrt(42/9.81)
	full := (math.Pi/2 - rate*ramp) / rate
	for k := 0; float64(k)*h < 2*ramp+full-1e-9; k++ {
		w := slewRamp(rate, ramp, full, (float64(k)+0.5)*h)
		d.set("slew.rate", w)
		d.run(h)
	}
	d.set("slew.rate", 0)
	d.run(20)
	var hx, hy float64
	n := int(math.Round(ramp / h))
	for k := 0; k < n; k++ {
		d.run(h)
		hx, hy = hx+d.get("hook.x")/float64(n), hy+d.get("hook.y")/float64(n)
	}
	// After 90° about (−30, 0): the boom tip at (−30, 30), the falls'
	// centre 1.6 m further out.
	off := math.Hypot(hx+30, hy-31.6)
	t.Logf("slew.angle %.6f rad; the hook's mean %.3f m from the falls' centre below the tip", d.get("slew.angle"), off)
	if math.Abs(d.get("slew.angle")-math.Pi/2) > 2e-3 || off > 0.1 {
		t.Errorf("slewed by %.6f rad (want π/2), the hook's mean %.3f m off its place", d.get("slew.angle"), off)
	}
	for k := range static {
		got := d.get(fmt.Sprintf("fall[%d].tension", k+1))
		if math.Abs(got/static[k]-1) > 0.02 {
			t.Errorf("fall %d: %.0f N after the slew, %.0f N before", k+1, got, static[k])
		}
	}
}

// TestSlewAngleCountsTurns: slewed 1.25 turns at 0.2 rad/s (ramped over
// the load's 13 s swing at both ends), slew.angle counts on through the half and whole
// turns, the integral of the slew rate within 1e-4 rad (it read
// −2.986 rad after slewing 3.297), and a state saved after 1.1 turns
// brings the count back.
func TestSlewAngleCountsTurns(t *testing.T) {
	in, vr := plugintest.New(t, slewScenario(t, false), nil)
	d := &driver{t: t, in: in, vr: vr}
	const rate, h = 0.2, 1.0 / 60
	ramp := 2 * math.Pi * math.Sqrt(42/9.81)
	full := (2.5*math.Pi - rate*ramp) / rate
	integral, last := 0.0, 0.0
	var saved *fmu.Snapshot
	var savedAngle float64
	for k := 0; float64(k)*h < 2*ramp+full-1e-9; k++ {
		w := slewRamp(rate, ramp, full, (float64(k)+0.5)*h)
		d.set("slew.rate", w)
		d.run(h)
		integral += w * h
		a := d.get("slew.angle")
		if math.Abs(a-integral) > 1e-4 || a < last-1e-5 {
			t.Fatalf("t = %.3f s: slew.angle %.6f rad after %.6f rad slewed (%.6f the step before)", d.tm, a, integral, last)
		}
		last = a
		if saved == nil && a > 2.2*math.Pi {
			var st fmu.Status
			if saved, st = in.GetState(nil); st != fmu.OK {
				t.Fatalf("GetState: %v", st)
			}
			savedAngle = a
		}
	}
	t.Logf("slewed %.6f rad: slew.angle %.6f rad", integral, last)
	if st := in.SetState(saved); st != fmu.OK {
		t.Fatalf("SetState: %v", st)
	}
	if a := d.get("slew.angle"); a != savedAngle {
		t.Errorf("slew.angle %.6f rad from the state saved at %.6f rad", a, savedAngle)
	}
}

// TestSlewWhileHoisting: the superstructure, with its boom foot, slewing
// at 0.1 rad/s while the drum, spooling across its width, hauls in at
// 2 m/s. Every fall carries the same tension within 5 % at every step
// (measured: 2.4 %), and the wire runs over each sheave at its share of
// the hook's rise, 4, 3, 2 and 1 times it (within 5 %, measured 2–4 %
// short: the hook swings out in the slew, which lifts it more than the
// falls shorten). Before, a swing carried the fall onto boom sheave 2's
// rim: the wire stayed wrapped 255° round it, the sheave stood for 8 s
// and the falls beside it carried 79 and 26 kN, with no event.
func TestSlewWhileHoisting(t *testing.T) {
	sc := example(t)
	cfg := sc["config"].(map[string]any)
	own(cfg)["slew"] = map[string]any{"center": []any{-30.0, 0.0, 1.0}, "boomFoot": []any{-25.0, 0.0, 3.0}}
	own(cfg)["drum"].(map[string]any)["spool"] = true
	var ports []any
	for _, p := range sc["ports"].([]any) {
		if name := p.(string); !strings.HasPrefix(name, "suspension.") || strings.HasPrefix(name, "suspension.f") {
			ports = append(ports, p)
		}
	}
	sc["ports"] = append(ports, "slew.rate")
	in, vr := plugintest.New(t, plugintest.ScenarioDir(t, sc), nil)
	d := &driver{t: t, in: in, vr: vr}
	d.run(2)
	const h = 1.0 / 60
	z0, worst := d.get("hook.z"), 1.0
	var run [4]float64 // m of wire over each sheave, signed as its speed
	for k := 0; k < 24*60; k++ {
		tm := float64(k) * h
		d.set("winch.speed", -2*math.Min(1, tm))
		d.set("slew.rate", 0.1*math.Min(1, tm/5))
		d.run(h)
		lo, hi := math.Inf(1), 0.0
		for j := range run {
			f := d.get(fmt.Sprintf("fall[%d].tension", j+1))
			lo, hi = math.Min(lo, f), math.Max(hi, f)
			run[j] += h * d.get(fmt.Sprintf("sheave[%d].speed", j+1))
		}
		if hi/lo > worst {
			worst = hi / lo
		}
	}
	rise := d.get("hook.z") - z0
	t.Logf("falls within %.2f %% of each other; the hook rose %.2f m, the wire over the sheaves %.3f, %.3f, %.3f, %.3f times that", 100*(worst-1), rise, run[0]/rise, run[1]/rise, run[2]/rise, run[3]/rise)
	if worst > 1.05 {
		t.Errorf("the falls' tensions %.2f times apart, want within 5 %%", worst)
	}
	for j, share := range []float64{4, 3, 2, 1} {
		if got := math.Abs(run[j]) / rise; math.Abs(got/share-1) > 0.05 {
			t.Errorf("sheave %d: %.3f m of wire over it per metre of the hook's rise, want %g within 5 %%", j+1, got, share)
		}
	}
}

// TestLuffThroughTheFMU: with a boom foot on the slewing superstructure,
// luff.rate raises the boom: 0.02 rad/s for 5 s turns luff.angle by
// 0.1 rad, the boom tip (hook.z follows it) rising.
func TestLuffThroughTheFMU(t *testing.T) {
	sc := example(t)
	own(sc["config"].(map[string]any))["slew"] = map[string]any{"center": []any{-30.0, 0.0, 1.0}, "boomFoot": []any{-25.0, 0.0, 3.0}}
	var ports []any
	for _, p := range sc["ports"].([]any) {
		if name := p.(string); strings.HasPrefix(name, "suspension.") && !strings.HasPrefix(name, "suspension.f") {
			continue
		}
		ports = append(ports, p)
	}
	sc["ports"] = append(ports, "slew.rate", "slew.angle", "luff.rate", "luff.angle")
	in, vr := plugintest.New(t, plugintest.ScenarioDir(t, sc), nil)
	d := &driver{t: t, in: in, vr: vr}
	d.run(1)
	a0, z0 := d.get("luff.angle"), d.get("hook.z")
	d.set("luff.rate", 0.02)
	d.run(5)
	d.set("luff.rate", 0)
	d.run(3)
	t.Logf("luff.angle %.6f → %.6f rad, hook %.3f → %.3f m", a0, d.get("luff.angle"), z0, d.get("hook.z"))
	if math.Abs(d.get("luff.angle")-a0-0.1) > 1e-3 || !(d.get("hook.z") > z0+1) {
		t.Errorf("luffed by %.6f rad (want 0.1), the hook from %.3f m to %.3f m", d.get("luff.angle")-a0, z0, d.get("hook.z"))
	}
}

// TestCrossedHookThroughTheFMU: the example reeved over crossed hook
// sheaves (wireHoist.crossedHook): the four falls carry their mean within
// 1 % (their weights differ by metres of lead only), the hook sheaves are wrapped
// by 180° within 0.5° and see no fleet angle (below 0.1°: the falls hang
// plumb), and the hook block does not turn (hook.yaw below 1e-4 rad).
// With sideBySide as well the scenario is refused, naming both.
func TestCrossedHookThroughTheFMU(t *testing.T) {
	sc := example(t)
	reeving := own(sc["config"].(map[string]any))
	reeving["crossedHook"] = true
	sc["ports"] = append(sc["ports"].([]any), "hook.yaw")
	in, vr := plugintest.New(t, plugintest.ScenarioDir(t, sc), nil)
	d := &driver{t: t, in: in, vr: vr}
	d.run(8)
	var sum float64
	tensions := make([]float64, 4)
	for k := range tensions {
		tensions[k] = d.get(fmt.Sprintf("fall[%d].tension", k+1))
		sum += tensions[k]
	}
	for k, T := range tensions {
		if math.Abs(T/(sum/4)-1) > 0.01 {
			t.Errorf("fall %d carries %.0f N, the falls' mean %.0f N: want within 1 %%", k+1, T, sum/4)
		}
	}
	for _, k := range []int{2, 4} {
		wrap, fleet := d.get(fmt.Sprintf("sheave[%d].wrap", k)), d.get(fmt.Sprintf("sheave[%d].fleetAngle", k))
		t.Logf("hook sheave %d: wrapped by %.3f°, fleet angle %.4f°", k/2, wrap*180/math.Pi, fleet*180/math.Pi)
		if math.Abs(wrap-math.Pi) > 0.5*math.Pi/180 || fleet > 0.1*math.Pi/180 {
			t.Errorf("hook sheave %d: wrapped by %.3f° (want 180° within 0.5°), fleet angle %.4f° (want below 0.1°)", k/2, wrap*180/math.Pi, fleet*180/math.Pi)
		}
	}
	if yaw := d.get("hook.yaw"); math.Abs(yaw) > 1e-4 {
		t.Errorf("the block turned by %.3g rad, want it hanging straight", yaw)
	}
	reeving["sideBySide"] = true
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if err := configureScenario(t, reg, sc); err == nil || !strings.Contains(err.Error(), "crossed") {
		t.Errorf("crossedHook with sideBySide: %v, want it refused", err)
	}
}

// An empty hook hung still: the example's block with 1 kg and 10 kg on it
// and no input, 40 s. The block's centre of mass lies below its sheaves'
// axles (wireHoist.block.centerBelow, a quarter of its height left out),
// so the falls hold it upright: every hook sheave keeps its wrap; and the
// lead from the drum is laid in its sag (catenaryLead), so the hook
// starts at rest and stays within 5 mm of where it started (laid
// straight, the lead fell into its sag, and the hook rose by up to
// 0.25 m and bobbed at the lead's swing for as long as it hung). With the
// centre of mass on the axles the block hung balanced about them, rocked,
// rolled over its falls and lost sheaves 2 and 4 at 21.8 s (1 kg) and
// 29.3 s (10 kg), and fell 9.5 m to the ground.
func TestEmptyHookHangs(t *testing.T) {
	for _, load := range []float64{1, 10} {
		sim, index, values := exampleSimulation(t, func(config map[string]any) {
			config["load"].(map[string]any)["mass"] = load
		})
		const h = 1.0 / 60
		out := make([]float64, len(values))
		sim.Outputs(out)
		z0, low, high := out[index["hook.z"]], math.Inf(1), math.Inf(-1)
		least := math.Inf(1)
		for k := 0; k < int(40/h); k++ {
			if err := sim.Step(0, values, values, k == 0); err != nil {
				t.Fatalf("%g kg, t = %.2f s: %v", load, float64(k)*h, err)
			}
			sim.Outputs(out)
			z := out[index["hook.z"]] - z0
			low, high = min(low, z), max(high, z)
			for s := 2; s <= 4; s += 2 { // the hook sheaves
				least = min(least, out[index[fmt.Sprintf("sheave[%d].wrap", s)]])
			}
		}
		t.Logf("%g kg: the hook %+.4f to %+.4f m from its start, the hook sheaves wrapped by at least %.2f rad", load, low, high, least)
		if low < -0.005 || high > 0.005 || least < 2.5 {
			t.Errorf("%g kg hung still for 40 s: the hook %+.4f to %+.4f m from its start, a hook sheave wrapped by %.2f rad; want it within 5 mm, each hook sheave wrapped by half a turn", load, low, high, least)
		}
	}
}
