package hoist_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/oscillation"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// crane is the Hoist example's crane in the hoist family's form: 1 t on
// 10 m of 20 mm steel rope below a trolley's sheave 20 m up. Only "model"
// changes between the runs below; the load has no size, so the models
// whose load is a body take a steel cube of its mass (0.503 m).
const crane = `{"model": "MODEL", "modelIdentifier": "Crane", "stopTime": 60, "step": 0.016666666666666666,
  "ports": ["suspension.x", "suspension.y", "suspension.z", "suspension.vx", "suspension.vy", "suspension.vz", "winch.speed",
    "suspension.fx", "suspension.fy", "suspension.fz", "cable.tension", "cable.length",
    "load.x", "load.y", "load.z", "load.vx", "load.vy", "load.vz", "load.mass", "gravity", "internalStep"],
  "config": {"gravity": 9.81, "suspension": {"position": [0, 0, 20]}, "load": {"mass": 1000},
    "cable": {"length0": 10, "segments": 20, "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850}}}}`

// reeving is the wire hoist's own block for the crane above on one fall:
// a 0.2 m boom sheave of 20 kg at the suspension point, the wire led to it
// level from a drum 5 m behind (its top at the sheave's top), a 50 kg
// hook block (a 0.4 m cube centred on the wire's dead end, its centre of
// mass 0.1 m below it) and a 0.3 m
// sling, so that the load's top hangs length0 below the suspension point
// as on the other models.
const reeving = `, "wireHoist": {"falls": 1,
    "drum": {"center": [-5, 0, 19.9], "radius": 0.3, "width": 0.5, "mass": 200, "wound": 50, "drive": "speed"},
    "sheave": {"radius": 0.2, "width": 0.05, "sides": 48, "mass": 20, "friction": 0.2},
    "block": {"mass": 50, "size": [0.4, 0.4, 0.4]}, "sling": 0.3}`

// Reeving numbers for the closed forms.
const (
	sheaveR, sheaveM, blockM, blockSide, sling, lead = 0.2, 20.0, 50.0, 0.4, 0.3, 5.0
)

