package hmrwire_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// The WireBeam example through the FMU runtime: the Atwood acceleration
// a = g(1 − r)/(1 + r) and tension 2r·m₂g/(1 + r) with r = m₁/m₂ = 0.5
// within 2 %, the beam pressed by √2 times the tension at each edge
// (down by 2T), two contact nodes, and the wire's sampled shape from one
// box over the beam to the other.
func TestWireBeamAtwood(t *testing.T) {
	in, vr := plugintest.New(t, "../../../examples/hmr-wire", nil)
	const g, m1, m2, H = 9.81, 10.0, 20.0, 1.0 / 60
	r := m1 / m2
	tm := 0.0
	for ; tm < 0.5-1e-9; tm += H {
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatalf("t = %.3f s: %v", tm, st)
		}
	}
	v0 := plugintest.Get(t, in, vr["m1.vz"])
	for ; tm < 1-1e-9; tm += H {
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatalf("t = %.3f s: %v", tm, st)
		}
	}
	a := (plugintest.Get(t, in, vr["m1.vz"]) - v0) / 0.5
	wantA := g * (1 - r) / (1 + r)
	T := plugintest.Get(t, in, vr["wire.tension"])
	wantT := 2 * r * m2 * g / (1 + r)
	fz := plugintest.Get(t, in, vr["beam.fz"])
	t.Logf("a = %.4f m/s² (%.4f), T = %.3f N (%.3f), beam fz = %.3f N, %g mass and %g contact nodes",
		a, wantA, T, wantT, fz, plugintest.Get(t, in, vr["wire.massNodes"]), plugintest.Get(t, in, vr["wire.contactNodes"]))
	if math.Abs(a/wantA-1) > 0.02 {
		t.Errorf("m1 rises at %.4f m/s², want g(1−r)/(1+r) = %.4f within 2 %%", a, wantA)
	}
	if math.Abs(T/wantT-1) > 0.02 {
		t.Errorf("tension %.3f N, want 2r·m₂g/(1+r) = %.3f within 2 %%", T, wantT)
	}
	if math.Abs(fz/(-2*T)-1) > 0.02 {
		t.Errorf("beam pressed down by %.3f N, want 2T = %.3f (√2 T at each edge)", -fz, 2*T)
	}
	if n := plugintest.Get(t, in, vr["wire.contactNodes"]); n != 2 {
		t.Errorf("%g contact nodes, want the beam's two top edges", n)
	}
	// The samples run from m1's hook over the beam (top at z = 0.1) to
	// m2's, at equal rest arc length.
	top := math.Inf(-1)
	for k := 1; k <= 21; k++ {
		top = math.Max(top, plugintest.Get(t, in, vr[fmt.Sprintf("wire.node[%d].z", k)]))
	}
	if math.Abs(top-0.1) > 1e-3 {
		t.Errorf("the wire's highest sample at z = %.4f m, want on the beam's top at 0.1 m", top)
	}
	x1, z1 := plugintest.Get(t, in, vr["wire.node[1].x"]), plugintest.Get(t, in, vr["wire.node[1].z"])
	if math.Abs(x1+0.1) > 1e-3 || math.Abs(z1-(plugintest.Get(t, in, vr["m1.z"])+0.15)) > 1e-3 {
		t.Errorf("first sample at x = %.4f, z = %.4f m: not m1's hook", x1, z1)
	}
}

