package massless_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// A master may drive a kinematic body through its velocity alone: with
// suspension.vx = 1 m/s for 10 s (steps of 0.02 s) the load follows the crane
// to within 1.5 m of x = 10 m (a 10 m pendulum started abruptly at 1 m/s
// sways about ±1 m), both when suspension.x is no port and when it is a port the
// master never changes.
func TestVelocityOnlyDriving(t *testing.T) {
	noPositionPorts := edit(t, hoistScenario, `"suspension.x", "suspension.y", "suspension.z", `, ``)
	for name, scenario := range map[string]string{
		"suspension.x not a port":             noPositionPorts,
		"suspension.x a port never changed":   hoistScenario,
		"suspension.x set to its start value": hoistScenario,
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, scenario, false).start(nil)
			const H = 0.02
			for k := 0; k < 500; k++ {
				if name == "suspension.x set to its start value" {
					r.set("suspension.x", 0)
				}
				r.set("suspension.vx", 1)
				r.step(H)
				if fx := r.get("suspension.fx"); !finite(fx) {
					t.Fatalf("t = %.2f s: suspension.fx = %g, want finite", r.time, fx)
				}
			}
			if x := r.get("load.x"); math.Abs(x-10) > 1.5 {
				t.Errorf("after 10 s at suspension.vx = 1 m/s: load.x = %.3f m, want 10 m within 1.5 m", x)
			}
		})
	}
}

// A box hanging from an off-centre attachment, offset (0.3, 0, 0.5) m, is
// turned so that its centre of mass hangs below the attachment: with no
// input changed the tension stays within 0.5 % of Mg over the first 3 s
// (h = 1/60 s, communication steps of 0.01 s) and the load does not move.
func TestOffCentreHangsInEquilibrium(t *testing.T) {
	sc := edit(t, hoistScenario, `{"body": "load"}]`, `{"body": "load", "offset": [0.3, 0, 0.5]}]`)
	r := newRig(t, sc, false).start(nil)
	mg := mass * g
	x0, z0 := r.get("load.x"), r.get("load.z")
	worst := 0.0
	for k := 0; k < 300; k++ {
		r.step(0.01)
		tension := r.get("cable.tension")
		if dev := math.Abs(tension/mg - 1); dev > worst {
			worst = dev
		}
		if math.Abs(tension/mg-1) > 0.005 {
			t.Fatalf("t = %.2f s: tension %.1f N, want Mg = %.1f N within 0.5 %% (start-up bounce)", r.time, tension, mg)
		}
	}
	if dx, dz := r.get("load.x")-x0, r.get("load.z")-z0; math.Hypot(dx, dz) > 1e-3 {
		t.Errorf("the load moved by (%.3g, %.3g) m in 3 s at rest, want less than 1 mm", dx, dz)
	}
	t.Logf("largest tension deviation over 3 s: %.3g %%", 100*worst)
}

// Hauling a drum→sheave→hook cable in at 5 m/s for 4 s stops at the
// limit: cable.length never drops below the 5 m fixed run plus minLength
// (0.5 m) by more than 1e-9 m, the load's centre stays at least
// 0.5·0.99 m below the sheave, and every step succeeds.
func TestHaulInStopsAtTheSheave(t *testing.T) {
	for name, scenario := range map[string]string{
		"minLength 0.5":        drumScenario,
		"minLength by default": edit(t, drumScenario, `"minLength": 0.5,`, ``),
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, scenario, false).start(nil)
			const minLen = 5 + 0.5
			lowest, closest := math.Inf(1), math.Inf(1)
			for k := 0; k < 400; k++ {
				r.set("winch.speed", -5)
				r.step(0.01)
				l := r.get("cable.length")
				lowest = math.Min(lowest, l)
				if l < minLen-1e-9 {
					t.Fatalf("t = %.2f s: cable.length %.12f m, below the limit %g m by more than 1e-9 m", r.time, l, minLen)
				}
				x, y, z := r.get("load.x"), r.get("load.y"), r.get("load.z")
				d := math.Sqrt(x*x + y*y + (z-20)*(z-20))
				closest = math.Min(closest, d)
				if 20-z < 0.5*0.99 {
					t.Fatalf("t = %.2f s: load at (%.3f, %.3f, %.3f) m, %.4f m below the sheave at (0, 0, 20): want at least 0.5·0.99 m",
						r.time, x, y, z, 20-z)
				}
			}
			if lowest > minLen+1e-6 {
				t.Errorf("cable.length only came down to %.6f m: the haul never reached the limit %g m", lowest, minLen)
			}
			t.Logf("shortest cable.length %.12f m, closest approach %.4f m", lowest, closest)
		})
	}
}

