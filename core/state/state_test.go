package state_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/state"
)

// list is a state of variable length: a count, then that many numbers
// within ±Limit, then an index into them.
type list struct {
	xs   []float64
	pick int
}

func (l *list) State(c *state.Codec) {
	n := len(l.xs)
	n = c.Index("count", 100, &n) // the count the walk returns decides
	if c.Loading() {
		l.xs = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		x := 0.0
		if c.Saving() {
			x = l.xs[i]
		}
		v := c.Bounded("item", "m", &x)
		if c.Loading() {
			l.xs[i] = v
		}
	}
	c.Index("pick", max(n, 1), &l.pick)
}

// A state of variable length saves and loads back; forged counts,
// indices and numbers are refused by name and change nothing.
func TestIndexAndVariableLength(t *testing.T) {
	src := &list{xs: []float64{1, -2, 3}, pick: 2}
	saved := state.Save(nil, src)
	dst := &list{xs: []float64{9}, pick: 0}
	rest, err := state.Load(append(saved, 7), dst)
	if err != nil || len(rest) != 1 || rest[0] != 7 {
		t.Fatalf("load: rest %v, err %v", rest, err)
	}
	if len(dst.xs) != 3 || dst.xs[1] != -2 || dst.pick != 2 {
		t.Fatalf("loaded %+v", dst)
	}
	for _, c := range []struct {
		at   int
		x    float64
		want string
	}{
		{0, 100, "count 100: want a whole number in [0, 100)"},
		{0, 1.5, "count 1.5"},
		{0, -1, "count -1"},
		{0, 5, "ends before item"},
		{2, 2e9, "item 2e+09 m: beyond ±1e+09 m"},
		{4, 3, "pick 3: want a whole number in [0, 3)"},
	} {
		forged := append([]float64(nil), saved...)
		forged[c.at] = c.x
		before := &list{xs: []float64{9}, pick: 0}
		_, err := state.Load(forged, before)
		if err == nil || !errors.Is(err, state.ErrDamaged) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("value %g at %d: %v, want an error containing %q", c.x, c.at, err, c.want)
		}
		if len(before.xs) != 1 || before.xs[0] != 9 || before.pick != 0 {
			t.Errorf("value %g at %d: a refused state changed the target to %+v", c.x, c.at, before)
		}
	}
}

// LoadAll refuses a state with numbers left over before assigning any.
func TestLoadAllRefusesLeftovers(t *testing.T) {
	saved := state.Save(nil, &list{xs: []float64{1, 2}, pick: 1})
	dst := &list{xs: []float64{9}}
	err := state.LoadAll(append(saved, 7), dst)
	if err == nil || !strings.Contains(err.Error(), "1 values more than this simulation's") {
		t.Fatalf("LoadAll with a value left over: %v", err)
	}
	if len(dst.xs) != 1 || dst.xs[0] != 9 {
		t.Fatalf("a refused state changed the target to %+v", dst)
	}
	if err := state.LoadAll(saved, dst); err != nil || len(dst.xs) != 2 {
		t.Fatalf("LoadAll: %v, loaded %+v", err, dst)
	}
}
