package rigidcable_test

import (
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

const rigidHoist = "../../../examples/rigid-cable"

// At rest the crane carries the load and the cable: suspension.fz = −(M + m_cable)
// g within 0.5 %, at the start and after 2 s; the cable has N+1 nodes
// from the suspension point down.
func TestRigidHoistCarriesLoadAndCable(t *testing.T) {
	in, vr, _ := plugintest.CarriesLoadAndCable(t, plugintest.Hoist{Dir: rigidHoist, Mass: 12330, Length: 10, Diameter: 0.02, Density: 7850, E: 1e11}, 0.005, nil)
	if _, ok := vr["cable.node[21].z"]; !ok {
		t.Fatal("no cable.node[21].z port")
	}
	// Node 1 is the top end of segment 1, below the sheave by the stretch
	// of half a segment under the full weight (about 1 mm).
	if z := plugintest.Get(t, in, vr["cable.node[1].z"]); z > 14 || z < 14-0.01 {
		t.Errorf("node 1 at z = %.6f m, want within 1 cm below the suspension point at 14 m", z)
	}
}

// A step the model cannot take (the suspension point sent 100 km away in
// one communication step: the rope diverges) fails the instance with the
// reason:
// Error, outputs those of the last good communication point (finite),
// further steps refused until Reset, after which it runs again.
func TestFailedStepKeepsOutputsAndResets(t *testing.T) {
	in, vr := plugintest.New(t, rigidHoist, nil)
	const H = 1.0 / 60
	tm := 0.0
	step := func() fmu.Status {
		st := in.DoStep(tm, H)
		if st == fmu.OK {
			tm += H
		}
		return st
	}
	for tm < 11 {
		if st := step(); st != fmu.OK {
			t.Fatalf("t = %.2f s: %v", tm, st)
		}
	}
	if st := in.SetReal([]uint32{vr["suspension.x"]}, []float64{1e5}); st != fmu.OK {
		t.Fatal(st)
	}
	st := fmu.OK
	for tm < 12 && st == fmu.OK {
		st = step()
	}
	if st != fmu.Error {
		t.Fatalf("the suspension point sent 100 km away: %v at t = %.2f s, want Error", st, tm)
	}
	for name, i := range vr {
		if x := plugintest.Get(t, in, i); math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("%s = %g after the failed step", name, x)
		}
	}
	if st := in.DoStep(tm, H); st != fmu.Error {
		t.Errorf("DoStep after the failed step: %v, want Error", st)
	}
	if st := in.Reset(); st != fmu.OK {
		t.Fatal(st)
	}
	for _, st := range []fmu.Status{in.SetupExperiment(false, 0, 0, false, 0), in.EnterInitializationMode(), in.ExitInitializationMode(), in.DoStep(0, H)} {
		if st != fmu.OK {
			t.Fatalf("after Reset: %v", st)
		}
	}
}

// The example's load hanging 0.5 m above the ground from a still sheave at
// 11.5 m while the winch pays out, hauls in and rests in turns of 1.5 s at
// 3 m/s for 15 s: the load lands, the slack-rope stop holds back most of
// the pay-out while hauling in takes its full length, so that each cycle
// snatches the load up (about 1 MN) higher than the last. A rope its step
// cannot hold through this ran away silently before: its segments spun up
// about their axes (a twist counted wrong by whole turns), were flung at
// 10⁶ m/s under 10¹¹ N, and only the world's limit of 1e7 m stopped it.
// Now every step either succeeds with the load slower than 20 m/s and the
// tension below 3 MN, or the instance fails with the rope's runaway named
// (segments faster than 1000 m/s against the rope's mean motion, or a
// stress no rope holds), outputs those of the last good step; this run
// fails so after 5.6 s (a known limit: repeated snatches of a slack rope
// at 3 m/s, examples/README.md).
func TestSnatchCyclesRunOrStopClearly(t *testing.T) {
	raw := plugintest.Edited(t, rigidHoist, "[0, 0, 14]", "[0, 0, 11.5]")
	errs := &errorLog{TB: t}
	in, vr := plugintest.NewLogged(t, raw, nil, errs)
	get := func(name string) float64 { return plugintest.Get(t, in, vr[name]) }
	const h = 1.0 / 60
	for k := 0; k < 900; k++ {
		w := []float64{3, -3, 0}[(k/90)%3]
		if st := in.SetReal([]uint32{vr["winch.speed"]}, []float64{w}); st != fmu.OK {
			t.Fatal(st)
		}
		if st := in.DoStep(float64(k)*h, h); st != fmu.OK {
			if !strings.Contains(errs.last, "against the rope's mean motion") && !strings.Contains(errs.last, "that no rope holds") {
				t.Fatalf("step %d failed without naming the rope's runaway: %q", k, errs.last)
			}
			t.Logf("stopped at t = %.2f s", float64(k)*h)
			return
		}
		v := math.Sqrt(get("load.vx")*get("load.vx") + get("load.vy")*get("load.vy") + get("load.vz")*get("load.vz"))
		if T := get("cable.tension"); v > 20 || math.Abs(T) > 3e6 {
			t.Fatalf("t = %.2f s: load at %.1f m/s under %.3g N, and the step succeeded", float64(k+1)*h, v, T)
		}
	}
}

// errorLog logs an instance's messages to the test and keeps its last
// error.
type errorLog struct {
	testing.TB
	last string
}

// Log implements fmu.Logger.
func (l *errorLog) Log(s fmu.Status, cat, msg string) {
	l.Logf("%v %s: %s", s, cat, msg)
	if s == fmu.Error {
		l.last = msg
	}
}