// The winch's haul-in limit follows the current drum-to-sheave run: after
// the trolley travels 5 m away from the drum (run 10 m) or 3 m towards it
// (run 2 m), hauling in at 5 m/s stops with cable.length at the run plus
// minLength (0.5 m) within 1e-9 m, not at the 5 m run the cable was built
// with, and the rope is not stretched against the stop: once the winch
// has stopped the tension stays below 10·Mg (the load may still bounce
// at the stop; a rope pinned 5 m short against it would carry about
// 2900·Mg). The trolley travels at constant speed for two periods of the
// 10 m pendulum, which leaves the load without sway; the master steps at
// the internal step, and the travel time is rounded to whole internal
// steps, so that the path through its velocity samples covers the travel
// exactly (it ramps to each new velocity over two internal steps).
func TestHaulInLimitFollowsTheTrolley(t *testing.T) {
	sc := edit(t, drumScenario, `"ports": [`, `"ports": ["suspension.vx", `)
	period := 2 * math.Pi * math.Sqrt((10+mass*g/(1e11*math.Pi*0.01*0.01/15))/g)
	period = math.Round(period*60) / 60
	for _, c := range []struct {
		name   string
		travel float64 // m along x
		run    float64 // drum-to-sheave run afterwards, m
	}{
		{"away from the drum", 5, 10},
		{"towards the drum", -3, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, sc, false).start(nil)
			for k := 0; k < int(math.Round(2*period*60)); k++ {
				r.set("suspension.vx", c.travel/(2*period))
				r.step(1.0 / 60)
			}
			r.set("suspension.vx", 0)
			limit := c.run + 0.5
			lowest, peak := math.Inf(1), 0.0
			for k := 0; k < 600; k++ {
				speed := -5.0
				if k >= 400 {
					speed = 0
				}
				r.set("winch.speed", speed)
				r.step(0.01)
				lowest = math.Min(lowest, r.get("cable.length"))
				if k >= 400 {
					peak = math.Max(peak, r.get("cable.tension"))
				}
			}
			if math.Abs(lowest-limit) > 1e-9 {
				t.Errorf("hauling in stopped at cable.length %.9f m, want the %g m run plus minLength = %g m within 1e-9 m",
					lowest, c.run, limit)
			}
			if mg := mass * g; peak > 10*mg {
				t.Errorf("with the winch stopped after the haul: tension up to %.4g N = %.1f·Mg, want below 10·Mg", peak, peak/mg)
			}
		})
	}
}

// With "twist": true a load swinging at about 80° builds no twist: the
// swing of the end axis is not a rotation about it, so |cable.twist| stays
// below 1e-6 rad over 10 s. The load, hanging from the top of its box,
// starts at rest with its attachment 80° from the vertical, in the plane
// at 30° from the x axis.
func TestSwingIsNotTwist(t *testing.T) {
	const L, angle, azimuth = 10.0, 80 * math.Pi / 180, 30 * math.Pi / 180
	hx := L * math.Sin(angle) * math.Cos(azimuth)
	hy := L * math.Sin(angle) * math.Sin(azimuth)
	az := 20 - L*math.Cos(angle)
	sc := edit(t, hoistScenario,
		`"gravity", "internalStep"`, `"gravity", "internalStep", "cable.twist"`,
		`"size": [1, 1, 1], "hangsFrom": "cable"}`, `"size": [1, 1, 1], "position": [`+ftoa(hx)+`, `+ftoa(hy)+`, `+ftoa(az-0.5)+`]}`,
		`{"body": "load"}]`, `{"body": "load", "offset": [0, 0, 0.5]}]`,
		`"length0": 10`, `"length0": 10, "twist": true`)
	r := newRig(t, sc, false).start(nil)
	sway := func() float64 {
		x, y, z := r.get("load.x"), r.get("load.y"), r.get("load.z")
		return math.Atan2(math.Hypot(x, y), 20-z) * 180 / math.Pi
	}
	t.Logf("start: sway of the centre of mass %.1f°", sway())
	far := 0.0 // largest sway on the side opposite the start
	worst := 0.0
	for k := 0; k < 1000; k++ {
		r.step(0.01)
		tw := r.get("cable.twist")
		worst = math.Max(worst, math.Abs(tw))
		if !(math.Abs(tw) < 1e-6) {
			t.Fatalf("t = %.2f s: cable.twist = %.3g rad at a sway of %.1f°, want |twist| < 1e-6 rad", r.time, tw, sway())
		}
		if r.get("load.x") < 0 {
			far = math.Max(far, sway())
		}
	}
	if far < 70 {
		t.Errorf("the load swung only to %.1f° on the far side, want at least 70° (the test needs a large swing)", far)
	}
	t.Logf("far-side sway %.1f°, largest |twist| %.3g rad", far, worst)
}

