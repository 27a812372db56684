package massless_test

import (
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
)

// twoFallsScenario hangs a 20 t box level from a fixed suspension on two
// cables 1 m apart and 20 m long, of a six-strand rope with its torque
// factor and a torsional stiffness of 18 N·m² (about what such a rope's
// own turn under load gives).
const twoFallsScenario = `{
  "model": "massless", "modelIdentifier": "TwoFalls", "description": "a block on two falls", "stopTime": 600,
  "step": 0.016666666666666666,
  "ports": ["a.twist", "b.twist", "a.tension", "load.z"],
  "config": {
    "gravity": 9.81,
    "bodies": [
      {"name": "suspension", "kind": "kinematic", "position": [0, 0, 20]},
      {"name": "load", "kind": "dynamic", "mass": 20000, "size": [2, 2, 2], "position": [0, 0, -0.01561]}
    ],
    "cables": [
      {"name": "a", "route": [{"body": "suspension", "offset": [-0.5, 0, 0]}, {"body": "load", "offset": [-0.5, 0, 0]}],
       "length0": 20, "rope": ROPE},
      {"name": "b", "route": [{"body": "suspension", "offset": [0.5, 0, 0]}, {"body": "load", "offset": [0.5, 0, 0]}],
       "length0": 20, "rope": ROPE}
    ]
  }
}`

const sixStrand = `{"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850, "torsionalStiffness": 18, "torqueFactor": 0.089}`

// Through the FMU, cable.rope.torqueFactor turns a block on two falls as
// the closed form says (closedform.BlockYaw): the twist of each fall,
// averaged over 600 s of the undamped turning swing, within 2 % of the
// equilibrium; the two falls twist alike. Where the twist is off the key
// is refused, as in the models that do not carry the rope's torque.
func TestRopeTorqueThroughTheFMU(t *testing.T) {
	sc := strings.ReplaceAll(twoFallsScenario, "ROPE", sixStrand)
	r := newRig(t, sc, false).start(nil)
	const h = 1.0 / 60
	var sumA, sumB float64
	n := int(600 / h)
	for k := 0; k < n; k++ {
		r.step(h)
		sumA += r.get("a.twist")
		sumB += r.get("b.twist")
	}
	want := closedform.BlockYaw(20000*9.81, 1, 20, 0.089, 0.02, 18)
	a, b := sumA/float64(n), sumB/float64(n)
	t.Logf("mean twist of the falls %.4f° and %.4f°, closed form %.4f°", a*180/math.Pi, b*180/math.Pi, want*180/math.Pi)
	// A positive torque factor turns the block counterclockwise seen from
	// above: a positive twist (about the end axes into the cable).
	if math.Abs(a/want-1) > 0.02 || math.Abs(b/want-1) > 0.02 {
		t.Errorf("mean twist %.5f and %.5f rad, want +%.5f rad within 2 %%", a, b, want)
	}
	noTwist := strings.ReplaceAll(sc, `"length0": 20, "rope"`, `"length0": 20, "twist": false, "rope"`)
	msg := "rope.torqueFactor: a massless cable without its twist does not carry the rope's torque"
	if _, err := configure(t, noTwist); err == nil || !strings.Contains(err.Error(), msg) {
		t.Errorf("a torque factor on cables without twist: %v, want a refusal saying %q", err, msg)
	}
}
