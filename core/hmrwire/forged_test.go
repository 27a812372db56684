package hmrwire

import (
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/state"
)

// TestForgedImageRefused: a state whose structure was forged is refused
// with the reason and changes nothing, whatever it claims: a wire without
// the segments it must have, an eye or lock on a wire's own particle, a
// contact far off its edge, a negative rest length, or a count of nodes or
// order entries the state could never hold (refused before room is made
// for them: 2^24 nodes took 3.4 GB and 8 s to refuse).
func TestForgedImageRefused(t *testing.T) {
	d := newDropScene(t, true)
	for i := 0; i < 60; i++ {
		if err := d.sys.Step(0.01); err != nil {
			t.Fatal(err)
		}
	}
	sys := d.sys
	w := sys.walker(sys.image())
	imagePart := state.Save(nil, w)
	saved := sys.SaveState(nil)
	tail := saved[len(imagePart):]
	forge := func(edit func(im *image) bool) []float64 {
		im := &image{}
		if _, err := state.Load(imagePart, sys.walker(im)); err != nil {
			t.Fatal(err)
		}
		if !edit(im) {
			return nil
		}
		return append(state.Save(nil, sys.walker(im)), tail...)
	}
	before := sys.SaveState(nil)
	cases := []struct {
		name, want string
		edit       func(im *image) bool
	}{
		{"no segments", "is missing from the state's order", func(im *image) bool {
			if im.wires[0].changed {
				return false
			}
			var kept []entry
			for _, e := range im.cons {
				if e.code != codeSegment {
					kept = append(kept, e)
				}
			}
			im.cons = kept
			return true
		}},
		{"negative rest length", "node rest length -5 m", func(im *image) bool {
			im.wires[0].nodes[0].rest = -5
			return true
		}},
		{"lock on a particle", "no body of the world's own", func(im *image) bool {
			for k, e := range im.bodies {
				if e.code == codeParticle {
					for i := range im.wires[0].nodes {
						if n := &im.wires[0].nodes[i]; n.locked {
							n.body = k
							return true
						}
					}
				}
			}
			return false
		}},
		{"contact off its edge", "m along an edge of", func(im *image) bool {
			for i := range im.wires[0].nodes {
				if n := &im.wires[0].nodes[i]; Kind(n.kind) == ContactNode {
					n.s = 1e8
					return true
				}
			}
			return false
		}},
	}
	for _, c := range cases {
		bad := forge(c.edit)
		if bad == nil {
			t.Fatalf("%s: the scene has nothing to forge", c.name)
		}
		_, err := sys.LoadState(bad)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a refusal saying %q", c.name, err, c.want)
		}
	}
	// Counts no state could hold.
	nodeCount := 4 // version, last step, step means (none here), wires
	for _, at := range []struct {
		name string
		i    int
	}{{"node count", nodeCount}, {"body count", len(imagePart) - 2 - 3*len(sys.World.Constraints()) - 3*len(sys.World.Bodies())}} {
		bad := append([]float64(nil), saved...)
		bad[at.i] = 1<<24 - 1
		allocs := testing.AllocsPerRun(1, func() {
			if _, err := sys.LoadState(bad); err == nil || !strings.Contains(err.Error(), at.name+" 1.6777215e+07: want a whole number in [0, ") {
				t.Errorf("%s 2^24 − 1: %v", at.name, err)
			}
		})
		t.Logf("%s 2^24 − 1: refused with %.0f allocations", at.name, allocs)
	}
	after := sys.SaveState(nil)
	if len(after) != len(before) {
		t.Fatalf("refused states changed the state's length %d → %d", len(before), len(after))
	}
	for i := range before {
		if math.Float64bits(before[i]) != math.Float64bits(after[i]) {
			t.Fatalf("a refused state changed value %d", i)
		}
	}
}