// A crane that jumps to 3 m/s upward for 1 s, then stops, throws its load:
// the rope's stretch from the velocity jump (v/ω ≈ 5 cm) is far beyond its
// static stretch (3 mm), so the lightly damped rope overshoots and goes
// slack. A rope's tension never drops below 0 N, while a bilateral cable
// pushes back, tension below −0.1·Mg at some point.
func TestBilateralPushesSlackDoesNot(t *testing.T) {
	run := func(t *testing.T, scenario string) (lowest float64) {
		r := newRig(t, edit(t, scenario, `"suspension.x", "suspension.y", "suspension.z", `, ``), false).start(nil)
		lowest = math.Inf(1)
		for k := 0; k < 300; k++ {
			vz := 0.0
			if k < 100 {
				vz = 3
			}
			r.set("suspension.vz", vz)
			r.step(0.01)
			lowest = math.Min(lowest, r.get("cable.tension"))
		}
		return lowest
	}
	mg := mass * g
	if low := run(t, hoistScenario); low < 0 {
		t.Errorf("default (slack) cable: tension went down to %.1f N, want never below 0", low)
	} else if low != 0 {
		t.Errorf("default (slack) cable: lowest tension %.1f N: the load was not thrown, the rope never went slack", low)
	}
	bilateral := edit(t, hoistScenario, `"length0": 10`, `"length0": 10, "bilateral": true`)
	if low := run(t, bilateral); !(low < -0.1*mg) {
		t.Errorf("bilateral cable: lowest tension %.1f N, want below -0.1·Mg = %.1f N (the rod must push)", low, -0.1*mg)
	}
}

// Events reach a logger with logEvents on: a winch paying out abruptly at
// 0.5 m/s lets the rope go slack and then catch the load again; hauling
// in past the minimum brings the hook block to the sheave.
func TestEventsAreLogged(t *testing.T) {
	t.Run("slack and taut", func(t *testing.T) {
		r := newRig(t, hoistScenario, false)
		if st := r.in.SetDebugLogging(true, []string{"logEvents"}); st != fmu.OK {
			t.Fatalf("SetDebugLogging: %v", st)
		}
		r.start(nil)
		for k := 0; k < 100; k++ {
			r.set("winch.speed", 0.5)
			r.step(0.01)
		}
		slack, taut := r.log.find("cable cable went slack"), r.log.find("cable cable is taut again")
		if slack < 0 || taut < 0 || taut < slack {
			t.Fatalf("want a \"went slack\" then a \"taut again\" message; got (indices %d, %d):\n%s", slack, taut, r.log.dump())
		}
		for _, i := range []int{slack, taut} {
			if m := r.log.msgs[i]; m.status != fmu.OK || m.category != "logEvents" {
				t.Errorf("event %q logged as %v in category %q, want OK in logEvents", m.msg, m.status, m.category)
			}
		}
		if r.log.find("hook block") >= 0 {
			t.Errorf("paying out produced a hook block message:\n%s", r.log.dump())
		}
	})
	t.Run("hook block at the sheave", func(t *testing.T) {
		r := newRig(t, hoistScenario, false)
		if st := r.in.SetDebugLogging(true, []string{"logEvents"}); st != fmu.OK {
			t.Fatalf("SetDebugLogging: %v", st)
		}
		r.start(nil)
		for k := 0; k < 800; k++ {
			r.set("winch.speed", -2)
			r.step(0.01)
		}
		if r.log.find("the hook block reached the sheave") < 0 {
			t.Errorf("hauling in 16 m of a 10 m cable: no \"hook block reached the sheave\" message:\n%s", r.log.dump())
		}
	})
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
