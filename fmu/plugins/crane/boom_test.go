package crane_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

const boomExample = "../../../examples/boom-crane"

// The example's boom through the FMU: a 20 t load's weight on its tip
// (cable.fz) deflects it by W/k further within 1e-6 once rung out (its
// own weight's m g/k it hangs by from the start); slewed at 0.1 rad/s for 5 s,
// slew.angle reads 0.5 rad and the tip stays on its circle (radius
// within 1 mm of the foot's offset and the boom's reach); the same at
// communication steps of 1 ms and 0.1 s (bitwise: the tip steps on its
// own grid); luffed past the vertical, the step is an error.
func TestBoomCraneThroughTheFMU(t *testing.T) {
	const W, k = 20000 * 9.81, 1e6
	var tips [2][3]float64
	for i, dt := range []float64{1e-3, 0.1} {
		in, vr := plugintest.New(t, boomExample, nil)
		z0 := plugintest.Get(t, in, vr["tip.z"])
		plugintest.Set(t, in, vr["cable.fz"], -W)
		tm := 0.0
		run(t, in, &tm, 40, dt)
		drop := z0 - plugintest.Get(t, in, vr["tip.z"])
		if want := W / k; math.Abs(drop/want-1) > 1e-6 {
			t.Errorf("communication step %g s: the load's weight deflected the tip by %.7f m, want W/k = %.7f m", dt, drop, want)
		}
		plugintest.Set(t, in, vr["slew.rate"], 0.1)
		run(t, in, &tm, 5, dt)
		plugintest.Set(t, in, vr["slew.rate"], 0)
		// The tip's ringing from the slew's start and stop dies out (2 % of critical).
		run(t, in, &tm, 6, dt)
		x, y := plugintest.Get(t, in, vr["tip.x"])+30, plugintest.Get(t, in, vr["tip.y"]) // from the slew axis at (−30, 0)
		reach := 30.0
		t.Logf("communication step %g s: slewed to %.6f rad, the tip at (%.4f, %.4f) m, %.5f m from the axis (reach %.5f m); deflected %.6f m by the load", dt, plugintest.Get(t, in, vr["slew.angle"]), x, y, math.Hypot(x, y), reach, drop)
		if a := plugintest.Get(t, in, vr["slew.angle"]); math.Abs(a-0.5) > 1e-9 || math.Abs(math.Hypot(x, y)-reach) > 1e-3 {
			t.Errorf("communication step %g s: slewed by %.9f rad to a %.5f m circle, want 0.5 rad and %.5f m", dt, a, math.Hypot(x, y), reach)
		}
		tips[i] = [3]float64{x, y, plugintest.Get(t, in, vr["tip.z"])}
		plugintest.Set(t, in, vr["luff.rate"], 1)
		st := fmu.OK
		for j := 0; j < int(math.Round(2/dt)) && st == fmu.OK; j++ {
			st = in.DoStep(tm, dt)
			tm += dt
		}
		if st != fmu.Error {
			t.Errorf("communication step %g s: luffing past the vertical: %v, want Error", dt, st)
		}
	}
	if tips[0] != tips[1] {
		t.Errorf("the tip ends at %v at 1 ms steps and at %v at 0.1 s", tips[0], tips[1])
	}
}

// Out-of-range settings are refused, each naming its key.
func TestBoomCraneRefusals(t *testing.T) {
	plugintest.Refused(t, boomExample, [][2]string{
		{`"length": 54.20332093147061`, `"length": 0`},
		{`"luff": 1.049361887023153`, `"luff": 2`},
		{`"tipStiffness": 1e6`, `"tipStiffness": 0`},
		{`"tipDamping": 1788.854381999832`, `"tipDamping": -1`},
		{`"boom": {`, `"bom": {`},
	})
}

// An input extrapolated with its derivative keeps to its declared range,
// as a value set beyond it is refused: the slew rate at its maximum of
// 10 rad/s with a derivative of 2 rad/s² over a step of 1 s slews by
// 10 rad, not by 11 (the rate ran on to 12 rad/s, unchecked).
func TestExtrapolatedInputKeepsToItsRange(t *testing.T) {
	in, vr := plugintest.New(t, boomExample, nil)
	plugintest.Set(t, in, vr["slew.rate"], 10)
	if st := in.SetRealInputDerivatives([]uint32{vr["slew.rate"]}, []int32{1}, []float64{2}); st != fmu.OK {
		t.Fatalf("SetRealInputDerivatives: %v", st)
	}
	if st := in.DoStep(0, 1); st != fmu.OK {
		t.Fatalf("DoStep: %v", st)
	}
	if a := plugintest.Get(t, in, vr["slew.angle"]); math.Abs(a-10) > 0.02 {
		t.Errorf("slewed by %.4f rad in 1 s at 10 rad/s and rising, want 10 rad: the rate beyond its range of ±10 rad/s", a)
	}
}
