package massless_test

import (
	"strings"
	"testing"
)

// drumScenario reels the cable from a static drum at (-5, 0, 20) m over the
// sheave of a kinematic hoist at (0, 0, 20) m down to a hanging 1000 kg box:
// 5 m of fixed run, the rest hangs.
const drumScenario = `{
  "model": "massless",
  "modelIdentifier": "Drum",
  "description": "drum, sheave and hook",
  "stopTime": 30,
  "step": 0.016666666666666666,
  "ports": ["winch.speed", "cable.tension", "cable.length", "load.x", "load.y", "load.z", "load.vz", "suspension.fz"],
  "config": {
    "gravity": 9.81,
    "bodies": [
      {"name": "drum", "kind": "static", "position": [-5, 0, 20]},
      {"name": "suspension", "kind": "kinematic", "position": [0, 0, 20]},
      {"name": "load", "kind": "dynamic", "mass": 1000, "size": [1, 1, 1], "hangsFrom": "cable"}
    ],
    "cables": [
      {
        "name": "cable",
        "route": [{"body": "drum"}, {"body": "suspension"}, {"body": "load"}],
        "length0": 15,
        "minLength": 0.5,
        "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850},
        "winch": {"name": "winch", "slip": 0}
      }
    ]
  }
}`

// Configure rejects each broken scenario with an error that names the
// culprit; the unbroken scenarios configure.
func TestConfigureRejectsBrokenScenarios(t *testing.T) {
	for name, base := range map[string]string{"hoist": hoistScenario, "drum": drumScenario} {
		if _, err := configure(t, base); err != nil {
			t.Fatalf("the %s base scenario is rejected: %v", name, err)
		}
	}
	cases := []struct {
		name  string
		base  string
		edits []string
		want  []string // fragments the error message must contain
	}{
		{"misspelt key", hoistScenario,
			[]string{`"length0": 10`, `"lenght0": 10`},
			[]string{`unknown key "cables[0].lenght0" (did you mean "length0"?)`}},
		{"route names an unknown body", hoistScenario,
			[]string{`[{"body": "suspension"}, {"body": "load"}]`, `[{"body": "trolley"}, {"body": "load"}]`},
			[]string{`cable "cable"`, `"trolley"`}},
		{"port that is not a quantity", hoistScenario,
			[]string{`"gravity", "internalStep"`, `"gravity", "internalStep", "suspension.w"`},
			[]string{`"suspension.w"`, "no such quantity"}},
		{"port listed twice", hoistScenario,
			[]string{`"gravity", "internalStep"`, `"gravity", "internalStep", "cable.tension"`},
			[]string{`"cable.tension"`, "twice"}},
		{"zero mass", hoistScenario,
			[]string{`"mass": 1000`, `"mass": 0`},
			[]string{`body "load"`, "mass 0 kg or not given", "needs its mass"}},
		{"mass left out", hoistScenario,
			[]string{`"mass": 1000, `, ``},
			[]string{`body "load"`, "mass 0 kg or not given", "needs its mass"}},
		{"negative mass", hoistScenario,
			[]string{`"mass": 1000`, `"mass": -3`},
			[]string{`body "load"`, "mass -3 kg"}},
		{"rope with E = 0", hoistScenario,
			[]string{`"E": 1e11`, `"E": 0`},
			[]string{`cable "cable"`, "rope.E 0 Pa: must lie in [1000, 1e+13] Pa"}},
		{"rope with Poisson ratio 0.7", hoistScenario,
			[]string{`"poisson": 0.3`, `"poisson": 0.7`},
			[]string{`cable "cable"`, "rope.poisson 0.7: must lie in [-0.99, 0.5]"}},
		{"hangsFrom a cable that ends elsewhere", hoistScenario,
			[]string{`"hangsFrom": "cable"}`, `"hangsFrom": "cable"},
      {"name": "box", "kind": "dynamic", "mass": 10, "size": [1, 1, 1], "position": [3, 0, 0], "hangsFrom": "cable"}`},
			[]string{`body "box"`, `cable "cable"`, "does not end on it"}},
		{"negative minLength", hoistScenario,
			[]string{`"length0": 10`, `"length0": 10, "minLength": -0.1`},
			[]string{`cable "cable"`, "minLength -0.1 m"}},
		{"body name that is no identifier", hoistScenario,
			[]string{`{"name": "load", "kind"`, `{"name": "Last-1", "kind"`},
			[]string{`body name "Last-1": want an identifier`}},
		{"cable name that is no identifier", hoistScenario,
			[]string{`"name": "cable"`, `"name": "Seil ✓"`},
			[]string{`cable name "Seil ✓": want an identifier`}},
		{"length0 too short for the fixed run plus the minimum gap", drumScenario,
			[]string{`"length0": 15`, `"length0": 5.2`},
			[]string{`cable "cable"`, "length0 5.2 m", "0.5 m"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := configure(t, edit(t, c.base, c.edits...))
			if err == nil {
				t.Fatalf("Configure accepted the scenario, want an error containing %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// The twist port exists exactly when the cable carries twist: by default
// between two end bodies, not with "twist": false (a hook swivel).
func TestTwistPortNeedsTwist(t *testing.T) {
	withPort := edit(t, hoistScenario, `"gravity", "internalStep"`, `"gravity", "internalStep", "cable.twist"`)
	if _, err := configure(t, edit(t, withPort, `"length0": 10`, `"length0": 10, "twist": false`)); err == nil || !strings.Contains(err.Error(), `"cable.twist"`) {
		t.Errorf("cable.twist as a port of a cable without twist: error %v, want one naming \"cable.twist\"", err)
	}
	m, err := configure(t, withPort)
	if err != nil {
		t.Fatalf("cable.twist as a port of a cable with twist by default: %v", err)
	}
	found := false
	for _, v := range m.Variables() {
		if v.Name == "cable.twist" {
			found = true
			if v.Unit != "rad" {
				t.Errorf("cable.twist has unit %q, want rad", v.Unit)
			}
		}
	}
	if !found {
		t.Error("cable.twist is not among the variables")
	}
}

// A body no rope holds is refused, naming the stress: 500 t on the 20 mm
// rope is 15.6 GPa, beyond material.RunawayStress; 300 t (9.4 GPa) is
// taken. Before, 100,000 t hung 300 m below a 10 m rope.
func TestBodyBeyondWhatRopesHold(t *testing.T) {
	const want = `body "load" of 5e+05 kg: hanging still, the rope carries 4.905e+06 N, a stress of 15.6 GPa (15.6 % strain): beyond 10 GPa no rope holds`
	if _, err := configure(t, edit(t, hoistScenario, `"mass": 1000`, `"mass": 5e5`)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("500 t: %v, want it refused saying %q", err, want)
	}
	if _, err := configure(t, edit(t, hoistScenario, `"mass": 1000`, `"mass": 3e5`)); err != nil {
		t.Errorf("300 t: %v, want it taken", err)
	}
}
