package hmrwire

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// TestEmptyHookHangsLevel: an empty hook (1 kg on the example's 500 kg
// block, its centre of mass 0.3 m below the axles) on one to twelve falls
// in a row, side by side and crossed hangs level and still for 20 s: the
// block tilts by at most 0.015 rad (0.010 measured, side by side on
// twelve falls) and moves by at most 1 cm (0.8 cm), and in a row and
// crossed it stays straight within 0.03 rad. On odd falls the hook
// sheaves' weight, and the half turn of wire under each, lay to one side
// of the falls' pull (an 80 kg sheave a radius aside on three falls in a
// row) and, side by side, the dead end pulled a radius aside of the
// axles: the block hung tilted by 0.21 rad on three falls in a row, 0.40
// on five and 0.47 side by side on three, and rocked between level and
// twice that for as long as it hung; side by side, the falls leaned
// across the boom and the block swung by up to 5.5 cm. The block now
// balances its sheaves and their wire (HoistSpec.BlockMass) and hangs
// under the falls' mean, the dead end on its axles' line; a block too
// light to balance its sheaves within itself is refused.
func TestEmptyHookHangsLevel(t *testing.T) {
	type reeving struct {
		falls         int
		side, crossed bool
	}
	var cases []reeving
	for n := 1; n <= 12; n++ {
		cases = append(cases, reeving{falls: n}, reeving{n, true, false})
		if n > 1 {
			cases = append(cases, reeving{n, false, true})
		}
	}
	for _, c := range cases {
		spec := craneSpec(c.falls, 40)
		spec.Resolution.MaxMassNodes = 50
		spec.Rope.Flexible = true
		spec.LoadMass, spec.BlockBelow, spec.SideBySide, spec.CrossedHook = 1, 0.3, c.side, c.crossed
		ho := newCrane(t, spec)
		start := ho.Block.Pos
		tilt, moved, yaw := 0.0, 0.0, 0.0
		ho.run(t, 20, func() {
			tilt = max(tilt, math.Acos(min(1, ho.Block.Rot.Rotate(geom.V(0, 0, 1)).Z)))
			moved = max(moved, ho.Block.Pos.Sub(start).Norm())
			a, _ := ho.Yaw()
			yaw = max(yaw, math.Abs(a))
		})
		t.Logf("%+v: tilted by up to %.4f rad, moved by up to %.4f m, turned by up to %.3f rad", c, tilt, moved, yaw)
		// Side by side the falls lean across one another and turn the
		// block (see the examples' README); in a row and crossed they
		// hang plumb.
		if tilt > 0.015 || moved > 0.01 || !c.side && yaw > 0.03 {
			t.Errorf("%+v: the empty hook tilted by up to %.4f rad, moved by %.4f m and turned by %.3f rad in 20 s; want it level within 0.015 rad, still within 1 cm and, but side by side, straight within 0.03 rad", c, tilt, moved, yaw)
		}
	}
	spec := craneSpec(3, 40)
	spec.BlockMass = 5
	if _, err := NewHoist(spec); !errors.Is(err, ErrHoist) || !strings.Contains(err.Error(), "cannot balance its hook sheaves on 3 falls") || !strings.Contains(err.Error(), "give the block at least") {
		t.Errorf("a 5 kg block under an 80 kg hook sheave a radius aside: %v, want it refused", err)
	}
}