// TestWireRopeTorque: 4 m of a six-strand rope (k = 0.089, GJ = 20 N·m²)
// laid at 10 kN between two fixed bodies holds its ends with the rope's
// torque k·d·T within 1 % (its sections turn within, the ends hold the
// wire's twist at zero); with its last end on a swivel both ends' torques
// fall to nothing (under 1 % of k·d·T after 2 s) as the wire untwists by
// k·d·T·L/GJ.
func TestWireRopeTorque(t *testing.T) {
	const k, gj, d, T, L = 0.089, 20.0, 0.02, 10000.0, 4.0
	for _, swivel := range []bool{false, true} {
		last := map[string]any{"end": "b", "point": []float64{L, 0, 0}}
		if swivel {
			last["swivel"] = true
		}
		sc := map[string]any{
			"model": "hmr-wire", "modelIdentifier": "TwistingWire", "stopTime": 2, "step": 1.0 / 60,
			"ports": []string{"w.tension", "w.firstEnd.ropeTorque", "w.lastEnd.ropeTorque", "w.twist"},
			"config": map[string]any{
				"gravity": 0.0,
				"bodies": []map[string]any{
					{"name": "a", "kind": "static", "position": []float64{0, 0, 0}},
					{"name": "b", "kind": "static", "position": []float64{L, 0, 0}},
				},
				"wires": []map[string]any{{
					"name": "w",
					"rope": map[string]any{"E": 1e11, "poisson": 0.3, "diameter": d, "density": 7850,
						"torqueFactor": k, "torsionalStiffness": gj},
					"route":   []map[string]any{{"end": "a", "point": []float64{0, 0, 0}}, last},
					"spacing": 0.5, "tension": T,
				}},
			},
		}
		in, vr := plugintest.New(t, plugintest.ScenarioDir(t, sc), nil)
		const H = 1.0 / 60
		for tm := 0.0; tm < 2-1e-9; tm += H {
			if st := in.DoStep(tm, H); st != fmu.OK {
				t.Fatalf("swivel %v, t = %.3f s: %v", swivel, tm, st)
			}
		}
		first, lastT := plugintest.Get(t, in, vr["w.firstEnd.ropeTorque"]), plugintest.Get(t, in, vr["w.lastEnd.ropeTorque"])
		tension, twist := plugintest.Get(t, in, vr["w.tension"]), plugintest.Get(t, in, vr["w.twist"])
		want := k * d * tension
		t.Logf("swivel %v: tension %.1f N, end torques %.4f and %.4f N·m (k·d·T = %.4f), twist %.4f rad (k·d·T·L/GJ = %.4f)", swivel, tension, first, lastT, want, twist, want*L/gj)
		if !swivel {
			if math.Abs(first/want-1) > 0.01 || math.Abs(lastT/want-1) > 0.01 {
				t.Errorf("held: end torques %.4f and %.4f N·m, want k·d·T = %.4f within 1 %%", first, lastT, want)
			}
			continue
		}
		if math.Abs(first) > 0.01*want || lastT != 0 {
			t.Errorf("on a swivel: end torques %.4f and %.4f N·m, want none", first, lastT)
		}
		if math.Abs(math.Abs(twist)/(want*L/gj)-1) > 0.02 {
			t.Errorf("on a swivel the wire untwisted by %.4f rad, want k·d·T·L/GJ = %.4f within 2 %%", twist, want*L/gj)
		}
	}
}

// A wire laid at a tension no rope carries is refused with the scenario,
// naming the wire and the tension: laid at 1e9 N, the example's 10 mm
// wire stretched to 1,270 times its length in the first step, and the
// error blamed the inputs and the internal step.
func TestWireLaidBeyondWhatRopesCarry(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tension, want string }{
		{`"tension": 1e9`, `wire "wire": tension 1e+09 N: the rope carries 1e+09 N, a stress of 1.27e+04 GPa`},
		{`"tension": 130.8`, ""},
	} {
		parsed, err := fmu.ReadScenario(plugintest.Edited(t, "../../../examples/hmr-wire", `"tension": 130.8`, c.tension))
		if err == nil {
			_, err = reg.Configure(parsed)
		}
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.tension, err, c.want)
		}
	}
}

// A frictionless wire over the beam's top edges, its loads hanging 0.6 m
// beyond the beam's end, slides along the edges and off their ends, and
// the loads fall freely: the straight pieces to the loads point out
// through the end face, which the beam does not reach past. Tested on the
// edges' two faces alone, the wire hung on the corners, the beam pulled it
// back (96.7 N along the beam) and the loads swung under it.
func TestWireSlidesOffTheBeamsEnd(t *testing.T) {
	dir := plugintest.Edited(t, "../../../examples/hmr-wire",
		`"mass": 20, "size": [0.3, 0.3, 0.3], "position": [0.1, 0, -2.05]`, `"mass": 10, "size": [0.3, 0.3, 0.3], "position": [0.1, 2.6, -2.05]`,
		`"position": [-0.1, 0, -2.05]`, `"position": [-0.1, 2.6, -2.05]`,
		`"point": [-0.1, 0, -1.9]`, `"point": [-0.1, 2.6, -1.9]`,
		`"point": [-0.1, 0, 0.1]`, `"point": [-0.1, 1.95, 0.1]`,
		`"point": [0.1, 0, 0.1]`, `"point": [0.1, 1.95, 0.1]`,
		`"point": [0.1, 0, -1.9]`, `"point": [0.1, 2.6, -1.9]`,
		`"tension": 130.8`, `"tension": 98.1`)
	in, vr := plugintest.New(t, dir, nil)
	const H, g = 1.0 / 60, 9.81
	z0 := plugintest.Get(t, in, vr["m1.z"])
	for tm := 0.0; tm < 2-1e-9; tm += H {
		if st := in.DoStep(tm, H); st != fmu.OK {
			t.Fatalf("t = %.3f s: %v", tm, st)
		}
	}
	drop := z0 - plugintest.Get(t, in, vr["m1.z"])
	n := plugintest.Get(t, in, vr["wire.contactNodes"])
	t.Logf("after 2 s: m1 %.3f m lower (free fall ½gt² = %.3f m), %g contact nodes", drop, 0.5*g*4, n)
	if n != 0 || drop < 0.95*0.5*g*4 {
		t.Errorf("after 2 s: m1 %.3f m lower, %g contact nodes; want the wire off the beam and the loads falling (½gt² = %.3f m)", drop, n, 0.5*g*4)
	}
}
