package crane_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

const example = "../../../examples/gantry-crane"

// run advances the instance by seconds in communication steps of dt.
func run(t *testing.T, in *fmu.Instance, tm *float64, seconds, dt float64) {
	t.Helper()
	for k := 0; k < int(math.Round(seconds/dt)); k++ {
		if st := in.DoStep(*tm, dt); st != fmu.OK {
			t.Fatalf("t = %.3f s: %v", *tm, st)
		}
		*tm += dt
	}
}

// The example's trolley through the FMU: commanded to 1 m/s with a 20 t
// load's weight on it (cable.fz), it runs at 1 m/s within 1 mm/s after
// 8 s, its motor giving the rolling resistance of the trolley and the
// load, μ(M g + W)·r, within 1 %, trolley.x the integral of its speed
// (within 1 cm of the ramp's closed form is not asserted: the controller's
// lag), trolley.z the rail's height; the same in communication steps of
// 1 ms and 0.1 s. A state saved at 3 s and restored continues bitwise.
func TestGantryThroughTheFMU(t *testing.T) {
	const load = 20000 * 9.81
	var ends [2][3]float64
	for i, dt := range []float64{1e-3, 0.1} {
		in, vr := plugintest.New(t, example, nil)
		plugintest.Set(t, in, vr["cable.fz"], -load)
		plugintest.Set(t, in, vr["trolley.speedCommand"], 1)
		tm := 0.0
		run(t, in, &tm, 8, dt)
		v, torque := plugintest.Get(t, in, vr["trolley.vx"]), plugintest.Get(t, in, vr["motor.torque"])
		want := 0.01 * (10000*9.81 + load) * 0.25
		t.Logf("communication step %g s: after 8 s at %.6f m/s at x = %.4f m, motor torque %.2f N·m (μ(Mg + W) r = %.2f N·m)", dt, v, plugintest.Get(t, in, vr["trolley.x"]), torque, want)
		if math.Abs(v-1) > 1e-3 || math.Abs(torque/want-1) > 0.01 {
			t.Errorf("communication step %g s: %.6f m/s with %.2f N·m, want 1 m/s within 1 mm/s and %.2f N·m within 1 %%", dt, v, torque, want)
		}
		if z := plugintest.Get(t, in, vr["trolley.z"]); z != 14 {
			t.Errorf("trolley.z = %g, want the rail's 14 m", z)
		}
		ends[i] = [3]float64{plugintest.Get(t, in, vr["trolley.x"]), v, torque}
	}
	if d := math.Abs(ends[0][0] - ends[1][0]); d > 1e-9 {
		t.Errorf("the trolley ends %.3g m apart at communication steps of 1 ms and 0.1 s", d)
	}

	in, vr := plugintest.New(t, example, nil)
	plugintest.Set(t, in, vr["trolley.speedCommand"], 0.5)
	tm := 0.0
	run(t, in, &tm, 3, 0.01)
	snap, st := in.GetState(nil)
	if st != fmu.OK {
		t.Fatal(st)
	}
	at := tm
	run(t, in, &tm, 2, 0.01)
	want := plugintest.Get(t, in, vr["trolley.x"])
	if st := in.SetState(snap); st != fmu.OK {
		t.Fatal(st)
	}
	tm = at
	run(t, in, &tm, 2, 0.01)
	if got := plugintest.Get(t, in, vr["trolley.x"]); got != want {
		t.Errorf("restored at 3 s, the trolley ends at %.17g m, not %.17g m", got, want)
	}
}

// Out-of-range settings are refused, each naming its key.
func TestGantryRefusals(t *testing.T) {
	plugintest.Refused(t, example, [][2]string{
		{`"mass": 10000`, `"mass": -1`},
		{`"wheelRadius": 0.25`, `"wheelRadius": 0`},
		{`"railFriction": 0.01`, `"railFriction": 2`},
		{`"torqueLimit": 5000`, `"torqueLimit": 0`},
		{`"gain": 2e5`, `"gain": -3`},
		{`"trolley": {`, `"trolly": {`},
	})
}