// The Hoist example's crane runs on the massless, rigid-body, mass–spring,
// spline and HMR wire models by changing "model" alone, and on the wire
// hoist with its reeving block added (one fall). On each:
//   - statics: the force on the crane at rest is the weight it carries,
//     (M + μL) g (M g for the massless cable; on the wire hoist also the
//     hook block, the boom sheave, the wire's quarter turn on it and half
//     the level lead from the drum), within 0.5 %;
//   - swing: a trolley move of 2 m in 4 s swings the load at the first
//     mode of the hanging rope with the load (closedform.HangingModes; a
//     load that is a body hangs its centre of mass half its cube lower;
//     where the rope ends on it in a joint rather than a clamp, the body
//     turns about the joint: the fundamental of that double pendulum;
//     lowered by θ₀²/16 for the amplitude θ₀), within 1 %. The wire
//     hoist's winch pays out as the boom tip moves away from its drum, so
//     that the fall keeps its length.
func TestCraneOnEveryModel(t *testing.T) {
	const (
		g, mass, length, dia, rho, ea = 9.81, 1000.0, 10.0, 0.02, 7850.0, 1e11 * math.Pi * 0.02 * 0.02 / 4
	)
	mu := rho * math.Pi * dia * dia / 4
	cube := math.Cbrt(mass / 7850)
	for _, m := range []struct {
		model string
		// ropeMass: the rope has mass; body: the load is a cube hung by
		// its top face; hinged: the rope ends in a joint on it.
		ropeMass, body, hinged bool
		// own is the model's block added to the config.
		own string
	}{
		{"massless", false, true, true, ""},
		{"rigid-cable", true, true, false, ""},
		{"mass-spring", true, false, false, ""},
		{"spline", true, false, false, ""},
		{"hmr-wire", true, true, true, ""},
		{"wire-hoist", true, true, true, reeving},
	} {
		t.Run(m.model, func(t *testing.T) {
			dir := t.TempDir()
			sc := strings.Replace(crane, "MODEL", m.model, 1)
			sc = strings.Replace(sc, `"density": 7850}}}}`, `"density": 7850}}`+m.own+`}}`, 1)
			if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), []byte(sc), 0o644); err != nil {
				t.Fatal(err)
			}
			in, vr := plugintest.New(t, dir, nil)
			// The rope's length below the suspension point, the hanging
			// body's mass, its centre of mass's depth c below the rope's
			// end and its radius of gyration squared about it (swinging
			// in the xz-plane), and what else the crane carries.
			fall, hung, c, k2, carried := length, mass, 0.0, 0.0, 0.0
			if m.body {
				c, k2 = cube/2, cube*cube/6
			}
			reeved := m.own != ""
			if reeved {
				fall = length - sling
				hung = mass + blockM
				// The block's centre of mass lies a quarter of its
				// height below the axle (wireHoist.block.centerBelow's
				// default).
				b := blockSide / 4
				c = (blockM*b + mass*(sling+cube/2)) / hung
				k2 = (blockM*(blockSide*blockSide/6+(b-c)*(b-c)) + mass*(cube*cube/6+(sling+cube/2-c)*(sling+cube/2-c))) / hung
				carried = sheaveM + mu*(math.Pi*sheaveR/2+lead/2)
			}
			rope := 0.0
			if m.ropeMass {
				rope = mu * fall
			}
			weight := (hung + rope + carried) * g
			// Statics, after 2 s at rest (the models start in or near
			// their static equilibrium).
			tm, comm := 0.0, 1.0/60
			for ; tm < 2-1e-9; tm += comm {
				if st := in.DoStep(tm, comm); st != fmu.OK {
					t.Fatalf("t = %.2f: %v", tm, st)
				}
			}
			fz := plugintest.Get(t, in, vr["suspension.fz"])
			t.Logf("force on the crane at rest %.2f N, weight carried %.2f N (%+.3f %%)", -fz, weight, 100*(-fz/weight-1))
			if math.Abs(-fz/weight-1) > 0.005 {
				t.Errorf("force on the crane %.2f N, want %.2f N within 0.5 %%", -fz, weight)
			}
			// Swing.
			stretch := (hung*g*fall + mu*g*fall*fall/2) / ea
			if !m.ropeMass {
				stretch = hung * g * fall / ea
			}
			ell := fall + stretch
			var want float64
			if m.ropeMass {
				modes, err := closedform.HangingModes(ell+c, mu, hung, g, 1)
				if err != nil {
					t.Fatal(err)
				}
				want = modes[0]
			} else {
				want = math.Sqrt(g / (ell + c))
			}
			if m.hinged {
				// The double pendulum's fundamental against the simple
				// pendulum of the centre of mass's distance.
				want *= doublePendulum(ell, c, k2, g) / math.Sqrt(g/(ell+c))
			}
			start := tm
			var trace []float64
			for ; tm < start+64-1e-9; tm += comm {
				s := tm - start
				x, v := 2.0, 0.0
				if s < 4 {
					x, v = 0.5*(s-2/math.Pi*math.Sin(math.Pi*s/2)), 0.5*(1-math.Cos(math.Pi*s/2))
				}
				plugintest.Set(t, in, vr["suspension.x"], x)
				plugintest.Set(t, in, vr["suspension.vx"], v)
				if reeved {
					plugintest.Set(t, in, vr["winch.speed"], v)
				}
				if st := in.DoStep(tm, comm); st != fmu.OK {
					t.Fatalf("t = %.2f: %v", tm, st)
				}
				if s > 6 {
					trace = append(trace, plugintest.Get(t, in, vr["load.x"])-2)
				}
			}
			f, _, err := oscillation.Measure(trace, 0, comm)
			if err != nil {
				t.Fatal(err)
			}
			amp := 0.0
			for _, x := range trace {
				amp = max(amp, math.Abs(x))
			}
			theta := math.Asin(amp / (ell + c))
			want *= 1 - theta*theta/16
			w := 2 * math.Pi * f
			t.Logf("swing %.5f rad/s at %.1f°, closed form %.5f (%+.3f %%)", w, theta*180/math.Pi, want, 100*(w/want-1))
			if math.Abs(w/want-1) > 0.01 {
				t.Errorf("swing %.5f rad/s, want %.5f within 1 %%", w, want)
			}
		})
	}
}

// doublePendulum returns the fundamental (rad/s) of a point of mass M on a
// massless rod of length l hinged to a body of the same mass M whose
// centre of mass lies c below the hinge, with the moment of inertia M·k2
// about it: det(K − ω² M) = 0 with M = [[l², l c], [l c, c² + k2]] and
// K = [[g l, 0], [0, g c]] (per unit mass; the rod carries the body, so
// the first angle's mass is the body's).
func doublePendulum(l, c, k2, g float64) float64 {
	a := l*l*(c*c+k2) - l*l*c*c
	b := -(g*l*(c*c+k2) + g*c*l*l)
	cc := g * l * g * c
	w2 := (-b - math.Sqrt(b*b-4*a*cc)) / (2 * a)
	return math.Sqrt(w2)
}

