package plugins_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// build configures the scenario in dir and builds a simulation at its
// start values.
func build(t *testing.T, dir string) (fmu.Configured, fmu.Simulation, []float64) {
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := reg.Configure(sc)
	if err != nil {
		t.Fatal(err)
	}
	var vals []float64
	for _, v := range cfg.Variables() {
		vals = append(vals, v.Start)
	}
	sim, err := cfg.NewSimulation(vals)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, sim, vals
}

// same returns the first index where a and b differ bitwise, -2 for
// another length, -1 if none.
func same(a, b []float64) int {
	if len(a) != len(b) {
		return -2
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

var examples = []string{"massless", "rigid-cable", "mass-spring", "spline", "wire-hoist", "hmr-wire"}

// Every number of every example's state forged in turn (NaN, 1e300, its
// negative, 0.1 % off, 0.5, 2, −1), and the state cut short or extended:
// a refused state leaves the simulation, its state and its outputs, as
// it was.
func TestRefusedStateChangesNothing(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex, func(t *testing.T) {
			_, sim, vals := build(t, filepath.Join("../../examples", ex))
			for k := 0; k < 40; k++ {
				if err := sim.Step(0, vals, vals, k == 0); err != nil {
					t.Fatal(err)
				}
			}
			s0 := sim.SaveState(nil)
			out0 := append([]float64(nil), vals...)
			sim.Outputs(out0)
			refused := 0
			for i := range s0 {
				for _, x := range []float64{math.NaN(), 1e300, -s0[i], s0[i]*1.001 + 1e-3, 0.5, 2, -1} {
					f := append([]float64(nil), s0...)
					f[i] = x
					if err := sim.LoadState(f); err != nil {
						refused++
						if d := same(sim.SaveState(nil), s0); d != -1 {
							t.Errorf("value %d forged to %g (refused: %v) changed the state at %d", i, x, err, d)
							_, sim, _ = build(t, filepath.Join("../../examples", ex))
							if err := sim.LoadState(s0); err != nil {
								t.Fatal(err)
							}
							continue
						}
						out := append([]float64(nil), vals...)
						sim.Outputs(out)
						if d := same(out, out0); d != -1 {
							t.Errorf("value %d forged to %g (refused) changed output %d", i, x, d)
						}
					} else if err := sim.LoadState(s0); err != nil {
						t.Fatalf("reloading: %v", err)
					}
				}
			}
			// too short / too long
			for _, f := range [][]float64{s0[:len(s0)-1], append(append([]float64(nil), s0...), 0)} {
				if err := sim.LoadState(f); err == nil {
					t.Errorf("state of %d values accepted (want %d)", len(f), len(s0))
					sim.LoadState(s0)
				} else if d := same(sim.SaveState(nil), s0); d != -1 {
					t.Errorf("refused length %d changed state at %d", len(f), d)
				}
			}
			t.Logf("%d values, %d forgeries refused", len(s0), refused)
		})
	}
}

// Save a state after 30 steps, step 30 more; rolled back in the same
// simulation or loaded into a fresh one, the next 30 steps give the same
// outputs and state bitwise, on every example.
func TestStateContinuesBitwise(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex, func(t *testing.T) {
			_, sim, vals := build(t, filepath.Join("../../examples", ex))
			for k := 0; k < 30; k++ {
				if err := sim.Step(0, vals, vals, k == 0); err != nil {
					t.Fatal(err)
				}
			}
			s0 := sim.SaveState(nil)
			run := func(s fmu.Simulation) []float64 {
				var tr []float64
				for k := 0; k < 30; k++ {
					if err := s.Step(0, vals, vals, false); err != nil {
						t.Fatal(err)
					}
					o := append([]float64(nil), vals...)
					s.Outputs(o)
					tr = append(tr, o...)
				}
				return append(tr, s.SaveState(nil)...)
			}
			a := run(sim)
			if err := sim.LoadState(s0); err != nil {
				t.Fatal(err)
			}
			b := run(sim)
			_, fresh, _ := build(t, filepath.Join("../../examples", ex))
			if err := fresh.LoadState(s0); err != nil {
				t.Fatal(err)
			}
			c := run(fresh)
			if d := same(a, b); d != -1 {
				t.Errorf("rollback differs at %d", d)
			}
			if d := same(a, c); d != -1 {
				t.Errorf("fresh load differs at %d", d)
			}
		})
	}
}

// TestReviewHMRForgedConstraintCode: a state whose list of the world's
// constraints names a segment or an external constraint as a lock is
// refused, and the refusal leaves the simulation as it was.
func TestReviewHMRForgedConstraintCode(t *testing.T) {
	dir := filepath.Join("../../examples", "wire-hoist")
	_, sim, vals := build(t, dir)
	for k := 0; k < 40; k++ {
		if err := sim.Step(0, vals, vals, k == 0); err != nil {
			t.Fatal(err)
		}
	}
	s0 := sim.SaveState(nil)
	n0 := len(s0)
	codes := constraintCodes(s0)
	if len(codes) != 2 {
		t.Fatalf("the state's list of constraints was not found (%v)", codes)
	}
	for _, i := range codes {
		_, sim, _ := build(t, dir)
		if err := sim.LoadState(s0); err != nil {
			t.Fatal(err)
		}
		f := append([]float64(nil), s0...)
		f[i] = 2 // a lock
		err := sim.LoadState(f)
		t.Logf("forged value %d (%g): %v", i, s0[i], err)
		if err == nil {
			t.Errorf("value %d forged to 2: accepted", i)
		}
		backupErr := sim.LoadState(s0) // what fmu.Instance.putBack does
		s1 := sim.SaveState(nil)
		t.Logf("put-back: %v; state now %d values, was %d", backupErr, len(s1), n0)
		if backupErr != nil || same(s1, s0) != -1 {
			t.Errorf("value %d: a refused state left the simulation changed", i)
		}
	}
}

// constraintCodes finds the HMR wire state's list of the world's
// constraints in s (a count n, then n entries of a code — 0 external, 2
// lock, 3 segment, 4 a node's ground contact, 5 a free end's contact with
// a geometry — and two indices) and
// returns the places of the first external entry's code and the first
// segment's.
func constraintCodes(s []float64) []int {
	isIndex := func(x float64) bool { return x >= 0 && x == math.Trunc(x) && x < 1e7 }
	for i := range s {
		n := int(s[i])
		if !isIndex(s[i]) || n < 3 || i+1+3*n > len(s) {
			continue
		}
		ext, seg, locks, ok := -1, -1, 0, true
		for k := 0; k < n && ok; k++ {
			e := s[i+1+3*k : i+4+3*k]
			ok = isIndex(e[1]) && isIndex(e[2])
			switch e[0] {
			case 0:
				if ext < 0 {
					ext = i + 1 + 3*k
				}
			case 2:
				locks++
			case 3:
				if seg < 0 {
					seg = i + 1 + 3*k
				}
			case 4, 5:
			default:
				ok = false
			}
		}
		if ok && ext >= 0 && seg >= 0 && locks > 0 {
			return []int{ext, seg}
		}
	}
	return nil
}