// What a model cannot represent, or another model's block, is refused by
// name, not ignored: the crane with a spline block on the mass–spring
// cable, a load size on a point load, a ground on the spline, a damping
// time on the spline, a bending stiffness on the massless cable, a key
// that moved (cable.controls), and both forms at once.
func TestCraneRefusals(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ model, old, new, want string }{
		{"mass-spring", `"segments": 20,`, `"segments": 20,`, ""},
		{"mass-spring", `"load": {"mass": 1000}`, `"load": {"mass": 1000}, "spline": {"controls": 12}`, "config.spline: settings of the spline model"},
		{"spline", `"load": {"mass": 1000}`, `"load": {"mass": 1000, "size": [1, 1, 1]}`, "load.size: the spline cable's load is a point mass"},
		{"spline", `"load": {"mass": 1000}`, `"load": {"mass": 1000}, "ground": {"height": 0, "friction": 0.5}`, "ground: the spline cable has no ground"},
		{"spline", `"density": 7850}`, `"density": 7850, "dampingTime": 0.001}`, "cable.rope.dampingTime: the spline cable has no material damping"},
		{"massless", `"density": 7850}`, `"density": 7850, "bendingStiffness": 1}`, "the massless cable does not bend"},
		{"spline", `"segments": 20,`, `"segments": 20, "controls": 12,`, "config.cable.controls: now config.spline.controls"},
		{"massless", `"gravity": 9.81,`, `"gravity": 9.81, "bodies": [{"name": "b", "kind": "static"}],`, "either by suspension, load and cable or by bodies and cables"},
		{"rigid-body-cable", "", "", `cable model "rigid-body-cable" is now called "rigid-cable"`},
		{"mass-spring", `"ports": ["suspension.x",`, `"ports": ["hoist.x",`, `port "hoist.x": now "suspension.x"`},
		{"spline", `"gravity", "internalStep"]`, `"gravity", "h"]`, `port "h": now "internalStep"`},
		{"rigid-cable", `"load": {"mass": 1000}`, `"load": {"mass": 1000}, "rigidBody": {"hook": "swivel"}`, "config.rigidBody: now config.rigidCable"},
	} {
		sc, err := fmu.ParseScenario([]byte(strings.Replace(strings.Replace(crane, "MODEL", c.model, 1), c.old, c.new, 1)))
		if err == nil {
			_, err = reg.Configure(sc)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want it accepted", c.model, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s with %s: %v, want %q", c.model, c.new, err, c.want)
		case err != nil:
			t.Logf("%s: %v", c.model, err)
		}
	}
}

// A load no rope holds is refused on every model, in the scenario and as
// the load.mass parameter at initialization, naming the stress: 500 t on
// the crane's 20 mm rope is 15.6 GPa, beyond material.RunawayStress; 300 t
// (9.4 GPa) is taken, and so is an elastic cord stretched by a third (E =
// 1 GPa under 10 t: 31 %). Before, the massless, mass–spring and spline
// cables hung 100,000 t 300 m below a 10 m rope, and the rigid-body cable
// failed in its first step with a runaway.
func TestCraneBeyondWhatRopesHold(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	const want = "a stress of 15.6 GPa (15.6 % strain): beyond 10 GPa no rope holds"
	// E in MPa, 2e5 for steel: 1 t on the 20 mm rope stretches it by
	// 15,600 %, and the 10 m rope held its load 1.5 km below the crane.
	const wantStrain = "% (T/EA with E = 2e+05 Pa): beyond 100 %, twice its length"
	for _, model := range []string{"massless", "rigid-cable", "mass-spring", "spline", "hmr-wire"} {
		for _, c := range []struct {
			mass, e string
			ok      bool
			want    string
		}{{"5e5", "1e11", false, want}, {"3e5", "1e11", true, ""}, {"1e4", "1e9", true, ""}, {"1000", "2e5", false, wantStrain}} {
			text := strings.Replace(strings.Replace(strings.Replace(crane, "MODEL", model, 1),
				`"load": {"mass": 1000}`, `"load": {"mass": `+c.mass+`}`, 1), `"E": 1e11`, `"E": `+c.e, 1)
			sc, err := fmu.ParseScenario([]byte(text))
			if err == nil {
				_, err = reg.Configure(sc)
			}
			if c.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%s, load %s kg on E = %s Pa: %v, want it %s", model, c.mass, c.e, err, map[bool]string{true: "taken", false: "refused saying " + c.want}[c.ok])
			}
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), []byte(strings.Replace(crane, "MODEL", model, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		var log logged
		if _, _, st := plugintest.Start(t, dir, map[string]float64{"load.mass": 5e5}, &log); st == fmu.OK || !strings.Contains(log.text, "beyond 10 GPa no rope holds") {
			t.Errorf("%s, load.mass 5e5 kg set before initialization: %v, log %q, want it refused", model, st, log.text)
		}
		// The rope's E as a parameter, set in MPa.
		withE := strings.Replace(strings.Replace(crane, "MODEL", model, 1), `"load.mass",`, `"load.mass", "cable.E",`, 1)
		if err := os.WriteFile(filepath.Join(dir, fmu.ScenarioFile), []byte(withE), 0o644); err != nil {
			t.Fatal(err)
		}
		log = logged{}
		if _, _, st := plugintest.Start(t, dir, map[string]float64{"cable.E": 2e5}, &log); st == fmu.OK || !strings.Contains(log.text, wantStrain) {
			t.Errorf("%s, cable.E 2e5 Pa set before initialization: %v, log %q, want it refused", model, st, log.text)
		}
	}
}

// logged collects an instance's messages.
type logged struct{ text string }

func (l *logged) Log(_ fmu.Status, _, msg string) { l.text += msg + "\n" }
